//! The transposition table, made for Othello: the full board is the key, so a
//! hit is never a false one.
//!
//! Each entry keeps lower and upper bounds on the score, the depth they hold
//! for (see [`exact_depth`] for exact solves), the best move, and the
//! search generation (age) that wrote it. Entries live in buckets of two,
//! chosen by the board's hash.
//!
//! Replacement: a store for a board already in the bucket updates that entry.
//! Otherwise it takes the entry of least value, where an entry from an older
//! search is worth less than any from the current one and, within the same
//! age, a shallower entry (for exact results: fewer empties) is worth less.

use crate::board::Board;
use crate::search::params::{SCORE_MAX, SCORE_MIN};

/// Exact endgame results are recorded at this depth plus the number of empty
/// squares: deeper than any midgame depth, so a midgame probe may use them,
/// and ordered by subtree size, so replacement keeps the costly ones.
pub const EXACT_DEPTH_BASE: u8 = 64;

/// The depth recorded for an exact result with `empties` empty squares.
#[inline]
pub const fn exact_depth(empties: u32) -> u8 {
    EXACT_DEPTH_BASE + empties as u8
}

/// Whether a recorded depth belongs to an exact endgame result.
#[inline]
pub const fn is_exact(depth: u8) -> bool {
    depth > EXACT_DEPTH_BASE
}

/// One stored position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    pub player: u64,
    pub opponent: u64,
    pub lower: i8,
    pub upper: i8,
    pub depth: u8,
    /// Best move's square index, or [`NO_MOVE`].
    pub best: u8,
    pub age: u8,
    _pad: [u8; 3],
}

const _: () = assert!(std::mem::size_of::<Entry>() == 24);

/// `best` of an entry that has no best move.
pub const NO_MOVE: u8 = 255;

/// What a probe found for a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    pub lower: i32,
    pub upper: i32,
    pub depth: u8,
    pub best: u8,
}

impl Hit {
    /// The stored bound that settles a null-window search at `alpha`: a
    /// lower bound above it (fail high) or an upper bound at or below it
    /// (fail low). The caller checks the depth first.
    #[inline]
    pub fn cutoff(&self, alpha: i32) -> Option<i32> {
        if self.lower > alpha {
            Some(self.lower)
        } else if self.upper <= alpha {
            Some(self.upper)
        } else {
            None
        }
    }
}

/// The table. Its size is fixed at creation, in MiB.
pub struct Table {
    entries: Vec<Entry>,
    /// Number of buckets minus one (a power of two minus one).
    bucket_mask: usize,
    age: u8,
}

const BUCKET: usize = 2;

impl Table {
    /// A table of about `mib` MiB (at least one bucket).
    pub fn new(mib: usize) -> Table {
        let wanted = (mib.max(1) << 20) / (std::mem::size_of::<Entry>() * BUCKET);
        let buckets = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        let buckets = buckets.max(1);
        Table {
            entries: vec![Entry::default(); buckets * BUCKET],
            bucket_mask: buckets - 1,
            age: 1,
        }
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.age = 1;
    }

    /// Starts a new search: entries of older searches become cheap to replace.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1).max(1);
    }

    #[inline]
    fn bucket(&self, board: Board) -> usize {
        ((board.hash64() as usize) & self.bucket_mask) * BUCKET
    }

    /// The stored bounds for `board`, if present.
    #[inline]
    pub fn probe(&self, board: Board) -> Option<Hit> {
        let start = self.bucket(board);
        self.entries[start..start + BUCKET]
            .iter()
            .find(|e| e.player == board.player && e.opponent == board.opponent && e.depth > 0)
            .map(|e| Hit {
                lower: e.lower as i32,
                upper: e.upper as i32,
                depth: e.depth,
                best: e.best,
            })
    }

    /// Records the result of searching `board` to `depth` with window
    /// (`alpha`, `beta`): `score` is exact inside the window, an upper bound
    /// at or below `alpha` and a lower bound at or above `beta`.
    #[inline]
    pub fn store(&mut self, board: Board, depth: u8, alpha: i32, beta: i32, score: i32, best: u8) {
        let (lower, upper) = if score <= alpha {
            (SCORE_MIN, score)
        } else if score >= beta {
            (score, SCORE_MAX)
        } else {
            (score, score)
        };
        let start = self.bucket(board);
        let age = self.age;
        let bucket = &mut self.entries[start..start + BUCKET];
        if let Some(entry) = bucket
            .iter_mut()
            .find(|e| e.player == board.player && e.opponent == board.opponent)
        {
            if entry.depth == depth {
                // Same depth: tighten the bounds we already have.
                entry.lower = entry.lower.max(lower as i8);
                entry.upper = entry.upper.min(upper as i8);
                if entry.lower > entry.upper {
                    (entry.lower, entry.upper) = (lower as i8, upper as i8);
                }
            } else if depth > entry.depth || entry.age != age {
                (entry.lower, entry.upper, entry.depth) = (lower as i8, upper as i8, depth);
            } else {
                return;
            }
            if best != NO_MOVE {
                entry.best = best;
            }
            entry.age = age;
            return;
        }
        let value = |e: &Entry| (e.age == age) as u32 * 256 + e.depth as u32;
        let victim = if value(&bucket[0]) <= value(&bucket[1]) {
            0
        } else {
            1
        };
        bucket[victim] = Entry {
            player: board.player,
            opponent: board.opponent,
            lower: lower as i8,
            upper: upper as i8,
            depth,
            best,
            age,
            _pad: [0; 3],
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::BoardSize;

    #[test]
    fn stores_and_tightens_bounds() {
        let mut table = Table::new(1);
        assert!(table.bytes() <= 1 << 20);
        let board = Board::start(BoardSize::Eight);
        assert_eq!(table.probe(board), None);
        table.store(board, 5, 0, 10, 20, 3);
        assert_eq!(
            table.probe(board),
            Some(Hit {
                lower: 20,
                upper: 64,
                depth: 5,
                best: 3
            })
        );
        // 25 fails low in (30, 40): an upper bound that tightens the entry.
        table.store(board, 5, 30, 40, 25, NO_MOVE);
        assert_eq!(
            table.probe(board),
            Some(Hit {
                lower: 20,
                upper: 25,
                depth: 5,
                best: 3
            })
        );
        table.store(board, 7, -64, 64, 2, 4);
        assert_eq!(
            table.probe(board),
            Some(Hit {
                lower: 2,
                upper: 2,
                depth: 7,
                best: 4
            })
        );
        // A shallower result of the same search does not overwrite a deeper one.
        table.store(board, 3, -64, 64, 9, 5);
        assert_eq!(table.probe(board).unwrap().depth, 7);
        table.clear();
        assert_eq!(table.probe(board), None);
    }
}
