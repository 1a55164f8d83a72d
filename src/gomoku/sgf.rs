//! Gomoku game records in SGF (`FF[4]`, `GM[4]`), one game per line, as
//! c-gomoku-cli writes them (with `-sgf`), plus the fields a match needs:
//!
//! ```text
//! (;FF[4]GM[4]CA[UTF-8]AP[oxello:0.1.0]SZ[15]RU[1]PB[oxello]PW[greedy]
//!  DT[2024-05-01]PC[oxello match]RE[B+1]TE[black made five in a row]
//!  GC[oxello-match game=1 ...];B[hh]C[opening move];W[ig]C[12ms];B[jj]C[903ms]...)
//! ```
//!
//! (on one line). `SZ` is the side, or `W:H` for a board that is not
//! square; `RU` the Gomocup rule number (0 freestyle, 1 standard, 4 renju,
//! 8 caro); `RE` `B+1`, `W+1` or `0` (a draw), absent while the game is
//! unfinished; `TE` why it ended; `GC` the match's tag. Moves are `B[xy]` and
//! `W[xy]` with letters from `a` for `x` (the column) and `y` (the row,
//! from the top), `hh` being `x = 7, y = 7`; a move's `C` is `opening move`
//! for the stones of the opening and the thinking time (`903ms`) for the
//! engines' moves. Text values escape `\` and `]` with a backslash and hold
//! no line break.

use crate::Color;
use crate::gomoku::board::{Board, Point, Status};
use crate::gomoku::rules::{Config, MAX_SIDE, MIN_SIDE, Rule};
use std::fmt::{self, Write as _};

/// The comment of an opening stone.
pub const OPENING_MOVE: &str = "opening move";

/// One move of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordMove {
    pub color: Color,
    pub point: Point,
    /// Thinking time in milliseconds; `None` for a stone of the opening.
    pub time_ms: Option<u64>,
}

/// A gomoku game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GomokuRecord {
    pub width: usize,
    pub height: usize,
    pub rule: Rule,
    /// `PB`, `PW`.
    pub black: String,
    pub white: String,
    /// `DT`: the date, `YYYY-MM-DD`.
    pub date: String,
    /// `PC`: where it was played.
    pub place: String,
    /// `RE`: `Ongoing` while unfinished.
    pub result: Status,
    /// `TE`: why the game ended.
    pub reason: String,
    /// `GC`: the game comment (a match's tag).
    pub comment: String,
    pub moves: Vec<RecordMove>,
}

/// Why an SGF line could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfError(pub String);

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SGF: {}", self.0)
    }
}

impl std::error::Error for SgfError {}

impl GomokuRecord {
    /// An empty record of a game of `config` between `black` and `white`.
    pub fn new(config: Config, black: &str, white: &str) -> GomokuRecord {
        GomokuRecord {
            width: config.width,
            height: config.height,
            rule: config.rule,
            black: black.to_string(),
            white: white.to_string(),
            date: String::new(),
            place: String::new(),
            result: Status::Ongoing,
            reason: String::new(),
            comment: String::new(),
            moves: Vec::new(),
        }
    }

    /// The `RE` value: `B+1`, `W+1`, `0`, or `None` while unfinished.
    pub fn result_value(&self) -> Option<&'static str> {
        match self.result {
            Status::Won(Color::Black) => Some("B+1"),
            Status::Won(Color::White) => Some("W+1"),
            Status::Draw => Some("0"),
            Status::Ongoing => None,
        }
    }

    /// The board the game is played on.
    pub fn config(&self) -> Config {
        Config {
            width: self.width,
            height: self.height,
            rule: self.rule,
            ..Config::default()
        }
    }

    /// Plays the game over: `visit` sees each move with the position before
    /// it, the move's colour to move (an opening may place stones of one
    /// colour in a row), and must leave it as it found it (a search's trial
    /// stones taken back); then the move is played. Returns the last
    /// position, or why a move could not be played.
    pub fn replay(&self, mut visit: impl FnMut(&mut Board, &RecordMove)) -> Result<Board, String> {
        let mut board = Board::new(self.config()).map_err(|e| e.to_string())?;
        for (at, mv) in self.moves.iter().enumerate() {
            if board.to_move() != mv.color {
                board.set_to_move(mv.color);
            }
            visit(&mut board, mv);
            board
                .play(mv.point)
                .map_err(|e| format!("move {}: {e}", at + 1))?;
        }
        Ok(board)
    }

    /// Reads one record (surrounding spaces allowed).
    pub fn parse(text: &str) -> Result<GomokuRecord, SgfError> {
        let nodes = parse_nodes(text.trim())?;
        let (root, moves) = nodes
            .split_first()
            .ok_or_else(|| SgfError("no node".to_string()))?;
        let mut record = GomokuRecord::new(Config::default(), "", "");
        for (name, value) in root {
            match name.as_str() {
                "GM" if value != "4" => {
                    return Err(SgfError(format!("GM[{value}] is not gomoku (GM[4])")));
                }
                "SZ" => (record.width, record.height) = parse_size(value)?,
                "RU" => {
                    let bits = value
                        .parse::<i64>()
                        .map_err(|_| SgfError(format!("bad rule RU[{value}]")))?;
                    record.rule = Rule::from_gomocup(bits);
                }
                "PB" => record.black = value.clone(),
                "PW" => record.white = value.clone(),
                "DT" => record.date = value.clone(),
                "PC" => record.place = value.clone(),
                "RE" => {
                    record.result = match value.as_str() {
                        "B+1" | "B+" => Status::Won(Color::Black),
                        "W+1" | "W+" => Status::Won(Color::White),
                        "0" | "Draw" => Status::Draw,
                        _ => return Err(SgfError(format!("bad result RE[{value}]"))),
                    }
                }
                "TE" => record.reason = value.clone(),
                "GC" => record.comment = value.clone(),
                _ => {}
            }
        }
        for node in moves {
            let mut color_point = None;
            let mut comment = None;
            for (name, value) in node {
                match name.as_str() {
                    "B" | "W" => {
                        let color = if name == "B" {
                            Color::Black
                        } else {
                            Color::White
                        };
                        color_point = Some((color, parse_point(value, &record)?));
                    }
                    "C" => comment = Some(value.as_str()),
                    _ => {}
                }
            }
            let (color, point) =
                color_point.ok_or_else(|| SgfError("a node without a move".to_string()))?;
            let time_ms = comment
                .and_then(|c| c.strip_suffix("ms"))
                .and_then(|ms| ms.trim().parse::<u64>().ok());
            record.moves.push(RecordMove {
                color,
                point,
                time_ms,
            });
        }
        Ok(record)
    }
}

impl fmt::Display for GomokuRecord {
    /// The record on one line, without a newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = if self.width == self.height {
            self.width.to_string()
        } else {
            format!("{}:{}", self.width, self.height)
        };
        write!(
            f,
            "(;FF[4]GM[4]CA[UTF-8]AP[oxello:{}]SZ[{size}]RU[{}]",
            env!("CARGO_PKG_VERSION"),
            self.rule.gomocup_bits()
        )?;
        let mut text = |name: &str, value: &str| -> fmt::Result {
            if value.is_empty() {
                Ok(())
            } else {
                write!(f, "{name}[{}]", escape(value))
            }
        };
        text("PB", &self.black)?;
        text("PW", &self.white)?;
        text("DT", &self.date)?;
        text("PC", &self.place)?;
        text("RE", self.result_value().unwrap_or(""))?;
        text("TE", &self.reason)?;
        text("GC", &self.comment)?;
        for mv in &self.moves {
            let color = match mv.color {
                Color::Black => 'B',
                Color::White => 'W',
            };
            let comment = match mv.time_ms {
                Some(ms) => format!("{ms}ms"),
                None => OPENING_MOVE.to_string(),
            };
            write!(
                f,
                ";{color}[{}{}]C[{comment}]",
                letter(mv.point.x),
                letter(mv.point.y)
            )?;
        }
        f.write_char(')')
    }
}

fn letter(n: usize) -> char {
    (b'a' + n as u8) as char
}

/// A text value with `\` and `]` escaped and line breaks as spaces.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' | ']' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// `15` or `20:15`.
fn parse_size(value: &str) -> Result<(usize, usize), SgfError> {
    let number = |s: &str| s.trim().parse::<usize>().ok();
    let size = match value.split_once(':') {
        Some((w, h)) => number(w).zip(number(h)),
        None => number(value).map(|n| (n, n)),
    };
    size.filter(|&(w, h)| (MIN_SIDE..=MAX_SIDE).contains(&w) && (MIN_SIDE..=MAX_SIDE).contains(&h))
        .ok_or_else(|| SgfError(format!("bad size SZ[{value}]")))
}

/// `hh`: a point of the record's board.
fn parse_point(value: &str, record: &GomokuRecord) -> Result<Point, SgfError> {
    let bad = || SgfError(format!("bad move [{value}]"));
    let bytes = value.as_bytes();
    let [x, y] = bytes else {
        return Err(bad());
    };
    let coordinate = |c: u8, side: usize| {
        c.checked_sub(b'a')
            .map(usize::from)
            .filter(|&n| n < side)
            .ok_or_else(bad)
    };
    Ok(Point::new(
        coordinate(*x, record.width)?,
        coordinate(*y, record.height)?,
    ))
}

/// The properties of a node: names and first values.
type Node = Vec<(String, String)>;

/// The nodes of a game tree with a single line of play: `(;A[x]B[y];C[z])`.
fn parse_nodes(text: &str) -> Result<Vec<Node>, SgfError> {
    let error = |what: &str| SgfError(what.to_string());
    let mut chars = text.chars().peekable();
    let skip_space = |chars: &mut std::iter::Peekable<std::str::Chars<'_>>| {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
    };
    skip_space(&mut chars);
    if chars.next() != Some('(') {
        return Err(error("no '(' at the start"));
    }
    let mut nodes: Vec<Node> = Vec::new();
    loop {
        skip_space(&mut chars);
        match chars.next() {
            Some(';') => nodes.push(Vec::new()),
            Some(')') => break,
            Some('(') => return Err(error("variations are not supported")),
            Some(c) if c.is_ascii_uppercase() => {
                let node = nodes
                    .last_mut()
                    .ok_or_else(|| error("a property before the first ';'"))?;
                let mut name = c.to_string();
                while let Some(c) = chars.next_if(char::is_ascii_uppercase) {
                    name.push(c);
                }
                let mut values = Vec::new();
                loop {
                    skip_space(&mut chars);
                    if chars.next_if_eq(&'[').is_none() {
                        break;
                    }
                    let mut value = String::new();
                    loop {
                        match chars.next() {
                            Some('\\') => {
                                // A soft line break disappears; anything
                                // else escaped is itself.
                                match chars.next() {
                                    Some('\n') | None => {}
                                    Some(c) => value.push(c),
                                }
                            }
                            Some(']') => break,
                            Some(c) => value.push(c),
                            None => return Err(error("a value without ']'")),
                        }
                    }
                    values.push(value);
                }
                let value = values
                    .into_iter()
                    .next()
                    .ok_or_else(|| SgfError(format!("property {name} without a value")))?;
                node.push((name, value));
            }
            Some(c) => return Err(SgfError(format!("unexpected '{c}'"))),
            None => return Err(error("no ')' at the end")),
        }
    }
    skip_space(&mut chars);
    match chars.next() {
        None => Ok(nodes),
        Some(_) => Err(error("text after the game")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GomokuRecord {
        let mut record = GomokuRecord::new(
            Config {
                width: 20,
                height: 15,
                rule: Rule::Standard,
                ..Config::default()
            },
            "oxello",
            "a ]strange\\ name",
        );
        record.date = "2024-05-01".to_string();
        record.result = Status::Won(Color::Black);
        record.reason = "black made five in a row".to_string();
        record.comment = "oxello-match game=1 round=1 opening=0 black=1 moves=-".to_string();
        record.moves = vec![
            RecordMove {
                color: Color::Black,
                point: Point::new(7, 7),
                time_ms: None,
            },
            RecordMove {
                color: Color::White,
                point: Point::new(19, 14),
                time_ms: Some(12),
            },
        ];
        record
    }

    #[test]
    fn records_round_trip() {
        let record = sample();
        let text = record.to_string();
        assert!(
            text.starts_with("(;FF[4]GM[4]CA[UTF-8]AP[oxello:"),
            "{text}"
        );
        assert!(
            text.contains("SZ[20:15]RU[1]PB[oxello]PW[a \\]strange\\\\ name]"),
            "{text}"
        );
        assert!(
            text.ends_with(";B[hh]C[opening move];W[to]C[12ms])"),
            "{text}"
        );
        assert!(!text.contains('\n'));
        assert_eq!(GomokuRecord::parse(&text), Ok(record.clone()));
        let mut unfinished = record;
        unfinished.result = Status::Ongoing;
        unfinished.reason.clear();
        let text = unfinished.to_string();
        assert!(!text.contains("RE["));
        assert_eq!(GomokuRecord::parse(&text), Ok(unfinished));
    }

    /// A replay shows each move the position before it with the mover to
    /// move, and stops at a move that cannot be played.
    #[test]
    fn a_replay_visits_every_move_before_it_is_played() {
        let mut record = sample();
        // Two white stones in a row, as an opening may place them.
        record.moves.push(RecordMove {
            color: Color::White,
            point: Point::new(8, 8),
            time_ms: Some(5),
        });
        let mut seen = Vec::new();
        let Ok(board) = record.replay(|board, mv| {
            assert_eq!(board.to_move(), mv.color);
            seen.push((board.stone_count(), mv.point));
        }) else {
            panic!("a legal game");
        };
        assert_eq!(
            seen,
            [
                (0, Point::new(7, 7)),
                (1, Point::new(19, 14)),
                (2, Point::new(8, 8))
            ]
        );
        assert_eq!(board.stone_count(), 3);
        assert_eq!(board.get(Point::new(8, 8)), Some(Color::White));
        record.moves[2].point = Point::new(7, 7);
        assert_eq!(
            record.replay(|_, _| {}).err().as_deref(),
            Some("move 3: 7,7 is occupied")
        );
    }

    #[test]
    fn other_writers_and_errors() {
        // c-gomoku-cli's layout: empty properties, spaces between nodes.
        let text = "(;FF[4]GM[4]GN[]EV[]DT[]RO[]RU[0]SZ[15]PB[a]PW[b]RE[W+1]TE[five]\n ;B[hh]C[opening move] ;W[ii]C[123ms])";
        let record = GomokuRecord::parse(text).unwrap();
        assert_eq!(record.rule, Rule::Freestyle);
        assert_eq!(record.result, Status::Won(Color::White));
        assert_eq!(record.moves[1].time_ms, Some(123));
        assert_eq!(record.moves[1].point, Point::new(8, 8));
        for bad in [
            "",
            "(;GM[1]SZ[8])",
            "(;GM[4]SZ[15];B[zz])",
            "(;GM[4]SZ[15];B[hh]",
            "(;GM[4]SZ[15](;B[hh]))",
            "(;GM[4]SZ[15];C[no move])",
            "(;GM[4]SZ[15]RE[X])",
            "(;GM[4]SZ[99])",
            "(;GM[4]SZ[15]) extra",
        ] {
            assert!(GomokuRecord::parse(bad).is_err(), "{bad}");
        }
    }
}
