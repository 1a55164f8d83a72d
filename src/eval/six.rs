//! A learned pattern evaluation for 6x6, trained on self-play games whose
//! endgames were solved exactly (`oxello selfplay --size 6`, then
//! `oxello train-eval --size 6`).
//!
//! It is the 8x8 [`patterns`](super::patterns) evaluation cut to the small
//! board: a bias, the two sides' mobility and one weight per pattern
//! instance, by the instance's exact contents, one weight set per
//! [`EMPTIES_PER_PHASE`] empties. The shapes are the 8x8 ones that fit
//! (the edge with its X-squares, the 2nd and 3rd rows, the diagonals) and a
//! 2x3 corner block in place of the 3x3 and 2x5 blocks, whose tables the
//! few thousand games could not fill.
//!
//! Every distinct instance (a square set among the images of a shape under
//! the 8 symmetries of the 6x6 board) is read once. An instance reads its
//! squares in the order of the shape's image, so all instances of a shape
//! share one table; the mirror contents of a self-symmetric instance (a
//! row read from either end) share one weight (see [`super::patterns`]).
//! The evaluation is therefore exactly symmetric. A read is two `pext`
//! and two lookups in a 2^n table per instance that gives each occupied
//! square its power of 3 in the shape's order.

use super::patterns::{Shape, canonical_map, fold_mirrors, pext, shape, to_discs};
use super::weight_file::{self, WeightsError};
use crate::bitboard::{BoardSize, Symmetry};
use crate::board::Board;
use crate::movegen;
use crate::square::Square;
use std::sync::OnceLock;

const SIZE: BoardSize = BoardSize::Six;

/// The patterns, as squares of the 6x6 board in index order (a1 = 0,
/// f1 = 5, a2 = 8, ..., f6 = 45).
pub const SHAPES: [Shape; 8] = [
    shape("edge+2X", &[0, 1, 2, 3, 4, 5, 9, 12]),
    shape("corner 2x3", &[0, 1, 2, 8, 9, 10]),
    shape("row 2", &[8, 9, 10, 11, 12, 13]),
    shape("row 3", &[16, 17, 18, 19, 20, 21]),
    shape("diagonal 6", &[0, 9, 18, 27, 36, 45]),
    shape("diagonal 5", &[1, 10, 19, 28, 37]),
    shape("diagonal 4", &[2, 11, 20, 29]),
    shape("diagonal 3", &[3, 12, 21]),
];

/// Number of shapes.
pub const SHAPE_COUNT: usize = SHAPES.len();

/// Distinct instances of the shapes on the 6x6 board.
pub const INSTANCES: usize = 34;

/// Scalar weights at the start of each phase: bias, the side to move's
/// mobility, the opponent's mobility.
pub const SCALAR_COUNT: usize = 3;

/// Where each shape's table starts in a phase's weights.
pub const SHAPE_OFFSETS: [usize; SHAPE_COUNT] = {
    let mut offsets = [0; SHAPE_COUNT];
    let mut next = SCALAR_COUNT;
    let mut s = 0;
    while s < SHAPE_COUNT {
        offsets[s] = next;
        next += 3usize.pow(SHAPES[s].squares.len() as u32);
        s += 1;
    }
    offsets
};

/// Weights per phase.
pub const PHASE_WEIGHTS: usize =
    SHAPE_OFFSETS[SHAPE_COUNT - 1] + 3usize.pow(SHAPES[SHAPE_COUNT - 1].squares.len() as u32);

/// Empty squares per phase, as on 8x8.
pub const EMPTIES_PER_PHASE: usize = 2;

/// Phases: 0..=32 empties.
pub const PHASES: usize = (SIZE.squares() as usize - 4) / EMPTIES_PER_PHASE + 1;

/// The phase of a position with `empties` empty squares.
#[inline]
pub fn phase(empties: u32) -> usize {
    (empties as usize / EMPTIES_PER_PHASE).min(PHASES - 1)
}

/// Empty squares of a 6x6 board.
#[inline]
pub fn empties(board: Board) -> u32 {
    (board.empties() & SIZE.mask()).count_ones()
}

/// One instance: the squares a shape's image covers, and for each set of
/// them (as `pext` reads it, lowest square first) the sum of the powers of
/// 3 of their places in the shape's order.
struct Instance {
    shape: usize,
    mask: u64,
    /// `powers[pext(bits, mask)]`: the index of those squares holding a 1.
    powers: Vec<u16>,
}

/// Every instance, shape by shape.
fn instances() -> &'static [Instance] {
    static LIST: OnceLock<Vec<Instance>> = OnceLock::new();
    LIST.get_or_init(|| {
        let mut list: Vec<Instance> = Vec::new();
        for (shape, s) in SHAPES.iter().enumerate() {
            for symmetry in Symmetry::ALL {
                let image: Vec<u64> = s
                    .squares
                    .iter()
                    .map(|&q| symmetry.apply_square(square(q), SIZE).bit())
                    .collect();
                let mask = image.iter().fold(0, |a, b| a | b);
                if list.iter().any(|i| i.shape == shape && i.mask == mask) {
                    continue;
                }
                // The place of each of the mask's squares (lowest first) in
                // the shape's order.
                let places: Vec<u32> = crate::bitboard::squares(mask)
                    .map(|q| image.iter().position(|&b| b == q.bit()).expect("in") as u32)
                    .collect();
                let powers = (0..1usize << places.len())
                    .map(|bits| {
                        places
                            .iter()
                            .enumerate()
                            .filter(|&(j, _)| bits >> j & 1 == 1)
                            .map(|(_, &place)| 3u16.pow(place))
                            .sum()
                    })
                    .collect();
                list.push(Instance {
                    shape,
                    mask,
                    powers,
                });
            }
        }
        assert_eq!(list.len(), INSTANCES);
        list
    })
}

fn square(index: u8) -> Square {
    Square::new(index).expect("shape squares are squares")
}

/// For every shape, the canonical index of each index (mirror contents of
/// a self-symmetric instance fold together).
fn canonical_maps() -> &'static [Vec<u32>] {
    static MAPS: OnceLock<Vec<Vec<u32>>> = OnceLock::new();
    MAPS.get_or_init(|| {
        SHAPES
            .iter()
            .map(|shape| {
                canonical_map(shape.squares, |s, q| {
                    s.apply_square(square(q), SIZE).index() as u8
                })
            })
            .collect()
    })
}

/// Calls `read(shape, index)` for each instance: its shape and its index
/// in the shape's square order.
#[inline]
fn for_each_read(board: Board, mut read: impl FnMut(usize, usize)) {
    for instance in instances() {
        let mine = instance.powers[pext(board.player, instance.mask) as usize];
        let theirs = instance.powers[pext(board.opponent, instance.mask) as usize];
        read(instance.shape, usize::from(mine) + 2 * usize::from(theirs));
    }
}

/// The indices within a phase's weights that `board` looks up, one per
/// instance, canonical: what training fits.
pub fn lookups(board: Board, out: &mut Vec<u32>) {
    let maps = canonical_maps();
    for_each_read(board, |shape, index| {
        out.push((SHAPE_OFFSETS[shape] + maps[shape][index] as usize) as u32);
    });
}

/// The mobility of the side to move and of the opponent on the 6x6 board.
#[inline]
pub fn mobilities(board: Board) -> (i32, i32) {
    let mask = SIZE.mask();
    (
        (movegen::legal_moves(board.player, board.opponent) & mask).count_ones() as i32,
        (movegen::legal_moves(board.opponent, board.player) & mask).count_ones() as i32,
    )
}

/// First bytes of a 6x6 weight file.
pub const MAGIC: &[u8; 4] = b"OXP6";

/// Version of the 6x6 weight file format.
pub const VERSION: u16 = 1;

const FILE_LAYOUT: weight_file::Layout = weight_file::Layout {
    magic: MAGIC,
    version: VERSION,
    shapes: SHAPE_COUNT as u16,
    phases: PHASES as u16,
    phase_weights: PHASE_WEIGHTS as u32,
};

/// A full 6x6 weight set: [`PHASES`] vectors of [`PHASE_WEIGHTS`] weights
/// in 1/[`WEIGHT_SCALE`](super::patterns::WEIGHT_SCALE) discs, and the same with each index holding its
/// canonical index's weight (what the evaluation reads).
#[derive(Clone, Debug)]
pub struct SixWeights {
    shared: Vec<i16>,
    folded: Vec<i16>,
}

impl PartialEq for SixWeights {
    fn eq(&self, other: &Self) -> bool {
        self.shared == other.shared
    }
}

impl SixWeights {
    /// The weight set of these trained weights ([`PHASES`] times
    /// [`PHASE_WEIGHTS`]).
    pub fn from_shared(shared: Vec<i16>) -> SixWeights {
        assert_eq!(shared.len(), PHASES * PHASE_WEIGHTS);
        let folded = fold_mirrors(&shared, PHASE_WEIGHTS, &SHAPE_OFFSETS, canonical_maps());
        SixWeights { shared, folded }
    }

    /// The evaluation of a 6x6 `board` in discs for the side to move,
    /// within -36..=36 (exact when the game is over).
    #[inline]
    pub fn evaluate(&self, board: Board) -> i32 {
        let (mine, theirs) = mobilities(board);
        if (mine, theirs) == (0, 0) {
            return board.final_score_on(SIZE);
        }
        let start = phase(empties(board)) * PHASE_WEIGHTS;
        let w = &self.folded[start..start + PHASE_WEIGHTS];
        let mut raw = i32::from(w[0]) + i32::from(w[1]) * mine + i32::from(w[2]) * theirs;
        for_each_read(board, |shape, index| {
            raw += i32::from(w[SHAPE_OFFSETS[shape] + index]);
        });
        to_discs(raw, 36)
    }

    /// The file form ([`weight_file`], magic [`MAGIC`]).
    pub fn encode(&self) -> Vec<u8> {
        weight_file::encode(&FILE_LAYOUT, &self.shared)
    }

    /// Reads the form [`SixWeights::encode`] writes, refusing a file of
    /// another evaluation, version or layout, or whose checksum fails.
    pub fn decode(bytes: &[u8]) -> Result<SixWeights, WeightsError> {
        weight_file::decode(&FILE_LAYOUT, bytes).map(SixWeights::from_shared)
    }
}

/// The trained 6x6 weights built into the binary.
static BUILT_IN: &[u8] = include_bytes!("six-weights.bin");

/// The built-in 6x6 weights, decoded once.
pub fn built_in() -> &'static SixWeights {
    static WEIGHTS: OnceLock<SixWeights> = OnceLock::new();
    WEIGHTS.get_or_init(|| {
        SixWeights::decode(BUILT_IN).expect("the built-in 6x6 weights are well formed")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::test_support::random_game_boards;
    use rand::{Rng, SeedableRng};

    #[test]
    fn instances_cover_each_shape_on_every_symmetry() {
        let list = instances();
        assert_eq!(list.len(), INSTANCES);
        for (shape, s) in SHAPES.iter().enumerate() {
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
            let shape = SHAPES.iter().position(|s| s.name == name).unwrap();
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
            let w = &weights.shared[phase(empties(board)) * PHASE_WEIGHTS..];
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

    /// The positions of `positions/six-held-out.jsonl`: self-play records
    /// of games the training held out, each with the exact score of an
    /// endgame solve (`scripts/train-six.sh`'s level 18 run, games 0, 10,
    /// ..., 90).
    fn held_out() -> Vec<(Board, i32)> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/six-held-out.jsonl");
        let text = std::fs::read_to_string(path).unwrap();
        let records = crate::selfplay::jsonl::read_all(&text).unwrap();
        assert!(records.iter().all(|r| r.exact && r.game % 10 == 0));
        records
            .iter()
            .map(|r| (r.position.board, i32::from(r.score)))
            .collect()
    }

    /// The shipped weights predict exactly solved held-out positions far
    /// better than the hand-set evaluation they replace.
    #[test]
    fn shipped_weights_beat_the_hand_set_evaluation_on_solved_positions() {
        let positions = held_out();
        assert!(positions.len() >= 200);
        let rms = |f: &dyn Fn(Board) -> i32| {
            let sum: f64 = positions
                .iter()
                .map(|&(board, score)| f64::from(f(board) - score).powi(2))
                .sum();
            (sum / positions.len() as f64).sqrt()
        };
        let learned = rms(&|b| built_in().evaluate(b));
        let hand_set = rms(&|b| crate::eval::evaluate(b, SIZE));
        eprintln!(
            "RMS on {} positions: learned {learned:.2}, hand-set {hand_set:.2}",
            positions.len()
        );
        assert!(
            learned < 0.75 * hand_set,
            "learned {learned:.2}, hand-set {hand_set:.2}"
        );
    }

    #[test]
    fn encoding_round_trips_and_other_files_are_refused() {
        let weights = random_weights(3);
        let bytes = weights.encode();
        assert_eq!(SixWeights::decode(&bytes), Ok(weights));
        // The 8x8 file is another evaluation's.
        assert_eq!(
            SixWeights::decode(&crate::eval::patterns::built_in().encode()),
            Err(WeightsError::BadMagic { expected: *b"OXP6" })
        );
        let mut other_version = bytes.clone();
        other_version[4] = 9;
        assert!(matches!(
            SixWeights::decode(&other_version),
            Err(WeightsError::WrongVersion { found: 9, .. })
        ));
        let mut corrupt = bytes.clone();
        let last = corrupt.len() - 1;
        corrupt[last] ^= 0x10;
        assert!(matches!(
            SixWeights::decode(&corrupt),
            Err(WeightsError::BadChecksum { .. })
        ));
        assert!(SixWeights::decode(&bytes[..bytes.len() - 2]).is_err());
        assert!(SixWeights::decode(BUILT_IN).is_ok());
    }
}
