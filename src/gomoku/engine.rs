//! The gomoku engine as the protocols use it, the sibling of the Othello
//! [`crate::engine::Engine`]: a search thread that owns the table, one
//! search at a time, and its progress and result sent as events.
//!
//! A search runs on the engine's thread (its helper threads, with
//! [`Limits::threads`], are spawned from there), so the caller's thread
//! stays free: the Gomocup brain keeps its command loop, and prints each
//! iteration's `MESSAGE` line as it comes. The stop signal is the one the
//! engine was built with: the stdin reader raises it when it reads
//! `yxstop`, and the running search ends within milliseconds.

use crate::gomoku::board::Board;
use crate::gomoku::search::{Limits, Progress, SearchResult, Searcher};
use crate::search::StopSignal;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;

/// Table size by default, MiB (the Gomocup brain's `INFO max_memory` and
/// `hash_size`, and `--hash`, change it).
pub const DEFAULT_HASH_MIB: usize = 64;

/// Progress and the end of a search.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// An iteration finished (the main thread's).
    Progress(Progress),
    /// The search ended; the engine is free for the next one.
    Finished(SearchResult),
}

/// Receives events on the engine's thread.
pub type EventSink = Box<dyn FnMut(Event) + Send>;

enum Job {
    Search {
        // Boxed: a board is large beside the other jobs.
        board: Box<Board>,
        limits: Limits,
        sink: EventSink,
        done: Sender<SearchResult>,
    },
    Clear,
    Resize(usize),
}

/// The engine. See the module documentation.
pub struct Engine {
    jobs: Option<Sender<Job>>,
    worker: Option<JoinHandle<()>>,
    stop: StopSignal,
    running: Option<Receiver<SearchResult>>,
}

/// Stack of the search thread: the recursion holds a board copy per
/// threat-search level.
const WORKER_STACK_BYTES: usize = 16 << 20;

impl Engine {
    /// An engine with a `hash_mib` MiB table, stopped by `stop`.
    pub fn new(hash_mib: usize, stop: StopSignal) -> Engine {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let worker_stop = stop.clone();
        let worker = std::thread::Builder::new()
            .name("oxello-gomoku".to_string())
            .stack_size(WORKER_STACK_BYTES)
            .spawn(move || worker_loop(Searcher::new(hash_mib), worker_stop, inbox))
            .expect("cannot start the gomoku search thread");
        Engine {
            jobs: Some(jobs),
            worker: Some(worker),
            stop,
            running: None,
        }
    }

    /// Starts searching `board` within `limits`; events go to `sink`, the
    /// last one [`Event::Finished`]. A search still running is waited for
    /// first (raise the stop signal to make that short).
    pub fn go(&mut self, board: &Board, limits: Limits, sink: EventSink) {
        let _ = self.wait();
        let (done, result) = mpsc::channel();
        self.send(Job::Search {
            board: Box::new(board.clone()),
            limits,
            sink,
            done,
        });
        self.running = Some(result);
    }

    /// Raises the stop signal: the running search ends at once and still
    /// reports its result. The signal stays raised until its owner resets
    /// it.
    pub fn stop(&self) {
        self.stop.stop();
    }

    /// Waits for the running search and returns its result (`None` when
    /// none runs).
    pub fn wait(&mut self) -> Option<SearchResult> {
        let result = self.running.take()?.recv().ok();
        if result.is_none() {
            log::error!("the gomoku search thread ended without a result");
        }
        result
    }

    /// Empties the table (after the running search).
    pub fn clear(&mut self) {
        self.send(Job::Clear);
    }

    /// Gives the table `mib` MiB (after the running search).
    pub fn resize(&mut self, mib: usize) {
        self.send(Job::Resize(mib));
    }

    fn send(&self, job: Job) {
        if let Some(jobs) = &self.jobs
            && jobs.send(job).is_err()
        {
            log::error!("the gomoku search thread is gone");
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if self.running.is_some() {
            self.stop();
            let _ = self.wait();
        }
        self.jobs = None;
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

fn worker_loop(mut searcher: Searcher, stop: StopSignal, inbox: Receiver<Job>) {
    while let Ok(job) = inbox.recv() {
        match job {
            Job::Search {
                board,
                limits,
                mut sink,
                done,
            } => {
                let result = searcher.search(&board, &limits, &stop, &mut |p| {
                    sink(Event::Progress(p.clone()))
                });
                sink(Event::Finished(result.clone()));
                let _ = done.send(result);
            }
            Job::Clear => searcher.clear(),
            Job::Resize(mib) => searcher.resize(mib),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::board::Point;
    use crate::gomoku::rules::Config;
    use std::time::{Duration, Instant};

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
            &opening(),
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
        engine.go(&opening(), Limits::default(), Box::new(|_| {}));
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
