//! The searches of a book run: each position's best unexplored move,
//! searched by a pool of workers, one search thread each, every search on
//! a fresh table so that its result depends on nothing but the position
//! (see [`super::journal`]); the results go to the journal as they come.

use super::journal::{Job, Journal};
use super::{Book, BookError, Edge, Value, key};
use crate::bitboard::BoardSize;
use crate::color::Color;
use crate::position::Position;
use crate::search::{Depth, Limits, Searcher, Selectivity, StopSignal};
use crate::shard::Shard;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// How a book run searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchSettings {
    /// Midgame depth of the searches (positions with fewer empties are
    /// solved exactly).
    pub depth: u8,
    pub selectivity: Selectivity,
    /// Workers, one search thread each.
    pub threads: usize,
    /// Each worker's table, MiB.
    pub hash_mib: usize,
}

impl Default for SearchSettings {
    fn default() -> Self {
        SearchSettings {
            depth: 12,
            selectivity: Selectivity::MOST,
            threads: 1,
            hash_mib: 16,
        }
    }
}

/// Which searches of a run to do now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunLimits {
    /// This machine's part of the searches.
    pub shard: Shard,
    /// Stop after this many new searches (the rest is left to a rerun).
    pub stop_after: Option<usize>,
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunSummary {
    /// Searches of this shard, in all.
    pub jobs: usize,
    /// Of those, found in the journal.
    pub resumed: usize,
    /// Searched now.
    pub searched: usize,
    /// Whether every search of this shard is done.
    pub complete: bool,
}

/// The search of `job`: its best move and value, `None` when no move is
/// left (a finished game). `searcher`'s table is cleared first.
pub fn search(searcher: &mut Searcher, job: &Job) -> Option<Edge> {
    searcher.clear();
    let position = Position {
        board: job.board,
        side: Color::Black,
        size: BoardSize::Eight,
    };
    if position.is_game_over() {
        return None;
    }
    let limits = Limits {
        depth: Some(u32::from(job.depth.max(1))),
        selectivity: job.selectivity,
        excluded: job.excluded,
        threads: 1,
        ..Limits::default()
    };
    let result = searcher.search(&position, &limits, &StopSignal::new(), &mut |_| {});
    let mv = result.best?;
    let empties = position.empty_count();
    let (depth, selectivity) = match result.depth {
        Depth::Midgame(d, s) => (d, s),
        Depth::Probable {
            empties,
            selectivity,
            ..
        } => (empties, selectivity),
        Depth::Exact | Depth::Wld => (empties, Selectivity::NONE),
    };
    Some(Edge {
        mv: key::code(mv, crate::bitboard::Symmetry::Identity),
        value: Value {
            score: result.score.clamp(-64, 64) as i8,
            depth: depth.min(u32::from(super::MAX_DEPTH)) as u8,
            selectivity,
        },
    })
}

/// The searches `book` needs: every position of [`Book::needs_search`],
/// in the order of their canonical boards.
pub fn jobs(book: &Book, settings: &SearchSettings) -> Vec<Job> {
    book.sorted_keys()
        .into_iter()
        .filter(|key| book.needs_search(key))
        .filter_map(|key| {
            Some(Job {
                board: key,
                excluded: book.excluded(&key)?,
                depth: settings.depth,
                selectivity: settings.selectivity,
            })
        })
        .collect()
}

/// Searches every position of `book` that needs it (in `limits.shard`),
/// taking what `journal` knows and adding what is searched, and stores
/// the results as the positions' best unexplored moves. `progress(done,
/// total)` follows the shard's searches.
pub fn complete(
    book: &mut Book,
    settings: &SearchSettings,
    limits: RunLimits,
    journal: &mut Journal,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<RunSummary, BookError> {
    let all = jobs(book, settings);
    let mine: Vec<Job> = all
        .into_iter()
        .enumerate()
        .filter(|(i, _)| limits.shard.contains(*i as u64))
        .map(|(_, job)| job)
        .collect();
    let mut summary = RunSummary {
        jobs: mine.len(),
        ..RunSummary::default()
    };
    let todo: Vec<Job> = mine
        .iter()
        .filter(|job| journal.get(job).is_none())
        .copied()
        .collect();
    summary.resumed = mine.len() - todo.len();
    let budget = limits.stop_after.unwrap_or(usize::MAX).min(todo.len());
    progress(summary.resumed, summary.jobs);
    run(&todo[..budget], settings, &mut |job, edge| {
        journal.record(job, edge)?;
        summary.searched += 1;
        progress(summary.resumed + summary.searched, summary.jobs);
        Ok(())
    })?;
    summary.complete = budget == todo.len();
    for job in &mine {
        if let (Some(Some(edge)), Some(node)) = (journal.get(job), book.node_mut(&job.board)) {
            node.unexplored = Some(edge);
        }
    }
    Ok(summary)
}

/// Searches everything `book` needs (with what `journal` knows), then
/// negamaxes it: a book to play from.
pub fn settle(
    book: &mut Book,
    settings: &SearchSettings,
    journal: &mut Journal,
) -> Result<RunSummary, BookError> {
    let summary = complete(
        book,
        settings,
        RunLimits::default(),
        journal,
        &mut |_, _| {},
    )?;
    super::negamax::negamax(book);
    Ok(summary)
}

/// Runs `jobs` on `settings.threads` workers; `done` takes each result on
/// this thread as it comes (an error stops the run).
pub fn run(
    jobs: &[Job],
    settings: &SearchSettings,
    done: &mut dyn FnMut(Job, Option<Edge>) -> Result<(), BookError>,
) -> Result<(), BookError> {
    let next = AtomicUsize::new(0);
    let quit = AtomicBool::new(false);
    let workers = settings.threads.clamp(1, jobs.len().max(1));
    std::thread::scope(|scope| {
        let (send, receive) = mpsc::channel();
        for _ in 0..workers {
            let send = send.clone();
            let (next, quit) = (&next, &quit);
            scope.spawn(move || {
                let mut searcher = Searcher::new(settings.hash_mib);
                while !quit.load(Ordering::Relaxed) {
                    let Some(job) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let edge = search(&mut searcher, job);
                    if send.send((*job, edge)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        let mut outcome = Ok(());
        for (job, edge) in receive {
            if let Err(error) = done(job, edge) {
                quit.store(true, Ordering::Relaxed);
                outcome = Err(error);
                break;
            }
        }
        quit.store(true, Ordering::Relaxed);
        outcome
    })
}
