//! Stopping a search from another thread: one atomic flag, shared by both
//! games' searches, their engines and the stdin reader of the protocols.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

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

    /// The flag itself, for a signal handler that raises it (`signal-hook`).
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.0)
    }

    /// Lowers the flag before a new search.
    pub fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }
}
