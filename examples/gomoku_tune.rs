//! Fits the gomoku evaluation's weights ([`oxello::gomoku::eval`]) to the
//! outcomes of self-play games, and writes `fitted/gomoku-eval.bin`.
//!
//! ```text
//! oxello selfplay --game gomoku --rule standard --games 2500 --nodes 40000 --seed 11 \
//!     --threads 2 --output std15.jsonl
//! cargo run --release --example gomoku_tune -- std15.jsonl std15-c1.jsonl std15-c2.jsonl \
//!     std15-c3.jsonl --write fitted/gomoku-eval.bin
//! cargo fmt
//! ```
//!
//! The shipped weights were fitted to four such runs of 2,500 games:
//! `std15.jsonl` played by the hand-set evaluation (seed 11), then
//! `std15-c1.jsonl` (seed 12), `std15-c2.jsonl` (seed 13) and
//! `std15-c3.jsonl` (seed 14), each played by the weights fitted to the
//! runs before it (with `--ridge` 3e-2, 1e-2 and 3e-3 in turn). Self-play
//! is deterministic for a seed (one thread per game, node limits), so every
//! run can be played again. `--ridge` defaults to the value used last,
//! 3e-3: on the four runs 1e-3 gave a held-out loss of 0.4430, 3e-3 0.4432,
//! 1e-2 and above more.
//!
//! The model is logistic: the side to move wins with probability
//! `1 / (1 + exp(-eval / K))`, a draw counting half. `K` is first fitted to
//! the records' search scores, so that the fitted weights keep the units
//! the search's margins are measured in. Positions the search already
//! scored as won or lost, and those decided at once, are left out; every
//! tenth game is held out.
//!
//! The fit has two stages, each by Newton's method on the log loss:
//! 1. a small model in which a cell's combination is worth the sum of its
//!    four patterns plus a bonus for its class (three, four, ...), with a
//!    ridge (`--ridge1`) towards hand-set values ([`HAND_SET`]);
//! 2. every feature, with a ridge (`--ridge`) towards the first stage's
//!    values, so that a combination seldom seen keeps the sum of its parts.
//!
//! The held-out log loss of the search scores, of the weights in force and
//! of both stages is printed.
//!
//! Match games can be fitted too: `--sgf GAMES.sgf` (repeatable) reads the
//! records `oxello match --game gomoku -o` writes, every position after the
//! opening's stones with the game's outcome (a position whose side to move
//! has a VCF is left out, as the search's won scores are; forfeits are
//! skipped; every tenth game of a file is held out). They have no search
//! scores: the weights in force stand in for them when `K` is fitted, unless
//! `--label NODES` searches each position with so many nodes (one thread,
//! no VCT; positions it scores won or lost are left out; the scores are
//! kept in `GAMES.sgf.scores-NODES` and read from there next time).
//! `--lambda L` then fits to `L` times the outcome plus `1 - L` times the
//! win probability of the search's score. `--refine` fits every feature in
//! one stage, with the ridge towards the weights in force.
//!
//! `--teacher NAME` reads instead another engine's evaluations of the
//! positions, one line per searched move of each file (`nan` where it gave
//! none; those positions are left out) in `GAMES.sgf.scores-NAME`, as
//! `scripts/gomoku-teacher-labels.py` writes them. The teacher's scores
//! are read through their own `K` (fitted to the outcomes), and ours is the
//! one by which the weights in force best predict the teacher's win
//! probabilities (`--scale K` sets our `K`, with or without a teacher);
//! `--lambda L` then blends the outcome with the teacher's win probability.
//! The held-out log loss against the teacher's probabilities and the
//! spread of the evaluations are printed.
//!
//! Measured and not kept, on 1,600 games of the shipped weights (0.2 s a
//! move) against Rapfi capped at 10,000 nodes a move, from the three-stone
//! openings of `positions/gomoku-openings.txt` (seeds 6 to 13), each fit
//! played against the same capped Rapfi from the balanced openings (the
//! yardstick of [`oxello::gomoku::search`]; the shipped weights scored
//! 100-0-100 and 102-0-98 with seeds 2 and 3):
//! - outcomes, `--refine --ridge 3e-3` (33,221 positions to fit, 3,872
//!   held out): held-out log loss 0.4530 -> 0.3919 (`K` 277.7), but
//!   73-0-127 (seed 2);
//! - outcomes, `--ridge 3e-2` (0.4029), the constant and Black-to-move
//!   weights kept as they were: 92-0-108 and 100-0-100;
//! - search scores of 20,000 nodes, `--label 20000 --lambda 0` (22,038
//!   positions to fit; against the outcomes the scores' held-out loss is
//!   0.4919, the weights in force 0.4986, the fit 0.5030): 62-0-138 and
//!   64-0-113 after 177 games (stopped).
//!
//!
//! Refits on a few tens of thousands of positions lose to the weights
//! fitted on four runs of 2,500 self-play games, even when they predict
//! the held-out outcomes better; and a 20,000-node search predicts these
//! games' outcomes hardly better than the static evaluation.
//!
//! Rapfi's classical evaluation as the teacher did not help either. Every
//! second searched move of 83 match files (16,017 games of 15x15 standard,
//! most against Rapfi, some head-to-head, and 20x20 freestyle; 656,307
//! searched moves) was labelled by Rapfi at 10,000 nodes (`scripts/
//! gomoku-teacher-labels.py rapfi 10000 2 ...`, 45 minutes on two cores):
//! 180,005 positions to fit, 20,573 held out. Against the held-out
//! outcomes the teacher's log loss is 0.553 (its `K` 216.3), the weights
//! in force 0.687 (their `K` 989.5), the two-stage fit to the teacher
//! 0.621: Rapfi's evaluation predicts the games far better than ours, and
//! the fit takes a good part of that. But against Rapfi capped at 40,000
//! nodes a move (the harder yardstick of [`oxello::gomoku::search`], seed 2,
//! 200 games, where the weights in force scored 67-2-131, 34.0%):
//! - two stages, `--lambda 0 --scale 450` (the spread of the evaluations
//!   459 against 365 for the weights in force): 37-2-161 (19.0%);
//! - refined from the weights in force, `--lambda 0 --scale 450`, fitted
//!   to the first 102,000 positions labelled: 44-5-151 (23.2%);
//! - refined, `--lambda 0.5 --scale 450`: 41-12-147 (23.5%).
//!
//! Not kept. The teacher's weights value the tempo differently (in the
//! two-stage fit the constant, the side to move's tempo, is 79 units
//! against 179, and Black to move -31 against +279), which moves what the
//! search prefers wherever its forced lines end on the other colour's turn
//! than its quiet ones; why a much better predictor plays worse was not
//! measured further.

use oxello::gomoku::board::Status;
use oxello::gomoku::eval::{
    BIAS, BLACK_TO_MOVE, COMBO_GRADES, COMBOS, FEATURES, MY_BEST, MY_COMBOS, MY_DOUBLE_THREE_FIRST,
    MY_FOUR_THREE_FIRST, THEIR_BEST, THEIR_COMBOS, THEIR_DOUBLE_THREAT, THEIR_FIVES, WEIGHT_SCALE,
    WEIGHTS, combo_class,
};
use oxello::gomoku::search::{Limits, Searcher, WIN_BOUND, eval_features};
use oxello::gomoku::sgf::GomokuRecord as SgfRecord;
use oxello::gomoku::threat::Class;
use oxello::gomoku::vcf::{ThreatBudget, vcf};
use oxello::search::StopSignal;
use oxello::selfplay::Format;
use oxello::selfplay::gomoku::GomokuRecord;
use std::process::ExitCode;

/// A feature vector, sparse: (index, count).
type Sparse = Vec<(usize, f64)>;

/// One position: its features, the outcome (1 win, 0.5 draw, 0 loss), the
/// search's score and the teacher's score (`NaN` without), side to move's
/// view.
struct Sample {
    features: Sparse,
    target: f64,
    score: f64,
    teacher: f64,
}

/// The first stage's features: the constant, Black to move, the opponent's
/// fives, the best classes and the three combinations of threats (as in
/// the full model), then per colour the 7 pattern grades (one to double
/// four) and the 5 classes (three to flex four) of the cells.
mod small {
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
const HAND_SET: [f64; small::FEATURES] = [
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
fn reduction() -> Vec<Sparse> {
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
fn reduce(x: &Sparse, map: &[Sparse]) -> Sparse {
    let mut dense = [0.0; small::FEATURES];
    for &(f, v) in x {
        for &(g, c) in &map[f] {
            dense[g] += v * c;
        }
    }
    sparse(&dense)
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn log_loss(p: f64, target: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(target * p.ln() + (1.0 - target) * (1.0 - p).ln())
}

fn dot(w: &[f64], x: &Sparse) -> f64 {
    x.iter().map(|&(i, v)| w[i] * v).sum()
}

fn mean_loss(samples: &[Sample], w: &[f64], k: f64) -> f64 {
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

fn score_loss(samples: &[Sample], k: f64) -> f64 {
    value_loss(samples, k, |s| s.score)
}

fn teacher_loss(samples: &[Sample], k: f64) -> f64 {
    value_loss(samples, k, |s| s.teacher)
}

/// Reads the records of `path` into held-in and held-out samples.
fn read(path: &str, train: &mut Vec<Sample>, held: &mut Vec<Sample>) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let records = Format::Jsonl
        .read_all::<GomokuRecord>(&bytes)
        .map_err(|e| format!("{path}: {e}"))?;
    for record in records {
        if record.score.abs() >= WIN_BOUND {
            continue;
        }
        let mut board = record
            .board()
            .map_err(|e| format!("{path}: game {} ply {}: {e}", record.game, record.ply))?;
        let Some(features) = eval_features(&mut board) else {
            continue;
        };
        let sample = Sample {
            features: sparse(&features),
            target: (f64::from(record.outcome) + 1.0) / 2.0,
            score: f64::from(record.score),
            teacher: f64::NAN,
        };
        if record.game % 10 == 9 {
            held.push(sample);
        } else {
            train.push(sample);
        }
    }
    Ok(())
}

/// Nodes of the VCF that leaves out a game record's positions already won
/// by the side to move (as the search's win scores leave out self-play
/// positions).
const RECORD_VCF_NODES: u64 = 2_000;
/// Fours of that VCF.
const RECORD_VCF_DEPTH: u32 = 20;

/// Reads the games of the SGF file `path` (one record a line, as `oxello
/// match` writes them) into held-in and held-out samples: every position
/// after the opening's stones, with the game's outcome. Games not ended by
/// a five or a full board (forfeits) are skipped; every tenth game of the
/// file is held out. With `label` nodes, each position's score is that of
/// a search of so many nodes (one thread, no VCT, a fresh table), and
/// positions it scores won or lost are left out; without, the score is
/// `NaN`.
fn read_sgf(
    path: &str,
    label: Option<u64>,
    teacher: Option<&str>,
) -> Result<(Vec<Sample>, Vec<Sample>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    // The teacher's scores: one a line for every searched move of the file
    // (`nan` where it gave none), in order.
    let taught: Option<Vec<f64>> = match teacher {
        Some(name) => {
            let file = format!("{path}.scores-{name}");
            let text = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
            Some(
                text.lines()
                    .map(|l| l.parse().unwrap_or(f64::NAN))
                    .collect(),
            )
        }
        None => None,
    };
    let mut searched = 0;
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let mut searcher = None;
    // Scores of an earlier labelling with as many nodes, one a line, in the
    // order the positions come (searched again only when absent).
    let cache = label.map(|nodes| format!("{path}.scores-{nodes}"));
    let cached: Option<Vec<f64>> = cache
        .as_ref()
        .and_then(|c| std::fs::read_to_string(c).ok())
        .map(|t| t.lines().map(|l| l.parse().unwrap_or(f64::NAN)).collect());
    let mut scores = Vec::new();
    let mut game = 0;
    for line in text.lines().filter(|l| l.trim_start().starts_with('(')) {
        let record = SgfRecord::parse(line).map_err(|e| format!("{path}: {e}"))?;
        let winner = match record.result {
            Status::Won(color) if record.reason.contains("five") => Some(color),
            Status::Draw => None,
            _ => continue,
        };
        game += 1;
        record
            .replay(|board, mv| {
                if mv.time_ms.is_none() {
                    return;
                }
                let taught_score = taught
                    .as_ref()
                    .map(|t| t.get(searched).copied().unwrap_or(f64::NAN));
                searched += 1;
                let me = board.to_move();
                // Positions the teacher gave no score are left out.
                let untaught = taught_score.is_some_and(f64::is_nan);
                let mut budget = ThreatBudget::new(RECORD_VCF_NODES);
                let left_out =
                    untaught || vcf(board, RECORD_VCF_DEPTH, &mut budget, &mut Vec::new());
                let features = if left_out { None } else { eval_features(board) };
                let score = match (features.is_some(), label, &cached) {
                    (true, Some(_), Some(cached)) => {
                        cached.get(scores.len()).copied().unwrap_or(f64::NAN)
                    }
                    (true, Some(nodes), None) => {
                        let searcher = searcher.get_or_insert_with(|| Searcher::new(16));
                        searcher.clear();
                        let limits = Limits {
                            nodes: Some(nodes),
                            vct: false,
                            ..Limits::default()
                        };
                        let found =
                            searcher.search(board, &limits, &StopSignal::new(), &mut |_| {});
                        f64::from(found.score)
                    }
                    _ => f64::NAN,
                };
                if features.is_some() && label.is_some() {
                    scores.push(score);
                }
                // Unlabelled (`NaN`) positions stay; labelled ones the
                // search scored won or lost go.
                if let Some(features) = features
                    && (score.is_nan() || score.abs() < f64::from(WIN_BOUND))
                {
                    let target = match winner {
                        Some(color) if color == me => 1.0,
                        Some(_) => 0.0,
                        None => 0.5,
                    };
                    let sample = Sample {
                        features: sparse(&features),
                        target,
                        score,
                        teacher: taught_score.unwrap_or(f64::NAN),
                    };
                    if game % 10 == 9 {
                        held.push(sample);
                    } else {
                        train.push(sample);
                    }
                }
            })
            .map_err(|e| format!("{path}: game {game}: {e}"))?;
    }
    if let Some(taught) = &taught
        && taught.len() != searched
    {
        return Err(format!(
            "{path}: {} teacher's scores for {searched} searched moves",
            taught.len()
        ));
    }
    if let Some(cached) = &cached
        && cached.len() != scores.len()
    {
        return Err(format!(
            "{path}: {} cached scores for {} positions: delete the stale cache",
            cached.len(),
            scores.len()
        ));
    }
    if let Some(cache) = cache
        && cached.is_none()
    {
        let text: String = scores.iter().map(|s| format!("{s}\n")).collect();
        std::fs::write(&cache, text).map_err(|e| format!("{cache}: {e}"))?;
    }
    Ok((train, held))
}

/// [`read_sgf`] of every file, on two threads.
fn read_sgfs(
    paths: &[String],
    label: Option<u64>,
    teacher: Option<&str>,
) -> Result<(Vec<Sample>, Vec<Sample>), String> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let at = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(path) = paths.get(at) else { break };
                    let read = read_sgf(path, label, teacher);
                    eprintln!("read {path}");
                    if let Ok(mut results) = results.lock() {
                        results.push((at, read));
                    }
                }
            });
        }
    });
    let mut results = results
        .into_inner()
        .map_err(|_| "a reader failed".to_string())?;
    results.sort_by_key(|(at, _)| *at);
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for (_, read) in results {
        let (t, h) = read?;
        train.extend(t);
        held.extend(h);
    }
    Ok((train, held))
}

/// The non-zero values of a dense feature vector.
fn sparse<T: Copy + Into<f64>>(values: &[T]) -> Sparse {
    values
        .iter()
        .enumerate()
        .map(|(i, &v)| (i, v.into()))
        .filter(|&(_, v)| v != 0.0)
        .collect()
}

/// The `K` that best predicts the outcomes from the scores `loss` reads
/// (golden section on the log loss).
fn fit_scale(samples: &[Sample], loss: fn(&[Sample], f64) -> f64) -> f64 {
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

/// Solves `m x = v` by Gaussian elimination with partial pivoting.
fn solve(mut m: Vec<Vec<f64>>, mut v: Vec<f64>) -> Vec<f64> {
    let n = v.len();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))
            .unwrap_or(col);
        m.swap(col, pivot);
        v.swap(col, pivot);
        let (top, rest) = m.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for (offset, row) in rest.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            if f == 0.0 {
                continue;
            }
            for k in col..n {
                row[k] -= f * pivot_row[k];
            }
            v[col + 1 + offset] -= f * v[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let rest: f64 = (row + 1..n).map(|k| m[row][k] * x[k]).sum();
        x[row] = (v[row] - rest) / m[row][row];
    }
    x
}

/// Newton's method on the log loss plus a ridge towards `prior` (weight
/// `ridge` per sample), with a backtracking line search.
fn fit(samples: &[Sample], prior: &[f64], k: f64, ridge: f64) -> Vec<f64> {
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
        eprintln!(
            "  round {round}: step {:.3}, loss {:.5}",
            t * size,
            mean_loss(samples, &w, k)
        );
        if t * size < 1e-3 {
            break;
        }
    }
    w
}

fn main() -> ExitCode {
    assert_eq!(COMBOS * 2 + MY_COMBOS, FEATURES);
    let mut paths = Vec::new();
    let mut write = None;
    let mut ridge = 3e-3;
    let mut ridge1 = 1e-4;
    let mut refine = false;
    let mut label = None;
    let mut lambda = 1.0;
    let mut sgf_paths = Vec::new();
    let mut teacher = None;
    let mut scale = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--write" => write = args.next(),
            "--refine" => refine = true,
            "--label" => match args.next().and_then(|n| n.parse::<u64>().ok()) {
                Some(nodes) if nodes > 0 => label = Some(nodes),
                _ => {
                    eprintln!("--label needs a node count");
                    return ExitCode::FAILURE;
                }
            },
            "--lambda" => match args.next().and_then(|l| l.parse::<f64>().ok()) {
                Some(l) if (0.0..=1.0).contains(&l) => lambda = l,
                _ => {
                    eprintln!("--lambda needs a number from 0 to 1");
                    return ExitCode::FAILURE;
                }
            },
            "--scale" => match args.next().and_then(|k| k.parse::<f64>().ok()) {
                Some(k) if k > 0.0 => scale = Some(k),
                _ => {
                    eprintln!("--scale needs a positive number");
                    return ExitCode::FAILURE;
                }
            },
            "--teacher" => match args.next() {
                Some(name) => teacher = Some(name),
                None => {
                    eprintln!("--teacher needs a name");
                    return ExitCode::FAILURE;
                }
            },
            "--sgf" => match args.next() {
                Some(path) => sgf_paths.push(path),
                None => {
                    eprintln!("--sgf needs a file");
                    return ExitCode::FAILURE;
                }
            },
            "--ridge" | "--ridge1" => match args.next().and_then(|r| r.parse().ok()) {
                Some(r) if arg == "--ridge" => ridge = r,
                Some(r) => ridge1 = r,
                None => {
                    eprintln!("{arg} needs a number");
                    return ExitCode::FAILURE;
                }
            },
            _ => paths.push(arg),
        }
    }
    if teacher.is_some() && label.is_some() {
        eprintln!("--teacher and --label are two sources of scores: give one");
        return ExitCode::FAILURE;
    }
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for path in &paths {
        if let Err(e) = read(path, &mut train, &mut held) {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    }
    match read_sgfs(&sgf_paths, label, teacher.as_deref()) {
        Ok((t, h)) => {
            train.extend(t);
            held.extend(h);
        }
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    }
    if teacher.is_some() {
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
        eprintln!(
            "usage: gomoku_tune [RECORDS.jsonl...] [--sgf GAMES.sgf]... [--label NODES] \
             [--teacher NAME] [--scale K] [--lambda L] [--refine] [--ridge1 R] [--ridge R] \
             [--write FILE]"
        );
        return ExitCode::FAILURE;
    }
    let mut k = scale.unwrap_or_else(|| fit_scale(&train, score_loss));
    eprintln!(
        "{} positions to fit, {} held out; K = {k:.1}",
        train.len(),
        held.len()
    );
    let mut taught_held = Vec::new();
    if teacher.is_some() {
        // The teacher's scores in its own units, read through its own `K`.
        let kt = fit_scale(&train, teacher_loss);
        eprintln!(
            "teacher: K = {kt:.1}, held-out log loss {:.5}",
            teacher_loss(&held, kt)
        );
        // Our units: the `K` by which the weights in force best predict the
        // teacher's win probabilities (games between close players predict
        // their outcomes badly, which would stretch a `K` fitted to them).
        // A sample with the teacher's win probability as its target.
        let taught_one = |s: &Sample, features: Sparse| Sample {
            features,
            target: sigmoid(s.teacher / kt),
            score: s.score,
            teacher: s.teacher,
        };
        let taught: Vec<Sample> = train.iter().map(|s| taught_one(s, Vec::new())).collect();
        k = scale.unwrap_or_else(|| fit_scale(&taught, score_loss));
        eprintln!("K against the teacher: {k:.1}");
        for s in &mut train {
            s.score = k / kt * s.teacher;
        }
        // The held-out positions against the teacher's win probabilities.
        taught_held = held
            .iter()
            .map(|s| taught_one(s, s.features.clone()))
            .collect();
    }
    if lambda < 1.0 {
        // Targets between the outcome and the search's (or the teacher's)
        // score.
        for s in &mut train {
            s.target = lambda * s.target + (1.0 - lambda) * sigmoid(s.score / k);
        }
    }
    if refine {
        eprintln!("refining the weights in force ({FEATURES} features):");
        let w = fit(&train, &in_force, k, ridge);
        eprintln!(
            "held-out log loss: search scores {:.5}, weights in force {:.5}, refined {:.5}",
            score_loss(&held, k),
            mean_loss(&held, &in_force, k),
            mean_loss(&held, &w, k)
        );
        report_taught(&taught_held, &in_force, &w, k);
        return write_weights(&w, write.as_deref());
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
    eprintln!("stage 1 ({} features):", small::FEATURES);
    let first = fit(&small_train, &HAND_SET, k, ridge1);
    let prior: Vec<f64> = map
        .iter()
        .map(|parts| parts.iter().map(|&(g, c)| first[g] * c).sum())
        .collect();
    eprintln!("stage 2 ({FEATURES} features):");
    let w = fit(&train, &prior, k, ridge);
    eprintln!(
        "held-out log loss: search scores {:.5}, weights in force {:.5}, stage 1 {:.5}, stage 2 {:.5}",
        score_loss(&held, k),
        mean_loss(&held, &in_force, k),
        mean_loss(&small_held, &first, k),
        mean_loss(&held, &w, k)
    );
    report_taught(&taught_held, &in_force, &w, k);
    write_weights(&w, write.as_deref())
}

/// Prints the held-out log loss against the teacher's win probabilities
/// (the part of it that is their entropy included), if there is a teacher.
fn report_taught(taught_held: &[Sample], in_force: &[f64], w: &[f64], k: f64) {
    if !taught_held.is_empty() {
        let spread = |w: &[f64]| {
            let n = taught_held.len() as f64;
            let values: Vec<f64> = taught_held.iter().map(|s| dot(w, &s.features)).collect();
            let mean = values.iter().sum::<f64>() / n;
            (values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n).sqrt()
        };
        eprintln!(
            "held-out evaluations' standard deviation: weights in force {:.1}, fitted {:.1}",
            spread(in_force),
            spread(w)
        );
        eprintln!(
            "held-out log loss against the teacher: weights in force {:.5}, fitted {:.5}",
            mean_loss(taught_held, in_force, k),
            mean_loss(taught_held, w, k)
        );
    }
}

/// Writes the weights `w` (evaluation units) as the weights file at
/// `path`, if any.
fn write_weights(w: &[f64], path: Option<&str>) -> ExitCode {
    let scaled: Vec<i32> = w
        .iter()
        .map(|&x| (x * f64::from(WEIGHT_SCALE)).round() as i32)
        .collect();
    if let Some(path) = path {
        if let Err(e) = std::fs::write(path, oxello::gomoku::eval::encode_weights(&scaled)) {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
        eprintln!("wrote {path}");
    }
    ExitCode::SUCCESS
}
