//! Threats on a board: cells that make a five, a four or an open four for a
//! colour, move scores, and the defences against an open three.

use crate::Color;
use crate::gomoku::board::{Board, DIRECTIONS};
use crate::gomoku::pattern::Pattern;
use crate::gomoku::rules::Rule;

/// Value of one line pattern for ordering and evaluation.
pub const fn pattern_value(pattern: Pattern) -> i32 {
    match pattern {
        Pattern::Dead | Pattern::Overline => 0,
        Pattern::One => 2,
        Pattern::Two => 8,
        Pattern::Block3 => 24,
        Pattern::Flex3 => 70,
        Pattern::Block4 => 80,
        Pattern::Flex4 | Pattern::DoubleFour => 600,
        Pattern::Five => 10_000,
    }
}

/// What a stone on a cell makes for one colour, all directions together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    Quiet,
    /// An open three (one way or more to a straight four).
    Three,
    /// Two open threes.
    DoubleThree,
    /// One four.
    Four,
    /// A four and an open three.
    FourThree,
    /// Two winning cells: open four or double four.
    FlexFour,
    Five,
}

/// The class of a cell's four patterns, and its summed value.
pub fn classify(patterns: &[Pattern; 4]) -> (Class, i32) {
    let mut fours = 0;
    let mut threes = 0;
    let mut value = 0;
    let mut class = Class::Quiet;
    for &p in patterns {
        value += pattern_value(p);
        match p {
            Pattern::Five => class = Class::Five,
            Pattern::Flex4 | Pattern::DoubleFour => fours += 2,
            Pattern::Block4 => fours += 1,
            Pattern::Flex3 => threes += 1,
            _ => {}
        }
    }
    if class != Class::Five {
        class = match (fours, threes) {
            (f, _) if f >= 2 => Class::FlexFour,
            (1, t) if t >= 1 => Class::FourThree,
            (1, _) => Class::Four,
            (_, t) if t >= 2 => Class::DoubleThree,
            (_, 1) => Class::Three,
            _ => Class::Quiet,
        };
    }
    let bonus = match class {
        Class::FlexFour => 2_000,
        Class::FourThree => 1_500,
        Class::DoubleThree => 400,
        _ => 0,
    };
    (class, value + bonus)
}

/// Whether `color` may play the empty `index` (renju's Black may not play
/// a forbidden point).
#[inline]
pub fn is_legal(board: &Board, index: usize, color: Color) -> bool {
    color == Color::White || board.rule() != Rule::Renju || !board.is_forbidden(index)
}

/// The class of `color` playing the empty `index`, counting renju's
/// forbidden points as quiet for Black (they cannot be played).
pub fn class_of(board: &Board, index: usize, color: Color) -> (Class, i32) {
    let (class, value) = classify(&board.patterns(index, color));
    if class != Class::Five
        && class != Class::Quiet
        && color == Color::Black
        && board.rule() == Rule::Renju
        && board.is_forbidden(index)
    {
        return (Class::Quiet, 0);
    }
    (class, value)
}

/// Empty cells near stones (or the centre on an empty board).
pub fn candidates(board: &Board) -> Vec<usize> {
    let cells: Vec<usize> = board
        .points()
        .iter()
        .copied()
        .filter(|&i| board.is_empty(i) && board.is_near(i))
        .collect();
    if cells.is_empty() && board.stone_count() == 0 {
        let center = crate::gomoku::board::Point::new(board.width() / 2, board.height() / 2);
        return vec![center.index()];
    }
    if cells.is_empty() {
        // Only far cells left (tiny boards): any empty cell.
        return board
            .points()
            .iter()
            .copied()
            .filter(|&i| board.is_empty(i))
            .collect();
    }
    cells
}

/// Cells where `color` makes a five.
pub fn fives(board: &Board, color: Color) -> Vec<usize> {
    board
        .points()
        .iter()
        .copied()
        .filter(|&i| board.is_empty(i) && board.is_near(i) && board.makes_five(i, color))
        .collect()
}

/// Cells on the lines through `index` within the line radius.
pub fn line_cells(board: &Board, index: usize) -> impl Iterator<Item = usize> + '_ {
    let r = board.n() as isize;
    DIRECTIONS.iter().flat_map(move |&step| {
        (-r..=r)
            .filter(|&k| k != 0)
            .map(move |k| (index as isize + k * step) as usize)
            .filter(|&at| board.is_empty(at))
    })
}

/// Cells where `color`, to move or not, makes an open four it may play:
/// the points of its open threes.
pub fn open_four_points(board: &Board, color: Color) -> Vec<usize> {
    board
        .points()
        .iter()
        .copied()
        .filter(|&i| {
            board.is_empty(i)
                && board.is_near(i)
                && (0..4).any(|d| board.pattern(i, d, color) == Pattern::Flex4)
                && is_legal(board, i, color)
        })
        .collect()
}

/// The moves of the side to move that leave the opponent no open four
/// point, given the opponent's `points` (non-empty).
pub fn defences(board: &mut Board, points: &[usize]) -> Vec<usize> {
    let me = board.to_move();
    let them = me.opponent();
    let mut cells: Vec<usize> = points.to_vec();
    for &p in points {
        cells.extend(line_cells(board, p));
    }
    cells.sort_unstable();
    cells.dedup();
    let mut out = Vec::new();
    for cell in cells {
        if !board.is_empty(cell) || !is_legal(board, cell, me) {
            continue;
        }
        board.place(cell);
        let holds = points.iter().all(|&p| {
            !board.is_empty(p)
                || !(0..4).any(|d| board.pattern(p, d, them) == Pattern::Flex4)
                || !is_legal(board, p, them)
        });
        board.undo();
        if holds {
            out.push(cell);
        }
    }
    out
}
