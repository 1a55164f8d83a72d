//! Stable discs: discs that no sequence of moves can ever flip.
//!
//! The solver bounds a score by the opponent's stable discs at every node
//! from a few empties up (see [`crate::search::params::STABILITY_CUTOFF_EMPTIES`]),
//! and the hand-set evaluation weighs them, so the count must be sound, as
//! large as a cheap count can make it, and fast.
//!
//! Two steps:
//! 1. **Edges, from tables.** A border disc can only be flipped along its
//!    border line (in the three other directions one of its neighbours is off
//!    the board). Whether it can be is a question about that line alone, and
//!    the line has 3^n contents: the answer is precomputed for each
//!    (an edge table per board size), treating every empty square as playable by either
//!    side at any time (another direction may make the move legal).
//! 2. **The interior, grown from them.** An inner disc is stable when, in
//!    each of its four directions, its line is full or one of its two
//!    neighbours is a stable disc of its colour; the set grows until it stops
//!    changing (see [`stable_discs`]).

use crate::bitboard::{BoardSize, side_columns, side_rows, squares};

/// Every square but column a: the target of a shift towards column h.
const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
/// Every square but column h: the target of a shift towards column a.
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
/// Column a.
const COLUMN_A: u64 = 0x0101_0101_0101_0101;

/// For every content of a border line of `N` squares, the discs of the first
/// side that no sequence of moves on the line can flip.
///
/// Indexed by `mine | theirs << N` (bit i is the line's i-th square); entries
/// whose two sides overlap are unused. The contents are visited from the full
/// line down: a move fills a square, so every successor of a content has its
/// answer already. A disc is stable when it is still ours, and stable, after
/// every move either side could make on an empty square of the line.
struct EdgeTable<const N: usize, const LEN: usize>([u8; LEN]);

impl<const N: usize, const LEN: usize> EdgeTable<N, LEN> {
    const fn build() -> Self {
        let full = (1usize << N) - 1;
        let mut table = [0u8; LEN];
        let mut occupied = full + 1;
        while occupied > 0 {
            occupied -= 1;
            // Every split of `occupied` into (mine, theirs): the subsets of it.
            let mut mine = occupied;
            loop {
                let theirs = occupied & !mine;
                table[mine | theirs << N] = Self::stable_after_every_move(&table, mine, theirs);
                if mine == 0 {
                    break;
                }
                mine = (mine - 1) & occupied;
            }
        }
        EdgeTable(table)
    }

    /// `mine` less every disc some move on an empty square of the line
    /// flips now or later (the successors' entries are already filled).
    const fn stable_after_every_move(table: &[u8; LEN], mine: usize, theirs: usize) -> u8 {
        let full = (1usize << N) - 1;
        let empty = full & !(mine | theirs);
        let mut stable = mine;
        let mut square = 0;
        while square < N {
            let bit = 1usize << square;
            if empty & bit != 0 {
                // We play there.
                let flips = Self::flips(square, mine, theirs);
                let (m, t) = (mine | bit | flips, theirs & !flips);
                stable &= table[m | t << N] as usize;
                // They play there.
                let flips = Self::flips(square, theirs, mine);
                let (m, t) = (mine & !flips, theirs | bit | flips);
                stable &= table[m | t << N] as usize;
            }
            square += 1;
        }
        stable as u8
    }

    /// The discs of `theirs` that a disc of `mine` put on `square` brackets.
    const fn flips(square: usize, mine: usize, theirs: usize) -> usize {
        let mut flips = 0;
        // Towards the higher squares, then the lower ones.
        let mut run = 0;
        let mut i = square + 1;
        while i < N && theirs & (1 << i) != 0 {
            run |= 1 << i;
            i += 1;
        }
        if i < N && mine & (1 << i) != 0 {
            flips |= run;
        }
        run = 0;
        let mut i = square;
        while i > 0 && theirs & (1 << (i - 1)) != 0 {
            run |= 1 << (i - 1);
            i -= 1;
        }
        if i > 0 && mine & (1 << (i - 1)) != 0 {
            flips |= run;
        }
        flips
    }

    #[inline]
    fn get(&self, mine: u64, theirs: u64) -> u64 {
        u64::from(self.0[mine as usize | (theirs as usize) << N])
    }
}

static EDGE_8: EdgeTable<8, { 1 << 16 }> = EdgeTable::build();
static EDGE_6: EdgeTable<6, { 1 << 12 }> = EdgeTable::build();
static EDGE_4: EdgeTable<4, { 1 << 8 }> = EdgeTable::build();

/// Column `col`'s squares as the bits 0 (row 1) to 7 (row 8) of a byte.
#[inline]
fn pack_column(bits: u64, col: u32) -> u64 {
    (((bits >> col) & COLUMN_A).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// The inverse of [`pack_column`] for column a: bit i to square (a, i+1).
#[inline]
fn unpack_column(line: u64) -> u64 {
    let x = (line | line << 28) & 0x0000_000f_0000_000f;
    let x = (x | x << 14) & 0x0003_0003_0003_0003;
    (x | x << 7) & COLUMN_A
}

/// The border discs of `mine` that no move along their border line can flip
/// (the only way a border disc can be flipped).
#[inline]
fn edge_stable(mine: u64, theirs: u64, size: BoardSize) -> u64 {
    match size {
        BoardSize::Eight => edge_stable_with(&EDGE_8, mine, theirs),
        BoardSize::Six => edge_stable_with(&EDGE_6, mine, theirs),
        BoardSize::Four => edge_stable_with(&EDGE_4, mine, theirs),
    }
}

#[inline]
fn edge_stable_with<const N: usize, const LEN: usize>(
    table: &EdgeTable<N, LEN>,
    mine: u64,
    theirs: u64,
) -> u64 {
    let last = N as u32 - 1;
    let row = (1u64 << N) - 1;
    let top = table.get(mine & row, theirs & row);
    let bottom = table.get((mine >> (8 * last)) & row, (theirs >> (8 * last)) & row);
    let left = table.get(pack_column(mine, 0), pack_column(theirs, 0));
    let right = table.get(pack_column(mine, last), pack_column(theirs, last));
    top | bottom << (8 * last) | unpack_column(left) | unpack_column(right) << last
}

/// Stable discs of `player`: a lower bound on the discs of `player` that no
/// sequence of moves can ever flip. Bitboard operations and four table
/// lookups, no allocation.
///
/// A disc can only be flipped along one of the four lines through it
/// (horizontal, vertical, two diagonals), by a move on that line that brackets
/// it. Border discs are settled by the edge tables (module docs). An inner
/// disc is counted stable when, in each of the four directions, one of these
/// holds:
///
/// 1. the whole line through it in that direction (on the board of `size`) is
///    filled, so no move can be played on it;
/// 2. one of its two neighbours in that direction is a stable disc of the
///    same colour.
///
/// Rule 2 refers to the set being built, so the set is grown from the stable
/// border discs and the discs whose four lines are full until it stops
/// changing. Why this is sound: a flip along a direction needs the run of
/// discs being flipped to end at the new disc on one side and a bracketing
/// disc on the other, and the whole run changes colour at once. Following
/// rule 2 from neighbour to neighbour (each joined the set earlier) along that
/// run must end at a disc justified by rule 1 (no move on a full line) or by
/// the edge table (no move on the border line flips it): a contradiction, so
/// the first flip of any counted disc can never happen.
///
/// Not counted (so the bound is not tight): inner discs protected only by the
/// colours in a partly filled line, and discs that are stable because the
/// game is over.
#[inline]
pub fn stable_discs(player: u64, opponent: u64, size: BoardSize) -> u64 {
    // Each size as a constant, so that its masks and edge table fold into
    // the code (callgrind, the solver on FFO #40 + #44: 10.10 G -> 10.02 G
    // instructions against one generic body).
    match size {
        BoardSize::Eight => stable_discs_on(player, opponent, BoardSize::Eight),
        BoardSize::Six => stable_discs_on(player, opponent, BoardSize::Six),
        BoardSize::Four => stable_discs_on(player, opponent, BoardSize::Four),
    }
}

/// [`stable_discs`] on a board of `size`, inlined where `size` is known.
#[inline(always)]
fn stable_discs_on(player: u64, opponent: u64, size: BoardSize) -> u64 {
    let mask = size.mask();
    let (player, opponent) = (player & mask, opponent & mask);
    FreeLines::new(player | opponent, size).stable(player, edge_stable(player, opponent, size))
}

/// Stable discs of both sides, `(player's, opponent's)`, sharing the line
/// tests: `stable_discs(player, opponent, size)` and
/// `stable_discs(opponent, player, size)` in one call.
#[inline]
pub fn stable_discs_both(player: u64, opponent: u64, size: BoardSize) -> (u64, u64) {
    let mask = size.mask();
    let (player, opponent) = (player & mask, opponent & mask);
    let lines = FreeLines::new(player | opponent, size);
    (
        lines.stable(player, edge_stable(player, opponent, size)),
        lines.stable(opponent, edge_stable(opponent, player, size)),
    )
}

/// For each of the four directions, the squares that cannot be flipped along
/// it whatever their neighbours: their line is full, or (the border) the
/// square has no neighbour on one side.
#[derive(Clone, Copy)]
struct FreeLines {
    h: u64,
    v: u64,
    d: u64,
    a: u64,
}

impl FreeLines {
    #[inline(always)]
    fn new(occupied: u64, size: BoardSize) -> FreeLines {
        let left_right = side_columns(size);
        let top_bottom = side_rows(size);
        let border = left_right | top_bottom;
        let empty = !occupied & size.mask();
        if empty.count_ones() <= FEW_EMPTIES {
            // Few empties (the solver's case): the lines through them are
            // the ones not full. (On a small board the 8x8 lines also mark
            // squares off the board, which hold no disc: only the squares
            // on the board are read.)
            let mut open = [0u64; 4];
            for square in squares(empty) {
                let lines = &LINES_THROUGH[square.index()];
                for (open, line) in open.iter_mut().zip(lines) {
                    *open |= line;
                }
            }
            let [h, v, d, a] = open;
            return FreeLines {
                h: !h | left_right,
                v: !v | top_bottom,
                d: !d | border,
                a: !a | border,
            };
        }
        // Off-board squares count as filled, so the 8x8 line tests see only
        // the part of each line that lies on the board.
        let filled = occupied | !size.mask();
        FreeLines {
            h: full_rows(filled) | left_right,
            v: full_columns(filled) | top_bottom,
            d: full_diagonals(filled) | border,
            a: full_anti_diagonals(filled) | border,
        }
    }

    /// The stable discs among `discs` (all of one colour, on the board),
    /// given the stable ones on the border.
    #[inline]
    fn stable(self, discs: u64, on_border: u64) -> u64 {
        let mut stable = on_border | (discs & self.h & self.v & self.d & self.a);
        if stable == 0 {
            // Rule 2 needs a stable disc to start from.
            return 0;
        }
        loop {
            let next = stable
                | (discs
                    & (self.h | near_h(stable))
                    & (self.v | near_v(stable))
                    & (self.d | near_d(stable))
                    & (self.a | near_a(stable)));
            if next == stable {
                return stable;
            }
            stable = next;
        }
    }
}

/// Squares with a square of `s` left or right of them.
#[inline]
fn near_h(s: u64) -> u64 {
    ((s << 1) & NOT_A) | ((s >> 1) & NOT_H)
}

#[inline]
fn near_v(s: u64) -> u64 {
    (s << 8) | (s >> 8)
}

/// The a1-h8 diagonal direction (one column right, one row down: bit + 9).
#[inline]
fn near_d(s: u64) -> u64 {
    ((s << 9) & NOT_A) | ((s >> 9) & NOT_H)
}

/// The h1-a8 diagonal direction (one column left, one row down: bit + 7).
#[inline]
fn near_a(s: u64) -> u64 {
    ((s << 7) & NOT_H) | ((s >> 7) & NOT_A)
}

/// Up to this many empties, [`FreeLines::new`] ORs together the lines
/// through each empty square instead of testing every line for
/// fullness. callgrind, the solver on FFO #40 (its stability bound from 3
/// empties): 3.248 G instructions with the line tests alone; 3.218 G up to
/// 3 empties, 3.202 G up to 6, 3.203 G up to 10. (Inlined: as a call, it
/// cost more than it saved, 3.286 G.)
const FEW_EMPTIES: u32 = 6;

/// `LINES_THROUGH[square]`: the 8x8 row, column, a1-h8 diagonal and h1-a8
/// diagonal through `square`.
static LINES_THROUGH: [[u64; 4]; 64] = lines_through();

const fn lines_through() -> [[u64; 4]; 64] {
    let mut table = [[0u64; 4]; 64];
    let mut square = 0;
    while square < 64 {
        let (row, col) = ((square / 8) as i32, (square % 8) as i32);
        let mut other: i32 = 0;
        while other < 64 {
            let (r, c) = (other / 8, other % 8);
            let bit = 1u64 << other;
            if r == row {
                table[square][0] |= bit;
            }
            if c == col {
                table[square][1] |= bit;
            }
            if r - c == row - col {
                table[square][2] |= bit;
            }
            if r + c == row + col {
                table[square][3] |= bit;
            }
            other += 1;
        }
        square += 1;
    }
    table
}

/// Squares whose row is entirely filled.
#[inline]
fn full_rows(filled: u64) -> u64 {
    let mut x = filled;
    x &= x >> 4;
    x &= x >> 2;
    x &= x >> 1;
    // Bit 8r now says whether row r is full; spread it over the row.
    (x & 0x0101_0101_0101_0101) * 0xff
}

/// Squares whose column is entirely filled.
#[inline]
fn full_columns(filled: u64) -> u64 {
    let mut x = filled;
    x &= x.rotate_right(8);
    x &= x.rotate_right(16);
    x &= x.rotate_right(32);
    x
}

/// Every square on the same line as an empty square in direction `shift`,
/// spread forward (with `guard` dropping the column wrap) and backward.
#[inline]
fn spread_line(empty: u64, shift: u32, guard_up: u64, guard_down: u64) -> u64 {
    let (mut up, mut down) = (empty, empty);
    let (mut pu, mut pd) = (guard_up, guard_down);
    up |= pu & (up << shift);
    down |= pd & (down >> shift);
    pu &= pu << shift;
    pd &= pd >> shift;
    up |= pu & (up << (2 * shift));
    down |= pd & (down >> (2 * shift));
    pu &= pu << (2 * shift);
    pd &= pd >> (2 * shift);
    up |= pu & (up << (4 * shift));
    down |= pd & (down >> (4 * shift));
    up | down
}

/// Squares whose a1-h8 diagonal is entirely filled.
#[inline]
fn full_diagonals(filled: u64) -> u64 {
    !spread_line(!filled, 9, NOT_A, NOT_H)
}

/// Squares whose h1-a8 diagonal is entirely filled.
#[inline]
fn full_anti_diagonals(filled: u64) -> u64 {
    !spread_line(!filled, 7, NOT_H, NOT_A)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::squares;
    use crate::board::Board;
    use crate::eval::test_support::{bits, random_board};
    use crate::square::Square;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use rustc_hash::FxHashSet;

    /// The same line tests, square by square.
    fn naive_full(filled: u64, dc: i32, dr: i32, s: Square, n: i32) -> bool {
        let (c0, r0) = (s.col() as i32, s.row() as i32);
        (-8..=8).all(|k| {
            let (c, r) = (c0 + k * dc, r0 + k * dr);
            !(0..n).contains(&c) || !(0..n).contains(&r) || filled & (1 << (r * 8 + c)) != 0
        })
    }

    #[test]
    fn full_lines_match_a_square_by_square_check() {
        let mut rng = StdRng::seed_from_u64(1);
        for size in BoardSize::ALL {
            let n = size.n() as i32;
            for _ in 0..300 {
                // Dense boards, so that full lines occur.
                let mut filled = size.mask();
                for _ in 0..rng.random_range(0..6) {
                    filled &= !(1u64 << rng.random_range(0..64));
                }
                let outside = filled | !size.mask();
                for s in squares(size.mask()) {
                    let b = s.bit();
                    assert_eq!(full_rows(outside) & b != 0, naive_full(filled, 1, 0, s, n));
                    assert_eq!(
                        full_columns(outside) & b != 0,
                        naive_full(filled, 0, 1, s, n)
                    );
                    assert_eq!(
                        full_diagonals(outside) & b != 0,
                        naive_full(filled, 1, 1, s, n)
                    );
                    assert_eq!(
                        full_anti_diagonals(outside) & b != 0,
                        naive_full(filled, -1, 1, s, n)
                    );
                }
            }
        }
    }

    #[test]
    fn free_lines_from_few_empties_match_the_line_tests() {
        let mut rng = StdRng::seed_from_u64(5);
        for size in BoardSize::ALL {
            let mask = size.mask();
            let (left_right, top_bottom) = (side_columns(size), side_rows(size));
            let border = left_right | top_bottom;
            for _ in 0..5_000 {
                let mut occupied = mask;
                for _ in 0..rng.random_range(0..=FEW_EMPTIES) {
                    occupied &= !(1u64 << rng.random_range(0..64));
                }
                // The line tests, squares off the board counting as filled.
                let filled = occupied | !mask;
                let lines = FreeLines::new(occupied, size);
                let got = [lines.h, lines.v, lines.d, lines.a];
                let want = [
                    full_rows(filled) | left_right,
                    full_columns(filled) | top_bottom,
                    full_diagonals(filled) | border,
                    full_anti_diagonals(filled) | border,
                ];
                assert_eq!(
                    got.map(|x| x & mask),
                    want.map(|x| x & mask),
                    "{size:?} {occupied:#x}"
                );
            }
        }
    }

    /// Every content reachable from `(mine, theirs)` on a line of `n`
    /// squares when either side may fill any empty square: a search of the
    /// reachable set, unlike the table's recursion over successors.
    fn reachable(mine: usize, theirs: usize, n: usize) -> FxHashSet<(usize, usize)> {
        let mut seen = FxHashSet::default();
        let mut stack = vec![(mine, theirs)];
        while let Some((m, t)) = stack.pop() {
            if !seen.insert((m, t)) {
                continue;
            }
            for square in 0..n {
                let bit = 1 << square;
                if (m | t) & bit != 0 {
                    continue;
                }
                for (us, them, ours) in [(m, t, true), (t, m, false)] {
                    // Walk both ways from the square over their discs.
                    let mut flips = 0;
                    for step in [1isize, -1] {
                        let mut run = 0;
                        let mut i = square as isize + step;
                        while (0..n as isize).contains(&i) && them & (1 << i) != 0 {
                            run |= 1 << i;
                            i += step;
                        }
                        if (0..n as isize).contains(&i) && us & (1 << i) != 0 {
                            flips |= run;
                        }
                    }
                    let (us, them) = (us | bit | flips, them & !flips);
                    stack.push(if ours { (us, them) } else { (them, us) });
                }
            }
        }
        seen
    }

    fn check_edge_table<const N: usize, const LEN: usize>(table: &EdgeTable<N, LEN>) {
        let full = (1usize << N) - 1;
        for mine in 0..=full {
            let mut theirs = full & !mine;
            loop {
                let stable = reachable(mine, theirs, N)
                    .iter()
                    .fold(mine, |stable, &(m, _)| stable & m);
                let got = table.get(mine as u64, theirs as u64) as usize;
                assert_eq!(got, stable, "line of {N}: mine {mine:b}, theirs {theirs:b}");
                if theirs == 0 {
                    break;
                }
                theirs = (theirs - 1) & !mine & full;
            }
        }
    }

    #[test]
    fn edge_tables_match_a_search_of_every_reachable_line() {
        check_edge_table(&EDGE_4);
        check_edge_table(&EDGE_6);
        check_edge_table(&EDGE_8);
    }

    #[test]
    fn columns_pack_and_unpack() {
        let mut rng = StdRng::seed_from_u64(3);
        for _ in 0..200 {
            let x: u64 = rng.random();
            for col in 0..8 {
                let packed = pack_column(x, col);
                assert!(packed < 256);
                assert_eq!(unpack_column(packed) << col, x & (COLUMN_A << col));
            }
        }
    }

    #[test]
    fn border_discs_held_by_the_line_alone() {
        let e = BoardSize::Eight;
        // b1-f1 (theirs) lie between a1 and g1 (mine): only h1 is empty, and
        // whoever plays it, they are never flipped; g1 is (by them on h1).
        let mine = bits("a1 g1 d4");
        let theirs = bits("b1 c1 d1 e1 f1 e4");
        assert_eq!(stable_discs(theirs, mine, e), bits("b1 c1 d1 e1 f1"));
        assert_eq!(stable_discs(mine, theirs, e), bits("a1"));
        // The same on the h column of a 6x6 board (f there) and its mirror.
        let s = BoardSize::Six;
        let mine = bits("f1 f5");
        let theirs = bits("f2 f3 f4");
        assert_eq!(stable_discs(theirs, mine, s), theirs);
        assert_eq!(stable_discs(mine, theirs, s), bits("f1"));
        // An inner disc next to such border discs still needs all four of
        // its directions held: b2's row and diagonals are open.
        let (s2, _) = stable_discs_both(bits("b1 c1 d1 e1 f1 b2"), bits("a1 g1"), e);
        assert_eq!(s2, bits("b1 c1 d1 e1 f1"));
    }

    #[test]
    fn stable_corners_edges_and_full_board() {
        let e = BoardSize::Eight;
        // A corner and an edge run anchored in it; the run ends before c1.
        let player = bits("a1 b1 a2 a3 b2");
        let opponent = bits("c1 d4");
        let stable = stable_discs(player, opponent, e);
        assert_eq!(stable, bits("a1 b1 a2 a3 b2"));
        // c1 (theirs) is not stable: d1 is empty.
        assert_eq!(stable_discs(opponent, player, e), 0);
        // A full top row is stable whatever its colours.
        let row = bits("a1 b1 c1 d1 e1 f1 g1 h1");
        let mine = bits("a1 c1 d1 h1");
        let (s, t) = stable_discs_both(mine, row & !mine, e);
        assert_eq!(s | t, row);
        // c1 is cut off from a1 by b1 (theirs), and the row is not full.
        let (s, t) = stable_discs_both(bits("a1 c1"), bits("b1"), e);
        assert_eq!((s, t), (bits("a1"), 0));
        // Every disc of a full board is stable, on every size.
        for size in BoardSize::ALL {
            let mut rng = StdRng::seed_from_u64(9);
            let me = rng.random::<u64>() & size.mask();
            let (s, t) = stable_discs_both(me, !me & size.mask(), size);
            assert_eq!((s, t), (me, !me & size.mask()), "{size:?}");
        }
        // No disc is stable at the start.
        for size in BoardSize::ALL {
            let b = Board::start(size);
            assert_eq!(stable_discs_both(b.player, b.opponent, size), (0, 0));
        }
    }

    /// Absolute colours, for following discs through a game.
    #[derive(Clone, Copy)]
    struct Tracked {
        board: Board,
        /// Whether the side to move in `board` is the side that was to move at
        /// the root (whose discs were `player` there).
        root_to_move: bool,
    }

    impl Tracked {
        fn root_player_discs(self) -> u64 {
            if self.root_to_move {
                self.board.player
            } else {
                self.board.opponent
            }
        }

        fn root_opponent_discs(self) -> u64 {
            if self.root_to_move {
                self.board.opponent
            } else {
                self.board.player
            }
        }

        fn play(self, square: Square) -> Tracked {
            Tracked {
                board: self.board.play_flips(square, self.board.flips(square)),
                root_to_move: !self.root_to_move,
            }
        }

        fn pass(self) -> Tracked {
            Tracked {
                board: self.board.pass(),
                root_to_move: !self.root_to_move,
            }
        }
    }

    fn check_kept(node: Tracked, stable: (u64, u64), what: &str) {
        assert_eq!(node.root_player_discs() & stable.0, stable.0, "{what}");
        assert_eq!(node.root_opponent_discs() & stable.1, stable.1, "{what}");
    }

    #[test]
    fn stable_discs_survive_random_continuations() {
        let mut rng = StdRng::seed_from_u64(2024);
        let mut checked = 0u32;
        for size in BoardSize::ALL {
            for _ in 0..400 {
                let root = random_board(&mut rng, size);
                let stable = (
                    stable_discs(root.player, root.opponent, size),
                    stable_discs(root.opponent, root.player, size),
                );
                assert_eq!(stable, stable_discs_both(root.player, root.opponent, size));
                if stable == (0, 0) {
                    continue;
                }
                checked += 1;
                for _ in 0..40 {
                    let mut node = Tracked {
                        board: root,
                        root_to_move: true,
                    };
                    loop {
                        check_kept(node, stable, &format!("{root:?} on {size:?}"));
                        let moves = node.board.legal_moves_on(size);
                        if moves == 0 {
                            if node.board.pass().legal_moves_on(size) == 0 {
                                break;
                            }
                            node = node.pass();
                            continue;
                        }
                        let pick = rng.random_range(0..moves.count_ones() as usize);
                        node = node.play(squares(moves).nth(pick).unwrap());
                    }
                }
            }
        }
        assert!(checked > 300, "only {checked} positions had stable discs");
    }

    fn check_all_continuations(node: Tracked, stable: (u64, u64), size: BoardSize) {
        check_kept(node, stable, "exhaustive");
        let moves = node.board.legal_moves_on(size);
        if moves == 0 {
            if node.board.pass().legal_moves_on(size) != 0 {
                check_all_continuations(node.pass(), stable, size);
            }
            return;
        }
        for square in squares(moves) {
            check_all_continuations(node.play(square), stable, size);
        }
    }

    #[test]
    fn stable_discs_survive_every_continuation_near_the_end() {
        let mut rng = StdRng::seed_from_u64(77);
        for size in BoardSize::ALL {
            let mut done = 0;
            while done < 150 {
                let root = random_board(&mut rng, size);
                if root.empty_count_on(size) > 9 {
                    continue;
                }
                done += 1;
                let stable = stable_discs_both(root.player, root.opponent, size);
                let node = Tracked {
                    board: root,
                    root_to_move: true,
                };
                check_all_continuations(node, stable, size);
            }
        }
    }
}
