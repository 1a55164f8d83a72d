//! `oxello move-order --game gomoku`: where a teacher engine's moves fall
//! in the gomoku search's move order ([`oxello::train::gomoku::order`]).

use super::game::Game;
use clap::Args;
use oxello::train::gomoku::order::{Tally, percent};
use std::error::Error;
use std::io::Write as _;
use std::process::ExitCode;

/// Options of `oxello move-order`.
#[derive(Debug, Args)]
pub struct MoveOrderArgs {
    /// The game: only `gomoku`.
    #[arg(long, value_enum, default_value_t = Game::Othello)]
    pub game: Game,
    /// The teacher's name: its moves are read from `GAMES.sgf.moves-NAME`.
    #[arg(long)]
    pub teacher: String,
    /// Match files of `oxello match --game gomoku -o`.
    #[arg(required = true, value_name = "GAMES.sgf")]
    pub games: Vec<std::path::PathBuf>,
}

/// Tallies every file and prints the report.
pub fn run(args: &MoveOrderArgs) -> Result<ExitCode, Box<dyn Error>> {
    super::game::require_gomoku(args.game, "move-order")?;
    let name = &args.teacher;
    let mut tally = Tally::default();
    for path in &args.games {
        tally.add_file(path, name)?;
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}",
        tally.teacher.line(&format!("{name}'s move in the order"))
    )?;
    for (player, ranks) in &tally.played {
        writeln!(
            out,
            "{}",
            ranks.line(&format!("{player}'s move in the order"))
        )?;
    }
    for (player, (agreed, total)) in &tally.agreed {
        writeln!(
            out,
            "{player} chose {name}'s move in {agreed} of {total} labelled positions ({:.1}%)",
            percent(*agreed, *total)
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
