//! The match file: every finished game as one line (GGF for Othello, SGF
//! for gomoku: see [`MatchRecord`]), appended the moment it ends, and read
//! back to resume a match.
//!
//! Each game's comment (GGF `CO`, SGF `GC`) identifies it in the schedule
//! and records a forfeit:
//!
//! ```text
//! oxello-match game=12 round=1 opening=6 black=2 moves=f5d6c4d3c2b3b4b5 forfeit=1:timeout | level:4 (White) time-out: no reply in 3.00 s
//! ```
//!
//! `game` is the number in the schedule (from 1), `round` the pass through
//! the opening list, `opening` the opening's number in the list (0 for the
//! standard start or the empty board), `black` which engine (1 or 2) had
//! Black, `moves` the opening (`-` for none; gomoku openings in pos
//! notation, `h8i9j7`), `forfeit` the engine that lost by a fault and the
//! kind of fault; free text follows `|`. A rerun with the same file reads
//! these back, checks them against its own schedule and plays only the games
//! missing.

use crate::arena::contestant::FaultKind;
use crate::arena::game::MatchRecord;
use crate::arena::schedule::ScheduledGame;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The comment's first word.
pub const TAG: &str = "oxello-match";

/// What a game's comment says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameTag {
    pub number: usize,
    pub round: usize,
    pub opening: usize,
    /// Which engine (0 or 1) had Black.
    pub black: usize,
    /// The opening transcript, empty for the standard start.
    pub moves: String,
    /// The engine (0 or 1) that lost by a fault, and the fault.
    pub forfeit: Option<(usize, FaultKind)>,
    /// Free text after `|`.
    pub note: String,
}

impl GameTag {
    /// The tag of a scheduled game.
    pub fn new(game: &ScheduledGame, moves: &str) -> GameTag {
        GameTag {
            number: game.number,
            round: game.round,
            opening: game.opening,
            black: game.black,
            moves: moves.to_string(),
            forfeit: None,
            note: String::new(),
        }
    }

    /// Reads a comment; `None` when it is not an `oxello-match` comment.
    pub fn parse(comment: &str) -> Option<GameTag> {
        let (fields, note) = match comment.split_once(" | ") {
            Some((fields, note)) => (fields, note.trim()),
            None => (comment, ""),
        };
        let mut words = fields.split_whitespace();
        if words.next()? != TAG {
            return None;
        }
        let mut tag = GameTag {
            number: 0,
            round: 0,
            opening: 0,
            black: 0,
            moves: String::new(),
            forfeit: None,
            note: note.to_string(),
        };
        for word in words {
            let (key, value) = word.split_once('=')?;
            match key {
                "game" => tag.number = value.parse().ok()?,
                "round" => tag.round = value.parse().ok()?,
                "opening" => tag.opening = value.parse().ok()?,
                "black" => tag.black = engine_index(value)?,
                "moves" if value == "-" => tag.moves.clear(),
                "moves" => tag.moves = value.to_string(),
                "forfeit" => {
                    let (engine, kind) = value.split_once(':')?;
                    tag.forfeit = Some((engine_index(engine)?, FaultKind::from_slug(kind)?));
                }
                _ => {}
            }
        }
        (tag.number > 0).then_some(tag)
    }
}

fn engine_index(text: &str) -> Option<usize> {
    match text {
        "1" => Some(0),
        "2" => Some(1),
        _ => None,
    }
}

impl fmt::Display for GameTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let moves = if self.moves.is_empty() {
            "-"
        } else {
            &self.moves
        };
        write!(
            f,
            "{TAG} game={} round={} opening={} black={} moves={moves}",
            self.number,
            self.round,
            self.opening,
            self.black + 1
        )?;
        if let Some((engine, kind)) = self.forfeit {
            write!(f, " forfeit={}:{}", engine + 1, kind.slug())?;
        }
        if !self.note.is_empty() {
            write!(f, " | {}", self.note.replace(['\n', '\r'], " "))?;
        }
        Ok(())
    }
}

/// Why the match file could not be used.
#[derive(Debug)]
pub enum RecordError {
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// A file to read is missing, a directory, or unreadable.
    File {
        path: PathBuf,
        error: crate::formats::FileError,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            // The file error names the path itself.
            RecordError::File { error, .. } => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// A match file as read: its games with their tags, and the text kept.
struct Read<R> {
    games: Vec<(R, GameTag)>,
    /// The complete, readable lines.
    kept: String,
    /// Lines dropped: unreadable, not a finished `oxello-match` game, or cut
    /// off before their end of line.
    dropped: usize,
}

fn read_lines<R: MatchRecord>(text: &str) -> Read<R> {
    let mut read = Read {
        games: Vec::new(),
        kept: String::new(),
        dropped: 0,
    };
    for line in text.split_inclusive('\n') {
        let complete = line.ends_with('\n');
        let parsed = R::parse_line(line.trim()).and_then(|game| {
            let tag = GameTag::parse(game.comment())?;
            game.result_text()?;
            Some((game, tag))
        });
        match parsed {
            Some(entry) if complete => {
                read.kept.push_str(line);
                read.games.push(entry);
            }
            _ if line.trim().is_empty() => {}
            _ => read.dropped += 1,
        }
    }
    read
}

fn io_error(path: &Path) -> impl Fn(std::io::Error) -> RecordError + '_ {
    move |error| RecordError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// The games of an existing match file, with their tags. Lines that do not
/// read as GGF (a game cut short when the match was killed while writing
/// it) are dropped and the file is rewritten without them, the original
/// being kept as `FILE.bak`. A missing file has no games.
pub fn load<R: MatchRecord>(path: &Path) -> Result<Vec<(R, GameTag)>, RecordError> {
    let io = io_error(path);
    let text = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(io(error)),
    };
    let read = read_lines(&text);
    if read.dropped > 0 {
        log::warn!(
            "{}: {} unreadable or unfinished line(s) dropped (original kept as .bak)",
            path.display(),
            read.dropped
        );
        let backup = path.with_extension(match path.extension() {
            Some(ext) => format!("{}.bak", ext.to_string_lossy()),
            None => "bak".to_string(),
        });
        std::fs::copy(path, &backup).map_err(&io)?;
        std::fs::write(path, read.kept).map_err(&io)?;
    }
    Ok(read.games)
}

/// The games of a match file, read only (the file is left as it is), and
/// the number of lines that are not finished match games. A missing file
/// is an error.
pub fn read<R: MatchRecord>(path: &Path) -> Result<(Vec<(R, GameTag)>, usize), RecordError> {
    let bytes = crate::formats::read_file(path, u64::MAX).map_err(|error| RecordError::File {
        path: path.to_path_buf(),
        error,
    })?;
    let read = read_lines(&String::from_utf8_lossy(&bytes));
    Ok((read.games, read.dropped))
}

/// The match file, open for appending.
pub struct MatchFile {
    path: PathBuf,
    file: std::fs::File,
}

impl MatchFile {
    /// Opens (or creates) `path` for appending.
    pub fn open(path: &Path) -> Result<MatchFile, RecordError> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|error| RecordError::Io {
                path: path.to_path_buf(),
                error,
            })?;
        Ok(MatchFile {
            path: path.to_path_buf(),
            file,
        })
    }

    /// Appends one game as a line and flushes it to the file.
    pub fn append(&mut self, game: &impl MatchRecord) -> Result<(), RecordError> {
        let line = game.to_line();
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|error| RecordError::Io {
                path: self.path.clone(),
                error,
            })
    }
}

/// The current time as NBoard writes `DT`: `2024-05-01 10:00:00 GMT`.
pub fn utc_now() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format_utc(seconds)
}

/// Unix seconds as `YYYY-MM-DD HH:MM:SS GMT` (proleptic Gregorian calendar).
pub fn format_utc(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let time = seconds % 86_400;
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} GMT",
        time / 3600,
        time / 60 % 60,
        time % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::ggf::{self, GgfGame};

    #[test]
    fn tags_round_trip() {
        let tag = GameTag {
            number: 12,
            round: 1,
            opening: 6,
            black: 1,
            moves: "f5d6c4d3c2b3b4b5".to_string(),
            forfeit: Some((0, FaultKind::Timeout)),
            note: "level:4 (White) time-out: no reply".to_string(),
        };
        let text = tag.to_string();
        assert_eq!(
            text,
            "oxello-match game=12 round=1 opening=6 black=2 moves=f5d6c4d3c2b3b4b5 \
             forfeit=1:timeout | level:4 (White) time-out: no reply"
        );
        assert_eq!(GameTag::parse(&text), Some(tag));
        let plain = GameTag {
            moves: String::new(),
            forfeit: None,
            note: String::new(),
            ..GameTag::parse(&text).unwrap()
        };
        assert_eq!(GameTag::parse(&plain.to_string()), Some(plain));
        assert_eq!(GameTag::parse("a comment"), None);
    }

    #[test]
    fn dates() {
        assert_eq!(format_utc(0), "1970-01-01 00:00:00 GMT");
        assert_eq!(format_utc(951_782_400), "2000-02-29 00:00:00 GMT");
        assert_eq!(format_utc(1_714_557_600), "2024-05-01 10:00:00 GMT");
    }

    #[test]
    fn a_cut_line_is_dropped_on_loading() {
        let dir = std::env::temp_dir().join(format!("oxello-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("match.ggf");
        let game = GgfGame {
            result: Some(crate::formats::ggf::GgfResult {
                score: 0.0,
                flag: None,
            }),
            comment: "oxello-match game=1 round=1 opening=0 black=1 moves=-".to_string(),
            ..GgfGame::default()
        };
        let line = ggf::format_all(std::slice::from_ref(&game));
        std::fs::write(&path, format!("{line}{}", &line[..20])).unwrap();
        let games = load::<GgfGame>(&path).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), line);
        assert!(dir.join("match.ggf.bak").is_file());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
