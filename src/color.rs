//! The two colours. Black moves first.

use std::fmt;
use std::str::FromStr;

/// A player's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black,
    White,
}

/// Why a colour name could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseColorError {
    pub text: String,
}

impl fmt::Display for ParseColorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a colour (expected black or white)",
            self.text
        )
    }
}

impl std::error::Error for ParseColorError {}

impl Color {
    /// The other colour.
    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The symbol of board strings and OBF files: `X` for Black, `O` for White.
    pub const fn symbol(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }

    /// Lower-case English name, as GTP writes it.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl FromStr for Color {
    type Err = ParseColorError;

    /// Accepts `black`/`b`/`x`/`*` and `white`/`w`/`o`, any case.
    fn from_str(text: &str) -> Result<Color, ParseColorError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "black" | "b" | "x" | "*" => Ok(Color::Black),
            "white" | "w" | "o" => Ok(Color::White),
            _ => Err(ParseColorError {
                text: text.to_string(),
            }),
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
