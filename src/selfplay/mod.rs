//! Self-play training records: the engine plays itself from varied
//! openings and writes, for every position where the side to move had a
//! choice, the board, the root search's move distribution, the move played,
//! the search score and the game's final disc difference.
//!
//! * [`record`]: the [`Record`] and its [`Policy`];
//! * [`binary`] and [`jsonl`]: the two file formats, each with a reader;
//! * [`openings`]: where games start (standard position, XOT-style lists,
//!   WTHOR prefixes, then random moves);
//! * [`play`]: one game, and how its moves are searched and chosen;
//! * [`run`]: many games at once, handed back in index order;
//! * [`output`]: writing whole games and resuming a file.
//!
//! [`generate`] ties them together for `oxello selfplay`. Nothing here
//! prints or reads standard input: progress goes to a callback.
//!
//! # Determinism
//!
//! A game depends only on its index, the run's seed and options: its random
//! choices come from a generator seeded with both ([`run::game_seed`]), its
//! searches are single-threaded, limited by depth and nodes (never time),
//! with a table cleared for each game. So the same command writes the same
//! bytes on any machine with the same build, whatever `--threads`, and a
//! shard writes exactly its games of the unsharded run.

pub mod binary;
pub mod jsonl;
pub mod openings;
pub mod output;
pub mod play;
pub mod record;
pub mod run;

pub use openings::{OpeningBook, OpeningSource, OpeningsError};
pub use output::{Format, ResumeError};
pub use play::{PlayOptions, SearchBudget};
pub use record::{GameResult, Policy, Record, RecordError};

use crate::bitboard::BoardSize;
use crate::search::StopSignal;
use std::fmt;
use std::io::{self, Write};
use std::path::Path;

pub use crate::shard::Shard;

/// Everything a run needs.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub size: BoardSize,
    /// Games of the whole run (all shards).
    pub games: u32,
    pub seed: u64,
    pub shard: Shard,
    /// Games played at once, one thread each.
    pub threads: usize,
    /// Table of each game's searcher, MiB.
    pub hash_mib: usize,
    pub format: Format,
    pub opening: OpeningSource,
    /// Random moves after the opening.
    pub random_moves: u32,
    pub play: PlayOptions,
}

/// How far a run has got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Games of this shard in the output, resumed ones included.
    pub games: usize,
    /// Games of this shard in all.
    pub total: usize,
    /// Records written by this run (not counting resumed ones).
    pub records: u64,
}

/// What a finished run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Openings to choose from (before random moves).
    pub openings: usize,
    /// Whole games found in the output and kept.
    pub resumed_games: usize,
    /// Bytes of a partial game cut off the output.
    pub dropped_bytes: u64,
    /// Games played and written now.
    pub games: usize,
    /// Records written now.
    pub records: u64,
}

/// Why a run failed.
#[derive(Debug)]
pub enum SelfplayError {
    Openings(OpeningsError),
    Resume(ResumeError),
    /// Writing the records (or starting the workers) failed.
    Io(io::Error),
}

impl fmt::Display for SelfplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SelfplayError::Openings(error) => write!(f, "openings: {error}"),
            SelfplayError::Resume(error) => write!(f, "output: {error}"),
            SelfplayError::Io(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for SelfplayError {}

/// Plays the shard's games and writes them to `path`, resuming what the
/// file already holds (see [`output`]).
pub fn generate(
    config: &Config,
    path: &Path,
    progress: &mut dyn FnMut(Progress),
) -> Result<Summary, SelfplayError> {
    let book = book(config)?;
    let belongs = |record: &Record| belongs(config, record);
    let (mut file, existing) =
        output::open_resumed(path, config.format, &belongs).map_err(SelfplayError::Resume)?;
    let todo: Vec<u32> = config
        .shard
        .games(config.games)
        .filter(|&g| existing.last_game.is_none_or(|last| g > last))
        .collect();
    let mut summary = write_games(config, &book, &todo, existing.games, &mut file, progress)?;
    summary.resumed_games = existing.games;
    summary.dropped_bytes = existing.dropped_bytes;
    Ok(summary)
}

/// Plays the shard's games and writes them to `out` (no resuming).
pub fn generate_to(
    config: &Config,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(Progress),
) -> Result<Summary, SelfplayError> {
    let book = book(config)?;
    let todo: Vec<u32> = config.shard.games(config.games).collect();
    write_games(config, &book, &todo, 0, out, progress)
}

fn book(config: &Config) -> Result<OpeningBook, SelfplayError> {
    OpeningBook::new(
        &config.opening,
        config.size,
        config.random_moves,
        config.seed,
    )
    .map_err(SelfplayError::Openings)
}

/// Whether a record found in the output can be one of this run's.
fn belongs(config: &Config, record: &Record) -> Result<(), String> {
    if record.position.size != config.size {
        let n = record.position.size.n();
        return Err(format!("a {n}x{n} game in a run of size {}", config.size));
    }
    if !config.shard.contains(u64::from(record.game)) {
        return Err(format!(
            "game {} is not in shard {}",
            record.game, config.shard
        ));
    }
    if record.game >= config.games {
        return Err(format!(
            "game {} is beyond --games {}",
            record.game, config.games
        ));
    }
    Ok(())
}

fn write_games(
    config: &Config,
    book: &OpeningBook,
    todo: &[u32],
    done: usize,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(Progress),
) -> Result<Summary, SelfplayError> {
    let workers = run::Workers {
        seed: config.seed,
        threads: config.threads,
        hash_mib: config.hash_mib,
        play: config.play,
        book,
    };
    let mut writer = output::GameWriter::new(out, config.format);
    let mut summary = Summary {
        openings: book.len(),
        ..Summary::default()
    };
    let total = done + todo.len();
    progress(Progress {
        games: done,
        total,
        records: 0,
    });
    run::play_games(&workers, todo, &StopSignal::new(), &mut |_, records| {
        writer.write_game(records)?;
        summary.games += 1;
        summary.records += records.len() as u64;
        progress(Progress {
            games: done + summary.games,
            total,
            records: summary.records,
        });
        Ok(())
    })
    .map_err(SelfplayError::Io)?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_partition() {
        assert_eq!("3/8".parse::<Shard>(), Ok(Shard { index: 3, count: 8 }));
        for bad in ["3/2", "0/4", "1/0", "1", "a/b", "", "1/2/3", "-1/2"] {
            let error = bad.parse::<Shard>().unwrap_err();
            assert!(error.contains("expected i/n"), "{bad}: {error}");
        }
        let mut all: Vec<u32> = (1..=3)
            .flat_map(|i| Shard { index: i, count: 3 }.games(10))
            .collect();
        all.sort_unstable();
        assert_eq!(all, (0..10).collect::<Vec<_>>());
        assert_eq!(Shard::WHOLE.games(4).count(), 4);
        assert_eq!(Shard { index: 5, count: 5 }.games(3).count(), 0);
        assert!(Shard { index: 2, count: 3 }.contains(4));
    }
}
