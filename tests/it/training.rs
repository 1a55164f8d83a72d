//! The training commands of the real binary on a small WTHOR file:
//! `search-labels` writes the same values whatever the threads and resumes
//! a killed run, and `train-eval --searched` reads what it wrote.

use crate::common;
use crate::protocol_util;

use oxello::formats::wthor::{self, WtbFile, WthorGame, WthorHeader};
use oxello::{BoardSize, Game};
use protocol_util::run;
use rand::{Rng, SeedableRng, rngs::StdRng};

/// A folder holding one `.wtb` file of `games` finished random games.
fn wthor_folder(test: &str, games: usize) -> std::path::PathBuf {
    let dir = common::temp_dir("training", test);
    let mut rng = StdRng::seed_from_u64(11);
    let mut records = Vec::new();
    for _ in 0..games {
        let mut game = Game::new(BoardSize::Eight);
        while !game.is_over() {
            let moves = game.position().move_list();
            game.play(moves[rng.random_range(0..moves.len())]).unwrap();
        }
        records.push(WthorGame::from_game(&game).unwrap());
    }
    let file = WtbFile {
        header: WthorHeader {
            board_size: 8,
            depth: 22,
            game_count: games as u32,
            ..WthorHeader::default()
        },
        games: records,
    };
    let wthor = dir.join("wthor");
    std::fs::create_dir_all(&wthor).unwrap();
    std::fs::write(wthor.join("WTH_2000.wtb"), wthor::write_wtb(&file).unwrap()).unwrap();
    dir
}

fn search_labels(dir: &std::path::Path, out: &str, threads: &str) -> String {
    let wthor = dir.join("wthor").display().to_string();
    let out = dir.join(out).display().to_string();
    let (code, _, err) = run(&[
        "search-labels",
        "--wthor",
        &wthor,
        "--out",
        &out,
        "--depth",
        "3",
        "--threads",
        threads,
    ]);
    assert_eq!(code, 0, "{err:?}");
    std::fs::read_to_string(&out).unwrap()
}

#[test]
fn search_labels_are_the_same_for_any_threads_and_resume_a_killed_run() {
    let dir = wthor_folder("search-labels", 6);
    let one = search_labels(&dir, "one.obf", "1");
    let two = search_labels(&dir, "two.obf", "2");
    assert_eq!(one, two);
    let entries = oxello::formats::obf::parse_file(&one).unwrap();
    // Five training games (game 0 is held out), each searched from 60 down
    // to 23 empties but for the positions seen before (the first one).
    assert!(entries.len() > 5 * 30, "{}", entries.len());
    assert!(entries.iter().all(|e| {
        let empties = e.position.empty_count();
        empties >= 25 && e.best_score().is_some() && e.position.legal_moves() != 0
    }));
    assert!(!one.contains("% game 0,"));
    // A run killed in the middle of a line: the rerun ends the same.
    let cut = one.len() * 2 / 3;
    std::fs::write(dir.join("cut.obf"), &one[..cut]).unwrap();
    assert_eq!(search_labels(&dir, "cut.obf", "2"), one);
    // A finished run has nothing left to do.
    assert_eq!(search_labels(&dir, "cut.obf", "1"), one);
    // A rerun at another depth would mix depths in one file: refused, the
    // file kept.
    let (code, _, err) = run(&[
        "search-labels",
        "--wthor",
        &dir.join("wthor").display().to_string(),
        "--out",
        &dir.join("one.obf").display().to_string(),
        "--depth",
        "4",
    ]);
    assert_eq!(code, 1, "{err:?}");
    assert!(
        err.iter()
            .any(|line| line.contains("other settings") && line.contains("depth 3")),
        "{err:?}"
    );
    assert_eq!(std::fs::read_to_string(dir.join("one.obf")).unwrap(), one);
    // train-eval reads the labels and uses them for its training positions.
    let weights = dir.join("weights.bin").display().to_string();
    let (code, out, err) = run(&[
        "train-eval",
        "--wthor",
        &dir.join("wthor").display().to_string(),
        "--searched",
        &dir.join("one.obf").display().to_string(),
        "--epochs",
        "1",
        "--out",
        &weights,
    ]);
    assert_eq!(code, 0, "{err:?}");
    // (A position searched once may be met in several games.)
    let used: usize = out[0]
        .split(", ")
        .find_map(|part| part.strip_suffix(" training positions with a search value"))
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("{out:?}"));
    assert!(used >= entries.len(), "{used} of {}", entries.len());
    assert!(std::fs::metadata(&weights).unwrap().len() > 0);
    let _ = std::fs::remove_dir_all(dir);
}

/// `train-eval --size 6` fits the 6x6 evaluation to self-play records, in
/// either format, and refuses what does not apply to it.
#[test]
fn six_by_six_weights_are_trained_from_selfplay_records() {
    let dir = common::temp_dir("training", "six");
    let path = |name: &str| dir.join(name).display().to_string();
    for (file, format) in [("games.bin", "binary"), ("games.jsonl", "jsonl")] {
        let (code, _, err) = run(&[
            "selfplay",
            "--size",
            "6",
            "--games",
            "12",
            "--level",
            "6",
            "--seed",
            "3",
            "--format",
            format,
            "--output",
            &path(file),
        ]);
        assert_eq!(code, 0, "{err:?}");
    }
    let mut trained = Vec::new();
    for file in ["games.bin", "games.jsonl"] {
        let out_file = path(&format!("{file}.weights"));
        let (code, out, err) = run(&[
            "train-eval",
            "--size",
            "6",
            "--selfplay",
            &path(file),
            "--epochs",
            "2",
            "--out",
            &out_file,
        ]);
        assert_eq!(code, 0, "{err:?}");
        assert!(
            out[0].starts_with("6x6: 0 files, 0 games (0 skipped), 12 self-play games"),
            "{out:?}"
        );
        // One row per phase, 0..=32 empties.
        assert_eq!(
            out.iter().filter(|l| l.contains(" | ")).count(),
            1 + 17,
            "{out:?}"
        );
        trained.push(std::fs::read(&out_file).unwrap());
    }
    // The two formats hold the same records: the same weights.
    assert_eq!(trained[0], trained[1]);
    let weights = oxello::eval::six::SixWeights::decode(&trained[0]).unwrap();
    use oxello::eval::six::{PHASE_WEIGHTS, PHASES, SixWeights};
    assert_ne!(
        weights,
        SixWeights::from_shared(vec![0; PHASES * PHASE_WEIGHTS])
    );
    // 6x6 trains on self-play records only.
    let (code, _, err) = run(&["train-eval", "--size", "6", "--out", &path("x.bin")]);
    assert_eq!(code, 2, "{err:?}");
    assert!(err.iter().any(|l| l.contains("--selfplay")), "{err:?}");
    // Nothing to train on (an empty file; 6x6 records for an 8x8
    // training) is an error, not a file of zero weights.
    std::fs::write(path("empty.bin"), b"").unwrap();
    let wthor = wthor_folder("six-empty", 0);
    let wthor_files = wthor.join("wthor");
    for args in [
        vec!["--size", "6", "--selfplay", &path("empty.bin")],
        vec![
            "--wthor",
            wthor_files.to_str().unwrap(),
            "--selfplay",
            &path("games.bin"),
        ],
    ] {
        let x = path("x.bin");
        let mut all = vec!["train-eval", "--out", &x];
        all.extend(args);
        let (code, _, err) = run(&all);
        assert_eq!(code, 1, "{all:?} {err:?}");
        assert!(
            err.iter().any(|l| l.contains("nothing to train on")),
            "{err:?}"
        );
        assert!(!std::path::Path::new(&path("x.bin")).exists());
    }
    let _ = std::fs::remove_dir_all(wthor);
    let (code, _, err) = run(&["train-eval", "--size", "5", "--out", &path("x.bin")]);
    assert_eq!(code, 2, "{err:?}");
    let _ = std::fs::remove_dir_all(dir);
}

/// A label option that would change nothing is refused, not ignored: the
/// 8x8 WTHOR ones under `--size 6` and `--game gomoku`, and one whose label
/// source is not given.
#[test]
fn train_eval_refuses_label_options_without_effect() {
    let dir = common::temp_dir("training", "label-options");
    let records = dir.join("games.bin").display().to_string();
    let out = dir.join("x.bin").display().to_string();
    let cases: [(&[&str], &str); 15] = [
        (
            &["--size", "6", "--solved", "x.obf"],
            "--solved applies to the 8x8 WTHOR games; 6x6 trains on --selfplay",
        ),
        (
            &["--size", "6", "--searched", "x.obf"],
            "--searched applies to the 8x8 WTHOR games",
        ),
        (
            &["--size", "6", "--exact", "x.obf"],
            "--exact applies to the 8x8 WTHOR games",
        ),
        (
            &["--game", "gomoku", "--selfplay-search-weight", "0.5"],
            "--selfplay-search-weight does not apply to train-eval --game gomoku",
        ),
        (
            &["--game", "gomoku", "--selfplay-parity-fix", "1"],
            "--selfplay-parity-fix does not apply to train-eval --game gomoku",
        ),
        (
            &["--game", "gomoku", "--wthor-parity-fix", "1"],
            "--wthor-parity-fix does not apply to train-eval --game gomoku",
        ),
        (
            &["--size", "6", "--wthor-parity-fix", "1"],
            "--wthor-parity-fix applies to the 8x8 WTHOR games; 6x6 trains on --selfplay",
        ),
        (
            &["--size", "6", "--search-weight", "0.5"],
            "--search-weight applies to the 8x8 WTHOR games",
        ),
        (
            &["--size", "6", "--wthor", "/tmp"],
            "--wthor applies to the 8x8 WTHOR games",
        ),
        (
            &["--search-weight", "0.5"],
            "--search-weight changes the --searched labels: give --searched FILES",
        ),
        (
            &["--selfplay-search-weight", "0.5"],
            "--selfplay-search-weight changes the --selfplay labels: give --selfplay FILES",
        ),
        (
            &["--selfplay-parity-fix", "1"],
            "--selfplay-parity-fix changes the --selfplay labels: give --selfplay FILES",
        ),
        // A default written out is given too: it still changes nothing.
        (
            &["--search-weight", "0.8"],
            "--search-weight changes the --searched labels: give --searched FILES",
        ),
        (
            &["--game", "gomoku", "--epochs", "8"],
            "--epochs does not apply to train-eval --game gomoku",
        ),
        (
            &["--network-rate", "0.0003"],
            "--network-rate applies to train-eval --network only",
        ),
    ];
    // An empty WTHOR folder, so that an 8x8 case not refused fails at once.
    let no_games = dir.join("no-games");
    std::fs::create_dir_all(&no_games).unwrap();
    let no_games = no_games.display().to_string();
    for (extra, refusal) in cases {
        let mut args = vec!["train-eval", "--out", &out];
        args.extend_from_slice(extra);
        // The self-play records are given where the source is not the point.
        if !refusal.contains("give --selfplay") {
            args.extend(["--selfplay", &records]);
        }
        if refusal.contains("labels: give") {
            args.extend(["--wthor", &no_games]);
        }
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?} {err:?}");
        assert!(err.iter().any(|l| l.contains(refusal)), "{args:?} {err:?}");
    }
    assert!(!std::path::Path::new(&out).exists());
    let _ = std::fs::remove_dir_all(dir);
}

/// The 8x8 training reads self-play records beside the WTHOR games.
#[test]
fn eight_by_eight_training_adds_selfplay_records_to_the_games() {
    let dir = wthor_folder("selfplay-8", 5);
    let records = dir.join("games.bin").display().to_string();
    let (code, _, err) = run(&[
        "selfplay", "--games", "3", "--level", "2", "--seed", "5", "--format", "binary",
        "--output", &records,
    ]);
    assert_eq!(code, 0, "{err:?}");
    let count = std::fs::metadata(&records).unwrap().len() / 160;
    let weights = dir.join("weights.bin").display().to_string();
    let train = |extra: &[&str]| {
        let wthor = dir.join("wthor").display().to_string();
        let mut args = vec![
            "train-eval",
            "--wthor",
            &wthor,
            "--epochs",
            "1",
            "--out",
            &weights,
        ];
        args.extend_from_slice(extra);
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{err:?}");
        out[0].clone()
    };
    let positions = |line: &str| -> usize {
        line.split(", ")
            .find_map(|part| {
                part.split(" training and ")
                    .next()
                    .and_then(|n| n.parse().ok())
            })
            .unwrap_or_else(|| panic!("{line}"))
    };
    let alone = train(&[]);
    let with = train(&["--selfplay", &records]);
    assert!(
        alone.starts_with("8x8: 1 files, 5 games (0 skipped), 0 self-play games"),
        "{alone}"
    );
    assert!(
        with.starts_with("8x8: 1 files, 5 games (0 skipped), 3 self-play games"),
        "{with}"
    );
    // The game files' held-out games stay the same.
    let held_out = |line: &str| -> usize {
        let after = line
            .split(" training and ")
            .nth(1)
            .unwrap_or_else(|| panic!("{line}"));
        after
            .split(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap()
    };
    // Exactly the records of self-play game 0 are held out besides the
    // files' own held-out games, and the others train.
    let bytes = std::fs::read(&records).unwrap();
    let game_0 = oxello::selfplay::binary::read_all(&bytes)
        .unwrap()
        .iter()
        .filter(|r| r.game == 0)
        .count();
    assert!(game_0 > 0);
    assert_eq!(
        held_out(&with),
        held_out(&alone) + game_0,
        "{alone} / {with}"
    );
    assert_eq!(
        positions(&with),
        positions(&alone) + count as usize - game_0,
        "{alone} / {with}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// `train-eval --network` trains the evaluation's network on the games,
/// reports the held-out and the training error with and without it after
/// every epoch, and writes a network file the evaluation reads; a width
/// that is not a multiple of 16, a step or decay that is not in (0, 1], or a network
/// option without `--network`, is refused before any work.
#[test]
fn the_network_is_trained_reported_and_written() {
    let dir = wthor_folder("network", 60);
    let out = dir.join("network.bin");
    let (wthor, out_name) = (
        dir.join("wthor").display().to_string(),
        out.display().to_string(),
    );
    let train_eval = |options: &[&str]| {
        let mut args = vec!["train-eval", "--wthor", &wthor, "--out", &out_name];
        args.extend_from_slice(options);
        run(&args)
    };
    let (code, lines, err) = train_eval(&["--network", "16", "--epochs", "2"]);
    assert_eq!(code, 0, "{err:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("network 16 wide")),
        "{lines:?}"
    );
    assert_eq!(lines.iter().filter(|l| l.starts_with("epoch ")).count(), 2);
    for name in ["games: ", "training: "] {
        assert!(
            lines.iter().any(|l| l.trim_start().starts_with(name)),
            "{name}: {lines:?}"
        );
    }
    let network = oxello::eval::network::Network::decode(&std::fs::read(&out).unwrap())
        .expect("a network file");
    assert_eq!(network.width(), 16);
    let refused = [
        (&["--network", "24"][..], "multiple of 16"),
        (
            &["--network", "16", "--network-rate", "0"],
            "--network-rate",
        ),
        (
            &["--network", "16", "--network-head-rate", "NaN"],
            "--network-head-rate",
        ),
        (
            &["--network", "16", "--network-decay", "-0.5"],
            "--network-decay",
        ),
        (
            &["--network", "16", "--network-decay", "2"],
            "--network-decay",
        ),
        // Without --network it would be ignored.
        (
            &["--network-decay", "0.5"],
            "applies to train-eval --network",
        ),
    ];
    for (options, message) in refused {
        let (code, _, err) = train_eval(options);
        assert_eq!(code, 2, "{options:?}: {err:?}");
        assert!(
            err.iter().any(|l| l.contains(message)),
            "{options:?}: {err:?}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}
