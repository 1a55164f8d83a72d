//! Threats on a board: cells that make a five, a four or an open four for a
//! colour, move scores, and the defences against an open three.

use crate::Color;
use crate::gomoku::board::{Board, DIRECTIONS, Threats};
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

/// What one line pattern adds to a cell's tally, in the fields of
/// [`TALLY`]: its value, and one five, one or two fours, or one three.
const fn tally_of(pattern: Pattern) -> u32 {
    let counts = match pattern {
        Pattern::Five => 1 << FIVES_SHIFT,
        Pattern::Flex4 | Pattern::DoubleFour => 2 << FOURS_SHIFT,
        Pattern::Block4 => 1 << FOURS_SHIFT,
        Pattern::Flex3 => 1 << THREES_SHIFT,
        _ => 0,
    };
    pattern_value(pattern) as u32 | counts
}

/// Fields of a tally. Four directions sum without carries: values stay
/// under 4 x 10,000 < 2^16, and counts under 8 in fields of 4 bits.
const FIVES_SHIFT: u32 = 16;
const FOURS_SHIFT: u32 = 20;
const THREES_SHIFT: u32 = 24;

/// The tallies of a packed pattern byte ([`crate::gomoku::pattern::PatternTable::packed`])
/// for Black (the low 32 bits) and White (the high ones). A cell's class is
/// the sum of four lookups here: measured, `class_of` took 34% of a
/// search's time when it matched each pattern. The two sides' tallies sum
/// side by side without carries (each stays under 2^28), so that the move
/// generator's [`classes_of`] reads and adds each byte's once.
static TALLY: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut packed = 0;
    while packed < 256 {
        let black = tally_of(Pattern::of_packed(packed as u8, true)) as u64;
        let white = tally_of(Pattern::of_packed(packed as u8, false)) as u64;
        table[packed] = black | white << 32;
        packed += 1;
    }
    table
};

/// Both sides' summed tallies of the empty `index` ([`TALLY`]).
#[inline]
fn tallies(board: &Board, index: usize) -> u64 {
    board
        .packed_patterns(index)
        .iter()
        .map(|&p| TALLY[usize::from(p)])
        .sum()
}

/// The class and value of a summed tally.
#[inline]
fn class_of_tally(tally: u32) -> (Class, i32) {
    let value = (tally & 0xffff) as i32;
    let fours = (tally >> FOURS_SHIFT) & 0xf;
    let threes = (tally >> THREES_SHIFT) & 0xf;
    let class = if (tally >> FIVES_SHIFT) & 0xf != 0 {
        Class::Five
    } else {
        match (fours, threes) {
            (f, _) if f >= 2 => Class::FlexFour,
            (1, t) if t >= 1 => Class::FourThree,
            (1, _) => Class::Four,
            (_, t) if t >= 2 => Class::DoubleThree,
            (_, 1) => Class::Three,
            _ => Class::Quiet,
        }
    };
    let bonus = match class {
        Class::FlexFour => 2_000,
        Class::FourThree => 1_500,
        Class::DoubleThree => 400,
        _ => 0,
    };
    (class, value + bonus)
}

/// The class of a stone making `patterns` in the four directions (what
/// [`class_of`] finds on a board, renju's forbidden points aside).
pub fn class_of_patterns(patterns: [Pattern; 4]) -> Class {
    class_of_tally(patterns.iter().map(|&p| tally_of(p)).sum()).0
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
    let shift = if color == Color::White { 32 } else { 0 };
    let found = class_of_tally((tallies(board, index) >> shift) as u32);
    legal_class(board, index, color, found)
}

/// [`class_of`] for `me` and for the opponent, from one pass over the
/// cell's patterns: the move generator asks for both at every candidate.
/// callgrind, `scripts/gomoku-profile.sh` (20 middle-game positions,
/// 30,000 nodes each), with the VCF's insertion sort of its fours:
/// 10.93 G -> 10.29 G instructions (the same searches).
#[inline]
pub fn classes_of(board: &Board, index: usize, me: Color) -> [(Class, i32); 2] {
    let both = tallies(board, index);
    let black = legal_class(board, index, Color::Black, class_of_tally(both as u32));
    let white = class_of_tally((both >> 32) as u32);
    match me {
        Color::Black => [black, white],
        Color::White => [white, black],
    }
}

/// `found`, the class of `color` at the empty `index` by its patterns, or
/// quiet when renju forbids Black the cell.
#[inline]
fn legal_class(board: &Board, index: usize, color: Color, found: (Class, i32)) -> (Class, i32) {
    let (class, _) = found;
    if class != Class::Five
        && class != Class::Quiet
        && color == Color::Black
        && board.rule() == Rule::Renju
        && board.is_forbidden(index)
    {
        return (Class::Quiet, 0);
    }
    found
}

/// Empty cells near stones (or the centre on an empty board).
pub fn candidates(board: &Board) -> Vec<usize> {
    // Sized up front: collected from the bit set, the list grew through
    // five reallocations at a typical node (2% of a search's instructions).
    let mut cells = Vec::with_capacity(board.points().len() - board.stone_count());
    board.push_near_empty_cells(&mut cells);
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
    board.flagged_cells(color, Threats::FIVE).collect()
}

/// Cells on the lines through `index` within the line radius.
pub fn line_cells(board: &Board, index: usize) -> impl Iterator<Item = usize> + '_ {
    (0..4).flat_map(move |d| line_cells_along(board, index, d))
}

/// The empty cells on the line through `index` in direction `d`, within the
/// line radius.
fn line_cells_along(board: &Board, index: usize, d: usize) -> impl Iterator<Item = usize> + '_ {
    let r = board.n() as isize;
    let step = DIRECTIONS[d];
    (-r..=r)
        .filter(|&k| k != 0)
        .map(move |k| (index as isize + k * step) as usize)
        .filter(|&at| board.is_empty(at))
}

/// Cells where `color`, to move or not, makes an open four it may play:
/// the points of its open threes.
pub fn open_four_points(board: &Board, color: Color) -> Vec<usize> {
    board
        .flagged_cells(color, Threats::FLEX4)
        .filter(|&i| is_legal(board, i, color))
        .collect()
}

/// The moves of the side to move that leave the opponent no open four
/// point, given the opponent's `points` (non-empty).
pub fn defences(board: &mut Board, points: &[usize]) -> Vec<usize> {
    if board.rule() == Rule::Renju {
        defences_by_placing(board, points)
    } else {
        defences_on_lines(board, points)
    }
}

/// [`defences`] by placing each cell on the points' lines and looking.
fn defences_by_placing(board: &mut Board, points: &[usize]) -> Vec<usize> {
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

/// [`defences`] without placing stones, for rules where every empty cell is
/// legal for both colours (all but renju). A stone of the side to move on
/// `cell` changes the opponent's pattern at a point `p` only along the line
/// through both, and only by taking five points away; so `cell` holds `p`
/// when it is `p`, or when it lies on each line where `p` makes an open four
/// and breaks it there. The cells come out sorted, as [`defences`] gives
/// them (the searches' order and node counts do not change: the same list
/// costs 5-6x fewer instructions here than with a stone placed and taken
/// back for each cell).
fn defences_on_lines(board: &Board, points: &[usize]) -> Vec<usize> {
    let me = board.to_move();
    let them = me.opponent();
    // A stone further away changes no pattern of the point.
    let r = board.radius() as isize;
    // For each point, the directions where it makes an open four.
    let open: Vec<(usize, Vec<usize>)> = points
        .iter()
        .map(|&p| {
            let dirs = (0..4)
                .filter(|&d| board.is_empty(p) && board.pattern(p, d, them) == Pattern::Flex4)
                .collect();
            (p, dirs)
        })
        .collect();
    let mut cells: Vec<usize> = points
        .iter()
        .copied()
        .filter(|&p| board.is_empty(p))
        .collect();
    for (p, dirs) in &open {
        // A point with no open four (a double four of two lines) holds
        // whatever is played, as in `defences`; its lines are candidates.
        let lines: &[usize] = if dirs.is_empty() { &[0, 1, 2, 3] } else { dirs };
        for &d in lines {
            cells.extend(line_cells_along(board, *p, d));
        }
    }
    cells.sort_unstable();
    cells.dedup();
    cells.retain(|&cell| {
        open.iter().all(|(p, dirs)| {
            cell == *p
                || dirs.iter().all(|&d| {
                    let step = DIRECTIONS[d];
                    let offset = cell as isize - *p as isize;
                    let k = offset / step;
                    k != 0
                        && k * step == offset
                        && k.abs() <= r
                        && board.pattern_with(*p, d, k, me, them) != Pattern::Flex4
                })
        })
    });
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::rules::Config;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The tally sums classify every combination of four patterns as
    /// counting them one by one does.
    #[test]
    fn tallies_classify_as_counting_does() {
        let all = Pattern::ALL;
        for code in 0..10_000 {
            let patterns = [0, 1, 2, 3].map(|d| all[code / 10usize.pow(d) % 10]);
            let value: i32 = patterns.iter().map(|&p| pattern_value(p)).sum();
            let fours: usize = patterns
                .iter()
                .map(|&p| usize::from(p.is_four()) + usize::from(p.is_double_threat()))
                .sum();
            let threes = patterns.iter().filter(|&&p| p == Pattern::Flex3).count();
            let expected = if patterns.contains(&Pattern::Five) {
                Class::Five
            } else if fours >= 2 {
                Class::FlexFour
            } else if fours == 1 && threes >= 1 {
                Class::FourThree
            } else if fours == 1 {
                Class::Four
            } else if threes >= 2 {
                Class::DoubleThree
            } else if threes == 1 {
                Class::Three
            } else {
                Class::Quiet
            };
            let (class, with_bonus) = class_of_tally(patterns.iter().map(|&p| tally_of(p)).sum());
            assert_eq!(class, expected, "{patterns:?}");
            assert!(
                with_bonus >= value && with_bonus - value <= 2_000,
                "{patterns:?}"
            );
        }
    }

    /// On random boards of every rule but renju, the defences found without
    /// placing stones are those found by placing them, in the same order.
    #[test]
    fn defences_on_lines_match_defences_by_placing() {
        let mut rng = StdRng::seed_from_u64(5);
        let mut compared = 0;
        let mut found = 0;
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Caro] {
            for n in 4..=6 {
                let config = Config {
                    width: 15,
                    height: 15,
                    n,
                    rule,
                };
                for _ in 0..300 {
                    let mut board = Board::new(config).expect("a valid size");
                    let stones = rng.random_range(4..40);
                    for _ in 0..stones {
                        let free: Vec<usize> = board
                            .points()
                            .iter()
                            .copied()
                            .filter(|&c| board.is_empty(c))
                            .collect();
                        // Stones near the centre, so that lines form.
                        let near: Vec<usize> = free
                            .iter()
                            .copied()
                            .filter(|&c| {
                                let p = crate::gomoku::board::Point::from_index(c);
                                p.x.abs_diff(7) <= 4 && p.y.abs_diff(7) <= 4
                            })
                            .collect();
                        let pick = near[rng.random_range(0..near.len())];
                        let color = if rng.random_bool(0.5) {
                            Color::Black
                        } else {
                            Color::White
                        };
                        board.place_as(pick, color);
                    }
                    let them = board.to_move().opponent();
                    let points = open_four_points(&board, them);
                    if points.is_empty() {
                        continue;
                    }
                    let fast = defences_on_lines(&board, &points);
                    let slow = defences_by_placing(&mut board, &points);
                    assert_eq!(fast, slow, "{rule} n={n}\n{}", board.diagram());
                    compared += 1;
                    found += fast.len();
                }
            }
        }
        assert!(
            compared > 100 && found > 100,
            "{compared} boards, {found} defences"
        );
    }
}
