//! NBoard commands and responses: each line read into a typed [`Command`],
//! each reply a [`Response`] written through `Display`.

use crate::core::one_line;
use crate::formats::ggf::{self, GgfError, GgfGame};
use crate::formats::transcript::Token;
use crate::moves::{Move, is_pass_word};
use crate::protocol::{fixed2, is_binary};
use crate::search::Depth;
use crate::square::Square;
use std::fmt;
use std::str::FromStr;

/// A command from the GUI.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `nboard <version>`: enter NBoard mode.
    Nboard(u32),
    /// `set depth <n>`: the level (maximum midgame depth).
    SetDepth(u32),
    /// `set game <GGF>`: the whole game.
    SetGame(Box<GgfGame>),
    /// `set contempt <n>`: value of a draw for Black.
    SetContempt(i32),
    /// `set myname <name>`: the name to give the GUI.
    SetMyName(String),
    /// `set <other> ...`: a variable oxello does not know (ignored).
    SetOther(String),
    /// `move <mv>[/<eval>[/<time>]]`, or a bare move (version 1).
    Move(MoveSpec),
    /// `hint <n>`: the best `n` moves.
    Hint(usize),
    /// `go`: choose a move (the board is not changed).
    Go,
    /// `ping <n>`: stop, then answer `pong <n>`.
    Ping(u64),
    /// `learn`: keep the finished game.
    Learn,
    /// `analyze`: an eval for every position of the game.
    Analyze,
    Quit,
    /// `clear`: forget the transposition table.
    Clear,
    /// `stop`: end the running search now.
    Stop,
}

/// A move as the GUI writes it: square or pass, eval (discs, mover's view)
/// and time (seconds), both optional.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveSpec {
    pub token: Token,
    pub eval: Option<f64>,
    pub time: Option<f64>,
}

/// Why a move could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError(pub String);

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a move (expected F5, PA, F5/eval/time)",
            self.0
        )
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for MoveSpec {
    type Err = ParseMoveError;

    /// `F5`, `f5`, `PA`, `F5/0.50`, `F5//1.2`, `D6/0.00/3`.
    fn from_str(text: &str) -> Result<MoveSpec, ParseMoveError> {
        let error = || ParseMoveError(text.to_string());
        let mut parts = text.trim().split('/');
        let name = parts.next().unwrap_or("");
        let token = if is_pass_word(name) {
            Token::Pass
        } else {
            Token::Square(name.parse::<Square>().map_err(|_| error())?)
        };
        // An eval or time that is not a finite number (Novello sends `NaN`
        // as a forced pass's eval) is left out: the move still counts, so
        // the game stays the GUI's.
        let mut number = || {
            parts
                .next()
                .and_then(|part| part.trim().parse::<f64>().ok())
                .filter(|x| x.is_finite())
        };
        let eval = number();
        let time = number().filter(|&time| time >= 0.0);
        if parts.next().is_some() {
            return Err(error());
        }
        Ok(MoveSpec { token, eval, time })
    }
}

/// Why a line was not taken as a command.
#[derive(Clone, Debug, PartialEq)]
pub enum CommandError {
    /// Not an NBoard command: ignored, as the protocol asks.
    Unknown(String),
    /// Control characters or bytes that were not UTF-8.
    Binary,
    /// A known command with a missing or unreadable argument.
    BadArgument {
        command: &'static str,
        found: String,
        expected: &'static str,
    },
    /// `set game` with a record that cannot be read.
    Ggf(GgfError),
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Unknown(word) => write!(f, "unknown command '{word}'"),
            CommandError::Binary => f.write_str("unreadable line (binary data) ignored"),
            CommandError::BadArgument {
                command,
                found,
                expected,
            } => {
                let found: String = found.chars().take(40).collect();
                write!(f, "{command}: '{found}' is not {expected}")
            }
            CommandError::Ggf(error) => write!(f, "set game: {error}"),
        }
    }
}

impl std::error::Error for CommandError {}

/// The first word of `text` and the rest, trimmed.
fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim();
    match text.find(char::is_whitespace) {
        Some(end) => (&text[..end], text[end..].trim()),
        None => (text, ""),
    }
}

fn number<T: FromStr>(
    text: &str,
    command: &'static str,
    expected: &'static str,
    valid: impl Fn(&T) -> bool,
) -> Result<T, CommandError> {
    let (word, rest) = split_word(text);
    match word.parse::<T>() {
        Ok(value) if rest.is_empty() && valid(&value) => Ok(value),
        _ => Err(CommandError::BadArgument {
            command,
            found: text.to_string(),
            expected,
        }),
    }
}

/// Reads one line from the GUI.
pub fn parse(line: &str) -> Result<Command, CommandError> {
    if is_binary(line) {
        return Err(CommandError::Binary);
    }
    let (word, rest) = split_word(line);
    let command = match word.to_ascii_lowercase().as_str() {
        "nboard" => Command::Nboard(number(rest, "nboard", "a version number", |_| true)?),
        "set" => parse_set(rest)?,
        "move" => Command::Move(rest.parse().map_err(|_| CommandError::BadArgument {
            command: "move",
            found: rest.to_string(),
            expected: "a move (F5, PA, F5/eval/time)",
        })?),
        "hint" => Command::Hint(number(rest, "hint", "a number of moves (1-64)", |n| {
            *n >= 1
        })?),
        "go" => Command::Go,
        "ping" => Command::Ping(number(rest, "ping", "a number", |_| true)?),
        "learn" => Command::Learn,
        "analyze" | "analyse" => Command::Analyze,
        "quit" => Command::Quit,
        "clear" => Command::Clear,
        "stop" => Command::Stop,
        _ if rest.is_empty() => match word.parse::<MoveSpec>() {
            Ok(spec) => Command::Move(spec),
            Err(_) => return Err(CommandError::Unknown(word.to_string())),
        },
        _ => return Err(CommandError::Unknown(word.to_string())),
    };
    Ok(command)
}

fn parse_set(text: &str) -> Result<Command, CommandError> {
    let (variable, value) = split_word(text);
    match variable.to_ascii_lowercase().as_str() {
        "depth" => Ok(Command::SetDepth(number(
            value,
            "set depth",
            "a depth (1-60)",
            |d| (1..=crate::engine::MAX_LEVEL).contains(d),
        )?)),
        "game" => ggf::parse_one(value)
            .map(|game| Command::SetGame(Box::new(game)))
            .map_err(CommandError::Ggf),
        "contempt" => {
            let contempt: f64 = number(value, "set contempt", "a number", |x: &f64| {
                x.is_finite() && x.abs() <= 1e6
            })?;
            Ok(Command::SetContempt(contempt.round() as i32))
        }
        "myname" => {
            let (name, rest) = split_word(value);
            if name.is_empty() || !rest.is_empty() {
                return Err(CommandError::BadArgument {
                    command: "set myname",
                    found: value.to_string(),
                    expected: "a one-word name",
                });
            }
            Ok(Command::SetMyName(name.to_string()))
        }
        "" => Err(CommandError::BadArgument {
            command: "set",
            found: String::new(),
            expected: "a variable (depth, game, contempt, myname)",
        }),
        other => Ok(Command::SetOther(other.to_string())),
    }
}

/// A line to the GUI.
#[derive(Clone, Debug, PartialEq)]
pub enum Response {
    /// `set myname <name>` (one token).
    MyName(String),
    /// `pong <n>`.
    Pong(u64),
    /// `status <text>`; empty text clears the GUI's status line.
    Status(String),
    /// `search <pv> <eval> 0 <depth>`: a hint.
    Search {
        pv: Vec<Move>,
        eval: f64,
        depth: Depth,
    },
    /// `book <pv> <eval> <games> <depth>`: a hint from the opening book.
    Book {
        pv: Vec<Move>,
        eval: f64,
        games: u32,
        depth: Depth,
    },
    /// `=== <mv>[/<eval>[/<time>]]`: the answer to `go`.
    Best {
        mv: Move,
        eval: Option<f64>,
        seconds: Option<f64>,
    },
    /// `nodestats <nodes> <seconds>`.
    NodeStats { nodes: u64, seconds: f64 },
    /// `analysis <movesMade> <eval>`.
    Analysis { moves_made: usize, eval: f64 },
    /// `learned`.
    Learned,
}

/// A PV as NBoard wants it: upper-case moves joined by dashes (`F5-D6-C3`,
/// `PA-F5`), never a space.
pub fn format_pv(pv: &[Move]) -> String {
    if pv.is_empty() {
        return "PA".to_string();
    }
    pv.iter()
        .map(|mv| mv.to_upper())
        .collect::<Vec<_>>()
        .join("-")
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::MyName(name) => write!(f, "set myname {name}"),
            Response::Pong(n) => write!(f, "pong {n}"),
            Response::Status(text) if text.is_empty() => f.write_str("status"),
            // One line whatever a message quotes (a path, a file's text):
            // control characters escaped, `\n`.
            Response::Status(text) => write!(f, "status {}", one_line(text)),
            Response::Search { pv, eval, depth } => {
                write!(f, "search {} {} 0 {depth}", format_pv(pv), fixed2(*eval))
            }
            Response::Book {
                pv,
                eval,
                games,
                depth,
            } => write!(
                f,
                "book {} {} {games} {depth}",
                format_pv(pv),
                fixed2(*eval)
            ),
            Response::Best { mv, eval, seconds } => {
                write!(f, "=== {}", mv.to_upper())?;
                if eval.is_some() || seconds.is_some() {
                    f.write_str("/")?;
                    if let Some(eval) = eval {
                        f.write_str(&fixed2(*eval))?;
                    }
                }
                if let Some(seconds) = seconds {
                    write!(f, "/{}", fixed2(*seconds))?;
                }
                Ok(())
            }
            Response::NodeStats { nodes, seconds } => {
                write!(f, "nodestats {nodes} {}", fixed2(*seconds))
            }
            Response::Analysis { moves_made, eval } => {
                write!(f, "analysis {moves_made} {}", fixed2(*eval))
            }
            Response::Learned => f.write_str("learned"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands() {
        assert_eq!(parse("nboard 2"), Ok(Command::Nboard(2)));
        assert_eq!(parse("set depth 12"), Ok(Command::SetDepth(12)));
        assert_eq!(parse("SET CONTEMPT -100"), Ok(Command::SetContempt(-100)));
        assert_eq!(parse("ping 17"), Ok(Command::Ping(17)));
        assert_eq!(parse("hint 4"), Ok(Command::Hint(4)));
        let f5 = Token::Square("f5".parse().unwrap());
        assert_eq!(
            parse("move F5//1.2"),
            Ok(Command::Move(MoveSpec {
                token: f5,
                eval: None,
                time: Some(1.2)
            }))
        );
        assert_eq!(
            parse("d6/0.00"),
            Ok(Command::Move(MoveSpec {
                token: Token::Square("d6".parse().unwrap()),
                eval: Some(0.0),
                time: None
            }))
        );
        assert!(matches!(parse("move PA"), Ok(Command::Move(m)) if m.token == Token::Pass));
        assert!(matches!(
            parse("set game (;GM[Othello];)"),
            Ok(Command::SetGame(_))
        ));
        assert!(matches!(
            parse("set game (;GM[Go];)"),
            Err(CommandError::Ggf(_))
        ));
        assert!(matches!(
            parse("hint 0"),
            Err(CommandError::BadArgument { .. })
        ));
        assert!(matches!(
            parse("move Z9"),
            Err(CommandError::BadArgument { .. })
        ));
        // An unreadable eval or time is left out; the move counts.
        for text in [
            "move F5/x",
            "move F5/NaN/0.5",
            "move F5/1,2/1",
            "move F5/1.0/-5",
        ] {
            let Ok(Command::Move(m)) = parse(text) else {
                panic!("{text}: {:?}", parse(text));
            };
            assert_eq!(m.token, Token::Square("f5".parse().unwrap()), "{text}");
            assert!(m.time.is_none_or(|time| time >= 0.0), "{text}");
        }
        assert!(matches!(parse("move F5/NaN/0.5"), Ok(Command::Move(m)) if m.time == Some(0.5)));
        assert!(matches!(
            parse("move F5/1/2/3"),
            Err(CommandError::BadArgument { .. })
        ));
        assert!(matches!(
            parse("ping"),
            Err(CommandError::BadArgument { .. })
        ));
        assert_eq!(parse("set foo 3"), Ok(Command::SetOther("foo".to_string())));
        assert!(matches!(
            parse("hello world"),
            Err(CommandError::Unknown(_))
        ));
        assert!(matches!(parse("go\u{1}"), Err(CommandError::Binary)));
    }

    #[test]
    fn formats_responses() {
        let f5: Square = "f5".parse().unwrap();
        let position = crate::position::Position::default();
        let mv = position.placement(f5).unwrap();
        let best = Response::Best {
            mv,
            eval: Some(0.5),
            seconds: Some(1.234),
        };
        assert_eq!(best.to_string(), "=== F5/0.50/1.23");
        let pass = Response::Best {
            mv: Move::Pass,
            eval: None,
            seconds: None,
        };
        assert_eq!(pass.to_string(), "=== PA");
        let search = Response::Search {
            pv: vec![Move::Pass, mv],
            eval: -2.0,
            depth: Depth::Exact,
        };
        assert_eq!(search.to_string(), "search PA-F5 -2.00 0 100%");
        assert_eq!(Response::Status(String::new()).to_string(), "status");
        let stats = Response::NodeStats {
            nodes: 12,
            seconds: 1e-7,
        };
        assert_eq!(stats.to_string(), "nodestats 12 0.00");
    }
}
