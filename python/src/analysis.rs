//! `oxello.GameAnalysis`: the analysis of a game (`Engine.analyse`), every
//! move against the best move ([`oxello::analysis`]), with the command
//! line's table, JSON and SVG evaluation graph.

use oxello::analysis::{self, GameInfo, MoveAnalysis as RawMove};
use oxello::json::{game_analysis_json, move_name};
use oxello::search::{Depth, SolveMode};
use pyo3::prelude::*;

/// One move of an analysed game.
///
/// `ply` counts from 1 (passes count), `color` is the mover, `move` the
/// move played, `empties` the empty squares before it. A forced pass has
/// `forced=True` and no scores. Otherwise `best_move` and `best_score` are
/// the search's, `played_score` the move played's (discs, from the mover's
/// view), `loss` their difference and `judgement` `"good"`, `"mistake"` (a
/// loss of 4 discs or more) or `"blunder"` (10 or more); `search` and
/// `depth` say how deep the scores look (`"exact"` solves from
/// `exact_from` empties).
#[pyclass(module = "oxello", name = "MoveAnalysis", frozen, get_all)]
#[derive(Clone)]
pub struct MoveAnalysis {
    ply: usize,
    color: &'static str,
    #[pyo3(name = "move")]
    mv: String,
    empties: u32,
    forced: bool,
    best_move: Option<String>,
    best_score: Option<i32>,
    played_score: Option<i32>,
    loss: Option<i32>,
    judgement: Option<&'static str>,
    search: Option<&'static str>,
    depth: Option<u32>,
}

impl MoveAnalysis {
    fn new(analysis: &RawMove) -> MoveAnalysis {
        let eval = analysis.eval;
        MoveAnalysis {
            ply: analysis.ply + 1,
            color: analysis.color.name(),
            mv: move_name(analysis.played),
            empties: analysis.empties,
            forced: eval.is_none(),
            best_move: eval.map(|e| move_name(e.best)),
            best_score: eval.map(|e| e.best_score),
            played_score: eval.map(|e| e.played_score),
            loss: eval.map(|e| e.loss),
            judgement: eval.map(|e| e.judgement.name()),
            search: eval.map(|e| match e.depth {
                Depth::Midgame(..) => "midgame",
                Depth::Wld
                | Depth::Probable {
                    mode: SolveMode::Wld,
                    ..
                } => "wld",
                _ => "exact",
            }),
            depth: eval.map(|e| match e.depth {
                Depth::Midgame(plies, _) => plies,
                Depth::Probable { empties, .. } => empties,
                Depth::Exact | Depth::Wld => analysis.empties,
            }),
        }
    }
}

#[pymethods]
impl MoveAnalysis {
    fn __repr__(&self) -> String {
        match (&self.best_move, self.played_score, self.best_score) {
            (Some(best), Some(played), Some(best_score)) => format!(
                "<MoveAnalysis {} {} {}: {:+}, best {} {:+}, loss {} ({})>",
                self.ply,
                self.color,
                self.mv,
                played,
                best,
                best_score,
                self.loss.unwrap_or(0),
                self.judgement.unwrap_or("")
            ),
            _ => format!("<MoveAnalysis {} {} pass (forced)>", self.ply, self.color),
        }
    }
}

/// The analysis of a game: `moves` (a `MoveAnalysis` per move, passes
/// included), each player's `totals` (moves, mistakes, blunders,
/// total_loss, average_loss), the game's `result` (Black's disc
/// difference, `None` if unfinished); `table()`, `to_json()` and `svg()`
/// give what `oxello analyze GAME` prints, writes with `--json` and draws
/// with `--svg`; `graph()` the evaluation graph's points for plotting.
#[pyclass(module = "oxello", name = "GameAnalysis", frozen)]
pub struct GameAnalysis {
    raw: analysis::GameAnalysis,
}

impl GameAnalysis {
    pub fn new(raw: analysis::GameAnalysis) -> GameAnalysis {
        GameAnalysis { raw }
    }
}

/// Names given to the table, JSON and graph.
fn info(label: &str, black: &str, white: &str) -> GameInfo {
    GameInfo {
        label: label.to_string(),
        black: black.to_string(),
        white: white.to_string(),
    }
}

#[pymethods]
impl GameAnalysis {
    #[getter]
    fn moves(&self) -> Vec<MoveAnalysis> {
        self.raw.moves.iter().map(MoveAnalysis::new).collect()
    }

    /// Black's final disc difference, `None` for an unfinished game.
    #[getter]
    fn result(&self) -> Option<i32> {
        self.raw.final_score
    }

    /// `{"black": {...}, "white": {...}}`: moves, mistakes, blunders,
    /// total_loss and average_loss of each player.
    #[getter]
    fn totals<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let json = game_analysis_json(&GameInfo::default(), &self.raw);
        let value = py.import("json")?.call_method1("loads", (json,))?;
        value.get_item("totals")
    }

    /// The evaluation graph's points, Black's view: `(plies, best,
    /// played)`, the value of each position with best play and after the
    /// move played, for each move that was a choice.
    fn graph(&self) -> (Vec<usize>, Vec<i32>, Vec<i32>) {
        let mut plies = Vec::new();
        let mut best = Vec::new();
        let mut played = Vec::new();
        for analysis in &self.raw.moves {
            if let Some(eval) = analysis.eval {
                plies.push(analysis.ply + 1);
                best.push(analysis.black_view(eval.best_score));
                played.push(analysis.black_view(eval.played_score));
            }
        }
        (plies, best, played)
    }

    /// The analysis as `oxello analyze GAME` prints it.
    #[pyo3(signature = (label = "", black = "", white = ""))]
    fn table(&self, label: &str, black: &str, white: &str) -> String {
        analysis::format_table(&info(label, black, white), &self.raw)
    }

    /// The analysis as the JSON line of `oxello analyze GAME --json`.
    #[pyo3(signature = (label = "", black = "", white = ""))]
    fn to_json(&self, label: &str, black: &str, white: &str) -> String {
        game_analysis_json(&info(label, black, white), &self.raw)
    }

    /// The evaluation graph as SVG, as `oxello analyze GAME --svg` draws it.
    #[pyo3(signature = (label = "", black = "", white = ""))]
    fn svg(&self, label: &str, black: &str, white: &str) -> String {
        analysis::eval_chart(&info(label, black, white), &self.raw).render()
    }

    fn _repr_svg_(&self) -> String {
        self.svg("", "", "")
    }

    fn __len__(&self) -> usize {
        self.raw.moves.len()
    }

    fn __repr__(&self) -> String {
        let totals = &self.raw.totals;
        format!(
            "<GameAnalysis {} moves; Black {} mistakes {} blunders, White {} mistakes {} blunders>",
            self.raw.moves.len(),
            totals[0].mistakes,
            totals[0].blunders,
            totals[1].mistakes,
            totals[1].blunders
        )
    }
}
