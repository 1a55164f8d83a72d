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

/// A clock setting: `main[/increment[/grace]]`, all in seconds.
///
/// Each part is read as `[[D.]H:]M:SS` or as plain seconds; an empty part is
/// zero. `TI[0]` is an untimed game, the [`Default`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GgfClock {
    /// Time for the whole game.
    pub main: f64,
    /// Time added after each move.
    pub increment: f64,
    /// Extra time after the main time runs out; `None` when not written
    /// (NBoard's reader then assumes 120 s).
    pub grace: Option<f64>,
}

impl GgfClock {
    /// A clock of `main` seconds, no increment, no grace.
    pub fn new(main: f64) -> GgfClock {
        GgfClock {
            main,
            ..GgfClock::default()
        }
    }

    /// Whether the game is untimed (`TI[0]`).
    pub fn is_untimed(&self) -> bool {
        self.main == 0.0 && self.increment == 0.0 && self.grace.is_none()
    }

    /// Reads `main[/increment[/grace]]`.
    pub fn parse(text: &str) -> Option<GgfClock> {
        let parts: Vec<&str> = text.split('/').collect();
        if parts.len() > 3 {
            return None;
        }
        Some(GgfClock {
            main: parse_duration(parts[0])?,
            increment: match parts.get(1) {
                Some(part) => parse_duration(part)?,
                None => 0.0,
            },
            grace: match parts.get(2) {
                Some(part) => Some(parse_duration(part)?),
                None => None,
            },
        })
    }
}

impl fmt::Display for GgfClock {
    /// `05:00`, `15:00/10`, `05:00//02:00`, `0` when untimed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_duration(self.main))?;
        match self.grace {
            Some(grace) => {
                f.write_char('/')?;
                if self.increment != 0.0 {
                    f.write_str(&format_duration(self.increment))?;
                }
                write!(f, "/{}", format_duration(grace))
            }
            None if self.increment != 0.0 => write!(f, "/{}", format_duration(self.increment)),
            None => Ok(()),
        }
    }
}

/// One part of a clock: `[[D.]H:]M:SS` or plain seconds; empty is zero.
fn parse_duration(text: &str) -> Option<f64> {
    let text = text.trim();
    if text.is_empty() {
        return Some(0.0);
    }
    let fields: Vec<&str> = text.split(':').collect();
    let whole = |s: &str| -> Option<f64> {
        let s = s.trim();
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse::<u32>().ok().map(f64::from)
    };
    let seconds = |s: &str| parse_number(s).filter(|x| *x >= 0.0);
    match fields.as_slice() {
        [plain] => seconds(plain),
        [minutes, secs] => Some(whole(minutes)? * 60.0 + seconds(secs)?),
        [hours, minutes, secs] => {
            let (days, hours) = match hours.split_once('.') {
                Some((days, hours)) => (whole(days)?, whole(hours)?),
                None => (0.0, whole(hours)?),
            };
            Some(((days * 24.0 + hours) * 60.0 + whole(minutes)?) * 60.0 + seconds(secs)?)
        }
        _ => None,
    }
}

/// A duration as GGS writes it: `MM:SS`, `H:MM:SS`, `D.HH:MM:SS` for whole
/// seconds, plain seconds otherwise, `0` for zero.
fn format_duration(seconds: f64) -> String {
    if seconds == 0.0 {
        return "0".to_string();
    }
    if seconds.fract() != 0.0 || !(0.0..1e12).contains(&seconds) {
        return format_number(seconds);
    }
    let total = seconds as u64;
    let (days, hours) = (total / 86_400, total / 3600 % 24);
    let (minutes, secs) = (total / 60 % 60, total % 60);
    if days > 0 {
        format!("{days}.{hours:02}:{minutes:02}:{secs:02}")
    } else if hours > 0 {
        format!("{hours}:{minutes:02}:{secs:02}")
    } else {
        format!("{minutes:02}:{secs:02}")
    }
}

/// A finite number; Rust's float parser alone would take `inf` and `NaN`.
fn parse_number(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|x| x.is_finite())
}

/// The shortest decimal form that reads back to `x`. Rust's `Display` for
/// floats never uses exponent notation.
fn format_number(x: f64) -> String {
    format!("{x}")
}

/// Two decimals when that is exact (`0.00`, `-1.50`), else the shortest
/// exact form: the usual look of evals and scores that still round-trips.
fn format_fixed(x: f64, signed: bool) -> String {
    let two = (x * 100.0).round() / 100.0 == x;
    match (two, signed) {
        (true, true) => format!("{x:+.2}"),
        (true, false) => format!("{x:.2}"),
        (false, true) => format!("{x:+}"),
        (false, false) => format!("{x}"),
    }
}

/// The game type of `TY`: board size and GGS flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameType {
    /// The board size.
    pub size: BoardSize,
    /// `s`: one of two simultaneous games with colours swapped.
    pub synchro: bool,
    /// `k`: komi game.
    pub komi: bool,
    /// `a`: anti-Othello (fewest discs wins).
    pub anti: bool,
    /// `r<N>`: random start position with N discs.
    pub random_discs: Option<u32>,
    /// `b` / `w`: the colour a player asked for.
    pub color_request: Option<Color>,
}

impl GameType {
    /// A plain game on a board of `size`.
    pub fn new(size: BoardSize) -> GameType {
        GameType {
            size,
            ..GameType::default()
        }
    }

    /// Reads `8`, `s8r20`, `8kr20`, `6`... Sizes other than 4, 6, 8 are
    /// refused.
    pub fn parse(text: &str) -> Result<GameType, GgfError> {
        let bad = || GgfError::BadValue {
            tag: "TY".to_string(),
            value: text.to_string(),
        };
        let bytes = text.trim().as_bytes();
        let mut game_type = GameType::default();
        let mut size = None;
        let mut i = 0;
        while i < bytes.len() {
            let digits = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
            if digits > 0 {
                if size.is_some() || digits > 3 {
                    return Err(bad());
                }
                size = Some(&text.trim()[i..i + digits]);
                i += digits;
                continue;
            }
            match bytes[i].to_ascii_lowercase() {
                b's' => game_type.synchro = true,
                b'k' => game_type.komi = true,
                b'a' => game_type.anti = true,
                b'b' => game_type.color_request = Some(Color::Black),
                b'w' => game_type.color_request = Some(Color::White),
                b'r' => {
                    let run = bytes[i + 1..].iter().take_while(|b| b.is_ascii_digit());
                    let n = run.count();
                    let number = &text.trim()[i + 1..i + 1 + n];
                    game_type.random_discs = Some(number.parse().map_err(|_| bad())?);
                    i += n;
                }
                _ => return Err(bad()),
            }
            i += 1;
        }
        let size = size.ok_or_else(bad)?;
        game_type.size = parse_size(size)?;
        Ok(game_type)
    }
}

impl fmt::Display for GameType {
    /// Flags in a fixed order: `s`, the size, `k`, `a`, `r<N>`, `b`/`w`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.synchro {
            f.write_char('s')?;
        }
        write!(f, "{}", self.size)?;
        if self.komi {
            f.write_char('k')?;
        }
        if self.anti {
            f.write_char('a')?;
        }
        if let Some(n) = self.random_discs {
            write!(f, "r{n}")?;
        }
        match self.color_request {
            Some(Color::Black) => f.write_char('b'),
            Some(Color::White) => f.write_char('w'),
            None => Ok(()),
        }
    }
}

fn parse_size(text: &str) -> Result<BoardSize, GgfError> {
    text.trim()
        .parse::<usize>()
        .ok()
        .and_then(BoardSize::from_n)
        .ok_or_else(|| GgfError::UnsupportedSize {
            value: text.to_string(),
        })
}

/// How a game ended, besides the score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultFlag {
    /// `:r`, a player resigned.
    Resigned,
    /// `:t`, a player ran out of time.
    Timeout,
    /// `:s`, the players agreed on the score.
    MutualScore,
    /// `:l`, adjourned (NBoard).
    Adjourned,
}

impl ResultFlag {
    fn letter(self) -> char {
        match self {
            ResultFlag::Resigned => 'r',
            ResultFlag::Timeout => 't',
            ResultFlag::MutualScore => 's',
            ResultFlag::Adjourned => 'l',
        }
    }
}

/// The result of `RE`: the disc difference from Black's view and a flag.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GgfResult {
    /// Black's disc difference (`+64.00`, `-2.00`).
    pub score: f64,
    /// How the game ended if not by two passes.
    pub flag: Option<ResultFlag>,
}

impl GgfResult {
    /// Reads `+2.000`, `-64.00:r`. `?` and empty text are `Ok(None)`.
    pub fn parse(text: &str) -> Result<Option<GgfResult>, GgfError> {
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed == "?" {
            return Ok(None);
        }
        let bad = || GgfError::BadValue {
            tag: "RE".to_string(),
            value: text.to_string(),
        };
        let (score, flag) = match trimmed.split_once(':') {
            Some((score, flag)) => (score, Some(flag.trim())),
            None => (trimmed, None),
        };
        let flag = match flag.map(str::to_ascii_lowercase).as_deref() {
            None => None,
            Some("r") => Some(ResultFlag::Resigned),
            Some("t") => Some(ResultFlag::Timeout),
            Some("s") => Some(ResultFlag::MutualScore),
            Some("l") => Some(ResultFlag::Adjourned),
            Some(_) => return Err(bad()),
        };
        let score = parse_number(score).ok_or_else(bad)?;
        Ok(Some(GgfResult { score, flag }))
    }
}

impl fmt::Display for GgfResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_fixed(self.score, true))?;
        match self.flag {
            Some(flag) => write!(f, ":{}", flag.letter()),
            None => Ok(()),
        }
    }
}

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
    /// unreadable.
    fn parse(color: Color, text: &str) -> Option<GgfMove> {
        let mut parts = text.split('/');
        let name = parts.next().unwrap_or("").trim();
        let token = if is_pass_word(name) {
            Token::Pass
        } else {
            Token::Square(name.parse::<Square>().ok()?)
        };
        let mut optional = || -> Option<Option<f64>> {
            match parts.next().map(str::trim) {
                None | Some("") => Some(None),
                Some(number) => parse_number(number).map(Some),
            }
        };
        let eval = optional()?;
        let time = optional()?;
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

/// A position in the text; always on a character boundary.
struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }
}

/// A tag as read: upper-cased name, unescaped value.
struct RawTag {
    name: String,
    value: String,
}

/// Reads `(; TAG[value] ... ;)` at the cursor, which is on the `(`.
fn parse_tags(cursor: &mut Cursor<'_>) -> Result<Vec<RawTag>, GgfError> {
    let start = cursor.pos;
    let unterminated = GgfError::Unterminated { offset: start };
    cursor.bump();
    cursor.skip_whitespace();
    match cursor.bump() {
        Some(';') => {}
        Some(found) => {
            return Err(GgfError::Unexpected {
                offset: cursor.pos - found.len_utf8(),
                found,
            });
        }
        None => return Err(unterminated),
    }
    let mut tags = Vec::new();
    loop {
        cursor.skip_whitespace();
        let offset = cursor.pos;
        match cursor.peek() {
            None | Some('(') => return Err(unterminated),
            Some(')') => {
                cursor.bump();
                return Ok(tags);
            }
            Some(';') => {
                cursor.bump();
                cursor.skip_whitespace();
                if cursor.peek() == Some(')') {
                    cursor.bump();
                    return Ok(tags);
                }
            }
            Some(c) if c.is_ascii_alphabetic() => {
                let mut name = String::new();
                while let Some(c) = cursor.peek().filter(char::is_ascii_alphanumeric) {
                    name.push(c.to_ascii_uppercase());
                    cursor.bump();
                }
                cursor.skip_whitespace();
                match cursor.bump() {
                    Some('[') => {}
                    Some(found) => {
                        return Err(GgfError::Unexpected {
                            offset: cursor.pos - found.len_utf8(),
                            found,
                        });
                    }
                    None => return Err(unterminated),
                }
                let value = read_value(cursor).ok_or(GgfError::Unterminated { offset })?;
                tags.push(RawTag { name, value });
            }
            Some(found) => return Err(GgfError::Unexpected { offset, found }),
        }
    }
}

/// Reads a tag value up to its unescaped `]`; `None` at the end of the text.
fn read_value(cursor: &mut Cursor<'_>) -> Option<String> {
    let mut value = String::new();
    loop {
        match cursor.bump()? {
            ']' => return Some(value),
            '\\' if matches!(cursor.peek(), Some(']' | '\\')) => value.push(cursor.bump()?),
            c => value.push(c),
        }
    }
}

/// Turns the tags of one game into a record.
fn build_game(tags: Vec<RawTag>) -> Result<GgfGame, GgfError> {
    let mut game = GgfGame::default();
    let mut game_type = None;
    let mut board = None;
    for RawTag { name, value } in tags {
        let number = |tag: &str| {
            parse_number(&value).ok_or_else(|| GgfError::BadValue {
                tag: tag.to_string(),
                value: value.clone(),
            })
        };
        let clock = |tag: &str| {
            GgfClock::parse(&value).ok_or_else(|| GgfError::BadValue {
                tag: tag.to_string(),
                value: value.clone(),
            })
        };
        match name.as_str() {
            "GM" => {
                if !value.trim().eq_ignore_ascii_case("othello") {
                    return Err(GgfError::NotOthello { found: value });
                }
            }
            "PC" => game.place = value.trim().to_string(),
            "DT" => game.date = value.trim().to_string(),
            "PB" => game.black_name = value.trim().to_string(),
            "PW" => game.white_name = value.trim().to_string(),
            "RB" => game.black_rating = Some(number("RB")?),
            "RW" => game.white_rating = Some(number("RW")?),
            "TI" => game.clock = clock("TI")?,
            "TB" => game.black_clock = Some(clock("TB")?),
            "TW" => game.white_clock = Some(clock("TW")?),
            "TY" => game_type = Some(GameType::parse(&value)?),
            "RE" => game.result = GgfResult::parse(&value)?,
            "BO" => board = Some(parse_board(&value)?),
            "KM" => game.komi = Some(number("KM")?),
            "CO" => game.comment = value.trim().to_string(),
            "B" | "W" | "KB" | "KW" => {
                let color = if name.ends_with('B') {
                    Color::Black
                } else {
                    Color::White
                };
                let number = game.moves.len() + 1;
                let mv = GgfMove::parse(color, &value).ok_or(GgfError::BadMove {
                    number,
                    value: value.clone(),
                })?;
                match name.as_str() {
                    "KB" => game.black_komi_move = Some(mv),
                    "KW" => game.white_komi_move = Some(mv),
                    _ => game.moves.push(mv),
                }
            }
            _ => game.extra_tags.push((name, value)),
        }
    }
    game.start = match (game_type, board) {
        (Some(game_type), Some(board)) if game_type.size != board.size => {
            return Err(GgfError::SizeMismatch {
                declared: game_type.size.n(),
                found: board.size.n(),
            });
        }
        (_, Some(board)) => board,
        (Some(game_type), None) => Position::start(game_type.size),
        (None, None) => Position::start(BoardSize::Eight),
    };
    game.game_type = game_type.unwrap_or_default();
    game.game_type.size = game.start.size;
    Ok(game)
}

/// Reads `BO[8 <squares> <side>]`.
fn parse_board(value: &str) -> Result<Position, GgfError> {
    let trimmed = value.trim_start();
    let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Err(GgfError::BadValue {
            tag: "BO".to_string(),
            value: value.to_string(),
        });
    }
    let size = parse_size(&trimmed[..digits])?;
    let position =
        board_string::parse_position(&trimmed[digits..]).map_err(|error| GgfError::BadBoard {
            value: value.to_string(),
            error,
        })?;
    if position.size != size {
        return Err(GgfError::SizeMismatch {
            declared: size.n(),
            found: position.size.n(),
        });
    }
    Ok(position)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::IllegalReason;
    use crate::formats::transcript;
    use rand::{Rng, SeedableRng};

    const START_BO: &str = "8 ---------------------------O*------*O--------------------------- *";

    /// The GGS example of protocols.md 5.3 (move list shortened).
    const GGS: &str = "1 (;GM[Othello]PC[GGS/os]DT[2003.12.15_12:33:18.MST]PB[Saio1200]\
        PW[Saio3000]RB[2196.37]RW[2200.35]TI[05:00//02:00]TY[8]RE[+0.000]\
        BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]\
        B[d3//0.01]W[c5//0.01]B[f6//0.01];)";

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn reads_the_ggs_example() {
        let game = parse_one(GGS).unwrap();
        assert_eq!(game.place, "GGS/os");
        assert_eq!(game.date, "2003.12.15_12:33:18.MST");
        assert_eq!(game.black_name, "Saio1200");
        assert_eq!(game.white_name, "Saio3000");
        assert_eq!(game.black_rating, Some(2196.37));
        assert_eq!(game.white_rating, Some(2200.35));
        assert_eq!(
            game.clock,
            GgfClock {
                main: 300.0,
                increment: 0.0,
                grace: Some(120.0)
            }
        );
        assert_eq!(game.clock.to_string(), "05:00//02:00");
        assert_eq!(
            game.result,
            Some(GgfResult {
                score: 0.0,
                flag: None
            })
        );
        assert_eq!(game.start, Position::start(BoardSize::Eight));
        assert_eq!(game.moves.len(), 3);
        assert_eq!(
            game.moves[0],
            GgfMove {
                color: Color::Black,
                token: Token::Square(sq("d3")),
                eval: None,
                time: Some(0.01)
            }
        );
        let replayed = game.to_game().unwrap();
        assert_eq!(transcript::format_game(&replayed), "d3c5f6");
        let written = game.to_string();
        assert!(written.starts_with("(;GM[Othello]PC[GGS/os]DT[2003.12.15_12:33:18.MST]"));
        assert!(written.contains(&format!("TY[8]BO[{START_BO}]B[D3//0.01]W[C5//0.01]")));
        assert!(written.contains("RE[+0.00]TI[05:00//02:00]"));
        assert!(written.ends_with("B[F6//0.01];)"));
        assert_eq!(parse_one(&written).unwrap(), game);
    }

    #[test]
    fn reads_the_nboard_examples() {
        let edax = format!(
            "(;GM[Othello]PC[NBoard]BO[{START_BO}]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)"
        );
        let game = parse_one(&edax).unwrap();
        let replayed = game.to_game().unwrap();
        assert_eq!(transcript::format_game(&replayed), "f5f6d3c5e6f7e7f4");
        assert_eq!(replayed.position().side, Color::Black);
        let full = format!(
            "(;GM[Othello]PC[NBoard]DT[2024-05-01 10:00:00 GMT]PB[Rusthello]PW[alice]RE[?]\
             TI[15:00]TY[8]BO[{START_BO}];)"
        );
        let game = parse_one(&full).unwrap();
        assert_eq!(game.date, "2024-05-01 10:00:00 GMT");
        assert_eq!(game.clock, GgfClock::new(900.0));
        assert_eq!(game.result, None);
        assert!(game.moves.is_empty());
        // The strict writer reproduces NBoard's own line exactly.
        assert_eq!(game.to_string(), full);
    }

    #[test]
    fn writes_the_strict_form() {
        let mut game = Game::new(BoardSize::Eight);
        for name in ["f5", "d6", "c3"] {
            game.play_square(sq(name)).unwrap();
        }
        let mut record = GgfGame::from_game(&game).with_players("oxello", "bob");
        record.place = "oxello".to_string();
        record.moves[0].eval = Some(0.0);
        record.moves[0].time = Some(1.2);
        record.moves[1].time = Some(0.0000001);
        record.moves[2].eval = Some(-1.234);
        assert_eq!(
            record.to_string(),
            format!(
                "(;GM[Othello]PC[oxello]DT[]PB[oxello]PW[bob]RE[?]TI[0]TY[8]BO[{START_BO}]\
                 B[F5/0.00/1.2]W[D6//0.0000001]B[C3/-1.234];)"
            )
        );
        assert_eq!(parse_one(&record.to_string()).unwrap(), record);
        assert_eq!(record.to_game().unwrap(), game);
    }

    #[test]
    fn finished_game_with_passes_round_trips() {
        // A 4x4 game: the board fills quickly and passes happen.
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        for size in BoardSize::ALL {
            for _ in 0..50 {
                let mut game = Game::new(size);
                while !game.is_over() {
                    let moves = game.position().move_list();
                    game.play(moves[rng.random_range(0..moves.len())]).unwrap();
                }
                let record = GgfGame::from_game(&game);
                let text = record.to_string();
                assert!(text.contains(&format!("TY[{}]BO[{} ", size.n(), size.n())));
                if game.moves().contains(&Move::Pass) {
                    assert!(text.contains("[PA]"));
                }
                let score = game.final_score_black().unwrap();
                assert_eq!(record.result.unwrap().score, f64::from(score));
                let again = parse_one(&text).unwrap();
                assert_eq!(again, record);
                assert_eq!(again.to_game().unwrap(), game);
            }
        }
    }

    #[test]
    fn six_by_six_game() {
        let text = "(;GM[Othello]PC[test]TY[6]BO[6 ------ ------ --O*-- --*O-- ------ ------ *]\
                    B[c2]W[b2]B[b3];)";
        let game = parse_one(text).unwrap();
        assert_eq!(game.start, Position::start(BoardSize::Six));
        let replayed = game.to_game().unwrap();
        assert_eq!(replayed.size(), BoardSize::Six);
        assert_eq!(replayed.moves().len(), 3);
        let written = game.to_string();
        assert!(written.contains("TY[6]BO[6 --------------O*----*O-------------- *]"));
        assert_eq!(parse_one(&written).unwrap(), game);
        // TY alone gives the start position of its size.
        let bare = parse_one("(;TY[6]B[C2];)").unwrap();
        assert_eq!(bare.to_game().unwrap().moves().len(), 1);
        // A square off the 6x6 board is illegal.
        let off = parse_one("(;TY[6]B[g7];)").unwrap();
        assert!(matches!(
            off.to_game(),
            Err(GgfError::Illegal { number: 1, ref error }) if error.reason == IllegalReason::OffBoard
        ));
    }

    #[test]
    fn many_games_and_counts() {
        let one = "(;GM[Othello]B[f5];)";
        let two = "(;GM[Othello]B[d3];)";
        for text in [
            format!("{one}{two}"),
            format!("{one}\n{two}\n"),
            format!("1 {one}\n1 {two}\n"),
            format!("2 {one}{two}"),
            format!("  2\n{one}  {two}  "),
        ] {
            let games = parse_all(&text).unwrap();
            assert_eq!(games.len(), 2, "{text}");
            assert_eq!(games[1].moves[0].token, Token::Square(sq("d3")));
        }
        assert_eq!(parse_all("").unwrap(), Vec::new());
        assert_eq!(parse_one(" \n"), Err(GgfError::NoGame));
        assert_eq!(
            parse_one(&format!("2 {one}{two}")),
            Err(GgfError::ManyGames { count: 2 })
        );
        let games = parse_all(&format!("2 {one}{two}")).unwrap();
        assert_eq!(parse_all(&format_all(&games)).unwrap(), games);
    }

    #[test]
    fn lenient_reading() {
        let text = "(; gm[othello] pb [Al\\]ice\\\\] XX[kept] B[PASS] w[f5/+1.5/2] ; \
                    b[Pa//3];)";
        let game = parse_one(text).unwrap();
        assert_eq!(game.black_name, "Al]ice\\");
        assert_eq!(
            game.extra_tags,
            vec![("XX".to_string(), "kept".to_string())]
        );
        assert_eq!(game.moves.len(), 3);
        assert_eq!(game.moves[0].token, Token::Pass);
        assert_eq!(game.moves[1].eval, Some(1.5));
        let written = game.to_string();
        assert!(written.contains("PB[Al\\]ice\\\\]"));
        assert!(!written.contains("XX"));
        let again = parse_one(&written).unwrap();
        assert_eq!(again.black_name, game.black_name);
        assert_eq!(again.moves, game.moves);
        // Typed clocks, types and results.
        let clock = |text: &str| GgfClock::parse(text);
        assert_eq!(clock("0"), Some(GgfClock::default()));
        assert!(clock("0").unwrap().is_untimed());
        assert_eq!(clock("1:00:00/30").unwrap().main, 3600.0);
        assert_eq!(clock("1:00:00/30").unwrap().increment, 30.0);
        assert_eq!(clock("1.02:03:04").unwrap().main, 93_784.0);
        assert_eq!(clock("90.5").unwrap().main, 90.5);
        for bad in ["a", "1:2:3:4", "-5", "inf", "1/2/3/4", "1.5:00", "x:00"] {
            assert_eq!(clock(bad), None, "{bad}");
        }
        for seconds in [0.0, 59.0, 300.0, 3600.0, 93_784.0, 0.25, 1e7] {
            let written = GgfClock::new(seconds).to_string();
            assert_eq!(clock(&written), Some(GgfClock::new(seconds)), "{written}");
        }
        let ty = GameType::parse("s8r20").unwrap();
        assert!(ty.synchro && ty.random_discs == Some(20) && ty.size == BoardSize::Eight);
        assert_eq!(ty.to_string(), "s8r20");
        assert_eq!(GameType::parse("8kr20").unwrap().to_string(), "8kr20");
        assert!(matches!(
            GameType::parse("10"),
            Err(GgfError::UnsupportedSize { .. })
        ));
        assert!(matches!(
            GameType::parse("8q"),
            Err(GgfError::BadValue { .. })
        ));
        let re = GgfResult::parse("+64.00:r").unwrap().unwrap();
        assert_eq!(re.flag, Some(ResultFlag::Resigned));
        assert_eq!(re.to_string(), "+64.00:r");
        assert_eq!(
            GgfResult::parse("-2.5:T").unwrap().unwrap().to_string(),
            "-2.50:t"
        );
        assert_eq!(GgfResult::parse("?"), Ok(None));
        assert!(GgfResult::parse("+2:x").is_err());
    }

    #[test]
    fn inserts_passes_and_checks_colours() {
        // A random 4x4 game with a pass in it.
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let game = loop {
            let mut game = Game::new(BoardSize::Four);
            while !game.is_over() {
                let moves = game.position().move_list();
                game.play(moves[rng.random_range(0..moves.len())]).unwrap();
            }
            let passes = game.moves().iter().filter(|mv| mv.is_pass()).count();
            if passes > 0 && game.moves().last() != Some(&Move::Pass) {
                break game;
            }
        };
        let mut record = GgfGame::from_game(&game);
        record.moves.retain(|mv| mv.token != Token::Pass);
        assert_eq!(record.to_game().unwrap(), game);

        let mut wrong = GgfGame::default();
        wrong
            .moves
            .push(GgfMove::new(Color::White, Token::Square(sq("f5"))));
        assert!(matches!(
            wrong.to_game(),
            Err(GgfError::WrongColor {
                number: 1,
                expected: Color::Black,
                found: Color::White,
                ..
            })
        ));
    }

    #[test]
    fn errors_are_typed() {
        let illegal = parse_one("(;B[f5]W[d6]B[a1];)").unwrap().to_game();
        match illegal {
            Err(GgfError::Illegal { number, ref error }) => {
                assert_eq!(number, 3);
                assert_eq!(error.mv, "a1");
            }
            ref other => panic!("unexpected {other:?}"),
        }
        assert!(illegal.unwrap_err().to_string().contains("move 3"));
        assert!(matches!(
            parse_one("(;B[f5]W[PA];)").unwrap().to_game(),
            Err(GgfError::Illegal { number: 2, .. })
        ));
        assert!(matches!(
            parse_one("(;B[f5]W[z9];)"),
            Err(GgfError::BadMove { number: 2, .. })
        ));
        assert!(matches!(
            parse_one("(;B[f5/x];)"),
            Err(GgfError::BadMove { number: 1, .. })
        ));
        assert!(matches!(
            parse_one("(;B[f5]"),
            Err(GgfError::Unterminated { offset: 0 })
        ));
        assert!(matches!(
            parse_one("(;B[f5;)"),
            Err(GgfError::Unterminated { offset: 2 })
        ));
        assert!(matches!(
            parse_one("(;B[f5](;B[d3];)"),
            Err(GgfError::Unterminated { offset: 0 })
        ));
        assert!(matches!(
            parse_one("x(;;)"),
            Err(GgfError::Unexpected {
                offset: 0,
                found: 'x'
            })
        ));
        assert!(matches!(
            parse_one("(;GM[Go];)"),
            Err(GgfError::NotOthello { .. })
        ));
        assert!(matches!(
            parse_one("(;BO[8 ---];)"),
            Err(GgfError::BadBoard { .. })
        ));
        assert!(matches!(
            parse_one(&format!("(;BO[{}];)", START_BO.replace('O', "?"))),
            Err(GgfError::BadBoard { .. })
        ));
        assert!(matches!(
            parse_one(&format!("(;BO[6{}];)", &START_BO[1..])),
            Err(GgfError::SizeMismatch {
                declared: 6,
                found: 8
            })
        ));
        assert!(matches!(
            parse_one(&format!("(;TY[6]BO[{START_BO}];)")),
            Err(GgfError::SizeMismatch { .. })
        ));
        assert!(matches!(
            parse_one("(;BO[10 ---];)"),
            Err(GgfError::UnsupportedSize { .. })
        ));
        assert!(matches!(
            parse_one("(;BO[* *];)"),
            Err(GgfError::BadValue { .. })
        ));
        assert!(matches!(
            parse_one("(;TI[5:xx];)"),
            Err(GgfError::BadValue { .. })
        ));
        assert!(matches!(
            parse_one("(;RB[NaN];)"),
            Err(GgfError::BadValue { .. })
        ));
    }

    /// Checks the parser on `text`: no panic, and a parsed game writes and
    /// reads back to itself (unknown tags aside).
    /// Returns how many games of `text` were read.
    fn check_round_trip(text: &str) -> usize {
        let Ok(games) = parse_all(text) else {
            return 0;
        };
        let count = games.len();
        for mut game in games {
            game.extra_tags.clear();
            let written = game.to_string();
            let again = parse_one(&written)
                .unwrap_or_else(|error| panic!("{written:?} from {text:?}: {error}"));
            assert_eq!(again, game, "{written:?}");
            if let Ok(replayed) = game.to_game() {
                let record = GgfGame::from_game(&replayed);
                assert_eq!(record.to_game().unwrap(), replayed);
            }
        }
        count
    }

    /// A random game text: a tag list built from plausible and broken tags
    /// and values, sometimes with a count, sometimes left open.
    fn random_game_text(rng: &mut rand::rngs::StdRng) -> String {
        const TAGS: [&str; 16] = [
            "GM", "PC", "PB", "B", "W", "B", "W", "TI", "TB", "RE", "TY", "BO", "RB", "KM", "KW",
            "XX",
        ];
        const VALUES: [&str; 30] = [
            "Othello",
            "f5",
            "D6",
            "c3",
            "PA",
            "pass",
            "f5/1.5/2",
            "d3//0.01",
            "e6/-0.5",
            "--",
            "05:00//02:00",
            "15:00",
            "0",
            "1:00:00/5",
            "+2.00:r",
            "?",
            "-64:t",
            "8",
            "6",
            "4",
            "s8r20",
            "2196.37",
            "",
            "a\\]b",
            "é",
            "-",
            "1e3",
            "inf",
            "z9",
            "8 *",
        ];
        let boards = [
            START_BO.to_string(),
            "6 ------ ------ --O*-- --*O-- ------ ------ O".to_string(),
            "4 ---- -O*- -*O- ---- *".to_string(),
        ];
        let mut text = String::new();
        if rng.random_bool(0.2) {
            text.push_str("1 ");
        }
        text.push_str("(;");
        for _ in 0..rng.random_range(0..10) {
            let tag = TAGS[rng.random_range(0..TAGS.len())];
            let value = if tag == "BO" && rng.random_bool(0.8) {
                boards[rng.random_range(0..boards.len())].clone()
            } else {
                VALUES[rng.random_range(0..VALUES.len())].to_string()
            };
            text.push_str(&format!("{tag}[{value}]"));
        }
        if rng.random_bool(0.95) {
            text.push_str(";)");
        }
        text
    }

    #[test]
    fn random_input_never_panics() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(13);
        let mut read = 0;
        let pieces = [
            "(;", ";)", "(", ")", ";", "[", "]", "\\", " ", "\n", "B[", "W[", "f5", "d6", "c3",
            "PA", "pass", "/", "//", "1.5", "-2", ":", "TI[", "RE[", "TY[", "BO[", "GM[", "PB[",
            "KB[", "KM[", "8", "6", "4", "0", "*", "O", "-", "?", "é", "r", "s", "e", "inf",
            "\u{0}",
        ];
        for _ in 0..40_000 {
            let text = if rng.random_bool(0.5) {
                random_game_text(&mut rng)
            } else {
                let len = rng.random_range(0..30);
                (0..len)
                    .map(|_| pieces[rng.random_range(0..pieces.len())])
                    .collect()
            };
            read += check_round_trip(&text);
        }
        eprintln!("{read} games read");
        assert!(read > 500, "the generator should produce readable games");
    }

    #[test]
    fn mutated_games_never_panic() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(17);
        let mut read = 0;
        let mut seeds = vec![GGS.to_string()];
        let mut game = Game::new(BoardSize::Six);
        while !game.is_over() {
            let moves = game.position().move_list();
            game.play(moves[rng.random_range(0..moves.len())]).unwrap();
        }
        seeds.push(GgfGame::from_game(&game).to_string());
        let alphabet: Vec<char> = "()[];:/\\ 0123456789.+-*O?abcdefghPASWBTIYREé"
            .chars()
            .collect();
        for _ in 0..20_000 {
            let mut text: Vec<char> = seeds[rng.random_range(0..seeds.len())].chars().collect();
            for _ in 0..rng.random_range(1..5) {
                let at = rng.random_range(0..=text.len());
                match rng.random_range(0..3) {
                    0 if at < text.len() => {
                        text.remove(at);
                    }
                    1 if at < text.len() => {
                        text[at] = alphabet[rng.random_range(0..alphabet.len())]
                    }
                    _ => text.insert(at, alphabet[rng.random_range(0..alphabet.len())]),
                }
            }
            let text: String = text.into_iter().collect();
            read += check_round_trip(&text);
        }
        eprintln!("{read} games read");
        assert!(read > 500, "the generator should produce readable games");
    }
}
