//! `oxello move`: the best move of a position, for scripts and bots (see
//! [`oxello::protocol::oneshot`]).

use super::EngineArgs;
use clap::Args;
use oxello::bitboard::BoardSize;
use oxello::protocol::oneshot::{self, OneShot};
use std::error::Error;
use std::process::ExitCode;

/// Options of `oxello move`.
#[derive(Debug, Args)]
pub struct MoveArgs {
    /// The position: a board string, a transcript, or a file (GGF, ...).
    pub position: String,
    /// Board size (4, 6 or 8) for transcripts [default: 8]; a board string
    /// or a file has its own, which this must match.
    #[arg(short, long)]
    pub size: Option<BoardSize>,
    /// Print a JSON search result: move, score, bound, depth, PV, nodes.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &MoveArgs, engine: &EngineArgs) -> Result<ExitCode, Box<dyn Error>> {
    let request = OneShot {
        position: args.position.clone(),
        size: args.size.unwrap_or(BoardSize::Eight),
        json: args.json,
    };
    let game = oneshot::read(&request)?;
    // A board string or a file has its own size: a --size it contradicts
    // is refused, not ignored.
    super::check_size(game.size(), args.size)?;
    oneshot::answer(&request, game, engine.options()?)?;
    Ok(ExitCode::SUCCESS)
}
