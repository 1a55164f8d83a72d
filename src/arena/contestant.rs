//! What the referee asks of an engine, whatever runs it: the
//! [`Lifecycle`] every engine of either game has (start, restart, seed),
//! the [`Contestant`] trait over a game's [`Exchange`] (Othello's move
//! request and reply are here; gomoku's in [`super::gomoku_exchange`]), and
//! the faults that lose a game.

use crate::color::Color;
use crate::formats::ggf::GgfGame;
use crate::formats::transcript::Token;
use crate::game::Game;
use std::fmt;
use std::time::{Duration, Instant};

/// The kinds of fault that lose a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FaultKind {
    /// A move that is not legal in the position.
    IllegalMove,
    /// The process died, closed its output or could not be started.
    Crash,
    /// No reply within the time allowed (clock or move limit plus grace).
    Timeout,
    /// A reply that cannot be read, or a refused command.
    BadOutput,
    /// The engine resigned (GTP `resign`).
    Resigned,
}

impl FaultKind {
    /// Every kind, in report order.
    pub const ALL: [FaultKind; 5] = [
        FaultKind::IllegalMove,
        FaultKind::Crash,
        FaultKind::Timeout,
        FaultKind::BadOutput,
        FaultKind::Resigned,
    ];

    /// Short name for reports and game comments.
    pub const fn name(self) -> &'static str {
        match self {
            FaultKind::IllegalMove => "illegal move",
            FaultKind::Crash => "crash",
            FaultKind::Timeout => "time-out",
            FaultKind::BadOutput => "bad output",
            FaultKind::Resigned => "resigned",
        }
    }

    /// `count` faults of this kind: `1 crash`, `2 time-outs`.
    pub fn count(self, count: u32) -> String {
        let many = match self {
            FaultKind::IllegalMove => "illegal moves",
            FaultKind::Crash => "crashes",
            FaultKind::Timeout => "time-outs",
            FaultKind::BadOutput => "bad outputs",
            FaultKind::Resigned => "resignations",
        };
        let one = match self {
            FaultKind::Resigned => "resignation",
            _ => self.name(),
        };
        crate::arena::results::count(count, one, many)
    }

    /// One-word name for the match file: `illegal-move`, `crash`,
    /// `timeout`, `bad-output`, `resigned`.
    pub const fn slug(self) -> &'static str {
        match self {
            FaultKind::IllegalMove => "illegal-move",
            FaultKind::Crash => "crash",
            FaultKind::Timeout => "timeout",
            FaultKind::BadOutput => "bad-output",
            FaultKind::Resigned => "resigned",
        }
    }

    /// Reads [`FaultKind::slug`] back.
    pub fn from_slug(slug: &str) -> Option<FaultKind> {
        FaultKind::ALL.into_iter().find(|kind| kind.slug() == slug)
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A fault: its kind and what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    pub detail: String,
}

impl Fault {
    pub fn new(kind: FaultKind, detail: impl Into<String>) -> Fault {
        Fault {
            kind,
            detail: detail.into(),
        }
    }

    pub fn crash(detail: impl Into<String>) -> Fault {
        Fault::new(FaultKind::Crash, detail)
    }

    pub fn bad_output(detail: impl Into<String>) -> Fault {
        Fault::new(FaultKind::BadOutput, detail)
    }

    pub fn timeout(waited: Duration) -> Fault {
        Fault::new(
            FaultKind::Timeout,
            format!("no reply in {:.2} s", waited.as_secs_f64()),
        )
    }

    /// The time-out of a move that came, but after its `allowance`.
    pub fn late(elapsed: Duration, allowance: Duration) -> Fault {
        Fault::new(
            FaultKind::Timeout,
            format!(
                "answered after {:.3} s, {:.3} s allowed",
                elapsed.as_secs_f64(),
                allowance.as_secs_f64()
            ),
        )
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.detail)
    }
}

impl std::error::Error for Fault {}

/// A game lost by a fault: who lost it, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    pub loser: Color,
    pub fault: Fault,
}

/// What a match runner does with an engine of either game, besides asking
/// it for moves: start it, replace it after a fault, seed it.
/// Implementations keep their process (or in-process engine) across games.
pub trait Lifecycle: Send {
    /// Display name.
    fn name(&self) -> &str;

    /// Makes sure the engine runs and is ready (starts it the first time).
    fn ensure_started(&mut self) -> Result<(), Fault>;

    /// Throws the engine away and starts a fresh one (after a fault).
    fn restart(&mut self) -> Result<(), Fault>;

    /// Seeds the random choices of the next game, for engines that make
    /// any and can be told (oxello's in-process players); others ignore it.
    fn set_seed(&mut self, seed: u64) {
        let _ = seed;
    }
}

impl<T: Lifecycle + ?Sized> Lifecycle for Box<T> {
    fn name(&self) -> &str {
        (**self).name()
    }

    fn ensure_started(&mut self) -> Result<(), Fault> {
        (**self).ensure_started()
    }

    fn restart(&mut self) -> Result<(), Fault> {
        (**self).restart()
    }

    fn set_seed(&mut self, seed: u64) {
        (**self).set_seed(seed)
    }
}

/// A game clock as the referee keeps it for one side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SideClock {
    /// Main time left.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

/// How long an engine may think about one move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MoveTime {
    /// No time limit (depth-limited play); the referee still waits at most
    /// its move timeout.
    Unlimited,
    /// This much for every move.
    PerMove(Duration),
    /// A game clock.
    Clock(SideClock),
}

/// Everything an engine needs to choose the next move.
pub struct MoveRequest<'a> {
    /// The game so far, every pass explicit; the side to move has a legal
    /// placement.
    pub game: &'a Game,
    /// The record so far as the engine should see it (names, clock tag,
    /// moves with eval and time): what NBoard's `set game` sends.
    pub record: &'a GgfGame,
    /// Fixed midgame depth for this match, if any.
    pub depth: Option<u32>,
    pub time: MoveTime,
    /// The referee gives up waiting at this instant.
    pub deadline: Instant,
}

/// An engine's answer: the move as it named it and its eval (discs, from
/// its own point of view) when it gave one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reply {
    pub token: Token,
    pub eval: Option<f64>,
}

/// The match settings an engine is told before a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameSetup {
    pub depth: Option<u32>,
    /// The game clock both sides start with, or the time per move.
    pub time: MoveTime,
}

/// What a game's referee and its engines exchange.
pub trait Exchange {
    /// The match settings an engine is told before a game.
    type Setup;
    /// Everything an engine needs to choose the next move.
    type Request<'a>;
    /// An engine's move.
    type Reply;
}

/// One engine as the referee of the game `G` sees it.
pub trait Contestant<G: Exchange>: Lifecycle {
    /// Prepares for a new game with these settings.
    fn new_game(&mut self, setup: &G::Setup) -> Result<(), Fault>;

    /// Chooses the next move; the engine is told the moves it has not seen
    /// yet first (the opponent's, passes included).
    fn choose(&mut self, request: &G::Request<'_>) -> Result<G::Reply, Fault>;
}

/// Othello's exchange: [`GameSetup`], [`MoveRequest`], [`Reply`].
#[derive(Clone, Copy, Debug)]
pub struct Othello;

impl Exchange for Othello {
    type Setup = GameSetup;
    type Request<'a> = MoveRequest<'a>;
    type Reply = Reply;
}
