//! What bounds a gomoku search and what it reports.

use crate::gomoku::board::Point;
use std::time::{Duration, Instant};

/// What bounds a search.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration (default [`MAX_DEPTH`](super::MAX_DEPTH)).
    pub depth: Option<u32>,
    /// Stop at once at this time.
    pub deadline: Option<Instant>,
    /// Stop after this many nodes of all threads (each adds its count and
    /// checks every 64 nodes); also caps the root's VCF and VCT.
    pub nodes: Option<u64>,
    /// Whether to run VCT at the root.
    pub vct: bool,
    /// Search threads (0 or 1: one). They share the table; only the main
    /// thread's iterations reach `progress`. The answer is the best
    /// iteration any thread finished (a proven win, else the deepest), and
    /// the thread that finishes the last iteration or proves a win stops
    /// the others. Node counts and the node limit add up over all threads.
    pub threads: usize,
    /// Whether to score every root move with a full window (for self-play
    /// policies; see [`SearchResult::root_scores`]) rather than prove the
    /// other moves worse than the best with null windows.
    pub score_root: bool,
}

impl Limits {
    /// Limits for a turn of `budget`: iterations run until its end. An
    /// iteration costs several times the last, so one started late is
    /// mostly cut off; but its best move counts, and the table it fills
    /// helps the next turn. Running to the end against starting none after
    /// 60% of the turn (0.3 s per move, 480 games): 250-2-228, about Elo
    /// +16 +- 31 ["Iterative deepening and time"].
    pub fn for_time(budget: Duration) -> Limits {
        Limits {
            depth: None,
            deadline: Some(Instant::now() + budget),
            nodes: None,
            vct: true,
            score_root: false,
            threads: 1,
        }
    }
}

/// Progress: one line per finished iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub depth: u32,
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Point>,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// `None` only when the board is full.
    pub best: Option<Point>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Point>,
    /// How the move was found.
    pub source: Source,
    /// With [`Limits::score_root`], each root move's score from the deepest
    /// iteration that reached it (a move not reached by an interrupted
    /// iteration keeps its score of the one before), in the order searched;
    /// empty when no iteration ran (a forced move, a VCF or VCT win).
    pub root_scores: Vec<(Point, i32)>,
}

/// What decided the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Forced,
    Vcf,
    Vct,
    Search,
}
