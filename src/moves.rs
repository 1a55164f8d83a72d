//! Moves and fixed-capacity move lists.

use crate::square::Square;
use std::fmt;

/// A move: a disc placed on a square, carrying the discs it flips, or a pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// Place a disc on `square`, flipping the discs of `flips`.
    Place { square: Square, flips: u64 },
    /// The side to move has no legal placement and passes.
    Pass,
}

impl Move {
    /// The square of a placement, `None` for a pass.
    #[inline]
    pub const fn square(self) -> Option<Square> {
        match self {
            Move::Place { square, .. } => Some(square),
            Move::Pass => None,
        }
    }

    /// The flipped discs (empty for a pass).
    #[inline]
    pub const fn flips(self) -> u64 {
        match self {
            Move::Place { flips, .. } => flips,
            Move::Pass => 0,
        }
    }

    /// Whether this is a pass.
    #[inline]
    pub const fn is_pass(self) -> bool {
        matches!(self, Move::Pass)
    }

    /// Upper-case name as NBoard and GGF write it: `F5` or `PA`.
    pub fn to_upper(self) -> String {
        match self {
            Move::Place { square, .. } => square.to_upper(),
            Move::Pass => "PA".to_string(),
        }
    }
}

/// Whether `text` spells a pass in any of the forms met in the wild: `PA`,
/// `pass` or any prefix of it of two letters or more, `ps`, `--`, `@@`, `@@@@`.
pub fn is_pass_word(text: &str) -> bool {
    let lower = text.trim().to_ascii_lowercase();
    (lower.len() >= 2 && "pass".starts_with(&lower))
        || matches!(lower.as_str(), "ps" | "--" | "@@" | "@@@@")
}

impl fmt::Display for Move {
    /// Lower-case square (`f5`) or `PA` for a pass.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place { square, .. } => write!(f, "{square}"),
            Move::Pass => f.write_str("PA"),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place { square, flips } => write!(f, "{square}(flips {flips:#018x})"),
            Move::Pass => f.write_str("PA"),
        }
    }
}

/// The most moves a position can have: one per empty square. Every move list
/// (this one and the search's scored lists) is sized from it, so no legal
/// move is ever dropped, whatever board the parser accepted (a real game has
/// at most 33 moves; boards set up by hand can have more).
pub const MAX_MOVES: usize = 64;

/// A list of moves that lives on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::Pass; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move. There is always room: a position has at most 64 moves.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        debug_assert!(self.len < MAX_MOVES);
        self.moves[self.len] = mv;
        self.len += 1;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];

    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

const _: () = assert!(std::mem::size_of::<Move>() == 16);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_spellings() {
        for word in [
            "PA", "pa", "pass", "PASS", "pas", "ps", "--", "@@", "@@@@", " Pass ",
        ] {
            assert!(is_pass_word(word), "{word}");
        }
        for word in ["p", "passe", "a1", "", "@", "pass2"] {
            assert!(!is_pass_word(word), "{word}");
        }
    }
}
