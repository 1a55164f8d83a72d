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
use crate::search::line::Line;
use crate::search::node::Child;
use crate::search::ordering::{OrderingMode, Scored};
use crate::search::params::*;
use crate::search::tt::NO_MOVE;

impl Search<'_> {
    /// The static evaluation of a leaf (counted as a node): the learned
    /// pattern evaluation and its network on 8x8 (from the indices of the
    /// path's states when they hold `board`), the learned 6x6 one on 6x6,
    /// the hand-set one on 4x4.
    #[inline]
    pub(crate) fn evaluate(&mut self, board: Board) -> i32 {
        self.control.nodes += 1;
        match self.patterns {
            Some(patterns) => match self.states.top(board) {
                Some(state) => {
                    // Every search of the library's tests checks the indices
                    // against a fresh reading of the board.
                    debug_assert_eq!(state, &crate::eval::incremental::PatternState::new(board));
                    patterns.evaluate_state_with(state, self.network)
                }
                None => match self.network {
                    None => patterns.evaluate(board),
                    Some(_) => patterns.evaluate_state_with(
                        &crate::eval::incremental::PatternState::new(board),
                        self.network,
                    ),
                },
            },
            None => match self.six {
                Some(six) => six.evaluate(board),
                None => self.evaluator.evaluate(board, self.size),
            },
        }
    }

    /// Enters `next`, reached from `board` by `mv`, on the path of pattern
    /// states, when the child evaluates it or its children (see
    /// [`Search::evaluates_below`]). Returns whether it was entered: the
    /// caller leaves it with [`Search::leave`].
    #[inline]
    pub(crate) fn enter(&mut self, board: Board, mv: Scored, next: Board, child: Child) -> bool {
        let entered = self.patterns.is_some() && self.evaluates_below(next, child);
        if entered {
            self.states
                .push(board, usize::from(mv.index), mv.flips, next);
        }
        entered
    }

    /// Leaves the position last entered, if `entered`.
    #[inline]
    pub(crate) fn leave(&mut self, entered: bool) {
        if entered {
            self.states.pop();
        }
    }

    /// Whether searching `next` as `child` may evaluate it or its children:
    /// every midgame search, and solves from [`EVAL_ORDERING_EMPTIES`]
    /// (ordering by the evaluation) or [`ENDGAME_PROBCUT_MIN_EMPTIES`]
    /// (the solver's probcut) empties.
    #[inline]
    fn evaluates_below(&self, next: Board, child: Child) -> bool {
        match child {
            Child::Depth(_) => true,
            Child::Solve => {
                (next.empties() & self.mask).count_ones()
                    >= EVAL_ORDERING_EMPTIES.min(ENDGAME_PROBCUT_MIN_EMPTIES)
            }
        }
    }

    /// Full-window search to `depth` plies; the principal variation goes to `pv`.
    pub(crate) fn pvs(
        &mut self,
        board: Board,
        alpha: i32,
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
        if moves == 0 {
            if movegen::legal_moves(board.opponent, board.player) & self.mask == 0 {
                return self.final_score(board);
            }
            let mut child_pv = Line::new();
            let score = -self.pvs(board.pass(), -beta, -alpha, depth, &mut child_pv);
            pv.set(None, &child_pv);
            return score;
        }
        let mut list = self.order_moves(board, moves, table_move, OrderingMode::midgame(depth));
        let best = self.pv_loop(board, &mut list, (alpha, beta), Child::Depth(depth - 1), pv);
        if self.control.is_stopped() {
            return best.score.max(alpha);
        }
        self.store(board, depth as u8, (alpha, beta), best);
        best.score
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
            if self.trusted(&hit, depth as u8)
                && let Some(score) = hit.cutoff(alpha)
            {
                return score;
            }
            table_move = hit.best;
        }
        if let Some(score) = self.midgame_probcut(board, alpha, depth, empties) {
            return score;
        }
        let moves = movegen::legal_moves(board.player, board.opponent) & self.mask;
        if moves == 0 {
            if movegen::legal_moves(board.opponent, board.player) & self.mask == 0 {
                return self.final_score(board);
            }
            return -self.nws(board.pass(), -alpha - 1, depth);
        }
        let mut list = self.order_moves(board, moves, table_move, OrderingMode::midgame(depth));
        let Some(best) = self.nws_loop(board, &mut list, alpha, Child::Depth(depth - 1)) else {
            return alpha;
        };
        self.store(board, depth as u8, (alpha, alpha + 1), best);
        best.score
    }

    /// A quick full-window score used only to order moves.
    pub(crate) fn ordering_search(&mut self, board: Board, depth: u32) -> i32 {
        let empties = (board.empties() & self.mask).count_ones();
        // Ordering reads the linear evaluation alone: with the network there
        // too, `bench` took 0.53 s instead of 0.49 s. A full-width search's
        // ordering searches of some depth read the network: their results go
        // to the table, where the search proper reads them.
        let linear = depth == 0 || depth >= empties || !self.step.selectivity.is_none();
        let network = if linear {
            self.network.take()
        } else {
            self.network
        };
        let score = if depth >= empties || depth == 0 {
            // Never solve while ordering: a shallow evaluation is all we want.
            self.evaluate(board)
        } else {
            let mut scratch = Line::new();
            self.pvs(board, -SCORE_INF, SCORE_INF, depth, &mut scratch)
        };
        self.network = network;
        score
    }
}
