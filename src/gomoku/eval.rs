//! The gomoku static evaluation: a linear model over [`FEATURES`] counts
//! taken on the candidate cells, from the side to move's view, fitted to
//! self-play outcomes.
//!
//! The main features are the cells' *combinations*: for each candidate cell
//! and colour, the four line patterns a stone there would make, as a
//! multiset (the order of the directions does not matter), from 8 pattern
//! grades: [`COMBOS`] of them per colour. A combination's weight says what
//! the cell is worth to that colour, so two open threes crossing on a cell
//! weigh what that shape is worth, not twice an open three.
//!
//! The search's move generator walks the candidate cells anyway (it needs
//! each cell's class for both colours), so it feeds every cell to a
//! [`Sink`]: [`Weighted`] sums the weights as it goes (one table lookup per
//! cell and colour), [`Counts`] counts the features for training. One
//! definition of the features ([`cell`], [`finish`]) serves both, so the
//! fitted model is the one the search runs. `oxello train-eval --game
//! gomoku` refits [`WEIGHTS`] from self-play records (see
//! `docs/training.md`).
//!
//! Against the hand-set evaluation it replaced (both sides' cell values
//! summed, plus a quarter of the side to move's best cell; 15x15 standard,
//! 0.3 s per move, 480 games), the combinations fitted to 5,000 self-play
//! games scored 263-0-217, about Elo +33 (+2 .. +65); the shipped weights,
//! refitted on four runs of 2,500 games, +26.1 +- 44.1 against the fit on
//! three. It costs little: 304 K nodes/s against 311 K. Other features,
//! shapes and fits (to Rapfi's judgments, per rule, a line-window residual)
//! predicted better and played no better: `docs/trials/gomoku.md`,
//! "Evaluation".

use crate::fitted;
use crate::gomoku::pattern::Pattern;
use crate::gomoku::threat::{Class, class_of_patterns};

/// The constant term (the side to move's tempo).
pub const BIAS: usize = 0;
/// Black is to move: the first player's advantage, which the constant term
/// cannot tell from the tempo.
pub const BLACK_TO_MOVE: usize = 1;
/// Cells where the opponent makes five (the side to move must block).
pub const THEIR_FIVES: usize = 2;
/// The side to move's best class, one-hot, [`Class::Three`] to
/// [`Class::FlexFour`] (5).
pub const MY_BEST: usize = 3;
/// The opponent's best class, one-hot, [`Class::Three`] to [`Class::Five`]
/// (6).
pub const THEIR_BEST: usize = 8;
/// The side to move has a four-three and the opponent no four: a win the
/// static sum cannot see.
pub const MY_FOUR_THREE_FIRST: usize = 14;
/// The side to move has a double three and the opponent no four.
pub const MY_DOUBLE_THREE_FIRST: usize = 15;
/// The opponent has a double three or better and the side to move not even
/// a three.
pub const THEIR_DOUBLE_THREAT: usize = 16;
/// Candidate cells by the side to move's combination ([`COMBOS`]).
pub const MY_COMBOS: usize = 17;
/// Candidate cells by the opponent's combination.
pub const THEIR_COMBOS: usize = MY_COMBOS + COMBOS;
/// Features in all.
pub const FEATURES: usize = THEIR_COMBOS + COMBOS;

/// Grades of a line pattern in a combination: dead (or an overline, or the
/// opponent's five, counted apart), one, two, blocked three, open three,
/// blocked four, open four, double four.
pub const GRADES: usize = 8;
/// Multisets of four grades: C(8 + 3, 4).
pub const COMBOS: usize = 330;

/// Weights are kept in units of `1 / WEIGHT_SCALE` evaluation units, so
/// that small weights keep their precision.
pub const WEIGHT_SCALE: i32 = 16;

/// The weight of each feature, in `1 / WEIGHT_SCALE` evaluation units:
/// `fitted/gomoku-eval.bin`, decoded when the crate is compiled.
pub const WEIGHTS: [i32; FEATURES] = match fitted::decode(&WEIGHTS_LAYOUT, WEIGHTS_FILE) {
    Ok(body) => match fitted::read_i32s::<FEATURES>(body) {
        Ok(weights) => weights,
        Err(_) => panic!("the gomoku weights hold one weight per feature"),
    },
    Err(_) => panic!("the gomoku weight file is well formed"),
};

const WEIGHTS_FILE: &[u8] = include_bytes!("../../fitted/gomoku-eval.bin");

/// The layout of the gomoku weight file ([`fitted`]): one `i32` per feature.
const WEIGHTS_LAYOUT: fitted::Layout = fitted::Layout {
    kind: *b"GMKU",
    version: 1,
    fields: [FEATURES as u32, 0, 0],
};

/// The weight file of `weights` (what [`WEIGHTS`] decodes).
pub fn encode_weights(weights: &[i32]) -> Vec<u8> {
    assert_eq!(weights.len(), FEATURES);
    fitted::encode(&WEIGHTS_LAYOUT, &fitted::i32s(weights))
}

/// The grade of a line pattern.
const fn grade(pattern: Pattern) -> usize {
    match pattern {
        Pattern::One => 1,
        Pattern::Two => 2,
        Pattern::Block3 => 3,
        Pattern::Flex3 => 4,
        Pattern::Block4 => 5,
        Pattern::Flex4 => 6,
        Pattern::DoubleFour => 7,
        Pattern::Dead | Pattern::Overline | Pattern::Five => 0,
    }
}

/// The grade of each colour's pattern in a packed byte (`[0]` Black, `[1]`
/// White).
static GRADE_OF: [[u8; 256]; 2] = {
    let mut table = [[0; 256]; 2];
    let mut byte = 0;
    while byte < 256 {
        table[0][byte] = grade(Pattern::of_packed(byte as u8, true)) as u8;
        table[1][byte] = grade(Pattern::of_packed(byte as u8, false)) as u8;
        byte += 1;
    }
    table
};

/// The four grades of a combination, ascending, by combination number.
pub const COMBO_GRADES: [[u8; 4]; COMBOS] = {
    let mut table = [[0; 4]; COMBOS];
    let mut id = 0;
    let mut a = 0;
    while a < GRADES {
        let mut b = a;
        while b < GRADES {
            let mut c = b;
            while c < GRADES {
                let mut d = c;
                while d < GRADES {
                    table[id] = [a as u8, b as u8, c as u8, d as u8];
                    id += 1;
                    d += 1;
                }
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    table
};

/// The class of a stone on a cell of combination `id` ([`COMBO_GRADES`]).
pub fn combo_class(id: usize) -> Class {
    // Grades 0 to 7 are the first eight patterns in code order.
    class_of_patterns(COMBO_GRADES[id].map(|g| Pattern::ALL[usize::from(g)]))
}

/// Four grades in direction order (3 bits each, the first direction
/// lowest) to their combination number.
static COMBO_OF: [u16; 1 << 12] = {
    let mut table = [0; 1 << 12];
    let mut id = 0;
    while id < COMBOS {
        let g = COMBO_GRADES[id];
        // Every ordering of the multiset.
        let orders = [
            [0, 1, 2, 3],
            [0, 1, 3, 2],
            [0, 2, 1, 3],
            [0, 2, 3, 1],
            [0, 3, 1, 2],
            [0, 3, 2, 1],
            [1, 0, 2, 3],
            [1, 0, 3, 2],
            [1, 2, 0, 3],
            [1, 2, 3, 0],
            [1, 3, 0, 2],
            [1, 3, 2, 0],
            [2, 0, 1, 3],
            [2, 0, 3, 1],
            [2, 1, 0, 3],
            [2, 1, 3, 0],
            [2, 3, 0, 1],
            [2, 3, 1, 0],
            [3, 0, 1, 2],
            [3, 0, 2, 1],
            [3, 1, 0, 2],
            [3, 1, 2, 0],
            [3, 2, 0, 1],
            [3, 2, 1, 0],
        ];
        let mut o = 0;
        while o < orders.len() {
            let p = orders[o];
            let key = g[p[0]] as usize
                | (g[p[1]] as usize) << 3
                | (g[p[2]] as usize) << 6
                | (g[p[3]] as usize) << 9;
            table[key] = id as u16;
            o += 1;
        }
        id += 1;
    }
    table
};

/// The key of [`COMBO_OF`] for one colour's patterns on a cell.
#[inline]
fn combo_key(packed: &[u8; 4], white: bool) -> usize {
    let grades = &GRADE_OF[usize::from(white)];
    usize::from(grades[usize::from(packed[0])])
        | usize::from(grades[usize::from(packed[1])]) << 3
        | usize::from(grades[usize::from(packed[2])]) << 6
        | usize::from(grades[usize::from(packed[3])]) << 9
}

/// Where the features of a position go.
pub trait Sink {
    /// Counts `feature` once.
    fn add(&mut self, feature: usize);

    /// Counts the combination of one colour's patterns on a cell, one packed
    /// byte per direction ([`crate::gomoku::pattern::PatternTable::packed`]),
    /// for the side to move (`mine`) or the opponent.
    fn combo(&mut self, packed: &[u8; 4], white: bool, mine: bool) {
        let base = if mine { MY_COMBOS } else { THEIR_COMBOS };
        self.add(base + usize::from(COMBO_OF[combo_key(packed, white)]));
    }
}

/// Sums the weights as features come: the search's evaluation.
#[derive(Default)]
pub struct Weighted(i32);

/// [`WEIGHTS`] of the combinations by [`COMBO_OF`] key, for the side to
/// move (`[0]`) and the opponent (`[1]`): one lookup per cell and colour.
static COMBO_WEIGHTS: [[i32; 1 << 12]; 2] = {
    let mut table = [[0; 1 << 12]; 2];
    let mut key = 0;
    while key < 1 << 12 {
        let id = COMBO_OF[key] as usize;
        table[0][key] = WEIGHTS[MY_COMBOS + id];
        table[1][key] = WEIGHTS[THEIR_COMBOS + id];
        key += 1;
    }
    table
};

impl Weighted {
    /// The evaluation, in evaluation units.
    pub fn value(&self) -> i32 {
        self.0.div_euclid(WEIGHT_SCALE)
    }
}

impl Sink for Weighted {
    #[inline]
    fn add(&mut self, feature: usize) {
        self.0 += WEIGHTS[feature];
    }

    #[inline]
    fn combo(&mut self, packed: &[u8; 4], white: bool, mine: bool) {
        self.0 += COMBO_WEIGHTS[usize::from(!mine)][combo_key(packed, white)];
    }
}

/// Counts the features, for training.
pub struct Counts(pub [f32; FEATURES]);

impl Default for Counts {
    fn default() -> Counts {
        Counts([0.0; FEATURES])
    }
}

impl Sink for Counts {
    fn add(&mut self, feature: usize) {
        self.0[feature] += 1.0;
    }
}

/// The features of one candidate cell: `packed` its patterns, `me_white`
/// whether the side to move is White, `mine` and `theirs` each colour's
/// class and ordering value there. A colour's combination counts only where
/// its value is not zero: renju's forbidden points are worth nothing to
/// Black.
#[inline]
pub fn cell<S: Sink>(
    sink: &mut S,
    packed: &[u8; 4],
    me_white: bool,
    mine: (Class, i32),
    theirs: (Class, i32),
) {
    if mine.1 != 0 {
        sink.combo(packed, me_white, true);
    }
    if theirs.1 != 0 {
        sink.combo(packed, !me_white, false);
    }
    if theirs.0 == Class::Five {
        sink.add(THEIR_FIVES);
    }
}

/// The place of `class` among [`Class::Three`] to `last`.
#[inline]
fn class_offset(class: Class, last: Class) -> Option<usize> {
    (class >= Class::Three && class <= last).then(|| class as usize - Class::Three as usize)
}

/// What the whole position adds: the constant, the colour to move, both
/// sides' best classes, and the combinations the side to move playing first
/// decides.
pub fn finish<S: Sink>(sink: &mut S, me_white: bool, my_best: Class, their_best: Class) {
    sink.add(BIAS);
    if !me_white {
        sink.add(BLACK_TO_MOVE);
    }
    if let Some(at) = class_offset(my_best, Class::FlexFour) {
        sink.add(MY_BEST + at);
    }
    if let Some(at) = class_offset(their_best, Class::Five) {
        sink.add(THEIR_BEST + at);
    }
    let their_four = their_best >= Class::Four;
    if their_best < Class::Five {
        if my_best == Class::FourThree && !their_four {
            sink.add(MY_FOUR_THREE_FIRST);
        } else if my_best == Class::DoubleThree && !their_four {
            sink.add(MY_DOUBLE_THREE_FIRST);
        } else if their_best >= Class::DoubleThree && my_best < Class::Three {
            sink.add(THEIR_DOUBLE_THREAT);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ordering_of_a_combination_has_its_number() {
        for (id, grades) in COMBO_GRADES.iter().enumerate() {
            assert!(grades.windows(2).all(|w| w[0] <= w[1]));
            let key = |g: [u8; 4]| {
                usize::from(g[0])
                    | usize::from(g[1]) << 3
                    | usize::from(g[2]) << 6
                    | usize::from(g[3]) << 9
            };
            let [a, b, c, d] = *grades;
            for g in [[a, b, c, d], [d, c, b, a], [b, d, a, c], [c, a, d, b]] {
                assert_eq!(usize::from(COMBO_OF[key(g)]), id);
            }
        }
        let distinct: std::collections::HashSet<_> = COMBO_GRADES.iter().collect();
        assert_eq!(distinct.len(), COMBOS);
        // [`combo_class`] reads grades as the first patterns in code order.
        for (g, &pattern) in Pattern::ALL.iter().take(GRADES).enumerate() {
            assert_eq!(grade(pattern), g);
        }
    }
}
