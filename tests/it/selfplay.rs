//! `oxello selfplay` end to end: reproducible for a seed, shards that add up
//! to the whole run, resuming after a kill, small boards, the opening
//! sources and clear errors. Every run is small: a low level and a node
//! budget, a few games.

use crate::common;

use oxello::selfplay::{Format, Record};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh folder for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("oxello-selfplay-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `oxello selfplay` with small searches and the given arguments.
fn selfplay(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oxello"))
        .arg("selfplay")
        .args(["--level", "4", "--nodes", "4000"])
        .args(args)
        .output()
        .expect("run oxello")
}

/// Runs and expects success; returns the file's bytes.
fn run_ok(out: &Path, args: &[&str]) -> Vec<u8> {
    let mut all = vec!["--output", out.to_str().unwrap()];
    all.extend_from_slice(args);
    let output = selfplay(&all);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "selfplay {all:?} failed: {stderr}");
    std::fs::read(out).unwrap()
}

/// The records of a file grouped by game.
fn games(format: Format, bytes: &[u8]) -> BTreeMap<u32, Vec<Record>> {
    let mut games: BTreeMap<u32, Vec<Record>> = BTreeMap::new();
    for record in format.read_all::<Record>(bytes).unwrap() {
        games.entry(record.game).or_default().push(record);
    }
    games
}

#[test]
fn selfplay_is_reproducible_for_a_seed() {
    let dir = scratch("seed");
    // Games from two random moves share many positions, and a small table
    // keeps what earlier games stored in the way: a worker that kept its
    // table from game to game would write other files on 1 and 2 threads.
    let args = [
        "--games",
        "6",
        "--seed",
        "7",
        "--format",
        "jsonl",
        "--random-moves",
        "2",
        "--hash",
        "1",
    ];
    let one = run_ok(
        &dir.join("a.jsonl"),
        &[&args[..], &["--threads", "1"]].concat(),
    );
    let two = run_ok(
        &dir.join("b.jsonl"),
        &[&args[..], &["--threads", "2"]].concat(),
    );
    assert!(!one.is_empty());
    assert_eq!(
        one, two,
        "the same seed on 1 or 2 threads gives the same file"
    );
    let mut other_seed = args;
    other_seed[3] = "8";
    let other = run_ok(&dir.join("c.jsonl"), &other_seed);
    assert_ne!(one, other, "another seed gives other games");
    let games = games(Format::Jsonl, &one);
    assert_eq!(
        games.keys().copied().collect::<Vec<_>>(),
        [0, 1, 2, 3, 4, 5]
    );
    for records in games.values() {
        assert_eq!(records.len(), usize::from(records[0].records));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shards_together_equal_the_unsharded_run() {
    let dir = scratch("shards");
    for (format, ext) in [(Format::Binary, "bin"), (Format::Jsonl, "jsonl")] {
        let common = ["--games", "7", "--seed", "3", "--format", ext];
        let whole = run_ok(&dir.join(format!("whole.{ext}")), &common);
        let mut joined = Vec::new();
        for shard in ["1/3", "2/3", "3/3"] {
            let out = dir.join(format!("shard{}.{ext}", &shard[..1]));
            let bytes = run_ok(&out, &[&common[..], &["--shard", shard]].concat());
            let index: u32 = shard[..1].parse().unwrap();
            assert!(
                games(format, &bytes).keys().all(|g| g % 3 == index - 1),
                "{ext} shard {shard} holds its games only"
            );
            joined.extend_from_slice(&bytes);
        }
        let whole = games(format, &whole);
        assert_eq!(whole.len(), 7);
        assert_eq!(games(format, &joined), whole, "{ext}: cat of the shards");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn resumed_run_loses_and_duplicates_nothing() {
    let dir = scratch("resume");
    for ext in ["bin", "jsonl"] {
        let args = ["--games", "5", "--seed", "5", "--format", ext];
        let full = run_ok(&dir.join(format!("full.{ext}")), &args);
        let format: Format = ext.parse().unwrap();
        let records = format.read_all::<Record>(&full).unwrap();
        // Where a killed run may have stopped: nowhere, inside the first
        // record, at the end of a game, inside a record of a later game,
        // one byte short of the end.
        let first_game = usize::from(records[0].records);
        let mut first_bytes = Vec::new();
        format.encode_game(&records[..first_game], &mut first_bytes);
        assert!(
            full.starts_with(&first_bytes),
            "{ext}: records re-encode to the file"
        );
        let game_end = first_bytes.len();
        let cuts = [
            0,
            7,
            game_end,
            game_end + 3 * full.len() / 5,
            full.len() - 1,
        ];
        for cut in cuts {
            let out = dir.join(format!("cut{cut}.{ext}"));
            std::fs::write(&out, &full[..cut]).unwrap();
            let resumed = run_ok(&out, &args);
            assert_eq!(resumed.len(), full.len(), "{ext} cut at {cut}");
            assert!(resumed == full, "{ext} cut at {cut}: not the same bytes");
        }
        // A finished file is left as it is.
        let out = dir.join(format!("full.{ext}"));
        assert_eq!(run_ok(&out, &args), full);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn small_boards_are_served() {
    let dir = scratch("small");
    for (size, moves) in [("4", 12), ("6", 32)] {
        let out = dir.join(format!("s{size}.bin"));
        let bytes = run_ok(
            &out,
            &["--games", "6", "--size", size, "--format", "binary"],
        );
        let games = games(Format::Binary, &bytes);
        assert_eq!(games.len(), 6, "{size}x{size}");
        for records in games.values() {
            assert!(records.len() <= moves);
            let squares = records[0].position.size.squares() as i32;
            for record in records {
                assert_eq!(record.position.size.n().to_string(), size);
                assert!(i32::from(record.outcome).abs() <= squares);
            }
            // The last choice is solved and played perfectly.
            let last = records.last().unwrap();
            assert!(last.exact && last.score == last.outcome);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
#[cfg_attr(
    not(shared_data),
    ignore = "needs ../shared (WTHOR, XOT, FFO): skipped"
)]
fn xot_lines_and_wthor_prefixes_start_the_games() {
    let openings = common::shared("openings");
    let dir = scratch("openings");
    let xot = openings.join("xot-small.txt");
    let out = dir.join("xot.jsonl");
    let bytes = run_ok(&out, &["--games", "3", "--openings", xot.to_str().unwrap()]);
    for records in games(Format::Jsonl, &bytes).values() {
        // Eight XOT moves, no random moves after them.
        assert_eq!(records[0].ply, 8);
        assert_eq!(records[0].position.empty_count(), 52);
    }
    let wthor = common::shared("games/wthor");
    let out = dir.join("wthor.bin");
    let args = ["--games", "2", "--format", "binary", "--prefix", "30"];
    let bytes = run_ok(
        &out,
        &[&args[..], &["--wthor", wthor.to_str().unwrap()]].concat(),
    );
    for records in games(Format::Binary, &bytes).values() {
        assert_eq!(records[0].ply, 30);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_arguments_fail_cleanly() {
    let dir = scratch("errors");
    let out = dir.join("x.jsonl");
    let out = out.to_str().unwrap();
    let foreign = dir.join("foreign.jsonl");
    std::fs::write(&foreign, "this is not a record\nnor this\n").unwrap();
    let other_size = dir.join("six.bin");
    run_ok(
        &other_size,
        &["--games", "1", "--size", "6", "--format", "binary"],
    );
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--games", "2", "--output", out, "--shard", "3/2"],
            "shard",
        ),
        (
            vec!["--games", "2", "--output", out, "--shard", "0/2"],
            "shard",
        ),
        (
            vec![
                "--games",
                "2",
                "--output",
                out,
                "--openings",
                "/nonexistent/x.txt",
            ],
            "/nonexistent/x.txt",
        ),
        (
            vec!["--games", "2", "--output", "/nonexistent/dir/out.jsonl"],
            "/nonexistent/dir/out.jsonl",
        ),
        (
            vec!["--games", "2", "--output", out, "--time", "1"],
            "--time",
        ),
        (vec!["--games", "0", "--output", out], "--games"),
        (
            vec!["--games", "2", "--output", out, "--temperature=-1"],
            "temperature",
        ),
        (
            vec![
                "--games", "2", "--output", out, "--size", "6", "--wthor", "/tmp",
            ],
            "8x8",
        ),
        (
            vec!["--games", "2", "--output", foreign.to_str().unwrap()],
            "record 1",
        ),
        (
            vec![
                "--games",
                "2",
                "--format",
                "binary",
                "--output",
                other_size.to_str().unwrap(),
            ],
            "size 6x6 in the file, 8x8 in this run",
        ),
        (
            vec!["--games", "2", "--output", out, "--format", "xml"],
            "xml",
        ),
    ];
    for (args, needle) in cases {
        let output = selfplay(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?} should fail");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(
            stderr.contains(needle),
            "{args:?}: '{needle}' not in {stderr}"
        );
    }
    let output = Command::new(env!("CARGO_BIN_EXE_oxello"))
        .args([
            "selfplay", "--level", "random", "--games", "1", "--output", out,
        ])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("search level"));
    // The foreign file was not touched.
    assert_eq!(
        std::fs::read_to_string(&foreign).unwrap(),
        "this is not a record\nnor this\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `solve --sample-selfplay` samples only the games training holds out, so
/// that a suite made from the records that trained the weights never tests
/// them on positions they learned.
#[test]
fn sampled_suites_come_from_held_out_games() {
    let dir = scratch("suite");
    let records = dir.join("games.bin");
    let bytes = run_ok(
        &records,
        &[
            "--games",
            "30",
            "--seed",
            "5",
            "--format",
            "binary",
            "--random-moves",
            "6",
        ],
    );
    let by_game = games(Format::Binary, &bytes);
    let suite = dir.join("suite.obf");
    let output = Command::new(env!("CARGO_BIN_EXE_oxello"))
        .args(["solve", "--sample-selfplay", records.to_str().unwrap()])
        .args(["--engine-moves", "0", "--empties", "12", "--count", "50"])
        .args(["--write", suite.to_str().unwrap()])
        .output()
        .expect("run oxello");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "solve failed: {stderr}");
    let text = std::fs::read_to_string(&suite).unwrap();
    let entries = oxello::formats::obf::parse_file(&text).unwrap();
    let at_12 = |held_out: bool| {
        let mut positions: Vec<_> = by_game
            .iter()
            .filter(|(game, _)| oxello::train::patterns::is_held_out(**game as usize) == held_out)
            .flat_map(|(_, records)| records.iter().map(|r| r.position))
            .filter(|p| p.empty_count() == 12)
            .collect();
        positions.sort_by_key(|p| (p.board.player, p.board.opponent, p.side as u8));
        positions.dedup();
        positions
    };
    // Games 0, 10 and 20 are held out; the other 27 reach 12 empties too,
    // so a sample of every game would write more.
    let expected = at_12(true);
    assert!(!expected.is_empty() && !at_12(false).is_empty());
    let in_order: Vec<_> = entries.iter().map(|e| e.position).collect();
    let mut written = in_order.clone();
    written.sort_by_key(|p| (p.board.player, p.board.opponent, p.side as u8));
    assert_eq!(written, expected);
    // `--list` prints the same sample, in the order it is solved, as OBF
    // lines without scores that `solve` reads back.
    let output = Command::new(env!("CARGO_BIN_EXE_oxello"))
        .args(["solve", "--sample-selfplay", records.to_str().unwrap()])
        .args([
            "--engine-moves",
            "0",
            "--empties",
            "12",
            "--count",
            "50",
            "--list",
        ])
        .output()
        .expect("run oxello");
    assert!(output.status.success());
    let listed =
        oxello::formats::obf::parse_file(&String::from_utf8_lossy(&output.stdout)).unwrap();
    assert!(listed.iter().all(|e| e.best_score().is_none()));
    let listed: Vec<_> = listed.iter().map(|e| e.position).collect();
    assert_eq!(listed, in_order);
    // Without a sample there is nothing to list.
    let output = Command::new(env!("CARGO_BIN_EXE_oxello"))
        .args(["solve", "start", "--list"])
        .output()
        .expect("run oxello");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--list prints a sample"));
}
