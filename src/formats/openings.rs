//! Opening lists: one transcript per line, as the XOT lists are shipped.
//!
//! ```text
//! # XOT small list
//! f5d6c4d3c2b3b4b5
//! f5f6d3c5d6c7b5e3   # a comment
//! ```
//!
//! Text after `#` is a comment; blank and comment-only lines are skipped.
//! Every other line is a transcript (see
//! [`transcript`]) replayed from a start position
//! given by the caller. The writer prints one lower-case transcript per line.

use crate::formats::transcript::{self, TranscriptError};
use crate::game::Game;
use crate::position::Position;
use std::fmt;

/// One opening of a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// 1-based line number in the list.
    pub line: usize,
    /// The transcript as written, comment and surrounding spaces removed.
    pub text: String,
    /// The opening replayed from the list's start position.
    pub game: Game,
}

impl Opening {
    /// The position the opening leads to.
    pub fn position(&self) -> Position {
        self.game.position()
    }
}

/// A line of a list that does not replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningsError {
    /// 1-based line number.
    pub line: usize,
    /// The transcript text of the line.
    pub text: String,
    pub error: TranscriptError,
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {} ('{}'): {}", self.line, self.text, self.error)
    }
}

impl std::error::Error for OpeningsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// Reads a list, replaying every opening from `start`.
pub fn parse_list(text: &str, start: Position) -> Result<Vec<Opening>, OpeningsError> {
    let mut openings = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let moves = line.split_once('#').map_or(line, |(moves, _)| moves).trim();
        if moves.is_empty() {
            continue;
        }
        let game = transcript::parse_game(moves, start).map_err(|error| OpeningsError {
            line: index + 1,
            text: moves.to_string(),
            error,
        })?;
        openings.push(Opening {
            line: index + 1,
            text: moves.to_string(),
            game,
        });
    }
    Ok(openings)
}

/// Writes games as a list: one lower-case transcript per line, passes left
/// out, each line ending with a newline.
pub fn format_list<'a>(games: impl IntoIterator<Item = &'a Game>) -> String {
    games
        .into_iter()
        .map(|game| transcript::format_game(game) + "\n")
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::BoardSize;
    use crate::color::Color;
    use rand::{Rng, SeedableRng};
    use std::path::PathBuf;

    fn start() -> Position {
        Position::start(BoardSize::Eight)
    }

    #[test]
    fn comments_and_blank_lines() {
        let text = "# header\n\nf5d6c4d3c2b3b4b5\n  f5f6d3c5d6c7b5e3   # note\n\t\n# end";
        let openings = parse_list(text, start()).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[0].line, 3);
        assert_eq!(openings[1].line, 4);
        assert_eq!(openings[1].text, "f5f6d3c5d6c7b5e3");
        assert_eq!(openings[1].game.moves().len(), 8);
        let written = format_list(openings.iter().map(|o| &o.game));
        assert_eq!(written, "f5d6c4d3c2b3b4b5\nf5f6d3c5d6c7b5e3\n");
        let again = parse_list(&written, start()).unwrap();
        assert_eq!(again.len(), 2);
        assert_eq!(again[1].game, openings[1].game);
        assert_eq!(parse_list("", start()).unwrap(), Vec::new());
    }

    #[test]
    fn small_boards() {
        let openings = parse_list("c2 b2\n", Position::start(BoardSize::Six)).unwrap();
        assert_eq!(openings[0].position().size, BoardSize::Six);
    }

    #[test]
    fn errors_name_the_line() {
        let error = parse_list("f5d6\n\nf5a1 # bad\n", start()).unwrap_err();
        assert_eq!(error.line, 3);
        assert_eq!(error.text, "f5a1");
        assert!(matches!(
            error.error,
            TranscriptError::Illegal { number: 2, .. }
        ));
        assert!(error.to_string().starts_with("line 3 ('f5a1'): move 2"));
        let error = parse_list("f5\nxyz\n", start()).unwrap_err();
        assert_eq!(error.line, 2);
        assert!(matches!(error.error, TranscriptError::Unreadable { .. }));
    }

    #[test]
    fn random_input_never_panics() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(43);
        let pieces = [
            "f5", "d6", "c3", "d3", "c4", "e6", "f4", "#", "\n", " ", "pa", "zz", "é", "\r\n",
            "1.", "-",
        ];
        for _ in 0..20_000 {
            let len = rng.random_range(0..30);
            let text: String = (0..len)
                .map(|_| pieces[rng.random_range(0..pieces.len())])
                .collect();
            if let Ok(openings) = parse_list(&text, start()) {
                let written = format_list(openings.iter().map(|o| &o.game));
                let again = parse_list(&written, start()).unwrap();
                let positions = |list: &[Opening]| -> Vec<Position> {
                    list.iter()
                        .filter(|o| !o.game.moves().is_empty())
                        .map(Opening::position)
                        .collect()
                };
                assert_eq!(positions(&again), positions(&openings));
            }
        }
    }

    #[test]
    #[cfg_attr(
        not(shared_data),
        ignore = "needs ../shared (WTHOR, XOT, FFO): skipped"
    )]
    fn xot_lists_replay() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/openings");
        let mut total = 0;
        for (name, count) in [("xot-small.txt", 3623), ("xot-large.txt", 10_784)] {
            let text = std::fs::read_to_string(dir.join(name)).unwrap();
            let openings = parse_list(&text, start()).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(openings.len(), count, "{name}");
            for opening in &openings {
                assert_eq!(opening.game.moves().len(), 8, "{name}:{}", opening.line);
                assert!(opening.game.moves().iter().all(|mv| !mv.is_pass()));
                let position = opening.position();
                assert_eq!(position.side, Color::Black);
                assert_eq!(position.empty_count(), 52);
            }
            assert_eq!(format_list(openings.iter().map(|o| &o.game)), text);
            total += openings.len();
        }
        assert_eq!(total, 14_407);
    }
}
