//! Position arguments: what a user may pass wherever a position is expected
//! (`--position`, `show`, and later `solve`, `analyze`, `move`).
//!
//! A specification is, in the order tried: `start` (or nothing) for the start
//! position, the path of a file holding any of the following, a GGF game
//! record (recognised by `(;`), a board string, or a transcript played from
//! the start position of the requested size.

use crate::bitboard::BoardSize;
use crate::formats::{board_string, ggf, transcript};
use crate::game::Game;
use crate::position::Position;
use std::fmt;
use std::path::Path;

/// Largest position file read (a GGF file of thousands of games fits).
const MAX_SPEC_FILE_BYTES: u64 = 64 << 20;

/// Why a position argument could not be used.
#[derive(Debug)]
pub enum SpecError {
    /// The file exists but could not be read.
    Io { path: String, error: std::io::Error },
    /// The file is larger than the limit (64 MiB).
    TooLarge { path: String, bytes: u64 },
    /// The text is a GGF record that does not parse or replay.
    Ggf(String),
    /// Neither a board string nor a transcript.
    Unreadable {
        board: board_string::BoardStringError,
        transcript: transcript::TranscriptError,
    },
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::Io { path, error } => write!(f, "cannot read {path}: {error}"),
            SpecError::TooLarge { path, bytes } => write!(f, "{path} is too large ({bytes} bytes)"),
            SpecError::Ggf(message) => write!(f, "bad GGF game: {message}"),
            SpecError::Unreadable { board, transcript } => {
                write!(
                    f,
                    "not a position: as a board string, {board}; as a transcript, {transcript}"
                )
            }
        }
    }
}

impl std::error::Error for SpecError {}

/// Reads a position specification (see the module header) into a game whose
/// current position is the one meant. `size` applies to `start` and to
/// transcripts; board strings and GGF records carry their own size.
pub fn read_game(spec: &str, size: BoardSize) -> Result<Game, SpecError> {
    let trimmed = spec.trim();
    if trimmed.is_empty() || trimmed.eq_ignore_ascii_case("start") {
        return Ok(Game::new(size));
    }
    let path = Path::new(trimmed);
    if trimmed.len() < 4096 && path.is_file() {
        let text = read_text(path)?;
        return parse_text(&text, size);
    }
    parse_text(trimmed, size)
}

/// Reads a position specification given as text (not a path).
pub fn parse_text(text: &str, size: BoardSize) -> Result<Game, SpecError> {
    if text.contains("(;") {
        return parse_ggf(text);
    }
    let board_error = match board_string::parse_position(text) {
        Ok(position) => return Ok(Game::from_position(position)),
        Err(error) => error,
    };
    transcript::parse_game(text, Position::start(size)).map_err(|transcript| {
        SpecError::Unreadable {
            board: board_error,
            transcript,
        }
    })
}

/// The first game of a GGF text (a file may hold several; a leading game
/// count is skipped), replayed to its end.
fn parse_ggf(text: &str) -> Result<Game, SpecError> {
    let games = ggf::parse_all(text).map_err(|e| SpecError::Ggf(e.to_string()))?;
    let first = games
        .first()
        .ok_or_else(|| SpecError::Ggf("no game in the text".to_string()))?;
    first.to_game().map_err(|e| SpecError::Ggf(e.to_string()))
}

fn read_text(path: &Path) -> Result<String, SpecError> {
    let shown = path.display().to_string();
    let bytes = std::fs::metadata(path)
        .map_err(|error| SpecError::Io {
            path: shown.clone(),
            error,
        })?
        .len();
    if bytes > MAX_SPEC_FILE_BYTES {
        return Err(SpecError::TooLarge { path: shown, bytes });
    }
    let raw = std::fs::read(path).map_err(|error| SpecError::Io { path: shown, error })?;
    Ok(String::from_utf8_lossy(&raw).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_form() {
        let start = Position::start(BoardSize::Eight);
        assert_eq!(read_game("", BoardSize::Eight).unwrap().position(), start);
        assert_eq!(
            read_game("start", BoardSize::Six).unwrap().position(),
            Position::start(BoardSize::Six)
        );
        let board = board_string::format_position(&start);
        assert_eq!(
            read_game(&board, BoardSize::Eight).unwrap().position(),
            start
        );
        let game = read_game("f5d6", BoardSize::Eight).unwrap();
        assert_eq!(game.moves().len(), 2);
        assert!(matches!(
            read_game("zz", BoardSize::Eight),
            Err(SpecError::Unreadable { .. })
        ));
        let record = "(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[0]TY[8]\
            BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[PA];)";
        let bad = read_game(record, BoardSize::Eight);
        assert!(
            matches!(bad, Err(SpecError::Ggf(_))),
            "an illegal pass must be refused"
        );
        let good = read_game(&record.replace("B[PA]", "B[E6]"), BoardSize::Eight).unwrap();
        assert_eq!(good.moves().len(), 3);
        assert_eq!(good.position().side, crate::color::Color::White);
    }
}
