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

pub mod control;
pub(crate) mod endgame;
pub mod line;
pub(crate) mod midgame;
pub mod params;
pub mod time;
pub mod tt;

pub use control::{StopReason, StopSignal};
pub use time::Clock;

use crate::bitboard::{BoardSize, squares};
use crate::board::Board;
use crate::eval::Evaluator;
use crate::movegen;
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;
use control::Control;
use endgame::{Scored, pick_best, square_of};
use line::Line;
use params::*;
use std::fmt;
use std::time::{Duration, Instant};
use time::Budget;
use tt::{NO_MOVE, Table};

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

/// Owner of the table and the evaluation; runs searches.
pub struct Searcher {
    table: Table,
    evaluator: Evaluator,
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
        }
    }

    /// Empties the table (for reproducible searches or a new game).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Replaces the table by one of `hash_mib` MiB.
    pub fn resize(&mut self, hash_mib: usize) {
        self.table = Table::new(hash_mib);
    }

    /// Table size in bytes.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Searches `position` within `limits`, calling `on_report` for every
    /// line of every completed iteration. Always returns a legal move when
    /// the side to move has one, even if stopped at once.
    pub fn search(
        &mut self,
        position: &Position,
        limits: &Limits,
        stop: &StopSignal,
        on_report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        let started = Instant::now();
        self.table.new_search();
        let budget = match (limits.time, &limits.clock) {
            (Some(time), _) => Some(Budget::per_move(time)),
            (None, Some(clock)) => Some(Budget::from_clock(clock, position.empty_count())),
            (None, None) => None,
        };
        let control = Control::new(stop.clone(), limits.nodes, budget.map(|b| started + b.hard));
        let mut search = Search::new(&mut self.table, &self.evaluator, control, position.size);
        let driver = Driver {
            started,
            budget,
            limits,
            position: *position,
        };
        driver.run(&mut search, on_report)
    }
}

/// The state shared by the midgame search and the endgame solver.
pub(crate) struct Search<'a> {
    pub tt: &'a mut Table,
    pub evaluator: &'a Evaluator,
    /// The learned evaluation, used instead of `evaluator` on 8x8 (the only
    /// size it is trained for).
    pub patterns: Option<&'static crate::eval::patterns::PatternWeights>,
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
}

impl<'a> Search<'a> {
    fn new(
        tt: &'a mut Table,
        evaluator: &'a Evaluator,
        control: Control,
        size: BoardSize,
    ) -> Search<'a> {
        let n = size.n() as u8;
        let half = n / 2;
        let region = |cols: std::ops::Range<u8>, rows: std::ops::Range<u8>| {
            rows.flat_map(|r| cols.clone().map(move |c| (c, r)))
                .filter_map(|(c, r)| Square::from_coords(c, r))
                .fold(0u64, |acc, s| acc | s.bit())
        };
        let corners = [(0, 0), (n - 1, 0), (0, n - 1), (n - 1, n - 1)]
            .iter()
            .filter_map(|&(c, r)| Square::from_coords(c, r))
            .fold(0, |acc, s| acc | s.bit());
        Search {
            tt,
            evaluator,
            patterns: (size == BoardSize::Eight).then(crate::eval::patterns::built_in),
            control,
            size,
            mask: size.mask(),
            squares: size.squares() as i32,
            corners,
            quadrants: [
                region(0..half, 0..half),
                region(half..n, 0..half),
                region(0..half, half..n),
                region(half..n, half..n),
            ],
        }
    }

    /// Searches the root moves not in `excluded` to `depth` (or solves, when
    /// `depth` is `None`) within (`alpha`, `beta`). Returns the best score,
    /// its PV, and whether the search finished.
    fn root(
        &mut self,
        board: Board,
        window: (i32, i32),
        depth: Option<u32>,
        excluded: u64,
    ) -> RootOutcome {
        let (mut alpha, beta) = window;
        let moves = movegen::legal_moves(board.player, board.opponent) & self.mask & !excluded;
        let table_move = self.tt.probe(board).map_or(NO_MOVE, |hit| hit.best);
        let empties = (board.empties() & self.mask).count_ones();
        let mut list = [Scored::default(); 32];
        let count = self.order_endgame_moves(
            board,
            moves,
            table_move,
            empties.max(SHALLOW_ORDERING_EMPTIES),
            &mut list,
        );
        let mut outcome = RootOutcome {
            score: -SCORE_INF,
            pv: Line::new(),
            complete: false,
        };
        let mut child_pv = Line::new();
        for i in 0..count {
            let mv = pick_best(&mut list[i..count]);
            let child = board.play_flips(square_of(mv.index), mv.flips);
            let mut score = SCORE_INF;
            if i > 0 {
                score = match depth {
                    Some(d) => -self.nws(child, -alpha - 1, d - 1),
                    None => -self.solve_nws(child, -alpha - 1),
                };
            }
            if i == 0 || (score > alpha && score < beta) {
                score = match depth {
                    Some(d) => -self.pvs(child, -beta, -alpha, d - 1, &mut child_pv),
                    None => -self.solve_pv(child, -beta, -alpha, &mut child_pv),
                };
            } else {
                child_pv.clear();
            }
            if self.control.is_stopped() {
                return outcome;
            }
            if score > outcome.score {
                outcome.score = score;
                outcome.pv.set(Some(square_of(mv.index)), &child_pv);
                alpha = alpha.max(score);
                if score >= beta {
                    break;
                }
            }
        }
        outcome.complete = true;
        // With root moves excluded the score is only that of the remaining
        // moves: storing it under the full board would poison later probes.
        if excluded == 0
            && let Some(Some(square)) = outcome.pv.first()
        {
            let tt_depth = depth.map_or(tt::exact_depth(empties), |d| d as u8);
            self.tt.store(
                board,
                tt_depth,
                window.0,
                beta,
                outcome.score,
                square.index() as u8,
            );
        }
        outcome
    }
}

/// What a root search found.
struct RootOutcome {
    score: i32,
    pv: Line,
    complete: bool,
}

/// Iterative deepening for one search.
struct Driver<'l> {
    started: Instant,
    budget: Option<Budget>,
    limits: &'l Limits,
    position: Position,
}

impl Driver<'_> {
    fn run(&self, search: &mut Search, on_report: &mut dyn FnMut(&Report)) -> SearchResult {
        let board = self.position.board;
        let size = self.position.size;
        let legal = board.legal_moves_on(size) & !self.limits.excluded;
        let empties = board.empty_count_on(size);
        if board.legal_moves_on(size) == 0 {
            return if board.is_game_over_on(size) {
                self.game_over_result(search)
            } else {
                self.forced_pass_result(search, on_report)
            };
        }
        let wanted_lines = self
            .limits
            .multi_pv
            .clamp(1, legal.count_ones().max(1) as usize);
        let solve_now = empties <= self.limits.solve_empties.unwrap_or(0);
        let max_depth = self.limits.depth.unwrap_or(u32::MAX).max(1);
        let presolve = if solve_now {
            (empties / PRESOLVE_DEPTH_DIVISOR)
                .min(PRESOLVE_MAX_DEPTH)
                .min(max_depth)
        } else {
            0
        };
        let mut lines: Vec<Report> = Vec::new();
        let mut depth = 1;
        loop {
            let solving = depth >= empties
                || (solve_now && depth > presolve)
                || self.solve_fits(empties, depth);
            let iteration = if solving { None } else { Some(depth) };
            let (found, complete) =
                self.iterate(search, iteration, wanted_lines, &lines, on_report);
            merge_lines(&mut lines, found, complete);
            if !complete || solving || depth >= max_depth && !solve_now || self.out_of_time() {
                break;
            }
            depth += 1;
        }
        self.finish(search, lines)
    }

    /// One iteration: `wanted` lines at `depth` (or a solve), each excluding
    /// the moves of the lines before it. Returns the lines and whether the
    /// iteration finished.
    fn iterate(
        &self,
        search: &mut Search,
        depth: Option<u32>,
        wanted: usize,
        previous: &[Report],
        on_report: &mut dyn FnMut(&Report),
    ) -> (Vec<Report>, bool) {
        let board = self.position.board;
        let mut excluded = self.limits.excluded;
        let mut found = Vec::new();
        let report_depth = match (depth, self.limits.solve_mode) {
            (Some(d), _) => Depth::Midgame(d),
            (None, SolveMode::Exact) => Depth::Exact,
            (None, SolveMode::Wld) => Depth::Wld,
        };
        for rank in 0..wanted {
            if board.legal_moves_on(self.position.size) & !excluded == 0 {
                break;
            }
            // A solve starts from the full window: a midgame score is too
            // rough a guess for an exact result, and failing costs a re-search.
            let guess = if depth.is_some() {
                previous.get(rank).map(|r| r.score)
            } else {
                None
            };
            let Some((score, bound, pv, complete)) =
                self.search_window(search, depth, guess, excluded)
            else {
                return (found, false);
            };
            let Some(Some(square)) = pv.first() else {
                return (found, false);
            };
            excluded |= square.bit();
            let report = Report {
                rank,
                depth: report_depth,
                score,
                bound,
                pv: replay_line(&self.position, &pv),
                nodes: search.control.nodes,
                elapsed: self.started.elapsed(),
            };
            on_report(&report);
            found.push(report);
            if !complete {
                return (found, false);
            }
        }
        (found, true)
    }

    /// A root search with an aspiration window around `guess` that widens on
    /// failure. When stopped, the best move fully searched so far comes back
    /// as a lower bound (with `false` for unfinished), or `None` if there is
    /// none worth having.
    fn search_window(
        &self,
        search: &mut Search,
        depth: Option<u32>,
        guess: Option<i32>,
        excluded: u64,
    ) -> Option<(i32, Bound, Line, bool)> {
        let board = self.position.board;
        let full = match (depth, self.limits.solve_mode) {
            (None, SolveMode::Wld) => (-1, 1),
            _ => (-SCORE_INF, SCORE_INF),
        };
        let mut window = match guess {
            Some(g) if full.1 - full.0 > 2 => (
                (g - ASPIRATION_WINDOW).max(full.0),
                (g + ASPIRATION_WINDOW).min(full.1),
            ),
            _ => full,
        };
        loop {
            let outcome = search.root(board, window, depth, excluded);
            if !outcome.complete {
                let useful = !outcome.pv.is_empty() && outcome.score > window.0;
                return useful.then_some((outcome.score, Bound::Lower, outcome.pv, false));
            }
            let score = outcome.score;
            if score <= window.0 && window.0 > full.0 {
                window.0 = full.0;
            } else if score >= window.1 && window.1 < full.1 {
                window.1 = full.1;
            } else {
                let bound = if score <= window.0 {
                    Bound::Upper
                } else if score >= window.1 {
                    Bound::Lower
                } else {
                    Bound::Exact
                };
                return Some((score, bound, outcome.pv, true));
            }
        }
    }

    /// Whether a time-limited search should solve now: after a few midgame
    /// iterations (for a fallback move), when the estimated solve time fits
    /// in part of the time left. Searches without a clock never guess.
    fn solve_fits(&self, empties: u32, depth: u32) -> bool {
        let Some(budget) = self.budget else {
            return false;
        };
        if depth <= (empties / PRESOLVE_DEPTH_DIVISOR).min(PRESOLVE_MAX_DEPTH)
            || self.limits.depth.is_some_and(|d| depth > d)
        {
            return false;
        }
        let nodes = SOLVE_NODES_AT_20_EMPTIES * SOLVE_GROWTH_PER_EMPTY.powi(empties as i32 - 20);
        let left = budget
            .hard
            .saturating_sub(self.started.elapsed())
            .as_secs_f64();
        nodes / SOLVE_NODES_PER_SECOND < left * SOLVE_TIME_FRACTION
    }

    fn out_of_time(&self) -> bool {
        self.budget
            .is_some_and(|b| self.started.elapsed() >= b.soft)
    }

    /// The result of a finished game: its final score, no move.
    fn game_over_result(&self, search: &mut Search) -> SearchResult {
        SearchResult {
            best: None,
            score: search.final_score(self.position.board),
            bound: Bound::Exact,
            depth: Depth::Exact,
            pv: Vec::new(),
            lines: Vec::new(),
            nodes: search.control.nodes,
            elapsed: self.started.elapsed(),
            stopped: None,
        }
    }

    /// The side to move must pass: search the opponent's position with the
    /// same limits and report it from this side's view, the pass first.
    fn forced_pass_result(
        &self,
        search: &mut Search,
        on_report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        let passed = Position {
            board: self.position.board.pass(),
            side: self.position.side.opponent(),
            ..self.position
        };
        let limits = Limits {
            excluded: 0,
            multi_pv: 1,
            ..self.limits.clone()
        };
        let inner = Driver {
            position: passed,
            limits: &limits,
            ..*self
        };
        let mut relay = |report: &Report| on_report(&after_pass(report.clone()));
        let result = inner.run(search, &mut relay);
        let mut pv = vec![Move::Pass];
        pv.extend(result.pv);
        SearchResult {
            best: Some(Move::Pass),
            score: -result.score,
            bound: flip(result.bound),
            pv,
            lines: result.lines.into_iter().map(after_pass).collect(),
            ..result
        }
    }

    fn finish(&self, search: &mut Search, lines: Vec<Report>) -> SearchResult {
        let stopped = search.control.stopped;
        let (best, score, bound, depth, pv) = match lines.first() {
            Some(line) => (
                Some(line.best()),
                line.score,
                line.bound,
                line.depth,
                line.pv.clone(),
            ),
            None => {
                // Stopped before the first iteration finished: fall back on
                // the move that leaves the opponent least mobility.
                let mv = self.fallback_move(search);
                (Some(mv), 0, Bound::Exact, Depth::Midgame(0), vec![mv])
            }
        };
        SearchResult {
            best,
            score,
            bound,
            depth,
            pv,
            lines,
            nodes: search.control.nodes,
            elapsed: self.started.elapsed(),
            stopped,
        }
    }

    fn fallback_move(&self, search: &mut Search) -> Move {
        let board = self.position.board;
        let mut moves = board.legal_moves_on(self.position.size);
        if moves & !self.limits.excluded != 0 {
            moves &= !self.limits.excluded;
        }
        let square = squares(moves)
            .min_by_key(|&s| search.mobility_value(board.play_flips(s, board.flips(s))))
            .expect("the caller checked there is a legal move");
        Move::Place {
            square,
            flips: board.flips(square),
        }
    }
}

/// A bound seen from the other side.
fn flip(bound: Bound) -> Bound {
    match bound {
        Bound::Exact => Bound::Exact,
        Bound::Lower => Bound::Upper,
        Bound::Upper => Bound::Lower,
    }
}

/// A report of the opponent's search after our forced pass, seen by us.
fn after_pass(mut report: Report) -> Report {
    report.score = -report.score;
    report.bound = flip(report.bound);
    report.pv.insert(0, Move::Pass);
    report
}

/// Keeps the lines of the last finished iteration, updated with the lines an
/// unfinished one did finish.
fn merge_lines(lines: &mut Vec<Report>, found: Vec<Report>, complete: bool) {
    if complete || lines.is_empty() {
        if !found.is_empty() {
            *lines = found;
        }
        return;
    }
    // An unfinished iteration's best line is still the best we know when it
    // is the same move or scores better than the older best line.
    if let Some(first) = found.into_iter().next() {
        let older = &lines[0];
        if first.best() == older.best() || first.score > older.score {
            lines[0] = first;
        }
    }
}

/// The moves of a line, with their flips, replayed from `position`; stops at
/// the first step that is not legal (which would be a bug, so it is logged).
fn replay_line(position: &Position, line: &Line) -> Vec<Move> {
    let mut current = *position;
    let mut moves = Vec::with_capacity(line.len());
    for step in line.squares() {
        let mv = match step {
            Some(square) => match current.placement(square) {
                Ok(mv) => mv,
                Err(error) => {
                    log::error!("principal variation has an illegal move: {error}");
                    break;
                }
            },
            None => Move::Pass,
        };
        match current.play(mv) {
            Ok(next) => current = next,
            Err(error) => {
                log::error!("principal variation has an illegal step: {error}");
                break;
            }
        }
        moves.push(mv);
    }
    moves
}
