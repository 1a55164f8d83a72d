//! The search: iterative deepening over a negamax principal-variation search,
//! handing over to the exact endgame solver when the end is in reach.
//!
//! [`Searcher`] owns the transposition table and the evaluation and runs one
//! search at a time for the caller's thread ([`crate::engine`] puts it on a
//! worker). A search is bounded by [`Limits`] (depth, nodes, time per move or
//! a game clock, when to solve and whether exactly or win/loss/draw only) and
//! a [`StopSignal`]; it reports each completed iteration as a [`Report`] and
//! returns a [`SearchResult`].
//!
//! Iterations: depth 1, 2, ... with an aspiration window around the previous
//! score. When the depth reaches the number of empty squares, or the empties
//! are at most [`Limits::solve_empties`], the iteration is an exact (or WLD)
//! solve and is the last one; a few shallow midgame iterations run first so
//! that even a solve stopped early has a move to give. Several best moves
//! ([`Limits::multi_pv`]) are found by searching again with the moves already
//! found excluded at the root.

pub mod checkpoint;
pub mod control;
mod driver;
pub(crate) mod endgame;
mod huge_pages;
pub mod line;
pub(crate) mod local_table;
pub(crate) mod midgame;
mod node;
pub(crate) mod ordering;
mod parallel;
pub mod params;
pub mod probcut;
mod result;
mod root;
pub mod selectivity;
pub mod solve_cost;
mod split;
pub mod time;
pub mod tt;

pub use control::{StopReason, StopSignal};
pub use result::{Bound, Depth, Limits, Report, SearchResult, Seed, SolveMode};
pub use selectivity::Selectivity;
pub use time::Clock;

use crate::bitboard::BoardSize;
use crate::eval::Evaluator;
use crate::position::Position;
use crate::square::Square;
use control::{Control, Shared};
use driver::Driver;
use std::sync::Arc;
use std::time::Instant;
use time::Budget;
use tt::Table;

/// Owner of the table and the evaluation; runs searches.
pub struct Searcher {
    table: Table,
    evaluator: Evaluator,
    /// The counters of the search running now, if any (for
    /// [`Searcher::nodes_now`]).
    running: std::sync::Mutex<std::sync::Weak<Shared>>,
}

/// Default table size in MiB.
pub const DEFAULT_HASH_MIB: usize = 64;

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new(DEFAULT_HASH_MIB)
    }
}

impl Searcher {
    /// A searcher with a table of `hash_mib` MiB.
    pub fn new(hash_mib: usize) -> Searcher {
        Searcher {
            table: Table::new(hash_mib),
            evaluator: Evaluator::default(),
            running: std::sync::Mutex::new(std::sync::Weak::new()),
        }
    }

    /// Decodes what the first search would otherwise decode on its own
    /// clock: the learned evaluations' weights and the Multi-ProbCut model
    /// (about 0.1 s on this machine, more under load: a timed game's first
    /// move, with 0.45 s on the clock, was once stopped after 23 nodes).
    /// Every front end that times its searches calls it through
    /// [`Searcher::warmed`] before the first: the engine's search thread as
    /// it starts, and `analyze`, `solve`, `bench`, `search-labels` and
    /// `fit-probcut`.
    pub fn warm_up() {
        let started = Instant::now();
        let board = crate::board::Board::start(BoardSize::Eight);
        std::hint::black_box(crate::eval::patterns::evaluate(board));
        std::hint::black_box(crate::eval::six::built_in());
        std::hint::black_box(probcut::model());
        log::debug!("search warm-up: {:.1?}", started.elapsed());
    }

    /// A searcher with a table of `hash_mib` MiB, warmed up
    /// ([`Searcher::warm_up`]): for front ends that time their searches,
    /// whose first result would otherwise count the decoding in its time,
    /// its nodes per second and its time budget. Node counts do not change.
    pub fn warmed(hash_mib: usize) -> Searcher {
        let searcher = Searcher::new(hash_mib);
        Searcher::warm_up();
        searcher
    }

    /// Empties the table (for reproducible searches or a new game).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Replaces the table by one of `hash_mib` MiB.
    pub fn resize(&mut self, hash_mib: usize) {
        self.table = Table::new(hash_mib);
    }

    /// Nodes that the search running now has counted so far (each thread
    /// adds its own every few thousand), or `None` between searches.
    pub fn nodes_now(&self) -> Option<u64> {
        let running = self.running.lock().ok()?;
        running.upgrade().map(|shared| shared.nodes())
    }

    /// Table size in bytes.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Searches `position` within `limits`, calling `on_report` for every
    /// line of every completed iteration. Always returns a legal move when
    /// the side to move has one, even if stopped at once. Takes `&self`, so
    /// that another thread may save the table meanwhile
    /// ([`Searcher::save_checkpoint`]); run one search at a time (two would
    /// share the table, and [`Searcher::nodes_now`] follows the later).
    pub fn search(
        &self,
        position: &Position,
        limits: &Limits,
        stop: &StopSignal,
        on_report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        let started = Instant::now();
        self.table.new_search();
        self.plant(&limits.seeds);
        let budget = match (limits.time, &limits.clock) {
            (Some(time), _) => Some(Budget::per_move(time)),
            (None, Some(clock)) => Some(Budget::from_clock(clock, position.empty_count())),
            (None, None) => None,
        };
        let shared = Arc::new(Shared::new(
            stop.clone(),
            limits.nodes,
            budget.map(|b| started + b.hard),
        ));
        if let Ok(mut running) = self.running.lock() {
            *running = Arc::downgrade(&shared);
        }
        let driver = Driver {
            started,
            budget,
            limits,
            position: *position,
        };
        parallel::run(&self.table, &self.evaluator, &shared, &driver, on_report)
    }
}

impl Searcher {
    /// Stores `seeds` in the table, each as an exact score of its depth.
    fn plant(&self, seeds: &[Seed]) {
        for seed in seeds {
            let record = tt::Record {
                depth: seed.depth,
                selectivity: seed.selectivity.index(),
                alpha: seed.score - 1,
                beta: seed.score + 1,
                score: seed.score,
                best: seed.best.map_or(tt::NO_MOVE, |s| s.index() as u8),
            };
            self.table.store(seed.board, record);
        }
    }
}

/// The state shared by the midgame search and the endgame solver.
pub(crate) struct Search<'a> {
    pub tt: &'a Table,
    pub evaluator: &'a Evaluator,
    /// The learned evaluation, used instead of `evaluator` on 8x8 (the only
    /// size it is trained for).
    pub patterns: Option<&'static crate::eval::patterns::PatternWeights>,
    /// The network added to `patterns` (on 8x8; none while ordering moves).
    pub network: Option<&'static crate::eval::network::Network>,
    /// The learned 6x6 evaluation, used instead of `evaluator` on 6x6.
    pub six: Option<&'static crate::eval::six::SixWeights>,
    pub control: Control,
    pub size: BoardSize,
    /// Playable squares.
    pub mask: u64,
    /// Number of playable squares.
    pub squares: i32,
    /// Corner squares of the board in play.
    pub corners: u64,
    /// The four quadrants of the board in play (parity regions).
    pub quadrants: [u64; 4],
    /// What the current iteration searches with.
    pub step: Step,
    /// The Multi-ProbCut predictions.
    pub probcut: &'static probcut::Model,
    /// The nodes other threads are searching (parallel searches only).
    pub busy: Option<&'a parallel::Busy>,
    /// Where split points hand their moves to idle threads (parallel
    /// searches only).
    pub pool: Option<&'a split::Pool>,
    /// The pattern indices of the positions on the current path (8x8), so
    /// that an evaluation reads them instead of the board.
    pub states: crate::eval::incremental::StateStack,
    /// The solver's table for a few empties, private to this thread.
    pub local: local_table::LocalTable,
}

/// How the current iteration searches: what it reads from [`Limits`] and
/// the ladder step, carried to every node and to the split points' tasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    /// How selective the search is now (Multi-ProbCut; 100%: not at all).
    pub selectivity: Selectivity,
    /// Whether the solver puts first the best moves of midgame entries
    /// (from [`params::SOLVE_TABLE_MOVE_MIN_DEPTH`] plies), not only those
    /// of solves: not in a solve that climbs the selectivity ladder, where
    /// the probable steps' moves guide the later steps better (see there).
    pub midgame_moves: bool,
}

impl Step {
    /// No selectivity, midgame entries' moves trusted: a plain search.
    pub const PLAIN: Step = Step {
        selectivity: Selectivity::NONE,
        midgame_moves: true,
    };
}

impl<'a> Search<'a> {
    fn new(
        tt: &'a Table,
        evaluator: &'a Evaluator,
        control: Control,
        size: BoardSize,
    ) -> Search<'a> {
        let n = size.n() as u8;
        let corners = [(0, 0), (n - 1, 0), (0, n - 1), (n - 1, n - 1)]
            .iter()
            .filter_map(|&(c, r)| Square::from_coords(c, r))
            .fold(0, |acc, s| acc | s.bit());
        Search {
            tt,
            evaluator,
            patterns: (size == BoardSize::Eight).then(crate::eval::patterns::built_in),
            network: (size == BoardSize::Eight).then(crate::eval::network::built_in),
            six: (size == BoardSize::Six).then(crate::eval::six::built_in),
            control,
            size,
            mask: size.mask(),
            squares: size.squares() as i32,
            corners,
            quadrants: ordering::quadrants(size),
            step: Step::PLAIN,
            probcut: probcut::model(),
            busy: None,
            pool: None,
            states: crate::eval::incremental::StateStack::new(),
            local: local_table::LocalTable::new(),
        }
    }
}
