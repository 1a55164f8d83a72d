//! The Python package `oxello` (the extension module `oxello._oxello`; the
//! package's Python files are in `oxello/`). It binds the engine crate and
//! adds no game logic of its own:
//!
//! - [`board`]: `oxello.Board`, the Othello game; [`picture`] its SVG;
//! - [`engine`]: `oxello.Engine`, search, solve, evaluation and iterations;
//!   [`analysis`]: the analysis of a game;
//! - [`data`]: self-play batches and record and WTHOR readers, as NumPy
//!   arrays ([`arrays`]);
//! - [`gomoku`]: `oxello.gomoku.Board` and `oxello.gomoku.Engine`;
//! - [`external`]: engines in other processes over NBoard, GTP and Gomocup,
//!   driven by the match runner's clients and referees;
//! - [`wait`]: waiting for the engine thread with the GIL released and
//!   Ctrl-C heard; [`errors`]: the exceptions, and the guard that turns a
//!   panic into one.

mod analysis;
mod arrays;
mod board;
mod data;
mod engine;
mod errors;
mod external;
mod gomoku;
mod picture;
mod wait;

use pyo3::prelude::*;

#[pymodule]
fn _oxello(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("PASS", board::PASS)?;
    m.add("SYMMETRIES", board::SYMMETRY_NAMES.to_vec())?;
    m.add("OxelloError", py.get_type::<errors::OxelloError>())?;
    m.add(
        "IllegalMoveError",
        py.get_type::<errors::IllegalMoveError>(),
    )?;
    m.add("EngineError", py.get_type::<errors::EngineError>())?;
    m.add_class::<board::Board>()?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<engine::SearchResult>()?;
    m.add_class::<engine::Iterations>()?;
    m.add_class::<analysis::GameAnalysis>()?;
    m.add_class::<analysis::MoveAnalysis>()?;
    m.add_class::<data::SelfplayBatches>()?;
    m.add_function(wrap_pyfunction!(data::selfplay, m)?)?;
    m.add_function(wrap_pyfunction!(data::read_records, m)?)?;
    m.add_function(wrap_pyfunction!(data::read_wthor, m)?)?;
    m.add_function(wrap_pyfunction!(data::read_wthor_names, m)?)?;
    // The gomoku and external-engine classes share names with the Othello
    // ones (`Board`, `SearchResult`): each set lives in a submodule, which
    // `oxello/gomoku.py` and `oxello/engine.py` re-export.
    let games = PyModule::new(py, "gomoku")?;
    games.add_class::<gomoku::GomokuBoard>()?;
    games.add_class::<gomoku::GomokuEngine>()?;
    games.add_class::<gomoku::GomokuResult>()?;
    m.add_submodule(&games)?;
    let engines = PyModule::new(py, "engine")?;
    engines.add_class::<external::OthelloPlayer>()?;
    engines.add_class::<external::GomokuPlayer>()?;
    engines.add_class::<external::PlayResult>()?;
    engines.add_class::<external::MatchGame>()?;
    engines.add_function(wrap_pyfunction!(external::play_game, &engines)?)?;
    engines.add_function(wrap_pyfunction!(external::play_gomoku_game, &engines)?)?;
    m.add_submodule(&engines)?;
    Ok(())
}
