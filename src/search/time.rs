//! Time management: how long to think about one move.
//!
//! A per-move time is used as given. A game clock (main time remaining,
//! increment, optionally moves to go) is shared out over the moves we still
//! expect to play before the solver takes over: about half of the empty
//! squares above [`SOLVED_EMPTIES`] are ours. A new iteration
//! is not started once [`SOFT_FRACTION`] of a per-move time, or
//! [`CLOCK_SOFT_FRACTION`] of a move's share of the clock, is gone, since
//! it would rarely finish; the hard deadline stops the search outright.
//! Under a clock, [`Stability`] stretches or shrinks the soft budget by how
//! settled the best move is.

use crate::square::Square;
use std::time::Duration;

/// Game clock of the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// Main time left.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// Fraction of a per-move time after which no new iteration starts.
pub const SOFT_FRACTION: f64 = 0.5;
/// Under a game clock, fraction of a move's planned share of the clock
/// after which no new iteration starts: the share itself. An iteration
/// started just before it takes about as long again as all the ones before
/// it, so moves take more than their share, the opening moves most. In
/// 6+0.05 s games (level 30, one thread, 200 games against e12e91e), the
/// seconds a move took at 49-52 / 40-43 / 28-31 / 24-27 / 20-23 empties:
/// 0.54 / 0.48 / 0.33 / 0.25 / 0.10, and a game used a median 6.37 s of
/// its 7.3 s.
/// 0.6 was as strong with 12% less time (Elo +3.5 +- 42.5), but the time
/// saved went unused (`docs/trials/othello.md`, "Time management").
pub const CLOCK_SOFT_FRACTION: f64 = 1.0;
/// Time kept back from the clock for communication and process overhead.
pub const SAFETY_MARGIN: Duration = Duration::from_millis(50);
/// Never plan for fewer than this many moves still to play.
pub const MIN_MOVES_LEFT: u32 = 4;
/// The clock is shared over our moves until this many squares are empty:
/// from there the solver finishes the game in a small part of the time.
/// Shared over every move to the end, a 6 s game clock ended with 1.27 s
/// (21%) unused (median of 20 games, one thread, level 30).
pub const SOLVED_EMPTIES: u32 = 16;
/// The hard deadline is at most this multiple of the planned budget...
pub const HARD_MULTIPLE: f64 = 3.0;
/// ...and never more than this fraction of the time left on the clock.
pub const HARD_CLOCK_FRACTION: f64 = 0.4;

/// Iterations shallower than this do not count towards [`Stability`]: their
/// best moves change too often to tell anything.
///
/// The four numbers of [`Stability`] were set together, not tuned one by one.
/// Against the same build without it (800 games, xot-small paired, seed 82,
/// 4+0.05 s game clocks, level 30, one thread each): 351-169-280, 54.4%,
/// Elo +30.9 ± 21.5, using 170.1 against 175.5 ms per move.
pub const STABILITY_MIN_DEPTH: u32 = 6;
/// Under a clock, each recent change of the best move stretches the soft
/// budget by this fraction; the count of changes halves every iteration.
pub const CHANGE_STRETCH: f64 = 0.6;
/// Under a clock, a best move unchanged for [`STABLE_ITERATIONS`] counted
/// iterations shrinks the soft budget to this fraction.
pub const STABLE_SCALE: f64 = 0.7;
/// See [`STABLE_SCALE`].
pub const STABLE_ITERATIONS: u32 = 3;

/// Soft budget (stop deepening) and hard deadline (stop searching).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    pub soft: Duration,
    pub hard: Duration,
    /// Whether the soft budget is a share of a game clock, which
    /// [`Stability`] may stretch or shrink (a per-move time is kept as given).
    pub adaptive: bool,
}

impl Budget {
    /// Time for one move given a fixed time per move.
    pub fn per_move(time: Duration) -> Budget {
        Budget {
            soft: time.mul_f64(SOFT_FRACTION),
            hard: time,
            adaptive: false,
        }
    }

    /// Time for one move from the game clock with `empties` squares empty.
    pub fn from_clock(clock: &Clock, empties: u32) -> Budget {
        let usable = clock.remaining.saturating_sub(SAFETY_MARGIN);
        let moves_left = clock
            .moves_to_go
            .unwrap_or(empties.saturating_sub(SOLVED_EMPTIES).div_ceil(2))
            .max(MIN_MOVES_LEFT);
        let planned = usable / moves_left + clock.increment.mul_f64(0.8);
        let planned = planned.min(usable);
        let hard = planned
            .mul_f64(HARD_MULTIPLE)
            .min(usable.mul_f64(HARD_CLOCK_FRACTION))
            .max(planned);
        Budget {
            soft: planned.mul_f64(CLOCK_SOFT_FRACTION).min(hard),
            hard,
            adaptive: true,
        }
    }

    /// The soft budget scaled by `factor` (only under a clock), never past
    /// the hard deadline.
    pub fn soft_scaled(&self, factor: f64) -> Duration {
        if self.adaptive {
            self.soft.mul_f64(factor).min(self.hard)
        } else {
            self.soft
        }
    }
}

/// How settled the best move of the iterations so far is: a move that keeps
/// changing earns more time, one that has held for several iterations less.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stability {
    best: Option<Square>,
    unchanged: u32,
    changes: f64,
}

impl Stability {
    /// Records the best move (its square, none for a pass) of a finished
    /// iteration of `depth`.
    pub fn update(&mut self, depth: u32, best: Option<Square>) {
        if depth < STABILITY_MIN_DEPTH {
            self.best = best;
            return;
        }
        self.changes *= 0.5;
        if self.best == best {
            self.unchanged += 1;
        } else {
            self.changes += 1.0;
            self.unchanged = 0;
        }
        self.best = best;
    }

    /// The factor for the soft budget.
    pub fn factor(&self) -> f64 {
        let stretch = 1.0 + CHANGE_STRETCH * self.changes;
        if self.unchanged >= STABLE_ITERATIONS {
            stretch * STABLE_SCALE
        } else {
            stretch
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_budget_is_a_share_of_the_clock() {
        let clock = Clock {
            remaining: Duration::from_secs(60),
            increment: Duration::ZERO,
            moves_to_go: None,
        };
        let budget = Budget::from_clock(&clock, 40);
        assert!(budget.hard <= Duration::from_secs(24));
        assert!(budget.soft <= budget.hard);
        assert!(budget.soft >= Duration::from_secs(2));
        let empty = Clock {
            remaining: Duration::from_millis(10),
            increment: Duration::ZERO,
            moves_to_go: None,
        };
        assert_eq!(Budget::from_clock(&empty, 10).hard, Duration::ZERO);
    }

    #[test]
    fn a_changing_best_move_earns_time_and_a_settled_one_less() {
        let mut stability = Stability::default();
        for depth in 1..STABILITY_MIN_DEPTH {
            stability.update(depth, Square::new(depth as u8));
        }
        assert_eq!(stability.factor(), 1.0, "shallow iterations do not count");
        stability.update(STABILITY_MIN_DEPTH, Square::new(40));
        assert!(stability.factor() > 1.5, "{}", stability.factor());
        for depth in STABILITY_MIN_DEPTH + 1..STABILITY_MIN_DEPTH + 4 {
            stability.update(depth, Square::new(40));
        }
        assert!(stability.factor() < 0.8, "{}", stability.factor());
        let clock = Budget::from_clock(
            &Clock {
                remaining: Duration::from_secs(60),
                increment: Duration::ZERO,
                moves_to_go: None,
            },
            40,
        );
        assert!(clock.soft_scaled(0.5) < clock.soft);
        assert_eq!(clock.soft_scaled(100.0), clock.hard);
        let fixed = Budget::per_move(Duration::from_secs(1));
        assert_eq!(fixed.soft_scaled(2.0), fixed.soft);
    }
}
