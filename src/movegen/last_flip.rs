//! Counting the flips of the last move of an 8x8 game.
//!
//! When a single square is empty and every other square is occupied, the
//! discs that are not `player`'s are the opponent's, so each line through the
//! empty square is known from the player's discs on it alone. The 4 lines
//! (row, column, two diagonals) are each gathered into an 8-bit index, and a
//! table indexed by (position of the square on the line, line contents) gives
//! the flips along that line; the sum over the 4 lines is the answer. No flip
//! mask is built.
//!
//! A gathered line always has 8 slots: squares of a short diagonal that are
//! off the board read as the opponent's discs, which is harmless, since a run
//! of opponent discs that reaches the edge flips nothing.
//!
//! [`count_portable`] gathers columns and diagonals with a multiplication and
//! is always compiled; `count_bmi2` gathers them with `pext` when the build
//! targets BMI2. Both are tested against the flip generator.

/// `FLIP_COUNTS[pos][line]`: the discs flipped along an 8-square line by
/// playing on slot `pos`, where bit `i` of `line` is set when slot `i` holds
/// the player's disc and clear when it holds the opponent's (bit `pos` is
/// ignored).
static FLIP_COUNTS: [[u8; 256]; 8] = build_flip_counts();

const fn line_flips(pos: usize, line: usize) -> u8 {
    let mut flips = 0;
    // Towards higher slots: opponent discs up to the first player disc.
    let mut i = pos + 1;
    while i < 8 && line & (1 << i) == 0 {
        i += 1;
    }
    if i < 8 {
        flips += i - pos - 1;
    }
    // Towards lower slots.
    let mut i = pos;
    while i > 0 && line & (1 << (i - 1)) == 0 {
        i -= 1;
    }
    if i > 0 {
        flips += pos - i;
    }
    flips as u8
}

const fn build_flip_counts() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut line = 0;
        while line < 256 {
            table[pos][line] = line_flips(pos, line);
            line += 1;
        }
        pos += 1;
    }
    table
}

/// The 4 lines through one square (row, column, diagonal, anti-diagonal):
/// their masks, and for each the row of [`FLIP_COUNTS`] for the square's
/// slot on the line as `pext` packs it (rank of the square among the line's
/// squares, lowest bit first). One cache line per square.
#[derive(Clone, Copy)]
#[repr(align(64))]
struct Lines {
    masks: [u64; 4],
    counts: [&'static [u8; 256]; 4],
}

static LINES: [Lines; 64] = build_lines();

const fn build_lines() -> [Lines; 64] {
    let mut lines = [Lines {
        masks: [0; 4],
        counts: [&FLIP_COUNTS[0]; 4],
    }; 64];
    let mut square = 0;
    while square < 64 {
        let (row, col) = ((square / 8) as i32, (square % 8) as i32);
        let mut masks = [0u64; 4];
        let mut other = 0usize;
        while other < 64 {
            let (r, c) = ((other / 8) as i32, (other % 8) as i32);
            let on_line = [r == row, c == col, r - c == row - col, r + c == row + col];
            let mut line = 0;
            while line < 4 {
                if on_line[line] {
                    masks[line] |= 1 << other;
                }
                line += 1;
            }
            other += 1;
        }
        let below = (1u64 << square) - 1;
        let mut counts = [&FLIP_COUNTS[0]; 4];
        let mut line = 0;
        while line < 4 {
            counts[line] = &FLIP_COUNTS[(masks[line] & below).count_ones() as usize];
            line += 1;
        }
        lines[square] = Lines { masks, counts };
        square += 1;
    }
    lines
}

const COLUMN_A: u64 = 0x0101_0101_0101_0101;

/// Discs flipped by `player` playing on square `index` (0..64) of an 8x8
/// board whose other 63 squares are all occupied (the opponent's discs are
/// `!player` without `index`). Portable: a shift gathers the row, and
/// multiplications the column and the diagonals.
#[inline]
pub fn count_portable(player: u64, index: usize) -> u32 {
    let col = index & 7;
    let lines = &LINES[index & 63];
    let row_line = (player >> (index & 56)) as u8;
    // Column: bit 8 * r of the shifted column lands on bit 56 + r.
    let column_line =
        (((player >> col) & COLUMN_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8;
    // Diagonals: each square of a diagonal has its own column, and the
    // multiplication adds the 8 rows into the top byte, the square of column
    // c on bit c. The square's slot is then its column, not its rank as for
    // `pext` (the row and the column gather as `pext` would).
    let diagonal = ((player & lines.masks[2]).wrapping_mul(COLUMN_A) >> 56) as u8;
    let anti_diagonal = ((player & lines.masks[3]).wrapping_mul(COLUMN_A) >> 56) as u8;
    let by_column = &FLIP_COUNTS[col];
    lines.counts[0][row_line as usize] as u32
        + lines.counts[1][column_line as usize] as u32
        + by_column[diagonal as usize] as u32
        + by_column[anti_diagonal as usize] as u32
}

/// [`count_portable`] with BMI2's `pext` gathering the lines.
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline]
pub fn count_bmi2(player: u64, index: usize) -> u32 {
    use std::arch::x86_64::_pext_u64;
    let lines = &LINES[index & 63];
    let mut count = 0;
    for line in 0..4 {
        // SAFETY: BMI2 is enabled for this build (the cfg above); pext
        // touches no memory. A line has at most 8 squares, so the packed
        // bits fit in a byte.
        let packed = unsafe { _pext_u64(player, lines.masks[line]) } as u8;
        count += lines.counts[line][packed as usize] as u32;
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Random player discs of varied density, so long runs of either colour occur.
    fn random_discs(rng: &mut impl Rng) -> u64 {
        match rng.random_range(0..5) {
            0 => rng.random(),
            1 => rng.random::<u64>() & rng.random::<u64>(),
            2 => rng.random::<u64>() | rng.random::<u64>(),
            3 => rng.random::<u64>() & rng.random::<u64>() & rng.random::<u64>(),
            _ => rng.random::<u64>() | rng.random::<u64>() | rng.random::<u64>(),
        }
    }

    #[test]
    fn movegen_last_flip_counts_match_the_flip_generator() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(64);
        let mut checked = 0;
        for _ in 0..20_000 {
            let discs = random_discs(&mut rng);
            for index in 0..64 {
                let bit = 1u64 << index;
                for player in [discs & !bit, !discs & !bit] {
                    let opponent = !player & !bit;
                    let want = crate::movegen::flips(player, opponent, index).count_ones();
                    assert_eq!(
                        count_portable(player, index),
                        want,
                        "portable count at {index}, player {player:#018x}"
                    );
                    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
                    assert_eq!(
                        count_bmi2(player, index),
                        want,
                        "bmi2 count at {index}, player {player:#018x}"
                    );
                    assert_eq!(crate::movegen::count_last_flips(player, index), want);
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 20_000 * 64 * 2);
    }

    #[test]
    fn movegen_last_flip_table_examples() {
        // Slot 0, opponent on 1..=5, player on 6: 5 flips.
        assert_eq!(line_flips(0, 0b0100_0000), 5);
        // Opponent up to the edge on both sides: nothing.
        assert_eq!(line_flips(3, 0), 0);
        // Player on both neighbours: nothing; player two away on both sides: 2.
        assert_eq!(line_flips(3, 0b0001_0100), 0);
        assert_eq!(line_flips(3, 0b0010_0010), 2);
    }
}
