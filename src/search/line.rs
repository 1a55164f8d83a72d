//! Principal variations: a fixed-capacity line of moves built bottom-up.

use crate::search::params::MAX_PLY;
use crate::square::Square;

/// A sequence of moves (squares or passes) without heap allocation.
#[derive(Clone, Copy)]
pub struct Line {
    moves: [Option<Square>; MAX_PLY],
    len: usize,
}

impl Line {
    pub const fn new() -> Line {
        Line {
            moves: [None; MAX_PLY],
            len: 0,
        }
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// This line becomes `first` followed by `rest`.
    #[inline]
    pub fn set(&mut self, first: Option<Square>, rest: &Line) {
        self.moves[0] = first;
        let n = rest.len.min(MAX_PLY - 1);
        self.moves[1..=n].copy_from_slice(&rest.moves[..n]);
        self.len = n + 1;
    }

    /// The moves: `Some(square)` for a placement, `None` for a pass.
    pub fn as_slice(&self) -> &[Option<Square>] {
        &self.moves[..self.len]
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The first move, if any.
    pub fn first(&self) -> Option<Option<Square>> {
        self.as_slice().first().copied()
    }

    /// As moves without flips (enough to print; replay to get flips).
    pub fn squares(&self) -> impl Iterator<Item = Option<Square>> + '_ {
        self.as_slice().iter().copied()
    }
}

impl Default for Line {
    fn default() -> Self {
        Line::new()
    }
}
