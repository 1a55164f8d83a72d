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
//! * [`output`]: writing whole games and resuming a file;
//! * [`npz`]: the AlphaZero arrays (`--format npz`), written from a journal;
//! * [`game`]: the two traits that make the run loop, the files and the npz
//!   writer serve both games; [`gomoku`]: gomoku's records and games.
//!
//! [`generate`] (Othello) and [`generate_game`] (any [`SelfplayGame`]) tie
//! them together for `oxello selfplay`. Nothing here
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
pub mod defaults;
pub mod game;
pub mod gomoku;
pub mod jsonl;
pub mod npz;
pub mod openings;
pub mod output;
pub mod play;
pub mod record;
pub mod run;
pub mod settings;

pub use game::{SelfplayGame, TrainingRecord};
pub use openings::{MoveCount, OpeningBook, OpeningSource, OpeningsError};
pub use output::{Format, ResumeError};
pub use play::{PlayOptions, Scoring, SearchBudget};
pub use record::{GameResult, Policy, Record, RecordError};

use crate::bitboard::BoardSize;
use crate::core::StopSignal;
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

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
    pub random_moves: MoveCount,
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
    /// Openings to choose from (before random moves; 0 for gomoku).
    pub openings: usize,
    /// Whole games found in the output and kept.
    pub resumed_games: usize,
    /// Bytes of a partial game cut off the output.
    pub dropped_bytes: u64,
    /// Whether the games kept came without a settings file (written before
    /// there were any), so were resumed on trust.
    pub unchecked_settings: bool,
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
    /// A format the game or the output cannot have, or an npz journal that
    /// does not read back.
    Format(String),
    /// The output holds games of other settings (see [`settings`]).
    Settings(String),
}

impl fmt::Display for SelfplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SelfplayError::Openings(error) => write!(f, "openings: {error}"),
            SelfplayError::Resume(error) => write!(f, "output: {error}"),
            SelfplayError::Io(error) => write!(f, "{error}"),
            SelfplayError::Format(message) | SelfplayError::Settings(message) => {
                f.write_str(message)
            }
        }
    }
}

impl std::error::Error for SelfplayError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SelfplayError::Io(error) => Some(error),
            _ => None,
        }
    }
}

/// How a run's games are split and written, whatever the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// Games of the whole run (all shards).
    pub games: u32,
    pub shard: Shard,
    /// Games played at once, one thread each.
    pub threads: usize,
    pub format: Format,
}

impl Config {
    fn run(&self) -> Run {
        Run {
            games: self.games,
            shard: self.shard,
            threads: self.threads,
            format: self.format,
        }
    }
}

/// Reads an Othello record file: binary if its name ends in `.bin`, JSON
/// Lines otherwise. The error names the file.
pub fn read_file(path: &Path) -> Result<Vec<Record>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let format = if path.extension().is_some_and(|e| e == "bin") {
        Format::Binary
    } else {
        Format::Jsonl
    };
    format
        .read_all(&bytes)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The journal of an npz output: `<path>.jsonl`.
pub fn npz_journal(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".jsonl");
    PathBuf::from(name)
}

/// Plays the shard's Othello games and writes them to `path`, resuming what
/// the file already holds (see [`output`]).
pub fn generate(
    config: &Config,
    path: &Path,
    progress: &mut dyn FnMut(Progress),
) -> Result<Summary, SelfplayError> {
    let book = book(config)?;
    let workers = workers(config, &book);
    let summary = generate_game(&workers, &config.run(), path, progress)?;
    Ok(Summary {
        openings: book.len(),
        ..summary
    })
}

/// Plays the shard's Othello games and writes them to `out` (no resuming).
pub fn generate_to(
    config: &Config,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(Progress),
) -> Result<Summary, SelfplayError> {
    let book = book(config)?;
    let workers = workers(config, &book);
    let summary = generate_game_to(&workers, &config.run(), out, progress)?;
    Ok(Summary {
        openings: book.len(),
        ..summary
    })
}

/// Plays the shard's games of `game` and writes them to `path`, resuming
/// what the file (or, for npz, its journal) already holds when it was
/// written with the same settings (kept in `<path>.settings.json`, see
/// [`settings`]).
pub fn generate_game<G: SelfplayGame>(
    game: &G,
    run: &Run,
    path: &Path,
    progress: &mut dyn FnMut(Progress),
) -> Result<Summary, SelfplayError> {
    check_format::<G>(run.format)?;
    let journal = match run.format {
        Format::Npz => npz_journal(path),
        _ => path.to_path_buf(),
    };
    let belongs = |record: &G::Record| belongs(game, run, record);
    let settings = game.settings();
    let found = settings::check(&settings, &journal, path).map_err(SelfplayError::Settings)?;
    let (mut file, existing) =
        output::open_resumed(&journal, run.format, &belongs).map_err(SelfplayError::Resume)?;
    if found != settings::Found::Same {
        settings::write(&settings, path).map_err(SelfplayError::Io)?;
    }
    let todo: Vec<u32> = run
        .shard
        .games(run.games)
        .filter(|&g| existing.last_game.is_none_or(|last| g > last))
        .collect();
    let mut summary = write_games(game, run, &todo, existing.games, &mut file, progress)?;
    summary.resumed_games = existing.games;
    summary.dropped_bytes = existing.dropped_bytes;
    summary.unchecked_settings = found == settings::Found::Unrecorded && existing.games > 0;
    drop(file);
    if run.format == Format::Npz {
        write_npz::<G::Record>(&journal, path)?;
    }
    Ok(summary)
}

/// Plays the shard's games of `game` and writes them to `out` (no
/// resuming; not for npz, which needs a file).
pub fn generate_game_to<G: SelfplayGame>(
    game: &G,
    run: &Run,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(Progress),
) -> Result<Summary, SelfplayError> {
    check_format::<G>(run.format)?;
    if run.format == Format::Npz {
        return Err(SelfplayError::Format(
            "npz output needs a file, not standard output".into(),
        ));
    }
    let todo: Vec<u32> = run.shard.games(run.games).collect();
    write_games(game, run, &todo, 0, out, progress)
}

fn check_format<G: SelfplayGame>(format: Format) -> Result<(), SelfplayError> {
    if format == Format::Binary && G::Record::BINARY_LEN.is_none() {
        return Err(SelfplayError::Format(
            "this game has no binary format: use jsonl or npz".into(),
        ));
    }
    Ok(())
}

/// Writes the npz of every record of `journal` to `path`, through a
/// temporary file renamed into place.
fn write_npz<R: TrainingRecord>(journal: &Path, path: &Path) -> Result<(), SelfplayError> {
    let bytes = std::fs::read(journal).map_err(SelfplayError::Io)?;
    let records: Vec<R> = Format::Jsonl
        .read_all(&bytes)
        .map_err(|error| SelfplayError::Format(format!("{}: {error}", journal.display())))?;
    let mut temporary = path.as_os_str().to_os_string();
    temporary.push(".tmp");
    let temporary = PathBuf::from(temporary);
    let file = std::fs::File::create(&temporary).map_err(SelfplayError::Io)?;
    let mut out = io::BufWriter::new(file);
    npz::write(&mut out, &npz::samples(&records)).map_err(SelfplayError::Io)?;
    let file = out
        .into_inner()
        .map_err(|e| SelfplayError::Io(e.into_error()))?;
    drop(file);
    std::fs::rename(&temporary, path).map_err(SelfplayError::Io)
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

fn workers<'a>(config: &'a Config, book: &'a OpeningBook) -> run::Workers<'a> {
    run::Workers {
        size: config.size,
        seed: config.seed,
        threads: config.threads,
        hash_mib: config.hash_mib,
        play: config.play,
        book,
        opening: &config.opening,
    }
}

/// Whether a record found in the output can be one of this run's.
fn belongs<G: SelfplayGame>(game: &G, run: &Run, record: &G::Record) -> Result<(), String> {
    game.belongs(record)?;
    let index = record.game();
    if !run.shard.contains(u64::from(index)) {
        return Err(format!("game {index} is not in shard {}", run.shard));
    }
    if index >= run.games {
        return Err(format!("game {index} is beyond --games {}", run.games));
    }
    Ok(())
}

fn write_games<G: SelfplayGame>(
    game: &G,
    run: &Run,
    todo: &[u32],
    done: usize,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(Progress),
) -> Result<Summary, SelfplayError> {
    let mut writer = output::GameWriter::new(out, run.format);
    let mut summary = Summary::default();
    let total = done + todo.len();
    progress(Progress {
        games: done,
        total,
        records: 0,
    });
    run::play_games(
        game,
        run.threads,
        todo,
        &StopSignal::new(),
        &mut |_, records| {
            writer.write_game(records)?;
            summary.games += 1;
            summary.records += records.len() as u64;
            progress(Progress {
                games: done + summary.games,
                total,
                records: summary.records,
            });
            Ok(())
        },
    )
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
