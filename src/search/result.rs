//! What a search is asked and what it answers: limits, bounds, depths,
//! reports and results.

use crate::moves::Move;
use crate::search::StopReason;
use crate::search::time::Clock;
use std::fmt;
use std::time::Duration;

/// Exact solve or win/loss/draw only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SolveMode {
    /// The exact final disc difference.
    #[default]
    Exact,
    /// Only whether the side to move wins, draws or loses (faster).
    Wld,
}

/// What bounds one search.
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// Deepest midgame iteration, in plies (`None`: no limit but the others).
    pub depth: Option<u32>,
    /// Solve (exactly or WLD) as soon as this few squares are empty.
    pub solve_empties: Option<u32>,
    /// How a solve is done.
    pub solve_mode: SolveMode,
    /// Stop after about this many nodes (reproducibly).
    pub nodes: Option<u64>,
    /// Time for this move.
    pub time: Option<Duration>,
    /// The game clock of the side to move (used when `time` is not set).
    pub clock: Option<Clock>,
    /// Number of best moves wanted (1 = just the best).
    pub multi_pv: usize,
    /// Root moves not to consider.
    pub excluded: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: None,
            solve_empties: None,
            solve_mode: SolveMode::Exact,
            nodes: None,
            time: None,
            clock: None,
            multi_pv: 1,
            excluded: 0,
        }
    }
}

/// Whether a score is exact or a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true score is at least this (fail high).
    Lower,
    /// The true score is at most this (fail low).
    Upper,
}

impl Bound {
    /// The marker consoles print before a score: `>` lower bound, `<` upper
    /// bound, blank for exact.
    pub fn marker(self) -> char {
        match self {
            Bound::Exact => ' ',
            Bound::Lower => '>',
            Bound::Upper => '<',
        }
    }
}

/// How deep a reported result reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// A midgame search of this many plies.
    Midgame(u32),
    /// An exact solve.
    Exact,
    /// A win/loss/draw solve: only the sign of the score is meaningful.
    Wld,
}

impl Depth {
    /// Whether the result comes from a solve to the end of the game.
    pub fn is_solve(self) -> bool {
        !matches!(self, Depth::Midgame(_))
    }
}

impl fmt::Display for Depth {
    /// NBoard's depth token: `12`, `100%` (exact) or `100%W` (WLD).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Depth::Midgame(d) => write!(f, "{d}"),
            Depth::Exact => f.write_str("100%"),
            Depth::Wld => f.write_str("100%W"),
        }
    }
}

/// One line of search output: a move, its score and principal variation.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// 0 for the best move, 1 for the second best, ... (multi-PV).
    pub rank: usize,
    pub depth: Depth,
    /// Disc difference for the side to move.
    pub score: i32,
    pub bound: Bound,
    /// The principal variation, starting with the move reported.
    pub pv: Vec<Move>,
    /// Nodes searched so far in this search.
    pub nodes: u64,
    pub elapsed: Duration,
}

impl Report {
    /// The move this line is about.
    pub fn best(&self) -> Move {
        self.pv.first().copied().unwrap_or(Move::Pass)
    }

    /// Nodes per second so far.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-6)
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play: `None` only when the game is over.
    pub best: Option<Move>,
    pub score: i32,
    pub bound: Bound,
    pub depth: Depth,
    pub pv: Vec<Move>,
    /// The best lines of the last iteration, best first (one per multi-PV rank).
    pub lines: Vec<Report>,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Why the search ended early, if it did.
    pub stopped: Option<StopReason>,
}

impl SearchResult {
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-6)
    }
}
