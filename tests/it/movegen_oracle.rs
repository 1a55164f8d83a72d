//! The move generators against each other: the portable bitboard generator
//! against the naive array walker, and the build's fast backend against the
//! portable one, on random reachable positions of every board size.

use crate::common;

use common::naive::NaiveBoard;
use oxello::movegen::{self, portable};
use oxello::{Board, BoardSize};
use rand::{Rng, SeedableRng, rngs::StdRng};

/// Checks every empty square of `board`: same legal set, same flips.
fn check_against_naive(board: Board, size: BoardSize) {
    let naive = NaiveBoard::from_board(board, size);
    let legal = portable::legal_moves(board.player, board.opponent) & size.mask();
    assert_eq!(
        legal,
        naive.move_bits(),
        "legal moves differ on {board:?} ({size:?})"
    );
    for row in 0..size.n() {
        for col in 0..size.n() {
            let index = row * 8 + col;
            if board.empties() & (1 << index) != 0 {
                let flips = portable::flips(board.player, board.opponent, index);
                assert_eq!(
                    flips,
                    naive.flip_bits(row, col),
                    "flips differ at {index} on {board:?}"
                );
            }
        }
    }
}

/// Checks the build's backend against the portable one on every empty square.
fn check_backend(board: Board) {
    let (p, o) = (board.player, board.opponent);
    assert_eq!(
        movegen::legal_moves(p, o),
        portable::legal_moves(p, o),
        "legal moves differ on {board:?}"
    );
    let mut empties = board.empties();
    while empties != 0 {
        let index = empties.trailing_zeros() as usize;
        empties &= empties - 1;
        assert_eq!(
            movegen::flips(p, o, index),
            portable::flips(p, o, index),
            "flips at {index} on {board:?}"
        );
    }
}

#[test]
fn portable_matches_naive_on_100k_reachable_8x8_positions() {
    let boards = common::random_positions(BoardSize::Eight, 1_800, 1);
    assert!(boards.len() >= 100_000, "only {} positions", boards.len());
    for board in &boards {
        check_against_naive(*board, BoardSize::Eight);
    }
    eprintln!(
        "portable vs naive: {} reachable 8x8 positions agree",
        boards.len()
    );
}

#[test]
fn portable_matches_naive_on_small_boards() {
    for (size, games) in [(BoardSize::Four, 5_000), (BoardSize::Six, 5_000)] {
        let boards = common::random_positions(size, games, 2);
        for board in &boards {
            check_against_naive(*board, size);
        }
        eprintln!(
            "portable vs naive: {} reachable {size}x{size} positions agree",
            boards.len()
        );
    }
}

#[test]
fn backend_matches_portable_on_reachable_and_random_positions() {
    let mut boards = common::random_positions(BoardSize::Eight, 3_000, 3);
    // Arbitrary (mostly unreachable) boards reach corner cases games rarely do.
    let mut rng = StdRng::seed_from_u64(4);
    for _ in 0..200_000 {
        let occupied: u64 = rng.random::<u64>() | rng.random::<u64>();
        let player = occupied & rng.random::<u64>();
        boards.push(Board::new(player, occupied & !player));
    }
    for board in &boards {
        check_backend(*board);
    }
    eprintln!(
        "backend {} vs portable: {} positions agree",
        movegen::BACKEND,
        boards.len()
    );
}
