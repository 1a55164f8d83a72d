//! A gomoku node's moves: the forced answers, or the candidates in the
//! search's order, with the static evaluation as a by-product.

use super::params::WIDTH;
use crate::Color;
use crate::gomoku::board::Board;
use crate::gomoku::eval::{self, Counts, FEATURES, Sink, Weighted};
use crate::gomoku::threat::{Class, candidates, classes_of, defences, is_legal};
use std::cmp::Reverse;

/// The moves of a node.
pub(super) enum Moves {
    /// The side to move makes five here.
    Win(usize),
    /// The side to move makes an open four here (two five points) and the
    /// opponent has no five: a win in three plies.
    OpenFour(usize),
    /// The opponent wins whatever happens (two fives, or the one block is
    /// forbidden).
    Lost,
    /// Moves in order, and what forces them, if anything.
    List(Vec<usize>, Forced),
    /// At the horizon ([`Order::None`]): the side to move has a legal move
    /// and no four of the opponent's to block; the moves are not listed.
    Unlisted,
}
/// What forces a node's moves.
///
/// Past the horizon only the block of a four is followed
/// ([`Forced::ByFour`]: one move, searched at the same depth, so a depth
/// never falls below 0): a node at or past the horizon whose opponent has
/// an open three is a leaf, its evaluation seeing the three through the
/// opponent's best class. Leaving out those defences there (b0e9815
/// followed them) saved a fifth of the bench's nodes and scored Elo +165.7
/// +- 60.3 (0.2 s per move, 160 games) ["Forced moves and the horizon"].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Forced {
    /// Nothing: every candidate may be played.
    No,
    /// The opponent has a four: the one block.
    ByFour,
    /// The opponent has an open three: its defences, best first, then the
    /// side to move's fours that defend nothing, best first (each only
    /// delays the three: [`super::params::DELAYING_FOUR_REDUCTION`]); this
    /// many defences.
    ByThree(usize),
}
/// How many moves of a node that is not forced [`generate`] orders.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Order {
    /// None: a node at the horizon evaluates them without searching (7% of
    /// its instructions went to the sort).
    None,
    /// The best [`WIDTH`], the only ones an inner node searches; the rest
    /// are dropped (the sort of the whole list took 4.9% of a 20x20
    /// search).
    Width,
    /// All of them (the root).
    All,
}

/// The position's moves for the side to move, and the static evaluation as
/// a by-product (meaningful only with a non-empty [`Moves::List`]). Forced
/// moves always come in order, all of them; the others as `order` says.
pub(super) fn generate(board: &mut Board, order: Order) -> (Moves, i32, bool) {
    let mut eval = Weighted::default();
    let (moves, has_four) = generate_into(board, order, &mut eval);
    (moves, eval.value(), has_four)
}

/// The features of the position's static evaluation ([`crate::gomoku::eval`]),
/// from the side to move's view; `None` when the position is decided at
/// once (a five to make, an open four, a lost position) or has no move,
/// where the search does not evaluate.
pub fn eval_features(board: &mut Board) -> Option<[f32; FEATURES]> {
    let mut counts = Counts::default();
    match generate_into(board, Order::None, &mut counts).0 {
        Moves::List(moves, _) if !moves.is_empty() => Some(counts.0),
        Moves::Unlisted => Some(counts.0),
        _ => None,
    }
}

/// The side to move's moves in the order the search tries them at a node
/// before its table move and killers: all of them (as at the root), and
/// whether they are forced (a four's block, an open three's answers);
/// `None` when the position is decided at once or has no move.
pub fn move_order(board: &mut Board) -> Option<(Vec<usize>, bool)> {
    match generate(board, Order::All).0 {
        Moves::List(moves, forced) if !moves.is_empty() => Some((moves, forced != Forced::No)),
        _ => None,
    }
}

/// [`generate`], feeding the evaluation's features to `sink`; returns the
/// moves and whether the side to move has a four.
///
/// At the horizon ([`Order::None`]) only a four's block is searched, so the
fn generate_into<S: Sink>(board: &mut Board, order: Order, sink: &mut S) -> (Moves, bool) {
    let me = board.to_move();
    let me_white = me == Color::White;
    let cells = candidates(board);
    let horizon = order == Order::None;
    let mut any_legal = false;
    let mut scored = Vec::with_capacity(if horizon { 0 } else { cells.len() });
    let mut their_fives = Vec::new();
    let mut their_threats = Vec::new();
    let mut my_fours = Vec::new();
    let mut my_best = (Class::Quiet, 0);
    let mut their_best = Class::Quiet;
    for &cell in &cells {
        let [mine, theirs] = classes_of(board, cell, me);
        if mine.0 == Class::Five {
            return (Moves::Win(cell), true);
        }
        match theirs.0 {
            Class::Five => their_fives.push(cell),
            Class::FlexFour => their_threats.push(cell),
            _ => {}
        }
        if mine.0 >= Class::Four {
            my_fours.push(cell);
        }
        if mine.0 > my_best.0 {
            my_best = (mine.0, cell);
        }
        their_best = their_best.max(theirs.0);
        eval::cell(sink, &board.packed_patterns(cell), me_white, mine, theirs);
        if horizon {
            any_legal = any_legal || is_legal(board, cell, me);
        } else if is_legal(board, cell, me) {
            // The opponent's value counts 4/5: whole or 3/5 did worse
            // against Rapfi capped at 10,000 nodes ["Move ordering"].
            scored.push((mine.1 + theirs.1 * 4 / 5, cell));
        }
    }
    let has_four = !my_fours.is_empty();
    if their_fives.is_empty() && my_best.0 == Class::FlexFour {
        return (Moves::OpenFour(my_best.1), true);
    }
    eval::finish(sink, me_white, my_best.0, their_best);
    if their_fives.len() >= 2 {
        return (Moves::Lost, has_four);
    }
    if let Some(&block) = their_fives.first() {
        // The five point is a candidate (next to the opponent's stones), so
        // it is on the list when it is legal.
        if !is_legal(board, block, me) {
            return (Moves::Lost, has_four);
        }
        return (Moves::List(vec![block], Forced::ByFour), has_four);
    }
    if horizon {
        let moves = if any_legal {
            Moves::Unlisted
        } else {
            Moves::List(Vec::new(), Forced::No)
        };
        return (moves, has_four);
    }
    let by_score = |a: &(i32, usize), b: &(i32, usize)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
    if !their_threats.is_empty() {
        // The forced moves picked out, then sorted: sorting every
        // candidate first cost 3% of a search's instructions.
        let blocks = defences(board, &their_threats);
        // Keyed so that the defences come first, then the fours that only
        // delay the three, each best first: whether a cell defends is
        // looked up once.
        let mut moves: Vec<(bool, Reverse<i32>, usize)> = scored
            .iter()
            .filter_map(|&(score, c)| {
                let defends = blocks.contains(&c);
                (defends || my_fours.contains(&c)).then_some((!defends, Reverse(score), c))
            })
            .collect();
        if !moves.is_empty() {
            moves.sort_unstable();
            let defending = moves.iter().take_while(|&&(delays, _, _)| !delays).count();
            let moves = moves.into_iter().map(|(_, _, c)| c).collect();
            return (Moves::List(moves, Forced::ByThree(defending)), has_four);
        }
        scored.sort_unstable_by(by_score);
    }
    if scored.is_empty() {
        return (Moves::List(Vec::new(), Forced::No), has_four);
    }
    match order {
        Order::None => {}
        Order::Width => {
            if scored.len() > WIDTH {
                scored.select_nth_unstable_by(WIDTH - 1, by_score);
                scored.truncate(WIDTH);
            }
            scored.sort_unstable_by(by_score);
        }
        Order::All => scored.sort_unstable_by(by_score),
    }
    (
        Moves::List(scored.into_iter().map(|(_, c)| c).collect(), Forced::No),
        has_four,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::board::Point;

    /// Facing an open three, the answers list its defences first, then the
    /// side to move's fours that defend nothing, and says where those
    /// begin.
    #[test]
    fn an_open_threes_answers_list_the_defences_then_the_delaying_fours() {
        use crate::gomoku::board::Threats;
        use crate::gomoku::rules::{Config, Rule};
        let config = Config {
            width: 15,
            height: 15,
            n: 5,
            rule: Rule::Standard,
        };
        let Ok(mut board) = Board::new(config) else {
            panic!("a 15x15 board");
        };
        // Black: a three on row 1 that White blocks at its left end (fours
        // at x = 4 and x = 5), and a stone far away; White: an open three
        // on row 7.
        for (x, y) in [
            (1, 1),
            (5, 7),
            (2, 1),
            (6, 7),
            (3, 1),
            (7, 7),
            (12, 12),
            (0, 1),
        ] {
            board.place(Point::new(x, y).index());
        }
        assert_eq!(board.to_move(), Color::Black);
        let (moves, _, has_four) = generate(&mut board, Order::Width);
        let Moves::List(moves, Forced::ByThree(defending)) = moves else {
            panic!("an open three to answer");
        };
        assert!(has_four);
        let threats: Vec<usize> = board.flagged_cells(Color::White, Threats::FLEX4).collect();
        let blocks = defences(&mut board, &threats);
        assert!(defending >= 2, "{moves:?}");
        assert!(moves[..defending].iter().all(|m| blocks.contains(m)));
        let delays = &moves[defending..];
        let fours = [Point::new(4, 1).index(), Point::new(5, 1).index()];
        assert_eq!(delays.len(), 2, "{moves:?}");
        assert!(
            delays
                .iter()
                .all(|m| fours.contains(m) && !blocks.contains(m))
        );
    }

    /// [`move_order`] lists every move of a quiet position, the inner
    /// nodes' [`WIDTH`] first in the same order, and a four's block alone
    /// as forced.
    #[test]
    fn the_move_order_is_the_searchs() {
        use crate::gomoku::rules::{Config, Rule};
        let Ok(mut board) = Board::new(Config {
            width: 15,
            height: 15,
            n: 5,
            rule: Rule::Standard,
        }) else {
            panic!("a 15x15 board");
        };
        for (x, y) in [(7, 7), (8, 8), (6, 8), (8, 6), (9, 7)] {
            board.place(Point::new(x, y).index());
        }
        let Some((all, false)) = move_order(&mut board) else {
            panic!("a quiet position");
        };
        assert_eq!(all.len(), candidates(&board).len());
        let Moves::List(width, Forced::No) = generate(&mut board, Order::Width).0 else {
            panic!("a quiet position");
        };
        assert_eq!(width, all[..WIDTH]);
        // White (to move) has four in a column blocked at the top: Black's
        // one answer is the bottom end.
        for (x, y) in [(2, 2), (12, 3), (2, 3), (12, 5), (2, 4), (12, 7), (2, 5)] {
            board.place(Point::new(x, y).index());
        }
        board.place(Point::new(2, 1).index());
        assert_eq!(board.to_move(), Color::White);
        board.place(Point::new(13, 13).index());
        assert_eq!(
            move_order(&mut board),
            Some((vec![Point::new(2, 6).index()], true))
        );
    }

    /// The search's evaluation is the weights' dot product with the
    /// features the tuner reads, on random positions of every rule.
    #[test]
    fn the_evaluation_is_the_weights_times_the_features() {
        use crate::gomoku::eval::{WEIGHT_SCALE, WEIGHTS};
        use crate::gomoku::rules::{Config, Rule};
        use rand::{Rng, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(7);
        let mut compared = 0;
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
            for _ in 0..40 {
                let config = Config {
                    width: 15,
                    height: 15,
                    n: 5,
                    rule,
                };
                let Ok(mut board) = Board::new(config) else {
                    panic!("a 15x15 board");
                };
                let stones = rng.random_range(1..40);
                for _ in 0..stones {
                    let cells = candidates(&board);
                    let cell = cells[rng.random_range(0..cells.len())];
                    if board.play_index(cell) != crate::gomoku::Status::Ongoing {
                        break;
                    }
                    let (moves, eval, _) = generate(&mut board, Order::None);
                    let Some(features) = eval_features(&mut board) else {
                        assert!(!matches!(moves, Moves::List(ref m, _) if !m.is_empty()));
                        assert!(!matches!(moves, Moves::Unlisted));
                        continue;
                    };
                    let sum: i32 = features
                        .iter()
                        .zip(WEIGHTS)
                        .map(|(&x, w)| x as i32 * w)
                        .sum();
                    assert_eq!(eval, sum.div_euclid(WEIGHT_SCALE), "{}", board.diagram());
                    compared += 1;
                }
            }
        }
        assert!(compared > 1000, "{compared} positions");
    }
}
