//! Checkpoints of a long solve: the transposition table saved to a file,
//! so that a solve stopped by Ctrl-C, a crash or the end of a session goes
//! on from its table rather than from nothing (`oxello solve
//! --checkpoint`).
//!
//! A solve's table holds what it has proved: every bound in it stays true
//! at its depth and selectivity, whatever was found after (a stopped
//! search stores nothing of the node it was in). A new search over the
//! restored table meets those bounds again near the root, cuts off the
//! subtrees they settle, and so searches little of the work done before
//! the checkpoint again. Depth-preferred replacement keeps the entries of
//! the most empties (the costliest) when the table is full.
//!
//! The file, little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 4 | [`MAGIC`], `OXTT` |
//! | 2 | [`VERSION`] |
//! | 1 | the board size (4, 6 or 8) |
//! | 1 | the solve: 0 exact, 1 win/loss/draw |
//! | 4 | [`ENTRY_MEANING`] of the build that wrote it |
//! | 16 | the position: the side to move's discs, then the other side's |
//! | 8 | nodes searched before the checkpoint (all runs) |
//! | 8 | milliseconds searched before it (all runs) |
//! | 24 `n` | the entries, three words each ([`SavedEntry`](super::tt::SavedEntry)) |
//! | 8 | `n` |
//! | 4 | the FNV-1a checksum of all the bytes before it |
//!
//! Both ways the entries stream between the table and the file, so a save
//! or a restore needs no memory beside the table. A checkpoint is written
//! to a file of its own beside the target and renamed over it, so that a
//! run killed while writing leaves the last one whole.

use super::Searcher;
use super::result::SolveMode;
use super::tt::ENTRY_MEANING;
use crate::bitboard::BoardSize;
use crate::board::Board;
use crate::fitted::{FNV_START, checksum_on};
use crate::position::Position;
use std::fmt;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// First bytes of a checkpoint file.
pub const MAGIC: [u8; 4] = *b"OXTT";

/// The format's version.
pub const VERSION: u16 = 2;

/// Length of the header, before the entries.
const HEADER: usize = 4 + 2 + 1 + 1 + 4 + 16 + 8 + 8;

/// Length of the trailer: the entry count and the checksum.
const TRAILER: usize = 8 + 4;

/// What a checkpoint says about its solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub size: BoardSize,
    pub board: Board,
    pub mode: SolveMode,
    /// Nodes searched before the checkpoint, in every run of the solve.
    pub nodes: u64,
    /// Search time before the checkpoint, in every run of the solve.
    pub elapsed: Duration,
}

/// A restored checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Restored {
    pub header: Header,
    /// Entries in the file.
    pub saved: u64,
    /// Entries the table holds of them (fewer when the table is smaller
    /// than the one saved).
    pub kept: usize,
}

/// Why a checkpoint could not be read or written.
#[derive(Debug)]
pub enum CheckpointError {
    Io(std::io::Error),
    /// The file does not start with [`MAGIC`].
    NotACheckpoint,
    /// Another version of the format.
    WrongVersion {
        found: u16,
    },
    /// Written by a build whose table entries mean something else
    /// ([`ENTRY_MEANING`]).
    OtherBuild {
        found: u32,
    },
    /// The file is too short, or its length is not that of its entries.
    WrongLength {
        found: u64,
    },
    /// The checksum does not match: the file was damaged.
    BadChecksum,
    /// A board size that is not 4, 6 or 8, an impossible position or an
    /// unknown kind of solve.
    BadHeader,
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Io(e) => write!(f, "{e}"),
            CheckpointError::NotACheckpoint => write!(f, "not an oxello checkpoint"),
            CheckpointError::WrongVersion { found } => {
                write!(f, "checkpoint version {found}, this build reads {VERSION}")
            }
            CheckpointError::OtherBuild { found } => write!(
                f,
                "checkpoint of a build whose table entries differ ({found:08x}, this build \
                 {ENTRY_MEANING:08x})"
            ),
            CheckpointError::WrongLength { found } => {
                write!(f, "checkpoint damaged (a length of {found} bytes)")
            }
            CheckpointError::BadChecksum => write!(f, "checkpoint damaged (bad checksum)"),
            CheckpointError::BadHeader => write!(f, "checkpoint damaged (bad header)"),
        }
    }
}

impl std::error::Error for CheckpointError {}

impl From<std::io::Error> for CheckpointError {
    fn from(e: std::io::Error) -> Self {
        CheckpointError::Io(e)
    }
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

impl Header {
    /// The header of a solve of `position` in `mode` that has taken
    /// `nodes` and `elapsed` so far.
    pub fn new(position: &Position, mode: SolveMode, nodes: u64, elapsed: Duration) -> Header {
        Header {
            size: position.size,
            board: position.board,
            mode,
            nodes,
            elapsed,
        }
    }

    /// Whether this checkpoint belongs to a solve of `position` in `mode`.
    pub fn is_of(&self, position: &Position, mode: SolveMode) -> bool {
        self.size == position.size && self.board == position.board && self.mode == mode
    }

    fn encode(&self) -> [u8; HEADER] {
        let mut out = [0u8; HEADER];
        out[..4].copy_from_slice(&MAGIC);
        out[4..6].copy_from_slice(&VERSION.to_le_bytes());
        out[6] = self.size.n() as u8;
        out[7] = match self.mode {
            SolveMode::Exact => 0,
            SolveMode::Wld => 1,
        };
        out[8..12].copy_from_slice(&ENTRY_MEANING.to_le_bytes());
        out[12..20].copy_from_slice(&self.board.player.to_le_bytes());
        out[20..28].copy_from_slice(&self.board.opponent.to_le_bytes());
        out[28..36].copy_from_slice(&self.nodes.to_le_bytes());
        let millis = u64::try_from(self.elapsed.as_millis()).unwrap_or(u64::MAX);
        out[36..44].copy_from_slice(&millis.to_le_bytes());
        out
    }

    /// The header of a file whose first bytes are `bytes` (at least
    /// [`HEADER`] of them, or the whole file).
    fn decode(bytes: &[u8]) -> Result<Header, CheckpointError> {
        if bytes.len() < 4 || bytes[..4] != MAGIC {
            return Err(CheckpointError::NotACheckpoint);
        }
        if bytes.len() < 6 {
            return Err(CheckpointError::WrongLength {
                found: bytes.len() as u64,
            });
        }
        let version = u16::from_le_bytes([bytes[4], bytes[5]]);
        if version != VERSION {
            return Err(CheckpointError::WrongVersion { found: version });
        }
        if bytes.len() < HEADER {
            return Err(CheckpointError::WrongLength {
                found: bytes.len() as u64,
            });
        }
        let meaning = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
        if meaning != ENTRY_MEANING {
            return Err(CheckpointError::OtherBuild { found: meaning });
        }
        let size = BoardSize::from_n(usize::from(bytes[6])).ok_or(CheckpointError::BadHeader)?;
        let mode = match bytes[7] {
            0 => SolveMode::Exact,
            1 => SolveMode::Wld,
            _ => return Err(CheckpointError::BadHeader),
        };
        let board = Board {
            player: u64_at(bytes, 12),
            opponent: u64_at(bytes, 20),
        };
        if board.player & board.opponent != 0 || (board.player | board.opponent) & !size.mask() != 0
        {
            return Err(CheckpointError::BadHeader);
        }
        Ok(Header {
            size,
            board,
            mode,
            nodes: u64_at(bytes, 28),
            elapsed: Duration::from_millis(u64_at(bytes, 36)),
        })
    }

    /// The header of the checkpoint in `path`, or `None` when there is no
    /// such file. Only the header is read and checked.
    pub fn read(path: &Path) -> Result<Option<Header>, CheckpointError> {
        let mut file = match std::fs::File::open(path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        let mut bytes = Vec::with_capacity(HEADER);
        Read::by_ref(&mut file)
            .take(HEADER as u64)
            .read_to_end(&mut bytes)?;
        Header::decode(&bytes).map(Some)
    }
}

/// A writer that keeps the FNV-1a checksum of what it writes.
struct Summing<W> {
    inner: W,
    hash: u32,
}

impl<W: Write> Write for Summing<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let written = self.inner.write(bytes)?;
        self.hash = checksum_on(self.hash, &bytes[..written]);
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The file a checkpoint of `path` is written to before it is renamed,
/// `FILE.<process>.part`: of this process alone.
fn part_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}.part", std::process::id()));
    path.with_file_name(name)
}

/// The parts of saves of `path` that any process left in its folder (a
/// killed run leaves its part behind).
pub fn parts_of(path: &Path) -> Vec<PathBuf> {
    let name = path
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let is_part = |file: &str| {
        file.strip_prefix(name.as_str())
            .and_then(|rest| rest.strip_prefix('.'))
            .and_then(|rest| rest.strip_suffix(".part"))
            .is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
    };
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|part| {
            part.file_name()
                .is_some_and(|n| is_part(&n.to_string_lossy()))
        })
        .collect()
}

impl Searcher {
    /// Writes the checkpoint of the table as it is now to `out`, under
    /// `header`; returns the number of entries. Safe while a search runs
    /// on this searcher (see [`super::tt::Table::snapshot_each`]).
    pub fn write_checkpoint(
        &self,
        out: impl Write,
        header: &Header,
    ) -> Result<u64, CheckpointError> {
        let mut out = Summing {
            inner: out,
            hash: FNV_START,
        };
        out.write_all(&header.encode())?;
        let mut count = 0u64;
        let mut failed = None;
        self.table.snapshot_each(|entry| {
            if failed.is_some() {
                return;
            }
            let mut bytes = [0u8; 24];
            for (chunk, word) in bytes.chunks_exact_mut(8).zip(entry) {
                chunk.copy_from_slice(&word.to_le_bytes());
            }
            match out.write_all(&bytes) {
                Ok(()) => count += 1,
                Err(e) => failed = Some(e),
            }
        });
        if let Some(e) = failed {
            return Err(e.into());
        }
        out.write_all(&count.to_le_bytes())?;
        let sum = out.hash;
        out.write_all(&sum.to_le_bytes())?;
        out.flush()?;
        Ok(count)
    }

    /// Saves the checkpoint of the table as it is now to `path`, under
    /// `header`: to a file of this process beside it first (removed if the
    /// write fails), then renamed over it. Returns the number of entries.
    pub fn save_checkpoint(&self, path: &Path, header: &Header) -> Result<u64, CheckpointError> {
        let part = part_path(path);
        let saved = (|| {
            let file = std::fs::File::create(&part)?;
            let count = self.write_checkpoint(BufWriter::new(&file), header)?;
            file.sync_all()?;
            std::fs::rename(&part, path)?;
            Ok(count)
        })();
        if saved.is_err() {
            let _ = std::fs::remove_file(&part);
        }
        saved
    }

    /// Replaces the table's contents by the checkpoint that `input` holds
    /// (`length` bytes), as results of the next search. On any error the
    /// table is left empty.
    pub fn read_checkpoint(
        &mut self,
        input: impl Read,
        length: u64,
    ) -> Result<Restored, CheckpointError> {
        self.table.clear();
        let restored = self.read_entries(input, length);
        if restored.is_err() {
            self.table.clear();
        }
        restored
    }

    fn read_entries(&mut self, input: impl Read, length: u64) -> Result<Restored, CheckpointError> {
        let mut input = BufReader::new(input);
        let short = |e: std::io::Error| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => CheckpointError::WrongLength { found: length },
            _ => CheckpointError::Io(e),
        };
        // As much of the header as there is: a short file is named as such.
        let mut head = Vec::with_capacity(HEADER);
        input.by_ref().take(HEADER as u64).read_to_end(&mut head)?;
        let header = Header::decode(&head)?;
        let count = length
            .checked_sub((HEADER + TRAILER) as u64)
            .filter(|body| body % 24 == 0)
            .ok_or(CheckpointError::WrongLength { found: length })?
            / 24;
        let mut hash = checksum_on(FNV_START, &head);
        let mut bytes = [0u8; 24];
        for _ in 0..count {
            input.read_exact(&mut bytes).map_err(short)?;
            hash = checksum_on(hash, &bytes);
            let entry = [u64_at(&bytes, 0), u64_at(&bytes, 8), u64_at(&bytes, 16)];
            self.table.restore_one(entry, header.size);
        }
        let mut trailer = [0u8; TRAILER];
        input.read_exact(&mut trailer).map_err(short)?;
        if u64_at(&trailer, 0) != count || input.read(&mut [0u8; 1])? != 0 {
            return Err(CheckpointError::WrongLength { found: length });
        }
        if checksum_on(hash, &trailer[..8]).to_le_bytes() != trailer[8..] {
            return Err(CheckpointError::BadChecksum);
        }
        Ok(Restored {
            header,
            saved: count,
            kept: self.table.count_entries(),
        })
    }

    /// Restores the checkpoint in `path` ([`Searcher::read_checkpoint`]),
    /// or empties the table and returns `None` when there is no such file.
    pub fn restore_checkpoint(&mut self, path: &Path) -> Result<Option<Restored>, CheckpointError> {
        let file = match std::fs::File::open(path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                self.table.clear();
                return Ok(None);
            }
            Err(e) => return Err(e.into()),
        };
        let length = file.metadata()?.len();
        self.read_checkpoint(file, length).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Limits, StopSignal};

    /// A searcher whose table holds a solve of 6x6 after a few moves, and
    /// that position.
    fn searched() -> (Searcher, Position) {
        let mut position = Position::start(BoardSize::Six);
        for _ in 0..10 {
            let moves = position.move_list();
            let Some(&next) = moves.first() else { break };
            position = position.play_unchecked(next);
        }
        let searcher = Searcher::new(1);
        let limits = Limits {
            solve_empties: Some(64),
            ..Limits::default()
        };
        searcher.search(&position, &limits, &StopSignal::new(), &mut |_| {});
        (searcher, position)
    }

    fn header(position: &Position) -> Header {
        Header::new(
            position,
            SolveMode::Exact,
            123_456_789,
            Duration::from_millis(98_765),
        )
    }

    fn sorted(searcher: &Searcher) -> Vec<[u64; 3]> {
        let mut entries = searcher.table.snapshot();
        entries.sort_unstable();
        entries
    }

    #[test]
    fn a_checkpoint_restores_the_table_it_was_taken_from() {
        let (searcher, position) = searched();
        let mut bytes = Vec::new();
        let count = searcher
            .write_checkpoint(&mut bytes, &header(&position))
            .unwrap();
        assert!(count > 100, "{count}");
        assert_eq!(bytes.len(), HEADER + 24 * count as usize + TRAILER);
        let mut other = Searcher::new(2);
        let restored = other
            .read_checkpoint(&bytes[..], bytes.len() as u64)
            .unwrap();
        assert_eq!(restored.header, header(&position));
        assert!(restored.header.is_of(&position, SolveMode::Exact));
        assert!(!restored.header.is_of(&position, SolveMode::Wld));
        assert_eq!((restored.saved, restored.kept), (count, count as usize));
        assert_eq!(sorted(&other), sorted(&searcher));
    }

    #[test]
    fn damaged_or_foreign_files_are_refused_with_their_reason_and_leave_no_entry() {
        let (searcher, position) = searched();
        let mut bytes = Vec::new();
        searcher
            .write_checkpoint(&mut bytes, &header(&position))
            .unwrap();
        let error = |bytes: &[u8]| {
            let mut other = Searcher::new(1);
            let error = other
                .read_checkpoint(bytes, bytes.len() as u64)
                .unwrap_err();
            assert!(other.table.snapshot().is_empty(), "{error}");
            assert!(!error.to_string().is_empty());
            error
        };
        let with = |at: usize, value: u8| {
            let mut changed = bytes.clone();
            changed[at] = value;
            changed
        };
        assert!(matches!(
            error(b"OXFD...."),
            CheckpointError::NotACheckpoint
        ));
        assert!(matches!(error(b""), CheckpointError::NotACheckpoint));
        assert!(matches!(
            error(b"OXTT"),
            CheckpointError::WrongLength { .. }
        ));
        assert!(matches!(
            error(&with(4, 9)),
            CheckpointError::WrongVersion { found: 9 }
        ));
        assert!(matches!(
            error(&with(8, bytes[8] ^ 1)),
            CheckpointError::OtherBuild { .. }
        ));
        assert!(matches!(error(&with(6, 7)), CheckpointError::BadHeader));
        assert!(matches!(error(&with(7, 2)), CheckpointError::BadHeader));
        assert!(matches!(
            error(&bytes[..HEADER + 30]),
            CheckpointError::WrongLength { .. }
        ));
        assert!(matches!(
            error(&bytes[..bytes.len() - 24]),
            CheckpointError::WrongLength { .. }
        ));
        let mut longer = bytes.clone();
        longer.extend_from_slice(&[0; 24]);
        assert!(matches!(
            error(&longer),
            CheckpointError::WrongLength { .. }
        ));
        for at in [30, HEADER + 5, bytes.len() / 2, bytes.len() - 2] {
            let flipped = with(at, bytes[at] ^ 0x40);
            assert!(
                matches!(error(&flipped), CheckpointError::BadChecksum),
                "byte {at}"
            );
        }
        // A length the caller gives wrong (the file changed meanwhile).
        let mut other = Searcher::new(1);
        assert!(matches!(
            other.read_checkpoint(&bytes[..], bytes.len() as u64 + 24),
            Err(CheckpointError::WrongLength { .. })
        ));
    }

    #[test]
    fn a_checkpoint_file_is_written_whole_and_read_back() {
        let (searcher, position) = searched();
        let dir = std::env::temp_dir().join(format!("oxello-checkpoint-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.oxtt");
        let mut other = Searcher::new(1);
        assert!(matches!(Header::read(&path), Ok(None)));
        assert!(matches!(other.restore_checkpoint(&path), Ok(None)));
        let count = searcher.save_checkpoint(&path, &header(&position)).unwrap();
        assert_eq!(Header::read(&path).unwrap(), Some(header(&position)));
        let restored = other.restore_checkpoint(&path).unwrap().unwrap();
        assert_eq!(restored.saved, count);
        assert_eq!(sorted(&other), sorted(&searcher));
        // Only the file is there: its part was renamed.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        // A folder that is not there: an error.
        let nowhere = dir.join("missing").join("b.oxtt");
        assert!(matches!(
            searcher.save_checkpoint(&nowhere, &header(&position)),
            Err(CheckpointError::Io(_))
        ));
        // A save whose rename fails (onto a folder that is not empty): an
        // error, and its part is not left behind.
        let taken = dir.join("taken");
        std::fs::create_dir_all(taken.join("inside")).unwrap();
        assert!(matches!(
            searcher.save_checkpoint(&taken, &header(&position)),
            Err(CheckpointError::Io(_))
        ));
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(!names.iter().any(|n| n.ends_with(".part")), "{names:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_parts_of_a_checkpoint_are_its_saves_by_any_process() {
        let dir = std::env::temp_dir().join(format!("oxello-parts-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.oxtt");
        assert_eq!(part_path(&path).parent(), Some(dir.as_path()));
        let names = [
            "a.oxtt",
            "a.oxtt.17.part",
            "a.oxtt.part",
            "a.oxtt.1x.part",
            "a.oxtt2.17.part",
            "b.oxtt.17.part",
        ];
        for name in names {
            std::fs::write(dir.join(name), b"").unwrap();
        }
        std::fs::write(part_path(&path), b"").unwrap();
        let mut parts: Vec<PathBuf> = parts_of(&path);
        parts.sort();
        let mut expected = vec![dir.join("a.oxtt.17.part"), part_path(&path)];
        expected.sort();
        assert_eq!(parts, expected);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
