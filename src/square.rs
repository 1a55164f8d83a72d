//! Squares of the board, named `a1`..`h8`.
//!
//! Column letters run left to right, row digits top to bottom (row 1 is the
//! top row, as in every Othello program). Square `a1` is bit 0 of a bitboard,
//! `h1` bit 7, `a8` bit 56 and `h8` bit 63. Small boards (4x4, 6x6) are
//! embedded in the top-left corner, so a square keeps its name on every size.

use std::fmt;
use std::str::FromStr;

/// One of the 64 squares. The index is always below 64: there is no sentinel.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// Why a square name could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError {
    /// The text that was not a square.
    pub text: String,
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a square (expected a1..h8)", self.text)
    }
}

impl std::error::Error for ParseSquareError {}

impl Square {
    /// The square with this bit index, if it is below 64.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square at `col` (0 = a) and `row` (0 = row 1, the top row).
    pub const fn from_coords(col: u8, row: u8) -> Option<Square> {
        if col < 8 && row < 8 {
            Some(Square(row * 8 + col))
        } else {
            None
        }
    }

    /// The square of the lowest set bit of a non-empty bitboard.
    #[inline]
    pub fn from_lowest_bit(bits: u64) -> Option<Square> {
        if bits == 0 {
            None
        } else {
            Some(Square(bits.trailing_zeros() as u8))
        }
    }

    /// Bit index, 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Column, 0 (a) to 7 (h).
    #[inline]
    pub const fn col(self) -> u8 {
        self.0 & 7
    }

    /// Row, 0 (row 1, top) to 7 (row 8, bottom).
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 >> 3
    }

    /// The single-bit bitboard of this square.
    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64u8).map(Square)
    }

    /// The name in upper case (`F5`), as NBoard and GGF writers use it.
    pub fn to_upper(self) -> String {
        self.to_string().to_ascii_uppercase()
    }

    /// Reads a square from the first two bytes of `text` (any case).
    pub fn parse_prefix(text: &[u8]) -> Option<Square> {
        match text {
            [c, r, ..] => {
                let col = c.to_ascii_lowercase().wrapping_sub(b'a');
                let row = r.wrapping_sub(b'1');
                Square::from_coords(col, row)
            }
            _ => None,
        }
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(text: &str) -> Result<Square, ParseSquareError> {
        let trimmed = text.trim();
        match Square::parse_prefix(trimmed.as_bytes()) {
            Some(square) if trimmed.len() == 2 => Ok(square),
            _ => Err(ParseSquareError {
                text: text.to_string(),
            }),
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let col = (b'a' + self.col()) as char;
        let row = (b'1' + self.row()) as char;
        write!(f, "{col}{row}")
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_indices_agree() {
        for square in Square::all() {
            let name = square.to_string();
            assert_eq!(name.parse::<Square>().unwrap(), square);
            assert_eq!(name.to_uppercase().parse::<Square>().unwrap(), square);
        }
        assert_eq!("a1".parse::<Square>().unwrap().index(), 0);
        assert_eq!("h1".parse::<Square>().unwrap().index(), 7);
        assert_eq!("a8".parse::<Square>().unwrap().index(), 56);
        assert_eq!("F5".parse::<Square>().unwrap().index(), 4 * 8 + 5);
    }

    #[test]
    fn rejects_non_squares() {
        for bad in ["", "a", "a0", "a9", "i1", "aa", "a10", "1a", "é1", "pa"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }
}
