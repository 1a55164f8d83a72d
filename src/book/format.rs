//! The book file: the fitted-data container of [`crate::fitted`] (magic
//! `OXFD`, a kind, a version, three layout fields, an FNV-1a checksum of
//! the body), of kind `BOOK`, version [`VERSION`]. Its layout fields are
//! the number of positions, the number of book moves and the body's length
//! in bytes, so that a cut file is told from a corrupt one.
//!
//! The body is the positions in the order of their canonical boards
//! ([`Book::sorted_keys`]), so that the same book is always the same
//! bytes. Each position, little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 8 + 8 | the canonical board: the side to move's discs, the other side's |
//! | 4 | games through the position |
//! | 4 | best unexplored move: [`key`] move code (255: none), score, depth, selectivity index |
//! | 1 | number of book moves, then 4 bytes each as above |
//!
//! About 25 bytes a position and 4 a book move: a book of a million
//! positions is about 30 MB.

use super::{Book, Edge, Node, Value, key};
use crate::board::Board;
use crate::fitted;
use crate::search::Selectivity;
use std::fmt;
use std::path::Path;

/// The kind of a book file in the fitted-data container.
pub const KIND: [u8; 4] = *b"BOOK";
/// The book format's version.
pub const VERSION: u16 = 1;
/// Move code of "no move".
const NONE: u8 = 255;

/// Why a book could not be read or written.
#[derive(Debug)]
pub enum BookError {
    /// Not a book file (another kind of file, or not oxello's).
    BadMagic,
    /// A book of another format version.
    WrongVersion { found: u16, expected: u16 },
    /// The file ends before its header says.
    Truncated { found: usize, expected: usize },
    /// The checksum fails, or the body does not hold what the header says.
    Corrupt(String),
    /// The file cannot be read or written.
    Io(std::io::Error),
    /// A line of the text form cannot be read.
    Text { line: usize, message: String },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::BadMagic => f.write_str("not an oxello book file"),
            BookError::WrongVersion { found, expected } => {
                write!(f, "book format version {found}, expected {expected}")
            }
            BookError::Truncated { found, expected } => {
                write!(f, "book file truncated: {found} bytes, expected {expected}")
            }
            BookError::Corrupt(why) => write!(f, "book file corrupt: {why}"),
            BookError::Io(error) => write!(f, "{error}"),
            BookError::Text { line, message } => write!(f, "line {line}: {message}"),
        }
    }
}

impl std::error::Error for BookError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BookError::Io(error) => Some(error),
            _ => None,
        }
    }
}

impl From<std::io::Error> for BookError {
    fn from(error: std::io::Error) -> BookError {
        BookError::Io(error)
    }
}

fn put_edge(out: &mut Vec<u8>, edge: Option<&Edge>) {
    match edge {
        Some(edge) => out.extend_from_slice(&[
            edge.mv,
            edge.value.score as u8,
            edge.value.depth,
            edge.value.selectivity.index(),
        ]),
        None => out.extend_from_slice(&[NONE, 0, 0, 0]),
    }
}

/// The bytes of `book`'s file.
pub fn encode(book: &Book) -> Vec<u8> {
    let mut body = Vec::with_capacity(book.len() * 30);
    let mut moves = 0u32;
    for key in book.sorted_keys() {
        let Some(node) = book.node(&key) else {
            continue;
        };
        body.extend_from_slice(&key.player.to_le_bytes());
        body.extend_from_slice(&key.opponent.to_le_bytes());
        body.extend_from_slice(&node.games.to_le_bytes());
        put_edge(&mut body, node.unexplored.as_ref());
        // A position has at most 33 legal moves.
        body.push(node.moves.len().min(u8::MAX as usize) as u8);
        for edge in node.moves.iter().take(u8::MAX as usize) {
            put_edge(&mut body, Some(edge));
        }
        moves += node.moves.len() as u32;
    }
    let layout = fitted::Layout {
        kind: KIND,
        version: VERSION,
        fields: [book.len() as u32, moves, body.len() as u32],
    };
    fitted::encode(&layout, &body)
}

/// Reads the bytes of a book file.
pub fn decode(bytes: &[u8]) -> Result<Book, BookError> {
    if bytes.len() < 8 || bytes[..4] != fitted::MAGIC || bytes[4..8] != KIND {
        return Err(BookError::BadMagic);
    }
    let too_short = |expected| BookError::Truncated {
        found: bytes.len(),
        expected,
    };
    if bytes.len() < fitted::HEADER {
        return Err(too_short(fitted::HEADER));
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != VERSION {
        return Err(BookError::WrongVersion {
            found: version,
            expected: VERSION,
        });
    }
    let field = |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    let (positions, moves, length) = (field(10), field(14), field(18) as usize);
    let expected = fitted::HEADER + length;
    if bytes.len() < expected {
        return Err(too_short(expected));
    }
    if bytes.len() > expected {
        return Err(BookError::Corrupt(format!(
            "{} bytes after the body",
            bytes.len() - expected
        )));
    }
    let body = match fitted::open(KIND, VERSION, bytes) {
        Ok((_, body)) => body,
        Err(error) => return Err(BookError::Corrupt(error.to_string())),
    };
    let book = read_body(body, positions as usize)?;
    let found: usize = book.iter().map(|(_, node)| node.moves.len()).sum();
    if found != moves as usize {
        return Err(BookError::Corrupt(format!(
            "{found} book moves, the header says {moves}"
        )));
    }
    Ok(book)
}

/// The positions of a body whose checksum held.
fn read_body(body: &[u8], positions: usize) -> Result<Book, BookError> {
    let corrupt = |what: &str| BookError::Corrupt(what.to_string());
    let mut book = Book::new();
    book.nodes.reserve(positions);
    let mut at = 0;
    let mut take = |n: usize| -> Result<&[u8], BookError> {
        let slice = body
            .get(at..at + n)
            .ok_or_else(|| corrupt("a position runs past the body"))?;
        at += n;
        Ok(slice)
    };
    let mut last: Option<(u64, u64)> = None;
    for _ in 0..positions {
        let head = take(8 + 8 + 4 + 4 + 1)?;
        let word = |i: usize| u64::from_le_bytes(head[i..i + 8].try_into().unwrap_or([0; 8]));
        let board = Board {
            player: word(0),
            opponent: word(8),
        };
        // The checksum vouches for the rest; whether each board is its
        // class's canonical one is not checked here (8 symmetries a
        // position: most of the reading time of a large book).
        if board.player & board.opponent != 0 {
            return Err(corrupt("a board with a square of both sides"));
        }
        if last.is_some_and(|last| last >= (board.player, board.opponent)) {
            return Err(corrupt("positions out of order"));
        }
        last = Some((board.player, board.opponent));
        let games = u32::from_le_bytes([head[16], head[17], head[18], head[19]]);
        let unexplored = read_edge(&head[20..24])?;
        let count = head[24] as usize;
        let mut moves = Vec::with_capacity(count);
        for _ in 0..count {
            moves.push(read_edge(take(4)?)?.ok_or_else(|| corrupt("a book move without a move"))?);
        }
        book.nodes.insert(
            board,
            Node {
                games,
                unexplored,
                moves,
            },
        );
    }
    if at != body.len() {
        return Err(corrupt("bytes after the last position"));
    }
    Ok(book)
}

fn read_edge(bytes: &[u8]) -> Result<Option<Edge>, BookError> {
    if bytes[0] == NONE {
        return Ok(None);
    }
    if bytes[0] > key::PASS || bytes[3] > Selectivity::NONE.index() {
        return Err(BookError::Corrupt(format!(
            "move code {} or selectivity {} out of range",
            bytes[0], bytes[3]
        )));
    }
    Ok(Some(Edge {
        mv: bytes[0],
        value: Value {
            score: bytes[1] as i8,
            depth: bytes[2],
            selectivity: Selectivity::from_index(bytes[3]),
        },
    }))
}

/// Reads the book file at `path`.
pub fn load(path: &Path) -> Result<Book, BookError> {
    decode(&std::fs::read(path)?)
}

/// Writes `book` to `path`, through a temporary file beside it renamed
/// over it, so that a run killed while writing never leaves half a book.
pub fn save(book: &Book, path: &Path) -> Result<(), BookError> {
    write_atomically(path, &encode(book))
}

/// Writes `bytes` to `path` through a temporary file renamed over it.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), BookError> {
    let mut name = path.as_os_str().to_os_string();
    name.push(".tmp");
    let temporary = std::path::PathBuf::from(name);
    std::fs::write(&temporary, bytes)?;
    std::fs::rename(&temporary, path)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    fn small_book() -> Book {
        let start = Board::start(crate::bitboard::BoardSize::Eight);
        let (key, _) = key::canonical(start);
        let mut book = Book::new();
        let value = Value {
            score: -3,
            depth: 12,
            selectivity: Selectivity::MOST,
        };
        book.insert(
            key,
            Node {
                games: 7,
                unexplored: Some(Edge { mv: 19, value }),
                moves: vec![Edge { mv: 37, value }],
            },
        );
        book
    }

    #[test]
    fn books_round_trip_and_bad_files_give_typed_errors() {
        let book = small_book();
        let bytes = encode(&book);
        assert_eq!(decode(&bytes).unwrap(), book);
        assert!(matches!(decode(b"nonsense"), Err(BookError::BadMagic)));
        let other_kind = fitted::encode(
            &fitted::Layout {
                kind: *b"PAT8",
                version: 1,
                fields: [0; 3],
            },
            &[],
        );
        assert!(matches!(decode(&other_kind), Err(BookError::BadMagic)));
        let mut wrong_version = bytes.clone();
        wrong_version[8] = 9;
        assert!(matches!(
            decode(&wrong_version),
            Err(BookError::WrongVersion { found: 9, .. })
        ));
        for cut in [fitted::HEADER - 1, fitted::HEADER + 3, bytes.len() - 1] {
            assert!(
                matches!(decode(&bytes[..cut]), Err(BookError::Truncated { .. })),
                "{cut}"
            );
        }
        for at in [fitted::HEADER, fitted::HEADER + 17, bytes.len() - 1] {
            let mut corrupt = bytes.clone();
            corrupt[at] ^= 0x20;
            assert!(
                matches!(decode(&corrupt), Err(BookError::Corrupt(_))),
                "{at}"
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(decode(&longer), Err(BookError::Corrupt(_))));
        assert_eq!(decode(&encode(&Book::new())).unwrap(), Book::new());
    }
}
