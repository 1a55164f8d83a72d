//! The parallel search: Lazy SMP on the shared transposition table.
//!
//! The main thread runs the search as it would alone and reports. Each
//! helper thread runs the same iterative deepening on the same position,
//! reporting nothing: what it finds reaches the main thread through the
//! table (bounds and best moves), so the main thread's searches cut sooner.
//! Helpers with an odd number start one iteration deeper, so that the
//! threads do not all walk the same tree in the same order. When the main
//! thread is done, the helpers are halted and joined; node counts add up
//! over all threads.
//!
//! Only the main thread's iterations are reported, and only when they are
//! complete, so a parallel search reports exactly what a single thread
//! would report as exact; its speed comes from the table.

use crate::eval::Evaluator;
use crate::search::control::{Control, Shared};
use crate::search::driver::Driver;
use crate::search::tt::Table;
use crate::search::{Report, Search, SearchResult};
use std::sync::Arc;

/// Stack of each helper thread (as the engine's search thread: recursion is
/// shallow, but move lists and PV lines live there).
const HELPER_STACK_BYTES: usize = 16 << 20;

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
    std::thread::scope(|scope| {
        let mut helpers = Vec::new();
        for helper in 1..threads {
            let shared = Arc::clone(shared);
            let helper_driver = Driver { helper, ..*driver };
            let spawned = std::thread::Builder::new()
                .name(format!("oxello-helper-{helper}"))
                .stack_size(HELPER_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut search = Search::new(table, evaluator, Control::helper(shared), size);
                    helper_driver.run(&mut search, &mut |_| {});
                    search.control.flush();
                });
            match spawned {
                Ok(handle) => helpers.push(handle),
                Err(error) => log::warn!("cannot start search helper {helper}: {error}"),
            }
        }
        let mut search = Search::new(table, evaluator, Control::new(Arc::clone(shared)), size);
        let mut result = driver.run(&mut search, on_report);
        search.control.flush();
        shared.halt_helpers();
        for handle in helpers {
            if handle.join().is_err() {
                log::error!("a search helper panicked");
            }
        }
        result.nodes = shared.nodes();
        result
    })
}
