//! Gomoku rules: win detection from line codes against a naive checker on
//! random boards (every rule, several n and sizes), and renju's forbidden
//! points, recursive cases included.

use oxello::Color;
use oxello::gomoku::board::{DIRECTIONS, Point, Threats};
use oxello::gomoku::forbid::Foul;
use oxello::gomoku::pattern::Pattern;
use oxello::gomoku::rules::{Config, Rule};
use oxello::gomoku::{Board, Status};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Whether `color` placing at (x, y) wins, by scanning the four lines.
fn naive_wins(board: &Board, p: Point, color: Color) -> bool {
    let (w, h) = (board.width() as isize, board.height() as isize);
    let at = |x: isize, y: isize| -> Option<Option<Color>> {
        if x < 0 || y < 0 || x >= w || y >= h {
            None
        } else if (x, y) == (p.x as isize, p.y as isize) {
            Some(Some(color))
        } else {
            Some(board.get(Point::new(x as usize, y as usize)))
        }
    };
    let n = board.n();
    let rule = board.rule();
    for (dx, dy) in [(1isize, 0isize), (0, 1), (1, 1), (1, -1)] {
        let (x0, y0) = (p.x as isize, p.y as isize);
        let mut back = 0;
        while at(x0 - (back + 1) * dx, y0 - (back + 1) * dy) == Some(Some(color)) {
            back += 1;
        }
        let mut fwd = 0;
        while at(x0 + (fwd + 1) * dx, y0 + (fwd + 1) * dy) == Some(Some(color)) {
            fwd += 1;
        }
        let length = (back + fwd + 1) as usize;
        let opponent = Some(Some(color.opponent()));
        let blocked_both = at(x0 - (back + 1) * dx, y0 - (back + 1) * dy) == opponent
            && at(x0 + (fwd + 1) * dx, y0 + (fwd + 1) * dy) == opponent;
        let wins = match (rule, color) {
            (Rule::Freestyle, _) | (Rule::Renju, Color::White) => length >= n,
            (Rule::Standard, _) | (Rule::Renju, Color::Black) => length == n,
            (Rule::Caro, _) => length > n || (length == n && !blocked_both),
        };
        if wins {
            return true;
        }
    }
    false
}

/// The board's empty cells, or its stones.
fn cells_where(board: &Board, empty: bool) -> Vec<usize> {
    board
        .points()
        .iter()
        .copied()
        .filter(|&c| board.is_empty(c) == empty)
        .collect()
}

fn random_board(rng: &mut StdRng, config: Config, stones: usize) -> Board {
    let mut board = Board::new(config).unwrap();
    for _ in 0..stones {
        let free = cells_where(&board, true);
        if free.is_empty() {
            break;
        }
        let color = if rng.random_bool(0.5) {
            Color::Black
        } else {
            Color::White
        };
        board.place_as(free[rng.random_range(0..free.len())], color);
    }
    board
}

#[test]
fn win_detection_matches_a_naive_checker() {
    let mut rng = StdRng::seed_from_u64(12);
    let mut checked = 0u64;
    let mut wins = 0u64;
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
        for n in 3..=6 {
            for (width, height) in [(5, 5), (7, 9), (15, 15), (20, 20), (22, 6)] {
                let config = Config {
                    width,
                    height,
                    n,
                    rule,
                };
                if config.validate().is_err() {
                    continue;
                }
                for _ in 0..12 {
                    let cells = width * height;
                    let stones = rng.random_range(0..cells * 3 / 4);
                    let board = random_board(&mut rng, config, stones);
                    for &index in board.points() {
                        if !board.is_empty(index) {
                            continue;
                        }
                        let p = Point::from_index(index);
                        for color in [Color::Black, Color::White] {
                            let fast = board.makes_five(index, color);
                            let naive = naive_wins(&board, p, color);
                            assert_eq!(
                                fast,
                                naive,
                                "{rule} n={n} {p} {color:?}\n{}",
                                board.diagram()
                            );
                            checked += 1;
                            wins += u64::from(fast);
                        }
                    }
                }
            }
        }
    }
    assert!(wins > 1000, "only {wins} wins among {checked} checks");
}

#[test]
fn undo_restores_codes_and_key() {
    let mut rng = StdRng::seed_from_u64(7);
    let config = Config::default();
    let empty = Board::new(config).unwrap();
    let mut board = random_board(&mut rng, config, 0);
    let mut played = Vec::new();
    for _ in 0..120 {
        let free = cells_where(&board, true);
        let cell = free[rng.random_range(0..free.len())];
        board.place(cell);
        played.push(cell);
    }
    // Half way back: as a board built afresh from the first 60 stones.
    for _ in 0..60 {
        board.undo();
    }
    let mut fresh = Board::new(config).unwrap();
    for &cell in &played[..60] {
        fresh.place(cell);
    }
    assert_same_board(&board, &fresh);
    for _ in 0..60 {
        board.undo();
    }
    assert_eq!(board.hash(), empty.hash());
    assert_same_board(&board, &empty);
}

/// The cells listed for each threat are exactly the near empty cells
/// whose flags say so, in row order.
fn assert_threat_cells(board: &Board) {
    for color in [Color::Black, Color::White] {
        let with = |bit: u8| -> Vec<usize> {
            board
                .points()
                .iter()
                .copied()
                .filter(|&i| board.is_empty(i) && board.is_near(i))
                .filter(|&i| board.threats(i, color) & bit != 0)
                .collect()
        };
        for bit in [Threats::FIVE, Threats::FOUR, Threats::FLEX4, Threats::FLEX3] {
            let listed: Vec<usize> = board.flagged_cells(color, bit).collect();
            assert_eq!(listed, with(bit), "{color:?} {bit}");
        }
    }
}

/// Every cell's codes, patterns, threats and near-empty bit agree.
fn assert_same_board(board: &Board, other: &Board) {
    assert_eq!(board.hash(), other.hash());
    assert_threat_cells(board);
    assert_threat_cells(other);
    assert_eq!(board.near_empty_cells(), other.near_empty_cells());
    for &index in board.points() {
        assert_eq!(board.stone_at(index), other.stone_at(index));
        // Only empty cells keep their codes up to date.
        if board.is_empty(index) {
            for d in 0..4 {
                assert_eq!(board.code(index, d), other.code(index, d));
            }
        }
        for color in [Color::Black, Color::White] {
            assert_eq!(board.threats(index, color), other.threats(index, color));
            if board.is_empty(index) {
                assert_eq!(board.patterns(index, color), other.patterns(index, color));
            }
        }
    }
}

/// 15x15 boards of every rule and every n it allows.
fn every_rule_and_n() -> impl Iterator<Item = Config> {
    [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro]
        .into_iter()
        .flat_map(|rule| {
            (3..=6).map(move |n| Config {
                width: 15,
                height: 15,
                n,
                rule,
            })
        })
        .filter(|config| config.validate().is_ok())
}

/// The patterns and threat flags a board keeps up to date through place,
/// undo and remove equal those of a board built afresh with the same
/// stones, for every empty cell, rule and n.
#[test]
fn incremental_patterns_and_threats_match_a_fresh_board() {
    let mut rng = StdRng::seed_from_u64(21);
    let mut fours = 0;
    for config in every_rule_and_n() {
        let (rule, n) = (config.rule, config.n);
        let mut board = Board::new(config).unwrap();
        for round in 0..400 {
            let free = cells_where(&board, true);
            match rng.random_range(0..10) {
                0..=5 => board.place(free[rng.random_range(0..free.len())]),
                6..=7 => {
                    board.undo();
                }
                _ => {
                    let stones = cells_where(&board, false);
                    if !stones.is_empty() {
                        board.remove(stones[rng.random_range(0..stones.len())]);
                    }
                }
            }
            if round % 20 != 0 {
                continue;
            }
            // The near-empty bit set, in row order.
            let near: Vec<usize> = board
                .points()
                .iter()
                .copied()
                .filter(|&i| board.is_empty(i) && board.is_near(i))
                .collect();
            let listed = board.near_empty_cells();
            assert_eq!(listed, near, "{rule} n={n}");
            assert_threat_cells(&board);
            let mut fresh = Board::new(config).unwrap();
            for &index in board.points() {
                if let Some(color) = board.stone_at(index) {
                    fresh.place_as(index, color);
                }
            }
            for &index in board.points() {
                if !board.is_empty(index) {
                    assert_eq!(board.threats(index, Color::Black), 0);
                    assert_eq!(board.threats(index, Color::White), 0);
                    continue;
                }
                for d in 0..4 {
                    assert_eq!(board.code(index, d), fresh.code(index, d), "{rule} n={n}");
                }
                for color in [Color::Black, Color::White] {
                    let patterns = board.patterns(index, color);
                    assert_eq!(patterns, fresh.patterns(index, color), "{rule} n={n}");
                    let threats = board.threats(index, color);
                    assert_eq!(threats, fresh.threats(index, color), "{rule} n={n}");
                    let has = |p: &dyn Fn(Pattern) -> bool| patterns.iter().any(|&x| p(x));
                    assert_eq!(threats & Threats::FIVE != 0, has(&|p| p == Pattern::Five));
                    assert_eq!(threats & Threats::FOUR != 0, has(&|p| p.is_four()));
                    assert_eq!(threats & Threats::FLEX4 != 0, has(&|p| p == Pattern::Flex4));
                    assert_eq!(threats & Threats::FLEX3 != 0, has(&|p| p == Pattern::Flex3));
                    fours += usize::from(threats & Threats::FOUR != 0);
                }
            }
        }
    }
    assert!(fours > 1000, "only {fours} four points seen");
}

/// `pattern_with` gives the pattern a stone on a cell of the line would
/// make, without placing it.
#[test]
fn pattern_with_matches_a_placed_stone() {
    let mut rng = StdRng::seed_from_u64(33);
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Caro] {
        for n in 3..=6 {
            let config = Config {
                width: 15,
                height: 15,
                n,
                rule,
            };
            for _ in 0..20 {
                let stones = rng.random_range(10..120);
                let board = random_board(&mut rng, config, stones);
                for &index in board.points() {
                    if !board.is_empty(index) {
                        continue;
                    }
                    let d = rng.random_range(0..4);
                    let r = board.radius();
                    let k =
                        [-1, 1][rng.random_range(0..2)] * rng.random_range(1..=r as i64) as isize;
                    let at = (index as isize + k * DIRECTIONS[d]) as usize;
                    if !board.points().contains(&at) || !board.is_empty(at) {
                        continue;
                    }
                    for holder in [Color::Black, Color::White] {
                        let mut placed = board.clone();
                        placed.place_as(at, holder);
                        for color in [Color::Black, Color::White] {
                            assert_eq!(
                                board.pattern_with(index, d, k, holder, color),
                                placed.pattern(index, d, color),
                                "{rule} n={n}"
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn full_board_is_a_draw() {
    // 5x5 with six in a row needed: nobody can win.
    let mut board = Board::new(Config {
        width: 5,
        height: 5,
        n: 6,
        rule: Rule::Freestyle,
    })
    .unwrap();
    let mut status = Status::Ongoing;
    for y in 0..5 {
        for x in 0..5 {
            status = board.play(Point::new(x, y)).unwrap();
        }
    }
    assert_eq!(status, Status::Draw);
    assert!(board.is_full());
}

fn renju_with(black: &[(usize, usize)], white: &[(usize, usize)]) -> Board {
    let mut board = Board::new(Config {
        rule: Rule::Renju,
        ..Config::default()
    })
    .unwrap();
    for &(x, y) in black {
        board.place_as(Point::new(x, y).index(), Color::Black);
    }
    for &(x, y) in white {
        board.place_as(Point::new(x, y).index(), Color::White);
    }
    board.set_to_move(Color::Black);
    board
}

fn foul(board: &Board, x: usize, y: usize) -> Option<Foul> {
    board.foul(Point::new(x, y).index())
}

#[test]
fn renju_double_three_double_four_overline() {
    // Two open threes through (7,7).
    let board = renju_with(&[(5, 7), (6, 7), (7, 5), (7, 6)], &[]);
    assert_eq!(foul(&board, 7, 7), Some(Foul::DoubleThree));
    // A three blocked on one side is no three.
    let board = renju_with(&[(5, 7), (6, 7), (7, 5), (7, 6)], &[(4, 7)]);
    assert_eq!(foul(&board, 7, 7), None);
    // Two fours.
    let board = renju_with(
        &[(4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6)],
        &[(3, 7), (7, 3)],
    );
    assert_eq!(foul(&board, 7, 7), Some(Foul::DoubleFour));
    // Two fours in one line: x.xx*.x
    let board = renju_with(&[(3, 7), (5, 7), (6, 7), (9, 7)], &[]);
    assert_eq!(foul(&board, 7, 7), Some(Foul::DoubleFour));
    // Overline for Black; for White six wins.
    let board = renju_with(&[(2, 7), (3, 7), (4, 7), (6, 7), (7, 7)], &[]);
    assert_eq!(foul(&board, 5, 7), Some(Foul::Overline));
    assert!(!board.makes_five(Point::new(5, 7).index(), Color::Black));
    let white = renju_with(&[], &[(2, 7), (3, 7), (4, 7), (6, 7), (7, 7)]);
    assert!(white.makes_five(Point::new(5, 7).index(), Color::White));
    // A five with a double four at once wins: not forbidden.
    let board = renju_with(
        &[(3, 7), (4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6)],
        &[(7, 3)],
    );
    assert_eq!(foul(&board, 7, 7), None);
    assert!(board.makes_five(Point::new(7, 7).index(), Color::Black));
}

#[test]
fn renju_recursive_three() {
    // (7,7) makes a split three x.xX along the row, whose only straight
    // four point is (5,7), and an open three down the column.
    let black = [(4, 7), (6, 7), (7, 5), (7, 6)];
    let board = renju_with(&black, &[]);
    assert_eq!(foul(&board, 7, 7), Some(Foul::DoubleThree));
    // With (5,8),(5,9),(5,10) black, (5,7) would also make a four down its
    // column: a double four, forbidden. The row three is then not real, and
    // (7,7) is allowed.
    let mut with_column = black.to_vec();
    with_column.extend([(5, 8), (5, 9), (5, 10)]);
    let board = renju_with(&with_column, &[]);
    assert_eq!(foul(&board, 7, 7), None);
    let mut after = board.clone();
    after.place_as(Point::new(7, 7).index(), Color::Black);
    assert_eq!(foul(&after, 5, 7), Some(Foul::DoubleFour));
    // Second level: if the column four is blocked, (5,7) is a plain four
    // again, the row three is real, and (7,7) is forbidden once more.
    let board = renju_with(&with_column, &[(5, 11), (5, 6)]);
    assert_eq!(foul(&board, 7, 7), Some(Foul::DoubleThree));
}

#[test]
fn gomocup_renju_position() {
    // GomocupJudge: h8h9i7i9h10i6i11i12, Black to move, g9 forbidden.
    let mut board = Board::new(Config {
        rule: Rule::Renju,
        ..Config::default()
    })
    .unwrap();
    for p in oxello::gomoku::text::parse_moves("h8h9i7i9h10i6i11i12").unwrap() {
        board.play(p).unwrap();
    }
    assert_eq!(board.to_move(), Color::Black);
    assert_eq!(foul(&board, 6, 8), Some(Foul::DoubleThree));
    // Playing it loses at once.
    assert_eq!(board.play(Point::new(6, 8)), Ok(Status::Won(Color::White)));
}

/// The key's side-to-move bit follows the side to move through an undo,
/// even when the side was set by hand in between.
#[test]
fn undo_keeps_the_key_in_step_with_the_side_to_move() {
    let config = Config::default();
    let (a, b) = (Point::new(7, 7).index(), Point::new(8, 8).index());
    let mut board = Board::new(config).unwrap();
    board.place(a);
    board.place(b);
    board.set_to_move(Color::White);
    board.undo();
    let mut fresh = Board::new(config).unwrap();
    fresh.place(a);
    assert_eq!(board.to_move(), Color::White);
    assert_eq!(fresh.to_move(), Color::White);
    assert_eq!(board.hash(), fresh.hash());
}

/// Stones placed without the near bookkeeping (the VCF's) list the same
/// five and four cells as the same stones placed in full, and taking them
/// back leaves the board as it was: every rule and n, random boards.
#[test]
fn unneared_stones_list_the_same_fives_and_fours() {
    let mut rng = StdRng::seed_from_u64(0x4ea2);
    let mut listed = 0;
    for config in every_rule_and_n() {
        let (rule, n) = (config.rule, config.n);
        for _ in 0..30 {
            let stones = rng.random_range(2..60);
            let mut board = random_board(&mut rng, config, stones);
            let before = board.clone();
            let mut full = board.clone();
            let extra = rng.random_range(1..8);
            for _ in 0..extra {
                // Anywhere empty, far cells too: the scan must reach them.
                let free = cells_where(&board, true);
                let cell = free[rng.random_range(0..free.len())];
                board.place_unneared(cell);
                full.place(cell);
                for color in [Color::Black, Color::White] {
                    for bit in [Threats::FIVE, Threats::FOUR] {
                        let unneared: Vec<usize> = board.flagged_cells(color, bit).collect();
                        let placed: Vec<usize> = full.flagged_cells(color, bit).collect();
                        assert_eq!(unneared, placed, "{rule} n={n} {color:?} {bit}");
                        listed += unneared.len();
                    }
                }
            }
            for _ in 0..extra {
                board.undo_unneared();
            }
            assert_same_board(&board, &before);
        }
    }
    assert!(listed > 1000, "only {listed} cells listed");
}
