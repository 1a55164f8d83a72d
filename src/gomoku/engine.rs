//! The gomoku engine as the protocols use it: the gomoku search on the
//! engine thread of [`crate::core::worker`], as Othello's
//! [`crate::engine::Engine`] has it, one search at a time, with its
//! progress and result sent as events.
//!
//! A search runs on the engine's thread (its helper threads, with
//! [`Limits::threads`], are spawned from there), so the caller's thread
//! stays free: the Gomocup brain keeps its command loop, and prints each
//! iteration's `MESSAGE` line as it comes. The stop signal is the one the
//! engine was built with: the stdin reader raises it when it reads
//! `yxstop`, and the running search ends within milliseconds. The engine
//! never lowers it; its owner does.

use crate::core::StopSignal;
use crate::core::worker::{self, GameSearch, Worker};
use crate::gomoku::board::Board;
use crate::gomoku::search::{Limits, Progress, SearchResult, Searcher};
use std::time::Duration;

/// Table size by default, MiB (the Gomocup brain's `INFO max_memory` and
/// `hash_size`, and `--hash`, change it).
pub const DEFAULT_HASH_MIB: usize = 64;

/// The gomoku engine's settings from the command line (`--hash`,
/// `--depth`, `--time`, `--threads`).
#[derive(Clone, Debug, PartialEq)]
pub struct EngineOptions {
    /// Table size, MiB (the Gomocup brain's `INFO max_memory` and
    /// `hash_size` resize it).
    pub hash_mib: usize,
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Time per move (the Gomocup brain's until the manager sends
    /// `INFO timeout_turn`).
    pub time: Option<Duration>,
    /// Search threads (`None`: the front end's default).
    pub threads: Option<usize>,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mib: DEFAULT_HASH_MIB,
            depth: None,
            time: None,
            threads: None,
        }
    }
}

/// Progress and the end of a search.
pub type Event = crate::core::Event<Progress, SearchResult>;

/// Receives events on the engine's thread.
pub type EventSink = worker::EventSink<Searcher>;

/// The gomoku search as the engine thread runs it.
impl GameSearch for Searcher {
    type Position = Board;
    type Limits = Limits;
    type Progress = Progress;
    type Result = SearchResult;

    fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &StopSignal,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        Searcher::search(self, board, limits, stop, progress)
    }

    fn clear(&mut self) {
        Searcher::clear(self)
    }

    fn resize(&mut self, mib: usize) {
        Searcher::resize(self, mib)
    }
}

/// The engine. See the module documentation.
pub type Engine = Worker<Searcher>;

impl Engine {
    /// An engine with a `hash_mib` MiB table, stopped by `stop`.
    pub fn new(hash_mib: usize, stop: StopSignal) -> Engine {
        Worker::spawn("oxello-gomoku", "gomoku search", stop, move || {
            Searcher::new(hash_mib)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::board::Point;
    use crate::gomoku::rules::Config;
    use std::sync::mpsc;
    use std::time::Instant;

    fn opening() -> Board {
        let mut board = Board::new(Config::default()).unwrap();
        for (x, y) in [(7, 7), (8, 8), (7, 8), (6, 6)] {
            board.play(Point::new(x, y)).unwrap();
        }
        board
    }

    /// Runs a search; returns the depths of its progress events and the
    /// result its `Finished` event carried, checked against `wait`'s.
    fn run(engine: &mut Engine, limits: Limits) -> (Vec<u32>, SearchResult) {
        let (events, inbox) = mpsc::channel();
        engine.go(
            opening(),
            limits,
            Box::new(move |e| {
                let _ = events.send(e);
            }),
        );
        let mut depths = Vec::new();
        let finished = loop {
            match inbox.recv_timeout(Duration::from_secs(60)).unwrap() {
                Event::Progress(p) => depths.push(p.depth),
                Event::Finished(result) => break result,
            }
        };
        assert_eq!(engine.wait(), Some(finished.clone()));
        (depths, finished)
    }

    #[test]
    fn events_come_while_the_search_runs_and_end_with_its_result() {
        let mut engine = Engine::new(4, StopSignal::new());
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let (depths, finished) = run(&mut engine, limits.clone());
        assert_eq!(depths, vec![1, 2, 3, 4]);
        // Collected: nothing is running any more.
        assert_eq!(engine.wait(), None);
        // After a clear the same search gives the same answer (a
        // depth-limited search is reproducible).
        engine.clear();
        let (depths, again) = run(&mut engine, limits);
        assert_eq!(
            (again.best, again.depth, again.nodes),
            (finished.best, 4, finished.nodes)
        );
        assert_eq!(depths.len(), 4);
    }

    #[test]
    fn the_stop_signal_ends_a_search_at_once_with_an_answer() {
        let stop = StopSignal::new();
        let mut engine = Engine::new(4, stop.clone());
        engine.go(opening(), Limits::default(), Box::new(|_| {}));
        std::thread::sleep(Duration::from_millis(100));
        let asked = Instant::now();
        stop.stop();
        let result = engine.wait().unwrap();
        assert!(
            asked.elapsed() < Duration::from_millis(50),
            "{:?}",
            asked.elapsed()
        );
        assert!(result.best.is_some());
    }
}
