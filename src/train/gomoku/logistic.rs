//! The gomoku tuner's model: the side to move wins with probability
//! `1 / (1 + exp(-eval / K))`, a draw counting half, fitted by Newton's
//! method on the log loss.

use super::samples::{Sample, Sparse};
use crate::train::linalg::solve;

pub(super) fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn log_loss(p: f64, target: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(target * p.ln() + (1.0 - target) * (1.0 - p).ln())
}

pub(super) fn dot(w: &[f64], x: &Sparse) -> f64 {
    x.iter().map(|&(i, v)| w[i] * v).sum()
}

/// The mean log loss of the weights `w` through `k`.
pub(super) fn mean_loss(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    samples
        .iter()
        .map(|s| log_loss(sigmoid(dot(w, &s.features) / k), s.target))
        .sum::<f64>()
        / samples.len().max(1) as f64
}

/// The mean log loss of the outcomes predicted from the value `of` each
/// sample through `k`.
fn value_loss(samples: &[Sample], k: f64, of: fn(&Sample) -> f64) -> f64 {
    samples
        .iter()
        .map(|s| log_loss(sigmoid(of(s) / k), s.target))
        .sum::<f64>()
        / samples.len().max(1) as f64
}

/// The mean log loss of the search's scores through `k`.
pub(super) fn score_loss(samples: &[Sample], k: f64) -> f64 {
    value_loss(samples, k, |s| s.score)
}

/// The mean log loss of the teacher's scores through `k`.
pub(super) fn teacher_loss(samples: &[Sample], k: f64) -> f64 {
    value_loss(samples, k, |s| s.teacher)
}

/// The `K` that best predicts the outcomes from the scores `loss` reads
/// (golden section on the log loss).
pub(super) fn fit_scale(samples: &[Sample], loss: fn(&[Sample], f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (10.0f64, 5000.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if loss(samples, a) < loss(samples, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Newton's method on the log loss plus a ridge towards `prior` (weight
/// `ridge` per sample), with a backtracking line search; each round is
/// reported.
pub(super) fn fit(
    samples: &[Sample],
    prior: &[f64],
    k: f64,
    ridge: f64,
    report: &mut dyn FnMut(&str),
) -> Vec<f64> {
    let n = prior.len();
    let lambda = ridge * samples.len() as f64;
    let objective = |w: &[f64]| {
        mean_loss(samples, w, k)
            + lambda / samples.len() as f64
                * w.iter()
                    .zip(prior)
                    .map(|(a, b)| (a - b) * (a - b))
                    .sum::<f64>()
                / (k * k)
    };
    let mut w = prior.to_vec();
    for round in 0..40 {
        let mut grad = vec![0.0; n];
        let mut hess = vec![vec![0.0; n]; n];
        for s in samples {
            let p = sigmoid(dot(&w, &s.features) / k);
            let g = (p - s.target) / k;
            let h = p * (1.0 - p) / (k * k);
            for &(j, xj) in &s.features {
                grad[j] += g * xj;
                let row = &mut hess[j];
                for &(l, xl) in &s.features {
                    row[l] += h * xj * xl;
                }
            }
        }
        for j in 0..n {
            grad[j] += 2.0 * lambda * (w[j] - prior[j]) / (k * k);
            hess[j][j] += 2.0 * lambda / (k * k) + 1e-9;
        }
        let step = solve(hess, grad);
        let size: f64 = step.iter().map(|d| d * d).sum::<f64>().sqrt();
        // Backtracking: halve the step until the objective falls.
        let before = objective(&w);
        let mut t = 1.0;
        let mut next: Vec<f64> = w.iter().zip(&step).map(|(a, d)| a - t * d).collect();
        while objective(&next) > before && t > 1e-6 {
            t /= 2.0;
            next = w.iter().zip(&step).map(|(a, d)| a - t * d).collect();
        }
        w = next;
        report(&format!(
            "  round {round}: step {:.3}, loss {:.5}",
            t * size,
            mean_loss(samples, &w, k)
        ));
        if t * size < 1e-3 {
            break;
        }
    }
    w
}
