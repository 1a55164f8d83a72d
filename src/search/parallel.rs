//! The parallel search: every thread runs the same search on the shared
//! transposition table, and they share the work ABDADA-style.
//!
//! The main thread runs the search as it would alone and reports. Each
//! helper thread runs the same iterative deepening on the same position,
//! reporting nothing: what it finds reaches the main thread through the
//! table (bounds and best moves). Alone, that is Lazy SMP, and on this
//! machine it did not pay in the solver: two threads walked the same tree
//! (FFO #40-44: 365 M nodes, 7.3 s against 199 M, 6.6 s for one thread). So
//! the threads also mark the nodes they are searching in a [`Busy`] table: at
//! a node deep enough, a thread that meets a move (not the first: every
//! thread searches the eldest brother first) whose child another thread is
//! searching defers it, searches its other moves, and comes back to it at
//! the end, when the table most likely holds its result. The result of a
//! node never depends on that order, only its cost. FFO #40-44, exact, two
//! threads: 227-238 M nodes in 4.2-4.6 s, against 199 M nodes in 6.7-6.9 s
//! for one thread (1.6x). Odd helpers starting one iteration deeper, as
//! Lazy SMP often does, measured no better (4.6-5.3 s), so all threads run
//! the same iterations.
//!
//! When the main thread is done, the helpers are halted and joined; node
//! counts add up over all threads.
//!
//! Only the main thread's iterations are reported, and only when they are
//! complete, so a parallel search reports exactly what a single thread
//! would report as exact; its speed comes from the table.

use crate::board::Board;
use crate::eval::Evaluator;
use crate::search::control::{Control, Shared};
use crate::search::driver::Driver;
use crate::search::tt::Table;
use crate::search::{Report, Search, SearchResult};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Slots of the busy table (a power of two): far more than the nodes being
/// searched at once by a few threads.
const BUSY_SLOTS: usize = 1 << 16;

/// The nodes the threads are searching now, by board hash. A collision only
/// costs a needless or a missed deferral, never a wrong result.
pub(crate) struct Busy {
    slots: Vec<AtomicU64>,
}

impl Busy {
    fn new() -> Busy {
        Busy {
            slots: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn slot(&self, board: Board) -> (&AtomicU64, u64) {
        let hash = board.hash64() | 1;
        (&self.slots[(hash >> 40) as usize & (BUSY_SLOTS - 1)], hash)
    }

    /// Whether another thread is searching `board`.
    #[inline]
    pub fn is_busy(&self, board: Board) -> bool {
        let (slot, key) = self.slot(board);
        slot.load(Ordering::Relaxed) == key
    }

    /// Marks `board` as being searched.
    #[inline]
    pub fn enter(&self, board: Board) {
        let (slot, key) = self.slot(board);
        slot.store(key, Ordering::Relaxed);
    }

    /// Clears the mark of `board` (unless another node took the slot).
    #[inline]
    pub fn leave(&self, board: Board) {
        let (slot, key) = self.slot(board);
        let _ = slot.compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// Stack of each helper thread (as the engine's search thread: recursion is
/// shallow, but move lists and PV lines live there).
const HELPER_STACK_BYTES: usize = 16 << 20;

/// Raises the helpers' halt flag when dropped.
struct HaltOnDrop<'a>(&'a Shared);

impl Drop for HaltOnDrop<'_> {
    fn drop(&mut self) {
        self.0.halt_helpers();
    }
}

/// Runs `driver`'s search with `driver.limits.threads` threads.
pub(crate) fn run(
    table: &Table,
    evaluator: &Evaluator,
    shared: &Arc<Shared>,
    driver: &Driver,
    on_report: &mut dyn FnMut(&Report),
) -> SearchResult {
    let size = driver.position.size;
    let threads = driver.limits.threads.max(1);
    let busy = (threads > 1).then(Busy::new);
    let busy = busy.as_ref();
    std::thread::scope(|scope| {
        let mut helpers = Vec::new();
        for helper in 1..threads {
            let shared = Arc::clone(shared);
            let helper_driver = *driver;
            let spawned = std::thread::Builder::new()
                .name(format!("oxello-helper-{helper}"))
                .stack_size(HELPER_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut search = Search::new(table, evaluator, Control::helper(shared), size);
                    search.busy = busy;
                    helper_driver.run(&mut search, &mut |_| {});
                    search.control.flush();
                });
            match spawned {
                Ok(handle) => helpers.push(handle),
                Err(error) => log::warn!("cannot start search helper {helper}: {error}"),
            }
        }
        // Halts the helpers when the main thread is done, even by a panic
        // (the scope would otherwise wait for them forever).
        let halt = HaltOnDrop(shared);
        let mut search = Search::new(table, evaluator, Control::new(Arc::clone(shared)), size);
        search.busy = busy;
        let mut result = driver.run(&mut search, on_report);
        search.control.flush();
        drop(halt);
        for handle in helpers {
            if handle.join().is_err() {
                log::error!("a search helper panicked");
            }
        }
        result.nodes = shared.nodes();
        result
    })
}
