//! Stopping a search: an atomic stop flag that any thread may raise, a node
//! limit and a deadline, looked at every [`NODES_BETWEEN_CHECKS`] nodes.
//!
//! The node limit is checked at fixed node counts, so a search limited by
//! nodes stops at the same node every time: results are reproducible.

pub use crate::core::StopSignal;
use crate::search::params::NODES_BETWEEN_CHECKS;
use crate::search::split::SplitPoint;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::time::Instant;

/// What ended a search early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The stop signal was raised.
    Signal,
    /// The node limit was reached.
    Nodes,
    /// The time ran out.
    Time,
}

impl StopReason {
    const fn code(self) -> u8 {
        match self {
            StopReason::Signal => 1,
            StopReason::Nodes => 2,
            StopReason::Time => 3,
        }
    }

    const fn from_code(code: u8) -> Option<StopReason> {
        match code {
            1 => Some(StopReason::Signal),
            2 => Some(StopReason::Nodes),
            3 => Some(StopReason::Time),
            _ => None,
        }
    }
}

/// The part of one search that its threads share: the node total, the
/// limits, and why the search stopped.
#[derive(Debug)]
pub struct Shared {
    nodes: AtomicU64,
    /// A [`StopReason`] code, 0 while running.
    stopped: AtomicU8,
    /// Raised when the main thread is done: helper threads return.
    halt: AtomicBool,
    node_limit: u64,
    deadline: Option<Instant>,
    signal: StopSignal,
}

impl Shared {
    pub fn new(signal: StopSignal, node_limit: Option<u64>, deadline: Option<Instant>) -> Shared {
        Shared {
            nodes: AtomicU64::new(0),
            stopped: AtomicU8::new(0),
            halt: AtomicBool::new(false),
            node_limit: node_limit.unwrap_or(u64::MAX),
            deadline,
            signal,
        }
    }

    /// Stops every thread of the search, as the stop signal would.
    pub fn stop_all(&self) {
        let _ = self.stopped.compare_exchange(
            0,
            StopReason::Signal.code(),
            Ordering::Relaxed,
            Ordering::Relaxed,
        );
    }

    /// Tells the helper threads to return (the main thread is done).
    pub fn halt_helpers(&self) {
        self.halt.store(true, Ordering::Relaxed);
    }

    /// Whether the main thread is done (the helpers must return).
    pub fn helpers_halted(&self) -> bool {
        self.halt.load(Ordering::Relaxed)
    }

    /// Nodes counted by all threads so far (up to each thread's last check).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
}

/// Node counting and the stop conditions, for one thread of a search.
///
/// Each thread counts its nodes locally and adds them to the shared total
/// every [`NODES_BETWEEN_CHECKS`] nodes, when it also looks at the limits,
/// the stop signal and the clock. With one thread the total at each check
/// is this thread's count, so a node limit stops at the same node every
/// time.
#[derive(Debug)]
pub struct Control {
    /// Nodes of this thread.
    pub nodes: u64,
    /// Part of `nodes` already added to the shared total.
    flushed: u64,
    next_check: u64,
    shared: Arc<Shared>,
    /// Whether this thread is a helper (it also stops on `halt`).
    helper: bool,
    /// Set once the search must unwind; every caller checks it after a child.
    pub stopped: Option<StopReason>,
    /// The split points this thread works under, innermost last.
    splits: Vec<Arc<SplitPoint>>,
    /// Whether one of them is cut: the thread unwinds to it, and the search
    /// goes on from there.
    aborted: bool,
}

impl Control {
    /// The control of the main thread.
    pub fn new(shared: Arc<Shared>) -> Control {
        Control {
            nodes: 0,
            flushed: 0,
            next_check: NODES_BETWEEN_CHECKS,
            shared,
            helper: false,
            stopped: None,
            splits: Vec::new(),
            aborted: false,
        }
    }

    /// The control of a helper thread, sharing `shared`.
    pub fn helper(shared: Arc<Shared>) -> Control {
        Control {
            helper: true,
            ..Control::new(shared)
        }
    }

    /// Nodes searched by every thread of the search so far.
    pub fn total_nodes(&self) -> u64 {
        self.shared.nodes() + (self.nodes - self.flushed)
    }

    /// Counts a node; returns true when the search must stop.
    #[inline(always)]
    pub fn visit(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.check();
        }
        self.is_stopped()
    }

    #[cold]
    fn check(&mut self) {
        self.next_check = self.nodes + NODES_BETWEEN_CHECKS;
        let delta = self.nodes - self.flushed;
        self.flushed = self.nodes;
        let total = self.shared.nodes.fetch_add(delta, Ordering::Relaxed) + delta;
        self.poll_splits();
        if self.stopped.is_some() {
            return;
        }
        let shared = &self.shared;
        let reason = if total >= shared.node_limit {
            Some(StopReason::Nodes)
        } else if shared.signal.is_stopped() {
            Some(StopReason::Signal)
        } else if shared.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(StopReason::Time)
        } else {
            None
        };
        if let Some(reason) = reason {
            // The first reason found wins, for every thread.
            let _ = shared.stopped.compare_exchange(
                0,
                reason.code(),
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
        }
        self.stopped = StopReason::from_code(shared.stopped.load(Ordering::Relaxed));
        if self.stopped.is_none() && self.helper && shared.halt.load(Ordering::Relaxed) {
            // A helper's result is never used, so any reason will do.
            self.stopped = Some(StopReason::Signal);
        }
    }

    /// Whether the search must unwind: it was stopped, or a split point it
    /// works under was cut.
    #[inline(always)]
    pub fn is_stopped(&self) -> bool {
        self.stopped.is_some() || self.aborted
    }

    /// What the threads of this search share.
    pub(crate) fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    /// Whether the search was stopped (not only cut at a split point).
    pub(crate) fn is_halted(&self) -> bool {
        self.stopped.is_some()
    }

    /// How many split points this thread works under.
    pub(crate) fn split_depth(&self) -> usize {
        self.splits.len()
    }

    /// This thread starts working under `split`.
    pub(crate) fn enter_split(&mut self, split: Arc<SplitPoint>) {
        self.aborted |= split.is_cut();
        self.splits.push(split);
    }

    /// This thread is done with its innermost split point: it goes on unless
    /// an outer one is cut too.
    pub(crate) fn leave_split(&mut self) {
        self.splits.pop();
        self.aborted = self.splits.iter().any(|split| split.is_cut());
    }

    /// Looks at once whether a split point this thread works under was cut.
    pub(crate) fn poll_splits(&mut self) -> bool {
        if !self.aborted && self.splits.iter().any(|split| split.is_cut()) {
            self.aborted = true;
        }
        self.aborted
    }

    /// Adds this thread's uncounted nodes to the shared total.
    pub fn flush(&mut self) {
        let delta = self.nodes - self.flushed;
        self.flushed = self.nodes;
        self.shared.nodes.fetch_add(delta, Ordering::Relaxed);
    }
}
