//! Negamax over the book: every book move's value is the negation of its
//! position's value, one ply deeper, from the finished games and the best
//! unexplored moves up.
//!
//! The book is a graph without cycles (discs only increase, and a pass is
//! never followed by another), so one depth-first pass with a memo values
//! every position. A best unexplored move that has become a book move (its
//! position was added since it was searched) is dropped: the position's
//! best unexplored move must be searched again ([`Book::needs_search`]).

use super::{Book, Edge, Value, key};
use crate::board::Board;
use rustc_hash::FxHashMap;

/// Recomputes every position's book moves and their values.
pub fn negamax(book: &mut Book) {
    let mut memo: FxHashMap<Board, Option<Value>> = FxHashMap::default();
    for key in book.sorted_keys() {
        value(book, key, &mut memo);
    }
}

/// The value of the position under `key`, its book moves set on the way.
fn value(book: &mut Book, key: Board, memo: &mut FxHashMap<Board, Option<Value>>) -> Option<Value> {
    if let Some(known) = memo.get(&key) {
        return *known;
    }
    let mut moves = Vec::new();
    for (code, child) in key::moves(key) {
        let (child_key, _) = key::canonical(child);
        if book.node(&child_key).is_none() {
            continue;
        }
        if let Some(child_value) = value(book, child_key, memo) {
            moves.push(Edge {
                mv: code,
                value: child_value.parent(code == key::PASS),
            });
        }
    }
    let stale = book
        .node(&key)
        .and_then(|node| node.unexplored)
        .is_some_and(|edge| leads_into_book(book, key, edge.mv));
    let node = book.node_mut(&key)?;
    node.moves = moves;
    if stale {
        node.unexplored = None;
    }
    let result = book.value_of(&key);
    memo.insert(key, result);
    result
}

/// Whether move `code` of the position under `key` leads to a book position.
pub(crate) fn leads_into_book(book: &Book, key: Board, code: u8) -> bool {
    key::decode(key, code, crate::bitboard::Symmetry::Identity)
        .is_some_and(|mv| book.contains(key.play_unchecked(mv)))
}
