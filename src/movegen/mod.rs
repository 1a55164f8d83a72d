//! Move generation: legal-move bitboards and the discs a move flips.
//!
//! [`portable`] is always compiled and is the reference. When the build
//! targets a CPU with AVX2 (see `.cargo/config.toml`), `avx2` is compiled too
//! and the functions here use it; the tests check it against the portable
//! generator on random positions, and the portable generator against a naive
//! square-by-square reference. [`last_flip`] counts the flips of the last
//! move of an 8x8 game from lookup tables, without building a flip mask.

pub mod last_flip;
pub mod portable;

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
pub mod avx2;

/// Name of the backend this build uses, for reports.
pub const BACKEND: &str = if cfg!(all(target_arch = "x86_64", target_feature = "avx2")) {
    "avx2"
} else {
    "portable"
};

/// Legal move squares for `player` against `opponent` on the 8x8 board.
/// Small boards mask the result with their playable squares.
#[inline]
pub fn legal_moves(player: u64, opponent: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        avx2::legal_moves(player, opponent)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        portable::legal_moves(player, opponent)
    }
}

/// Discs flipped when `player` plays on the empty square `index` (0..64);
/// 0 when the move is illegal.
#[inline]
pub fn flips(player: u64, opponent: u64, index: usize) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        avx2::flips(player, opponent, index)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        portable::flips(player, opponent, index)
    }
}

/// Discs flipped by `player` playing on square `index` of an 8x8 board whose
/// other 63 squares are all occupied (the opponent holds `!player` without
/// `index`); 0 when the move is illegal. Faster than counting [`flips`] for
/// the last move of a game; wrong when any other square is empty (small
/// boards, whose squares outside the board read as empty).
#[inline]
pub fn count_last_flips(player: u64, index: usize) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        last_flip::count_bmi2(player, index)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        last_flip::count_portable(player, index)
    }
}
