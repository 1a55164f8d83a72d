//! Building a book from games: every position within the first plies of
//! the games, seen in enough of them, becomes a book position with the
//! number of games through it; then each one's best unexplored move is
//! searched ([`super::pool::complete`]) and the values negamaxed.
//!
//! The positions chosen depend only on the games, so every shard of a
//! build chooses the same ones, and searches its part of them: the shards'
//! books merged ([`super::merge`]) are the book of the whole build.

use super::Book;
use super::key;
use crate::bitboard::BoardSize;
use crate::board::Board;
use crate::position::Position;
use rustc_hash::{FxHashMap, FxHashSet};

/// Which positions of the games make the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    /// Positions after at most this many moves (passes count) of a game.
    pub plies: u32,
    /// Positions seen in at least this many games.
    pub min_games: u32,
}

/// Counts, for each position class, the games that go through it.
#[derive(Clone, Debug, Default)]
pub struct Counter {
    games: FxHashMap<Board, u32>,
    /// Games counted.
    pub total: u64,
}

impl Counter {
    pub fn new() -> Counter {
        Counter::default()
    }

    /// Counts one game, given as the sequence of its positions from the
    /// start (8x8 only; a position met twice in one game counts once).
    pub fn add_game(&mut self, positions: &[Position], selection: &Selection) {
        let mut seen = FxHashSet::default();
        for position in positions.iter().take(selection.plies as usize + 1) {
            if position.size != BoardSize::Eight {
                return;
            }
            let (canonical, _) = key::canonical(position.board);
            if seen.insert(canonical) {
                *self.games.entry(canonical).or_insert(0) += 1;
            }
        }
        self.total += 1;
    }

    /// The book of the positions seen in at least `min_games` games, not
    /// searched yet.
    pub fn book(&self, selection: &Selection) -> Book {
        let mut book = Book::new();
        for (key, &games) in &self.games {
            if games >= selection.min_games.max(1) {
                book.insert(*key, super::Node::seen(games));
            }
        }
        book
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::transcript;

    #[test]
    fn positions_seen_in_enough_games_are_chosen_up_to_symmetry() {
        // e6f4 and c4e3 are images of f5d6; f5f6 is seen once.
        let lines = ["f5d6c3", "f5d6c3", "f5f6e6", "e6f4", "c4e3"];
        let selection = Selection {
            plies: 2,
            min_games: 2,
        };
        let mut counter = Counter::new();
        for line in lines {
            let game = transcript::parse_game(line, Position::default()).unwrap();
            counter.add_game(game.positions(), &selection);
        }
        let book = counter.book(&selection);
        let games = |line: &str| {
            let game = transcript::parse_game(line, Position::default()).unwrap();
            book.find(game.position().board).map(|found| found.0.games)
        };
        assert_eq!(games(""), Some(5));
        assert_eq!(games("d3"), Some(5));
        assert_eq!(games("f5d6"), Some(4));
        assert_eq!(games("d3c5"), Some(4));
        assert_eq!(games("f5f6"), None);
        assert_eq!(games("f5d6c3"), None);
        assert_eq!(book.len(), 3);
        assert_eq!(counter.total, 5);
    }
}
