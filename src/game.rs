//! A game: a start position and the moves played from it, with undo and redo.
//!
//! Passes are explicit moves in the history. [`Game::play_implicit`] adds the
//! pass itself when the side to move is blocked, as transcripts and WTHOR
//! records require.

use crate::bitboard::BoardSize;
use crate::board::{IllegalMoveError, IllegalReason};
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;

/// A game in progress or finished.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    start: Position,
    /// `positions[i]` is the position before `moves[i]`; the last entry is
    /// the current position, so there is always one more position than moves.
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// Moves taken back by `undo`, most recent last, replayed by `redo`.
    redo: Vec<Move>,
}

impl Game {
    /// A new game from the standard start of `size`.
    pub fn new(size: BoardSize) -> Game {
        Game::from_position(Position::start(size))
    }

    /// A new game from any position.
    pub fn from_position(start: Position) -> Game {
        Game {
            start,
            positions: vec![start],
            moves: Vec::new(),
            redo: Vec::new(),
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> Position {
        self.start
    }

    /// The current position.
    pub fn position(&self) -> Position {
        *self.positions.last().expect("a game always has a position")
    }

    /// The moves played, passes included.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The positions before each move, then the current one.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Board size of the game.
    pub fn size(&self) -> BoardSize {
        self.start.size
    }

    /// Whether neither side can move.
    pub fn is_over(&self) -> bool {
        self.position().is_game_over()
    }

    /// Plays a move (placement or pass); on error nothing changes.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        let next = self.position().play(mv)?;
        self.positions.push(next);
        self.moves.push(mv);
        self.redo.clear();
        Ok(())
    }

    /// Plays a disc on `square`; on error nothing changes.
    pub fn play_square(&mut self, square: Square) -> Result<Move, IllegalMoveError> {
        let mv = self.position().placement(square)?;
        self.play(mv)?;
        Ok(mv)
    }

    /// Plays a disc on `square`, first passing when the side to move is
    /// blocked (the transcript convention). On error nothing changes.
    pub fn play_implicit(&mut self, square: Square) -> Result<Move, IllegalMoveError> {
        let position = self.position();
        if position.is_game_over() {
            return Err(IllegalMoveError {
                mv: square.to_string(),
                reason: IllegalReason::GameOver,
            });
        }
        if !position.must_pass() {
            return self.play_square(square);
        }
        let after_pass = position.play_unchecked(Move::Pass);
        let mv = after_pass.placement(square)?;
        self.play(Move::Pass)?;
        self.play(mv)?;
        Ok(mv)
    }

    /// Takes back the last move (a pass counts as a move). Returns it, or
    /// `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.redo.push(mv);
        Some(mv)
    }

    /// Replays the last move taken back.
    pub fn redo(&mut self) -> Option<Move> {
        let mv = self.redo.pop()?;
        let next = self.position().play_unchecked(mv);
        self.positions.push(next);
        self.moves.push(mv);
        Some(mv)
    }

    /// Goes back to the position after the first `ply` moves (for navigation).
    pub fn truncate(&mut self, ply: usize) {
        while self.moves.len() > ply {
            self.undo();
        }
    }

    /// Black's final score (empties to the winner), when the game is over.
    pub fn final_score_black(&self) -> Option<i32> {
        self.is_over().then(|| self.position().final_score_black())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_and_redo_restore_positions() {
        let mut game = Game::new(BoardSize::Eight);
        let start = game.position();
        for name in ["f5", "d6", "c3"] {
            game.play_square(name.parse().unwrap()).unwrap();
        }
        let after = game.position();
        assert_eq!(game.undo().unwrap().to_string(), "c3");
        game.undo();
        game.undo();
        assert_eq!(game.undo(), None);
        assert_eq!(game.position(), start);
        game.redo();
        game.redo();
        game.redo();
        assert_eq!(game.position(), after);
        assert_eq!(game.redo(), None);
    }

    #[test]
    fn illegal_move_leaves_game_unchanged() {
        let mut game = Game::new(BoardSize::Eight);
        game.play_square("f5".parse().unwrap()).unwrap();
        let before = game.clone();
        assert!(game.play_square("a1".parse().unwrap()).is_err());
        assert!(game.play(Move::Pass).is_err());
        assert_eq!(game, before);
    }
}
