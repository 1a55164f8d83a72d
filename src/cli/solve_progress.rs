//! What `oxello solve` says on stderr while a long solve runs: how long it
//! should take (with a warning, and what to do instead, when that is out
//! of reach), each finished step of the search, and that it is still at
//! work when a step takes long. Under `--json` the same as JSON lines.
//! Solves expected to be short say nothing, unless they run long.

use indicatif::ProgressBar;
use oxello::bitboard::BoardSize;
use oxello::json::{SearchJson, to_line};
use oxello::position::Position;
use oxello::search::solve_cost::{
    ANNOUNCE_SECONDS, HOPELESS_EMPTIES, announcement, expected_seconds,
};
use oxello::search::{Bound, Report, SolveMode};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Steps finished after this long are shown even for a solve that was not
/// announced (a hard position).
const QUIET_SECONDS: f64 = 10.0;

/// The first sign of life within a step that has not finished; then at
/// twice the time each time, at most [`MAX_HEARTBEAT`] apart.
const FIRST_HEARTBEAT: Duration = Duration::from_secs(60);
const MAX_HEARTBEAT: Duration = Duration::from_secs(3600);

/// A time already spent, in whole minutes (`15 minutes`, `2 hours 7
/// minutes`): unlike an estimate, it is known, so it is not rounded to one
/// figure.
fn elapsed_text(seconds: f64) -> String {
    let minutes = (seconds / 60.0).floor().max(0.0) as u64;
    let plural = |n: u64, unit: &str| format!("{n} {unit}{}", if n == 1 { "" } else { "s" });
    match (minutes / 60, minutes % 60) {
        (0, m) => plural(m, "minute"),
        (h, 0) => plural(h, "hour"),
        (h, m) => format!("{} {}", plural(h, "hour"), plural(m, "minute")),
    }
}

/// How one position's solve reports.
pub struct SolveProgress {
    number: usize,
    position: Position,
    json: bool,
    /// Whether the solve was announced as long: its steps are shown.
    announced: bool,
    bar: ProgressBar,
}

impl SolveProgress {
    /// Announces the solve of `position` (number `number`) when it should
    /// take long, with a warning when it is out of reach.
    pub fn start(
        number: usize,
        position: Position,
        mode: SolveMode,
        threads: usize,
        json: bool,
        bar: &ProgressBar,
    ) -> SolveProgress {
        let empties = position.empty_count();
        let seconds = expected_seconds(empties, mode, threads);
        // The estimate was fitted on 8x8 solves; a 6x6 position of 32
        // empties, about 30 s on one core, would be announced at 50 minutes.
        let progress = SolveProgress {
            number,
            position,
            json,
            announced: position.size == BoardSize::Eight && seconds >= ANNOUNCE_SECONDS,
            bar: bar.clone(),
        };
        if progress.announced {
            let estimate = format!(
                "{} (a rough estimate: a factor of 10 either way)",
                announcement(empties, seconds, threads)
            );
            let hopeless = empties > HOPELESS_EMPTIES;
            let advice = "an exact solve is out of reach; `oxello analyze POSITION --depth 20` \
                          gives a score in seconds, and `solve` finishes from about 30 empties \
                          (Ctrl-C stops)";
            if json {
                let line = serde_json::json!({
                    "number": number,
                    "empties": empties,
                    "expected_seconds": seconds.round(),
                    "warning": hopeless.then_some(advice),
                });
                progress.say(&line.to_string());
            } else if hopeless {
                progress.say(&format!("warning: solve #{number}: {estimate}: {advice}"));
            } else {
                progress.say(&format!("solve #{number}: {estimate}"));
            }
        }
        progress
    }

    /// Shows a finished step (the best line of an iteration or a solve at
    /// some selectivity) of an announced or long solve.
    pub fn step(&self, report: &Report) {
        if report.rank != 0 || !(self.announced || report.elapsed.as_secs_f64() >= QUIET_SECONDS) {
            return;
        }
        if self.json {
            #[derive(serde::Serialize)]
            struct StepJson {
                number: usize,
                progress: bool,
                #[serde(flatten)]
                result: SearchJson,
            }
            let line = StepJson {
                number: self.number,
                progress: true,
                result: SearchJson::from_report(&self.position, report),
            };
            self.say(&to_line(&line));
        } else {
            let score = match report.bound {
                Bound::Exact => format!("{:+}", report.score),
                Bound::Lower => format!("at least {:+}", report.score),
                Bound::Upper => format!("at most {:+}", report.score),
            };
            self.say(&format!(
                "solve #{}: {} done: {} {score}, {} nodes, {:.1} s",
                self.number,
                oxello::analysis::depth_label(report.depth),
                report.best(),
                report.nodes,
                report.elapsed.as_secs_f64()
            ));
        }
    }

    /// Says, now and then, that the solve goes on and how many nodes
    /// `nodes` says it has searched, until `done` closes.
    pub fn heartbeat(&self, done: &Receiver<()>, nodes: &dyn Fn() -> Option<u64>) {
        let started = Instant::now();
        let mut wait = FIRST_HEARTBEAT;
        while let Err(RecvTimeoutError::Timeout) = done.recv_timeout(wait) {
            let seconds = started.elapsed().as_secs_f64();
            let nodes = nodes();
            if self.json {
                let line = serde_json::json!({
                    "number": self.number,
                    "running": true,
                    "time": seconds.round(),
                    "nodes": nodes,
                });
                self.say(&line.to_string());
            } else {
                self.say(&format!(
                    "solve #{}: still solving after {}{}",
                    self.number,
                    elapsed_text(seconds),
                    nodes.map_or(String::new(), |n| format!(", {n} nodes"))
                ));
            }
            wait = (wait * 2).min(MAX_HEARTBEAT);
        }
    }

    /// Says `text` about this solve, or `json` (with the position's
    /// number) under `--json`.
    pub fn note(&self, text: &str, json: serde_json::Value) {
        if self.json {
            let mut json = json;
            if let Some(object) = json.as_object_mut() {
                object.insert("number".into(), self.number.into());
            }
            self.say(&json.to_string());
        } else {
            self.say(&format!("solve #{}: {text}", self.number));
        }
    }

    /// One line on stderr, above the progress bar if one is drawn.
    fn say(&self, line: &str) {
        self.bar.suspend(|| note!("{line}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elapsed_times_are_whole_minutes() {
        assert_eq!(elapsed_text(60.5), "1 minute");
        assert_eq!(elapsed_text(15.0 * 60.0 + 2.0), "15 minutes");
        assert_eq!(elapsed_text(3600.0), "1 hour");
        assert_eq!(elapsed_text(127.0 * 60.0), "2 hours 7 minutes");
        assert_eq!(elapsed_text(61.0 * 60.0), "1 hour 1 minute");
    }

    /// The 8x8 estimate is not given for a smaller board: 6x6 from the
    /// start (32 empties) solves in about 30 s on one core.
    #[test]
    fn only_an_8x8_solve_is_announced() {
        let bar = ProgressBar::hidden();
        let announced = |size| {
            let start = Position::start(size);
            SolveProgress::start(1, start, SolveMode::Exact, 1, false, &bar).announced
        };
        assert!(!announced(BoardSize::Six));
        assert!(announced(BoardSize::Eight));
    }
}
