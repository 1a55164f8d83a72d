//! A position: a board with the colour to move and the board size.

use crate::bitboard::{BoardSize, Symmetry};
use crate::board::{Board, IllegalMoveError};
use crate::color::Color;
use crate::moves::{Move, MoveList};
use crate::square::Square;

/// Everything needed to continue a game: discs, side to move, board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub board: Board,
    pub side: Color,
    pub size: BoardSize,
}

impl Position {
    /// The standard start position of `size`, Black to move.
    pub fn start(size: BoardSize) -> Position {
        Position {
            board: Board::start(size),
            side: Color::Black,
            size,
        }
    }

    /// A position from Black's and White's discs.
    pub fn from_colors(black: u64, white: u64, side: Color, size: BoardSize) -> Position {
        Position {
            board: Board::from_colors(black, white, side),
            side,
            size,
        }
    }

    /// Black's discs.
    pub fn black(&self) -> u64 {
        self.board.to_colors(self.side).0
    }

    /// White's discs.
    pub fn white(&self) -> u64 {
        self.board.to_colors(self.side).1
    }

    /// The colour of the disc on `square`, if any.
    pub fn disc(&self, square: Square) -> Option<Color> {
        if self.black() & square.bit() != 0 {
            Some(Color::Black)
        } else if self.white() & square.bit() != 0 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// Legal move squares for the side to move.
    pub fn legal_moves(&self) -> u64 {
        self.board.legal_moves_on(self.size)
    }

    /// Legal moves as a list (a lone pass when blocked, empty at game end).
    pub fn move_list(&self) -> MoveList {
        self.board.move_list_on(self.size)
    }

    /// Number of empty squares.
    pub fn empty_count(&self) -> u32 {
        self.board.empty_count_on(self.size)
    }

    /// Whether neither side can move.
    pub fn is_game_over(&self) -> bool {
        self.board.is_game_over_on(self.size)
    }

    /// Whether the side to move must pass (it is blocked, the opponent is not).
    pub fn must_pass(&self) -> bool {
        self.legal_moves() == 0 && !self.is_game_over()
    }

    /// The legal placement on `square`, with its flips.
    pub fn placement(&self, square: Square) -> Result<Move, IllegalMoveError> {
        self.board.placement_on(square, self.size)
    }

    /// The position after `mv`, or an error that leaves this one unchanged.
    pub fn play(&self, mv: Move) -> Result<Position, IllegalMoveError> {
        let board = self.board.play_on(mv, self.size)?;
        Ok(Position {
            board,
            side: self.side.opponent(),
            size: self.size,
        })
    }

    /// The position after a legal `mv` (checked in debug builds only).
    pub fn play_unchecked(&self, mv: Move) -> Position {
        Position {
            board: self.board.play_unchecked(mv),
            side: self.side.opponent(),
            size: self.size,
        }
    }

    /// Black's final disc difference with empties to the winner.
    pub fn final_score_black(&self) -> i32 {
        let score = self.board.final_score_on(self.size);
        if self.side == Color::Black {
            score
        } else {
            -score
        }
    }

    /// Black's disc count and White's disc count.
    pub fn disc_counts(&self) -> (u32, u32) {
        (self.black().count_ones(), self.white().count_ones())
    }

    /// The position transformed by a symmetry.
    pub fn symmetric(&self, symmetry: Symmetry) -> Position {
        Position {
            board: self.board.symmetric(symmetry, self.size),
            ..*self
        }
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::start(BoardSize::Eight)
    }
}
