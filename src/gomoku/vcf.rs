//! Threat-space searches for the side to move: VCF (victory by continuous
//! fours: every attacking move is a four, so every reply is forced) and
//! VCT (continuous threats: fours and open threes; the defender may answer
//! a three with any defence or a four of its own).
//!
//! Both are exact about the moves they consider: a reported win is a real
//! forced win (the defender's every answer is tried), but a failure only
//! means none was found within the budget.

use crate::Color;
use crate::gomoku::board::{Board, Threats};
use crate::gomoku::threat::Class;
use crate::gomoku::threat::{class_of, defences, fives, is_legal, line_cells, open_four_points};
use crate::search::StopSignal;
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
}

impl ThreatBudget {
    pub fn new(nodes: u64) -> ThreatBudget {
        ThreatBudget {
            nodes,
            visited: 0,
            stop: None,
            deadline: None,
            stopped: false,
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
    let mut moves: Vec<(i32, usize)> = board
        .flagged_cells(color, Threats::FOUR)
        .filter_map(|i| {
            let (class, value) = class_of(board, i, color);
            (class >= Class::Four).then_some((-value, i))
        })
        .collect();
    moves.sort_unstable();
    moves.into_iter().map(|(_, i)| i).collect()
}

/// The five points of `color` on the lines through `index`.
fn fives_around(board: &Board, index: usize, color: Color) -> Vec<usize> {
    let mut out: Vec<usize> = line_cells(board, index)
        .filter(|&c| board.makes_five(c, color))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// VCF for the side to move within `depth` fours. On success `line` holds
/// the winning sequence (attacker and defender moves alternating).
pub fn vcf(
    board: &mut Board,
    depth: u32,
    budget: &mut ThreatBudget,
    line: &mut Vec<usize>,
) -> bool {
    let me = board.to_move();
    if let Some(&five) = fives(board, me).first() {
        line.push(five);
        return true;
    }
    let their_fives = fives(board, me.opponent());
    vcf_inner(board, depth, budget, line, their_fives)
}

/// VCF below the first move: the attacker has no five (each of its fours
/// was blocked), and the defender's five points are `their_fives`.
fn vcf_inner(
    board: &mut Board,
    depth: u32,
    budget: &mut ThreatBudget,
    line: &mut Vec<usize>,
    their_fives: Vec<usize>,
) -> bool {
    let me = board.to_move();
    let them = me.opponent();
    let moves = match their_fives.len() {
        0 => four_moves(board, me),
        1 => {
            let block = their_fives[0];
            let four = (0..4).any(|d| board.pattern(block, d, me).is_four());
            if !four || !is_legal(board, block, me) {
                return false;
            }
            vec![block]
        }
        _ => return false,
    };
    if depth == 0 {
        return false;
    }
    for mv in moves {
        if !budget.spend() {
            return false;
        }
        board.place(mv);
        let wins = fives_around(board, mv, me);
        let won = match wins.len() {
            0 => false,
            1 => {
                let block = wins[0];
                if !is_legal(board, block, them) {
                    line.extend([mv, block]);
                    board.undo();
                    return true;
                }
                board.place(block);
                // The defender's five points: only new ones, through its
                // block (an old one was this four's only possible move).
                let their_next = fives_around(board, block, them);
                let mut rest = Vec::new();
                let won = vcf_inner(board, depth - 1, budget, &mut rest, their_next);
                board.undo();
                if won {
                    line.extend([mv, block]);
                    line.extend(rest);
                }
                won
            }
            _ => {
                // Two winning points; the defender has no five (checked above).
                line.extend([mv, wins[0]]);
                true
            }
        };
        board.undo();
        if won {
            return true;
        }
    }
    false
}

/// Fours a VCT tries at each of its nodes.
pub const VCT_VCF_DEPTH: u32 = 8;

/// VCT for the side to move within `depth` attacking moves: the first move
/// of a forced win by fours and open threes, if one is found.
pub fn vct(board: &mut Board, depth: u32, budget: &mut ThreatBudget) -> Option<usize> {
    attack(board, depth, budget)
}

/// Attacker to move: a move after which every defence loses.
fn attack(board: &mut Board, depth: u32, budget: &mut ThreatBudget) -> Option<usize> {
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
            let won = defend(board, depth, budget);
            board.undo();
            return won.then_some(block);
        }
        _ => return None,
    }
    if depth == 0 {
        return None;
    }
    // Fours are VCF's; here the attacker makes open threes.
    let mut moves: Vec<(i32, usize)> = board
        .flagged_cells(me, Threats::FLEX3)
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
        let won = defend(board, depth - 1, budget);
        board.undo();
        if won {
            return Some(mv);
        }
    }
    None
}

/// Defender to move after an attacker's three: whether every answer loses.
fn defend(board: &mut Board, depth: u32, budget: &mut ThreatBudget) -> bool {
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
            let won = attack(board, depth, budget).is_some();
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
        let won = attack(board, depth, budget).is_some();
        board.undo();
        if !won {
            return false;
        }
    }
    true
}
