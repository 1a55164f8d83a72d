//! The board: two bitboards relative to the side to move, updated by
//! copy-make.
//!
//! `player` holds the discs of the side to move and `opponent` the others;
//! playing a move returns a new board with the roles swapped. The board does
//! not know its colour or size: [`crate::position::Position`] adds both. Methods
//! without a size assume the 8x8 board; the `_on` variants take a
//! [`BoardSize`] and mask the squares that lie outside a small board.

use crate::bitboard::{BoardSize, Symmetry};
use crate::color::Color;
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::square::Square;
use std::fmt;

/// Two disjoint bitboards: the discs of the side to move and of the other side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the side that just moved.
    pub opponent: u64,
}

const _: () = assert!(std::mem::size_of::<Board>() == 16);

/// A move that is not legal in the position it was tried in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMoveError {
    /// The move as written (`f5`, `PA`).
    pub mv: String,
    /// Why it is illegal.
    pub reason: IllegalReason,
}

/// Why a move is illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    /// The square is outside the board in play.
    OffBoard,
    /// The square already holds a disc.
    Occupied,
    /// The move flips no disc.
    NoFlips,
    /// The move carries flips that do not match the position.
    WrongFlips,
    /// A pass while a placement is possible.
    PassWithMoves,
    /// Any move after both sides are blocked.
    GameOver,
}

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match self.reason {
            IllegalReason::OffBoard => "the square is not on the board",
            IllegalReason::Occupied => "the square is occupied",
            IllegalReason::NoFlips => "it flips no disc",
            IllegalReason::WrongFlips => "its flips do not match the position",
            IllegalReason::PassWithMoves => "a pass is only legal with no move to play",
            IllegalReason::GameOver => "the game is over",
        };
        write!(f, "illegal move {}: {why}", self.mv)
    }
}

impl std::error::Error for IllegalMoveError {}

impl Board {
    /// A board from the two sides' discs. They must not overlap.
    #[inline]
    pub const fn new(player: u64, opponent: u64) -> Board {
        debug_assert!(player & opponent == 0);
        Board { player, opponent }
    }

    /// The start position of a board of `size`, Black to move: White on the
    /// upper-left and lower-right centre squares, Black on the other two.
    pub fn start(size: BoardSize) -> Board {
        let half = (size.n() / 2) as u8;
        let bit = |col: u8, row: u8| Square::from_coords(col, row).map_or(0, Square::bit);
        let white = bit(half - 1, half - 1) | bit(half, half);
        let black = bit(half, half - 1) | bit(half - 1, half);
        Board::new(black, white)
    }

    /// The board seen by `side_to_move`, from Black's and White's discs.
    pub const fn from_colors(black: u64, white: u64, side_to_move: Color) -> Board {
        match side_to_move {
            Color::Black => Board::new(black, white),
            Color::White => Board::new(white, black),
        }
    }

    /// Black's and White's discs, given the side to move.
    pub const fn to_colors(self, side_to_move: Color) -> (u64, u64) {
        match side_to_move {
            Color::Black => (self.player, self.opponent),
            Color::White => (self.opponent, self.player),
        }
    }

    /// Empty squares of the 8x8 board.
    #[inline]
    pub const fn empties(self) -> u64 {
        !(self.player | self.opponent)
    }

    /// Empty squares of a board of `size`.
    #[inline]
    pub const fn empties_on(self, size: BoardSize) -> u64 {
        self.empties() & size.mask()
    }

    /// Number of empty squares on a board of `size`.
    #[inline]
    pub const fn empty_count_on(self, size: BoardSize) -> u32 {
        self.empties_on(size).count_ones()
    }

    /// Discs of the side to move.
    #[inline]
    pub const fn player_count(self) -> u32 {
        self.player.count_ones()
    }

    /// Discs of the other side.
    #[inline]
    pub const fn opponent_count(self) -> u32 {
        self.opponent.count_ones()
    }

    /// Legal move squares on the 8x8 board.
    #[inline]
    pub fn legal_moves(self) -> u64 {
        movegen::legal_moves(self.player, self.opponent)
    }

    /// Legal move squares on a board of `size`.
    #[inline]
    pub fn legal_moves_on(self, size: BoardSize) -> u64 {
        movegen::legal_moves(self.player, self.opponent) & size.mask()
    }

    /// Discs flipped by playing on `square` (0 if the move is illegal; the
    /// square must be empty).
    #[inline]
    pub fn flips(self, square: Square) -> u64 {
        movegen::flips(self.player, self.opponent, square.index())
    }

    /// The board after the side to move places a disc on `square`, flipping
    /// `flips`. Unchecked: the move must be legal.
    #[inline]
    pub const fn play_flips(self, square: Square, flips: u64) -> Board {
        debug_assert!(flips != 0 && self.empties() & square.bit() != 0);
        Board::new(self.opponent ^ flips, self.player ^ flips ^ square.bit())
    }

    /// The board after a pass: the roles swap.
    #[inline]
    pub const fn pass(self) -> Board {
        Board::new(self.opponent, self.player)
    }

    /// The board after `mv`, which must be legal (checked in debug builds only).
    #[inline]
    pub fn play_unchecked(self, mv: Move) -> Board {
        match mv {
            Move::Place { square, flips } => {
                debug_assert_eq!(flips, self.flips(square));
                self.play_flips(square, flips)
            }
            Move::Pass => self.pass(),
        }
    }

    /// The legal placement on `square` of a board of `size`, with its flips.
    pub fn placement_on(self, square: Square, size: BoardSize) -> Result<Move, IllegalMoveError> {
        let error = |reason| {
            Err(IllegalMoveError {
                mv: square.to_string(),
                reason,
            })
        };
        if !size.contains(square) {
            return error(IllegalReason::OffBoard);
        }
        if self.empties() & square.bit() == 0 {
            return error(IllegalReason::Occupied);
        }
        match self.flips(square) {
            0 => error(IllegalReason::NoFlips),
            flips => Ok(Move::Place { square, flips }),
        }
    }

    /// Checks that `mv` is legal on a board of `size`.
    pub fn check_move_on(self, mv: Move, size: BoardSize) -> Result<(), IllegalMoveError> {
        let error = |reason| {
            Err(IllegalMoveError {
                mv: mv.to_string(),
                reason,
            })
        };
        match mv {
            Move::Pass if self.legal_moves_on(size) != 0 => error(IllegalReason::PassWithMoves),
            Move::Pass if self.is_game_over_on(size) => error(IllegalReason::GameOver),
            Move::Pass => Ok(()),
            Move::Place { square, flips } => {
                let legal = self.placement_on(square, size)?;
                if legal.flips() == flips {
                    Ok(())
                } else {
                    error(IllegalReason::WrongFlips)
                }
            }
        }
    }

    /// The board after `mv` on a board of `size`, or an error that leaves
    /// this board as it was.
    pub fn play_on(self, mv: Move, size: BoardSize) -> Result<Board, IllegalMoveError> {
        self.check_move_on(mv, size)?;
        Ok(self.play_unchecked(mv))
    }

    /// Whether neither side can move on a board of `size`.
    #[inline]
    pub fn is_game_over_on(self, size: BoardSize) -> bool {
        self.legal_moves_on(size) == 0 && self.pass().legal_moves_on(size) == 0
    }

    /// Whether neither side can move on the 8x8 board.
    #[inline]
    pub fn is_game_over(self) -> bool {
        self.is_game_over_on(BoardSize::Eight)
    }

    /// The final score for the side to move on a board of `size`: the disc
    /// difference with the empty squares given to the winner (a draw stays 0).
    pub const fn final_score_on(self, size: BoardSize) -> i32 {
        let mine = self.player_count() as i32;
        let theirs = self.opponent_count() as i32;
        let empties = self.empty_count_on(size) as i32;
        let diff = mine - theirs;
        if diff > 0 {
            diff + empties
        } else if diff < 0 {
            diff - empties
        } else {
            0
        }
    }

    /// The legal moves on a board of `size` as a list; a lone pass when the
    /// side to move is blocked but the game goes on; empty when it is over.
    pub fn move_list_on(self, size: BoardSize) -> MoveList {
        let mut list = MoveList::new();
        let moves = self.legal_moves_on(size);
        for square in crate::bitboard::squares(moves) {
            list.push(Move::Place {
                square,
                flips: self.flips(square),
            });
        }
        if moves == 0 && self.pass().legal_moves_on(size) != 0 {
            list.push(Move::Pass);
        }
        list
    }

    /// The board transformed by a symmetry of a board of `size`.
    pub fn symmetric(self, symmetry: Symmetry, size: BoardSize) -> Board {
        Board::new(
            symmetry.apply_sized(self.player, size),
            symmetry.apply_sized(self.opponent, size),
        )
    }

    /// A fast 64-bit hash of the board for hash tables (not cryptographic;
    /// equal boards hash equally, and the table stores the board itself).
    #[inline]
    pub const fn hash64(self) -> u64 {
        const K1: u64 = 0x9e37_79b9_7f4a_7c15;
        const K2: u64 = 0xc2b2_ae3d_27d4_eb4f;
        let mut h = self.player.wrapping_mul(K1) ^ self.opponent.rotate_left(32).wrapping_mul(K2);
        h ^= h >> 32;
        h = h.wrapping_mul(K1);
        h ^ (h >> 29)
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Board {{ player: {:#018x}, opponent: {:#018x} }}",
            self.player, self.opponent
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn start_position_has_four_moves() {
        let board = Board::start(BoardSize::Eight);
        let moves: Vec<String> = crate::bitboard::squares(board.legal_moves())
            .map(|s| s.to_string())
            .collect();
        assert_eq!(moves, ["d3", "c4", "f5", "e6"]);
        assert_eq!(board.player & sq("e4").bit(), sq("e4").bit());
        assert_eq!(board.opponent & sq("d4").bit(), sq("d4").bit());
    }

    #[test]
    fn small_board_starts() {
        let four = Board::start(BoardSize::Four);
        let moves: Vec<String> = crate::bitboard::squares(four.legal_moves_on(BoardSize::Four))
            .map(|s| s.to_string())
            .collect();
        assert_eq!(moves, ["b1", "a2", "d3", "c4"]);
        let six = Board::start(BoardSize::Six);
        assert_eq!(six.legal_moves_on(BoardSize::Six).count_ones(), 4);
        assert_eq!(six.empty_count_on(BoardSize::Six), 32);
    }

    #[test]
    fn checked_play_rejects_illegal_moves_and_leaves_board() {
        let board = Board::start(BoardSize::Eight);
        let before = board;
        assert_eq!(
            board
                .placement_on(sq("a1"), BoardSize::Eight)
                .unwrap_err()
                .reason,
            IllegalReason::NoFlips
        );
        assert_eq!(
            board
                .placement_on(sq("d4"), BoardSize::Eight)
                .unwrap_err()
                .reason,
            IllegalReason::Occupied
        );
        assert_eq!(
            board
                .play_on(Move::Pass, BoardSize::Eight)
                .unwrap_err()
                .reason,
            IllegalReason::PassWithMoves
        );
        let forged = Move::Place {
            square: sq("f5"),
            flips: 1,
        };
        assert_eq!(
            board.play_on(forged, BoardSize::Eight).unwrap_err().reason,
            IllegalReason::WrongFlips
        );
        assert_eq!(board, before);
        let f5 = board.placement_on(sq("f5"), BoardSize::Eight).unwrap();
        let after = board.play_on(f5, BoardSize::Eight).unwrap();
        assert_eq!(after.opponent_count(), 4);
        assert_eq!(after.player_count(), 1);
    }

    #[test]
    fn final_score_gives_empties_to_winner() {
        let board = Board::new(0b111, 0b1000);
        assert_eq!(board.final_score_on(BoardSize::Eight), 3 - 1 + 60);
        assert_eq!(board.pass().final_score_on(BoardSize::Eight), -62);
        assert_eq!(Board::new(1, 2).final_score_on(BoardSize::Four), 0);
    }
}
