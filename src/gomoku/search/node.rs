//! The search of one gomoku node: principal-variation search with the
//! table, killers, futility, the fail-high and late-move reductions, free
//! forced replies, and a short VCF wherever the side to move has a four.

use super::driver::Shared;
use super::moves::{Forced, Moves, Order, generate};
use super::params::{
    CHECK_EVERY, DELAYING_FOUR_REDUCTION, FAIL_HIGH_MARGIN, FREE_FORCED_MOVES, FUTILITY_MARGIN,
    KILLERS, LMR_SCALE, NODE_VCF_DEPTH, NODE_VCF_NODES, VCF_CACHE_ENTRIES, VCF_MEMO_BITS, WIDTH,
};
use super::score::{WIN, WIN_BOUND, from_table, to_table};
use super::table::{Bound, Entry, Table};
use crate::gomoku::board::{Board, Status};
use crate::gomoku::threat::{Class, class_of};
use crate::gomoku::vcf::{ThreatBudget, VcfMemo, vcf};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// A cached node VCF that won.
const VCF_WON: u64 = u64::MAX;
/// A cached node VCF that found no win in its depth without running out
/// of nodes: none with any budget.
const VCF_NONE: u64 = u64::MAX - 1;

/// The plies a late quiet move is first searched shallower: `next` the
/// depth its search would get, `index` its place in the node's list.
fn late_move_reduction(next: i32, index: usize, pv: bool) -> i32 {
    static TABLE: std::sync::LazyLock<[[u8; 64]; 64]> = std::sync::LazyLock::new(|| {
        let mut table = [[0u8; 64]; 64];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (index, cell) in row.iter_mut().enumerate() {
                let r = LMR_SCALE * (depth as f64).ln() * ((index + 1) as f64).ln();
                *cell = r.round() as u8;
            }
        }
        table
    });
    let r = i32::from(TABLE[next.clamp(0, 63) as usize][index.min(63)]) - i32::from(pv);
    r.clamp(0, (next - 1).max(0))
}

/// What the table gives a node.
enum Probe {
    /// A score that decides the node.
    Cut(i32),
    /// Its best move of an earlier search, if any.
    Move(Option<usize>),
}
/// One thread's search state.
pub(super) struct Worker<'a> {
    table: &'a Table,
    pub(super) shared: &'a Shared<'a>,
    /// This thread's nodes, and those of them already added to the shared
    /// count.
    nodes: u64,
    flushed: u64,
    pub(super) aborted: bool,
    pub(super) pv: Vec<Vec<usize>>,
    /// Per ply: the last [`KILLERS`] moves that cut there, newest first.
    killers: Vec<[Option<usize>; KILLERS]>,
    /// The node VCFs' results by position key: see [`Worker::quick_vcf`].
    vcf_cache: Vec<[u64; 2]>,
    /// The node VCFs' failed inner positions ([`VcfMemo`]).
    vcf_memo: VcfMemo,
}

impl<'a> Worker<'a> {
    pub(super) fn new(table: &'a Table, shared: &'a Shared<'a>) -> Worker<'a> {
        Worker {
            table,
            shared,
            nodes: 0,
            flushed: 0,
            aborted: false,
            pv: Vec::new(),
            killers: Vec::new(),
            vcf_cache: vec![[0; 2]; VCF_CACHE_ENTRIES],
            vcf_memo: VcfMemo::with_bits(VCF_MEMO_BITS),
        }
    }

    /// Adds this thread's nodes not yet counted to the shared count.
    pub(super) fn flush(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// Every thread's nodes, as far as known.
    pub(super) fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + (self.nodes - self.flushed)
    }
    fn out_of_time(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes - self.flushed >= CHECK_EVERY {
            self.flush();
            let limits = self.shared.limits;
            let late = limits.deadline.is_some_and(|d| Instant::now() >= d);
            let full = limits
                .nodes
                .is_some_and(|n| self.shared.nodes.load(Ordering::Relaxed) >= n);
            self.aborted = late
                || full
                || self.shared.stop.is_stopped()
                || self.shared.halt.load(Ordering::Relaxed);
        }
        self.aborted
    }

    /// The principal-variation search of a node `depth` plies above the
    /// horizon, with the window `(alpha, beta)`, `ply` plies below the root.
    ///
    /// Depth is counted in whole plies; singular extensions and a smaller
    /// extension of the table's move were tried ["Extensions and fractional
    /// depths"].
    pub(super) fn pvs(
        &mut self,
        board: &mut Board,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        debug_assert!(
            depth >= 0,
            "past the horizon only a four's block is followed, at depth 0"
        );
        self.nodes += 1;
        let ply_index = ply as usize;
        if ply_index < self.pv.len() {
            self.pv[ply_index].clear();
        }
        if self.out_of_time() {
            return 0;
        }
        if board.is_full() {
            return 0;
        }
        // With depth left, the table comes before the moves: a cut spares
        // their generation, with the same answers (a position decided at
        // once is never stored); 7% less time on the bench. A node at the
        // horizon looks only once it is known to be a quiescence node, so
        // that a leaf costs no probe.
        let key = board.hash();
        let mut tt_move = None;
        if depth > 0 {
            match self.probe(key, depth, alpha, beta, ply) {
                Probe::Cut(score) => return score,
                Probe::Move(mv) => tt_move = mv,
            }
        }
        let order = if depth > 0 { Order::Width } else { Order::None };
        let (moves, eval, has_four) = generate(board, order);
        let (moves, forcing) = match moves {
            Moves::Win(_) => return WIN - ply - 1,
            Moves::OpenFour(_) => return WIN - ply - 3,
            Moves::Lost => return -(WIN - ply - 2),
            Moves::Unlisted => return self.leaf(board, eval, has_four, beta, ply),
            Moves::List(moves, forcing) => (moves, forcing),
        };
        if moves.is_empty() {
            return 0;
        }
        // At the horizon the moves are listed only to block a four (other
        // nodes there were leaves above, [`Moves::Unlisted`]).
        debug_assert!(depth > 0 || forcing == Forced::ByFour);
        let forced = forcing != Forced::No;
        let delays_from = match forcing {
            Forced::ByThree(defending) => defending,
            _ => usize::MAX,
        };
        if depth <= 0 {
            match self.probe(key, depth, alpha, beta, ply) {
                Probe::Cut(score) => return score,
                Probe::Move(mv) => tt_move = mv,
            }
        }
        // A null-window node with nothing forced whose static evaluation is
        // no win or loss: futility and the fail-high reduction may trust it.
        let quiet_null_window = beta - alpha == 1 && !forced && eval.abs() < WIN_BOUND;
        // Futility: such a node whose evaluation beats beta by a margin per
        // ply left is cut at once (before its VCF, which could only fail
        // high too).
        if quiet_null_window && eval - FUTILITY_MARGIN * depth >= beta {
            return eval;
        }
        if has_four && moves.len() > 1 && self.quick_vcf(board, NODE_VCF_NODES) {
            return WIN - ply - 3;
        }
        let mut moves = moves;
        if !forced {
            moves.truncate(WIDTH);
            self.killers_first(&mut moves, ply_index);
        }
        if let Some(tt) = tt_move
            && let Some(at) = moves.iter().position(|&m| m == tt)
        {
            moves.remove(at);
            moves.insert(0, tt);
        }
        // A forced reply, or a choice among a few, costs no depth.
        let next = if moves.len() == 1 || (forced && moves.len() <= FREE_FORCED_MOVES) {
            depth
        } else {
            depth - 1
        };
        let likely_cut = quiet_null_window && eval >= beta + FAIL_HIGH_MARGIN * depth - 9;
        let original_alpha = alpha;
        let mut best = -WIN - 1;
        let mut best_move = moves[0];
        for (i, &mv) in moves.iter().enumerate() {
            // A likely cut searches the moves that make no four a ply
            // shallower ([`FAIL_HIGH_MARGIN`]).
            let next =
                if likely_cut && next > 0 && class_of(board, mv, board.to_move()).0 < Class::Four {
                    next - 1
                } else {
                    next
                };
            board.place(mv);
            let mut score;
            if i == 0 {
                score = -self.pvs(board, next, -beta, -alpha, ply + 1);
            } else {
                // Late moves of a node that is not forced: fewer plies
                // first ([`LMR_SCALE`]).
                let reduce = if next >= 2 && !forced {
                    late_move_reduction(next, i, beta - alpha > 1)
                } else if i >= delays_from {
                    DELAYING_FOUR_REDUCTION.min(next)
                } else {
                    0
                };
                score = -self.pvs(board, next - reduce, -alpha - 1, -alpha, ply + 1);
                if score > alpha && !self.aborted {
                    score = -self.pvs(board, next, -beta, -alpha, ply + 1);
                }
            }
            board.undo();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply_index, mv);
                    if alpha >= beta {
                        if !forced {
                            self.add_killer(ply_index, mv);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(
            key,
            Entry {
                best: best_move as u16,
                score: to_table(best, ply),
                depth: depth.clamp(0, i32::from(u8::MAX)) as u8,
                bound,
            },
        );
        best
    }

    /// What the table says of the position of `key` searched to `depth`
    /// with the window `(alpha, beta)`.
    fn probe(&self, key: u64, depth: i32, alpha: i32, beta: i32, ply: i32) -> Probe {
        let Some(entry) = self.table.probe(key) else {
            return Probe::Move(None);
        };
        let score = from_table(entry.score, ply);
        if i32::from(entry.depth) >= depth {
            let cut = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cut {
                return Probe::Cut(score);
            }
        }
        Probe::Move((entry.best != u16::MAX).then_some(usize::from(entry.best)))
    }

    /// Moves this ply's killers that are in `moves` to the front, newest
    /// first.
    fn killers_first(&self, moves: &mut Vec<usize>, ply: usize) {
        let Some(killers) = self.killers.get(ply) else {
            return;
        };
        for killer in killers.iter().rev().flatten() {
            if let Some(at) = moves.iter().position(|m| m == killer) {
                let mv = moves.remove(at);
                moves.insert(0, mv);
            }
        }
    }

    /// Records `mv` as the newest killer of `ply`.
    fn add_killer(&mut self, ply: usize, mv: usize) {
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None; KILLERS]);
        }
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers.rotate_right(1);
            killers[0] = Some(mv);
        }
    }

    /// Completes `pv`, a line from `board`, to `length` moves with the
    /// table's best moves: a node the table cuts keeps no line of its own,
    /// so a search that finds its positions there (a move after a hint of
    /// the same position) would otherwise show a one-move line at every
    /// depth. The line stops at an entry without a move, an occupied
    /// point, or the end of the game.
    pub(super) fn complete_pv(&self, board: &Board, pv: &mut Vec<usize>, length: usize) {
        if pv.len() >= length {
            return;
        }
        let mut board = board.clone();
        for &mv in pv.iter() {
            if !board.is_empty(mv) || board.play_index(mv) != Status::Ongoing {
                return;
            }
        }
        while pv.len() < length {
            let Some(entry) = self.table.probe(board.hash()) else {
                return;
            };
            let mv = usize::from(entry.best);
            if !board.points().contains(&mv) || !board.is_empty(mv) {
                return;
            }
            pv.push(mv);
            if board.play_index(mv) != Status::Ongoing {
                return;
            }
        }
    }

    fn update_pv(&mut self, ply: usize, mv: usize) {
        if ply + 1 >= self.pv.len() {
            return;
        }
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend(tail[0].iter().copied());
    }

    /// A leaf: a short VCF when the side to move has fours, else the
    /// static evaluation.
    ///
    /// Stand pat: a leaf whose evaluation already reaches `beta` fails high
    /// without its VCF (a win found would only fail high too), and an inner
    /// node cut by futility skips its VCF the same way. Against the build
    /// without it (0.2 s per move, 400 games): 214-19-167, Elo +41.0 +- 33.6.
    /// A quiescence search or a VCT at the leaves cost more depth than they
    /// found ["Leaves"].
    fn leaf(&mut self, board: &mut Board, eval: i32, has_four: bool, beta: i32, ply: i32) -> i32 {
        let value = eval.clamp(-WIN_BOUND + 1, WIN_BOUND - 1);
        if value < beta && has_four && self.quick_vcf(board, NODE_VCF_NODES / 2) {
            return WIN - ply - 3;
        }
        value
    }

    /// A VCF of at most `nodes` nodes for the side to move, through a
    /// per-thread cache: a win is a win with any budget, and a failure
    /// answers any budget up to the one it had (all of them if it ran out
    /// of moves, not nodes). Node VCFs place about 90% of a search's stones, and
    /// searching without them scored Elo -10.1 +- 44.1 (0.3 s per move, 240
    /// games): what they find is worth what they cost ["VCF at the nodes"].
    fn quick_vcf(&mut self, board: &mut Board, nodes: u64) -> bool {
        let key = board.hash();
        let slot = key as usize % VCF_CACHE_ENTRIES;
        let [cached_key, info] = self.vcf_cache[slot];
        if cached_key == key && (info == VCF_WON || info >= nodes) {
            return info == VCF_WON;
        }
        let mut budget = ThreatBudget::new(nodes);
        budget.memo = std::mem::take(&mut self.vcf_memo);
        let mut line = Vec::new();
        let won = vcf(board, NODE_VCF_DEPTH, &mut budget, &mut line);
        self.vcf_memo = std::mem::take(&mut budget.memo);
        let info = if won {
            VCF_WON
        } else if budget.exhausted() {
            nodes
        } else {
            VCF_NONE
        };
        self.vcf_cache[slot] = [key, info];

        self.nodes += budget.visited / 4;
        won
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reduction grows with the depth and the move's place, is one ply
    /// less at principal-variation nodes, never touches the first move and
    /// always leaves a ply to search.
    #[test]
    fn late_move_reductions_grow_and_leave_a_ply() {
        for next in 1..40 {
            assert_eq!(late_move_reduction(next, 0, false), 0);
            for index in 1..40 {
                let r = late_move_reduction(next, index, false);
                assert!(r >= 0 && next - r >= 1, "depth {next}, move {index}: {r}");
                assert!(r >= late_move_reduction(next, index - 1, false));
                assert!(r >= late_move_reduction(next - 1, index, false));
                let pv = late_move_reduction(next, index, true);
                assert!(pv <= r && pv >= r - 1);
            }
        }
        // 0.9 * ln 8 * ln 12 = 4.63: five plies less for the 12th move at depth 8.
        assert_eq!(late_move_reduction(8, 11, false), 5);
        assert_eq!(late_move_reduction(2, 1, false), 0);
    }
}
