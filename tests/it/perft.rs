//! Perft counts from the start positions against the published tables
//! (shared `docs/reference-data.md` §1) and against the naive generator.
//!
//! Depths 1-11 run in the normal `cargo test --profile test-release`; 12-14
//! are ignored (run them with `cargo test --profile test-release -- --ignored
//! perft_1`).

use crate::common;

use common::naive::{self, NaiveBoard};
use oxello::perft::{PassConvention, perft};
use oxello::{Board, BoardSize, Symmetry};

/// Convention A (pass is a ply) from the 8x8 start, depths 0..=14.
const PASS_IS_PLY: [u64; 15] = [
    1,
    4,
    12,
    56,
    244,
    1_396,
    8_200,
    55_092,
    390_216,
    3_005_288,
    24_571_284,
    212_258_800,
    1_939_886_636,
    18_429_641_748,
    184_042_084_512,
];

/// Convention B (pass is not a ply) from the 8x8 start, depths 0..=14.
const PASS_IS_FREE: [u64; 15] = [
    1,
    4,
    12,
    56,
    244,
    1_396,
    8_200,
    55_092,
    390_216,
    3_005_320,
    24_571_420,
    212_260_880,
    1_939_899_208,
    18_429_791_868,
    184_043_158_384,
];

fn check(depth: usize) {
    let start = Board::start(BoardSize::Eight);
    assert_eq!(
        perft(
            start,
            BoardSize::Eight,
            depth as u32,
            PassConvention::PassIsPly
        ),
        PASS_IS_PLY[depth],
        "A {depth}"
    );
    assert_eq!(
        perft(
            start,
            BoardSize::Eight,
            depth as u32,
            PassConvention::PassIsFree
        ),
        PASS_IS_FREE[depth],
        "B {depth}"
    );
}

#[test]
fn perft_8x8_conventions_a_and_b_depths_1_to_11() {
    for depth in 1..=11 {
        check(depth);
    }
}

#[test]
#[ignore = "slow: about 3 s in release"]
fn perft_12() {
    check(12);
}

#[test]
#[ignore = "slow: about 30 s in release"]
fn perft_13() {
    check(13);
}

#[test]
#[ignore = "slow: about 5 minutes in release"]
fn perft_14() {
    check(14);
}

#[test]
fn perft_small_boards_match_naive_reference() {
    // 4x4: the whole game tree (no 4x4 game is longer than 12 moves + passes).
    // 6x6: as deep as the naive generator runs in a few seconds.
    for (size, max_depth) in [(BoardSize::Four, 16), (BoardSize::Six, 8)] {
        let naive_start = NaiveBoard::from_board(Board::start(size), size);
        for depth in 1..=max_depth {
            for (convention, pass_is_ply) in [
                (PassConvention::PassIsPly, true),
                (PassConvention::PassIsFree, false),
            ] {
                let ours = perft(Board::start(size), size, depth, convention);
                let reference = naive::perft(&naive_start, depth, pass_is_ply);
                assert_eq!(
                    ours,
                    reference,
                    "{size}x{size} depth {depth} convention {}",
                    convention.letter()
                );
            }
        }
    }
}

#[test]
fn perft_is_the_same_from_all_8_symmetries() {
    let position = oxello::formats::transcript::parse_game(
        "f5d6c3d3c4f4",
        oxello::Position::start(BoardSize::Eight),
    )
    .unwrap()
    .position();
    let reference = perft(
        position.board,
        BoardSize::Eight,
        6,
        PassConvention::PassIsPly,
    );
    for symmetry in Symmetry::ALL {
        let image = position.board.symmetric(symmetry, BoardSize::Eight);
        assert_eq!(
            perft(image, BoardSize::Eight, 6, PassConvention::PassIsPly),
            reference,
            "{symmetry:?}"
        );
    }
    for size in [BoardSize::Four, BoardSize::Six] {
        let start = Board::start(size);
        let reference = perft(start, size, 7, PassConvention::PassIsPly);
        for symmetry in Symmetry::ALL {
            assert_eq!(
                perft(
                    start.symmetric(symmetry, size),
                    size,
                    7,
                    PassConvention::PassIsPly
                ),
                reference
            );
        }
    }
}
