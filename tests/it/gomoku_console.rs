//! The gomoku console against the real binary: a piped game, `stop` read
//! ahead, Ctrl-C, renju's forbidden points and bad options.

use crate::protocol_util;

use protocol_util::Oxello;
use std::time::{Duration, Instant};

const CONSOLE: &[&str] = &["console", "--game", "gomoku", "--size", "9"];

#[test]
fn a_piped_game_is_answered_line_by_line() {
    let script = "level 3\ntime 0.3\ne5\nboard\nundo\nboard\nquit\n";
    let (status, lines) = protocol_util::piped(CONSOLE, script, Duration::from_secs(60));
    assert!(status.success(), "{lines:?}");
    assert!(
        lines[0].contains(": gomoku 9x9, 5 in a row, freestyle"),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("oxello plays ")),
        "{lines:?}"
    );
    // After e5 and oxello's answer, then after undo: back to the start.
    let moves: Vec<&String> = lines.iter().filter(|l| l.starts_with("moves ")).collect();
    assert!(
        moves.iter().any(|l| l.starts_with("moves 2: e5")),
        "{lines:?}"
    );
    assert_eq!(moves.last().map(|l| l.as_str()), Some("moves 0: "));
    assert!(!lines.iter().any(|l| l.starts_with("error")), "{lines:?}");
}

#[test]
fn stop_read_ahead_ends_the_search_before_it() {
    // A search of up to a minute, stopped by the next line at once.
    let script = "level 40\ntime 60\nmode 3\ne5 d4\nhint\nstop\nboard\n";
    let started = Instant::now();
    let (status, lines) = protocol_util::piped(CONSOLE, script, Duration::from_secs(60));
    assert!(status.success(), "{lines:?}");
    assert!(started.elapsed() < Duration::from_secs(20), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("hint: ")), "{lines:?}");
    assert!(lines.iter().any(|l| l == "moves 2: e5d4"), "{lines:?}");
}

/// Ctrl-C during a search stops it and keeps the game; Ctrl-C when idle
/// quits.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_search_and_keeps_the_game() {
    let mut ox = Oxello::spawn(&["console", "--game", "gomoku", "--size", "9", "--hash", "8"]);
    ox.until(|line| line.starts_with("moves 0"));
    ox.send("time 60");
    ox.send("level 40");
    ox.send("mode 3");
    ox.send("e5");
    ox.until(|line| line.starts_with("moves 1: e5"));
    ox.send("hint");
    std::thread::sleep(Duration::from_millis(700));
    let stopped = Instant::now();
    ox.ctrl_c();
    ox.until(|line| line.starts_with("hint: "));
    assert!(stopped.elapsed() < Duration::from_secs(5));
    ox.send("board");
    ox.until(|line| line.starts_with("moves 1: e5"));
    std::thread::sleep(Duration::from_millis(2500));
    ox.ctrl_c();
    assert!(ox.wait(Duration::from_secs(20)).success());
}

#[test]
fn renju_marks_forbidden_points_and_refuses_them() {
    let script = "mode 3\ng8 a1 h8 a3 i9 a5 i10 a7\ni8\nboard\n";
    let console = ["console", "--game", "gomoku", "--rule", "renju"];
    let (status, lines) = protocol_util::piped(&console, script, Duration::from_secs(60));
    assert!(status.success(), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("i8 is forbidden to Black under renju (double three")),
        "{lines:?}"
    );
    // Row 8 shows the mark at i8: columns a.. are every other character.
    let row = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("  8 "))
        .expect("row 8");
    assert_eq!(row.chars().nth(4 + 2 * 8), Some('#'), "{row}");
    assert!(
        lines.iter().any(|l| l == "moves 8: g8a1h8a3i9a5i10a7"),
        "{lines:?}"
    );
}

#[test]
fn bad_options_are_usage_errors() {
    for args in [
        &["console", "--game", "gomoku", "--size", "30"][..],
        &["console", "--game", "gomoku", "--size", "4x9"],
        &["console", "--game", "gomoku", "--n-in-row", "7"],
        &[
            "console", "--game", "gomoku", "--rule", "renju", "--size", "19",
        ],
        &["console", "--game", "gomoku", "--rule", "go"],
        &["console", "--size", "9"],
        // Othello's options are refused, not ignored.
        &["console", "--game", "gomoku", "--level", "greedy"],
        &["console", "--game", "gomoku", "--selectivity", "73"],
        &["console", "--game", "gomoku", "--depth", "41"],
        &["console", "--game", "gomoku", "--time", "4000"],
    ] {
        let (code, _, err) = protocol_util::run(args);
        assert_eq!(code, 2, "{args:?}: {err:?}");
        assert!(!err.is_empty(), "{args:?}");
    }
}

#[test]
fn level_and_time_on_the_command_line_are_the_console_s() {
    let args = [CONSOLE, &["--level", "3", "--time", "0.5"]].concat();
    let (status, lines) =
        protocol_util::piped(&args, "level\ntime\nquit\n", Duration::from_secs(60));
    assert!(status.success(), "{lines:?}");
    assert!(lines.iter().any(|l| l == "level: 3"), "{lines:?}");
    assert!(
        lines.iter().any(|l| l == "time: 0.5 s per move"),
        "{lines:?}"
    );
    let args = [CONSOLE, &["--depth", "2"]].concat();
    let (_, lines) = protocol_util::piped(&args, "level\nquit\n", Duration::from_secs(60));
    assert!(lines.iter().any(|l| l == "level: 2"), "{lines:?}");
}

/// Issue 75, defect 18: a move searched right after a hint of the same
/// position finds its positions in the table; its rows still show whole
/// lines, and no rate over a time too short to measure.
#[test]
fn a_move_after_a_hint_shows_whole_lines() {
    let script = "mode 3\ne5 d4\nlevel 6\nhint\ngo\n";
    let args = [CONSOLE, &["--threads", "1"]].concat();
    let (status, lines) = protocol_util::piped(&args, script, Duration::from_secs(60));
    assert!(status.success(), "{lines:?}");
    let go = lines
        .iter()
        .position(|l| l.starts_with("oxello (level 6) thinks for Black"))
        .expect("go's search");
    let rows: Vec<Vec<&str>> = lines[go + 2..]
        .iter()
        .take_while(|l| !l.starts_with("oxello plays"))
        .map(|l| l.split('|').map(str::trim).collect())
        .collect();
    assert_eq!(rows.len(), 6, "{lines:?}");
    for row in &rows {
        let depth: usize = row[0].parse().unwrap();
        let seconds: f64 = row[2].parse().unwrap();
        let pv = row[5].split_whitespace().count();
        assert!(pv >= depth.min(3), "{row:?}: {lines:?}");
        if seconds < 0.009 {
            assert_eq!(row[4], "-", "{row:?}");
        }
    }
}
