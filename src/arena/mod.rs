//! Engine matches: `oxello match` plays games between two engines and says
//! which is stronger, at Othello or (`--game gomoku`) at gomoku.
//!
//! The pieces, one concern each:
//!
//! * [`spec`]: what `--engine` names: oxello in this process (`level:10`,
//!   `depth:6`, `greedy`...) or a command speaking NBoard, GTP or (gomoku)
//!   the Gomocup protocol.
//! * [`game`]: what the runner needs from a game ([`MatchGame`]: engines,
//!   openings, one game refereed; [`MatchRecord`]: the match file's
//!   records), implemented once by [`othello`] and once by [`gomoku`].
//! * [`contestant`]: the [`Lifecycle`](contestant::Lifecycle) of every
//!   engine, the [`Contestant`](contestant::Contestant) trait over a game's
//!   exchange (Othello's move request and reply; gomoku's in
//!   [`gomoku_exchange`]), and the [`Fault`](contestant::Fault)s that lose
//!   a game; implemented for Othello by [`local`] (the
//!   [`Engine`](crate::engine::Engine) facade), [`nboard`] and [`gtp`]
//!   (subprocess clients over [`process`]), for gomoku by [`gomocup`]
//!   clients and oxello's simple players ([`gomoku`]).
//! * [`referee`]: one Othello game: the board, the clocks, forced passes,
//!   checks ([`gomoku`] has gomoku's).
//! * [`schedule`]: which games (openings × colours × rounds).
//! * [`runner`]: worker threads, the match file, stopping rules.
//! * [`record`]: the match file (GGF or SGF), each game tagged for resuming.
//! * [`results`] and [`stats`]: the tally, Elo with its interval, SPRT;
//!   [`merge`]: the tally of several match files (shards).
//!
//! ```text
//! oxello match -e depth:6 -e depth:2 --openings positions/xot-first-50.txt --games 40 -j 2
//! oxello match -e "oxello nboard --level 10" -e "edax -gtp -l 10" --tc 60+1 -o m.ggf
//! oxello match --game gomoku -e "oxello gomocup" -e pbrain-rapfi --rule standard --time 1 -o g.sgf
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
//! Gomoku's limits are Gomocup's (`timeout_turn`, `timeout_match` and
//! `time_left`, `max_memory`): see [`gomoku`] and [`gomocup`].
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
pub mod game;
pub mod gomocup;
pub mod gomoku;
pub mod gomoku_exchange;
pub mod gtp;
pub mod local;
pub mod merge;
pub mod nboard;
pub mod othello;
pub mod process;
pub mod record;
pub mod referee;
pub mod results;
pub mod runner;
pub mod schedule;
pub mod spec;
pub mod stats;

pub use game::{MatchGame, MatchRecord};
pub use gomoku::{GomokuMatch, GomokuSettings};
pub use othello::OthelloMatch;
pub use referee::{RefereeSettings, TimeControl};
pub use results::{GameResult, Tally};
pub use runner::{MatchError, run_match};
pub use schedule::ScheduleOptions;
pub use spec::{EngineSpec, InfoSetting, Protocol};
pub use stats::{Sprt, SprtDecision, Wdl};

use crate::formats::ggf::GgfGame;
use crate::shard::Shard;
use std::path::PathBuf;
use std::time::Duration;

/// Everything a match needs: the engines, the game with its own settings
/// (openings, limits: [`OthelloMatch`] by default, or [`GomokuMatch`]),
/// and how the games are scheduled, run and written.
#[derive(Clone, Debug)]
pub struct MatchConfig<G = OthelloMatch> {
    /// Engine 1 and engine 2 (results are given from engine 1's view).
    pub engines: [EngineSpec; 2],
    /// The game and its settings.
    pub game: G,
    pub schedule: ScheduleOptions,
    /// How long an engine may take to start or to answer a protocol command.
    pub startup_timeout: Duration,
    /// Games played at once.
    pub concurrency: usize,
    /// The match file (GGF for Othello, SGF for gomoku), read back to
    /// resume.
    pub output: Option<PathBuf>,
    /// The slice of the schedule this run plays: game pairs (the two games
    /// of an opening) go to shards in turn. Game numbers stay those of the
    /// whole schedule, so the shards' match files merge into the whole.
    pub shard: Shard,
    /// Stop once this test decides.
    pub sprt: Option<Sprt>,
    /// Play at most this many games in this run (the rest on a rerun).
    pub stop_after: Option<usize>,
    /// Seed of the in-process engines' random choices: each game derives
    /// its own from it and its number, so that the same seed replays the
    /// same games whatever the concurrency or resumption.
    pub seed: u64,
}

impl MatchConfig {
    /// An Othello match between two engines on the standard start, one
    /// game each with Black, no clock, defaults for the rest.
    pub fn new(engines: [EngineSpec; 2]) -> MatchConfig {
        MatchConfig::with_game(engines, OthelloMatch::default())
    }
}

impl<G> MatchConfig<G> {
    /// A match of `game` between two engines, one game each with Black,
    /// defaults for the rest.
    pub fn with_game(engines: [EngineSpec; 2], game: G) -> MatchConfig<G> {
        MatchConfig {
            engines,
            game,
            schedule: ScheduleOptions::default(),
            startup_timeout: Duration::from_secs(10),
            concurrency: 1,
            output: None,
            shard: Shard::WHOLE,
            sprt: None,
            stop_after: None,
            seed: 0,
        }
    }
}

/// What the runner reports as the match goes; `R` is the game's record.
#[derive(Clone, Copy, Debug)]
pub enum MatchEvent<'a, R = GgfGame> {
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
        record: &'a R,
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
