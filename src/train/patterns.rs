//! Training the pattern evaluations ([`crate::eval::patterns`] on 8x8,
//! [`crate::eval::six`] on 6x6: the [`Model`]s [`EIGHT`] and [`SIX`]) from game
//! records, and from self-play records ([`Samples::add_selfplay`]).
//!
//! Every position of every finished game is a sample, labelled with the
//! game's theoretical score (the perfect-play result from the position
//! [`WthorHeader::theoretical_depth`] empties before the end, as the WTHOR
//! files record it) from the side to move's view, and past that depth
//! with the players' own result. Positions solved exactly by our solver
//! (`scripts/solve-labels.sh`) may be added ([`Samples::add_solved`]),
//! and the labels of positions before the theoretical depth may be blended
//! with search values (`oxello search-labels`, [`Samples::add_searched`]).
//! Each phase is fitted with
//! Adam on the squared error plus an L2 penalty, in mini-batches, over the
//! positions of its own empties band and one band on each side (so every
//! phase sees three times its own data and neighbouring phases agree). The
//! phases are trained from the opening to the end, each starting from the
//! weights of the one before, in a fixed shuffled order: the same games give
//! the same weights. One game in [`VALIDATION_EVERY`] is held out to
//! measure the error, phase by phase, as the training runs.
//!
//! [`WthorHeader::theoretical_depth`]: crate::formats::wthor::WthorHeader::theoretical_depth

use crate::bitboard::BoardSize;
use crate::board::Board;
use crate::color::Color;
use crate::eval::patterns::{
    EMPTIES_PER_PHASE, INSTANCES, PHASE_WEIGHTS, PHASES, PatternWeights, WEIGHT_SCALE, mobilities,
    shared_lookups,
};
use crate::formats::obf::ObfEntry;
use crate::formats::wthor::{WtbFile, WthorGame};
use crate::game::Game;
use crate::position::Position;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rustc_hash::FxHashMap;

/// One game in this many is kept out of training, to measure the error.
pub const VALIDATION_EVERY: usize = 10;

/// A position and its label: the final disc difference for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub board: Board,
    pub label: i8,
}

/// The training and validation samples of a set of game files, solved
/// positions and self-play records.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    pub training: Vec<Sample>,
    /// The held-out games' positions.
    pub validation: Vec<Sample>,
    /// The held-out solved positions: their error is measured apart, as
    /// the only one against exact labels past the theoretical depth.
    pub solved_validation: Vec<Sample>,
    /// Games used and games skipped (unfinished or unreadable), or records
    /// of another board size skipped. `games` numbers the game files'
    /// games, which decides the held-out ones: self-play games are counted
    /// apart, so that adding them holds out the same game files' games.
    pub games: usize,
    pub selfplay_games: usize,
    /// Self-play records of another board size, skipped.
    pub other_size: usize,
    pub skipped: usize,
    /// Exactly solved positions added by [`Samples::add_solved`].
    pub solved: usize,
    /// Search values of positions past the theoretical depth
    /// ([`Samples::add_searched`]), by board.
    pub searched: FxHashMap<Board, i8>,
    /// The share of the search value in a searched position's label, the
    /// rest being the game's (0 to 1).
    pub search_weight: f32,
    /// Training positions whose label took a search value.
    pub searched_used: usize,
    /// The share of the self-play search's score in the label of a
    /// self-play position not solved exactly, the rest being the game's
    /// outcome (0 to 1); held-out positions keep the outcome.
    pub selfplay_search_weight: f32,
    /// Discs added to the outcome in the label of a training self-play position
    /// whose side to move is not the side to move at its game's first
    /// solved position: that side made one move more before the solve, so
    /// its outcome reads low (1.18 ± 0.23 discs at 21 empties, 0.24 ± 0.26
    /// at 22, level 14 at depth 8; docs/trials/othello.md, "The parity of
    /// the self-play outcome labels").
    pub selfplay_parity_fix: i8,
    /// Discs added to the game's label of a training WTHOR position of odd
    /// empties, [`WTHOR_PARITY_FIX_FROM`] or more, without an exact score.
    /// The theoretical score's position (24 empties in the files) and the
    /// game's end are at even empties, so that side to move has made one
    /// move more before them: the players' move at 24 empties lost 2.27 ±
    /// 0.34 discs on average (docs/trials/othello.md, "The parity of the
    /// self-play outcome labels", which has the WTHOR figures too).
    pub wthor_parity_fix: i8,
    /// Exact scores of game positions ([`Samples::add_exact`]), by board:
    /// they replace the game's label at any number of empties.
    pub exact: FxHashMap<Board, i8>,
    /// Game positions whose label is an exact score.
    pub exact_used: usize,
}

/// The fewest empties [`Samples::wthor_parity_fix`] moves: the bias was
/// measured at 22-23 empties, and `search-labels --exact 16` labels the
/// positions below this exactly (without `--exact` the real results there
/// are near the exact scores, and the fix would only add error).
pub const WTHOR_PARITY_FIX_FROM: u32 = 17;

/// For each record, the side to move at the first exact record at or after
/// it in the same game (the records of a game are consecutive), or `None`
/// when the game has no solved record from there on.
fn first_solved_sides(records: &[crate::selfplay::Record]) -> Vec<Option<Color>> {
    let mut sides = vec![None; records.len()];
    let mut next: Option<(u32, Color)> = None;
    for (record, side) in records.iter().zip(sides.iter_mut()).rev() {
        if next.is_some_and(|(game, _)| game != record.game) {
            next = None;
        }
        if record.exact {
            next = Some((record.game, record.position.side));
        }
        *side = next.map(|(_, side)| side);
    }
    sides
}

impl Samples {
    /// Adds every exactly solved position of `entries` (an OBF file's
    /// entries: the best score is the label), one in [`VALIDATION_EVERY`]
    /// held out apart ([`Samples::solved_validation`]). Entries without a
    /// score or without a legal move are skipped.
    ///
    /// They are added to the games' positions, not put in place of those
    /// with the same number of empties: with 200,000 solved positions of
    /// 14-20 empties, the held-out error on solved positions fell by
    /// 0.04-0.12 discs at 14-21 empties when both were kept, and rose by up
    /// to 0.38 when the solved positions replaced the players' results
    /// (too few samples for the weights; docs/training.md, "Training the evaluation").
    pub fn add_solved(&mut self, entries: &[ObfEntry]) {
        for entry in entries {
            let board = entry.position.board;
            let Some(score) = entry.best_score() else {
                self.skipped += 1;
                continue;
            };
            if board.legal_moves() == 0 || entry.position.size != BoardSize::Eight {
                self.skipped += 1;
                continue;
            }
            let target = if self.solved.is_multiple_of(VALIDATION_EVERY) {
                &mut self.solved_validation
            } else {
                &mut self.training
            };
            target.push(Sample {
                board,
                label: score.clamp(-64, 64) as i8,
            });
            self.solved += 1;
        }
    }

    /// Adds search values of positions (an OBF file's entries, as
    /// `oxello search-labels` writes them: the best score is the value).
    /// They are not samples of their own: a training position of a game
    /// with more empties than its file's theoretical depth, found among
    /// them, is labelled `search_weight` times its search value plus the
    /// rest times the game's label ([`Samples::add_file`]). Held-out games
    /// keep the game's label, so their error stays comparable.
    pub fn add_searched(&mut self, entries: &[ObfEntry]) {
        for entry in entries {
            if let Some(score) = entry.best_score() {
                self.searched
                    .insert(entry.position.board, score.clamp(-64, 64) as i8);
            }
        }
    }

    /// Records the exact scores of `entries` (an OBF file's entries, as
    /// `oxello search-labels --exact` writes them): a game position found
    /// among them takes its exact score as its label, in place of the
    /// players' result.
    pub fn add_exact(&mut self, entries: &[ObfEntry]) {
        for entry in entries {
            if let Some(score) = entry.best_score() {
                self.exact
                    .insert(entry.position.board, score.clamp(-64, 64) as i8);
            }
        }
    }

    /// Adds the positions of self-play records (`oxello selfplay`) on a
    /// board of `size`; records of another size are skipped. The label is
    /// the search's score where it was an exact solve, and before that the
    /// game's outcome: with the endgame solved in play, the outcome is the
    /// perfect-play result of the first solved position. The records of
    /// one game in [`VALIDATION_EVERY`] (by the game's number in its run)
    /// are held out: those with an exact label in
    /// [`Samples::solved_validation`], the others in
    /// [`Samples::validation`].
    pub fn add_selfplay(&mut self, records: &[crate::selfplay::Record], size: BoardSize) {
        let solved_sides = first_solved_sides(records);
        for (record, solved_side) in records.iter().zip(solved_sides) {
            if record.position.size != size {
                self.other_size += 1;
                continue;
            }
            if record.index == 0 {
                self.selfplay_games += 1;
            }
            let held_out = is_held_out(record.game as usize);
            let w = self.selfplay_search_weight;
            let label = if record.exact {
                self.solved += 1;
                record.score
            } else if held_out {
                record.outcome
            } else {
                let fix = match solved_side {
                    Some(side) if side != record.position.side => self.selfplay_parity_fix,
                    _ => 0,
                };
                // The fix corrects the outcome, the label's (1 - w) part.
                let outcome = f32::from(record.outcome) + f32::from(fix);
                let label = w * f32::from(record.score) + (1.0 - w) * outcome;
                label.round().clamp(-64.0, 64.0) as i8
            };
            let sample = Sample {
                board: record.position.board,
                label,
            };
            if held_out {
                if record.exact {
                    self.solved_validation.push(sample);
                } else {
                    self.validation.push(sample);
                }
            } else {
                self.training.push(sample);
            }
        }
    }

    /// Adds every position of every finished game of `file`.
    pub fn add_file(&mut self, file: &WtbFile) {
        let exact_from = u32::from(file.header.theoretical_depth());
        for record in &file.games {
            let Some(game) = finished_game(record) else {
                self.skipped += 1;
                continue;
            };
            let held_out = is_held_out(self.games);
            for position in game.game.positions() {
                if position.board.legal_moves() == 0 {
                    continue; // passes and the final position teach nothing
                }
                let empties = position.board.empties().count_ones();
                // Past the theoretical score's depth the players' own moves
                // decide: the real result is the better label there.
                let black_score = if empties < exact_from {
                    game.real
                } else {
                    game.theoretical
                };
                let mut label = match position.side {
                    Color::Black => black_score,
                    Color::White => -black_score,
                };
                if let Some(&exact) = self.exact.get(&position.board) {
                    label = i32::from(exact);
                    self.exact_used += 1;
                } else if !held_out {
                    // The fix corrects the game's label: in a search
                    // value's blend, only its (1 - search_weight) part.
                    if empties >= WTHOR_PARITY_FIX_FROM && empties % 2 == 1 {
                        label = (label + i32::from(self.wthor_parity_fix)).clamp(-64, 64);
                    }
                    if empties > exact_from
                        && let Some(&searched) = self.searched.get(&position.board)
                    {
                        let blend = self.search_weight * f32::from(searched)
                            + (1.0 - self.search_weight) * label as f32;
                        label = blend.round() as i32;
                        self.searched_used += 1;
                    }
                }
                let target = if held_out {
                    &mut self.validation
                } else {
                    &mut self.training
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

/// Whether the finished game numbered `game` (from 0, over the files in
/// name order and their games in order) is held out of training.
pub fn is_held_out(game: usize) -> bool {
    game.is_multiple_of(VALIDATION_EVERY)
}

/// A finished WTHOR game as training reads it: the moves replayed, and its
/// theoretical and real results from Black's view, in discs.
pub struct FinishedGame {
    pub game: Game,
    pub theoretical: i32,
    pub real: i32,
}

/// `record` replayed, if it replays to the end and has a theoretical score.
pub fn finished_game(record: &WthorGame) -> Option<FinishedGame> {
    let game = record.replay().ok()?;
    if !game.is_over() || record.theoretical_score > 64 {
        return None;
    }
    Some(FinishedGame {
        game,
        theoretical: 2 * i32::from(record.theoretical_score) - 64,
        real: 2 * i32::from(record.real_score) - 64,
    })
}

/// The positions whose labels search values can improve: those with a
/// legal move and more empties than `min_empties` and the theoretical
/// depth, of every training (not held-out) game of `files` (in the order
/// [`Samples::add_file`] numbers them), with the game's number. With
/// `held_out`, those of the held-out games instead: labels that measure an
/// evaluation's error and never train it.
pub fn positions_to_search(
    files: &[WtbFile],
    min_empties: u32,
    held_out: bool,
) -> Vec<(usize, Vec<Position>)> {
    game_positions(files, held_out, |empties, exact_from| {
        empties > exact_from && empties >= min_empties
    })
}

/// The positions with a legal move and at most `max_empties` empties of
/// every training game of `files` (with `held_out`, of every held-out
/// game), numbered as [`positions_to_search`] numbers them, each game's
/// last position first: solved in that order, each solve finds the next
/// one's subtree in its table.
pub fn positions_to_solve(
    files: &[WtbFile],
    max_empties: u32,
    held_out: bool,
) -> Vec<(usize, Vec<Position>)> {
    let mut games = game_positions(files, held_out, |empties, _| empties <= max_empties);
    for (_, positions) in &mut games {
        positions.reverse();
    }
    games
}

/// The positions with a legal move of every finished game of `files` whose
/// held-out state is `held_out`, kept by `keep(empties, theoretical depth)`,
/// with the game's number.
fn game_positions(
    files: &[WtbFile],
    held_out: bool,
    keep: impl Fn(u32, u32) -> bool,
) -> Vec<(usize, Vec<Position>)> {
    let mut games = Vec::new();
    let mut number = 0;
    for file in files {
        let exact_from = u32::from(file.header.theoretical_depth());
        for record in &file.games {
            let Some(game) = finished_game(record) else {
                continue;
            };
            if is_held_out(number) == held_out {
                let positions = game
                    .game
                    .positions()
                    .iter()
                    .filter(|p| p.legal_moves() != 0 && keep(p.empty_count(), exact_from))
                    .copied()
                    .collect();
                games.push((number, positions));
            }
            number += 1;
        }
    }
    games
}

/// How to train. Every number was chosen on the held-out games (docs/training.md,
/// "Training the evaluation").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainOptions {
    /// Passes over the samples of each phase.
    pub epochs: usize,
    /// Adam's step size at the first epoch, in discs.
    pub learning_rate: f32,
    /// Each epoch's step is the previous one times this.
    pub decay: f32,
    /// Samples per Adam step.
    pub batch: usize,
    /// L2 penalty per weight (times the weight, added to its gradient).
    pub l2: f32,
    /// Seed of the sample order.
    pub seed: u64,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            epochs: 8,
            learning_rate: 0.05,
            decay: 0.7,
            batch: 512,
            l2: 1e-4,
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
    /// Root mean square error on the training positions, in discs.
    pub training_rms: f64,
    /// Root mean square error on the held-out positions, in discs.
    pub validation_rms: f64,
    /// The same for always predicting 0, for comparison.
    pub baseline_rms: f64,
    /// Held-out solved positions of the phase, and the error on them.
    pub solved_samples: usize,
    pub solved_rms: f64,
}

/// What training fits: for each of `phases` phases, `phase_weights`
/// weights, of which a position reads the bias (weight 0), its two
/// mobilities times weights 1 and 2, and one table weight per pattern
/// instance. [`EIGHT`] is the 8x8 evaluation's, [`SIX`] the 6x6 one's.
pub struct Model {
    /// The board the positions are on (their empties are counted on it).
    pub size: BoardSize,
    pub phases: usize,
    pub phase_weights: usize,
    pub empties_per_phase: usize,
    /// Instances a position reads.
    pub instances: usize,
    /// The phase of a number of empties.
    pub phase: fn(u32) -> usize,
    /// Pushes a position's `instances` weight indices within its phase.
    pub lookups: fn(Board, &mut Vec<u32>),
    /// The side to move's and the opponent's mobility.
    pub mobilities: fn(Board) -> (i32, i32),
    /// The evaluation with the weights built into this binary.
    pub built_in: fn(Board) -> i32,
    /// The weight file of trained weights (as [`train_model`] returns them).
    pub encode: fn(Vec<i16>) -> Vec<u8>,
    /// Where the built-in weight file lives in the source tree.
    pub file: &'static str,
}

/// The 8x8 pattern evaluation ([`crate::eval::patterns`]).
pub const EIGHT: Model = Model {
    size: BoardSize::Eight,
    phases: PHASES,
    phase_weights: PHASE_WEIGHTS,
    empties_per_phase: EMPTIES_PER_PHASE,
    instances: INSTANCES,
    phase: crate::eval::patterns::phase,
    lookups: |board, out| out.extend_from_slice(&shared_lookups(board)),
    mobilities,
    built_in: |board| crate::eval::patterns::built_in().evaluate(board),
    encode: |weights| PatternWeights::from_shared(weights).encode(),
    file: "fitted/pattern-weights-8.bin",
};

/// The 6x6 pattern evaluation ([`crate::eval::six`]).
pub const SIX: Model = Model {
    size: BoardSize::Six,
    phases: crate::eval::six::PHASES,
    phase_weights: crate::eval::six::PHASE_WEIGHTS,
    empties_per_phase: crate::eval::six::EMPTIES_PER_PHASE,
    instances: crate::eval::six::INSTANCES,
    phase: crate::eval::six::phase,
    lookups: crate::eval::six::lookups,
    mobilities: crate::eval::six::mobilities,
    built_in: |board| crate::eval::six::built_in().evaluate(board),
    encode: |weights| crate::eval::six::SixWeights::from_shared(weights).encode(),
    file: "fitted/pattern-weights-6.bin",
};

impl Model {
    /// Empty squares of `board` on the model's board.
    pub fn empties(&self, board: Board) -> u32 {
        (board.empties() & self.size.mask()).count_ones()
    }

    /// Whether a position with `empties` empties trains `phase`: its own
    /// band and one band on each side.
    fn trains_phase(&self, empties: u32, phase: usize) -> bool {
        let band = self.empties_per_phase;
        let low = (phase * band).saturating_sub(band);
        let high = phase * band + 2 * band - 1;
        (low..=high).contains(&(empties as usize))
    }
}

/// The samples of one phase, with their lookups computed once.
struct PhaseData {
    /// `width` indices per sample.
    lookups: Vec<u32>,
    width: usize,
    mobility: Vec<(f32, f32)>,
    labels: Vec<f32>,
}

impl PhaseData {
    fn new<'a>(model: &Model, samples: impl Iterator<Item = &'a Sample>) -> PhaseData {
        let mut data = PhaseData {
            lookups: Vec::new(),
            width: model.instances,
            mobility: Vec::new(),
            labels: Vec::new(),
        };
        for sample in samples {
            let (mine, theirs) = (model.mobilities)(sample.board);
            (model.lookups)(sample.board, &mut data.lookups);
            data.mobility.push((mine as f32, theirs as f32));
            data.labels.push(f32::from(sample.label));
        }
        debug_assert_eq!(data.lookups.len(), data.width * data.labels.len());
        data
    }

    /// The lookups of sample `i`.
    fn lookups(&self, i: usize) -> &[u32] {
        &self.lookups[i * self.width..(i + 1) * self.width]
    }

    fn predict(&self, weights: &[f32], i: usize) -> f32 {
        let (mine, theirs) = self.mobility[i];
        let mut sum = weights[0] + weights[1] * mine + weights[2] * theirs;
        for &index in self.lookups(i) {
            sum += weights[index as usize];
        }
        sum
    }

    fn rms(&self, weights: &[f32]) -> f64 {
        let n = self.labels.len().max(1) as f64;
        // (+ 0.0: an empty sum of floats is -0.0.)
        let sum: f64 = (0..self.labels.len())
            .map(|i| f64::from(self.labels[i] - self.predict(weights, i)).powi(2))
            .sum::<f64>()
            + 0.0;
        (sum / n).sqrt()
    }
}

/// Fits every phase of the 8x8 evaluation ([`train_model`] of [`EIGHT`]).
pub fn train(
    samples: &Samples,
    options: TrainOptions,
    progress: &mut dyn FnMut(&PhaseReport),
) -> (PatternWeights, Vec<PhaseReport>) {
    let (shared, reports) = train_model(&EIGHT, samples, options, progress);
    (PatternWeights::from_shared(shared), reports)
}

/// Fits every phase of `model`, from the opening (most empties) to the
/// end; `progress` hears about each one as it is done. Returns the weights
/// in 1/[`WEIGHT_SCALE`] discs, phase by phase.
pub fn train_model(
    model: &Model,
    samples: &Samples,
    options: TrainOptions,
    progress: &mut dyn FnMut(&PhaseReport),
) -> (Vec<i16>, Vec<PhaseReport>) {
    let per_phase = model.phase_weights;
    let mut shared = vec![0i16; model.phases * per_phase];
    let mut reports = Vec::new();
    let mut rng = rand::rngs::StdRng::seed_from_u64(options.seed);
    let mut weights = vec![0.0f32; per_phase];
    for phase in (0..model.phases).rev() {
        let in_phase = |s: &&Sample| model.trains_phase(model.empties(s.board), phase);
        let training = PhaseData::new(model, samples.training.iter().filter(in_phase));
        let of_phase = |s: &&Sample| (model.phase)(model.empties(s.board)) == phase;
        let validation = PhaseData::new(model, samples.validation.iter().filter(of_phase));
        let solved = PhaseData::new(model, samples.solved_validation.iter().filter(of_phase));
        fit(&training, &mut weights, options, &mut rng);
        let report = PhaseReport {
            phase,
            training_samples: training.labels.len(),
            validation_samples: validation.labels.len(),
            training_rms: training.rms(&weights),
            validation_rms: validation.rms(&weights),
            baseline_rms: validation.rms(&vec![0.0; per_phase]),
            solved_samples: solved.labels.len(),
            solved_rms: solved.rms(&weights),
        };
        progress(&report);
        reports.push(report);
        let stored = &mut shared[phase * per_phase..(phase + 1) * per_phase];
        for (stored, &weight) in stored.iter_mut().zip(&weights) {
            *stored = (weight * WEIGHT_SCALE as f32)
                .round()
                .clamp(-f32::from(i16::MAX), f32::from(i16::MAX)) as i16;
        }
    }
    reports.reverse();
    (shared, reports)
}

/// Adam's state: the moving averages of the gradient and of its square.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    /// Steps taken, for the bias correction.
    t: i32,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// Mini-batch Adam on one phase's squared error plus L2, from `weights`
/// (the previous phase's fit) in place. Sparse ("lazy") Adam: a step
/// changes only the weights its batch looked up, as each batch touches a
/// small part of the tables.
fn fit(data: &PhaseData, weights: &mut [f32], options: TrainOptions, rng: &mut impl rand::Rng) {
    if data.labels.is_empty() {
        return;
    }
    let n = weights.len();
    let mut adam = Adam {
        m: vec![0.0; n],
        v: vec![0.0; n],
        t: 0,
    };
    let mut gradient = vec![0.0f32; n];
    let mut touched: Vec<u32> = Vec::new();
    let mut order: Vec<u32> = (0..data.labels.len() as u32).collect();
    let mut rate = options.learning_rate;
    for _ in 0..options.epochs {
        order.shuffle(rng);
        for batch in order.chunks(options.batch) {
            let scale = 1.0 / batch.len() as f32;
            for &i in batch {
                let i = i as usize;
                let error = (data.predict(weights, i) - data.labels[i]) * scale;
                let (mine, theirs) = data.mobility[i];
                gradient[0] += error;
                gradient[1] += error * mine;
                gradient[2] += error * theirs;
                for &index in data.lookups(i) {
                    if gradient[index as usize] == 0.0 {
                        touched.push(index);
                    }
                    gradient[index as usize] += error;
                }
            }
            touched.extend([0, 1, 2]);
            adam.t += 1;
            let correction1 = 1.0 - BETA1.powi(adam.t);
            let correction2 = 1.0 - BETA2.powi(adam.t);
            touched.sort_unstable();
            touched.dedup();
            for &index in &touched {
                let k = index as usize;
                let g = gradient[k] + options.l2 * weights[k];
                adam.m[k] = BETA1 * adam.m[k] + (1.0 - BETA1) * g;
                adam.v[k] = BETA2 * adam.v[k] + (1.0 - BETA2) * g * g;
                let m = adam.m[k] / correction1;
                let v = adam.v[k] / correction2;
                weights[k] -= rate * m / (v.sqrt() + EPSILON);
                gradient[k] = 0.0;
            }
            touched.clear();
        }
        rate *= options.decay;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::test_support::random_game_boards;

    /// The positions of `positions/six-held-out.jsonl`: self-play records
    /// of games the training held out, each with the exact score of an
    /// endgame solve (`scripts/train-six.sh`'s level 18 run, games 0, 10,
    /// ..., 90).
    fn held_out() -> Vec<(Board, i32)> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/six-held-out.jsonl");
        let text = std::fs::read_to_string(path).unwrap();
        let records = crate::selfplay::jsonl::read_all(&text).unwrap();
        assert!(records.iter().all(|r| r.exact && r.game % 10 == 0));
        records
            .iter()
            .map(|r| (r.position.board, i32::from(r.score)))
            .collect()
    }

    /// The shipped weights predict exactly solved held-out positions far
    /// better than the hand-set evaluation they replace.
    #[test]
    fn shipped_weights_beat_the_hand_set_evaluation_on_solved_positions() {
        let positions = held_out();
        assert!(positions.len() >= 200);
        let rms = |f: &dyn Fn(Board) -> i32| {
            let sum: f64 = positions
                .iter()
                .map(|&(board, score)| f64::from(f(board) - score).powi(2))
                .sum();
            (sum / positions.len() as f64).sqrt()
        };
        let learned = rms(&|b| crate::eval::six::built_in().evaluate(b));
        let hand_set = rms(&|b| crate::eval::evaluate(b, crate::bitboard::BoardSize::Six));
        eprintln!(
            "RMS on {} positions: learned {learned:.2}, hand-set {hand_set:.2}",
            positions.len()
        );
        assert!(
            learned < 0.75 * hand_set,
            "learned {learned:.2}, hand-set {hand_set:.2}"
        );
    }

    /// Solved positions are labelled with their best score, one in ten held
    /// out apart from the games' positions, which all stay.
    #[test]
    fn solved_positions_are_added_to_the_games() {
        use crate::formats::obf::parse_line;
        use crate::formats::wthor::{WthorGame, WthorHeader};
        use crate::game::Game;
        // A finished game of random moves, as WTHOR would store it.
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let mut game = Game::new(BoardSize::Eight);
        while !game.is_over() {
            let moves = game.position().move_list();
            game.play(moves[rand::Rng::random_range(&mut rng, 0..moves.len())])
                .expect("legal");
        }
        let file = WtbFile {
            header: WthorHeader {
                board_size: 8,
                depth: 22,
                ..WthorHeader::default()
            },
            games: vec![WthorGame::from_game(&game).expect("a game")],
        };
        let mut plain = Samples::default();
        plain.add_file(&file);
        // FFO #40 (20 empties, +38) ten times, then the game.
        let line = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38;";
        let entry = parse_line(line).expect("valid").expect("an entry");
        let mut samples = Samples::default();
        samples.add_solved(&vec![entry; 10]);
        assert_eq!(samples.solved, 10);
        assert_eq!(samples.training.len(), 9);
        assert_eq!(samples.solved_validation.len(), 1);
        assert!(samples.training.iter().all(|s| s.label == 38));
        assert!(samples.validation.is_empty());
        samples.add_file(&file);
        assert_eq!(samples.training.len(), 9 + plain.training.len());
        assert_eq!(samples.validation, plain.validation);
        assert_eq!(samples.solved_validation.len(), 1);
    }

    /// A WTHOR file of `count` random games, theoretical depth 22.
    fn random_games(count: usize) -> WtbFile {
        use crate::formats::wthor::{WthorGame, WthorHeader};
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let mut games = Vec::new();
        for _ in 0..count {
            let mut game = Game::new(BoardSize::Eight);
            while !game.is_over() {
                let moves = game.position().move_list();
                game.play(moves[rand::Rng::random_range(&mut rng, 0..moves.len())])
                    .expect("legal");
            }
            games.push(WthorGame::from_game(&game).expect("a game"));
        }
        WtbFile {
            header: WthorHeader {
                board_size: 8,
                depth: 22,
                ..WthorHeader::default()
            },
            games,
        }
    }

    /// The positions of `games` (as `positions_to_solve` and
    /// `positions_to_search` give them) as OBF entries, each scored `score`.
    fn scored(games: &[(usize, Vec<Position>)], score: i32) -> Vec<ObfEntry> {
        games
            .iter()
            .flat_map(|(_, positions)| positions)
            .map(|&position| {
                let mut entry = ObfEntry::new(position);
                entry.best_score = Some(score);
                entry
            })
            .collect()
    }

    /// `positions_to_solve` gives the training games' positions of at most
    /// so many empties, each game from its end; their exact scores replace
    /// the game labels of those positions, training and held-out alike, and
    /// leave every other label as it was.
    #[test]
    fn exact_scores_replace_the_game_labels_at_any_empties() {
        let file = random_games(3);
        let mut plain = Samples::default();
        plain.add_file(&file);
        let to_solve = positions_to_solve(std::slice::from_ref(&file), 12, false);
        assert_eq!(to_solve.iter().map(|g| g.0).collect::<Vec<_>>(), [1, 2]);
        for (_, positions) in &to_solve {
            assert!(!positions.is_empty());
            assert!(
                positions
                    .windows(2)
                    .all(|w| w[0].empty_count() < w[1].empty_count())
            );
            assert!(
                positions
                    .iter()
                    .all(|p| p.empty_count() <= 12 && p.legal_moves() != 0)
            );
        }
        let entries = scored(&to_solve, -50);
        let mut samples = Samples::default();
        samples.add_exact(&entries);
        samples.add_file(&file);
        assert_eq!(samples.exact_used, entries.len());
        assert_eq!(samples.validation, plain.validation);
        for (labelled, game) in samples.training.iter().zip(&plain.training) {
            if entries.iter().any(|e| e.position.board == game.board) {
                assert_eq!(labelled.label, -50);
            } else {
                assert_eq!(labelled, game);
            }
        }
    }

    /// The parity fix raises the game's label of every training position of
    /// odd empties from [`WTHOR_PARITY_FIX_FROM`] on, and nothing else: not
    /// one of even empties or of fewer empties, one with an exact score, or
    /// a held-out one.
    #[test]
    fn the_wthor_parity_fix_raises_the_training_labels_at_odd_empties() {
        let file = random_games(3);
        let mut plain = Samples::default();
        plain.add_file(&file);
        // Exact scores to 12 empties, and at 19.
        let mut exact = scored(
            &positions_to_solve(std::slice::from_ref(&file), 19, false),
            -50,
        );
        exact.retain(|e| matches!(e.position.empty_count(), 0..=12 | 19));
        let mut samples = Samples {
            wthor_parity_fix: 2,
            ..Samples::default()
        };
        samples.add_exact(&exact);
        samples.add_file(&file);
        assert_eq!(samples.validation, plain.validation);
        assert_eq!(samples.training.len(), plain.training.len());
        let (mut raised, mut odd_kept, mut odd_exact) = (0, 0, 0);
        for (fixed, game) in samples.training.iter().zip(&plain.training) {
            let empties = game.board.empties().count_ones();
            let odd = empties % 2 == 1;
            let expected = if exact.iter().any(|e| e.position.board == game.board) {
                odd_exact += usize::from(empties == 19);
                -50
            } else if odd && empties >= WTHOR_PARITY_FIX_FROM {
                raised += 1;
                (game.label + 2).min(64)
            } else {
                odd_kept += usize::from(odd);
                game.label
            };
            assert_eq!(fixed.label, expected);
        }
        assert!(
            raised > 20 && odd_kept > 0 && odd_exact > 0,
            "{raised} raised, {odd_kept} odd kept, {odd_exact} odd exact"
        );
    }

    /// Search values change the labels of training positions past the
    /// theoretical depth only, by `search_weight`; held-out games keep
    /// theirs, and `positions_to_search` lists exactly the positions they
    /// may change.
    #[test]
    fn search_values_blend_into_training_labels_past_the_theoretical_depth() {
        let file = random_games(3);
        let mut plain = Samples::default();
        plain.add_file(&file);
        // Game 0 is held out: games 1 and 2 are to be searched.
        let to_search = positions_to_search(std::slice::from_ref(&file), 30, false);
        assert_eq!(to_search.iter().map(|g| g.0).collect::<Vec<_>>(), [1, 2]);
        // The held-out game alone, for measuring the error.
        let held_out = positions_to_search(std::slice::from_ref(&file), 30, true);
        assert_eq!(held_out.iter().map(|g| g.0).collect::<Vec<_>>(), [0]);
        assert!(!held_out[0].1.is_empty());
        let searched = scored(&to_search, 40);
        assert!(searched.iter().all(|e| {
            let position = e.position;
            position.empty_count() >= 30 && position.legal_moves() != 0
        }));
        let mut samples = Samples {
            search_weight: 0.75,
            ..Samples::default()
        };
        samples.add_searched(&searched);
        samples.add_file(&file);
        assert_eq!(samples.searched_used, searched.len());
        assert_eq!(samples.validation, plain.validation);
        assert_eq!(samples.training.len(), plain.training.len());
        for (blended, game) in samples.training.iter().zip(&plain.training) {
            let empties = game.board.empties().count_ones();
            if empties >= 30 && searched.iter().any(|e| e.position.board == game.board) {
                let expected = (0.75 * 40.0 + 0.25 * f32::from(game.label)).round() as i8;
                assert_eq!(blended.label, expected);
            } else {
                assert_eq!(blended, game);
            }
        }
        // With the parity fix, a searched position of odd empties blends
        // the raised game label: the fix moves the game's part only.
        let mut fixed = Samples {
            search_weight: 0.75,
            wthor_parity_fix: 4,
            ..Samples::default()
        };
        fixed.add_searched(&searched);
        fixed.add_file(&file);
        let mut odd_searched = 0;
        for (blended, game) in fixed.training.iter().zip(&plain.training) {
            let odd = game.board.empties().count_ones() % 2 == 1;
            if odd && searched.iter().any(|e| e.position.board == game.board) {
                odd_searched += 1;
                let raised = f32::from((game.label + 4).min(64));
                let expected = (0.75 * 40.0 + 0.25 * raised).round() as i8;
                assert_eq!(blended.label, expected);
            }
        }
        assert!(odd_searched > 0);
    }

    /// A self-play record of `position` (its first legal move played),
    /// numbered `index` in `game`: scored 4 when `exact`, -2 otherwise.
    fn selfplay_record(
        game: u32,
        index: u8,
        position: Position,
        exact: bool,
        outcome: i8,
    ) -> crate::selfplay::Record {
        let mv = crate::bitboard::squares(position.legal_moves())
            .next()
            .unwrap();
        crate::selfplay::Record {
            game,
            ply: index,
            index,
            records: 4,
            position,
            policy: crate::selfplay::record::Policy::one_hot(mv),
            mv,
            score: if exact { 4 } else { -2 },
            depth: 8,
            exact,
            outcome,
        }
    }

    /// Self-play records: the exact score where the search solved, the
    /// outcome before; one game in ten held out, its solved positions
    /// apart; records of another size skipped.
    #[test]
    fn selfplay_records_are_labelled_by_their_solves() {
        let record = |game: u32, index: u8, size: BoardSize, exact: bool| {
            selfplay_record(game, index, Position::start(size), exact, 6)
        };
        let six = BoardSize::Six;
        let records = [
            record(0, 0, six, false),
            record(0, 1, six, true),
            record(1, 0, six, false),
            record(1, 1, six, true),
            record(2, 0, BoardSize::Eight, true),
        ];
        let mut samples = Samples::default();
        samples.add_selfplay(&records, six);
        assert_eq!(
            (samples.selfplay_games, samples.other_size, samples.solved),
            (2, 1, 2)
        );
        let labels = |v: &[Sample]| v.iter().map(|s| s.label).collect::<Vec<_>>();
        assert_eq!(labels(&samples.training), [6, 4]);
        assert_eq!(labels(&samples.validation), [6]);
        assert_eq!(labels(&samples.solved_validation), [4]);
        // With a share of the search's score, an unsolved training record
        // blends it with the outcome; held-out and solved ones do not.
        let mut blended = Samples {
            selfplay_search_weight: 0.75,
            ..Samples::default()
        };
        blended.add_selfplay(&records, six);
        let mixed = (0.75f32 * -2.0 + 0.25 * 6.0).round() as i8;
        assert_eq!(labels(&blended.training), [mixed, 4]);
        assert_eq!(labels(&blended.validation), [6]);
    }

    /// The parity fix raises the outcome label of a training record whose
    /// side to move is not the one at the game's first solved record, and
    /// nothing else: not the other side's, a solved one, a held-out one, or
    /// one of a game without a solve.
    #[test]
    fn the_parity_fix_raises_the_side_that_moves_once_more_before_the_solve() {
        let record = |game: u32, index: u8, side: Color, exact: bool| {
            let position = Position {
                side,
                ..Position::start(BoardSize::Eight)
            };
            let outcome = if side == Color::Black { 6 } else { -6 };
            selfplay_record(game, index, position, exact, outcome)
        };
        let (b, w) = (Color::Black, Color::White);
        let records = [
            // Game 0 (held out), then 1: White moves once more than Black
            // before Black's solved position.
            record(0, 0, w, false),
            record(0, 1, b, true),
            record(1, 0, b, false),
            record(1, 1, w, false),
            record(1, 2, b, true),
            record(1, 3, w, true),
            // Game 2 has no solved record.
            record(2, 0, w, false),
        ];
        let mut samples = Samples {
            selfplay_parity_fix: 1,
            ..Samples::default()
        };
        samples.add_selfplay(&records, BoardSize::Eight);
        let labels = |v: &[Sample]| v.iter().map(|s| s.label).collect::<Vec<_>>();
        assert_eq!(labels(&samples.training), [6, -5, 4, 4, -6]);
        assert_eq!(labels(&samples.validation), [-6]);
        let mut plain = Samples::default();
        plain.add_selfplay(&records, BoardSize::Eight);
        assert_eq!(labels(&plain.training), [6, -6, 4, 4, -6]);
        // Blended with the search's score, only the outcome's part moves.
        let mut blended = Samples {
            selfplay_parity_fix: 4,
            selfplay_search_weight: 0.5,
            ..Samples::default()
        };
        blended.add_selfplay(&records, BoardSize::Eight);
        assert_eq!(labels(&blended.training), [2, -2, 4, 4, -4]);
    }

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
            epochs: 20,
            ..TrainOptions::default()
        };
        let (weights, reports) = train(&samples, options, &mut |_| {});
        for report in &reports[4..25] {
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
