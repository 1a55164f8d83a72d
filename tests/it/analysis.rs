//! Game analysis (`oxello analyze GAME`): a perfect game has no mistake in
//! its exactly solved endgame; GGF, WTHOR and transcript inputs; the table,
//! JSON and SVG outputs; the single-position mode is unchanged.
//! Run under `cargo test --profile test-release`.

use crate::common;

use oxello::analysis::{self, AnalysisOptions, Judgement};
use oxello::formats::{ggf, transcript};
use oxello::search::Depth;
use oxello::{BoardSize, Position};
use std::path::PathBuf;
use std::process::{Command, Output};

const OXELLO: &str = env!("CARGO_BIN_EXE_oxello");

/// Takizawa's perfect game (a draw, every move optimal).
const TAKIZAWA: &str = "F5D6C3D3C4F4F6F3E6E7D7C5B6D8C6C7D2B5A5A6A7G5E3B4C8G6G4C2E8D1F7E2G3H4\
                        F1E1F2G1B1F8G8B3H3B2H5B7A3A4A1A2C1H2H1G2B8A8G7H8H7H6";

fn oxello(args: &[&str]) -> Output {
    let output = Command::new(OXELLO).args(args).output().unwrap();
    assert!(
        output.status.success(),
        "oxello {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("oxello-analysis-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn takizawa_perfect_game_has_no_mistake_in_the_solved_endgame() {
    let game = transcript::parse_game(TAKIZAWA, Position::start(BoardSize::Eight)).unwrap();
    let options = AnalysisOptions {
        depth: Some(4),
        exact_from: 20,
        hash_mib: 32,
        ..AnalysisOptions::default()
    };
    let analysis = analysis::analyse_game(&game, &options, &mut |_, _| {});
    assert_eq!(analysis.moves.len(), 60);
    assert_eq!(analysis.final_score, Some(0));
    let last_20 = &analysis.moves[40..];
    for mv in last_20 {
        let eval = mv.eval.expect("no pass in this game");
        assert_eq!(eval.depth, Depth::Exact, "move {}", mv.ply + 1);
        assert_eq!(eval.loss, 0, "move {} {}: {eval:?}", mv.ply + 1, mv.played);
        assert_eq!(eval.judgement, Judgement::Good);
        // A perfect game stays a draw: every exact value is 0.
        assert_eq!(eval.best_score, 0, "move {}", mv.ply + 1);
        assert_eq!(eval.played_score, 0, "move {}", mv.ply + 1);
    }
}

#[test]
fn takizawa_analysis_from_the_command_line() {
    let output = oxello(&[
        "analyze",
        TAKIZAWA,
        "--game",
        "--depth",
        "4",
        "--exact-from",
        "20",
        "--json",
    ]);
    let json = String::from_utf8(output.stdout).unwrap();
    assert_eq!(json.lines().count(), 1);
    let moves: Vec<&str> = json.split("{\"ply\":").skip(1).collect();
    assert_eq!(moves.len(), 60);
    for mv in &moves[40..] {
        assert!(mv.contains("\"search\":\"exact\""), "{mv}");
        assert!(mv.contains("\"loss\":0,"), "{mv}");
        assert!(mv.contains("\"judgement\":\"good\""), "{mv}");
    }
    assert!(json.contains("\"result\":0"));
    let table = oxello(&[
        "analyze",
        TAKIZAWA,
        "--game",
        "--depth",
        "4",
        "--exact-from",
        "20",
    ]);
    let table = String::from_utf8(table.stdout).unwrap();
    assert!(table.contains("result 32-32"), "{table}");
    assert!(table.contains("\nBlack: 30 moves"), "{table}");
    assert!(table.contains("\nWhite: 30 moves"), "{table}");
    let row = table
        .lines()
        .find(|l| l.trim_start().starts_with("60 |"))
        .unwrap();
    assert!(row.contains("h6") && row.contains("exact"), "{row}");
}

#[test]
fn a_transcript_without_game_is_still_one_position() {
    let output = oxello(&["analyze", "f5d6c3", "--depth", "3"]);
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.starts_with("position "), "{text}");
    assert!(text.lines().last().unwrap().starts_with("best "), "{text}");
}

#[test]
fn ggf_files_with_several_games_and_svg_graphs() {
    let dir = temp_dir("ggf");
    let start = Position::start(BoardSize::Eight);
    let mut records = Vec::new();
    for (moves, names) in [
        (TAKIZAWA, ("Takizawa", "Perfect")),
        ("f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6", ("Alice", "Bob")),
    ] {
        let game = transcript::parse_game(moves, start).unwrap();
        records.push(ggf::GgfGame::from_game(&game).with_players(names.0, names.1));
    }
    let file = dir.join("games.ggf");
    std::fs::write(&file, ggf::format_all(&records)).unwrap();
    let svg = dir.join("graph.svg");
    let file_arg = file.display().to_string();
    let svg_arg = svg.display().to_string();
    let output = oxello(&[
        "analyze",
        &file_arg,
        "--depth",
        "2",
        "--exact-from",
        "12",
        "--svg",
        &svg_arg,
    ]);
    let table = String::from_utf8(output.stdout).unwrap();
    assert!(
        table.contains("games.ggf #1: Takizawa (Black) vs Perfect (White)"),
        "{table}"
    );
    assert!(table.contains("games.ggf #2: Alice (Black) vs Bob (White), result unfinished"));
    for number in [1, 2] {
        let graph = std::fs::read_to_string(dir.join(format!("graph-{number}.svg"))).unwrap();
        assert!(graph.starts_with("<svg") && graph.trim_end().ends_with("</svg>"));
        assert!(graph.contains("score for Black (discs)") && graph.contains(">move</text>"));
        assert!(graph.contains("<polyline"));
    }
    // The progress bar shows on a terminal only: piped, stderr stays empty.
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.is_empty(), "{stderr}");
    // One game of the file, by index.
    let one = oxello(&[
        "analyze", &file_arg, "--index", "2", "--depth", "2", "--json",
    ]);
    let json = String::from_utf8(one.stdout).unwrap();
    assert_eq!(json.lines().count(), 1);
    assert!(json.contains("\"black\":\"Alice\"") && json.contains("\"result\":null"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[cfg_attr(
    not(shared_data),
    ignore = "needs ../shared (WTHOR, XOT, FFO): skipped"
)]
fn wthor_game_by_index() {
    let dir = common::shared("games/wthor");
    let file = dir.join("WTH_2024.wtb");
    let out = temp_dir("wthor");
    let svg = out.join("wthor.svg");
    let spec = format!("{}:12", file.display());
    let output = oxello(&[
        "analyze",
        &spec,
        "--depth",
        "2",
        "--exact-from",
        "14",
        "--svg",
        &svg.display().to_string(),
    ]);
    let table = String::from_utf8(output.stdout).unwrap();
    assert!(table.starts_with("WTH_2024.wtb #12"), "{table}");
    assert!(
        table.contains("moves,") && table.contains("mistake"),
        "{table}"
    );
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<polyline"));
    // The same game through --wthor-index.
    let again = oxello(&[
        "analyze",
        &file.display().to_string(),
        "--wthor-index",
        "12",
        "--depth",
        "2",
        "--exact-from",
        "14",
    ]);
    assert_eq!(String::from_utf8(again.stdout).unwrap(), table);
    let _ = std::fs::remove_dir_all(&out);
}

/// `bench --accuracy` judges a depth-limited search by the file's exact
/// scores: a search deep enough to solve never loses a disc, a file of
/// best moves only (FFO's) is judged without losses, and a file listing
/// neither every move nor only best moves is refused.
#[test]
fn bench_accuracy_counts_optimal_moves_and_refuses_incomplete_files() {
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/endgame-suite.obf");
    let deep = oxello(&["bench", "--accuracy", suite, "--depth", "20"]);
    let text = String::from_utf8_lossy(&deep.stdout);
    let last = text.lines().last().unwrap_or_default();
    assert!(
        last.contains("optimal 40 (100.0%), average loss 0.00 discs"),
        "{last}"
    );
    let ffo = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/ffo-40-59.obf");
    let shallow = oxello(&["bench", "--accuracy", ffo, "--depth", "1"]);
    let text = String::from_utf8_lossy(&shallow.stdout);
    let last = text.lines().last().unwrap_or_default();
    assert!(
        last.contains("20 positions, optimal") && last.contains("average loss not known"),
        "{last}"
    );
    // The best move and the worst of a fully scored position.
    let mut entry = oxello::formats::obf::parse_file(&std::fs::read_to_string(suite).unwrap())
        .unwrap()
        .swap_remove(0);
    let worst = *entry.move_scores.iter().min_by_key(|m| m.1).unwrap();
    entry.move_scores.sort_by_key(|m| -m.1);
    entry.move_scores.truncate(1);
    entry.move_scores.push(worst);
    let dir = std::env::temp_dir().join(format!("oxello-accuracy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let partial = dir.join("partial.obf");
    std::fs::write(&partial, format!("{entry}\n")).unwrap();
    let output = Command::new(OXELLO)
        .args(["bench", "--accuracy", &partial.display().to_string()])
        .args(["--depth", "1"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("--all-moves"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `bench --eval-error` prints, per phase of two empties, the built-in
/// evaluation's RMS error against the file's scores (as the library's
/// `eval::error` computes it) beside the first learned evaluation's, and
/// its mean signed error at even and at odd empties; it refuses search
/// options and files without scores.
#[test]
fn bench_eval_error_prints_the_error_per_phase_and_refuses_what_it_cannot_use() {
    use oxello::eval::{error, legacy, patterns};
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/endgame-suite.obf");
    let output = oxello(&["bench", "--eval-error", suite]);
    let text = String::from_utf8_lossy(&output.stdout);
    let entries =
        oxello::formats::obf::parse_file(&std::fs::read_to_string(suite).unwrap()).unwrap();
    let values: Vec<_> = entries
        .iter()
        .map(|e| (e.position.board, e.best_score().unwrap()))
        .collect();
    let shipped = error::by_phase(values.iter().copied(), &patterns::evaluate);
    let first = error::by_phase(values.iter().copied(), &|b| legacy::previous().evaluate(b));
    // A header, a rule, a row per phase and the two totals.
    assert_eq!(text.lines().count(), 2 + shipped.len() + 2, "{text}");
    let signed = |phase: &error::PhaseError, odd| {
        phase
            .mean_signed(odd)
            .map_or("-".to_string(), |e| format!("{e:+.2}"))
    };
    for (new, old) in shipped.iter().zip(&first) {
        let row = format!(
            "| {:>8.2} | {:>18.2} | {:>12} | {:>11}",
            new.rms(),
            old.rms(),
            signed(new, false),
            signed(new, true)
        );
        let label = format!("{}-{}", new.empties, new.empties + 1);
        assert!(
            text.lines()
                .any(|l| l.contains(&label) && l.ends_with(&row)),
            "{label} {row}\n{text}"
        );
    }
    let total = format!(
        "on 42 positions: built-in {:.2}, first learned {:.2}",
        error::total(&shipped).rms(),
        error::total(&first).rms()
    );
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[lines.len() - 2].ends_with(&total), "{text}");
    let all = error::total(&shipped);
    // The suite's positions all have an even number of empties.
    assert_eq!(all.mean_signed(true), None);
    let parities = format!(
        "{} at even empties, {} at odd",
        signed(&all, false),
        signed(&all, true)
    );
    assert!(lines[lines.len() - 1].ends_with(&parities), "{text}");

    let refused = Command::new(OXELLO)
        .args(["bench", "--eval-error", suite, "--depth", "3"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--depth"));
    let dir = temp_dir("eval-error");
    let unscored = dir.join("unscored.obf");
    std::fs::write(
        &unscored,
        "---------------------------OX------XO--------------------------- X;\n",
    )
    .unwrap();
    let refused = Command::new(OXELLO)
        .args(["bench", "--eval-error", &unscored.display().to_string()])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("no position with a score"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The move-accuracy files list every legal move of each position with its
/// score, at the 24 empties they are named for, each position once.
#[test]
fn accuracy_files_score_every_move_of_distinct_24_empties_positions() {
    let mut seen = std::collections::HashSet::new();
    for name in ["accuracy-24.obf", "accuracy-24-seed2.obf"] {
        let path = format!("{}/positions/{name}", env!("CARGO_MANIFEST_DIR"));
        let entries =
            oxello::formats::obf::parse_file(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(entries.len(), 40, "{name}");
        for entry in &entries {
            assert_eq!(entry.position.empty_count(), 24, "{name}");
            let mut listed: Vec<_> = entry.move_scores.iter().map(|(m, _)| *m).collect();
            let mut legal = entry.position.move_list().to_vec();
            listed.sort_by_key(|m| m.to_string());
            legal.sort_by_key(|m| m.to_string());
            assert_eq!(listed, legal, "{name}");
            assert!(seen.insert(entry.position), "{name}: a position twice");
        }
    }
}

/// An entry as `solve --write` writes it: one or more legal moves, all with
/// the best score.
fn assert_lists_legal_best_moves(entry: &oxello::formats::obf::ObfEntry) {
    let best = entry.best_score().expect("a score");
    let legal = entry.position.move_list().to_vec();
    assert!(!entry.move_scores.is_empty(), "{entry}");
    for (mv, score) in &entry.move_scores {
        assert_eq!(*score, best, "{entry}: only best moves");
        assert!(legal.contains(mv), "{entry}: {mv} is not legal");
    }
}

/// The 30-empties accuracy file lists every best move of each position (as
/// `solve --write` writes them): the 40 positions, legal moves, one score
/// each position, at the 30 empties it is named for, each position once.
#[test]
fn the_30_empties_accuracy_file_lists_legal_best_moves_of_distinct_positions() {
    let path = format!("{}/positions/accuracy-30.obf", env!("CARGO_MANIFEST_DIR"));
    let entries =
        oxello::formats::obf::parse_file(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(entries.len(), 40, "the issue's 40 positions");
    let mut seen = std::collections::HashSet::new();
    for entry in &entries {
        assert_eq!(entry.position.empty_count(), 30, "{entry}");
        assert_lists_legal_best_moves(entry);
        assert!(seen.insert(entry.position), "{entry}: a position twice");
    }
}

/// Our own suite of engine-game positions: the sample holds 100 distinct
/// positions of 28 empties and 100 of 29, alternating, without scores; the
/// solved file holds only sample positions, each once, with its best moves
/// (legal, one score) listed. Not necessarily in the sample's order: a
/// position whose solve outlasts a session is left for later
/// (`scripts/suite-30.sh DIR THREADS RANGE`).
#[test]
fn the_own_suite_holds_solved_sample_positions() {
    let read = |name: &str| {
        let path = format!("{}/positions/{name}", env!("CARGO_MANIFEST_DIR"));
        oxello::formats::obf::parse_file(&std::fs::read_to_string(&path).unwrap()).unwrap()
    };
    let sample = read("suite-30-sample.obf");
    assert_eq!(sample.len(), 200);
    let mut seen = std::collections::HashSet::new();
    for (i, entry) in sample.iter().enumerate() {
        assert_eq!(entry.position.empty_count(), 28 + (i % 2) as u32, "{entry}");
        assert!(
            entry.move_scores.is_empty(),
            "{entry}: the sample has no scores"
        );
        assert!(seen.insert(entry.position), "{entry}: a position twice");
    }
    let solved = read("suite-30.obf");
    let mut solved_once = std::collections::HashSet::new();
    for entry in &solved {
        assert!(seen.contains(&entry.position), "{entry}: not in the sample");
        assert!(solved_once.insert(entry.position), "{entry}: solved twice");
        assert_lists_legal_best_moves(entry);
    }
}
