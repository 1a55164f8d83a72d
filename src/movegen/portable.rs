//! The portable move generator: plain `u64` arithmetic, compiled on every
//! target. It is the reference the faster backends are tested against.
//!
//! Legal moves: for each of the 4 axes, a parallel-prefix fill grows runs of
//! opponent discs away from the player's discs in both directions at once
//! (runs are at most 6 long, so 1 + 1 + 2 + 2 steps cover them); a move is an
//! empty square just past such a run.
//!
//! Flips: for each of the 8 rays leaving the square, the first square that is
//! not an opponent disc is found with one bit-scan (lowest set bit for rays
//! towards higher indices, highest for the others); if it holds a player disc,
//! the ray's squares before it are flipped.

/// Opponent discs that may lie inside a run along a horizontal or diagonal
/// axis: columns a and h can only end a run, never be inside one, and masking
/// them stops shifts from wrapping between rows.
const INNER_COLUMNS: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// Legal move squares for `player` against `opponent` on the 8x8 board.
#[inline]
pub fn legal_moves(player: u64, opponent: u64) -> u64 {
    let inner = opponent & INNER_COLUMNS;
    let moves = axis_moves(player, inner, 1)
        | axis_moves(player, opponent, 8)
        | axis_moves(player, inner, 7)
        | axis_moves(player, inner, 9);
    moves & !(player | opponent)
}

/// Squares just past a run of `runs` discs adjacent to `player` along the axis
/// with bit distance `shift`, in both directions.
#[inline(always)]
fn axis_moves(player: u64, runs: u64, shift: u32) -> u64 {
    let mut up = runs & (player << shift);
    let mut down = runs & (player >> shift);
    up |= runs & (up << shift);
    down |= runs & (down >> shift);
    let pairs_up = runs & (runs << shift);
    let pairs_down = pairs_up >> shift;
    let double = 2 * shift;
    up |= pairs_up & (up << double);
    down |= pairs_down & (down >> double);
    up |= pairs_up & (up << double);
    down |= pairs_down & (down >> double);
    (up << shift) | (down >> shift)
}

/// Rays leaving each square: the first four towards higher bit indices
/// (+1 east, +7 south-west, +8 south, +9 south-east), the last four towards
/// lower ones (-1 west, -7 north-east, -8 north, -9 north-west).
pub(crate) static RAYS: [[u64; 8]; 64] = build_rays();

const RAY_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
];

const fn build_rays() -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut square = 0;
    while square < 64 {
        let mut dir = 0;
        while dir < 8 {
            let (dc, dr) = RAY_STEPS[dir];
            let mut col = (square % 8) as i32 + dc;
            let mut row = (square / 8) as i32 + dr;
            let mut ray = 0u64;
            while col >= 0 && col < 8 && row >= 0 && row < 8 {
                ray |= 1u64 << (row * 8 + col);
                col += dc;
                row += dr;
            }
            rays[square][dir] = ray;
            dir += 1;
        }
        square += 1;
    }
    rays
}

/// All ones when `condition` holds, else zero.
#[inline(always)]
fn mask_if(condition: bool) -> u64 {
    0u64.wrapping_sub(condition as u64)
}

/// Flips along a ray whose squares have increasing bit indices.
#[inline(always)]
fn ray_flips_up(player: u64, opponent: u64, ray: u64) -> u64 {
    let stops = ray & !opponent;
    let first = stops & stops.wrapping_neg();
    ray & first.wrapping_sub(1) & mask_if(first & player != 0)
}

/// Flips along a ray whose squares have decreasing bit indices.
#[inline(always)]
fn ray_flips_down(player: u64, opponent: u64, ray: u64) -> u64 {
    let stops = ray & !opponent;
    // Highest set bit of `stops`, or 0 when there is none.
    let first = (1u64 << (63 ^ (stops | 1).leading_zeros())) & stops;
    let at_or_below_first = (first << 1).wrapping_sub(1);
    ray & !at_or_below_first & mask_if(first & player != 0)
}

/// Discs flipped when `player` plays on square `index` (0..64). The square
/// must be empty; the result is 0 when the move is illegal.
#[inline]
pub fn flips(player: u64, opponent: u64, index: usize) -> u64 {
    let rays = &RAYS[index];
    ray_flips_up(player, opponent, rays[0])
        | ray_flips_up(player, opponent, rays[1])
        | ray_flips_up(player, opponent, rays[2])
        | ray_flips_up(player, opponent, rays[3])
        | ray_flips_down(player, opponent, rays[4])
        | ray_flips_down(player, opponent, rays[5])
        | ray_flips_down(player, opponent, rays[6])
        | ray_flips_down(player, opponent, rays[7])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rays_have_the_right_lengths() {
        // From a1: 7 squares east, south and south-east; nothing else.
        let a1 = RAYS[0];
        assert_eq!(a1.map(u64::count_ones), [7, 0, 7, 7, 0, 0, 0, 0]);
        // From d4 (index 27): 4 east, 3 west, 4 south, 3 north ...
        let d4 = RAYS[27];
        assert_eq!(d4.map(u64::count_ones), [4, 3, 4, 4, 3, 3, 3, 3]);
    }
}
