//! `oxello selfplay --game gomoku` and `--format npz` end to end: valid
//! records whose policies add up to 1 and whose outcomes match how the game
//! ended, reproducible for a seed, shards that add up to the whole run,
//! resuming an npz run, the npz arrays read back (gomoku and Othello 8x8)
//! and clear errors (exit code 2) for bad option combinations.

use oxello::Color;
use oxello::gomoku::{Config, Rule, Status};
use oxello::selfplay::gomoku::GomokuRecord;
use oxello::selfplay::{Format, Record, TrainingRecord};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh folder for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "oxello-selfplay-gomoku-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Small gomoku searches: 9x9, five in a row, a tiny budget.
const GOMOKU: &[&str] = &[
    "selfplay",
    "--game",
    "gomoku",
    "--size",
    "9",
    "--n-in-row",
    "5",
    "--depth",
    "3",
    "--nodes",
    "600",
];

fn oxello(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oxello"))
        .args(args)
        .output()
        .expect("run oxello")
}

/// Runs and expects success; returns the output file's bytes.
fn run_ok(base: &[&str], out: &Path, args: &[&str]) -> Vec<u8> {
    let mut all = base.to_vec();
    all.extend_from_slice(&["--output", out.to_str().unwrap()]);
    all.extend_from_slice(args);
    let output = oxello(&all);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{all:?} failed: {stderr}");
    std::fs::read(out).unwrap()
}

fn gomoku_games(bytes: &[u8]) -> BTreeMap<u32, Vec<GomokuRecord>> {
    let mut games: BTreeMap<u32, Vec<GomokuRecord>> = BTreeMap::new();
    for record in Format::Jsonl.read_all::<GomokuRecord>(bytes).unwrap() {
        games.entry(record.game).or_default().push(record);
    }
    games
}

#[test]
fn gomoku_records_are_valid_and_outcomes_match_the_end() {
    let dir = scratch("valid");
    let out = dir.join("g.jsonl");
    let bytes = run_ok(GOMOKU, &out, &["--games", "2", "--seed", "3"]);
    let text = std::str::from_utf8(&bytes).unwrap();
    for line in text.lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        for field in [
            "board", "side", "policy", "move", "score", "outcome", "result", "last", "rule", "n",
        ] {
            assert!(value.get(field).is_some(), "{field} missing: {line}");
        }
        let total: f64 = value["policy"]
            .as_object()
            .unwrap()
            .values()
            .map(|p| p.as_f64().unwrap())
            .sum();
        assert!(
            (total - 1.0).abs() < 1e-4,
            "policy adds up to {total}: {line}"
        );
        assert_eq!(value["board"].as_str().unwrap().len(), 81);
    }
    let games = gomoku_games(&bytes);
    assert_eq!(games.keys().copied().collect::<Vec<_>>(), vec![0, 1]);
    for records in games.values() {
        let last = records.last().unwrap();
        // Every move has a record: the last one's move ends the game.
        let mut board = last.board().unwrap();
        let status = board.play(last.mv).unwrap();
        let expected = match status {
            Status::Won(color) if color == last.side => 1,
            Status::Won(_) => -1,
            Status::Draw => 0,
            Status::Ongoing => panic!("the game goes on after its last record"),
        };
        for (i, record) in records.iter().enumerate() {
            assert_eq!(record.index as usize, i);
            assert_eq!(record.records as usize, records.len());
            let same_side = record.side == last.side;
            assert_eq!(record.outcome, if same_side { expected } else { -expected });
            // Each record follows from the one before by its move.
            if let Some(next) = records.get(i + 1) {
                let mut board = record.board().unwrap();
                assert_eq!(board.play(record.mv), Ok(Status::Ongoing));
                assert_eq!(next.last, Some(record.mv));
                assert_eq!(next.ply, record.ply + 1);
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn gomoku_runs_are_reproducible_and_shards_add_up() {
    let dir = scratch("shards");
    let args = ["--games", "3", "--seed", "11"];
    let one = run_ok(
        GOMOKU,
        &dir.join("one.jsonl"),
        &[&args[..], &["--threads", "1"]].concat(),
    );
    let two = run_ok(
        GOMOKU,
        &dir.join("two.jsonl"),
        &[&args[..], &["--threads", "2"]].concat(),
    );
    assert_eq!(one, two, "threads change nothing");
    let other = run_ok(
        GOMOKU,
        &dir.join("other.jsonl"),
        &["--games", "3", "--seed", "12"],
    );
    assert_ne!(one, other, "the seed matters");
    let mut shards = BTreeMap::new();
    for shard in ["1/2", "2/2"] {
        let path = dir.join(format!("shard{}.jsonl", &shard[..1]));
        let bytes = run_ok(GOMOKU, &path, &[&args[..], &["--shard", shard]].concat());
        shards.extend(gomoku_games(&bytes));
    }
    assert_eq!(shards, gomoku_games(&one));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The arrays of an npz archive by name: shape and data.
fn read_npz(path: &Path) -> BTreeMap<String, (Vec<u64>, Vec<f32>)> {
    let mut archive = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    let mut arrays = BTreeMap::new();
    for name in ["states", "mcts_probs", "winner"] {
        let mut bytes = Vec::new();
        archive
            .by_name(&format!("{name}.npy"))
            .unwrap()
            .read_to_end(&mut bytes)
            .unwrap();
        let npy = npyz::NpyFile::new(&bytes[..]).unwrap();
        let shape = npy.shape().to_vec();
        arrays.insert(name.to_string(), (shape, npy.into_vec::<f32>().unwrap()));
    }
    arrays
}

/// Checks an npz against its journal's records: shapes, stones, side
/// plane, probabilities and results.
fn check_npz<R: TrainingRecord>(
    npz: &Path,
    records: &[R],
    side: usize,
    view: impl Fn(&R) -> (Vec<usize>, Vec<usize>, bool, f32),
) {
    let arrays = read_npz(npz);
    let n = records.len() as u64;
    let cells = side * side;
    let (states_shape, states) = &arrays["states"];
    let (probs_shape, probs) = &arrays["mcts_probs"];
    let (winner_shape, winner) = &arrays["winner"];
    assert_eq!(states_shape, &vec![n, 4, side as u64, side as u64]);
    assert_eq!(probs_shape, &vec![n, cells as u64]);
    assert_eq!(winner_shape, &vec![n]);
    assert!(n > 0);
    for (i, record) in records.iter().enumerate() {
        let (own, opponent, black, z) = view(record);
        let plane = |p: usize| &states[(i * 4 + p) * cells..(i * 4 + p + 1) * cells];
        let ones =
            |p: usize| -> Vec<usize> { (0..cells).filter(|&c| plane(p)[c] == 1.0).collect() };
        assert_eq!(ones(0), own, "record {i}: own stones");
        assert_eq!(ones(1), opponent, "record {i}: opponent stones");
        assert!(ones(2).len() <= 1, "record {i}: last move one-hot");
        assert!(plane(2).iter().all(|&v| v == 0.0 || v == 1.0));
        let colour = if black { 1.0 } else { 0.0 };
        assert!(plane(3).iter().all(|&v| v == colour), "record {i}: plane 3");
        assert!([-1.0, 0.0, 1.0].contains(&winner[i]));
        assert_eq!(winner[i], z, "record {i}: winner");
        let row = &probs[i * cells..(i + 1) * cells];
        let total: f32 = row.iter().sum();
        assert!(
            (total - 1.0).abs() < 1e-3,
            "record {i}: probs add up to {total}"
        );
        assert!(row.iter().all(|&p| p >= 0.0));
        for &c in own.iter().chain(&opponent) {
            assert_eq!(row[c], 0.0, "record {i}: probability on a stone");
        }
    }
}

#[test]
fn gomoku_npz_reads_back_and_resumes() {
    let dir = scratch("npz");
    let out = dir.join("g.npz");
    let args = ["--games", "2", "--seed", "5", "--format", "npz"];
    let whole = run_ok(GOMOKU, &out, &args);
    let journal = std::fs::read(dir.join("g.npz.jsonl")).unwrap();
    let records = Format::Jsonl.read_all::<GomokuRecord>(&journal).unwrap();
    let cells_of = |r: &GomokuRecord, c: Color| -> Vec<usize> {
        (0..r.stones.len())
            .filter(|&i| r.stones[i] == Some(c))
            .collect()
    };
    check_npz(&out, &records, 9, |r| {
        (
            cells_of(r, r.side),
            cells_of(r, r.side.opponent()),
            r.side == Color::Black,
            f32::from(r.outcome),
        )
    });
    // The last-move plane is the previous stone.
    let arrays = read_npz(&out);
    let states = &arrays["states"].1;
    for (i, record) in records.iter().enumerate() {
        let plane = &states[(i * 4 + 2) * 81..(i * 4 + 3) * 81];
        let expected = record.last.map(|p| p.y * 9 + p.x);
        assert_eq!(plane.iter().position(|&v| v == 1.0), expected);
    }
    // A killed run: the npz not yet written, the journal cut inside a game.
    std::fs::remove_file(&out).unwrap();
    let cut = journal.len() * 2 / 3;
    std::fs::write(dir.join("g.npz.jsonl"), &journal[..cut]).unwrap();
    let resumed = run_ok(GOMOKU, &out, &args);
    assert_eq!(resumed, whole, "the resumed npz is the whole run's");
    assert_eq!(std::fs::read(dir.join("g.npz.jsonl")).unwrap(), journal);
    // Rerunning a finished run plays nothing and writes the same npz.
    assert_eq!(run_ok(GOMOKU, &out, &args), whole);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn othello_npz_reads_back() {
    let dir = scratch("othello");
    let out = dir.join("o.npz");
    let base = ["selfplay", "--level", "4", "--nodes", "3000"];
    run_ok(
        &base,
        &out,
        &["--games", "2", "--seed", "2", "--format", "npz"],
    );
    let journal = std::fs::read(dir.join("o.npz.jsonl")).unwrap();
    let records = Format::Jsonl.read_all::<Record>(&journal).unwrap();
    let cells = |bits: u64| -> Vec<usize> { (0..64).filter(|&i| bits >> i & 1 == 1).collect() };
    check_npz(&out, &records, 8, |r| {
        let z = r.result().z();
        (
            cells(r.position.board.player),
            cells(r.position.board.opponent),
            r.position.side == Color::Black,
            z,
        )
    });
    // Within a game, the last-move plane is the previous record's move
    // unless a pass came between.
    let states = &read_npz(&out)["states"].1;
    for (i, pair) in records.windows(2).enumerate() {
        let plane = &states[((i + 1) * 4 + 2) * 64..((i + 1) * 4 + 3) * 64];
        let follows = pair[0].game == pair[1].game && pair[0].ply + 1 == pair[1].ply;
        let expected = follows.then(|| pair[0].mv.index());
        assert_eq!(plane.iter().position(|&v| v == 1.0), expected);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_combinations_exit_with_usage_errors() {
    let refused = |args: &[&str], needle: &str| {
        let output = oxello(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(needle),
            "{args:?}: '{needle}' not in {stderr}"
        );
    };
    let dir = scratch("errors");
    let out = dir.join("x.jsonl");
    let out = out.to_str().unwrap();
    let gomoku = ["selfplay", "--game", "gomoku", "--games", "1"];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--n-in-row", "7"], "7 in a row"),
        (vec!["--n-in-row", "2"], "2 in a row"),
        (vec!["--size", "30"], "30x30"),
        (vec!["--size", "4"], "4x4"),
        (vec!["--rule", "renju", "--size", "19"], "renju"),
        (vec!["--rule", "renju", "--n-in-row", "6"], "renju"),
        (vec!["--openings", "x.txt"], "--openings does not apply"),
        (vec!["--wthor", "/tmp"], "--wthor does not apply"),
        (vec!["--format", "binary"], "binary"),
        (vec!["--level", "5"], "--level does not apply"),
        (vec!["--selectivity", "95"], "--selectivity does not apply"),
        (vec!["--time", "1"], "--time"),
        (vec!["--format", "npz", "--output", "-"], "npz"),
    ];
    for (extra, needle) in cases {
        let mut args = [&gomoku[..], &extra].concat();
        if !extra.contains(&"--output") {
            args.extend_from_slice(&["--output", out]);
        }
        refused(&args, needle);
    }
    let othello = ["selfplay", "--games", "1", "--output", out];
    for (extra, needle) in [
        (vec!["--rule", "renju"], "--rule does not apply"),
        (vec!["--n-in-row", "5"], "--n-in-row does not apply"),
        (vec!["--size", "15"], "--size 15"),
    ] {
        let args = [&othello[..], &extra].concat();
        refused(&args, needle);
    }
    assert!(!Path::new(out).exists(), "no output for a refused command");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn gomoku_config_is_checked_in_the_library() {
    use oxello::selfplay::gomoku::{GomokuOptions, GomokuSelfplay};
    let options = |width, height, n, rule| GomokuOptions {
        config: Config {
            width,
            height,
            n,
            rule,
        },
        seed: 1,
        hash_mib: 1,
        depth: 2,
        nodes: Some(100),
        random_stones: 2,
        temperature: 1.0,
        random_plies: 2,
        max_loss: 10,
        policy_temperature: 1.0,
    };
    assert!(GomokuSelfplay::new(options(15, 15, 5, Rule::Renju)).is_ok());
    assert!(GomokuSelfplay::new(options(22, 22, 6, Rule::Caro)).is_ok());
    assert!(GomokuSelfplay::new(options(15, 13, 5, Rule::Freestyle)).is_err());
    assert!(GomokuSelfplay::new(options(23, 23, 5, Rule::Freestyle)).is_err());
}
