//! Learned pattern evaluations, in the style of Logistello and Edax, for
//! any board size: the score is a sum of weights looked up by the exact
//! contents of small groups of squares (edges, corners, lines, diagonals),
//! plus a bias and the two sides' mobility, with one weight set per game
//! phase (every [`PatternSet::EMPTIES_PER_PHASE`] empty squares). A
//! [`PatternSet`] names a board size's shapes and phases (8x8 in
//! [`super::patterns`], 6x6 in [`super::six`]); [`LearnedWeights`] holds
//! its weights and evaluates with them.
//!
//! # Shapes and instances
//!
//! Each shape is written once, as its squares on the canonical board in
//! increasing order. Its images under the 8 board symmetries give its
//! *instances*: the distinct square sets (a 2x5 corner block has 8, a corner
//! 3x3 has 4, the a1-h8 diagonal 2). All instances of a shape share one
//! trained table, indexed in the shape's own square order: the evaluation
//! transforms the board by each symmetry (the 8 images of each side's
//! bitboard) and reads, on each image, only the shapes whose instance no
//! earlier image has read ([`Reads`], computed at compile time). A read is
//! two `pext` of the shape's mask and two [`TERNARY`] lookups that make
//! them a base-3 index (0 empty, 1 the side to move's disc, 2 the
//! opponent's).
//!
//! An instance that is its own mirror image (a row, the corner 3x3) has the
//! weights of its two mirror contents tied together: training fits one
//! weight for both (the smaller index, [`canonical_map`]) and
//! [`LearnedWeights`] copies it to the other when the weights are loaded.
//! So the evaluation is plain lookups in tables as small as the shared ones,
//! and exactly symmetric under the 8 board symmetries.
//!
//! Measured on 8x8 (`oxello bench --speed eval`), the shared tables read on
//! transformed boards take two thirds of the first learned evaluation's
//! cycles (docs/training.md, "Training the evaluation"). One table per
//! instance, read on the untransformed board, saves the transforms but
//! makes the tables 5 times larger, and was slower
//! (docs/trials/othello.md, "Evaluation").

use crate::bitboard::{BoardSize, Symmetry, pext};
use crate::board::Board;
use crate::fitted::{self, FittedError};
use crate::movegen;
use crate::square::Square;
use std::marker::PhantomData;
use std::sync::OnceLock;

/// A pattern: a name and its squares in increasing index order (a1 = 0,
/// h1 = 7, a2 = 8, ..., h8 = 63).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub name: &'static str,
    pub squares: &'static [u8],
}

/// A [`Shape`], for the tables of the pattern sets.
pub const fn shape(name: &'static str, squares: &'static [u8]) -> Shape {
    Shape { name, squares }
}

/// Largest number of squares in a shape ([`TERNARY`] covers it).
pub const MAX_SQUARES: usize = 10;

/// Largest number of shapes in a set.
pub const MAX_SHAPES: usize = 12;

/// Largest number of instances in a set.
pub const MAX_INSTANCES: usize = 64;

/// Scalar weights at the start of each phase: bias, the side to move's
/// mobility, the opponent's mobility.
pub const SCALAR_COUNT: usize = 3;

/// Weights are stored in 1/`WEIGHT_SCALE` discs.
pub const WEIGHT_SCALE: i32 = 128;

/// The order in which a set's [`LearnedWeights::lookups`] lists its
/// instances: the order training sums them in, so the order the shipped
/// weights were fitted in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LookupOrder {
    /// As the evaluation reads them: by symmetry, then by shape.
    ByImage,
    /// Shape by shape, each shape's images in [`Symmetry::ALL`] order.
    ByShape,
}

/// The description of one board size's pattern evaluation: its shapes, its
/// phases and its weight file. The other constants follow from these.
pub trait PatternSet: Sized + Send + Sync + 'static {
    /// The board the patterns are read on.
    const SIZE: BoardSize;
    /// The shapes, each at most [`MAX_SQUARES`] squares in increasing order.
    const SHAPES: &'static [Shape];
    /// Distinct instances of the shapes (checked at compile time).
    const INSTANCES: usize;
    /// Empty-square counts per phase: phase = empties / this.
    const EMPTIES_PER_PHASE: usize;
    /// The kind of the set's weight file ([`fitted`]).
    const KIND: [u8; 4];
    /// Version of the set's weight file.
    const VERSION: u16;
    /// The order training lists the instances in.
    const LOOKUP_ORDER: LookupOrder;
    /// Added to the side to move's raw score (1/[`WEIGHT_SCALE`] discs) at
    /// an odd number of empties: a phase spans two empties, so its weights
    /// cannot tell the side that will make the last move.
    const ODD_EMPTIES_BONUS: i32;
    /// The trained weight file built into the binary.
    const BUILT_IN: &'static [u8];

    /// The set's caches (one `static` per set: generic code cannot own one).
    fn cache() -> &'static Cache<Self>;

    /// Number of shapes.
    const SHAPE_COUNT: usize = Self::SHAPES.len();
    /// Number of phases (from the start's empties down to 0).
    const PHASES: usize = (Self::SIZE.squares() as usize - 4) / Self::EMPTIES_PER_PHASE + 1;
    /// Where each shape's shared table starts in a phase's weight vector,
    /// after the [`SCALAR_COUNT`] scalar weights.
    const SHAPE_OFFSETS: [usize; MAX_SHAPES] = shape_offsets(Self::SHAPES);
    /// Trained (shared) weights per phase.
    const PHASE_WEIGHTS: usize = Self::SHAPE_OFFSETS[Self::SHAPE_COUNT - 1]
        + shape_size(Self::SHAPES, Self::SHAPE_COUNT - 1);
    /// What an evaluation reads on each image of the board.
    const READS: Reads = Reads::new(Self::SIZE, Self::SHAPES, Self::INSTANCES);
    /// `SHIFTS[g]`: how far the `g`-th 8x8 image of the board moves back to
    /// the top-left corner where a small board lives (0 on 8x8).
    const SHIFTS: [u32; 8] = {
        let mut shifts = [0; 8];
        let mut g = 0;
        while g < 8 {
            shifts[g] = Symmetry::ALL[g].corner_shift(Self::SIZE);
            g += 1;
        }
        shifts
    };

    /// The phase of a position with `empties` empty squares.
    #[inline]
    fn phase(empties: u32) -> usize {
        (empties as usize / Self::EMPTIES_PER_PHASE).min(Self::PHASES - 1)
    }

    /// Empty squares of `board` on this set's board.
    #[inline]
    fn empties(board: Board) -> u32 {
        (board.empties() & Self::SIZE.mask()).count_ones()
    }

    /// The mobility of the side to move and of the opponent.
    #[inline]
    fn mobilities(board: Board) -> (i32, i32) {
        let mask = Self::SIZE.mask();
        (
            (movegen::legal_moves(board.player, board.opponent) & mask).count_ones() as i32,
            (movegen::legal_moves(board.opponent, board.player) & mask).count_ones() as i32,
        )
    }
}

/// Weights of shape `s`'s shared table: 3 to the number of its squares.
pub const fn shape_size(shapes: &[Shape], s: usize) -> usize {
    3usize.pow(shapes[s].squares.len() as u32)
}

const fn shape_offsets(shapes: &[Shape]) -> [usize; MAX_SHAPES] {
    assert!(shapes.len() <= MAX_SHAPES);
    let mut offsets = [0; MAX_SHAPES];
    let mut next = SCALAR_COUNT;
    let mut s = 0;
    while s < shapes.len() {
        offsets[s] = next;
        next += shape_size(shapes, s);
        s += 1;
    }
    offsets
}

/// A shape's mask on the canonical board.
pub const fn shape_mask(shape: &Shape) -> u64 {
    let squares = shape.squares;
    assert!(squares.len() <= MAX_SQUARES);
    let mut mask = 0u64;
    let mut i = 0;
    while i < squares.len() {
        // Increasing order: `pext` reads the squares in the shape's order.
        assert!(i == 0 || squares[i - 1] < squares[i]);
        mask |= 1 << squares[i];
        i += 1;
    }
    mask
}

/// The squares of a board of `size` that `symmetry` sends into `mask`: what
/// reading `mask` on the transformed board reads of the board itself.
pub const fn preimage(symmetry: Symmetry, mask: u64, size: BoardSize) -> u64 {
    let mut out = 0u64;
    let mut q = 0;
    while q < 64 {
        let bit = 1u64 << q;
        if bit & size.mask() != 0 && symmetry.apply_sized(bit, size) & mask != 0 {
            out |= bit;
        }
        q += 1;
    }
    out
}

/// The reads of an evaluation, grouped by the symmetry applied to the board
/// (in [`Symmetry::ALL`] order): `reads[g][..counts[g]]` are the shapes
/// (mask, table offset) to read on the `g`-th image, those whose instance no
/// earlier image has read; `order[k]` is the image and the shape of the
/// `k`-th read. Computed at compile time so the evaluation's loops are over
/// constants.
#[derive(Clone, Copy, Debug)]
pub struct Reads {
    pub reads: [[(u64, u32); MAX_SHAPES]; 8],
    pub counts: [usize; 8],
    pub order: [(usize, usize); MAX_INSTANCES],
}

impl Reads {
    const fn new(size: BoardSize, shapes: &[Shape], instances: usize) -> Reads {
        let offsets = shape_offsets(shapes);
        let mut reads = [[(0u64, 0u32); MAX_SHAPES]; 8];
        let mut counts = [0usize; 8];
        let mut order = [(0usize, 0usize); MAX_INSTANCES];
        let mut k = 0;
        let mut g = 0;
        while g < 8 {
            let mut s = 0;
            while s < shapes.len() {
                let base = shape_mask(&shapes[s]);
                assert!(base & !size.mask() == 0);
                let mask = preimage(Symmetry::ALL[g], base, size);
                let mut seen = false;
                let mut earlier = 0;
                while earlier < g {
                    if preimage(Symmetry::ALL[earlier], base, size) == mask {
                        seen = true;
                    }
                    earlier += 1;
                }
                if !seen {
                    reads[g][counts[g]] = (base, offsets[s] as u32);
                    counts[g] += 1;
                    order[k] = (g, s);
                    k += 1;
                }
                s += 1;
            }
            g += 1;
        }
        assert!(k == instances);
        Reads {
            reads,
            counts,
            order,
        }
    }
}

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

/// Base-3 index of the squares of `mask`, lowest square first.
#[inline]
pub(crate) fn pext_index(player: u64, opponent: u64, mask: u64) -> usize {
    TERNARY[pext(player, mask) as usize] as usize
        + 2 * TERNARY[pext(opponent, mask) as usize] as usize
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

/// The images of `bits` on the board of `P`, in [`Symmetry::ALL`] order.
#[inline(always)]
fn sized_images<P: PatternSet>(bits: u64) -> [u64; 8] {
    let images = images(bits);
    std::array::from_fn(|g| images[g] >> P::SHIFTS[g])
}

/// The reads on the `G`-th symmetric image of the board, given the image.
#[inline(always)]
fn read_image<P: PatternSet, const G: usize>(
    player: u64,
    opponent: u64,
    read: &mut impl FnMut(u32, usize),
) {
    let mut j = 0;
    while j < P::READS.counts[G] {
        let (mask, offset) = P::READS.reads[G][j];
        read(offset, pext_index(player, opponent, mask));
        j += 1;
    }
}

/// Calls `read(offset, index)` for each instance's read, in the order of
/// [`Reads::order`]: the shape's table offset and the index in the shape's
/// square order.
#[inline(always)]
fn for_each_read<P: PatternSet>(board: Board, mut read: impl FnMut(u32, usize)) {
    let (p, o) = (
        sized_images::<P>(board.player),
        sized_images::<P>(board.opponent),
    );
    read_image::<P, 0>(p[0], o[0], &mut read);
    read_image::<P, 1>(p[1], o[1], &mut read);
    read_image::<P, 2>(p[2], o[2], &mut read);
    read_image::<P, 3>(p[3], o[3], &mut read);
    read_image::<P, 4>(p[4], o[4], &mut read);
    read_image::<P, 5>(p[5], o[5], &mut read);
    read_image::<P, 6>(p[6], o[6], &mut read);
    read_image::<P, 7>(p[7], o[7], &mut read);
}

/// One instance: a symmetric image of a shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// Index into the set's shapes.
    pub shape: usize,
    /// The squares it covers.
    pub mask: u64,
    /// The symmetry the evaluation applies to the board to read this
    /// instance with the shape's own mask.
    pub symmetry: Symmetry,
}

/// Every instance of `P`, in the order the evaluation reads them: by
/// symmetry, then by shape.
pub fn instances<P: PatternSet>() -> Vec<Instance> {
    P::READS.order[..P::INSTANCES]
        .iter()
        .map(|&(g, shape)| Instance {
            shape,
            mask: preimage(Symmetry::ALL[g], shape_mask(&P::SHAPES[shape]), P::SIZE),
            symmetry: Symmetry::ALL[g],
        })
        .collect()
}

/// The caches of one pattern set: its canonical maps, its lookup order and
/// its built-in weights, each made once.
pub struct Cache<P: PatternSet> {
    maps: OnceLock<Vec<Vec<u32>>>,
    lookup_order: OnceLock<Vec<usize>>,
    built_in: OnceLock<LearnedWeights<P>>,
}

impl<P: PatternSet> Cache<P> {
    /// Empty caches, for a set's `static`.
    pub const fn new() -> Cache<P> {
        Cache {
            maps: OnceLock::new(),
            lookup_order: OnceLock::new(),
            built_in: OnceLock::new(),
        }
    }
}

impl<P: PatternSet> Default for Cache<P> {
    fn default() -> Self {
        Cache::new()
    }
}

/// For every shape of `P`, the shared index (offset excluded) of each index
/// read in the shape's square order (see [`canonical_map`]).
pub fn canonical_maps<P: PatternSet>() -> &'static [Vec<u32>] {
    P::cache().maps.get_or_init(|| {
        P::SHAPES
            .iter()
            .map(|shape| {
                canonical_map(shape.squares, |s, q| {
                    let square = Square::new(q).expect("shape squares are squares");
                    s.apply_square(square, P::SIZE).index() as u8
                })
            })
            .collect()
    })
}

/// Folds a table of `P`'s weights in rows of `width` values, blocks of
/// [`PatternSet::PHASE_WEIGHTS`] rows one after the other (a phase each, or
/// one block): every index of a shape takes its canonical index's row, so
/// that an evaluation reads the raw indices.
pub(crate) fn fold_rows<P: PatternSet>(table: &mut [i16], width: usize) {
    for base in (0..table.len()).step_by(P::PHASE_WEIGHTS * width) {
        for (map, &offset) in canonical_maps::<P>().iter().zip(&P::SHAPE_OFFSETS) {
            for (index, &canonical) in map.iter().enumerate() {
                let to = base + (offset + index) * width;
                let from = base + (offset + canonical as usize) * width;
                table.copy_within(from..from + width, to);
            }
        }
    }
}

/// The trained form of a table [`fold_rows`] folded, as the files hold it:
/// the scalar rows and each shape's canonical rows, zero elsewhere (no
/// index reads them).
pub(crate) fn canonical_rows<P: PatternSet>(folded: &[i16], width: usize) -> Vec<i16> {
    let mut table = vec![0; folded.len()];
    for base in (0..folded.len()).step_by(P::PHASE_WEIGHTS * width) {
        let scalars = base..base + SCALAR_COUNT * width;
        table[scalars.clone()].copy_from_slice(&folded[scalars]);
        for (map, &offset) in canonical_maps::<P>().iter().zip(&P::SHAPE_OFFSETS) {
            for &canonical in map {
                let row = base + (offset + canonical as usize) * width;
                table[row..row + width].copy_from_slice(&folded[row..row + width]);
            }
        }
    }
    table
}

/// The canonical map of one shape of `squares` (at most [`MAX_SQUARES`]),
/// whose square `q` a symmetry `s` sends to `image(s, q)`: for each index
/// read in the shape's square order, the smallest index among the
/// orderings that the symmetries mapping the shape onto itself give. This
/// folds the mirror images of a self-symmetric instance together.
pub fn canonical_map(squares: &[u8], image: impl Fn(Symmetry, u8) -> u8) -> Vec<u32> {
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

/// For each place in [`LearnedWeights::lookups`]' list, the read (in
/// [`Reads::order`]) it lists.
fn lookup_order<P: PatternSet>() -> &'static [usize] {
    P::cache().lookup_order.get_or_init(|| {
        let reads: Vec<usize> = (0..P::INSTANCES).collect();
        match P::LOOKUP_ORDER {
            LookupOrder::ByImage => reads,
            LookupOrder::ByShape => {
                let instances = instances::<P>();
                let mut order = Vec::new();
                for (shape, s) in P::SHAPES.iter().enumerate() {
                    for symmetry in Symmetry::ALL {
                        let mask = symmetry.apply_sized(shape_mask(s), P::SIZE);
                        let k = reads
                            .iter()
                            .position(|&k| instances[k].shape == shape && instances[k].mask == mask)
                            .expect("every image is an instance");
                        if !order.contains(&k) {
                            order.push(k);
                        }
                    }
                }
                order
            }
        }
    })
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

/// A full weight set of the pattern set `P`: [`PatternSet::PHASES`] vectors
/// of [`PatternSet::PHASE_WEIGHTS`] weights, folded: every index of a
/// shape's table holds the weight of its canonical index (training fits the
/// canonical ones only), so that the evaluation reads the raw indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnedWeights<P: PatternSet> {
    folded: Vec<i16>,
    set: PhantomData<P>,
}

impl<P: PatternSet> LearnedWeights<P> {
    /// The file layout of these weights ([`fitted`]): shapes, phases and
    /// weights per phase.
    const FILE_LAYOUT: fitted::Layout = fitted::Layout {
        kind: P::KIND,
        version: P::VERSION,
        fields: [
            P::SHAPE_COUNT as u32,
            P::PHASES as u32,
            P::PHASE_WEIGHTS as u32,
        ],
    };

    /// All weights zero.
    pub fn zero() -> Self {
        Self::from_shared(vec![0; P::PHASES * P::PHASE_WEIGHTS])
    }

    /// The weight set with these shared weights ([`PatternSet::PHASES`]
    /// times [`PatternSet::PHASE_WEIGHTS`]), folded: every index of a
    /// table holds the weight of its canonical index.
    pub fn from_shared(shared: Vec<i16>) -> Self {
        assert_eq!(shared.len(), P::PHASES * P::PHASE_WEIGHTS);
        let mut folded = shared;
        fold_rows::<P>(&mut folded, 1);
        LearnedWeights {
            folded,
            set: PhantomData,
        }
    }

    /// The built-in weights of `P`, decoded once.
    pub fn built_in() -> &'static Self {
        P::cache().built_in.get_or_init(|| {
            Self::decode(P::BUILT_IN).expect("the built-in pattern weights are well formed")
        })
    }

    /// The weights of `phase` (a canonical index reads its trained weight).
    #[inline]
    pub fn phase(&self, phase: usize) -> &[i16] {
        &self.folded[phase * P::PHASE_WEIGHTS..(phase + 1) * P::PHASE_WEIGHTS]
    }

    /// The shared-table indices (within a phase) that `board` looks up, one
    /// per instance, canonical: what training fits. Read order.
    pub fn shared_lookups(board: Board) -> [u32; MAX_INSTANCES] {
        let maps = canonical_maps::<P>();
        let mut out = [0u32; MAX_INSTANCES];
        let mut k = 0;
        for_each_read::<P>(board, |offset, index| {
            let shape = P::READS.order[k].1;
            out[k] = offset + maps[shape][index];
            k += 1;
        });
        out
    }

    /// Pushes the [`LearnedWeights::shared_lookups`] of `board` onto `out`,
    /// in the set's [`LookupOrder`].
    pub fn lookups(board: Board, out: &mut Vec<u32>) {
        let lookups = Self::shared_lookups(board);
        out.extend(lookup_order::<P>().iter().map(|&k| lookups[k]));
    }

    /// The evaluation of `board` in 1/[`WEIGHT_SCALE`] discs, unclamped.
    #[inline]
    pub fn raw(&self, board: Board) -> i32 {
        self.raw_with(board, P::mobilities(board), |w| {
            read_patterns::<P>(board, w)
        })
    }

    /// The bias and mobility terms of `board` (whose two mobilities are
    /// counted), plus what `patterns` sums from the phase's weights.
    #[inline]
    pub(crate) fn raw_with(
        &self,
        board: Board,
        (mine, theirs): (i32, i32),
        patterns: impl FnOnce(&[i16]) -> i32,
    ) -> i32 {
        let empties = P::empties(board);
        let start = P::phase(empties) * P::PHASE_WEIGHTS;
        let w = &self.folded[start..start + P::PHASE_WEIGHTS];
        let parity = (empties & 1) as i32 * P::ODD_EMPTIES_BONUS;
        parity + i32::from(w[0]) + i32::from(w[1]) * mine + i32::from(w[2]) * theirs + patterns(w)
    }

    /// The evaluation of `board` in discs for the side to move, within one
    /// disc of the board's squares, or exact when the game is over, with
    /// the patterns' weights summed by `patterns`.
    #[inline]
    pub(crate) fn evaluate_with(&self, board: Board, patterns: impl FnOnce(&[i16]) -> i32) -> i32 {
        // The mobilities both feed the sum and tell whether the game is over:
        // count them once.
        let mobility = P::mobilities(board);
        if mobility == (0, 0) {
            return board.final_score_on(P::SIZE);
        }
        to_discs(
            self.raw_with(board, mobility, patterns),
            P::SIZE.squares() as i32,
        )
    }

    /// The evaluation of `board` in discs for the side to move, within one
    /// disc of the board's squares, or exact when the game is over.
    #[inline]
    pub fn evaluate(&self, board: Board) -> i32 {
        self.evaluate_with(board, |w| read_patterns::<P>(board, w))
    }

    /// The file form ([`fitted`]): the trained weights, phase by phase (the
    /// canonical indices; zero elsewhere, as no index reads them), behind a
    /// header naming the set's kind, version and layout.
    pub fn encode(&self) -> Vec<u8> {
        let shared = canonical_rows::<P>(&self.folded, 1);
        fitted::encode(&Self::FILE_LAYOUT, &fitted::i16_runs(&shared))
    }

    /// Reads the form [`LearnedWeights::encode`] writes, refusing a file of
    /// another evaluation, version or layout, or whose checksum fails.
    pub fn decode(bytes: &[u8]) -> Result<Self, FittedError> {
        let body = fitted::decode(&Self::FILE_LAYOUT, bytes)?;
        fitted::read_i16_runs(body, P::PHASES * P::PHASE_WEIGHTS).map(Self::from_shared)
    }
}

/// The patterns' weights of `board` among a phase's weights `w`, read
/// from the board.
#[inline]
fn read_patterns<P: PatternSet>(board: Board, w: &[i16]) -> i32 {
    let mut sum = 0;
    for_each_read::<P>(board, |offset, index| {
        sum += i32::from(w[offset as usize + index]);
    });
    sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

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
}
