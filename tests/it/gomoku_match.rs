//! Gomoku matches (`oxello match --game gomoku`) against the built
//! binaries: oxello's Gomocup brain against the simple players, the SGF
//! match file and its resuming, shards and merging, broken engines (a shell
//! script, `tests/engines/broken_gomocup.sh`) forfeiting with their reason,
//! and the command line's errors. No test needs an engine from elsewhere.
//! Run under `cargo test --profile test-release`.

use crate::common;

use oxello::arena::contestant::FaultKind;
use oxello::arena::record::GameTag;
use oxello::gomoku::board::{Board, Status};
use oxello::gomoku::rules::{Config, Rule};
use oxello::gomoku::sgf::GomokuRecord;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const OXELLO: &str = env!("CARGO_BIN_EXE_oxello");
const PBRAIN: &str = env!("CARGO_BIN_EXE_pbrain-oxello");

fn repo_file(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .display()
        .to_string()
}

fn temp_dir(test: &str) -> PathBuf {
    common::temp_dir("gomatch", test)
}

/// `oxello match --game gomoku` with these arguments.
fn gomoku_match(args: &[&str]) -> Output {
    Command::new(OXELLO)
        .args(["match", "--game", "gomoku"])
        .args(args)
        .output()
        .unwrap()
}

/// A run that must succeed: its stdout and stderr.
fn succeeds(output: Output) -> (String, String) {
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{stdout}\n{stderr}");
    (stdout, stderr)
}

/// Every game of an SGF match file: it reads back, replays on a board of
/// `config` to its result (a forfeit aside), and carries its tag.
fn check_match_file(path: &Path, config: Config) -> Vec<(GomokuRecord, GameTag)> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|line| {
            let record = GomokuRecord::parse(line).unwrap();
            let tag = GameTag::parse(&record.comment).expect("a tagged game");
            assert_eq!((record.width, record.height), (config.width, config.height));
            assert_eq!(record.rule, config.rule);
            let mut board = Board::new(config).unwrap();
            let mut status = Status::Ongoing;
            for mv in &record.moves {
                assert_eq!(mv.color, board.to_move(), "{line}");
                status = board.play(mv.point).unwrap();
            }
            let opening_text: String = record
                .moves
                .iter()
                .take_while(|m| m.time_ms.is_none())
                .map(|m| oxello::gomoku::text::format_pos(m.point))
                .collect();
            assert_eq!(opening_text, tag.moves, "{line}");
            match tag.forfeit {
                None => assert_eq!(status, record.result, "{line}"),
                Some(_) => assert!(record.reason.contains("forfeits"), "{line}"),
            }
            (record, tag)
        })
        .collect()
}

fn numbers(games: &[(GomokuRecord, GameTag)]) -> Vec<usize> {
    let mut numbers: Vec<usize> = games.iter().map(|(_, tag)| tag.number).collect();
    numbers.sort_unstable();
    numbers
}

fn nine_by_nine() -> Config {
    Config {
        width: 9,
        height: 9,
        ..Config::default()
    }
}

/// Every opening list in `positions/` replays on the board and under the
/// rule it is for (no stone off the board or on another, no finished
/// row), has the openings its README row counts, and none twice.
#[test]
fn the_opening_lists_replay_on_their_boards() {
    use oxello::gomoku::openings::parse_list;
    for (file, size, rule, count) in [
        ("positions/gomoku-openings.txt", 15, Rule::Standard, 120),
        (
            "positions/gomoku-balanced-15-standard.txt",
            15,
            Rule::Standard,
            120,
        ),
        (
            "positions/gomoku-balanced-20-freestyle.txt",
            20,
            Rule::Freestyle,
            60,
        ),
        (
            "positions/gomoku-middle-15-standard.txt",
            15,
            Rule::Standard,
            20,
        ),
    ] {
        let text = std::fs::read_to_string(repo_file(file)).unwrap();
        let config = Config {
            width: size,
            height: size,
            n: 5,
            rule,
        };
        let openings = parse_list(&text, config).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(openings.len(), count, "{file}");
        let mut seen = std::collections::HashSet::new();
        for opening in &openings {
            assert!(
                seen.insert(opening.text()),
                "{file}: {} twice",
                opening.text()
            );
        }
    }
}

#[test]
fn oxello_beats_greedy_and_a_stopped_match_resumes() {
    let dir = temp_dir("resume");
    let output = dir.join("match.sgf");
    let openings = repo_file("positions/gomoku-openings.txt");
    let engine = format!("'{OXELLO}' gomocup");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "-e",
            &engine,
            "--name1",
            "oxello",
            "-e",
            "greedy",
            "--size",
            "9",
            "--time",
            "0.05",
            "--games",
            "6",
            "--seed",
            "3",
            "--openings",
            &openings,
            "-o",
        ];
        args.push(output.to_str().unwrap());
        args.extend(extra);
        gomoku_match(&args)
    };
    let (stdout, _) = succeeds(run(&["--stop-after", "2"]));
    assert!(stdout.contains("Stopped after 2 of 6 games"), "{stdout}");
    assert!(
        stdout.contains("9x9 freestyle, 0.05 s per move, 350 MiB"),
        "{stdout}"
    );
    assert_eq!(check_match_file(&output, nine_by_nine()).len(), 2);
    // A game cut off by a kill while being written is dropped on resuming.
    let before = std::fs::read_to_string(&output).unwrap();
    std::fs::write(&output, format!("{before}(;FF[4]GM[4]SZ[9]RE[B+")).unwrap();
    let (stdout, stderr) = succeeds(run(&[]));
    assert!(stderr.contains("resumed: 2 games"), "{stderr}");
    assert!(stderr.contains("4 of 6 games to play"), "{stderr}");
    assert!(
        stdout.contains("Result for oxello: 6 wins, 0 draws, 0 losses"),
        "{stdout}"
    );
    assert!(dir.join("match.sgf.bak").is_file());
    let after = std::fs::read_to_string(&output).unwrap();
    assert!(after.starts_with(&before), "finished games were rewritten");
    let games = check_match_file(&output, nine_by_nine());
    assert_eq!(numbers(&games), (1..=6).collect::<Vec<_>>());
    for (record, tag) in &games {
        let oxello = if tag.black == 0 { "oxello" } else { "greedy" };
        assert_eq!(record.black, oxello);
        assert_eq!(tag.forfeit, None);
        // Three opening stones, then timed moves.
        assert!(record.moves[..3].iter().all(|m| m.time_ms.is_none()));
        assert!(record.moves[3..].iter().all(|m| m.time_ms.is_some()));
    }
    // Other engines cannot resume this file.
    let other = gomoku_match(&[
        "-e",
        "random",
        "-e",
        "greedy",
        "-o",
        output.to_str().unwrap(),
    ]);
    assert_eq!(other.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&other.stderr).contains("cannot resume"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pbrain_oxello_beats_random_on_a_rectangular_standard_board() {
    let dir = temp_dir("rect");
    let output = dir.join("rect.sgf");
    let (stdout, _) = succeeds(gomoku_match(&[
        "-e",
        PBRAIN,
        "-e",
        "random",
        "--size",
        "12x9",
        "--rule",
        "standard",
        "--time",
        "0.05",
        "--tc",
        "20",
        "--max-memory",
        "64",
        "--seed",
        "4",
        "--games",
        "2",
        "-o",
        output.to_str().unwrap(),
    ]));
    assert!(
        stdout.contains("Result for pbrain-oxello: 2 wins"),
        "{stdout}"
    );
    assert!(
        stdout.contains("12x9 standard, 0.05 s per move, 20 s per game, 64 MiB"),
        "{stdout}"
    );
    let config = Config {
        width: 12,
        height: 9,
        rule: Rule::Standard,
        ..Config::default()
    };
    let text = std::fs::read_to_string(&output).unwrap();
    assert!(text.contains("SZ[12:9]RU[1]"), "{text}");
    assert_eq!(check_match_file(&output, config).len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn broken_engines_forfeit_with_their_reason() {
    let dir = temp_dir("broken");
    let script = repo_file("tests/engines/broken_gomocup.sh");
    let cases = [
        (
            "garbage",
            FaultKind::BadOutput,
            "'hello there' is not a move",
        ),
        ("error", FaultKind::BadOutput, "refused: ERROR cannot play"),
        ("occupied", FaultKind::IllegalMove, "7,7 is occupied"),
        ("offboard", FaultKind::IllegalMove, "99,99 is off the board"),
        ("crash", FaultKind::Crash, "closed its output"),
        ("hang", FaultKind::Timeout, "no reply in"),
    ];
    for (fault, kind, detail) in cases {
        let output = dir.join(format!("{fault}.sgf"));
        let engine = format!("sh '{script}' {fault}");
        let (stdout, _) = succeeds(gomoku_match(&[
            "-e",
            &engine,
            "--name1",
            "broken",
            "-e",
            "greedy",
            "--size",
            "9",
            "--time",
            "0.2",
            "--grace",
            "0.3",
            "--games",
            "2",
            "-o",
            output.to_str().unwrap(),
        ]));
        assert!(
            stdout.contains("Result for broken: 0 wins, 0 draws, 2 losses"),
            "{fault}: {stdout}"
        );
        assert!(
            stdout.contains(&format!("broken: forfeits 2 {}", kind.name())),
            "{fault}: {stdout}"
        );
        let games = check_match_file(&output, nine_by_nine());
        assert_eq!(games.len(), 2);
        for (record, tag) in games {
            assert_eq!(tag.forfeit, Some((0, kind)), "{fault}");
            assert!(tag.note.contains(detail), "{fault}: {}", tag.note);
            assert!(record.reason.contains(detail), "{fault}: {}", record.reason);
            let loser = if tag.black == 0 { "black" } else { "white" };
            assert!(record.reason.starts_with(&format!("{loser} forfeits")));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_merge_into_the_whole_and_sprt_stops() {
    let dir = temp_dir("shards");
    let openings = repo_file("positions/gomoku-openings.txt");
    let run = |path: &Path, extra: &[&str]| {
        let mut args = vec![
            "-e",
            "greedy",
            "-e",
            "random",
            "--seed",
            "5",
            "--games",
            "12",
            "--openings",
            &openings,
            "-o",
            path.to_str().unwrap(),
        ];
        args.extend(extra);
        succeeds(gomoku_match(&args)).0
    };
    let whole = run(&dir.join("whole.sgf"), &[]);
    let shards: Vec<PathBuf> = ["1/2", "2/2"]
        .iter()
        .map(|shard| {
            let path = dir.join(format!("shard-{}.sgf", &shard[..1]));
            let stdout = run(&path, &["--shard", shard]);
            assert!(stdout.contains(&format!("shard {shard}")), "{stdout}");
            path
        })
        .collect();
    let merge = |game: &[&str]| {
        Command::new(OXELLO)
            .arg("match")
            .args(game)
            .arg("--merge")
            .args(&shards)
            .output()
            .unwrap()
    };
    let (merged, _) = succeeds(merge(&["--game", "gomoku"]));
    assert!(merged.contains("games 1-12, none missing"), "{merged}");
    assert_eq!(
        common::match_results(&merged),
        common::match_results(&whole)
    );
    // Without --game gomoku the SGF files hold no Othello games.
    let othello = merge(&[]);
    assert_eq!(othello.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&othello.stderr).contains("no finished match game"));
    // A lopsided match stops once the test decides.
    let (stdout, _) = succeeds(gomoku_match(&[
        "-e", "greedy", "-e", "random", "--seed", "6", "--games", "200", "--sprt", "0,200",
    ]));
    assert!(stdout.contains("SPRT decided after"), "{stdout}");
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--info1` and `--info2` reach their own engine alone, after the match's
/// settings (which they may override), at the start of every game.
#[test]
fn engine_info_settings_reach_their_engine_after_the_match_ones() {
    let dir = temp_dir("info");
    let script = repo_file("tests/engines/broken_gomocup.sh");
    let output = dir.join("info.sgf");
    let engine = format!("sh '{script}' info");
    let (stdout, _) = succeeds(gomoku_match(&[
        "-e",
        &engine,
        "--name1",
        "told",
        "-e",
        &engine,
        "--name2",
        "other",
        "--info1",
        "max_node=1234",
        "--info1",
        "timeout_turn=50",
        "--info2",
        "max_depth=3",
        "--size",
        "9",
        "--time",
        "0.2",
        "--games",
        "2",
        "-o",
        output.to_str().unwrap(),
    ]));
    assert!(
        stdout.contains("Result for told: 1 win, 0 draws, 1 loss"),
        "{stdout}"
    );
    let games = check_match_file(&output, nine_by_nine());
    assert_eq!(games.len(), 2);
    for (record, tag) in games {
        // Black moves first and forfeits: its ERROR line lists what it saw.
        let black = if tag.black == 0 { "told" } else { "other" };
        assert_eq!(record.black, black);
        // Its own settings, newest first, then the match's from the last.
        let own = if black == "told" {
            "[INFO timeout_turn 50][INFO max_node 1234]"
        } else {
            "[INFO max_depth 3]"
        };
        let saw = format!("ERROR saw {own}[INFO rule 0]");
        assert!(record.reason.contains(&saw), "{saw}\n{}", record.reason);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gomoku_command_line_errors() {
    let dir = temp_dir("errors");
    let usage = |args: &[&str], message: &str| {
        let output = gomoku_match(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    };
    usage(&["-e", "level:3", "-e", "greedy"], "Othello player");
    usage(&["-e", "positional", "-e", "greedy"], "Othello player");
    usage(
        &["-e", "./bot", "--proto1", "nboard", "-e", "greedy"],
        "Othello protocol",
    );
    usage(
        &[
            "-e", "greedy", "-e", "random", "--rule", "renju", "--size", "9",
        ],
        "renju",
    );
    usage(
        &["-e", "greedy", "-e", "random", "--size", "9x"],
        "--size 9x",
    );
    usage(
        &["-e", "greedy", "-e", "random", "--tc", "60+1"],
        "no increment",
    );
    usage(&["-e", "greedy", "-e", "random", "--hash", "16"], "--hash");
    // Per-engine INFO settings: KEY=VALUE, one word, Gomocup engines only.
    let brain = PBRAIN;
    for bad in ["max_node", "=5", "max node=5", "max_node=", "max_node=1 2"] {
        usage(
            &["-e", brain, "-e", "greedy", "--info1", bad],
            "bad INFO setting",
        );
    }
    usage(
        &["-e", brain, "-e", "greedy", "--info2", "max_node=5"],
        "takes no INFO settings",
    );
    let othello = Command::new(OXELLO)
        .args([
            "match", "-e", "greedy", "-e", "random", "--rule", "standard",
        ])
        .output()
        .unwrap();
    assert_eq!(othello.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&othello.stderr).contains("gomoku options"));
    let othello = Command::new(OXELLO)
        .args(["match", "-e", "greedy", "-e", "random", "--info1", "a=1"])
        .output()
        .unwrap();
    assert_eq!(othello.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&othello.stderr).contains("for gomoku engines"));
    // A bad opening names its file and line (a run error, not a usage one).
    let list = dir.join("bad.txt");
    std::fs::write(&list, "0,0, 1,1\n0,0, 0,0\n").unwrap();
    let output = gomoku_match(&[
        "-e",
        "greedy",
        "-e",
        "random",
        "--openings",
        list.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("bad.txt: line 2: 7,7 is occupied"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
