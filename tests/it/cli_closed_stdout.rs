//! Commands whose stdout is closed (`oxello show f5 | head -0`) end quietly:
//! no panic, no backtrace, exit code 0, as the protocol modes do.

use std::process::{Command, Stdio};

/// Runs `oxello ARGS` with a stdout that nobody reads: its read end is
/// closed before the process starts, so the first write already fails, as
/// after `head` has exited. Returns the exit code and stderr.
fn run_with_closed_stdout(args: &[&str]) -> (Option<i32>, String) {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let output = Command::new(env!("CARGO_BIN_EXE_oxello"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("cannot run oxello");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_closed_stdout_ends_each_command_quietly() {
    let commands: &[&[&str]] = &[
        &["show", "f5"],
        &["perft", "--divide", "-d", "3"],
        &["move", "f5", "--level", "1"],
        &["move", "f5", "--level", "1", "--json"],
        &["analyze", "f5", "--depth", "2"],
        &["analyze", "f5d6c3", "--game", "--depth", "1"],
        &["analyze", "f5d6c3", "--game", "--depth", "1", "--json"],
        &["solve", "--json", "-s", "4"],
        &["solve", "-s", "4"],
        &["match", "-e", "greedy", "-e", "random", "--games", "2"],
    ];
    for args in commands {
        let (code, stderr) = run_with_closed_stdout(args);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("error"), "{args:?}: {stderr}");
    }
}

/// A closed stderr (`oxello match ... 2>&1 | head -2`, once `head` has
/// exited) loses the progress lines, not the run: the match plays all its
/// games and writes them, and selfplay its records.
#[test]
fn a_closed_stderr_loses_the_log_not_the_run() {
    let dir = std::env::temp_dir().join(format!("oxello-closed-stderr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let games = dir.join("match.ggf");
    let records = dir.join("records.jsonl");
    let commands: Vec<Vec<String>> = vec![
        [
            "match", "-e", "greedy", "-e", "random", "--games", "6", "-o",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([games.display().to_string()])
        .collect(),
        ["selfplay", "--games", "3", "--level", "1", "--output"]
            .iter()
            .map(|s| s.to_string())
            .chain([records.display().to_string()])
            .collect(),
    ];
    for args in &commands {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let status = Command::new(env!("CARGO_BIN_EXE_oxello"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(writer)
            .status()
            .expect("cannot run oxello");
        assert_eq!(status.code(), Some(0), "{args:?}");
    }
    let text = std::fs::read_to_string(&games).unwrap();
    assert_eq!(text.matches("(;GM[Othello]").count(), 6, "{text}");
    let lines = std::fs::read_to_string(&records).unwrap();
    let played: std::collections::BTreeSet<&str> = lines
        .lines()
        .filter_map(|l| l.split("\"game\":").nth(1)?.split(',').next())
        .collect();
    assert_eq!(played.len(), 3, "{lines}");
    let _ = std::fs::remove_dir_all(&dir);
}
