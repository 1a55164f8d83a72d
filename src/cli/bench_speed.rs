//! `oxello bench --speed WHAT`: the cost of one component, timed on its own
//! over positions of seeded random games (the same positions on every run).
//! The figures depend on the machine and its load: compare builds by
//! alternating runs on one machine.

use clap::ValueEnum;
use oxello::bitboard::squares;
use oxello::eval::incremental::PatternState;
use oxello::eval::{legacy, patterns};
use oxello::gomoku::vcf::{ThreatBudget, vcf};
use oxello::gomoku::{Config, Point, Rule, Status};
use oxello::{Board, BoardSize};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::error::Error;
use std::hint::black_box;
use std::io::Write as _;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// What `bench --speed` times.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Speed {
    /// The pattern evaluation's nanoseconds per evaluation, the built-in
    /// weights against the previous ones (weight format 1).
    Eval,
    /// A search leaf of the pattern evaluation, in nanoseconds: the `pext`
    /// reading of the board against the child's state made from its
    /// parent's plus the lookups, the lookups alone, and the lookups with
    /// the network ([`oxello::eval::network`]).
    Incremental,
    /// The hand-set evaluation (the features), in millions per second.
    HandSet,
    /// The gomoku VCF search on random middle-game positions (a budget of
    /// 100,000 nodes each): nodes per second and time per position.
    Vcf,
}

/// Runs `bench --speed`: one line of figures on stdout.
pub fn run(speed: Speed) -> Result<ExitCode, Box<dyn Error>> {
    let line = match speed {
        Speed::Eval => eval_speed(),
        Speed::Incremental => incremental_speed(),
        Speed::HandSet => hand_set_speed(),
        Speed::Vcf => vcf_speed(),
    };
    writeln!(std::io::stdout().lock(), "{line}")?;
    Ok(ExitCode::SUCCESS)
}

/// Every position met in `games` random 8x8 games (passes included), from
/// a generator seeded with `seed`.
fn random_game_boards(games: usize, seed: u64) -> Vec<Board> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut boards = Vec::new();
    for _ in 0..games {
        let mut board = Board::start(BoardSize::Eight);
        loop {
            boards.push(board);
            let moves = board.move_list_on(BoardSize::Eight);
            if moves.is_empty() {
                break;
            }
            board = board.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
    }
    boards
}

/// Nanoseconds per call of `f(i)` for `i` cycling through `0..items`, over
/// `count` calls: the median of 5 runs.
fn median_ns(items: usize, count: usize, f: &dyn Fn(usize) -> i32) -> f64 {
    let mut runs: Vec<f64> = (0..5)
        .map(|_| {
            let start = Instant::now();
            let mut checksum = 0i64;
            for i in 0..count {
                checksum += i64::from(f(black_box(i % items)));
            }
            black_box(checksum);
            start.elapsed().as_secs_f64() * 1e9 / count as f64
        })
        .collect();
    runs.sort_by(f64::total_cmp);
    runs[2]
}

/// The previous pattern evaluation against the current one over the same
/// positions, sorted by empties: consecutive evaluations share their
/// phase's tables, as a search's leaves do.
fn eval_speed() -> String {
    let mut boards: Vec<Board> = random_game_boards(100, 15)
        .into_iter()
        .filter(|b| b.legal_moves() != 0)
        .collect();
    boards.sort_by_key(|b| b.empties().count_ones());
    let (current, previous) = (patterns::built_in(), legacy::previous());
    let count = 2_000_000;
    let time = |f: &dyn Fn(Board) -> i32| median_ns(boards.len(), count, &|i| f(boards[i]));
    let old = time(&|b| previous.evaluate(b));
    let new = time(&|b| current.evaluate(b));
    format!(
        "{} positions: previous {old:.1} ns/eval, current {new:.1} ns/eval ({:.2}x)",
        boards.len(),
        old / new
    )
}

/// A leaf's evaluation both ways over the moves of 100 random games, in
/// order of empties.
fn incremental_speed() -> String {
    let mut rng = StdRng::seed_from_u64(23);
    let mut moves = Vec::new();
    for _ in 0..100 {
        let mut board = Board::start(BoardSize::Eight);
        loop {
            let all: Vec<_> = squares(board.legal_moves()).collect();
            if all.is_empty() {
                break;
            }
            let square = all[rng.random_range(0..all.len())];
            let flips = board.flips(square);
            let next = board.play_flips(square, flips);
            moves.push((PatternState::new(board), square.index(), flips, next));
            board = next;
        }
    }
    moves.sort_by_key(|m| m.3.empties().count_ones());
    let weights = patterns::built_in();
    let count = 2_000_000;
    let time = |f: &dyn Fn(usize) -> i32| median_ns(moves.len(), count, f);
    let read = time(&|i| weights.evaluate(moves[i].3));
    let incremental = time(&|i| {
        let (parent, square, flips, next) = &moves[i];
        weights.evaluate_state(&parent.play(*square, *flips, *next))
    });
    let lookups = time(&|i| weights.evaluate_state(&moves[i].0));
    let network = oxello::eval::network::built_in();
    let with_network = time(&|i| weights.evaluate_state_with(&moves[i].0, Some(network)));
    format!(
        "{} moves: pext reading {read:.1} ns/eval, move + incremental {incremental:.1} ns \
         ({:.2}x), lookups alone {lookups:.1} ns, lookups and the network {with_network:.1} ns",
        moves.len(),
        read / incremental
    )
}

/// Ten million hand-set evaluations cycling through the positions of 200
/// random games.
fn hand_set_speed() -> String {
    let boards = random_game_boards(200, 15);
    let count = 10_000_000;
    let start = Instant::now();
    let mut checksum = 0i64;
    for i in 0..count {
        let board = black_box(boards[i % boards.len()]);
        checksum += i64::from(oxello::eval::evaluate(board, BoardSize::Eight));
    }
    let elapsed = start.elapsed();
    format!(
        "{count} evaluations of {} positions in {elapsed:?}: {:.1} M/s (checksum {checksum})",
        boards.len(),
        count as f64 / elapsed.as_secs_f64() / 1e6
    )
}

/// A random middle-game position around the centre of a 15x15 board (the
/// rule cycles with `round`); `None` when the random moves ended the game.
fn random_gomoku_position(rng: &mut StdRng, round: usize) -> Option<oxello::gomoku::Board> {
    let rule = [Rule::Freestyle, Rule::Standard, Rule::Renju][round % 3];
    let mut board = oxello::gomoku::Board::new(Config {
        rule,
        ..Config::default()
    })
    .ok()?;
    for _ in 0..rng.random_range(10..50) {
        let p = Point::new(rng.random_range(3..12), rng.random_range(3..12));
        if !matches!(board.play(p), Ok(Status::Ongoing) | Err(_)) {
            return None;
        }
    }
    Some(board)
}

/// VCF searches of 30 plies on up to 2,000 random positions.
fn vcf_speed() -> String {
    let mut rng = StdRng::seed_from_u64(3);
    let (mut nodes, mut wins, mut searched) = (0u64, 0, 0);
    let started = Instant::now();
    let mut slowest = Duration::ZERO;
    for round in 0..2000 {
        let Some(mut board) = random_gomoku_position(&mut rng, round) else {
            continue;
        };
        let one = Instant::now();
        let mut budget = ThreatBudget::new(100_000);
        let mut line = Vec::new();
        wins += usize::from(vcf(&mut board, 30, &mut budget, &mut line));
        slowest = slowest.max(one.elapsed());
        nodes += budget.visited;
        searched += 1;
    }
    let seconds = started.elapsed().as_secs_f64();
    format!(
        "VCF: {searched} positions, {wins} wins, {nodes} nodes, {:.0} nodes/s, {:.2} ms per position, slowest {:.1} ms",
        nodes as f64 / seconds,
        seconds * 1000.0 / searched as f64,
        slowest.as_secs_f64() * 1000.0
    )
}
