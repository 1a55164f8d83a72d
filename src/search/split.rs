//! Split points: the young-brothers-wait parallel search.
//!
//! A null-window node searches its first move alone. If that move does not
//! cut, the node becomes a split point: while a thread is idle, each further
//! move (but the last) is handed to the [`Pool`] as a [`Task`] for an idle
//! thread, and the node searches the moves nobody took itself. Then it
//! waits for the tasks it handed out, taking tasks from the pool meanwhile
//! (its own, or those of the threads working for it). A move that proves
//! the cut raises the split point's `cut` flag: every thread searching
//! under the node unwinds (each thread looks at the split points it works
//! under at its periodic checks), and what they were searching is never
//! stored.
//!
//! A principal-variation node splits the same way after its first move:
//! its tasks are null-window searches at the alpha it split at (it hands
//! out no more once its own moves raise alpha). A task that beats that
//! alpha only reports its score, and the node searches the move again with
//! its full window, as its own loop would have. Before, the helpers waited
//! while the main thread went down the principal variation of each step
//! of a solve: FFO #40-49, two threads, side by side, three runs each:
//! 10.00, 10.23, 10.52 s -> 9.74, 9.64, 9.88 s (one thread 18.3 s); the
//! idle time was 1.05-1.33 s of the 20 s of the two threads, 0.92 s of it
//! the helper's.
//!
//! The result of a null-window node never depends on who searched which
//! move: its answer is the best score of its moves, or any score above
//! alpha. A principal-variation node's exact score does not either; when
//! all its moves fail low, the bound it returns may.

use crate::board::Board;
use crate::search::control::Shared;
use crate::search::node::{Best, Child};
use crate::search::params::SPLIT_MAX_NESTING;
use crate::search::{Search, Step};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// A node whose moves several threads search.
#[derive(Debug)]
pub(crate) struct SplitPoint {
    /// The null window of the node's tasks: is a move's score above
    /// `alpha`? (For a null-window node, the node's own question.)
    pub alpha: i32,
    /// Whether a task scoring above `alpha` settles the node (a null-window
    /// node), or only reports its score (a principal-variation node, which
    /// searches such a move again with its full window).
    settles: bool,
    /// Raised once the node is settled (a move proved the cut) or given up
    /// (the search stopped): the threads under it unwind.
    cut: AtomicBool,
    /// Tasks handed out and not yet finished.
    pending: AtomicUsize,
    /// Scores of the finished tasks, with their moves' indices.
    results: Mutex<Vec<(u8, i32)>>,
}

impl SplitPoint {
    /// The split point of a null-window node.
    pub fn new(alpha: i32) -> SplitPoint {
        SplitPoint::with(alpha, true)
    }

    /// The split point of a principal-variation node whose alpha is
    /// `alpha`: its tasks are null-window searches at `alpha`.
    pub fn principal(alpha: i32) -> SplitPoint {
        SplitPoint::with(alpha, false)
    }

    fn with(alpha: i32, settles: bool) -> SplitPoint {
        SplitPoint {
            alpha,
            settles,
            cut: AtomicBool::new(false),
            pending: AtomicUsize::new(0),
            results: Mutex::new(Vec::new()),
        }
    }

    /// Whether the node is settled or given up.
    #[inline]
    pub fn is_cut(&self) -> bool {
        self.cut.load(Ordering::Relaxed)
    }

    /// Settles or gives up the node: the threads under it unwind.
    pub fn raise_cut(&self) {
        self.cut.store(true, Ordering::Relaxed);
    }

    /// Whether tasks are out.
    #[inline]
    pub fn is_pending(&self) -> bool {
        self.pending.load(Ordering::Acquire) > 0
    }

    /// A task is done: `result` is its move's index and score, or `None`
    /// when it was not searched to the end.
    pub fn finish(&self, result: Option<(u8, i32)>) {
        if let Some((index, score)) = result {
            lock(&self.results).push((index, score));
            if score > self.alpha && self.settles {
                self.raise_cut();
            }
        }
        self.pending.fetch_sub(1, Ordering::Release);
    }

    /// The scores of the finished tasks (taken once every task is done).
    pub fn take_results(&self) -> Vec<(u8, i32)> {
        std::mem::take(&mut *lock(&self.results))
    }
}

/// A move of a split point for another thread to search.
pub(crate) struct Task {
    /// The position after the move.
    pub next: Board,
    /// The move's index in the node's list.
    pub index: u8,
    pub child: Child,
    /// The step of the search that split.
    pub step: Step,
    pub split: Arc<SplitPoint>,
}

/// The tasks waiting for a thread, and how many threads are idle.
#[derive(Default)]
pub(crate) struct Pool {
    queue: Mutex<Vec<Task>>,
    /// Threads waiting for a task: idle helpers, and split points waiting
    /// for their tasks.
    idle: AtomicUsize,
    /// Tasks in the queue, readable without the lock.
    queued: AtomicUsize,
}

impl Pool {
    pub fn new() -> Pool {
        Pool::default()
    }

    /// Whether a thread is idle with no task waiting for it (a hint: it
    /// may change at once).
    #[inline]
    pub fn wants_work(&self) -> bool {
        self.idle.load(Ordering::Relaxed) > self.queued.load(Ordering::Relaxed)
    }

    /// Hands `task` out if a thread is idle to take it; else gives it back.
    pub fn offer(&self, task: Task) -> Result<(), Task> {
        let mut queue = lock(&self.queue);
        if queue.len() >= self.idle.load(Ordering::Relaxed) {
            return Err(task);
        }
        task.split.pending.fetch_add(1, Ordering::Relaxed);
        queue.push(task);
        self.queued.store(queue.len(), Ordering::Relaxed);
        Ok(())
    }

    /// The oldest waiting task that `wanted` accepts (the idle count goes
    /// down by one when there is one).
    pub fn take(&self, wanted: impl Fn(&Task) -> bool) -> Option<Task> {
        if self.queued.load(Ordering::Relaxed) == 0 {
            return None;
        }
        let mut queue = lock(&self.queue);
        let at = queue.iter().position(wanted)?;
        let task = queue.remove(at);
        self.queued.store(queue.len(), Ordering::Relaxed);
        self.idle.fetch_sub(1, Ordering::Relaxed);
        Some(task)
    }

    /// Puts back a task whose search was given up for a reason of the
    /// thread that took it (a split point of its own was cut), not of the
    /// task's: its split point still needs it. Whatever the idle count.
    pub fn put_back(&self, task: Task) {
        let mut queue = lock(&self.queue);
        queue.push(task);
        self.queued.store(queue.len(), Ordering::Relaxed);
    }

    /// Takes back the tasks of `split` nobody has taken: they count as done.
    pub fn retract(&self, split: &Arc<SplitPoint>) {
        if self.queued.load(Ordering::Relaxed) == 0 {
            return;
        }
        let mut queue = lock(&self.queue);
        queue.retain(|task| {
            let mine = Arc::ptr_eq(&task.split, split);
            if mine {
                split.finish(None);
            }
            !mine
        });
        self.queued.store(queue.len(), Ordering::Relaxed);
    }

    /// The calling thread starts waiting for tasks.
    pub fn enter_idle(&self) {
        self.idle.fetch_add(1, Ordering::Relaxed);
    }

    /// The calling thread stops waiting for tasks (without taking one).
    pub fn leave_idle(&self) {
        self.idle.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Locks `mutex`, whether or not a thread panicked holding it (the data
/// are plain lists, valid at every step).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// How a thread waits: spins a while, then yields its core.
pub(crate) struct Backoff(u32);

impl Backoff {
    /// Spins before yielding.
    const SPINS: u32 = 64;

    pub fn new() -> Backoff {
        Backoff(0)
    }

    pub fn wait(&mut self) {
        if self.0 < Self::SPINS {
            self.0 += 1;
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }

    pub fn reset(&mut self) {
        self.0 = 0;
    }
}

impl Search<'_> {
    /// Searches a task handed out by a split point and reports its score.
    /// A search cut or stopped before its end reports nothing; one given up
    /// because a split point of this thread's own was cut (a thread waiting
    /// at its split point searches other threads' tasks meanwhile) goes back
    /// to the pool: the task's split point still needs its score.
    pub(crate) fn run_task(&mut self, pool: &Pool, task: Task) {
        let split = Arc::clone(&task.split);
        if split.is_cut() || self.control.is_halted() {
            split.finish(None);
            return;
        }
        let saved = std::mem::replace(&mut self.step, task.step);
        self.control.enter_split(Arc::clone(&split));
        let guard = StopOnPanic(Some((
            Arc::clone(&split),
            Arc::clone(self.control.shared()),
        )));
        let score = -self.child_nws(task.next, -split.alpha - 1, task.child);
        guard.disarm();
        let finished = !self.control.is_stopped();
        self.control.leave_split();
        self.step = saved;
        if finished {
            split.finish(Some((task.index, score)));
        } else if split.is_cut() || self.control.is_halted() {
            split.finish(None);
        } else {
            pool.put_back(task);
        }
    }

    /// One step of a thread waiting for work: searches the oldest task in
    /// the pool that `wanted` accepts, if there is one, else waits a while.
    fn help(&mut self, pool: &Pool, backoff: &mut Backoff, wanted: impl Fn(&Task) -> bool) {
        match pool.take(wanted) {
            Some(task) => {
                backoff.reset();
                self.run_task(pool, task);
                pool.enter_idle();
            }
            None => backoff.wait(),
        }
    }

    /// Ends the split point `split` of a null-window node whose own moves
    /// are done: cuts it if `best` already proves the cut or the search is
    /// stopping, waits for the tasks still out (searching tasks meanwhile),
    /// and folds their scores into `best`.
    pub(crate) fn join_split(&mut self, split: &Arc<SplitPoint>, best: &mut Best) {
        if best.score > split.alpha || self.control.is_stopped() {
            split.raise_cut();
        }
        for (index, score) in self.wait_split(split) {
            if score > best.score {
                *best = Best { score, index };
            }
        }
    }

    /// Waits for the tasks of the split point `split` still out (searching
    /// tasks meanwhile; those of a cut split point are retracted) and
    /// returns the moves' indices and scores of those that finished.
    pub(crate) fn wait_split(&mut self, split: &Arc<SplitPoint>) -> Vec<(u8, i32)> {
        let Some(pool) = self.pool else {
            self.control.leave_split();
            return Vec::new();
        };
        pool.enter_idle();
        let mut backoff = Backoff::new();
        loop {
            if split.is_cut() {
                pool.retract(split);
            }
            if !split.is_pending() {
                break;
            }
            if self.control.is_stopped() {
                backoff.wait();
            } else {
                let foreign = self.control.split_depth() < SPLIT_MAX_NESTING;
                self.help(pool, &mut backoff, |task| {
                    foreign || Arc::ptr_eq(&task.split, split)
                });
            }
            if self.control.poll_splits() {
                split.raise_cut();
            }
        }
        pool.leave_idle();
        let results = split.take_results();
        self.control.leave_split();
        results
    }
}

/// Should a task's search panic: stops the whole search (whose result is
/// then the last finished iteration's, never this node's) and reports the
/// task done, so that no thread waits for it forever.
struct StopOnPanic(Option<(Arc<SplitPoint>, Arc<Shared>)>);

impl StopOnPanic {
    fn disarm(mut self) {
        self.0 = None;
    }
}

impl Drop for StopOnPanic {
    fn drop(&mut self) {
        if let Some((split, shared)) = self.0.take() {
            shared.stop_all();
            split.finish(None);
        }
    }
}

/// An idle helper thread: searches the tasks split points hand out until
/// the main thread is done.
pub(crate) fn serve(search: &mut Search, pool: &Pool) {
    pool.enter_idle();
    let mut backoff = Backoff::new();
    while !search.control.shared().helpers_halted() {
        search.help(pool, &mut backoff, |_| true);
    }
    pool.leave_idle();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(split: &Arc<SplitPoint>, index: u8) -> Task {
        Task {
            next: Board::start(crate::bitboard::BoardSize::Eight),
            index,
            child: Child::Solve,
            step: Step::PLAIN,
            split: Arc::clone(split),
        }
    }

    #[test]
    fn tasks_go_out_only_to_idle_threads() {
        let pool = Pool::new();
        let split = Arc::new(SplitPoint::new(0));
        assert!(!pool.wants_work());
        assert!(pool.offer(task(&split, 1)).is_err(), "nobody is idle");
        pool.enter_idle();
        assert!(pool.wants_work());
        assert!(pool.offer(task(&split, 1)).is_ok());
        assert!(!pool.wants_work(), "the idle thread has a task waiting");
        assert!(pool.offer(task(&split, 2)).is_err());
        assert!(split.is_pending());
        let taken = pool.take(|_| true).unwrap();
        assert_eq!(taken.index, 1);
        assert!(pool.take(|_| true).is_none());
        assert!(!pool.wants_work(), "the thread is busy now");
        split.finish(Some((taken.index, -3)));
        assert!(!split.is_pending());
        assert!(!split.is_cut(), "-3 is not above alpha 0");
        assert_eq!(split.take_results(), vec![(1, -3)]);
    }

    #[test]
    fn a_score_above_alpha_cuts_and_retracted_tasks_count_as_done() {
        let pool = Pool::new();
        pool.enter_idle();
        pool.enter_idle();
        let split = Arc::new(SplitPoint::new(4));
        let other = Arc::new(SplitPoint::new(0));
        assert!(pool.offer(task(&split, 1)).is_ok());
        assert!(pool.offer(task(&other, 2)).is_ok());
        let mine = pool.take(|t| Arc::ptr_eq(&t.split, &split)).unwrap();
        split.finish(Some((mine.index, 5)));
        assert!(split.is_cut(), "5 is above alpha 4");
        pool.enter_idle();
        assert!(pool.offer(task(&split, 3)).is_ok());
        pool.retract(&split);
        assert!(!split.is_pending());
        assert!(other.is_pending(), "another split point's task stays");
        assert_eq!(pool.take(|_| true).unwrap().index, 2);
    }

    #[test]
    fn a_principal_split_point_collects_a_score_above_alpha_without_cutting() {
        let pool = Pool::new();
        pool.enter_idle();
        pool.enter_idle();
        let split = Arc::new(SplitPoint::principal(4));
        assert!(pool.offer(task(&split, 1)).is_ok());
        assert!(pool.offer(task(&split, 2)).is_ok());
        let first = pool.take(|_| true).unwrap();
        split.finish(Some((first.index, 9)));
        assert!(!split.is_cut(), "the node searches move 1 again itself");
        assert!(split.is_pending(), "move 2 is still out");
        let second = pool.take(|_| true).unwrap();
        split.finish(Some((second.index, 2)));
        assert!(!split.is_pending());
        assert_eq!(split.take_results(), vec![(1, 9), (2, 2)]);
    }
}
