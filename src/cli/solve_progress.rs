//! What `oxello solve` says on stderr while a long solve runs: how long it
//! should take (with a warning, and what to do instead, when that is out
//! of reach), each finished step of the search, and that it is still at
//! work when a step takes long. Under `--json` the same as JSON lines.
//! Solves expected to be short say nothing, unless they run long.

use indicatif::ProgressBar;
use oxello::bitboard::BoardSize;
use oxello::json::{SearchJson, to_line};
use oxello::position::Position;
use oxello::search::{Bound, Report, SolveMode};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Nodes of an exact solve of a typical position of `empties` empties:
/// 14 M at 22 empties (60 WTHOR positions of 22 empties took 825 M nodes),
/// times 2.3 an empty (18 empties: 0.5 M a position, 20 empties: 2.4 M;
/// docs/trials/othello.md). Hard positions (the FFO suite's) take several
/// times more; a win/loss/draw solve about half.
fn expected_nodes(empties: u32, mode: SolveMode) -> f64 {
    let exact = 14e6 * 2.3f64.powi(empties as i32 - 22);
    match mode {
        SolveMode::Exact => exact,
        SolveMode::Wld => exact / 2.0,
    }
}

/// Nodes a second of one search thread (FFO #40-43, one thread: 17-21 M).
const NODES_PER_SECOND: f64 = 2e7;

/// Solves expected to take this long are announced with their estimate.
const ANNOUNCE_SECONDS: f64 = 10.0;

/// More empties than this are out of reach of an exact solve (36 empties:
/// about a day on one thread, 37: two).
pub const HOPELESS_EMPTIES: u32 = 36;

/// Steps finished after this long are shown even for a solve that was not
/// announced (a hard position).
const QUIET_SECONDS: f64 = 10.0;

/// The first sign of life within a step that has not finished; then at
/// twice the time each time, at most [`MAX_HEARTBEAT`] apart.
const FIRST_HEARTBEAT: Duration = Duration::from_secs(60);
const MAX_HEARTBEAT: Duration = Duration::from_secs(3600);

/// Expected seconds of a solve on `threads` threads (the second thread of
/// a search adds about 60%, hence the power).
pub fn expected_seconds(empties: u32, mode: SolveMode, threads: usize) -> f64 {
    expected_nodes(empties, mode) / (NODES_PER_SECOND * (threads.max(1) as f64).powf(0.7))
}

/// `about 3 seconds`, `about 20 minutes`, `about 40,000 years`: one
/// significant figure, as much as such an estimate holds.
pub fn rough_duration(seconds: f64) -> String {
    const UNITS: [(&str, f64); 6] = [
        ("second", 1.0),
        ("minute", 60.0),
        ("hour", 3600.0),
        ("day", 86_400.0),
        ("month", 2_629_800.0),
        ("year", 31_557_600.0),
    ];
    let (unit, size) = UNITS
        .iter()
        .rev()
        .find(|(_, size)| seconds >= *size)
        .copied()
        .unwrap_or(UNITS[0]);
    let value = (seconds / size).max(1.0);
    let magnitude = 10f64.powi(value.log10().floor() as i32);
    let rounded = ((value / magnitude).round() * magnitude).max(1.0) as u64;
    let mut digits = rounded.to_string();
    let mut at = digits.len();
    while at > 3 {
        at -= 3;
        digits.insert(at, ',');
    }
    format!(
        "about {digits} {unit}{}",
        if rounded == 1 { "" } else { "s" }
    )
}

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
            let threads = format!("{threads} thread{}", if threads == 1 { "" } else { "s" });
            let estimate = format!(
                "{empties} empties: expect {} on {threads} (a rough estimate: a factor of 10 \
                 either way)",
                rough_duration(seconds)
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
        self.bar.suspend(|| eprintln!("{line}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_rounded_to_one_figure() {
        assert_eq!(rough_duration(0.2), "about 1 second");
        assert_eq!(rough_duration(3.4), "about 3 seconds");
        assert_eq!(rough_duration(1250.0), "about 20 minutes");
        assert_eq!(rough_duration(5400.0), "about 2 hours");
        assert_eq!(rough_duration(4e12), "about 100,000 years");
    }

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

    /// Issue 75, defect 12: the estimate grows from seconds to ages.
    #[test]
    fn the_estimate_tells_a_quick_solve_from_a_hopeless_one() {
        let one = |empties| expected_seconds(empties, SolveMode::Exact, 1);
        assert!(one(20) < 1.0, "{}", one(20));
        assert!((60.0..3600.0).contains(&one(28)), "{}", one(28));
        assert!(one(HOPELESS_EMPTIES + 1) > 86_400.0);
        assert!(rough_duration(one(57)).ends_with("years"));
    }
}
