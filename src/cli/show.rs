//! `oxello show`: a position as a board diagram.

use clap::Args;
use oxello::bitboard::BoardSize;
use oxello::diagram::diagram;
use oxello::formats::{board_string, transcript};
use std::error::Error;
use std::io::Write as _;
use std::process::ExitCode;

/// Options of `oxello show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The position: `start`, a board string, a transcript, or a file.
    #[arg(default_value = "start")]
    pub position: String,
    /// Board size (4, 6 or 8) for `start` and transcripts [default: 8]; a
    /// board string or a file has its own, which this must match.
    #[arg(short, long)]
    pub size: Option<BoardSize>,
}

pub fn run(args: &ShowArgs) -> Result<ExitCode, Box<dyn Error>> {
    let game = super::load(&args.position, args.size)?;
    let mut out = std::io::stdout().lock();
    let position = game.position();
    write!(out, "{}", diagram(&position))?;
    writeln!(out, "board {}", board_string::format_position(&position))?;
    // Transcripts leave passes out: a game of passes alone has none.
    let moves = transcript::format_game(&game);
    if !moves.is_empty() {
        writeln!(out, "moves {moves}")?;
    }
    Ok(ExitCode::SUCCESS)
}
