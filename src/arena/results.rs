//! Results: each game's outcome read from its record, the running tally of
//! a match, and the progress line and summary shown to the user.

use crate::arena::contestant::FaultKind;
use crate::arena::game::MatchRecord;
use crate::arena::record::GameTag;
use crate::arena::stats::{self, Sprt, SprtDecision, Wdl};
use std::cmp::Ordering;
use std::fmt::Write as _;

/// One finished game, as the tally needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    pub tag: GameTag,
    /// Engine 1's outcome (`Greater` is a win).
    pub outcome: Ordering,
    /// Final discs of engine 1 and engine 2 (empties to the winner), for an
    /// Othello game played to the end.
    pub discs: Option<[u32; 2]>,
    /// Thinking time in seconds and moves of each engine.
    pub time: [f64; 2],
    pub moves: [u32; 2],
}

impl GameResult {
    /// Reads a finished game's record and tag.
    pub fn from_record(record: &impl MatchRecord, tag: GameTag) -> GameResult {
        let summary = record.summary();
        let black = tag.black;
        let outcome = if tag.black == 0 {
            summary.black
        } else {
            summary.black.reverse()
        };
        GameResult {
            outcome,
            discs: summary
                .discs
                .filter(|_| tag.forfeit.is_none())
                .map(|discs| by_engine(discs, black)),
            time: by_engine(summary.time, black),
            moves: by_engine(summary.moves, black),
            tag,
        }
    }
}

/// A pair of figures by colour (Black's first) as a pair by engine
/// (engine 1's first), `black` being the engine that had Black.
fn by_engine<T>(mut pair: [T; 2], black: usize) -> [T; 2] {
    if black == 1 {
        pair.swap(0, 1);
    }
    pair
}

/// The running totals of a match, from engine 1's point of view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub names: [String; 2],
    pub wdl: Wdl,
    /// Engine 1's results with Black and with White.
    pub by_colour: [Wdl; 2],
    /// Discs of each engine over the Othello games played to the end.
    pub discs: [u64; 2],
    /// Games played to the end (no forfeit).
    pub finished: u32,
    /// Of those, the games that count discs (Othello's).
    pub disc_games: u32,
    /// Forfeits of each engine, by kind (in [`FaultKind::ALL`] order).
    pub forfeits: [[u32; 5]; 2],
    /// Thinking time (seconds) and moves of each engine.
    pub time: [f64; 2],
    pub moves: [u32; 2],
}

impl Tally {
    pub fn new(names: [String; 2]) -> Tally {
        Tally {
            names,
            ..Tally::default()
        }
    }

    pub fn games(&self) -> u32 {
        self.wdl.games()
    }

    /// Adds a game.
    pub fn add(&mut self, result: &GameResult) {
        self.wdl.add(result.outcome);
        self.by_colour[result.tag.black].add(result.outcome);
        if result.tag.forfeit.is_none() {
            self.finished += 1;
        }
        if let Some(discs) = result.discs {
            self.disc_games += 1;
            for (total, discs) in self.discs.iter_mut().zip(discs) {
                *total += u64::from(discs);
            }
        }
        if let Some((engine, kind)) = result.tag.forfeit {
            let slot = FaultKind::ALL.iter().position(|&k| k == kind).unwrap_or(0);
            self.forfeits[engine][slot] += 1;
        }
        for engine in 0..2 {
            self.time[engine] += result.time[engine];
            self.moves[engine] += result.moves[engine];
        }
    }

    /// Forfeits of `engine` as `2 time-outs, 1 crash`, or `none`.
    pub fn forfeit_text(&self, engine: usize) -> String {
        let parts: Vec<String> = FaultKind::ALL
            .iter()
            .zip(self.forfeits[engine])
            .filter(|(_, count)| *count > 0)
            .map(|(kind, count)| kind.count(count))
            .collect();
        if parts.is_empty() {
            "none".to_string()
        } else {
            parts.join(", ")
        }
    }

    /// One line for the progress display.
    pub fn progress_line(&self, total: usize, sprt: Option<&Sprt>) -> String {
        let mut line = format!(
            "[{}/{total}] {} vs {}: {} ({:.1}%)",
            self.games(),
            self.names[0],
            self.names[1],
            self.wdl,
            100.0 * self.wdl.score()
        );
        if let Some(elo) = Elo::of(&self.wdl) {
            let _ = write!(line, " Elo {}", elo.short());
        }
        if let Some(sprt) = sprt {
            let (lower, upper) = sprt.bounds();
            let _ = write!(
                line,
                " LLR {:.2} [{lower:.2}, {upper:.2}]",
                sprt.llr(&self.wdl)
            );
        }
        let forfeits: u32 = self.forfeits.iter().flatten().sum();
        if forfeits > 0 {
            let _ = write!(line, " forfeits {forfeits}");
        }
        line
    }

    /// The end-of-match report.
    pub fn summary(&self, sprt: Option<&Sprt>) -> String {
        let [one, two] = &self.names;
        let mut text = String::new();
        let _ = writeln!(text, "Games: {} ({one} vs {two})", self.games());
        let _ = writeln!(
            text,
            "Result for {one}: {}, {}, {}; score {:.1}%",
            count(self.wdl.wins, "win", "wins"),
            count(self.wdl.draws, "draw", "draws"),
            count(self.wdl.losses, "loss", "losses"),
            100.0 * self.wdl.score()
        );
        let colour = |wdl: &Wdl| match wdl.games() {
            0 => "no games".to_string(),
            _ => format!("{wdl} ({:.1}%)", 100.0 * wdl.score()),
        };
        let _ = writeln!(
            text,
            "  with Black {}, with White {}",
            colour(&self.by_colour[0]),
            colour(&self.by_colour[1])
        );
        match Elo::of(&self.wdl) {
            Some(elo) => {
                let _ = writeln!(
                    text,
                    "Elo difference: {}, LOS {:.1}%, draw ratio {:.1}%",
                    elo.long(),
                    100.0 * stats::likelihood_of_superiority(&self.wdl),
                    100.0 * self.wdl.draw_ratio()
                );
            }
            None => text.push_str("Elo difference: no games\n"),
        }
        if self.disc_games > 0 {
            let _ = writeln!(
                text,
                "Discs ({} played to the end): {one} {}, {two} {}",
                count(self.disc_games, "game", "games"),
                self.discs[0],
                self.discs[1]
            );
        } else {
            let _ = writeln!(text, "Games played to the end: {}", self.finished);
        }
        for engine in 0..2 {
            let moves = self.moves[engine].max(1);
            let _ = writeln!(
                text,
                "{}: forfeits {}; {:.1} ms per move over {}",
                self.names[engine],
                self.forfeit_text(engine),
                1000.0 * self.time[engine] / f64::from(moves),
                count(self.moves[engine], "move", "moves")
            );
        }
        if let Some(sprt) = sprt {
            let (lower, upper) = sprt.bounds();
            let verdict = match sprt.decision(&self.wdl) {
                SprtDecision::Continue => "undecided".to_string(),
                SprtDecision::AcceptH0 => format!("H0 accepted (elo <= {})", sprt.elo0),
                SprtDecision::AcceptH1 => format!("H1 accepted (elo >= {})", sprt.elo1),
            };
            let _ = writeln!(
                text,
                "SPRT ({sprt}): LLR {:.3} in [{lower:.3}, {upper:.3}]: {verdict}",
                sprt.llr(&self.wdl)
            );
        }
        text
    }
}

/// `1 win`, `3 wins`.
pub fn count(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// What the results say of the Elo difference. The normal approximation's
/// interval ([`stats::elo_estimate`]) has an infinite bound when a score
/// bound leaves (0, 1), and no width when every game ends alike: these are
/// said in words rather than as `inf`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Elo {
    /// The estimate and its 95% interval, each bound finite or not.
    Estimate(stats::EloEstimate),
    /// Every one of `games` games won (`won`) or lost: no estimate, only
    /// the exact 95% bound.
    Sweep { won: bool, games: u32, bound: f64 },
    /// Every game drawn: 0, with no interval measurable.
    AllDrawn(u32),
}

impl Elo {
    fn of(wdl: &Wdl) -> Option<Elo> {
        let estimate = stats::elo_estimate(wdl)?;
        let games = wdl.games();
        Some(if wdl.wins == games || wdl.losses == games {
            let won = wdl.wins == games;
            let bound = stats::all_won_lower_bound(games);
            Elo::Sweep {
                won,
                games,
                bound: if won { bound } else { -bound },
            }
        } else if wdl.draws == games {
            Elo::AllDrawn(games)
        } else {
            Elo::Estimate(estimate)
        })
    }

    /// For the progress line: `+12.3 ±45.6`, `+240.8 (above +36.3)`,
    /// `above +141.0 (all won)`.
    fn short(self) -> String {
        match self {
            Elo::Estimate(e) => match (e.low.is_finite(), e.high.is_finite()) {
                (true, true) => format!("{} ±{:.1}", signed(e.elo), e.margin()),
                (true, false) => format!("{} (above {})", signed(e.elo), signed(e.low)),
                (false, _) => format!("{} (below {})", signed(e.elo), signed(e.high)),
            },
            Elo::Sweep {
                won: true, bound, ..
            } => format!("above {} (all won)", signed(bound)),
            Elo::Sweep { bound, .. } => format!("below {} (all lost)", signed(bound)),
            Elo::AllDrawn(_) => "+0.0 (all drawn)".to_string(),
        }
    }

    /// For the summary, with the 95% interval.
    fn long(self) -> String {
        match self {
            Elo::Estimate(e) => match (e.low.is_finite(), e.high.is_finite()) {
                (true, true) => format!(
                    "{} ± {:.1} (95% interval {} .. {})",
                    signed(e.elo),
                    e.margin(),
                    signed(e.low),
                    signed(e.high)
                ),
                (true, false) => format!(
                    "{} (95% lower bound {}; too few games for an upper bound)",
                    signed(e.elo),
                    signed(e.low)
                ),
                (false, _) => format!(
                    "{} (95% upper bound {}; too few games for a lower bound)",
                    signed(e.elo),
                    signed(e.high)
                ),
            },
            Elo::Sweep { won, games, bound } => format!(
                "not measurable, all {} {} (95% {} bound {})",
                count(games, "game", "games"),
                if won { "won" } else { "lost" },
                if won { "lower" } else { "upper" },
                signed(bound)
            ),
            Elo::AllDrawn(games) => format!(
                "+0.0, all {} drawn (no interval measurable)",
                count(games, "game", "games")
            ),
        }
    }
}

/// `+12.3`, `-4.0`.
fn signed(x: f64) -> String {
    // -0.04 reads +0.0, not -0.0.
    let x = if x.abs() < 0.05 { 0.0 } else { x };
    format!("{x:+.1}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::ggf::{GgfGame, GgfResult};

    fn record(score: f64) -> GgfGame {
        GgfGame {
            result: Some(GgfResult { score, flag: None }),
            ..GgfGame::default()
        }
    }

    fn tag(black: usize, forfeit: Option<(usize, FaultKind)>) -> GameTag {
        GameTag {
            number: 1,
            round: 1,
            opening: 0,
            black,
            moves: String::new(),
            forfeit,
            note: String::new(),
        }
    }

    #[test]
    fn outcomes_and_discs_follow_the_colours() {
        let result = GameResult::from_record(&record(10.0), tag(1, None));
        assert_eq!(result.outcome, Ordering::Less);
        assert_eq!(result.discs, Some([27, 37]));
        let forfeit = GameResult::from_record(&record(-64.0), tag(0, Some((0, FaultKind::Crash))));
        assert_eq!(forfeit.outcome, Ordering::Less);
        assert_eq!(forfeit.discs, None);
        let mut tally = Tally::new(["a".to_string(), "b".to_string()]);
        tally.add(&result);
        tally.add(&forfeit);
        tally.add(&GameResult::from_record(&record(0.0), tag(0, None)));
        assert_eq!(tally.wdl, Wdl::new(0, 1, 2));
        assert_eq!(tally.by_colour, [Wdl::new(0, 1, 1), Wdl::new(0, 0, 1)]);
        assert_eq!(tally.discs, [59, 69]);
        assert_eq!(tally.forfeit_text(0), "1 crash");
        assert_eq!(tally.forfeit_text(1), "none");
        let summary = tally.summary(Some(&"0,10".parse().unwrap()));
        assert!(summary.contains("0 wins, 1 draw, 2 losses"), "{summary}");
        assert!(
            summary.contains("with Black 0-1-1 (25.0%), with White 0-0-1 (0.0%)"),
            "{summary}"
        );
        assert!(summary.contains("SPRT"), "{summary}");
        // A colour without games has no score to give.
        let mut one = Tally::new(["a".to_string(), "b".to_string()]);
        one.add(&result);
        let summary = one.summary(None);
        assert!(
            summary.contains("with Black no games, with White 0-0-1 (0.0%)"),
            "{summary}"
        );
    }

    /// Issue 75, defect 18: no `inf` in the Elo of a one-sided match, and
    /// counts of one in the singular.
    #[test]
    fn one_sided_results_are_said_in_words() {
        let summary = |wdl: Wdl| {
            let mut tally = Tally::new(["a".to_string(), "b".to_string()]);
            tally.wdl = wdl;
            (tally.summary(None), tally.progress_line(10, None))
        };
        for wdl in [
            Wdl::new(10, 0, 0),
            Wdl::new(0, 0, 10),
            Wdl::new(8, 0, 2),
            Wdl::new(2, 0, 8),
            Wdl::new(0, 5, 0),
            Wdl::new(1, 1, 1),
        ] {
            let (text, line) = summary(wdl);
            assert!(
                !text.contains("inf") && !line.contains("inf"),
                "{text}{line}"
            );
        }
        let (text, line) = summary(Wdl::new(10, 0, 0));
        assert!(
            text.contains("Elo difference: not measurable, all 10 games won (95% lower bound +"),
            "{text}"
        );
        assert!(line.ends_with("(all won)"), "{line}");
        let (text, _) = summary(Wdl::new(8, 0, 2));
        assert!(text.contains("(95% lower bound +"), "{text}");
        let (text, _) = summary(Wdl::new(1, 1, 1));
        assert!(text.contains("1 win, 1 draw, 1 loss;"), "{text}");
        assert!(text.contains("over 0 moves"), "{text}");
    }
}
