//! GGF field values: clocks, the game type, the result, and the number
//! formats they share.

use super::*;

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
pub(super) fn parse_duration(text: &str) -> Option<f64> {
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
pub(super) fn format_duration(seconds: f64) -> String {
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
pub(super) fn parse_number(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|x| x.is_finite())
}

/// The shortest decimal form that reads back to `x`. Rust's `Display` for
/// floats never uses exponent notation.
pub(super) fn format_number(x: f64) -> String {
    format!("{x}")
}

/// Two decimals when that is exact (`0.00`, `-1.50`), else the shortest
/// exact form: the usual look of evals and scores that still round-trips.
pub(super) fn format_fixed(x: f64, signed: bool) -> String {
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

pub(super) fn parse_size(text: &str) -> Result<BoardSize, GgfError> {
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
