//! The move loops every search node shares: the principal-variation loop of
//! the root, the midgame PVS and the solver's PV search, and the null-window
//! loop of the midgame NWS and the solver. What differs between them is only
//! how a child is searched, which [`Child`] says. In a parallel search the
//! loops also share the work: a busy child is deferred (midgame searches,
//! [`crate::search::parallel`]), or the null-window loop hands moves to
//! idle threads ([`crate::search::split`]).

use crate::board::Board;
use crate::search::Search;
use crate::search::Selectivity;
use crate::search::line::Line;
use crate::search::ordering::{MoveList, Scored};
use crate::search::parallel::Busy;
use crate::search::params::{
    ENDGAME_PROBCUT_MIN_EMPTIES, PROBCUT_MIN_DEPTH, SCORE_INF, SHARE_MIN_DEPTH, SHARE_MIN_EMPTIES,
    SPLIT_MIN_DEPTH, SPLIT_MIN_EMPTIES,
};
use crate::search::split::{SplitPoint, Task};
use crate::search::tt::{EXACT_DEPTH_BASE, Hit, NO_MOVE, Record, is_exact};
use std::sync::Arc;

/// How the children of a node are searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Child {
    /// A midgame search of this many plies.
    Depth(u32),
    /// An exact solve.
    Solve,
}

/// The best score a loop found and its move ([`NO_MOVE`] when none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Best {
    pub score: i32,
    pub index: u8,
}

/// The split point of a node's move loop, made when it first hands a move
/// out to an idle thread.
struct NodeSplit {
    /// Whether the node is a principal-variation one
    /// ([`SplitPoint::principal`]).
    principal: bool,
    point: Option<Arc<SplitPoint>>,
}

impl NodeSplit {
    fn new(principal: bool) -> NodeSplit {
        NodeSplit {
            principal,
            point: None,
        }
    }
}

impl<'a> Search<'a> {
    /// Whether a table hit may settle a search of `depth` (a midgame depth
    /// or [`crate::search::tt::exact_depth`]) at this search's selectivity:
    /// it must be as deep and at least as reliable.
    #[inline]
    pub(crate) fn trusted(&self, hit: &Hit, depth: u8) -> bool {
        hit.depth >= depth && hit.selectivity >= self.step.selectivity.index()
    }

    /// Records the result `best` of searching `board` to `depth` within
    /// `window`, at this search's selectivity.
    /// Results that no cut can have reached are full width whatever the
    /// search's selectivity: solves of fewer than
    /// [`ENDGAME_PROBCUT_MIN_EMPTIES`] and midgame searches shallower than
    /// [`PROBCUT_MIN_DEPTH`]; later, less selective searches can use them.
    #[inline]
    pub(crate) fn store(&self, board: Board, depth: u8, window: (i32, i32), best: Best) {
        let beyond_cuts = if is_exact(depth) {
            u32::from(depth - EXACT_DEPTH_BASE) < ENDGAME_PROBCUT_MIN_EMPTIES
        } else {
            u32::from(depth) < PROBCUT_MIN_DEPTH
        };
        let selectivity = if beyond_cuts {
            Selectivity::NONE
        } else {
            self.step.selectivity
        };
        self.tt.store(
            board,
            Record {
                depth,
                selectivity: selectivity.index(),
                alpha: window.0,
                beta: window.1,
                score: best.score,
                best: best.index,
            },
        );
    }

    /// The busy table, when this is a parallel search and the child is big
    /// enough for its threads to share: solver children of
    /// [`SHARE_MIN_EMPTIES`] empties and more, midgame children of
    /// [`SHARE_MIN_DEPTH`] plies and more.
    #[inline]
    fn shared_child(&self, next: Board, child: Child) -> Option<&'a Busy> {
        let busy = self.busy?;
        let big = match child {
            Child::Depth(depth) => depth >= SHARE_MIN_DEPTH,
            Child::Solve => (next.empties() & self.mask).count_ones() >= SHARE_MIN_EMPTIES,
        };
        big.then_some(busy)
    }

    /// Before a child is searched: `None` when another thread is in it and
    /// the move was deferred; else the busy table to clear afterwards (if
    /// the child is shared), with the child marked in it.
    #[inline]
    fn claim(&self, list: &mut MoveList, next: Board, child: Child) -> Option<Option<&'a Busy>> {
        let Some(busy) = self.shared_child(next, child) else {
            return Some(None);
        };
        if list.may_defer() && busy.is_busy(next) {
            list.defer();
            return None;
        }
        busy.enter(next);
        Some(Some(busy))
    }

    /// Null-window search of a child: is its score above `alpha`?
    #[inline]
    pub(crate) fn child_nws(&mut self, board: Board, alpha: i32, child: Child) -> i32 {
        match child {
            Child::Depth(depth) => self.nws(board, alpha, depth),
            Child::Solve => self.solve_nws(board, alpha),
        }
    }

    /// Full-window search of a child, keeping its PV.
    #[inline]
    pub(crate) fn child_pvs(
        &mut self,
        board: Board,
        window: (i32, i32),
        child: Child,
        pv: &mut Line,
    ) -> i32 {
        match child {
            Child::Depth(depth) => self.pvs(board, window.0, window.1, depth, pv),
            Child::Solve => self.solve_pv(board, window.0, window.1, pv),
        }
    }

    /// Before a null-window loop over `list` whose children are midgame
    /// searches (they probe the table first thing), starts loading every
    /// child's bucket at once.
    ///
    /// Each probe of a shallow midgame node (the solver's Multi-ProbCut
    /// and ordering searches: FFO #53 makes 27.9 M such nodes, 18.7 M of
    /// them one ply deep) misses the cache: perf put 6.4% of FFO #53's
    /// samples on that one load, one child after another. Loaded together
    /// the misses overlap: FFO #45-52, one thread, the same 1,416,500,950
    /// nodes, side by side with the build before, three runs: 61.9 -> 60.4
    /// s, 62.8 -> 61.4 s, 63.7 -> 61.8 s (about -2.5%); perf FFO #53: the
    /// probe 6.4% -> 2.7%. The solver's children need none of this: its
    /// enhanced transposition cutoff has already probed them
    /// (`enhanced_cutoff` in `endgame.rs`).
    #[inline]
    fn prefetch_children(&self, board: Board, list: &MoveList, child: Child) {
        if let Child::Depth(depth) = child
            && depth >= 1
        {
            for mv in list.moves() {
                self.tt.prefetch(mv.play(board));
            }
        }
    }

    /// Principal-variation search over `list` within (`alpha`, `beta`): the
    /// first move with the full window, the others with a null window and,
    /// when they beat alpha, again with the full window. The best line goes
    /// to `pv`. When the search is stopped the loop returns at once, with the
    /// best of the moves searched to the end.
    pub(crate) fn pv_loop(
        &mut self,
        board: Board,
        list: &mut MoveList,
        window: (i32, i32),
        child: Child,
        pv: &mut Line,
    ) -> Best {
        let (mut alpha, beta) = window;
        let mut best = Best {
            score: -SCORE_INF,
            index: NO_MOVE,
        };
        let mut child_pv = Line::new();
        let mut split = NodeSplit::new(true);
        while let Some(mv) = list.next_best() {
            let next = mv.play(board);
            let first = list.taken() == 1;
            // Young brothers wait for the eldest; then idle threads take the
            // null-window searches of the others, while alpha is the one the
            // node split at.
            if !first
                && split
                    .point
                    .as_ref()
                    .is_none_or(|split| split.alpha == alpha)
                && self.hand_out(list, next, mv.index, alpha, child, &mut split)
            {
                continue;
            }
            let Some(shared) = self.claim(list, next, child) else {
                continue;
            };
            let score = self.pv_child(board, mv, (alpha, beta), first, child, &mut child_pv);
            if let Some(busy) = shared {
                busy.leave(next);
            }
            if self.control.is_stopped() {
                break;
            }
            if score > best.score {
                best = Best {
                    score,
                    index: mv.index,
                };
                pv.set(Some(mv.square()), &child_pv);
                alpha = alpha.max(score);
                if score >= beta {
                    break;
                }
            }
        }
        if let Some(split) = split.point {
            self.join_principal_split(board, list, &split, (alpha, beta), child, &mut best, pv);
        }
        best
    }

    /// One move of a principal-variation node: the first with the full
    /// window, the others with a null window and, when they beat alpha,
    /// again with the full window (the child's PV to `child_pv`).
    fn pv_child(
        &mut self,
        board: Board,
        mv: Scored,
        (alpha, beta): (i32, i32),
        first: bool,
        child: Child,
        child_pv: &mut Line,
    ) -> i32 {
        let next = mv.play(board);
        let entered = self.enter(board, mv, next, child);
        let mut score = if first {
            SCORE_INF
        } else {
            -self.child_nws(next, -alpha - 1, child)
        };
        if first || (score > alpha && score < beta) {
            score = -self.child_pvs(next, (-beta, -alpha), child, child_pv);
        } else {
            child_pv.clear();
        }
        self.leave(entered);
        score
    }

    /// Ends the split point of a principal-variation node whose own moves
    /// are done (`window`: its alpha now, and beta). A node already cut or
    /// stopped cuts it and waits; otherwise each handed-out move that
    /// failed low at the split's alpha counts as such, and each that beat
    /// it is searched again here, as the loop would have.
    #[allow(clippy::too_many_arguments)]
    fn join_principal_split(
        &mut self,
        board: Board,
        list: &MoveList,
        split: &Arc<SplitPoint>,
        (mut alpha, beta): (i32, i32),
        child: Child,
        best: &mut Best,
        pv: &mut Line,
    ) {
        if best.score >= beta || self.control.is_stopped() {
            split.raise_cut();
        }
        let results = self.wait_split(split);
        if split.is_cut() || self.control.is_stopped() {
            return;
        }
        let mut child_pv = Line::new();
        for (index, score) in results {
            let Some(&mv) = list.moves().iter().find(|mv| mv.index == index) else {
                continue;
            };
            let score = if score <= split.alpha {
                child_pv.clear();
                score
            } else {
                let score = self.pv_child(board, mv, (alpha, beta), false, child, &mut child_pv);
                if self.control.is_stopped() {
                    return;
                }
                score
            };
            if score > best.score {
                *best = Best { score, index };
                pv.set(Some(mv.square()), &child_pv);
                alpha = alpha.max(score);
                if score >= beta {
                    return;
                }
            }
        }
    }

    /// Null-window search over `list`: fail-soft answer to "is the score
    /// above `alpha`?", stopping at the first move that proves it. `None`
    /// when the search was stopped (or a split point above was cut). With
    /// a pool of idle threads, the node becomes a split point once its
    /// first move has failed to cut.
    pub(crate) fn nws_loop(
        &mut self,
        board: Board,
        list: &mut MoveList,
        alpha: i32,
        child: Child,
    ) -> Option<Best> {
        let mut best = Best {
            score: -SCORE_INF,
            index: NO_MOVE,
        };
        let mut split = NodeSplit::new(false);
        self.prefetch_children(board, list, child);
        while let Some(mv) = list.next_best() {
            let next = mv.play(board);
            // Young brothers wait for the eldest.
            if list.taken() > 1 && self.hand_out(list, next, mv.index, alpha, child, &mut split) {
                continue;
            }
            let Some(shared) = self.claim(list, next, child) else {
                continue;
            };
            let entered = self.enter(board, mv, next, child);
            let score = -self.child_nws(next, -alpha - 1, child);
            self.leave(entered);
            if let Some(busy) = shared {
                busy.leave(next);
            }
            if self.control.is_stopped() {
                break;
            }
            if score > best.score {
                best = Best {
                    score,
                    index: mv.index,
                };
                if score > alpha {
                    break;
                }
            }
            if split.point.as_ref().is_some_and(|split| split.is_cut()) {
                break;
            }
        }
        if let Some(split) = split.point {
            self.join_split(&split, &mut best);
        }
        if self.control.is_stopped() {
            return None;
        }
        Some(best)
    }

    /// Hands the move to `next` (of index `index`) to an idle thread, if
    /// one is idle and the child is big enough; the node becomes a split
    /// point (`split`) if it was not one yet. The last move is never handed
    /// out: the node would only wait for it.
    fn hand_out(
        &mut self,
        list: &MoveList,
        next: Board,
        index: u8,
        alpha: i32,
        child: Child,
        split: &mut NodeSplit,
    ) -> bool {
        let Some(pool) = self.pool else {
            return false;
        };
        if list.remaining() == 0 || !self.may_split(next, child) || !pool.wants_work() {
            return false;
        }
        let split = match &split.point {
            Some(point) => Arc::clone(point),
            None => {
                let new = Arc::new(if split.principal {
                    SplitPoint::principal(alpha)
                } else {
                    SplitPoint::new(alpha)
                });
                self.control.enter_split(Arc::clone(&new));
                split.point = Some(Arc::clone(&new));
                new
            }
        };
        let task = Task {
            next,
            index,
            child,
            step: self.step,
            split,
        };
        pool.offer(task).is_ok()
    }

    /// Whether the child `next` is big enough to hand to another thread.
    #[inline]
    fn may_split(&self, next: Board, child: Child) -> bool {
        match child {
            Child::Depth(depth) => depth >= SPLIT_MIN_DEPTH,
            Child::Solve => (next.empties() & self.mask).count_ones() >= SPLIT_MIN_EMPTIES,
        }
    }
}
