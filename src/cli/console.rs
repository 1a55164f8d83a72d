//! `oxello console`: the console for people, Othello by default or gomoku
//! with `--game gomoku`.

use super::game::{Game, gomoku_config};
use clap::Args;
use oxello::gomoku::Rule;
use oxello::protocol::Mode;
use std::error::Error;

/// Options of `oxello console`.
#[derive(Debug, Args)]
pub struct ConsoleArgs {
    /// The game: `othello`, or `gomoku` (five in a row).
    #[arg(long, value_enum, default_value_t = Game::Othello)]
    pub game: Game,
    /// Gomoku board: `N` for N x N, or `WxH` (sides 5 to 22; default 15).
    #[arg(long, value_name = "N|WxH")]
    pub size: Option<String>,
    /// Gomoku rule: `freestyle` (n or more wins), `standard` (exactly n),
    /// `renju` (15x15; Black's double three, double four and overline are
    /// forbidden), `caro` (a row blocked at both ends does not win).
    #[arg(long)]
    pub rule: Option<Rule>,
    /// Gomoku: stones in a row that win (3 to 6; default 5).
    #[arg(long, value_name = "N")]
    pub n_in_row: Option<usize>,
}

/// `N` or `WxH`.
fn parse_size(text: &str) -> Option<(usize, usize)> {
    let number = |s: &str| s.trim().parse::<usize>().ok();
    match text.split_once(['x', 'X']) {
        Some((w, h)) => Some((number(w)?, number(h)?)),
        None => number(text).map(|n| (n, n)),
    }
}

/// The protocol mode the options ask for.
pub fn mode(args: &ConsoleArgs) -> Result<Mode, Box<dyn Error>> {
    match args.game {
        Game::Othello => {
            if args.size.is_some() || args.rule.is_some() || args.n_in_row.is_some() {
                return Err(super::usage(
                    "--size, --rule and --n-in-row are gomoku options (--game gomoku); \
                     the Othello console sets the board size with `new 6`",
                ));
            }
            Ok(Mode::Console)
        }
        Game::Gomoku => {
            let size = match &args.size {
                Some(text) => Some(parse_size(text).ok_or_else(|| {
                    super::usage(format!("--size {text}: use N or WxH, e.g. 15 or 20x15"))
                })?),
                None => None,
            };
            let config = gomoku_config(size, args.n_in_row, args.rule)
                .validate()
                .map_err(|error| super::usage(error.to_string()))?;
            Ok(Mode::GomokuConsole(config))
        }
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
