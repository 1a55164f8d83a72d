//! Move accuracy: how often a search chooses an optimal move on positions
//! whose every move has a known exact score (an OBF file written by
//! `oxello solve --all-moves --write`), and how many discs its choices lose.
//! Positions that list only their best moves (every one of them, as
//! `oxello solve --write` writes them) are judged optimal or not; the discs
//! a choice outside the list loses are not known.
//!
//! This is the measure of a search's (and an evaluation's) judgement at a
//! fixed depth, independent of speed: `oxello bench --accuracy FILE`.

use crate::formats::obf::ObfEntry;
use crate::moves::Move;
use crate::search::{Limits, SearchResult, Searcher, StopSignal};

/// One position searched and judged.
#[derive(Clone, Debug)]
pub struct Judged {
    /// The move the search chose.
    pub chosen: Move,
    /// Its exact score (`None`: not one of the listed best moves of an
    /// entry that lists only those), and the best exact score of the
    /// position.
    pub chosen_score: Option<i32>,
    pub best_score: i32,
    /// The search's result.
    pub result: SearchResult,
}

impl Judged {
    /// Discs lost by the choice (0 for an optimal move; `None` when the
    /// entry does not know).
    pub fn loss(&self) -> Option<i32> {
        self.chosen_score.map(|score| self.best_score - score)
    }

    /// Whether the search chose an optimal move.
    pub fn optimal(&self) -> bool {
        self.chosen_score == Some(self.best_score)
    }
}

/// Why a position could not be judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccuracyError {
    /// The entry lists neither the exact score of every legal move nor
    /// only best moves.
    Incomplete { listed: usize, legal: usize },
    /// There is no move to choose (a forced pass or a finished game).
    NoChoice,
}

impl std::fmt::Display for AccuracyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AccuracyError::Incomplete { listed, legal } => write!(
                f,
                "lists {listed} move scores for {legal} legal moves, and not only best moves \
                 (solve it with --write, or --all-moves)"
            ),
            AccuracyError::NoChoice => write!(f, "no move to choose (a pass or a finished game)"),
        }
    }
}

impl std::error::Error for AccuracyError {}

/// Searches `entry`'s position with `limits` on a cleared table and judges
/// the chosen move against the listed exact scores.
pub fn judge(
    searcher: &mut Searcher,
    entry: &ObfEntry,
    limits: &Limits,
) -> Result<Judged, AccuracyError> {
    let legal = entry.position.legal_moves().count_ones() as usize;
    if legal == 0 {
        return Err(AccuracyError::NoChoice);
    }
    let listed = entry
        .move_scores
        .iter()
        .filter(|(mv, _)| matches!(mv, Move::Place { .. }))
        .count();
    let best_score = entry.best_score();
    let only_best = best_score.is_some_and(|best| {
        entry
            .move_scores
            .iter()
            .all(|&(mv, score)| score == best && matches!(mv, Move::Place { .. }))
    });
    let Some(best_score) = best_score.filter(|_| listed == legal || only_best) else {
        return Err(AccuracyError::Incomplete { listed, legal });
    };
    searcher.clear();
    let result = searcher.search(&entry.position, limits, &StopSignal::new(), &mut |_| {});
    let Some(chosen) = result.best else {
        return Err(AccuracyError::NoChoice);
    };
    let square = chosen.square().ok_or(AccuracyError::NoChoice)?;
    // A complete entry lists every legal move; a best-moves entry lists
    // every best one, so a move outside it is worse by an unknown margin.
    let chosen_score = entry.score_of(square);
    if chosen_score.is_none() && listed == legal {
        return Err(AccuracyError::NoChoice);
    }
    Ok(Judged {
        chosen,
        chosen_score,
        best_score,
        result,
    })
}

/// Totals over judged positions.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    pub positions: usize,
    pub optimal: usize,
    /// Discs lost over the positions whose loss is known.
    pub discs_lost: i64,
    /// Positions whose loss is known (all of them on complete entries).
    pub losses_known: usize,
    /// Sum over the positions of |search score - exact score|, discs.
    pub score_abs_error: i64,
    /// Sum of (search score - exact score): positive when the search
    /// overstates the mover's prospects.
    pub score_signed_error: i64,
    /// Positions whose search score is within 3 discs of the exact score.
    pub within_3: usize,
    pub nodes: u64,
    pub seconds: f64,
}

impl Summary {
    /// Adds one judged position.
    pub fn add(&mut self, judged: &Judged) {
        self.add_scores(judged.best_score, judged.chosen_score, judged.result.score);
        self.nodes += judged.result.nodes;
        self.seconds += judged.result.elapsed.as_secs_f64();
    }

    /// Adds one position by its exact score, the exact score of the move
    /// chosen (`None`: not known) and the score the search reported.
    pub fn add_scores(&mut self, best: i32, chosen: Option<i32>, reported: i32) {
        self.positions += 1;
        self.optimal += usize::from(chosen == Some(best));
        if let Some(chosen) = chosen {
            self.discs_lost += i64::from(best - chosen);
            self.losses_known += 1;
        }
        let error = reported - best;
        self.score_abs_error += i64::from(error.abs());
        self.score_signed_error += i64::from(error);
        self.within_3 += usize::from(error.abs() <= 3);
    }

    /// Adds up two summaries (e.g. of every odd depth).
    pub fn merge(&mut self, other: &Summary) {
        self.positions += other.positions;
        self.optimal += other.optimal;
        self.discs_lost += other.discs_lost;
        self.losses_known += other.losses_known;
        self.score_abs_error += other.score_abs_error;
        self.score_signed_error += other.score_signed_error;
        self.within_3 += other.within_3;
        self.nodes += other.nodes;
        self.seconds += other.seconds;
    }

    /// Mean absolute error of the reported scores, discs.
    pub fn mean_abs_error(&self) -> f64 {
        self.score_abs_error as f64 / self.positions.max(1) as f64
    }

    /// Mean signed error of the reported scores, discs (positive: too
    /// high for the side to move).
    pub fn mean_signed_error(&self) -> f64 {
        self.score_signed_error as f64 / self.positions.max(1) as f64
    }

    /// Share of reported scores within 3 discs of the exact score, percent.
    pub fn within_3_percent(&self) -> f64 {
        100.0 * self.within_3 as f64 / self.positions.max(1) as f64
    }

    /// Share of positions where an optimal move was chosen, in percent.
    pub fn optimal_percent(&self) -> f64 {
        100.0 * self.optimal as f64 / self.positions.max(1) as f64
    }

    /// Average discs lost per position, when every position's loss is
    /// known.
    pub fn average_loss(&self) -> Option<f64> {
        (self.losses_known == self.positions)
            .then(|| self.discs_lost as f64 / self.positions.max(1) as f64)
    }

    /// Average nodes per position.
    pub fn nodes_per_position(&self) -> f64 {
        self.nodes as f64 / self.positions.max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::obf;

    /// A position of `positions/endgame-suite.obf` style: 8 empties, every
    /// move solved.
    fn solved_entry() -> ObfEntry {
        let mut searcher = Searcher::new(4);
        let entry = obf::parse_file(include_str!("../positions/endgame-suite.obf"))
            .expect("the suite parses")
            .into_iter()
            .find(|e| e.move_scores.len() >= 3 && e.position.empty_count() <= 12)
            .expect("a position with three moves or more");
        // Sanity: the file's scores are the solver's.
        let limits = Limits {
            solve_empties: Some(64),
            ..Limits::default()
        };
        let judged = judge(&mut searcher, &entry, &limits).expect("complete entry");
        assert_eq!(
            judged.loss(),
            Some(0),
            "a solve always chooses an optimal move"
        );
        entry
    }

    #[test]
    fn a_depth_one_search_is_judged_by_the_listed_scores() {
        let entry = solved_entry();
        let mut searcher = Searcher::new(4);
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let judged = judge(&mut searcher, &entry, &limits).expect("complete entry");
        let square = judged.chosen.square().expect("a placed disc");
        assert_eq!(judged.chosen_score, entry.score_of(square));
        assert_eq!(Some(judged.best_score), entry.best_score());
        let mut summary = Summary::default();
        summary.add(&judged);
        assert_eq!(summary.positions, 1);
        assert_eq!(Some(summary.discs_lost), judged.loss().map(i64::from));
        assert_eq!(summary.optimal == 1, judged.loss() == Some(0));
    }

    #[test]
    fn score_errors_of_a_hand_made_suite() {
        // (exact score, exact score of the chosen move, reported score)
        let suite = [
            (4, Some(4), 6),
            (-2, Some(-6), -10),
            (0, None, 3),
            (10, Some(10), 10),
        ];
        let mut summary = Summary::default();
        for (best, chosen, reported) in suite {
            summary.add_scores(best, chosen, reported);
        }
        assert_eq!(summary.positions, 4);
        assert_eq!(summary.optimal, 2);
        assert_eq!(summary.discs_lost, 4);
        assert_eq!(summary.average_loss(), None, "one loss is not known");
        // Errors +2, -8, +3, 0.
        assert_eq!(summary.mean_abs_error(), 13.0 / 4.0);
        assert_eq!(summary.mean_signed_error(), -3.0 / 4.0);
        assert_eq!(summary.within_3, 3);
        assert_eq!(summary.within_3_percent(), 75.0);
        let mut both = summary;
        both.merge(&summary);
        assert_eq!(both.positions, 8);
        assert_eq!(both.mean_signed_error(), summary.mean_signed_error());
    }

    #[test]
    fn entries_of_only_best_moves_are_judged_without_a_loss() {
        let complete = solved_entry();
        let best = complete.best_score().expect("scores");
        let mut entry = complete.clone();
        entry.move_scores.retain(|&(_, score)| score == best);
        assert!(entry.move_scores.len() < complete.move_scores.len());
        let mut searcher = Searcher::new(4);
        // Whatever the depth chooses, the best-moves entry agrees with the
        // complete one on whether it is optimal, and knows a loss only then.
        for depth in 1..=4 {
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let full = judge(&mut searcher, &complete, &limits).expect("complete entry");
            let only = judge(&mut searcher, &entry, &limits).expect("best-moves entry");
            assert_eq!(only.chosen, full.chosen);
            assert_eq!(only.optimal(), full.optimal());
            assert_eq!(only.loss(), full.loss().filter(|&loss| loss == 0));
        }
        // A worse move listed beside them makes the entry incomplete.
        let worse = complete
            .move_scores
            .iter()
            .copied()
            .find(|&(_, score)| score < best)
            .expect("a worse move");
        entry.move_scores.push(worse);
        let error = judge(&mut searcher, &entry, &Limits::default()).unwrap_err();
        assert!(matches!(error, AccuracyError::Incomplete { .. }));
    }

    #[test]
    fn entries_without_every_move_or_only_best_moves_are_refused() {
        let mut entry = solved_entry();
        // The best move and the worst: neither every move nor best moves.
        let worst = *entry
            .move_scores
            .iter()
            .min_by_key(|&&(_, s)| s)
            .expect("moves");
        entry.move_scores.truncate(1);
        entry.move_scores.push(worst);
        let mut searcher = Searcher::new(4);
        let error = judge(&mut searcher, &entry, &Limits::default()).unwrap_err();
        assert!(matches!(error, AccuracyError::Incomplete { listed: 2, .. }));
    }
}
