//! Othello matches: the openings (XOT-style transcripts from the standard
//! start), the [`super::referee`], the engines (in-process, NBoard,
//! GTP) and the GGF match file.

use crate::arena::contestant::{Contestant, Fault, Othello};
use crate::arena::game::{MatchGame, MatchRecord, PlayedGame, RecordSummary};
use crate::arena::gtp::{GtpClient, PassStyle};
use crate::arena::local::LocalEngine;
use crate::arena::nboard::NboardClient;
use crate::arena::referee::{self, RefereeSettings, TimeControl};
use crate::arena::spec::{EngineKind, EngineSpec, Protocol};
use crate::formats::ggf::{self, GgfGame};
use crate::formats::openings::Opening;
use crate::game::Game;
use std::cmp::Ordering;
use std::time::Duration;

/// An Othello match's own settings.
#[derive(Clone, Debug)]
pub struct OthelloMatch {
    /// The openings, from the standard start; empty for the start alone.
    pub openings: Vec<Opening>,
    /// Depth, clock, grace and move timeout.
    pub referee: RefereeSettings,
    /// Table size of in-process engines, MiB.
    pub hash_mib: usize,
    /// Search threads of each in-process engine: 1 unless told otherwise,
    /// so that concurrent games do not oversubscribe the cores.
    pub threads: usize,
    /// How passes are sent to GTP engines.
    pub gtp_passes: PassStyle,
}

impl Default for OthelloMatch {
    /// The standard start, no clock, a grace of 1 s, 60 s at most per move.
    fn default() -> Self {
        OthelloMatch {
            openings: Vec::new(),
            referee: RefereeSettings {
                depth: None,
                time: TimeControl::Unlimited,
                grace: Duration::from_secs(1),
                move_timeout: Duration::from_secs(60),
            },
            hash_mib: 16,
            threads: 1,
            gtp_passes: PassStyle::Explicit,
        }
    }
}

impl MatchGame for OthelloMatch {
    type Record = GgfGame;
    type Player = Box<dyn Contestant<Othello>>;

    fn openings(&self) -> usize {
        self.openings.len()
    }

    fn opening_text(&self, index: usize) -> String {
        self.openings
            .get(index)
            .map(|opening| crate::formats::transcript::format_game(&opening.game))
            .unwrap_or_default()
    }

    fn describe(&self) -> String {
        let depth = self
            .referee
            .depth
            .map_or(String::new(), |d| format!(", depth {d}"));
        format!("{}{depth}", self.referee.time.describe())
    }

    fn check_engine(&self, spec: &EngineSpec) -> Result<(), String> {
        if !spec.info.is_empty() {
            return Err(format!(
                "{}: INFO settings are for gomoku engines (Gomocup)",
                spec.name
            ));
        }
        match &spec.kind {
            EngineKind::Command(command) if command.protocol == Protocol::Gomocup => Err(format!(
                "{} speaks the Gomocup protocol, a gomoku protocol: play it with --game gomoku",
                spec.name
            )),
            _ => Ok(()),
        }
    }

    fn player(&self, spec: &EngineSpec, startup_timeout: Duration) -> Result<Self::Player, Fault> {
        self.check_engine(spec).map_err(Fault::crash)?;
        Ok(match &spec.kind {
            EngineKind::Local { player, depth } => Box::new(LocalEngine::new(
                &spec.name,
                *player,
                *depth,
                self.hash_mib,
                self.threads,
            )),
            EngineKind::Command(command) => match command.protocol {
                Protocol::Gtp => Box::new(GtpClient::new(
                    &spec.name,
                    command.clone(),
                    self.gtp_passes,
                    startup_timeout,
                )),
                Protocol::Nboard => Box::new(NboardClient::new(
                    &spec.name,
                    command.clone(),
                    startup_timeout,
                )),
                Protocol::Gomocup => unreachable!("refused by check_engine"),
            },
        })
    }

    fn play(
        &self,
        black: &mut Self::Player,
        white: &mut Self::Player,
        opening: usize,
    ) -> PlayedGame<GgfGame> {
        let opening = self
            .openings
            .get(opening)
            .map_or_else(|| Game::new(crate::BoardSize::Eight), |o| o.game.clone());
        referee::play_game(black.as_mut(), white.as_mut(), &opening, &self.referee)
    }
}

/// The GGF match file: one game per line, the tag in `CO`.
impl MatchRecord for GgfGame {
    fn parse_line(line: &str) -> Option<GgfGame> {
        ggf::parse_one(line.trim()).ok()
    }

    fn to_line(&self) -> String {
        ggf::format_all(std::slice::from_ref(self))
    }

    fn comment(&self) -> &str {
        &self.comment
    }

    fn set_comment(&mut self, comment: String) {
        self.comment = comment;
    }

    fn players(&self) -> [&str; 2] {
        [&self.black_name, &self.white_name]
    }

    /// Black's disc difference, whole as discs are (`+12`, `-30`; a
    /// fractional GGF score keeps one decimal), and how the game ended if
    /// not by two passes.
    fn result_text(&self) -> Option<String> {
        use crate::formats::ggf::ResultFlag;
        self.result.map(|result| {
            let score = if result.score.fract() == 0.0 {
                format!("{:+}", result.score as i64)
            } else {
                format!("{:+.1}", result.score)
            };
            let ending = match result.flag {
                None => "",
                Some(ResultFlag::Resigned) => " (resigned)",
                Some(ResultFlag::Timeout) => " (on time)",
                Some(ResultFlag::MutualScore) => " (agreed)",
                Some(ResultFlag::Adjourned) => " (adjourned)",
            };
            format!("{score}{ending}")
        })
    }

    /// Discs from the result, Black's disc difference with the empties to
    /// the winner.
    fn summary(&self) -> RecordSummary {
        let black_score = self.result.map_or(0.0, |result| result.score);
        let squares = self.start.size.squares() as f64;
        let black = ((squares + black_score) / 2.0).round().max(0.0) as u32;
        let mut time = [0.0; 2];
        let mut moves = [0; 2];
        for mv in &self.moves {
            if let Some(seconds) = mv.time {
                time[mv.color as usize] += seconds;
                moves[mv.color as usize] += 1;
            }
        }
        RecordSummary {
            black: black_score.partial_cmp(&0.0).unwrap_or(Ordering::Equal),
            discs: Some([black, (squares as u32).saturating_sub(black)]),
            time,
            moves,
        }
    }
}
