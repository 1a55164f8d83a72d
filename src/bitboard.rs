//! Bitboard helpers: iterating set squares, parallel bit extract, the 8
//! symmetries, and the board sizes with their playable-square and edge masks.
//!
//! A bitboard is a plain `u64` with bit `row * 8 + col` for each square
//! (a1 = bit 0, h8 = bit 63). Small boards live in the top-left corner of the
//! 8x8 bitboard: a 6x6 game uses columns a..f of rows 1..6, and its squares
//! keep their usual names.

use crate::square::Square;
use std::fmt;
use std::str::FromStr;

/// Iterator over the squares of a bitboard, lowest bit first.
#[derive(Clone, Copy, Debug)]
pub struct Squares(pub u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let square = Square::from_lowest_bit(self.0)?;
        self.0 &= self.0 - 1;
        Some(square)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

/// The squares of `bits`, lowest first.
#[inline]
pub fn squares(bits: u64) -> Squares {
    Squares(bits)
}

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

/// Mirror top to bottom (row 1 <-> row 8).
#[inline]
pub const fn flip_vertical(bits: u64) -> u64 {
    bits.swap_bytes()
}

/// Mirror left to right (column a <-> column h).
#[inline]
pub const fn flip_horizontal(bits: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    let mut x = bits;
    x = ((x >> 1) & K1) | ((x & K1) << 1);
    x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

/// Mirror in the a1-h8 diagonal (transpose: column <-> row).
#[inline]
pub const fn flip_diagonal(bits: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let mut x = bits;
    let mut t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = K1 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// The squares next to any square of `bits` (in all 8 directions), excluding
/// wrap-around between columns a and h.
#[inline]
pub const fn neighbours(bits: u64) -> u64 {
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let horizontal = ((bits << 1) & NOT_A) | ((bits >> 1) & NOT_H) | bits;
    (horizontal | (horizontal << 8) | (horizontal >> 8)) & !bits
}

/// The 8 symmetries of the square: identity, 3 rotations, 4 mirrors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    Identity,
    /// Mirror top to bottom.
    FlipVertical,
    /// Mirror left to right.
    FlipHorizontal,
    /// Mirror in the a1-h8 diagonal.
    FlipDiagonal,
    /// Mirror in the h1-a8 diagonal.
    FlipAntiDiagonal,
    /// Rotate a quarter turn clockwise.
    Rotate90,
    /// Rotate a half turn.
    Rotate180,
    /// Rotate a quarter turn anticlockwise.
    Rotate270,
}

impl Symmetry {
    /// All 8 symmetries, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::FlipVertical,
        Symmetry::FlipHorizontal,
        Symmetry::FlipDiagonal,
        Symmetry::FlipAntiDiagonal,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
    ];

    /// Applies the symmetry to a bitboard of the full 8x8 board.
    pub const fn apply(self, bits: u64) -> u64 {
        match self {
            Symmetry::Identity => bits,
            Symmetry::FlipVertical => flip_vertical(bits),
            Symmetry::FlipHorizontal => flip_horizontal(bits),
            Symmetry::FlipDiagonal => flip_diagonal(bits),
            Symmetry::FlipAntiDiagonal => flip_vertical(flip_horizontal(flip_diagonal(bits))),
            Symmetry::Rotate90 => flip_horizontal(flip_diagonal(bits)),
            Symmetry::Rotate180 => flip_vertical(flip_horizontal(bits)),
            Symmetry::Rotate270 => flip_vertical(flip_diagonal(bits)),
        }
    }

    /// Applies the symmetry to a bitboard of a board of `size`, keeping the
    /// result in the top-left corner where small boards live.
    pub const fn apply_sized(self, bits: u64, size: BoardSize) -> u64 {
        self.apply(bits) >> self.corner_shift(size)
    }

    /// Applies the symmetry to one square of a board of `size`.
    pub fn apply_square(self, square: Square, size: BoardSize) -> Square {
        let bits = self.apply_sized(square.bit(), size);
        Square::from_lowest_bit(bits).expect("a symmetry maps a square to a square")
    }

    /// The symmetry that undoes this one.
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }

    /// How far the 8x8 image of the top-left `size` region must be shifted
    /// back: mirrors move it to another corner of the 8x8 board.
    pub const fn corner_shift(self, size: BoardSize) -> u32 {
        // The image of a square block is a square block; its lowest bit is its
        // top-left corner, and shifting by that index moves it back to a1.
        self.apply(size.mask()).trailing_zeros()
    }
}

/// The board sizes oxello plays: 8x8 is the game, 4x4 and 6x6 are played and
/// solved too. All share the 8x8 bitboard; see the module header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum BoardSize {
    Four,
    Six,
    #[default]
    Eight,
}

/// Why a board size was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSizeError {
    pub text: String,
}

impl fmt::Display for ParseSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unsupported board size '{}' (use 4, 6 or 8)", self.text)
    }
}

impl std::error::Error for ParseSizeError {}

impl BoardSize {
    /// Every supported size, smallest first.
    pub const ALL: [BoardSize; 3] = [BoardSize::Four, BoardSize::Six, BoardSize::Eight];

    /// The side length: 4, 6 or 8.
    pub const fn n(self) -> usize {
        match self {
            BoardSize::Four => 4,
            BoardSize::Six => 6,
            BoardSize::Eight => 8,
        }
    }

    /// The size with side length `n`, if supported.
    pub const fn from_n(n: usize) -> Option<BoardSize> {
        match n {
            4 => Some(BoardSize::Four),
            6 => Some(BoardSize::Six),
            8 => Some(BoardSize::Eight),
            _ => None,
        }
    }

    /// The playable squares: the top-left `n` x `n` region.
    pub const fn mask(self) -> u64 {
        match self {
            BoardSize::Four => 0x0000_0000_0f0f_0f0f,
            BoardSize::Six => 0x0000_3f3f_3f3f_3f3f,
            BoardSize::Eight => u64::MAX,
        }
    }

    /// Number of playable squares.
    pub const fn squares(self) -> u32 {
        (self.n() * self.n()) as u32
    }

    /// Whether `square` lies on a board of this size.
    pub const fn contains(self, square: Square) -> bool {
        self.mask() & square.bit() != 0
    }

    /// The squares of this board in reading order (a1, b1, .., then row 2).
    pub fn reading_order(self) -> impl Iterator<Item = Square> {
        let n = self.n() as u8;
        (0..n).flat_map(move |row| (0..n).filter_map(move |col| Square::from_coords(col, row)))
    }
}

impl FromStr for BoardSize {
    type Err = ParseSizeError;

    fn from_str(text: &str) -> Result<BoardSize, ParseSizeError> {
        text.trim()
            .parse::<usize>()
            .ok()
            .and_then(BoardSize::from_n)
            .ok_or_else(|| ParseSizeError {
                text: text.to_string(),
            })
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.n())
    }
}

/// Square classes of one board size, as bitboards.
#[derive(Clone, Copy, Debug)]
pub struct SizeMasks {
    /// The four corners.
    pub corners: u64,
    /// The diagonal neighbours of the corners.
    pub x_squares: u64,
    /// The edge neighbours of the corners.
    pub c_squares: u64,
    /// Border squares except corners.
    pub edges: u64,
    /// Columns a and n: squares with no neighbour on one side horizontally.
    pub left_right: u64,
    /// Rows 1 and n: squares with no neighbour on one side vertically.
    pub top_bottom: u64,
}

const fn bit(col: usize, row: usize) -> u64 {
    1u64 << (row * 8 + col)
}

const fn build_size_masks(size: BoardSize) -> SizeMasks {
    let n = size.n();
    let m = n - 1;
    let mask = size.mask();
    let corners = bit(0, 0) | bit(m, 0) | bit(0, m) | bit(m, m);
    let x_squares = bit(1, 1) | bit(m - 1, 1) | bit(1, m - 1) | bit(m - 1, m - 1);
    let c_squares = bit(1, 0)
        | bit(0, 1)
        | bit(m - 1, 0)
        | bit(m, 1)
        | bit(0, m - 1)
        | bit(1, m)
        | bit(m, m - 1)
        | bit(m - 1, m);
    let column = 0x0101_0101_0101_0101u64;
    let row = 0xffu64;
    let left_right = (column | (column << m)) & mask;
    let top_bottom = (row | (row << (8 * m))) & mask;
    SizeMasks {
        corners,
        x_squares,
        c_squares,
        edges: (left_right | top_bottom) & !corners,
        left_right,
        top_bottom,
    }
}

const MASKS: [SizeMasks; 3] = [
    build_size_masks(BoardSize::Four),
    build_size_masks(BoardSize::Six),
    build_size_masks(BoardSize::Eight),
];

/// The square classes of a board of `size`.
#[inline]
pub const fn size_masks(size: BoardSize) -> &'static SizeMasks {
    match size {
        BoardSize::Four => &MASKS[0],
        BoardSize::Six => &MASKS[1],
        BoardSize::Eight => &MASKS[2],
    }
}

/// The four corners of a board of `size`.
#[inline]
pub const fn corner_squares(size: BoardSize) -> u64 {
    size_masks(size).corners
}

/// The X-squares (diagonal neighbours of the corners) of a board of `size`.
#[inline]
pub const fn x_squares(size: BoardSize) -> u64 {
    size_masks(size).x_squares
}

/// The C-squares (edge neighbours of the corners) of a board of `size`.
#[inline]
pub const fn c_squares(size: BoardSize) -> u64 {
    size_masks(size).c_squares
}

/// The border squares of a board of `size`, corners excluded.
#[inline]
pub const fn edge_squares(size: BoardSize) -> u64 {
    size_masks(size).edges
}

/// The first and last columns of a board of `size`.
#[inline]
pub const fn side_columns(size: BoardSize) -> u64 {
    size_masks(size).left_right
}

/// The first and last rows of a board of `size`.
#[inline]
pub const fn side_rows(size: BoardSize) -> u64 {
    size_masks(size).top_bottom
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pext_agrees_with_the_portable_one() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        for _ in 0..10_000 {
            let (x, mask) = (rng.random::<u64>(), rng.random::<u64>());
            assert_eq!(pext(x, mask), pext_portable(x, mask));
            assert_eq!(
                pext(u64::MAX, mask),
                ((1u128 << mask.count_ones()) - 1) as u64
            );
        }
    }

    #[test]
    fn symmetries_form_a_group_and_keep_counts() {
        let x = 0x0123_4567_89ab_cdefu64;
        for s in Symmetry::ALL {
            assert_eq!(s.inverse().apply(s.apply(x)), x, "{s:?}");
            assert_eq!(s.apply(x).count_ones(), x.count_ones());
        }
        let images: std::collections::HashSet<u64> =
            Symmetry::ALL.iter().map(|s| s.apply(0b1110_0001)).collect();
        assert_eq!(images.len(), 8);
    }

    #[test]
    fn symmetries_map_square_names() {
        let a1: Square = "a1".parse().unwrap();
        let b1: Square = "b1".parse().unwrap();
        let e = BoardSize::Eight;
        assert_eq!(Symmetry::FlipVertical.apply_square(a1, e).to_string(), "a8");
        assert_eq!(
            Symmetry::FlipHorizontal.apply_square(a1, e).to_string(),
            "h1"
        );
        assert_eq!(Symmetry::FlipDiagonal.apply_square(b1, e).to_string(), "a2");
        assert_eq!(
            Symmetry::FlipAntiDiagonal.apply_square(b1, e).to_string(),
            "h7"
        );
        assert_eq!(Symmetry::Rotate90.apply_square(b1, e).to_string(), "h2");
        assert_eq!(Symmetry::Rotate180.apply_square(b1, e).to_string(), "g8");
        assert_eq!(Symmetry::Rotate270.apply_square(b1, e).to_string(), "a7");
    }

    #[test]
    fn small_board_symmetries_stay_on_the_board() {
        for size in BoardSize::ALL {
            for s in Symmetry::ALL {
                assert_eq!(
                    s.apply_sized(size.mask(), size),
                    size.mask(),
                    "{size:?} {s:?}"
                );
                for square in size.reading_order() {
                    let image = s.apply_square(square, size);
                    assert!(size.contains(image));
                    assert_eq!(s.inverse().apply_square(image, size), square);
                }
            }
        }
        let a1: Square = "a1".parse().unwrap();
        assert_eq!(
            Symmetry::FlipVertical
                .apply_square(a1, BoardSize::Six)
                .to_string(),
            "a6"
        );
        assert_eq!(
            Symmetry::Rotate180
                .apply_square(a1, BoardSize::Four)
                .to_string(),
            "d4"
        );
    }

    #[test]
    fn neighbours_do_not_wrap() {
        let a1 = 1u64;
        assert_eq!(neighbours(a1), (1 << 1) | (1 << 8) | (1 << 9));
        let h1 = 1u64 << 7;
        assert_eq!(neighbours(h1), (1 << 6) | (1 << 14) | (1 << 15));
    }

    #[test]
    fn sizes_parse() {
        assert_eq!("6".parse::<BoardSize>().unwrap(), BoardSize::Six);
        assert!("10".parse::<BoardSize>().is_err());
        assert_eq!(BoardSize::Six.mask().count_ones(), 36);
        assert_eq!(BoardSize::Four.reading_order().count(), 16);
    }
}
