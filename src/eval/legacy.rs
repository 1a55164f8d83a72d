//! The first learned evaluation (weight format version 1), kept as the
//! yardstick the current one must beat: 11 patterns read on the 8 images of
//! the board (88 lookups), 16 phases of 4 empties. `oxello train-eval`
//! prints its held-out error beside the new model's, and a test checks that
//! the shipped weights predict solved positions better.

use super::pattern_set::TERNARY;
use crate::bitboard::{Symmetry, pext};
use crate::board::Board;
use crate::fitted::{self, FittedError};
use std::sync::OnceLock;

/// The version 1 patterns, on the canonical board.
const PATTERNS: [u64; 11] = [
    0x0000_0000_0000_42ff,
    0x0000_0000_0007_0707,
    0x0000_0000_0000_1f1f,
    0x0000_0000_0000_ff00,
    0x0000_0000_00ff_0000,
    0x0000_0000_ff00_0000,
    0x8040_2010_0804_0201,
    0x0080_4020_1008_0402,
    0x0000_8040_2010_0804,
    0x0000_0080_4020_1008,
    0x0000_0000_8040_2010,
];

const PHASES: usize = 16;
const WEIGHT_SCALE: i32 = 64;

/// The version 1 weights, decoded.
pub struct LegacyWeights {
    weights: Vec<i16>,
    offsets: [usize; 11],
    phase_len: usize,
}

impl LegacyWeights {
    /// Decodes the version 1 weights (`fitted/pattern-weights-v1.bin`, kind
    /// `PAT1`: 11 shapes, 16 phases, zero-run coded `i16`).
    pub fn decode(bytes: &[u8]) -> Result<LegacyWeights, FittedError> {
        let mut offsets = [0; 11];
        let mut next = 3;
        for (p, &mask) in PATTERNS.iter().enumerate() {
            offsets[p] = next;
            next += 3usize.pow(mask.count_ones());
        }
        let layout = fitted::Layout {
            kind: *b"PAT1",
            version: 1,
            fields: [PATTERNS.len() as u32, PHASES as u32, next as u32],
        };
        let body = fitted::decode(&layout, bytes)?;
        Ok(LegacyWeights {
            weights: fitted::read_i16_runs(body, PHASES * next)?,
            offsets,
            phase_len: next,
        })
    }

    /// The evaluation of `board` in discs for the side to move, as the
    /// version 1 engine computed it.
    pub fn evaluate(&self, board: Board) -> i32 {
        let (mine, theirs) = super::patterns::mobilities(board);
        if (mine, theirs) == (0, 0) {
            return board.final_score_on(crate::bitboard::BoardSize::Eight);
        }
        let phase = (board.empties().count_ones() as usize / 4).min(PHASES - 1);
        let w = &self.weights[phase * self.phase_len..(phase + 1) * self.phase_len];
        let mut sum = i32::from(w[0]) + i32::from(w[1]) * mine + i32::from(w[2]) * theirs;
        for symmetry in Symmetry::ALL {
            let player = symmetry.apply(board.player);
            let opponent = symmetry.apply(board.opponent);
            for (p, &mask) in PATTERNS.iter().enumerate() {
                let index = TERNARY[pext(player, mask) as usize] as usize
                    + 2 * TERNARY[pext(opponent, mask) as usize] as usize;
                sum += i32::from(w[self.offsets[p] + index]);
            }
        }
        let discs = (sum + sum.signum() * WEIGHT_SCALE / 2) / WEIGHT_SCALE;
        discs.clamp(-64, 64)
    }
}

/// The version 1 weights' file.
pub(crate) const FILE: &[u8] = include_bytes!("../../fitted/pattern-weights-v1.bin");

/// The version 1 weights that shipped before the current ones.
pub fn previous() -> &'static LegacyWeights {
    static WEIGHTS: OnceLock<LegacyWeights> = OnceLock::new();
    WEIGHTS
        .get_or_init(|| LegacyWeights::decode(FILE).expect("the version 1 weights are well formed"))
}
