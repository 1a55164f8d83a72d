//! The compact binary format: one fixed-size record of [`RECORD_LEN`] bytes
//! per position, integers little-endian, no file header, so that files (and
//! shards) concatenate with `cat` and a trainer can map a file as an array.
//!
//! | Offset | Size | Field |
//! |-------:|-----:|-------|
//! | 0   | 2   | tag `OX` (`0x4f 0x58`) |
//! | 2   | 1   | version, 1 |
//! | 3   | 1   | board side: 4, 6 or 8 |
//! | 4   | 4   | game index (u32) |
//! | 8   | 8   | discs of the side to move (u64, bit 0 = a1, bit 7 = h1, bit 63 = h8) |
//! | 16  | 8   | discs of the other side (u64) |
//! | 24  | 1   | side to move: 0 Black, 1 White |
//! | 25  | 1   | ply: moves since the standard start, passes included |
//! | 26  | 1   | the record's index in its game, from 0 |
//! | 27  | 1   | records in the game |
//! | 28  | 1   | move played: square index (a1 = 0, h1 = 7, h8 = 63) |
//! | 29  | 1   | search score (i8, discs, side to move's view) |
//! | 30  | 1   | outcome (i8, final disc difference, side to move's view) |
//! | 31  | 1   | bits 0-6: search depth (plies, or empties of a solve); bit 7: the score is an exact solve |
//! | 32  | 128 | policy: 64 u16 weights, a1 first, adding up to 65535 |
//!
//! Small boards sit in the top-left corner of the 8x8 bitboard, as
//! everywhere in oxello. The result (win/draw/loss) is the sign of the
//! outcome and is not stored.

use super::record::{Policy, Record, RecordError, size_of_side};
use crate::board::Board;
use crate::color::Color;
use crate::position::Position;
use crate::square::Square;
use std::io::{self, Read};

/// Bytes of one record.
pub const RECORD_LEN: usize = 160;
/// The first two bytes of every record.
pub const TAG: [u8; 2] = *b"OX";
/// The version this build writes and reads.
pub const VERSION: u8 = 1;
/// Bit of the depth byte marking an exact score.
const EXACT_BIT: u8 = 0x80;

/// The bytes of a record.
pub fn encode(record: &Record) -> [u8; RECORD_LEN] {
    let mut bytes = [0u8; RECORD_LEN];
    let position = &record.position;
    bytes[0..2].copy_from_slice(&TAG);
    bytes[2] = VERSION;
    bytes[3] = position.size.n() as u8;
    bytes[4..8].copy_from_slice(&record.game.to_le_bytes());
    bytes[8..16].copy_from_slice(&position.board.player.to_le_bytes());
    bytes[16..24].copy_from_slice(&position.board.opponent.to_le_bytes());
    bytes[24] = match position.side {
        Color::Black => 0,
        Color::White => 1,
    };
    bytes[25] = record.ply;
    bytes[26] = record.index;
    bytes[27] = record.records;
    bytes[28] = record.mv.index() as u8;
    bytes[29] = record.score as u8;
    bytes[30] = record.outcome as u8;
    bytes[31] = (record.depth & !EXACT_BIT) | if record.exact { EXACT_BIT } else { 0 };
    for (slot, weight) in bytes[32..].chunks_exact_mut(2).zip(record.policy.weights()) {
        slot.copy_from_slice(&weight.to_le_bytes());
    }
    bytes
}

/// Reads and checks one record (see [`Record::check`]).
pub fn decode(bytes: &[u8; RECORD_LEN]) -> Result<Record, RecordError> {
    if bytes[0..2] != TAG {
        return Err(RecordError::Tag([bytes[0], bytes[1]]));
    }
    if bytes[2] != VERSION {
        return Err(RecordError::Version(bytes[2]));
    }
    let size = size_of_side(bytes[3].into())?;
    let u64_at = |at: usize| {
        let mut word = [0u8; 8];
        word.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(word)
    };
    let side = match bytes[24] {
        0 => Color::Black,
        1 => Color::White,
        other => return Err(RecordError::Side(other)),
    };
    let mut weights = [0u16; 64];
    for (weight, pair) in weights.iter_mut().zip(bytes[32..].chunks_exact(2)) {
        *weight = u16::from_le_bytes([pair[0], pair[1]]);
    }
    let record = Record {
        game: u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]),
        ply: bytes[25],
        index: bytes[26],
        records: bytes[27],
        position: Position {
            board: Board {
                player: u64_at(8),
                opponent: u64_at(16),
            },
            side,
            size,
        },
        policy: Policy::from_weights(weights)?,
        mv: Square::new(bytes[28]).ok_or(RecordError::Square(bytes[28].into()))?,
        score: bytes[29] as i8,
        depth: bytes[31] & !EXACT_BIT,
        exact: bytes[31] & EXACT_BIT != 0,
        outcome: bytes[30] as i8,
    };
    record.check()?;
    Ok(record)
}

/// Reads records one by one from a stream of binary records (a file, or
/// several concatenated). A stream that ends inside a record yields
/// [`RecordError::Truncated`] once.
pub struct Reader<R> {
    inner: R,
    done: bool,
}

impl<R: Read> Reader<R> {
    pub fn new(inner: R) -> Reader<R> {
        Reader { inner, done: false }
    }
}

/// A record that could not be read: the stream failed, or its bytes are no
/// record.
#[derive(Debug)]
pub enum ReadError {
    Io(io::Error),
    Record(RecordError),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(error) => write!(f, "{error}"),
            ReadError::Record(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for ReadError {}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<Record, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut bytes = [0u8; RECORD_LEN];
        let mut filled = 0;
        while filled < RECORD_LEN {
            match self.inner.read(&mut bytes[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => {
                    self.done = true;
                    return Some(Err(ReadError::Io(error)));
                }
            }
        }
        match filled {
            0 => {
                self.done = true;
                None
            }
            RECORD_LEN => Some(decode(&bytes).map_err(ReadError::Record)),
            found => {
                self.done = true;
                Some(Err(ReadError::Record(RecordError::Truncated { found })))
            }
        }
    }
}

/// Every record of a byte buffer (a whole file in memory).
pub fn read_all(bytes: &[u8]) -> Result<Vec<Record>, ReadError> {
    Reader::new(bytes).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selfplay::record::tests::random_records;

    #[test]
    fn records_round_trip() {
        let records = random_records(3000, 11);
        let mut bytes = Vec::new();
        for record in &records {
            let encoded = encode(record);
            assert_eq!(decode(&encoded).unwrap(), *record);
            bytes.extend_from_slice(&encoded);
        }
        assert_eq!(read_all(&bytes).unwrap(), records);
    }

    #[test]
    fn layout_is_as_documented() {
        let record = random_records(1, 5)[0];
        let bytes = encode(&record);
        assert_eq!(&bytes[0..2], b"OX");
        assert_eq!(bytes[3] as usize, record.position.size.n());
        assert_eq!(bytes[28] as usize, record.mv.index());
        let weight = |i: usize| u16::from_le_bytes([bytes[32 + 2 * i], bytes[33 + 2 * i]]);
        assert_eq!(
            weight(record.mv.index()),
            record.policy.weights()[record.mv.index()]
        );
        assert_eq!(bytes[29] as i8, record.score);
    }

    #[test]
    fn damaged_bytes_are_refused_without_panic() {
        let records = random_records(200, 13);
        let mut seen = 0;
        for (n, record) in records.iter().enumerate() {
            let mut bytes = encode(record);
            // Change one byte at each offset in turn: the result is either
            // refused or a valid record.
            let at = n % RECORD_LEN;
            bytes[at] = bytes[at].wrapping_add(1 + n as u8 % 200);
            if let Ok(changed) = decode(&bytes) {
                changed.check().unwrap();
                seen += 1;
            }
        }
        assert!(seen < records.len());
        let whole = encode(&records[0]);
        let mut tagless = whole;
        tagless[0] = b'Z';
        assert!(matches!(decode(&tagless), Err(RecordError::Tag(_))));
        let mut newer = whole;
        newer[2] = 2;
        assert_eq!(decode(&newer), Err(RecordError::Version(2)));
        let cut = read_all(&whole[..100]).unwrap_err();
        assert!(matches!(
            cut,
            ReadError::Record(RecordError::Truncated { found: 100 })
        ));
    }
}
