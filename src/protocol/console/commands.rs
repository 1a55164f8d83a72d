//! The commands both consoles share: who plays which colour
//! ([`PlayMode`]), the table behind `help`, and each line read into a typed
//! [`Command`]. A game adds its own commands ([`CommandInfo`] rows handed
//! to [`parse`]) and reads its moves and levels itself.

use crate::color::Color;
use crate::core::{MAX_THREADS, one_line, parse_threads};
use crate::protocol::is_binary;
use std::fmt;
use std::time::Duration;

/// Who plays which colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayMode {
    /// 0: a person plays Black, oxello White (the default).
    HumanBlack,
    /// 1: oxello plays Black, a person White.
    HumanWhite,
    /// 2: oxello plays both sides (the game is played out).
    EngineBoth,
    /// 3: people play both sides; oxello moves only on `go`.
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

    /// Whether oxello plays `color`.
    pub fn engine_plays(self, color: Color) -> bool {
        match self {
            PlayMode::HumanBlack => color == Color::White,
            PlayMode::HumanWhite => color == Color::Black,
            PlayMode::EngineBoth => true,
            PlayMode::HumanBoth => false,
        }
    }

    /// Whether a person plays against oxello (modes 0 and 1).
    pub fn against_engine(self) -> bool {
        matches!(self, PlayMode::HumanBlack | PlayMode::HumanWhite)
    }

    /// Who plays what, as a sentence: `You play Black (X), oxello plays
    /// White`.
    pub fn sentence(self) -> &'static str {
        match self {
            PlayMode::HumanBlack => "You play Black (X), oxello plays White (O)",
            PlayMode::HumanWhite => "oxello plays Black (X), you play White (O)",
            PlayMode::EngineBoth => "oxello plays both sides",
            PlayMode::HumanBoth => "You play both sides (oxello moves on 'go')",
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

/// `Black` or `White`, for sentences.
pub fn title(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// A time per move: `time 5` or `time off`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeSetting {
    /// No time limit: the level alone decides.
    Off,
    PerMove(Duration),
}

/// Shortest time per move `time` accepts, seconds.
pub const MIN_SECONDS: f64 = 0.01;
/// Longest time per move `time` accepts, seconds.
pub const MAX_SECONDS: f64 = 3600.0;

/// The words for a time per move: `3 s per move`, `no limit (the level
/// decides)`.
pub fn describe_time(time: Option<Duration>) -> String {
    match time {
        Some(time) => format!("{} s per move", time.as_secs_f64()),
        None => "no limit (the level decides)".to_string(),
    }
}

/// A console command with its typed arguments. What only a game knows (a
/// move's syntax, a level's, a new game's size) stays text, for the game.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// One move or several, typed bare (`f5`, `h8 i9`) or after `play`.
    Moves(String),
    /// `new [arguments]`: a new game.
    New(String),
    /// `undo [n]`: take back n moves, then back to the person's turn.
    Undo(usize),
    /// `redo [n]`: replay n moves, then on to the person's turn.
    Redo(usize),
    /// oxello plays the side to move now.
    Go,
    /// The best n moves, without playing.
    Hint(usize),
    /// Shows or sets oxello's level (the game reads it).
    Level(Option<String>),
    /// Shows or sets the time per move.
    Time(Option<TimeSetting>),
    /// Shows or sets the search threads.
    Threads(Option<usize>),
    /// Shows or sets who plays which colour.
    Mode(Option<PlayMode>),
    Board,
    Stop,
    Help,
    Quit,
    /// A command of the game's own table: its first name, and the rest of
    /// the line.
    Game(&'static str, String),
}

/// A command of a table: its names, arguments and help line.
#[derive(Clone, Copy, Debug)]
pub struct CommandInfo {
    pub names: &'static [&'static str],
    pub usage: &'static str,
    pub help: &'static str,
}

/// What a game tells the shared table: its move syntax and what its
/// levels and new games take.
#[derive(Clone, Copy, Debug)]
pub struct GameWords {
    /// A move as typed: `f5`, `h8`.
    pub move_example: &'static str,
    /// A sequence of moves: `play f5d6c3`.
    pub play_example: &'static str,
    /// `new`'s arguments and help.
    pub new: (&'static str, &'static str),
    /// `level`'s arguments and help.
    pub level: (&'static str, &'static str),
    /// The default time per move, in words.
    pub default_time: &'static str,
}

/// Greatest `hint n`.
pub const MAX_HINTS: usize = 64;

/// The shared commands, in the order `help` lists them; `play` and the
/// bare move are described with the game's words.
const SHARED: &[CommandInfo] = &[
    CommandInfo {
        names: &["<move>"],
        usage: "",
        help: "play a move",
    },
    CommandInfo {
        names: &["play", "p"],
        usage: "",
        help: "play a sequence of moves",
    },
    CommandInfo {
        names: &["undo", "u"],
        usage: "undo [n]",
        help: "take back n moves (default 1), then back to your turn",
    },
    CommandInfo {
        names: &["redo", "r"],
        usage: "redo [n]",
        help: "replay n moves taken back (default 1), then on to your turn",
    },
    CommandInfo {
        names: &["go"],
        usage: "go",
        help: "oxello plays the side to move now",
    },
    CommandInfo {
        names: &["hint"],
        usage: "hint [n]",
        help: "the best n moves (default 1), not played",
    },
    CommandInfo {
        names: &["stop"],
        usage: "stop (or Ctrl-C)",
        help: "oxello moves now with the best move found; a hint or analysis just stops",
    },
    CommandInfo {
        names: &["mode", "m"],
        usage: "mode [0-3]",
        help: "0 you Black (default), 1 you White, 2 oxello both, 3 you both",
    },
    CommandInfo {
        names: &["level", "l"],
        usage: "",
        help: "",
    },
    CommandInfo {
        names: &["time", "t"],
        usage: "time [seconds|off]",
        help: "oxello's time per move",
    },
    CommandInfo {
        names: &["threads"],
        usage: "threads [1-256]",
        help: "search threads (default: every core)",
    },
    CommandInfo {
        names: &["new", "init", "i", "n"],
        usage: "",
        help: "",
    },
    CommandInfo {
        names: &["board", "show", "b"],
        usage: "board",
        help: "print the board",
    },
    CommandInfo {
        names: &["help", "?", "h"],
        usage: "help",
        help: "this list",
    },
    CommandInfo {
        names: &["quit", "exit", "q"],
        usage: "quit",
        help: "leave (Ctrl-C when nothing runs, or twice)",
    },
];

/// Why a line is not a command, or a command cannot be done, in words for
/// people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsoleError(pub String);

impl fmt::Display for ConsoleError {
    /// `error: ...` on one line, control characters escaped (`\n`): a
    /// file's text quoted by `load` sends no raw bytes to the terminal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error: {}", one_line(&self.0))
    }
}

impl std::error::Error for ConsoleError {}

impl From<String> for ConsoleError {
    fn from(message: String) -> ConsoleError {
        ConsoleError(message)
    }
}

pub fn fail<T>(message: impl Into<String>) -> Result<T, ConsoleError> {
    Err(ConsoleError(message.into()))
}

/// Reads one line; `Ok(None)` for an empty line. `own` is the game's own
/// table; `is_moves` says whether a line that names no command is one or
/// more moves in the game's syntax.
pub fn parse(
    line: &str,
    own: &'static [CommandInfo],
    is_moves: impl Fn(&str) -> bool,
) -> Result<Option<Command>, ConsoleError> {
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
    let named = |table: &'static [CommandInfo]| {
        table
            .iter()
            .find(|info| info.names.contains(&lower.as_str()))
            .map(|info| info.names[0])
    };
    if let Some(name) = named(own) {
        return Ok(Some(Command::Game(name, rest.to_string())));
    }
    let Some(name) = named(SHARED) else {
        if is_moves(line) {
            return Ok(Some(Command::Moves(line.to_string())));
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
            fail(format!("'{name}' takes no argument"))
        }
    };
    let optional = |text: &str| (!text.is_empty()).then(|| text.to_string());
    match name {
        "play" if rest.is_empty() => fail("play what? give one or more moves"),
        "play" => Ok(Some(Command::Moves(rest.to_string()))),
        "new" => Ok(Some(Command::New(rest.to_string()))),
        "undo" => count(name, rest).map(|n| Some(Command::Undo(n))),
        "redo" => count(name, rest).map(|n| Some(Command::Redo(n))),
        "go" => no_argument(Command::Go),
        "hint" => match rest {
            "" => Ok(Some(Command::Hint(1))),
            n => match n.parse::<usize>() {
                Ok(n) if (1..=MAX_HINTS).contains(&n) => Ok(Some(Command::Hint(n))),
                _ => fail(format!(
                    "hint {n}: give a number of moves from 1 to {MAX_HINTS}"
                )),
            },
        },
        "level" => Ok(Some(Command::Level(optional(rest)))),
        "time" => parse_time(rest).map(|time| Some(Command::Time(time))),
        "threads" => match rest {
            "" => Ok(Some(Command::Threads(None))),
            n => match parse_threads(n) {
                Some(n) => Ok(Some(Command::Threads(Some(n)))),
                None => fail(format!(
                    "threads {n}: give a number of threads from 1 to {MAX_THREADS}"
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
        "board" => no_argument(Command::Board),
        "stop" => Ok(Some(Command::Stop)),
        "help" => Ok(Some(Command::Help)),
        "quit" => Ok(Some(Command::Quit)),
        other => fail(format!("'{other}' is not available")),
    }
}

/// `undo`'s and `redo`'s count: 1 by default.
fn count(name: &str, rest: &str) -> Result<usize, ConsoleError> {
    if rest.is_empty() {
        return Ok(1);
    }
    match rest.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => fail(format!("{name} {rest}: give a number of moves from 1")),
    }
}

/// `time`'s argument: none (show), `off`, or seconds per move.
fn parse_time(rest: &str) -> Result<Option<TimeSetting>, ConsoleError> {
    if rest.is_empty() {
        return Ok(None);
    }
    if ["off", "none"].iter().any(|w| rest.eq_ignore_ascii_case(w)) {
        return Ok(Some(TimeSetting::Off));
    }
    match rest.parse::<f64>() {
        Ok(seconds) if seconds.is_finite() && (MIN_SECONDS..=MAX_SECONDS).contains(&seconds) => {
            Ok(Some(TimeSetting::PerMove(Duration::from_secs_f64(seconds))))
        }
        _ => fail(format!(
            "time {rest}: give seconds per move from {MIN_SECONDS} to {MAX_SECONDS}, or 'off'"
        )),
    }
}

/// The help text: the shared commands in the game's words, then the
/// game's own (`own`, under `heading`).
pub fn help_lines(words: &GameWords, heading: &str, own: &[CommandInfo]) -> Vec<String> {
    let time_help = format!("oxello's time per move (default: {})", words.default_time);
    let row = |usage: &str, help: &str, names: &[&str]| {
        let aliases = if names.len() > 1 {
            format!(" (also {})", names[1..].join(", "))
        } else {
            String::new()
        };
        format!("  {usage:<38} {help}{aliases}")
    };
    let mut lines = vec!["commands:".to_string()];
    for info in SHARED {
        let (usage, help) = match info.names[0] {
            "<move>" => (words.move_example, info.help),
            "play" => (words.play_example, info.help),
            "level" => words.level,
            "new" => words.new,
            "time" => (info.usage, time_help.as_str()),
            _ => (info.usage, info.help),
        };
        lines.push(row(usage, help, info.names));
    }
    if !own.is_empty() {
        lines.push(format!("{heading}:"));
        for info in own {
            lines.push(row(info.usage, info.help, info.names));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    const OWN: &[CommandInfo] = &[CommandInfo {
        names: &["solve"],
        usage: "solve",
        help: "solve",
    }];

    fn read(line: &str) -> Result<Option<Command>, ConsoleError> {
        parse(line, OWN, |text| text.starts_with("f5"))
    }

    #[test]
    fn parses_the_shared_commands() {
        assert_eq!(read("  "), Ok(None));
        assert_eq!(read("f5"), Ok(Some(Command::Moves("f5".to_string()))));
        assert_eq!(read("UNDO 2"), Ok(Some(Command::Undo(2))));
        assert_eq!(read("redo"), Ok(Some(Command::Redo(1))));
        assert_eq!(read("hint"), Ok(Some(Command::Hint(1))));
        assert_eq!(
            read("m 2"),
            Ok(Some(Command::Mode(Some(PlayMode::EngineBoth))))
        );
        assert_eq!(
            read("time 2.5"),
            Ok(Some(Command::Time(Some(TimeSetting::PerMove(
                Duration::from_millis(2500)
            )))))
        );
        assert_eq!(
            read("time off"),
            Ok(Some(Command::Time(Some(TimeSetting::Off))))
        );
        assert_eq!(
            read("solve now"),
            Ok(Some(Command::Game("solve", "now".to_string())))
        );
        for bad in [
            "hint 0",
            "mode 5",
            "frobnicate",
            "undo 0",
            "undo x",
            "redo -1",
            "play",
            "go 1",
            "time 0",
            "time -1",
            "time 1e9",
            "threads 0",
            "\u{1}",
        ] {
            let error = read(bad).unwrap_err();
            assert!(error.to_string().starts_with("error: "), "{bad}");
        }
        // Limits are stated.
        assert!(read("time 1e9").unwrap_err().0.contains("3600"));
    }

    #[test]
    fn help_lists_every_shared_command_in_the_games_words() {
        let words = GameWords {
            move_example: "f5",
            play_example: "play f5d6c3",
            new: ("new [4|6|8]", "a new game"),
            level: ("level [1-60]", "oxello's level"),
            default_time: "none",
        };
        let help = help_lines(&words, "Othello", OWN);
        let text = help.join("\n");
        for word in [
            "f5",
            "play f5d6c3",
            "undo [n]",
            "new [4|6|8]",
            "level [1-60]",
        ] {
            assert!(text.contains(word), "{word}: {text}");
        }
        assert!(text.contains("Othello:\n  solve"), "{text}");
        assert!(help.iter().all(|line| !line.contains("  <move>")));
    }
}
