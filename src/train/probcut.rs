//! Fitting the Multi-ProbCut parameters from our own searches
//! (`oxello fit-probcut`).
//!
//! Midgame: each sample position is searched by iterative deepening without
//! selectivity; its root scores at depths 0 (the evaluation) to the deepest
//! give the pairs (shallow score, deep score). For every depth pair used by
//! the search (*d*, [`shallow_depth`]`(d)`) and (*d*, 0) a least-squares line
//! predicts the deep score; the residuals, grouped by empties, give σ per
//! cell, and a weighted least-squares plane `σ = a·empties + b·d + c·d' + k`
//! extends σ to depths deeper than were fitted.
//!
//! Endgame: each sample position is solved exactly and searched to shallow
//! depths; the lines predict the exact score from each shallow depth, and
//! `σ = a·empties + c·d' + k` is fitted the same way.

use super::linalg::weighted_least_squares;
use crate::position::Position;
use crate::search::probcut::{Parameters, SigmaModel, shallow_depth};
use crate::search::{Bound, Depth, Limits, Searcher, StopSignal};
use std::collections::BTreeMap;

/// How the fit samples and searches.
#[derive(Clone, Debug, PartialEq)]
pub struct FitOptions {
    /// Deepest midgame search of a sample.
    pub max_depth: u32,
    /// Deepest shallow search predicting an exact score.
    pub max_endgame_shallow: u32,
    /// Node limit of one sample's midgame search (its unfinished iteration
    /// is dropped).
    pub nodes_per_sample: u64,
    /// Empties per group when σ is measured.
    pub empties_group: u32,
    /// Fewest samples for a σ cell to count.
    pub min_cell: usize,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            max_depth: 12,
            max_endgame_shallow: 8,
            nodes_per_sample: 50_000_000,
            empties_group: 4,
            min_cell: 8,
        }
    }
}

/// The scores of one sample: by depth (index 0 = static evaluation), and
/// the exact score for endgame samples.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub empties: u32,
    pub scores: Vec<Option<i32>>,
    pub exact: Option<i32>,
}

/// The root scores of `position` at depths 0 to `max_depth` (fewer when
/// the node limit cuts the search), without selectivity.
pub fn depth_scores(
    searcher: &mut Searcher,
    position: &Position,
    max_depth: u32,
    nodes: u64,
) -> Vec<Option<i32>> {
    let empties = position.empty_count();
    let deepest = max_depth.min(empties.saturating_sub(1));
    let mut scores = vec![None; deepest as usize + 1];
    scores[0] = Some(crate::eval::patterns::evaluate(position.board));
    let limits = Limits {
        depth: Some(deepest.max(1)),
        nodes: Some(nodes),
        ..Limits::default()
    };
    searcher.search(position, &limits, &StopSignal::new(), &mut |report| {
        if let Depth::Midgame(d, _) = report.depth
            && report.rank == 0
            && report.bound == Bound::Exact
            && (d as usize) < scores.len()
        {
            scores[d as usize] = Some(report.score);
        }
    });
    scores
}

/// The exact score of `position`.
pub fn exact_score(searcher: &mut Searcher, position: &Position) -> i32 {
    let limits = Limits {
        solve_empties: Some(64),
        ..Limits::default()
    };
    searcher
        .search(position, &limits, &StopSignal::new(), &mut |_| {})
        .score
}

/// A least-squares line through `points`: (slope, intercept), and the
/// residuals.
fn line_fit(points: &[(f64, f64)]) -> (f64, f64) {
    let n = points.len() as f64;
    if n < 2.0 {
        return (1.0, 0.0);
    }
    let (sx, sy) = points
        .iter()
        .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x, b + y));
    let (mx, my) = (sx / n, sy / n);
    let (mut sxx, mut sxy) = (0.0, 0.0);
    for &(x, y) in points {
        sxx += (x - mx) * (x - mx);
        sxy += (x - mx) * (y - my);
    }
    if sxx < 1e-9 {
        return (1.0, my - mx);
    }
    let slope = sxy / sxx;
    (slope, my - slope * mx)
}

/// σ cells of one depth pair: (empties group centre, rms residual, count).
fn sigma_cells(
    points: &[(u32, f64, f64)],
    slope: f64,
    intercept: f64,
    group: u32,
    min_cell: usize,
) -> Vec<(f64, f64, usize)> {
    let mut cells: BTreeMap<u32, (f64, usize)> = BTreeMap::new();
    for &(empties, x, y) in points {
        let r = y - (slope * x + intercept);
        let cell = cells.entry(empties / group).or_default();
        cell.0 += r * r;
        cell.1 += 1;
    }
    cells
        .into_iter()
        .filter(|(_, (_, n))| *n >= min_cell)
        .map(|(g, (sum, n))| {
            let centre = (g * group) as f64 + (group as f64 - 1.0) / 2.0;
            (centre, (sum / n as f64).sqrt(), n)
        })
        .collect()
}

/// The regression of one depth pair over `points` (empties, shallow score,
/// deep score) and its σ cells, logged under `label`.
fn fit_pair(
    points: &[(u32, f64, f64)],
    label: &str,
    options: &FitOptions,
    log: &mut dyn FnMut(String),
) -> (f64, f64, Vec<(f64, f64, usize)>) {
    let xy: Vec<(f64, f64)> = points.iter().map(|p| (p.1, p.2)).collect();
    let (slope, intercept) = line_fit(&xy);
    let cells = sigma_cells(
        points,
        slope,
        intercept,
        options.empties_group,
        options.min_cell,
    );
    log(format!(
        "{label}: {} samples, slope {slope:.3}, intercept {intercept:+.2}, sigma by empties {}",
        points.len(),
        cells
            .iter()
            .map(|c| format!("{:.0}:{:.2}", c.0, c.1))
            .collect::<Vec<_>>()
            .join(" ")
    ));
    (slope, intercept, cells)
}

/// Fits the parameters to midgame and endgame samples; `log` receives a
/// line per fitted pair.
pub fn fit(
    midgame: &[Sample],
    endgame: &[Sample],
    options: &FitOptions,
    log: &mut dyn FnMut(String),
) -> Parameters {
    let mut parameters = Parameters::default();
    let mut rows = Vec::new();
    let deepest = midgame.iter().map(|s| s.scores.len()).max().unwrap_or(0) as u32;
    parameters.max_depth = deepest.saturating_sub(1);
    parameters.max_endgame_empties = endgame.iter().map(|s| s.empties).max().unwrap_or(0);
    for depth in crate::search::params::PROBCUT_MIN_DEPTH..deepest {
        let mut shallows = vec![shallow_depth(depth)];
        if shallows[0] != 0 {
            shallows.push(0);
        }
        for shallow in shallows {
            let points: Vec<(u32, f64, f64)> = midgame
                .iter()
                .filter_map(|s| {
                    let x = (*s.scores.get(shallow as usize)?)?;
                    let y = (*s.scores.get(depth as usize)?)?;
                    Some((s.empties, x as f64, y as f64))
                })
                .collect();
            if points.len() < options.min_cell {
                continue;
            }
            let label = format!("midgame {depth:2} from {shallow:2}");
            let (slope, intercept, cells) = fit_pair(&points, &label, options, log);
            parameters
                .midgame_pairs
                .push((depth, shallow, slope, intercept));
            for (centre, sigma, n) in cells {
                rows.push((
                    vec![centre, depth as f64, shallow as f64, 1.0],
                    sigma,
                    n as f64,
                ));
            }
        }
    }
    let c = weighted_least_squares(&rows);
    if c.len() == 4 {
        parameters.midgame_sigma = SigmaModel {
            empties: c[0],
            depth: c[1],
            shallow: c[2],
            constant: c[3],
        };
    }
    let mut rows = Vec::new();
    for shallow in 0..=options.max_endgame_shallow {
        let points: Vec<(u32, f64, f64)> = endgame
            .iter()
            .filter_map(|s| {
                let x = (*s.scores.get(shallow as usize)?)?;
                Some((s.empties, x as f64, s.exact? as f64))
            })
            .collect();
        if points.len() < options.min_cell {
            continue;
        }
        let label = format!("endgame from {shallow:2}");
        let (slope, intercept, cells) = fit_pair(&points, &label, options, log);
        parameters.endgame_pairs.push((shallow, slope, intercept));
        for (centre, sigma, n) in cells {
            rows.push((vec![centre, shallow as f64, 1.0], sigma, n as f64));
        }
    }
    let c = weighted_least_squares(&rows);
    if c.len() == 3 {
        parameters.endgame_sigma = SigmaModel {
            empties: c[0],
            depth: 0.0,
            shallow: c[1],
            constant: c[2],
        };
    }
    parameters
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_fit_goes_through_the_points() {
        let (slope, intercept) = line_fit(&[(0.0, 1.0), (1.0, 3.0), (2.0, 5.0)]);
        assert!((slope - 2.0).abs() < 1e-9 && (intercept - 1.0).abs() < 1e-9);
    }

    #[test]
    fn fit_learns_a_noisy_linear_relation() {
        // Deep score = 0.9 * shallow + 1 +- 2 (alternating), for every depth.
        let midgame: Vec<Sample> = (0..200)
            .map(|i| {
                let base = (i % 41) - 20;
                let noise = if i % 2 == 0 { 2 } else { -2 };
                let scores = (0..8)
                    .map(|d| {
                        Some(if d == 0 {
                            base
                        } else {
                            (9 * base) / 10 + 1 + noise
                        })
                    })
                    .collect();
                Sample {
                    empties: 20 + (i % 30) as u32,
                    scores,
                    exact: None,
                }
            })
            .collect();
        let endgame: Vec<Sample> = midgame
            .iter()
            .map(|s| Sample {
                exact: s.scores[1],
                empties: 12 + s.empties % 10,
                ..s.clone()
            })
            .collect();
        let p = fit(&midgame, &endgame, &FitOptions::default(), &mut |_| {});
        let &(_, _, slope, _) = p
            .midgame_pairs
            .iter()
            .find(|p| p.0 == 5 && p.1 == 0)
            .unwrap();
        assert!((slope - 0.9).abs() < 0.1, "{slope}");
        let sigma = p.midgame_sigma.sigma(30, 5, 0);
        assert!((1.5..3.0).contains(&sigma), "{sigma}");
        assert!(!p.endgame_pairs.is_empty());
        // The text form parses back.
        assert!(Parameters::decode(&p.encode()).is_ok());
    }
}
