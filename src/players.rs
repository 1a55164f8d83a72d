//! Three simple players, for beginners and for testing: `random`, `greedy`
//! and `positional`, selectable by name like engine levels.
//!
//! None of them searches: each looks at the legal moves of the position (and
//! `positional` at the opponent's replies) and picks one. All return
//! [`Move::Pass`] when the side to move has no legal placement, whether it
//! must pass or the game is over; they never return an illegal move.

use crate::bitboard::{BoardSize, squares};
use crate::board::Board;
use crate::eval::features::{
    c_squares, corner_squares, edge_squares, squares_near_empty_corners, x_squares,
};
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;
use rand::Rng;

pub use crate::core::players::{ParsePlayerError, SimplePlayer};

/// `positional` switches from restricting the opponent to flipping many
/// discs at this many empties on the 8x8 board; smaller boards scale it by
/// their number of squares (11.25 on 6x6, 5 on 4x4).
pub const POSITIONAL_ENDGAME_EMPTIES: u32 = 20;

impl SimplePlayer {
    /// The move this player makes in `position`: [`Move::Pass`] when the side
    /// to move has no legal placement (it must pass, or the game is over and
    /// any move would be refused). Only `Random` uses `rng`; the others are
    /// deterministic.
    pub fn choose(&self, position: &Position, rng: &mut impl Rng) -> Move {
        let board = position.board;
        let size = position.size;
        let moves = board.legal_moves_on(size);
        let square = match self {
            _ if moves == 0 => return Move::Pass,
            SimplePlayer::Random => random_square(moves, rng),
            SimplePlayer::Greedy => greedy_square(board, moves, size),
            SimplePlayer::Positional => positional_square(board, moves, size),
        };
        Move::Place {
            square,
            flips: board.flips(square),
        }
    }
}

/// Squared distance from the centre of a board of `size`, in half squares:
/// `(2 col - (n - 1))^2 + (2 row - (n - 1))^2`. The four centre squares have
/// distance 2, the corners `2 (n - 1)^2`.
pub fn centre_distance(square: Square, size: BoardSize) -> u32 {
    let span = size.n() as i32 - 1;
    let dx = 2 * square.col() as i32 - span;
    let dy = 2 * square.row() as i32 - span;
    (dx * dx + dy * dy) as u32
}

/// One of the squares of the non-empty `moves`, uniformly.
fn random_square(moves: u64, rng: &mut impl Rng) -> Square {
    let pick = rng.random_range(0..moves.count_ones() as usize);
    squares(moves)
        .nth(pick)
        .expect("pick is below the number of moves")
}

/// The square of `moves` with the smallest `key`; squares come lowest index
/// first and only a strictly smaller key replaces the best, so ties go to the
/// lowest index.
fn best_by_key<K: Ord>(moves: u64, mut key: impl FnMut(Square) -> K) -> Square {
    let mut best = None;
    for square in squares(moves) {
        let k = key(square);
        if best.as_ref().is_none_or(|(_, best_key)| k < *best_key) {
            best = Some((square, k));
        }
    }
    best.expect("moves is not empty").0
}

fn greedy_square(board: Board, moves: u64, size: BoardSize) -> Square {
    best_by_key(moves, |square| {
        let flips = board.flips(square).count_ones();
        (std::cmp::Reverse(flips), centre_distance(square, size))
    })
}

/// Square classes of `positional`, best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum SquareClass {
    Corner,
    /// A border square that is not a C-square of an empty corner.
    SafeEdge,
    /// An inner square that is not an X-square of an empty corner.
    Inner,
    /// A C-square of an empty corner.
    CornerC,
    /// An X-square of an empty corner.
    CornerX,
}

fn square_class(board: Board, square: Square, size: BoardSize) -> SquareClass {
    let bit = square.bit();
    let risky = squares_near_empty_corners(board, size);
    if bit & corner_squares(size) != 0 {
        SquareClass::Corner
    } else if bit & risky & x_squares(size) != 0 {
        SquareClass::CornerX
    } else if bit & risky & c_squares(size) != 0 {
        SquareClass::CornerC
    } else if bit & edge_squares(size) != 0 {
        SquareClass::SafeEdge
    } else {
        SquareClass::Inner
    }
}

/// Whether `positional` plays its endgame rule (maximise flips) with
/// `empties` empty squares on a board of `size`.
fn is_endgame(empties: u32, size: BoardSize) -> bool {
    empties * 64 <= POSITIONAL_ENDGAME_EMPTIES * size.squares()
}

fn positional_square(board: Board, moves: u64, size: BoardSize) -> Square {
    let endgame = is_endgame(board.empty_count_on(size), size);
    best_by_key(moves, |square| {
        let flips = board.flips(square);
        let second = if endgame {
            // More flips first.
            -(flips.count_ones() as i32)
        } else {
            // Fewer replies for the opponent first.
            let after = board.play_flips(square, flips);
            after.legal_moves_on(size).count_ones() as i32
        };
        (
            square_class(board, square, size),
            second,
            centre_distance(square, size),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color;
    use crate::eval::test_support::{random_board, random_game_boards};
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    fn bits(names: &str) -> u64 {
        names
            .split_whitespace()
            .map(|n| sq(n).bit())
            .fold(0, |a, b| a | b)
    }

    fn position(board: Board, size: BoardSize) -> Position {
        Position {
            board,
            side: Color::Black,
            size,
        }
    }

    #[test]
    fn names_round_trip() {
        for player in SimplePlayer::ALL {
            assert_eq!(player.to_string().parse::<SimplePlayer>(), Ok(player));
        }
        assert_eq!(" Greedy ".parse::<SimplePlayer>(), Ok(SimplePlayer::Greedy));
        let error = "edax".parse::<SimplePlayer>().unwrap_err();
        assert_eq!(error.text, "edax");
        assert!(error.to_string().contains("positional"));
    }

    #[test]
    fn choices_are_always_legal() {
        let mut rng = StdRng::seed_from_u64(21);
        for size in BoardSize::ALL {
            for _ in 0..2000 {
                let position = position(random_board(&mut rng, size), size);
                for player in SimplePlayer::ALL {
                    let mv = player.choose(&position, &mut rng);
                    if position.legal_moves() == 0 {
                        assert_eq!(mv, Move::Pass);
                    } else {
                        assert!(!mv.is_pass());
                        assert_eq!(position.board.check_move_on(mv, size), Ok(()), "{player}");
                        assert!(position.play(mv).is_ok());
                    }
                }
            }
        }
    }

    #[test]
    fn pass_when_blocked_or_over() {
        let mut rng = StdRng::seed_from_u64(22);
        // Black to move on 8x8 with c1 against a1 b1 of White's: Black's only
        // line runs into the edge, White can play d1.
        let board = Board::new(bits("c1"), bits("a1 b1"));
        let blocked = position(board, BoardSize::Eight);
        assert!(blocked.must_pass());
        // A full 4x4 board: the game is over.
        let over = position(Board::new(0x0505_0505, 0x0a0a_0a0a), BoardSize::Four);
        assert!(over.is_game_over());
        for player in SimplePlayer::ALL {
            assert_eq!(player.choose(&blocked, &mut rng), Move::Pass);
            assert_eq!(player.choose(&over, &mut rng), Move::Pass);
        }
    }

    #[test]
    fn greedy_picks_the_most_flips() {
        let mut rng = StdRng::seed_from_u64(23);
        for size in BoardSize::ALL {
            for board in random_game_boards(size, 50, 24) {
                let position = position(board, size);
                let mv = SimplePlayer::Greedy.choose(&position, &mut rng);
                let most = squares(position.legal_moves())
                    .map(|s| board.flips(s).count_ones())
                    .max();
                assert_eq!(most, (!mv.is_pass()).then(|| mv.flips().count_ones()));
            }
        }
        // Every opening move flips one disc and lies at the same distance from
        // the centre: the lowest index wins.
        let start = Position::start(BoardSize::Eight);
        assert_eq!(
            SimplePlayer::Greedy.choose(&start, &mut rng).square(),
            Some(sq("d3"))
        );
    }

    #[test]
    fn greedy_breaks_ties_toward_the_centre() {
        // Black plays a1 (flips b2) or f4 (flips e4): one disc each; f4 is
        // nearer the centre.
        let board = Board::new(bits("c3 d4"), bits("b2 e4"));
        let mut rng = StdRng::seed_from_u64(25);
        let position = position(board, BoardSize::Eight);
        assert_eq!(squares(position.legal_moves()).count(), 2);
        let mv = SimplePlayer::Greedy.choose(&position, &mut rng);
        assert_eq!(mv.square(), Some(sq("f4")));
        assert_eq!(centre_distance(sq("d4"), BoardSize::Eight), 2);
        assert_eq!(centre_distance(sq("a1"), BoardSize::Eight), 98);
        assert_eq!(centre_distance(sq("b2"), BoardSize::Four), 2);
    }

    #[test]
    fn positional_takes_a_corner_when_it_can() {
        let mut rng = StdRng::seed_from_u64(26);
        let mut seen = 0;
        for size in BoardSize::ALL {
            for board in random_game_boards(size, 300, 27) {
                let position = position(board, size);
                let moves = position.legal_moves();
                if moves & corner_squares(size) == 0 {
                    continue;
                }
                seen += 1;
                let mv = SimplePlayer::Positional.choose(&position, &mut rng);
                assert_ne!(mv.square().unwrap().bit() & corner_squares(size), 0);
            }
        }
        assert!(seen > 100, "{seen}");
    }

    #[test]
    fn positional_prefers_the_best_square_class_and_is_deterministic() {
        let mut rng = StdRng::seed_from_u64(28);
        let mut other = StdRng::seed_from_u64(29);
        for size in BoardSize::ALL {
            for board in random_game_boards(size, 100, 30) {
                let position = position(board, size);
                let mv = SimplePlayer::Positional.choose(&position, &mut rng);
                assert_eq!(mv, SimplePlayer::Positional.choose(&position, &mut other));
                let Some(square) = mv.square() else {
                    continue;
                };
                let best = squares(position.legal_moves())
                    .map(|s| square_class(board, s, size))
                    .min();
                assert_eq!(Some(square_class(board, square, size)), best);
            }
        }
        // Early on 8x8: b2 is the X-square of the empty a1; c5 is safe.
        let board = Board::new(bits("d4 e5 d5 e4 a3 c6"), bits("c3 b3 b4 c4 d6 b5"));
        let position = position(board, BoardSize::Eight);
        let moves = position.legal_moves();
        assert_ne!(moves & sq("b2").bit(), 0);
        let mv = SimplePlayer::Positional.choose(&position, &mut rng);
        assert_ne!(mv.square(), Some(sq("b2")));
    }

    #[test]
    fn random_covers_every_legal_move() {
        let mut rng = StdRng::seed_from_u64(31);
        let position = Position::start(BoardSize::Six);
        let moves = position.legal_moves();
        let count = moves.count_ones() as usize;
        assert_eq!(count, 4);
        let draws = 3000;
        let mut hits = [0usize; 64];
        for _ in 0..draws {
            let mv = SimplePlayer::Random.choose(&position, &mut rng);
            hits[mv.square().unwrap().index()] += 1;
        }
        for square in squares(moves) {
            let hit = hits[square.index()];
            assert!(hit > draws / count / 2, "{square}: {hit} of {draws}");
        }
        assert_eq!(hits.iter().sum::<usize>(), draws);
    }

    #[test]
    fn endgame_threshold_scales_with_the_board() {
        assert!(is_endgame(20, BoardSize::Eight));
        assert!(!is_endgame(21, BoardSize::Eight));
        assert!(is_endgame(11, BoardSize::Six));
        assert!(!is_endgame(12, BoardSize::Six));
        assert!(is_endgame(5, BoardSize::Four));
        assert!(!is_endgame(6, BoardSize::Four));
    }
}
