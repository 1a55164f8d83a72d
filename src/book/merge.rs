//! Merging books: the shards of one run, or books built on other machines
//! from other games. A position in several books keeps the most games and
//! the deepest best unexplored move that is still not a book move of the
//! merged book; then the values are negamaxed again.

use super::negamax::{leads_into_book, negamax};
use super::{Book, Edge, Node};
use crate::board::Board;
use rustc_hash::FxHashMap;

/// The merge of `books` (see the module documentation).
pub fn merge(books: impl IntoIterator<Item = Book>) -> Book {
    let mut candidates: FxHashMap<Board, (u32, Vec<Edge>)> = FxHashMap::default();
    for book in books {
        for (key, node) in book.nodes {
            let entry = candidates.entry(key).or_default();
            entry.0 = entry.0.max(node.games);
            entry.1.extend(node.unexplored);
        }
    }
    let mut merged = Book::new();
    for (key, (games, _)) in &candidates {
        merged.insert(*key, Node::seen(*games));
    }
    for (key, (_, edges)) in candidates {
        // The deepest; of equally deep ones, the lowest score (the search
        // that excluded more moves), then the lowest move: the same choice
        // whatever the order of the books.
        let best = edges
            .into_iter()
            .filter(|edge| !leads_into_book(&merged, key, edge.mv))
            .min_by(|a, b| {
                (b.value.depth, b.value.selectivity)
                    .cmp(&(a.value.depth, a.value.selectivity))
                    .then(a.value.score.cmp(&b.value.score))
                    .then(a.mv.cmp(&b.mv))
            });
        if let Some(node) = merged.node_mut(&key) {
            node.unexplored = best;
        }
    }
    negamax(&mut merged);
    merged
}
