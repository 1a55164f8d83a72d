//! Iterative deepening: the iterations of one search, their aspiration
//! windows and multi-PV lines, when to solve, and the result.

use crate::bitboard::squares;
use crate::moves::Move;
use crate::position::Position;
use crate::search::line::Line;
use crate::search::params::*;
use crate::search::time::{Budget, Stability};
use crate::search::{
    Bound, Depth, Limits, Report, Search, SearchResult, Selectivity, SolveMode, Step,
};
use std::time::Instant;

/// What one iteration does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Iteration {
    /// A midgame search of this depth, at the limits' selectivity.
    Midgame(u32),
    /// A solve at this selectivity; `ladder`: a step of a solve that
    /// climbs the selectivity ladder (it started selective).
    Solve {
        selectivity: Selectivity,
        ladder: bool,
    },
}

/// Iterative deepening for one search.
#[derive(Clone, Copy)]
pub(crate) struct Driver<'l> {
    pub started: Instant,
    pub budget: Option<Budget>,
    pub limits: &'l Limits,
    pub position: Position,
}

impl Driver<'_> {
    pub(crate) fn run(
        &self,
        search: &mut Search,
        on_report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
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
        let solve_now = self.solves_at_once();
        let max_depth = self.limits.depth.unwrap_or(u32::MAX).max(1);
        let presolve = if solve_now {
            (empties / PRESOLVE_DEPTH_DIVISOR)
                .min(PRESOLVE_MAX_DEPTH)
                .min(max_depth)
        } else {
            0
        };
        let mut lines: Vec<Report> = Vec::new();
        let first_level = self.first_solve_level(empties);
        let mut depth = 1;
        let mut stability = Stability::default();
        loop {
            // Under a clock, no solve starts that the estimate says cannot
            // finish: the midgame iterations go on instead.
            let solve = depth >= empties
                || (solve_now && depth > presolve && self.estimate_fits(empties, first_level))
                || self.solve_fits(empties, depth, first_level)
                || self.wipeouts_seen(&lines, wanted_lines)
                    && max_depth >= empties
                    && self.estimate_fits(empties, first_level);
            if solve {
                break;
            }
            let (found, complete) = self.iterate(
                search,
                Iteration::Midgame(depth),
                wanted_lines,
                &lines,
                on_report,
            );
            merge_lines(&mut lines, found, complete);
            stability.update(depth, lines.first().and_then(|line| line.best().square()));
            if !complete || depth >= max_depth && !solve_now || self.out_of_time_after(&stability) {
                return self.finish(search, lines);
            }
            depth += 1;
        }
        // The solve: at rising selectivity up to 100%, each level reusing the
        // table of the last. An unfinished level never replaces the deepest
        // finished result, so a cut-off solve is never reported as exact.
        let mut level = first_level;
        loop {
            let started = search.control.total_nodes();
            let (found, complete) = self.iterate(
                search,
                Iteration::Solve {
                    selectivity: level,
                    ladder: !first_level.is_none(),
                },
                wanted_lines,
                &lines,
                on_report,
            );
            let spent = search.control.total_nodes() - started;
            log::debug!(
                "solve at {level}: {} nodes, {}",
                spent,
                found
                    .first()
                    .map_or("no line".into(), |r| format!("{:+} {:?}", r.score, r.bound))
            );
            if !complete {
                break;
            }
            lines = found;
            let Some(next) = level.next_solve_step() else {
                break;
            };
            if self.out_of_time() || !self.ladder_step_fits(spent, next) {
                break;
            }
            level = next;
        }
        self.finish(search, lines)
    }

    /// Whether each line of the last midgame iteration scores a wipeout
    /// (all the squares, for or against). The evaluation of a game that is not
    /// over stops a disc short of one, so only lines that end the game (or
    /// a probcut at the window's edge) reach it, and the solve that proves
    /// it is cheap: a search whose depth limit would reach the solve anyway
    /// solves at once rather than deepen (under a clock, only when the
    /// estimate fits, as always). FFO #59, a wipeout at 34 empties, scores
    /// +64 from the depth-15 iteration at 73% on, and `analyze --depth 34`
    /// is then solved in 0.63 M nodes, 0.08 s; before, the midgame
    /// iterations went on to depth 33, each about twice the last (depth 29
    /// at 79 s).
    fn wipeouts_seen(&self, lines: &[Report], wanted: usize) -> bool {
        let squares = self.position.size.squares() as i32;
        lines.len() == wanted && lines.iter().all(|line| line.score.abs() == squares)
    }

    /// Whether the search solves from the start (after a few quick midgame
    /// iterations that order the moves).
    pub(crate) fn solves_at_once(&self) -> bool {
        let empties = self.position.board.empty_count_on(self.position.size);
        empties <= self.limits.solve_empties.unwrap_or(0)
    }

    /// One iteration: `wanted` lines at a depth or a solve, each excluding
    /// the moves of the lines before it. Returns the lines and whether the
    /// iteration finished.
    fn iterate(
        &self,
        search: &mut Search,
        iteration: Iteration,
        wanted: usize,
        previous: &[Report],
        on_report: &mut dyn FnMut(&Report),
    ) -> (Vec<Report>, bool) {
        let board = self.position.board;
        let mut excluded = self.limits.excluded;
        let mut found: Vec<Report> = Vec::new();
        let mut ties = Vec::new();
        let (depth, report_depth) = match iteration {
            Iteration::Midgame(d) => {
                search.step = Step {
                    selectivity: self.limits.selectivity,
                    midgame_moves: true,
                };
                (Some(d), Depth::Midgame(d, self.limits.selectivity))
            }
            Iteration::Solve {
                selectivity,
                ladder,
            } => {
                search.step = Step {
                    selectivity,
                    midgame_moves: !ladder,
                };
                let mode = self.limits.solve_mode;
                let depth = match (selectivity.is_none(), mode) {
                    (true, SolveMode::Exact) => Depth::Exact,
                    (true, SolveMode::Wld) => Depth::Wld,
                    (false, _) => Depth::Probable {
                        empties: board.empty_count_on(self.position.size),
                        selectivity,
                        mode,
                    },
                };
                (None, depth)
            }
        };
        for rank in 0..wanted {
            if board.legal_moves_on(self.position.size) & !excluded == 0 {
                break;
            }
            // A solve starts from the full window unless a probable solve
            // came before: a midgame score is too rough a guess for an
            // exact result, and failing costs a re-search.
            let guess = previous
                .get(rank)
                .filter(|r| depth.is_some() || r.depth.is_solve())
                .map(|r| r.score);
            let line = match found.first() {
                // The first line's search found its ties
                // ([`Limits::ties_only`]); an inexact first line has none.
                Some(first) if self.limits.ties_only => match ties.pop() {
                    Some(pv) => Some((first.score, Bound::Exact, pv, true)),
                    None => break,
                },
                _ => {
                    let (line, tied) = self.search_window(search, depth, guess, excluded);
                    ties = tied;
                    line
                }
            };
            let Some((score, bound, pv, complete)) = line else {
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
                nodes: search.control.total_nodes(),
                elapsed: self.started.elapsed(),
            };
            // An unfinished solve line is a bound that the ladder drops: it
            // is never shown, so a GUI never sees it as a solve.
            if complete || depth.is_some() {
                on_report(&report);
            }
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
    /// none worth having. With [`Limits::ties_only`], an exact line comes
    /// with the lines of the moves tying with it.
    ///
    /// The ladder's probable steps look for ties too: their table entries
    /// make the exact step's look cheaper. On a position of 30 empties
    /// (the second of `solve --sample-wthor --empties 30 --seed 30`, one
    /// thread), the solve took 1,601 M nodes alone, 1,792 M with the ties
    /// at every step, and 1,958 M with them at 100% only (measured with a
    /// second pass for the ties; [`Search::ties_loop`] now finds them in the
    /// first).
    fn search_window(
        &self,
        search: &mut Search,
        depth: Option<u32>,
        guess: Option<i32>,
        excluded: u64,
    ) -> (Option<RootLine>, Vec<Line>) {
        let ties = self.limits.ties_only;
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
            let outcome = search.root(board, window, depth, excluded, ties);
            if !outcome.complete {
                let useful = !outcome.pv.is_empty() && outcome.score > window.0;
                let line = useful.then_some((outcome.score, Bound::Lower, outcome.pv, false));
                return (line, Vec::new());
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
                let tied = if bound == Bound::Exact {
                    outcome.ties
                } else {
                    Vec::new()
                };
                return (Some((score, bound, outcome.pv, true)), tied);
            }
        }
    }

    /// The selectivity the solve starts at: the limits' own, except under
    /// a clock when they solve straight to 100% (fewer empties than
    /// [`SOLVE_LADDER_MIN_EMPTIES`]) and the exact solve is not expected to
    /// fit in the time left: the solve then starts at the search's
    /// selectivity and climbs the ladder as far as the time allows. Before,
    /// such a search never solved: it went on with midgame iterations (at
    /// 23 empties, to depth 19 at 73% in a 1.3 s turn), whose leaves are
    /// evaluated a few empties from the end.
    fn first_solve_level(&self, empties: u32) -> Selectivity {
        let level = self.limits.solve_selectivity;
        // (Without a clock every estimate fits.)
        if level.is_none()
            && !self.limits.selectivity.is_none()
            && !self.estimate_fits(empties, level)
        {
            self.limits.selectivity
        } else {
            level
        }
    }

    /// Whether a time-limited search should solve now: after a few midgame
    /// iterations (for a fallback move), when the estimated time of the
    /// first solve step (at `level`) fits in part of the time left. Searches
    /// without a clock never guess.
    fn solve_fits(&self, empties: u32, depth: u32, level: Selectivity) -> bool {
        if self.budget.is_none() {
            return false;
        }
        if depth <= (empties / PRESOLVE_DEPTH_DIVISOR).min(PRESOLVE_MAX_DEPTH)
            || self.limits.depth.is_some_and(|d| depth > d)
        {
            return false;
        }
        self.estimate_fits(empties, level)
    }

    /// Whether the first step of a solve of `empties` (at `level`) should
    /// finish in the time left; always true without a clock.
    fn estimate_fits(&self, empties: u32, level: Selectivity) -> bool {
        let Some(budget) = self.budget else {
            return true;
        };
        let exact = SOLVE_NODES_AT_20_EMPTIES * SOLVE_GROWTH_PER_EMPTY.powi(empties as i32 - 20);
        // Each ladder step from `level` up to the exact solve multiplies
        // the nodes: the first step costs that much less.
        let mut nodes = exact;
        if !level.is_none() {
            nodes /= SOLVE_EXACT_STEP_GROWTH;
            let mut step = level;
            while let Some(next) = step.next_solve_step()
                && !next.is_none()
            {
                nodes /= SOLVE_LADDER_GROWTH;
                step = next;
            }
        }
        self.nodes_fit(budget, nodes)
    }

    /// Whether the solve step `next` should fit in the time left, given the
    /// nodes the step before it took.
    fn ladder_step_fits(&self, last_step_nodes: u64, next: Selectivity) -> bool {
        let Some(budget) = self.budget else {
            return true;
        };
        let growth = if next.is_none() {
            SOLVE_EXACT_STEP_GROWTH
        } else {
            SOLVE_LADDER_GROWTH
        };
        self.nodes_fit(budget, last_step_nodes as f64 * growth)
    }

    /// Whether a solve of about `nodes` nodes fits in its share of the time
    /// left before the hard deadline.
    fn nodes_fit(&self, budget: Budget, nodes: f64) -> bool {
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

    /// [`Driver::out_of_time`] after a midgame iteration: under a clock, the
    /// soft budget is scaled by how settled the best move is.
    fn out_of_time_after(&self, stability: &Stability) -> bool {
        self.budget
            .is_some_and(|b| self.started.elapsed() >= b.soft_scaled(stability.factor()))
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
            nodes: search.control.total_nodes(),
            elapsed: self.started.elapsed(),
            stopped: None,
            book: false,
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
                (Some(mv), 0, Bound::Exact, Depth::plies(0), vec![mv])
            }
        };
        SearchResult {
            best,
            score,
            bound,
            depth,
            pv,
            lines,
            nodes: search.control.total_nodes(),
            elapsed: self.started.elapsed(),
            stopped,
            book: false,
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

/// A root search's line: its score, bound and PV, and whether the search
/// finished.
type RootLine = (i32, Bound, Line, bool);

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
            // The new best line goes first; the older line of the same move
            // (wherever it was) goes, the others keep their order.
            let count = lines.len();
            let mv = first.best();
            lines.retain(|line| line.best() != mv);
            lines.insert(0, first);
            lines.truncate(count);
            for (rank, line) in lines.iter_mut().enumerate() {
                line.rank = rank;
            }
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
