//! What a gomoku match's referee and its engines exchange
//! ([`Gomoku`]): the match settings told before a game, the request for a
//! move and the reply.

use crate::arena::contestant::Exchange;
use crate::gomoku::board::{Board, Point};
use crate::gomoku::rules::Config;
use std::time::Duration;

/// Gomocup's memory limit, 350 MiB (`INFO max_memory 367001600`).
pub const GOMOCUP_MAX_MEMORY: u64 = 350 << 20;

/// The limits and rules of a gomoku match, as the engines are told them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GomokuSettings {
    /// Board and rule (five in a row: the Gomocup protocol has no other n).
    pub config: Config,
    /// `timeout_turn`: time for each move (`Some(0)`: as fast as possible).
    pub turn: Option<Duration>,
    /// `timeout_match`: time for all of an engine's moves in a game.
    pub match_time: Option<Duration>,
    /// Tolerance on top of the turn or match time left.
    pub tolerance: Duration,
    /// Longest wait for a move when neither time is set.
    pub move_timeout: Duration,
    /// `max_memory` in bytes (0: no limit).
    pub max_memory: u64,
    /// `max_depth` (a Yixin extension; oxello and Rapfi read it).
    pub depth: Option<u32>,
    /// `thread_num` (a Yixin extension).
    pub threads: Option<usize>,
}

impl Default for GomokuSettings {
    /// 15x15 freestyle, no time set, a tolerance of 1 s, 60 s at most per
    /// move, Gomocup's 350 MiB.
    fn default() -> Self {
        GomokuSettings {
            config: Config::default(),
            turn: None,
            match_time: None,
            tolerance: Duration::from_secs(1),
            move_timeout: Duration::from_secs(60),
            max_memory: GOMOCUP_MAX_MEMORY,
            depth: None,
            threads: None,
        }
    }
}

impl GomokuSettings {
    /// The match time left after `used`, and how long the next move may
    /// take.
    pub fn allowance(&self, used: Duration) -> (Option<Duration>, Duration) {
        let left = self.match_time.map(|time| time.saturating_sub(used));
        let limit = match (self.turn, left) {
            (Some(turn), Some(left)) => Some(turn.min(left)),
            (turn, left) => turn.or(left),
        };
        (
            left,
            limit.map_or(self.move_timeout, |limit| limit + self.tolerance),
        )
    }

    /// `15x15 standard, 1 s per move, 60 s per game, 350 MiB`.
    pub fn describe(&self) -> String {
        let config = self.config;
        let mut text = format!("{}x{} {}", config.width, config.height, config.rule);
        let seconds = |time: Duration| time.as_secs_f64();
        match (self.turn, self.match_time) {
            (None, None) => text.push_str(", no time limit"),
            (turn, game) => {
                if let Some(turn) = turn {
                    text.push_str(&format!(", {} s per move", seconds(turn)));
                }
                if let Some(game) = game {
                    text.push_str(&format!(", {} s per game", seconds(game)));
                }
            }
        }
        if self.max_memory > 0 {
            text.push_str(&format!(", {} MiB", self.max_memory >> 20));
        }
        if let Some(depth) = self.depth {
            text.push_str(&format!(", depth {depth}"));
        }
        text
    }
}

/// What a gomoku engine is asked for a move.
pub struct GomokuRequest<'a> {
    /// The game so far (its history holds every stone in order, the
    /// opening's included); the engine's colour is the side to move.
    pub board: &'a Board,
    /// The engine's match time left (`None`: untimed).
    pub time_left: Option<Duration>,
    /// How long the move may take.
    pub allowance: Duration,
}

/// An engine's move and how long its turn took.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GomokuReply {
    pub point: Point,
    pub elapsed: Duration,
}

/// Gomoku's exchange: [`GomokuSettings`], [`GomokuRequest`],
/// [`GomokuReply`].
#[derive(Clone, Copy, Debug)]
pub struct Gomoku;

impl Exchange for Gomoku {
    type Setup = GomokuSettings;
    type Request<'a> = GomokuRequest<'a>;
    type Reply = GomokuReply;
}
