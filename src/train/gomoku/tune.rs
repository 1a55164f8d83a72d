//! Fitting the gomoku evaluation's weights ([`crate::gomoku::eval`]) to
//! the outcomes of self-play games and match games.
//!
//! `K` of the logistic model is first fitted to the records' search scores,
//! so that the fitted weights keep the units the search's margins are
//! measured in. Positions the search already scored as won or lost, and
//! those decided at once, are left out; every tenth game is held out.
//!
//! The fit has two stages, each by Newton's method on the log loss: a
//! small model (a cell worth the sum of its patterns plus a bonus for its
//! class) with a ridge (`ridge1`) towards hand-set values, then every
//! feature with a ridge (`ridge`) towards the first stage's values, so
//! that a combination seldom seen keeps the sum of its parts. `refine`
//! fits every feature in one stage, with the ridge towards the weights in
//! force. The default `ridge`, 3e-3, is the one the shipped
//! weights were fitted with last (on their four self-play runs 1e-3 gave a
//! held-out loss of 0.4430, 3e-3 0.4432, 1e-2 and above more).
//!
//! Match games have no search scores: the weights in force stand in for
//! them when `K` is fitted, unless `label` searches each position, or a
//! `teacher` engine's evaluations are read; `lambda` then blends the
//! outcome with the win probability of those scores. The teacher's scores
//! are read through their own `K` (fitted to the outcomes), and ours is the
//! one by which the weights in force best predict the teacher's win
//! probabilities (games between close players predict their outcomes
//! badly, which would stretch a `K` fitted to them).

use super::logistic::{dot, fit, fit_scale, mean_loss, score_loss, sigmoid, teacher_loss};
use super::model::{HAND_SET, reduce, reduction, small};
use super::samples::{Sample, Samples, Sparse, read_all_games, read_records};
use crate::gomoku::eval::{COMBOS, FEATURES, MY_COMBOS, WEIGHT_SCALE, WEIGHTS};
use std::path::{Path, PathBuf};

const _: () = assert!(COMBOS * 2 + MY_COMBOS == FEATURES);

/// What to fit and how.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    /// Self-play record files (`oxello selfplay --game gomoku`, JSONL).
    pub records: Vec<PathBuf>,
    /// Match game files (`oxello match --game gomoku -o`, SGF).
    pub games: Vec<PathBuf>,
    /// Label the match games' positions with searches of so many nodes.
    pub label: Option<u64>,
    /// Read the match games' scores from this teacher's label files.
    pub teacher: Option<String>,
    /// Our `K`, instead of fitting it.
    pub scale: Option<f64>,
    /// The outcome's share of the target, the rest the scores' win
    /// probability.
    pub lambda: f64,
    /// Fit every feature in one stage, from the weights in force.
    pub refine: bool,
    /// The first stage's ridge towards the hand-set values.
    pub ridge1: f64,
    /// The ridge towards the first stage's values (or the weights in force).
    pub ridge: f64,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions {
            records: Vec::new(),
            games: Vec::new(),
            label: None,
            teacher: None,
            scale: None,
            lambda: 1.0,
            refine: false,
            ridge1: 1e-4,
            ridge: 3e-3,
        }
    }
}

/// Reads the positions, fits, and returns the weights in evaluation units
/// (see [`super::scaled`]). `read` is told each match game file read;
/// `report` gets the lines of the report: positions, `K`, each Newton
/// round, and the held-out log loss of the search scores, of the weights
/// in force and of the fit.
pub fn tune(
    options: &TuneOptions,
    read: &(dyn Fn(&Path) + Sync),
    report: &mut dyn FnMut(&str),
) -> Result<Vec<f64>, String> {
    let mut samples = Samples::default();
    for path in &options.records {
        read_records(path, &mut samples)?;
    }
    let games = read_all_games(
        &options.games,
        options.label,
        options.teacher.as_deref(),
        read,
    )?;
    let Samples {
        mut train,
        mut held,
    } = samples;
    train.extend(games.train);
    held.extend(games.held);
    if options.teacher.is_some() {
        // Only the positions the teacher scored (not the self-play records).
        train.retain(|s| !s.teacher.is_nan());
        held.retain(|s| !s.teacher.is_nan());
    }
    let in_force: Vec<f64> = WEIGHTS
        .iter()
        .map(|&w| f64::from(w) / f64::from(WEIGHT_SCALE))
        .collect();
    // Game records have no search score: the weights in force stand in.
    for sample in train.iter_mut().chain(held.iter_mut()) {
        if sample.score.is_nan() {
            sample.score = dot(&in_force, &sample.features);
        }
    }
    if train.is_empty() || held.is_empty() {
        return Err(format!(
            "nothing to fit: {} positions to fit and {} held out",
            train.len(),
            held.len()
        ));
    }
    let scale = options.scale;
    let mut k = scale.unwrap_or_else(|| fit_scale(&train, score_loss));
    report(&format!(
        "{} positions to fit, {} held out; K = {k:.1}",
        train.len(),
        held.len()
    ));
    let mut taught_held = Vec::new();
    if options.teacher.is_some() {
        // The teacher's scores in its own units, read through its own `K`.
        let kt = fit_scale(&train, teacher_loss);
        report(&format!(
            "teacher: K = {kt:.1}, held-out log loss {:.5}",
            teacher_loss(&held, kt)
        ));
        // A sample with the teacher's win probability as its target.
        let taught_one = |s: &Sample, features: Sparse| Sample {
            features,
            target: sigmoid(s.teacher / kt),
            score: s.score,
            teacher: s.teacher,
        };
        let taught: Vec<Sample> = train.iter().map(|s| taught_one(s, Vec::new())).collect();
        k = scale.unwrap_or_else(|| fit_scale(&taught, score_loss));
        report(&format!("K against the teacher: {k:.1}"));
        for s in &mut train {
            s.score = k / kt * s.teacher;
        }
        // The held-out positions against the teacher's win probabilities.
        taught_held = held
            .iter()
            .map(|s| taught_one(s, s.features.clone()))
            .collect();
    }
    if options.lambda < 1.0 {
        // Targets between the outcome and the search's (or the teacher's)
        // score.
        for s in &mut train {
            s.target = options.lambda * s.target + (1.0 - options.lambda) * sigmoid(s.score / k);
        }
    }
    if options.refine {
        report(&format!(
            "refining the weights in force ({FEATURES} features):"
        ));
        let w = fit(&train, &in_force, k, options.ridge, report);
        report(&format!(
            "held-out log loss: search scores {:.5}, weights in force {:.5}, refined {:.5}",
            score_loss(&held, k),
            mean_loss(&held, &in_force, k),
            mean_loss(&held, &w, k)
        ));
        report_taught(&taught_held, &in_force, &w, k, report);
        return Ok(w);
    }
    let map = reduction();
    let small_of = |samples: &[Sample]| -> Vec<Sample> {
        samples
            .iter()
            .map(|s| Sample {
                features: reduce(&s.features, &map),
                target: s.target,
                score: s.score,
                teacher: s.teacher,
            })
            .collect()
    };
    let (small_train, small_held) = (small_of(&train), small_of(&held));
    report(&format!("stage 1 ({} features):", small::FEATURES));
    let first = fit(&small_train, &HAND_SET, k, options.ridge1, report);
    let prior: Vec<f64> = map
        .iter()
        .map(|parts| parts.iter().map(|&(g, c)| first[g] * c).sum())
        .collect();
    report(&format!("stage 2 ({FEATURES} features):"));
    let w = fit(&train, &prior, k, options.ridge, report);
    report(&format!(
        "held-out log loss: search scores {:.5}, weights in force {:.5}, stage 1 {:.5}, stage 2 {:.5}",
        score_loss(&held, k),
        mean_loss(&held, &in_force, k),
        mean_loss(&small_held, &first, k),
        mean_loss(&held, &w, k)
    ));
    report_taught(&taught_held, &in_force, &w, k, report);
    Ok(w)
}

/// Reports the held-out log loss against the teacher's win probabilities
/// (the part of it that is their entropy included), if there is a teacher.
fn report_taught(
    taught_held: &[Sample],
    in_force: &[f64],
    w: &[f64],
    k: f64,
    report: &mut dyn FnMut(&str),
) {
    if taught_held.is_empty() {
        return;
    }
    let spread = |w: &[f64]| {
        let n = taught_held.len() as f64;
        let values: Vec<f64> = taught_held.iter().map(|s| dot(w, &s.features)).collect();
        let mean = values.iter().sum::<f64>() / n;
        (values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n).sqrt()
    };
    report(&format!(
        "held-out evaluations' standard deviation: weights in force {:.1}, fitted {:.1}",
        spread(in_force),
        spread(w)
    ));
    report(&format!(
        "held-out log loss against the teacher: weights in force {:.5}, fitted {:.5}",
        mean_loss(taught_held, in_force, k),
        mean_loss(taught_held, w, k)
    ));
}
