//! File arguments of the real binary: a missing file, a directory and an
//! empty file are each named as such, wherever a file is read; a board
//! string or transcript is read only when the argument is not a path.

use crate::protocol_util;

use protocol_util::{Oxello, run};
use std::path::PathBuf;

/// A fresh folder for this test, holding an empty file and a subfolder.
fn workspace(name: &str) -> (PathBuf, String, String, String) {
    let dir = std::env::temp_dir().join(format!("oxello-files-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("folder.ggf")).unwrap();
    std::fs::write(dir.join("empty.ggf"), "").unwrap();
    let path = |name: &str| dir.join(name).display().to_string();
    let (missing, folder, empty) = (path("missing.ggf"), path("folder.ggf"), path("empty.ggf"));
    (dir, missing, folder, empty)
}

/// Checks that a command fails with one error line on stderr holding `what`.
fn fails_saying(args: &[&str], what: &str) {
    let (code, out, err) = run(args);
    assert_ne!(code, 0, "{args:?}: {out:?} {err:?}");
    assert!(
        err.iter()
            .any(|l| l.starts_with("error: ") && l.contains(what)),
        "{args:?}: expected '{what}' in {err:?}"
    );
}

#[test]
fn position_arguments_name_what_is_wrong_with_a_file() {
    let (dir, missing, folder, empty) = workspace("position");
    for command in [&["show"][..], &["move"], &["analyze", "--depth", "2"]] {
        for (path, what) in [
            (missing.as_str(), "no such file"),
            ("missing.ggf", "no such file"),
            (folder.as_str(), "is a directory"),
            (empty.as_str(), "is empty"),
        ] {
            fails_saying(&[command, &[path]].concat(), what);
        }
    }
    fails_saying(&["perft", "-d", "1", &folder], "is a directory");
    fails_saying(&["solve", &empty], "is empty");
    // Not a path: read as a position, with the position's error.
    fails_saying(&["show", "f5f5"], "not a position");
    let (code, out, _) = run(&["show", "f5d6"]);
    assert_eq!(code, 0);
    assert!(out.iter().any(|l| l == "moves f5d6"), "{out:?}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn file_options_name_what_is_wrong_with_a_file() {
    let (dir, missing, folder, empty) = workspace("options");
    for path in [&missing, &folder, &empty] {
        let what = if path == &missing {
            "no such file"
        } else if path == &folder {
            "is a directory"
        } else {
            "is empty"
        };
        fails_saying(&["solve", path], what);
        fails_saying(&["analyze", "--game", path], what);
        let openings = ["match", "-e", "greedy", "-e", "random", "--openings", path];
        fails_saying(&openings, what);
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn protocol_loads_name_what_is_wrong_with_a_file() {
    let (dir, missing, folder, empty) = workspace("protocols");
    let mut ox = Oxello::spawn(&["gtp", "--level", "1"]);
    let mut console = Oxello::spawn(&["console", "--level", "1"]);
    console.until(|line| line.starts_with("   a b c"));
    console.until(|line| line.starts_with("   a b c"));
    for (path, what) in [
        (&missing, "no such file"),
        (&folder, "is a directory"),
        (&empty, "is empty"),
    ] {
        ox.send(&format!("loadsgf {path}"));
        let answer = ox.recv();
        assert!(
            answer.starts_with("? cannot load file: ") && answer.contains(what),
            "{answer}"
        );
        assert_eq!(ox.recv(), "");
        console.send(&format!("load {path}"));
        let answer = console.recv();
        assert!(
            answer.starts_with("error: ") && answer.contains(what),
            "{answer}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// `solve --write` leaves one OBF line per solved position, each with the
/// score the suite expects, and an unwritable path is named.
#[test]
fn solve_writes_every_solved_position() {
    let (dir, _, folder, _) = workspace("write");
    let out = dir.join("solved.obf");
    let out = out.display().to_string();
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/endgame-suite.obf");
    let (code, _, err) = run(&[
        "solve",
        suite,
        "--range",
        "1-3",
        "--threads",
        "1",
        "--write",
        &out,
    ]);
    assert_eq!(code, 0, "{err:?}");
    let written = std::fs::read_to_string(&out).unwrap();
    let entries = oxello::formats::obf::parse_file(&written).unwrap();
    let expected =
        oxello::formats::obf::parse_file(&std::fs::read_to_string(suite).unwrap()).unwrap();
    assert_eq!(entries.len(), 3);
    for (entry, expected) in entries.iter().zip(&expected) {
        assert_eq!(entry.position, expected.position);
        assert_eq!(entry.best_score(), expected.best_score());
    }
    fails_saying(
        &["solve", suite, "--range", "1", "--write", &folder],
        "cannot write",
    );
    // An empty file (a run stopped before its first position) is resumed.
    let fresh = dir.join("fresh.obf");
    std::fs::write(&fresh, "").unwrap();
    let fresh = fresh.display().to_string();
    let (code, _, err) = run(&[
        "solve",
        suite,
        "--range",
        "1",
        "--threads",
        "1",
        "--write",
        &fresh,
        "--resume",
    ]);
    assert_eq!(code, 0, "{err:?}");
    assert_eq!(std::fs::read_to_string(&fresh).unwrap().lines().count(), 1);
    // Resumed over positions 1-5: the three written stay as they are, and
    // only 4 and 5 are solved and appended.
    let (code, table, err) = run(&[
        "solve",
        suite,
        "--range",
        "1-5",
        "--threads",
        "1",
        "--write",
        &out,
        "--resume",
    ]);
    assert_eq!(code, 0, "{err:?}");
    let solved: Vec<&str> = table
        .iter()
        .filter_map(|l| l.split(" | ").next())
        .map(str::trim)
        .filter(|n| n.parse::<usize>().is_ok())
        .collect();
    assert_eq!(solved, ["4", "5"], "{table:?}");
    let resumed = std::fs::read_to_string(&out).unwrap();
    assert!(resumed.starts_with(&written), "{resumed}");
    let entries = oxello::formats::obf::parse_file(&resumed).unwrap();
    let positions: Vec<_> = entries.iter().map(|e| e.position).collect();
    let wanted: Vec<_> = expected[..5].iter().map(|e| e.position).collect();
    assert_eq!(positions, wanted);
    let _ = std::fs::remove_dir_all(dir);
}

/// Starts `oxello ARGS` (stdout to nowhere) and waits until `ready()`
/// holds or the process ends, 60 s at most.
fn spawn_until(
    args: &[String],
    stderr: std::process::Stdio,
    ready: impl Fn() -> bool,
) -> std::process::Child {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_oxello"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !ready() && child.try_wait().unwrap().is_none() {
        assert!(std::time::Instant::now() < deadline, "not ready after 60 s");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child
}

/// `solve --checkpoint DIR`: a solve killed after a checkpoint goes on from
/// it in the next run (which says so, and counts the nodes of both runs),
/// gets the exact score, and removes the checkpoint; Ctrl-C saves one and
/// exits 130, SIGTERM exits 143.
#[test]
fn a_killed_solve_goes_on_from_its_checkpoint() {
    let (dir, _, _, _) = workspace("checkpoint");
    let checkpoints = dir.join("checkpoints");
    let ffo = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/ffo-40-59.obf");
    let args = |number: &str, every: &str| -> Vec<String> {
        [
            "solve",
            ffo,
            "--first-number",
            "40",
            "--range",
            number,
            "--threads",
            "2",
            // A small table saves at once: the saves stay 0.05 s apart.
            "--hash",
            "4",
            "--checkpoint",
            &checkpoints.display().to_string(),
            "--checkpoint-every",
            every,
        ]
        .map(String::from)
        .to_vec()
    };
    let files = || -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(&checkpoints) else {
            return Vec::new();
        };
        entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "oxtt"))
            .collect()
    };
    // Kill (as a crash would) once a checkpoint is there.
    // A checkpoint with some work in it (the first may come before the
    // search's first node).
    let worked = || {
        files().iter().any(|path| {
            oxello::search::checkpoint::Header::read(path)
                .is_ok_and(|header| header.is_some_and(|h| h.nodes > 0))
        })
    };
    let mut child = spawn_until(&args("41", "0.05"), std::process::Stdio::null(), worked);
    let _ = child.kill();
    let _ = child.wait();
    // FFO #41 takes about 14 M nodes, a second on two threads: far more
    // than the first checkpoint's 0.05 s.
    assert_eq!(files().len(), 1, "{:?}", files());
    let resume = args("41", "600");
    let resume: Vec<&str> = resume.iter().map(String::as_str).collect();
    let (code, table, err) = run(&resume);
    assert_eq!(code, 0, "{err:?}");
    // "solve #41: resumed from FILE (N entries; X nodes, Y s before)"
    let before: u64 = err
        .iter()
        .find_map(|l| l.strip_prefix("solve #41: resumed from "))
        .and_then(|l| l.split("; ").nth(1))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no resume note: {err:?}"));
    let row = table
        .iter()
        .find(|l| l.starts_with(" 41 |"))
        .unwrap_or_else(|| panic!("{table:?}"));
    assert!(row.contains("h4 |    +0 |       +0"), "{row}");
    // The row counts the nodes of both runs.
    let nodes: u64 = row.split('|').nth(5).unwrap().trim().parse().unwrap();
    assert!(nodes > before && before > 0, "{nodes} {before}");
    // Neither the checkpoint nor a part of one is left.
    assert_eq!(std::fs::read_dir(&checkpoints).unwrap().count(), 0);
    // Ctrl-C (`kill -INT`) saves a checkpoint and exits 130, SIGTERM exits
    // 143: FFO #45 takes about 130 M nodes, several seconds. The signal goes
    // once a first checkpoint is there, so after the handlers are set.
    if cfg!(unix) {
        for (signal, code) in [("-INT", 130), ("-TERM", 143)] {
            for file in files() {
                std::fs::remove_file(file).unwrap();
            }
            let ready = || !files().is_empty();
            let child = spawn_until(&args("45", "0.05"), std::process::Stdio::piped(), ready);
            let kill = std::process::Command::new("kill")
                .args([signal, &child.id().to_string()])
                .status();
            let output = child.wait_with_output().unwrap();
            let err = String::from_utf8_lossy(&output.stderr);
            match kill {
                Ok(status) => {
                    assert!(status.success());
                    assert_eq!(output.status.code(), Some(code), "{signal}: {err}");
                    assert!(err.contains("checkpoint saved in"), "{signal}: {err}");
                    assert_eq!(files().len(), 1, "{signal}: {err}");
                }
                Err(e) => eprintln!("SKIPPED the {signal} part: no `kill` command ({e})"),
            }
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}
