//! Many games at once: one game per worker thread, each with its own
//! single-threaded searcher, finished games handed back in index order.
//! The loop serves any [`SelfplayGame`]; [`Workers`] is Othello's.

use super::game::SelfplayGame;
use super::openings::{OpeningBook, OpeningSource};
use super::play::{PlayOptions, play_game};
use super::record::Record;
use super::settings::Settings;
use crate::bitboard::BoardSize;
use crate::search::{Searcher, StopSignal};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::collections::BTreeMap;
use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Stack of a worker: the search keeps its lines on the stack, as the
/// engine's search thread does.
const WORKER_STACK_BYTES: usize = 16 << 20;

/// What every Othello game of a run shares.
pub struct Workers<'a> {
    pub size: BoardSize,
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// Table of each worker's searcher, MiB.
    pub hash_mib: usize,
    pub play: PlayOptions,
    pub book: &'a OpeningBook,
    /// Where the book's openings come from.
    pub opening: &'a OpeningSource,
}

impl SelfplayGame for Workers<'_> {
    type Record = Record;
    type Searcher = Searcher;

    fn searcher(&self) -> Searcher {
        Searcher::new(self.hash_mib)
    }

    fn play(&self, index: u32, searcher: &mut Searcher, stop: &StopSignal) -> Option<Vec<Record>> {
        play_one(self, index, searcher, stop)
    }

    fn belongs(&self, record: &Record) -> Result<(), String> {
        if record.position.size != self.size {
            let n = record.position.size.n();
            return Err(format!("a {n}x{n} game in a run of size {}", self.size));
        }
        Ok(())
    }

    fn settings(&self) -> Settings {
        let (play, budget, n) = (&self.play, &self.play.budget, self.size.n());
        let openings = match self.opening {
            OpeningSource::Start => "the start position".to_string(),
            OpeningSource::List(path) => path.display().to_string(),
            OpeningSource::Wthor { dir, plies } => {
                format!("{} (WTHOR, {plies} moves)", dir.display())
            }
        };
        Settings::default()
            .with("game", "othello")
            .with("size", format!("{n}x{n}"))
            .with("seed", self.seed)
            .with("hash", format!("{} MiB", self.hash_mib))
            .with("depth", budget.depth)
            .with("selectivity", budget.selectivity)
            .with(
                "exact solve",
                format!("from {} empties", budget.exact_empties),
            )
            .with(
                "nodes",
                budget
                    .nodes
                    .map_or("no limit".to_string(), |n| n.to_string()),
            )
            .with(
                "score moves",
                match play.scoring {
                    super::Scoring::All => "all",
                    super::Scoring::Best => "best",
                },
            )
            .with("temperature", play.temperature)
            .with("random plies", play.random_plies)
            .with("max loss", play.max_loss)
            .with("policy temperature", play.policy_temperature)
            .with("openings", openings)
            .with("random moves", self.book.random_moves())
    }
}

/// The seed of game `index`'s random choices: a mix of the run's seed and
/// the index (SplitMix64's finaliser), so that games are independent of
/// each other and of which worker plays them.
pub fn game_seed(seed: u64, index: u32) -> u64 {
    let mut z = seed ^ u64::from(index).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Plays game `index` from its opening to the end; `None` if stopped.
pub fn play_one(
    workers: &Workers,
    index: u32,
    searcher: &mut Searcher,
    stop: &StopSignal,
) -> Option<Vec<Record>> {
    let mut rng = StdRng::seed_from_u64(game_seed(workers.seed, index));
    let start = workers.book.start(index, &mut rng);
    play_game(index, start, &workers.play, searcher, &mut rng, stop)
}

/// What receives each finished game: its index and records.
pub type OnGame<'a, R> = dyn FnMut(u32, &[R]) -> io::Result<()> + 'a;

/// Plays the games `todo` (game indices) of `game` on `threads` workers
/// and hands each finished game to `on_game` in the order of `todo`. Stops
/// early, without handing over anything more, when `on_game` fails (its
/// error is returned) or `stop` is raised; a worker that panics stops the
/// run with an error.
pub fn play_games<G: SelfplayGame>(
    game: &G,
    threads: usize,
    todo: &[u32],
    stop: &StopSignal,
    on_game: &mut OnGame<G::Record>,
) -> io::Result<()> {
    let next = AtomicUsize::new(0);
    let threads = threads.clamp(1, todo.len().max(1));
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel::<(usize, Result<Vec<G::Record>, String>)>();
        for worker in 0..threads {
            let sender = sender.clone();
            let next = &next;
            let spawned = std::thread::Builder::new()
                .name(format!("oxello-selfplay-{worker}"))
                .stack_size(WORKER_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut searcher = game.searcher();
                    while !stop.is_stopped() {
                        let slot = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&index) = todo.get(slot) else { break };
                        let played = catch_unwind(AssertUnwindSafe(|| {
                            game.play(index, &mut searcher, stop)
                        }));
                        let outcome = match played {
                            Ok(Some(records)) => Ok(records),
                            Ok(None) => break,
                            Err(_) => Err(format!("game {index}: the engine panicked")),
                        };
                        let failed = outcome.is_err();
                        if sender.send((slot, outcome)).is_err() || failed {
                            break;
                        }
                    }
                });
            if let Err(error) = spawned {
                stop.stop();
                return Err(error);
            }
        }
        drop(sender);
        let mut finished = BTreeMap::new();
        let mut due = 0;
        for (slot, outcome) in receiver {
            match outcome {
                Ok(records) => finished.insert(slot, records),
                Err(message) => {
                    stop.stop();
                    return Err(io::Error::other(message));
                }
            };
            while let Some(records) = finished.remove(&due) {
                if let Err(error) = on_game(todo[due], &records) {
                    stop.stop();
                    return Err(error);
                }
                due += 1;
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_seeds_differ() {
        let seeds: std::collections::HashSet<u64> = (0..1000)
            .flat_map(|i| [game_seed(1, i), game_seed(2, i)])
            .collect();
        assert_eq!(seeds.len(), 2000);
    }
}
