//! Engine matches: `oxello match` plays games between two engines and says
//! which is stronger.
//!
//! The pieces, one concern each:
//!
//! * [`spec`]: what `--engine` names: oxello in this process (`level:10`,
//!   `depth:6`, `greedy`...) or a command speaking NBoard or GTP.
//! * [`contestant`]: the [`Contestant`](contestant::Contestant) trait the
//!   referee drives, with the move request, the reply and the
//!   [`Fault`](contestant::Fault)s that lose a game; implemented by
//!   [`local`] (the [`Engine`](crate::engine::Engine) facade), [`nboard`]
//!   and [`gtp`] (subprocess clients over [`process`]).
//! * [`referee`]: one game: the board, the clocks, forced passes, checks.
//! * [`schedule`]: which games (openings × colours × rounds).
//! * [`runner`]: worker threads, the match file, stopping rules.
//! * [`record`]: the GGF match file, each game tagged for resuming.
//! * [`results`] and [`stats`]: the tally, Elo with its interval, SPRT.
//!
//! ```text
//! oxello match -e depth:6 -e depth:2 --openings positions/xot-first-50.txt --games 40 -j 2
//! oxello match -e "oxello nboard --level 10" -e "edax -gtp -l 10" --tc 60+1 -o m.ggf
//! ```
//!
//! # Limits, per protocol
//!
//! | match option | in-process | NBoard | GTP |
//! |---|---|---|---|
//! | `--depth N` | search depth | `set depth N` | not sent (no GTP command) |
//! | `--time T` (per move) | time per move | `set game` with `TI[T]` and no move times, so `T` is left | `time_settings 0 T 1`, then `time_left <c> T 1` |
//! | `--tc M+I` (game clock) | the clock | `set game` with `TI[M/I/grace]` and every move's time | `time_settings M 0 0`, then `time_left <c> <left> 0` |
//!
//! The referee enforces the limit itself: a move must come within the time
//! left (or per move) plus `--grace`, or within `--move-timeout` without a
//! clock.
//!
//! Engines are driven the way strict ones need: one command at a time,
//! waiting for each answer; nothing is sent while an engine thinks; NBoard
//! requests are preceded by `ping N` and answered only after `pong N`; every
//! pass is relayed. A fault (illegal move, crash, no answer in time, bad
//! output) loses the game, not the match: it is recorded with its cause and
//! the engine is restarted for its next game.

pub mod contestant;
pub mod gtp;
pub mod local;
pub mod merge;
pub mod nboard;
pub mod process;
pub mod record;
pub mod referee;
pub mod results;
pub mod runner;
pub mod schedule;
pub mod spec;
pub mod stats;

pub use referee::{RefereeSettings, TimeControl};
pub use results::{GameResult, Tally};
pub use runner::{MatchError, run_match};
pub use schedule::ScheduleOptions;
pub use spec::{EngineSpec, Protocol};
pub use stats::{Sprt, SprtDecision, Wdl};

use crate::formats::ggf::GgfGame;
use crate::formats::openings::Opening;
use crate::shard::Shard;
use std::path::PathBuf;
use std::time::Duration;

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Engine 1 and engine 2 (results are given from engine 1's view).
    pub engines: [EngineSpec; 2],
    /// The openings, from the standard start; empty for the start alone.
    pub openings: Vec<Opening>,
    pub schedule: ScheduleOptions,
    /// Depth, clock, grace and move timeout.
    pub referee: RefereeSettings,
    /// How long an engine may take to start or to answer a protocol command.
    pub startup_timeout: Duration,
    /// Games played at once.
    pub concurrency: usize,
    /// The match file (GGF), read back to resume.
    pub output: Option<PathBuf>,
    /// The slice of the schedule this run plays: game pairs (the two games
    /// of an opening) go to shards in turn. Game numbers stay those of the
    /// whole schedule, so the shards' match files merge into the whole.
    pub shard: Shard,
    /// Stop once this test decides.
    pub sprt: Option<Sprt>,
    /// Play at most this many games in this run (the rest on a rerun).
    pub stop_after: Option<usize>,
    /// Table size of in-process engines, MiB.
    pub hash_mib: usize,
    /// Search threads of each in-process engine: 1 unless told otherwise,
    /// so that concurrent games do not oversubscribe the cores.
    pub threads: usize,
    /// How passes are sent to GTP engines.
    pub gtp_passes: gtp::PassStyle,
    /// Seed of the in-process engines' random choices: each game derives
    /// its own from it and its number, so that the same seed replays the
    /// same games whatever the concurrency or resumption.
    pub seed: u64,
}

impl MatchConfig {
    /// A match between two engines on the standard start, one game each
    /// with Black, no clock, defaults for the rest.
    pub fn new(engines: [EngineSpec; 2]) -> MatchConfig {
        MatchConfig {
            engines,
            openings: Vec::new(),
            schedule: ScheduleOptions::default(),
            referee: RefereeSettings {
                depth: None,
                time: TimeControl::Unlimited,
                grace: Duration::from_secs(1),
                move_timeout: Duration::from_secs(60),
            },
            startup_timeout: Duration::from_secs(10),
            concurrency: 1,
            output: None,
            shard: Shard::WHOLE,
            sprt: None,
            stop_after: None,
            hash_mib: 16,
            threads: 1,
            gtp_passes: gtp::PassStyle::Explicit,
            seed: 0,
        }
    }
}

/// What the runner reports as the match goes.
#[derive(Clone, Copy, Debug)]
pub enum MatchEvent<'a> {
    /// `games` of the `total` scheduled games read back from the match file.
    Resumed {
        games: usize,
        tally: &'a Tally,
        total: usize,
    },
    /// Play begins: `to_play` of the `total` scheduled games are left.
    Started { total: usize, to_play: usize },
    /// A game ended and was written.
    GameFinished {
        record: &'a GgfGame,
        result: &'a GameResult,
        tally: &'a Tally,
        total: usize,
    },
}

/// The end of a match.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// All games, resumed ones included.
    pub tally: Tally,
    /// The test, its LLR and decision.
    pub sprt: Option<(Sprt, f64, SprtDecision)>,
    /// Games in the schedule.
    pub scheduled: usize,
    /// Games played in this run.
    pub played: usize,
    /// Whether every scheduled game has been played.
    pub complete: bool,
}
