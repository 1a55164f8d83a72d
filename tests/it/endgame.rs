//! The exact endgame solver against known scores: FFO #40-59 (our own
//! `positions/ffo-40-59.obf`), our endgame suite, a naive solver, the 8
//! symmetries, and the small boards.
//!
//! FFO #40-44 run in the normal `cargo test --profile test-release`; #45-59
//! are ignored (run them with `cargo test --profile test-release --test it
//! endgame:: -- --ignored`, or
//! `oxello solve positions/ffo-40-59.obf --first-number 40`).

use crate::common;

use common::naive::{self, NaiveBoard};
use oxello::formats::obf::{self, ObfEntry};
use oxello::search::{Limits, SearchResult, Searcher, Selectivity, SolveMode, StopSignal};
use oxello::{Board, BoardSize, Position, Symmetry};

fn positions_file(name: &str) -> Vec<ObfEntry> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("positions")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    obf::parse_file(&text).unwrap()
}

fn solve(searcher: &mut Searcher, position: &Position, mode: SolveMode) -> SearchResult {
    let limits = Limits {
        solve_empties: Some(64),
        solve_mode: mode,
        ..Limits::default()
    };
    searcher.search(position, &limits, &StopSignal::new(), &mut |_| {})
}

/// Solves FFO positions `numbers` and checks the score, then re-solves the
/// position after the chosen move to confirm the move really reaches it.
fn check_ffo(numbers: std::ops::RangeInclusive<usize>) {
    let entries = positions_file("ffo-40-59.obf");
    let mut searcher = Searcher::new(64);
    for number in numbers {
        let entry = &entries[number - 40];
        let expected = entry.best_score().unwrap();
        searcher.clear();
        let result = solve(&mut searcher, &entry.position, SolveMode::Exact);
        assert_eq!(result.score, expected, "FFO #{number}");
        let best = result.best.unwrap();
        let after = entry.position.play(best).unwrap();
        let reply = solve(&mut searcher, &after, SolveMode::Exact);
        assert_eq!(
            -reply.score, expected,
            "FFO #{number}: {best} does not reach the score"
        );
        eprintln!(
            "FFO #{number}: {best} {expected:+} in {} nodes, {:.2?}",
            result.nodes, result.elapsed
        );
    }
}

#[test]
fn ffo_40_to_44_exact_scores_and_moves() {
    check_ffo(40..=44);
}

/// Solves FFO `numbers` with the selectivity ladder (73% up to 100%) and
/// `threads` threads; returns each best score and checks it is exact.
fn ladder_scores(numbers: std::ops::RangeInclusive<usize>, threads: usize) -> Vec<i32> {
    let entries = positions_file("ffo-40-59.obf");
    let mut searcher = Searcher::new(64);
    let mut scores = Vec::new();
    for number in numbers {
        let entry = &entries[number - 40];
        searcher.clear();
        let limits = Limits {
            solve_empties: Some(64),
            solve_selectivity: Selectivity::MOST,
            threads,
            ..Limits::default()
        };
        let mut levels = Vec::new();
        let result = searcher.search(&entry.position, &limits, &StopSignal::new(), &mut |r| {
            levels.push(r.depth)
        });
        assert_eq!(
            result.depth,
            oxello::search::Depth::Exact,
            "FFO #{number}, {threads} threads"
        );
        // Any probable steps came first, each reported as such.
        assert!(levels[..levels.len() - 1].iter().all(|d| !d.is_proven()));
        assert_eq!(
            result.score,
            entry.best_score().unwrap(),
            "FFO #{number}, {threads} threads"
        );
        eprintln!(
            "FFO #{number}, {threads} threads: {} {:+} in {} nodes, {:.2?}",
            result.best.unwrap(),
            result.score,
            result.nodes,
            result.elapsed
        );
        scores.push(result.score);
    }
    scores
}

#[test]
fn ffo_40_to_44_stay_exact_with_the_selectivity_ladder() {
    ladder_scores(40..=44, 1);
}

#[test]
fn ffo_40_to_44_stay_exact_with_2_and_4_threads_every_time() {
    let single = ladder_scores(40..=44, 1);
    for threads in [2, 2, 4, 4] {
        assert_eq!(ladder_scores(40..=44, threads), single, "{threads} threads");
    }
}

#[test]
#[ignore = "slow: minutes in release; also `oxello solve positions/ffo-40-59.obf`"]
fn ffo_45_to_59_exact_scores_and_moves() {
    check_ffo(45..=59);
}

/// The parallel solver (split points handing moves to idle threads) on
/// every position of the suite, with three threads (more than this
/// machine's cores, so tasks are handed out, cut and waited for in many
/// orders): the exact score, the WLD result, and the score of every move
/// (multi-PV, each line a solve of its own) agree with the file.
#[test]
fn parallel_solves_agree_with_the_endgame_suite() {
    let entries = positions_file("endgame-suite.obf");
    let mut searcher = Searcher::new(16);
    for entry in &entries {
        for mode in [SolveMode::Exact, SolveMode::Wld] {
            searcher.clear();
            let lines = if mode == SolveMode::Exact { 64 } else { 1 };
            let limits = Limits {
                solve_empties: Some(64),
                solve_mode: mode,
                threads: 3,
                multi_pv: lines,
                ..Limits::default()
            };
            let result = searcher.search(&entry.position, &limits, &StopSignal::new(), &mut |_| {});
            let expected = entry.best_score().unwrap();
            match mode {
                SolveMode::Exact => {
                    assert_eq!(result.score, expected, "{entry}");
                    assert_eq!(result.lines.len(), entry.move_scores.len(), "{entry}");
                    for line in &result.lines {
                        let mv = line.best();
                        let listed = entry.move_scores.iter().find(|(m, _)| *m == mv);
                        assert_eq!(listed.map(|&(_, s)| s), Some(line.score), "{mv} in {entry}");
                    }
                }
                SolveMode::Wld => assert_eq!(result.score.signum(), expected.signum(), "{entry}"),
            }
        }
    }
}

/// The moves of a solve listing every best move (`solve --write`), sorted.
fn every_best_move(searcher: &mut Searcher, position: &Position) -> (i32, Vec<String>) {
    searcher.clear();
    let limits = Limits {
        solve_empties: Some(64),
        multi_pv: 64,
        ties_only: true,
        ..Limits::default()
    };
    let result = searcher.search(position, &limits, &StopSignal::new(), &mut |_| {});
    let mut moves: Vec<String> = result.lines.iter().map(|l| l.best().to_string()).collect();
    moves.sort();
    assert!(result.lines.iter().all(|l| l.score == result.score));
    (result.score, moves)
}

#[test]
fn a_solve_for_ties_lists_every_best_move_and_no_other() {
    let mut searcher = Searcher::new(64);
    let mut ties = 0;
    let suite = positions_file("endgame-suite.obf");
    let ffo = positions_file("ffo-40-59.obf");
    // The suite scores every move; FFO #40-44 list every best move (#43
    // and #44 have two).
    for entry in suite.iter().chain(&ffo[..5]) {
        let expected = entry.best_score().unwrap();
        let mut best: Vec<String> = entry
            .move_scores
            .iter()
            .filter(|&&(_, score)| score == expected)
            .map(|(mv, _)| mv.to_string())
            .collect();
        best.sort();
        let (score, moves) = every_best_move(&mut searcher, &entry.position);
        assert_eq!((score, &moves), (expected, &best), "{entry}");
        ties += usize::from(moves.len() > 1);
    }
    assert!(ties >= 5, "only {ties} positions with tied best moves");
}

#[test]
fn wld_solves_agree_with_exact_scores() {
    let entries = positions_file("endgame-suite.obf");
    let mut searcher = Searcher::new(16);
    for entry in entries.iter().filter(|e| e.position.empty_count() <= 16) {
        let wld = solve(&mut searcher, &entry.position, SolveMode::Wld);
        assert_eq!(wld.score.signum(), entry.best_score().unwrap().signum());
    }
}

#[test]
fn endgame_suite_scores_and_naive_solver_agree() {
    let entries = positions_file("endgame-suite.obf");
    assert_eq!(entries.len(), 42);
    let mut searcher = Searcher::new(64);
    let mut checked_naively = 0;
    for entry in &entries {
        let expected = entry.best_score().unwrap();
        let result = solve(&mut searcher, &entry.position, SolveMode::Exact);
        assert_eq!(result.score, expected, "{}", entry);
        if entry.position.empty_count() <= 12 {
            let naive = NaiveBoard::from_board(entry.position.board, entry.position.size);
            assert_eq!(naive::solve(&naive, -64, 64), expected, "{entry}");
            for ((row, col), score) in naive::solve_moves(&naive) {
                let square = oxello::Square::from_coords(col as u8, row as u8).unwrap();
                assert_eq!(entry.score_of(square), Some(score), "{square} in {entry}");
            }
            checked_naively += 1;
        }
    }
    assert_eq!(checked_naively, 18);
}

#[test]
fn exact_solve_matches_naive_negamax_on_random_positions() {
    let mut searcher = Searcher::new(16);
    let mut checked = 0;
    for (i, board) in common::random_positions(BoardSize::Eight, 300, 21)
        .into_iter()
        .enumerate()
    {
        let empties = board.empties().count_ones();
        if !(1..=11).contains(&empties) || i % 7 != 0 {
            continue;
        }
        if checked == 60 {
            break;
        }
        let position = Position {
            board,
            side: oxello::Color::Black,
            size: BoardSize::Eight,
        };
        let expected = naive::solve(&NaiveBoard::from_board(board, BoardSize::Eight), -64, 64);
        assert_eq!(
            solve(&mut searcher, &position, SolveMode::Exact).score,
            expected,
            "{board:?}"
        );
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} positions");
}

#[test]
fn all_8_symmetries_solve_to_the_same_score() {
    let entries = positions_file("endgame-suite.obf");
    let mut searcher = Searcher::new(16);
    for entry in entries
        .iter()
        .filter(|e| (14..=16).contains(&e.position.empty_count()))
    {
        let expected = entry.best_score().unwrap();
        for symmetry in Symmetry::ALL {
            searcher.clear();
            let image = entry.position.symmetric(symmetry);
            assert_eq!(
                solve(&mut searcher, &image, SolveMode::Exact).score,
                expected,
                "{symmetry:?}"
            );
        }
    }
}

#[test]
fn four_by_four_is_a_white_win_by_10() {
    let mut searcher = Searcher::new(4);
    let result = solve(
        &mut searcher,
        &Position::start(BoardSize::Four),
        SolveMode::Exact,
    );
    assert_eq!(result.score, -10);
    let naive = NaiveBoard::from_board(Board::start(BoardSize::Four), BoardSize::Four);
    assert_eq!(naive::solve(&naive, -64, 64), -10);
}

#[test]
#[ignore = "slow: the full 6x6 solve; also `oxello solve --size 6`"]
fn six_by_six_is_a_white_win_20_16() {
    let mut searcher = Searcher::new(256);
    let result = solve(
        &mut searcher,
        &Position::start(BoardSize::Six),
        SolveMode::Exact,
    );
    assert_eq!(result.score, -4);
}

/// A solve stopped halfway and checkpointed goes on from its checkpoint in
/// a new searcher (another process, as after a crash): the same exact
/// score, and the nodes searched before the stop are not searched again.
#[test]
fn a_solve_resumed_from_a_checkpoint_keeps_the_work_done_before() {
    let entries = positions_file("ffo-40-59.obf");
    for number in [41, 43] {
        let entry = &entries[number - 40];
        let limits = |nodes| Limits {
            solve_empties: Some(64),
            solve_selectivity: Selectivity::MOST,
            nodes,
            ..Limits::default()
        };
        let stop = StopSignal::new();
        let fresh = Searcher::new(64).search(&entry.position, &limits(None), &stop, &mut |_| {});
        let first = Searcher::new(64);
        let stopped_at = fresh.nodes / 2;
        let stopped = first.search(
            &entry.position,
            &limits(Some(stopped_at)),
            &stop,
            &mut |_| {},
        );
        assert!(stopped.stopped.is_some(), "FFO #{number}: not stopped");
        let header = oxello::search::checkpoint::Header::new(
            &entry.position,
            SolveMode::Exact,
            stopped.nodes,
            stopped.elapsed,
        );
        let mut bytes = Vec::new();
        let saved = first.write_checkpoint(&mut bytes, &header).unwrap();
        let mut second = Searcher::new(64);
        let restored = second
            .read_checkpoint(&bytes[..], bytes.len() as u64)
            .unwrap();
        assert!(restored.header.is_of(&entry.position, SolveMode::Exact));
        assert_eq!(restored.header.nodes, stopped.nodes);
        assert_eq!(restored.kept as u64, saved);
        let resumed = second.search(&entry.position, &limits(None), &stop, &mut |_| {});
        assert_eq!(resumed.depth, oxello::search::Depth::Exact);
        assert_eq!(resumed.score, entry.best_score().unwrap(), "FFO #{number}");
        eprintln!(
            "FFO #{number}: {} nodes fresh; stopped at {}, then {} nodes from the checkpoint \
             ({} entries)",
            fresh.nodes, stopped.nodes, resumed.nodes, restored.kept
        );
        // Most of the nodes before the stop are saved (measured: FFO #41
        // searches 1% of them again, #43 10%).
        assert!(
            resumed.nodes + stopped.nodes * 3 / 4 < fresh.nodes,
            "FFO #{number}: {} + {} against {}",
            resumed.nodes,
            stopped.nodes,
            fresh.nodes
        );
    }
}
