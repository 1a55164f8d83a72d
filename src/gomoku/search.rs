//! The gomoku search: iterative deepening PVS over candidate moves near the
//! stones, a Zobrist-keyed transposition table, forced-move pruning (a five
//! must be blocked; an open three is answered by a defence or a four), VCF
//! at every node where the side to move has a four, and VCT at the root.

use crate::Color;
use crate::gomoku::board::{Board, Point};
use crate::gomoku::threat::{Class, candidates, class_of, defences};
use crate::gomoku::vcf::{ThreatBudget, vcf, vct};
use crate::search::StopSignal;
use std::time::{Duration, Instant};

/// Score of a win now; a win found `k` plies away scores `WIN - k`.
pub const WIN: i32 = 30_000;
/// Scores beyond this are wins or losses.
pub const WIN_BOUND: i32 = 29_000;
/// Deepest iteration.
pub const MAX_DEPTH: u32 = 40;
/// Moves searched at inner nodes (best by ordering score).
const WIDTH: usize = 20;
/// How far below the horizon forced replies are still followed.
const MIN_QUIESCENCE_DEPTH: i32 = -8;
/// Fours a node's VCF tries.
const NODE_VCF_DEPTH: u32 = 12;
/// Nodes of a node's VCF.
const NODE_VCF_NODES: u64 = 200;
/// Nodes of the root's VCF.
const ROOT_VCF_NODES: u64 = 200_000;
/// Attacking moves of the root's VCT.
const ROOT_VCT_DEPTH: u32 = 6;
/// Nodes of the root's VCT.
const ROOT_VCT_NODES: u64 = 400_000;
/// Nodes between looks at the clock.
const CHECK_EVERY: u64 = 64;

/// What bounds a search.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration (default [`MAX_DEPTH`]).
    pub depth: Option<u32>,
    /// Stop at once at this time.
    pub deadline: Option<Instant>,
    /// Start no new iteration after this time.
    pub soft_deadline: Option<Instant>,
    /// Stop after this many nodes (checked every few hundred); also caps
    /// the root's VCF and VCT.
    pub nodes: Option<u64>,
    /// Whether to run VCT at the root.
    pub vct: bool,
    /// Whether to score every root move with a full window (for self-play
    /// policies; see [`SearchResult::root_scores`]) rather than prove the
    /// other moves worse than the best with null windows.
    pub score_root: bool,
}

impl Limits {
    /// Limits for a turn of `budget`: a hard deadline at the budget, no new
    /// iteration after 40% of it.
    pub fn for_time(budget: Duration) -> Limits {
        let now = Instant::now();
        Limits {
            depth: None,
            deadline: Some(now + budget),
            soft_deadline: Some(now + budget.mul_f64(0.4)),
            nodes: None,
            vct: true,
            score_root: false,
        }
    }
}

/// Progress: one line per finished iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub depth: u32,
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Point>,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// `None` only when the board is full.
    pub best: Option<Point>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Point>,
    /// How the move was found.
    pub source: Source,
    /// With [`Limits::score_root`], each root move's score from the deepest
    /// iteration that reached it (a move not reached by an interrupted
    /// iteration keeps its score of the one before), in the order searched;
    /// empty when no iteration ran (a forced move, a VCF or VCT win).
    pub root_scores: Vec<(Point, i32)>,
}

/// What decided the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Forced,
    Vcf,
    Vct,
    Search,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    best: u16,
    score: i32,
    depth: i16,
    bound: Bound,
}

const EMPTY_ENTRY: Entry = Entry {
    key: 0,
    best: u16::MAX,
    score: 0,
    depth: -1,
    bound: Bound::Upper,
};

/// The transposition table: one entry per slot, replaced when the new
/// entry is at least as deep or from another position.
pub struct Table {
    entries: Vec<Entry>,
}

impl Table {
    pub fn new(mib: usize) -> Table {
        Table {
            entries: vec![EMPTY_ENTRY; Table::entries_for(mib)],
        }
    }

    /// Entries of a table of `mib` MiB: a power of two, at most that size.
    fn entries_for(mib: usize) -> usize {
        let wanted = (mib.max(1) << 20) / std::mem::size_of::<Entry>();
        (wanted.next_power_of_two() / 2).max(1024)
    }

    pub fn clear(&mut self) {
        self.entries.fill(EMPTY_ENTRY);
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.entries.len() - 1)
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let entry = self.entries[self.slot(key)];
        (entry.key == key && entry.depth >= 0).then_some(entry)
    }

    fn store(&mut self, key: u64, entry: Entry) {
        let slot = self.slot(key);
        let old = self.entries[slot];
        if old.key != key || entry.depth >= old.depth || entry.bound == Bound::Exact {
            self.entries[slot] = Entry { key, ..entry };
        }
    }
}

/// A win or loss score stored relative to the node.
fn to_table(score: i32, ply: i32) -> i32 {
    if score > WIN_BOUND {
        score + ply
    } else if score < -WIN_BOUND {
        score - ply
    } else {
        score
    }
}

fn from_table(score: i32, ply: i32) -> i32 {
    if score > WIN_BOUND {
        score - ply
    } else if score < -WIN_BOUND {
        score + ply
    } else {
        score
    }
}

/// The moves of a node.
enum Moves {
    /// The side to move makes five here.
    Win(usize),
    /// The side to move makes an open four here (two five points) and the
    /// opponent has no five: a win in three plies.
    OpenFour(usize),
    /// The opponent wins whatever happens (two fives, or the one block is
    /// forbidden).
    Lost,
    /// Moves in order, and whether they are forced.
    List(Vec<usize>, bool),
}

/// The position's moves for the side to move with their ordering, and the
/// static evaluation as a by-product.
fn generate(board: &mut Board) -> (Moves, i32, bool) {
    let me = board.to_move();
    let them = me.opponent();
    let cells = candidates(board);
    let mut scored = Vec::with_capacity(cells.len());
    let mut their_fives = Vec::new();
    let mut their_threats = Vec::new();
    let mut my_fours = Vec::new();
    let mut my_best = (Class::Quiet, 0);
    let mut their_best = Class::Quiet;
    let mut eval = 0;
    for &cell in &cells {
        let (mine, my_value) = class_of(board, cell, me);
        if mine == Class::Five {
            return (Moves::Win(cell), WIN, true);
        }
        let (theirs, their_value) = class_of(board, cell, them);
        match theirs {
            Class::Five => their_fives.push(cell),
            Class::FlexFour => their_threats.push(cell),
            _ => {}
        }
        if mine >= Class::Four {
            my_fours.push(cell);
        }
        if mine > my_best.0 {
            my_best = (mine, cell);
        }
        their_best = their_best.max(theirs);
        eval += my_value - their_value;
        let legal = me == Color::White
            || board.rule() != crate::gomoku::Rule::Renju
            || !board.is_forbidden(cell);
        if legal {
            scored.push((my_value + their_value * 4 / 5, cell));
        }
    }
    let has_four = !my_fours.is_empty();
    let their_four = their_best >= Class::Four;
    let mut eval = eval / 4;
    // Threats the static sum cannot see: the side to move plays first.
    if their_fives.is_empty() {
        if my_best.0 == Class::FlexFour {
            return (Moves::OpenFour(my_best.1), WIN, true);
        }
        if my_best.0 == Class::FourThree && !their_four {
            eval += 3_000;
        } else if my_best.0 == Class::DoubleThree && !their_four && their_threats.is_empty() {
            eval += 1_500;
        } else if their_best >= Class::DoubleThree && my_best.0 < Class::Three {
            eval -= 600;
        }
    }
    if their_fives.len() >= 2 {
        return (Moves::Lost, -WIN, has_four);
    }
    if let Some(&block) = their_fives.first() {
        if !scored.iter().any(|&(_, c)| c == block) {
            return (Moves::Lost, -WIN, has_four);
        }
        return (Moves::List(vec![block], true), eval, has_four);
    }
    scored.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    if !their_threats.is_empty() {
        let mut forced = defences(board, &their_threats);
        forced.extend(my_fours);
        if !forced.is_empty() {
            let moves = scored
                .iter()
                .map(|&(_, c)| c)
                .filter(|c| forced.contains(c))
                .collect::<Vec<_>>();
            if !moves.is_empty() {
                return (Moves::List(moves, true), eval, has_four);
            }
        }
    }
    if scored.is_empty() {
        return (Moves::List(Vec::new(), false), 0, has_four);
    }
    (
        Moves::List(scored.into_iter().map(|(_, c)| c).collect(), false),
        eval,
        has_four,
    )
}

/// The search with its table; one per engine.
pub struct Searcher {
    table: Table,
    nodes: u64,
    limits: Limits,
    stop: StopSignal,
    aborted: bool,
    pv: Vec<Vec<usize>>,
}

impl Searcher {
    pub fn new(hash_mib: usize) -> Searcher {
        Searcher {
            table: Table::new(hash_mib),
            nodes: 0,
            limits: Limits::default(),
            stop: StopSignal::new(),
            aborted: false,
            pv: Vec::new(),
        }
    }

    /// Empties the transposition table (`yxhashclear`).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Resizes the table (drops its content), unless it has that size
    /// already: a manager sends `INFO max_memory` before every game, and a
    /// new table of hundreds of MiB would cost the first move its time.
    pub fn resize(&mut self, hash_mib: usize) {
        if Table::entries_for(hash_mib) != self.table.entries.len() {
            self.table = Table::new(hash_mib);
        }
    }

    /// Searches the side to move's best move. `progress` hears each finished
    /// iteration.
    pub fn search(
        &mut self,
        position: &Board,
        limits: &Limits,
        stop: &StopSignal,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        let started = Instant::now();
        let mut board = position.clone();
        self.nodes = 0;
        self.limits = limits.clone();
        self.stop = stop.clone();
        self.aborted = false;
        let done =
            |best: Option<usize>, score, depth, nodes, pv: Vec<usize>, source| SearchResult {
                best: best.map(Point::from_index),
                score,
                depth,
                nodes,
                elapsed: started.elapsed(),
                pv: pv.into_iter().map(Point::from_index).collect(),
                source,
                root_scores: Vec::new(),
            };
        let (moves, _, _) = generate(&mut board);
        let (root_moves, forced) = match moves {
            Moves::Win(cell) => return done(Some(cell), WIN - 1, 1, 1, vec![cell], Source::Forced),
            Moves::OpenFour(cell) => {
                return done(Some(cell), WIN - 3, 3, 1, vec![cell], Source::Forced);
            }
            Moves::Lost => {
                let any = candidates(&board)
                    .into_iter()
                    .find(|&c| crate::gomoku::threat::is_legal(&board, c, board.to_move()))
                    .or_else(|| candidates(&board).first().copied());
                // Block a five if we can, even when lost.
                let block = crate::gomoku::threat::fives(&board, board.to_move().opponent())
                    .into_iter()
                    .find(|&c| crate::gomoku::threat::is_legal(&board, c, board.to_move()));
                let mv = block.or(any);
                return done(mv, -WIN + 2, 1, 1, mv.into_iter().collect(), Source::Forced);
            }
            Moves::List(list, forced) => (list, forced),
        };
        if root_moves.is_empty() {
            return done(None, 0, 0, 0, Vec::new(), Source::Forced);
        }
        if root_moves.len() == 1 {
            let mv = root_moves[0];
            return done(Some(mv), 0, 1, 1, vec![mv], Source::Forced);
        }
        let instant = limits.depth == Some(0);
        if instant {
            return done(
                Some(root_moves[0]),
                0,
                0,
                1,
                vec![root_moves[0]],
                Source::Forced,
            );
        }
        // Threat searches first, within the node budget if there is one.
        let threat_nodes = |most: u64| limits.nodes.map_or(most, |n| n.min(most));
        let mut budget =
            ThreatBudget::with_limits(threat_nodes(ROOT_VCF_NODES), stop.clone(), limits.deadline);
        let mut line = Vec::new();
        if vcf(&mut board, 30, &mut budget, &mut line) && !line.is_empty() {
            let nodes = budget.visited;
            return done(
                Some(line[0]),
                WIN - line.len() as i32,
                line.len() as u32,
                nodes,
                line,
                Source::Vcf,
            );
        }
        self.nodes += budget.visited;
        if limits.vct && !forced {
            let vct_deadline = limits.deadline.map(|d| {
                let now = Instant::now();
                now + d.saturating_duration_since(now).mul_f64(0.3)
            });
            let mut budget =
                ThreatBudget::with_limits(threat_nodes(ROOT_VCT_NODES), stop.clone(), vct_deadline);
            let found = vct(&mut board, ROOT_VCT_DEPTH, &mut budget);
            self.nodes += budget.visited;
            if let Some(mv) = found {
                return done(
                    Some(mv),
                    WIN_BOUND + 1,
                    0,
                    self.nodes,
                    vec![mv],
                    Source::Vct,
                );
            }
        }
        self.iterate(&mut board, root_moves, started, progress, done)
    }

    fn iterate(
        &mut self,
        board: &mut Board,
        mut root_moves: Vec<usize>,
        started: Instant,
        progress: &mut dyn FnMut(&Progress),
        done: impl Fn(Option<usize>, i32, u32, u64, Vec<usize>, Source) -> SearchResult,
    ) -> SearchResult {
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut best = root_moves[0];
        let mut best_score = 0;
        let mut best_pv = vec![best];
        let mut reached = 0;
        let mut root_scores: Vec<(usize, i32)> = Vec::new();
        for depth in 1..=max_depth {
            self.pv = vec![Vec::new(); depth as usize + 64];
            let mut alpha = -WIN - 1;
            let beta = WIN + 1;
            let mut iteration_best = None;
            for (i, &mv) in root_moves.iter().enumerate() {
                board.place(mv);
                let score = if self.limits.score_root {
                    -self.pvs(board, depth as i32 - 1, -WIN - 1, WIN + 1, 1)
                } else if i == 0 {
                    -self.pvs(board, depth as i32 - 1, -beta, -alpha, 1)
                } else {
                    let probe = -self.pvs(board, depth as i32 - 1, -alpha - 1, -alpha, 1);
                    if probe > alpha && !self.aborted {
                        -self.pvs(board, depth as i32 - 1, -beta, -alpha, 1)
                    } else {
                        probe
                    }
                };
                board.undo();
                if self.aborted {
                    break;
                }
                if self.limits.score_root {
                    match root_scores.iter_mut().find(|(m, _)| *m == mv) {
                        Some(entry) => entry.1 = score,
                        None => root_scores.push((mv, score)),
                    }
                }
                if score > alpha {
                    alpha = score;
                    let mut pv = vec![mv];
                    pv.extend(self.pv[1].iter().copied());
                    iteration_best = Some((mv, score, pv));
                }
            }
            if let Some((mv, score, pv)) = iteration_best
                && (!self.aborted || score > best_score || mv == best)
            {
                best = mv;
                best_score = score;
                best_pv = pv;
                if !self.aborted {
                    reached = depth;
                }
            }
            if self.aborted {
                break;
            }
            progress(&Progress {
                depth,
                score: best_score,
                nodes: self.nodes,
                elapsed: started.elapsed(),
                pv: best_pv.iter().copied().map(Point::from_index).collect(),
            });
            // The best move first next time.
            if let Some(at) = root_moves.iter().position(|&m| m == best) {
                let mv = root_moves.remove(at);
                root_moves.insert(0, mv);
            }
            if best_score.abs() > WIN_BOUND
                || self
                    .limits
                    .soft_deadline
                    .is_some_and(|soft| Instant::now() >= soft)
            {
                break;
            }
        }
        let mut result = done(
            Some(best),
            best_score,
            reached,
            self.nodes,
            best_pv,
            Source::Search,
        );
        result.root_scores = root_scores
            .into_iter()
            .map(|(mv, score)| (Point::from_index(mv), score))
            .collect();
        result
    }

    fn out_of_time(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            let late = self.limits.deadline.is_some_and(|d| Instant::now() >= d);
            let full = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            self.aborted = late || full || self.stop.is_stopped();
        }
        self.aborted
    }

    fn pvs(&mut self, board: &mut Board, depth: i32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
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
        let (moves, eval, has_four) = generate(board);
        let (moves, forced) = match moves {
            Moves::Win(_) => return WIN - ply - 1,
            Moves::OpenFour(_) => return WIN - ply - 3,
            Moves::Lost => return -(WIN - ply - 2),
            Moves::List(moves, forced) => (moves, forced),
        };
        if moves.is_empty() {
            return 0;
        }
        if depth <= 0 && (!forced || depth < MIN_QUIESCENCE_DEPTH) {
            return self.leaf(board, eval, has_four, ply);
        }
        let key = board.hash();
        let mut tt_move = None;
        if let Some(entry) = self.table.probe(key) {
            let score = from_table(entry.score, ply);
            if i32::from(entry.depth) >= depth {
                let cut = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    return score;
                }
            }
            if entry.best != u16::MAX {
                tt_move = Some(usize::from(entry.best));
            }
        }
        if has_four && moves.len() > 1 && self.quick_vcf(board, NODE_VCF_NODES) {
            return WIN - ply - 3;
        }
        let mut moves = moves;
        if !forced {
            moves.truncate(WIDTH);
        }
        if let Some(tt) = tt_move
            && let Some(at) = moves.iter().position(|&m| m == tt)
        {
            moves.remove(at);
            moves.insert(0, tt);
        }
        // A forced reply costs no depth.
        let next = if moves.len() == 1 { depth } else { depth - 1 };
        let original_alpha = alpha;
        let mut best = -WIN - 1;
        let mut best_move = moves[0];
        for (i, &mv) in moves.iter().enumerate() {
            board.place(mv);
            let mut score;
            if i == 0 {
                score = -self.pvs(board, next, -beta, -alpha, ply + 1);
            } else {
                // Late moves: one ply less first.
                let reduce = if i >= 6 && next >= 2 && !forced { 1 } else { 0 };
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
                key,
                best: best_move as u16,
                score: to_table(best, ply),
                depth: depth.max(0) as i16,
                bound,
            },
        );
        best
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
    fn leaf(&mut self, board: &mut Board, eval: i32, has_four: bool, ply: i32) -> i32 {
        if has_four && self.quick_vcf(board, NODE_VCF_NODES / 2) {
            return WIN - ply - 3;
        }
        eval.clamp(-WIN_BOUND + 1, WIN_BOUND - 1)
    }

    fn quick_vcf(&mut self, board: &mut Board, nodes: u64) -> bool {
        let mut budget = ThreatBudget::new(nodes);
        let mut line = Vec::new();
        let won = vcf(board, NODE_VCF_DEPTH, &mut budget, &mut line);
        self.nodes += budget.visited / 4;
        won
    }
}
