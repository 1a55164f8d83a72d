//! `oxello openings --game gomoku`: writes the balanced gomoku opening list
//! (`positions/gomoku-openings.txt`, [`oxello::train::gomoku::openings`]).

use super::game::Game;
use clap::Args;
use oxello::train::gomoku::openings;
use std::error::Error;
use std::io::Write as _;
use std::process::ExitCode;

/// Options of `oxello openings`.
#[derive(Debug, Args)]
pub struct OpeningsArgs {
    /// The game: only `gomoku` has an opening generator.
    #[arg(long, value_enum, default_value_t = Game::Othello)]
    pub game: Game,
    /// Openings written, most balanced first.
    #[arg(long, default_value_t = 120, allow_negative_numbers = true)]
    pub count: usize,
}

/// Judges every opening and writes the most balanced ones on stdout, in
/// c-gomoku-cli's offset format, with their scores on stderr.
pub fn run(args: &OpeningsArgs) -> Result<ExitCode, Box<dyn Error>> {
    super::game::require_gomoku(args.game, "openings")?;
    let judged = openings::judge();
    note!(
        "{} openings judged; the {} kept (score for White to move):",
        judged.len(),
        args.count
    );
    let config = openings::config();
    let mut out = std::io::stdout().lock();
    for (score, opening) in judged.iter().take(args.count) {
        note!("{:>6} {}", score, opening.text());
        writeln!(out, "{}", opening.offsets(config))?;
    }
    Ok(ExitCode::SUCCESS)
}
