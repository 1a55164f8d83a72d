//! The opening book: positions searched once and for all, so that play
//! answers them at once, analysis shows their known moves, and the search
//! of a position just past them starts from their values.
//!
//! A [`Book`] holds each position once, under its symmetry class
//! ([`key`]). A position ([`Node`]) keeps:
//!
//! - its **book moves**: the moves whose position is in the book too, each
//!   with the negamax of that position's value ([`negamax`]);
//! - its **best unexplored move**: the best of the other moves, found by a
//!   search that excludes the book moves, with that search's score, depth
//!   and selectivity, so that a line leaving the book keeps a known score;
//! - the number of games through it in the games the book was built from.
//!
//! A position's value is the best of its moves' scores, known to the least
//! depth and selectivity among them ([`Node::value`]).
//!
//! The rest, one concept per file: the binary file ([`mod@format`]), the text
//! form ([`text`]), the searches and their resumable journal ([`pool`],
//! [`journal`]), building from games ([`build`]), growing a book
//! ([`grow`]: `extend`, `deepen`, `learn`), merging books ([`merge`]) and
//! what play asks of it ([`choice`]).

pub mod build;
pub mod choice;
pub mod format;
pub mod grow;
pub mod journal;
pub mod key;
pub mod merge;
pub mod negamax;
pub mod pool;
pub mod text;

#[cfg(test)]
pub(crate) mod tests;

pub use choice::{BookMove, Need};
pub use format::BookError;

use crate::bitboard::BoardSize;
use crate::board::Board;
use crate::position::Position;
use crate::search::Selectivity;
use rustc_hash::FxHashMap;
use std::cmp::Ordering;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// Which book play uses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum BookSource {
    /// None.
    #[default]
    None,
    /// The book built into the binary (`fitted/book.bin`), if any.
    BuiltIn,
    /// A book file.
    File(PathBuf),
}

/// The bytes of the built-in book (none when the crate was built without
/// `fitted/book.bin`).
#[cfg(built_in_book)]
const BUILT_IN: &[u8] = include_bytes!("../../fitted/book.bin");
#[cfg(not(built_in_book))]
const BUILT_IN: &[u8] = &[];

/// The built-in book, decoded once per process; `None` when there is none
/// (or it cannot be read, which is logged).
pub fn built_in() -> Option<Arc<Book>> {
    static BOOK: OnceLock<Option<Arc<Book>>> = OnceLock::new();
    BOOK.get_or_init(|| {
        if BUILT_IN.is_empty() {
            return None;
        }
        match format::decode(BUILT_IN) {
            Ok(book) if book.is_empty() => None,
            Ok(book) => Some(Arc::new(book)),
            Err(error) => {
                log::warn!(
                    "oxello: the built-in opening book cannot be read ({error}); playing without"
                );
                None
            }
        }
    })
    .clone()
}

/// The book of `source`: `Ok(None)` for none (or an empty built-in book).
pub fn open(source: &BookSource) -> Result<Option<Arc<Book>>, BookError> {
    match source {
        BookSource::None => Ok(None),
        BookSource::BuiltIn => Ok(built_in()),
        BookSource::File(path) => format::load(path).map(|book| Some(Arc::new(book))),
    }
}

/// A score (discs, side to move's view) with the depth and selectivity of
/// the search behind it. A depth of at least the position's empties at
/// 100% is an exact solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Value {
    pub score: i8,
    pub depth: u8,
    pub selectivity: Selectivity,
}

impl Value {
    /// Whether this value is proven: a full-width solve of `empties`.
    pub fn is_exact(self, empties: u32) -> bool {
        u32::from(self.depth) >= empties && self.selectivity.is_none()
    }

    /// Whether this value comes from a deeper (or as deep and less
    /// selective) search than `other`.
    pub fn more_reliable(self, other: Value) -> bool {
        (self.depth, self.selectivity) > (other.depth, other.selectivity)
    }

    /// The value of the position before a move leading to this one: the
    /// score negated, one ply deeper (a pass costs no ply).
    pub fn parent(self, pass: bool) -> Value {
        Value {
            score: self.score.saturating_neg(),
            depth: self.depth.saturating_add(u8::from(!pass)).min(MAX_DEPTH),
            selectivity: self.selectivity,
        }
    }

    /// The depth as searches report it, for a position of `empties`.
    pub fn search_depth(self, empties: u32) -> crate::search::Depth {
        use crate::search::{Depth, SolveMode};
        if self.is_exact(empties) {
            Depth::Exact
        } else if u32::from(self.depth) >= empties {
            Depth::Probable {
                empties,
                selectivity: self.selectivity,
                mode: SolveMode::Exact,
            }
        } else {
            Depth::Midgame(u32::from(self.depth), self.selectivity)
        }
    }
}

/// Deepest depth a book value records (an exact solve of the start).
pub const MAX_DEPTH: u8 = 60;

/// A move of a book position (a code of [`key`], in the canonical board's
/// coordinates) and its value from the mover's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Edge {
    pub mv: u8,
    pub value: Value,
}

/// One position of the book (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    /// Games through this position in the games the book was built from
    /// (and learned).
    pub games: u32,
    /// The best move that is not a book move, and its value; `None` until
    /// searched, or when every move is a book move.
    pub unexplored: Option<Edge>,
    /// The book moves, by move code, with the negamax of their positions.
    pub moves: Vec<Edge>,
}

impl Node {
    /// A position seen in `games` games, not searched yet.
    pub fn seen(games: u32) -> Node {
        Node {
            games,
            ..Node::default()
        }
    }

    /// Every move with a value: the book moves, then the unexplored one.
    pub fn edges(&self) -> impl Iterator<Item = &Edge> {
        self.moves.iter().chain(&self.unexplored)
    }

    /// The position's value: the best score of its moves, known to the
    /// least depth and selectivity among them (the best of several
    /// estimates is only as sure as the least sure one). `None` when no
    /// move has a value; a finished game's value is
    /// [`Book::value_of`]'s.
    pub fn value(&self) -> Option<Value> {
        self.edges().map(|edge| edge.value).reduce(|a, b| Value {
            score: a.score.max(b.score),
            depth: a.depth.min(b.depth),
            selectivity: a.selectivity.min(b.selectivity),
        })
    }

    /// The best move: highest score, lowest code on ties.
    pub fn best(&self) -> Option<Edge> {
        self.edges().copied().min_by(by_score)
    }

    /// Moves best first (by score, then code).
    pub fn ranked(&self) -> Vec<Edge> {
        let mut edges: Vec<Edge> = self.edges().copied().collect();
        edges.sort_by(by_score);
        edges
    }
}

/// Higher score first, then lower code.
fn by_score(a: &Edge, b: &Edge) -> Ordering {
    b.value.score.cmp(&a.value.score).then(a.mv.cmp(&b.mv))
}

/// An opening book (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    nodes: FxHashMap<Board, Node>,
}

impl Book {
    /// An empty book.
    pub fn new() -> Book {
        Book::default()
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The position stored under canonical board `key`.
    pub fn node(&self, key: &Board) -> Option<&Node> {
        self.nodes.get(key)
    }

    pub fn node_mut(&mut self, key: &Board) -> Option<&mut Node> {
        self.nodes.get_mut(key)
    }

    /// Whether `board` (any of its images) is in the book.
    pub fn contains(&self, board: Board) -> bool {
        self.nodes.contains_key(&key::canonical(board).0)
    }

    /// Stores `node` under canonical board `key`, replacing any.
    pub fn insert(&mut self, key: Board, node: Node) {
        debug_assert_eq!(key::canonical(key).0, key);
        self.nodes.insert(key, node);
    }

    /// The position of `board` (any image), its canonical board and the
    /// symmetry that maps `board` onto it.
    pub fn find(&self, board: Board) -> Option<(&Node, Board, crate::bitboard::Symmetry)> {
        let (key, symmetry) = key::canonical(board);
        self.nodes.get(&key).map(|node| (node, key, symmetry))
    }

    /// Canonical boards and positions, in no order.
    pub fn iter(&self) -> impl Iterator<Item = (&Board, &Node)> {
        self.nodes.iter()
    }

    /// Canonical boards in their order (player, then opponent bits): the
    /// order of files and of the searches' shards.
    pub fn sorted_keys(&self) -> Vec<Board> {
        let mut keys: Vec<Board> = self.nodes.keys().copied().collect();
        keys.sort_unstable_by_key(|b| (b.player, b.opponent));
        keys
    }

    /// The value of the position stored under `key`: its node's, or the
    /// final score of a finished game.
    pub fn value_of(&self, key: &Board) -> Option<Value> {
        let node = self.nodes.get(key)?;
        node.value().or_else(|| {
            key.is_game_over().then(|| Value {
                score: key.final_score_on(BoardSize::Eight) as i8,
                depth: key.empty_count_on(BoardSize::Eight) as u8,
                selectivity: Selectivity::NONE,
            })
        })
    }

    /// The value of `position` (any image), if it is in the book.
    pub fn value(&self, position: &Position) -> Option<Value> {
        if position.size != BoardSize::Eight {
            return None;
        }
        self.value_of(&key::canonical(position.board).0)
    }

    /// Whether the position under `key` has moves left to search: it is
    /// not finished, some move leads out of the book, and its best
    /// unexplored move is unknown.
    pub fn needs_search(&self, key: &Board) -> bool {
        let Some(node) = self.nodes.get(key) else {
            return false;
        };
        node.unexplored.is_none() && self.excluded(key).is_some()
    }

    /// The squares of `key`'s book moves, to exclude from the search of its
    /// best unexplored move; `None` when every move is a book move (or the
    /// game is over).
    pub fn excluded(&self, key: &Board) -> Option<u64> {
        let mut excluded = 0u64;
        let mut left = false;
        for (code, child) in key::moves(*key) {
            if self.contains(child) {
                if code != key::PASS {
                    excluded |= 1u64 << code;
                }
            } else {
                left = true;
            }
        }
        left.then_some(excluded)
    }

    /// Removes the positions for which `keep` is false.
    pub fn retain(&mut self, mut keep: impl FnMut(&Board, &Node) -> bool) {
        self.nodes.retain(|key, node| keep(key, node));
    }
}
