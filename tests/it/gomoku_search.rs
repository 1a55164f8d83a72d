//! Gomoku search: the known-answer positions of gomoku.md §6, VCF on built
//! positions and checked against a naive verifier, VCT wins checked against
//! every reply, reproducible depth-limited searches.

use oxello::Color;
use oxello::gomoku::board::Point;
use oxello::gomoku::rules::{Config, Rule};
use oxello::gomoku::search::{Limits, Searcher, WIN_BOUND};
use oxello::gomoku::text::parse_moves;
use oxello::gomoku::threat::{Class, class_of, is_legal};
use oxello::gomoku::vcf::{ThreatBudget, vcf, vct};
use oxello::gomoku::{Board, Status};
use oxello::search::StopSignal;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::Duration;

fn board(size: usize, rule: Rule, moves: &str) -> Board {
    let mut board = Board::new(Config {
        width: size,
        height: size,
        n: 5,
        rule,
    })
    .unwrap();
    for p in parse_moves(moves).unwrap() {
        assert_eq!(board.play(p), Ok(Status::Ongoing), "{p}");
    }
    board
}

fn best(board: &Board, millis: u64) -> Point {
    best_with(board, millis, 1)
}

fn best_with(board: &Board, millis: u64, threads: usize) -> Point {
    let mut searcher = Searcher::new(16);
    let limits = Limits {
        threads,
        ..Limits::for_time(Duration::from_millis(millis))
    };
    let result = searcher.search(board, &limits, &StopSignal::new(), &mut |_| {});
    result.best.expect("a move")
}

#[test]
fn takes_the_five() {
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
        for size in [15, 20] {
            if rule == Rule::Renju && size != 15 {
                continue;
            }
            let board = board(size, rule, "h8h9i8i9j8j9k8k9");
            let mv = best(&board, 300);
            assert!(
                mv == Point::new(6, 7) || mv == Point::new(11, 7),
                "{rule} {size}: {mv}"
            );
        }
    }
}

#[test]
fn standard_refuses_the_overline_and_blocks_the_three() {
    let position = "h8h9i8h10g8h11j13h12g14h14i15";
    let standard = board(15, Rule::Standard, position);
    assert_eq!(standard.to_move(), Color::White);
    let mv = best(&standard, 500);
    assert!(
        mv == Point::new(5, 7) || mv == Point::new(9, 7),
        "standard: {mv}"
    );
    // Under freestyle h13 makes six in a row and wins.
    let freestyle = board(15, Rule::Freestyle, position);
    assert_eq!(best(&freestyle, 500), Point::new(7, 12));
}

#[test]
fn renju_never_plays_the_forbidden_double_three() {
    let renju = board(15, Rule::Renju, "h8h9i7i9h10i6i11i12");
    assert_eq!(renju.to_move(), Color::Black);
    let mv = best(&renju, 500);
    assert_ne!(mv, Point::new(6, 8));
    assert!(!renju.is_forbidden(mv.index()));
}

#[test]
fn caro_stops_the_open_three() {
    let caro = board(15, Rule::Caro, "h8f8g8f9i8f7j8l8");
    let mv = best(&caro, 500);
    let accepted = [(5, 4), (5, 5), (5, 9), (5, 10)].map(|(x, y)| Point::new(x, y));
    assert!(accepted.contains(&mv), "caro: {mv}");
}

/// Checks a VCF line with nothing but naive win tests: after each attacking
/// move the defender has no five, the attacker has a winning cell, and the
/// defender's move is the only block (or the attacker has two).
fn naive_confirms(board: &Board, line: &[usize]) -> bool {
    let mut board = board.clone();
    let attacker = board.to_move();
    let wins_for = |board: &Board, color: Color| -> Vec<usize> {
        board
            .points()
            .iter()
            .copied()
            .filter(|&c| {
                board.is_empty(c) && {
                    let mut copy = board.clone();
                    copy.place_as(c, color);
                    copy.wins_through(c)
                }
            })
            .collect()
    };
    let mut i = 0;
    while i < line.len() {
        let mv = line[i];
        if !board.is_empty(mv) || board.is_forbidden(mv) && attacker == Color::Black {
            return false;
        }
        board.place_as(mv, attacker);
        if board.wins_through(mv) {
            return true;
        }
        if !wins_for(&board, attacker.opponent()).is_empty() {
            return false;
        }
        let threats = wins_for(&board, attacker);
        match threats.len() {
            0 => return false,
            1 => {}
            _ => return true,
        }
        let Some(&reply) = line.get(i + 1) else {
            return false;
        };
        if reply != threats[0] {
            return false;
        }
        if board.rule() == Rule::Renju && attacker == Color::White && board.is_forbidden(reply) {
            return true;
        }
        board.place_as(reply, attacker.opponent());
        i += 2;
    }
    false
}

#[test]
fn vcf_finds_built_wins() {
    // Black: a row three blocked on the left and a column three blocked
    // below; (9,7)... (10,7) makes two fours at once.
    let mut b = Board::new(Config::default()).unwrap();
    for (x, y) in [(7, 7), (8, 7), (9, 7), (10, 8), (10, 9), (10, 10)] {
        b.place_as(Point::new(x, y).index(), Color::Black);
    }
    for (x, y) in [(6, 7), (10, 11), (0, 0), (0, 2), (0, 4), (0, 6)] {
        b.place_as(Point::new(x, y).index(), Color::White);
    }
    b.set_to_move(Color::Black);
    let mut line = Vec::new();
    assert!(vcf(&mut b, 10, &mut ThreatBudget::new(10_000), &mut line));
    assert_eq!(Point::from_index(line[0]), Point::new(10, 7));
    assert!(naive_confirms(&b, &line));

    // A ladder: each four forces a block and sets up the next four.
    // Black stones on a diagonal pattern that needs three fours.
    let mut b = Board::new(Config::default()).unwrap();
    for (x, y) in [(4, 4), (5, 4), (6, 4), (7, 5), (7, 6), (8, 7), (9, 7)] {
        b.place_as(Point::new(x, y).index(), Color::Black);
    }
    for (x, y) in [
        (3, 4),
        (7, 8),
        (10, 7),
        (14, 14),
        (14, 12),
        (14, 10),
        (14, 8),
    ] {
        b.place_as(Point::new(x, y).index(), Color::White);
    }
    b.set_to_move(Color::Black);
    let mut line = Vec::new();
    let found = vcf(&mut b, 20, &mut ThreatBudget::new(100_000), &mut line);
    if found {
        assert!(naive_confirms(&b, &line), "{:?}", line);
    }
}

/// A random middle-game position around the centre (the rule cycles with
/// `round`); `None` when the random moves ended the game.
fn random_position(rng: &mut StdRng, round: usize) -> Option<Board> {
    let rule = [Rule::Freestyle, Rule::Standard, Rule::Renju][round % 3];
    let mut b = Board::new(Config {
        rule,
        ..Config::default()
    })
    .unwrap();
    for _ in 0..rng.random_range(10..50) {
        let p = Point::new(rng.random_range(3..12), rng.random_range(3..12));
        if !matches!(b.play(p), Ok(Status::Ongoing) | Err(_)) {
            return None;
        }
    }
    Some(b)
}

#[test]
fn vcf_wins_hold_against_a_naive_verifier() {
    let mut rng = StdRng::seed_from_u64(3);
    let mut found = 0;
    for round in 0..400 {
        let Some(mut b) = random_position(&mut rng, round) else {
            continue;
        };
        let mut line = Vec::new();
        if vcf(&mut b, 20, &mut ThreatBudget::new(20_000), &mut line) {
            found += 1;
            assert!(naive_confirms(&b, &line), "{}\n{:?}", b.diagram(), line);
        }
    }
    assert!(found >= 20, "only {found} VCF wins found");
}

/// Whether the side to move wins by a VCF (which takes a five first) or a
/// VCT of `depth` attacking moves.
fn attacker_still_wins(board: &mut Board, depth: u32) -> bool {
    let mut line = Vec::new();
    vcf(board, 20, &mut ThreatBudget::new(20_000), &mut line)
        || vct(board, depth, &mut ThreatBudget::new(20_000)).is_some()
}

/// A VCT's first move wins against every reply, not only the answers the
/// VCT tries (its defences and the defender's fours): after each empty cell
/// the defender may play, the attacker still wins by a five, a VCF or a VCT
/// of one attacking move less. Some of the wins begin with a four that is
/// no VCF, and some with an open three.
#[test]
fn vct_wins_hold_against_every_reply() {
    let mut rng = StdRng::seed_from_u64(5);
    let (mut checked, mut by_four, mut by_three) = (0, 0, 0);
    for round in 0..600 {
        if checked == 12 {
            break;
        }
        let Some(mut b) = random_position(&mut rng, round) else {
            continue;
        };
        let mut line = Vec::new();
        if vcf(&mut b, 20, &mut ThreatBudget::new(20_000), &mut line) {
            continue;
        }
        let Some(mv) = vct(&mut b, 4, &mut ThreatBudget::new(20_000)) else {
            continue;
        };
        checked += 1;
        let attacker = b.to_move();
        let defender = attacker.opponent();
        if class_of(&b, mv, attacker).0 >= Class::Four {
            by_four += 1;
        } else {
            by_three += 1;
        }
        b.place(mv);
        for reply in b.points().to_vec() {
            if !b.is_empty(reply) || !is_legal(&b, reply, defender) {
                continue;
            }
            b.place(reply);
            assert!(
                !b.wins_through(reply),
                "{}\nthe reply {} wins against {}",
                b.diagram(),
                Point::from_index(reply),
                Point::from_index(mv)
            );
            assert!(
                attacker_still_wins(&mut b, 3),
                "{}\nthe reply {} holds against {}",
                b.diagram(),
                Point::from_index(reply),
                Point::from_index(mv)
            );
            b.undo();
        }
    }
    assert_eq!(checked, 12, "only {checked} VCT wins found");
    assert!(
        by_four >= 1 && by_three >= 1,
        "{by_four} by a four, {by_three} by a three"
    );
}

#[test]
fn depth_limited_search_is_reproducible() {
    let position = board(15, Rule::Freestyle, "h8i9j8i8i7h9g10j9");
    let run = || {
        let mut searcher = Searcher::new(8);
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let result = searcher.search(&position, &limits, &StopSignal::new(), &mut |_| {});
        (result.best, result.score, result.nodes, result.pv)
    };
    assert_eq!(run(), run());
}

/// Several threads (more than the cores) find the same forced answers as
/// one, and a node limit bounds the nodes of all of them together.
#[test]
fn threaded_searches_keep_the_known_answers_and_the_node_limit() {
    for threads in [2, 3] {
        let five = board(15, Rule::Freestyle, "h8h9i8i9j8j9k8k9");
        let mv = best_with(&five, 300, threads);
        assert!(
            mv == Point::new(6, 7) || mv == Point::new(11, 7),
            "{threads}: {mv}"
        );
        let three = board(15, Rule::Freestyle, "h8a1i8a3j8");
        let mv = best_with(&three, 300, threads);
        assert!(
            [(6, 7), (10, 7), (5, 7), (11, 7)]
                .map(|(x, y)| Point::new(x, y))
                .contains(&mv),
            "{threads}: {mv}"
        );
        let position = board(15, Rule::Freestyle, "h8i9j8i8i7h9g10j9");
        let limits = Limits {
            nodes: Some(20_000),
            threads,
            ..Limits::default()
        };
        let mut searcher = Searcher::new(8);
        let result = searcher.search(&position, &limits, &StopSignal::new(), &mut |_| {});
        assert!(result.best.is_some());
        // Each thread looks at the shared count every 64 nodes (a VCF at a
        // node adds up to a few hundred more).
        assert!(
            result.nodes <= 20_000 + threads as u64 * 1_000,
            "{threads} threads: {} nodes",
            result.nodes
        );
        assert!(
            result.nodes >= 20_000,
            "{threads} threads: {} nodes",
            result.nodes
        );
    }
}

/// A stop reaches every thread: a long threaded search stopped from
/// another thread returns at once with a move.
#[test]
fn a_stop_halts_every_thread() {
    let position = board(15, Rule::Freestyle, "h8i9j8i8i7h9g10j9");
    let stop = StopSignal::new();
    let stopper = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            stop.stop();
        })
    };
    let started = std::time::Instant::now();
    let mut searcher = Searcher::new(8);
    let limits = Limits {
        threads: 3,
        ..Limits::default()
    };
    let result = searcher.search(&position, &limits, &stop, &mut |_| {});
    stopper.join().unwrap();
    assert!(result.best.is_some());
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn blocks_an_open_three() {
    // Black has an open four's point (open three + move): a win in a few.
    let position = board(15, Rule::Freestyle, "h8a1i8a3j8");
    let mut searcher = Searcher::new(8);
    let result = searcher.search(
        &position,
        &Limits::for_time(Duration::from_millis(300)),
        &StopSignal::new(),
        &mut |_| {},
    );
    // White must block the open three; Black's eval is not a white win.
    assert!(result.score < WIN_BOUND);
    let mv = result.best.unwrap();
    assert!(
        [(6, 7), (10, 7), (5, 7), (11, 7)]
            .map(|(x, y)| Point::new(x, y))
            .contains(&mv),
        "{mv}"
    );
}
