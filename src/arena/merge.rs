//! Merging match files: the games of the shards of one match (`match
//! --shard i/n`), or of runs continued elsewhere, read back into one tally.

use crate::arena::game::MatchRecord;
use crate::arena::record::{self, GameTag, RecordError};
use crate::arena::results::{GameResult, Tally};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// Why files could not be merged.
#[derive(Debug)]
pub enum MergeError {
    Record(RecordError),
    /// No file holds a finished match game.
    NoGames,
    /// One game number appears twice (the same shard given twice, or
    /// overlapping shards).
    Duplicate {
        game: usize,
        first: PathBuf,
        second: PathBuf,
    },
    /// Two files, or two games, name different engines.
    Engines {
        path: PathBuf,
        game: usize,
        found: Box<[String; 2]>,
        expected: Box<[String; 2]>,
    },
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Record(error) => write!(f, "{error}"),
            MergeError::NoGames => write!(f, "no finished match game in the files"),
            MergeError::Duplicate {
                game,
                first,
                second,
            } => write!(
                f,
                "game {game} is in {} and in {} (the same shard twice?)",
                first.display(),
                second.display()
            ),
            MergeError::Engines {
                path,
                game,
                found,
                expected,
            } => write!(
                f,
                "{} game {game}: engines {} and {}, where the other games have {} and {}",
                path.display(),
                found[0],
                found[1],
                expected[0],
                expected[1]
            ),
        }
    }
}

impl std::error::Error for MergeError {}

impl From<RecordError> for MergeError {
    fn from(error: RecordError) -> Self {
        MergeError::Record(error)
    }
}

/// The combined result of several match files.
#[derive(Clone, Debug)]
pub struct Merged {
    /// Every game, in the order of the schedule's numbers.
    pub tally: Tally,
    /// The highest game number seen.
    pub last_game: usize,
    /// Numbers from 1 to `last_game` that no file holds.
    pub missing: Vec<usize>,
    /// Lines of the files that are not finished match games.
    pub dropped: usize,
}

/// Engine 1's and engine 2's names in a game.
fn engines(game: &impl MatchRecord, tag: &GameTag) -> [String; 2] {
    let mut names = game.players().map(str::to_string);
    if tag.black == 1 {
        names.swap(0, 1);
    }
    names
}

/// Reads `paths` and adds their games up in the order of their numbers, so
/// that the tally is the one a single run of the whole schedule reports.
/// The files are only read; `R` is the game's record (Othello's GGF,
/// gomoku's SGF).
pub fn merge<R: MatchRecord>(paths: &[impl AsRef<Path>]) -> Result<Merged, MergeError> {
    let mut games: BTreeMap<usize, (GameResult, PathBuf)> = BTreeMap::new();
    let mut names: Option<[String; 2]> = None;
    let mut dropped = 0;
    for path in paths {
        let path = path.as_ref();
        let (read, bad) = record::read::<R>(path)?;
        dropped += bad;
        for (game, tag) in read {
            let found = engines(&game, &tag);
            let expected = names.get_or_insert_with(|| found.clone());
            if *expected != found {
                return Err(MergeError::Engines {
                    path: path.to_path_buf(),
                    game: tag.number,
                    found: Box::new(found),
                    expected: Box::new(expected.clone()),
                });
            }
            if let Some((_, first)) = games.get(&tag.number) {
                return Err(MergeError::Duplicate {
                    game: tag.number,
                    first: first.clone(),
                    second: path.to_path_buf(),
                });
            }
            let number = tag.number;
            games.insert(
                number,
                (GameResult::from_record(&game, tag), path.to_path_buf()),
            );
        }
    }
    let names = names.ok_or(MergeError::NoGames)?;
    let mut tally = Tally::new(names);
    for (result, _) in games.values() {
        tally.add(result);
    }
    let last_game = games.keys().next_back().copied().unwrap_or(0);
    let missing = (1..=last_game).filter(|n| !games.contains_key(n)).collect();
    Ok(Merged {
        tally,
        last_game,
        missing,
        dropped,
    })
}
