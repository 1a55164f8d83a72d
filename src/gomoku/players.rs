//! Two simple gomoku players, for testing and as match opponents (`random`
//! and `greedy` in `oxello match --game gomoku`, the names of Othello's
//! simple players).
//!
//! Neither searches. Both play only legal points: empty, and under renju
//! not forbidden to Black (when every empty point is forbidden, a forbidden
//! one, which loses, since passing is no move).

use crate::Color;
use crate::core::SimplePlayer;
use crate::gomoku::board::{Board, DIRECTIONS, Point};
use crate::gomoku::threat::is_legal;
use rand::Rng;
use std::cmp::Reverse;

/// A simple gomoku player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GomokuPlayer {
    /// An empty point chosen uniformly at random.
    Random,
    /// Makes its longest line: the point that wins if one does, else the
    /// one joining most of its own stones in a row; ties go to the point
    /// that blocks the longest line of the opponent's, then to the point
    /// nearest the centre, then to the first in reading order.
    Greedy,
}

impl GomokuPlayer {
    /// The gomoku player of a simple player's name (`positional` is
    /// Othello's only).
    pub fn from_simple(player: SimplePlayer) -> Option<GomokuPlayer> {
        match player {
            SimplePlayer::Random => Some(GomokuPlayer::Random),
            SimplePlayer::Greedy => Some(GomokuPlayer::Greedy),
            SimplePlayer::Positional => None,
        }
    }

    /// The point this player plays on `board`; `None` when it is full.
    /// Only `Random` uses `rng`.
    pub fn choose(self, board: &Board, rng: &mut impl Rng) -> Option<Point> {
        let me = board.to_move();
        let empty: Vec<usize> = board
            .points()
            .iter()
            .copied()
            .filter(|&index| board.is_empty(index))
            .collect();
        let legal: Vec<usize> = empty
            .iter()
            .copied()
            .filter(|&index| is_legal(board, index, me))
            .collect();
        let choices = if legal.is_empty() { &empty } else { &legal };
        let index = match self {
            GomokuPlayer::Random if !choices.is_empty() => {
                choices[rng.random_range(0..choices.len())]
            }
            GomokuPlayer::Random => return None,
            GomokuPlayer::Greedy => *choices.iter().min_by_key(|&&index| {
                (
                    Reverse(board.makes_five(index, me)),
                    Reverse(longest_line(board, index, me)),
                    Reverse(longest_line(board, index, me.opponent())),
                    centre_distance(board, index),
                    index,
                )
            })?,
        };
        Some(Point::from_index(index))
    }
}

/// The longest row of `color`'s stones a stone of that colour on the empty
/// `index` would stand in (the stone included).
pub fn longest_line(board: &Board, index: usize, color: Color) -> usize {
    let run = |step: isize| {
        (1..)
            .map(|k| (index as isize + k * step) as usize)
            .take_while(|&at| board.stone_at(at) == Some(color))
            .count()
    };
    DIRECTIONS
        .iter()
        .map(|&step| 1 + run(step) + run(-step))
        .max()
        .unwrap_or(1)
}

/// Squared distance of a point from the board's centre, in half points.
fn centre_distance(board: &Board, index: usize) -> usize {
    let p = Point::from_index(index);
    let dx = (2 * p.x).abs_diff(board.width() - 1);
    let dy = (2 * p.y).abs_diff(board.height() - 1);
    dx * dx + dy * dy
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::board::Status;
    use crate::gomoku::rules::{Config, Rule};
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn board(config: Config, moves: &[(usize, usize)]) -> Board {
        let mut board = Board::new(config).unwrap();
        for &(x, y) in moves {
            board.play(Point::new(x, y)).unwrap();
        }
        board
    }

    #[test]
    fn greedy_wins_extends_and_blocks() {
        let mut rng = StdRng::seed_from_u64(1);
        let config = Config::default();
        // Black has four in a row on y = 7 (open at 3,7 and 8,7): it wins.
        let four = board(
            config,
            &[
                (4, 7),
                (4, 9),
                (5, 7),
                (5, 9),
                (6, 7),
                (6, 9),
                (7, 7),
                (0, 0),
            ],
        );
        let p = GomokuPlayer::Greedy.choose(&four, &mut rng).unwrap();
        assert!([Point::new(3, 7), Point::new(8, 7)].contains(&p), "{p}");
        // The empty board: the centre.
        let empty = board(config, &[]);
        let p = GomokuPlayer::Greedy.choose(&empty, &mut rng).unwrap();
        assert_eq!(p, Point::new(7, 7));
        // White to move next to Black's centre stone, nothing of its own:
        // every point makes a row of one; it blocks a row of two.
        let one = board(config, &[(7, 7)]);
        let p = GomokuPlayer::Greedy.choose(&one, &mut rng).unwrap();
        assert_eq!(longest_line(&one, p.index(), Color::Black), 2);
        assert_eq!(
            longest_line(&one, Point::new(0, 0).index(), Color::Black),
            1
        );
    }

    #[test]
    fn both_play_legal_points_to_the_end() {
        let mut rng = StdRng::seed_from_u64(2);
        for rule in [Rule::Freestyle, Rule::Renju] {
            for (black, white) in [
                (GomokuPlayer::Greedy, GomokuPlayer::Random),
                (GomokuPlayer::Random, GomokuPlayer::Greedy),
                (GomokuPlayer::Random, GomokuPlayer::Random),
            ] {
                let mut board = Board::new(Config {
                    rule,
                    ..Config::default()
                })
                .unwrap();
                let mut status = Status::Ongoing;
                while status == Status::Ongoing {
                    let player = match board.to_move() {
                        Color::Black => black,
                        Color::White => white,
                    };
                    let p = player.choose(&board, &mut rng).unwrap();
                    assert!(is_legal(&board, p.index(), board.to_move()));
                    status = board.play(p).unwrap();
                }
                assert!(matches!(status, Status::Won(_) | Status::Draw));
            }
        }
    }

    #[test]
    fn greedy_beats_random() {
        let mut rng = StdRng::seed_from_u64(3);
        let mut wins = 0;
        for game in 0..20 {
            let mut board = Board::new(Config::default()).unwrap();
            let greedy = if game % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let mut status = Status::Ongoing;
            while status == Status::Ongoing {
                let player = if board.to_move() == greedy {
                    GomokuPlayer::Greedy
                } else {
                    GomokuPlayer::Random
                };
                status = board
                    .play(player.choose(&board, &mut rng).unwrap())
                    .unwrap();
            }
            wins += u32::from(status == Status::Won(greedy));
        }
        assert!(wins >= 18, "{wins} of 20");
    }
}
