//! `oxello console`: the console for people, Othello by default or gomoku
//! with `--game gomoku`.

use super::game::{BoardArgs, Game};
use clap::Args;
use oxello::protocol::Mode;
use std::error::Error;

/// Options of `oxello console`.
#[derive(Debug, Args)]
pub struct ConsoleArgs {
    /// The game: `othello`, or `gomoku` (five in a row).
    #[arg(long, value_enum, default_value_t = Game::Othello)]
    pub game: Game,
    #[command(flatten)]
    pub board: BoardArgs,
    /// Gomoku: stones in a row that win (3 to 6; default 5).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub n_in_row: Option<usize>,
}

/// The protocol mode the options ask for.
pub fn mode(args: &ConsoleArgs) -> Result<Mode, Box<dyn Error>> {
    match args.game {
        Game::Othello => {
            if args.board.given() || args.n_in_row.is_some() {
                return Err(super::usage(
                    "--size, --rule and --n-in-row are gomoku options (--game gomoku); \
                     the Othello console sets the board size with `new 6`",
                ));
            }
            Ok(Mode::Console)
        }
        Game::Gomoku => Ok(Mode::GomokuConsole(args.board.config(args.n_in_row)?)),
    }
}
