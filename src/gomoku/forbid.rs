//! Renju's forbidden points for Black: double three, double four, overline.
//!
//! A five made by the same stone always wins. A four is any line with a
//! winning cell; a line with two non-adjacent winning cells (`x.xxx.x`
//! filled in the middle) counts as two fours. A three counts only when it is
//! *real*: some cell of its line turns it into a straight four and that cell
//! is not itself forbidden once the stone is placed, so detection recurses.

use crate::Color;
use crate::gomoku::board::{Board, DIRECTIONS};
use crate::gomoku::pattern::Pattern;
use crate::gomoku::rules::Rule;

/// Why a point is forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Foul {
    DoubleThree,
    DoubleFour,
    Overline,
}

impl Board {
    /// Whether Black may not play the empty cell `index` (renju only).
    pub fn is_forbidden(&self, index: usize) -> bool {
        self.foul(index).is_some()
    }

    /// The foul of Black playing the empty cell `index`, if any (renju only;
    /// always `None` under other rules).
    pub fn foul(&self, index: usize) -> Option<Foul> {
        if self.rule() != Rule::Renju || !self.is_empty(index) {
            return None;
        }
        let patterns = self.patterns(index, Color::Black);
        if patterns.contains(&Pattern::Five) {
            return None;
        }
        if patterns.contains(&Pattern::Overline) {
            return Some(Foul::Overline);
        }
        let fours: usize = patterns
            .iter()
            .map(|p| match p {
                Pattern::DoubleFour => 2,
                Pattern::Flex4 | Pattern::Block4 => 1,
                _ => 0,
            })
            .sum();
        if fours >= 2 {
            return Some(Foul::DoubleFour);
        }
        let threes = patterns.iter().filter(|&&p| p == Pattern::Flex3).count();
        if threes < 2 {
            return None;
        }
        let mut board = self.trial_copy();
        board.place_as(index, Color::Black);
        let real = (0..4)
            .filter(|&d| patterns[d] == Pattern::Flex3 && board.is_real_three(index, d))
            .count();
        (real >= 2).then_some(Foul::DoubleThree)
    }

    /// Whether the black stone at `index` has a real three along `d`: some
    /// cell of that line makes a straight four and is not forbidden.
    fn is_real_three(&self, index: usize, d: usize) -> bool {
        let step = DIRECTIONS[d];
        let r = self.n() as isize;
        (-r..=r).filter(|&k| k != 0).any(|k| {
            let at = (index as isize + k * step) as usize;
            self.is_empty(at)
                && self.pattern(at, d, Color::Black) == Pattern::Flex4
                && !self.is_forbidden(at)
        })
    }

    /// Places a stone of `color` whoever is to move (the side to move then
    /// becomes the other colour).
    pub fn place_as(&mut self, index: usize, color: Color) {
        self.set_to_move(color);
        self.place(index);
    }
}

#[cfg(test)]
mod tests {
    use crate::gomoku::board::{Board, Point};
    use crate::gomoku::rules::{Config, Rule};
    use crate::gomoku::text::parse_moves;

    fn renju(moves: &str) -> Board {
        let mut board = Board::new(Config {
            rule: Rule::Renju,
            ..Config::default()
        })
        .unwrap();
        for p in parse_moves(moves).unwrap() {
            board.play(p).unwrap();
        }
        board
    }

    #[test]
    fn gomocup_double_three() {
        // GomocupJudge: h8h9i7i9h10i6i11i12, g9 is a double three.
        let board = renju("h8h9i7i9h10i6i11i12");
        assert!(board.is_forbidden(Point::new(6, 8).index()));
    }
}
