//! The gomoku search: iterative deepening PVS over candidate moves near the
//! stones, a Zobrist-keyed transposition table, forced-move pruning (a five
//! must be blocked; an open three is answered by a defence or a four), VCF
//! at every node where the side to move has a four, and VCT at the root.
//!
//! With [`Limits::threads`] above one, the threads share the table through
//! `&self` and all run the iterations, each taking the root moves after the
//! first from its own place in the list (lazy SMP); the best iteration any
//! thread finished (a proven win, else the deepest) is the answer.
//!
//! - `params`: the tuned constants;
//! - `score`: win and loss scores;
//! - `limits`: what bounds a search and what it reports;
//! - `moves`: a node's moves, in order, and its static evaluation;
//! - `driver`: the root, iterative deepening and the threads;
//! - `node`: the search of one node;
//! - `table`: the transposition table.
//!
//! How the constants were measured, and what was tried and not kept:
//! `docs/trials/gomoku.md`.

mod driver;
mod limits;
mod moves;
mod node;
mod params;
mod score;
mod table;

pub use driver::Searcher;
pub use limits::{Limits, Progress, SearchResult, Source};
pub use moves::{eval_features, move_order};
pub use params::MAX_DEPTH;
pub use score::{WIN, WIN_BOUND};
