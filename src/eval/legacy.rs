//! The first learned evaluation (weight format version 1), kept as the
//! yardstick the current one must beat: 11 patterns read on the 8 images of
//! the board (88 lookups), 16 phases of 4 empties. `oxello train-eval`
//! prints its held-out error beside the new model's, and a test checks that
//! the shipped weights predict solved positions better.

use super::patterns::{TERNARY, pext};
use crate::bitboard::Symmetry;
use crate::board::Board;
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
    /// Decodes a version 1 file (`OXPW0001`, then zero-run coded `i16`).
    pub fn decode(bytes: &[u8]) -> Option<LegacyWeights> {
        let body = bytes.strip_prefix(b"OXPW0001")?;
        let mut offsets = [0; 11];
        let mut next = 3;
        for (p, &mask) in PATTERNS.iter().enumerate() {
            offsets[p] = next;
            next += 3usize.pow(mask.count_ones());
        }
        let mut weights = Vec::new();
        let mut values = body
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
        while let Some(value) = values.next() {
            if value == i16::MIN {
                let run = usize::try_from(values.next()?).ok()?;
                weights.resize(weights.len() + run, 0);
            } else {
                weights.push(value);
            }
        }
        (weights.len() == PHASES * next).then_some(LegacyWeights {
            weights,
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

/// The version 1 weights that shipped before the current ones.
pub fn previous() -> &'static LegacyWeights {
    static WEIGHTS: OnceLock<LegacyWeights> = OnceLock::new();
    WEIGHTS.get_or_init(|| {
        LegacyWeights::decode(include_bytes!("pattern-weights-v1.bin"))
            .expect("the version 1 weights are well formed")
    })
}
