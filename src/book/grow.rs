//! Growing a book. Each step changes which positions are in the book or
//! which values must be searched again; [`super::pool::complete`] then
//! searches what is missing and [`super::negamax::negamax`] values the
//! book again.
//!
//! - [`extend`]: where the best unexplored move scores within a window of
//!   the position's value, so that it could change the choice, its
//!   position joins the book (searched in turn), and the position's best
//!   unexplored move is searched again among the moves left.
//! - [`deepen`]: best unexplored moves known to less than a depth are
//!   searched again at that depth.
//! - [`add_game`]: a game's positions join the book (NBoard's `learn`):
//!   deviation learning, where each position of the game gets its best
//!   unexplored move searched, the game's own move being a book move.

use super::negamax::{leads_into_book, negamax};
use super::{Book, Node, key};
use crate::bitboard::{BoardSize, Symmetry};
use crate::board::Board;
use crate::search::Selectivity;
use crate::shard::Shard;

/// Which positions [`extend`] grows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtendOptions {
    /// Grow a position whose best unexplored move scores at most this many
    /// discs below its value.
    pub window: i32,
    /// Add at most this many positions (the ones nearest the start first).
    pub limit: Option<usize>,
    /// This machine's part of the candidates.
    pub shard: Shard,
}

/// The positions [`extend`] would grow, nearest the start first (most
/// empties, then canonical board order): where the best unexplored move
/// scores within the window of the value and leads out of the book.
pub fn extend_candidates(book: &Book, window: i32) -> Vec<Board> {
    let mut candidates: Vec<Board> = book
        .iter()
        .filter_map(|(key, node)| {
            let unexplored = node.unexplored?;
            let value = book.value_of(key)?;
            let close = i32::from(value.score) - i32::from(unexplored.value.score) <= window;
            (close && !leads_into_book(book, *key, unexplored.mv)).then_some(*key)
        })
        .collect();
    candidates.sort_unstable_by_key(|key| {
        (
            std::cmp::Reverse(key.empty_count_on(BoardSize::Eight)),
            key.player,
            key.opponent,
        )
    });
    candidates
}

/// Adds the positions of the best unexplored moves of [`extend_candidates`]
/// (this shard's, at most `limit`) to the book, and forgets the best
/// unexplored moves they were, to be searched again. Returns the number of
/// positions added.
pub fn extend(book: &mut Book, options: &ExtendOptions) -> usize {
    let candidates = extend_candidates(book, options.window);
    let mut added = 0;
    for (index, parent) in candidates.iter().enumerate() {
        if !options.shard.contains(index as u64) {
            continue;
        }
        if options.limit.is_some_and(|limit| added >= limit) {
            break;
        }
        let Some(edge) = book.node(parent).and_then(|node| node.unexplored) else {
            continue;
        };
        let Some(mv) = key::decode(*parent, edge.mv, Symmetry::Identity) else {
            continue;
        };
        let (child, _) = key::canonical(parent.play_unchecked(mv));
        if book.node(&child).is_none() {
            book.insert(child, Node::seen(0));
            added += 1;
        }
    }
    // The parents' best unexplored moves are book moves now: dropped.
    negamax(book);
    added
}

/// Forgets every best unexplored move known to less than `depth` (or as
/// deep and more selective than `selectivity`), to be searched again.
/// Returns how many.
pub fn deepen(book: &mut Book, depth: u8, selectivity: Selectivity) -> usize {
    let mut count = 0;
    for key in book.sorted_keys() {
        let Some(node) = book.node_mut(&key) else {
            continue;
        };
        let exact = node
            .unexplored
            .is_some_and(|edge| edge.value.is_exact(key.empty_count_on(BoardSize::Eight)));
        if node.unexplored.is_some_and(|edge| {
            !exact && (edge.value.depth, edge.value.selectivity) < (depth, selectivity)
        }) {
            node.unexplored = None;
            count += 1;
        }
    }
    count
}

/// Adds the positions of `positions` (a game from its start, 8x8), at most
/// the first `plies` + 1 of them, one more game through each. Returns the
/// number of positions new to the book.
pub fn add_game(book: &mut Book, positions: &[crate::position::Position], plies: usize) -> usize {
    let mut added = 0;
    for position in positions.iter().take(plies + 1) {
        if position.size != BoardSize::Eight {
            break;
        }
        let (key, _) = key::canonical(position.board);
        match book.node_mut(&key) {
            Some(node) => node.games = node.games.saturating_add(1),
            None => {
                book.insert(key, Node::seen(1));
                added += 1;
            }
        }
    }
    negamax(book);
    added
}
