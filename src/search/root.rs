//! The root of a search: every root move (less the excluded ones) searched
//! to a depth or solved, within a window, with the principal variation kept.

use crate::bitboard::{BoardSize, Symmetry, squares};
use crate::board::Board;
use crate::movegen;
use crate::search::Search;
use crate::search::line::Line;
use crate::search::node::{Best, Child};
use crate::search::ordering::{MoveList, OrderingMode};
use crate::search::params::*;
use crate::search::tt::{self, NO_MOVE};

/// What a root search found.
pub(crate) struct RootOutcome {
    pub score: i32,
    pub pv: Line,
    /// Whether every move was searched (false when the search was stopped).
    pub complete: bool,
    /// With `ties`: the lines of the other moves scoring exactly `score`.
    pub ties: Vec<Line>,
}

impl Search<'_> {
    /// Searches the root moves not in `excluded` to `depth` (or solves, when
    /// `depth` is `None`) within `window`. Returns the best score, its PV,
    /// and whether the search finished; with `ties`, also the other moves
    /// that score exactly as well ([`Search::ties_loop`]).
    pub(crate) fn root(
        &mut self,
        board: Board,
        window: (i32, i32),
        depth: Option<u32>,
        excluded: u64,
        ties: bool,
    ) -> RootOutcome {
        let moves = movegen::legal_moves(board.player, board.opponent) & self.mask & !excluded;
        let moves = moves & !symmetric_duplicates(board, moves, self.size);
        let table_move = self.tt.probe(board).map_or(NO_MOVE, |hit| hit.best);
        let empties = (board.empties() & self.mask).count_ones();
        // The root is ordered by a shallow search whatever the depth: it has
        // few moves and every iteration starts there. The ordering search
        // never goes deeper than the children will be searched: its deeper
        // table entries would be trusted by the children's null-window
        // searches and make a depth-d answer disagree with a depth-d
        // minimax (the 35-move board at depth 3 answered d8 +48 where e8
        // scores +54).
        let ordering_depth = depth.map_or(SHALLOW_ORDERING_DEPTH, |d| {
            SHALLOW_ORDERING_DEPTH.min(d.saturating_sub(1))
        });
        let mode = OrderingMode::Search(ordering_depth);
        let mut list = self.order_moves(board, moves, table_move, mode);
        let child = depth.map_or(Child::Solve, |d| Child::Depth(d - 1));
        let mut pv = Line::new();
        let (best, tied) = if ties {
            self.ties_loop(board, &mut list, window, child, &mut pv)
        } else {
            let best = self.pv_loop(board, &mut list, window, child, &mut pv);
            (best, Vec::new())
        };
        let complete = !self.control.is_stopped();
        // With root moves excluded the score is only that of the remaining
        // moves: storing it under the full board would poison later probes.
        if complete && excluded == 0 && best.index != NO_MOVE {
            let tt_depth = depth.map_or(tt::exact_depth(empties), |d| d as u8);
            self.store(board, tt_depth, window, best);
        }
        RootOutcome {
            score: best.score,
            pv,
            complete,
            ties: tied,
        }
    }

    /// The root's move loop when every best move is wanted
    /// ([`crate::search::Limits::ties_only`]): the first move with the full
    /// window, each other one with a null window just under the best score
    /// so far. A move failing low there is strictly worse; one reaching it
    /// is searched again for its exact score, and ties or beats the best.
    /// Returns the best and the lines of the moves tying with it.
    ///
    /// One pass where a PVS loop and a second pass for the ties each proved
    /// the other moves no better. hard-20 #1-80 (`solve --write`,
    /// one thread): 224.3 M nodes against 258.3 M, the same written moves;
    /// six self-play positions of 24 empties: 0.88 G against 1.03 G. The
    /// root's moves are searched one after the other (their children still
    /// split among threads).
    fn ties_loop(
        &mut self,
        board: Board,
        list: &mut MoveList,
        (mut alpha, beta): (i32, i32),
        child: Child,
        pv: &mut Line,
    ) -> (Best, Vec<Line>) {
        let mut best = Best {
            score: -SCORE_INF,
            index: NO_MOVE,
        };
        // The other moves scoring exactly the best so far.
        let mut ties = Vec::new();
        let mut child_pv = Line::new();
        while let Some(mv) = list.next_best() {
            let next = mv.play(board);
            let entered = self.enter(board, mv, next, child);
            let score = if list.taken() == 1 {
                -self.child_pvs(next, (-beta, -alpha), child, &mut child_pv)
            } else {
                // Does it reach the best so far? (Alpha is at least that.)
                let probe = -self.child_nws(next, -best.score, child);
                if probe >= best.score && !self.control.is_stopped() {
                    -self.child_pvs(next, (-beta, -(alpha - 1)), child, &mut child_pv)
                } else {
                    child_pv.clear();
                    probe
                }
            };
            self.leave(entered);
            if self.control.is_stopped() {
                break;
            }
            let mut line = Line::new();
            line.set(Some(mv.square()), &child_pv);
            if score > best.score {
                ties.clear();
                best = Best {
                    score,
                    index: mv.index,
                };
                *pv = line;
                alpha = alpha.max(score);
                if score >= beta {
                    break;
                }
            } else if score == best.score {
                ties.push(line);
            }
        }
        (best, ties)
    }
}

/// The moves of `moves` that a symmetry of `board` maps onto a lower square
/// of `moves`: their positions are mirror images of that square's, with the
/// same score, so the root searches one move of each such set (the lowest).
/// Only positions with a symmetry have any, such as the start positions:
/// the 6x6 solve's first move stands for all four.
fn symmetric_duplicates(board: Board, moves: u64, size: BoardSize) -> u64 {
    let mut duplicates = 0;
    for symmetry in &Symmetry::ALL[1..] {
        if board.symmetric(*symmetry, size) != board {
            continue;
        }
        for square in squares(moves) {
            let image = symmetry.apply_square(square, size);
            if image.index() < square.index() && moves & image.bit() != 0 {
                duplicates |= square.bit();
            }
        }
    }
    duplicates
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_symmetric_position_keeps_one_move_of_each_mirror_set() {
        for size in BoardSize::ALL {
            let board = Board::start(size);
            let moves = board.legal_moves_on(size);
            // The start position's four moves are mirror images of each other.
            let duplicates = symmetric_duplicates(board, moves, size);
            assert_eq!((moves & !duplicates).count_ones(), 1, "{size:?}");
            // Without the kept move (the duplicates are the others), the
            // next lowest stands for the rest.
            let rest = duplicates;
            assert_eq!(
                (rest & !symmetric_duplicates(board, rest, size)).count_ones(),
                1
            );
        }
        // A position without symmetry keeps every move.
        let board = Board::start(BoardSize::Eight);
        let first = crate::square::Square::from_lowest_bit(board.legal_moves_on(BoardSize::Eight))
            .expect("the start has moves");
        let child = board.play_flips(first, board.flips(first));
        let moves = child.legal_moves_on(BoardSize::Eight);
        assert_eq!(symmetric_duplicates(child, moves, BoardSize::Eight), 0);
    }
}
