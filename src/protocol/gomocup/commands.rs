//! Gomocup commands and replies: each command read into a typed
//! [`Command`], each reply a [`Reply`] written through `Display`.
//!
//! The lines inside a `BOARD`, `yxboard` or `SWAP2BOARD` block are read by
//! the brain, which knows whether a block is open.

use crate::gomoku::board::Point;
use crate::gomoku::text::{ParsePointError, parse_xy};
use crate::protocol::is_binary;
use std::fmt;

/// A command from the manager.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `START n` or `RECTSTART w,h`: a new game on a board of this size.
    Start { width: usize, height: usize },
    /// `RESTART`: a new game on the same board.
    Restart,
    /// `BEGIN`: play the first move.
    Begin,
    /// `TURN x,y`: the opponent's move; answer one.
    Turn(Point),
    /// `BOARD`: a block of stones follows; answer a move after `DONE`.
    Board,
    /// `yxboard`: as `BOARD`, without an answer.
    YxBoard,
    /// `SWAP2BOARD`: a swap2 opening follows.
    Swap2Board,
    /// `INFO key value`.
    Info(Info),
    /// `END`: exit.
    End,
    /// `ABOUT`: the brain's name and version.
    About,
    /// `TAKEBACK x,y`: remove a stone.
    Takeback(Point),
    /// `PLAY x,y`: play this move and echo it.
    Play(Point),
    /// `yxhashclear`: empty the table.
    YxHashClear,
    /// `yxnbest N`: a move, after the best `N` (at least 1).
    YxNbest(usize),
    /// `yxstop` or `stop`: the search they stopped is over.
    YxStop,
    /// `yxshowforbid`: renju's forbidden points.
    YxShowForbid,
    /// `yxshowinfo`: the brain's limits.
    YxShowInfo,
    /// `DONE` with no block open.
    Done,
}

/// An `INFO` setting: the key read case-insensitively, a numeric value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    TimeoutTurn(i64),
    TimeoutMatch(i64),
    TimeLeft(i64),
    /// Bytes the brain may use.
    MaxMemory(i64),
    /// Table size in KiB, positive.
    HashSize(i64),
    /// Gomocup rule bits.
    Rule(i64),
    MaxDepth(i64),
    MaxNode(i64),
    ThreadNum(i64),
    ShowDetail(i64),
    /// A key whose value is a number, given something else (or out of
    /// range): ignored, and reported.
    Unreadable {
        key: String,
        value: String,
    },
    /// A key oxello does not use (`game_type`, `folder`, `evaluate`, ...),
    /// or `hash_size 0`: ignored.
    Other {
        key: String,
        value: String,
    },
}

/// Why a command was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// Not a Gomocup command (the line, printable).
    Unknown(String),
    /// A line holding characters no manager sends (control characters,
    /// bytes that are not UTF-8): answered as unknown, not echoed.
    Binary,
    /// `START`, `RECTSTART` with a size that cannot be read.
    Size(String),
    /// A command that needs a point got something else; it also needs a
    /// game, whose absence is reported first.
    Point(ParsePointError),
    /// `yxnbest` with a count that is not a positive number.
    Count(String),
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Unknown(line) => write!(f, "command {line}"),
            CommandError::Binary => f.write_str("unreadable line (binary data) ignored"),
            CommandError::Size(text) => write!(f, "unsupported size '{text}'"),
            CommandError::Point(error) => write!(f, "{error}"),
            CommandError::Count(text) => write!(f, "yxnbest: bad count '{text}'"),
        }
    }
}

impl std::error::Error for CommandError {}

/// Reads one command: a trimmed, non-empty line with no CR inside.
pub fn parse(line: &str) -> Result<Command, CommandError> {
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim()),
        None => (line, ""),
    };
    // An INFO value may be a path in the manager's code page (`folder`),
    // which reads with replacement characters: INFO is not refused for it.
    if is_binary(line) && !word.eq_ignore_ascii_case("INFO") {
        return Err(CommandError::Binary);
    }
    let point = || parse_xy(rest).map_err(CommandError::Point);
    let command = match word.to_ascii_uppercase().as_str() {
        "START" => {
            let n = rest.parse::<usize>().map_err(|_| size_error(rest))?;
            Command::Start {
                width: n,
                height: n,
            }
        }
        "RECTSTART" => {
            let p = parse_xy(rest).map_err(|_| size_error(rest))?;
            Command::Start {
                width: p.x,
                height: p.y,
            }
        }
        "RESTART" => Command::Restart,
        "BEGIN" => Command::Begin,
        "TURN" => Command::Turn(point()?),
        "BOARD" => Command::Board,
        "YXBOARD" => Command::YxBoard,
        "SWAP2BOARD" => Command::Swap2Board,
        "INFO" => Command::Info(parse_info(rest)),
        "END" => Command::End,
        "ABOUT" => Command::About,
        "TAKEBACK" => Command::Takeback(point()?),
        "PLAY" => Command::Play(point()?),
        "YXHASHCLEAR" => Command::YxHashClear,
        "YXNBEST" if rest.is_empty() => Command::YxNbest(1),
        "YXNBEST" => match rest.parse::<usize>() {
            Ok(n) if n >= 1 => Command::YxNbest(n),
            _ => return Err(CommandError::Count(printable(rest))),
        },
        "YXSTOP" | "STOP" => Command::YxStop,
        "YXSHOWFORBID" => Command::YxShowForbid,
        "YXSHOWINFO" => Command::YxShowInfo,
        "DONE" => Command::Done,
        _ => return Err(CommandError::Unknown(printable(line))),
    };
    Ok(command)
}

fn size_error(text: &str) -> CommandError {
    CommandError::Size(printable(text))
}

/// Reads `INFO`'s `key value`.
fn parse_info(rest: &str) -> Info {
    let (key, value) = match rest.split_once(char::is_whitespace) {
        Some((key, value)) => (key.to_ascii_lowercase(), value.trim()),
        None => (rest.to_ascii_lowercase(), ""),
    };
    let known: fn(i64) -> Info = match key.as_str() {
        "timeout_turn" => Info::TimeoutTurn,
        "timeout_match" => Info::TimeoutMatch,
        "time_left" => Info::TimeLeft,
        "max_memory" => Info::MaxMemory,
        "hash_size" => Info::HashSize,
        "rule" => Info::Rule,
        "max_depth" => Info::MaxDepth,
        "max_node" => Info::MaxNode,
        "thread_num" => Info::ThreadNum,
        "show_detail" => Info::ShowDetail,
        _ => {
            return Info::Other {
                key,
                value: value.to_string(),
            };
        }
    };
    match value.parse::<i64>() {
        // A table of no size is no request: left as an unknown key.
        Ok(number) if key == "hash_size" && number <= 0 => Info::Other {
            key,
            value: value.to_string(),
        },
        Ok(number) => known(number),
        Err(_) => Info::Unreadable {
            key,
            value: printable(value),
        },
    }
}

/// A text as it may be echoed: control characters dropped, at most 60
/// characters.
pub fn printable(text: &str) -> String {
    text.chars().filter(|c| !c.is_control()).take(60).collect()
}

/// A line to the manager.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// `OK`.
    Ok,
    /// `ERROR message`: the command was refused.
    Error(String),
    /// `UNKNOWN message`: the command is not known.
    Unknown(String),
    /// `MESSAGE text`: information for the manager's log.
    Message(String),
    /// A move, `x,y`.
    Move(Point),
    /// Several moves on one line, `x,y x,y ...` (a swap2 opening).
    Moves(Vec<Point>),
    /// `SWAP`: the swap2 position is handed over.
    Swap,
    /// The answer to `ABOUT`.
    About,
    /// `FORBID xxyy...`: renju's forbidden points, then a full stop.
    Forbid(Vec<Point>),
}

/// The name managers see (`ABOUT`).
pub const NAME: &str = "oxello";

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Ok => f.write_str("OK"),
            Reply::Error(message) => write!(f, "ERROR {message}"),
            Reply::Unknown(message) => write!(f, "UNKNOWN {message}"),
            Reply::Message(text) => write!(f, "MESSAGE {text}"),
            Reply::Move(p) => write!(f, "{p}"),
            Reply::Moves(points) => {
                let text: Vec<String> = points.iter().map(Point::to_string).collect();
                f.write_str(&text.join(" "))
            }
            Reply::Swap => f.write_str("SWAP"),
            Reply::About => write!(
                f,
                "name=\"{NAME}\", version=\"{}\", author=\"the oxello developers\"",
                env!("CARGO_PKG_VERSION")
            ),
            Reply::Forbid(points) => {
                f.write_str("FORBID ")?;
                for p in points {
                    write!(f, "{:02}{:02}", p.x, p.y)?;
                }
                f.write_str(".")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 75, defect 13: `ABOUT` names no placeholder country or site.
    #[test]
    fn about_has_no_placeholders() {
        let about = Reply::About.to_string();
        assert!(about.starts_with("name=\"oxello\", version=\""), "{about}");
        assert!(
            about.contains("author=\"the oxello developers\""),
            "{about}"
        );
        for placeholder in ["oxello team", "country=\"CZ\"", "https://github.com/\""] {
            assert!(!about.contains(placeholder), "{about}");
        }
    }

    #[test]
    fn reads_commands_in_any_case() {
        assert_eq!(
            parse("rectstart 20,15"),
            Ok(Command::Start {
                width: 20,
                height: 15
            })
        );
        assert_eq!(parse("turn 7, 8"), Ok(Command::Turn(Point::new(7, 8))));
        assert_eq!(parse("YXNBEST"), Ok(Command::YxNbest(1)));
        assert_eq!(
            parse("INFO Timeout_Turn 500"),
            Ok(Command::Info(Info::TimeoutTurn(500)))
        );
        assert_eq!(
            parse("INFO hash_size 0"),
            Ok(Command::Info(Info::Other {
                key: "hash_size".to_string(),
                value: "0".to_string()
            }))
        );
        assert_eq!(
            parse("START x").map_err(|e| e.to_string()),
            Err("unsupported size 'x'".to_string())
        );
        assert_eq!(
            parse("yxnbest 0").map_err(|e| e.to_string()),
            Err("yxnbest: bad count '0'".to_string())
        );
        assert!(matches!(parse("TURN 7"), Err(CommandError::Point(_))));
        assert_eq!(parse("TURN 7,\u{0}7"), Err(CommandError::Binary));
        assert_eq!(parse("ABOUT\u{fffd}"), Err(CommandError::Binary));
        // A folder in the manager's code page reads with replacement
        // characters, and is no binary line.
        assert!(matches!(
            parse("INFO folder C:\\J\u{fffd}rgen"),
            Ok(Command::Info(Info::Other { .. }))
        ));
        assert!(matches!(
            parse("INFO timeout_turn abc"),
            Ok(Command::Info(Info::Unreadable { .. }))
        ));
        assert_eq!(
            parse("INFO folder\tC:\\x"),
            Ok(Command::Info(Info::Other {
                key: "folder".to_string(),
                value: "C:\\x".to_string()
            }))
        );
        assert_eq!(
            parse("FOO\u{1}bar").map_err(|e| e.to_string()),
            Err("unreadable line (binary data) ignored".to_string())
        );
        assert_eq!(
            parse("FOO\tbar").map_err(|e| e.to_string()),
            Err("command FOObar".to_string())
        );
    }

    #[test]
    fn writes_replies() {
        let p = Point::new(1, 12);
        assert_eq!(Reply::Move(p).to_string(), "1,12");
        assert_eq!(
            Reply::Moves(vec![p, Point::new(3, 4)]).to_string(),
            "1,12 3,4"
        );
        assert_eq!(Reply::Forbid(vec![p]).to_string(), "FORBID 0112.");
        assert_eq!(Reply::Forbid(Vec::new()).to_string(), "FORBID .");
        assert_eq!(Reply::Error("x".to_string()).to_string(), "ERROR x");
    }
}
