//! Evaluation features, computed from the board alone (the weights live in
//! [`super::weights`]).
//!
//! Every feature is seen from the side to move and, where it makes sense, is
//! "mine minus theirs". All of them honour the board size: a 6x6 board has its
//! corners on a1, f1, a6 and f6, and squares outside the board are ignored.
//!
//! | feature | counts |
//! |---|---|
//! | `mobility` | legal moves of the side to move minus legal moves the opponent would have |
//! | `potential_mobility` | empty squares next to their discs minus empty squares next to mine |
//! | `frontier` | my discs next to an empty square minus theirs (a large frontier is a weakness) |
//! | `corners` | my corner discs minus theirs |
//! | `x_squares` | my discs on the X-square of an empty corner minus theirs |
//! | `c_squares` | my discs on a C-square of an empty corner minus theirs |
//! | `edges` | my discs on the border other than corners minus theirs (C-squares included) |
//! | `stable` | my stable discs minus theirs (see [`stable_discs`]) |
//! | `parity` | +1 if the number of empties is odd, -1 if even, 0 on a full board |
//! | `discs` | my discs minus theirs |
//!
//! "Next to" means one of the 8 neighbouring squares. The X-square of a corner
//! is its diagonal neighbour and its C-squares the two neighbours on the
//! edges; on 4x4 the X-squares are the four centre squares.

use crate::bitboard::{BoardSize, neighbours};
use crate::board::Board;

/// Every square but column a: the target of a shift towards column h.
const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
/// Every square but column h: the target of a shift towards column a.
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The named features of a position, from the side to move's view.
///
/// The ten weighted features come first (see the module docs for what each
/// counts); `empties` and `game_over` are context for the evaluator and are
/// not weighted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    pub mobility: i32,
    pub potential_mobility: i32,
    pub frontier: i32,
    pub corners: i32,
    pub x_squares: i32,
    pub c_squares: i32,
    pub edges: i32,
    pub stable: i32,
    pub parity: i32,
    pub discs: i32,
    /// Empty squares on the board (the phase).
    pub empties: u32,
    /// Neither side can move: the disc count is final.
    pub game_over: bool,
}

/// Names of the weighted features, as indices into [`Features::to_array`] and
/// into the weight tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feature {
    Mobility,
    PotentialMobility,
    Frontier,
    Corners,
    XSquares,
    CSquares,
    Edges,
    Stable,
    Parity,
    Discs,
}

/// Number of weighted features.
pub const FEATURE_COUNT: usize = 10;

impl Feature {
    /// Every weighted feature, in index order.
    pub const ALL: [Feature; FEATURE_COUNT] = [
        Feature::Mobility,
        Feature::PotentialMobility,
        Feature::Frontier,
        Feature::Corners,
        Feature::XSquares,
        Feature::CSquares,
        Feature::Edges,
        Feature::Stable,
        Feature::Parity,
        Feature::Discs,
    ];

    /// The feature's index in arrays of [`FEATURE_COUNT`] values.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The feature's field name, for reports.
    pub const fn name(self) -> &'static str {
        match self {
            Feature::Mobility => "mobility",
            Feature::PotentialMobility => "potential_mobility",
            Feature::Frontier => "frontier",
            Feature::Corners => "corners",
            Feature::XSquares => "x_squares",
            Feature::CSquares => "c_squares",
            Feature::Edges => "edges",
            Feature::Stable => "stable",
            Feature::Parity => "parity",
            Feature::Discs => "discs",
        }
    }
}

impl Features {
    /// The weighted features in [`Feature`] index order.
    #[inline]
    pub const fn to_array(&self) -> [i32; FEATURE_COUNT] {
        [
            self.mobility,
            self.potential_mobility,
            self.frontier,
            self.corners,
            self.x_squares,
            self.c_squares,
            self.edges,
            self.stable,
            self.parity,
            self.discs,
        ]
    }
}

/// Square classes of one board size, as bitboards.
#[derive(Clone, Copy, Debug)]
struct SizeMasks {
    /// The four corners.
    corners: u64,
    /// The diagonal neighbours of the corners.
    x_squares: u64,
    /// The edge neighbours of the corners.
    c_squares: u64,
    /// Border squares except corners.
    edges: u64,
    /// Columns a and n: squares with no neighbour on one side horizontally.
    left_right: u64,
    /// Rows 1 and n: squares with no neighbour on one side vertically.
    top_bottom: u64,
}

const fn bit(col: usize, row: usize) -> u64 {
    1u64 << (row * 8 + col)
}

const fn size_masks(size: BoardSize) -> SizeMasks {
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
    size_masks(BoardSize::Four),
    size_masks(BoardSize::Six),
    size_masks(BoardSize::Eight),
];

#[inline]
const fn masks(size: BoardSize) -> &'static SizeMasks {
    match size {
        BoardSize::Four => &MASKS[0],
        BoardSize::Six => &MASKS[1],
        BoardSize::Eight => &MASKS[2],
    }
}

/// The four corners of a board of `size`.
#[inline]
pub const fn corner_squares(size: BoardSize) -> u64 {
    masks(size).corners
}

/// The X-squares (diagonal neighbours of the corners) of a board of `size`.
#[inline]
pub const fn x_squares(size: BoardSize) -> u64 {
    masks(size).x_squares
}

/// The C-squares (edge neighbours of the corners) of a board of `size`.
#[inline]
pub const fn c_squares(size: BoardSize) -> u64 {
    masks(size).c_squares
}

/// The border squares of a board of `size`, corners excluded.
#[inline]
pub const fn edge_squares(size: BoardSize) -> u64 {
    masks(size).edges
}

/// The X- and C-squares next to the empty corners of `board`: the squares
/// whose occupation may give the opponent access to a corner.
#[inline]
pub fn squares_near_empty_corners(board: Board, size: BoardSize) -> u64 {
    let m = masks(size);
    neighbours(m.corners & board.empties()) & (m.x_squares | m.c_squares)
}

#[inline]
fn diff(mine: u64, theirs: u64) -> i32 {
    mine.count_ones() as i32 - theirs.count_ones() as i32
}

/// The features of `board` (side to move's view) on a board of `size`.
#[inline]
pub fn features(board: Board, size: BoardSize) -> Features {
    let m = masks(size);
    let mask = size.mask();
    let (me, them) = (board.player & mask, board.opponent & mask);
    let empties = !(me | them) & mask;

    let my_moves = board.legal_moves_on(size);
    let their_moves = board.pass().legal_moves_on(size);

    let near_empty = neighbours(empties);
    let empty_corners = m.corners & empties;
    let near_corner = neighbours(empty_corners);
    let x_near = near_corner & m.x_squares;
    let c_near = near_corner & m.c_squares;

    let (my_stable, their_stable) = stable_discs_both(me, them, size);
    let empty_count = empties.count_ones();
    let parity = match empty_count {
        0 => 0,
        n if n % 2 == 1 => 1,
        _ => -1,
    };

    Features {
        mobility: diff(my_moves, their_moves),
        potential_mobility: diff(neighbours(them) & empties, neighbours(me) & empties),
        frontier: diff(me & near_empty, them & near_empty),
        corners: diff(me & m.corners, them & m.corners),
        x_squares: diff(me & x_near, them & x_near),
        c_squares: diff(me & c_near, them & c_near),
        edges: diff(me & m.edges, them & m.edges),
        stable: diff(my_stable, their_stable),
        parity,
        discs: diff(me, them),
        empties: empty_count,
        game_over: my_moves == 0 && their_moves == 0,
    }
}

/// Stable discs of `player`: a lower bound on the discs of `player` that no
/// sequence of moves can ever flip. Bitboard operations only, no allocation.
///
/// A disc can only be flipped along one of the four lines through it
/// (horizontal, vertical, two diagonals), by a move on that line that brackets
/// it. A disc is counted stable when, in each of the four directions, one of
/// these holds:
///
/// 1. the whole line through it in that direction (on the board of `size`) is
///    filled, so no move can be played on it;
/// 2. one of its two neighbours in that direction is off the board;
/// 3. one of its two neighbours in that direction is a stable disc of the
///    same colour.
///
/// Rule 3 refers to the set being built, so the set is grown from nothing
/// until it stops changing. Corners come out stable by rule 2, then discs
/// chained to them along edges and lines, and any disc whose four lines are
/// full. Why this is sound: a flip along a direction needs the run of discs
/// being flipped to end at the new disc on one side and a bracketing disc on
/// the other, and the whole run changes colour at once. Following rule 3 from
/// neighbour to neighbour (each joined the set earlier) along that run must
/// end at a disc justified by rule 1 (no move on a full line) or rule 2 (the
/// run cannot continue off the board): a contradiction, so the first flip of
/// any counted disc can never happen.
///
/// Not counted (so the bound is not tight): discs protected only by the
/// colours in a partly filled line (such as a run along an edge held between
/// an opposing disc and an empty square that only the opponent could use
/// harmlessly), and discs that are stable because the game is over. A disc
/// "stable" because both its neighbours in a direction are stable opposing
/// discs adds nothing: on a line that is not full that cannot happen.
#[inline]
pub fn stable_discs(player: u64, opponent: u64, size: BoardSize) -> u64 {
    let mask = size.mask();
    FreeLines::new(player | opponent, size).stable(player & mask)
}

/// Stable discs of both sides, `(player's, opponent's)`, sharing the line
/// tests: `stable_discs(player, opponent, size)` and
/// `stable_discs(opponent, player, size)` in one call.
#[inline]
pub fn stable_discs_both(player: u64, opponent: u64, size: BoardSize) -> (u64, u64) {
    let mask = size.mask();
    let lines = FreeLines::new(player | opponent, size);
    (lines.stable(player & mask), lines.stable(opponent & mask))
}

/// For each of the four directions, the squares that cannot be flipped along
/// it whatever their neighbours: their line is full or they touch the edge.
#[derive(Clone, Copy)]
struct FreeLines {
    h: u64,
    v: u64,
    d: u64,
    a: u64,
}

impl FreeLines {
    #[inline]
    fn new(occupied: u64, size: BoardSize) -> FreeLines {
        let m = masks(size);
        // Off-board squares count as filled, so the 8x8 line tests see only
        // the part of each line that lies on the board.
        let filled = occupied | !size.mask();
        let border = m.left_right | m.top_bottom;
        FreeLines {
            h: full_rows(filled) | m.left_right,
            v: full_columns(filled) | m.top_bottom,
            d: full_diagonals(filled) | border,
            a: full_anti_diagonals(filled) | border,
        }
    }

    /// The stable discs among `discs` (all of one colour, on the board).
    #[inline]
    fn stable(self, discs: u64) -> u64 {
        let mut stable = discs & self.h & self.v & self.d & self.a;
        if stable == 0 {
            // Rule 3 needs a stable disc to start from.
            return 0;
        }
        loop {
            let next = discs
                & (self.h | near_h(stable))
                & (self.v | near_v(stable))
                & (self.d | near_d(stable))
                & (self.a | near_a(stable));
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
    use crate::bitboard::{Symmetry, squares};
    use crate::eval::test_support::{random_board, random_game_boards};
    use crate::square::Square;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    fn sq(name: &str) -> u64 {
        name.parse::<Square>().unwrap().bit()
    }

    fn bits(names: &str) -> u64 {
        names.split_whitespace().map(sq).fold(0, |a, b| a | b)
    }

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
    fn square_classes_per_size() {
        assert_eq!(corner_squares(BoardSize::Eight), bits("a1 h1 a8 h8"));
        assert_eq!(corner_squares(BoardSize::Six), bits("a1 f1 a6 f6"));
        assert_eq!(corner_squares(BoardSize::Four), bits("a1 d1 a4 d4"));
        assert_eq!(x_squares(BoardSize::Six), bits("b2 e2 b5 e5"));
        assert_eq!(x_squares(BoardSize::Four), bits("b2 c2 b3 c3"));
        assert_eq!(c_squares(BoardSize::Six), bits("b1 a2 e1 f2 a5 b6 f5 e6"));
        assert_eq!(
            edge_squares(BoardSize::Four),
            bits("b1 c1 a2 a3 d2 d3 b4 c4")
        );
        assert_eq!(edge_squares(BoardSize::Eight).count_ones(), 24);
        assert_eq!(edge_squares(BoardSize::Six).count_ones(), 16);
    }

    #[test]
    fn start_position_features_are_balanced() {
        for size in BoardSize::ALL {
            let f = features(Board::start(size), size);
            let expected = Features {
                parity: -1,
                empties: size.squares() - 4,
                ..Features::default()
            };
            assert_eq!(f, expected, "{size:?}");
        }
    }

    #[test]
    fn features_change_sign_when_the_sides_swap() {
        for size in BoardSize::ALL {
            for board in random_game_boards(size, 20, 3) {
                let f = features(board, size).to_array();
                let g = features(board.pass(), size).to_array();
                for feature in Feature::ALL {
                    let i = feature.index();
                    if feature == Feature::Parity {
                        assert_eq!(f[i], g[i]);
                    } else {
                        assert_eq!(f[i], -g[i], "{} {board:?}", feature.name());
                    }
                }
            }
        }
    }

    #[test]
    fn features_are_symmetric() {
        for size in BoardSize::ALL {
            for board in random_game_boards(size, 20, 4) {
                let f = features(board, size);
                for sym in Symmetry::ALL {
                    assert_eq!(features(board.symmetric(sym, size), size), f, "{sym:?}");
                }
            }
        }
    }

    #[test]
    fn x_and_c_squares_count_only_next_to_empty_corners() {
        // Mine: b2 (X of empty a1), b1 (C of empty a1), g7 (X of my h8).
        // Theirs: g1 (C of empty h1), b7 (X of empty a8).
        let board = Board::new(bits("b2 b1 g7 h8 d4 e5"), bits("g1 b7 d5 e4"));
        let f = features(board, BoardSize::Eight);
        assert_eq!(f.x_squares, 0); // b2 against b7
        assert_eq!(f.c_squares, 0); // b1 against g1
        assert_eq!(f.corners, 1);
        assert_eq!(f.edges, 0); // b1 against g1
        // On 6x6, e5 is the X-square of the empty f6 and e1 a C-square of the
        // empty f1; b2 (theirs) is the X-square of my a1, so it does not count.
        let board = Board::new(bits("e5 a1"), bits("b2 e1 c3"));
        let f = features(board, BoardSize::Six);
        assert_eq!(f.x_squares, 1);
        assert_eq!(f.c_squares, -1);
        assert_eq!(f.corners, 1);
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
