//! A learned pattern evaluation for 8x8, in the style of Logistello and
//! Edax: the score is a sum of weights looked up by the exact contents of
//! small groups of squares (edges, corners, lines, diagonals), plus a
//! mobility term, with one weight set per game phase (every
//! [`EMPTIES_PER_PHASE`] empty squares).
//!
//! # Shapes and instances
//!
//! Each pattern [`SHAPES`] is written once, as an ordered list of squares on
//! the canonical board. Its images under the 8 board symmetries give its
//! *instances*: the distinct square sets (a 2x5 corner block has 8, a corner
//! 3x3 has 4, the a1-h8 diagonal 2). There are [`INSTANCES`] of them, and an
//! evaluation reads each one once, straight from the two bitboards: `pext`
//! extracts the instance's bits of each colour (lowest square first) and
//! [`TERNARY`] turns them into a base-3 index (0 empty, 1 the side to move's
//! disc, 2 the opponent's). No board is transformed.
//!
//! All instances of a shape share one trained table, indexed in the shape's
//! own square order: the evaluation transforms the board by each symmetry
//! (16 transforms, as before) and reads, on each image, only the shapes
//! whose instance no earlier image has read. An instance that is its own
//! mirror image (a row, the corner 3x3) has the weights of its two mirror
//! contents tied together: training fits one weight for both (the smaller
//! index, [`canonical_maps`]) and [`PatternWeights`] copies it to the other
//! when the weights are loaded. So the evaluation is 46 plain lookups in
//! tables as small as the shared ones, and exactly symmetric under the 8
//! board symmetries.
//!
//! Measured (`cargo test --release --lib eval_speed -- --ignored`): one
//! table per instance, indexed as `pext` reads the untransformed board,
//! saved the 16 transforms but made the tables 5 times larger (1.8 MB per
//! phase) and was only 1.19x faster than the first learned evaluation; the
//! shared tables read on transformed boards are faster (README, "Training
//! the evaluation").
//!
//! A search does not read the patterns of its leaves this way: it keeps
//! the 46 indices of the positions on its path up to date move by move
//! ([`super::incremental`]) and evaluates a leaf with
//! [`PatternWeights::evaluate_state`], the same value from the indices it
//! already holds.
//!
//! The weights are trained from game records by [`crate::train::patterns`]
//! (`oxello train-eval`), stored in `pattern-weights.bin` beside this file
//! (format in [`PatternWeights::encode`]) and built into the binary.

use super::weight_file;
pub use super::weight_file::WeightsError;
use crate::bitboard::Symmetry;
use crate::board::Board;
use crate::movegen;
use std::sync::OnceLock;

/// A pattern: a name and its squares in index order (a1 = 0, h1 = 7,
/// a2 = 8, ..., h8 = 63).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub name: &'static str,
    pub squares: &'static [u8],
}

/// The patterns (the shapes Edax publishes): 46 instances in all.
pub const SHAPES: [Shape; 11] = [
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

/// A [`Shape`], for the table above.
pub(crate) const fn shape(name: &'static str, squares: &'static [u8]) -> Shape {
    Shape { name, squares }
}

/// Number of shapes.
pub const SHAPE_COUNT: usize = SHAPES.len();

/// Largest number of squares in a shape ([`TERNARY`] covers it).
pub const MAX_SQUARES: usize = 10;

/// Number of instances: distinct square sets among the symmetric images of
/// the shapes.
pub const INSTANCES: usize = 46;

/// Weights of one shape's shared table: 3 to the number of its squares.
pub const fn shape_size(shape: usize) -> usize {
    3usize.pow(SHAPES[shape].squares.len() as u32)
}

/// Scalar weights at the start of each phase: bias, the side to move's
/// mobility, the opponent's mobility.
pub const SCALAR_COUNT: usize = 3;

/// Where each shape's shared table starts in a phase's weight vector, after
/// the [`SCALAR_COUNT`] scalar weights.
pub const SHAPE_OFFSETS: [usize; SHAPE_COUNT] = {
    let mut offsets = [0; SHAPE_COUNT];
    let mut next = SCALAR_COUNT;
    let mut s = 0;
    while s < SHAPE_COUNT {
        offsets[s] = next;
        next += shape_size(s);
        s += 1;
    }
    offsets
};

/// Trained (shared) weights per phase.
pub const PHASE_WEIGHTS: usize = SHAPE_OFFSETS[SHAPE_COUNT - 1] + shape_size(SHAPE_COUNT - 1);

/// Empty-square counts per phase: phase = empties / this. Two empties per
/// phase: with 4 (the first learned evaluation's 16 phases) the held-out
/// error was higher at every phase (see the README's training section).
pub const EMPTIES_PER_PHASE: usize = 2;

/// Number of phases (0..=60 empties).
pub const PHASES: usize = 60 / EMPTIES_PER_PHASE + 1;

/// Weights are stored in 1/`WEIGHT_SCALE` discs.
pub const WEIGHT_SCALE: i32 = 128;

/// `TERNARY[b]`: the base-3 number with the binary digits of `b`.
pub static TERNARY: [u16; 1 << MAX_SQUARES] = {
    let mut table = [0u16; 1 << MAX_SQUARES];
    let mut b = 0;
    while b < table.len() {
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

/// One instance: a symmetric image of a shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// Index into [`SHAPES`].
    pub shape: usize,
    /// The squares it covers.
    pub mask: u64,
    /// The symmetry the evaluation applies to the board to read this
    /// instance with the shape's own mask.
    pub symmetry: Symmetry,
}

/// A shape's mask on the canonical board.
pub(crate) const fn shape_mask(shape: usize) -> u64 {
    let squares = SHAPES[shape].squares;
    let mut mask = 0u64;
    let mut i = 0;
    while i < squares.len() {
        mask |= 1 << squares[i];
        i += 1;
    }
    mask
}

/// Every instance, each with the first symmetry (in [`Symmetry::ALL`]
/// order) that reads it, in the order the evaluation reads them: by
/// symmetry, then by shape.
pub fn instances() -> &'static [Instance] {
    static LIST: OnceLock<Vec<Instance>> = OnceLock::new();
    LIST.get_or_init(|| {
        let mut list: Vec<Instance> = Vec::new();
        for shape in 0..SHAPE_COUNT {
            let first = list.len();
            for symmetry in Symmetry::ALL {
                let mask = const_preimage(symmetry, shape_mask(shape));
                if !list[first..].iter().any(|i| i.mask == mask) {
                    list.push(Instance {
                        shape,
                        mask,
                        symmetry,
                    });
                }
            }
        }
        assert_eq!(list.len(), INSTANCES);
        // In the order the evaluation reads them.
        list.sort_by_key(|i| Symmetry::ALL.iter().position(|&s| s == i.symmetry));
        list
    })
}

/// The squares that `symmetry` sends into `mask`: what reading `mask` on
/// the transformed board reads of the board itself.
const fn const_preimage(symmetry: Symmetry, mask: u64) -> u64 {
    let mut out = 0u64;
    let mut q = 0;
    while q < 64 {
        if symmetry.apply(1u64 << q) & mask != 0 {
            out |= 1 << q;
        }
        q += 1;
    }
    out
}

/// The reads of an evaluation, grouped by the symmetry applied to the
/// board (in [`Symmetry::ALL`] order): `READS[g][..READ_COUNTS[g]]` are the
/// shapes (mask, table offset) to read on the `g`-th image, those whose
/// instance no earlier image has read. Computed at compile time so the
/// evaluation's loops are over constants.
const READS: ([[(u64, u32); SHAPE_COUNT]; 8], [usize; 8]) = {
    let mut reads = [[(0u64, 0u32); SHAPE_COUNT]; 8];
    let mut counts = [0usize; 8];
    let mut g = 0;
    while g < 8 {
        let mut shape = 0;
        while shape < SHAPE_COUNT {
            let mask = const_preimage(Symmetry::ALL[g], shape_mask(shape));
            let mut seen = false;
            let mut earlier = 0;
            while earlier < g {
                if const_preimage(Symmetry::ALL[earlier], shape_mask(shape)) == mask {
                    seen = true;
                }
                earlier += 1;
            }
            if !seen {
                reads[g][counts[g]] = (shape_mask(shape), SHAPE_OFFSETS[shape] as u32);
                counts[g] += 1;
            }
            shape += 1;
        }
        g += 1;
    }
    let mut total = 0;
    let mut g = 0;
    while g < 8 {
        total += counts[g];
        g += 1;
    }
    assert!(total == INSTANCES);
    (reads, counts)
};

/// The instances in the order [`for_each_read`] reads them: for each, the
/// index in [`Symmetry::ALL`] of the image it is read on and its shape.
pub(crate) const READ_ORDER: [(usize, usize); INSTANCES] = {
    let mut order = [(0usize, 0usize); INSTANCES];
    let mut k = 0;
    let mut g = 0;
    while g < 8 {
        let mut j = 0;
        while j < READS.1[g] {
            let offset = READS.0[g][j].1 as usize;
            let mut shape = 0;
            while SHAPE_OFFSETS[shape] != offset {
                shape += 1;
            }
            order[k] = (g, shape);
            k += 1;
            j += 1;
        }
        g += 1;
    }
    order
};

/// The reads on the `G`-th symmetric image of the board, given the image.
#[inline(always)]
fn read_image<const G: usize>(player: u64, opponent: u64, read: &mut impl FnMut(u32, usize)) {
    let mut j = 0;
    while j < READS.1[G] {
        let (mask, offset) = READS.0[G][j];
        read(offset, pext_index(player, opponent, mask));
        j += 1;
    }
}

/// The 8 images of `bits`, in [`Symmetry::ALL`] order, sharing the work:
/// one transpose and two horizontal mirrors (the vertical mirror is a byte
/// swap), where applying each symmetry alone takes 10 transforms.
#[inline(always)]
pub fn images(bits: u64) -> [u64; 8] {
    use crate::bitboard::{flip_diagonal, flip_horizontal};
    let diagonal = flip_diagonal(bits);
    let horizontal = flip_horizontal(bits);
    let rotate90 = flip_horizontal(diagonal);
    [
        bits,
        bits.swap_bytes(),
        horizontal,
        diagonal,
        rotate90.swap_bytes(),
        rotate90,
        horizontal.swap_bytes(),
        diagonal.swap_bytes(),
    ]
}

/// Base-3 index of the squares of `mask`, lowest square first.
#[inline]
fn pext_index(player: u64, opponent: u64, mask: u64) -> usize {
    TERNARY[pext(player, mask) as usize] as usize
        + 2 * TERNARY[pext(opponent, mask) as usize] as usize
}

/// For every shape, the shared index (offset excluded) of each index read
/// in the shape's square order: the smallest index among the orderings
/// that the symmetries mapping the shape onto itself give. This folds the
/// mirror images of a self-symmetric instance together.
pub fn canonical_maps() -> &'static [Vec<u32>] {
    static MAPS: OnceLock<Vec<Vec<u32>>> = OnceLock::new();
    MAPS.get_or_init(|| {
        SHAPES
            .iter()
            .map(|shape| {
                canonical_map(shape.squares, |s, q| {
                    s.apply(1u64 << q).trailing_zeros() as u8
                })
            })
            .collect()
    })
}

/// The canonical map of one shape of `squares` (at most [`MAX_SQUARES`]),
/// whose square `q` a symmetry `s` sends to `image(s, q)`: for each index
/// read in the shape's square order, the smallest index among the
/// orderings that the symmetries mapping the shape onto itself give.
pub(crate) fn canonical_map(squares: &[u8], image: impl Fn(Symmetry, u8) -> u8) -> Vec<u32> {
    // The digit permutations of the self-symmetries.
    let permutations: Vec<Vec<usize>> = Symmetry::ALL
        .iter()
        .filter_map(|&s| {
            squares
                .iter()
                .map(|&q| squares.iter().position(|&r| r == image(s, q)))
                .collect::<Option<Vec<usize>>>()
        })
        .collect();
    (0..3usize.pow(squares.len() as u32))
        .map(|index| {
            let mut digits = [0usize; MAX_SQUARES];
            let mut rest = index;
            for digit in digits.iter_mut().take(squares.len()) {
                *digit = rest % 3;
                rest /= 3;
            }
            permutations
                .iter()
                .map(|p| p.iter().rev().fold(0, |acc, &from| acc * 3 + digits[from]))
                .min()
                .expect("the identity is a self-symmetry") as u32
        })
        .collect()
}

/// `shared` weights (phases of `phase_weights`, each shape's table at its
/// offset in `offsets`) with every index of a table holding the weight of
/// its canonical index in `maps`: what an evaluation reads.
pub(crate) fn fold_mirrors(
    shared: &[i16],
    phase_weights: usize,
    offsets: &[usize],
    maps: &[Vec<u32>],
) -> Vec<i16> {
    let mut folded = shared.to_vec();
    for base in (0..shared.len()).step_by(phase_weights) {
        for (map, &offset) in maps.iter().zip(offsets) {
            let offset = base + offset;
            for (index, &canonical) in map.iter().enumerate() {
                folded[offset + index] = shared[offset + canonical as usize];
            }
        }
    }
    folded
}

/// Calls `read(offset, index)` for each instance's read: the shape's table
/// offset and the index in the shape's square order.
#[inline(always)]
fn for_each_read(board: Board, mut read: impl FnMut(u32, usize)) {
    let (p, o) = (images(board.player), images(board.opponent));
    read_image::<0>(p[0], o[0], &mut read);
    read_image::<1>(p[1], o[1], &mut read);
    read_image::<2>(p[2], o[2], &mut read);
    read_image::<3>(p[3], o[3], &mut read);
    read_image::<4>(p[4], o[4], &mut read);
    read_image::<5>(p[5], o[5], &mut read);
    read_image::<6>(p[6], o[6], &mut read);
    read_image::<7>(p[7], o[7], &mut read);
}

/// The shared-table indices (within a phase) that `board` looks up, one per
/// instance: what training fits.
pub fn shared_lookups(board: Board) -> [u32; INSTANCES] {
    let maps = canonical_maps();
    let mut out = [0u32; INSTANCES];
    let mut k = 0;
    for_each_read(board, |offset, index| {
        let shape = SHAPE_OFFSETS
            .iter()
            .rposition(|&o| o as u32 <= offset)
            .expect("an offset");
        out[k] = offset + maps[shape][index];
        k += 1;
    });
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

/// The patterns' weights of `board` among a phase's weights `w`, read
/// from the board.
#[inline]
fn read_patterns(board: Board, w: &[i16]) -> i32 {
    let mut sum = 0;
    for_each_read(board, |offset, index| {
        sum += i32::from(w[offset as usize + index]);
    });
    sum
}

/// A raw sum in 1/[`WEIGHT_SCALE`] discs, rounded to discs (halves away
/// from zero), on a board of `squares` squares: within one disc of the
/// extremes, because a game that is not over is never evaluated as a
/// wipeout: a search's score of ±`squares` then comes from lines that end
/// the game (the driver solves at once on seeing one, `wipeouts_seen`).
#[inline]
pub(crate) fn to_discs(raw: i32, squares: i32) -> i32 {
    let discs = (raw + raw.signum() * WEIGHT_SCALE / 2) / WEIGHT_SCALE;
    discs.clamp(1 - squares, squares - 1)
}

/// A full weight set: [`PHASES`] vectors of [`PHASE_WEIGHTS`] shared
/// weights, and the same with the mirror images filled in.
#[derive(Clone, Debug)]
pub struct PatternWeights {
    shared: Vec<i16>,
    /// The shared weights with every index of a shape's table holding the
    /// weight of its canonical index: what the evaluation reads.
    folded: Vec<i16>,
}

impl PartialEq for PatternWeights {
    fn eq(&self, other: &Self) -> bool {
        self.shared == other.shared
    }
}

/// First bytes of a weight file.
pub const MAGIC: &[u8; 4] = b"OXPW";

/// Version of the weight file format (1 was the first learned evaluation's
/// 11 patterns read on 8 board images).
pub const VERSION: u16 = 2;

/// The file layout of these weights ([`weight_file`]).
const FILE_LAYOUT: weight_file::Layout = weight_file::Layout {
    magic: MAGIC,
    version: VERSION,
    shapes: SHAPE_COUNT as u16,
    phases: PHASES as u16,
    phase_weights: PHASE_WEIGHTS as u32,
};

impl PatternWeights {
    /// All weights zero.
    pub fn zero() -> PatternWeights {
        PatternWeights::from_shared(vec![0; PHASES * PHASE_WEIGHTS])
    }

    /// The weight set with these shared weights ([`PHASES`] times
    /// [`PHASE_WEIGHTS`]), folded.
    pub fn from_shared(shared: Vec<i16>) -> PatternWeights {
        assert_eq!(shared.len(), PHASES * PHASE_WEIGHTS);
        let folded = fold_mirrors(&shared, PHASE_WEIGHTS, &SHAPE_OFFSETS, canonical_maps());
        PatternWeights { shared, folded }
    }

    /// The shared weights of `phase`.
    #[inline]
    pub fn phase(&self, phase: usize) -> &[i16] {
        &self.shared[phase * PHASE_WEIGHTS..(phase + 1) * PHASE_WEIGHTS]
    }

    /// The evaluation of `board` in 1/[`WEIGHT_SCALE`] discs, unclamped.
    #[inline]
    pub fn raw(&self, board: Board) -> i32 {
        self.raw_with(board, mobilities(board), |w| read_patterns(board, w))
    }

    /// The bias and mobility terms of `board` (whose two mobilities are
    /// counted), plus what `patterns` sums from the phase's weights.
    #[inline]
    fn raw_with(
        &self,
        board: Board,
        (mine, theirs): (i32, i32),
        patterns: impl FnOnce(&[i16]) -> i32,
    ) -> i32 {
        let start = phase(board.empties().count_ones()) * PHASE_WEIGHTS;
        let w = &self.folded[start..start + PHASE_WEIGHTS];
        i32::from(w[0]) + i32::from(w[1]) * mine + i32::from(w[2]) * theirs + patterns(w)
    }

    /// The evaluation of `board` in discs for the side to move, within
    /// -63..=63, or exact when the game is over, with the patterns' weights
    /// summed by `patterns`.
    #[inline]
    fn evaluate_with(&self, board: Board, patterns: impl FnOnce(&[i16]) -> i32) -> i32 {
        // The mobilities both feed the sum and tell whether the game is over:
        // count them once.
        let mobility = mobilities(board);
        if mobility == (0, 0) {
            return board.final_score_on(crate::bitboard::BoardSize::Eight);
        }
        to_discs(self.raw_with(board, mobility, patterns), 64)
    }

    /// The evaluation of `board` in discs for the side to move, within
    /// -63..=63, or exact when the game is over.
    #[inline]
    pub fn evaluate(&self, board: Board) -> i32 {
        self.evaluate_with(board, |w| read_patterns(board, w))
    }

    /// [`PatternWeights::evaluate`] of `state.board`, from the indices the
    /// state already holds: the same value, without reading the board's
    /// patterns.
    #[inline]
    pub fn evaluate_state(&self, state: &crate::eval::incremental::PatternState) -> i32 {
        use crate::eval::incremental::INSTANCE_OFFSETS;
        self.evaluate_with(state.board, |w| {
            INSTANCE_OFFSETS
                .iter()
                .zip(&state.mine.0)
                .map(|(&offset, &index)| i32::from(w[offset as usize + usize::from(index)]))
                .sum()
        })
    }

    /// The file form ([`weight_file::encode`]): the shared weights, phase
    /// by phase, behind a header naming [`MAGIC`], [`VERSION`] and this
    /// layout.
    pub fn encode(&self) -> Vec<u8> {
        weight_file::encode(&FILE_LAYOUT, &self.shared)
    }

    /// Reads the form [`PatternWeights::encode`] writes, refusing a file of
    /// another version or layout, or whose checksum fails.
    pub fn decode(bytes: &[u8]) -> Result<PatternWeights, WeightsError> {
        weight_file::decode(&FILE_LAYOUT, bytes).map(PatternWeights::from_shared)
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
        for instance in instances() {
            let mask = instance.mask;
            assert_eq!(pext(u64::MAX, mask), (1 << mask.count_ones()) - 1);
        }
    }

    #[test]
    fn images_are_the_8_symmetries() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(10);
        for _ in 0..1_000 {
            let bits = rng.random::<u64>();
            let expected = Symmetry::ALL.map(|s| s.apply(bits));
            assert_eq!(images(bits), expected);
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

    /// The instances are exactly the distinct images of each shape under the
    /// 8 symmetries, each covering the shape's squares mapped, and the
    /// symmetries permute the instances of a shape among themselves.
    #[test]
    fn instances_cover_exactly_the_images_of_each_shape() {
        let list = instances();
        let expected_counts = [4, 4, 8, 4, 4, 4, 2, 4, 4, 4, 4];
        for (s, shape) in SHAPES.iter().enumerate() {
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
                let s = instances()[k].shape;
                let index = index as usize;
                assert!(index >= SHAPE_OFFSETS[s]);
                assert!(index < SHAPE_OFFSETS[s] + shape_size(s));
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
                + i32::from(w[2]) * theirs;
            assert_eq!(shared, expected);
            for symmetry in Symmetry::ALL {
                let image = Board::new(symmetry.apply(player), symmetry.apply(opponent));
                assert_eq!(weights.raw(image), expected);
            }
        }
    }

    #[test]
    fn shipped_evaluation_is_symmetric() {
        let weights = built_in();
        let boards =
            crate::eval::test_support::random_game_boards(crate::bitboard::BoardSize::Eight, 40, 3);
        for board in boards {
            let expected = weights.evaluate(board);
            for symmetry in Symmetry::ALL {
                let image =
                    Board::new(symmetry.apply(board.player), symmetry.apply(board.opponent));
                assert_eq!(weights.evaluate(image), expected);
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
        assert_eq!(
            PatternWeights::decode(b"nonsense"),
            Err(WeightsError::BadMagic { expected: *b"OXPW" })
        );
        // The first learned evaluation's files.
        assert_eq!(
            PatternWeights::decode(b"OXPW0001\0\0\0\0"),
            Err(WeightsError::WrongVersion {
                found: u16::from_le_bytes(*b"00"),
                expected: VERSION
            })
        );
        let mut other_version = bytes.clone();
        other_version[4] = 3;
        assert!(matches!(
            PatternWeights::decode(&other_version),
            Err(WeightsError::WrongVersion { found: 3, .. })
        ));
        let mut other_layout = bytes.clone();
        other_layout[8] ^= 1;
        assert_eq!(
            PatternWeights::decode(&other_layout),
            Err(WeightsError::WrongLayout)
        );
        // A flipped bit anywhere in the body.
        use crate::eval::weight_file::HEADER;
        for at in [HEADER, HEADER + 1, bytes.len() / 2, bytes.len() - 1] {
            let mut corrupt = bytes.clone();
            corrupt[at] ^= 0x10;
            assert!(
                matches!(
                    PatternWeights::decode(&corrupt),
                    Err(WeightsError::BadChecksum { .. })
                ),
                "{at}"
            );
        }
        assert!(PatternWeights::decode(&bytes[..bytes.len() - 2]).is_err());
        assert!(PatternWeights::decode(&bytes[..bytes.len() - 1]).is_err());
        assert!(PatternWeights::decode(&bytes[..10]).is_err());
        // The built-in file decodes (and is the current version).
        assert!(PatternWeights::decode(BUILT_IN).is_ok());
    }
}
