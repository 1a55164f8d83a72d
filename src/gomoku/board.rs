//! The gomoku board: a padded grid of cells, a line code per cell and
//! direction kept up to date move by move, a Zobrist key and the history.
//!
//! Unlike the Othello board this one is made and unmade (`place`/`undo`)
//! rather than copied: it holds 1,156 cells and their line codes, and a move
//! changes only the `4 x 2n` codes around it.

use crate::Color;
use crate::gomoku::pattern::{BLACK, EMPTY, Pattern, PatternTable, WALL, WHITE, stone};
use crate::gomoku::rules::{Config, ConfigError, MAX_N, MAX_SIDE, Rule};
use std::fmt;
use std::sync::Arc;

/// Wall cells around the board: at least the largest line radius.
pub const PAD: usize = MAX_N;
/// Cells per padded row (any board size uses the same layout).
pub const STRIDE: usize = MAX_SIDE + 2 * PAD;
/// Cells of the padded grid.
pub const CELLS: usize = STRIDE * STRIDE;
/// Length of the per-cell arrays: the padded grid rounded up to a power of
/// two, so that an index masked with [`SLOT_MASK`] needs no bounds check
/// (the cells past the grid are walls, never read as board cells).
/// callgrind, `bench --game gomoku --depth 6`, with `set_in_codes`'s log
/// chosen at compile time: 37.32 G -> 31.93 G instructions.
const SLOTS: usize = CELLS.next_power_of_two();
/// Masks an index into the per-cell arrays; a no-op on every index of the
/// grid and of the line cells around a board cell (the walls are as wide
/// as the largest line radius).
const SLOT_MASK: usize = SLOTS - 1;
/// Words of the `near_empty` bit set (one spare, so that five bits
/// written at any cell fit in two words).
const NEAR_WORDS: usize = CELLS.div_ceil(64) + 1;
/// The four line directions as index steps: horizontal, vertical and the
/// two diagonals.
pub const DIRECTIONS: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];

/// A point of the board, `x` the column, `y` the row, both from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    pub x: usize,
    pub y: usize,
}

impl Point {
    pub const fn new(x: usize, y: usize) -> Point {
        Point { x, y }
    }

    /// The padded index of the point.
    pub const fn index(self) -> usize {
        (self.y + PAD) * STRIDE + self.x + PAD
    }

    /// The point of a padded index.
    pub const fn from_index(index: usize) -> Point {
        Point {
            x: index % STRIDE - PAD,
            y: index / STRIDE - PAD,
        }
    }
}

impl fmt::Display for Point {
    /// Gomocup notation: `x,y`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    OffBoard(Point),
    Occupied(Point),
    /// The game is over already.
    GameOver,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::OffBoard(p) => write!(f, "{p} is off the board"),
            PlayError::Occupied(p) => write!(f, "{p} is occupied"),
            PlayError::GameOver => write!(f, "the game is over"),
        }
    }
}

impl std::error::Error for PlayError {}

/// How a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Ongoing,
    /// The colour made a winning row (or, under renju, White wins because
    /// Black played a forbidden point).
    Won(Color),
    /// The board is full.
    Draw,
}

/// Random keys of each cell and colour, the same every run (splitmix64),
/// made at compile time and as long as the per-cell arrays, so that a
/// key costs neither the check of a lazy initialisation nor a bounds
/// check (callgrind, `bench --game gomoku --depth 6`: 27.97 G -> 27.71 G
/// instructions).
static ZOBRIST: [[u64; 2]; SLOTS] = {
    let mut keys = [[0; 2]; SLOTS];
    let mut state = 0x0123_4567_89ab_cdefu64;
    let mut i = 0;
    while i < 2 * SLOTS {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        keys[i / 2][i % 2] = z ^ (z >> 31);
        i += 1;
    }
    keys
};

/// The key of a stone of `color` at `index`.
#[inline]
fn zobrist(index: usize, color: Color) -> u64 {
    ZOBRIST[index & SLOT_MASK][color as usize]
}

/// Key of the side to move being White.
const WHITE_TO_MOVE: u64 = 0x5bd1_e995_2f6a_3c1d;

/// Bits of what a colour makes by playing a cell ([`Board::threats`]).
pub struct Threats;

impl Threats {
    /// A five along some line.
    pub const FIVE: u8 = 1;
    /// A four (one or two five points) along some line.
    pub const FOUR: u8 = 2;
    /// An open four ([`Pattern::Flex4`]) along some line.
    pub const FLEX4: u8 = 4;
    /// An open three ([`Pattern::Flex3`]) along some line.
    pub const FLEX3: u8 = 8;

    const fn of(pattern: Pattern) -> u8 {
        match pattern {
            Pattern::Five => Threats::FIVE,
            Pattern::Flex4 => Threats::FOUR | Threats::FLEX4,
            Pattern::Block4 | Pattern::DoubleFour => Threats::FOUR,
            Pattern::Flex3 => Threats::FLEX3,
            _ => 0,
        }
    }
}

/// [`Threats`] of both colours for each byte of packed patterns (Black's
/// in the low nibble).
static PACKED_THREATS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut packed = 0;
    while packed < 256 {
        let black = Pattern::of_packed(packed as u8, true);
        let white = Pattern::of_packed(packed as u8, false);
        table[packed] = Threats::of(black) | Threats::of(white) << 4;
        packed += 1;
    }
    table
};

/// What placing a stone overwrote: its own threat flags, then the
/// pattern and flags of each cell on its lines, in the order
/// [`Board::set_in_codes`] visits them.
type UndoRecord = [u8; UNDO_RECORD_BYTES];

/// Bytes of an [`UndoRecord`]: the stone's flags, then two bytes for each
/// cell on its lines (four directions, both sides, the largest radius).
const UNDO_RECORD_BYTES: usize = 1 + 2 * 4 * 2 * MAX_N;

/// The eight bytes of `bytes` from `at`.
#[inline]
fn word_at(bytes: &[u8], at: usize) -> [u8; 8] {
    let mut word = [0; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    word
}

/// The near empty cells whose flag bytes have a bit of `mask`, from `at`
/// to `end`, found eight bytes at a time ([`Board::flagged_cells`]).
pub struct FlaggedCells<'a> {
    flags: &'a [u8],
    near_empty: &'a [u64; NEAR_WORDS],
    /// Whether only near empty cells are listed.
    near_filter: bool,
    at: usize,
    end: usize,
    mask: u64,
    /// First cell of the word in `bits`.
    base: usize,
    bits: u64,
}

impl Iterator for FlaggedCells<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        loop {
            while self.bits == 0 {
                if self.at >= self.end {
                    return None;
                }
                self.base = self.at;
                self.bits = u64::from_le_bytes(word_at(self.flags, self.at)) & self.mask;
                self.at += 8;
            }
            let cell = self.base + self.bits.trailing_zeros() as usize / 8;
            self.bits &= self.bits - 1;
            // Flags far from every stone (n = 3 has open threes there) are
            // not listed.
            if !self.near_filter || self.near_empty[cell / 64] >> (cell % 64) & 1 != 0 {
                return Some(cell);
            }
        }
    }
}

/// A gomoku position with its history.
#[derive(Clone)]
pub struct Board {
    config: Config,
    cells: Box<[u8; SLOTS]>,
    /// Per empty cell and direction: the `2R` cells around, 2 bits each.
    /// An occupied cell keeps the codes it had when its stone was placed:
    /// every stone placed after it is taken back before it is (an undo
    /// finds them right again), and a `remove` out of order recomputes
    /// them. callgrind, `scripts/gomoku-profile.sh` (20 middle-game
    /// positions, 30,000 nodes each), against keeping every cell's codes:
    /// 9.99 G -> 9.17 G instructions (the same searches).
    codes: Box<[[u32; 4]; SLOTS]>,
    /// Per empty cell and direction: the patterns of playing it, as
    /// [`PatternTable::packed`] gives them for its code. Kept up to date
    /// for empty cells only (an occupied cell keeps those it had when its
    /// stone was placed: an undo finds them right again, and a `remove`
    /// recomputes them), so that
    /// a pattern costs one read of this array and not one of the table,
    /// whose 2 MiB miss the cache.
    pats: Box<[[u8; 4]; SLOTS]>,
    /// Per cell: its [`Threats`] for Black (low nibble) and White (high
    /// nibble) from `pats`; zero on an occupied cell. A threat scan reads
    /// one byte per cell.
    flags: Box<[u8; SLOTS]>,
    /// Per cell: stones within two cells (king distance).
    near: Vec<u8>,
    /// One bit per cell (padded index): empty and near a stone. The move
    /// and threat scans walk these bits, not every point: on 20x20 the
    /// scan of all 400 points for fours was 15% of a search.
    near_empty: [u64; NEAR_WORDS],
    /// Board cells (padded indices) in row order.
    points: Vec<usize>,
    history: Vec<usize>,
    /// What each of the last stones placed overwrote, one record for each
    /// of the top `logged` stones of `history` (a [`Board::remove`] out of
    /// order sets `logged` to 0, and undo then recomputes the older
    /// stones' cells): the patterns and threat flags of the cells on its
    /// lines (and its own flags), so that [`Board::undo`] restores them
    /// without reading the pattern table. Measured on 8 middle-game
    /// positions searched to depth 6 (2,300,035 nodes either way), with the
    /// byte-wise [`Board::touch_near`]: 7.49-7.52 s before, 7.29-7.30 s
    /// with the log alone.
    undo_log: Vec<UndoRecord>,
    /// Records of `undo_log` in use (the top of the stack); those above are
    /// kept to be written over, so that a `place` neither zeroes nor copies
    /// a record: callgrind, `bench --game gomoku --depth 6`, 28.96 G ->
    /// 28.49 G instructions (a record pushed and popped: zeroed, then
    /// copied).
    logged: usize,
    stones: [usize; 2],
    /// Stones placed by [`Board::place_unneared`] still standing: the last
    /// ones of `history`.
    unneared: usize,
    hash: u64,
    table: Arc<PatternTable>,
    to_move: Color,
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.diagram())
    }
}

impl Board {
    /// An empty board of `config` (checked).
    pub fn new(config: Config) -> Result<Board, ConfigError> {
        let config = config.validate()?;
        let mut cells = Box::new([WALL; SLOTS]);
        let mut points = Vec::with_capacity(config.width * config.height);
        for y in 0..config.height {
            for x in 0..config.width {
                let index = Point::new(x, y).index();
                cells[index] = EMPTY;
                points.push(index);
            }
        }
        let table = PatternTable::shared(config.n, config.rule);
        let mut board = Board {
            config,
            cells,
            codes: Box::new([[0; 4]; SLOTS]),
            pats: Box::new([[0; 4]; SLOTS]),
            flags: Box::new([0; SLOTS]),
            near: vec![0; CELLS],
            near_empty: [0; NEAR_WORDS],
            points,
            history: Vec::new(),
            undo_log: Vec::new(),
            logged: 0,
            stones: [0, 0],
            unneared: 0,
            hash: 0,
            table,
            to_move: Color::Black,
        };
        board.init_codes();
        Ok(board)
    }

    fn init_codes(&mut self) {
        for at in 0..self.points.len() {
            let index = self.points[at];
            self.compute_codes(index);
            self.refresh_cell(index);
        }
    }

    /// Computes the line codes of `index` from the cells around it.
    fn compute_codes(&mut self, index: usize) {
        let r = self.radius() as isize;
        for (d, &step) in DIRECTIONS.iter().enumerate() {
            let mut code = 0u32;
            for k in 1..=r {
                let before = self.cells[(index as isize - k * step) as usize];
                let after = self.cells[(index as isize + k * step) as usize];
                code |= u32::from(before) << (2 * (r - k));
                code |= u32::from(after) << (2 * (r + k - 1));
            }
            self.codes[index][d] = code;
        }
    }

    /// Recomputes the patterns and threat flags of the empty `index` from
    /// its line codes.
    fn refresh_cell(&mut self, index: usize) {
        for d in 0..4 {
            self.pats[index][d] = self.table.packed(self.codes[index][d]);
        }
        self.refresh_flags(index);
    }

    /// Recomputes the threat flags of the empty `index` from its patterns.
    #[inline]
    fn refresh_flags(&mut self, index: usize) {
        let index = index & SLOT_MASK;
        let [a, b, c, d] = self.pats[index];
        self.flags[index] = PACKED_THREATS[usize::from(a)]
            | PACKED_THREATS[usize::from(b)]
            | PACKED_THREATS[usize::from(c)]
            | PACKED_THREATS[usize::from(d)];
    }

    /// What `color` makes by playing the empty `index`, over its four
    /// lines ([`Threats`] bits); none on an occupied cell.
    #[inline]
    pub fn threats(&self, index: usize, color: Color) -> u8 {
        match color {
            Color::Black => self.flags[index] & 0xf,
            Color::White => self.flags[index] >> 4,
        }
    }

    pub fn config(&self) -> Config {
        self.config
    }
    pub fn width(&self) -> usize {
        self.config.width
    }
    pub fn height(&self) -> usize {
        self.config.height
    }
    pub fn n(&self) -> usize {
        self.config.n
    }
    pub fn rule(&self) -> Rule {
        self.config.rule
    }
    /// Cells on each side of a cell in its line codes
    /// ([`PatternTable::radius`]): `n`, or `n - 1` under freestyle.
    pub fn radius(&self) -> usize {
        self.table.radius()
    }

    /// The colour to move: Black when both have as many stones.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Makes `color` the side to move (the key follows).
    pub fn set_to_move(&mut self, color: Color) {
        if self.to_move != color {
            self.to_move = color;
            self.hash ^= WHITE_TO_MOVE;
        }
    }

    /// The Zobrist key (stones and side to move).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Moves played, oldest first (padded indices).
    pub fn history(&self) -> &[usize] {
        &self.history
    }

    /// The last move played.
    pub fn last_move(&self) -> Option<usize> {
        self.history.last().copied()
    }

    /// Stones on the board.
    pub fn stone_count(&self) -> usize {
        self.stones[0] + self.stones[1]
    }

    /// Whether every cell is taken.
    pub fn is_full(&self) -> bool {
        self.stone_count() == self.points.len()
    }

    /// The padded indices of the board's cells, row by row.
    pub fn points(&self) -> &[usize] {
        &self.points
    }

    /// Whether `p` is on the board.
    pub fn contains(&self, p: Point) -> bool {
        p.x < self.width() && p.y < self.height()
    }

    /// The stone at a padded index (`None` for empty or wall).
    pub fn stone_at(&self, index: usize) -> Option<Color> {
        match self.cells[index] {
            BLACK => Some(Color::Black),
            WHITE => Some(Color::White),
            _ => None,
        }
    }

    /// The stone at a point of the board.
    pub fn get(&self, p: Point) -> Option<Color> {
        if self.contains(p) {
            self.stone_at(p.index())
        } else {
            None
        }
    }

    /// Whether the padded index is an empty board cell.
    #[inline]
    pub fn is_empty(&self, index: usize) -> bool {
        self.cells[index] == EMPTY
    }

    /// Whether an empty cell has a stone within two cells.
    #[inline]
    pub fn is_near(&self, index: usize) -> bool {
        self.near[index] > 0
    }

    /// The raw cell (`EMPTY`, `BLACK`, `WHITE`, `WALL`).
    #[inline]
    pub fn cell(&self, index: usize) -> u8 {
        self.cells[index]
    }

    /// The line code of an empty cell in direction `d`.
    #[inline]
    pub fn code(&self, index: usize, d: usize) -> u32 {
        debug_assert_eq!(self.cells[index], EMPTY);
        self.codes[index][d]
    }

    /// What `color` makes along direction `d` by playing the empty `index`.
    #[inline]
    pub fn pattern(&self, index: usize, d: usize, color: Color) -> Pattern {
        debug_assert_eq!(self.cells[index], EMPTY);
        Pattern::of_packed(self.pats[index][d], color == Color::Black)
    }

    /// What the stone of `color` at `index` made along direction `d` when
    /// it was placed: an occupied cell's patterns stay as they were while
    /// its stone stands (only empty cells are refreshed).
    #[inline]
    pub fn made(&self, index: usize, d: usize, color: Color) -> Pattern {
        debug_assert_eq!(self.stone_at(index), Some(color));
        Pattern::of_packed(self.pats[index][d], color == Color::Black)
    }

    /// What `color` would make along direction `d` by playing the empty
    /// `index` if the empty cell `k` steps away along `d` (`k` nonzero, at
    /// most the line radius either way) held a stone of `holder`: the
    /// code with that cell's two bits replaced, without placing anything.
    #[inline]
    pub fn pattern_with(
        &self,
        index: usize,
        d: usize,
        k: isize,
        holder: Color,
        color: Color,
    ) -> Pattern {
        let r = self.radius() as isize;
        debug_assert!(k != 0 && k.abs() <= r);
        let shift = if k < 0 { 2 * (r + k) } else { 2 * (r + k - 1) };
        let code = self.codes[index][d];
        let code = (code & !(3 << shift)) | (u32::from(stone(holder)) << shift);
        Pattern::of_packed(self.table.packed(code), color == Color::Black)
    }

    /// The four patterns of `color` playing the empty `index`.
    #[inline]
    pub fn patterns(&self, index: usize, color: Color) -> [Pattern; 4] {
        debug_assert_eq!(self.cells[index], EMPTY);
        let pats = self.pats[index];
        let black = color == Color::Black;
        [0, 1, 2, 3].map(|d| Pattern::of_packed(pats[d], black))
    }

    /// The packed patterns of both colours playing the empty `index`, one
    /// byte per direction ([`PatternTable::packed`]).
    #[inline]
    pub fn packed_patterns(&self, index: usize) -> [u8; 4] {
        debug_assert_eq!(self.cells[index], EMPTY);
        self.pats[index]
    }

    /// Whether `color` wins by playing the empty `index`.
    #[inline]
    pub fn makes_five(&self, index: usize, color: Color) -> bool {
        self.threats(index, color) & Threats::FIVE != 0
    }

    /// Puts a stone of the side to move on an empty cell (no checks beyond
    /// debug assertions). Undo with [`Board::undo`].
    pub fn place(&mut self, index: usize) {
        debug_assert_eq!(self.unneared, 0, "a stone placed over unneared ones");
        self.place_with::<true>(index);
    }

    /// [`Board::place`] without counting the stone in the near counts and
    /// the near-empty bits, for the VCF: its scans ask only for fives and
    /// fours ([`Board::flagged_cells`] without the near filter), and every
    /// cell where a side makes one lies within two cells of a stone of its
    /// own, so that no answer changes. Take back with
    /// [`Board::undo_unneared`], before any [`Board::place`] or
    /// [`Board::undo`]. Without the near counts' updates the node VCFs'
    /// stones cost less: callgrind, `scripts/gomoku-profile.sh` (20
    /// middle-game positions, 30,000 nodes each), 9.25 G -> 8.54 G
    /// instructions (the same searches).
    pub fn place_unneared(&mut self, index: usize) {
        self.place_with::<false>(index);
        self.unneared += 1;
    }

    /// Takes back the last stone, placed by [`Board::place_unneared`].
    pub fn undo_unneared(&mut self) {
        debug_assert!(self.unneared > 0);
        self.unneared -= 1;
        self.undo_with::<false>();
    }

    /// A copy to place stones on with [`Board::place`] even while this
    /// board has unneared stones (renju's forbidden-point check, inside a
    /// VCF): the copy counts none, and its near bits leave out those
    /// stones' surroundings, which a check of patterns never reads.
    pub fn trial_copy(&self) -> Board {
        let mut copy = self.clone();
        copy.unneared = 0;
        copy
    }

    fn place_with<const NEAR: bool>(&mut self, index: usize) {
        let color = self.to_move;
        debug_assert_eq!(self.cells[index], EMPTY);
        let value = stone(color);
        if self.logged == self.undo_log.len() {
            self.undo_log.push([0; UNDO_RECORD_BYTES]);
        }
        // Out of `self` while `set_in_codes` writes it (a pointer swap).
        let mut log = std::mem::take(&mut self.undo_log);
        let record = &mut log[self.logged];
        record[0] = self.flags[index];
        self.cells[index] = value;
        self.flags[index] = 0;
        self.set_in_codes::<true>(index, value, record);
        self.undo_log = log;
        self.logged += 1;
        if NEAR {
            self.touch_near(index, 1);
        }
        self.hash ^= zobrist(index, color) ^ WHITE_TO_MOVE;
        self.stones[color as usize] += 1;
        self.history.push(index);
        self.to_move = color.opponent();
    }

    /// Takes back the last stone placed. Returns its index.
    pub fn undo(&mut self) -> Option<usize> {
        debug_assert_eq!(self.unneared, 0, "undo over unneared stones");
        self.undo_with::<true>()
    }

    fn undo_with<const NEAR: bool>(&mut self) -> Option<usize> {
        let index = self.history.pop()?;
        if self.logged == 0 {
            debug_assert!(NEAR, "unneared stones are logged");
            self.lift(index);
        } else {
            self.logged -= 1;
            let log = std::mem::take(&mut self.undo_log);
            self.lift_logged::<NEAR>(index, &log[self.logged]);
            self.undo_log = log;
        }
        Some(index)
    }

    /// Removes the stone at `index` (any stone, for Gomocup's `TAKEBACK`);
    /// the side to move becomes that stone's colour.
    pub fn remove(&mut self, index: usize) {
        if self.stone_at(index).is_none() {
            return;
        }
        if let Some(at) = self.history.iter().rposition(|&h| h == index) {
            self.history.remove(at);
        }
        self.logged = 0;
        self.lift(index);
        self.rehash();
    }

    /// Lifts the stone at `index`, recomputing the patterns of the cells on
    /// its lines and its own codes and patterns (stones placed after it may
    /// still stand).
    fn lift(&mut self, index: usize) {
        let Some(color) = self.stone_at(index) else {
            return;
        };
        self.cells[index] = EMPTY;
        self.set_in_codes::<false>(index, EMPTY, &mut [0; UNDO_RECORD_BYTES]);
        self.compute_codes(index);
        self.refresh_cell(index);
        self.touch_near(index, -1);
        self.take_off(index, color);
    }

    /// Lifts the last stone placed, at `index`, restoring from its `record`
    /// what its placing overwrote.
    fn lift_logged<const NEAR: bool>(&mut self, index: usize, record: &UndoRecord) {
        let Some(color) = self.stone_at(index) else {
            return;
        };
        self.cells[index] = EMPTY;
        self.unset_in_codes(index, record);
        // The stone's own patterns were left as they were while it stood
        // (only empty cells are refreshed), and its lines are back as they
        // were when it was placed: they are still right.
        if NEAR {
            self.touch_near(index, -1);
        }
        self.take_off(index, color);
    }

    /// What lifting a stone of `color` at `index` changes besides the line
    /// codes and the near counts: the key, the stone count and the side to
    /// move (which becomes `color`; the key's side bit follows it, even
    /// after a [`Board::set_to_move`]).
    fn take_off(&mut self, index: usize, color: Color) {
        self.hash ^= zobrist(index, color);
        if self.to_move != color {
            self.hash ^= WHITE_TO_MOVE;
        }
        self.stones[color as usize] -= 1;
        self.to_move = color;
    }

    /// Writes `value` as the cell `index` in the line codes of the cells
    /// around it (the two bits of `index` in each code, empty before, take
    /// `value`; or are emptied when `value` is [`EMPTY`]), and saves what it
    /// overwrites in `record` if `LOG` (a branch of its own, not an `Option`
    /// looked at for each cell). The line radius is a constant in each
    /// copy, so that the loops unroll with constant shifts: callgrind,
    /// `bench --game gomoku --depth 6`, 31.92 G -> 28.96 G instructions
    /// (the radius read at run time); the place's bits set with an `or`
    /// rather than masked in, 28.49 G -> 27.97 G.
    fn set_in_codes<const LOG: bool>(&mut self, index: usize, value: u8, record: &mut UndoRecord) {
        match self.radius() {
            2 => self.set_in_codes_of::<LOG, 2>(index, value, record),
            3 => self.set_in_codes_of::<LOG, 3>(index, value, record),
            4 => self.set_in_codes_of::<LOG, 4>(index, value, record),
            5 => self.set_in_codes_of::<LOG, 5>(index, value, record),
            _ => self.set_in_codes_of::<LOG, 6>(index, value, record),
        }
    }

    /// [`Board::set_in_codes`] for the line radius `R`.
    #[inline(always)]
    fn set_in_codes_of<const LOG: bool, const R: isize>(
        &mut self,
        index: usize,
        value: u8,
        record: &mut UndoRecord,
    ) {
        // The same loop as `unset_in_codes_of`. Written out in both: as a
        // shared iterator of nested `flat_map`s the search ran at half the
        // speed, through a shared closure 11% slower, and over a shared
        // array of the cells 10% slower.
        let value = u32::from(value);
        let mut saved = 1;
        for (d, &step) in DIRECTIONS.iter().enumerate() {
            // `1..R + 1`, not `1..=R`: callgrind (as above) 27.71 G -> 27.12 G
            // instructions here, while the same in `unset_in_codes_of` went
            // the other way (27.72 G with both).
            for k in 1..R + 1 {
                let after = (index as isize + k * step) as usize;
                let before = (index as isize - k * step) as usize;
                for (at, shift) in [(after, 2 * (R - k)), (before, 2 * (R + k - 1))] {
                    let at = at & SLOT_MASK;
                    // Only empty cells keep codes (see `codes`); a cell's
                    // record bytes are its own, used or not.
                    if self.cells[at] == EMPTY {
                        if LOG {
                            record[saved] = self.pats[at][d];
                            record[saved + 1] = self.flags[at];
                        }
                        let code = &mut self.codes[at][d];
                        if LOG {
                            // A stone placed: the cell was empty, its bits 0.
                            *code |= value << shift;
                        } else {
                            *code = (*code & !(3 << shift)) | (value << shift);
                        }
                        let code = *code;
                        self.pats[at][d] = self.table.packed(code);
                        self.refresh_flags(at);
                    }
                    saved += 2;
                }
            }
        }
    }

    /// Undoes [`Board::place`] at `index` on its lines from its `record`:
    /// the cell is empty again in its neighbours' codes, and their
    /// patterns and flags come back without reading the pattern table
    /// (each cell lies on one line through `index`, so each was saved
    /// once). Then the stone's own flags.
    fn unset_in_codes(&mut self, index: usize, record: &UndoRecord) {
        match self.radius() {
            2 => self.unset_in_codes_of::<2>(index, record),
            3 => self.unset_in_codes_of::<3>(index, record),
            4 => self.unset_in_codes_of::<4>(index, record),
            5 => self.unset_in_codes_of::<5>(index, record),
            _ => self.unset_in_codes_of::<6>(index, record),
        }
        self.flags[index] = record[0];
    }

    /// [`Board::unset_in_codes`] on the lines, for the line radius `R`.
    #[inline(always)]
    fn unset_in_codes_of<const R: isize>(&mut self, index: usize, record: &UndoRecord) {
        let mut saved = 1;
        for (d, &step) in DIRECTIONS.iter().enumerate() {
            for k in 1..=R {
                let after = (index as isize + k * step) as usize;
                let before = (index as isize - k * step) as usize;
                for (at, shift) in [(after, 2 * (R - k)), (before, 2 * (R + k - 1))] {
                    let at = at & SLOT_MASK;
                    // The cells empty now were empty when the stone was
                    // placed, and only they were written.
                    if self.cells[at] == EMPTY {
                        self.codes[at][d] &= !(3 << shift);
                        self.pats[at][d] = record[saved];
                        self.flags[at] = record[saved + 1];
                    }
                    saved += 2;
                }
            }
        }
    }

    /// Counts a stone placed (`delta` 1) or lifted (-1) at `index` in the
    /// `near` counts around it, and refreshes their `near_empty` bits (the
    /// cell `index` included: its own state has just changed). Five cells
    /// a row as bytes of a word, without a branch per cell: depth 6 on 8
    /// middle-game positions took 6.60-6.64 s with it and the undo log,
    /// against 7.29-7.30 s with the log alone.
    fn touch_near(&mut self, index: usize, delta: i8) {
        // Five cells of a row at a time, as bytes of a word: counts are at
        // most 25 and cells below 4, and a count is only lowered where a
        // stone counted, so no byte carries or borrows from the next.
        const ROW: u64 = 0x0000_0001_0101_0101;
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        for dy in -2isize..=2 {
            let at = (index as isize + dy * STRIDE as isize - 2) as usize;
            let near = u64::from_le_bytes(word_at(&self.near, at));
            let near = if delta > 0 { near + ROW } else { near - ROW };
            self.near[at..at + 8].copy_from_slice(&near.to_le_bytes());
            let cells = u64::from_le_bytes(word_at(&self.cells[..], at));
            let near_some = (near + LOW7) & HIGH;
            let cell_empty = !(cells + LOW7) & HIGH;
            let flags = (near_some & cell_empty & ROW << 7) >> 7;
            // The five flags, one per byte, gathered into bits 0-4.
            let bits = flags.wrapping_mul(0x0102_0408_1020_4080) >> 56;
            let (word, shift) = (at / 64, at % 64);
            let low = &mut self.near_empty[word];
            *low = *low & !(0x1f << shift) | bits << shift;
            // Two words as one `u128` cost more: callgrind, `bench --game
            // gomoku --depth 6`, 27.12 G -> 26.69 G instructions with these
            // `u64`s.
            if shift > 64 - 5 {
                // The row's last cells are in the next word.
                let high = &mut self.near_empty[word + 1];
                *high = *high & !(0x1f >> (64 - shift)) | bits >> (64 - shift);
            }
        }
    }

    /// The near empty cells whose [`Threats`] for `color` include `bit`, in
    /// row order: the flag bytes from the first near empty cell to the
    /// last, read eight at a time (occupied cells and walls have none).
    /// Walking the near empty cells' bits and reading each one's flags
    /// instead, depth 8 on 8 middle-game positions took 8.31-8.33 s
    /// against 7.91-7.99 s (2,776,949 nodes either way); keeping a bit set
    /// of the four and five cells up to date in `place` and `undo`, 8.76
    /// and 8.95 s.
    pub fn flagged_cells(&self, color: Color, bit: u8) -> FlaggedCells<'_> {
        let bit = match color {
            Color::Black => bit,
            Color::White => bit << 4,
        };
        let words = &self.near_empty;
        let first = words.iter().position(|&w| w != 0);
        let (at, end) = match (first, words.iter().rposition(|&w| w != 0)) {
            (Some(first), Some(last)) => (
                first * 64 + words[first].trailing_zeros() as usize,
                last * 64 + 64 - words[last].leading_zeros() as usize,
            ),
            _ => (0, 0),
        };
        // Unneared stones are not in the near-empty bits: the scan reaches
        // two rows past them and reads no bits (the fives and fours they
        // make lie within two cells of them).
        let near_filter = self.unneared == 0;
        let (at, end) = if near_filter {
            (at, end)
        } else {
            debug_assert_eq!(bit & ((Threats::FLEX3 | Threats::FLEX4) * 0x11), 0);
            let unneared = &self.history[self.history.len() - self.unneared..];
            let lo = unneared.iter().copied().min().unwrap_or(at);
            let hi = unneared.iter().copied().max().unwrap_or(end);
            let reach = 2 * STRIDE + 2;
            (at.min(lo - reach), end.max(hi + reach + 1))
        };
        FlaggedCells {
            flags: &self.flags[..],
            near_empty: &self.near_empty,
            near_filter,
            at,
            end,
            mask: u64::from(bit) * 0x0101_0101_0101_0101,
            base: 0,
            bits: 0,
        }
    }

    /// Appends the empty cells within two cells of a stone to `out`, in
    /// row order (the order of [`Board::points`]), in a plain loop over
    /// the bits: the move generator's list. Through `extend` with an
    /// iterator over the bits, depth 8 on 8 middle-game positions took
    /// 8.03-8.28 s against 7.92-7.97 s (2,776,949 nodes either way).
    pub fn push_near_empty_cells(&self, out: &mut Vec<usize>) {
        for (word, &bits) in self.near_empty.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                out.push(word * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
    }

    /// The empty cells within two cells of a stone, in row order.
    pub fn near_empty_cells(&self) -> Vec<usize> {
        let mut cells = Vec::new();
        self.push_near_empty_cells(&mut cells);
        cells
    }

    /// Plays `p` for the side to move, checked. Returns the status after it.
    /// Under renju a forbidden move by Black is played and loses.
    pub fn play(&mut self, p: Point) -> Result<Status, PlayError> {
        if !self.contains(p) {
            return Err(PlayError::OffBoard(p));
        }
        let index = p.index();
        if !self.is_empty(index) {
            return Err(PlayError::Occupied(p));
        }
        if self.status() != Status::Ongoing {
            return Err(PlayError::GameOver);
        }
        Ok(self.play_index(index))
    }

    /// Plays an empty cell and returns the status (unchecked beyond debug).
    pub fn play_index(&mut self, index: usize) -> Status {
        let color = self.to_move;
        let five = self.makes_five(index, color);
        let forbidden = !five && self.is_forbidden(index);
        self.place(index);
        if five {
            Status::Won(color)
        } else if forbidden {
            Status::Won(Color::White)
        } else if self.is_full() {
            Status::Draw
        } else {
            Status::Ongoing
        }
    }

    /// Places stones in any order, e.g. from Gomocup's `BOARD`: `own` and
    /// `other` of the side that will move next. Colours follow the counts:
    /// the side with fewer stones (Black on a tie) is to move. Under renju
    /// the order of `moves` is kept as the move order.
    pub fn set_stones(&mut self, moves: &[(Point, bool)]) -> Result<(), PlayError> {
        let own = moves.iter().filter(|(_, mine)| *mine).count();
        let other = moves.len() - own;
        // The side to move has as many stones as the other (Black) or one
        // fewer (White).
        let me = if own == other {
            Color::Black
        } else {
            Color::White
        };
        let mut blacks = Vec::new();
        let mut whites = Vec::new();
        for &(p, mine) in moves {
            if !self.contains(p) {
                return Err(PlayError::OffBoard(p));
            }
            if mine == (me == Color::Black) {
                blacks.push(p);
            } else {
                whites.push(p);
            }
        }
        blacks.reverse();
        whites.reverse();
        // Alternate as far as the stones allow, then place the rest.
        loop {
            let (next, color) = match (blacks.is_empty(), whites.is_empty()) {
                (true, true) => break,
                (false, true) => (blacks.pop(), Color::Black),
                (true, false) => (whites.pop(), Color::White),
                (false, false) if self.to_move == Color::Black => (blacks.pop(), Color::Black),
                (false, false) => (whites.pop(), Color::White),
            };
            let Some(p) = next else { break };
            let index = p.index();
            if !self.is_empty(index) {
                return Err(PlayError::Occupied(p));
            }
            self.to_move = color;
            self.place(index);
        }
        self.to_move = me;
        self.rehash();
        Ok(())
    }

    fn rehash(&mut self) {
        let mut hash = 0;
        for &index in &self.points {
            if let Some(color) = self.stone_at(index) {
                hash ^= zobrist(index, color);
            }
        }
        if self.to_move == Color::White {
            hash ^= WHITE_TO_MOVE;
        }
        self.hash = hash;
    }

    /// Whether the row through the stone at `index` wins for its colour.
    pub fn wins_through(&self, index: usize) -> bool {
        let Some(color) = self.stone_at(index) else {
            return false;
        };
        let line_rule = self.rule().line_rule(color);
        let r = self.radius() as isize;
        let n = self.n();
        DIRECTIONS.iter().any(|&step| {
            let line: Vec<u8> = (-r..=r)
                .map(|k| self.cells[(index as isize + k * step) as usize])
                .collect();
            crate::gomoku::pattern::wins(&line, r as usize, stone(color), n, line_rule, &[])
        })
    }

    /// How the game stands, judged from the last move.
    pub fn status(&self) -> Status {
        if let Some(last) = self.last_move()
            && let Some(color) = self.stone_at(last)
        {
            if self.wins_through(last) {
                return Status::Won(color);
            }
            if color == Color::Black && self.rule() == Rule::Renju {
                let mut copy = self.clone();
                copy.remove(last);
                copy.to_move = Color::Black;
                if copy.is_forbidden(last) {
                    return Status::Won(Color::White);
                }
            }
        }
        if self.is_full() {
            Status::Draw
        } else {
            Status::Ongoing
        }
    }

    /// The board as text: `x` Black, `o` White, `.` empty, columns
    /// lettered from `a`, rows numbered from 1 at the top.
    pub fn diagram(&self) -> String {
        let mut text = String::from("   ");
        for x in 0..self.width() {
            text.push(' ');
            text.push((b'a' + x as u8) as char);
        }
        text.push('\n');
        for y in 0..self.height() {
            text.push_str(&format!("{:>3}", y + 1));
            for x in 0..self.width() {
                text.push(' ');
                text.push(match self.get(Point::new(x, y)) {
                    Some(Color::Black) => 'x',
                    Some(Color::White) => 'o',
                    None => '.',
                });
            }
            text.push('\n');
        }
        text
    }
}
