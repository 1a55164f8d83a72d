//! The gomoku search's driver: the root (forced moves, the root's VCF and
//! VCT), iterative deepening, and the threads sharing the table (lazy SMP).
//! Depth 7 on 8 middle-game positions: 17.3-17.4 s with one thread,
//! 12.6-12.8 s with two ["Threads"].

use super::limits::{Limits, Progress, SearchResult, Source};
use super::moves::{Forced, Moves, Order, generate};
use super::node::Worker;
use super::params::{MAX_DEPTH, ROOT_VCF_NODES, ROOT_VCT_DEPTH, ROOT_VCT_NODES, ROOT_VCT_SHARE};
use super::score::{WIN, WIN_BOUND};
use super::table::Table;
use crate::core::StopSignal;
use crate::gomoku::board::{Board, Point};
use crate::gomoku::threat::candidates;
use crate::gomoku::vcf::{ThreatBudget, vcf, vct};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// The search with its table; one per engine.
pub struct Searcher {
    table: Table,
}

/// What the threads of one search share besides the table.
pub(super) struct Shared<'a> {
    pub(super) limits: &'a Limits,
    pub(super) stop: &'a StopSignal,
    /// Nodes of every thread, as each last added its own.
    pub(super) nodes: AtomicU64,
    /// Raised when the main thread is done, or when a thread finished the
    /// last iteration: every thread stops.
    pub(super) halt: AtomicBool,
    /// The best iteration any thread finished ([`Found::beats`]).
    pub(super) best: Mutex<Option<Found>>,
}

impl Shared<'_> {
    /// Records a finished iteration if it is better than the one recorded
    /// ([`Found::beats`]); returns whether it was.
    fn publish(&self, found: &Found) -> bool {
        let mut best = self.best.lock().unwrap_or_else(|e| e.into_inner());
        let better = best.as_ref().is_none_or(|b| found.beats(b));
        if better {
            *best = Some(found.clone());
        }
        better
    }
}

/// Stack of each helper thread (the search recurses through `pvs` and the
/// threat searches).
const HELPER_STACK_BYTES: usize = 16 << 20;

impl Searcher {
    pub fn new(hash_mib: usize) -> Searcher {
        Searcher {
            table: Table::new(hash_mib),
        }
    }

    /// Empties the transposition table (`yxhashclear`).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Resizes the table (drops its content), unless it has that size
    /// already: a manager sends `INFO max_memory` before every game, and a
    /// new table of hundreds of MiB would cost the first move its time.
    pub fn resize(&mut self, hash_mib: usize) {
        self.table.resize(hash_mib);
    }

    /// Searches the side to move's best move with `limits.threads` threads.
    /// `progress` hears each finished iteration of the main thread.
    pub fn search(
        &mut self,
        position: &Board,
        limits: &Limits,
        stop: &StopSignal,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        let started = Instant::now();
        let mut board = position.clone();
        let done =
            |best: Option<usize>, score, depth, nodes, pv: Vec<usize>, source| SearchResult {
                best: best.map(Point::from_index),
                score,
                depth,
                nodes,
                elapsed: started.elapsed(),
                pv: pv.into_iter().map(Point::from_index).collect(),
                source,
                root_scores: Vec::new(),
            };
        let (moves, _, _) = generate(&mut board, Order::All);
        let (root_moves, forced) = match moves {
            Moves::Win(cell) => return done(Some(cell), WIN - 1, 1, 1, vec![cell], Source::Forced),
            Moves::OpenFour(cell) => {
                return done(Some(cell), WIN - 3, 3, 1, vec![cell], Source::Forced);
            }
            Moves::Lost => {
                let any = candidates(&board)
                    .into_iter()
                    .find(|&c| crate::gomoku::threat::is_legal(&board, c, board.to_move()))
                    .or_else(|| candidates(&board).first().copied());
                // Block a five if we can, even when lost.
                let block = crate::gomoku::threat::fives(&board, board.to_move().opponent())
                    .into_iter()
                    .find(|&c| crate::gomoku::threat::is_legal(&board, c, board.to_move()));
                let mv = block.or(any);
                return done(mv, -WIN + 2, 1, 1, mv.into_iter().collect(), Source::Forced);
            }
            Moves::List(list, forced) => (list, forced != Forced::No),
            Moves::Unlisted => unreachable!("only the horizon leaves its moves unlisted"),
        };
        if root_moves.is_empty() {
            return done(None, 0, 0, 0, Vec::new(), Source::Forced);
        }
        if root_moves.len() == 1 {
            let mv = root_moves[0];
            return done(Some(mv), 0, 1, 1, vec![mv], Source::Forced);
        }
        let instant = limits.depth == Some(0);
        if instant {
            return done(
                Some(root_moves[0]),
                0,
                0,
                1,
                vec![root_moves[0]],
                Source::Forced,
            );
        }
        // Threat searches first (one thread), within the node budget if
        // there is one.
        let threat_nodes = |most: u64| limits.nodes.map_or(most, |n| n.min(most));
        let mut budget =
            ThreatBudget::with_limits(threat_nodes(ROOT_VCF_NODES), stop.clone(), limits.deadline);
        let mut line = Vec::new();
        if vcf(&mut board, 30, &mut budget, &mut line) && !line.is_empty() {
            let nodes = budget.visited;
            return done(
                Some(line[0]),
                WIN - line.len() as i32,
                line.len() as u32,
                nodes,
                line,
                Source::Vcf,
            );
        }
        let mut threat_visited = budget.visited;
        if limits.vct && !forced {
            let vct_deadline = limits.deadline.map(|d| {
                let now = Instant::now();
                now + d.saturating_duration_since(now).mul_f64(ROOT_VCT_SHARE)
            });
            let mut budget =
                ThreatBudget::with_limits(threat_nodes(ROOT_VCT_NODES), stop.clone(), vct_deadline);
            let found = vct(&mut board, ROOT_VCT_DEPTH, &mut budget);
            threat_visited += budget.visited;
            if let Some(mv) = found {
                return done(
                    Some(mv),
                    WIN_BOUND + 1,
                    0,
                    threat_visited,
                    vec![mv],
                    Source::Vct,
                );
            }
        }
        let shared = Shared {
            limits,
            stop,
            nodes: AtomicU64::new(threat_visited),
            halt: AtomicBool::new(false),
            best: Mutex::new(None),
        };
        let table = &self.table;
        let threads = limits.threads.clamp(1, crate::core::MAX_THREADS);
        let found = std::thread::scope(|scope| {
            for helper in 1..threads {
                let mut board = board.clone();
                let root_moves = root_moves.clone();
                let shared = &shared;
                let spawned = std::thread::Builder::new()
                    .name(format!("oxello-gomoku-{helper}"))
                    .stack_size(HELPER_STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        let mut worker = Worker::new(table, shared);
                        worker.iterate(&mut board, root_moves, (helper, threads), started, None);
                        worker.flush();
                    });
                if let Err(error) = spawned {
                    log::warn!("cannot start gomoku search helpers from {helper}: {error}");
                    break;
                }
            }
            let mut worker = Worker::new(table, &shared);
            let found = worker.iterate(
                &mut board,
                root_moves,
                (0, threads),
                started,
                Some(progress),
            );
            worker.flush();
            shared.halt.store(true, Ordering::Relaxed);
            found
        });
        // Every helper is joined now. One may have finished a deeper
        // iteration or proved a win (which stopped the main thread): its
        // result is the answer.
        let published = shared.best.lock().unwrap_or_else(|e| e.into_inner()).take();
        let found = match published {
            Some(better) if better.beats(&found) => better,
            _ => found,
        };
        found.finish(&shared, done)
    }
}

/// What a thread's iterations found.
#[derive(Clone)]
pub(super) struct Found {
    best: usize,
    score: i32,
    depth: u32,
    pv: Vec<usize>,
    root_scores: Vec<(usize, i32)>,
}

impl Found {
    /// Whether this result is a better answer than `other`: a proven win
    /// first, then the deeper iteration.
    fn beats(&self, other: &Found) -> bool {
        let won = |f: &Found| f.score > WIN_BOUND;
        (won(self), self.depth) > (won(other), other.depth)
    }

    /// The result, with the nodes of every thread (all joined by now).
    fn finish(
        self,
        shared: &Shared,
        done: impl Fn(Option<usize>, i32, u32, u64, Vec<usize>, Source) -> SearchResult,
    ) -> SearchResult {
        let mut result = done(
            Some(self.best),
            self.score,
            self.depth,
            shared.nodes.load(Ordering::Relaxed),
            self.pv,
            Source::Search,
        );
        result.root_scores = self
            .root_scores
            .into_iter()
            .map(|(mv, score)| (Point::from_index(mv), score))
            .collect();
        result
    }
}
impl Worker<'_> {
    /// Iterative deepening over `root_moves` by thread `thread.0` of
    /// `thread.1`; `progress` (the main thread's) hears each finished
    /// iteration.
    ///
    /// Every thread searches the best move of the last iteration first, then
    /// the others from its own place in the list, going round: thread `i` of
    /// `n` starts at the `i / n` mark. Their null-window searches have the
    /// same alpha (the first move's score), so each finds most of the moves
    /// the others reach later already in the table.
    ///
    /// Iterations search with the full window (an aspiration window saved
    /// 0.4% of the nodes ["Iterative deepening and time"]).
    pub(super) fn iterate(
        &mut self,
        board: &mut Board,
        mut root_moves: Vec<usize>,
        thread: (usize, usize),
        started: Instant,
        mut progress: Option<&mut dyn FnMut(&Progress)>,
    ) -> Found {
        let limits = self.shared.limits;
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let threaded = limits.threads > 1;
        let mut best = root_moves[0];
        let mut best_score = 0;
        let mut best_pv = vec![best];
        let mut reached = 0;
        let mut root_scores: Vec<(usize, i32)> = Vec::new();
        for depth in 1..=max_depth {
            self.pv = vec![Vec::new(); depth as usize + 64];
            let mut alpha = -WIN - 1;
            let beta = WIN + 1;
            let mut iteration_best = None;
            let mut order = root_moves.clone();
            let (index, count) = thread;
            if index > 0 && order.len() > 2 {
                let shift = (order.len() - 1) * index / count;
                order[1..].rotate_left(shift);
            }
            for (i, &mv) in order.iter().enumerate() {
                board.place(mv);
                let mut failed_high = false;
                let score = if limits.score_root {
                    -self.pvs(board, depth as i32 - 1, -WIN - 1, WIN + 1, 1)
                } else if i == 0 {
                    -self.pvs(board, depth as i32 - 1, -beta, -alpha, 1)
                } else {
                    let probe = -self.pvs(board, depth as i32 - 1, -alpha - 1, -alpha, 1);
                    if probe > alpha && !self.aborted {
                        failed_high = true;
                        -self.pvs(board, depth as i32 - 1, -beta, -alpha, 1)
                    } else {
                        probe
                    }
                };
                board.undo();
                if self.aborted {
                    // Cut off while searching again a move that beat the
                    // best with a null window: it is better at this depth,
                    // by at least that bound.
                    if failed_high {
                        iteration_best = Some((mv, alpha + 1, vec![mv]));
                    }
                    break;
                }
                if limits.score_root {
                    match root_scores.iter_mut().find(|(m, _)| *m == mv) {
                        Some(entry) => entry.1 = score,
                        None => root_scores.push((mv, score)),
                    }
                }
                if score > alpha {
                    alpha = score;
                    let mut pv = vec![mv];
                    pv.extend(self.pv[1].iter().copied());
                    iteration_best = Some((mv, score, pv));
                }
            }
            // A cut-off iteration's best counts too: its moves were searched
            // to the full depth, the last best (searched first) among them,
            // and another that beat it is better at that depth. Against
            // keeping it only if it also beat the last iteration's score
            // (0.3 s per move, 240 games): Elo +24.7 +- 44.2.
            if let Some((mv, score, mut pv)) = iteration_best {
                self.complete_pv(board, &mut pv, depth as usize);
                best = mv;
                best_score = score;
                best_pv = pv;
                if !self.aborted {
                    reached = depth;
                }
            }
            if self.aborted {
                break;
            }
            let last = depth >= max_depth || best_score.abs() > WIN_BOUND;
            if threaded {
                let published = self.shared.publish(&Found {
                    best,
                    score: best_score,
                    depth,
                    pv: best_pv.clone(),
                    root_scores: root_scores.clone(),
                });
                if last && published {
                    // The answer is found: every thread stops.
                    self.shared.halt.store(true, Ordering::Relaxed);
                }
            }
            if let Some(progress) = progress.as_mut() {
                progress(&Progress {
                    depth,
                    score: best_score,
                    nodes: self.total_nodes(),
                    elapsed: started.elapsed(),
                    pv: best_pv.iter().copied().map(Point::from_index).collect(),
                });
            }
            // The best move first next time.
            if let Some(at) = root_moves.iter().position(|&m| m == best) {
                let mv = root_moves.remove(at);
                root_moves.insert(0, mv);
            }
            if best_score.abs() > WIN_BOUND {
                break;
            }
        }
        Found {
            best,
            score: best_score,
            depth: reached,
            pv: best_pv,
            root_scores,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proven_win_beats_a_deeper_iteration() {
        let found = |score, depth| Found {
            best: 0,
            score,
            depth,
            pv: Vec::new(),
            root_scores: Vec::new(),
        };
        assert!(found(10, 6).beats(&found(500, 5)));
        assert!(!found(10, 5).beats(&found(10, 5)));
        assert!(found(WIN - 9, 4).beats(&found(300, 7)));
        assert!(!found(300, 9).beats(&found(WIN - 9, 4)));
        assert!(found(WIN - 9, 6).beats(&found(WIN - 9, 4)));
    }
}
