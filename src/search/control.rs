//! Stopping a search: an atomic stop flag that any thread may raise, a node
//! limit and a deadline, looked at every [`NODES_BETWEEN_CHECKS`] nodes.
//!
//! The node limit is checked at fixed node counts, so a search limited by
//! nodes stops at the same node every time: results are reproducible.

use crate::search::params::NODES_BETWEEN_CHECKS;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// A shareable stop signal. Cloning gives another handle to the same flag.
#[derive(Clone, Debug, Default)]
pub struct StopSignal(Arc<AtomicBool>);

impl StopSignal {
    pub fn new() -> StopSignal {
        StopSignal::default()
    }

    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Lowers the flag before a new search.
    pub fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }
}

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

/// Node counting and the stop conditions of one search.
#[derive(Debug)]
pub struct Control {
    pub nodes: u64,
    next_check: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    signal: StopSignal,
    /// Set once the search must unwind; every caller checks it after a child.
    pub stopped: Option<StopReason>,
}

impl Control {
    pub fn new(signal: StopSignal, node_limit: Option<u64>, deadline: Option<Instant>) -> Control {
        Control {
            nodes: 0,
            next_check: NODES_BETWEEN_CHECKS,
            node_limit: node_limit.unwrap_or(u64::MAX),
            deadline,
            signal,
            stopped: None,
        }
    }

    /// Counts a node; returns true when the search must stop.
    #[inline(always)]
    pub fn visit(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.check();
        }
        self.stopped.is_some()
    }

    #[cold]
    fn check(&mut self) {
        self.next_check = self.nodes + NODES_BETWEEN_CHECKS;
        if self.stopped.is_some() {
            return;
        }
        if self.nodes >= self.node_limit {
            self.stopped = Some(StopReason::Nodes);
        } else if self.signal.is_stopped() {
            self.stopped = Some(StopReason::Signal);
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped = Some(StopReason::Time);
        }
    }

    /// Whether the search must unwind.
    #[inline(always)]
    pub fn is_stopped(&self) -> bool {
        self.stopped.is_some()
    }
}
