//! What the match machinery needs from a game: the runner's worker
//! threads, the match file and its resuming ([`super::record`]), the tally
//! ([`super::results`]) and merging ([`super::merge`]) serve Othello
//! ([`super::othello`]) and gomoku ([`super::gomoku`]) alike, through the
//! two traits here.

use crate::arena::contestant::{Fault, Forfeit, Lifecycle};
use crate::arena::spec::EngineSpec;
use std::cmp::Ordering;
use std::time::Duration;

/// A finished game as a match file holds it: one line per game, whose
/// comment carries the game's [`GameTag`](super::record::GameTag).
pub trait MatchRecord: Clone + Send + Sized {
    /// Reads one line of a match file (without its newline); `None` when it
    /// is not a game record of this kind.
    fn parse_line(line: &str) -> Option<Self>;
    /// The record as one line, newline included.
    fn to_line(&self) -> String;
    /// The comment that holds the tag.
    fn comment(&self) -> &str;
    fn set_comment(&mut self, comment: String);
    /// Black's and White's names.
    fn players(&self) -> [&str; 2];
    /// The result for people (`+12` Black's discs ahead, `B+1 (...)`),
    /// `None` while the game is unfinished.
    fn result_text(&self) -> Option<String>;
    /// What the tally counts.
    fn summary(&self) -> RecordSummary;
}

/// A record's figures, by colour (Black first).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RecordSummary {
    /// Black's outcome: `Greater` when Black won.
    pub black: Ordering,
    /// Black's and White's discs at the end (Othello; `None` for games
    /// that count none).
    pub discs: Option<[u32; 2]>,
    /// Thinking time in seconds over the timed moves, and their number.
    pub time: [f64; 2],
    pub moves: [u32; 2],
}

/// A game played: its record (result included; the runner adds the tag)
/// and the fault that ended it, if one did.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame<R> {
    pub record: R,
    pub forfeit: Option<Forfeit>,
}

/// A game the match runner can play: its engines, openings and referee.
pub trait MatchGame: Sync + Sized {
    /// The record of a game in the match file.
    type Record: MatchRecord;
    /// An engine as this game's referee drives it.
    type Player: Lifecycle;

    /// Openings in the list (0: every game starts from the initial
    /// position).
    fn openings(&self) -> usize;

    /// Opening `index` as the match file's tags write it (`f5d6c3`,
    /// `h8i9j7`), empty for none.
    fn opening_text(&self, index: usize) -> String;

    /// The limits for the match header (`5 s per move, depth 8`).
    fn describe(&self) -> String;

    /// Refuses an engine this game cannot play (an Othello player in a
    /// gomoku match, a protocol of the other game), with the reason.
    fn check_engine(&self, spec: &EngineSpec) -> Result<(), String>;

    /// The engine of `spec` (not started yet).
    fn player(&self, spec: &EngineSpec, startup_timeout: Duration) -> Result<Self::Player, Fault>;

    /// Plays one game from opening `opening` (an index into the list; the
    /// initial position when the list is empty).
    fn play(
        &self,
        black: &mut Self::Player,
        white: &mut Self::Player,
        opening: usize,
    ) -> PlayedGame<Self::Record>;
}
