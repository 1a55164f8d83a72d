//! The weights file the gomoku tuner writes: `src/gomoku/eval_weights.rs`,
//! one weight a line with the feature's name.

use crate::gomoku::eval::{
    BIAS, BLACK_TO_MOVE, COMBO_GRADES, FEATURES, MY_BEST, MY_COMBOS, MY_DOUBLE_THREE_FIRST,
    MY_FOUR_THREE_FIRST, THEIR_BEST, THEIR_COMBOS, THEIR_DOUBLE_THREAT, THEIR_FIVES, WEIGHT_SCALE,
};

/// A readable name of each feature, for the weights file.
fn name(feature: usize) -> String {
    const CLASSES: [&str; 6] = [
        "three",
        "double three",
        "four",
        "four-three",
        "flex four",
        "five",
    ];
    const GRADES: [&str; 8] = ["-", "1", "2", "3b", "3", "4b", "4", "44"];
    match feature {
        BIAS => "constant".into(),
        BLACK_TO_MOVE => "Black to move".into(),
        THEIR_FIVES => "their fives".into(),
        f if (MY_BEST..MY_BEST + 5).contains(&f) => format!("my best: {}", CLASSES[f - MY_BEST]),
        f if (THEIR_BEST..THEIR_BEST + 6).contains(&f) => {
            format!("their best: {}", CLASSES[f - THEIR_BEST])
        }
        MY_FOUR_THREE_FIRST => "my four-three first".into(),
        MY_DOUBLE_THREE_FIRST => "my double three first".into(),
        THEIR_DOUBLE_THREAT => "their double threat".into(),
        f => {
            let (whose, id) = if f < THEIR_COMBOS {
                ("my", f - MY_COMBOS)
            } else {
                ("their", f - THEIR_COMBOS)
            };
            let grades: Vec<&str> = COMBO_GRADES[id]
                .iter()
                .map(|&g| GRADES[usize::from(g)])
                .collect();
            format!("{whose} cells {}", grades.join(" "))
        }
    }
}

/// The weights `w` (evaluation units) in `1 / WEIGHT_SCALE` units, rounded.
pub fn scaled(w: &[f64]) -> Vec<i32> {
    w.iter()
        .map(|&x| (x * f64::from(WEIGHT_SCALE)).round() as i32)
        .collect()
}

/// The Rust source of the weights file for `weights` (as [`scaled`] gives
/// them).
pub fn source(weights: &[i32]) -> String {
    let mut text = String::from(
        "//! The weights of [`crate::gomoku::eval`], in `1 / WEIGHT_SCALE` evaluation\n\
         //! units, written by `oxello train-eval --game gomoku`. Grades: `-` dead,\n\
         //! `1` one, `2` two, `3b` blocked three, `3` open three, `4b` blocked\n\
         //! four, `4` open four, `44` double four.\n\n\
         /// By feature index ([`crate::gomoku::eval::FEATURES`]).\n",
    );
    text.push_str(&format!("pub const WEIGHTS: [i32; {FEATURES}] = [\n"));
    for (feature, w) in weights.iter().enumerate() {
        text.push_str(&format!("    {:<8}// {}\n", format!("{w},"), name(feature)));
    }
    text.push_str("];\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_weights_file_is_what_the_tuner_writes() {
        let shipped = include_str!("../../gomoku/eval_weights.rs");
        assert_eq!(source(&crate::gomoku::eval::WEIGHTS), shipped);
        let evaluation_units: Vec<f64> = crate::gomoku::eval::WEIGHTS
            .iter()
            .map(|&w| f64::from(w) / f64::from(WEIGHT_SCALE))
            .collect();
        assert_eq!(scaled(&evaluation_units), crate::gomoku::eval::WEIGHTS);
    }
}
