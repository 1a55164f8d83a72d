//! The tuner's first stage: a small model in which a cell's combination
//! of patterns is worth the sum of its four patterns plus a bonus for its
//! class (three, four, ...), started from hand-set values.

use super::samples::Sparse;
use crate::gomoku::eval::{
    BIAS, BLACK_TO_MOVE, COMBO_GRADES, FEATURES, MY_BEST, MY_COMBOS, MY_DOUBLE_THREE_FIRST,
    MY_FOUR_THREE_FIRST, THEIR_BEST, THEIR_COMBOS, THEIR_DOUBLE_THREAT, THEIR_FIVES, combo_class,
};
use crate::gomoku::threat::Class;

/// The first stage's features: the constant, Black to move, the opponent's
/// fives, the best classes and the three combinations of threats (as in
/// the full model), then per colour the 7 pattern grades (one to double
/// four) and the 5 classes (three to flex four) of the cells.
pub(super) mod small {
    pub const BIAS: usize = 0;
    pub const BLACK_TO_MOVE: usize = 1;
    pub const THEIR_FIVES: usize = 2;
    pub const MY_BEST: usize = 3;
    pub const THEIR_BEST: usize = 8;
    pub const THREATS: usize = 14;
    pub const MY_GRADES: usize = 17;
    pub const THEIR_GRADES: usize = 24;
    pub const MY_CLASSES: usize = 31;
    pub const THEIR_CLASSES: usize = 36;
    pub const FEATURES: usize = 41;
}

/// Hand-set values of the first stage, in evaluation units: the patterns
/// and class bonuses of the evaluation before it was fitted (a quarter of
/// the cell values), and its threat bonuses.
pub(super) const HAND_SET: [f64; small::FEATURES] = [
    0.0, 0.0, -2500.0, // constant, Black to move, their fives
    25.0, 150.0, 30.0, 412.0, 650.0, // my best: three .. flex four
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // their best: three .. five
    3000.0, 1500.0, -600.0, // threats
    0.5, 2.0, 6.0, 17.5, 20.0, 150.0, 150.0, // my grades
    -0.5, -2.0, -6.0, -17.5, -20.0, -150.0, -150.0, // their grades
    0.0, 100.0, 0.0, 375.0, 500.0, // my classes
    0.0, -100.0, 0.0, -375.0, -500.0, // their classes
];

/// What each full feature adds to the first stage's features.
pub(super) fn reduction() -> Vec<Sparse> {
    let mut map = vec![Vec::new(); FEATURES];
    map[BIAS] = vec![(small::BIAS, 1.0)];
    map[BLACK_TO_MOVE] = vec![(small::BLACK_TO_MOVE, 1.0)];
    map[THEIR_FIVES] = vec![(small::THEIR_FIVES, 1.0)];
    for i in 0..5 {
        map[MY_BEST + i] = vec![(small::MY_BEST + i, 1.0)];
    }
    for i in 0..6 {
        map[THEIR_BEST + i] = vec![(small::THEIR_BEST + i, 1.0)];
    }
    map[MY_FOUR_THREE_FIRST] = vec![(small::THREATS, 1.0)];
    map[MY_DOUBLE_THREE_FIRST] = vec![(small::THREATS + 1, 1.0)];
    map[THEIR_DOUBLE_THREAT] = vec![(small::THREATS + 2, 1.0)];
    for (id, &grades) in COMBO_GRADES.iter().enumerate() {
        for (base, grade_base, class_base) in [
            (MY_COMBOS, small::MY_GRADES, small::MY_CLASSES),
            (THEIR_COMBOS, small::THEIR_GRADES, small::THEIR_CLASSES),
        ] {
            let mut parts: Sparse = Vec::new();
            for &g in grades.iter().filter(|&&g| g > 0) {
                parts.push((grade_base + usize::from(g) - 1, 1.0));
            }
            let class = combo_class(id);
            if class >= Class::Three {
                parts.push((class_base + class as usize - Class::Three as usize, 1.0));
            }
            map[base + id] = parts;
        }
    }
    map
}

/// `x` in the first stage's features.
pub(super) fn reduce(x: &Sparse, map: &[Sparse]) -> Sparse {
    let mut dense = [0.0; small::FEATURES];
    for &(f, v) in x {
        for &(g, c) in &map[f] {
            dense[g] += v * c;
        }
    }
    super::samples::sparse(&dense)
}
