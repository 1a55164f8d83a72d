//! The solver's table for the last empties below the shared table's reach,
//! private to one search thread.
//!
//! Positions a few moves from the end are reached again and again by moves
//! played in another order, but there are too many of them, and each too
//! cheap, for the shared [`Table`](super::tt::Table): a probe there is a
//! cache miss, and a store evicts costlier results. Here each number of
//! empties has a small direct-mapped table of its own that stays in the
//! core's cache, with no locking (one thread reads and writes it) and the
//! full board as the key (no false hit). An entry keeps the bounds a
//! null-window search proved: a lower bound when it failed high, an upper
//! one when it failed low. They are bounds on the exact score, so they stay
//! true for the whole search, whatever the window that found them.

use crate::board::Board;
use crate::search::params::{DEEP_SOLVE_EMPTIES, LOCAL_TABLE_BITS, SCORE_MAX, SCORE_MIN};

/// The fewest empties kept: the smallest position [`super::Search`]'s
/// sorted solver sees (below, the solver tries each empty square directly).
/// Keeping none of 5 empties (no probe, no store there) made the tree
/// larger and the solve slower: FFO #45-50, one thread, 1,035.0 M ->
/// 1,073.8 M nodes, medians of 6 side-by-side runs 58.1 -> 59.7 s.
pub(crate) const FIRST_EMPTIES: u32 = 5;

/// Tables, one per number of empties from [`FIRST_EMPTIES`] to below
/// [`DEEP_SOLVE_EMPTIES`].
const LEVELS: usize = (DEEP_SOLVE_EMPTIES - FIRST_EMPTIES) as usize;

#[derive(Clone, Copy, Default)]
struct Entry {
    player: u64,
    opponent: u64,
    lower: i8,
    upper: i8,
}

/// Score bounds of positions with [`FIRST_EMPTIES`] to
/// [`DEEP_SOLVE_EMPTIES`] - 1 empties.
pub(crate) struct LocalTable {
    entries: Box<[Entry]>,
}

impl LocalTable {
    pub(crate) fn new() -> LocalTable {
        LocalTable {
            entries: vec![Entry::default(); LEVELS << LOCAL_TABLE_BITS].into_boxed_slice(),
        }
    }

    #[inline]
    fn index(board: Board, empties: u32) -> usize {
        debug_assert!((FIRST_EMPTIES..DEEP_SOLVE_EMPTIES).contains(&empties));
        let hash = board.player.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ board.opponent.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        let slot = (hash >> (64 - LOCAL_TABLE_BITS)) as usize;
        ((empties - FIRST_EMPTIES) as usize) << LOCAL_TABLE_BITS | slot
    }

    /// The bounds `(lower, upper)` known for `board`, which has `empties`
    /// empty squares.
    #[inline]
    pub(crate) fn probe(&self, board: Board, empties: u32) -> Option<(i32, i32)> {
        let entry = &self.entries[Self::index(board, empties)];
        // An unused entry (no discs) matches no board.
        (entry.player == board.player && entry.opponent == board.opponent)
            .then_some((i32::from(entry.lower), i32::from(entry.upper)))
    }

    /// Records what a null-window search (`alpha`, `alpha + 1`) of `board`
    /// found: `score` (fail-soft) is a lower bound if above `alpha`, an upper
    /// bound otherwise. Replaces whatever the slot held.
    #[inline]
    pub(crate) fn store(&mut self, board: Board, empties: u32, alpha: i32, score: i32) {
        let (lower, upper) = if score > alpha {
            (score, SCORE_MAX)
        } else {
            (SCORE_MIN, score)
        };
        self.entries[Self::index(board, empties)] = Entry {
            player: board.player,
            opponent: board.opponent,
            lower: lower as i8,
            upper: upper as i8,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::BoardSize;
    use crate::eval::test_support::random_game_boards;

    #[test]
    fn bounds_come_back_for_the_same_board_only() {
        let boards: Vec<Board> = random_game_boards(BoardSize::Eight, 400, 5)
            .into_iter()
            .filter(|b| {
                (FIRST_EMPTIES..DEEP_SOLVE_EMPTIES).contains(&b.empty_count_on(BoardSize::Eight))
            })
            .collect();
        assert!(boards.len() > 20);
        for &board in &boards {
            let mut table = LocalTable::new();
            let empties = board.empty_count_on(BoardSize::Eight);
            assert_eq!(table.probe(board, empties), None);
            table.store(board, empties, 3, 10);
            assert_eq!(table.probe(board, empties), Some((10, SCORE_MAX)));
            table.store(board, empties, 3, -6);
            assert_eq!(table.probe(board, empties), Some((SCORE_MIN, -6)));
            // The same discs with the sides swapped miss.
            assert_eq!(table.probe(board.pass(), empties), None);
        }
    }
}
