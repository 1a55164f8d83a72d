//! Gomoku matches: Gomocup-protocol engines ([`super::gomocup`]) and
//! oxello's simple players (`greedy`, `random`) in process, from an opening
//! list, under the match's rule, board, turn and match time, refereed here,
//! written as SGF ([`crate::gomoku::sgf`]).
//!
//! # The referee
//!
//! * The opening's stones are on the board before either engine is asked;
//!   each engine is then told the game its first time to move (`BOARD`, or
//!   `BEGIN` on an empty board), and the opponent's moves after that
//!   (`TURN`).
//! * Time: each engine has the turn time (`timeout_turn`) for every move
//!   and the match time (`timeout_match`) for all its moves of the game,
//!   and is told what is left of the latter before each move (`time_left`).
//!   A move must come within the smaller of the two plus the tolerance
//!   (`--grace`, as GomocupJudge does with its tolerance), or within
//!   `--move-timeout` when neither is set. The time counted is the engine's
//!   turn, from the first line sent to it to its move, as the engine's
//!   client measures it.
//! * The game ends with a winning row (per the rule), a renju foul (Black
//!   playing a forbidden point loses at once), a full board (a draw), or a
//!   fault: a move off the board or on an occupied point, no move in time, a
//!   crash or the end of its output, a reply that is no move, or a command
//!   refused (`ERROR`, `UNKNOWN`). A fault loses the game for the engine
//!   that made it; the record says why (`TE`) and the match file's tag
//!   names the fault.

use crate::Color;
use crate::arena::contestant::{Contestant, Fault, FaultKind, Forfeit, Lifecycle};
use crate::arena::game::{MatchGame, MatchRecord, PlayedGame, RecordSummary};
use crate::arena::gomocup::GomocupClient;
pub use crate::arena::gomoku_exchange::{
    GOMOCUP_MAX_MEMORY, Gomoku, GomokuReply, GomokuRequest, GomokuSettings,
};
use crate::arena::spec::{EngineKind, EngineSpec, Protocol};
use crate::engine::Player;
use crate::gomoku::board::{Board, Point, Status};
use crate::gomoku::openings::Opening;
use crate::gomoku::players::GomokuPlayer;
use crate::gomoku::rules::ConfigError;
use crate::gomoku::sgf::{GomokuRecord, RecordMove};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::cmp::Ordering;
use std::time::{Duration, Instant};

/// A gomoku match's own settings.
#[derive(Clone, Debug, PartialEq)]
pub struct GomokuMatch {
    pub settings: GomokuSettings,
    /// The openings; empty for the empty board alone.
    pub openings: Vec<Opening>,
}

impl GomokuMatch {
    /// Checks the configuration (five in a row, sizes, renju on 15x15) and
    /// that every opening is playable on its board.
    pub fn new(settings: GomokuSettings, openings: Vec<Opening>) -> Result<GomokuMatch, String> {
        let config = settings.config.validate().map_err(|e| e.to_string())?;
        if config.n != 5 {
            return Err(ConfigError::N(config.n).to_string() + ": Gomocup engines play five");
        }
        for (index, opening) in openings.iter().enumerate() {
            opening
                .board(config)
                .map_err(|error| format!("opening {}: {error}", index + 1))?;
        }
        Ok(GomokuMatch { settings, openings })
    }
}

/// A simple player in the match process.
pub struct LocalGomoku {
    name: String,
    player: GomokuPlayer,
    rng: StdRng,
}

impl LocalGomoku {
    pub fn new(name: &str, player: GomokuPlayer) -> LocalGomoku {
        LocalGomoku {
            name: name.to_string(),
            player,
            rng: StdRng::seed_from_u64(0),
        }
    }
}

impl Lifecycle for LocalGomoku {
    fn name(&self) -> &str {
        &self.name
    }

    fn ensure_started(&mut self) -> Result<(), Fault> {
        Ok(())
    }

    fn restart(&mut self) -> Result<(), Fault> {
        Ok(())
    }

    fn set_seed(&mut self, seed: u64) {
        self.rng = StdRng::seed_from_u64(seed);
    }
}

impl Contestant<Gomoku> for LocalGomoku {
    fn new_game(&mut self, _settings: &GomokuSettings) -> Result<(), Fault> {
        Ok(())
    }

    fn choose(&mut self, request: &GomokuRequest<'_>) -> Result<GomokuReply, Fault> {
        let started = Instant::now();
        let point = self
            .player
            .choose(request.board, &mut self.rng)
            .ok_or_else(|| Fault::bad_output("no move: the board is full"))?;
        Ok(GomokuReply {
            point,
            elapsed: started.elapsed(),
        })
    }
}

impl MatchGame for GomokuMatch {
    type Record = GomokuRecord;
    type Player = Box<dyn Contestant<Gomoku>>;

    fn openings(&self) -> usize {
        self.openings.len()
    }

    fn opening_text(&self, index: usize) -> String {
        self.openings
            .get(index)
            .map(Opening::text)
            .unwrap_or_default()
    }

    fn describe(&self) -> String {
        self.settings.describe()
    }

    fn check_engine(&self, spec: &EngineSpec) -> Result<(), String> {
        let refused = match &spec.kind {
            EngineKind::Local {
                player: Player::Simple(player),
                ..
            } if GomokuPlayer::from_simple(*player).is_some() && spec.info.is_empty() => {
                return Ok(());
            }
            EngineKind::Local { .. } if !spec.info.is_empty() => {
                "takes no INFO settings (only Gomocup engines do)".to_string()
            }
            EngineKind::Command(command) if command.protocol == Protocol::Gomocup => {
                return Ok(());
            }
            EngineKind::Command(command) => {
                format!("speaks {}, an Othello protocol", command.protocol)
            }
            EngineKind::Local { .. } => "is an Othello player".to_string(),
        };
        Err(format!(
            "{} {refused}: gomoku engines are greedy, random, or commands speaking \
             the Gomocup protocol (\"oxello gomocup\", pbrain-oxello, pbrain-rapfi)",
            spec.name
        ))
    }

    fn player(&self, spec: &EngineSpec, startup_timeout: Duration) -> Result<Self::Player, Fault> {
        self.check_engine(spec).map_err(Fault::crash)?;
        Ok(match &spec.kind {
            EngineKind::Local {
                player: Player::Simple(player),
                ..
            } => match GomokuPlayer::from_simple(*player) {
                Some(player) => Box::new(LocalGomoku::new(&spec.name, player)),
                None => unreachable!("refused by check_engine"),
            },
            EngineKind::Command(command) => Box::new(GomocupClient::new(
                &spec.name,
                command.clone(),
                startup_timeout,
                spec.info.clone(),
            )),
            EngineKind::Local { .. } => unreachable!("refused by check_engine"),
        })
    }

    fn play(
        &self,
        black: &mut Self::Player,
        white: &mut Self::Player,
        opening: usize,
    ) -> PlayedGame<GomokuRecord> {
        let stones = self
            .openings
            .get(opening)
            .map_or(&[][..], |opening| &opening.moves);
        play_game(black.as_mut(), white.as_mut(), stones, &self.settings)
    }
}

/// Plays a game from the stones of `opening` (checked playable) between
/// `black` and `white`: its record (result included; no comment) and the
/// forfeit, if any.
pub fn play_game(
    black: &mut dyn Contestant<Gomoku>,
    white: &mut dyn Contestant<Gomoku>,
    opening: &[Point],
    settings: &GomokuSettings,
) -> PlayedGame<GomokuRecord> {
    let mut record = GomokuRecord::new(settings.config, black.name(), white.name());
    record.place = "oxello match".to_string();
    record.date = crate::arena::record::utc_now()
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string();
    let mut board = Board::new(settings.config).expect("a validated configuration");
    for &point in opening {
        record.moves.push(RecordMove {
            color: board.to_move(),
            point,
            time_ms: None,
        });
        board
            .play(point)
            .expect("an opening checked by GomokuMatch::new");
    }
    let ending = run(black, white, &mut board, &mut record, settings);
    (record.result, record.reason) = match &ending {
        Ok(status) => (*status, reason(*status, &board)),
        Err(Forfeit { loser, fault }) => (
            Status::Won(loser.opponent()),
            format!("{} forfeits: {fault}", loser.name()),
        ),
    };
    PlayedGame {
        record,
        forfeit: ending.err(),
    }
}

/// Plays the game out: the final status, or the forfeit.
fn run(
    black: &mut dyn Contestant<Gomoku>,
    white: &mut dyn Contestant<Gomoku>,
    board: &mut Board,
    record: &mut GomokuRecord,
    settings: &GomokuSettings,
) -> Result<Status, Forfeit> {
    let forfeit = |loser| move |fault| Forfeit { loser, fault };
    black.new_game(settings).map_err(forfeit(Color::Black))?;
    white.new_game(settings).map_err(forfeit(Color::White))?;
    let mut used = [Duration::ZERO; 2];
    let mut status = board.status();
    while status == Status::Ongoing {
        let side = board.to_move();
        let player: &mut dyn Contestant<Gomoku> = match side {
            Color::Black => &mut *black,
            Color::White => &mut *white,
        };
        let (time_left, allowance) = settings.allowance(used[side as usize]);
        let request = GomokuRequest {
            board,
            time_left,
            allowance,
        };
        let reply = player.choose(&request).map_err(forfeit(side))?;
        // Times to the millisecond, as the record keeps them.
        let elapsed = Duration::from_millis(reply.elapsed.as_millis() as u64);
        if elapsed > allowance {
            return Err(forfeit(side)(Fault::late(elapsed, allowance)));
        }
        status = board.play(reply.point).map_err(|error| {
            forfeit(side)(Fault::new(FaultKind::IllegalMove, error.to_string()))
        })?;
        used[side as usize] += elapsed;
        record.moves.push(RecordMove {
            color: side,
            point: reply.point,
            time_ms: Some(elapsed.as_millis() as u64),
        });
    }
    Ok(status)
}

/// Why a game played to the end ended.
fn reason(status: Status, board: &Board) -> String {
    let last = board.last_move().and_then(|index| board.stone_at(index));
    match status {
        Status::Won(winner) if last == Some(winner) => {
            format!("{} made five in a row", winner.name())
        }
        Status::Won(_) => "black played a forbidden point".to_string(),
        Status::Draw => "the board is full".to_string(),
        Status::Ongoing => "unfinished".to_string(),
    }
}

/// The SGF match file: one game per line, the tag in `GC`.
impl MatchRecord for GomokuRecord {
    fn parse_line(line: &str) -> Option<GomokuRecord> {
        GomokuRecord::parse(line).ok()
    }

    fn to_line(&self) -> String {
        format!("{self}\n")
    }

    fn comment(&self) -> &str {
        &self.comment
    }

    fn set_comment(&mut self, comment: String) {
        self.comment = comment;
    }

    fn players(&self) -> [&str; 2] {
        [&self.black, &self.white]
    }

    fn result_text(&self) -> Option<String> {
        let value = self.result_value()?;
        Some(if self.reason.is_empty() {
            value.to_string()
        } else {
            format!("{value} ({})", self.reason)
        })
    }

    fn summary(&self) -> RecordSummary {
        let mut time = [0.0; 2];
        let mut moves = [0; 2];
        for mv in &self.moves {
            if let Some(ms) = mv.time_ms {
                time[mv.color as usize] += ms as f64 / 1000.0;
                moves[mv.color as usize] += 1;
            }
        }
        RecordSummary {
            black: match self.result {
                Status::Won(Color::Black) => Ordering::Greater,
                Status::Won(Color::White) => Ordering::Less,
                Status::Draw | Status::Ongoing => Ordering::Equal,
            },
            discs: None,
            time,
            moves,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::rules::{Config, Rule};

    fn local(name: &str, player: GomokuPlayer) -> LocalGomoku {
        LocalGomoku::new(name, player)
    }

    #[test]
    fn allowances() {
        let second = Duration::from_secs(1);
        let settings = GomokuSettings {
            turn: Some(2 * second),
            match_time: Some(10 * second),
            ..GomokuSettings::default()
        };
        assert_eq!(
            settings.allowance(Duration::ZERO),
            (Some(10 * second), 3 * second)
        );
        assert_eq!(settings.allowance(9 * second), (Some(second), 2 * second));
        assert_eq!(
            settings.allowance(12 * second),
            (Some(Duration::ZERO), second)
        );
        let untimed = GomokuSettings::default();
        assert_eq!(untimed.allowance(second), (None, 60 * second));
        assert_eq!(
            settings.describe(),
            "15x15 freestyle, 2 s per move, 10 s per game, 350 MiB"
        );
    }

    #[test]
    fn greedy_beats_random_from_an_opening() {
        let settings = GomokuSettings {
            config: Config {
                rule: Rule::Standard,
                ..Config::default()
            },
            ..GomokuSettings::default()
        };
        let opening = [Point::new(7, 7), Point::new(8, 7), Point::new(8, 10)];
        let mut greedy = local("greedy", GomokuPlayer::Greedy);
        let mut random = local("random", GomokuPlayer::Random);
        random.set_seed(5);
        let played = play_game(&mut random, &mut greedy, &opening, &settings);
        assert_eq!(played.forfeit, None);
        let record = played.record;
        assert_eq!(record.result, Status::Won(Color::White), "{record}");
        assert_eq!(record.reason, "white made five in a row");
        assert_eq!(record.moves.len() % 2, 0);
        assert!(record.moves[..3].iter().all(|mv| mv.time_ms.is_none()));
        assert!(record.moves[3..].iter().all(|mv| mv.time_ms.is_some()));
        assert_eq!(record.black, "random");
        // The record replays to the same end.
        let mut board = Board::new(settings.config).unwrap();
        let mut status = Status::Ongoing;
        for mv in &record.moves {
            assert_eq!(board.to_move(), mv.color);
            status = board.play(mv.point).unwrap();
        }
        assert_eq!(status, record.result);
        assert_eq!(GomokuRecord::parse(&record.to_string()), Ok(record));
    }

    #[test]
    fn settings_and_engines_are_checked() {
        let settings = GomokuSettings::default();
        let bad_opening = Opening {
            moves: vec![Point::new(7, 7), Point::new(7, 7)],
        };
        let error = GomokuMatch::new(settings, vec![bad_opening]).unwrap_err();
        assert!(error.contains("opening 1"), "{error}");
        let six = GomokuSettings {
            config: Config {
                n: 6,
                ..Config::default()
            },
            ..settings
        };
        assert!(GomokuMatch::new(six, Vec::new()).is_err());
        let game = GomokuMatch::new(settings, Vec::new()).unwrap();
        for (text, ok) in [
            ("greedy", true),
            ("random", true),
            ("positional", false),
            ("level:3", false),
            ("oxello gomocup", true),
            ("edax -gtp", false),
        ] {
            let spec = EngineSpec::parse(text, None, None).unwrap();
            assert_eq!(game.check_engine(&spec).is_ok(), ok, "{text}");
        }
    }
}
