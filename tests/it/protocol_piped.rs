//! Piped input against the real binary: a script piped at once (input read
//! ahead, then its end) gets the same answers as the same session typed
//! with the input held open. Only `stop` and NBoard's `ping` interrupt the
//! command before them; `quit` and the end of input wait for it.
//!
//! Every search runs on one thread, so that the same search gives the same
//! nodes and move whatever the timing.

use crate::protocol_util;

use protocol_util::{Oxello, piped};
use std::time::Duration;

/// Long enough for every search below on a busy machine; a process that
/// does not end by then hangs.
const EXIT_TIMEOUT: Duration = Duration::from_secs(120);

/// `=== D3/1.00/0.02` without its time: `=== D3/1.00`.
fn without_time(line: &str) -> String {
    let parts: Vec<&str> = line.split('/').collect();
    parts[..parts.len().min(2)].join("/")
}

/// `nodestats 8613 0.02` without its time.
fn nodes(line: &str) -> String {
    line.split(' ').take(2).collect::<Vec<_>>().join(" ")
}

/// The lines of a session, its input held open until `last` is printed.
fn held_open(args: &[&str], script: &str, last: impl Fn(&str) -> bool) -> Vec<String> {
    let mut ox = Oxello::spawn(args);
    ox.send_bytes(script.as_bytes());
    let lines = ox.until(last);
    ox.close_stdin();
    assert!(ox.wait(EXIT_TIMEOUT).success());
    lines
}

#[test]
fn nboard_readme_example_answers_as_with_input_held_open() {
    let args = ["--threads", "1", "--hash", "16"];
    let script = "nboard 2\nset depth 10\nping 1\ngo\n";
    let (status, piped) = piped(&args, script, EXIT_TIMEOUT);
    assert!(status.success());
    let held = held_open(&args, script, |line| line.starts_with("=== "));
    let answer = |lines: &[String]| {
        let stats = lines.iter().find(|l| l.starts_with("nodestats "));
        let best = lines.iter().find(|l| l.starts_with("=== "));
        (stats.map(|l| nodes(l)), best.map(|l| without_time(l)))
    };
    assert_eq!(
        answer(&piped),
        answer(&held),
        "piped {piped:?}, held {held:?}"
    );
    assert!(answer(&held).1.is_some(), "{held:?}");
}

#[test]
fn nboard_hint_at_the_end_of_input_is_complete() {
    let args = ["nboard", "--threads", "1", "--hash", "16", "--no-book"];
    let script = "nboard 2\nset depth 8\nmove F5\nhint 3\n";
    let (status, piped) = piped(&args, script, EXIT_TIMEOUT);
    assert!(status.success());
    let held = held_open(&args, script, |line| line.starts_with("nodestats "));
    let hints = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .filter(|l| l.starts_with("search "))
            .cloned()
            .collect()
    };
    assert_eq!(hints(&piped), hints(&held));
    assert!(hints(&held).last().unwrap().ends_with(" 0 8"), "{held:?}");
}

#[test]
fn nboard_ping_still_interrupts_a_piped_search() {
    // Depth 60 from the start never ends: only the ping can end it.
    let script = "nboard 2\nset depth 60\nhint 4\nping 1\n";
    let (status, lines) = piped(&["nboard", "--hash", "16"], script, EXIT_TIMEOUT);
    assert!(status.success());
    assert_eq!(
        lines.last().map(String::as_str),
        Some("pong 1"),
        "{lines:?}"
    );
}

#[test]
fn gtp_genmove_then_quit_answers_as_with_quit_sent_later() {
    let args = ["gtp", "--threads", "1", "--hash", "16"];
    let moves = "boardsize 8\nplay b f5\nplay w d6\nplay b c3\ngenmove w\n";
    let (status, piped) = piped(&args, &format!("{moves}quit\n"), EXIT_TIMEOUT);
    assert!(status.success());
    let mut ox = Oxello::spawn(&args);
    ox.send_bytes(moves.as_bytes());
    let mut held = Vec::new();
    while held.len() < 10 {
        held.push(ox.recv());
    }
    ox.send("quit");
    held.extend(ox.until(|line| line.is_empty()));
    assert!(ox.wait(EXIT_TIMEOUT).success());
    assert_eq!(piped, held);
    assert!(held[8].starts_with("= ") && held[8].len() == 4, "{held:?}");
}

#[test]
fn console_hint_at_the_end_of_input_is_complete() {
    let args = ["console", "--threads", "1", "--hash", "16", "--level", "8"];
    let script = "mode 3\nf5\nd6\nhint 3\n";
    let (status, piped) = piped(&args, script, EXIT_TIMEOUT);
    assert!(status.success());
    let held = held_open(&args, script, |line| line.starts_with("hint: "));
    let hint = |lines: &[String]| lines.iter().find(|l| l.starts_with("hint: ")).cloned();
    assert_eq!(hint(&piped), hint(&held), "{piped:?}");
}

#[test]
fn console_analysis_at_the_end_of_input_is_complete() {
    let script = "mode 3\nplay f5d6c3d3c4f4\nanalyze\n";
    let (status, lines) = piped(&["console", "--level", "4"], script, EXIT_TIMEOUT);
    assert!(status.success());
    assert!(!lines.iter().any(|l| l.contains("stopped")), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("analysis done")),
        "{lines:?}"
    );
}

#[test]
fn console_random_player_plays_a_piped_game_out() {
    let (status, lines) = piped(&["console"], "level random\nmode 2\n", EXIT_TIMEOUT);
    assert!(status.success());
    assert!(lines.iter().any(|l| l.contains("game over")), "{lines:?}");
}

#[test]
fn console_stop_still_interrupts_a_piped_search() {
    // Level 60 from the start never ends: only the stop can end it.
    let (status, lines) = piped(
        &["console", "--hash", "16"],
        "level 60\ngo\nstop\n",
        EXIT_TIMEOUT,
    );
    assert!(status.success());
    assert!(
        lines.iter().any(|l| l.starts_with("oxello plays ")),
        "{lines:?}"
    );
}
