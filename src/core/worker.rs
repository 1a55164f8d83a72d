//! The engine thread both games' facades stand on: what a game's search
//! provides ([`GameSearch`]), and the [`Worker`] that runs it on a thread of
//! its own, one search at a time, reporting [`Event`]s.
//!
//! The worker owns the searcher (and so its transposition table) on its
//! thread and takes jobs from a channel: search, clear the table, resize
//! it. A search reports each iteration and its end to an [`EventSink`] on
//! that thread, and hands its result to [`Worker::wait`]; the caller's
//! thread stays free to read input and to raise the stop signal.

use crate::core::StopSignal;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;

/// What a game's search provides to the engine thread: the position and
/// limits it searches, the progress it reports, its result, and its table.
pub trait GameSearch: Send + 'static {
    /// What is searched (a position, a board).
    type Position: Send + 'static;
    /// How far and how long.
    type Limits: Send + 'static;
    /// One finished iteration.
    type Progress: Clone + Send + 'static;
    /// The answer.
    type Result: Clone + Send + 'static;

    /// Searches `position` within `limits` until done or `stop` is raised,
    /// telling `progress` of each iteration.
    fn search(
        &mut self,
        position: &Self::Position,
        limits: &Self::Limits,
        stop: &StopSignal,
        progress: &mut dyn FnMut(&Self::Progress),
    ) -> Self::Result;

    /// Forgets the table's content.
    fn clear(&mut self);

    /// Gives the table `mib` MiB.
    fn resize(&mut self, mib: usize);
}

/// Progress and the end of a search.
#[derive(Clone, Debug, PartialEq)]
pub enum Event<P, R> {
    /// An iteration finished.
    Progress(P),
    /// The search ended; the engine is free for the next one.
    Finished(R),
}

/// The events of a search by `S`.
pub type SearchEvent<S> = Event<<S as GameSearch>::Progress, <S as GameSearch>::Result>;

/// Receives a search's events on the engine thread.
pub type EventSink<S> = Box<dyn FnMut(SearchEvent<S>) + Send>;

enum Job<S: GameSearch> {
    Search {
        // Boxed: a gomoku board is large beside the other jobs.
        position: Box<S::Position>,
        limits: S::Limits,
        sink: EventSink<S>,
        done: Sender<S::Result>,
    },
    Clear,
    Resize(usize),
}

/// A searcher on its own thread. See the module documentation.
pub struct Worker<S: GameSearch> {
    jobs: Option<Sender<Job<S>>>,
    thread: Option<JoinHandle<()>>,
    stop: StopSignal,
    running: Option<Receiver<S::Result>>,
    /// What the thread runs, for its messages (`search`).
    what: &'static str,
}

/// Stack of the engine thread: the searches recurse, with PV lines (Othello)
/// and a board copy per threat-search level (gomoku) on the stack.
const STACK_BYTES: usize = 16 << 20;

impl<S: GameSearch> Worker<S> {
    /// Starts the thread `name`, running the `what` (for messages) that
    /// `make` builds there; searches are stopped by `stop`.
    pub fn spawn(
        name: &'static str,
        what: &'static str,
        stop: StopSignal,
        make: impl FnOnce() -> S + Send + 'static,
    ) -> Worker<S> {
        let (jobs, inbox) = mpsc::channel::<Job<S>>();
        let worker_stop = stop.clone();
        let thread = std::thread::Builder::new()
            .name(name.to_string())
            .stack_size(STACK_BYTES)
            .spawn(move || work(make(), worker_stop, inbox))
            .unwrap_or_else(|error| panic!("cannot start the {what} thread: {error:?}"));
        Worker {
            jobs: Some(jobs),
            thread: Some(thread),
            stop,
            running: None,
            what,
        }
    }

    /// Starts searching `position` within `limits`; events go to `sink`,
    /// the last one [`Event::Finished`]. A search still running is waited
    /// for first (raise the stop signal to make that short). The stop
    /// signal is left as it is.
    pub fn go(&mut self, position: S::Position, limits: S::Limits, sink: EventSink<S>) {
        let _ = self.wait();
        let (done, result) = mpsc::channel();
        self.send(Job::Search {
            position: Box::new(position),
            limits,
            sink,
            done,
        });
        self.running = Some(result);
    }

    /// Takes `result`, found without searching (a simple player's move), as
    /// the running search's: [`Worker::wait`] returns it.
    pub fn answer(&mut self, result: S::Result) {
        let _ = self.wait();
        let (done, receiver) = mpsc::channel();
        let _ = done.send(result);
        self.running = Some(receiver);
    }

    /// Raises the stop signal: the running search ends at once and still
    /// reports its result.
    pub fn stop(&self) {
        self.stop.stop();
    }

    /// A handle on the stop signal of this worker's searches.
    pub fn stop_signal(&self) -> StopSignal {
        self.stop.clone()
    }

    /// Whether a search has been started and its result not yet collected.
    pub fn is_searching(&self) -> bool {
        self.running.is_some()
    }

    /// Waits for the running search and returns its result (`None` when
    /// none runs).
    pub fn wait(&mut self) -> Option<S::Result> {
        let result = self.running.take()?.recv().ok();
        if result.is_none() {
            log::error!("the {} thread ended without a result", self.what);
        }
        result
    }

    /// Stops and collects any running search.
    pub fn abort(&mut self) {
        if self.running.is_some() {
            self.stop();
            let _ = self.wait();
        }
    }

    /// Empties the table (after the running search).
    pub fn clear(&mut self) {
        self.send(Job::Clear);
    }

    /// Gives the table `mib` MiB (after the running search).
    pub fn resize(&mut self, mib: usize) {
        self.send(Job::Resize(mib));
    }

    fn send(&self, job: Job<S>) {
        if let Some(jobs) = &self.jobs
            && jobs.send(job).is_err()
        {
            log::error!("the {} thread is gone", self.what);
        }
    }
}

impl<S: GameSearch> Drop for Worker<S> {
    fn drop(&mut self) {
        self.abort();
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn work<S: GameSearch>(mut searcher: S, stop: StopSignal, inbox: Receiver<Job<S>>) {
    while let Ok(job) = inbox.recv() {
        match job {
            Job::Search {
                position,
                limits,
                mut sink,
                done,
            } => {
                let result = searcher.search(&position, &limits, &stop, &mut |progress| {
                    sink(Event::Progress(progress.clone()))
                });
                sink(Event::Finished(result.clone()));
                let _ = done.send(result);
            }
            Job::Clear => searcher.clear(),
            Job::Resize(mib) => searcher.resize(mib),
        }
    }
}
