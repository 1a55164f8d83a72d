//! What an exact solve should cost: a rough estimate of its time from the
//! number of empties, for warnings before a long solve (`oxello solve`, the
//! console's `solve`), and the empties past which it is out of reach.

use crate::search::SolveMode;

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

/// Solves expected to take this long are announced with their estimate
/// (seconds).
pub const ANNOUNCE_SECONDS: f64 = 10.0;

/// More empties than this are out of reach of an exact solve (36 empties:
/// about a day on one thread, 37: two).
pub const HOPELESS_EMPTIES: u32 = 36;

/// Expected seconds of a solve on `threads` threads (the second thread of
/// a search adds about 60%, hence the power).
pub fn expected_seconds(empties: u32, mode: SolveMode, threads: usize) -> f64 {
    expected_nodes(empties, mode) / (NODES_PER_SECOND * (threads.max(1) as f64).powf(0.7))
}

/// `28 empties: expect about 3 minutes on 2 threads`: the estimate as both
/// front ends announce it, each adding how far to trust it.
pub fn announcement(empties: u32, seconds: f64, threads: usize) -> String {
    format!(
        "{empties} empties: expect {} on {threads} thread{}",
        rough_duration(seconds),
        if threads == 1 { "" } else { "s" }
    )
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

    /// The estimate grows from seconds to ages.
    #[test]
    fn the_estimate_tells_a_quick_solve_from_a_hopeless_one() {
        let one = |empties| expected_seconds(empties, SolveMode::Exact, 1);
        assert!(one(20) < 1.0, "{}", one(20));
        assert!((60.0..3600.0).contains(&one(28)), "{}", one(28));
        assert!(one(HOPELESS_EMPTIES + 1) > 86_400.0);
        assert!(rough_duration(one(57)).ends_with("years"));
    }

    #[test]
    fn the_announcement_names_the_empties_the_time_and_the_threads() {
        assert_eq!(
            announcement(28, 130.0, 2),
            "28 empties: expect about 2 minutes on 2 threads"
        );
        assert_eq!(
            announcement(24, 3.0, 1),
            "24 empties: expect about 3 seconds on 1 thread"
        );
    }
}
