//! A learned pattern evaluation for 8x8, in the style of Logistello: the
//! score is a sum of weights looked up by the exact contents of small groups
//! of squares (edges, corners, lines, diagonals), plus a mobility term, with
//! one weight set per game phase (a band of empty-square counts).
//!
//! Each pattern is defined once, on the canonical orientation of the board
//! ([`PATTERNS`]), and looked up on all 8 symmetric images of the board, so
//! every edge, corner and diagonal is seen from every side. A pattern's
//! contents are read as base-3 digits (0 empty, 1 the side to move's disc,
//! 2 the opponent's), lowest square index first: `pext` extracts the
//! pattern's bits of each colour and [`TERNARY`] turns each into base 3.
//!
//! The weights are trained from tournament games by [`super::train`]
//! (`oxello train-eval`), stored in `pattern-weights.bin` beside this file
//! (format in [`PatternWeights::decode`]) and built into the binary.

use crate::bitboard::Symmetry;
use crate::board::Board;
use crate::movegen;
use std::sync::OnceLock;

/// The patterns, as masks on the canonical board (a1 = bit 0, h1 = bit 7).
pub const PATTERNS: [u64; 11] = [
    0x0000_0000_0000_42ff, // row 1 with b2 and g2 (edge + 2 X-squares)
    0x0000_0000_0007_0707, // 3x3 corner block
    0x0000_0000_0000_1f1f, // 2x5 corner block
    0x0000_0000_0000_ff00, // row 2
    0x0000_0000_00ff_0000, // row 3
    0x0000_0000_ff00_0000, // row 4
    0x8040_2010_0804_0201, // a1-h8 diagonal
    0x0080_4020_1008_0402, // 7-square diagonal
    0x0000_8040_2010_0804, // 6-square diagonal
    0x0000_0080_4020_1008, // 5-square diagonal
    0x0000_0000_8040_2010, // 4-square diagonal
];

/// Number of patterns.
pub const PATTERN_COUNT: usize = PATTERNS.len();

/// Weights of one pattern: 3 to the number of its squares.
pub const fn pattern_size(pattern: usize) -> usize {
    3usize.pow(PATTERNS[pattern].count_ones())
}

/// Where each pattern's weights start in a phase's weight vector, after the
/// [`SCALAR_COUNT`] scalar weights.
pub const PATTERN_OFFSETS: [usize; PATTERN_COUNT] = {
    let mut offsets = [0; PATTERN_COUNT];
    let mut next = SCALAR_COUNT;
    let mut p = 0;
    while p < PATTERN_COUNT {
        offsets[p] = next;
        next += pattern_size(p);
        p += 1;
    }
    offsets
};

/// Scalar weights at the start of each phase: bias, the side to move's
/// mobility, the opponent's mobility.
pub const SCALAR_COUNT: usize = 3;

/// Weights per phase.
pub const PHASE_WEIGHTS: usize =
    PATTERN_OFFSETS[PATTERN_COUNT - 1] + pattern_size(PATTERN_COUNT - 1);

/// Empty-square counts per phase: phase = empties / this.
pub const EMPTIES_PER_PHASE: usize = 4;

/// Number of phases (0..=60 empties).
pub const PHASES: usize = 60 / EMPTIES_PER_PHASE + 1;

/// Weights are stored in 1/`WEIGHT_SCALE` discs.
pub const WEIGHT_SCALE: i32 = 64;

/// Lookups per evaluation: every pattern on every symmetric image.
pub const LOOKUPS: usize = 8 * PATTERN_COUNT;

/// `TERNARY[b]`: the base-3 number with the binary digits of `b`.
pub const TERNARY: [u16; 1024] = {
    let mut table = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let (mut value, mut power, mut bits) = (0u16, 1u16, b);
        while bits != 0 {
            if bits & 1 == 1 {
                value += power;
            }
            power *= 3;
            bits >>= 1;
        }
        table[b] = value;
        b += 1;
    }
    table
};

/// Parallel bit extract: the bits of `x` under `mask`, packed low.
#[inline]
pub fn pext(x: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: BMI2 is enabled for this build (checked by the cfg above).
        unsafe { std::arch::x86_64::_pext_u64(x, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        pext_portable(x, mask)
    }
}

/// [`pext`] without BMI2, one mask bit at a time.
#[inline]
pub fn pext_portable(x: u64, mut mask: u64) -> u64 {
    let (mut result, mut out) = (0u64, 0u32);
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & low != 0 {
            result |= 1 << out;
        }
        out += 1;
        mask ^= low;
    }
    result
}

/// The phase of a position with `empties` empty squares.
#[inline]
pub fn phase(empties: u32) -> usize {
    (empties as usize / EMPTIES_PER_PHASE).min(PHASES - 1)
}

/// The weight indices (within a phase) that `board` looks up.
#[inline]
pub fn lookups(board: Board) -> [u32; LOOKUPS] {
    let mut out = [0u32; LOOKUPS];
    let mut k = 0;
    for symmetry in Symmetry::ALL {
        let player = symmetry.apply(board.player);
        let opponent = symmetry.apply(board.opponent);
        for (p, &mask) in PATTERNS.iter().enumerate() {
            let mine = TERNARY[pext(player, mask) as usize] as usize;
            let theirs = TERNARY[pext(opponent, mask) as usize] as usize;
            out[k] = (PATTERN_OFFSETS[p] + mine + 2 * theirs) as u32;
            k += 1;
        }
    }
    out
}

/// The mobility of the side to move and of the opponent.
#[inline]
pub fn mobilities(board: Board) -> (i32, i32) {
    (
        movegen::legal_moves(board.player, board.opponent).count_ones() as i32,
        movegen::legal_moves(board.opponent, board.player).count_ones() as i32,
    )
}

/// A full weight set: [`PHASES`] vectors of [`PHASE_WEIGHTS`] weights.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternWeights {
    weights: Vec<i16>,
}

/// Why a weight file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WeightsError {
    /// The file does not start with [`MAGIC`].
    BadMagic,
    /// The file ends early or has the wrong number of weights.
    WrongLength { found: usize, expected: usize },
}

impl std::fmt::Display for WeightsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WeightsError::BadMagic => write!(f, "not an oxello pattern weight file"),
            WeightsError::WrongLength { found, expected } => {
                write!(f, "weight file holds {found} weights, expected {expected}")
            }
        }
    }
}

impl std::error::Error for WeightsError {}

/// First bytes of a weight file (the version is part of it).
pub const MAGIC: &[u8; 8] = b"OXPW0001";

/// In a weight file, this value starts a run of zeros; the next value is
/// the run's length.
pub const ZERO_RUN: i16 = i16::MIN;

impl PatternWeights {
    /// All weights zero.
    pub fn zero() -> PatternWeights {
        PatternWeights {
            weights: vec![0; PHASES * PHASE_WEIGHTS],
        }
    }

    /// The weights of `phase`.
    #[inline]
    pub fn phase(&self, phase: usize) -> &[i16] {
        &self.weights[phase * PHASE_WEIGHTS..(phase + 1) * PHASE_WEIGHTS]
    }

    /// The weights of `phase`, to change.
    pub fn phase_mut(&mut self, phase: usize) -> &mut [i16] {
        &mut self.weights[phase * PHASE_WEIGHTS..(phase + 1) * PHASE_WEIGHTS]
    }

    /// The evaluation of `board` in 1/[`WEIGHT_SCALE`] discs, unclamped.
    #[inline]
    pub fn raw(&self, board: Board) -> i32 {
        self.raw_with_mobilities(board, mobilities(board))
    }

    /// [`PatternWeights::raw`] with the two mobilities already counted.
    #[inline]
    fn raw_with_mobilities(&self, board: Board, (mine, theirs): (i32, i32)) -> i32 {
        let empties = board.empties().count_ones();
        let w = self.phase(phase(empties));
        let mut sum = i32::from(w[0]) + i32::from(w[1]) * mine + i32::from(w[2]) * theirs;
        for index in lookups(board) {
            sum += i32::from(w[index as usize]);
        }
        sum
    }

    /// The evaluation of `board` in discs for the side to move, within
    /// -64..=64 (exact when the game is over).
    #[inline]
    pub fn evaluate(&self, board: Board) -> i32 {
        // The mobilities both feed the sum and tell whether the game is over:
        // count them once.
        let mobility = mobilities(board);
        if mobility == (0, 0) {
            return board.final_score_on(crate::bitboard::BoardSize::Eight);
        }
        let raw = self.raw_with_mobilities(board, mobility);
        let discs = (raw + raw.signum() * WEIGHT_SCALE / 2) / WEIGHT_SCALE;
        discs.clamp(-64, 64)
    }

    /// The file form: [`MAGIC`], then the weights as little-endian `i16`,
    /// phase by phase, with each run of zeros written as [`ZERO_RUN`] and
    /// the run length (trained tables are sparse: most patterns never occur).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        let mut i = 0;
        while i < self.weights.len() {
            if self.weights[i] == 0 {
                let mut run = 0;
                while i < self.weights.len() && self.weights[i] == 0 && run < i16::MAX {
                    run += 1;
                    i += 1;
                }
                out.extend_from_slice(&ZERO_RUN.to_le_bytes());
                out.extend_from_slice(&run.to_le_bytes());
            } else {
                out.extend_from_slice(&self.weights[i].max(-i16::MAX).to_le_bytes());
                i += 1;
            }
        }
        out
    }

    /// Reads the form [`PatternWeights::encode`] writes.
    pub fn decode(bytes: &[u8]) -> Result<PatternWeights, WeightsError> {
        let body = bytes.strip_prefix(MAGIC).ok_or(WeightsError::BadMagic)?;
        let expected = PHASES * PHASE_WEIGHTS;
        let mut weights = Vec::with_capacity(expected);
        let mut values = body
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
        while let Some(value) = values.next() {
            if value == ZERO_RUN {
                let run = values.next().ok_or(WeightsError::WrongLength {
                    found: weights.len(),
                    expected,
                })?;
                let run = usize::try_from(run).unwrap_or(0);
                weights.resize(weights.len() + run, 0);
            } else {
                weights.push(value);
            }
            if weights.len() > expected {
                break;
            }
        }
        if weights.len() != expected || !body.len().is_multiple_of(2) {
            return Err(WeightsError::WrongLength {
                found: weights.len(),
                expected,
            });
        }
        Ok(PatternWeights { weights })
    }
}

/// The trained weights built into the binary.
static BUILT_IN: &[u8] = include_bytes!("pattern-weights.bin");

/// The built-in weights, decoded once.
pub fn built_in() -> &'static PatternWeights {
    static WEIGHTS: OnceLock<PatternWeights> = OnceLock::new();
    WEIGHTS.get_or_init(|| {
        PatternWeights::decode(BUILT_IN).expect("the built-in pattern weights are well formed")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn pext_agrees_with_the_portable_one() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        for _ in 0..10_000 {
            let (x, mask) = (rng.random::<u64>(), rng.random::<u64>());
            assert_eq!(pext(x, mask), pext_portable(x, mask));
        }
        for mask in PATTERNS {
            assert_eq!(pext(u64::MAX, mask), (1 << mask.count_ones()) - 1);
        }
    }

    #[test]
    fn ternary_reads_binary_digits_in_base_3() {
        assert_eq!(TERNARY[0], 0);
        assert_eq!(TERNARY[0b1], 1);
        assert_eq!(TERNARY[0b10], 3);
        assert_eq!(TERNARY[0b101], 10);
        assert_eq!(TERNARY[1023] as usize, (3usize.pow(10) - 1) / 2);
    }

    #[test]
    fn lookups_stay_inside_their_pattern() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(12);
        for _ in 0..2_000 {
            let player = rng.random::<u64>();
            let opponent = rng.random::<u64>() & !player;
            let indices = lookups(Board::new(player, opponent));
            for (k, &index) in indices.iter().enumerate() {
                let p = k % PATTERN_COUNT;
                let index = index as usize;
                assert!(index >= PATTERN_OFFSETS[p]);
                assert!(index < PATTERN_OFFSETS[p] + pattern_size(p));
            }
        }
    }

    #[test]
    fn evaluation_is_the_same_from_all_8_symmetries() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(13);
        let mut weights = PatternWeights::zero();
        for phase in 0..PHASES {
            for w in weights.phase_mut(phase) {
                *w = rng.random_range(-500..500);
            }
        }
        for _ in 0..500 {
            let player = rng.random::<u64>();
            let opponent = rng.random::<u64>() & !player;
            let board = Board::new(player, opponent);
            let expected = weights.raw(board);
            for symmetry in Symmetry::ALL {
                let image = Board::new(symmetry.apply(player), symmetry.apply(opponent));
                assert_eq!(weights.raw(image), expected);
            }
        }
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

    #[test]
    fn encoding_round_trips_and_bad_files_are_refused() {
        let mut weights = PatternWeights::zero();
        let mut rng = rand::rngs::StdRng::seed_from_u64(14);
        for _ in 0..5_000 {
            let phase = rng.random_range(0..PHASES);
            let index = rng.random_range(0..PHASE_WEIGHTS);
            weights.phase_mut(phase)[index] = rng.random_range(-3000..3000);
        }
        let bytes = weights.encode();
        assert_eq!(PatternWeights::decode(&bytes), Ok(weights));
        assert_eq!(
            PatternWeights::decode(b"nonsense"),
            Err(WeightsError::BadMagic)
        );
        assert!(PatternWeights::decode(&bytes[..bytes.len() - 2]).is_err());
        assert!(PatternWeights::decode(&bytes[..bytes.len() - 1]).is_err());
        let mut longer = bytes.clone();
        longer.extend_from_slice(&5i16.to_le_bytes());
        assert!(PatternWeights::decode(&longer).is_err());
    }
}
