//! Checkpoints of a long solve: the transposition table saved to a file,
//! so that a solve stopped by a crash, a reboot or the end of a session
//! goes on from its table rather than from nothing (`oxello solve
//! --checkpoint`).
//!
//! A solve's table holds what it has proved: every exact bound in it stays
//! true, whatever was found after. A new search over the restored table
//! meets those bounds again near the root, cuts off the subtrees they
//! settle, and so redoes little of the work done before the checkpoint.
//! Depth-preferred replacement keeps the entries of the most empties (the
//! costliest) when the table is full.
//!
//! The file, little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 4 | [`MAGIC`], `OXTT` |
//! | 2 | [`VERSION`] |
//! | 1 | the board size (4, 6 or 8) |
//! | 1 | 0 (reserved) |
//! | 16 | the position: the side to move's discs, then the other side's |
//! | 8 | nodes searched before the checkpoint (all runs) |
//! | 8 | milliseconds searched before it (all runs) |
//! | 8 | the number of entries `n` |
//! | 24 `n` | the entries, three words each ([`SavedEntry`]) |
//! | 4 | the FNV-1a checksum of all the bytes before it |
//!
//! A checkpoint is written to a file beside the target and renamed over
//! it, so that a run killed while writing leaves the last one whole.

use super::Searcher;
use super::tt::SavedEntry;
use crate::bitboard::BoardSize;
use crate::board::Board;
use crate::fitted::checksum;
use crate::position::Position;
use std::fmt;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

/// First bytes of a checkpoint file.
pub const MAGIC: [u8; 4] = *b"OXTT";

/// The format's version.
pub const VERSION: u16 = 1;

/// Length of the header, before the entries.
const HEADER: usize = 4 + 2 + 1 + 1 + 16 + 8 + 8 + 8;

/// A saved table and the position whose solve it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    pub size: BoardSize,
    pub board: Board,
    /// Nodes searched before the checkpoint, in every run of the solve.
    pub nodes: u64,
    /// Search time before the checkpoint, in every run of the solve.
    pub elapsed: Duration,
    entries: Vec<SavedEntry>,
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
    /// The file ends early, or goes on past its entries.
    WrongLength {
        found: usize,
        expected: usize,
    },
    /// The checksum does not match: the file was damaged.
    BadChecksum,
    /// A board size that is not 4, 6 or 8, or an impossible position.
    BadPosition,
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Io(e) => write!(f, "{e}"),
            CheckpointError::NotACheckpoint => write!(f, "not an oxello checkpoint"),
            CheckpointError::WrongVersion { found } => {
                write!(f, "checkpoint version {found}, this build reads {VERSION}")
            }
            CheckpointError::WrongLength { found, expected } => {
                write!(f, "checkpoint of {found} bytes, expected {expected}")
            }
            CheckpointError::BadChecksum => write!(f, "checkpoint damaged (bad checksum)"),
            CheckpointError::BadPosition => write!(f, "checkpoint of an impossible position"),
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

impl Checkpoint {
    /// Whether this checkpoint belongs to a solve of `position`.
    pub fn is_of(&self, position: &Position) -> bool {
        self.size == position.size && self.board == position.board
    }

    /// Number of saved entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The file form.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + 24 * self.entries.len() + 4);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&[self.size.n() as u8, 0]);
        out.extend_from_slice(&self.board.player.to_le_bytes());
        out.extend_from_slice(&self.board.opponent.to_le_bytes());
        out.extend_from_slice(&self.nodes.to_le_bytes());
        let millis = u64::try_from(self.elapsed.as_millis()).unwrap_or(u64::MAX);
        out.extend_from_slice(&millis.to_le_bytes());
        out.extend_from_slice(&(self.entries.len() as u64).to_le_bytes());
        for entry in &self.entries {
            for word in entry {
                out.extend_from_slice(&word.to_le_bytes());
            }
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads what [`Checkpoint::encode`] writes.
    pub fn decode(bytes: &[u8]) -> Result<Checkpoint, CheckpointError> {
        if bytes.len() < 4 || bytes[..4] != MAGIC {
            return Err(CheckpointError::NotACheckpoint);
        }
        let too_short = CheckpointError::WrongLength {
            found: bytes.len(),
            expected: HEADER + 4,
        };
        if bytes.len() < HEADER + 4 {
            return Err(too_short);
        }
        let version = u16::from_le_bytes([bytes[4], bytes[5]]);
        if version != VERSION {
            return Err(CheckpointError::WrongVersion { found: version });
        }
        let count = u64_at(bytes, 40);
        let expected = usize::try_from(count)
            .ok()
            .and_then(|n| n.checked_mul(24))
            .and_then(|n| n.checked_add(HEADER + 4))
            .unwrap_or(usize::MAX);
        if bytes.len() != expected {
            return Err(CheckpointError::WrongLength {
                found: bytes.len(),
                expected,
            });
        }
        let (body, sum) = bytes.split_at(bytes.len() - 4);
        if checksum(body).to_le_bytes() != sum {
            return Err(CheckpointError::BadChecksum);
        }
        let Some(size) = BoardSize::from_n(usize::from(bytes[6])) else {
            return Err(CheckpointError::BadPosition);
        };
        let board = Board {
            player: u64_at(bytes, 8),
            opponent: u64_at(bytes, 16),
        };
        if board.player & board.opponent != 0 || (board.player | board.opponent) & !size.mask() != 0
        {
            return Err(CheckpointError::BadPosition);
        }
        let entries = body[HEADER..]
            .chunks_exact(24)
            .map(|c| [u64_at(c, 0), u64_at(c, 8), u64_at(c, 16)])
            .collect();
        Ok(Checkpoint {
            size,
            board,
            nodes: u64_at(bytes, 24),
            elapsed: Duration::from_millis(u64_at(bytes, 32)),
            entries,
        })
    }

    /// Writes the checkpoint to `path`: to a file beside it first, then
    /// renamed over it.
    pub fn write(&self, path: &Path) -> Result<(), CheckpointError> {
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(".part");
        let part = path.with_file_name(name);
        let mut file = std::fs::File::create(&part)?;
        file.write_all(&self.encode())?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&part, path)?;
        Ok(())
    }

    /// The checkpoint in `path`, or `None` when there is no such file.
    pub fn read(path: &Path) -> Result<Option<Checkpoint>, CheckpointError> {
        match std::fs::read(path) {
            Ok(bytes) => Checkpoint::decode(&bytes).map(Some),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e.into()),
        }
    }
}

impl Searcher {
    /// The table as it is now, for the solve of `position` that has
    /// searched `nodes` nodes for `elapsed` so far. Safe while a search
    /// runs on this searcher (see [`super::tt::Table::snapshot`]).
    pub fn checkpoint(&self, position: &Position, nodes: u64, elapsed: Duration) -> Checkpoint {
        Checkpoint {
            size: position.size,
            board: position.board,
            nodes,
            elapsed,
            entries: self.table.snapshot(),
        }
    }

    /// Replaces the table's contents by `checkpoint`'s, as results of the
    /// next search.
    pub fn restore(&mut self, checkpoint: &Checkpoint) {
        self.table.restore(&checkpoint.entries);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Checkpoint {
        Checkpoint {
            size: BoardSize::Eight,
            board: Board::start(BoardSize::Eight),
            nodes: 123_456_789,
            elapsed: Duration::from_millis(98_765),
            entries: vec![[1, 2, 3], [4, 8, u64::MAX >> 8]],
        }
    }

    #[test]
    fn a_checkpoint_round_trips() {
        let checkpoint = sample();
        let bytes = checkpoint.encode();
        assert_eq!(bytes.len(), HEADER + 2 * 24 + 4);
        assert_eq!(Checkpoint::decode(&bytes).unwrap(), checkpoint);
        assert!(checkpoint.is_of(&Position::start(BoardSize::Eight)));
        assert!(!checkpoint.is_of(&Position::start(BoardSize::Six)));
    }

    #[test]
    fn damaged_or_foreign_files_are_refused_with_their_reason() {
        let bytes = sample().encode();
        let error = |bytes: &[u8]| Checkpoint::decode(bytes).unwrap_err();
        assert!(matches!(
            error(b"OXFD...."),
            CheckpointError::NotACheckpoint
        ));
        assert!(matches!(error(b""), CheckpointError::NotACheckpoint));
        assert!(matches!(
            error(b"OXTT"),
            CheckpointError::WrongLength { .. }
        ));
        let mut other = bytes.clone();
        other[4] = 2;
        assert!(matches!(
            error(&other),
            CheckpointError::WrongVersion { found: 2 }
        ));
        assert!(matches!(
            error(&bytes[..bytes.len() - 1]),
            CheckpointError::WrongLength { .. }
        ));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(
            error(&longer),
            CheckpointError::WrongLength { .. }
        ));
        // An absurd entry count is a wrong length, not an allocation.
        let mut count = bytes.clone();
        count[40..48].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(matches!(error(&count), CheckpointError::WrongLength { .. }));
        for at in [6, 9, 30, HEADER + 5, bytes.len() - 2] {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x40;
            assert!(
                matches!(error(&flipped), CheckpointError::BadChecksum),
                "byte {at}"
            );
        }
        // A size that is no board size, under a good checksum.
        let mut size = bytes[..bytes.len() - 4].to_vec();
        size[6] = 7;
        let sum = checksum(&size);
        size.extend_from_slice(&sum.to_le_bytes());
        assert!(matches!(error(&size), CheckpointError::BadPosition));
        for e in [error(&size), error(b"x")] {
            assert!(!e.to_string().is_empty());
        }
    }

    #[test]
    fn a_missing_file_is_no_checkpoint_and_a_written_one_reads_back() {
        let dir = std::env::temp_dir().join(format!("oxello-checkpoint-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.oxtt");
        assert!(matches!(Checkpoint::read(&path), Ok(None)));
        sample().write(&path).unwrap();
        assert_eq!(Checkpoint::read(&path).unwrap(), Some(sample()));
        assert!(!dir.join("a.oxtt.part").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
