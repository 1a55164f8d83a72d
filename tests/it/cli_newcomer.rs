//! Issue 75 (a newcomer's first hour), the command line: one test per
//! defect, each driving the built binary as a newcomer did.

use crate::common::temp_dir;
use crate::protocol_util::{Oxello, run};
use std::time::{Duration, Instant};

/// Runs the command; asserts its exit code and returns stdout and stderr.
fn exits(code: i32, args: &[&str]) -> (Vec<String>, Vec<String>) {
    let (got, out, err) = run(args);
    assert_eq!(got, code, "oxello {args:?}: {out:?} {err:?}");
    (out, err)
}

/// Defect 1: a self-play file resumes only under the settings that wrote
/// it, in every format that resumes and for both games; `--games` may grow.
#[test]
fn selfplay_refuses_to_resume_a_file_of_other_settings() {
    let dir = temp_dir("newcomer", "selfplay");
    let othello = ["--level", "1", "--nodes", "2000"];
    let gomoku = ["--game", "gomoku", "--size", "9", "--nodes", "300"];
    let cases: [(&str, &[&str], &str); 4] = [
        ("games.jsonl", &othello, "jsonl"),
        ("games.bin", &othello, "binary"),
        ("games.npz", &othello, "npz"),
        ("gomoku.jsonl", &gomoku, "jsonl"),
    ];
    for (name, game, format) in cases {
        let output = dir.join(name);
        let output = output.to_str().unwrap();
        let with = |games: &'static str, depth: &'static str| {
            let mut args = vec!["selfplay", "--games", games, "-o", output, "--seed", "3"];
            args.extend(game);
            args.extend(["--format", format, "--depth", depth]);
            args
        };
        exits(0, &with("2", "1"));
        // The npz format resumes its journal.
        let journal = match format {
            "npz" => format!("{output}.jsonl"),
            _ => output.to_string(),
        };
        let before = std::fs::read(&journal).unwrap();
        let difference = "depth 1 in the file, 2 in this run";
        for games in ["2", "3"] {
            let (_, err) = exits(1, &with(games, "2"));
            assert_eq!(err.len(), 1, "{name}: {err:?}");
            assert!(
                err[0].contains("other settings") && err[0].contains(difference),
                "{name}: {err:?}"
            );
        }
        assert_eq!(std::fs::read(&journal).unwrap(), before, "{name}: changed");
        // The same settings resume, with more games.
        let (_, err) = exits(0, &with("3", "1"));
        assert!(
            err.iter().any(|l| l.starts_with("resumed: 2 games")),
            "{name}: {err:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Defect 4: a mistyped option is named, with clap's suggestion, and any
/// unknown option is a usage error (exit 2), never a position.
#[test]
fn a_mistyped_option_is_named_with_a_suggestion() {
    let (_, err) = exits(2, &["move", "--levle", "3", "f5"]);
    let text = err.join("\n");
    assert!(
        text.starts_with("error: unexpected argument '--levle' found"),
        "{text}"
    );
    assert!(
        text.contains("a similar argument exists: '--level'"),
        "{text}"
    );
    for args in [
        &["show", "--foo"][..],
        &["show", "f5", "--foo"],
        &["perft", "--foo", "f5"],
        &["analyze", "--depht", "2", "f5"],
        &["solve", "--al-moves", "-s", "4"],
    ] {
        let (out, err) = exits(2, args);
        assert!(out.is_empty(), "{args:?}: {out:?}");
        assert!(
            err[0].starts_with("error: unexpected argument '--"),
            "{args:?}: {err:?}"
        );
    }
    // `show` has no --json: its error is no JSON either.
    let (out, err) = exits(2, &["show", "--json"]);
    assert!(out.is_empty(), "{out:?}");
    assert!(err[0].contains("'--json'"), "{err:?}");
    // `move` has one: the error is JSON, and names the option.
    let (out, _) = exits(2, &["move", "--levle", "3", "--json", "f5"]);
    assert!(out.len() == 1 && out[0].contains("--levle"), "{out:?}");
}

/// Defect 11: a subcommand's help lists the engine options it takes, and
/// no other; options before the subcommand still count.
#[test]
fn help_lists_only_the_options_a_subcommand_takes() {
    let help = |command: &str| exits(0, &[command, "--help"]).0.join("\n");
    let engine = [
        "--level",
        "--hash",
        "--depth",
        "--time",
        "--threads",
        "--selectivity",
        "--seed",
    ];
    for (command, takes) in [
        ("show", &[][..]),
        ("train-eval", &[]),
        ("openings", &[]),
        ("perft", &["--depth"]),
        ("solve", &["--hash", "--threads", "--selectivity", "--seed"]),
        ("bench", &["--depth", "--selectivity"]),
        ("move", &engine),
        ("nboard", &engine),
    ] {
        let text = help(command);
        for option in engine {
            assert_eq!(
                text.contains(&format!("{option} <")),
                takes.contains(&option),
                "{command} --help and {option}:\n{text}"
            );
        }
    }
    let (out, _) = exits(0, &["--depth", "2", "move", "f5d6", "--json", "--no-book"]);
    assert!(out[0].contains("\"depth\":2"), "{out:?}");
    let (_, err) = exits(2, &["--depth", "2", "show"]);
    assert_eq!(
        err,
        ["error: --depth does not apply to show (it searches nothing)"]
    );
}

/// Defect 12: a solve out of reach says so at once, with its estimate and
/// what to do instead, then shows each step it finishes (JSON lines under
/// `--json`); a quick solve stays quiet.
#[test]
fn a_hopeless_solve_warns_and_shows_its_progress() {
    for json in [false, true] {
        let mut args = vec!["solve", "f5d6c3", "--threads", "1"];
        if json {
            args.push("--json");
        }
        let solve = Oxello::spawn(&args);
        let deadline = Instant::now() + Duration::from_secs(30);
        let lines = loop {
            let lines = solve.stderr();
            if lines.len() >= 3 || Instant::now() > deadline {
                break lines;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        assert!(lines.len() >= 3, "{lines:?}");
        if json {
            let values: Vec<serde_json::Value> = lines
                .iter()
                .map(|line| serde_json::from_str(line).unwrap())
                .collect();
            assert_eq!(values[0]["empties"], 57, "{lines:?}");
            assert!(values[0]["warning"].as_str().unwrap().contains("analyze"));
            assert_eq!(values[1]["progress"], true, "{lines:?}");
            assert!(values[1]["nodes"].is_u64(), "{lines:?}");
        } else {
            assert!(lines[0].starts_with("warning: solve #1: 57 empties: expect about"));
            assert!(
                lines[0].contains("years") && lines[0].contains("analyze"),
                "{lines:?}"
            );
            assert!(lines[1].starts_with("solve #1: 1@73% done: "), "{lines:?}");
            assert!(lines[1].contains(" nodes, "), "{lines:?}");
        }
    }
    let (_, err) = exits(0, &["solve", "-s", "4"]);
    assert!(err.is_empty(), "{err:?}");
}

/// Defect 15: a missing engine program is said to be missing, and engines
/// are named after their program.
#[test]
fn match_names_a_missing_engine_and_engines_by_their_program() {
    let (_, err) = exits(
        2,
        &[
            "match",
            "-e",
            "/nonexistent/engine",
            "-e",
            "greedy",
            "--games",
            "2",
        ],
    );
    assert_eq!(err, ["error: engine 1: /nonexistent/engine: no such file"]);
    let (_, err) = exits(2, &["match", "-e", "no-such-engine nboard", "-e", "greedy"]);
    assert!(
        err[0].contains("no-such-engine: no such program on the PATH"),
        "{err:?}"
    );
    let exe = env!("CARGO_BIN_EXE_oxello");
    let two = format!("'{exe}' nboard --level 1");
    let (out, _) = exits(
        0,
        &[
            "match", "-e", &two, "-e", "greedy", "--games", "2", "--seed", "1",
        ],
    );
    assert!(out[0].starts_with("Match oxello vs greedy:"), "{out:?}");
}

/// Defect 18: a one-sided match has no `inf` in its Elo, results are whole
/// discs, counts of one are singular, the analysis depth column holds its
/// labels, and a solve says it is one rather than `depth 100%`.
#[test]
fn results_print_honest_numbers_in_aligned_columns() {
    let (out, err) = exits(
        0,
        &[
            "match", "-e", "level:4", "-e", "random", "--games", "10", "--seed", "1",
        ],
    );
    let text = format!("{}\n{}", out.join("\n"), err.join("\n"));
    assert!(!text.contains("inf"), "{text}");
    for line in err.iter().filter(|l| l.starts_with("game ")) {
        let result = line.rsplit(": ").next().unwrap();
        assert!(result.parse::<i32>().is_ok(), "{line}");
    }
    let result = out.iter().find(|l| l.starts_with("Result for")).unwrap();
    assert!(
        !result.contains("1 wins") && !result.contains("1 losses"),
        "{result}"
    );
    let (out, _) = exits(0, &["analyze", "f5d6c3d3c4", "--depth", "11"]);
    let bars = |line: &str| -> Vec<usize> { line.match_indices('|').map(|(at, _)| at).collect() };
    let header = bars(&out[1]);
    for row in &out[2..out.len() - 1] {
        assert_eq!(bars(row), header, "{row}\n{}", out[1]);
    }
    let board = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
    let (out, _) = exits(0, &["analyze", board, "--exact"]);
    let last = out.last().unwrap();
    assert!(
        last.contains(" solved exact ") && !last.contains("100%"),
        "{last}"
    );
}
