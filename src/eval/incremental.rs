//! The pattern indices of a position, kept up to date move by move.
//!
//! [`super::pattern_set`] reads each of the 46 pattern instances of a board
//! with `pext` on 8 transformed images of it. A search, though, meets its
//! positions one move apart, and a move changes few squares: the square
//! played and its flips, each inside about 6 instances. [`PatternState`]
//! holds the 46 base-3 indices of a position and derives its children's
//! from them with a few vector additions per changed square (one row of
//! [`SQUARE_POWERS`] each), so a leaf evaluation is only the 46 weight
//! lookups and the mobilities.
//!
//! A board is side-to-move relative, and the index digits are too (1: the
//! side to move's disc, 2: the opponent's), so a move would swap every
//! digit. The state therefore keeps both readings: `mine` (1 = the side to
//! move) and `theirs` (1 = the opponent), and a move exchanges them.

use super::network::Network;
use super::pattern_set::{PatternSet, shape_mask, shape_size, to_discs};
use super::patterns::{Eight, INSTANCES, PHASE_WEIGHTS, PatternWeights};
use crate::bitboard::{Symmetry, squares};
use crate::board::Board;

/// The image and the shape of each instance, in the order the `pext`
/// reading of [`super::patterns`] reads them.
const READ_ORDER: &[(usize, usize)] = Eight::READS.order.split_at(INSTANCES).0;

/// Index lanes: the instances, padded to a multiple of 16 so that the
/// additions fill whole vector registers (the padding lanes stay 0).
pub const LANES: usize = 48;

/// One base-3 index per instance, in the order the `pext` reading of
/// [`super::patterns`] reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Indices(pub [u16; LANES]);

/// `SQUARE_POWERS[q]`: for each instance, the weight of square `q`'s digit
/// in its index (3 to the square's rank in the instance's reading order),
/// or 0 when the instance does not hold `q`.
pub static SQUARE_POWERS: [Indices; 64] = {
    let mut table = [Indices([0; LANES]); 64];
    let mut k = 0;
    while k < INSTANCES {
        let (image, shape) = READ_ORDER[k];
        let mask = shape_mask(&Eight::SHAPES[shape]);
        let mut q = 0;
        while q < 64 {
            // Square q of the board is square `to` of the image read.
            let to = Symmetry::ALL[image].apply(1u64 << q);
            if to & mask != 0 {
                let rank = (mask & (to - 1)).count_ones();
                table[q].0[k] = 3u16.pow(rank);
            }
            q += 1;
        }
        k += 1;
    }
    table
};

/// `INSTANCE_OFFSETS[k]`: where instance `k`'s shared table starts in a
/// phase's weights.
pub static INSTANCE_OFFSETS: [u32; INSTANCES] = {
    let mut offsets = [0u32; INSTANCES];
    let mut k = 0;
    while k < INSTANCES {
        let shape = READ_ORDER[k].1;
        let offset = Eight::SHAPE_OFFSETS[shape];
        assert!(offset + shape_size(Eight::SHAPES, shape) <= PHASE_WEIGHTS);
        offsets[k] = offset as u32;
        k += 1;
    }
    offsets
};

/// A position with its pattern indices read both ways.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatternState {
    /// The position the indices describe.
    pub board: Board,
    /// Digits 1 for the side to move's discs, 2 for the opponent's.
    pub mine: Indices,
    /// Digits 1 for the opponent's discs, 2 for the side to move's.
    pub theirs: Indices,
}

impl PatternState {
    /// The indices of `board`, read square by square.
    pub fn new(board: Board) -> PatternState {
        let mut mine = [0u16; LANES];
        let mut theirs = [0u16; LANES];
        for square in squares(board.player) {
            let powers = &SQUARE_POWERS[square.index()].0;
            for lane in 0..LANES {
                mine[lane] += powers[lane];
                theirs[lane] += 2 * powers[lane];
            }
        }
        for square in squares(board.opponent) {
            let powers = &SQUARE_POWERS[square.index()].0;
            for lane in 0..LANES {
                mine[lane] += 2 * powers[lane];
                theirs[lane] += powers[lane];
            }
        }
        PatternState {
            board,
            mine: Indices(mine),
            theirs: Indices(theirs),
        }
    }

    /// The state after the side to move plays on `square`, flipping
    /// `flips`; `next` is the board after the move.
    ///
    /// The mover's new disc adds 1 of its power to the mover's reading (the
    /// opponent's reading of the child) and 2 to the other; each flipped
    /// disc turns from 2 to 1 in the mover's reading and from 1 to 2 in the
    /// other. The exchange of the two readings is the change of side.
    #[inline]
    pub fn play(&self, square: usize, flips: u64, next: Board) -> PatternState {
        let mut flipped = [0u16; LANES];
        let mut rest = flips;
        while rest != 0 {
            let powers = &SQUARE_POWERS[rest.trailing_zeros() as usize].0;
            for lane in 0..LANES {
                flipped[lane] = flipped[lane].wrapping_add(powers[lane]);
            }
            rest &= rest - 1;
        }
        let placed = &SQUARE_POWERS[square].0;
        let mut mine = [0u16; LANES];
        let mut theirs = [0u16; LANES];
        for lane in 0..LANES {
            mine[lane] = self.theirs.0[lane]
                .wrapping_add(placed[lane].wrapping_mul(2))
                .wrapping_add(flipped[lane]);
            theirs[lane] = self.mine.0[lane]
                .wrapping_add(placed[lane])
                .wrapping_sub(flipped[lane]);
        }
        PatternState {
            board: next,
            mine: Indices(mine),
            theirs: Indices(theirs),
        }
    }

    /// The state after a pass: the same discs, read from the other side.
    #[inline]
    pub fn pass(&self) -> PatternState {
        PatternState {
            board: self.board.pass(),
            mine: self.theirs,
            theirs: self.mine,
        }
    }
}

impl PatternWeights {
    /// [`PatternWeights::evaluate`] of `state.board`, from the indices the
    /// state already holds: the same value, without reading the board's
    /// patterns.
    #[inline]
    pub fn evaluate_state(&self, state: &PatternState) -> i32 {
        self.evaluate_state_with(state, None)
    }

    /// [`PatternWeights::evaluate_state`] plus, if given, the network's
    /// part ([`Network`]), which reads the same rows.
    #[inline]
    pub fn evaluate_state_with(&self, state: &PatternState, network: Option<&Network>) -> i32 {
        let board = state.board;
        let mobility = Eight::mobilities(board);
        if mobility == (0, 0) {
            return board.final_score_on(Eight::SIZE);
        }
        let mut rows = [0u32; INSTANCES];
        for (row, (&offset, &index)) in rows
            .iter_mut()
            .zip(INSTANCE_OFFSETS.iter().zip(&state.mine.0))
        {
            *row = offset + u32::from(index);
        }
        let linear = self.raw_with(board, mobility, |w| {
            rows.iter().map(|&row| i32::from(w[row as usize])).sum()
        });
        let network = network.map_or(0, |network| {
            network.raw(&rows, board.empties().count_ones(), mobility.0, mobility.1)
        });
        to_discs(linear + network, Eight::SIZE.squares() as i32)
    }
}

/// The states of the positions on the search's current path, one per move
/// played from the root, so that a node's children derive theirs from it.
///
/// A state is used only for the board it was made for: [`StateStack::child`]
/// reads the indices afresh when the top of the stack is another position
/// (the root, a pass, a position reached outside the move loops), so a
/// missing push costs time, never a wrong evaluation.
#[derive(Clone, Debug, Default)]
pub struct StateStack {
    states: Vec<PatternState>,
}

impl StateStack {
    /// An empty stack, with room for a whole game's path.
    pub fn new() -> StateStack {
        StateStack {
            states: Vec::with_capacity(2 * 64),
        }
    }

    /// The top state, if it is `board`'s.
    #[inline]
    pub fn top(&self, board: Board) -> Option<&PatternState> {
        self.states.last().filter(|top| top.board == board)
    }

    /// The state of `next`, reached from `parent` by a move to `square`
    /// flipping `flips`.
    #[inline]
    pub fn child(&self, parent: Board, square: usize, flips: u64, next: Board) -> PatternState {
        match self.states.last() {
            Some(top) if top.board == parent => top.play(square, flips, next),
            Some(top) if top.board == parent.pass() => top.pass().play(square, flips, next),
            _ => PatternState::new(next),
        }
    }

    /// Enters `next`, a child of `parent`.
    #[inline]
    pub fn push(&mut self, parent: Board, square: usize, flips: u64, next: Board) {
        let state = self.child(parent, square, flips, next);
        self.states.push(state);
    }

    /// Leaves the position last entered.
    #[inline]
    pub fn pop(&mut self) {
        self.states.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::BoardSize;
    use crate::eval::patterns::{built_in, shared_lookups};
    use crate::eval::test_support::random_game_boards;
    use crate::movegen;

    #[test]
    fn fresh_indices_are_the_pext_reading() {
        let maps = crate::eval::pattern_set::canonical_maps::<Eight>();
        for board in random_game_boards(BoardSize::Eight, 40, 21) {
            let state = PatternState::new(board);
            // `shared_lookups` gives offset + canonical index, per instance.
            let lookups = shared_lookups(board);
            for k in 0..INSTANCES {
                let shape = READ_ORDER[k].1;
                let canonical = maps[shape][state.mine.0[k] as usize];
                assert_eq!(INSTANCE_OFFSETS[k] + canonical, lookups[k], "{board:?} {k}");
            }
            assert_eq!(PatternState::new(board.pass()).mine, state.theirs);
            assert!(state.mine.0[INSTANCES..].iter().all(|&i| i == 0));
        }
    }

    #[test]
    fn played_indices_equal_fresh_ones_along_random_games() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(22);
        for _ in 0..100 {
            let mut state = PatternState::new(Board::start(BoardSize::Eight));
            loop {
                let board = state.board;
                let moves = board.legal_moves();
                if moves == 0 {
                    if board.pass().legal_moves() == 0 {
                        break;
                    }
                    state = state.pass();
                    assert_eq!(state, PatternState::new(board.pass()));
                    continue;
                }
                let all: Vec<_> = squares(moves).collect();
                let square = all[rng.random_range(0..all.len())];
                let flips = movegen::flips(board.player, board.opponent, square.index());
                let next = board.play_flips(square, flips);
                state = state.play(square.index(), flips, next);
                assert_eq!(state, PatternState::new(next));
                assert_eq!(
                    built_in().evaluate_state(&state),
                    built_in().evaluate(next),
                    "{next:?}"
                );
                assert_eq!(
                    built_in().evaluate_state_with(&state, Some(crate::eval::network::built_in())),
                    crate::eval::patterns::evaluate(next),
                    "{next:?}"
                );
            }
        }
    }

    #[test]
    fn the_stack_reads_afresh_what_it_was_not_given() {
        let start = Board::start(BoardSize::Eight);
        let mut stack = StateStack::new();
        assert_eq!(stack.top(start), None);
        let square = crate::square::Square::new(37).expect("f5");
        let flips = movegen::flips(start.player, start.opponent, 37);
        let next = start.play_flips(square, flips);
        // No parent on the stack: read afresh.
        stack.push(start, 37, flips, next);
        assert_eq!(stack.top(next), Some(&PatternState::new(next)));
        // The top is only for its own board, not its pass.
        assert_eq!(stack.top(next.pass()), None);
        // A child of the top's pass is made from the top.
        let reply = next.pass().legal_moves().trailing_zeros() as usize;
        let reply_flips = movegen::flips(next.opponent, next.player, reply);
        let after = next.pass().play_flips(
            crate::square::Square::new(reply as u8).expect("a square"),
            reply_flips,
        );
        assert_eq!(
            stack.child(next.pass(), reply, reply_flips, after),
            PatternState::new(after)
        );
        // A wrong parent is not trusted.
        let other = stack.child(start.pass(), 37, flips, next);
        assert_eq!(other, PatternState::new(next));
        stack.pop();
        assert_eq!(stack.top(next), None);
    }
}
