//! Line patterns: what a stone placed on an empty cell makes along one
//! direction, read from the cell's line code.
//!
//! A line code holds the `2R` cells around a cell along one direction
//! (`R = n`, enough to see an overline or a blocked end), two bits each:
//! empty, black, white, wall. [`PatternTable`] maps a code to the pattern
//! Black and White would make by playing the centre. Patterns are defined
//! by playing out the line, for any n and rule:
//!
//! * [`Pattern::Five`]: the row through the centre wins;
//! * [`Pattern::Overline`]: a row longer than n that does not win;
//! * [`Pattern::Flex4`] / [`Pattern::Block4`]: after the stone, two or more /
//!   exactly one empty cell of the line completes a winning row with it;
//! * [`Pattern::Flex3`] / [`Pattern::Block3`]: after the stone, one more
//!   stone in the line can make a `Flex4` / only a `Block4` with it;
//! * [`Pattern::Two`], [`Pattern::One`]: the most stones of a row of n
//!   free of opponent stones through the cell, or [`Pattern::Dead`].
//!
//! The table is filled lazily, entry by entry, and shared by all boards of
//! the same n and rule.

use crate::Color;
use crate::gomoku::rules::{LineRule, Rule};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// A cell of a line: what [`crate::gomoku::Board`] stores.
pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;
pub const WALL: u8 = 3;

/// The cell value of a colour.
pub const fn stone(color: Color) -> u8 {
    match color {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// What a stone makes along one line, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pattern {
    Dead,
    One,
    Two,
    Block3,
    Flex3,
    Block4,
    Flex4,
    /// Two winning cells in one line that are not the two ends of a
    /// straight four (`x.xxx.x` filled in the middle): two fours at once.
    DoubleFour,
    /// A row longer than n that does not win (standard, renju's Black).
    Overline,
    Five,
}

impl Pattern {
    /// Every pattern, in the order of its 4-bit code.
    pub(crate) const ALL: [Pattern; 10] = [
        Pattern::Dead,
        Pattern::One,
        Pattern::Two,
        Pattern::Block3,
        Pattern::Flex3,
        Pattern::Block4,
        Pattern::Flex4,
        Pattern::DoubleFour,
        Pattern::Overline,
        Pattern::Five,
    ];

    const fn from_code(code: u16) -> Pattern {
        Pattern::ALL[code as usize % Pattern::ALL.len()]
    }

    /// The pattern of one colour in a byte of [`PatternTable::packed`]:
    /// Black in the low nibble, White in the high one.
    #[inline]
    pub const fn of_packed(packed: u8, black: bool) -> Pattern {
        let nibble = if black { packed & 0xf } else { packed >> 4 };
        Pattern::from_code(nibble as u16)
    }

    /// Whether the stone makes a four (a threat to win next move).
    pub fn is_four(self) -> bool {
        matches!(self, Pattern::Block4 | Pattern::Flex4 | Pattern::DoubleFour)
    }

    /// Whether the stone makes two winning cells along the line.
    pub fn is_double_threat(self) -> bool {
        matches!(self, Pattern::Flex4 | Pattern::DoubleFour)
    }
}

/// Lazily filled map from line codes to the patterns of both colours.
pub struct PatternTable {
    n: usize,
    /// Cells on each side of the centre in a code ([`PatternTable::radius`]).
    radius: usize,
    black: LineRule,
    white: LineRule,
    /// One byte per code (see [`PatternTable::packed`]), [`UNKNOWN`] until
    /// first asked: one byte, not two, keeps the 15x15 table (1 Mi codes) at
    /// 1 MiB, which stays in the cache more often.
    entries: Vec<AtomicU8>,
}

/// An entry not computed yet (no pair of patterns packs to it: each is
/// below 10).
const UNKNOWN: u8 = 0xff;

impl PatternTable {
    /// The shared table of `n` and `rule`.
    pub fn shared(n: usize, rule: Rule) -> Arc<PatternTable> {
        type Tables = Mutex<HashMap<(usize, Rule), Arc<PatternTable>>>;
        static TABLES: OnceLock<Tables> = OnceLock::new();
        let tables = TABLES.get_or_init(|| Mutex::new(HashMap::new()));
        let mut tables = match tables.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        };
        tables
            .entry((n, rule))
            .or_insert_with(|| {
                let black = rule.line_rule(Color::Black);
                let white = rule.line_rule(Color::White);
                let radius = if black == LineRule::AtLeast && white == LineRule::AtLeast {
                    n - 1
                } else {
                    n
                };
                Arc::new(PatternTable {
                    n,
                    radius,
                    black,
                    white,
                    entries: (0..1usize << (4 * radius))
                        .map(|_| AtomicU8::new(UNKNOWN))
                        .collect(),
                })
            })
            .clone()
    }

    /// The radius of a line code: cells on each side of the centre. `n`
    /// when a row longer than `n` or blocked at its ends may not win (a
    /// cell `n` away decides it), else `n - 1`: no row of `n` through the
    /// centre reaches further. Under freestyle that takes a 15x15 table
    /// from 1 MiB to 64 KiB and a stone's line cells from 40 to 32
    /// ([`crate::gomoku::board::Board::place`]); callgrind,
    /// `scripts/gomoku-profile.sh <(head -12
    /// positions/gomoku-balanced-20-freestyle.txt) 20 0 60000`: 11.23 G ->
    /// 10.43 G instructions (the same searches).
    pub fn radius(&self) -> usize {
        self.radius
    }

    /// The patterns of playing the centre of `code` in one byte: Black in
    /// the low nibble, White in the high one (see [`Pattern::of_packed`]).
    #[inline]
    pub fn packed(&self, code: u32) -> u8 {
        let entry = &self.entries[code as usize];
        let mut value = entry.load(Ordering::Relaxed);
        if value == UNKNOWN {
            value = self.compute(code);
            entry.store(value, Ordering::Relaxed);
        }
        value
    }

    /// Computes every entry not computed yet, so that later readings pay
    /// no first-time cost (the gomoku bench fills the tables before it
    /// times its searches).
    pub fn fill(&self) {
        for code in 0..self.entries.len() {
            self.packed(code as u32);
        }
    }

    fn compute(&self, code: u32) -> u8 {
        let r = self.radius;
        let mut line = vec![EMPTY; 2 * r + 1];
        for slot in 0..2 * r {
            let cell = ((code >> (2 * slot)) & 3) as u8;
            let at = if slot < r { slot } else { slot + 1 };
            line[at] = cell;
        }
        let black = classify(&mut line, r, BLACK, self.n, self.black) as u8;
        let white = classify(&mut line, r, WHITE, self.n, self.white) as u8;
        black | (white << 4)
    }
}

/// The run of `p` through `at`: first and last index.
fn run(line: &[u8], at: usize, p: u8) -> (usize, usize) {
    let mut lo = at;
    while lo > 0 && line[lo - 1] == p {
        lo -= 1;
    }
    let mut hi = at;
    while hi + 1 < line.len() && line[hi + 1] == p {
        hi += 1;
    }
    (lo, hi)
}

/// Whether the run of `p` through `at` (a stone) wins and holds `keep`.
pub fn wins(line: &[u8], at: usize, p: u8, n: usize, rule: LineRule, keep: &[usize]) -> bool {
    let (lo, hi) = run(line, at, p);
    if keep.iter().any(|&k| k < lo || k > hi) {
        return false;
    }
    let length = hi - lo + 1;
    if length < n {
        return false;
    }
    match rule {
        LineRule::AtLeast => true,
        LineRule::Exact => length == n,
        LineRule::Unblocked => {
            if length > n {
                return true;
            }
            let opponent = if p == BLACK { WHITE } else { BLACK };
            let blocked_lo = lo > 0 && line[lo - 1] == opponent;
            let blocked_hi = hi + 1 < line.len() && line[hi + 1] == opponent;
            !(blocked_lo && blocked_hi)
        }
    }
}

/// Empty cells of the line within `n - 1` of `center`.
fn near_empties(line: &[u8], center: usize, n: usize) -> impl Iterator<Item = usize> + '_ {
    let lo = center.saturating_sub(n - 1);
    let hi = (center + n - 1).min(line.len() - 1);
    (lo..=hi).filter(move |&e| line[e] == EMPTY)
}

/// Cells that complete a winning row holding all of `keep` (stones).
fn winning_cells(line: &mut [u8], p: u8, n: usize, rule: LineRule, keep: &[usize]) -> usize {
    let center = keep[0];
    let candidates: Vec<usize> = near_empties(line, center, n).collect();
    let mut count = 0;
    for e in candidates {
        line[e] = p;
        if wins(line, e, p, n, rule, keep) {
            count += 1;
        }
        line[e] = EMPTY;
    }
    count
}

/// The pattern of `p` playing the empty `center` of `line`.
pub fn classify(line: &mut [u8], center: usize, p: u8, n: usize, rule: LineRule) -> Pattern {
    debug_assert_eq!(line[center], EMPTY);
    line[center] = p;
    let pattern = classify_placed(line, center, p, n, rule);
    line[center] = EMPTY;
    pattern
}

fn classify_placed(line: &mut [u8], center: usize, p: u8, n: usize, rule: LineRule) -> Pattern {
    if wins(line, center, p, n, rule, &[]) {
        return Pattern::Five;
    }
    let (lo, hi) = run(line, center, p);
    if hi - lo + 1 > n {
        return Pattern::Overline;
    }
    match winning_cells(line, p, n, rule, &[center]) {
        0 => {}
        1 => return Pattern::Block4,
        _ => {
            // A straight four: a run of n - 1 whose two ends both win.
            let straight = hi - lo + 2 == n
                && lo > 0
                && hi + 1 < line.len()
                && [lo - 1, hi + 1].iter().all(|&e| {
                    line[e] == EMPTY && {
                        line[e] = p;
                        let five = wins(line, e, p, n, rule, &[center]);
                        line[e] = EMPTY;
                        five
                    }
                });
            return if straight {
                Pattern::Flex4
            } else {
                Pattern::DoubleFour
            };
        }
    }
    let mut three = None;
    let candidates: Vec<usize> = near_empties(line, center, n).collect();
    for e in candidates {
        line[e] = p;
        let fours = winning_cells(line, p, n, rule, &[center, e]);
        line[e] = EMPTY;
        if fours >= 2 {
            return Pattern::Flex3;
        }
        if fours == 1 {
            three = Some(Pattern::Block3);
        }
    }
    if let Some(three) = three {
        return three;
    }
    // The most own stones in a row of n through the centre free of others.
    let mut best = 0;
    for start in center.saturating_sub(n - 1)..=center {
        let end = start + n;
        if end > line.len() {
            break;
        }
        let window = &line[start..end];
        if window.iter().all(|&c| c == p || c == EMPTY) {
            best = best.max(window.iter().filter(|&&c| c == p).count());
        }
    }
    match best {
        0 => Pattern::Dead,
        1 => Pattern::One,
        _ => Pattern::Two,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (Vec<u8>, usize) {
        let mut center = 0;
        let line = text
            .chars()
            .enumerate()
            .map(|(i, c)| match c {
                'x' => BLACK,
                'o' => WHITE,
                '|' => WALL,
                '*' => {
                    center = i;
                    EMPTY
                }
                _ => EMPTY,
            })
            .collect();
        (line, center)
    }

    /// Under freestyle a line's cells `n` away from the centre change no
    /// pattern of it, for either colour: the table's radius can be `n - 1`
    /// ([`PatternTable::radius`]). Random lines of stones, empty cells and
    /// walls at the ends, classified whole and without their end cells.
    #[test]
    fn freestyle_patterns_ignore_the_cells_n_away() {
        use rand::{Rng, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(0x5eed);
        for n in 3..=6 {
            for _ in 0..20_000 {
                let mut line: Vec<u8> = (0..=2 * n)
                    .map(|_| [EMPTY, EMPTY, BLACK, WHITE][rng.random_range(0..4)])
                    .collect();
                line[n] = EMPTY;
                let (left, right) = (rng.random_range(0..4), rng.random_range(0..4));
                line[..left.min(n)].fill(WALL);
                line[2 * n + 1 - right.min(n)..].fill(WALL);
                for p in [BLACK, WHITE] {
                    let whole = classify(&mut line.clone(), n, p, n, LineRule::AtLeast);
                    let mut inner = line[1..2 * n].to_vec();
                    let trimmed = classify(&mut inner, n - 1, p, n, LineRule::AtLeast);
                    assert_eq!(whole, trimmed, "n={n} {line:?} for {p}");
                }
            }
        }
    }

    fn black(text: &str, rule: LineRule) -> Pattern {
        let (mut line, center) = parse(text);
        classify(&mut line, center, BLACK, 5, rule)
    }

    #[test]
    fn classic_patterns() {
        use LineRule::*;
        assert_eq!(black("..xx*xx..", AtLeast), Pattern::Five);
        assert_eq!(black(".xxx*xx..", AtLeast), Pattern::Five);
        assert_eq!(black(".xxx*xx..", Exact), Pattern::Overline);
        assert_eq!(black("...xxx*...", AtLeast), Pattern::Flex4);
        assert_eq!(black("..x.xx*...", AtLeast), Pattern::Block4);
        assert_eq!(black("...x.x*...", AtLeast), Pattern::Flex3);
        assert_eq!(black("..x.xx*...", AtLeast), Pattern::Block4);
        assert_eq!(black("...x.x*...", AtLeast), Pattern::Flex3);
        assert_eq!(black("....xx*....", AtLeast), Pattern::Flex3);
        assert_eq!(black("...ox.x*....", AtLeast), Pattern::Block3);
        assert_eq!(black("|xx*...", AtLeast), Pattern::Block3);
        assert_eq!(black("...x*....", AtLeast), Pattern::Two);
        assert_eq!(black("o...*o", AtLeast), Pattern::Dead);
        assert_eq!(black("xxx.*.xxx", AtLeast), Pattern::DoubleFour);
        assert_eq!(black("x.xx*.x", Exact), Pattern::DoubleFour);
        // Standard: filling xx.xxx makes an overline, no five.
        assert_eq!(black("xx.xx*....", AtLeast), Pattern::Block4);
        assert_eq!(black("xx.xx*....", Exact), Pattern::Block3);
        // Caro: a five blocked at both ends does not win.
        assert_ne!(black("oxxxx*o", Unblocked), Pattern::Five);
        assert_eq!(black("oxxxx*.", Unblocked), Pattern::Five);
        assert_eq!(black("|xxxx*o", Unblocked), Pattern::Five);
    }
}
