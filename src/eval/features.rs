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
//! | `stable` | my stable discs minus theirs (see [`stable_discs`](super::stability::stable_discs)) |
//! | `parity` | +1 if the number of empties is odd, -1 if even, 0 on a full board |
//! | `discs` | my discs minus theirs |
//!
//! "Next to" means one of the 8 neighbouring squares. The X-square of a corner
//! is its diagonal neighbour and its C-squares the two neighbours on the
//! edges; on 4x4 the X-squares are the four centre squares.

use super::stability::stable_discs_both;
use crate::bitboard::{BoardSize, neighbours, size_masks};
pub use crate::bitboard::{
    c_squares, corner_squares, edge_squares, side_columns, side_rows, x_squares,
};
use crate::board::Board;

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

/// The X- and C-squares next to the empty corners of `board`: the squares
/// whose occupation may give the opponent access to a corner.
#[inline]
pub fn squares_near_empty_corners(board: Board, size: BoardSize) -> u64 {
    neighbours(corner_squares(size) & board.empties()) & (x_squares(size) | c_squares(size))
}

#[inline]
fn diff(mine: u64, theirs: u64) -> i32 {
    mine.count_ones() as i32 - theirs.count_ones() as i32
}

/// The features of `board` (side to move's view) on a board of `size`.
#[inline]
pub fn features(board: Board, size: BoardSize) -> Features {
    let m = size_masks(size);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Symmetry;
    use crate::eval::test_support::{bits, random_game_boards};

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
}
