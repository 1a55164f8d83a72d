//! Training the pattern evaluation ([`super::patterns`]) from game records.
//!
//! Every position of every finished game is a sample, labelled with the
//! game's theoretical score (the perfect-play result from the position
//! [`WthorHeader::theoretical_depth`] empties before the end, as the WTHOR
//! files record it) from the side to move's view. Each phase is fitted by
//! stochastic gradient descent on the squared error, over the positions of
//! its own empties band and the bands next to it (so rare phases borrow
//! data), in a fixed shuffled order: the same games give the same weights.
//! One game in [`VALIDATION_EVERY`] is held out to measure the error.
//!
//! [`WthorHeader::theoretical_depth`]: crate::formats::wthor::WthorHeader::theoretical_depth

use super::patterns::{
    EMPTIES_PER_PHASE, LOOKUPS, PHASE_WEIGHTS, PHASES, PatternWeights, WEIGHT_SCALE, lookups,
    mobilities,
};
use crate::board::Board;
use crate::color::Color;
use crate::formats::wthor::WtbFile;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// One game in this many is kept out of training, to measure the error.
pub const VALIDATION_EVERY: usize = 10;

/// A position and its label: the final disc difference for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub board: Board,
    pub label: i8,
}

/// The training and validation samples of a set of game files.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    pub training: Vec<Sample>,
    pub validation: Vec<Sample>,
    /// Games used and games skipped (unfinished or unreadable).
    pub games: usize,
    pub skipped: usize,
}

impl Samples {
    /// Adds every position of every finished game of `file`.
    pub fn add_file(&mut self, file: &WtbFile) {
        let exact_from = u32::from(file.header.theoretical_depth());
        for record in &file.games {
            let Ok(game) = record.replay() else {
                self.skipped += 1;
                continue;
            };
            if !game.is_over() || record.theoretical_score > 64 {
                self.skipped += 1;
                continue;
            }
            let theoretical = 2 * i32::from(record.theoretical_score) - 64;
            let real = 2 * i32::from(record.real_score) - 64;
            let target = if self.games.is_multiple_of(VALIDATION_EVERY) {
                &mut self.validation
            } else {
                &mut self.training
            };
            for position in game.positions() {
                if position.board.legal_moves() == 0 {
                    continue; // passes and the final position teach nothing
                }
                // Past the theoretical score's depth the players' own moves
                // decide: the real result is the better label there.
                let black_score = if position.board.empties().count_ones() < exact_from {
                    real
                } else {
                    theoretical
                };
                let label = match position.side {
                    Color::Black => black_score,
                    Color::White => -black_score,
                };
                target.push(Sample {
                    board: position.board,
                    label: label as i8,
                });
            }
            self.games += 1;
        }
    }
}

/// How to train.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainOptions {
    /// Passes over the samples of each phase.
    pub epochs: usize,
    /// Step of the first epoch, per lookup.
    pub learning_rate: f32,
    /// Each epoch's step is the previous one times this.
    pub decay: f32,
    /// Seed of the sample order.
    pub seed: u64,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            epochs: 12,
            learning_rate: 0.002,
            decay: 0.75,
            seed: 2026,
        }
    }
}

/// The error of one phase on the held-out games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PhaseReport {
    pub phase: usize,
    pub training_samples: usize,
    pub validation_samples: usize,
    /// Root mean square error on the held-out positions, in discs.
    pub validation_rms: f64,
    /// The same for always predicting 0, for comparison.
    pub baseline_rms: f64,
}

/// The samples of one phase, with their lookups computed once.
struct PhaseData {
    lookups: Vec<[u32; LOOKUPS]>,
    mobility: Vec<(f32, f32)>,
    labels: Vec<f32>,
}

impl PhaseData {
    fn new<'a>(samples: impl Iterator<Item = &'a Sample>) -> PhaseData {
        let mut data = PhaseData {
            lookups: Vec::new(),
            mobility: Vec::new(),
            labels: Vec::new(),
        };
        for sample in samples {
            let (mine, theirs) = mobilities(sample.board);
            data.lookups.push(lookups(sample.board));
            data.mobility.push((mine as f32, theirs as f32));
            data.labels.push(f32::from(sample.label));
        }
        data
    }

    fn predict(&self, weights: &[f32], i: usize) -> f32 {
        let (mine, theirs) = self.mobility[i];
        let mut sum = weights[0] + weights[1] * mine + weights[2] * theirs;
        for &index in &self.lookups[i] {
            sum += weights[index as usize];
        }
        sum
    }

    fn rms(&self, weights: &[f32]) -> f64 {
        let n = self.labels.len().max(1) as f64;
        let sum: f64 = (0..self.labels.len())
            .map(|i| f64::from(self.labels[i] - self.predict(weights, i)).powi(2))
            .sum();
        (sum / n).sqrt()
    }
}

/// Whether a position with `empties` empties trains `phase`: its own band
/// and half a band on each side.
fn trains_phase(empties: u32, phase: usize) -> bool {
    let low = (phase * EMPTIES_PER_PHASE).saturating_sub(EMPTIES_PER_PHASE / 2);
    let high = phase * EMPTIES_PER_PHASE + EMPTIES_PER_PHASE - 1 + EMPTIES_PER_PHASE / 2;
    (low..=high).contains(&(empties as usize))
}

/// Fits every phase; `progress` hears about each one as it is done.
pub fn train(
    samples: &Samples,
    options: TrainOptions,
    progress: &mut dyn FnMut(&PhaseReport),
) -> (PatternWeights, Vec<PhaseReport>) {
    let mut result = PatternWeights::zero();
    let mut reports = Vec::new();
    let mut rng = rand::rngs::StdRng::seed_from_u64(options.seed);
    for phase in 0..PHASES {
        let in_phase = |s: &&Sample| trains_phase(s.board.empties().count_ones(), phase);
        let training = PhaseData::new(samples.training.iter().filter(in_phase));
        let validation = PhaseData::new(
            samples
                .validation
                .iter()
                .filter(|s| super::patterns::phase(s.board.empties().count_ones()) == phase),
        );
        let weights = fit(&training, options, &mut rng);
        let report = PhaseReport {
            phase,
            training_samples: training.labels.len(),
            validation_samples: validation.labels.len(),
            validation_rms: validation.rms(&weights),
            baseline_rms: validation.rms(&vec![0.0; PHASE_WEIGHTS]),
        };
        progress(&report);
        reports.push(report);
        for (stored, &weight) in result.phase_mut(phase).iter_mut().zip(&weights) {
            *stored = (weight * WEIGHT_SCALE as f32)
                .round()
                .clamp(-f32::from(i16::MAX), f32::from(i16::MAX)) as i16;
        }
    }
    (result, reports)
}

/// Stochastic gradient descent on one phase's squared error.
fn fit(data: &PhaseData, options: TrainOptions, rng: &mut impl Rng) -> Vec<f32> {
    let mut weights = vec![0.0f32; PHASE_WEIGHTS];
    if data.labels.is_empty() {
        return weights;
    }
    // Start the bias at the mean label so the patterns learn the rest.
    weights[0] = data.labels.iter().sum::<f32>() / data.labels.len() as f32;
    let mut order: Vec<u32> = (0..data.labels.len() as u32).collect();
    let mut rate = options.learning_rate;
    // The mobility counts are ~10 times a lookup's 0/1: a smaller step.
    const SCALAR_RATE: f32 = 0.01;
    for _ in 0..options.epochs {
        order.shuffle(rng);
        for &i in &order {
            let i = i as usize;
            let step = rate * (data.labels[i] - data.predict(&weights, i));
            let (mine, theirs) = data.mobility[i];
            weights[0] += step;
            weights[1] += step * SCALAR_RATE * mine;
            weights[2] += step * SCALAR_RATE * theirs;
            for &index in &data.lookups[i] {
                weights[index as usize] += step;
            }
        }
        rate *= options.decay;
    }
    weights
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::test_support::random_game_boards;

    /// The disc difference is a sum over squares, so the patterns can learn
    /// it: training must bring the held-out error far below predicting 0.
    #[test]
    fn training_learns_a_learnable_target() {
        let label =
            |b: &Board| (b.player.count_ones() as i32 - b.opponent.count_ones() as i32) as i8;
        let boards = random_game_boards(crate::bitboard::BoardSize::Eight, 400, 5);
        let mut samples = Samples::default();
        for (i, board) in boards.iter().enumerate() {
            let sample = Sample {
                board: *board,
                label: label(board),
            };
            if i.is_multiple_of(VALIDATION_EVERY) {
                samples.validation.push(sample);
            } else {
                samples.training.push(sample);
            }
        }
        let options = TrainOptions {
            epochs: 30,
            learning_rate: 0.005,
            ..TrainOptions::default()
        };
        let (weights, reports) = train(&samples, options, &mut |_| {});
        for report in &reports[2..12] {
            assert!(
                report.validation_rms < 0.5 * report.baseline_rms,
                "{report:?}"
            );
        }
        // The stored weights give what the training measured.
        let board = boards[boards.len() / 2];
        let error = (weights.evaluate(board) - i32::from(label(&board))).abs();
        assert!(error <= 8, "{error}");
    }
}
