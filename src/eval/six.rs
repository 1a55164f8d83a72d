//! The 6x6 pattern set ([`Six`]), trained on self-play games whose
//! endgames were solved exactly (`oxello selfplay --size 6`, then
//! `oxello train-eval --size 6`); the evaluation is the generic one of
//! [`super::pattern_set`], as on 8x8.
//!
//! The shapes are the 8x8 ones that fit (the edge with its X-squares, the
//! 2nd and 3rd rows, the diagonals) and a 2x3 corner block in place of the
//! 3x3 and 2x5 blocks, whose tables the few thousand games could not fill.

use super::pattern_set::{Cache, LearnedWeights, LookupOrder, PatternSet, Shape, shape};
use crate::bitboard::BoardSize;
use crate::board::Board;

const SIZE: BoardSize = BoardSize::Six;

/// The 6x6 pattern set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Six;

impl PatternSet for Six {
    const SIZE: BoardSize = SIZE;
    /// Not measured on 6x6.
    const ODD_EMPTIES_BONUS: i32 = 0;
    /// Squares of the 6x6 board in index order (a1 = 0, f1 = 5, a2 = 8,
    /// ..., f6 = 45).
    const SHAPES: &'static [Shape] = &[
        shape("edge+2X", &[0, 1, 2, 3, 4, 5, 9, 12]),
        shape("corner 2x3", &[0, 1, 2, 8, 9, 10]),
        shape("row 2", &[8, 9, 10, 11, 12, 13]),
        shape("row 3", &[16, 17, 18, 19, 20, 21]),
        shape("diagonal 6", &[0, 9, 18, 27, 36, 45]),
        shape("diagonal 5", &[1, 10, 19, 28, 37]),
        shape("diagonal 4", &[2, 11, 20, 29]),
        shape("diagonal 3", &[3, 12, 21]),
    ];
    const INSTANCES: usize = 34;
    /// As on 8x8.
    const EMPTIES_PER_PHASE: usize = 2;
    const KIND: [u8; 4] = *b"PAT6";
    const VERSION: u16 = 1;
    /// The shipped weights were fitted shape by shape.
    const LOOKUP_ORDER: LookupOrder = LookupOrder::ByShape;
    const BUILT_IN: &'static [u8] = include_bytes!("../../fitted/pattern-weights-6.bin");

    fn cache() -> &'static Cache<Six> {
        static CACHE: Cache<Six> = Cache::new();
        &CACHE
    }
}

/// The 6x6 weights.
pub type SixWeights = LearnedWeights<Six>;

/// Distinct instances of the shapes on the 6x6 board.
pub const INSTANCES: usize = Six::INSTANCES;

/// Weights per phase.
pub const PHASE_WEIGHTS: usize = Six::PHASE_WEIGHTS;

/// Empty squares per phase.
pub const EMPTIES_PER_PHASE: usize = Six::EMPTIES_PER_PHASE;

/// Phases: 0..=32 empties.
pub const PHASES: usize = Six::PHASES;

/// The phase of a position with `empties` empty squares.
#[inline]
pub fn phase(empties: u32) -> usize {
    Six::phase(empties)
}

/// Empty squares of a 6x6 board.
#[inline]
pub fn empties(board: Board) -> u32 {
    Six::empties(board)
}

/// The mobility of the side to move and of the opponent on the 6x6 board.
#[inline]
pub fn mobilities(board: Board) -> (i32, i32) {
    Six::mobilities(board)
}

/// The indices within a phase's weights that `board` looks up, one per
/// instance, canonical: what training fits.
pub fn lookups(board: Board, out: &mut Vec<u32>) {
    SixWeights::lookups(board, out)
}

/// The built-in 6x6 weights, decoded once.
pub fn built_in() -> &'static SixWeights {
    SixWeights::built_in()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Symmetry;
    use crate::eval::pattern_set::{instances, to_discs};
    use crate::eval::test_support::random_game_boards;
    use crate::fitted::FittedError;
    use crate::square::Square;

    fn square(index: u8) -> Square {
        Square::new(index).expect("shape squares are squares")
    }
    use rand::{Rng, SeedableRng};

    #[test]
    fn instances_cover_each_shape_on_every_symmetry() {
        let list = instances::<Six>();
        assert_eq!(list.len(), INSTANCES);
        for (shape, s) in Six::SHAPES.iter().enumerate() {
            let masks: Vec<u64> = list
                .iter()
                .filter(|i| i.shape == shape)
                .map(|i| i.mask)
                .collect();
            for symmetry in Symmetry::ALL {
                let image = s.squares.iter().fold(0u64, |acc, &q| {
                    acc | symmetry.apply_square(square(q), SIZE).bit()
                });
                assert!(masks.contains(&image), "{} {symmetry:?}", s.name);
            }
            for &mask in &masks {
                assert_eq!(mask & !SIZE.mask(), 0, "{}", s.name);
                assert_eq!(mask.count_ones() as usize, s.squares.len());
            }
        }
        // Instance counts: the edge, a row, a short diagonal have 4 images;
        // the corner block 8; the long diagonal 2.
        let count = |name: &str| {
            let shape = Six::SHAPES.iter().position(|s| s.name == name).unwrap();
            list.iter().filter(|i| i.shape == shape).count()
        };
        assert_eq!(count("edge+2X"), 4);
        assert_eq!(count("corner 2x3"), 8);
        assert_eq!(count("diagonal 6"), 2);
        assert_eq!(count("diagonal 3"), 4);
    }

    fn random_weights(seed: u64) -> SixWeights {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        SixWeights::from_shared(
            (0..PHASES * PHASE_WEIGHTS)
                .map(|_| rng.random_range(-400..400))
                .collect(),
        )
    }

    #[test]
    fn evaluation_is_symmetric() {
        // Random weights: every table entry matters, not only trained ones.
        for weights in [random_weights(1), built_in().clone()] {
            for board in random_game_boards(SIZE, 60, 21) {
                let score = weights.evaluate(board);
                for symmetry in Symmetry::ALL {
                    let image = board.symmetric(symmetry, SIZE);
                    assert_eq!(weights.evaluate(image), score, "{symmetry:?}");
                }
            }
        }
    }

    #[test]
    fn lookups_read_the_evaluation() {
        let weights = random_weights(2);
        for board in random_game_boards(SIZE, 20, 22) {
            if mobilities(board) == (0, 0) {
                continue;
            }
            let mut indices = Vec::new();
            lookups(board, &mut indices);
            assert_eq!(indices.len(), INSTANCES);
            let w = weights.phase(phase(empties(board)));
            let (mine, theirs) = mobilities(board);
            let raw = i32::from(w[0])
                + i32::from(w[1]) * mine
                + i32::from(w[2]) * theirs
                + indices
                    .iter()
                    .map(|&i| i32::from(w[i as usize]))
                    .sum::<i32>();
            assert_eq!(weights.evaluate(board), to_discs(raw, 36));
        }
    }

    #[test]
    fn finished_games_score_exactly() {
        let mut finished = 0;
        for board in random_game_boards(SIZE, 50, 23) {
            if board.is_game_over_on(SIZE) {
                assert_eq!(built_in().evaluate(board), board.final_score_on(SIZE));
                finished += 1;
            }
        }
        assert!(finished >= 40, "{finished}");
    }

    #[test]
    fn encoding_round_trips_and_other_files_are_refused() {
        let weights = random_weights(3);
        let bytes = weights.encode();
        assert_eq!(SixWeights::decode(&bytes), Ok(weights));
        // The 8x8 file is another evaluation's.
        assert_eq!(
            SixWeights::decode(&crate::eval::patterns::built_in().encode()),
            Err(FittedError::WrongKind {
                found: *b"PAT8",
                expected: *b"PAT6"
            })
        );
        let mut other_version = bytes.clone();
        other_version[8] = 9;
        assert!(matches!(
            SixWeights::decode(&other_version),
            Err(FittedError::WrongVersion { found: 9, .. })
        ));
        let mut corrupt = bytes.clone();
        let last = corrupt.len() - 1;
        corrupt[last] ^= 0x10;
        assert!(matches!(
            SixWeights::decode(&corrupt),
            Err(FittedError::BadChecksum { .. })
        ));
        assert!(SixWeights::decode(&bytes[..bytes.len() - 2]).is_err());
        assert!(SixWeights::decode(Six::BUILT_IN).is_ok());
    }
}
