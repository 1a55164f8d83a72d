//! Static evaluation: a predicted final disc difference for the side to move.
//!
//! The evaluation is a weighted sum of a few classic features (mobility,
//! potential mobility, frontier, corners, X- and C-squares next to empty
//! corners, edges, stable discs, parity, discs; see the
//! [`features`](mod@features) module), with the weights depending on the
//! phase of the game, that is on the number of empty squares (see
//! [`weights`]): early, mobility and corners dominate; late, the disc count
//! takes over.
//!
//! Features are computed apart from the weights, so a learned weight set can
//! replace the hand-set one: build an [`Evaluator`] from any [`Weights`]. The
//! sum is computed in fixed point ([`weights::SCALE`] units per disc) and
//! rounded to whole discs at the end. The blend between phases is done once,
//! when the evaluator is built, for every board size and number of empties, so
//! an evaluation is the features plus a dot product: no floats, no allocation.
//!
//! When neither side can move the evaluation is exact: the final score as
//! [`Board::final_score_on`] counts it.
//!
//! On 8x8 the search uses the learned [`patterns`](mod@patterns) evaluation
//! instead: weights looked up by the contents of edges, corners, lines and
//! diagonals, trained on tournament games ([`crate::train::patterns`]). It predicts
//! the final score far better, and its first use, ordering the moves of the
//! endgame solver, cut the FFO #43-46 solves from 1.85 G to 0.78 G nodes. The
//! search adds a small [`network`](mod@network) over the same patterns at
//! its leaves ([`patterns::evaluate`]). On
//! 6x6 the search uses the [`six`](mod@six) evaluation, the same kind of
//! model trained on self-play games with solved endgames. The hand-set
//! evaluation stays for 4x4 and as a reference in tests.

pub mod error;
pub mod features;
pub mod incremental;
pub mod legacy;
pub mod network;
pub mod pattern_set;
pub mod patterns;
pub mod six;
pub mod stability;
pub mod weights;

pub use features::{Feature, Features, features};
pub use stability::{stable_discs, stable_discs_both};
pub use weights::Weights;

use crate::bitboard::BoardSize;
use crate::board::Board;
use features::FEATURE_COUNT;
use weights::{SCALE, div_round};

/// A score in discs: the predicted final disc difference for the side to
/// move, within the number of squares of the board (so [-64, 64] on 8x8).
pub type Score = i32;

/// Largest number of empty squares, plus one: rows of the blended tables.
const EMPTIES_ROWS: usize = 65;

/// An evaluation function: a weight set, blended ahead of time for every
/// board size and number of empties.
#[derive(Clone, Debug)]
pub struct Evaluator {
    weights: Weights,
    /// `blended[size][empties][feature]`, in 1/[`SCALE`] discs.
    blended: [[[i32; FEATURE_COUNT]; EMPTIES_ROWS]; 3],
}

/// The evaluator with the hand-set weights, built at compile time.
static HAND_SET: Evaluator = Evaluator::new(Weights::hand_set());

/// The evaluation of `board` on a board of `size` with the hand-set weights,
/// from the side to move's view.
#[inline]
pub fn evaluate(board: Board, size: BoardSize) -> Score {
    HAND_SET.evaluate(board, size)
}

/// The evaluator with the hand-set weights, shared (no copy of its tables).
pub fn hand_set_evaluator() -> &'static Evaluator {
    &HAND_SET
}

#[inline]
const fn size_index(size: BoardSize) -> usize {
    match size {
        BoardSize::Four => 0,
        BoardSize::Six => 1,
        BoardSize::Eight => 2,
    }
}

impl Evaluator {
    /// An evaluator using `weights`.
    pub const fn new(weights: Weights) -> Evaluator {
        let mut blended = [[[0; FEATURE_COUNT]; EMPTIES_ROWS]; 3];
        let mut s = 0;
        while s < BoardSize::ALL.len() {
            let size = BoardSize::ALL[s];
            let squares = size.squares();
            let mut empties = 0;
            while empties <= squares {
                blended[size_index(size)][empties as usize] = weights.blend(empties, squares);
                empties += 1;
            }
            s += 1;
        }
        Evaluator { weights, blended }
    }

    /// The weights this evaluator was built from.
    pub const fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The evaluation of `board` on a board of `size`, from the side to
    /// move's view: exact when the game is over.
    #[inline]
    pub fn evaluate(&self, board: Board, size: BoardSize) -> Score {
        let f = features(board, size);
        if f.game_over {
            return board.final_score_on(size);
        }
        self.score_features(&f, size)
    }

    /// The weighted sum of `features` (of a board of `size`), in discs,
    /// within one disc of the board's number of squares (only a game that
    /// is over scores a wipeout). Ignores `game_over`.
    #[inline]
    pub fn score_features(&self, features: &Features, size: BoardSize) -> Score {
        let weights = &self.blended[size_index(size)][features.empties as usize];
        let values = features.to_array();
        let mut sum = 0i32;
        for i in 0..FEATURE_COUNT {
            sum += values[i] * weights[i];
        }
        let bound = size.squares() as i32 - 1;
        (div_round(sum as i64, SCALE as i64) as i32).clamp(-bound, bound)
    }
}

impl Default for Evaluator {
    fn default() -> Self {
        HAND_SET.clone()
    }
}

/// Random positions for the tests of this module and of the players.
#[cfg(test)]
pub(crate) mod test_support {
    use crate::bitboard::{BoardSize, squares};
    use crate::board::Board;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The squares named in `names` ("a1 b2 ..."), as a bitboard.
    pub fn bits(names: &str) -> u64 {
        names
            .split_whitespace()
            .map(|n| n.parse::<crate::square::Square>().unwrap().bit())
            .fold(0, |a, b| a | b)
    }

    /// The board after a random number of uniformly random moves from the
    /// start (passes played when forced), at most to the end of the game.
    pub fn random_board(rng: &mut impl Rng, size: BoardSize) -> Board {
        let plies = rng.random_range(0..=size.squares());
        let mut board = Board::start(size);
        for _ in 0..plies {
            let moves = board.legal_moves_on(size);
            if moves == 0 {
                if board.pass().legal_moves_on(size) == 0 {
                    break;
                }
                board = board.pass();
                continue;
            }
            let pick = rng.random_range(0..moves.count_ones() as usize);
            let square = squares(moves).nth(pick).expect("pick < count");
            board = board.play_flips(square, board.flips(square));
        }
        board
    }

    /// Every position met in `games` random games of `size` (passes
    /// included), from a seeded generator.
    pub fn random_game_boards(size: BoardSize, games: usize, seed: u64) -> Vec<Board> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut boards = Vec::new();
        for _ in 0..games {
            let mut board = Board::start(size);
            loop {
                boards.push(board);
                let moves = board.move_list_on(size);
                if moves.is_empty() {
                    break;
                }
                board = board.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
        }
        boards
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::{bits, random_game_boards};
    use super::*;
    use crate::bitboard::Symmetry;

    #[test]
    fn start_position_is_even() {
        for size in BoardSize::ALL {
            assert_eq!(evaluate(Board::start(size), size), 0, "{size:?}");
        }
    }

    #[test]
    fn symmetric_positions_evaluate_identically() {
        for size in BoardSize::ALL {
            for board in random_game_boards(size, 30, 10) {
                let score = evaluate(board, size);
                for sym in Symmetry::ALL {
                    assert_eq!(evaluate(board.symmetric(sym, size), size), score, "{sym:?}");
                }
            }
        }
    }

    #[test]
    fn scores_stay_in_range() {
        for size in BoardSize::ALL {
            let bound = size.squares() as i32;
            for board in random_game_boards(size, 100, 11) {
                let score = evaluate(board, size);
                assert!((-bound..=bound).contains(&score), "{score} {board:?}");
                assert!((-64..=64).contains(&score));
            }
        }
        // Lopsided boards built by hand, game not over.
        let board = Board::new(!bits("a1 d4 b2"), bits("b2"));
        let score = evaluate(board, BoardSize::Eight);
        assert!((-64..=64).contains(&score));
    }

    #[test]
    fn winning_position_scores_high() {
        // All four corners and the whole border (stable), against a few centre
        // discs: a crushing position, early in the game.
        let border = features::edge_squares(BoardSize::Eight) | bits("a1 h1 a8 h8");
        let board = Board::new(border | bits("c3"), bits("d4 e4 d5 e5 c4"));
        let f = features(board, BoardSize::Eight);
        assert_eq!(f.corners, 4);
        assert_eq!(f.stable, 28);
        assert!(!f.game_over);
        let score = evaluate(board, BoardSize::Eight);
        assert!(score >= 40, "{score}");
        assert!(evaluate(board.pass(), BoardSize::Eight) <= -40);
    }

    #[test]
    fn small_boards_evaluate() {
        // A 6x6 position where the side to move holds two corners and the
        // opponent sits on the X-squares next to the others.
        let board = Board::new(bits("a1 f6 c3 d4"), bits("e2 b5 c4 d3"));
        assert!(evaluate(board, BoardSize::Six) > 0);
        assert!(evaluate(board.pass(), BoardSize::Six) < 0);
        // 4x4: corners against edges.
        let board = Board::new(bits("a1 d4 b2"), bits("b1 c3 c4"));
        assert!(evaluate(board, BoardSize::Four) > 0);
        for size in [BoardSize::Four, BoardSize::Six] {
            for board in random_game_boards(size, 50, 12) {
                let score = evaluate(board, size);
                assert!(score.abs() <= size.squares() as i32);
            }
        }
    }

    #[test]
    fn finished_games_score_their_final_result() {
        for size in BoardSize::ALL {
            for board in random_game_boards(size, 200, 13) {
                if !board.is_game_over_on(size) {
                    continue;
                }
                let exact = board.final_score_on(size);
                let score = evaluate(board, size);
                assert_eq!(score, exact);
                assert_eq!(score.signum(), exact.signum());
            }
            // A full board, built directly: the disc difference.
            let me = 0x0123_4567_89ab_cdef & size.mask();
            let board = Board::new(me, !me & size.mask());
            let expected = 2 * me.count_ones() as i32 - size.squares() as i32;
            assert_eq!(evaluate(board, size), expected, "{size:?}");
        }
    }

    #[test]
    fn custom_weights_replace_the_hand_set() {
        // Weights counting discs only: the score is the disc difference.
        let mut weights = Weights::hand_set();
        weights.curves = [[0; weights::PHASE_COUNT]; FEATURE_COUNT];
        weights.curves[Feature::Discs.index()] = [SCALE; weights::PHASE_COUNT];
        let evaluator = Evaluator::new(weights);
        assert_eq!(evaluator.weights(), &weights);
        for board in random_game_boards(BoardSize::Eight, 5, 14) {
            let f = features(board, BoardSize::Eight);
            let expected = if f.game_over {
                board.final_score_on(BoardSize::Eight)
            } else {
                f.discs
            };
            assert_eq!(evaluator.evaluate(board, BoardSize::Eight), expected);
        }
        assert_eq!(
            Evaluator::default().evaluate(Board::start(BoardSize::Six), BoardSize::Six),
            0
        );
    }
}
