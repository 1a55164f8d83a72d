//! GGF, the Generic Game Format of the GGS server, NBoard and NTest.
//!
//! A game is `(;` then a list of `TAG[value]` then `;)`. The tags oxello
//! knows:
//!
//! | Tag | Field | Value |
//! |-----|-------|-------|
//! | `GM` | (checked) | `Othello`, any case |
//! | `PC`, `DT` | [`GgfGame::place`], [`GgfGame::date`] | free text |
//! | `PB`, `PW` | [`GgfGame::black_name`], [`GgfGame::white_name`] | free text |
//! | `RB`, `RW` | [`GgfGame::black_rating`], [`GgfGame::white_rating`] | number |
//! | `TI`, `TB`, `TW` | [`GgfGame::clock`], [`GgfGame::black_clock`], [`GgfGame::white_clock`] | `main[/increment[/grace]]`, see [`GgfClock`] |
//! | `TY` | [`GgfGame::game_type`] | board size and flags: `8`, `s8r20`, `6` |
//! | `RE` | [`GgfGame::result`] | Black's score with a flag (`+2.00:r`), or `?` |
//! | `BO` | [`GgfGame::start`] | `8 <64 squares> *`: `*` Black, `O` White, `-` empty, then the side |
//! | `B`, `W` | [`GgfGame::moves`] | `f5`, `F5/1.23/4.5` (eval from the mover's view, seconds), `d3//0.01`, `PA`, `pass` |
//! | `KB`, `KW`, `KM` | komi moves and value | as `B`/`W`; a number |
//! | `CO` | [`GgfGame::comment`] | free text |
//!
//! The reader is lenient: tag names in any case, whitespace between tags,
//! unknown tags kept in [`GgfGame::extra_tags`], any pass spelling, a missing
//! `TY` or `BO`, a `;` between tags, a leading game count (`1 (;..;)`,
//! `2 (;..;)(;..;)`) and many games per text. A `\]` inside a value is a
//! literal `]` and `\\` a backslash.
//!
//! The writer is strict, for the pickiest reader (NBoard's Java code throws on
//! unknown tags): the known tags only, `GM[Othello]`, `TY` and
//! `BO[8 <64 squares> *]` always, upper-case moves, explicit `PA`, `RE[?]` for
//! an unfinished game and no number in exponent notation.
//!
//! [`GgfGame::to_game`] replays the moves. Passes written as moves are
//! played; a missing pass is inserted when a move comes for the colour not on
//! move while the side to move is blocked.

use crate::bitboard::BoardSize;
use crate::board::IllegalMoveError;
use crate::color::Color;
use crate::formats::board_string::{self, BoardStringError};
use crate::formats::transcript::Token;
use crate::game::Game;
use crate::moves::{Move, is_pass_word};
use crate::position::Position;
use crate::square::Square;
use std::fmt::{self, Write as _};

/// Why a GGF text or game was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum GgfError {
    /// A character that cannot start a game, a tag or a count, at this byte
    /// offset.
    Unexpected { offset: usize, found: char },
    /// The game (or the tag value) starting at this byte offset is not closed.
    Unterminated { offset: usize },
    /// The text holds no game.
    NoGame,
    /// One game was expected but the text holds this many.
    ManyGames { count: usize },
    /// `GM` names another game.
    NotOthello { found: String },
    /// The value of a known tag cannot be read.
    BadValue { tag: String, value: String },
    /// A board size oxello does not play (10, 12, 14, the octagon `88`).
    UnsupportedSize { value: String },
    /// The squares of `BO` cannot be read.
    BadBoard {
        value: String,
        error: BoardStringError,
    },
    /// `TY` and `BO`, or the size written in `BO` and its squares, disagree.
    SizeMismatch { declared: usize, found: usize },
    /// Move `number` (1-based, passes counted) is neither a square nor a pass,
    /// or has an unreadable eval or time.
    BadMove { number: usize, value: String },
    /// Move `number` is for `found` while `expected` is on move and not
    /// blocked.
    WrongColor {
        number: usize,
        mv: String,
        expected: Color,
        found: Color,
    },
    /// Move `number` is illegal.
    Illegal {
        number: usize,
        error: IllegalMoveError,
    },
}

impl fmt::Display for GgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GgfError::Unexpected { offset, found } => {
                write!(f, "unexpected {found:?} at offset {offset} of the GGF text")
            }
            GgfError::Unterminated { offset } => {
                write!(f, "the GGF game at offset {offset} is not closed by ';)'")
            }
            GgfError::NoGame => f.write_str("the text holds no GGF game"),
            GgfError::ManyGames { count } => {
                write!(f, "expected one GGF game, found {count}")
            }
            GgfError::NotOthello { found } => write!(f, "GM[{found}] is not an Othello game"),
            GgfError::BadValue { tag, value } => write!(f, "cannot read {tag}[{value}]"),
            GgfError::UnsupportedSize { value } => {
                write!(f, "unsupported board size '{value}' (use 4, 6 or 8)")
            }
            GgfError::BadBoard { value, error } => write!(f, "bad BO[{value}]: {error}"),
            GgfError::SizeMismatch { declared, found } => {
                write!(f, "board size {declared} declared but {found} found")
            }
            GgfError::BadMove { number, value } => {
                write!(f, "move {number}: cannot read '{value}'")
            }
            GgfError::WrongColor {
                number,
                mv,
                expected,
                found,
            } => write!(
                f,
                "move {number}: {found} plays {mv} but {expected} is on move"
            ),
            GgfError::Illegal { number, error } => write!(f, "move {number}: {error}"),
        }
    }
}

impl std::error::Error for GgfError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GgfError::BadBoard { error, .. } => Some(error),
            GgfError::Illegal { error, .. } => Some(error),
            _ => None,
        }
    }
}

mod fields;
mod reader;
#[cfg(test)]
mod tests;

use fields::*;
pub use fields::{GameType, GgfClock, GgfResult, ResultFlag};
use reader::*;

/// One move of the record, as written: colour, square or pass, and the
/// optional eval (discs, mover's view) and time (seconds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GgfMove {
    pub color: Color,
    pub token: Token,
    pub eval: Option<f64>,
    pub time: Option<f64>,
}

impl GgfMove {
    /// A bare move with no eval or time.
    pub fn new(color: Color, token: Token) -> GgfMove {
        GgfMove {
            color,
            token,
            eval: None,
            time: None,
        }
    }

    /// Reads `f5`, `F5/1.23/4.5`, `d3//0.01`, `PA`, `pass//2`; `None` when
    /// the move is unreadable. An eval or time that is not a finite number
    /// (Novello writes `NaN` for a forced pass) is left out, not an error:
    /// the move is what the record is read for.
    fn parse(color: Color, text: &str) -> Option<GgfMove> {
        let mut parts = text.split('/');
        let name = parts.next().unwrap_or("").trim();
        let token = if is_pass_word(name) {
            Token::Pass
        } else {
            Token::Square(name.parse::<Square>().ok()?)
        };
        let mut optional = || parts.next().and_then(parse_number);
        let eval = optional();
        let time = optional().filter(|&time| time >= 0.0);
        if parts.next().is_some() {
            return None;
        }
        Some(GgfMove {
            color,
            token,
            eval,
            time,
        })
    }

    /// The move in upper case: `F5` or `PA`.
    pub fn name(&self) -> String {
        match self.token {
            Token::Square(square) => square.to_upper(),
            Token::Pass => "PA".to_string(),
        }
    }

    /// The value of the tag: `F5`, `F5/0.00/1.2`, `PA//0.5`.
    fn value(&self) -> String {
        let mut value = self.name();
        if self.eval.is_some() || self.time.is_some() {
            value.push('/');
            if let Some(eval) = self.eval {
                value.push_str(&format_fixed(eval, false));
            }
        }
        if let Some(time) = self.time {
            value.push('/');
            value.push_str(&format_number(time));
        }
        value
    }

    fn tag(&self) -> &'static str {
        match self.color {
            Color::Black => "B",
            Color::White => "W",
        }
    }
}

/// One GGF game record. Fields are public: build one with
/// [`GgfGame::from_game`] and fill in the metadata.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfGame {
    /// `PC`: where it was played (`GGS/os`, `NBoard`).
    pub place: String,
    /// `DT`: when, free text.
    pub date: String,
    /// `PB`: Black's name.
    pub black_name: String,
    /// `PW`: White's name.
    pub white_name: String,
    /// `RB`: Black's rating.
    pub black_rating: Option<f64>,
    /// `RW`: White's rating.
    pub white_rating: Option<f64>,
    /// `TI`: both players' clock (untimed by default).
    pub clock: GgfClock,
    /// `TB`: Black's clock when the clocks differ.
    pub black_clock: Option<GgfClock>,
    /// `TW`: White's clock when the clocks differ.
    pub white_clock: Option<GgfClock>,
    /// `TY`: board size and flags; `game_type.size == start.size`.
    pub game_type: GameType,
    /// `RE`: the result, `None` while unfinished (`RE[?]`).
    pub result: Option<GgfResult>,
    /// `BO`: the start position.
    pub start: Position,
    /// `B` and `W`, in order.
    pub moves: Vec<GgfMove>,
    /// `KB`: Black's komi move.
    pub black_komi_move: Option<GgfMove>,
    /// `KW`: White's komi move.
    pub white_komi_move: Option<GgfMove>,
    /// `KM`: the komi, Black's view.
    pub komi: Option<f64>,
    /// `CO`: a comment.
    pub comment: String,
    /// Tags oxello does not know, kept on reading, never written.
    pub extra_tags: Vec<(String, String)>,
}

impl Default for GgfGame {
    fn default() -> Self {
        GgfGame::new(Position::start(BoardSize::Eight))
    }
}

impl GgfGame {
    /// An empty record starting from `start`.
    pub fn new(start: Position) -> GgfGame {
        GgfGame {
            place: String::new(),
            date: String::new(),
            black_name: String::new(),
            white_name: String::new(),
            black_rating: None,
            white_rating: None,
            clock: GgfClock::default(),
            black_clock: None,
            white_clock: None,
            game_type: GameType::new(start.size),
            result: None,
            start,
            moves: Vec::new(),
            black_komi_move: None,
            white_komi_move: None,
            komi: None,
            comment: String::new(),
            extra_tags: Vec::new(),
        }
    }

    /// The record of a game: its start, every move (passes explicit) and,
    /// when it is over, the result. Metadata is left empty.
    pub fn from_game(game: &Game) -> GgfGame {
        let mut record = GgfGame::new(game.start());
        record.moves = game
            .positions()
            .iter()
            .zip(game.moves())
            .map(|(position, mv)| {
                let token = match mv.square() {
                    Some(square) => Token::Square(square),
                    None => Token::Pass,
                };
                GgfMove::new(position.side, token)
            })
            .collect();
        record.result = game.final_score_black().map(|score| GgfResult {
            score: f64::from(score),
            flag: None,
        });
        record
    }

    /// Sets both players' names.
    pub fn with_players(mut self, black: &str, white: &str) -> GgfGame {
        self.black_name = black.to_string();
        self.white_name = white.to_string();
        self
    }

    /// Replays the moves from the start position. Every written pass is
    /// played; a move for the colour not on move is accepted when the side
    /// to move is blocked (the pass is inserted). Errors name the move.
    pub fn to_game(&self) -> Result<Game, GgfError> {
        let mut game = Game::from_position(self.start);
        for (index, record) in self.moves.iter().enumerate() {
            let number = index + 1;
            let illegal = |error| GgfError::Illegal { number, error };
            let position = game.position();
            if record.color != position.side {
                if position.must_pass() {
                    game.play(Move::Pass).map_err(illegal)?;
                } else {
                    return Err(GgfError::WrongColor {
                        number,
                        mv: record.name(),
                        expected: position.side,
                        found: record.color,
                    });
                }
            }
            match record.token {
                Token::Pass => game.play(Move::Pass).map_err(illegal)?,
                Token::Square(square) => {
                    game.play_square(square).map_err(illegal)?;
                }
            }
        }
        Ok(game)
    }
}

impl fmt::Display for GgfGame {
    /// The strict one-line form (see the module header).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(;GM[Othello]")?;
        write_tag(f, "PC", &self.place)?;
        write_tag(f, "DT", &self.date)?;
        write_tag(f, "PB", &self.black_name)?;
        write_tag(f, "PW", &self.white_name)?;
        if let Some(rating) = self.black_rating {
            write_tag(f, "RB", &format_number(rating))?;
        }
        if let Some(rating) = self.white_rating {
            write_tag(f, "RW", &format_number(rating))?;
        }
        match self.result {
            Some(result) => write_tag(f, "RE", &result.to_string())?,
            None => f.write_str("RE[?]")?,
        }
        write_tag(f, "TI", &self.clock.to_string())?;
        if let Some(clock) = self.black_clock {
            write_tag(f, "TB", &clock.to_string())?;
        }
        if let Some(clock) = self.white_clock {
            write_tag(f, "TW", &clock.to_string())?;
        }
        let game_type = GameType {
            size: self.start.size,
            ..self.game_type
        };
        write_tag(f, "TY", &game_type.to_string())?;
        write_tag(f, "BO", &format_board(&self.start))?;
        if let Some(komi) = self.komi {
            write_tag(f, "KM", &format_fixed(komi, false))?;
        }
        if let Some(mv) = self.black_komi_move {
            write_tag(f, "KB", &mv.value())?;
        }
        if let Some(mv) = self.white_komi_move {
            write_tag(f, "KW", &mv.value())?;
        }
        if !self.comment.is_empty() {
            write_tag(f, "CO", &self.comment)?;
        }
        for mv in &self.moves {
            write_tag(f, mv.tag(), &mv.value())?;
        }
        f.write_str(";)")
    }
}

/// `TAG[value]`, with `\` and `]` escaped.
fn write_tag(f: &mut fmt::Formatter<'_>, tag: &str, value: &str) -> fmt::Result {
    write!(f, "{tag}[")?;
    for c in value.chars() {
        if matches!(c, '\\' | ']') {
            f.write_char('\\')?;
        }
        f.write_char(c)?;
    }
    f.write_char(']')
}

/// `8 <squares> *` with `*` Black, `O` White, `-` empty.
fn format_board(position: &Position) -> String {
    let squares: String = board_string::format_squares(position)
        .chars()
        .map(|c| if c == 'X' { '*' } else { c })
        .collect();
    let side = match position.side {
        Color::Black => '*',
        Color::White => 'O',
    };
    format!("{} {squares} {side}", position.size)
}

/// Reads every game of a text: games one after the other, each optionally
/// preceded by a game count.
pub fn parse_all(text: &str) -> Result<Vec<GgfGame>, GgfError> {
    let mut cursor = Cursor { text, pos: 0 };
    let mut games = Vec::new();
    loop {
        cursor.skip_whitespace();
        match cursor.peek() {
            None => return Ok(games),
            Some(c) if c.is_ascii_digit() => {
                while cursor.peek().is_some_and(|c| c.is_ascii_digit()) {
                    cursor.bump();
                }
            }
            Some('(') => games.push(build_game(parse_tags(&mut cursor)?)?),
            Some(found) => {
                return Err(GgfError::Unexpected {
                    offset: cursor.pos,
                    found,
                });
            }
        }
    }
}

/// Reads a text holding exactly one game (a leading count allowed).
pub fn parse_one(text: &str) -> Result<GgfGame, GgfError> {
    let mut games = parse_all(text)?;
    match games.len() {
        0 => Err(GgfError::NoGame),
        1 => Ok(games.remove(0)),
        count => Err(GgfError::ManyGames { count }),
    }
}

/// Writes games one per line, each ending with a newline.
pub fn format_all(games: &[GgfGame]) -> String {
    games.iter().map(|game| format!("{game}\n")).collect()
}

impl std::str::FromStr for GgfGame {
    type Err = GgfError;

    fn from_str(text: &str) -> Result<GgfGame, GgfError> {
        parse_one(text)
    }
}
