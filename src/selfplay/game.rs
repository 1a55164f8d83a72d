//! What the shared machinery (the worker threads of [`super::run`], the
//! files and resuming of [`super::output`], the arrays of [`super::npz`])
//! needs from a game's self-play: Othello ([`super::play`]) and gomoku
//! ([`super::gomoku`]) each implement these two traits once.

use super::npz::Sample;
use super::output::Format;
use super::record::RecordError;
use super::settings::Settings;
use crate::core::StopSignal;

/// A training record of some game, as the files hold it.
pub trait TrainingRecord: Sized + Send {
    /// Bytes of a binary record, or `None` when the game has no binary
    /// format.
    const BINARY_LEN: Option<usize>;

    /// The game's index in the run (the same in every shard).
    fn game(&self) -> u32;
    /// This record's place among its game's records, from 0.
    fn index(&self) -> usize;
    /// Records in the game.
    fn records(&self) -> usize;
    /// Appends the record in `format` (a JSON line with its newline, or one
    /// binary record). The npz format journals its records as JSON lines.
    fn encode(&self, format: Format, out: &mut Vec<u8>);
    /// Reads and checks one record: a line without its newline, or the
    /// bytes of one binary record.
    fn decode(format: Format, bytes: &[u8]) -> Result<Self, RecordError>;
    /// The record as an AlphaZero sample; `previous` is the record just
    /// before it in the same game, if any.
    fn sample(&self, previous: Option<&Self>) -> Sample;
}

/// One game's self-play: how a worker plays a game of the run.
pub trait SelfplayGame: Sync {
    type Record: TrainingRecord;
    /// What a worker keeps from game to game (its search and table).
    type Searcher;

    /// A worker's searcher.
    fn searcher(&self) -> Self::Searcher;
    /// Plays game `index` of the run to the end; `None` when `stop` ended
    /// it early. Depends only on `index` and the run's seed and options.
    fn play(
        &self,
        index: u32,
        searcher: &mut Self::Searcher,
        stop: &StopSignal,
    ) -> Option<Vec<Self::Record>>;
    /// Whether a record found in an output being resumed can be one of this
    /// run's (its board size, rule...), besides its game index.
    fn belongs(&self, record: &Self::Record) -> Result<(), String>;
    /// The settings that decide what the games are (see
    /// [`super::settings`]): a file resumes only under the same.
    fn settings(&self) -> Settings;
}
