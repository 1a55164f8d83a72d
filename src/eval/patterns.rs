//! The 8x8 pattern set ([`Eight`]): the shapes Edax publishes, 46
//! instances, one weight set per [`EMPTIES_PER_PHASE`] empty squares; the
//! evaluation itself is the generic one of [`super::pattern_set`].
//!
//! A search does not read the patterns of its leaves from the board: it
//! keeps the 46 indices of the positions on its path up to date move by
//! move ([`super::incremental`]) and evaluates a leaf from the indices it
//! already holds.
//!
//! The weights are trained from game records by [`crate::train::patterns`]
//! (`oxello train-eval`), stored in `fitted/pattern-weights-8.bin` (format
//! in [`crate::fitted`]) and built into the binary.

use super::pattern_set::{Cache, LearnedWeights, LookupOrder, PatternSet, shape};
pub use super::pattern_set::{Shape, WEIGHT_SCALE};
use crate::bitboard::BoardSize;
use crate::board::Board;
pub use crate::fitted::FittedError;

/// The 8x8 pattern set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Eight;

impl PatternSet for Eight {
    const SIZE: BoardSize = BoardSize::Eight;
    /// 2.0 discs. It corrects the shipped weights, which the trainer fitted
    /// per phase of two empties; a trainer that fits each parity learns it
    /// instead. The network's training target leaves it out, but the network
    /// learns some of the parity from the patterns, so the term is smaller
    /// than the linear weights alone need. With the network at every leaf,
    /// 2.0 discs keep the mean signed error of hard-25 within 0.4 discs at
    /// every depth from 9 to 20 (73%, `oxello bench --accuracy FILE --depths
    /// A-B`), where 2.2 left depths 10 and 16 at +0.44 and +0.53.
    const ODD_EMPTIES_BONUS: i32 = 256;
    const SHAPES: &'static [Shape] = &[
        shape("edge+2X", &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14]),
        shape("corner 3x3", &[0, 1, 2, 8, 9, 10, 16, 17, 18]),
        shape("corner 2x5", &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12]),
        shape("row 2", &[8, 9, 10, 11, 12, 13, 14, 15]),
        shape("row 3", &[16, 17, 18, 19, 20, 21, 22, 23]),
        shape("row 4", &[24, 25, 26, 27, 28, 29, 30, 31]),
        shape("diagonal 8", &[0, 9, 18, 27, 36, 45, 54, 63]),
        shape("diagonal 7", &[1, 10, 19, 28, 37, 46, 55]),
        shape("diagonal 6", &[2, 11, 20, 29, 38, 47]),
        shape("diagonal 5", &[3, 12, 21, 30, 39]),
        shape("diagonal 4", &[4, 13, 22, 31]),
    ];
    const INSTANCES: usize = 46;
    /// Two empties per phase: with 4 (the first learned evaluation's 16
    /// phases) the held-out error was higher at every phase (see the
    /// docs/training.md).
    const EMPTIES_PER_PHASE: usize = 2;
    const KIND: [u8; 4] = *b"PAT8";
    /// Version 1 was the first learned evaluation's 11 patterns read on 8
    /// board images ([`super::legacy`]).
    const VERSION: u16 = 2;
    const LOOKUP_ORDER: LookupOrder = LookupOrder::ByImage;
    const BUILT_IN: &'static [u8] = include_bytes!("../../fitted/pattern-weights-8.bin");

    fn cache() -> &'static Cache<Eight> {
        static CACHE: Cache<Eight> = Cache::new();
        &CACHE
    }
}

/// The 8x8 weights.
pub type PatternWeights = LearnedWeights<Eight>;

/// Number of instances.
pub const INSTANCES: usize = Eight::INSTANCES;

/// Trained (shared) weights per phase.
pub const PHASE_WEIGHTS: usize = Eight::PHASE_WEIGHTS;

/// Empty-square counts per phase.
pub const EMPTIES_PER_PHASE: usize = Eight::EMPTIES_PER_PHASE;

/// Number of phases (0..=60 empties).
pub const PHASES: usize = Eight::PHASES;

/// The phase of a position with `empties` empty squares.
#[inline]
pub fn phase(empties: u32) -> usize {
    Eight::phase(empties)
}

/// The mobility of the side to move and of the opponent.
#[inline]
pub fn mobilities(board: Board) -> (i32, i32) {
    Eight::mobilities(board)
}

/// The shared-table indices (within a phase) that `board` looks up, one per
/// instance: what training fits.
pub fn shared_lookups(board: Board) -> [u32; INSTANCES] {
    let all = PatternWeights::shared_lookups(board);
    std::array::from_fn(|k| all[k])
}

/// The 8x8 evaluation the search uses, in discs for the side to move: the
/// built-in linear weights plus the built-in network
/// ([`super::network`]), exact when the game is over.
pub fn evaluate(board: Board) -> i32 {
    built_in().evaluate_state_with(
        &super::incremental::PatternState::new(board),
        Some(super::network::built_in()),
    )
}

/// The built-in 8x8 weights, decoded once.
pub fn built_in() -> &'static PatternWeights {
    PatternWeights::built_in()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Symmetry;
    use crate::eval::pattern_set::{Instance, instances, shape_size};
    use rand::{Rng, SeedableRng};

    /// The instances are exactly the distinct images of each shape under the
    /// 8 symmetries, each covering the shape's squares mapped, and the
    /// symmetries permute the instances of a shape among themselves.
    #[test]
    fn instances_cover_exactly_the_images_of_each_shape() {
        let list = instances::<Eight>();
        let expected_counts = [4, 4, 8, 4, 4, 4, 2, 4, 4, 4, 4];
        for (s, shape) in Eight::SHAPES.iter().enumerate() {
            let mine: Vec<&Instance> = list.iter().filter(|i| i.shape == s).collect();
            assert_eq!(mine.len(), expected_counts[s], "{}", shape.name);
            let base = shape.squares.iter().fold(0u64, |m, &q| m | 1 << q);
            assert_eq!(base.count_ones() as usize, shape.squares.len());
            for symmetry in Symmetry::ALL {
                let image = symmetry.apply(base);
                assert!(mine.iter().any(|i| i.mask == image), "{}", shape.name);
                // Every instance maps onto an instance of the same shape.
                for instance in &mine {
                    let moved = symmetry.apply(instance.mask);
                    assert!(mine.iter().any(|i| i.mask == moved));
                }
            }
            for instance in &mine {
                assert_eq!(instance.mask.count_ones() as usize, shape.squares.len());
                // Its symmetry brings it onto the shape's own squares.
                assert_eq!(instance.symmetry.apply(instance.mask), base);
            }
        }
        // The old evaluation's 88 reads came down to these 46 square sets.
        assert_eq!(list.len(), 46);
        // Examples: the a1 corner 3x3, the a1-h8 diagonal once.
        assert!(list.iter().any(|i| i.mask == 0x07_0707));
        let diagonal = 0x8040_2010_0804_0201u64;
        assert_eq!(list.iter().filter(|i| i.mask == diagonal).count(), 1);
    }

    #[test]
    fn shared_lookups_stay_inside_their_shape() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(12);
        for _ in 0..2_000 {
            let player = rng.random::<u64>();
            let opponent = rng.random::<u64>() & !player;
            let indices = shared_lookups(Board::new(player, opponent));
            for (k, &index) in indices.iter().enumerate() {
                let s = instances::<Eight>()[k].shape;
                let index = index as usize;
                assert!(index >= Eight::SHAPE_OFFSETS[s]);
                assert!(index < Eight::SHAPE_OFFSETS[s] + shape_size(Eight::SHAPES, s));
            }
        }
    }

    fn random_weights(seed: u64) -> PatternWeights {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let shared = (0..PHASES * PHASE_WEIGHTS)
            .map(|_| rng.random_range(-500..500))
            .collect();
        PatternWeights::from_shared(shared)
    }

    #[test]
    fn evaluation_is_the_same_from_all_8_symmetries() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(13);
        let weights = random_weights(13);
        for _ in 0..500 {
            let player = rng.random::<u64>();
            let opponent = rng.random::<u64>() & !player;
            let board = Board::new(player, opponent);
            let expected = weights.raw(board);
            // The expanded tables give what the shared lookups give.
            let w = weights.phase(phase(board.empties().count_ones()));
            let (mine, theirs) = mobilities(board);
            let shared: i32 = shared_lookups(board)
                .iter()
                .map(|&i| i32::from(w[i as usize]))
                .sum::<i32>()
                + i32::from(w[0])
                + i32::from(w[1]) * mine
                + i32::from(w[2]) * theirs
                + (board.empties().count_ones() & 1) as i32 * Eight::ODD_EMPTIES_BONUS;
            assert_eq!(shared, expected);
            for symmetry in Symmetry::ALL {
                let image = Board::new(symmetry.apply(player), symmetry.apply(opponent));
                assert_eq!(weights.raw(image), expected);
            }
        }
    }

    /// The shipped linear weights, and with them the shipped network.
    #[test]
    fn shipped_evaluation_is_symmetric() {
        let weights = built_in();
        let boards =
            crate::eval::test_support::random_game_boards(crate::bitboard::BoardSize::Eight, 40, 3);
        let mut network_changes = 0;
        for board in boards {
            let expected = weights.evaluate(board);
            let with_network = evaluate(board);
            network_changes += usize::from(with_network != expected);
            for symmetry in Symmetry::ALL {
                let image =
                    Board::new(symmetry.apply(board.player), symmetry.apply(board.opponent));
                assert_eq!(weights.evaluate(image), expected);
                assert_eq!(evaluate(image), with_network);
            }
        }
        assert!(network_changes > 100, "{network_changes}");
    }

    #[test]
    fn built_in_weights_predict_our_solved_positions_better_than_the_hand_set_ones() {
        let weights = built_in();
        let start = Board::start(crate::bitboard::BoardSize::Eight);
        assert!(
            weights.evaluate(start).abs() <= 4,
            "{}",
            weights.evaluate(start)
        );
        // Positions from tournament games, solved exactly by our solver.
        let suite = include_str!("../../positions/endgame-suite.obf");
        let entries = crate::formats::obf::parse_file(suite).expect("our suite parses");
        let (mut pattern_error, mut hand_error, mut right_sign) = (0, 0, 0);
        for entry in &entries {
            let exact = (entry.move_scores.iter().map(|&(_, score)| score).max())
                .or(entry.best_score)
                .expect("the suite has scores");
            let board = entry.position.board;
            let pattern = weights.evaluate(board);
            let hand = crate::eval::evaluate(board, crate::bitboard::BoardSize::Eight);
            pattern_error += (pattern - exact).abs();
            hand_error += (hand - exact).abs();
            right_sign += i32::from(pattern.signum() == exact.signum() || exact == 0);
        }
        assert!(
            pattern_error < hand_error,
            "{pattern_error} vs {hand_error}"
        );
        assert!(right_sign * 10 >= entries.len() as i32 * 7, "{right_sign}");
    }

    /// Mean absolute error of `evaluate` against the exact scores of
    /// solved positions (the best move's score).
    fn error_on_solved(suite: &str, evaluate: &dyn Fn(Board) -> i32) -> f64 {
        let entries = crate::formats::obf::parse_file(suite).expect("our suites parse");
        let total: i32 = entries
            .iter()
            .map(|entry| {
                let exact = (entry.move_scores.iter().map(|&(_, score)| score).max())
                    .or(entry.best_score)
                    .expect("the suite has scores");
                (evaluate(entry.position.board) - exact).abs()
            })
            .sum();
        f64::from(total) / entries.len() as f64
    }

    /// The shipped weights predict exactly solved positions (8 to 24
    /// empties, from tournament games, every move solved by our solver)
    /// better than the weights they replaced.
    #[test]
    fn shipped_weights_beat_the_previous_ones_on_solved_positions() {
        let previous = crate::eval::legacy::previous();
        let suites = [
            include_str!("../../positions/endgame-suite.obf"),
            include_str!("../../positions/accuracy-24.obf"),
            include_str!("../../positions/accuracy-24-seed2.obf"),
        ];
        let (mut new, mut old) = (0.0, 0.0);
        for suite in suites {
            new += error_on_solved(suite, &|b| built_in().evaluate(b));
            old += error_on_solved(suite, &|b| previous.evaluate(b));
        }
        println!("mean absolute error: shipped {new:.2}, previous {old:.2} (sum of suites)");
        assert!(new < old, "{new} vs {old}");
    }

    /// Mean absolute error on every exactly solved position we have: our
    /// suites and, when `../shared` is there, FFO #1-59; of the shipped
    /// weights and, given `OXELLO_WEIGHTS=file`, of a candidate weight file
    /// of the same layout (`train-eval --out file`). Run by hand: `cargo
    /// test --release --lib error_on_exact_positions -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn error_on_exact_positions() {
        let candidate = std::env::var("OXELLO_WEIGHTS").ok().map(|path| {
            PatternWeights::decode(&std::fs::read(path).expect("readable")).expect("valid")
        });
        let mut suites = vec![
            include_str!("../../positions/endgame-suite.obf").to_string(),
            include_str!("../../positions/accuracy-24.obf").to_string(),
            include_str!("../../positions/accuracy-24-seed2.obf").to_string(),
        ];
        for name in ["fforum-1-19", "fforum-20-39", "fforum-40-59"] {
            if let Ok(text) = std::fs::read_to_string(format!("../shared/endgame/{name}.obf")) {
                suites.push(text);
            }
        }
        for suite in &suites {
            let shipped = error_on_solved(suite, &|b| built_in().evaluate(b));
            let other = candidate
                .as_ref()
                .map(|w| error_on_solved(suite, &|b| w.evaluate(b)));
            println!(
                "{} positions: shipped {shipped:.2}, candidate {other:.2?}",
                suite.lines().count()
            );
        }
    }

    #[test]
    fn encoding_round_trips_and_bad_files_are_refused() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(14);
        let mut shared = vec![0i16; PHASES * PHASE_WEIGHTS];
        for _ in 0..5_000 {
            let index = rng.random_range(0..shared.len());
            shared[index] = rng.random_range(-3000..3000);
        }
        let weights = PatternWeights::from_shared(shared);
        let bytes = weights.encode();
        assert_eq!(PatternWeights::decode(&bytes), Ok(weights));
        // The built-in file holds the canonical weights only: it reads back
        // to the same bytes.
        assert_eq!(built_in().encode(), Eight::BUILT_IN);
        assert_eq!(
            PatternWeights::decode(b"nonsense"),
            Err(FittedError::BadMagic)
        );
        // The first learned evaluation's file.
        assert!(matches!(
            PatternWeights::decode(crate::eval::legacy::FILE),
            Err(FittedError::WrongKind { .. })
        ));
        let mut other_version = bytes.clone();
        other_version[8] = 3;
        assert!(matches!(
            PatternWeights::decode(&other_version),
            Err(FittedError::WrongVersion { found: 3, .. })
        ));
        // Other layouts and flipped bits: the container's tests (crate::fitted).
        let mut corrupt = bytes.clone();
        corrupt[bytes.len() / 2] ^= 0x10;
        assert!(matches!(
            PatternWeights::decode(&corrupt),
            Err(FittedError::BadChecksum { .. })
        ));
        assert!(PatternWeights::decode(&bytes[..bytes.len() - 2]).is_err());
        assert!(PatternWeights::decode(&bytes[..bytes.len() - 1]).is_err());
        assert!(PatternWeights::decode(&bytes[..10]).is_err());
        // The built-in file decodes (and is the current version).
        assert!(PatternWeights::decode(Eight::BUILT_IN).is_ok());
    }
}
