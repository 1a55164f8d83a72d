//! GTP commands and responses: the command table, input preprocessing,
//! each line read into a typed [`Request`], each answer a [`Response`]
//! written through `Display`.

use crate::color::Color;
use crate::core::one_line;
use crate::formats::transcript::Token;
use crate::moves::is_pass_word;
use crate::square::Square;
use std::fmt;

/// A command with its typed arguments.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    ProtocolVersion,
    Name,
    Version,
    KnownCommand(String),
    ListCommands,
    Quit,
    /// `boardsize n`: any integer (only 4, 6 and 8 are accepted when run).
    BoardSize(u64),
    ClearBoard,
    Komi(f64),
    Play(Color, Token),
    Genmove(Color),
    RegGenmove(Color),
    Undo,
    ShowBoard,
    TimeSettings {
        main: f64,
        byo_time: f64,
        byo_stones: u32,
    },
    TimeLeft {
        color: Color,
        seconds: f64,
        stones: u32,
    },
    LoadSgf {
        path: String,
        move_number: Option<usize>,
    },
    FinalScore,
    ListGames,
    SetGame(String),
    RulesGameId,
    RulesBoard,
    RulesBoardSize,
    RulesLegalMoves,
    RulesSideToMove,
    RulesFinalResult,
    /// `oxello-threads n`: search threads from now on (1-256).
    Threads(usize),
}

/// A command and its id.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub id: Option<u64>,
    pub command: Command,
}

/// A failure, with the text GTP clients know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GtpError {
    UnknownCommand,
    Syntax(String),
    UnacceptableSize,
    IllegalMove,
    WrongColor,
    CannotUndo,
    CannotLoad(String),
    UnsupportedGame,
}

impl fmt::Display for GtpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GtpError::UnknownCommand => f.write_str("unknown command"),
            GtpError::Syntax(what) => write!(f, "syntax error: {what}"),
            GtpError::UnacceptableSize => f.write_str("unacceptable size"),
            GtpError::IllegalMove => f.write_str("illegal move"),
            GtpError::WrongColor => f.write_str("wrong color"),
            GtpError::CannotUndo => f.write_str("cannot undo"),
            GtpError::CannotLoad(why) => write!(f, "cannot load file: {why}"),
            GtpError::UnsupportedGame => f.write_str("unsupported game"),
        }
    }
}

impl std::error::Error for GtpError {}

/// The answer to one command.
#[derive(Clone, Debug, PartialEq)]
pub struct Response {
    pub id: Option<u64>,
    pub result: Result<String, GtpError>,
}

impl fmt::Display for Response {
    /// `=id result` or `?id error`, without the empty line that ends it.
    /// A result starting with a new line begins on the next line. An error
    /// is one line, its control characters escaped (`\n`): the text a
    /// file or an argument put in it would otherwise break the framing (an
    /// empty line ends the reply) and send raw bytes to the client.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (mark, text) = match &self.result {
            Ok(text) => ('=', text.clone()),
            Err(error) => ('?', one_line(&error.to_string())),
        };
        write!(f, "{mark}")?;
        if let Some(id) = self.id {
            write!(f, "{id}")?;
        }
        if text.is_empty() || text.starts_with('\n') {
            f.write_str(&text)
        } else {
            write!(f, " {text}")
        }
    }
}

impl Response {
    /// The lines of the answer, the empty line that ends it included.
    pub fn lines(&self) -> Vec<String> {
        let text = self.to_string();
        let mut lines: Vec<String> = text
            .split('\n')
            .filter(|line| !line.trim().is_empty())
            .map(str::to_string)
            .collect();
        if lines.is_empty() {
            lines.push("=".to_string());
        }
        lines.push(String::new());
        lines
    }
}

type Parser = fn(&[&str]) -> Result<Command, GtpError>;

/// A command of the table: its name and how its arguments are read.
pub struct CommandSpec {
    pub name: &'static str,
    parse: Parser,
}

fn color(text: Option<&&str>) -> Result<Color, GtpError> {
    let text = text.ok_or_else(|| GtpError::Syntax("missing colour".to_string()))?;
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(GtpError::Syntax(format!("invalid color '{text}'"))),
    }
}

fn vertex(text: Option<&&str>) -> Result<Token, GtpError> {
    let text = text.ok_or_else(|| GtpError::Syntax("missing vertex".to_string()))?;
    if is_pass_word(text) {
        return Ok(Token::Pass);
    }
    text.parse::<Square>()
        .map(Token::Square)
        .map_err(|_| GtpError::Syntax(format!("invalid vertex '{text}'")))
}

fn seconds(text: Option<&&str>, what: &str) -> Result<f64, GtpError> {
    text.and_then(|t| t.parse::<f64>().ok())
        .filter(|x| x.is_finite() && *x >= 0.0 && *x < 1e9)
        .ok_or_else(|| GtpError::Syntax(format!("{what} must be a number of seconds")))
}

fn count(text: Option<&&str>, what: &str) -> Result<u32, GtpError> {
    text.and_then(|t| t.parse::<u32>().ok())
        .ok_or_else(|| GtpError::Syntax(format!("{what} must be a non-negative integer")))
}

/// Every command, in the order `list_commands` prints them.
pub const COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        name: "protocol_version",
        parse: |_| Ok(Command::ProtocolVersion),
    },
    CommandSpec {
        name: "name",
        parse: |_| Ok(Command::Name),
    },
    CommandSpec {
        name: "version",
        parse: |_| Ok(Command::Version),
    },
    CommandSpec {
        name: "known_command",
        parse: |args| match args.first() {
            Some(name) => Ok(Command::KnownCommand(name.to_string())),
            None => Err(GtpError::Syntax("missing command name".to_string())),
        },
    },
    CommandSpec {
        name: "list_commands",
        parse: |_| Ok(Command::ListCommands),
    },
    CommandSpec {
        name: "quit",
        parse: |_| Ok(Command::Quit),
    },
    CommandSpec {
        name: "boardsize",
        parse: |args| {
            args.first()
                .and_then(|n| n.parse::<u64>().ok())
                .map(Command::BoardSize)
                .ok_or_else(|| GtpError::Syntax("boardsize is not an integer".to_string()))
        },
    },
    CommandSpec {
        name: "clear_board",
        parse: |_| Ok(Command::ClearBoard),
    },
    CommandSpec {
        name: "komi",
        parse: |args| {
            args.first()
                .and_then(|k| k.parse::<f64>().ok())
                .filter(|k| k.is_finite())
                .map(Command::Komi)
                .ok_or_else(|| GtpError::Syntax("komi is not a number".to_string()))
        },
    },
    CommandSpec {
        name: "play",
        parse: |args| Ok(Command::Play(color(args.first())?, vertex(args.get(1))?)),
    },
    CommandSpec {
        name: "genmove",
        parse: |args| Ok(Command::Genmove(color(args.first())?)),
    },
    CommandSpec {
        name: "reg_genmove",
        parse: |args| Ok(Command::RegGenmove(color(args.first())?)),
    },
    CommandSpec {
        name: "undo",
        parse: |_| Ok(Command::Undo),
    },
    CommandSpec {
        name: "oxello-threads",
        parse: |args| {
            args.first()
                .and_then(|n| crate::core::parse_threads(n))
                .map(Command::Threads)
                .ok_or_else(|| {
                    GtpError::Syntax(format!(
                        "oxello-threads takes a number of threads from 1 to {}",
                        crate::core::MAX_THREADS
                    ))
                })
        },
    },
    CommandSpec {
        name: "showboard",
        parse: |_| Ok(Command::ShowBoard),
    },
    CommandSpec {
        name: "time_settings",
        parse: |args| {
            Ok(Command::TimeSettings {
                main: seconds(args.first(), "main time")?,
                byo_time: seconds(args.get(1), "byo-yomi time")?,
                byo_stones: count(args.get(2), "byo-yomi stones")?,
            })
        },
    },
    CommandSpec {
        name: "time_left",
        parse: |args| {
            Ok(Command::TimeLeft {
                color: color(args.first())?,
                seconds: seconds(args.get(1), "time left")?,
                stones: count(args.get(2), "stones")?,
            })
        },
    },
    CommandSpec {
        name: "loadsgf",
        parse: |args| {
            let path = args
                .first()
                .ok_or_else(|| GtpError::Syntax("missing file name".to_string()))?;
            let move_number = match args.get(1) {
                None => None,
                Some(n) => Some(n.parse::<usize>().map_err(|_| {
                    GtpError::Syntax("move number must be a positive integer".to_string())
                })?),
            };
            Ok(Command::LoadSgf {
                path: path.to_string(),
                move_number,
            })
        },
    },
    CommandSpec {
        name: "final_score",
        parse: |_| Ok(Command::FinalScore),
    },
    CommandSpec {
        name: "list_games",
        parse: |_| Ok(Command::ListGames),
    },
    CommandSpec {
        name: "set_game",
        parse: |args| {
            if args.is_empty() {
                Err(GtpError::Syntax("missing game name".to_string()))
            } else {
                Ok(Command::SetGame(args.join(" ")))
            }
        },
    },
    CommandSpec {
        name: "gogui-rules_game_id",
        parse: |_| Ok(Command::RulesGameId),
    },
    CommandSpec {
        name: "gogui-rules_board",
        parse: |_| Ok(Command::RulesBoard),
    },
    CommandSpec {
        name: "gogui-rules_board_size",
        parse: |_| Ok(Command::RulesBoardSize),
    },
    CommandSpec {
        name: "gogui-rules_legal_moves",
        parse: |_| Ok(Command::RulesLegalMoves),
    },
    CommandSpec {
        name: "gogui-rules_side_to_move",
        parse: |_| Ok(Command::RulesSideToMove),
    },
    CommandSpec {
        name: "gogui-rules_final_result",
        parse: |_| Ok(Command::RulesFinalResult),
    },
];

pub(super) fn find(name: &str) -> Option<&'static CommandSpec> {
    COMMANDS
        .iter()
        .find(|spec| spec.name.eq_ignore_ascii_case(name))
}

/// The GTP input preprocessing: control characters other than tab deleted,
/// tabs turned into spaces, comments (`#` onwards) dropped, then trimmed.
pub fn preprocess(line: &str) -> String {
    let cleaned: String = line
        .chars()
        .filter(|c| !c.is_control() || *c == '\t')
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    let without_comment = match cleaned.find('#') {
        Some(start) => &cleaned[..start],
        None => &cleaned[..],
    };
    without_comment.trim().to_string()
}

/// Reads one line: `None` when it is empty after preprocessing (no answer is
/// due), else the request, or the id and the error to answer with.
pub fn parse(line: &str) -> Option<Result<Request, (Option<u64>, GtpError)>> {
    let line = preprocess(line);
    let mut words: Vec<&str> = line.split(' ').filter(|w| !w.is_empty()).collect();
    if words.is_empty() {
        return None;
    }
    let mut id = None;
    if words[0].bytes().all(|b| b.is_ascii_digit()) {
        match words[0].parse::<u64>() {
            Ok(n) => id = Some(n),
            Err(_) => return Some(Err((None, GtpError::Syntax("id too large".to_string())))),
        }
        words.remove(0);
    }
    let Some((&name, args)) = words.split_first() else {
        return Some(Err((id, GtpError::Syntax("missing command".to_string()))));
    };
    let Some(spec) = find(name) else {
        return Some(Err((id, GtpError::UnknownCommand)));
    };
    Some(
        (spec.parse)(args)
            .map(|command| Request { id, command })
            .map_err(|error| (id, error)),
    )
}

/// Whether a first line in [`crate::protocol::Mode::Auto`] starts a GTP
/// session: a known GTP command (with or without id) that is not also a
/// console command (`quit`, `undo`, and `play` without a colour).
pub fn starts_session(line: &str) -> bool {
    let Some(Ok(request)) = parse(line) else {
        return matches!(parse(line), Some(Err((Some(_), _))));
    };
    request.id.is_some() || !matches!(request.command, Command::Quit | Command::Undo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framing_and_preprocessing() {
        assert_eq!(preprocess("\t1 play\tb f5 # comment\r"), "1 play b f5");
        assert_eq!(parse("   # only a comment"), None);
        assert_eq!(
            parse("7 genmove W"),
            Some(Ok(Request {
                id: Some(7),
                command: Command::Genmove(Color::White)
            }))
        );
        assert_eq!(
            parse("3 frobnicate"),
            Some(Err((Some(3), GtpError::UnknownCommand)))
        );
        let ok = Response {
            id: Some(2),
            result: Ok("d6".to_string()),
        };
        assert_eq!(ok.lines(), vec!["=2 d6", ""]);
        let empty = Response {
            id: None,
            result: Ok(String::new()),
        };
        assert_eq!(empty.lines(), vec!["=", ""]);
        let error = Response {
            id: Some(3),
            result: Err(GtpError::IllegalMove),
        };
        assert_eq!(error.lines(), vec!["?3 illegal move", ""]);
    }
}
