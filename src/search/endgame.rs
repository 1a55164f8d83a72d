//! The exact endgame solver.
//!
//! Scores are exact final disc differences (empties to the winner). The
//! solver is split by depth, each part doing what pays at that depth:
//!
//! * [`Search::solve_pv`]: full-window principal-variation search, used at the
//!   root and on the principal line; keeps the PV.
//! * `solve_deep`: null-window search from [`DEEP_SOLVE_EMPTIES`] up, with the
//!   transposition table (whose best move comes first when it is a solve's
//!   or a deep enough search's, [`SOLVE_TABLE_MOVE_MIN_DEPTH`]), an enhanced
//!   transposition cutoff (children looked up before any is searched), and
//!   fastest-first ordering
//!   (fewest opponent replies), ordered by a shallow midgame search when many
//!   squares are empty.
//! * `solve_sorted`: null-window search from 5 empties up to
//!   [`DEEP_SOLVE_EMPTIES`]: a small table private to the thread
//!   ([`local_table`](crate::search::local_table)), also looked up for
//!   each child before the sort; a child the opponent has at most one
//!   reply in is searched at once; the other moves sorted fastest first
//!   (fewest opponent replies, regions with an odd number of empties ahead).
//!   A child gets the moves its parent generated to value it, and skips
//!   the table look-up its parent already made.
//! * `solve_4` down to `solve_1`: the last 4..2 empties try each empty square
//!   directly instead of generating moves, and the last empty square is scored
//!   by counting its flips.
//!
//! Every node from [`STABILITY_CUTOFF_EMPTIES`] empties up first tries a
//! stability cutoff: the opponent's stable discs bound the score from above.

use crate::bitboard::squares;
use crate::board::Board;
use crate::eval::stability;
use crate::movegen;
use crate::search::Search;
use crate::search::line::Line;
use crate::search::local_table;
use crate::search::node::Child;
use crate::search::ordering::{MoveList, OrderingMode, QUADRANT_OF, Scored, square_of};
use crate::search::params::*;
use crate::search::tt::{NO_MOVE, exact_depth, is_exact};

/// What [`Search::sort_or_settle`] made of a sorted node's moves.
enum Presort {
    /// The node's score is known (fail-soft).
    Settled(i32),
    /// The moves left are in the list; the best bound of those settled
    /// before the sort, or `-SCORE_INF`.
    Sorted(i32),
}

impl Search<'_> {
    /// Final score of a position where neither side can move (empties to
    /// the winner; see [`Board::final_score_on`]).
    #[inline]
    pub(crate) fn final_score(&self, board: Board) -> i32 {
        board.final_score_on(self.size)
    }

    /// Exact score with a null window (`alpha`, `alpha + 1`): fail-soft.
    #[inline]
    pub(crate) fn solve_nws(&mut self, board: Board, alpha: i32) -> i32 {
        let empties = board.empties() & self.mask;
        let count = empties.count_ones();
        // (3 empties: solve_3 tries it itself, as solve_4 calls it directly.)
        if count >= STABILITY_CUTOFF_EMPTIES.max(4)
            && let Some(upper) = self.stability_cutoff(board, alpha)
        {
            return upper;
        }
        match count {
            0 => self.final_score(board),
            1 => self.solve_1(board, empties.trailing_zeros() as usize),
            2 => {
                let a = empties.trailing_zeros() as usize;
                let b = (empties & (empties - 1)).trailing_zeros() as usize;
                self.solve_2(board, alpha, a, b)
            }
            3 => self.solve_3(board, alpha, empties, self.odd_regions(empties)),
            4 => self.solve_4(board, alpha, empties),
            n if n < DEEP_SOLVE_EMPTIES => self.solve_sorted(board, alpha, empties, n),
            n => self.solve_deep(board, alpha, n),
        }
    }

    /// The last empty square: count what it flips.
    #[inline(always)]
    fn solve_1(&mut self, board: Board, index: usize) -> i32 {
        self.control.nodes += 1;
        let mine = board.player.count_ones() as i32;
        if self.mask == u64::MAX {
            // 8x8: every other square is occupied, so the flips can be
            // counted from the player's discs alone.
            let n = movegen::count_last_flips(board.player, index) as i32;
            if n != 0 {
                return 2 * (mine + 1 + n) - 64;
            }
            let n = movegen::count_last_flips(board.opponent, index) as i32;
            if n != 0 {
                return 2 * (mine - n) - 64;
            }
        } else {
            // Small boards: the squares off the board are empty too.
            let flips = movegen::flips(board.player, board.opponent, index);
            if flips != 0 {
                return 2 * (mine + 1 + flips.count_ones() as i32) - self.squares;
            }
            let theirs = movegen::flips(board.opponent, board.player, index);
            if theirs != 0 {
                return 2 * (mine - theirs.count_ones() as i32) - self.squares;
            }
        }
        // Nobody can fill the last square: it goes to the winner.
        let diff = 2 * mine - (self.squares - 1);
        diff + diff.signum()
    }

    /// The last 2 empty squares `a` and `b`, null window (`alpha`, `alpha + 1`).
    fn solve_2(&mut self, board: Board, alpha: i32, a: usize, b: usize) -> i32 {
        self.control.nodes += 1;
        let (player, opponent) = (board.player, board.opponent);
        let mut best = -SCORE_INF;
        let flips = movegen::flips(player, opponent, a);
        if flips != 0 {
            best = -self.solve_1(Board::new(opponent ^ flips, player ^ flips ^ (1 << a)), b);
            if best > alpha {
                return best;
            }
        }
        let flips = movegen::flips(player, opponent, b);
        if flips != 0 {
            return best
                .max(-self.solve_1(Board::new(opponent ^ flips, player ^ flips ^ (1 << b)), a));
        }
        if best > -SCORE_INF {
            return best;
        }
        // We must pass: the opponent plays, and solve_1 scores for us again.
        self.control.nodes += 1;
        let mut worst = SCORE_INF;
        let flips = movegen::flips(opponent, player, a);
        if flips != 0 {
            worst = self.solve_1(Board::new(player ^ flips, opponent ^ flips ^ (1 << a)), b);
            if worst <= alpha {
                return worst;
            }
        }
        let flips = movegen::flips(opponent, player, b);
        if flips != 0 {
            return worst
                .min(self.solve_1(Board::new(player ^ flips, opponent ^ flips ^ (1 << b)), a));
        }
        if worst < SCORE_INF {
            worst
        } else {
            self.final_score(board)
        }
    }

    /// The `N` squares of `empties` in parity order: squares of the `odd`
    /// regions first, then the others, each group lowest first.
    #[inline(always)]
    fn parity_order<const N: usize>(empties: u64, odd: u64) -> [usize; N] {
        let (mut group, mut next) = (empties & odd, empties & !odd);
        let mut order = [0; N];
        for square in &mut order {
            if group == 0 {
                (group, next) = (next, 0);
            }
            *square = group.trailing_zeros() as usize;
            group &= group - 1;
        }
        order
    }

    /// 4 empties: each empty square in parity order, then the same for the
    /// opponent if we must pass.
    fn solve_4(&mut self, board: Board, alpha: i32, empties: u64) -> i32 {
        let odd = self.odd_regions(empties);
        let order = Self::parity_order::<4>(empties, odd);
        let quadrants = &QUADRANT_OF[self.size as usize];
        if let Some(score) = self.try_4(board, alpha, empties, odd, order, quadrants) {
            return score;
        }
        match self.try_4(board.pass(), -alpha - 1, empties, odd, order, quadrants) {
            Some(score) => -score,
            None => self.final_score(board),
        }
    }

    /// The best score of the side to move over its moves on the 4 `order`ed
    /// squares of `empties`, or `None` when it has none. Counts the node.
    /// `odd` are the regions with an odd number of empties, `quadrants` each
    /// square's region: a move flips the parity of its own.
    #[inline(always)]
    fn try_4(
        &mut self,
        board: Board,
        alpha: i32,
        empties: u64,
        odd: u64,
        order: [usize; 4],
        quadrants: &[u64; 64],
    ) -> Option<i32> {
        self.control.nodes += 1;
        let mut best = -SCORE_INF;
        for square in order {
            let flips = movegen::flips(board.player, board.opponent, square);
            if flips != 0 {
                let child =
                    Board::new(board.opponent ^ flips, board.player ^ flips ^ (1 << square));
                let score = -self.solve_3(
                    child,
                    -alpha - 1,
                    empties ^ (1 << square),
                    odd ^ quadrants[square],
                );
                if score > best {
                    best = score;
                    if score > alpha {
                        return Some(best);
                    }
                }
            }
        }
        (best > -SCORE_INF).then_some(best)
    }

    /// 3 empties: each empty square in parity order (`odd`: the regions with
    /// an odd number of `empties`), then the same for the opponent if we must
    /// pass.
    fn solve_3(&mut self, board: Board, alpha: i32, empties: u64, odd: u64) -> i32 {
        debug_assert_eq!(odd, self.odd_regions(empties));
        if STABILITY_CUTOFF_EMPTIES <= 3
            && let Some(upper) = self.stability_cutoff(board, alpha)
        {
            return upper;
        }
        let order = Self::parity_order::<3>(empties, odd);
        if let Some(score) = self.try_3(board, alpha, order) {
            return score;
        }
        match self.try_3(board.pass(), -alpha - 1, order) {
            Some(score) => -score,
            None => self.final_score(board),
        }
    }

    /// The best score of the side to move over its moves on the 3 `order`ed
    /// squares, or `None` when it has none. Counts the node.
    #[inline(always)]
    fn try_3(&mut self, board: Board, alpha: i32, [x, y, z]: [usize; 3]) -> Option<i32> {
        self.control.nodes += 1;
        let mut best = -SCORE_INF;
        // Each square with the other two in order.
        for (square, a, b) in [(x, y, z), (y, x, z), (z, x, y)] {
            let flips = movegen::flips(board.player, board.opponent, square);
            if flips != 0 {
                let child =
                    Board::new(board.opponent ^ flips, board.player ^ flips ^ (1 << square));
                let score = -self.solve_2(child, -alpha - 1, a, b);
                if score > best {
                    best = score;
                    if score > alpha {
                        return Some(best);
                    }
                }
            }
        }
        (best > -SCORE_INF).then_some(best)
    }

    /// From 5 empties up to [`DEEP_SOLVE_EMPTIES`] (`count` of them, the
    /// squares of `empties`): fastest first, with this
    /// thread's own table (see [`local_table`](crate::search::local_table)) instead of the shared one.
    fn solve_sorted(&mut self, board: Board, alpha: i32, empties: u64, count: u32) -> i32 {
        if self.control.visit() {
            return alpha;
        }
        if let Some((lower, upper)) = self.local.probe(board, count) {
            if lower > alpha {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
        }
        let moves = movegen::legal_moves(board.player, board.opponent) & self.mask;
        self.solve_sorted_moves(board, alpha, empties, count, moves)
    }

    /// A child of a sorted node: [`Search::solve_nws`] when its side to
    /// move has `moves` (the parent generated them) and, from 5 empties,
    /// its entry in this thread's table was looked up by the parent
    /// without settling it (the same test at the same window). Skipping
    /// the second generation and look-up (and filling the parent's list in
    /// place, see [`Search::sort_or_settle`]): callgrind FFO #40 + #44,
    /// 3.099 + 5.950 G -> 2.868 + 5.603 G instructions.
    #[inline]
    fn solve_child(
        &mut self,
        child: Board,
        alpha: i32,
        empties: u64,
        count: u32,
        moves: u64,
    ) -> i32 {
        if count < local_table::FIRST_EMPTIES {
            return self.solve_nws(child, alpha);
        }
        if count >= STABILITY_CUTOFF_EMPTIES
            && let Some(upper) = self.stability_cutoff(child, alpha)
        {
            return upper;
        }
        if self.control.visit() {
            return alpha;
        }
        self.solve_sorted_moves(child, alpha, empties, count, moves)
    }

    /// [`Search::solve_sorted`] once the table is looked up: the side to
    /// move has `moves`.
    #[inline]
    fn solve_sorted_moves(
        &mut self,
        board: Board,
        alpha: i32,
        empties: u64,
        count: u32,
        moves: u64,
    ) -> i32 {
        if moves == 0 {
            return self.solve_pass(board, alpha);
        }
        let mut list = MoveList::new();
        let best = match self.sort_or_settle(board, alpha, moves, empties, count, &mut list) {
            Presort::Settled(score) => score,
            Presort::Sorted(mut best) => {
                while let Some(mv) = list.next_best() {
                    let score = -self.solve_child(
                        mv.play(board),
                        -alpha - 1,
                        empties ^ mv.square().bit(),
                        count - 1,
                        mv.replies,
                    );
                    if score > best {
                        best = score;
                        if score > alpha {
                            break;
                        }
                    }
                }
                best
            }
        };
        if !self.control.is_stopped() {
            self.local.store(board, count, alpha, best);
        }
        best
    }

    /// The moves of `moves` from `board` (`count` empties, the squares of
    /// `empties`), valued fastest first for a null-window search above
    /// `alpha`, go to `list`. On the way, two things can settle a move
    /// before the sort, its score (a bound, fail-soft) folded into the
    /// node's:
    /// * the child's bounds in this thread's table. One proving the cut
    ///   ends the node; one proving the move fails low leaves it out of the
    ///   list;
    /// * a child where the opponent has at most one reply (a corner counts
    ///   twice) is searched at once: such a move comes first anyway, and
    ///   when it cuts, the other moves need no value.
    ///
    /// The node is [`Presort::Settled`] when a move proved the cut, or when
    /// its lone move was searched. (It fills the caller's list rather than
    /// returning one: once its entries held the replies, a returned list
    /// was copied with `memcpy`, 5% of the instructions.)
    ///
    /// callgrind (x86-64-v3) on FFO #40 + #44: 10.05 G -> 9.74 G
    /// instructions, 22.38 M -> 21.93 M nodes.
    #[inline]
    fn sort_or_settle(
        &mut self,
        board: Board,
        alpha: i32,
        moves: u64,
        empties: u64,
        count: u32,
        list: &mut MoveList<{ DEEP_SOLVE_EMPTIES as usize }>,
    ) -> Presort {
        if moves & (moves - 1) == 0 {
            // A lone move needs no value (callgrind, FFO #40 + #44: 0.8%
            // fewer instructions): it settles the node.
            let index = moves.trailing_zeros() as usize;
            let flips = movegen::flips(board.player, board.opponent, index);
            let child = board.play_flips(square_of(index as u8), flips);
            return Presort::Settled(-self.solve_nws(child, -alpha - 1));
        }
        let odd = self.odd_regions(empties);
        let mut best = -SCORE_INF;
        for square in squares(moves) {
            let flips = movegen::flips(board.player, board.opponent, square.index());
            let child = board.play_flips(square, flips);
            if count > local_table::FIRST_EMPTIES
                && let Some((lower, upper)) = self.local.probe(child, count - 1)
            {
                if -upper > alpha {
                    return Presort::Settled(-upper);
                }
                if -lower <= alpha {
                    best = best.max(-lower);
                    continue;
                }
            }
            let replies = movegen::legal_moves(child.player, child.opponent) & self.mask;
            if replies.count_ones() + (replies & self.corners).count_ones() <= 1 {
                let score = -self.solve_child(
                    child,
                    -alpha - 1,
                    empties ^ square.bit(),
                    count - 1,
                    replies,
                );
                if score > alpha {
                    return Presort::Settled(score);
                }
                best = best.max(score);
                continue;
            }
            list.push(Scored {
                index: square.index() as u8,
                flips,
                value: self.fastest_first_value(child, replies, square, odd),
                replies,
            });
        }
        Presort::Sorted(best)
    }

    /// The side to move has no move: pass, or score the finished game.
    #[inline]
    fn solve_pass(&mut self, board: Board, alpha: i32) -> i32 {
        if movegen::legal_moves(board.opponent, board.player) & self.mask == 0 {
            self.final_score(board)
        } else {
            -self.solve_nws(board.pass(), -alpha - 1)
        }
    }

    /// An upper bound on the score from the opponent's stable discs, when it
    /// already fails low (the position then counts as a node). Tried at
    /// every solver node from [`STABILITY_CUTOFF_EMPTIES`] empties up.
    #[inline]
    fn stability_cutoff(&mut self, board: Board, alpha: i32) -> Option<i32> {
        // Only worth a look when alpha is high enough for a cutoff to be possible.
        if alpha >= self.squares - 2 * board.opponent.count_ones() as i32 {
            let stable = stability::stable_discs(board.opponent, board.player, self.size);
            let upper = self.squares - 2 * stable.count_ones() as i32;
            if upper <= alpha {
                self.control.nodes += 1;
                return Some(upper);
            }
        }
        None
    }

    /// Many empties: table, stability cutoff, sorted moves.
    fn solve_deep(&mut self, board: Board, alpha: i32, empties: u32) -> i32 {
        if self.control.visit() {
            return alpha;
        }
        let mut table_move = NO_MOVE;
        if let Some(hit) = self.tt.probe(board) {
            if self.trusted(&hit, exact_depth(empties))
                && let Some(score) = hit.cutoff(alpha)
            {
                return score;
            }
            if is_exact(hit.depth)
                || self.step.midgame_moves && u32::from(hit.depth) >= SOLVE_TABLE_MOVE_MIN_DEPTH
            {
                table_move = hit.best;
            }
        }
        if empties >= ENDGAME_PROBCUT_MIN_EMPTIES
            && let Some(score) = self.endgame_probcut(board, alpha, empties)
        {
            return score;
        }
        let moves = movegen::legal_moves(board.player, board.opponent) & self.mask;
        if moves == 0 {
            return self.solve_pass(board, alpha);
        }
        let mut list = MoveList::new();
        list.add_moves(board, moves);
        if empties >= ETC_MIN_EMPTIES
            && let Some(score) = self.enhanced_cutoff(board, &list, alpha, empties)
        {
            return score;
        }
        self.value_moves(
            board,
            &mut list,
            table_move,
            OrderingMode::endgame(empties, self.size),
        );
        let Some(best) = self.nws_loop(board, &mut list, alpha, Child::Solve) else {
            return alpha;
        };
        if empties >= TABLE_MIN_EMPTIES {
            self.store(board, exact_depth(empties), (alpha, alpha + 1), best);
        }
        best.score
    }

    /// Enhanced transposition cutoff: a child already solved with a score
    /// at or below `-alpha - 1` (an upper bound for the opponent) proves that
    /// this position fails high before any child is searched. One table
    /// probe per move of `list`: it pays from [`ETC_MIN_EMPTIES`] up (FFO
    /// #40-45: 10-20% fewer nodes). Children below [`DEEP_SOLVE_EMPTIES`]
    /// are looked up in the thread's own table, where the solver keeps
    /// them (callgrind FFO #40 + #44: 9.74 G -> 9.66 G instructions,
    /// 21.93 M -> 21.78 M nodes, against probing the shared table).
    fn enhanced_cutoff(
        &mut self,
        board: Board,
        list: &MoveList,
        alpha: i32,
        empties: u32,
    ) -> Option<i32> {
        if empties - 1 < DEEP_SOLVE_EMPTIES {
            // The children live in this thread's table, not the shared one.
            for mv in list.moves() {
                if let Some((_, upper)) = self.local.probe(mv.play(board), empties - 1)
                    && -upper > alpha
                {
                    return Some(-upper);
                }
            }
            return None;
        }
        let child_depth = exact_depth(empties - 1);
        for mv in list.moves() {
            if let Some(hit) = self.tt.probe(mv.play(board))
                && self.trusted(&hit, child_depth)
                && -hit.upper > alpha
            {
                return Some(-hit.upper);
            }
        }
        None
    }

    /// Full-window exact search keeping the principal variation in `pv`.
    pub(crate) fn solve_pv(&mut self, board: Board, alpha: i32, beta: i32, pv: &mut Line) -> i32 {
        pv.clear();
        let empties = (board.empties() & self.mask).count_ones();
        if beta - alpha == 1 || empties <= 2 {
            return self.solve_nws_window(board, alpha, beta);
        }
        if self.control.visit() {
            return alpha;
        }
        let mut table_move = NO_MOVE;
        if let Some(hit) = self.tt.probe(board) {
            table_move = hit.best;
        }
        let moves = movegen::legal_moves(board.player, board.opponent) & self.mask;
        let mut child_pv = Line::new();
        if moves == 0 {
            if movegen::legal_moves(board.opponent, board.player) & self.mask == 0 {
                return self.final_score(board);
            }
            let score = -self.solve_pv(board.pass(), -beta, -alpha, &mut child_pv);
            pv.set(None, &child_pv);
            return score;
        }
        let mut list = self.order_moves(
            board,
            moves,
            table_move,
            OrderingMode::endgame(empties, self.size),
        );
        let best = self.pv_loop(board, &mut list, (alpha, beta), Child::Solve, pv);
        if !self.control.is_stopped() && empties >= TABLE_MIN_EMPTIES {
            self.store(board, exact_depth(empties), (alpha, beta), best);
        }
        best.score
    }

    /// Exact score in (`alpha`, `beta`) by null-window probes, for the last
    /// few empties where a PV search costs more than it brings.
    fn solve_nws_window(&mut self, board: Board, alpha: i32, beta: i32) -> i32 {
        let mut low = alpha;
        loop {
            let score = self.solve_nws(board, low);
            if score <= low || score >= beta || self.control.is_stopped() {
                return score;
            }
            low = score;
        }
    }
}
