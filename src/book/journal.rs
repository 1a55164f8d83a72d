//! The journal of a book run: every search finished so far, one line each,
//! appended and flushed as it finishes. A search of the book is a pure
//! function of its position, excluded moves, depth and selectivity (one
//! thread, a fresh table), so the journal is a cache of them: a run killed
//! at any moment and started again with the same command reads its journal
//! and searches only what is left. The run removes it once its book is
//! written.
//!
//! A line: the canonical board (player, opponent), the excluded squares,
//! the depth and selectivity asked, then the result (move code, score,
//! depth, selectivity), all but the percentages in hexadecimal or decimal
//! as written by [`Journal::record`]. A last line cut short by a kill is
//! ignored.

use super::{BookError, Edge, Value};
use crate::board::Board;
use crate::search::Selectivity;
use rustc_hash::FxHashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

/// What a search was asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Job {
    /// The canonical board.
    pub board: Board,
    /// Squares not to search (the book moves).
    pub excluded: u64,
    pub depth: u8,
    pub selectivity: Selectivity,
}

/// The searches done, and the file that keeps them.
#[derive(Debug, Default)]
pub struct Journal {
    done: FxHashMap<Job, Option<Edge>>,
    file: Option<File>,
    path: Option<PathBuf>,
}

impl Journal {
    /// A journal kept in memory only.
    pub fn in_memory() -> Journal {
        Journal::default()
    }

    /// The journal at `path`: its searches read if it exists, new ones
    /// appended.
    pub fn open(path: &Path) -> Result<Journal, BookError> {
        let mut done = FxHashMap::default();
        let mut cut = false;
        if let Ok(file) = File::open(path) {
            for line in BufReader::new(file).split(b'\n') {
                let line = line?;
                match parse(&String::from_utf8_lossy(&line)) {
                    Some((job, edge)) => {
                        done.insert(job, edge);
                        cut = false;
                    }
                    None => cut = true,
                }
            }
        }
        let mut file = OpenOptions::new().create(true).append(true).open(path)?;
        if cut {
            // The next line must not continue the one a kill cut short.
            writeln!(file)?;
        }
        Ok(Journal {
            done,
            file: Some(file),
            path: Some(path.to_path_buf()),
        })
    }

    /// The journal of the run writing `output`: `OUTPUT.journal`.
    pub fn beside(output: &Path) -> PathBuf {
        let mut name = output.as_os_str().to_os_string();
        name.push(".journal");
        PathBuf::from(name)
    }

    /// The result of `job`, if it was searched.
    pub fn get(&self, job: &Job) -> Option<Option<Edge>> {
        self.done.get(job).copied()
    }

    /// Number of searches known.
    pub fn len(&self) -> usize {
        self.done.len()
    }

    pub fn is_empty(&self) -> bool {
        self.done.is_empty()
    }

    /// Whether any search known was asked at `depth` and `selectivity`.
    pub fn has_searches_at(&self, depth: u8, selectivity: Selectivity) -> bool {
        self.done
            .keys()
            .any(|job| job.depth == depth && job.selectivity == selectivity)
    }

    /// Keeps the result of `job`, on file first.
    pub fn record(&mut self, job: Job, edge: Option<Edge>) -> Result<(), BookError> {
        if let Some(file) = &mut self.file {
            let result = match edge {
                Some(edge) => format!(
                    "{} {} {} {}",
                    edge.mv,
                    edge.value.score,
                    edge.value.depth,
                    edge.value.selectivity.percent()
                ),
                None => "-".to_string(),
            };
            writeln!(
                file,
                "{:016x} {:016x} {:016x} {} {} {result}",
                job.board.player,
                job.board.opponent,
                job.excluded,
                job.depth,
                job.selectivity.percent()
            )?;
            file.flush()?;
        }
        self.done.insert(job, edge);
        Ok(())
    }

    /// Deletes the file: the run it served is complete.
    pub fn remove(self) -> Result<(), BookError> {
        drop(self.file);
        if let Some(path) = self.path {
            std::fs::remove_file(path)?;
        }
        Ok(())
    }
}

/// A journal line, `None` when it is not one (a line cut short).
fn parse(line: &str) -> Option<(Job, Option<Edge>)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let hex = |i: usize| u64::from_str_radix(words.get(i)?, 16).ok();
    let number = |i: usize| words.get(i)?.parse::<i32>().ok();
    let selectivity = |i: usize| words.get(i)?.parse::<Selectivity>().ok();
    let job = Job {
        board: Board {
            player: hex(0)?,
            opponent: hex(1)?,
        },
        excluded: hex(2)?,
        depth: u8::try_from(number(3)?).ok()?,
        selectivity: selectivity(4)?,
    };
    if words.get(5) == Some(&"-") && words.len() == 6 {
        return Some((job, None));
    }
    if words.len() != 9 {
        return None;
    }
    let edge = Edge {
        mv: u8::try_from(number(5)?).ok()?,
        value: Value {
            score: i8::try_from(number(6)?).ok()?,
            depth: u8::try_from(number(7)?).ok()?,
            selectivity: selectivity(8)?,
        },
    };
    Some((job, Some(edge)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_journal_reads_back_what_it_wrote_and_skips_a_cut_line() {
        let dir = std::env::temp_dir().join(format!("oxello-journal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("j");
        let job = Job {
            board: Board::start(crate::bitboard::BoardSize::Eight),
            excluded: 5,
            depth: 4,
            selectivity: Selectivity::MOST,
        };
        let edge = Edge {
            mv: 37,
            value: Value {
                score: -2,
                depth: 4,
                selectivity: Selectivity::MOST,
            },
        };
        let mut journal = Journal::open(&path).unwrap();
        journal.record(job, Some(edge)).unwrap();
        let other = Job { excluded: 6, ..job };
        journal.record(other, None).unwrap();
        drop(journal);
        // A kill in the middle of a line.
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        write!(file, "0000000810000000 00000010080000").unwrap();
        drop(file);
        let journal = Journal::open(&path).unwrap();
        assert_eq!(journal.len(), 2);
        assert_eq!(journal.get(&job), Some(Some(edge)));
        assert_eq!(journal.get(&other), Some(None));
        journal.remove().unwrap();
        assert!(!path.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
