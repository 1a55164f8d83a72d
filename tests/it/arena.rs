//! Engine matches (`oxello match`): strength, subprocess engines over NBoard
//! and GTP, broken engines, resuming, and the GGF match file.
//!
//! The fake engines are small Python scripts in `tests/engines/` (strict
//! about what they are sent); tests that need them skip when `python3` is
//! missing. Run under `cargo test --profile test-release`.

use crate::common;

use oxello::arena::contestant::FaultKind;
use oxello::arena::gtp::PassStyle;
use oxello::arena::record::GameTag;
use oxello::arena::{
    EngineSpec, MatchConfig, MatchReport, ScheduleOptions, TimeControl, run_match,
};
use oxello::formats::{ggf, openings};
use oxello::{BoardSize, Position};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const OXELLO: &str = env!("CARGO_BIN_EXE_oxello");

fn xot_openings() -> Vec<openings::Opening> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/xot-first-50.txt");
    let text = std::fs::read_to_string(path).unwrap();
    openings::parse_list(&text, Position::start(BoardSize::Eight)).unwrap()
}

fn script(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/engines")
        .join(name)
        .display()
        .to_string()
}

fn python() -> bool {
    let found = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success());
    if !found {
        eprintln!("skipped: python3 not found");
    }
    found
}

fn spec(text: &str) -> EngineSpec {
    EngineSpec::parse(text, None, None).unwrap()
}

fn temp_dir(test: &str) -> PathBuf {
    common::temp_dir("arena", test)
}

fn run(config: &MatchConfig) -> MatchReport {
    run_match(config, &mut |_| {}).unwrap()
}

/// Every game of a match file, read back with `formats::ggf`: it replays,
/// its result is the final score (or a forfeit flag), it carries its tag.
fn check_match_file(path: &Path) -> Vec<(ggf::GgfGame, GameTag)> {
    let text = std::fs::read_to_string(path).unwrap();
    let games = ggf::parse_all(&text).unwrap();
    assert_eq!(games.len(), text.lines().count());
    games
        .into_iter()
        .map(|record| {
            let game = record.to_game().unwrap();
            let result = record.result.expect("a finished game");
            let tag = GameTag::parse(&record.comment).expect("a tagged game");
            match tag.forfeit {
                None => {
                    assert!(game.is_over());
                    assert_eq!(result.flag, None);
                    assert_eq!(result.score, f64::from(game.final_score_black().unwrap()));
                }
                Some(_) => assert!(result.flag.is_some() && result.score.abs() == 64.0),
            }
            (record, tag)
        })
        .collect()
}

#[test]
fn depth_6_beats_depth_2_on_20_paired_xot_openings() {
    let mut config = MatchConfig::new([spec("depth:6"), spec("depth:2")]);
    config.game.openings = xot_openings();
    config.schedule = ScheduleOptions {
        games: Some(40),
        ..ScheduleOptions::default()
    };
    config.concurrency = 2;
    let report = run(&config);
    let tally = &report.tally;
    assert!(report.complete);
    assert_eq!(tally.games(), 40);
    assert_eq!(tally.forfeits, [[0; 5]; 2]);
    assert_eq!(tally.finished, 40);
    let estimate = oxello::arena::stats::elo_estimate(&tally.wdl).unwrap();
    println!("{}", tally.summary(None));
    assert!(tally.wdl.score() > 0.75, "{}", tally.wdl);
    assert!(estimate.low > 0.0, "{estimate:?}");
    assert!(tally.discs[0] > tally.discs[1]);
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let mut config = MatchConfig::new([spec("depth:4"), spec("random")]);
    config.game.openings = xot_openings();
    config.sprt = Some("0,50".parse().unwrap());
    let report = run(&config);
    assert!(!report.complete);
    assert!(report.tally.games() < 100);
    // Not before a sample.
    assert!(report.tally.games() >= oxello::arena::stats::SPRT_MIN_GAMES);
    let (_, llr, decision) = report.sprt.unwrap();
    assert_eq!(decision, oxello::arena::SprtDecision::AcceptH1, "LLR {llr}");
}

#[test]
fn oxello_nboard_subprocesses_play_a_clocked_match() {
    let dir = temp_dir("nboard");
    let output = dir.join("match.ggf");
    let mut config = MatchConfig::new([
        spec(&format!("'{OXELLO}' nboard --level 4")),
        spec(&format!("'{OXELLO}' nboard --level 2")),
    ]);
    config.game.openings = xot_openings();
    config.schedule.games = Some(6);
    config.concurrency = 2;
    config.game.referee.time = TimeControl::Game {
        main: Duration::from_secs(20),
        increment: Duration::from_millis(200),
    };
    config.output = Some(output.clone());
    let report = run(&config);
    assert_eq!(report.tally.games(), 6);
    assert_eq!(
        report.tally.forfeits,
        [[0; 5]; 2],
        "{}",
        report.tally.summary(None)
    );
    for (record, _) in check_match_file(&output) {
        assert_eq!(record.clock.main, 20.0);
        assert_eq!(record.clock.increment, 0.2);
        let played: Vec<_> = record.moves.iter().filter(|m| m.time.is_some()).collect();
        assert!(played.iter().all(|m| m.eval.is_some()));
        let used: f64 = played.iter().filter_map(|m| m.time).sum();
        assert!(used < 2.0 * (20.0 + 0.2 * 30.0));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn strict_nboard_engine_is_synchronised_and_never_interrupted() {
    if !python() {
        return;
    }
    // The fake engine exits (a crash forfeit) when `go` does not follow a
    // `ping`, when a line arrives while it thinks, or when a relayed move
    // (passes included) is illegal.
    let mut config = MatchConfig::new([
        spec(&format!(
            "python3 {} --think 0.02",
            script("fake_nboard.py")
        )),
        spec(&format!("'{OXELLO}' nboard --level 1")),
    ]);
    config.game.openings = xot_openings();
    config.schedule.games = Some(8);
    config.game.referee.depth = Some(2);
    let report = run(&config);
    assert_eq!(report.tally.games(), 8);
    assert_eq!(
        report.tally.forfeits,
        [[0; 5]; 2],
        "{}",
        report.tally.summary(None)
    );
    assert_eq!(report.tally.finished, 8);
}

#[test]
fn gtp_engines_with_explicit_and_implicit_passes() {
    if !python() {
        return;
    }
    // The fake refuses a move or genmove for the colour not on move (unless
    // --implicit and the side to move must pass); a refusal is a forfeit.
    // Its play (always the last legal move) leads to passes in some games.
    for (passes, fake) in [
        (PassStyle::Explicit, "fake_gtp.py"),
        (PassStyle::Implicit, "fake_gtp.py --implicit"),
    ] {
        let mut config = MatchConfig::new([
            spec(&format!("python3 {}", script(fake))),
            spec(&format!("'{OXELLO}' gtp --level 2")),
        ]);
        config.game.openings = xot_openings();
        config.schedule.games = Some(10);
        config.game.gtp_passes = passes;
        config.game.referee.time = TimeControl::PerMove(Duration::from_millis(300));
        let dir = temp_dir("gtp");
        config.output = Some(dir.join("gtp.ggf"));
        let report = run(&config);
        assert_eq!(report.tally.games(), 10);
        assert_eq!(
            report.tally.forfeits,
            [[0; 5]; 2],
            "{passes:?}: {}",
            report.tally.summary(None)
        );
        let games = check_match_file(&dir.join("gtp.ggf"));
        let passes_played = games
            .iter()
            .flat_map(|(record, _)| &record.moves)
            .filter(|mv| mv.token == oxello::formats::transcript::Token::Pass)
            .count();
        println!("{passes:?}: {passes_played} passes relayed");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// `time_settings` and `time_left` are optional in GTP, and its times are
/// whole seconds: an engine that refuses the commands, or times with
/// decimals, still plays every game.
#[test]
fn gtp_engines_that_refuse_times_or_their_decimals_play() {
    if !python() {
        return;
    }
    for times in ["none", "whole"] {
        for time in [
            TimeControl::PerMove(Duration::from_millis(300)),
            TimeControl::Game {
                main: Duration::from_millis(2500),
                increment: Duration::from_millis(50),
            },
            // A whole start: `time_settings 3 0 0` is taken, and the first
            // `time_left` with decimals is what is refused.
            TimeControl::Game {
                main: Duration::from_secs(3),
                increment: Duration::from_millis(50),
            },
        ] {
            let mut config = MatchConfig::new([
                spec(&format!(
                    "python3 {} --times {times}",
                    script("fake_gtp.py")
                )),
                spec(&format!("'{OXELLO}' gtp --level 2")),
            ]);
            config.game.openings = xot_openings();
            config.schedule.games = Some(2);
            config.game.referee.time = time;
            let report = run(&config);
            assert_eq!(report.tally.games(), 2);
            assert_eq!(
                report.tally.forfeits,
                [[0; 5]; 2],
                "--times {times}, {time:?}: {}",
                report.tally.summary(None)
            );
        }
    }
}

#[test]
fn broken_engines_forfeit_and_the_match_goes_on() {
    if !python() {
        return;
    }
    let cases = [
        ("fake_nboard.py --fault illegal", FaultKind::IllegalMove),
        ("fake_nboard.py --fault crash", FaultKind::Crash),
        ("fake_nboard.py --fault hang", FaultKind::Timeout),
        ("fake_nboard.py --fault garbage", FaultKind::BadOutput),
        ("fake_gtp.py --fault illegal", FaultKind::IllegalMove),
        ("fake_gtp.py --fault crash", FaultKind::Crash),
        ("fake_gtp.py --fault garbage", FaultKind::BadOutput),
    ];
    let dir = temp_dir("broken");
    for (index, (fake, kind)) in cases.into_iter().enumerate() {
        let mut config =
            MatchConfig::new([spec(&format!("python3 {}", script(fake))), spec("level:2")]);
        config.game.openings = xot_openings();
        config.schedule.games = Some(4);
        config.game.referee.move_timeout = Duration::from_millis(1500);
        let output = dir.join(format!("broken-{index}.ggf"));
        config.output = Some(output.clone());
        let started = Instant::now();
        let report = run(&config);
        assert!(started.elapsed() < Duration::from_secs(60));
        // Every game is played, each lost by the broken engine, with the cause.
        assert_eq!(report.tally.games(), 4, "{fake}");
        assert_eq!(report.tally.wdl.losses, 4, "{fake}");
        let slot = FaultKind::ALL.iter().position(|&k| k == kind).unwrap();
        assert_eq!(
            report.tally.forfeits[0][slot],
            4,
            "{fake}: {}",
            report.tally.summary(None)
        );
        assert_eq!(report.tally.forfeit_text(1), "none");
        let games = check_match_file(&output);
        assert_eq!(games.len(), 4);
        for (record, tag) in games {
            assert_eq!(tag.forfeit, Some((0, kind)));
            assert!(tag.note.contains(kind.name()), "{}", tag.note);
            // The fault comes at the engine's third move, after the opening.
            assert!(
                record.moves.len() >= 8 + 4,
                "{fake}: {}",
                record.moves.len()
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_broken_engine_among_good_games_is_only_charged_its_faults() {
    if !python() {
        return;
    }
    // Faulting at its 25th move, the fake plays some games to the end and
    // loses others by a crash; the tally counts both.
    let mut config = MatchConfig::new([
        spec(&format!(
            "python3 {} --fault crash --at 25",
            script("fake_nboard.py")
        )),
        spec("depth:1"),
    ]);
    config.game.openings = xot_openings();
    config.schedule.games = Some(8);
    config.concurrency = 2;
    let report = run(&config);
    let tally = &report.tally;
    assert_eq!(tally.games(), 8);
    let crashes = tally.forfeits[0][1];
    assert_eq!(crashes + tally.finished, 8, "{}", tally.summary(None));
    assert!(crashes > 0 && tally.finished > 0, "{}", tally.summary(None));
}

fn match_command(output: &Path, extra: &[&str]) -> Command {
    let openings = Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/xot-first-50.txt");
    let mut command = Command::new(OXELLO);
    command
        .args([
            "match", "-e", "depth:5", "-e", "depth:3", "--seed", "11", "-j", "2",
        ])
        .arg("--openings")
        .arg(openings)
        .arg("--output")
        .arg(output)
        .args(extra);
    command
}

fn numbers(games: &[(ggf::GgfGame, GameTag)]) -> Vec<usize> {
    let mut numbers: Vec<usize> = games.iter().map(|(_, tag)| tag.number).collect();
    numbers.sort_unstable();
    numbers
}

#[test]
fn a_stopped_match_resumes_without_replaying_games() {
    let dir = temp_dir("resume");
    let output = dir.join("match.ggf");
    let first = match_command(&output, &["--games", "10", "--stop-after", "4"])
        .output()
        .unwrap();
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let stdout = String::from_utf8_lossy(&first.stdout);
    assert!(stdout.contains("Stopped after 4 of 10 games"), "{stdout}");
    let before = std::fs::read_to_string(&output).unwrap();
    assert_eq!(numbers(&check_match_file(&output)).len(), 4);
    let second = match_command(&output, &["--games", "10"]).output().unwrap();
    assert!(second.status.success());
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(stderr.contains("resumed: 4 games"), "{stderr}");
    // The progress counts the resumed games against the whole schedule.
    assert!(stderr.contains("\n[4/10] depth:5 vs depth:3: "), "{stderr}");
    assert!(stderr.contains("6 of 10 games to play"), "{stderr}");
    let stdout = String::from_utf8_lossy(&second.stdout);
    assert!(stdout.contains("Games: 10 "), "{stdout}");
    let after = std::fs::read_to_string(&output).unwrap();
    assert!(after.starts_with(&before), "finished games were rewritten");
    assert_eq!(
        numbers(&check_match_file(&output)),
        (1..=10).collect::<Vec<_>>()
    );
    // A third run has nothing left to play.
    let third = match_command(&output, &["--games", "10"]).output().unwrap();
    assert!(String::from_utf8_lossy(&third.stderr).contains("0 of 10 games to play"));
    assert_eq!(std::fs::read_to_string(&output).unwrap(), after);
    // Other engines cannot resume this file.
    let other = Command::new(OXELLO)
        .args(["match", "-e", "depth:1", "-e", "depth:3", "--output"])
        .arg(&output)
        .output()
        .unwrap();
    assert!(!other.status.success());
    assert!(String::from_utf8_lossy(&other.stderr).contains("cannot resume"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_killed_match_resumes() {
    let dir = temp_dir("kill");
    let output = dir.join("match.ggf");
    let mut child = match_command(&output, &["--games", "12"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let waited = Instant::now();
    loop {
        let lines = std::fs::read_to_string(&output).map_or(0, |text| text.lines().count());
        if lines >= 3 || waited.elapsed() > Duration::from_secs(120) {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let kept = check_match_file(&output).len();
    assert!((3..12).contains(&kept), "{kept} games before the kill");
    let rerun = match_command(&output, &["--games", "12"]).output().unwrap();
    assert!(rerun.status.success());
    let stderr = String::from_utf8_lossy(&rerun.stderr);
    assert!(
        stderr.contains(&format!("resumed: {kept} games")),
        "{stderr}"
    );
    assert_eq!(
        numbers(&check_match_file(&output)),
        (1..=12).collect::<Vec<_>>()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_command_line_errors() {
    let run = |args: &[&str]| {
        Command::new(OXELLO)
            .arg("match")
            .args(args)
            .output()
            .unwrap()
    };
    let one = run(&["-e", "level:2"]);
    assert!(!one.status.success());
    assert!(String::from_utf8_lossy(&one.stderr).contains("two engines"));
    let unknown = run(&["-e", "level:2", "-e", "cat"]);
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("protocol"));
    let absent = run(&["-e", "level:2", "-e", "./some-engine"]);
    assert!(String::from_utf8_lossy(&absent.stderr).contains("./some-engine: no such file"));
    let missing = run(&[
        "-e",
        "level:2",
        "-e",
        "/nonexistent/engine",
        "--proto2",
        "nboard",
    ]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no such file"));
    let sprt = run(&["-e", "level:2", "-e", "level:1", "--sprt", "5,1"]);
    assert!(!sprt.status.success());
}

#[test]
fn two_shards_merged_report_the_unsharded_match() {
    let dir = temp_dir("shards");
    let games = ["--games", "14"];
    let whole = match_command(&dir.join("whole.ggf"), &games)
        .output()
        .unwrap();
    assert!(
        whole.status.success(),
        "{}",
        String::from_utf8_lossy(&whole.stderr)
    );
    let mut shard_files = Vec::new();
    for shard in ["1/2", "2/2"] {
        let path = dir.join(format!("shard-{}.ggf", &shard[..1]));
        let run = match_command(&path, &[games[0], games[1], "--shard", shard])
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert!(stdout.contains(&format!("shard {shard}")), "{stdout}");
        // Pairs of games go to the shards in turn: 1-2, 5-6, ... and 3-4, 7-8, ...
        let numbers = numbers(&check_match_file(&path));
        let first = if shard == "1/2" { 1 } else { 3 };
        assert!(
            numbers.iter().all(|n| ((n - 1) / 2) % 2 == (first - 1) / 2),
            "{numbers:?}"
        );
        shard_files.push(path);
    }
    let merge = Command::new(OXELLO)
        .args(["match", "--merge"])
        .args(&shard_files)
        .output()
        .unwrap();
    assert!(
        merge.status.success(),
        "{}",
        String::from_utf8_lossy(&merge.stderr)
    );
    let merged = String::from_utf8_lossy(&merge.stdout);
    assert!(merged.contains("games 1-14, none missing"), "{merged}");
    let whole = String::from_utf8_lossy(&whole.stdout);
    assert_eq!(
        common::match_results(&merged),
        common::match_results(&whole)
    );
    // The same shard twice is refused, and so is a missing file.
    let twice = Command::new(OXELLO)
        .args(["match", "--merge"])
        .args([&shard_files[0], &shard_files[0]])
        .output()
        .unwrap();
    assert_eq!(twice.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&twice.stderr).contains("the same shard twice"));
    let missing = Command::new(OXELLO)
        .args(["match", "--merge"])
        .arg(dir.join("nothing.ggf"))
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no such file"));
    // A shard's file cannot be resumed as another shard, and --sprt belongs
    // to the merge.
    let wrong = match_command(&shard_files[0], &[games[0], games[1], "--shard", "2/2"])
        .output()
        .unwrap();
    assert!(!wrong.status.success());
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("another shard"));
    let sprt = match_command(&dir.join("x.ggf"), &["--shard", "1/2", "--sprt", "0,10"])
        .output()
        .unwrap();
    assert_eq!(sprt.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&sprt.stderr).contains("--merge"));
    let with_sprt = Command::new(OXELLO)
        .args(["match", "--sprt", "0,10", "--merge"])
        .args(&shard_files)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&with_sprt.stdout).contains("SPRT (elo0 0 elo1 10"));
    let _ = std::fs::remove_dir_all(&dir);
}
