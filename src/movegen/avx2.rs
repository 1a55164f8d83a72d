//! AVX2 move generator: the portable algorithms of [`super::portable`] run on
//! four directions at once in 256-bit lanes.
//!
//! Compiled only when the build targets AVX2 (`cfg(target_feature = "avx2")`),
//! so every intrinsic used here is available on the CPU that runs the code.
//! Tested against the portable generator on random positions.

use super::portable::RAYS;
use std::arch::x86_64::*;

const INNER_COLUMNS: i64 = 0x7e7e_7e7e_7e7e_7e7e;

/// ORs the four 64-bit lanes of `v` together.
#[inline(always)]
fn or_lanes(v: __m256i) -> u64 {
    // SAFETY: AVX2 (hence SSE4.1/SSE2) is enabled for this build; see the module header.
    unsafe {
        let halves = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        (_mm_cvtsi128_si64(halves) | _mm_extract_epi64::<1>(halves)) as u64
    }
}

/// The highest set bit of each lane, and every bit at or below it (both 0
/// for an empty lane). AVX-512 CD counts leading zeros per lane where the
/// build has it; plain AVX2 smears the highest bit downwards instead.
#[inline(always)]
fn highest_bits(x: __m256i) -> (__m256i, __m256i) {
    #[cfg(all(target_feature = "avx512cd", target_feature = "avx512vl"))]
    {
        highest_bits_lzcnt(x)
    }
    #[cfg(not(all(target_feature = "avx512cd", target_feature = "avx512vl")))]
    {
        highest_bits_smear(x)
    }
}

/// [`highest_bits`] with AVX-512 CD's per-lane leading-zero count.
#[cfg(all(target_feature = "avx512cd", target_feature = "avx512vl"))]
#[inline(always)]
fn highest_bits_lzcnt(x: __m256i) -> (__m256i, __m256i) {
    // SAFETY: AVX-512 CD and VL are enabled for this build (the cfg above).
    // Variable shifts by 64 or more give 0, which handles empty lanes.
    unsafe {
        let zeros = _mm256_lzcnt_epi64(x);
        let first = _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), zeros);
        let at_or_below = _mm256_srlv_epi64(_mm256_set1_epi64x(-1), zeros);
        (first, at_or_below)
    }
}

/// [`highest_bits`] with AVX2 only: or-ing shifted copies smears the highest
/// bit over every bit below it. Always compiled so it is tested everywhere.
#[cfg_attr(
    all(target_feature = "avx512cd", target_feature = "avx512vl"),
    allow(dead_code)
)]
#[inline(always)]
fn highest_bits_smear(x: __m256i) -> (__m256i, __m256i) {
    // SAFETY: AVX2 is enabled for this build; the intrinsics touch no memory.
    unsafe {
        let mut smear = _mm256_or_si256(x, _mm256_srli_epi64::<1>(x));
        smear = _mm256_or_si256(smear, _mm256_srli_epi64::<2>(smear));
        smear = _mm256_or_si256(smear, _mm256_srli_epi64::<4>(smear));
        smear = _mm256_or_si256(smear, _mm256_srli_epi64::<8>(smear));
        smear = _mm256_or_si256(smear, _mm256_srli_epi64::<16>(smear));
        smear = _mm256_or_si256(smear, _mm256_srli_epi64::<32>(smear));
        (
            _mm256_andnot_si256(_mm256_srli_epi64::<1>(smear), smear),
            smear,
        )
    }
}

/// Legal move squares: the four axes (1, 8, 7, 9) fill in parallel lanes.
#[inline]
pub fn legal_moves(player: u64, opponent: u64) -> u64 {
    // SAFETY: AVX2 is enabled for this build; the intrinsics touch no memory.
    let moves = unsafe {
        let shift = _mm256_set_epi64x(9, 7, 8, 1);
        let double = _mm256_set_epi64x(18, 14, 16, 2);
        let p = _mm256_set1_epi64x(player as i64);
        let masks = _mm256_set_epi64x(INNER_COLUMNS, INNER_COLUMNS, -1, INNER_COLUMNS);
        let runs = _mm256_and_si256(_mm256_set1_epi64x(opponent as i64), masks);

        let mut up = _mm256_and_si256(runs, _mm256_sllv_epi64(p, shift));
        let mut down = _mm256_and_si256(runs, _mm256_srlv_epi64(p, shift));
        up = _mm256_or_si256(up, _mm256_and_si256(runs, _mm256_sllv_epi64(up, shift)));
        down = _mm256_or_si256(down, _mm256_and_si256(runs, _mm256_srlv_epi64(down, shift)));
        let pairs_up = _mm256_and_si256(runs, _mm256_sllv_epi64(runs, shift));
        let pairs_down = _mm256_srlv_epi64(pairs_up, shift);
        up = _mm256_or_si256(
            up,
            _mm256_and_si256(pairs_up, _mm256_sllv_epi64(up, double)),
        );
        down = _mm256_or_si256(
            down,
            _mm256_and_si256(pairs_down, _mm256_srlv_epi64(down, double)),
        );
        up = _mm256_or_si256(
            up,
            _mm256_and_si256(pairs_up, _mm256_sllv_epi64(up, double)),
        );
        down = _mm256_or_si256(
            down,
            _mm256_and_si256(pairs_down, _mm256_srlv_epi64(down, double)),
        );
        _mm256_or_si256(_mm256_sllv_epi64(up, shift), _mm256_srlv_epi64(down, shift))
    };
    or_lanes(moves) & !(player | opponent)
}

/// Discs flipped by `player` playing on the empty square `index`.
///
/// Rays towards higher indices find their first non-opponent square as the
/// lowest set bit (`x & -x`); rays towards lower indices smear the highest set
/// bit downwards (see [`highest_bits`]).
#[inline]
pub fn flips(player: u64, opponent: u64, index: usize) -> u64 {
    let rays = &RAYS[index];
    // SAFETY: AVX2 is enabled for this build. The loads read 4 u64 each from
    // `rays`, an array of 8 u64, at offsets 0 and 4: in bounds, and
    // `_mm256_loadu_si256` needs no alignment.
    let flipped = unsafe {
        let zero = _mm256_setzero_si256();
        let p = _mm256_set1_epi64x(player as i64);
        let o = _mm256_set1_epi64x(opponent as i64);
        let rays_up = _mm256_loadu_si256(rays.as_ptr() as *const __m256i);
        let rays_down = _mm256_loadu_si256(rays.as_ptr().add(4) as *const __m256i);

        // Rays towards higher indices.
        let stops = _mm256_andnot_si256(o, rays_up);
        let first = _mm256_and_si256(stops, _mm256_sub_epi64(zero, stops));
        let before = _mm256_and_si256(rays_up, _mm256_sub_epi64(first, _mm256_set1_epi64x(1)));
        let no_anchor = _mm256_cmpeq_epi64(_mm256_and_si256(first, p), zero);
        let up = _mm256_andnot_si256(no_anchor, before);

        // Rays towards lower indices: the first stop is the highest set bit.
        let stops = _mm256_andnot_si256(o, rays_down);
        let (first, at_or_below) = highest_bits(stops);
        let above = _mm256_andnot_si256(at_or_below, rays_down);
        let no_anchor = _mm256_cmpeq_epi64(_mm256_and_si256(first, p), zero);
        let down = _mm256_andnot_si256(no_anchor, above);

        _mm256_or_si256(up, down)
    };
    or_lanes(flipped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn lanes(v: __m256i) -> [u64; 4] {
        // SAFETY: __m256i and [u64; 4] have the same size and any bit pattern is valid.
        unsafe { std::mem::transmute(v) }
    }

    /// The scalar meaning of `highest_bits` for one lane.
    fn expected(x: u64) -> (u64, u64) {
        if x == 0 {
            (0, 0)
        } else {
            let top = 63 - x.leading_zeros();
            (1 << top, u64::MAX >> (63 - top))
        }
    }

    #[test]
    fn highest_bits_variants_agree_with_scalar() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        for _ in 0..50_000 {
            let shift = rng.random_range(0..64);
            let x = [
                rng.random::<u64>() >> shift,
                0,
                1 << rng.random_range(0..64),
                u64::MAX >> shift,
            ];
            // SAFETY: AVX2 is enabled for this build; loadu needs no alignment.
            let v = unsafe { _mm256_loadu_si256(x.as_ptr() as *const __m256i) };
            let want: Vec<(u64, u64)> = x.iter().map(|&l| expected(l)).collect();
            let (first, below) = highest_bits_smear(v);
            let got: Vec<(u64, u64)> = lanes(first).into_iter().zip(lanes(below)).collect();
            assert_eq!(got, want);
            #[cfg(all(target_feature = "avx512cd", target_feature = "avx512vl"))]
            {
                let (first, below) = highest_bits_lzcnt(v);
                let got: Vec<(u64, u64)> = lanes(first).into_iter().zip(lanes(below)).collect();
                assert_eq!(got, want);
            }
        }
    }
}
