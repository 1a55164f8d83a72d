//! Move ordering, one module for the root, the midgame search and the solver.
//!
//! [`Search::order_moves`] fills a [`MoveList`] with every legal move, its
//! flips and an ordering value chosen by an explicit [`OrderingMode`]; the
//! searches then take moves best first with [`MoveList::next_best`]
//! (selection sort one step at a time: cutoffs often come early, so sorting
//! the whole list would be wasted work).
//!
//! The solver's nodes of 5-9 empties build their list themselves
//! (`sort_or_settle` in `endgame.rs`): they may settle a move
//! by a table bound or a search before it is valued, then value the others
//! with [`Search::fastest_first_value`].

use crate::bitboard::{BoardSize, neighbours, squares};
use crate::board::Board;
use crate::movegen;
use crate::moves::MAX_MOVES;
use crate::search::Search;
use crate::search::node::Child;
use crate::search::params::*;
use crate::square::Square;
use std::mem::MaybeUninit;

/// A move with its flips and ordering value.
#[derive(Clone, Copy)]
pub(crate) struct Scored {
    pub index: u8,
    pub flips: u64,
    pub value: i32,
    /// The opponent's legal moves after the move, where the solver's
    /// sorted nodes (5-9 empties) valued it: the child then need not
    /// generate them again. 0 in every other list.
    pub replies: u64,
}

impl Scored {
    /// The square the move is played on.
    #[inline]
    pub fn square(self) -> Square {
        square_of(self.index)
    }

    /// The board after the move.
    #[inline]
    pub fn play(self, board: Board) -> Board {
        board.play_flips(self.square(), self.flips)
    }
}

/// The moves of one node with their ordering values, taken best first.
///
/// A parallel search may defer the move just handed out (another thread is
/// searching it): it comes back, best first again, after the others.
///
/// `N` is the capacity: every legal move of any board by default, fewer for
/// the solver's last empties (a node with `n` empties has at most `n` moves).
///
/// The entries past those pushed are left uninitialised: zeroing the
/// lists cost 3% of a solve's instructions (callgrind, FFO #40: 3.202 G ->
/// 3.099 G).
pub(crate) struct MoveList<const N: usize = MAX_MOVES> {
    /// Handed out in `..taken`, waiting in `taken..len`, deferred in
    /// `len..len + deferred`. The first `len + deferred` entries are
    /// initialised (the invariant the unsafe slices below rely on).
    moves: [MaybeUninit<Scored>; N],
    len: usize,
    /// Moves already handed out by [`MoveList::next_best`].
    taken: usize,
    deferred: usize,
    /// Whether the deferred moves are being handed out (no second deferral).
    revisiting: bool,
}

impl<const N: usize> MoveList<N> {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList<N> {
        MoveList {
            moves: [MaybeUninit::uninit(); N],
            len: 0,
            taken: 0,
            deferred: 0,
            revisiting: false,
        }
    }

    /// Adds `mv` (the list holds at most `N` moves).
    #[inline]
    pub fn push(&mut self, mv: Scored) {
        debug_assert_eq!(self.deferred, 0, "moves are pushed before any is deferred");
        self.moves[self.len] = MaybeUninit::new(mv);
        self.len += 1;
    }

    /// The initialised entries: the moves of the list and the deferred ones.
    #[inline]
    fn entries(&self) -> &[Scored] {
        let end = self.len + self.deferred;
        // SAFETY: the first `len + deferred` entries are initialised (every
        // one was written by `push`, and `defer` and `next_best` only swap
        // entries within that range), and `MaybeUninit<Scored>` has the
        // layout of `Scored`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Scored>(), end) }
    }

    /// [`MoveList::entries`], mutable.
    #[inline]
    fn entries_mut(&mut self) -> &mut [Scored] {
        let end = self.len + self.deferred;
        // SAFETY: as in `entries`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Scored>(), end) }
    }

    /// Adds every move of `moves` on `board` with its flips, not yet valued.
    ///
    /// The solver's deep nodes fill their list in place with it: built by a
    /// constructor and returned, the list was copied with `memcpy`
    /// (callgrind, FFO #40: 2.868 G -> 2.855 G instructions).
    #[inline]
    pub fn add_moves(&mut self, board: Board, moves: u64) {
        for square in squares(moves) {
            self.push(Scored {
                index: square.index() as u8,
                flips: movegen::flips(board.player, board.opponent, square.index()),
                value: 0,
                replies: 0,
            });
        }
    }

    /// The moves of the list, in their current order.
    #[inline]
    pub fn moves(&self) -> &[Scored] {
        &self.entries()[..self.len]
    }

    /// How many moves [`MoveList::next_best`] has handed out.
    #[inline]
    pub fn taken(&self) -> usize {
        self.taken
    }

    /// Moves not yet handed out.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.len - self.taken + self.deferred
    }

    /// Whether the move just handed out may be deferred: never the first
    /// (searched by every thread, as young brothers wait for the eldest),
    /// nor one handed out a second time.
    #[inline]
    pub fn may_defer(&self) -> bool {
        self.taken > 1 && !self.revisiting
    }

    /// Puts the move just handed out aside until the others are taken.
    #[inline]
    pub fn defer(&mut self) {
        self.taken -= 1;
        self.len -= 1;
        self.deferred += 1;
        let (taken, len) = (self.taken, self.len);
        self.entries_mut().swap(taken, len);
    }

    /// The best-valued move not yet taken (then the deferred ones), or
    /// `None` when all were.
    #[inline]
    pub fn next_best(&mut self) -> Option<Scored> {
        if self.taken == self.len {
            if self.deferred == 0 {
                return None;
            }
            self.len += self.deferred;
            self.deferred = 0;
            self.revisiting = true;
        }
        let (taken, len) = (self.taken, self.len);
        let rest = &mut self.entries_mut()[taken..len];
        let mut best = 0;
        for i in 1..rest.len() {
            if rest[i].value > rest[best].value {
                best = i;
            }
        }
        rest.swap(0, best);
        let mv = rest[0];
        self.taken += 1;
        Some(mv)
    }
}

/// How the moves of a node are valued. The table move always comes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OrderingMode {
    /// By a midgame search of this depth after the move (best for us
    /// first; 0: the evaluation of the position after it), opponent
    /// mobility breaking ties.
    Search(u32),
    /// The solver's: as [`OrderingMode::Search`], but each disc of the
    /// search's score weighs `scale` against mobility, less than there
    /// ([`SOLVE_ORDERING_SCALE`], [`SOLVE_EVAL_ORDERING_SCALE`]), and each
    /// square of the opponent's potential mobility weighs `potential`
    /// ([`SOLVE_POTENTIAL_WEIGHT`], [`SOLVE_EVAL_POTENTIAL_WEIGHT`]).
    Solve {
        depth: u32,
        scale: i32,
        potential: i32,
    },
    /// Fewest opponent replies first (weighted mobility).
    Mobility,
    /// Fewest opponent replies first, moves in regions with an odd number
    /// of empties ahead (the solver's fastest-first).
    FastestFirst,
}

impl OrderingMode {
    /// The mode of a midgame node searched `depth` plies deep: the
    /// evaluation after each move from [`EVAL_ORDERING_MIN_DEPTH`] plies
    /// (deeper ordering searches cost more than they save, see there),
    /// mobility below.
    pub fn midgame(depth: u32) -> OrderingMode {
        if depth >= EVAL_ORDERING_MIN_DEPTH {
            OrderingMode::Search(0)
        } else {
            OrderingMode::Mobility
        }
    }

    /// The mode of a solver node with `empties` empty squares on a board
    /// of `size` (whose evaluation sets the weight of its score).
    pub fn endgame(empties: u32, size: BoardSize) -> OrderingMode {
        if empties >= SHALLOW_ORDERING_EMPTIES {
            OrderingMode::Solve {
                depth: SHALLOW_ORDERING_DEPTH,
                scale: SOLVE_ORDERING_SCALE,
                potential: SOLVE_POTENTIAL_WEIGHT,
            }
        } else if empties >= EVAL_ORDERING_EMPTIES {
            OrderingMode::Solve {
                depth: EVAL_ORDERING_DEPTH,
                scale: SOLVE_EVAL_ORDERING_SCALE[size as usize],
                potential: SOLVE_EVAL_POTENTIAL_WEIGHT,
            }
        } else {
            OrderingMode::FastestFirst
        }
    }
}

impl Search<'_> {
    /// Every move of `moves` with its flips and its value under `mode`;
    /// `table_move` first.
    #[inline(always)]
    pub(crate) fn order_moves(
        &mut self,
        board: Board,
        moves: u64,
        table_move: u8,
        mode: OrderingMode,
    ) -> MoveList {
        let mut list = MoveList::new();
        list.add_moves(board, moves);
        self.value_moves(board, &mut list, table_move, mode);
        list
    }

    /// Values the moves of `list` (collected on `board`) under `mode`;
    /// `table_move` first.
    pub(crate) fn value_moves(
        &mut self,
        board: Board,
        list: &mut MoveList,
        table_move: u8,
        mode: OrderingMode,
    ) {
        if list.len == 1 {
            // A lone move needs no value: an ordering search of it would
            // only cost nodes.
            return;
        }
        let odd = match mode {
            OrderingMode::FastestFirst => self.odd_regions(board.empties() & self.mask),
            _ => 0,
        };
        let len = list.len;
        for mv in &mut list.entries_mut()[..len] {
            let child = mv.play(board);
            mv.value = if mv.index == table_move {
                i32::MAX
            } else {
                match mode {
                    OrderingMode::Search(depth) => self.search_value(
                        board,
                        *mv,
                        child,
                        depth,
                        SEARCH_ORDERING_SCALE,
                        POTENTIAL_MOBILITY_WEIGHT,
                    ),
                    OrderingMode::Solve {
                        depth,
                        scale,
                        potential,
                    } => self.search_value(board, *mv, child, depth, scale, potential),
                    OrderingMode::Mobility => -self.mobility_value(child),
                    OrderingMode::FastestFirst => {
                        let replies =
                            movegen::legal_moves(child.player, child.opponent) & self.mask;
                        self.fastest_first_value(child, replies, mv.square(), odd)
                    }
                }
            };
        }
    }

    /// The value of the move `mv` from `board` leaving `child` by a search
    /// of `depth` after it, each disc of its score worth `scale`, less the
    /// mobility it leaves, each square of potential mobility worth
    /// `potential`.
    #[inline]
    fn search_value(
        &mut self,
        board: Board,
        mv: Scored,
        child: Board,
        depth: u32,
        scale: i32,
        potential: i32,
    ) -> i32 {
        let entered = self.enter(board, mv, child, Child::Depth(depth));
        let score = self.ordering_search(child, depth);
        self.leave(entered);
        let moves = movegen::legal_moves(child.player, child.opponent) & self.mask;
        -score * scale - self.weighted_mobility(child, moves, potential)
    }

    /// The fastest-first value of the move to `square` leaving `child`, in
    /// which the opponent has the `replies`: few of them, and a region with
    /// an odd number of empties (`odd`) ahead.
    #[inline]
    pub(crate) fn fastest_first_value(
        &self,
        child: Board,
        replies: u64,
        square: Square,
        odd: u64,
    ) -> i32 {
        let parity = if odd & square.bit() != 0 {
            PARITY_BONUS
        } else {
            0
        };
        parity - self.mobility_value_of(child, replies)
    }

    /// How much freedom a position leaves its side to move: weighted legal
    /// moves (corners double) and potential mobility.
    #[inline]
    pub(crate) fn mobility_value(&self, board: Board) -> i32 {
        let moves = movegen::legal_moves(board.player, board.opponent) & self.mask;
        self.mobility_value_of(board, moves)
    }

    /// [`Search::mobility_value`] of `board`, whose side to move has `moves`.
    #[inline]
    pub(crate) fn mobility_value_of(&self, board: Board, moves: u64) -> i32 {
        self.weighted_mobility(board, moves, POTENTIAL_MOBILITY_WEIGHT)
    }

    /// [`Search::mobility_value_of`] with each square of potential mobility
    /// (an empty square next to the opponent's discs) worth `potential`.
    #[inline]
    fn weighted_mobility(&self, board: Board, moves: u64, potential: i32) -> i32 {
        let squares = neighbours(board.opponent) & board.empties() & self.mask;
        MOBILITY_WEIGHT * moves.count_ones() as i32
            + CORNER_MOBILITY_BONUS * (moves & self.corners).count_ones() as i32
            + potential * squares.count_ones() as i32
    }

    /// Quadrants holding an odd number of the `empties`.
    #[inline]
    pub(crate) fn odd_regions(&self, empties: u64) -> u64 {
        if self.size == BoardSize::Eight {
            return odd_quadrants_8x8(empties);
        }
        let mut odd = 0;
        for quadrant in self.quadrants {
            if (empties & quadrant).count_ones() & 1 == 1 {
                odd |= quadrant;
            }
        }
        odd
    }
}

/// The 8x8 quadrants holding an odd number of `empties`, without a branch:
/// the rows of each half fold into one row (bit i of rows 0 and 4: the
/// parity of column i in its half), then the columns of each half-row fold
/// into its first bit, and a product spreads each quadrant's parity bit
/// over its 4x4 squares. callgrind, the solver on FFO #40: 3.261 G ->
/// 3.237 G instructions against counting the empties of each quadrant.
#[inline]
fn odd_quadrants_8x8(empties: u64) -> u64 {
    let mut fold = empties ^ (empties >> 8);
    fold ^= fold >> 16;
    fold ^= fold >> 1;
    fold ^= fold >> 2;
    // Bits 0, 4, 32 and 36: the parities of a1-d4, e1-h4, a5-d8 and e5-h8.
    (fold & 0x0000_0011_0000_0011).wrapping_mul(0x0f0f_0f0f)
}

/// The square of a move index taken from a move list or the table.
#[inline]
pub(crate) fn square_of(index: u8) -> Square {
    Square::new(index).expect("move indices are squares")
}

/// `QUADRANT_OF[size as usize][square]`: the quadrant (parity region)
/// holding `square` on a board of `size`; 0 off the board. The solver's
/// parity ordering reads it, and [`quadrants`] takes the four regions from it.
pub(crate) static QUADRANT_OF: [[u64; 64]; 3] = [
    quadrants_of(BoardSize::Four),
    quadrants_of(BoardSize::Six),
    quadrants_of(BoardSize::Eight),
];

const fn quadrants_of(size: BoardSize) -> [u64; 64] {
    let n = size.n();
    let half = n / 2;
    let mut quadrant_of = [0u64; 64];
    let mut square = 0;
    while square < 64 {
        let (row, col) = (square / 8, square % 8);
        let mut other = 0;
        while row < n && col < n && other < 64 {
            let (r, c) = (other / 8, other % 8);
            if r < n && c < n && (r < half) == (row < half) && (c < half) == (col < half) {
                quadrant_of[square] |= 1 << other;
            }
            other += 1;
        }
        square += 1;
    }
    quadrant_of
}

/// The four quadrants of a board of `size`: the regions of its corners.
pub(crate) fn quadrants(size: BoardSize) -> [u64; 4] {
    let last = size.n() - 1;
    let table = &QUADRANT_OF[size as usize];
    [0, last, 8 * last, 8 * last + last].map(|corner| table[corner])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_best_hands_out_every_move_once_best_first() {
        let mut list: MoveList = MoveList::new();
        for (i, value) in [3, 9, -2, 9, 5].into_iter().enumerate() {
            list.push(Scored {
                index: i as u8,
                flips: 0,
                value,
                replies: 0,
            });
        }
        let mut seen = Vec::new();
        while let Some(mv) = list.next_best() {
            seen.push((mv.index, mv.value));
        }
        assert_eq!(seen.len(), 5);
        let values: Vec<i32> = seen.iter().map(|s| s.1).collect();
        assert_eq!(values, vec![9, 9, 5, 3, -2]);
        assert_eq!(list.taken(), 5);
    }

    #[test]
    fn deferred_moves_come_back_once_after_the_others() {
        let mut list: MoveList = MoveList::new();
        for (i, value) in [5, 4, 3, 2, 1].into_iter().enumerate() {
            list.push(Scored {
                index: i as u8,
                flips: 0,
                value,
                replies: 0,
            });
        }
        let mut order = Vec::new();
        while let Some(mv) = list.next_best() {
            // Defer the 2nd and 4th best the first time they come.
            if list.may_defer() && (mv.index == 1 || mv.index == 3) {
                list.defer();
                continue;
            }
            assert!(mv.index != 0 || !list.may_defer());
            order.push(mv.index);
        }
        assert_eq!(order, vec![0, 2, 4, 1, 3]);
    }

    #[test]
    fn a_list_holds_every_square() {
        let mut list: MoveList = MoveList::new();
        for i in 0..MAX_MOVES {
            list.push(Scored {
                index: i as u8,
                flips: 0,
                value: i as i32,
                replies: 0,
            });
        }
        assert_eq!(list.next_best().map(|m| m.index), Some(63));
        let mut count = 1;
        while list.next_best().is_some() {
            count += 1;
        }
        assert_eq!(count, MAX_MOVES);
    }

    #[test]
    fn odd_quadrants_8x8_counts_each_quadrant() {
        use rand::{Rng, SeedableRng};
        let quadrants = quadrants(BoardSize::Eight);
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        for _ in 0..20_000 {
            // Sparse and dense sets alike.
            let empties = rng.random::<u64>() & rng.random::<u64>() & rng.random::<u64>()
                | if rng.random() { rng.random::<u64>() } else { 0 };
            let want = quadrants
                .iter()
                .filter(|&&q| (empties & q).count_ones() % 2 == 1)
                .fold(0, |acc, q| acc | q);
            assert_eq!(odd_quadrants_8x8(empties), want, "{empties:#x}");
        }
    }

    #[test]
    fn endgame_quadrants_split_each_board_in_four_equal_regions() {
        for size in BoardSize::ALL {
            let table = &QUADRANT_OF[size as usize];
            let half = size.n() / 2;
            let mut regions: Vec<u64> = Vec::new();
            for (square, &region) in table.iter().enumerate() {
                let bit = 1u64 << square;
                if size.mask() & bit == 0 {
                    assert_eq!(region, 0, "{size:?} {square}");
                    continue;
                }
                assert!(region & bit != 0, "{size:?} {square}");
                assert_eq!(
                    region.count_ones() as usize,
                    half * half,
                    "{size:?} {square}"
                );
                // The top-left square of the region shares the square's halves.
                let corner = region.trailing_zeros() as usize;
                assert_eq!(corner / 8 < half, square / 8 < half);
                assert_eq!(corner % 8 < half, square % 8 < half);
                if !regions.contains(&region) {
                    regions.push(region);
                }
            }
            assert_eq!(regions.len(), 4, "{size:?}");
            // The search's four quadrants are those regions.
            let mut corners = quadrants(size).to_vec();
            corners.sort_unstable();
            regions.sort_unstable();
            assert_eq!(corners, regions, "{size:?}");
            assert_eq!(regions.iter().fold(0, |acc, r| acc | r), size.mask());
            assert_eq!(
                regions.iter().map(|r| r.count_ones()).sum::<u32>(),
                size.squares()
            );
        }
    }
}
