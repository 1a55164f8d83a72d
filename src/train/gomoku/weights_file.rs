//! The weights file the gomoku tuner writes: `fitted/gomoku-eval.bin`, in
//! the fitted-data format ([`crate::fitted`]), which the next build embeds.

use crate::gomoku::eval::{WEIGHT_SCALE, encode_weights};

/// The weights `w` (evaluation units) in `1 / WEIGHT_SCALE` units, rounded.
pub fn scaled(w: &[f64]) -> Vec<i32> {
    w.iter()
        .map(|&x| (x * f64::from(WEIGHT_SCALE)).round() as i32)
        .collect()
}

/// The bytes of the weights file for `weights` (as [`scaled`] gives them).
pub fn file(weights: &[i32]) -> Vec<u8> {
    encode_weights(weights)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_weights_file_is_what_the_tuner_writes() {
        let shipped = include_bytes!("../../../fitted/gomoku-eval.bin");
        assert_eq!(file(&crate::gomoku::eval::WEIGHTS), shipped);
        let evaluation_units: Vec<f64> = crate::gomoku::eval::WEIGHTS
            .iter()
            .map(|&w| f64::from(w) / f64::from(WEIGHT_SCALE))
            .collect();
        assert_eq!(scaled(&evaluation_units), crate::gomoku::eval::WEIGHTS);
    }
}
