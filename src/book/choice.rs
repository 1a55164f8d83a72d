//! What play and analysis ask of a book, in the coordinates of the position
//! at hand: its moves with their values, whether its value is known deeply
//! enough to answer instead of a search, a move to play (the best, or one
//! drawn among those within a few discs of it), the line the book expects,
//! and the values that seed a search of a position the book cannot answer.

use super::{Book, Edge, Value, key};
use crate::bitboard::{BoardSize, Symmetry};
use crate::board::Board;
use crate::moves::Move;
use crate::position::Position;
use crate::search::{Seed, tt};
use rand::Rng;

/// How deep a value must be known for the book to answer instead of a
/// search: as deep as the search that would replace it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// A midgame search of this many plies.
    Depth(u32),
    /// A solve: only a proven value will do.
    Exact,
}

/// A move of a book position, in the position's coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    /// Its value from the mover's view.
    pub value: Value,
    /// Games through the position it leads to (0 when that is not in the
    /// book).
    pub games: u32,
    /// Whether it is a book move (its position is in the book), else the
    /// best unexplored move.
    pub in_book: bool,
}

impl Need {
    /// Whether `value`, of a position of `empties`, is known deeply enough.
    pub fn met_by(self, value: Value, empties: u32) -> bool {
        match self {
            Need::Depth(depth) => u32::from(value.depth) >= depth || value.is_exact(empties),
            Need::Exact => value.is_exact(empties),
        }
    }
}

impl Book {
    /// The moves of `position` with a book value, best first (highest
    /// score, then the lowest square of the canonical board); `None` when
    /// the position is not in the book.
    pub fn moves(&self, position: &Position) -> Option<Vec<BookMove>> {
        if position.size != BoardSize::Eight {
            return None;
        }
        let (node, _, symmetry) = self.find(position.board)?;
        let moves = node
            .ranked()
            .iter()
            .filter_map(|edge| self.book_move(position.board, symmetry, edge, node))
            .collect();
        Some(moves)
    }

    fn book_move(
        &self,
        board: Board,
        symmetry: Symmetry,
        edge: &Edge,
        node: &super::Node,
    ) -> Option<BookMove> {
        let mv = key::decode(board, edge.mv, symmetry)?;
        let in_book = node.moves.contains(edge);
        let games = if in_book {
            self.find(board.play_unchecked(mv))
                .map_or(0, |(child, _, _)| child.games)
        } else {
            0
        };
        Some(BookMove {
            mv,
            value: edge.value,
            games,
            in_book,
        })
    }

    /// The move the book plays in `position` when its value meets `need`:
    /// the best move, or with `randomness` above 0 one drawn by `rng`
    /// among the moves scoring at most `randomness` discs below the best.
    pub fn choose(
        &self,
        position: &Position,
        need: Need,
        randomness: u32,
        rng: &mut impl Rng,
    ) -> Option<BookMove> {
        let value = self.value(position)?;
        if !need.met_by(value, position.empty_count()) {
            return None;
        }
        let moves = self.moves(position)?;
        let best = i32::from(moves.first()?.value.score);
        let floor = best.saturating_sub(randomness.min(128) as i32);
        let candidates: Vec<BookMove> = moves
            .into_iter()
            .filter(|m| i32::from(m.value.score) >= floor)
            .collect();
        let pick = if randomness == 0 || candidates.len() == 1 {
            0
        } else {
            rng.random_range(0..candidates.len())
        };
        candidates.get(pick).copied()
    }

    /// The line the book expects from `position` after `first`: `first`,
    /// then the best move of each position while it is in the book, at
    /// most `max` moves.
    pub fn line(&self, position: &Position, first: Move, max: usize) -> Vec<Move> {
        let mut line = vec![first];
        let mut current = position.play_unchecked(first);
        while line.len() < max {
            let Some(next) = self
                .moves(&current)
                .and_then(|moves| moves.first().copied())
            else {
                break;
            };
            line.push(next.mv);
            current = current.play_unchecked(next.mv);
        }
        line
    }

    /// The values the book knows of `position` and of the positions its
    /// moves lead to, as seeds of a search's table: the search of a
    /// position the book cannot answer starts from them (best moves first,
    /// and cut-offs wherever they are deep enough).
    pub fn seeds(&self, position: &Position) -> Vec<Seed> {
        if position.size != BoardSize::Eight {
            return Vec::new();
        }
        let mut seeds: Vec<Seed> = self.seed(position.board).into_iter().collect();
        for mv in position.move_list().iter() {
            seeds.extend(self.seed(position.board.play_unchecked(*mv)));
        }
        seeds
    }

    /// The seed of one board, if it is in the book with a value.
    fn seed(&self, board: Board) -> Option<Seed> {
        let (node, key, symmetry) = self.find(board)?;
        let value = self.value_of(&key)?;
        let empties = board.empty_count_on(BoardSize::Eight);
        let depth = if value.is_exact(empties) {
            tt::exact_depth(empties)
        } else {
            value.depth.min(tt::EXACT_DEPTH_BASE - 1)
        };
        let best = node
            .best()
            .and_then(|edge| key::decode(board, edge.mv, symmetry))
            .and_then(Move::square);
        Some(Seed {
            board,
            score: i32::from(value.score),
            depth,
            selectivity: value.selectivity,
            best,
        })
    }
}
