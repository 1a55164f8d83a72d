//! The referee: plays one game between two contestants from an opening,
//! keeps the authoritative board and clocks, checks every move, and ends the
//! game on a fault.
//!
//! * Forced passes are played by the referee itself (no engine is asked) and
//!   recorded as `PA`; every engine learns of them with the next moves it is
//!   sent. As in GGS, a pass is a move: the passer's clock gets the
//!   increment.
//! * Time: a move is in time when the engine answered within its allowance:
//!   the clock's remaining time plus the grace, the time per move plus the
//!   grace, or the move timeout in depth-limited play. The clock is then
//!   charged the time used (never below zero) and credited the increment.
//!   Times are measured by the referee around the whole exchange and rounded
//!   to the millisecond; they are what the records show.
//! * A fault (illegal move, crash, time-out, bad output, resignation) loses
//!   the game: the result is ±64 from Black's view with the GGF flag `:t`
//!   for a time-out and `:r` otherwise.

use crate::arena::contestant::{
    Contestant, Fault, FaultKind, Forfeit, GameSetup, MoveRequest, MoveTime, Othello, SideClock,
};
use crate::arena::game::PlayedGame;
use crate::color::Color;
use crate::formats::ggf::{GgfClock, GgfGame, GgfMove, GgfResult, ResultFlag};
use crate::formats::transcript::Token;
use crate::game::Game;
use crate::moves::Move;
use std::time::{Duration, Instant};

/// The time limit of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum TimeControl {
    /// No clock (depth-limited or the engines' own settings).
    #[default]
    Unlimited,
    /// The same time for every move.
    PerMove(Duration),
    /// A game clock: main time and increment per move.
    Game { main: Duration, increment: Duration },
}

impl TimeControl {
    /// Reads `MAIN[+INC]` in seconds or `M:SS` (`60+0.5`, `5:00`, `1:30+2`).
    pub fn parse_clock(text: &str) -> Option<TimeControl> {
        let (main, increment) = match text.split_once('+') {
            Some((main, increment)) => (main, increment),
            None => (text, "0"),
        };
        let main = GgfClock::parse(main.trim())?.main;
        let increment = GgfClock::parse(increment.trim())?.main;
        let valid = |x: f64| x.is_finite() && (0.0..1e7).contains(&x);
        (valid(main) && valid(increment) && main > 0.0).then(|| TimeControl::Game {
            main: Duration::from_secs_f64(main),
            increment: Duration::from_secs_f64(increment),
        })
    }

    /// The `TI` tag of the records: the clock with its grace, untimed for
    /// other controls.
    pub fn ggf_clock(&self, grace: Duration) -> GgfClock {
        match *self {
            TimeControl::Game { main, increment } => GgfClock {
                main: main.as_secs_f64(),
                increment: increment.as_secs_f64(),
                grace: Some(grace.as_secs_f64()),
            },
            _ => GgfClock::default(),
        }
    }

    /// Short description: `depth`, `0.5 s/move`, `60+0.5 s`.
    pub fn describe(&self) -> String {
        match *self {
            TimeControl::Unlimited => "no clock".to_string(),
            TimeControl::PerMove(time) => format!("{} s per move", time.as_secs_f64()),
            TimeControl::Game { main, increment } => format!(
                "{}+{} s per game",
                main.as_secs_f64(),
                increment.as_secs_f64()
            ),
        }
    }
}

/// What bounds the moves of a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RefereeSettings {
    /// Fixed midgame depth sent to the engines.
    pub depth: Option<u32>,
    pub time: TimeControl,
    /// Tolerance on top of the clock or the time per move.
    pub grace: Duration,
    /// Longest wait for a move without a clock.
    pub move_timeout: Duration,
}

/// How a game ended: Black's disc difference (empties to the winner) when
/// it was played to the end, or the forfeit.
type Ending = Result<i32, Forfeit>;

/// Plays a game from `opening` between `black` and `white`: its record
/// (result and clocks included; no comment) and the forfeit, if any.
pub fn play_game(
    black: &mut dyn Contestant<Othello>,
    white: &mut dyn Contestant<Othello>,
    opening: &Game,
    settings: &RefereeSettings,
) -> PlayedGame<GgfGame> {
    let mut referee = Referee::new(opening, settings, black.name(), white.name());
    let ending = referee.run(black, white);
    referee.finish(ending)
}

struct Referee<'a> {
    settings: &'a RefereeSettings,
    game: Game,
    record: GgfGame,
    /// Black's and White's clocks.
    clocks: [Option<SideClock>; 2],
}

fn index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl<'a> Referee<'a> {
    fn new(opening: &Game, settings: &'a RefereeSettings, black: &str, white: &str) -> Referee<'a> {
        let mut game = Game::from_position(opening.start());
        for &mv in opening.moves() {
            game.play(mv).expect("an opening replays");
        }
        let mut record = GgfGame::from_game(&game).with_players(black, white);
        record.result = None;
        record.place = "oxello match".to_string();
        record.date = crate::arena::record::utc_now();
        record.clock = settings.time.ggf_clock(settings.grace);
        let clock = match settings.time {
            TimeControl::Game { main, increment } => Some(SideClock {
                remaining: main,
                increment,
            }),
            _ => None,
        };
        Referee {
            settings,
            game,
            record,
            clocks: [clock; 2],
        }
    }

    fn setup(&self) -> GameSetup {
        GameSetup {
            depth: self.settings.depth,
            time: match self.settings.time {
                TimeControl::Unlimited => MoveTime::Unlimited,
                TimeControl::PerMove(time) => MoveTime::PerMove(time),
                TimeControl::Game { .. } => MoveTime::Clock(self.clocks[0].expect("a clock")),
            },
        }
    }

    fn run(
        &mut self,
        black: &mut dyn Contestant<Othello>,
        white: &mut dyn Contestant<Othello>,
    ) -> Ending {
        let setup = self.setup();
        let forfeit = |loser| move |fault| Forfeit { loser, fault };
        black.new_game(&setup).map_err(forfeit(Color::Black))?;
        white.new_game(&setup).map_err(forfeit(Color::White))?;
        loop {
            let position = self.game.position();
            if position.is_game_over() {
                return Ok(position.final_score_black());
            }
            if position.must_pass() {
                self.game.play(Move::Pass).expect("a forced pass is legal");
                self.record
                    .moves
                    .push(GgfMove::new(position.side, Token::Pass));
                // A pass is a move: the clock gets its increment (GGS).
                if let Some(clock) = self.clocks[index(position.side)].as_mut() {
                    clock.remaining += clock.increment;
                }
                continue;
            }
            let player: &mut dyn Contestant<Othello> = match position.side {
                Color::Black => &mut *black,
                Color::White => &mut *white,
            };
            self.one_move(player).map_err(|fault| Forfeit {
                loser: position.side,
                fault,
            })?;
        }
    }

    /// The record as the engine to move should see it: per-move limits are
    /// sent as a clock holding just this move's time, with no move times.
    fn view(&self) -> GgfGame {
        let mut view = self.record.clone();
        if let TimeControl::PerMove(time) = self.settings.time {
            view.clock = GgfClock::new(time.as_secs_f64());
            for mv in &mut view.moves {
                mv.time = None;
            }
        }
        view
    }

    /// Asks for one move, checks it and plays it.
    fn one_move(&mut self, player: &mut dyn Contestant<Othello>) -> Result<(), Fault> {
        let position = self.game.position();
        let side = index(position.side);
        let (time, allowance) = match self.settings.time {
            TimeControl::Unlimited => (MoveTime::Unlimited, self.settings.move_timeout),
            TimeControl::PerMove(time) => (MoveTime::PerMove(time), time + self.settings.grace),
            TimeControl::Game { .. } => {
                let clock = self.clocks[side].expect("a clock");
                (
                    MoveTime::Clock(clock),
                    clock.remaining + self.settings.grace,
                )
            }
        };
        let view = self.view();
        let started = Instant::now();
        let request = MoveRequest {
            game: &self.game,
            record: &view,
            depth: self.settings.depth,
            time,
            deadline: started + allowance,
        };
        let reply = player.choose(&request)?;
        let elapsed = Duration::from_millis(started.elapsed().as_millis() as u64);
        if elapsed > allowance {
            return Err(Fault::late(elapsed, allowance));
        }
        let mv = match reply.token {
            Token::Square(square) => position.placement(square).map_err(|_| {
                Fault::new(FaultKind::IllegalMove, format!("{} is not legal", square))
            })?,
            Token::Pass => {
                return Err(Fault::new(
                    FaultKind::IllegalMove,
                    "passed with a legal move",
                ));
            }
        };
        self.game.play(mv).expect("a checked move is legal");
        if let Some(clock) = self.clocks[side].as_mut() {
            clock.remaining = clock.remaining.saturating_sub(elapsed) + clock.increment;
        }
        self.record.moves.push(GgfMove {
            color: position.side,
            token: reply.token,
            eval: reply.eval.map(|eval| (eval * 100.0).round() / 100.0),
            time: Some(elapsed.as_secs_f64()),
        });
        Ok(())
    }

    fn finish(mut self, ending: Ending) -> PlayedGame<GgfGame> {
        self.record.result = Some(match &ending {
            Ok(black_score) => GgfResult {
                score: f64::from(*black_score),
                flag: None,
            },
            Err(Forfeit { loser, fault }) => GgfResult {
                score: match loser {
                    Color::Black => -64.0,
                    Color::White => 64.0,
                },
                flag: Some(match fault.kind {
                    FaultKind::Timeout => ResultFlag::Timeout,
                    _ => ResultFlag::Resigned,
                }),
            },
        });
        PlayedGame {
            record: self.record,
            forfeit: ending.err(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::local::LocalEngine;
    use crate::engine::{Level, Player};
    use crate::players::SimplePlayer;

    #[test]
    fn clock_specifications() {
        assert_eq!(
            TimeControl::parse_clock("60+0.5"),
            Some(TimeControl::Game {
                main: Duration::from_secs(60),
                increment: Duration::from_millis(500)
            })
        );
        assert_eq!(
            TimeControl::parse_clock("1:30"),
            Some(TimeControl::Game {
                main: Duration::from_secs(90),
                increment: Duration::ZERO
            })
        );
        assert_eq!(TimeControl::parse_clock("0"), None);
        assert_eq!(TimeControl::parse_clock("x+1"), None);
    }

    #[test]
    fn a_game_between_local_players_is_recorded() {
        let mut black =
            LocalEngine::new("greedy", Player::Simple(SimplePlayer::Greedy), None, 1, 1);
        let mut white = LocalEngine::new("level:2", Player::Level(Level::new(2)), None, 1, 1);
        let opening =
            crate::formats::transcript::parse_game("f5d6c3", crate::Position::default()).unwrap();
        let settings = RefereeSettings {
            depth: None,
            time: TimeControl::Game {
                main: Duration::from_secs(60),
                increment: Duration::ZERO,
            },
            grace: Duration::from_secs(1),
            move_timeout: Duration::from_secs(60),
        };
        let played = play_game(&mut black, &mut white, &opening, &settings);
        assert_eq!(played.forfeit, None, "no fault expected");
        let game = played.record.to_game().unwrap();
        assert!(game.is_over());
        let black_score = game.final_score_black().unwrap();
        assert_eq!(played.record.result.unwrap().score, f64::from(black_score));
        assert_eq!(played.record.black_name, "greedy");
        assert!(
            played.record.moves[3..]
                .iter()
                .all(|mv| mv.token == Token::Pass || mv.time.is_some())
        );
        assert_eq!(played.record.clock.main, 60.0);
    }
}
