//! `oxello book` and play from a book, against the real binary, on tiny
//! books built here from a WTHOR file of random games at a low depth.

use crate::common::TempDir;
use crate::protocol_util::{Oxello, run};
use oxello::formats::wthor::{WtbFile, WthorGame, write_wtb};
use oxello::{BoardSize, Game};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A WTHOR file of 80 random games (the first moves drawn from the first
/// two legal ones, so that games meet) in `dir`.
fn games_file(dir: &Path) -> PathBuf {
    let mut rng = StdRng::seed_from_u64(74);
    let games = (0..80)
        .map(|_| {
            let mut game = Game::new(BoardSize::Eight);
            while !game.is_over() {
                let moves = game.position().move_list();
                let choice = if game.moves().len() < 8 {
                    2
                } else {
                    moves.len()
                };
                let _ = game.play(moves[rng.random_range(0..choice.min(moves.len()))]);
            }
            WthorGame::from_game(&game).unwrap()
        })
        .collect();
    let path = dir.join("games.wtb");
    let file = WtbFile {
        games,
        ..WtbFile::default()
    };
    std::fs::write(&path, write_wtb(&file).unwrap()).unwrap();
    path
}

/// `oxello book build` of the games at depth 4, with `extra` arguments;
/// expects success and returns stderr.
fn build(games: &Path, output: &Path, extra: &[&str]) -> Vec<String> {
    let mut args = build_at(games, "4");
    args.extend_from_slice(&[
        "--threads",
        "2",
        "--hash",
        "2",
        "-o",
        output.to_str().unwrap(),
    ]);
    args.extend_from_slice(extra);
    ok(&args).1
}

/// `oxello book build` of the games at `depth`, without an output.
fn build_at<'a>(games: &'a Path, depth: &'a str) -> Vec<&'a str> {
    vec![
        "book",
        "build",
        "--wthor",
        games.to_str().unwrap(),
        "--plies",
        "6",
        "--min-games",
        "3",
        "--depth",
        depth,
    ]
}

/// Runs `oxello ARGS`, expects success; returns stdout and stderr.
fn ok(args: &[&str]) -> (Vec<String>, Vec<String>) {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err:?}");
    (out, err)
}

fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_build_resumes_and_its_shards_merge_into_it() {
    let files = TempDir::new("book", "build");
    let dir = files.path();
    let games = games_file(dir);
    let whole = dir.join("whole.bin");
    build(&games, &whole, &[]);
    assert!(!dir.join("whole.bin.journal").exists());
    // Stopped after 4 searches (as if killed): no book yet, a journal.
    let resumed = dir.join("resumed.bin");
    build(&games, &resumed, &["--stop-after", "4"]);
    assert!(!resumed.exists() && dir.join("resumed.bin.journal").exists());
    // The journal's searches are at depth 4: a rerun at depth 5 would lose
    // them, and is refused.
    let journal = bytes(&dir.join("resumed.bin.journal"));
    let mut args = build_at(&games, "5");
    args.extend_from_slice(&["-o", resumed.to_str().unwrap()]);
    let (code, _, err) = run(&args);
    assert_eq!(code, 1, "{err:?}");
    assert!(
        err.iter()
            .any(|l| l.contains("4 searches, none at depth 5")),
        "{err:?}"
    );
    assert_eq!(bytes(&dir.join("resumed.bin.journal")), journal);
    let err = build(&games, &resumed, &[]);
    assert!(
        err.iter().any(|l| l.contains("(4 from the journal")),
        "{err:?}"
    );
    assert_eq!(bytes(&resumed), bytes(&whole));
    // Two shards, merged.
    let shards: Vec<PathBuf> = (1..=2)
        .map(|i| {
            let path = dir.join(format!("shard-{i}.bin"));
            build(&games, &path, &["--shard", &format!("{i}/2")]);
            path
        })
        .collect();
    assert_ne!(bytes(&shards[0]), bytes(&whole));
    let merged = dir.join("merged.bin");
    ok(&[
        "book",
        "merge",
        shards[0].to_str().unwrap(),
        shards[1].to_str().unwrap(),
        "-o",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(bytes(&merged), bytes(&whole));
    // Text form, there and back.
    let text = dir.join("book.txt");
    ok(&[
        "book",
        "export",
        "--book",
        whole.to_str().unwrap(),
        "-o",
        text.to_str().unwrap(),
    ]);
    let again = dir.join("again.bin");
    ok(&[
        "book",
        "import",
        text.to_str().unwrap(),
        "-o",
        again.to_str().unwrap(),
    ]);
    assert_eq!(bytes(&again), bytes(&whole));
    // Extend, then deepen: the book grows and stays readable.
    let (_, err) = ok(&[
        "book",
        "extend",
        whole.to_str().unwrap(),
        "--window",
        "64",
        "--limit",
        "5",
        "--depth",
        "4",
        "--threads",
        "1",
        "--hash",
        "2",
    ]);
    assert!(
        err.iter().any(|l| l.contains("5 positions added")),
        "{err:?}"
    );
    ok(&[
        "book",
        "deepen",
        whole.to_str().unwrap(),
        "--depth",
        "5",
        "--threads",
        "1",
        "--hash",
        "2",
    ]);
    let (out, _) = ok(&["book", "stats", "--book", whole.to_str().unwrap(), "--json"]);
    let stats: serde_json::Value = serde_json::from_str(&out[0]).unwrap();
    assert_eq!(stats["unsearched"], 0, "{stats}");
    assert_eq!(stats["games"], 80, "{stats}");
}

/// A tiny book in `dir`, built at depth 4.
fn tiny_book(dir: &Path) -> PathBuf {
    let games = games_file(dir);
    let book = dir.join("book.bin");
    build(&games, &book, &[]);
    book
}

#[test]
fn a_book_is_built_from_self_play_records_too() {
    let files = TempDir::new("book", "selfplay");
    let dir = files.path();
    let records = dir.join("sp.jsonl");
    ok(&[
        "selfplay",
        "--level",
        "2",
        "--nodes",
        "500",
        "--games",
        "12",
        "--seed",
        "3",
        "--output",
        records.to_str().unwrap(),
    ]);
    let book = dir.join("sp.bin");
    let (_, err) = ok(&[
        "book",
        "build",
        "--selfplay",
        records.to_str().unwrap(),
        "--plies",
        "60",
        "--min-games",
        "1",
        "--depth",
        "1",
        "--threads",
        "1",
        "-o",
        book.to_str().unwrap(),
    ]);
    assert!(err.iter().any(|l| l.contains("12 games")), "{err:?}");
    let (out, _) = ok(&["book", "stats", "--book", book.to_str().unwrap(), "--json"]);
    let stats: serde_json::Value = serde_json::from_str(&out[0]).unwrap();
    assert!(stats["positions"].as_u64().unwrap() >= 1, "{stats}");
}

#[test]
fn show_lists_every_book_move_as_a_table_and_as_json() {
    let files = TempDir::new("book", "show");
    let dir = files.path();
    let book = tiny_book(dir);
    let book = book.to_str().unwrap();
    let (out, _) = ok(&["book", "show", "start", "--book", book, "--json"]);
    let shown: serde_json::Value = serde_json::from_str(&out[0]).unwrap();
    assert_eq!(shown["in_book"], true);
    assert_eq!(shown["games"], 80);
    let moves = shown["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4, "{shown}");
    for m in moves {
        assert_eq!(m["book"], true);
        assert!(m["depth"].as_u64().unwrap() >= 4);
        assert_eq!(m["selectivity"], 73);
        assert_eq!(m["score"], shown["score"]);
    }
    let (out, _) = ok(&["book", "show", "start", "--book", book]);
    assert!(
        out.iter()
            .any(|l| l.starts_with("f5 ") && l.contains("| book")),
        "{out:?}"
    );
    let (code, out, _) = run(&["book", "show", "a1", "--book", book]);
    assert_ne!(code, 0, "{out:?}");
}

#[test]
fn bad_book_files_give_typed_errors_and_are_refused_by_play() {
    let files = TempDir::new("book", "bad");
    let dir = files.path();
    let book = tiny_book(dir);
    let good = bytes(&book);
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("truncated", good[..good.len() - 3].to_vec(), "truncated"),
        (
            "corrupt",
            {
                let mut b = good.clone();
                let last = b.len() - 1;
                b[last] ^= 0x40;
                b
            },
            "corrupt",
        ),
        (
            "version",
            {
                let mut b = good.clone();
                b[8] = 99;
                b
            },
            "version 99",
        ),
        ("magic", b"not a book at all".to_vec(), "not an oxello book"),
    ];
    for (name, content, message) in cases {
        let path = dir.join(format!("{name}.bin"));
        std::fs::write(&path, content).unwrap();
        let path = path.to_str().unwrap();
        let (code, _, err) = run(&["book", "stats", "--book", path]);
        assert_eq!(code, 1, "{name}");
        assert!(err.iter().any(|l| l.contains(message)), "{name}: {err:?}");
        // Play refuses the book it was told to use: no move, exit 1.
        let (code, out, err) = run(&["move", "start", "--level", "2", "--book", path]);
        assert_eq!(code, 1, "{name}: {err:?}");
        assert!(out.is_empty(), "{out:?}");
        assert!(
            err.iter()
                .any(|l| l.contains("--book") && l.contains(message)),
            "{name}: {err:?}"
        );
    }
    let missing = dir.join("missing.bin");
    let (code, out, _) = run(&[
        "move",
        "f5",
        "--level",
        "2",
        "--book",
        missing.to_str().unwrap(),
    ]);
    assert_eq!((code, out.len()), (0, 1));
}

#[test]
fn play_answers_from_the_book_only_to_searches_no_deeper_than_it() {
    let files = TempDir::new("book", "play");
    let dir = files.path();
    let book = tiny_book(dir);
    let book = book.to_str().unwrap();
    let (out, _) = ok(&["move", "f5", "--level", "3", "--book", book, "--json"]);
    let answer: serde_json::Value = serde_json::from_str(&out[0]).unwrap();
    assert_eq!(
        (answer["book"].as_bool(), answer["nodes"].as_u64()),
        (Some(true), Some(0))
    );
    let (out, _) = ok(&["move", "f5", "--level", "8", "--book", book, "--json"]);
    let answer: serde_json::Value = serde_json::from_str(&out[0]).unwrap();
    assert!(answer.get("book").is_none(), "{answer}");
    let (out, _) = ok(&["move", "f5", "--level", "3", "--no-book", "--json"]);
    let answer: serde_json::Value = serde_json::from_str(&out[0]).unwrap();
    assert!(answer.get("book").is_none(), "{answer}");
}

#[test]
fn game_analysis_marks_the_moves_that_stay_in_the_book() {
    let files = TempDir::new("book", "analysis");
    let dir = files.path();
    let book = tiny_book(dir);
    let book = book.to_str().unwrap();
    let (out, _) = ok(&[
        "analyze", "f5d6c3", "--game", "--depth", "2", "--book", book, "--json",
    ]);
    let analysis: serde_json::Value = serde_json::from_str(&out[0]).unwrap();
    let moves = analysis["moves"].as_array().unwrap();
    // The first move leads to a book position; its book score is the
    // negation of that position's value, as `book show` gives it.
    let (shown, _) = ok(&["book", "show", "f5", "--book", book, "--json"]);
    let shown: serde_json::Value = serde_json::from_str(&shown[0]).unwrap();
    let value = shown["score"].as_i64().unwrap();
    assert_eq!(moves[0]["book"].as_i64(), Some(-value), "{analysis}");
    let (table, _) = ok(&[
        "analyze", "f5d6c3", "--game", "--depth", "2", "--book", book,
    ]);
    assert!(table.iter().any(|l| l.contains(" book ")), "{table:?}");
    let (out, _) = ok(&[
        "analyze",
        "f5d6c3",
        "--game",
        "--depth",
        "2",
        "--no-book",
        "--json",
    ]);
    assert!(!out[0].contains("\"book\""), "{out:?}");
}

#[test]
fn book_randomness_varies_games_within_its_discs() {
    let files = TempDir::new("book", "randomness");
    let dir = files.path();
    let book = tiny_book(dir);
    let book = book.to_str().unwrap();
    // A book position with moves of several scores.
    let (_, out, _) = run(&["book", "export", "--book", book]);
    let (position, scores) = out
        .iter()
        .skip(1)
        .find_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let scores: Vec<(String, i64)> = words[3..]
                .iter()
                .map(|w| {
                    let parts: Vec<&str> = w.trim_start_matches('*').split(':').collect();
                    (parts[0].to_string(), parts[1].parse().unwrap())
                })
                .collect();
            let best = scores.iter().map(|s| s.1).max()?;
            let worst = scores.iter().map(|s| s.1).min()?;
            (scores.len() >= 3 && best > worst)
                .then(|| (format!("{} {}", words[0], words[1]), scores))
        })
        .expect("a position with a choice");
    let best = scores.iter().map(|s| s.1).max().unwrap();
    let play = |randomness: &str, seed: u64| {
        let seed = seed.to_string();
        let args = [
            "move",
            &position,
            "--level",
            "2",
            "--book",
            book,
            "--book-randomness",
            randomness,
            "--seed",
            &seed,
        ];
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{err:?}");
        out[0].clone()
    };
    let first = play("0", 1);
    for seed in 2..6 {
        assert_eq!(play("0", seed), first);
    }
    let spread = (best - scores.iter().map(|s| s.1).min().unwrap()).to_string();
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..12 {
        let mv = play("1", seed);
        let score = scores.iter().find(|s| s.0 == mv).map(|s| s.1);
        assert!(score.is_some_and(|s| s >= best - 1), "{mv} {scores:?}");
        seen.insert(play(&spread, seed));
    }
    assert!(seen.len() > 1, "{seen:?} {scores:?}");
}

#[test]
fn nboard_hint_gives_book_lines_first() {
    let files = TempDir::new("book", "nboard");
    let dir = files.path();
    let book = tiny_book(dir);
    let mut ox = Oxello::spawn(&["nboard", "--hash", "4", "--book", book.to_str().unwrap()]);
    ox.send("nboard 2");
    ox.expect("set myname oxello12");
    ox.send("set depth 3");
    ox.expect("set myname oxello3");
    ox.send("set game (;GM[Othello]PC[NBoard]TI[0]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)");
    ox.send("ping 1");
    ox.expect("pong 1");
    ox.send("hint 4");
    let lines = ox.until(|line| line.starts_with("nodestats "));
    let books: Vec<&String> = lines
        .iter()
        .take_while(|l| l.starts_with("book "))
        .collect();
    assert!(!books.is_empty(), "{lines:?}");
    assert!(lines[books.len()..].iter().all(|l| !l.starts_with("book ")));
    for line in &books {
        // book <pv> <eval> <games> <depth>
        let parts: Vec<&str> = line.split(' ').collect();
        assert_eq!(parts.len(), 5, "{line}");
        assert!(parts[1].split('-').all(|m| m.len() == 2), "{line}");
        let eval = parts[2].strip_prefix('-').unwrap_or(parts[2]);
        assert!(
            eval.split_once('.').is_some_and(|(_, d)| d.len() == 2),
            "{line}"
        );
        assert!(parts[3].parse::<u32>().unwrap() >= 3, "{line}");
        assert!(parts[4].parse::<u32>().unwrap() >= 4, "{line}");
    }
    // The engine plays the book's best move at once.
    ox.send("go");
    let stats = ox.recv();
    assert_eq!(stats, "nodestats 0 0.00");
    // Its best move, or a better one outside the book's lines.
    let best = ox.recv();
    let eval: f64 = best.split('/').nth(1).unwrap().parse().unwrap();
    let first: f64 = books[0].split(' ').nth(2).unwrap().parse().unwrap();
    assert!(
        best.starts_with("=== ") && eval >= first,
        "{best} {books:?}"
    );
    ox.send("quit");
    assert!(ox.wait(Duration::from_secs(20)).success());
}
