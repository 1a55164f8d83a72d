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
//! fitted model is the one the search runs. `cargo run --release --example
//! gomoku_tune` refits [`WEIGHTS`] from self-play records (see the
//! example's documentation).
//!
//! Measured (15x15 standard, 0.3 s per move, the 120 balanced openings with
//! both colours, 240 games a match, against the hand-set evaluation it
//! replaced: both sides' cell values summed, plus a quarter of the side to
//! move's best cell):
//! - the same features without combinations (per-direction patterns and
//!   cell classes, 41 weights), fitted to 2,500 self-play games: Elo
//!   +33.4 +- 44.3;
//! - the combinations fitted to the same games: +10.1 +- 44.1;
//! - the combinations fitted to those games plus 2,500 played by that
//!   build (held-out log loss 0.444, against 0.464 for the 41 weights and
//!   0.587 for the self-play searches' own scores): +29.0 +- 44.4, and
//!   +37.8 +- 44.5 with the openings in another order; the two together
//!   263-0-217, about +33 (interval +2 .. +65).
//!
//! Each further run of 2,500 games, played by the last fit, and a refit on
//! all runs (same conditions, each against the fit before):
//! - three runs (`--ridge 3e-3`; held-out log loss 0.426 against 0.430
//!   for the two-run fit on the same games): +37.8 +- 44.5, and +0.0 +-
//!   44.2 with the openings in another order; together 253-0-227, about
//!   +19 +- 31;
//! - four runs, the weights shipped (held-out 0.443 against 0.446 for the
//!   two-run fit): +26.1 +- 44.1 (128-2-110);
//! - five runs: held-out 0.434 against 0.433 for the shipped weights, so
//!   the loop has stopped paying with these features and was not played.
//!
//! Its cost is small: 8 middle-game positions to depth 6 ran at 304 K
//! nodes/s against 311 K with the hand-set sum.
//!
//! Tried and not kept: features of the whole position, namely the pair of
//! both sides' best classes (35) and how many cells give each side a three
//! or better (1, 2, 3, 4+) and a plain four (1, 2, 3+). Fitted to the four
//! runs, the held-out log loss fell from 0.443 to 0.440, but against the
//! weights without them they scored +13.0 +- 44.1 and -7.2 +- 44.1 with
//! the openings in another order: 241-2-237 together, about +3.
//!
//! Also tried and not kept: splitting ones and twos into open and blocked
//! (a line where three or two more stones can make an open four with the
//! cell, or cannot: 10 grades, 715 combinations per colour). With the
//! split combinations first given their unsplit weights (`bench --game
//! gomoku` gave the same 3,084,651 nodes), 2,500 more self-play games
//! (seed 15, played by the shipped weights) did not improve on them: the
//! held-out log loss was 0.3812 for the shipped weights, 0.3831 refined
//! from them (ridge 1e-1; 0.3877 with 3e-3) and 0.3898 fitted from the
//! first stage. Ordering by split values (1, 3, 4 and 10 for blocked one,
//! open one, blocked two and open two, against 2, 2, 8 and 8) scored Elo
//! -8.7 +- 53.9 (15x15 standard, 0.2 s per move, 160 games).
//!
//! Also tried and not kept: Rapfi's average of the evaluation before and
//! after the last move (its pattern sum is taken as the mean of the
//! position's and its parent's, which smooths the swing of whose turn it
//! is). Here the parent's evaluation, negated, is the mean's other half:
//! - the combinations' part averaged (the rest of the features, the
//!   threats, taken as they are): the 20 positions of
//!   `scripts/gomoku-profile.sh` at 1 s each reached depths summing to
//!   234 against 214, but against Rapfi capped at 40,000 nodes a move (see
//!   the search's module documentation) it scored 30-0-170 (15.0%)
//!   against 29.1%: a move's new threes and fours count half;
//! - the whole evaluation averaged: depths 222, and 42-0-121 after 163
//!   games (25.8%; stopped).
//!
//! Also tried and not kept: the constant term (the side to move's tempo,
//! 179 units) moved by 90 units either way, against Rapfi capped at 40,000
//! nodes a move (seed 2, 200 games; the weights as they are scored
//! 67-2-131, 34.0%): +90 (the 20 positions of `scripts/gomoku-profile.sh`
//! at 300,000 nodes reached depths summing to 191 against 184) scored
//! 57-3-140 (29.2%), -90 (depths 169) 58-0-142 (29.0%). Nor weights fitted
//! to Rapfi's evaluations (see `examples/gomoku_tune.rs`).
//!
//! Also tried and not kept, in the session of 2026-11-29 (against Rapfi
//! capped at 40,000 nodes a move, seed 2, 200 games; the weights as they
//! are scored 54-0-146, 27.0%, in that session, and 67-2-131 in the one
//! before):
//! - weights fitted to Rapfi's scores of positions from inside the search,
//!   not played ones: the leaves of the search's own trees (see the
//!   search's `leaf`), 48,357 after the VCF wins, labelled by Rapfi at
//!   10,000 nodes, a proven win read as +1,200 of its units (its `K`
//!   216.3 from the played positions), refined from the weights in force
//!   with `--lambda 0`: the held-out log loss against Rapfi's win
//!   probabilities fell from 0.507 to 0.424 (our `K` 330.6, the spread of
//!   the evaluations 740 against 573), and it scored 37-2-161 (19.0%);
//!   with the constant and Black-to-move weights held (0.438), 47-7-146
//!   (25.2%); with our `K` set to 255 so that the spread stays (609),
//!   12-0-45 after 57 games (stopped);
//! - comparison training on Rapfi's moves: the weights fitted so that the
//!   evaluation after each move (the opponent's, negated) picks Rapfi's
//!   100,000-node move, by a softmax over the moves (4,062 positions of
//!   the 1 s games against Rapfi, 489 held out): on the held-out
//!   positions Rapfi's move came first in 24.3% against 19.8% and among
//!   the first 12 in 82.4% against 73.0% (the threat order of the search:
//!   77%), but it scored 5-0-28 after 33 games; the combinations' weights
//!   alone (23.9% and 79.1%), 4-0-28 after 32 (both stopped).
//!
//! Every fit to Rapfi's judgments so far has predicted them better and
//! played worse. The fits lower the value of the side to move's threats
//! (here the weight of the side to move's best class being a three, 203
//! units, to 104, 90 and 97 in the three fits), which Rapfi's search
//! resolves and ours must score.
//!
//! Also tried and not kept, in the session of 2026-12-01: freestyle's own
//! weights (every rule here uses these, fitted to 15x15 standard). A
//! scratch build chose the weights by rule, and `gomoku_tune` refined a
//! freestyle copy of them from 2,500 self-play games of 20x20 freestyle
//! (`oxello selfplay --game gomoku --rule freestyle --size 20 --games 2500
//! --nodes 40000 --seed 21 --threads 2`, 21 minutes; 21,775 positions to
//! fit, 2,368 held out). The held-out log loss was 0.3656 for these
//! weights, 0.3496 refined with `--ridge 1e-1` (0.3533 with 3e-2, 0.3668
//! with 3e-3), and 0.3730 for the two-stage fit. The refined weights
//! scored 180-0-220, Elo -34.9 +- 34.3 (95% interval -69.5 .. -0.9), against
//! these (20x20 freestyle, 0.2 s a move, `--openings
//! positions/gomoku-balanced-20-freestyle.txt`, seed 10): they predict the
//! outcomes better and play worse, as the fits to Rapfi's judgments did.
//! At the measure (session of 2026-12-02: against full Rapfi
//! classical at 1 s a move, 20x20 freestyle, seed 13) they scored 11-0-89
//! (11.0%), the same as these weights with the same seed (11-0-89): no
//! better either.
//!
//! Also tried and not kept, in the session of 2026-12-02 (the second):
//! an evaluation of another shape, a residual over the raw line windows
//! on top of these weights. Every candidate cell adds, for each of its
//! four directions, a learned value of the 8 cells around it on that line
//! (radius 4, the 2 bits of each cell: empty, own, opponent's, wall; side
//! to move relative; a window and its mirror share a value: 3,994 windows
//! seen). A scratch build read the table from a file. It was fitted by
//! Adam on the log loss of the outcomes, the weights in force held (their
//! `K` 257.5), to 2,500 + about 8,000 games of 20x20 freestyle self-play (`oxello
//! selfplay --game gomoku --rule freestyle --size 20 --nodes 40000
//! --threads 2`, seeds 21 and 31; 92,140 positions to fit, 10,117 held
//! out). The held-out log loss fell from 0.3698 to 0.3415 (ridge 1e-6; on
//! a quarter of the data 0.3690 to 0.3547: the gain grew with the data), a
//! larger gain than any refit of the weights in force. `bench --game
//! gomoku` took 1,127,040 nodes. Against full Rapfi classical at 1 s a
//! move (20x20 freestyle, seed 13, `--grace 4`) it scored 9-0-91 (9.0%),
//! where these weights scored 11-0-89 with the same seed: predicting our
//! own games' outcomes better does not play better against Rapfi, here
//! as in every fit before. The trainer and the build's diff are kept
//! outside the repository, in `../runs/win/`.
//!
//! Ordering moves by these weights was tried and lost: see the search's
//! `WIDTH`.

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
