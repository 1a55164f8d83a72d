//! The JSON that oxello writes for scripts: one schema for a search result,
//! shared by `move --json`, `analyze --json` and `solve --json`, the game
//! analysis object, and the error object. Everything is written by
//! `serde_json`, never by hand.
//!
//! A search result ([`SearchJson`]):
//!
//! ```text
//! {"move":"d3","score":-2,"bound":"exact","search":"midgame","depth":10,"selectivity":73,
//!  "pv":["d3","c5","f6"],"nodes":33102,"time":0.012,"nps":2758500}
//! ```
//!
//! - `move`: `"f5"`, `"pass"` when the side to move must pass, `null` when
//!   the game is over.
//! - `score`: disc difference for the side to move; `bound` tells whether it
//!   is `"exact"`, a `"lower"` bound (the true score is at least this) or an
//!   `"upper"` bound (at most this).
//! - `search`: `"midgame"` (an evaluation `depth` plies deep), `"exact"` or
//!   `"wld"` (a solve to the end of the game, `depth` empties deep). A solve
//!   with `selectivity` below 100 is probable, not proven. `"none"` when no
//!   search backs the move (a simple player such as `greedy`, or a search
//!   stopped before its first iteration): `score` is then 0 and `bound`
//!   `"none"`.
//! - A `"wld"` result also has `"wld"`: `"win"`, `"draw"` or `"loss"`; its
//!   score is the bound the solve proves: a win is at least +2 (`"lower"`),
//!   a loss at most -2 (`"upper"`), a draw exactly 0.
//! - `pv`: the principal variation, moves as for `move`; `nodes`, `time`
//!   (seconds) and `nps` (nodes per second) measure the search.
//! - `book`: `true` when the opening book answered instead of a search
//!   (absent otherwise).
//!
//! An error under `--json` is one object on stdout, and a non-zero exit
//! code: `{"error":"position 'x': ..."}` ([`error_json`]).

use crate::analysis::{GameAnalysis, GameInfo, PlayerTotals};
use crate::moves::Move;
use crate::position::Position;
use crate::search::{Bound, Depth, Report, SearchResult, SolveMode};
use serde::Serialize;
use std::time::Duration;

/// Whether a score is exact or a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BoundJson {
    Exact,
    Lower,
    Upper,
    /// No search backs the score (see [`SearchKind::None`]).
    None,
}

impl From<Bound> for BoundJson {
    fn from(bound: Bound) -> BoundJson {
        match bound {
            Bound::Exact => BoundJson::Exact,
            Bound::Lower => BoundJson::Lower,
            Bound::Upper => BoundJson::Upper,
        }
    }
}

/// What kind of search gave a score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SearchKind {
    /// An evaluation at a depth in plies.
    Midgame,
    /// A solve to the end for the disc difference.
    Exact,
    /// A solve to the end for win, draw or loss.
    Wld,
    /// No search: a simple player's move, or a search stopped before its
    /// first iteration. The score (0) means nothing.
    None,
}

/// The outcome of a win/loss/draw solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Wld {
    Win,
    Draw,
    Loss,
}

/// One search result (see the module documentation for the fields).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SearchJson {
    #[serde(rename = "move")]
    pub mv: Option<String>,
    pub score: i32,
    pub bound: BoundJson,
    pub search: SearchKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wld: Option<Wld>,
    pub depth: u32,
    pub selectivity: u32,
    pub pv: Vec<String>,
    pub nodes: u64,
    pub time: f64,
    pub nps: u64,
    /// Whether the opening book answered (only written when it did).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub book: bool,
}

/// The name of a move in JSON: `f5` or `pass`.
pub fn move_name(mv: Move) -> String {
    match mv.square() {
        Some(square) => square.to_string(),
        None => "pass".to_string(),
    }
}

/// Seconds rounded to the millisecond.
fn seconds(elapsed: Duration) -> f64 {
    (elapsed.as_secs_f64() * 1000.0).round() / 1000.0
}

impl SearchJson {
    /// The result of a search of `position`.
    pub fn new(position: &Position, result: &SearchResult) -> SearchJson {
        SearchJson {
            book: result.book,
            ..SearchJson::build(
                position,
                result.best,
                result.score,
                result.bound,
                result.depth,
                &result.pv,
                result.nodes,
                result.elapsed,
            )
        }
    }

    /// One line of a multi-PV search of `position`.
    pub fn from_report(position: &Position, report: &Report) -> SearchJson {
        SearchJson::build(
            position,
            Some(report.best()),
            report.score,
            report.bound,
            report.depth,
            &report.pv,
            report.nodes,
            report.elapsed,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn build(
        position: &Position,
        best: Option<Move>,
        score: i32,
        bound: Bound,
        depth: Depth,
        pv: &[Move],
        nodes: u64,
        elapsed: Duration,
    ) -> SearchJson {
        let empties = position.empty_count();
        let (search, plies) = match depth {
            Depth::Midgame(0, _) => (SearchKind::None, 0),
            Depth::Midgame(plies, _) => (SearchKind::Midgame, plies),
            Depth::Probable { empties, mode, .. } => (solve_kind(mode), empties),
            Depth::Exact => (SearchKind::Exact, empties),
            Depth::Wld => (SearchKind::Wld, empties),
        };
        let (score, bound, wld) = if search == SearchKind::None {
            (0, BoundJson::None, None)
        } else if search == SearchKind::Wld {
            // Only the sign is known: a win is at least +2 (disc counts of a
            // finished game differ by an even number), a loss at most -2.
            match score.signum() {
                1 => (2, BoundJson::Lower, Some(Wld::Win)),
                -1 => (-2, BoundJson::Upper, Some(Wld::Loss)),
                _ => (0, BoundJson::Exact, Some(Wld::Draw)),
            }
        } else {
            (score, bound.into(), None)
        };
        SearchJson {
            mv: best.map(move_name),
            score,
            bound,
            search,
            wld,
            depth: plies,
            selectivity: depth.selectivity().percent(),
            pv: pv.iter().map(|&mv| move_name(mv)).collect(),
            nodes,
            time: seconds(elapsed),
            nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)).round() as u64,
            book: false,
        }
    }
}

fn solve_kind(mode: SolveMode) -> SearchKind {
    match mode {
        SolveMode::Wld => SearchKind::Wld,
        SolveMode::Exact => SearchKind::Exact,
    }
}

/// `{"error":"..."}`.
pub fn error_json(message: &str) -> String {
    #[derive(Serialize)]
    struct ErrorJson<'a> {
        error: &'a str,
    }
    to_line(&ErrorJson { error: message })
}

/// One JSON line. Serializing these plain structs cannot fail; an empty
/// object stands in should it ever.
pub fn to_line(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "{}".to_string())
}

/// One move of a game analysis.
#[derive(Serialize)]
struct MoveJson {
    ply: usize,
    color: &'static str,
    #[serde(rename = "move")]
    mv: String,
    empties: u32,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    forced: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    search: Option<SearchKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    depth: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    selectivity: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    played_score: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    best_move: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    best_score: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    loss: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    judgement: Option<&'static str>,
    /// The opening book's score of a move that stays in the book.
    #[serde(skip_serializing_if = "Option::is_none")]
    book: Option<i32>,
}

/// A player's totals in a game analysis.
#[derive(Serialize)]
struct TotalsJson {
    moves: u32,
    mistakes: u32,
    blunders: u32,
    total_loss: i64,
    average_loss: f64,
}

impl From<&PlayerTotals> for TotalsJson {
    fn from(totals: &PlayerTotals) -> TotalsJson {
        TotalsJson {
            moves: totals.moves,
            mistakes: totals.mistakes,
            blunders: totals.blunders,
            total_loss: totals.total_loss,
            average_loss: (totals.average_loss() * 1000.0).round() / 1000.0,
        }
    }
}

#[derive(Serialize)]
struct BothTotals {
    black: TotalsJson,
    white: TotalsJson,
}

#[derive(Serialize)]
struct GameJson<'a> {
    game: &'a str,
    black: &'a str,
    white: &'a str,
    result: Option<i32>,
    moves: Vec<MoveJson>,
    totals: BothTotals,
}

/// A game analysis as one JSON line: the game, its players and result
/// (Black's disc difference), every move with the played move's score, the
/// best move and its score, the loss and the judgement (a forced pass has
/// `"forced":true` instead), the opening book's score of a move that stays
/// in the book (`"book"`), and each player's totals. `search`, `depth`
/// and `selectivity` mean what they mean in [`SearchJson`].
pub fn game_analysis_json(info: &GameInfo, analysis: &GameAnalysis) -> String {
    let moves = analysis
        .moves
        .iter()
        .map(|analysis| {
            let mut json = MoveJson {
                ply: analysis.ply + 1,
                color: analysis.color.name(),
                mv: move_name(analysis.played),
                empties: analysis.empties,
                forced: analysis.eval.is_none(),
                search: None,
                depth: None,
                selectivity: None,
                played_score: None,
                best_move: None,
                best_score: None,
                loss: None,
                judgement: None,
                book: analysis.book,
            };
            if let Some(eval) = analysis.eval {
                let (search, depth) = match eval.depth {
                    Depth::Midgame(plies, _) => (SearchKind::Midgame, plies),
                    Depth::Probable { empties, mode, .. } => (solve_kind(mode), empties),
                    Depth::Exact => (SearchKind::Exact, analysis.empties),
                    Depth::Wld => (SearchKind::Wld, analysis.empties),
                };
                json.search = Some(search);
                json.depth = Some(depth);
                json.selectivity = Some(eval.depth.selectivity().percent());
                json.played_score = Some(eval.played_score);
                json.best_move = Some(move_name(eval.best));
                json.best_score = Some(eval.best_score);
                json.loss = Some(eval.loss);
                json.judgement = Some(eval.judgement.name());
            }
            json
        })
        .collect();
    to_line(&GameJson {
        game: &info.label,
        black: &info.black,
        white: &info.white,
        result: analysis.final_score,
        moves,
        totals: BothTotals {
            black: (&analysis.totals[0]).into(),
            white: (&analysis.totals[1]).into(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::BoardSize;
    use crate::search::Selectivity;

    fn result(score: i32, bound: Bound, depth: Depth) -> SearchResult {
        SearchResult {
            best: Some(Move::Pass),
            score,
            bound,
            depth,
            pv: vec![Move::Pass],
            lines: Vec::new(),
            nodes: 7,
            elapsed: Duration::from_millis(1500),
            stopped: None,
            book: false,
        }
    }

    #[test]
    fn search_result() {
        let start = Position::start(BoardSize::Four);
        let json = SearchJson::new(&start, &result(-3, Bound::Upper, Depth::plies(5)));
        assert_eq!(
            to_line(&json),
            r#"{"move":"pass","score":-3,"bound":"upper","search":"midgame","depth":5,"selectivity":100,"pv":["pass"],"nodes":7,"time":1.5,"nps":5}"#
        );
        let exact = SearchJson::new(&start, &result(-10, Bound::Exact, Depth::Exact));
        assert_eq!((exact.search, exact.depth), (SearchKind::Exact, 12));
        let probable = Depth::Probable {
            empties: 12,
            selectivity: Selectivity::MOST,
            mode: SolveMode::Exact,
        };
        let json = SearchJson::new(&start, &result(4, Bound::Exact, probable));
        assert!(json.selectivity < 100);
    }

    #[test]
    fn wld_scores_are_the_bounds_they_prove() {
        let start = Position::start(BoardSize::Four);
        let win = SearchJson::new(&start, &result(1, Bound::Exact, Depth::Wld));
        assert_eq!(
            (win.score, win.bound, win.wld),
            (2, BoundJson::Lower, Some(Wld::Win))
        );
        let loss = SearchJson::new(&start, &result(-64, Bound::Exact, Depth::Wld));
        assert_eq!(
            (loss.score, loss.bound, loss.wld),
            (-2, BoundJson::Upper, Some(Wld::Loss))
        );
        let draw = SearchJson::new(&start, &result(0, Bound::Exact, Depth::Wld));
        assert_eq!((draw.score, draw.bound), (0, BoundJson::Exact));
    }

    #[test]
    fn errors() {
        assert_eq!(error_json("a\"b\n"), r#"{"error":"a\"b\n"}"#);
    }
}
