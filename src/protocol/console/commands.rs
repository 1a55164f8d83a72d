//! Console commands: the command table behind `help`, each line read into a
//! typed [`Command`], and the search table's formatting.

use crate::bitboard::BoardSize;
use crate::color::Color;
use crate::engine::Player;
use crate::formats::board_string;
use crate::formats::transcript::{self, Token};
use crate::moves::is_pass_word;
use crate::position::Position;
use crate::protocol::is_binary;
use crate::search::Report;
use crate::square::Square;
use std::fmt;
use std::time::Duration;

/// Who plays which colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayMode {
    /// 0: a person plays Black, the engine White.
    HumanBlack,
    /// 1: the engine plays Black, a person White.
    HumanWhite,
    /// 2: the engine plays both sides (the game is played out).
    EngineBoth,
    /// 3: people play both sides.
    HumanBoth,
}

impl PlayMode {
    pub fn from_number(n: u32) -> Option<PlayMode> {
        match n {
            0 => Some(PlayMode::HumanBlack),
            1 => Some(PlayMode::HumanWhite),
            2 => Some(PlayMode::EngineBoth),
            3 => Some(PlayMode::HumanBoth),
            _ => None,
        }
    }

    pub fn number(self) -> u32 {
        self as u32
    }

    /// Whether the engine plays `color`.
    pub fn engine_plays(self, color: Color) -> bool {
        match self {
            PlayMode::HumanBlack => color == Color::White,
            PlayMode::HumanWhite => color == Color::Black,
            PlayMode::EngineBoth => true,
            PlayMode::HumanBoth => false,
        }
    }
}

impl fmt::Display for PlayMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            PlayMode::HumanBlack => "you play Black, oxello plays White",
            PlayMode::HumanWhite => "oxello plays Black, you play White",
            PlayMode::EngineBoth => "oxello plays both sides",
            PlayMode::HumanBoth => "you play both sides",
        };
        write!(f, "mode {}: {text}", self.number())
    }
}

/// A console command with its typed arguments.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// New game from the standard position, of this size or the current one.
    New(Option<BoardSize>),
    /// New game from a position.
    SetBoard(Position),
    /// Plays a sequence of moves (passes implicit).
    Play(Vec<Token>),
    /// A bare move.
    Move(Token),
    Undo,
    Redo,
    /// The engine plays the side to move now.
    Go,
    /// The best `n` moves, without playing.
    Hint(usize),
    /// Shows or sets who the engine is.
    Level(Option<Player>),
    /// `threads [n]`: show or set the search threads.
    Threads(Option<usize>),
    /// Shows or sets who plays which colour.
    Mode(Option<PlayMode>),
    Analyze,
    Solve,
    Perft(u32),
    Load(String),
    Save(String),
    Board,
    Stop,
    Help,
    Quit,
}

/// A command of the table: its names, arguments and help line.
pub struct CommandInfo {
    pub names: &'static [&'static str],
    pub usage: &'static str,
    pub help: &'static str,
}

/// Every command, in the order `help` lists them.
pub const COMMANDS: &[CommandInfo] = &[
    CommandInfo {
        names: &["new", "init", "i", "n"],
        usage: "new [4|6|8]",
        help: "new game from the standard position",
    },
    CommandInfo {
        names: &["setboard"],
        usage: "setboard <64 squares> <side>",
        help: "new game from a position (X/* black, O white, - empty)",
    },
    CommandInfo {
        names: &["play"],
        usage: "play <moves>",
        help: "play a sequence of moves, e.g. play f5d6c3",
    },
    CommandInfo {
        names: &["<move>"],
        usage: "f5",
        help: "play one move",
    },
    CommandInfo {
        names: &["undo", "u"],
        usage: "undo",
        help: "take back your last move",
    },
    CommandInfo {
        names: &["redo", "r"],
        usage: "redo",
        help: "replay a move taken back",
    },
    CommandInfo {
        names: &["go"],
        usage: "go",
        help: "oxello plays the side to move now",
    },
    CommandInfo {
        names: &["hint"],
        usage: "hint [n]",
        help: "the best n moves (default 1), without playing",
    },
    CommandInfo {
        names: &["level", "l"],
        usage: "level [1-60|random|greedy|positional]",
        help: "oxello's strength: a search level or a simple player",
    },
    CommandInfo {
        names: &["threads"],
        usage: "threads [1-256]",
        help: "search threads (default: every core)",
    },
    CommandInfo {
        names: &["mode", "m"],
        usage: "mode [0-3]",
        help: "0 you Black, 1 you White, 2 oxello both, 3 you both",
    },
    CommandInfo {
        names: &["analyze", "analyse", "a"],
        usage: "analyze",
        help: "score every move against the best, mistakes (?) and blunders (??)",
    },
    CommandInfo {
        names: &["solve"],
        usage: "solve",
        help: "exact score of the position by searching to the end",
    },
    CommandInfo {
        names: &["perft"],
        usage: "perft <depth>",
        help: "count the move sequences of a depth (passes are plies)",
    },
    CommandInfo {
        names: &["load", "open", "o"],
        usage: "load <file>",
        help: "load a game (GGF, transcript or board string)",
    },
    CommandInfo {
        names: &["save", "s"],
        usage: "save <file>",
        help: "save the game as GGF",
    },
    CommandInfo {
        names: &["board", "show", "b"],
        usage: "board",
        help: "print the board",
    },
    CommandInfo {
        names: &["stop"],
        usage: "stop",
        help: "stop thinking (oxello plays the best move found)",
    },
    CommandInfo {
        names: &["help", "?", "h"],
        usage: "help",
        help: "this list",
    },
    CommandInfo {
        names: &["quit", "exit", "q"],
        usage: "quit",
        help: "leave",
    },
];

/// Deepest `perft` the console runs (deeper counts take hours).
pub const MAX_PERFT_DEPTH: u32 = 12;

/// Why a line is not a command, in words for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsoleError(pub String);

impl fmt::Display for ConsoleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error: {}", self.0)
    }
}

impl std::error::Error for ConsoleError {}

pub(super) fn fail<T>(message: impl Into<String>) -> Result<T, ConsoleError> {
    Err(ConsoleError(message.into()))
}

/// Reads one line; `Ok(None)` for an empty line.
pub fn parse(line: &str) -> Result<Option<Command>, ConsoleError> {
    if is_binary(line) {
        return fail("that line holds binary data; type 'help' for the commands");
    }
    let line = line.trim();
    let (word, rest) = match line.find(char::is_whitespace) {
        Some(end) => (&line[..end], line[end..].trim()),
        None => (line, ""),
    };
    if word.is_empty() {
        return Ok(None);
    }
    let lower = word.to_ascii_lowercase();
    let Some(info) = COMMANDS
        .iter()
        .find(|info| info.names.contains(&lower.as_str()))
    else {
        if rest.is_empty()
            && let Some(token) = bare_move(word)
        {
            return Ok(Some(Command::Move(token)));
        }
        let shown: String = word.chars().take(20).collect();
        return fail(format!(
            "unknown command '{shown}'; type 'help' for the commands"
        ));
    };
    let no_argument = |command: Command| {
        if rest.is_empty() {
            Ok(Some(command))
        } else {
            fail(format!("'{}' takes no argument", info.names[0]))
        }
    };
    match info.names[0] {
        "new" => match rest {
            "" => Ok(Some(Command::New(None))),
            size => match size.parse::<BoardSize>() {
                Ok(size) => Ok(Some(Command::New(Some(size)))),
                Err(error) => fail(error.to_string()),
            },
        },
        "setboard" => match board_string::parse_position(rest) {
            Ok(position) => Ok(Some(Command::SetBoard(position))),
            Err(error) => fail(format!("setboard: {error}")),
        },
        "play" => {
            if rest.is_empty() {
                return fail("play what? e.g. play f5d6c3");
            }
            match transcript::tokenize(rest) {
                Ok(tokens) => Ok(Some(Command::Play(
                    tokens.into_iter().map(|(_, token)| token).collect(),
                ))),
                Err(error) => fail(error.to_string()),
            }
        }
        "undo" => no_argument(Command::Undo),
        "redo" => no_argument(Command::Redo),
        "go" => no_argument(Command::Go),
        "hint" => match rest {
            "" => Ok(Some(Command::Hint(1))),
            n => match n.parse::<usize>() {
                Ok(n) if (1..=64).contains(&n) => Ok(Some(Command::Hint(n))),
                _ => fail(format!("hint {n}: give a number of moves from 1 to 64")),
            },
        },
        "level" => match rest {
            "" => Ok(Some(Command::Level(None))),
            text => match text.parse::<Player>() {
                Ok(player) => Ok(Some(Command::Level(Some(player)))),
                Err(error) => fail(error.to_string()),
            },
        },
        "threads" => match rest {
            "" => Ok(Some(Command::Threads(None))),
            n => match crate::core::parse_threads(n) {
                Some(n) => Ok(Some(Command::Threads(Some(n)))),
                None => fail(format!(
                    "threads {n}: give a number of threads from 1 to {}",
                    crate::core::MAX_THREADS
                )),
            },
        },
        "mode" => match rest {
            "" => Ok(Some(Command::Mode(None))),
            text => match text.parse::<u32>().ok().and_then(PlayMode::from_number) {
                Some(mode) => Ok(Some(Command::Mode(Some(mode)))),
                None => fail(format!(
                    "mode {text}: use 0 (you Black), 1 (you White), 2 (oxello both) or 3 (you both)"
                )),
            },
        },
        "analyze" => no_argument(Command::Analyze),
        "solve" => no_argument(Command::Solve),
        "perft" => match rest.parse::<u32>() {
            Ok(depth) if (1..=MAX_PERFT_DEPTH).contains(&depth) => Ok(Some(Command::Perft(depth))),
            _ => fail(format!("perft: give a depth from 1 to {MAX_PERFT_DEPTH}")),
        },
        "load" | "save" if rest.is_empty() => fail(format!("{} which file?", info.names[0])),
        "load" => Ok(Some(Command::Load(rest.to_string()))),
        "save" => Ok(Some(Command::Save(rest.to_string()))),
        "board" => no_argument(Command::Board),
        "stop" => Ok(Some(Command::Stop)),
        "help" => Ok(Some(Command::Help)),
        "quit" => Ok(Some(Command::Quit)),
        other => fail(format!("'{other}' is not available")),
    }
}

/// A square or a pass word typed alone.
fn bare_move(word: &str) -> Option<Token> {
    if word.len() == 2
        && let Ok(square) = word.parse::<Square>()
    {
        return Some(Token::Square(square));
    }
    is_pass_word(word).then_some(Token::Pass)
}

/// The help text: one line per command of [`COMMANDS`].
pub fn help_lines() -> Vec<String> {
    let mut lines = vec!["commands:".to_string()];
    for info in COMMANDS {
        let aliases = if info.names.len() > 1 {
            format!(" (also {})", info.names[1..].join(", "))
        } else {
            String::new()
        };
        lines.push(format!("  {:<40} {}{aliases}", info.usage, info.help));
    }
    lines
}

/// The table header printed when a search starts.
pub const TABLE_HEADER: [&str; 2] = [
    " depth|score|       time   |  nodes (N)  |   N/s    | principal variation",
    "------+-----+--------------+-------------+----------+----------------------",
];

/// `M:SS.mmm`, or `H:MM:SS.mmm` from an hour.
pub fn format_time(elapsed: Duration) -> String {
    let millis = elapsed.as_millis();
    let (seconds, millis) = (millis / 1000, millis % 1000);
    let (minutes, seconds) = (seconds / 60, seconds % 60);
    if minutes >= 60 {
        format!(
            "{}:{:02}:{seconds:02}.{millis:03}",
            minutes / 60,
            minutes % 60
        )
    } else {
        format!("{minutes}:{seconds:02}.{millis:03}")
    }
}

/// A score with its bound marker: `>+04`, ` -12`, `<+00`.
pub fn format_score(report: &Report) -> String {
    format!("{}{:+03}", report.bound.marker(), report.score)
}

/// One row of the search table.
pub fn table_row(report: &Report) -> String {
    let pv: Vec<String> = report.pv.iter().map(|mv| mv.to_string()).collect();
    let row = format!(
        "{:>6} {:>5} {:>14} {:>13} {:>10}  {}",
        report.depth.to_string(),
        format_score(report),
        format_time(report.elapsed),
        report.nodes,
        report.nodes_per_second().round() as u64,
        pv.join(" ")
    );
    row.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Depth;

    #[test]
    fn parses_commands() {
        assert_eq!(parse("  "), Ok(None));
        assert_eq!(parse("new 6"), Ok(Some(Command::New(Some(BoardSize::Six)))));
        assert_eq!(
            parse("F5"),
            Ok(Some(Command::Move(Token::Square("f5".parse().unwrap()))))
        );
        assert_eq!(parse("pass"), Ok(Some(Command::Move(Token::Pass))));
        assert_eq!(parse("hint"), Ok(Some(Command::Hint(1))));
        assert_eq!(
            parse("m 2"),
            Ok(Some(Command::Mode(Some(PlayMode::EngineBoth))))
        );
        assert!(matches!(parse("play f5d6"), Ok(Some(Command::Play(t))) if t.len() == 2));
        for bad in [
            "new 7",
            "hint 0",
            "mode 5",
            "perft 99",
            "frobnicate",
            "level 0",
            "undo 3",
            "play",
            "save",
            "\u{1}",
        ] {
            let error = parse(bad).unwrap_err();
            assert!(error.to_string().starts_with("error: "), "{bad}");
        }
    }

    #[test]
    fn formats_the_table() {
        let report = Report {
            rank: 0,
            depth: Depth::plies(12),
            score: 4,
            bound: crate::search::Bound::Lower,
            pv: Vec::new(),
            nodes: 1000,
            elapsed: Duration::from_millis(61_234),
        };
        let row = table_row(&report);
        assert_eq!(
            row, "    12  >+04       1:01.234          1000         16",
            "{row}"
        );
        assert_eq!(format_time(Duration::from_secs(3725)), "1:02:05.000");
    }
}
