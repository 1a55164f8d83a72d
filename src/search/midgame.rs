//! The midgame search: negamax principal-variation search over the
//! evaluation, with the transposition table and move ordering.
//!
//! [`Search::pvs`] searches with a full window and keeps the PV; [`Search::nws`]
//! answers null-window questions ("is the score above alpha?"). When the
//! remaining depth reaches the number of empty squares, both hand over to the
//! exact endgame solver, so deep enough searches end in exact scores.

use crate::board::Board;
use crate::movegen;
use crate::search::Search;
use crate::search::endgame::{Scored, pick_best, square_of};
use crate::search::line::Line;
use crate::search::params::*;
use crate::search::tt::NO_MOVE;

impl Search<'_> {
    /// The static evaluation of a leaf (counted as a node): the learned
    /// pattern evaluation on 8x8, the hand-set one on smaller boards.
    #[inline]
    pub(crate) fn evaluate(&mut self, board: Board) -> i32 {
        self.control.nodes += 1;
        match self.patterns {
            Some(patterns) => patterns.evaluate(board),
            None => self.evaluator.evaluate(board, self.size),
        }
    }

    /// Full-window search to `depth` plies; the principal variation goes to `pv`.
    pub(crate) fn pvs(
        &mut self,
        board: Board,
        mut alpha: i32,
        beta: i32,
        depth: u32,
        pv: &mut Line,
    ) -> i32 {
        pv.clear();
        let empties = (board.empties() & self.mask).count_ones();
        if depth >= empties {
            return self.solve_pv(board, alpha, beta, pv);
        }
        if depth == 0 {
            return self.evaluate(board);
        }
        if self.control.visit() {
            return alpha;
        }
        let table_move = self.tt.probe(board).map_or(NO_MOVE, |hit| hit.best);
        let moves = movegen::legal_moves(board.player, board.opponent) & self.mask;
        let mut child_pv = Line::new();
        if moves == 0 {
            if movegen::legal_moves(board.opponent, board.player) & self.mask == 0 {
                return self.final_score(board);
            }
            let score = -self.pvs(board.pass(), -beta, -alpha, depth, &mut child_pv);
            pv.set(None, &child_pv);
            return score;
        }
        let mut list = [Scored::default(); 32];
        let count = self.order_midgame_moves(board, moves, table_move, depth, &mut list);
        let (original_alpha, mut best, mut best_move) = (alpha, -SCORE_INF, NO_MOVE);
        for i in 0..count {
            let mv = pick_best(&mut list[i..count]);
            let child = board.play_flips(square_of(mv.index), mv.flips);
            let mut score = if i == 0 {
                SCORE_INF
            } else {
                -self.nws(child, -alpha - 1, depth - 1)
            };
            if i == 0 || (score > alpha && score < beta) {
                score = -self.pvs(child, -beta, -alpha, depth - 1, &mut child_pv);
            } else {
                child_pv.clear();
            }
            if self.control.is_stopped() {
                return best.max(alpha);
            }
            if score > best {
                best = score;
                best_move = mv.index;
                pv.set(Some(square_of(mv.index)), &child_pv);
                alpha = alpha.max(score);
                if score >= beta {
                    break;
                }
            }
        }
        self.tt
            .store(board, depth as u8, original_alpha, beta, best, best_move);
        best
    }

    /// Null-window search: fail-soft answer to "is the score above `alpha`?".
    pub(crate) fn nws(&mut self, board: Board, alpha: i32, depth: u32) -> i32 {
        let empties = (board.empties() & self.mask).count_ones();
        if depth >= empties {
            return self.solve_nws(board, alpha);
        }
        if depth == 0 {
            return self.evaluate(board);
        }
        if self.control.visit() {
            return alpha;
        }
        let mut table_move = NO_MOVE;
        if let Some(hit) = self.tt.probe(board) {
            if u32::from(hit.depth) >= depth
                && let Some(score) = hit.cutoff(alpha)
            {
                return score;
            }
            table_move = hit.best;
        }
        let moves = movegen::legal_moves(board.player, board.opponent) & self.mask;
        if moves == 0 {
            if movegen::legal_moves(board.opponent, board.player) & self.mask == 0 {
                return self.final_score(board);
            }
            return -self.nws(board.pass(), -alpha - 1, depth);
        }
        let mut list = [Scored::default(); 32];
        let count = self.order_midgame_moves(board, moves, table_move, depth, &mut list);
        let (mut best, mut best_move) = (-SCORE_INF, NO_MOVE);
        for i in 0..count {
            let mv = pick_best(&mut list[i..count]);
            let child = board.play_flips(square_of(mv.index), mv.flips);
            let score = -self.nws(child, -alpha - 1, depth - 1);
            if self.control.is_stopped() {
                return alpha;
            }
            if score > best {
                best = score;
                best_move = mv.index;
                if score > alpha {
                    break;
                }
            }
        }
        self.tt
            .store(board, depth as u8, alpha, alpha + 1, best, best_move);
        best
    }

    /// Orders midgame moves: the table move first; at depth
    /// [`SHALLOW_ORDERING_MIN_DEPTH`] and up by a shallower search, below by
    /// fewest opponent replies. Returns the number of moves.
    fn order_midgame_moves(
        &mut self,
        board: Board,
        moves: u64,
        table_move: u8,
        depth: u32,
        list: &mut [Scored; 32],
    ) -> usize {
        let mut count = 0;
        for square in crate::bitboard::squares(moves) {
            let flips = movegen::flips(board.player, board.opponent, square.index());
            let child = board.play_flips(square, flips);
            let value = if square.index() as u8 == table_move {
                i32::MAX
            } else if depth >= SHALLOW_ORDERING_MIN_DEPTH {
                let shallow = depth
                    .saturating_sub(ORDERING_DEPTH_REDUCTION)
                    .min(depth / ORDERING_DEPTH_DIVISOR);
                -self.ordering_search(child, shallow) * (1 << 12) - self.mobility_value(child)
            } else {
                -self.mobility_value(child)
            };
            if count < list.len() {
                list[count] = Scored {
                    index: square.index() as u8,
                    flips,
                    value,
                };
                count += 1;
            }
        }
        count
    }

    /// A quick full-window score used only to order moves.
    pub(crate) fn ordering_search(&mut self, board: Board, depth: u32) -> i32 {
        let mut scratch = Line::new();
        let empties = (board.empties() & self.mask).count_ones();
        if depth >= empties || depth == 0 {
            // Never solve while ordering: a shallow evaluation is all we want.
            return self.evaluate(board);
        }
        self.pvs(board, -SCORE_INF, SCORE_INF, depth, &mut scratch)
    }
}
