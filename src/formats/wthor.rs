//! WTHOR, the binary game database of the French Othello federation (FFO).
//!
//! Three kinds of files share a 16-byte header (integers little-endian):
//!
//! | Offset | Size | Field |
//! |--------|------|-------|
//! | 0..4   | 4 × u8 | creation date: century, year in century, month, day |
//! | 4      | u32 | N1, number of game records (0 in name files) |
//! | 8      | u16 | N2, number of name records (0 in game files) |
//! | 10     | u16 | year of the games |
//! | 12     | u8  | board size: 0 or 8 for 8x8 |
//! | 13     | u8  | 0 = games, 1 = solitaires |
//! | 14     | u8  | depth of the theoretical score (0 means 22) |
//! | 15     | u8  | reserved |
//!
//! * `.wtb` game files: N1 records of 68 bytes: tournament (u16), Black player
//!   (u16), White player (u16), real score (u8, Black's discs at the end with
//!   the empties to the winner), theoretical score (u8), then 60 move bytes
//!   `10 * row + col` with 1-based digits (`11` = a1, `18` = h1, `88` = h8),
//!   `0` after the last move. Passes are implicit.
//! * `.JOU` player files: N2 records of 20 bytes; `.TRN` tournament files: N2
//!   records of 26 bytes. Each is a NUL-terminated Latin-1 name.
//!
//! The parsers take bytes and check the header and the file length; the
//! writers produce files that read back to the same values (and, for
//! well-formed input files, the same bytes).

use crate::bitboard::BoardSize;
use crate::board::IllegalMoveError;
use crate::game::Game;
use crate::position::Position;
use crate::square::Square;
use std::fmt;
use std::path::{Path, PathBuf};

/// Bytes of the header of every WTHOR file.
pub const HEADER_LEN: usize = 16;
/// Bytes of one game record of an 8x8 `.wtb` file.
pub const GAME_RECORD_LEN: usize = 68;
/// Bytes of one player name record (`.JOU`).
pub const PLAYER_RECORD_LEN: usize = 20;
/// Bytes of one tournament name record (`.TRN`).
pub const TOURNAMENT_RECORD_LEN: usize = 26;
/// Move bytes in a game record.
pub const MAX_MOVES: usize = 60;

/// Why a WTHOR file was refused, a game could not be replayed or written.
#[derive(Debug)]
pub enum WthorError {
    /// The file is shorter than its header says (or than a header).
    Truncated { expected: u64, found: usize },
    /// The file is longer than its header says, or not a whole number of
    /// records.
    LengthMismatch { expected: u64, found: usize },
    /// A header field with a value oxello cannot read.
    BadHeader { field: &'static str, value: u32 },
    /// Move byte `index` (0-based) of game record `record` (0-based) is no
    /// square, or follows the end-of-moves 0.
    BadMoveByte {
        record: usize,
        index: usize,
        byte: u8,
    },
    /// Move `number` (1-based, passes not counted) of a game is illegal.
    Illegal {
        number: usize,
        error: IllegalMoveError,
    },
    /// A game that WTHOR cannot store: not from the 8x8 start position, or
    /// too many moves.
    Unstorable { reason: &'static str },
    /// More records than the header can count.
    TooManyRecords { count: usize },
    /// The file could not be read.
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
}

impl fmt::Display for WthorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WthorError::Truncated { expected, found } => {
                write!(
                    f,
                    "WTHOR file truncated: {found} bytes, expected {expected}"
                )
            }
            WthorError::LengthMismatch { expected, found } => write!(
                f,
                "WTHOR file has {found} bytes but its header implies {expected}"
            ),
            WthorError::BadHeader { field, value } => {
                write!(f, "unsupported WTHOR header: {field} = {value}")
            }
            WthorError::BadMoveByte {
                record,
                index,
                byte,
            } => write!(
                f,
                "WTHOR game record {record}: move byte {index} is {byte}, not a square"
            ),
            WthorError::Illegal { number, error } => write!(f, "move {number}: {error}"),
            WthorError::Unstorable { reason } => write!(f, "cannot store in WTHOR: {reason}"),
            WthorError::TooManyRecords { count } => {
                write!(f, "{count} records do not fit a WTHOR header")
            }
            WthorError::Io { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for WthorError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WthorError::Illegal { error, .. } => Some(error),
            WthorError::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// Reads a whole file, wrapping the I/O error with the path.
pub fn read_file(path: impl AsRef<Path>) -> Result<Vec<u8>, WthorError> {
    let path = path.as_ref();
    std::fs::read(path).map_err(|error| WthorError::Io {
        path: path.to_path_buf(),
        error,
    })
}

/// The 16-byte header shared by all WTHOR files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WthorHeader {
    /// Creation date: century (20), year in the century, month, day.
    pub century: u8,
    pub year: u8,
    pub month: u8,
    pub day: u8,
    /// N1: number of game records.
    pub game_count: u32,
    /// N2: number of name records.
    pub record_count: u16,
    /// Year of the games of a `.wtb` file.
    pub games_year: u16,
    /// 0 or 8 for 8x8 (10 for 10x10, which oxello does not read).
    pub board_size: u8,
    /// 0 = games, 1 = solitaires.
    pub kind: u8,
    /// Empties from which the theoretical score was computed; 0 means 22.
    pub depth: u8,
    pub reserved: u8,
}

impl WthorHeader {
    /// Reads the first 16 bytes, without checking the values.
    pub fn parse(bytes: &[u8]) -> Result<WthorHeader, WthorError> {
        let Some(h) = bytes.first_chunk::<HEADER_LEN>() else {
            return Err(WthorError::Truncated {
                expected: HEADER_LEN as u64,
                found: bytes.len(),
            });
        };
        Ok(WthorHeader {
            century: h[0],
            year: h[1],
            month: h[2],
            day: h[3],
            game_count: u32::from_le_bytes([h[4], h[5], h[6], h[7]]),
            record_count: u16::from_le_bytes([h[8], h[9]]),
            games_year: u16::from_le_bytes([h[10], h[11]]),
            board_size: h[12],
            kind: h[13],
            depth: h[14],
            reserved: h[15],
        })
    }

    /// The 16 bytes of the header.
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[0] = self.century;
        h[1] = self.year;
        h[2] = self.month;
        h[3] = self.day;
        h[4..8].copy_from_slice(&self.game_count.to_le_bytes());
        h[8..10].copy_from_slice(&self.record_count.to_le_bytes());
        h[10..12].copy_from_slice(&self.games_year.to_le_bytes());
        h[12] = self.board_size;
        h[13] = self.kind;
        h[14] = self.depth;
        h[15] = self.reserved;
        h
    }

    /// The depth of the theoretical score, with 0 read as 22.
    pub fn theoretical_depth(&self) -> u8 {
        if self.depth == 0 { 22 } else { self.depth }
    }
}

/// Checks that `bytes` holds the header and exactly `count` records.
fn check_length(bytes: &[u8], count: u64, record_len: usize) -> Result<(), WthorError> {
    let expected = HEADER_LEN as u64 + count * record_len as u64;
    let found = bytes.len();
    match (found as u64).cmp(&expected) {
        std::cmp::Ordering::Less => Err(WthorError::Truncated { expected, found }),
        std::cmp::Ordering::Greater => Err(WthorError::LengthMismatch { expected, found }),
        std::cmp::Ordering::Equal => Ok(()),
    }
}

/// The square of a move byte (`11` = a1 .. `88` = h8).
pub fn square_from_byte(byte: u8) -> Option<Square> {
    let (row, col) = (byte / 10, byte % 10);
    if (1..=8).contains(&row) && (1..=8).contains(&col) {
        Square::from_coords(col - 1, row - 1)
    } else {
        None
    }
}

/// The move byte of a square (`a1` = 11 .. `h8` = 88).
pub fn square_to_byte(square: Square) -> u8 {
    10 * (square.row() + 1) + square.col() + 1
}

/// One game record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WthorGame {
    /// Index into the tournament file.
    pub tournament: u16,
    /// Index into the player file.
    pub black_player: u16,
    pub white_player: u16,
    /// Black's discs at the end, empties to the winner.
    pub real_score: u8,
    /// Black's discs with perfect play from the header's depth.
    pub theoretical_score: u8,
    /// The moves from the standard start, passes left out (at most 60).
    pub moves: Vec<Square>,
}

impl WthorGame {
    /// Reads a 68-byte record; `record` numbers it in errors.
    fn parse(bytes: &[u8; GAME_RECORD_LEN], record: usize) -> Result<WthorGame, WthorError> {
        let word = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
        let mut moves = Vec::new();
        let mut ended = false;
        for (index, &byte) in bytes[8..].iter().enumerate() {
            let bad = WthorError::BadMoveByte {
                record,
                index,
                byte,
            };
            match (byte, ended) {
                (0, _) => ended = true,
                (_, true) => return Err(bad),
                (_, false) => moves.push(square_from_byte(byte).ok_or(bad)?),
            }
        }
        Ok(WthorGame {
            tournament: word(0),
            black_player: word(2),
            white_player: word(4),
            real_score: bytes[6],
            theoretical_score: bytes[7],
            moves,
        })
    }

    /// The 68-byte record.
    fn to_bytes(&self) -> Result<[u8; GAME_RECORD_LEN], WthorError> {
        if self.moves.len() > MAX_MOVES {
            return Err(WthorError::Unstorable {
                reason: "more than 60 moves",
            });
        }
        let mut bytes = [0u8; GAME_RECORD_LEN];
        bytes[0..2].copy_from_slice(&self.tournament.to_le_bytes());
        bytes[2..4].copy_from_slice(&self.black_player.to_le_bytes());
        bytes[4..6].copy_from_slice(&self.white_player.to_le_bytes());
        bytes[6] = self.real_score;
        bytes[7] = self.theoretical_score;
        for (slot, &square) in bytes[8..].iter_mut().zip(&self.moves) {
            *slot = square_to_byte(square);
        }
        Ok(bytes)
    }

    /// Replays the moves from the 8x8 start, inserting passes.
    pub fn replay(&self) -> Result<Game, WthorError> {
        let mut game = Game::new(BoardSize::Eight);
        for (index, &square) in self.moves.iter().enumerate() {
            game.play_implicit(square)
                .map_err(|error| WthorError::Illegal {
                    number: index + 1,
                    error,
                })?;
        }
        Ok(game)
    }

    /// The record of a game from the 8x8 start: its moves and, for both
    /// scores, Black's discs (empties to the winner once the game is over).
    /// Tournament and players are 0.
    pub fn from_game(game: &Game) -> Result<WthorGame, WthorError> {
        if game.start() != Position::start(BoardSize::Eight) {
            return Err(WthorError::Unstorable {
                reason: "not from the 8x8 start position",
            });
        }
        let score = black_discs(game);
        Ok(WthorGame {
            real_score: score,
            theoretical_score: score,
            moves: game.moves().iter().filter_map(|mv| mv.square()).collect(),
            ..WthorGame::default()
        })
    }
}

/// Every position with a legal move of every game in the `.wtb` files of
/// `folder` (games that do not replay are skipped), in file-name and game
/// order.
pub fn folder_positions(folder: &Path) -> Result<Vec<Position>, String> {
    let mut positions = Vec::new();
    for file in read_folder(folder)? {
        for game in &file.games {
            if let Ok(game) = game.replay() {
                positions.extend(game.positions().iter().filter(|p| p.legal_moves() != 0));
            }
        }
    }
    Ok(positions)
}

/// Every `.wtb` file of `folder`, in file-name order: an error naming the
/// folder if it cannot be read or holds none, or naming the file that does
/// not parse.
pub fn read_folder(folder: &Path) -> Result<Vec<WtbFile>, String> {
    let paths = crate::formats::files_with_extension(folder, "wtb")
        .map_err(|e| format!("cannot read {}: {e}", folder.display()))?;
    if paths.is_empty() {
        return Err(format!("no .wtb file in {}", folder.display()));
    }
    paths.iter().map(|path| read_wtb(path)).collect()
}

/// One `.wtb` file, read and parsed: an error naming the file.
pub fn read_wtb(path: &Path) -> Result<WtbFile, String> {
    // The read error names the path itself.
    let bytes = read_file(path).map_err(|e| e.to_string())?;
    parse_wtb(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// `count` distinct positions with `empties` empty squares drawn from
/// `positions` without replacement, the same for the same `seed`.
pub fn sample(positions: &[Position], empties: u32, count: usize, seed: u64) -> Vec<Position> {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    let mut seen = std::collections::HashSet::new();
    let mut pool: Vec<Position> = positions
        .iter()
        .filter(|p| p.empty_count() == empties && seen.insert(**p))
        .copied()
        .collect();
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    pool.shuffle(&mut rng);
    pool.truncate(count);
    pool
}

/// Black's discs as WTHOR counts them: with the empties to the winner once
/// the game is over (a draw splits them), as they stand otherwise.
pub fn black_discs(game: &Game) -> u8 {
    let position = game.position();
    let total = position.size.squares() as i32;
    let discs = match game.final_score_black() {
        Some(score) => (total + score) / 2,
        None => position.black().count_ones() as i32,
    };
    discs.clamp(0, 255) as u8
}

/// A `.wtb` file: its header and its games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WtbFile {
    pub header: WthorHeader,
    pub games: Vec<WthorGame>,
}

/// Reads a `.wtb` game file (8x8 games only).
pub fn parse_wtb(bytes: &[u8]) -> Result<WtbFile, WthorError> {
    let header = WthorHeader::parse(bytes)?;
    if !matches!(header.board_size, 0 | 8) {
        return Err(WthorError::BadHeader {
            field: "board size",
            value: header.board_size.into(),
        });
    }
    if header.kind != 0 {
        return Err(WthorError::BadHeader {
            field: "type",
            value: header.kind.into(),
        });
    }
    if header.record_count != 0 {
        return Err(WthorError::BadHeader {
            field: "name record count (N2) of a game file",
            value: header.record_count.into(),
        });
    }
    check_length(bytes, header.game_count.into(), GAME_RECORD_LEN)?;
    let games = bytes[HEADER_LEN..]
        .chunks_exact(GAME_RECORD_LEN)
        .enumerate()
        .map(
            |(record, chunk)| match chunk.first_chunk::<GAME_RECORD_LEN>() {
                Some(chunk) => WthorGame::parse(chunk, record),
                None => Err(WthorError::Truncated {
                    expected: GAME_RECORD_LEN as u64,
                    found: chunk.len(),
                }),
            },
        )
        .collect::<Result<Vec<_>, _>>()?;
    Ok(WtbFile { header, games })
}

/// Writes a `.wtb` file; N1 is set from the games and N2 to 0.
pub fn write_wtb(file: &WtbFile) -> Result<Vec<u8>, WthorError> {
    let count = file.games.len();
    let header = WthorHeader {
        game_count: u32::try_from(count).map_err(|_| WthorError::TooManyRecords { count })?,
        record_count: 0,
        ..file.header
    };
    let mut bytes = Vec::with_capacity(HEADER_LEN + GAME_RECORD_LEN * count);
    bytes.extend_from_slice(&header.to_bytes());
    for game in &file.games {
        bytes.extend_from_slice(&game.to_bytes()?);
    }
    Ok(bytes)
}

/// A `.JOU` or `.TRN` file: its header and its names, in index order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WthorNames {
    pub header: WthorHeader,
    pub names: Vec<String>,
}

/// Reads a `.JOU` player file (20-byte records).
pub fn parse_jou(bytes: &[u8]) -> Result<WthorNames, WthorError> {
    parse_names(bytes, PLAYER_RECORD_LEN)
}

/// Reads a `.TRN` tournament file (26-byte records).
pub fn parse_trn(bytes: &[u8]) -> Result<WthorNames, WthorError> {
    parse_names(bytes, TOURNAMENT_RECORD_LEN)
}

/// Writes a `.JOU` player file; names are cut to 19 bytes.
pub fn write_jou(file: &WthorNames) -> Result<Vec<u8>, WthorError> {
    write_names(file, PLAYER_RECORD_LEN)
}

/// Writes a `.TRN` tournament file; names are cut to 25 bytes.
pub fn write_trn(file: &WthorNames) -> Result<Vec<u8>, WthorError> {
    write_names(file, TOURNAMENT_RECORD_LEN)
}

fn parse_names(bytes: &[u8], record_len: usize) -> Result<WthorNames, WthorError> {
    let header = WthorHeader::parse(bytes)?;
    check_length(bytes, header.record_count.into(), record_len)?;
    let names = bytes[HEADER_LEN..]
        .chunks_exact(record_len)
        .map(|record| {
            // Latin-1: every byte is the code point of the same value.
            record
                .iter()
                .take_while(|&&b| b != 0)
                .map(|&b| char::from(b))
                .collect()
        })
        .collect();
    Ok(WthorNames { header, names })
}

fn write_names(file: &WthorNames, record_len: usize) -> Result<Vec<u8>, WthorError> {
    let count = file.names.len();
    let header = WthorHeader {
        record_count: u16::try_from(count).map_err(|_| WthorError::TooManyRecords { count })?,
        ..file.header
    };
    let mut bytes = Vec::with_capacity(HEADER_LEN + record_len * count);
    bytes.extend_from_slice(&header.to_bytes());
    for name in &file.names {
        let mut record = vec![0u8; record_len];
        let latin1 = name
            .chars()
            .take_while(|&c| c != '\0')
            .map(|c| u8::try_from(c).unwrap_or(b'?'));
        for (slot, byte) in record[..record_len - 1].iter_mut().zip(latin1) {
            *slot = byte;
        }
        bytes.extend_from_slice(&record);
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::transcript;
    use rand::{Rng, SeedableRng};

    fn random_game(rng: &mut rand::rngs::StdRng) -> Game {
        let mut game = Game::new(BoardSize::Eight);
        let stop = rng.random_range(0..80);
        while !game.is_over() && game.moves().len() < stop {
            let moves = game.position().move_list();
            game.play(moves[rng.random_range(0..moves.len())]).unwrap();
        }
        game
    }

    fn sample_file(rng: &mut rand::rngs::StdRng, games: usize) -> WtbFile {
        let header = WthorHeader {
            century: 20,
            year: 24,
            month: 5,
            day: 1,
            games_year: 2024,
            board_size: 8,
            depth: 22,
            ..WthorHeader::default()
        };
        let games = (0..games)
            .map(|i| {
                let mut record = WthorGame::from_game(&random_game(rng)).unwrap();
                record.tournament = i as u16;
                record.black_player = 2 * i as u16;
                record.white_player = 2 * i as u16 + 1;
                record
            })
            .collect();
        WtbFile { header, games }
    }

    #[test]
    fn move_bytes() {
        let sq = |name: &str| name.parse::<Square>().unwrap();
        for (byte, name) in [(11, "a1"), (18, "h1"), (81, "a8"), (88, "h8"), (56, "f5")] {
            assert_eq!(square_from_byte(byte), Some(sq(name)));
            assert_eq!(square_to_byte(sq(name)), byte);
        }
        for byte in [0, 1, 10, 19, 20, 89, 90, 99, 255] {
            assert_eq!(square_from_byte(byte), None, "{byte}");
        }
        for square in Square::all() {
            assert_eq!(square_from_byte(square_to_byte(square)), Some(square));
        }
    }

    #[test]
    fn games_round_trip() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(29);
        let file = sample_file(&mut rng, 200);
        let bytes = write_wtb(&file).unwrap();
        assert_eq!(bytes.len(), HEADER_LEN + 200 * GAME_RECORD_LEN);
        let header = WthorHeader {
            game_count: 200,
            ..file.header
        };
        let read = parse_wtb(&bytes).unwrap();
        assert_eq!(read.header, header);
        assert_eq!(read.games, file.games);
        assert_eq!(write_wtb(&read).unwrap(), bytes);
        for game in &read.games {
            let replayed = game.replay().unwrap();
            assert_eq!(black_discs(&replayed), game.real_score);
            assert_eq!(WthorGame::from_game(&replayed).unwrap().moves, game.moves);
        }
        assert_eq!(write_wtb(&WtbFile::default()).unwrap().len(), HEADER_LEN);
        assert_eq!(header.theoretical_depth(), 22);
    }

    #[test]
    fn replays_a_perfect_game() {
        let text = "F5D6C3D3C4F4F6F3E6E7D7C5B6D8C6C7D2B5A5A6A7G5E3B4C8G6G4C2E8D1F7E2G3H4\
                    F1E1F2G1B1F8G8B3H3B2H5B7A3A4A1A2C1H2H1G2B8A8G7H8H7H6";
        let game = transcript::parse_game(text, Position::start(BoardSize::Eight)).unwrap();
        let record = WthorGame::from_game(&game).unwrap();
        assert_eq!(record.moves.len(), 60);
        assert_eq!(record.real_score, 32);
        assert_eq!(record.replay().unwrap(), game);
    }

    #[test]
    fn errors_are_typed() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(31);
        let good = write_wtb(&sample_file(&mut rng, 3)).unwrap();
        assert!(matches!(
            parse_wtb(&good[..10]),
            Err(WthorError::Truncated {
                expected: 16,
                found: 10
            })
        ));
        assert!(matches!(
            parse_wtb(&good[..good.len() - 1]),
            Err(WthorError::Truncated { .. })
        ));
        let mut longer = good.clone();
        longer.push(0);
        assert!(matches!(
            parse_wtb(&longer),
            Err(WthorError::LengthMismatch { .. })
        ));
        for (at, value, field) in [(12, 10, "board size"), (13, 1, "type")] {
            let mut bad = good.clone();
            bad[at] = value;
            match parse_wtb(&bad) {
                Err(WthorError::BadHeader { field: f, .. }) => assert_eq!(f, field),
                other => panic!("{other:?}"),
            }
        }
        let mut zero = good.clone();
        zero[12] = 0;
        assert!(parse_wtb(&zero).is_ok());
        let mut names = good.clone();
        names[8] = 1;
        assert!(matches!(
            parse_wtb(&names),
            Err(WthorError::BadHeader { .. })
        ));
        let mut bad_move = good.clone();
        bad_move[HEADER_LEN + GAME_RECORD_LEN + 8 + 2] = 19;
        assert!(matches!(
            parse_wtb(&bad_move),
            Err(WthorError::BadMoveByte {
                record: 1,
                index: 2,
                byte: 19
            })
        ));
        let mut after_end = good.clone();
        after_end[HEADER_LEN + 8 + 59] = 11;
        after_end[HEADER_LEN + 8 + 58] = 0;
        assert!(matches!(
            parse_wtb(&after_end),
            Err(WthorError::BadMoveByte {
                record: 0,
                index: 59,
                ..
            })
        ));
        let illegal = WthorGame {
            moves: vec!["f5".parse().unwrap(), "a1".parse().unwrap()],
            ..WthorGame::default()
        };
        assert!(matches!(
            illegal.replay(),
            Err(WthorError::Illegal { number: 2, .. })
        ));
        assert!(illegal.replay().unwrap_err().to_string().contains("move 2"));
        let too_long = WtbFile {
            games: vec![WthorGame {
                moves: vec!["a1".parse().unwrap(); 61],
                ..WthorGame::default()
            }],
            ..WtbFile::default()
        };
        assert!(matches!(
            write_wtb(&too_long),
            Err(WthorError::Unstorable { .. })
        ));
        let six = Game::new(BoardSize::Six);
        assert!(WthorGame::from_game(&six).is_err());
        let missing = read_file("/nonexistent/oxello/WTH_0000.wtb").unwrap_err();
        assert!(matches!(missing, WthorError::Io { .. }));
        assert!(missing.to_string().contains("WTH_0000.wtb"));
    }

    #[test]
    fn names_round_trip() {
        let file = WthorNames {
            header: WthorHeader {
                century: 20,
                year: 25,
                ..WthorHeader::default()
            },
            names: vec![
                "Tastet Marc".to_string(),
                String::new(),
                "Championnat de Besançon".to_string(),
                "exactly nineteen ch".to_string(),
            ],
        };
        for (write, parse, len) in [
            (
                write_jou as fn(&WthorNames) -> _,
                parse_jou as fn(&[u8]) -> _,
                20,
            ),
            (write_trn, parse_trn, 26),
        ] {
            let bytes = write(&file).unwrap();
            assert_eq!(bytes.len(), HEADER_LEN + 4 * len);
            let read: WthorNames = parse(&bytes).unwrap();
            assert_eq!(read.header.record_count, 4);
            assert_eq!(read.names[..2], file.names[..2]);
            assert_eq!(read.names[3], file.names[3]);
            assert_eq!(write(&read).unwrap(), bytes);
            assert!(matches!(
                parse(&bytes[..bytes.len() - 1]),
                Err(WthorError::Truncated { .. })
            ));
        }
        // Latin-1 survives, longer names are cut, other characters become '?'.
        let jou = parse_jou(&write_jou(&file).unwrap()).unwrap();
        assert_eq!(jou.names[2], "Championnat de Besa");
        let trn = parse_trn(&write_trn(&file).unwrap()).unwrap();
        assert_eq!(trn.names[2], "Championnat de Besançon");
        let odd = WthorNames {
            names: vec!["日本 ok".to_string()],
            ..WthorNames::default()
        };
        assert_eq!(
            parse_jou(&write_jou(&odd).unwrap()).unwrap().names[0],
            "?? ok"
        );
    }

    #[test]
    fn random_bytes_never_panic() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(37);
        for _ in 0..20_000 {
            let len = rng.random_range(0..200);
            let mut bytes: Vec<u8> = (0..len).map(|_| rng.random()).collect();
            if len >= HEADER_LEN && rng.random_bool(0.5) {
                // Make the header plausible so the records get read.
                let n = ((len - HEADER_LEN) / GAME_RECORD_LEN) as u32;
                bytes[4..8].copy_from_slice(&n.to_le_bytes());
                bytes[8..10].fill(0);
                bytes[12] = 8;
                bytes[13] = 0;
                bytes.truncate(HEADER_LEN + n as usize * GAME_RECORD_LEN);
            }
            if let Ok(file) = parse_wtb(&bytes) {
                assert_eq!(write_wtb(&file).unwrap(), bytes);
                for game in &file.games {
                    let _ = game.replay();
                }
            }
            for parse in [parse_jou, parse_trn] {
                if let Ok(names) = parse(&bytes) {
                    assert_eq!(names.names.len(), names.header.record_count as usize);
                }
            }
        }
    }

    #[test]
    fn mutated_files_never_panic() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(41);
        let good = write_wtb(&sample_file(&mut rng, 4)).unwrap();
        let mut replayed = 0;
        for _ in 0..20_000 {
            let mut bytes = good.clone();
            for _ in 0..rng.random_range(1..4) {
                if bytes.is_empty() {
                    break;
                }
                let at = rng.random_range(0..bytes.len());
                match rng.random_range(0..4) {
                    0 => bytes[at] = rng.random(),
                    1 => bytes[at] = rng.random_range(11..=88),
                    2 => bytes.truncate(at),
                    _ => bytes.insert(at, rng.random()),
                }
            }
            if let Ok(file) = parse_wtb(&bytes) {
                assert_eq!(parse_wtb(&write_wtb(&file).unwrap()).unwrap(), file);
                replayed += file.games.iter().filter(|g| g.replay().is_ok()).count();
            }
        }
        assert!(replayed > 0);
    }
}
