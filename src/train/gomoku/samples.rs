//! The positions the gomoku tuner fits: self-play records with their
//! search scores, and match games with their outcomes (and optionally a
//! search's or a teacher engine's scores).

use crate::gomoku::board::Status;
use crate::gomoku::search::{Limits, Searcher, WIN_BOUND, eval_features};
use crate::gomoku::sgf::GomokuRecord as SgfRecord;
use crate::gomoku::vcf::{ThreatBudget, vcf};
use crate::search::StopSignal;
use crate::selfplay::Format;
use crate::selfplay::gomoku::GomokuRecord;
use std::path::{Path, PathBuf};

/// A feature vector, sparse: (index, count).
pub(super) type Sparse = Vec<(usize, f64)>;

/// One position: its features, the outcome (1 win, 0.5 draw, 0 loss), the
/// search's score and the teacher's score (`NaN` without), side to move's
/// view.
#[derive(Clone)]
pub(super) struct Sample {
    pub features: Sparse,
    pub target: f64,
    pub score: f64,
    pub teacher: f64,
}

/// The positions to fit and those held out (every tenth game).
#[derive(Default)]
pub(super) struct Samples {
    pub train: Vec<Sample>,
    pub held: Vec<Sample>,
}

impl Samples {
    fn push(&mut self, game: usize, sample: Sample) {
        if game % 10 == 9 {
            self.held.push(sample);
        } else {
            self.train.push(sample);
        }
    }

    fn extend(&mut self, other: Samples) {
        self.train.extend(other.train);
        self.held.extend(other.held);
    }
}

/// The non-zero values of a dense feature vector.
pub(super) fn sparse<T: Copy + Into<f64>>(values: &[T]) -> Sparse {
    values
        .iter()
        .enumerate()
        .map(|(i, &v)| (i, v.into()))
        .filter(|&(_, v)| v != 0.0)
        .collect()
}

/// Reads the self-play records (JSONL) of `path`: every position the
/// search did not score as won or lost, with its game's outcome and the
/// search's score.
pub(super) fn read_records(path: &Path, samples: &mut Samples) -> Result<(), String> {
    let name = path.display();
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
    let records = Format::Jsonl
        .read_all::<GomokuRecord>(&bytes)
        .map_err(|e| format!("{name}: {e}"))?;
    for record in records {
        if record.score.abs() >= WIN_BOUND {
            continue;
        }
        let mut board = record
            .board()
            .map_err(|e| format!("{name}: game {} ply {}: {e}", record.game, record.ply))?;
        let Some(features) = eval_features(&mut board) else {
            continue;
        };
        samples.push(
            record.game as usize,
            Sample {
                features: sparse(&features),
                target: (f64::from(record.outcome) + 1.0) / 2.0,
                score: f64::from(record.score),
                teacher: f64::NAN,
            },
        );
    }
    Ok(())
}

/// Nodes of the VCF that leaves out a game record's positions already won
/// by the side to move (as the search's win scores leave out self-play
/// positions).
const RECORD_VCF_NODES: u64 = 2_000;
/// Fours of that VCF.
const RECORD_VCF_DEPTH: u32 = 20;

/// One score a line (`nan`, or anything unreadable, where there is none).
fn read_scores(text: &str) -> Vec<f64> {
    text.lines()
        .map(|l| l.parse().unwrap_or(f64::NAN))
        .collect()
}

/// Reads the games of the SGF file `path` (one record a line, as `oxello
/// match` writes them): every position before a searched move, with the
/// game's outcome. Games not ended by a five or a full board (forfeits)
/// are skipped. With `label` nodes, each position's score is that of a
/// search of so many nodes (one thread, no VCT, a fresh table), cached in
/// `PATH.scores-NODES`, and positions it scores won or lost are left out;
/// with a `teacher`, the scores are read from `PATH.scores-TEACHER`;
/// without either, the score is `NaN`.
fn read_games(path: &Path, label: Option<u64>, teacher: Option<&str>) -> Result<Samples, String> {
    let name = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
    // The teacher's scores: one a line for every searched move of the file
    // (`nan` where it gave none), in order.
    let taught: Option<Vec<f64>> = match teacher {
        Some(teacher) => {
            let file = format!("{name}.scores-{teacher}");
            let text = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
            Some(read_scores(&text))
        }
        None => None,
    };
    let mut searched = 0;
    let mut samples = Samples::default();
    let mut searcher = None;
    // Scores of an earlier labelling with as many nodes, one a line, in the
    // order the positions come (searched again only when absent).
    let cache = label.map(|nodes| format!("{name}.scores-{nodes}"));
    let cached: Option<Vec<f64>> = cache
        .as_ref()
        .and_then(|c| std::fs::read_to_string(c).ok())
        .map(|t| read_scores(&t));
    let mut scores = Vec::new();
    let mut game = 0;
    for line in text.lines().filter(|l| l.trim_start().starts_with('(')) {
        let record = SgfRecord::parse(line).map_err(|e| format!("{name}: {e}"))?;
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
                    samples.push(
                        game,
                        Sample {
                            features: sparse(&features),
                            target,
                            score,
                            teacher: taught_score.unwrap_or(f64::NAN),
                        },
                    );
                }
            })
            .map_err(|e| format!("{name}: game {game}: {e}"))?;
    }
    if let Some(taught) = &taught
        && taught.len() != searched
    {
        return Err(format!(
            "{name}: {} teacher's scores for {searched} searched moves",
            taught.len()
        ));
    }
    if let Some(cached) = &cached
        && cached.len() != scores.len()
    {
        return Err(format!(
            "{name}: {} cached scores for {} positions: delete the stale cache",
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
    Ok(samples)
}

/// [`read_games`] of every file, on two threads, in the files' order;
/// `read` is told each file read.
pub(super) fn read_all_games(
    paths: &[PathBuf],
    label: Option<u64>,
    teacher: Option<&str>,
    read: &(dyn Fn(&Path) + Sync),
) -> Result<Samples, String> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let at = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(path) = paths.get(at) else { break };
                    let samples = read_games(path, label, teacher);
                    read(path);
                    if let Ok(mut results) = results.lock() {
                        results.push((at, samples));
                    }
                }
            });
        }
    });
    let mut results = results
        .into_inner()
        .map_err(|_| "a reader failed".to_string())?;
    results.sort_by_key(|(at, _)| *at);
    let mut samples = Samples::default();
    for (_, read) in results {
        samples.extend(read?);
    }
    Ok(samples)
}
