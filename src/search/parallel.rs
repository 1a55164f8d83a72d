//! The parallel search: all threads share the transposition table, and
//! share the work one of two ways, chosen per search by measurement.
//!
//! **Solves** (searches that solve from the start: `solve`, and the moves
//! of a game from the solver's depth on) use split points, the
//! young-brothers-wait scheme of the C engines ([`crate::search::split`]):
//! the helpers wait for tasks; a node whose first move did not cut hands
//! its other moves to idle threads and searches the rest itself (a
//! principal-variation node hands out their null-window searches).
//! FFO #40-49, two threads: 715-736 M nodes in 21.1-22.4 s (one thread:
//! 697 M nodes, 38.3-38.7 s: 1.73x); the busy-node scheme below took
//! 731-1,037 M nodes and 27.8-47 s on the same runs, as both threads
//! search the eldest brother of every node and a table move that differs
//! from one run to the next sends them down a bad first move (FFO #49:
//! 296 M or 495 M nodes, 7.7 or 13.8 s, by the run). The threads are idle
//! 4.6% of the time (waiting at split points with nothing to take).
//!
//! **Midgame searches** run Lazy SMP with ABDADA-style sharing: every
//! thread runs the same iterative deepening; the helpers report nothing,
//! and what they find reaches the main thread through the table. The
//! threads mark the nodes they are searching in a [`Busy`] table: at a
//! node deep enough, a thread that meets a move (not the first: every
//! thread searches the eldest brother first) whose child another thread is
//! searching defers it, searches its other moves, and comes back to it at
//! the end, when the table most likely holds its result. Split points did
//! worse there: at depth 24 (73%) after f5d6c3d3c4f4f6f3e6e7d7c5b6, 6.2-9.2
//! s with two threads (minimum split depth 2 to 8) against 6.0 s for one,
//! the helper idle a third of the time (the selective midgame tree has few
//! null-window nodes with many moves left after a failed first one);
//! with busy nodes 4.6-6.7 s.
//!
//! When the main thread is done, the helpers are halted and joined; node
//! counts add up over all threads.
//!
//! Only the main thread's iterations are reported, and only when they are
//! complete, so a parallel search reports exactly what a single thread
//! would report as exact; its speed comes from the table and the helpers.

use crate::board::Board;
use crate::eval::Evaluator;
use crate::search::control::{Control, Shared};
use crate::search::driver::Driver;
use crate::search::split::{self, Pool};
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

/// How the threads of a parallel search share the work.
enum Sharing {
    /// Every thread runs the iterations, sharing the busy nodes (midgame).
    Busy(Busy),
    /// The helpers search the moves split points hand out (solves).
    Split(Pool),
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
    let sharing = (threads > 1).then(|| {
        if driver.solves_at_once() {
            Sharing::Split(Pool::new())
        } else {
            Sharing::Busy(Busy::new())
        }
    });
    let (busy, pool) = match &sharing {
        Some(Sharing::Busy(busy)) => (Some(busy), None),
        Some(Sharing::Split(pool)) => (None, Some(pool)),
        None => (None, None),
    };
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
                    search.pool = pool;
                    match pool {
                        Some(pool) => split::serve(&mut search, pool),
                        None => {
                            helper_driver.run(&mut search, &mut |_| {});
                        }
                    }
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
        search.pool = pool;
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
