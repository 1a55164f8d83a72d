//! `--game` and the gomoku options that go with it, shared by the
//! subcommands that play either game (`console`, `selfplay`, `match`,
//! `train-eval`) and the gomoku tools (`openings`, `move-order`).

use clap::{Args, ValueEnum};
use oxello::gomoku::{Config, Rule};
use std::error::Error;

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

/// A usage error unless `game` is gomoku: `command` is a gomoku tool.
pub fn require_gomoku(game: Game, command: &str) -> Result<(), Box<dyn Error>> {
    if game == Game::Gomoku {
        Ok(())
    } else {
        Err(super::usage(format!(
            "{command} is a gomoku tool: give --game gomoku"
        )))
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

/// `N` or `WxH`.
fn parse_size(text: &str) -> Option<(usize, usize)> {
    let number = |s: &str| s.trim().parse::<usize>().ok();
    match text.split_once(['x', 'X']) {
        Some((w, h)) => Some((number(w)?, number(h)?)),
        None => number(text).map(|n| (n, n)),
    }
}

/// The gomoku board and rule, for the subcommands that take a rectangular
/// board (`console`, `match`).
#[derive(Debug, Args)]
pub struct BoardArgs {
    /// Gomoku board: `N` for N x N, or `WxH` (sides 5 to 22; default 15).
    #[arg(long, value_name = "N|WxH")]
    pub size: Option<String>,
    /// Gomoku rule: `freestyle` (n or more wins), `standard` (exactly n),
    /// `renju` (15x15; Black's double three, double four and overline are
    /// forbidden), `caro` (a row blocked at both ends does not win); for
    /// Gomocup engines `INFO rule` 0, 1, 4 and 8.
    #[arg(long)]
    pub rule: Option<Rule>,
}

impl BoardArgs {
    /// Whether either option was given.
    pub fn given(&self) -> bool {
        self.size.is_some() || self.rule.is_some()
    }

    /// The configuration they ask for with `n` in a row (5 when not
    /// given), checked; a usage error otherwise.
    pub fn config(&self, n: Option<usize>) -> Result<Config, Box<dyn Error>> {
        let size = match &self.size {
            Some(text) => Some(parse_size(text).ok_or_else(|| {
                super::usage(format!("--size {text}: use N or WxH, e.g. 15 or 20x15"))
            })?),
            None => None,
        };
        gomoku_config(size, n, self.rule)
            .validate()
            .map_err(|error| super::usage(error.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("15"), Some((15, 15)));
        assert_eq!(parse_size("20x15"), Some((20, 15)));
        assert_eq!(parse_size("x"), None);
        assert_eq!(parse_size("-3"), None);
    }
}
