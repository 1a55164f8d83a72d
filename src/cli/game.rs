//! `--game` and the gomoku options that go with it, shared by the
//! subcommands that play either game (`console`, `selfplay`).

use clap::ValueEnum;
use oxello::gomoku::{Config, Rule};

/// Which game a subcommand plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Game {
    #[default]
    Othello,
    Gomoku,
}

impl Game {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Game::Othello => "othello",
            Game::Gomoku => "gomoku",
        }
    }
}

/// The gomoku configuration of a `width` x `height` board (15x15 when not
/// given), `n` in a row (5) and `rule` (freestyle), not yet validated.
pub fn gomoku_config(size: Option<(usize, usize)>, n: Option<usize>, rule: Option<Rule>) -> Config {
    let default = Config::default();
    let (width, height) = size.unwrap_or((default.width, default.height));
    Config {
        width,
        height,
        n: n.unwrap_or(default.n),
        rule: rule.unwrap_or(default.rule),
    }
}
