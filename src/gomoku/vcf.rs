//! Threat-space searches for the side to move: VCF (victory by continuous
//! fours: every attacking move is a four, so every reply is forced) and
//! VCT (continuous threats: fours and open threes; the defender may answer
//! a three with any defence or a four of its own).
//!
//! Both are exact about the moves they consider: a reported win is a real
//! forced win (the defender's every answer is tried), but a failure only
//! means none was found within the budget.

use crate::Color;
use crate::core::StopSignal;
use crate::gomoku::board::{Board, DIRECTIONS, STRIDE, Threats};
use crate::gomoku::threat::Class;
use crate::gomoku::threat::{class_of, defences, fives, is_legal, open_four_points};
use rustc_hash::FxHashMap;
use std::time::Instant;

/// Limits of a threat search.
#[derive(Clone, Debug)]
pub struct ThreatBudget {
    /// Nodes left.
    pub nodes: u64,
    /// Nodes visited.
    pub visited: u64,
    /// Raised: give up.
    pub stop: Option<StopSignal>,
    /// Give up at this time.
    pub deadline: Option<Instant>,
    stopped: bool,
    /// Positions (attacker to move) where a VCF failed without running out
    /// of budget, and the fours it had: see [`VcfMemo`].
    pub memo: VcfMemo,
}

/// A direct-mapped table of the attacker's positions where a VCF found no
/// win in `depth` fours with budget to spare: a VCF is a function of the
/// position, so such a position fails again at that depth or less, in
/// this search or any later one. (A failure that ran out of budget is not
/// recorded: a bigger budget may still win there.) Since the VCF tries
/// only the fours near the attacker's last stone (see [`vcf`]), a
/// failure is the position's with the last stone that reached it, and
/// the memo may miss a win another way there would have found.
///
/// The same fours played in another order reach the same position, and
/// the node VCFs of a search meet the same positions again and again.
/// With a memo of 2^16 slots per search thread, `bench --game gomoku`
/// (depth 8, with the late-move reductions of the build before) visited
/// 6.96 M VCF nodes instead of about 15.1 M, and ran out of budget in
/// 13 K node VCFs instead of about 75 K (12 positions, 6.5 s against
/// 7.0 s). The search's node VCFs use it, and [`vct`] (with one of its
/// own when its budget brings none, as the root's does; measured at
/// `VctMemo`); the root's VCF has none ([`ThreatBudget::memo`] is empty
/// otherwise).
#[derive(Clone, Debug, Default)]
pub struct VcfMemo {
    /// `[key, depth]` per slot; empty (no slots) means no memo.
    slots: Vec<[u64; 2]>,
    /// The storage of each depth's list of fours, kept from one VCF to the
    /// next so that a node allocates nothing ([`vcf_inner`]).
    lists: Vec<Vec<(i32, usize)>>,
}

impl VcfMemo {
    /// A memo of `2^bits` slots.
    pub fn with_bits(bits: u32) -> VcfMemo {
        VcfMemo {
            slots: vec![[0; 2]; 1 << bits],
            lists: Vec::new(),
        }
    }

    fn failed(&self, key: u64, depth: u32) -> bool {
        if self.slots.is_empty() {
            return false;
        }
        let [k, d] = self.slots[key as usize & (self.slots.len() - 1)];
        k == key && d >= u64::from(depth)
    }

    /// The (empty) list storage of `depth`, to be handed back with
    /// [`VcfMemo::put_list`].
    fn take_list(&mut self, depth: u32) -> Vec<(i32, usize)> {
        let depth = depth as usize;
        if self.lists.len() <= depth {
            self.lists.resize_with(depth + 1, Vec::new);
        }
        std::mem::take(&mut self.lists[depth])
    }

    fn put_list(&mut self, depth: u32, mut list: Vec<(i32, usize)>) {
        list.clear();
        self.lists[depth as usize] = list;
    }

    fn record(&mut self, key: u64, depth: u32) {
        if self.slots.is_empty() {
            return;
        }
        let len = self.slots.len();
        self.slots[key as usize & (len - 1)] = [key, u64::from(depth)];
    }
}

impl ThreatBudget {
    pub fn new(nodes: u64) -> ThreatBudget {
        ThreatBudget {
            nodes,
            visited: 0,
            stop: None,
            deadline: None,
            stopped: false,
            memo: VcfMemo::default(),
        }
    }

    /// A budget that also ends at `deadline` or when `stop` is raised.
    pub fn with_limits(nodes: u64, stop: StopSignal, deadline: Option<Instant>) -> ThreatBudget {
        ThreatBudget {
            stop: Some(stop),
            deadline,
            ..ThreatBudget::new(nodes)
        }
    }

    /// Whether the budget ran out (time, stop or nodes).
    pub fn exhausted(&self) -> bool {
        self.stopped || self.nodes == 0
    }

    fn spend(&mut self) -> bool {
        self.visited += 1;
        if self.nodes == 0 || self.stopped {
            return false;
        }
        self.nodes -= 1;
        if self.visited.is_multiple_of(32) {
            let stop = self.stop.as_ref().is_some_and(|s| s.is_stopped());
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            self.stopped = stop || late;
        }
        !self.stopped
    }
}

/// Cells where `color` makes a four (or five) it may play, best first.
fn four_moves(board: &Board, color: Color) -> Vec<usize> {
    let mut moves = Vec::new();
    push_four_moves(board, color, None, &mut moves);
    moves.into_iter().map(|(_, i)| i).collect()
}

/// [`four_moves`] into `moves` with their sort keys (minus the value, so
/// that the best come first); with `near`, only those on a line through
/// its stone within its reach ([`vcf_inner`]), left out before they are
/// classified. The lists are short (two or three fours on
/// average at a node VCF's nodes), and a plain insertion sort of them costs
/// less than the library's sort (measured with
/// [`crate::gomoku::threat::classes_of`]).
fn push_four_moves(
    board: &Board,
    color: Color,
    near: Option<(usize, usize)>,
    moves: &mut Vec<(i32, usize)>,
) {
    for i in board.flagged_cells(color, Threats::FOUR) {
        if near.is_some_and(|(stone, reach)| !on_a_line_within(i, stone, reach)) {
            continue;
        }
        let (class, value) = class_of(board, i, color);
        if class < Class::Four {
            continue;
        }
        let key = (-value, i);
        let mut at = moves.len();
        moves.push(key);
        while at > 0 && moves[at - 1] > key {
            moves[at] = moves[at - 1];
            at -= 1;
        }
        moves[at] = key;
    }
}

/// Five points of one side: how many, and the first in index order (the
/// only one a search needs: with two or more, the side wins or the
/// opponent has lost).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FivePoints {
    count: usize,
    first: usize,
}

impl FivePoints {
    /// The five points of `color` anywhere on the board.
    fn of(board: &Board, color: Color) -> FivePoints {
        let mut cells = board.flagged_cells(color, Threats::FIVE);
        let first = cells.next().unwrap_or(usize::MAX);
        FivePoints {
            count: usize::from(first != usize::MAX) + cells.count(),
            first,
        }
    }
}

/// The five points of `color` on the lines through its stone at `index`,
/// just placed, when `color` had none before: each is new, so it lies on a
/// line where the stone made a four. Only those lines are scanned. (Each
/// cell lies on one line through `index` at most, so none is counted
/// twice; occupied cells and walls carry no threat flags.)
///
/// The scan of all four lines through the iterator of their empty cells
/// took 13% of a search's time. callgrind, `bench --game gomoku`: at
/// depth 7, 82.72 G instructions with that scan, 82.30 G scanning every
/// line's flag bytes; at depth 6, 42.18 G with that scan, 37.32 G scanning
/// only the lines of a four.
fn fives_around(board: &Board, index: usize, color: Color) -> FivePoints {
    let r = board.n() as isize;
    let mut found = FivePoints {
        count: 0,
        first: usize::MAX,
    };
    for (d, step) in DIRECTIONS.into_iter().enumerate() {
        if !board.made(index, d, color).is_four() {
            continue;
        }
        for k in (-r..0).chain(1..=r) {
            let at = (index as isize + k * step) as usize;
            if board.makes_five(at, color) {
                found.count += 1;
                found.first = found.first.min(at);
            }
        }
    }
    found
}

/// Whether `a` and `b` lie on one line (row, column or diagonal) at most
/// `reach` cells apart.
fn on_a_line_within(a: usize, b: usize, reach: usize) -> bool {
    let (dx, dy) = (
        (a % STRIDE).abs_diff(b % STRIDE),
        (a / STRIDE).abs_diff(b / STRIDE),
    );
    (dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= reach
}

/// VCF for the side to move within `depth` fours. On success `line` holds
/// the winning sequence (attacker and defender moves alternating).
/// Below the first four only the fours on the lines through the attacker's
/// last stone, at most `n - 1` cells from it, are tried: a failure may miss
/// a win, a win is always real.
pub fn vcf(
    board: &mut Board,
    depth: u32,
    budget: &mut ThreatBudget,
    line: &mut Vec<usize>,
) -> bool {
    let me = board.to_move();
    if let Some(five) = board.flagged_cells(me, Threats::FIVE).next() {
        line.push(five);
        return true;
    }
    let their_fives = FivePoints::of(board, me.opponent());
    vcf_inner(board, depth, budget, line, their_fives, None)
}

/// VCF below the first move: the attacker has no five (each of its fours
/// was blocked), and the defender's five points are `their_fives`.
///
/// Below the first four, only the fours on the lines through the
/// attacker's `last` stone, at most `n - 1` cells from it, are tried: a
/// four that does not touch it could have been played before it, and the
/// search tried that order already (unless the block of one four spoils
/// the other, or a four made in between needed both: wins this misses,
/// and a win found is still a real one). The memo keeps the position's
/// failure whatever the last stone was, so that it too may miss a win,
/// never report one. Against Rapfi capped at 10,000 nodes a move: 57.4%
/// against 49.3% for all the fours (400 games each), the search going
/// deeper for the nodes the VCFs save (`docs/trials/gomoku.md`, "VCF and
/// VCT").
fn vcf_inner(
    board: &mut Board,
    depth: u32,
    budget: &mut ThreatBudget,
    line: &mut Vec<usize>,
    their_fives: FivePoints,
    last: Option<usize>,
) -> bool {
    // Out of depth, or a failure the memo knows: no win, and no need to
    // list the fours (the same answer as below, found without the scan).
    let key = board.hash();
    if depth == 0 || budget.memo.failed(key, depth) {
        return false;
    }
    let me = board.to_move();
    // The list's storage comes from the memo and goes back to it, so that
    // a node allocates nothing. callgrind, `scripts/gomoku-profile.sh` (20
    // middle-game positions, 30,000 nodes each): 10.98 G -> 10.93 G
    // instructions (the same searches); malloc and free were 2-3% of the
    // time in perf.
    let moves = match their_fives.count {
        0 => {
            let mut moves = budget.memo.take_list(depth);
            let near = last.map(|stone| (stone, board.n() - 1));
            push_four_moves(board, me, near, &mut moves);
            moves
        }
        1 => {
            let block = their_fives.first;
            let four = (0..4).any(|d| board.pattern(block, d, me).is_four());
            if !four || !is_legal(board, block, me) {
                return false;
            }
            let mut moves = budget.memo.take_list(depth);
            moves.push((0, block));
            moves
        }
        _ => return false,
    };
    let won = vcf_moves(board, depth, budget, line, &moves);
    budget.memo.put_list(depth, moves);
    if !won && !budget.exhausted() {
        budget.memo.record(key, depth);
    }
    won
}

/// The attacker's `moves` (fours, or the block of the defender's four
/// that makes one) of a [`vcf_inner`] node: whether one wins.
fn vcf_moves(
    board: &mut Board,
    depth: u32,
    budget: &mut ThreatBudget,
    line: &mut Vec<usize>,
    moves: &[(i32, usize)],
) -> bool {
    let me = board.to_move();
    let them = me.opponent();
    for &(_, mv) in moves {
        if !budget.spend() {
            return false;
        }
        board.place_unneared(mv);
        let wins = fives_around(board, mv, me);
        let won = match wins.count {
            0 => false,
            1 => {
                let block = wins.first;
                if !is_legal(board, block, them) {
                    line.extend([mv, block]);
                    board.undo_unneared();
                    return true;
                }
                board.place_unneared(block);
                // The defender's five points: only new ones, through its
                // block (an old one was this four's only possible move).
                let their_next = fives_around(board, block, them);
                let mut rest = Vec::new();
                let won = vcf_inner(board, depth - 1, budget, &mut rest, their_next, Some(mv));
                board.undo_unneared();
                if won {
                    line.extend([mv, block]);
                    line.extend(rest);
                }
                won
            }
            _ => {
                // Two winning points; the defender has no five (checked above).
                line.extend([mv, wins.first]);
                true
            }
        };
        board.undo_unneared();
        if won {
            return true;
        }
    }
    false
}

/// Fours a VCT tries at each of its nodes.
pub const VCT_VCF_DEPTH: u32 = 8;

/// VCT for the side to move within `depth` attacking moves: the first move
/// of a forced win by fours and open threes, if one is found. It keeps
/// its attack nodes' results (`VctMemo`), and its VCFs' failures in the
/// budget's VCF memo, or in one of its own when the budget brings none.
///
/// It deepens one attacking move at a time, so that a short win is found
/// before the budget goes into long lines that fail, and its attacking
/// moves are the fours as well as the open threes (a four that makes no
/// winning VCF of its own may still gain the tempo a later three needs).
/// Against the VCT before (all at once, open threes alone), it finds 273
/// against 218 of 300 leaves Rapfi scores as won (4 attacking moves,
/// 20,000 nodes), and as the root's VCT scored 198-20-182, Elo +13.9 +-
/// 33.3 (0.2 s a move, 400 games; `docs/trials/gomoku.md`, "VCF and VCT").
pub fn vct(board: &mut Board, depth: u32, budget: &mut ThreatBudget) -> Option<usize> {
    let own_vcf_memo = budget.memo.slots.is_empty();
    if own_vcf_memo {
        budget.memo = VcfMemo::with_bits(VCT_VCF_MEMO_BITS);
    }
    let found = deepen(board, depth, budget, &mut VctMemo::new());
    if own_vcf_memo {
        budget.memo = VcfMemo::default();
    }
    found
}

/// Slots of the VCF memo a [`vct`] uses when its budget brings none (the
/// root's VCT; 16 bytes each).
const VCT_VCF_MEMO_BITS: u32 = 16;

/// [`vct`] with the VCF memo of `budget` as it is and the VCT memo `memo`.
fn deepen(
    board: &mut Board,
    depth: u32,
    budget: &mut ThreatBudget,
    memo: &mut VctMemo,
) -> Option<usize> {
    for depth in 1..=depth {
        if let Some(mv) = attack(board, depth, budget, memo) {
            return Some(mv);
        }
        if budget.exhausted() {
            break;
        }
    }
    None
}

/// A [`vct`]'s attack nodes by position key (the attacker to move): those
/// won within a depth, with the winning move, and those where no win was
/// found within a depth with budget to spare. A node's result is a
/// function of its position and depth, and is monotone in the depth (a
/// deeper search tries every line of a shallower one), so a win holds at
/// any depth as deep and a failure at any depth as shallow. The same
/// threats played in another order reach the same positions, and each
/// deepening step meets again the wins of the step before. (Its VCFs read
/// the VCF memo, which may miss a win the same VCF elsewhere finds; a
/// failure here may then miss one too, as the VCF's does. A win is always
/// real.) It holds at most an entry per node the budget allows (the
/// root's 400,000: some 20 MB at most), and lives for one [`vct`].
///
/// On 4,081 positions of games against Rapfi (6 attacking moves, 100,000
/// nodes each), both memos found 787 wins against 732 in 175.5 M nodes
/// against 225.2 M; `bench --game gomoku` took 1,178,253 nodes against
/// 1,892,147 (`docs/trials/gomoku.md`, "VCF and VCT").
struct VctMemo {
    /// Off: nothing is kept (for the tests, as the oracle of the memo).
    on: bool,
    failed: FxHashMap<u64, u32>,
    won: FxHashMap<u64, (u32, usize)>,
}

impl VctMemo {
    fn new() -> VctMemo {
        VctMemo {
            on: true,
            failed: FxHashMap::default(),
            won: FxHashMap::default(),
        }
    }

    /// What is known of the node `key` at `depth`: `Some(Some(move))` won,
    /// `Some(None)` failed, `None` not known.
    fn known(&self, key: u64, depth: u32) -> Option<Option<usize>> {
        if let Some(&(won_at, mv)) = self.won.get(&key)
            && won_at <= depth
        {
            return Some(Some(mv));
        }
        if self
            .failed
            .get(&key)
            .is_some_and(|&failed_at| failed_at >= depth)
        {
            return Some(None);
        }
        None
    }

    fn record(&mut self, key: u64, depth: u32, found: Option<usize>) {
        if !self.on {
            return;
        }
        match found {
            Some(mv) => {
                let entry = self.won.entry(key).or_insert((depth, mv));
                if depth < entry.0 {
                    *entry = (depth, mv);
                }
            }
            None => {
                let entry = self.failed.entry(key).or_insert(depth);
                *entry = (*entry).max(depth);
            }
        }
    }
}

/// Attacker to move: a move after which every defence loses, through the
/// memo.
fn attack(
    board: &mut Board,
    depth: u32,
    budget: &mut ThreatBudget,
    memo: &mut VctMemo,
) -> Option<usize> {
    let key = board.hash();
    if let Some(known) = memo.known(key, depth) {
        return known;
    }
    let found = try_attacks(board, depth, budget, memo);
    // A failure that ran out of budget is not one: more budget may win.
    if found.is_some() || !budget.exhausted() {
        memo.record(key, depth, found);
    }
    found
}

/// Attacker to move: a move after which every defence loses (the memo
/// not consulted at this node).
fn try_attacks(
    board: &mut Board,
    depth: u32,
    budget: &mut ThreatBudget,
    memo: &mut VctMemo,
) -> Option<usize> {
    let me = board.to_move();
    let them = me.opponent();
    let mut line = Vec::new();
    if vcf(board, VCT_VCF_DEPTH, budget, &mut line) {
        return line.first().copied();
    }
    let their_fives = fives(board, them);
    match their_fives.len() {
        0 => {}
        1 => {
            // The defender's counter-four: block it, and the defender must
            // still answer the threats on the board.
            let block = their_fives[0];
            if !is_legal(board, block, me) || !budget.spend() {
                return None;
            }
            board.place(block);
            let won = defend(board, depth, budget, memo);
            board.undo();
            return won.then_some(block);
        }
        _ => return None,
    }
    if depth == 0 {
        return None;
    }
    // The attacker's fours and open threes (a four alone did not win by
    // the VCF above, but it may set up a three).
    let mut moves: Vec<(i32, usize)> = board
        .flagged_cells(me, Threats::FLEX3 | Threats::FOUR)
        .filter_map(|i| {
            let (class, value) = class_of(board, i, me);
            (class >= Class::Three).then_some((-value, i))
        })
        .collect();
    moves.sort_unstable();
    for (_, mv) in moves {
        if !budget.spend() {
            return None;
        }
        board.place(mv);
        let won = defend(board, depth - 1, budget, memo);
        board.undo();
        if won {
            return Some(mv);
        }
    }
    None
}

/// Defender to move after an attacker's three or four: whether every answer
/// loses.
fn defend(board: &mut Board, depth: u32, budget: &mut ThreatBudget, memo: &mut VctMemo) -> bool {
    let me = board.to_move();
    let attacker = me.opponent();
    if !fives(board, me).is_empty() {
        return false;
    }
    let attacker_fives = fives(board, attacker);
    match attacker_fives.len() {
        0 => {}
        1 => {
            let block = attacker_fives[0];
            if !is_legal(board, block, me) {
                return true;
            }
            if !budget.spend() {
                return false;
            }
            board.place(block);
            let won = attack(board, depth, budget, memo).is_some();
            board.undo();
            return won;
        }
        _ => return true,
    }
    let points = open_four_points(board, attacker);
    if points.is_empty() {
        return false;
    }
    let mut answers = defences(board, &points);
    answers.extend(four_moves(board, me));
    answers.sort_unstable();
    answers.dedup();
    for answer in answers {
        if !budget.spend() {
            return false;
        }
        board.place(answer);
        let won = attack(board, depth, budget, memo).is_some();
        board.undo();
        if !won {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::threat::line_cells;
    use crate::gomoku::{Config, Rule};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Every five point of `color` on the lines through `index`, by a scan
    /// of the empty cells of all four lines ([`line_cells`]).
    fn all_fives_around(board: &Board, index: usize, color: Color) -> FivePoints {
        let cells: Vec<usize> = line_cells(board, index)
            .filter(|&at| board.makes_five(at, color))
            .collect();
        FivePoints {
            count: cells.len(),
            first: cells.iter().copied().min().unwrap_or(usize::MAX),
        }
    }

    /// Plays `games` random games of every rule on 15x15 from a centre
    /// stone, `stones` tries each: a try picks a near-empty cell the side
    /// to move may play without making five and hands it to `visit`, which
    /// places it.
    fn random_games(
        seed: u64,
        games: usize,
        stones: usize,
        mut visit: impl FnMut(&mut Board, usize, Rule),
    ) {
        let mut rng = StdRng::seed_from_u64(seed);
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
            let config = Config {
                width: 15,
                height: 15,
                n: 5,
                rule,
            };
            for _ in 0..games {
                let mut board = Board::new(config).unwrap();
                board.place(crate::gomoku::board::Point::new(7, 7).index());
                for _ in 0..stones {
                    let cells = board.near_empty_cells();
                    if cells.is_empty() {
                        break;
                    }
                    let cell = cells[rng.random_range(0..cells.len())];
                    let me = board.to_move();
                    if is_legal(&board, cell, me) && !board.makes_five(cell, me) {
                        visit(&mut board, cell, rule);
                    }
                }
            }
        }
    }

    /// A memo kept across the VCFs of many positions never makes a win
    /// and seldom loses one: on random games of every rule, each
    /// position's VCF with the shared memo wins only where one without a
    /// memo does, in all but a few of those, and the memo saves nodes. (A
    /// failure it keeps was found with the fours near one last stone;
    /// another path may end there with another.)
    #[test]
    fn the_vcf_memo_never_makes_a_win_and_seldom_loses_one() {
        let mut memo = VcfMemo::with_bits(12);
        let (mut wins, mut searched, mut plain_nodes, mut memo_nodes) = (0, 0, 0, 0);
        let mut lost = 0;
        random_games(0x3e30, 25, 60, |board, cell, rule| {
            board.place(cell);
            let mut plain = ThreatBudget::new(1 << 40);
            let won = vcf(board, 10, &mut plain, &mut Vec::new());
            let mut with_memo = ThreatBudget::new(1 << 40);
            with_memo.memo = std::mem::take(&mut memo);
            let mut line = Vec::new();
            let memo_won = vcf(board, 10, &mut with_memo, &mut line);
            memo = std::mem::take(&mut with_memo.memo);
            assert!(won || !memo_won, "{rule:?} after {:?}", board.history());
            assert_eq!(memo_won, !line.is_empty());
            lost += usize::from(won && !memo_won);
            wins += usize::from(won);
            searched += 1;
            plain_nodes += plain.visited;
            memo_nodes += with_memo.visited;
        });
        assert!(
            searched > 3000 && wins > 100,
            "{searched} positions, {wins} wins"
        );
        assert!(lost * 50 <= wins, "{lost} of {wins} wins lost");
        assert!(
            memo_nodes < plain_nodes,
            "{memo_nodes} nodes against {plain_nodes}"
        );
    }

    /// The VCT's memo changes no answer: on random games of every rule, at
    /// each depth from 1 to 3 attacking moves in turn (as [`vct`] deepens),
    /// the root with one memo kept over the depths is won exactly where it
    /// is without a memo (neither with a VCF memo, the budget never out),
    /// the memo's moves win again without it, and it saves nodes.
    #[test]
    fn the_vct_memo_changes_no_answer() {
        let (mut wins, mut deep, mut searched) = (0, 0, 0);
        let (mut plain_nodes, mut memo_nodes) = (0, 0);
        random_games(0x7c70, 2, 40, |board, cell, rule| {
            board.place(cell);
            if board.stone_count() < 12 {
                return;
            }
            let mut off = VctMemo::new();
            off.on = false;
            let mut memo = VctMemo::new();
            for depth in 1..=3 {
                let mut plain = ThreatBudget::new(1 << 40);
                let won = attack(board, depth, &mut plain, &mut off);
                let mut with_memo = ThreatBudget::new(1 << 40);
                let memo_won = attack(board, depth, &mut with_memo, &mut memo);
                assert!(!plain.exhausted() && !with_memo.exhausted());
                let at = format!("{rule:?} after {:?}, depth {depth}", board.history());
                assert_eq!(won.is_some(), memo_won.is_some(), "{at}");
                if let Some(mv) = memo_won
                    && !board.makes_five(mv, board.to_move())
                {
                    // The same depth: the move may be the block of a four
                    // of the defender, which costs the attacker no depth
                    // (and a deeper search tries every line of a shallower
                    // one).
                    board.place(mv);
                    let holds = defend(board, depth, &mut ThreatBudget::new(1 << 40), &mut off);
                    board.undo();
                    assert!(holds, "{at}: {mv}");
                }
                plain_nodes += plain.visited;
                memo_nodes += with_memo.visited;
                if won.is_some() {
                    wins += 1;
                    deep += usize::from(depth > 1);
                    break;
                }
            }
            searched += 1;
        });
        assert!(
            searched > 150 && wins > 60 && deep > 8,
            "{searched} positions, {wins} wins, {deep} of them deeper than one move"
        );
        assert!(
            memo_nodes < plain_nodes,
            "{memo_nodes} nodes against {plain_nodes}"
        );
    }

    /// On random games of every rule, after each stone placed by a side
    /// without five points, the lines of its fours hold all its five
    /// points around the stone.
    #[test]
    fn five_points_lie_on_the_lines_of_the_fours() {
        let (mut checked, mut fours) = (0, 0);
        random_games(0xf1fe, 60, 120, |board, cell, rule| {
            let me = board.to_move();
            let had_none = fives(board, me).is_empty();
            board.place(cell);
            if had_none {
                let found = fives_around(board, cell, me);
                assert_eq!(
                    found,
                    all_fives_around(board, cell, me),
                    "{rule:?} after {:?}",
                    board.history()
                );
                checked += 1;
                fours += usize::from(found.count > 0);
            }
        });
        assert!(
            checked > 10_000 && fours > 500,
            "{checked} stones, {fours} fours"
        );
    }
}
