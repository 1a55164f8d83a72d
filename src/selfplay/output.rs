//! Record files: the two formats, whole games written at once, and what a
//! rerun finds in a file it resumes.
//!
//! Games go to the file in the order of their index, each game's records in
//! one write. A run that is killed leaves whole games and, at most, part of
//! the next one. [`open_resumed`] reads the file back, checks that it holds
//! whole games in increasing index order (as this command writes them), cuts
//! off the partial tail and says which game came last: the rerun plays the
//! games after it and the file ends as an uninterrupted run's would.
//! Nothing is synced to disk: a killed process loses nothing it wrote, only
//! a machine crash can, and the check on resume catches that.
//!
//! The npz format cannot grow a game at a time: its records go to a JSONL
//! journal beside it, which resumes as above, and the `.npz` is written
//! from the whole journal when the run ends (see [`super::npz`]).

use super::game::TrainingRecord;
use super::record::RecordError;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The record formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// One JSON object per line (see [`super::jsonl`]).
    #[default]
    Jsonl,
    /// Fixed-size binary records (see [`super::binary`]; Othello only).
    Binary,
    /// NumPy arrays in the AlphaZero layout (see [`super::npz`]), written
    /// at the end of the run from a JSONL journal.
    Npz,
}

impl FromStr for Format {
    type Err = String;

    fn from_str(text: &str) -> Result<Format, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "jsonl" | "json" => Ok(Format::Jsonl),
            "binary" | "bin" => Ok(Format::Binary),
            "npz" => Ok(Format::Npz),
            _ => Err(format!(
                "unknown format '{text}' (use jsonl, binary or npz)"
            )),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Jsonl => "jsonl",
            Format::Binary => "binary",
            Format::Npz => "npz",
        })
    }
}

impl Format {
    /// The format of the records a run writes as it goes: the npz format's
    /// journal is JSONL.
    pub fn journal(self) -> Format {
        match self {
            Format::Npz => Format::Jsonl,
            other => other,
        }
    }

    /// Appends the bytes of a game's records to `out` (JSON lines for the
    /// npz format's journal).
    pub fn encode_game<R: TrainingRecord>(self, records: &[R], out: &mut Vec<u8>) {
        for record in records {
            record.encode(self.journal(), out);
        }
    }

    /// Every record of a file's bytes (or of several files concatenated);
    /// for the npz format, of its journal.
    pub fn read_all<R: TrainingRecord>(self, bytes: &[u8]) -> Result<Vec<R>, RecordError> {
        match self.journal() {
            Format::Binary => {
                let len = R::BINARY_LEN.ok_or(RecordError::NoBinary)?;
                bytes.chunks(len).map(|chunk| decode(self, chunk)).collect()
            }
            _ => {
                let text = std::str::from_utf8(bytes)
                    .map_err(|e| RecordError::Json(format!("not UTF-8: {e}")))?;
                text.lines()
                    .filter(|line| !line.trim().is_empty())
                    .map(|line| R::decode(Format::Jsonl, line.as_bytes()))
                    .collect()
            }
        }
    }
}

/// What a file already holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Existing {
    /// Whole games.
    pub games: usize,
    /// Their records.
    pub records: usize,
    /// The index of the last whole game.
    pub last_game: Option<u32>,
    /// Bytes of the whole games (where the file is cut).
    pub kept_bytes: u64,
    /// Bytes of the partial tail that is cut off.
    pub dropped_bytes: u64,
}

/// Why a file cannot be resumed.
#[derive(Debug)]
pub enum ResumeError {
    /// The file cannot be opened, read, cut or written.
    Io { path: PathBuf, error: io::Error },
    /// A record before the tail is unreadable.
    Record {
        path: PathBuf,
        number: usize,
        error: RecordError,
    },
    /// The records are not whole games in increasing order, or belong to
    /// another run.
    Order {
        path: PathBuf,
        number: usize,
        reason: String,
    },
}

impl fmt::Display for ResumeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResumeError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            ResumeError::Record {
                path,
                number,
                error,
            } => write!(
                f,
                "{}: record {number}: {error} (not a self-play file of this format?)",
                path.display()
            ),
            ResumeError::Order {
                path,
                number,
                reason,
            } => write!(
                f,
                "{}: record {number}: {reason}; resume with the command that wrote it, \
                 or choose another --output",
                path.display()
            ),
        }
    }
}

impl std::error::Error for ResumeError {}

/// Follows records through games: each game's records in order, games in
/// increasing index order.
struct Games<'a, R> {
    belongs: &'a dyn Fn(&R) -> Result<(), String>,
    found: Existing,
    /// The game being read: index, next record, records in it.
    current: Option<(u32, usize, usize)>,
}

impl<R: TrainingRecord> Games<'_, R> {
    fn push(&mut self, record: &R, end: u64) -> Result<(), String> {
        let (game, index, records) = (record.game(), record.index(), record.records());
        match self.current {
            None => {
                if index != 0 {
                    return Err(format!("game {game} starts at record {index}"));
                }
                if let Some(last) = self.found.last_game.filter(|&last| game <= last) {
                    return Err(format!("game {game} after game {last}"));
                }
                (self.belongs)(record)?;
            }
            Some(due) => {
                if (game, index, records) != due {
                    return Err(format!(
                        "game {game} record {index} where game {} record {} was due",
                        due.0, due.1
                    ));
                }
            }
        }
        self.current = Some((game, index + 1, records));
        if index + 1 == records {
            self.current = None;
            self.found.games += 1;
            self.found.records += records;
            self.found.last_game = Some(game);
            self.found.kept_bytes = end;
        }
        Ok(())
    }
}

/// Reads what `input` holds: whole games in increasing index order, each
/// accepted by `belongs` (the size and shard of the run), then at most a
/// partial game or record, which counts as dropped.
pub fn scan<R: TrainingRecord>(
    format: Format,
    input: &mut dyn BufRead,
    belongs: &dyn Fn(&R) -> Result<(), String>,
    path: &Path,
) -> Result<Existing, ResumeError> {
    let io_error = |error| ResumeError::Io {
        path: path.to_path_buf(),
        error,
    };
    let mut games = Games {
        belongs,
        found: Existing::default(),
        current: None,
    };
    let mut offset = 0u64;
    let mut number = 0usize;
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        let complete = match (format.journal(), R::BINARY_LEN) {
            (Format::Binary, Some(len)) => {
                Read::take(&mut *input, len as u64)
                    .read_to_end(&mut buffer)
                    .map_err(io_error)?;
                buffer.len() == len
            }
            _ => {
                input.read_until(b'\n', &mut buffer).map_err(io_error)?;
                buffer.last() == Some(&b'\n')
            }
        };
        offset += buffer.len() as u64;
        if !complete {
            break;
        }
        number += 1;
        let record = decode(format, &buffer).map_err(|error| ResumeError::Record {
            path: path.to_path_buf(),
            number,
            error,
        })?;
        games
            .push(&record, offset)
            .map_err(|reason| ResumeError::Order {
                path: path.to_path_buf(),
                number,
                reason,
            })?;
    }
    let mut found = games.found;
    found.dropped_bytes = offset - found.kept_bytes;
    Ok(found)
}

fn decode<R: TrainingRecord>(format: Format, bytes: &[u8]) -> Result<R, RecordError> {
    match format.journal() {
        Format::Binary => R::decode(Format::Binary, bytes),
        _ => {
            let end = bytes
                .iter()
                .rposition(|&b| b != b'\n' && b != b'\r')
                .map_or(0, |last| last + 1);
            R::decode(Format::Jsonl, &bytes[..end])
        }
    }
}

/// Opens `path` for writing (creating it if needed), keeps its whole games
/// (see [`scan`]), cuts off the rest and leaves the file positioned at the
/// end.
pub fn open_resumed<R: TrainingRecord>(
    path: &Path,
    format: Format,
    belongs: &dyn Fn(&R) -> Result<(), String>,
) -> Result<(File, Existing), ResumeError> {
    let io_error = |error| ResumeError::Io {
        path: path.to_path_buf(),
        error,
    };
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(io_error)?;
    let found = scan(format, &mut BufReader::new(&file), belongs, path)?;
    file.set_len(found.kept_bytes).map_err(io_error)?;
    file.seek(SeekFrom::End(0)).map_err(io_error)?;
    Ok((file, found))
}

/// Writes games, each in one write followed by a flush.
pub struct GameWriter<'w> {
    out: &'w mut dyn Write,
    format: Format,
    buffer: Vec<u8>,
}

impl<'w> GameWriter<'w> {
    pub fn new(out: &'w mut dyn Write, format: Format) -> GameWriter<'w> {
        GameWriter {
            out,
            format,
            buffer: Vec::new(),
        }
    }

    /// Writes the records of one game.
    pub fn write_game<R: TrainingRecord>(&mut self, records: &[R]) -> io::Result<()> {
        self.buffer.clear();
        self.format.encode_game(records, &mut self.buffer);
        self.out.write_all(&self.buffer)?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selfplay::record::Record;
    use crate::selfplay::record::tests::random_records;

    /// Random records renumbered into `games` whole games of 1-4 records,
    /// with increasing indices.
    fn games(count: usize) -> Vec<Vec<Record>> {
        let mut pool = random_records(count * 4, 29).into_iter();
        (0..count)
            .map(|g| {
                let n = 1 + g % 4;
                (0..n)
                    .map(|i| Record {
                        game: 3 * g as u32 + 1,
                        index: i as u8,
                        records: n as u8,
                        ..pool.next().unwrap()
                    })
                    .collect()
            })
            .collect()
    }

    fn any(_: &Record) -> Result<(), String> {
        Ok(())
    }

    #[test]
    fn every_cut_of_a_file_resumes_at_the_last_whole_game() {
        for format in [Format::Jsonl, Format::Binary] {
            let games = games(6);
            let mut bytes = Vec::new();
            let mut ends = vec![0u64];
            for game in &games {
                format.encode_game(game, &mut bytes);
                ends.push(bytes.len() as u64);
            }
            for cut in 0..=bytes.len() {
                let found = scan(format, &mut &bytes[..cut], &any, Path::new("t")).unwrap();
                let whole = ends.iter().filter(|&&end| end <= cut as u64).count() - 1;
                assert_eq!(found.games, whole, "{format} cut {cut}");
                assert_eq!(found.kept_bytes, ends[whole]);
                assert_eq!(found.dropped_bytes, cut as u64 - ends[whole]);
                let expected_last = whole.checked_sub(1).map(|g| games[g][0].game);
                assert_eq!(found.last_game, expected_last);
            }
            assert_eq!(
                format.read_all::<Record>(&bytes).unwrap(),
                games.concat(),
                "{format} reads back"
            );
        }
    }

    #[test]
    fn foreign_or_disordered_files_are_refused() {
        for format in [Format::Jsonl, Format::Binary] {
            let games = games(3);
            let bytes = |games: &[Vec<Record>]| {
                let mut out = Vec::new();
                for game in games {
                    format.encode_game(game, &mut out);
                }
                out
            };
            let swapped = bytes(&[games[1].clone(), games[0].clone()]);
            let error = scan(format, &mut &swapped[..], &any, Path::new("t")).unwrap_err();
            assert!(
                matches!(error, ResumeError::Order { number: 3, .. }),
                "{error}"
            );
            let mut holed = games[2].clone();
            holed.remove(1);
            let error = scan(format, &mut &bytes(&[holed])[..], &any, Path::new("t"));
            assert!(matches!(error, Err(ResumeError::Order { .. })));
            let refuse = |r: &Record| Err(format!("game {} is not ours", r.game));
            let error = scan(format, &mut &bytes(&games)[..], &refuse, Path::new("t"));
            assert!(error.unwrap_err().to_string().contains("is not ours"));
            let garbage = b"not a record at all, not even close to one\n".repeat(5);
            let error = scan(format, &mut &garbage[..], &any, Path::new("t"));
            assert!(matches!(error, Err(ResumeError::Record { number: 1, .. })));
        }
    }
}
