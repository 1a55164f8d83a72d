//! Where self-play games start: the standard position, a line of an opening
//! list (XOT), or the first moves of a WTHOR game, then a few random moves.
//!
//! A list (or the WTHOR prefixes) is shuffled once with the run's seed and
//! game `i` takes entry `i mod len`, so every entry is used as evenly as the
//! number of games allows and another seed visits them in another order.
//! WTHOR prefixes that lead to the same position are kept once: popular
//! human lines would otherwise fill most of the run.

use crate::bitboard::{BoardSize, squares};
use crate::formats::{FileError, openings, wthor};
use crate::game::Game;
use crate::moves::Move;
use crate::position::Position;
use rand::Rng;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// The standard start position.
    Start,
    /// An opening list: one transcript per line (the XOT lists).
    List(PathBuf),
    /// The first `plies` moves (passes included) of every game of the
    /// `.wtb` files of a folder (8x8 only).
    Wthor { dir: PathBuf, plies: u32 },
}

/// Why the openings could not be prepared.
#[derive(Debug)]
pub enum OpeningsError {
    /// A file or folder could not be read.
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// An opening list could not be read.
    File(FileError),
    /// A line of an opening list does not replay on the board size.
    List {
        path: PathBuf,
        error: openings::OpeningsError,
    },
    /// A WTHOR file is damaged.
    Wthor {
        path: PathBuf,
        error: wthor::WthorError,
    },
    /// The source gave no usable opening.
    Empty { what: String },
    /// WTHOR games are 8x8 games.
    WthorSize(BoardSize),
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningsError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            OpeningsError::File(error) => write!(f, "{error}"),
            OpeningsError::List { path, error } => write!(f, "{}: {error}", path.display()),
            OpeningsError::Wthor { path, error } => write!(f, "{}: {error}", path.display()),
            OpeningsError::Empty { what } => write!(f, "no usable opening in {what}"),
            OpeningsError::WthorSize(size) => {
                write!(f, "WTHOR games are 8x8: no openings for {size}x{size}")
            }
        }
    }
}

impl std::error::Error for OpeningsError {}

/// The openings of a run, ready to hand out by game index.
#[derive(Clone, Debug)]
pub struct OpeningBook {
    games: Vec<Game>,
    random_moves: MoveCount,
}

/// How many random moves follow a game's opening: a fixed number, or a
/// number drawn uniformly for each game from a range (`12-50`), so that the
/// positions after the random part cover every stage of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveCount {
    pub min: u32,
    pub max: u32,
}

impl MoveCount {
    /// Exactly `n` moves.
    pub const fn exactly(n: u32) -> MoveCount {
        MoveCount { min: n, max: n }
    }

    /// Whether the count is the same for every game.
    pub fn is_fixed(&self) -> bool {
        self.min == self.max
    }
}

impl fmt::Display for MoveCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_fixed() {
            write!(f, "{}", self.min)
        } else {
            write!(f, "{}-{}", self.min, self.max)
        }
    }
}

impl std::str::FromStr for MoveCount {
    type Err = String;

    fn from_str(text: &str) -> Result<MoveCount, String> {
        let (min, max) = crate::core::span::parse_span::<u32>(text)
            .ok_or_else(|| format!("{text:?}: expected N or MIN-MAX, e.g. 8 or 12-50"))?;
        if min > max {
            return Err(format!("{text:?}: the minimum is above the maximum"));
        }
        if max > 60 {
            return Err(format!("{text:?}: at most 60 random moves"));
        }
        Ok(MoveCount { min, max })
    }
}

impl OpeningBook {
    /// Reads the source, keeps what replays on `size`, shuffles with `seed`.
    /// After its opening each game plays `random_moves` uniformly random
    /// moves (forced passes do not count).
    pub fn new(
        source: &OpeningSource,
        size: BoardSize,
        random_moves: MoveCount,
        seed: u64,
    ) -> Result<OpeningBook, OpeningsError> {
        let mut games = match source {
            OpeningSource::Start => vec![Game::new(size)],
            OpeningSource::List(path) => read_list(path, size)?,
            OpeningSource::Wthor { dir, plies } => {
                if size != BoardSize::Eight {
                    return Err(OpeningsError::WthorSize(size));
                }
                wthor_prefixes(dir, *plies)?
            }
        };
        games.shuffle(&mut StdRng::seed_from_u64(seed));
        Ok(OpeningBook {
            games,
            random_moves,
        })
    }

    /// Distinct openings before the random moves.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// The random moves after each opening.
    pub fn random_moves(&self) -> MoveCount {
        self.random_moves
    }

    /// Whether the book is empty (never, once built).
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The start of game `index`: its opening and random moves drawn from
    /// `rng`. May be a finished game (then it has no record).
    pub fn start(&self, index: u32, rng: &mut StdRng) -> Game {
        let mut game = match self.games.get(index as usize % self.games.len().max(1)) {
            Some(game) => game.clone(),
            None => return Game::new(BoardSize::Eight),
        };
        // A fixed count draws nothing, so runs with one stay as they were.
        let count = if self.random_moves.is_fixed() {
            self.random_moves.min
        } else {
            rng.random_range(self.random_moves.min..=self.random_moves.max)
        };
        let mut placed = 0;
        while placed < count {
            let position = game.position();
            let legal = position.legal_moves();
            let mv = if legal == 0 {
                if position.is_game_over() {
                    break;
                }
                Move::Pass
            } else {
                placed += 1;
                let pick = rng.random_range(0..legal.count_ones() as usize);
                match squares(legal).nth(pick).map(|s| position.placement(s)) {
                    Some(Ok(mv)) => mv,
                    _ => break,
                }
            };
            if game.play(mv).is_err() {
                break;
            }
        }
        game
    }
}

/// An opening list larger than this is refused; none comes near it (XOT's
/// large list, 10,784 lines, is 183 KB).
const MAX_LIST_BYTES: u64 = 1 << 30;

fn read_list(path: &Path, size: BoardSize) -> Result<Vec<Game>, OpeningsError> {
    let text =
        crate::formats::read_text_file(path, MAX_LIST_BYTES).map_err(|error| match error {
            FileError::Empty(_) => OpeningsError::Empty {
                what: path.display().to_string(),
            },
            error => OpeningsError::File(error),
        })?;
    let list = openings::parse_list(&text, Position::start(size)).map_err(|error| {
        OpeningsError::List {
            path: path.to_path_buf(),
            error,
        }
    })?;
    if list.is_empty() {
        return Err(OpeningsError::Empty {
            what: path.display().to_string(),
        });
    }
    Ok(list.into_iter().map(|opening| opening.game).collect())
}

/// The distinct `plies`-move prefixes of the WTHOR games of `dir` that do
/// not end the game, in file order.
fn wthor_prefixes(dir: &Path, plies: u32) -> Result<Vec<Game>, OpeningsError> {
    let paths =
        crate::formats::files_with_extension(dir, "wtb").map_err(|error| OpeningsError::Io {
            path: dir.to_path_buf(),
            error,
        })?;
    let mut seen = HashSet::new();
    let mut games = Vec::new();
    let mut unreadable = 0usize;
    for path in &paths {
        let damaged = |error| OpeningsError::Wthor {
            path: path.clone(),
            error,
        };
        let file = wthor::parse_wtb(&wthor::read_file(path).map_err(damaged)?).map_err(damaged)?;
        for record in &file.games {
            let Ok(mut game) = record.replay() else {
                unreadable += 1;
                continue;
            };
            if game.moves().len() <= plies as usize {
                continue;
            }
            game.truncate(plies as usize);
            if !game.is_over() && seen.insert(game.position()) {
                games.push(game);
            }
        }
    }
    if unreadable > 0 {
        log::warn!(
            "{unreadable} WTHOR games of {} do not replay",
            dir.display()
        );
    }
    if games.is_empty() {
        return Err(OpeningsError::Empty {
            what: format!("the .wtb files of {}", dir.display()),
        });
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_moves_are_played_after_the_opening() {
        for size in BoardSize::ALL {
            let book =
                OpeningBook::new(&OpeningSource::Start, size, MoveCount::exactly(3), 1).unwrap();
            let mut rng = StdRng::seed_from_u64(5);
            let game = book.start(0, &mut rng);
            let placed = game.moves().iter().filter(|m| !m.is_pass()).count();
            assert_eq!(placed, 3, "{size}");
            let again = book.start(0, &mut StdRng::seed_from_u64(5));
            assert_eq!(again, game);
        }
    }

    #[test]
    fn a_range_of_random_moves_draws_each_count() {
        let range: MoveCount = "2-5".parse().unwrap();
        let book = OpeningBook::new(&OpeningSource::Start, BoardSize::Eight, range, 1).unwrap();
        let mut seen = HashSet::new();
        for index in 0..200 {
            let mut rng = StdRng::seed_from_u64(index);
            let placed = book.start(0, &mut rng).moves().len();
            assert!((2..=5).contains(&placed), "{placed}");
            seen.insert(placed);
        }
        assert_eq!(seen.len(), 4, "every count from 2 to 5 is drawn");
        assert_eq!("7".parse::<MoveCount>(), Ok(MoveCount::exactly(7)));
        for bad in ["5-2", "x", "1-", "-3", "0-61", ""] {
            assert!(bad.parse::<MoveCount>().is_err(), "{bad}");
        }
    }

    #[test]
    fn missing_files_are_errors() {
        let missing = PathBuf::from("/nonexistent/openings.txt");
        let error = OpeningBook::new(
            &OpeningSource::List(missing.clone()),
            BoardSize::Eight,
            MoveCount::exactly(0),
            1,
        )
        .unwrap_err();
        assert!(error.to_string().contains("/nonexistent/openings.txt"));
        let wthor = OpeningSource::Wthor {
            dir: missing,
            plies: 10,
        };
        assert!(OpeningBook::new(&wthor, BoardSize::Eight, MoveCount::exactly(0), 1).is_err());
        assert!(matches!(
            OpeningBook::new(&wthor, BoardSize::Six, MoveCount::exactly(0), 1),
            Err(OpeningsError::WthorSize(BoardSize::Six))
        ));
    }

    #[test]
    #[cfg_attr(
        not(shared_data),
        ignore = "needs ../shared (WTHOR, XOT, FFO): skipped"
    )]
    fn wthor_prefixes_are_distinct() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/games/wthor");
        let file = dir.join("WTH_1980.wtb");
        let tmp = std::env::temp_dir().join(format!("oxello-wthor-{}", std::process::id()));
        std::fs::create_dir_all(&tmp).unwrap();
        std::fs::copy(&file, tmp.join("WTH_1980.wtb")).unwrap();
        let source = OpeningSource::Wthor {
            dir: tmp.clone(),
            plies: 12,
        };
        let book = OpeningBook::new(&source, BoardSize::Eight, MoveCount::exactly(0), 1);
        std::fs::remove_dir_all(&tmp).unwrap();
        let book = book.unwrap();
        assert!(book.len() > 10);
        let positions: HashSet<Position> = book.games.iter().map(Game::position).collect();
        assert_eq!(positions.len(), book.len());
        assert!(book.games.iter().all(|g| g.moves().len() == 12));
    }
}
