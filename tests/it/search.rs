//! Search behaviour: reproducibility with a node limit, stopping, multi-PV,
//! and strength against the simple players.

use oxello::engine::{Engine, EngineOptions, GoRequest};
use oxello::formats::{board_string, obf, openings};
use oxello::players::SimplePlayer;
use oxello::search::{Limits, Searcher, Selectivity, SolveMode, StopSignal};
use oxello::{BoardSize, Color, Move, Position};
use rand::SeedableRng;
use std::time::{Duration, Instant};

#[test]
fn same_node_limit_gives_the_same_result() {
    let position = oxello::formats::transcript::parse_game(
        "f5d6c3d3c4f4f6f3e6e7",
        Position::start(BoardSize::Eight),
    )
    .unwrap()
    .position();
    let limits = Limits {
        nodes: Some(300_000),
        ..Limits::default()
    };
    let run = || {
        let searcher = Searcher::new(16);
        searcher.search(&position, &limits, &StopSignal::new(), &mut |_| {})
    };
    let (first, second) = (run(), run());
    assert_eq!(first.best, second.best);
    assert_eq!(first.score, second.score);
    assert_eq!(first.nodes, second.nodes);
    assert_eq!(first.pv, second.pv);
    assert!(
        first.stopped.is_some(),
        "the node limit should have stopped the search"
    );
}

#[test]
fn stop_during_a_parallel_solve_interrupts_it() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/positions/ffo-40-59.obf"
    ))
    .unwrap();
    let entries = obf::parse_file(&text).unwrap();
    // FFO #45: 24 empties, about 3 s to solve with two threads (the 22
    // empties of FFO #41 take 0.3 s now: the solve was over before the
    // stop).
    let position = entries[5].position;
    assert_eq!(position.empty_count(), 24);
    let mut engine = Engine::new(EngineOptions {
        hash_mib: 16,
        threads: Some(2),
        ..EngineOptions::default()
    });
    engine.set_game(oxello::Game::from_position(position));
    engine.go(
        GoRequest {
            solve: Some(SolveMode::Exact),
            ..GoRequest::default()
        },
        Box::new(|_| {}),
    );
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    engine.stop();
    let result = engine.wait().unwrap();
    let latency = asked.elapsed();
    eprintln!("stop answered in {latency:?} with {:?}", result.best);
    assert!(result.stopped.is_some(), "the solve was over: {result:?}");
    // Not a speed goal: the bound only tells an interrupted solve from one
    // that ran on to its end (seconds). Run alone, the stop answers in under
    // a millisecond, even beside another process's two solver threads; in a
    // whole test run beside them it once took 60 ms.
    assert!(
        latency < Duration::from_millis(250),
        "stop took {latency:?}"
    );
    let best = result.best.unwrap();
    assert!(position.play(best).is_ok());
}

#[test]
fn multi_pv_finds_distinct_moves_in_score_order() {
    let position = board_string::parse_position(
        "--OOOOOXO-OOOOOXOOXOOXOXOXOOXXOXOXXXXOXXOOXXXXXX--XXXX-X-XXXXXX- X",
    )
    .unwrap();
    let searcher = Searcher::new(16);
    let limits = Limits {
        solve_empties: Some(64),
        multi_pv: 4,
        ..Limits::default()
    };
    let result = searcher.search(&position, &limits, &StopSignal::new(), &mut |_| {});
    let scores: Vec<(String, i32)> = result
        .lines
        .iter()
        .map(|l| (l.best().to_string(), l.score))
        .collect();
    assert_eq!(
        scores,
        [
            ("b1".to_string(), 40),
            ("b2".to_string(), 32),
            ("a7".to_string(), -12),
            ("b7".to_string(), -22)
        ]
    );
}

/// Plays one game: `searcher` at `depth` with `color` against `opponent`.
/// Returns Black's final score.
fn play_game(
    opening: &Position,
    depth: u32,
    color: Color,
    opponent: SimplePlayer,
    searcher: &mut Searcher,
) -> i32 {
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    let mut position = *opening;
    while !position.is_game_over() {
        let mv = if position.must_pass() {
            Move::Pass
        } else if position.side == color {
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            searcher
                .search(&position, &limits, &StopSignal::new(), &mut |_| {})
                .best
                .unwrap()
        } else {
            opponent.choose(&position, &mut rng)
        };
        position = position.play(mv).unwrap();
    }
    position.final_score_black()
}

#[test]
fn depth_6_beats_greedy_and_positional_on_50_xot_openings() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/positions/xot-first-50.txt"
    ))
    .unwrap();
    let list = openings::parse_list(&text, Position::start(BoardSize::Eight)).unwrap();
    assert_eq!(list.len(), 50);
    let mut searcher = Searcher::new(16);
    for opponent in [SimplePlayer::Greedy, SimplePlayer::Positional] {
        let (mut wins, mut games) = (0, 0);
        for opening in &list {
            for color in [Color::Black, Color::White] {
                let black_score = play_game(&opening.position(), 6, color, opponent, &mut searcher);
                let ours = if color == Color::Black {
                    black_score
                } else {
                    -black_score
                };
                wins += (ours > 0) as u32;
                games += 1;
            }
        }
        eprintln!("depth 6 vs {opponent}: {wins} wins in {games} games");
        assert!(
            wins * 100 >= games * 95,
            "depth 6 won only {wins} of {games} against {opponent}"
        );
    }
}

/// A board with 35 legal moves (more than a real game ever has): every move
/// is searched, so the single best move's score is the best multi-PV line's.
/// Both also equal a plain negamax over the built-in evaluation: a
/// fixed-depth full-width answer is that depth's minimax (a root ordering
/// search deeper than the children once broke this: d8 +48 where e8 is +54).
#[test]
fn every_move_is_searched_on_a_35_move_board() {
    let position = board_string::parse_position(
        "---------OO-OXO--OXXXXO---X-OXX--OX------XXO-XO--OOX-XO------OX- X",
    )
    .unwrap();
    assert_eq!(position.legal_moves().count_ones(), 35);
    for depth in [1, 3] {
        let mut searcher = Searcher::new(16);
        let single = searcher.search(
            &position,
            &Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            &StopSignal::new(),
            &mut |_| {},
        );
        searcher.clear();
        let all = searcher.search(
            &position,
            &Limits {
                depth: Some(depth),
                multi_pv: 40,
                ..Limits::default()
            },
            &StopSignal::new(),
            &mut |_| {},
        );
        assert_eq!(all.lines.len(), 35, "depth {depth}");
        let best = all.lines.iter().map(|line| line.score).max().unwrap();
        assert_eq!(single.score, best, "depth {depth}");
        assert_eq!(single.score, all.lines[0].score, "depth {depth}");
        assert_eq!(
            single.score,
            negamax(position.board, depth),
            "depth {depth}"
        );
    }
}

/// A solve cut off by the clock falls back to the deepest finished result
/// and never calls it exact (it used to answer c1 +30 "exact" here, where
/// a2 +38 is the truth).
#[test]
fn a_time_limited_solve_that_cannot_finish_is_never_exact() {
    let position = board_string::parse_position(
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
    )
    .unwrap();
    for (millis, threads) in [(20, 1), (60, 2), (150, 1), (400, 2)] {
        let mut engine = Engine::new(EngineOptions {
            hash_mib: 16,
            player: "60".parse().unwrap(),
            time: Some(Duration::from_millis(millis)),
            threads: Some(threads),
            ..EngineOptions::default()
        });
        engine.set_game(oxello::Game::from_position(position));
        let result = engine.think(GoRequest::default()).unwrap();
        if result.depth.is_proven() {
            // Only a finished solve may say so, and then it is right.
            assert_eq!(result.score, 38, "{millis} ms: {result:?}");
            assert_eq!(result.best.unwrap().to_string(), "a2");
        }
        eprintln!(
            "{millis} ms, {threads} threads: {} {:+} at {} ({:?})",
            result.best.unwrap(),
            result.score,
            result.depth.label(),
            result.stopped
        );
    }
}

/// A search whose depth limit reaches the end of the game solves as soon
/// as an iteration scores a wipeout, rather than deepen: FFO #59 (+64 at 34
/// empties) is proven in about 0.6 M nodes at 73%, where the midgame
/// iterations went on to depth 33 (depth 29 alone: 657 M nodes). A
/// shallower limit is kept.
#[test]
fn a_wipeout_seen_is_solved_at_once() {
    let position = board_string::parse_position(
        "-----------------------O--OOOOO---OOOOOXOOOOXXXX--XXOOXX--XX-O-X X",
    )
    .unwrap();
    assert_eq!(position.empty_count(), 34);
    let search = |depth| {
        let limits = Limits {
            depth: Some(depth),
            nodes: Some(20_000_000),
            selectivity: Selectivity::MOST,
            solve_selectivity: Selectivity::MOST,
            threads: 1,
            ..Limits::default()
        };
        Searcher::new(16).search(&position, &limits, &StopSignal::new(), &mut |_| {})
    };
    let result = search(34);
    assert!(result.depth.is_proven(), "{result:?}");
    assert_eq!(result.score, 64);
    assert_eq!(result.best.unwrap().to_string(), "g8");
    assert!(result.stopped.is_none(), "{result:?}");
    let shallow = search(16);
    assert!(!shallow.depth.is_solve(), "{shallow:?}");
}

/// Under a clock, a position of fewer empties than the ladder starts at
/// (they solve straight to 100%) whose exact solve is not expected to fit
/// is solved selectively, not searched with midgame iterations to the end
/// of the turn. At 23 empties in a 1.3 s turn the engine went to depth
/// 19 at 73% and played a7, which loses 2 discs (game 14 of a match
/// against NTest); a 73% solve takes about 3.6 M nodes and finds c8, a
/// draw.
#[test]
fn a_clock_too_short_for_the_exact_solve_gets_a_selective_one() {
    let position = board_string::parse_position(
        "-----------XOO---OOXXOX--OOXOXXX-OOXXXXXXOXXOXXX-XOXXX-XX--OXX-- O",
    )
    .unwrap();
    assert_eq!(position.empty_count(), 23);
    let mut engine = Engine::new(EngineOptions {
        hash_mib: 16,
        player: "30".parse().unwrap(),
        time: Some(Duration::from_secs(3)),
        threads: Some(1),
        ..EngineOptions::default()
    });
    engine.set_game(oxello::Game::from_position(position));
    let result = engine.think(GoRequest::default()).unwrap();
    assert!(result.depth.is_solve(), "{result:?}");
    if result.depth.is_proven() {
        assert_eq!(result.score, 0, "{result:?}");
        assert_eq!(result.best.unwrap().to_string(), "c8");
    }
}

/// Negamax over the pattern evaluation, no pruning: what a full-width
/// search to `depth` must find (passes do not count as plies).
fn negamax(board: oxello::Board, depth: u32) -> i32 {
    if depth == 0 {
        return oxello::eval::patterns::evaluate(board);
    }
    let moves = board.move_list_on(BoardSize::Eight);
    if moves.is_empty() {
        return if board.pass().legal_moves() == 0 {
            board.final_score_on(BoardSize::Eight)
        } else {
            -negamax(board.pass(), depth)
        };
    }
    moves
        .iter()
        .map(|&mv| -negamax(board.play_unchecked(mv), depth - 1))
        .max()
        .unwrap()
}

/// Selectivity off, the search is a plain alpha-beta: its score is
/// negamax's. Selectivity on, it visits fewer nodes.
///
/// From depth 5 on: the root orders its moves by depth-4 searches, so a
/// shallower iteration finds deeper results in the table than negamax's.
#[test]
fn full_width_search_equals_negamax_and_selectivity_saves_nodes() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/positions/xot-first-50.txt"
    ))
    .unwrap();
    let openings = openings::parse_list(&text, Position::default()).unwrap();
    let mut searcher = Searcher::new(16);
    let (mut full, mut selective) = (0, 0);
    for (i, opening) in openings.iter().take(6).enumerate() {
        let position = opening.position();
        let depths = if i < 3 { 5..=6 } else { 5..=5 };
        for depth in depths {
            searcher.clear();
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let result = searcher.search(&position, &limits, &StopSignal::new(), &mut |_| {});
            assert_eq!(
                result.score,
                negamax(position.board, depth),
                "depth {depth}"
            );
        }
        for (selectivity, nodes) in [
            (Selectivity::NONE, &mut full),
            (Selectivity::MOST, &mut selective),
        ] {
            searcher.clear();
            let limits = Limits {
                depth: Some(10),
                selectivity,
                ..Limits::default()
            };
            *nodes += searcher
                .search(&position, &limits, &StopSignal::new(), &mut |_| {})
                .nodes;
        }
    }
    eprintln!("depth 10: {full} nodes full width, {selective} at 73%");
    assert!(selective * 2 < full, "{selective} vs {full}");
}
