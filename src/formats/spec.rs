//! Position arguments: what a user may pass wherever a position is expected
//! (`--position`, `show`, and later `solve`, `analyze`, `move`).
//!
//! A specification is, in the order tried: `start` for the start position
//! (an empty one, or `-`, is refused: it is a mistake more often than a
//! wish for the start), the path of a file holding any of the following, a
//! GGF game record (recognised by `(;`), a board string, or a transcript
//! played from the start position of the requested size. The text is read as a position
//! only when it is not an existing path; a path that cannot be read (missing,
//! a directory, empty) is reported as such, and so is text that reads as
//! neither a position nor anything but a file name (`game.ggf`,
//! `games/x`). A game of a WTHOR file or of a GGF file of several games is
//! named `FILE:N` (N from 1): the game with all its moves, at its final
//! position.

use crate::bitboard::BoardSize;
use crate::formats::{FileError, board_string, ggf, read_text_file, transcript};
use crate::game::Game;
use crate::position::Position;
use crate::square::Square;
use std::fmt;
use std::path::{Path, PathBuf};

/// Largest position file read (a GGF file of thousands of games fits).
const MAX_SPEC_FILE_BYTES: u64 = 64 << 20;

/// Why a position argument could not be used.
#[derive(Debug)]
pub enum SpecError {
    /// The file could not be read: missing, a directory, empty, too large
    /// (64 MiB at most), unreadable.
    File(FileError),
    /// The text is a GGF record that does not parse or replay.
    Ggf(String),
    /// A file of games (WTHOR, GGF) that does not read as one, a game
    /// number it does not have, or a file of several games named without a
    /// number.
    Games(String),
    /// No position: an empty argument (`start` names the start), or `-`
    /// (positions are not read from standard input).
    Missing { dash: bool },
    /// Neither a board string nor a transcript.
    Unreadable {
        board: board_string::BoardStringError,
        transcript: transcript::TranscriptError,
    },
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::File(error) => error.fmt(f),
            SpecError::Ggf(message) => write!(f, "bad GGF game: {message}"),
            SpecError::Games(message) => write!(f, "{message}"),
            SpecError::Missing { dash: false } => f.write_str(
                "no position given: give a board string, a transcript, a file, or 'start'",
            ),
            SpecError::Missing { dash: true } => f.write_str(
                "'-': positions are not read from standard input; give a file, a board \
                 string, a transcript, or 'start'",
            ),
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

impl From<FileError> for SpecError {
    fn from(error: FileError) -> Self {
        SpecError::File(error)
    }
}

/// Reads a position specification (see the module header) into a game whose
/// current position is the one meant. `size` applies to `start` and to
/// transcripts; board strings and GGF records carry their own size.
pub fn read_game(spec: &str, size: BoardSize) -> Result<Game, SpecError> {
    let trimmed = spec.trim();
    if trimmed.is_empty() || trimmed == "-" {
        return Err(SpecError::Missing {
            dash: trimmed == "-",
        });
    }
    if trimmed.eq_ignore_ascii_case("start") {
        return Ok(Game::new(size));
    }
    if let Some(game) = file_game(trimmed, size) {
        return game;
    }
    let path = Path::new(trimmed);
    parse_text(trimmed, size).map_err(|error| match error {
        SpecError::Unreadable { .. } if looks_like_path(trimmed) => {
            SpecError::File(FileError::NotFound(path.to_path_buf()))
        }
        error => error,
    })
}

/// Reads the game of a file that `spec` names: a file's path, or `FILE:N`
/// for game N of a GGF or WTHOR file of several (GTP's `loadsgf` reads its
/// argument so). A missing file is reported as such.
pub fn read_file_game(spec: &str, size: BoardSize) -> Result<Game, SpecError> {
    let spec = spec.trim();
    file_game(spec, size)
        .unwrap_or_else(|| Err(SpecError::File(FileError::NotFound(PathBuf::from(spec)))))
}

/// The game of the file `spec` names (see [`read_file_game`]); `None` when
/// it names none, so that it may be read as a position.
fn file_game(spec: &str, size: BoardSize) -> Option<Result<Game, SpecError>> {
    let path = Path::new(spec);
    // Anything at the path (a broken link too) is a file to read, whose
    // error says what is wrong with it; else `FILE:N` may name a game.
    let exists = spec.len() < 4096 && std::fs::symlink_metadata(path).is_ok();
    if !exists
        && let Some((file, number)) = spec.rsplit_once(':')
        && !number.is_empty()
        && number.chars().all(|c| c.is_ascii_digit())
        && Path::new(file).is_file()
    {
        let file_path = Path::new(file);
        if is_wthor(file_path) {
            return Some(read_wthor_game(file_path, number));
        }
        let text = match read_text_file(file_path, MAX_SPEC_FILE_BYTES) {
            Ok(text) => text,
            Err(error) => return Some(Err(error.into())),
        };
        if !text.contains("(;") {
            return Some(Err(SpecError::Games(format!(
                "{spec}: FILE:N names a game of a GGF or WTHOR file, and {file} holds no GGF \
                 game"
            ))));
        }
        return Some(parse_ggf(&text, Some(file), Some(number)));
    }
    if is_wthor(path) {
        return Some(Err(SpecError::Games(format!(
            "{}: a WTHOR file holds many games: name one as {spec}:N (N from 1)",
            path.display()
        ))));
    }
    exists.then(|| read_game_file(path, size))
}

/// Whether `path` is a file with the WTHOR game extension.
fn is_wthor(path: &Path) -> bool {
    path.extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("wtb"))
        && path.is_file()
}

/// Game `number` (from 1, as text) of the WTHOR file at `path`.
fn read_wthor_game(path: &Path, number: &str) -> Result<Game, SpecError> {
    let bad = |message: String| SpecError::Games(format!("{}: {message}", path.display()));
    let bytes = crate::formats::wthor::read_file(path).map_err(|e| bad(e.to_string()))?;
    let file = crate::formats::wthor::parse_wtb(&bytes).map_err(|e| bad(e.to_string()))?;
    let count = file.games.len();
    let record = number
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(|index| file.games.get(index))
        .ok_or_else(|| bad(format!("no game {number}: the file has games 1-{count}")))?;
    record
        .replay()
        .map_err(|e| bad(format!("game {number}: {e}")))
}

/// Reads the game of a file: a GGF record, a board string or a transcript.
pub fn read_game_file(path: &Path, size: BoardSize) -> Result<Game, SpecError> {
    let text = read_text_file(path, MAX_SPEC_FILE_BYTES)?;
    if text.contains("(;") {
        return parse_ggf(&text, Some(&path.display().to_string()), None);
    }
    parse_text(&text, size)
}

/// Whether text that is neither a board string nor a transcript was meant
/// as a file: it holds a path separator, or ends in an extension of two
/// letters or digits or more with a lower-case letter that is not a square
/// (`game.ggf`, but not `f5.d6`).
fn looks_like_path(text: &str) -> bool {
    if text.contains(char::is_whitespace) {
        return false;
    }
    if text.contains(['/', '\\']) {
        return true;
    }
    let path = Path::new(text);
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    path.file_stem().is_some_and(|stem| !stem.is_empty())
        && extension.len() >= 2
        && extension.chars().all(|c| c.is_ascii_alphanumeric())
        && extension.chars().any(|c| c.is_ascii_lowercase())
        && extension.parse::<Square>().is_err()
}

/// Reads a position specification given as text (not a path).
pub fn parse_text(text: &str, size: BoardSize) -> Result<Game, SpecError> {
    if text.contains("(;") {
        return parse_ggf(text, None, None);
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

/// The game of a GGF text (a leading game count is skipped; `file` names
/// it in errors), replayed to its end: game `number` (from 1) when given
/// (`FILE:N`), else the only one. A file of several games without a number
/// is refused, as a WTHOR file is, rather than read as its first.
fn parse_ggf(text: &str, file: Option<&str>, number: Option<&str>) -> Result<Game, SpecError> {
    let games = ggf::parse_all(text).map_err(|e| SpecError::Ggf(e.to_string()))?;
    let count = games.len();
    let file = file.unwrap_or("the text");
    let game = match number {
        Some(number) => {
            let found = number
                .parse::<usize>()
                .ok()
                .filter(|&n| n >= 1)
                .and_then(|n| games.get(n - 1));
            found.ok_or_else(|| {
                SpecError::Games(match count {
                    0 => format!("{file} holds no GGF game"),
                    1 => format!("{file}: no game {number}: the file holds one game (1)"),
                    _ => format!("{file}: no game {number}: the file has games 1-{count}"),
                })
            })?
        }
        None => match games.as_slice() {
            [] => return Err(SpecError::Ggf("no game in the text".to_string())),
            [game] => game,
            _ => {
                let name = if file == "the text" { "FILE" } else { file };
                return Err(SpecError::Games(format!(
                    "{file} holds {count} games: name one as {name}:N (N from 1)"
                )));
            }
        },
    };
    game.to_game().map_err(|e| SpecError::Ggf(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_a_game_of_a_wthor_file() {
        use crate::formats::wthor;
        let games: Vec<Game> = ["f5d6c3", "f5f6e6f4"]
            .iter()
            .map(|moves| transcript::parse_game(moves, Position::start(BoardSize::Eight)).unwrap())
            .collect();
        let file = wthor::WtbFile {
            header: wthor::WthorHeader {
                game_count: 2,
                board_size: 8,
                ..wthor::WthorHeader::default()
            },
            games: games
                .iter()
                .map(|game| wthor::WthorGame::from_game(game).unwrap())
                .collect(),
        };
        let dir = std::env::temp_dir().join(format!("oxello-spec-wtb-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.wtb");
        std::fs::write(&path, wthor::write_wtb(&file).unwrap()).unwrap();
        let name = path.display().to_string();
        let second = read_game(&format!("{name}:2"), BoardSize::Eight).unwrap();
        assert_eq!(second.position(), games[1].position());
        assert_eq!(second.moves().len(), 4);
        let error = read_game(&format!("{name}:3"), BoardSize::Eight).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("no game 3: the file has games 1-2"),
            "{error}"
        );
        let error = read_game(&name, BoardSize::Eight).unwrap_err();
        assert!(error.to_string().contains(":N"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A GGF file of several games names one as a WTHOR file does; a file
    /// of one game needs no number.
    #[test]
    fn names_a_game_of_a_ggf_file() {
        let dir = std::env::temp_dir().join(format!("oxello-spec-ggf-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let many = dir.join("many.ggf");
        std::fs::write(&many, "(;GM[Othello]B[f5];)\n(;GM[Othello]B[f5]W[d6];)\n").unwrap();
        let one = dir.join("one.ggf");
        std::fs::write(&one, "(;GM[Othello]B[f5]W[f6];)\n").unwrap();
        let name = many.display().to_string();
        let second = read_game(&format!("{name}:2"), BoardSize::Eight).unwrap();
        assert_eq!(second.moves().len(), 2);
        let error = read_game(&name, BoardSize::Eight).unwrap_err().to_string();
        assert!(
            error.contains("holds 2 games") && error.contains(":N"),
            "{error}"
        );
        let error = read_game(&format!("{name}:3"), BoardSize::Eight).unwrap_err();
        assert!(error.to_string().contains("games 1-2"), "{error}");
        let only = read_game(&one.display().to_string(), BoardSize::Eight).unwrap();
        assert_eq!(only.moves().len(), 2);
        let first = read_game(&format!("{}:1", one.display()), BoardSize::Eight).unwrap();
        assert_eq!(first.moves().len(), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn reads_each_form() {
        let start = Position::start(BoardSize::Eight);
        for missing in ["", "  ", "-"] {
            assert!(
                matches!(
                    read_game(missing, BoardSize::Eight),
                    Err(SpecError::Missing { .. })
                ),
                "{missing:?}"
            );
        }
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
        for missing in ["game.ggf", "games/f5d6", "C:\\games\\x"] {
            assert!(
                matches!(
                    read_game(missing, BoardSize::Eight),
                    Err(SpecError::File(FileError::NotFound(_)))
                ),
                "{missing}"
            );
        }
        // Not paths: a transcript typo and a bad board string stay errors of
        // the position.
        for text in ["f5d6c9", "f5.d6", "--------X.XO"] {
            assert!(
                matches!(
                    read_game(text, BoardSize::Eight),
                    Err(SpecError::Unreadable { .. })
                ),
                "{text}"
            );
        }
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
