//! What a search is asked and what it answers: limits, bounds, depths,
//! reports and results.

use crate::moves::Move;
use crate::search::StopReason;
use crate::search::params::SOLVE_LADDER_MIN_EMPTIES;
use crate::search::selectivity::Selectivity;
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
    /// With `multi_pv` over 1: the lines after the first are only the
    /// moves that score as well as it. Each is proved by a null window
    /// just under the first line's score, and the lines end at the first
    /// such search that fails low. This is how `solve --write` lists every
    /// best move for a fraction of what scoring every move costs.
    pub ties_only: bool,
    /// Root moves not to consider.
    pub excluded: u64,
    /// Selectivity of the midgame iterations (Multi-ProbCut; 100%: none).
    pub selectivity: Selectivity,
    /// Selectivity the solve starts from: it solves at every level from
    /// this one up to 100%, each level reusing the table of the last (see
    /// [`Limits::ladder`] for the usual choice).
    pub solve_selectivity: Selectivity,
    /// Search threads (1: reproducible with a node limit).
    pub threads: usize,
    /// Values known before the search (an opening book's), stored in the
    /// table as it starts: see [`Seed`].
    pub seeds: Vec<Seed>,
}

/// A value known before a search, such as an opening book's: the search
/// stores it in its table as it starts, as if a search to `depth` at
/// `selectivity` had found it, so that it is the search's first guess:
/// its best move is searched first, and a node searched no deeper takes
/// its value as a cut-off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seed {
    pub board: crate::board::Board,
    /// Disc difference for the side to move.
    pub score: i32,
    /// The table's depth: plies, or [`crate::search::tt::exact_depth`] for
    /// an exact solve.
    pub depth: u8,
    pub selectivity: Selectivity,
    pub best: Option<crate::square::Square>,
}

impl Limits {
    /// Where the solve of a position with `empties` empty squares starts
    /// when play or analysis asks for `selectivity`: there, except for
    /// solves of fewer than [`SOLVE_LADDER_MIN_EMPTIES`], which go straight
    /// to 100% (their probable steps cost more than they save), unless a
    /// clock leaves too little time for the exact solve: the driver then
    /// starts them at `selectivity` after all.
    pub fn ladder(selectivity: Selectivity, empties: u32) -> Selectivity {
        if empties < SOLVE_LADDER_MIN_EMPTIES {
            Selectivity::NONE
        } else {
            selectivity
        }
    }
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
            ties_only: false,
            excluded: 0,
            selectivity: Selectivity::NONE,
            solve_selectivity: Selectivity::NONE,
            threads: 1,
            seeds: Vec::new(),
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
    /// A midgame search of this many plies, at a selectivity (100%: full
    /// width).
    Midgame(u32, Selectivity),
    /// A selective solve of this many empties: a probable score (or
    /// win/loss/draw), never an exact one.
    Probable {
        empties: u32,
        selectivity: Selectivity,
        mode: SolveMode,
    },
    /// An exact solve.
    Exact,
    /// A win/loss/draw solve: only the sign of the score is meaningful.
    Wld,
}

impl Depth {
    /// A full-width midgame depth.
    pub const fn plies(depth: u32) -> Depth {
        Depth::Midgame(depth, Selectivity::NONE)
    }

    /// Whether the result comes from a solve to the end of the game
    /// (probable or proven).
    pub fn is_solve(self) -> bool {
        !matches!(self, Depth::Midgame(..))
    }

    /// Whether the score is proven: an exact or win/loss/draw solve, never a
    /// selective one.
    pub fn is_proven(self) -> bool {
        matches!(self, Depth::Exact | Depth::Wld)
    }

    /// The selectivity of the result (100% for proven solves).
    pub fn selectivity(self) -> Selectivity {
        match self {
            Depth::Midgame(_, selectivity) | Depth::Probable { selectivity, .. } => selectivity,
            Depth::Exact | Depth::Wld => Selectivity::NONE,
        }
    }

    /// The label consoles and the CLI print: `12`, `12@73%` (selective
    /// midgame), `24@95%` (probable solve of 24 empties; `W` added for
    /// win/loss/draw), `100%` (exact), `100%W` (win/loss/draw).
    pub fn label(self) -> String {
        match self {
            Depth::Midgame(d, s) if s.is_none() => format!("{d}"),
            Depth::Midgame(d, s) => format!("{d}@{s}"),
            Depth::Probable {
                empties,
                selectivity,
                mode,
            } => {
                let w = if mode == SolveMode::Wld { "W" } else { "" };
                format!("{empties}@{selectivity}{w}")
            }
            Depth::Exact => "100%".to_string(),
            Depth::Wld => "100%W".to_string(),
        }
    }
}

impl fmt::Display for Depth {
    /// NBoard's depth token: `12` for any midgame search (selective or not:
    /// the GUI reads a `%` as a solve), `95%` for a probable solve (`95%W`
    /// for win/loss/draw), `100%` exact, `100%W` win/loss/draw.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Depth::Midgame(d, _) => write!(f, "{d}"),
            Depth::Probable {
                selectivity, mode, ..
            } => {
                let w = if *mode == SolveMode::Wld { "W" } else { "" };
                write!(f, "{selectivity}{w}")
            }
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
    /// Whether the opening book answered instead of a search.
    pub book: bool,
}

impl SearchResult {
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-6)
    }
}
