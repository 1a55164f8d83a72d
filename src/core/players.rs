//! The simple players' names, shared by both games: `random`, `greedy` and
//! `positional`, selectable by name like engine levels. Each game says how
//! they move (Othello in [`crate::players`], gomoku in
//! [`crate::gomoku::players`]).

use std::fmt;
use std::str::FromStr;

/// A simple player, by strength: `Random` < `Greedy` < `Positional`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SimplePlayer {
    /// A legal move chosen uniformly at random.
    Random,
    /// The move flipping the most discs; ties to the square nearest the
    /// centre, then to the lowest square index (a1 = 0, b1 = 1, .., h8 = 63).
    Greedy,
    /// Corners first, then safe edges, then inner squares, then C-squares and
    /// last X-squares next to empty corners; within a class, early in the
    /// game the move leaving the opponent fewest moves, late the move
    /// flipping the most discs; then nearest the centre, then lowest index.
    Positional,
}

/// A player name that is not one of `random`, `greedy`, `positional`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePlayerError {
    /// The text that was not a player name.
    pub text: String,
}

impl fmt::Display for ParsePlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown player '{}' (use random, greedy or positional)",
            self.text
        )
    }
}

impl std::error::Error for ParsePlayerError {}

impl SimplePlayer {
    /// Every simple player, weakest first.
    pub const ALL: [SimplePlayer; 3] = [
        SimplePlayer::Random,
        SimplePlayer::Greedy,
        SimplePlayer::Positional,
    ];

    /// The name that [`FromStr`] reads and [`Display`](fmt::Display) writes.
    pub const fn name(self) -> &'static str {
        match self {
            SimplePlayer::Random => "random",
            SimplePlayer::Greedy => "greedy",
            SimplePlayer::Positional => "positional",
        }
    }
}

impl fmt::Display for SimplePlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SimplePlayer {
    type Err = ParsePlayerError;

    /// Reads a player name, in any case, surrounding spaces ignored.
    fn from_str(text: &str) -> Result<SimplePlayer, ParsePlayerError> {
        let name = text.trim();
        SimplePlayer::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| ParsePlayerError {
                text: text.to_string(),
            })
    }
}
