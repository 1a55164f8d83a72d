//! `oxello.Engine`: the engine facade ([`oxello::engine::Engine`]) for
//! Python, with its search on the engine's own thread and its table kept
//! from search to search.
//!
//! - `search(board, ...)` searches as `oxello move` does: the level's depth
//!   and solving thresholds, overridden by `depth`, `time`, `nodes` and
//!   `selectivity`; `solve(board)` solves as `oxello solve` does. Both
//!   answer the fields of the JSON schema (`oxello::json`).
//! - Every wait releases the GIL ([`crate::wait`]): other Python threads
//!   run, `stop()` from one of them ends the search at once, and Ctrl-C
//!   raises `KeyboardInterrupt` after stopping it. The engine serves one
//!   search at a time: a second thread that asks while it searches gets a
//!   `RuntimeError` (use one engine per thread).

use crate::board::Board;
use crate::errors::{guard, oxello_error, value_error};
use crate::wait::{self, Inbox, Received};
use oxello::core::{Event, StopSignal};
use oxello::engine::{self as facade, EngineOptions, GoRequest, Level, MAX_THREADS, Player};
use oxello::json::{SearchJson, to_line};
use oxello::search::{
    Limits, Report, SearchResult as RawResult, Selectivity, SolveMode, StopReason,
};
use oxello::{BoardSize, Game, Position};
use pyo3::prelude::*;
use std::sync::mpsc;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// Largest table, MiB.
const MAX_HASH_MB: usize = 1 << 16;

/// A search result, or one finished iteration of a search: the fields of
/// the JSON schema of `oxello move --json` (docs/cli.md).
///
/// `move` is `"f5"`, `"pass"`, or `None` when the game is over; `score` is
/// discs for the side to move, `bound` `"exact"`, `"lower"` or `"upper"`;
/// `search` is `"midgame"` (`depth` plies) or a solve, `"exact"` or `"wld"`
/// (`depth` empties), or `"none"` (with `bound` `"none"` and score 0) when
/// no search backs the move, as a simple player's; `selectivity` below 100
/// means Multi-ProbCut (a probable solve); `wld` is `"win"`, `"draw"` or
/// `"loss"` for a WLD solve.
/// `time` is in seconds. `rank` is 0 for the best line; `lines` holds every
/// line of a multi-PV search; `stopped` says why a search ended early
/// (`"stop"`, `"nodes"`, `"time"`).
#[pyclass(module = "oxello", name = "SearchResult", frozen)]
#[derive(Clone)]
pub struct SearchResult {
    #[pyo3(get, name = "move")]
    mv: Option<String>,
    #[pyo3(get)]
    score: i32,
    #[pyo3(get)]
    bound: String,
    #[pyo3(get)]
    search: String,
    #[pyo3(get)]
    wld: Option<String>,
    #[pyo3(get)]
    depth: u32,
    #[pyo3(get)]
    selectivity: u32,
    #[pyo3(get)]
    pv: Vec<String>,
    #[pyo3(get)]
    nodes: u64,
    #[pyo3(get)]
    time: f64,
    #[pyo3(get)]
    nps: u64,
    #[pyo3(get)]
    rank: usize,
    #[pyo3(get)]
    lines: Vec<SearchResult>,
    #[pyo3(get)]
    stopped: Option<String>,
    json: String,
}

/// A JSON string's text without its quotes (`"exact"` -> `exact`).
fn word(json: String) -> String {
    json.trim_matches('"').to_string()
}

impl SearchResult {
    fn from_json(json: SearchJson, rank: usize) -> SearchResult {
        SearchResult {
            mv: json.mv.clone(),
            score: json.score,
            bound: word(to_line(&json.bound)),
            search: word(to_line(&json.search)),
            wld: json.wld.map(|wld| word(to_line(&wld))),
            depth: json.depth,
            selectivity: json.selectivity,
            pv: json.pv.clone(),
            nodes: json.nodes,
            time: json.time,
            nps: json.nps,
            rank,
            lines: Vec::new(),
            stopped: None,
            json: to_line(&json),
        }
    }

    /// One iteration's line.
    pub fn from_report(position: &Position, report: &Report) -> SearchResult {
        SearchResult::from_json(SearchJson::from_report(position, report), report.rank)
    }

    /// The result of a search of `position`.
    pub fn from_result(position: &Position, result: &RawResult) -> SearchResult {
        let mut answer = SearchResult::from_json(SearchJson::new(position, result), 0);
        if result.lines.len() > 1 {
            answer.lines = result
                .lines
                .iter()
                .map(|line| SearchResult::from_report(position, line))
                .collect();
        }
        answer.stopped = result.stopped.map(|reason| {
            match reason {
                StopReason::Signal => "stop",
                StopReason::Nodes => "nodes",
                StopReason::Time => "time",
            }
            .to_string()
        });
        answer
    }
}

#[pymethods]
impl SearchResult {
    /// The result as the JSON object of `oxello move --json`.
    fn to_json(&self) -> String {
        self.json.clone()
    }

    /// The result as a dict (the JSON object's fields).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("json")?.call_method1("loads", (&self.json,))
    }

    fn __repr__(&self) -> String {
        format!(
            "<SearchResult move={} score={:+} ({}) {} depth {}@{}% pv={}>",
            self.mv.as_deref().unwrap_or("None"),
            self.score,
            self.bound,
            self.search,
            self.depth,
            self.selectivity,
            self.pv.join(" ")
        )
    }
}

/// The checked limits of a search.
struct Asked {
    depth: Option<u32>,
    time: Option<Duration>,
    nodes: Option<u64>,
    multi_pv: usize,
    selectivity: Option<Selectivity>,
}

impl Asked {
    /// The engine's request for these limits.
    fn request(&self) -> GoRequest {
        GoRequest {
            multi_pv: self.multi_pv,
            time: self.time,
            depth: self.depth,
            nodes: self.nodes,
            ..GoRequest::default()
        }
    }
}

/// Checks the options a search takes from Python.
fn check_limits(
    depth: Option<u32>,
    time: Option<f64>,
    nodes: Option<u64>,
    multi_pv: usize,
    selectivity: Option<u32>,
) -> PyResult<Asked> {
    if let Some(depth) = depth
        && !(1..=60).contains(&depth)
    {
        return Err(value_error(format!("depth={depth}: use 1 to 60")));
    }
    let time = time.map(seconds).transpose()?;
    if nodes == Some(0) {
        return Err(value_error("nodes=0: give a positive node budget"));
    }
    if !(1..=64).contains(&multi_pv) {
        return Err(value_error(format!("multi_pv={multi_pv}: use 1 to 64")));
    }
    let selectivity = selectivity.map(parse_selectivity).transpose()?;
    Ok(Asked {
        depth,
        time,
        nodes,
        multi_pv,
        selectivity,
    })
}

/// A time in seconds: finite, positive, at most a day.
pub fn seconds(time: f64) -> PyResult<Duration> {
    if time.is_finite() && time > 0.0 && time <= 86_400.0 {
        Ok(Duration::from_secs_f64(time))
    } else {
        Err(value_error(format!(
            "time={time}: use a number of seconds above 0 (at most a day)"
        )))
    }
}

/// A selectivity percentage: 73, 87, 95, 98, 99 or 100.
pub fn parse_selectivity(percent: u32) -> PyResult<Selectivity> {
    percent.to_string().parse().map_err(value_error)
}

/// A level (1-60) or a simple player's name.
fn parse_player(level: &Bound<'_, PyAny>) -> PyResult<Player> {
    let text = match level.extract::<i64>() {
        Ok(n) if !level.is_instance_of::<pyo3::types::PyBool>() => n.to_string(),
        _ => level.extract::<String>().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(
                "level is a number 1-60 or 'random', 'greedy', 'positional'",
            )
        })?,
    };
    text.parse::<Player>().map_err(value_error)
}

fn check_threads(threads: Option<usize>) -> PyResult<Option<usize>> {
    match threads {
        Some(n) if !(1..=MAX_THREADS).contains(&n) => {
            Err(value_error(format!("threads={n}: use 1 to {MAX_THREADS}")))
        }
        other => Ok(other),
    }
}

fn check_hash(hash_mb: usize) -> PyResult<usize> {
    if (1..=MAX_HASH_MB).contains(&hash_mb) {
        Ok(hash_mb)
    } else {
        Err(value_error(format!(
            "hash_mb={hash_mb}: use 1 to {MAX_HASH_MB} MiB"
        )))
    }
}

/// The Othello engine. See the module documentation.
///
/// `Engine(level=12, threads=None, hash_mb=64)`: `level` is 1-60 (the
/// midgame depth; solves from level + 4 empties; 60 is perfect play) or a
/// simple player (`"random"`, `"greedy"`, `"positional"`); `threads`
/// defaults to every core (one for node-limited searches, which are then
/// reproducible); `hash_mb` is the transposition table in MiB.
#[pyclass(module = "oxello", name = "Engine")]
pub struct Engine {
    inner: Mutex<facade::Engine>,
    /// The running search's stop signal, reachable while `inner` is held.
    stop: Mutex<StopSignal>,
}

/// Sends a search's events to a channel.
fn channel() -> (facade::EventSink, Inbox<facade::SearchEvent>) {
    let (sender, receiver) = mpsc::channel();
    let sink: facade::EventSink = Box::new(move |event| {
        let _ = sender.send(event);
    });
    (sink, wait::inbox(receiver))
}

impl Engine {
    /// The engine, or a `RuntimeError` when another thread is searching
    /// with it.
    fn engine(&self) -> PyResult<MutexGuard<'_, facade::Engine>> {
        wait::claim(&self.inner, || {
            "this engine is searching for another thread: use one engine per thread".to_string()
        })
    }

    fn stop_signal(&self) -> StopSignal {
        self.stop
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    /// Replaces an engine whose search thread died by a fresh one with the
    /// same options.
    fn reset(&self, engine: &mut facade::Engine) {
        *engine = facade::Engine::new(engine.options().clone());
        *self.stop.lock().unwrap_or_else(|p| p.into_inner()) = engine.stop_signal();
    }

    /// Runs one search of `game` to its end: started by `start`, its
    /// iterations handed to `callback`.
    fn run(
        &self,
        py: Python<'_>,
        game: Game,
        callback: Option<&Bound<'_, PyAny>>,
        start: impl FnOnce(&mut facade::Engine, facade::EventSink),
    ) -> PyResult<SearchResult> {
        let position = game.position();
        let mut engine = self.engine()?;
        engine.set_game(game);
        let (sink, inbox) = channel();
        start(&mut engine, sink);
        let stop = engine.stop_signal();
        let mut progress = |py: Python<'_>, report: Report| -> PyResult<()> {
            if let Some(callback) = callback {
                let info = SearchResult::from_report(&position, &report);
                callback.call1((Bound::new(py, info)?,))?;
            }
            Ok(())
        };
        let finished = wait::finish(py, &inbox, &stop, &mut progress);
        let result = self.collect(&mut engine, finished)?;
        Ok(SearchResult::from_result(&position, &result))
    }

    /// Collects the search `finished` waited for from `engine`, which is
    /// free again afterwards (a fresh one if its thread died).
    fn collect(
        &self,
        engine: &mut facade::Engine,
        finished: PyResult<RawResult>,
    ) -> PyResult<RawResult> {
        let collected = engine.wait();
        if finished.is_err() && collected.is_none() {
            self.reset(engine);
        }
        finished
    }
}

/// Starts the search `search` and `iterations` ask for: the engine's own
/// choice (its level, or a simple player's move) when neither a depth nor
/// a selectivity is given. A depth `d` searches `d` plies and solves from
/// the empties at which level `d` solves (`d + 4` exactly, `d + 6`
/// win/loss/draw), so that `depth=3` is a quick search at any level; a
/// selectivity replaces the level's.
fn start_search(
    engine: &mut facade::Engine,
    asked: &Asked,
    request: &GoRequest,
    empties: u32,
    sink: facade::EventSink,
) {
    if asked.depth.is_none() && asked.selectivity.is_none() {
        return engine.go(request.clone(), sink);
    }
    let mut limits = engine.limits(request);
    if let Some(depth) = asked.depth {
        let level = Level::new(depth);
        (limits.solve_empties, limits.solve_mode) = if empties <= level.exact_empties {
            (Some(level.exact_empties), SolveMode::Exact)
        } else if empties <= level.wld_empties {
            (Some(level.wld_empties), SolveMode::Wld)
        } else {
            (None, SolveMode::Exact)
        };
    }
    if let Some(selectivity) = asked.selectivity {
        limits.selectivity = selectivity;
        limits.solve_selectivity = Limits::ladder(selectivity, empties);
    }
    engine.go_limits(limits, sink);
}

/// The limits of `oxello solve` for `position`: a solve from the ladder's
/// first step (or `selectivity`), one line.
pub fn solve_limits(
    position: &Position,
    mode: SolveMode,
    selectivity: Option<Selectivity>,
    threads: usize,
) -> Limits {
    let start =
        selectivity.unwrap_or_else(|| Limits::ladder(Selectivity::MOST, position.empty_count()));
    Limits {
        solve_empties: Some(64),
        solve_mode: mode,
        selectivity: start,
        solve_selectivity: start,
        threads,
        ..Limits::default()
    }
}

#[pymethods]
impl Engine {
    #[new]
    #[pyo3(signature = (level = None, threads = None, hash_mb = 64, seed = None))]
    fn new(
        level: Option<&Bound<'_, PyAny>>,
        threads: Option<usize>,
        hash_mb: usize,
        seed: Option<u64>,
    ) -> PyResult<Engine> {
        let defaults = EngineOptions::default();
        let options = EngineOptions {
            hash_mib: check_hash(hash_mb)?,
            player: level.map(parse_player).transpose()?.unwrap_or_default(),
            threads: check_threads(threads)?,
            seed: seed.unwrap_or(defaults.seed),
            ..defaults
        };
        let engine = guard(|| Ok(facade::Engine::new(options)))?;
        let stop = engine.stop_signal();
        Ok(Engine {
            inner: Mutex::new(engine),
            stop: Mutex::new(stop),
        })
    }

    /// The level (1-60) or simple player.
    #[getter]
    fn level(&self) -> PyResult<String> {
        Ok(self.engine()?.options().player.to_string())
    }

    #[setter]
    fn set_level(&self, level: &Bound<'_, PyAny>) -> PyResult<()> {
        let player = parse_player(level)?;
        self.engine()?.set_player(player);
        Ok(())
    }

    /// Search threads (`None`: every core, one for node-limited searches).
    #[getter]
    fn threads(&self) -> PyResult<Option<usize>> {
        Ok(self.engine()?.options().threads)
    }

    #[setter]
    fn set_threads(&self, threads: Option<usize>) -> PyResult<()> {
        let threads = check_threads(threads)?;
        self.engine()?.set_threads(threads);
        Ok(())
    }

    /// Transposition table size, MiB (setting it empties the table).
    #[getter]
    fn hash_mb(&self) -> PyResult<usize> {
        Ok(self.engine()?.options().hash_mib)
    }

    #[setter]
    fn set_hash_mb(&self, hash_mb: usize) -> PyResult<()> {
        let hash_mb = check_hash(hash_mb)?;
        self.engine()?.set_hash(hash_mb);
        Ok(())
    }

    /// Searches `board` as `oxello move` does (the level's depth and
    /// solving thresholds) within the limits given: `depth` plies (1-60;
    /// solving from the empties where level `depth` solves),
    /// `time` seconds, `nodes` (reproducible with one thread), `multi_pv`
    /// best lines (1-64), `selectivity` (73, 87, 95, 98, 99 or 100 %).
    /// `callback(info)` is called with each finished iteration. Returns a
    /// `SearchResult`. The GIL is released meanwhile; `stop()` from another
    /// thread or Ctrl-C ends the search (Ctrl-C then raises
    /// `KeyboardInterrupt`).
    #[pyo3(signature = (board, *, depth = None, time = None, nodes = None, multi_pv = 1, selectivity = None, callback = None))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        board: PyRef<'_, Board>,
        depth: Option<u32>,
        time: Option<f64>,
        nodes: Option<u64>,
        multi_pv: usize,
        selectivity: Option<u32>,
        callback: Option<Bound<'_, PyAny>>,
    ) -> PyResult<SearchResult> {
        let asked = check_limits(depth, time, nodes, multi_pv, selectivity)?;
        let game = board.game.clone();
        drop(board);
        let request = asked.request();
        let empties = game.position().empty_count();
        self.run(py, game, callback.as_ref(), |engine, sink| {
            start_search(engine, &asked, &request, empties, sink)
        })
    }

    /// Solves `board` to the end as `oxello solve` does: the exact final
    /// disc difference, or only win/draw/loss with `wld=True`. Releases the
    /// GIL and stops like `search`.
    #[pyo3(signature = (board, *, wld = false, selectivity = None, callback = None))]
    fn solve(
        &self,
        py: Python<'_>,
        board: PyRef<'_, Board>,
        wld: bool,
        selectivity: Option<u32>,
        callback: Option<Bound<'_, PyAny>>,
    ) -> PyResult<SearchResult> {
        let selectivity = selectivity.map(parse_selectivity).transpose()?;
        let game = board.game.clone();
        drop(board);
        let mode = if wld {
            SolveMode::Wld
        } else {
            SolveMode::Exact
        };
        let position = game.position();
        self.run(py, game, callback.as_ref(), |engine, sink| {
            let threads = engine.options().search_threads(false);
            engine.go_limits(solve_limits(&position, mode, selectivity, threads), sink);
        })
    }

    /// Like `search`, but returns an iterator over the search's finished
    /// iterations (`SearchResult` lines) as they come; its `result`
    /// attribute holds the final result once the iterator is exhausted.
    /// Dropping the iterator early stops the search.
    #[pyo3(signature = (board, *, depth = None, time = None, nodes = None, multi_pv = 1, selectivity = None))]
    #[allow(clippy::too_many_arguments)]
    fn iterations(
        &self,
        board: PyRef<'_, Board>,
        depth: Option<u32>,
        time: Option<f64>,
        nodes: Option<u64>,
        multi_pv: usize,
        selectivity: Option<u32>,
    ) -> PyResult<Iterations> {
        let asked = check_limits(depth, time, nodes, multi_pv, selectivity)?;
        let game = board.game.clone();
        let position = game.position();
        let mut engine = self.engine()?;
        engine.set_game(game);
        let request = asked.request();
        let (sink, inbox) = channel();
        start_search(&mut engine, &asked, &request, position.empty_count(), sink);
        Ok(Iterations {
            inbox: Mutex::new(Some(inbox)),
            stop: engine.stop_signal(),
            position,
            result: Mutex::new(None),
        })
    }

    /// Ends the running search at once (from any thread); it still returns
    /// its best move so far.
    fn stop(&self) {
        self.stop_signal().stop();
    }

    /// Empties the transposition table (for reproducible searches).
    fn clear(&self) -> PyResult<()> {
        self.engine()?.clear_table();
        Ok(())
    }

    /// The static evaluation of `board`: the predicted final disc
    /// difference for the side to move, without search (the learned
    /// pattern evaluation on 8x8 and 6x6, the hand-set one on 4x4; the
    /// final score once the game is over).
    fn evaluate(&self, board: PyRef<'_, Board>) -> i32 {
        evaluate(&board.position())
    }

    /// Analyses every move of the game `board` holds (from its start)
    /// against the best move, as `oxello analyze GAME` does: midgame
    /// searches to `depth`, exact solves from `exact_from` empties, each
    /// move's loss and judgement. `progress(done, total)` is called after
    /// each move. With `book` (the default, as on the command line), the
    /// moves that stay in the built-in opening book carry its score.
    /// Returns a `GameAnalysis`.
    #[pyo3(signature = (board, *, depth = 8, exact_from = 18, time = None, selectivity = None, progress = None, book = true))]
    #[allow(clippy::too_many_arguments)]
    fn analyse(
        &self,
        py: Python<'_>,
        board: PyRef<'_, Board>,
        depth: Option<u32>,
        exact_from: u32,
        time: Option<f64>,
        selectivity: Option<u32>,
        progress: Option<Bound<'_, PyAny>>,
        book: bool,
    ) -> PyResult<crate::analysis::GameAnalysis> {
        let asked = check_limits(depth, time, None, 1, selectivity)?;
        if asked.depth.is_none() && asked.time.is_none() {
            return Err(value_error(
                "give a depth or a time for the midgame searches",
            ));
        }
        // Every position from `exact_from` empties is solved: past the
        // command line's limit, an analysis would take hours a position.
        if exact_from > oxello::analysis::MAX_EXACT_FROM {
            return Err(value_error(format!(
                "exact_from={exact_from}: use 0 to {}",
                oxello::analysis::MAX_EXACT_FROM
            )));
        }
        let game = board.game.clone();
        drop(board);
        let mut engine = self.engine()?;
        let options = oxello::analysis::AnalysisOptions {
            depth: asked.depth,
            time: asked.time,
            exact_from,
            hash_mib: engine.options().hash_mib,
            threads: engine.options().search_threads(false),
            selectivity: asked.selectivity.unwrap_or(Selectivity::NONE),
        };
        let mut analyser = oxello::analysis::Analyser::new(&game, options);
        let stop = engine.stop_signal();
        let mut reported = 0;
        loop {
            let next = analyser.next_search();
            while reported < analyser.done() {
                reported += 1;
                if let Some(progress) = &progress {
                    progress.call1((reported, analyser.total()))?;
                }
            }
            let Some(search) = next else { break };
            engine.set_game(Game::from_position(search.position));
            let (sink, inbox) = channel();
            engine.go_limits(search.limits, sink);
            let finished = wait::finish(py, &inbox, &stop, &mut |_, _| Ok(()));
            analyser.record(&self.collect(&mut engine, finished)?);
        }
        let mut analysis = analyser.analysis();
        if book
            && analysis.start.size == BoardSize::Eight
            && let Some(book) = oxello::book::built_in()
        {
            oxello::analysis::mark_book(&mut analysis, &book);
        }
        Ok(crate::analysis::GameAnalysis::new(analysis))
    }

    fn __repr__(&self) -> PyResult<String> {
        let engine = self.engine()?;
        let options = engine.options();
        Ok(format!(
            "oxello.Engine(level={}, threads={}, hash_mb={})",
            options.player,
            options
                .threads
                .map_or("None".to_string(), |n| n.to_string()),
            options.hash_mib
        ))
    }
}

/// The static evaluation of `position` (see `Engine.evaluate`).
pub fn evaluate(position: &Position) -> i32 {
    let board = position.board;
    if position.is_game_over() {
        return board.final_score_on(position.size);
    }
    match position.size {
        BoardSize::Eight => oxello::eval::patterns::evaluate(board),
        BoardSize::Six => oxello::eval::six::built_in().evaluate(board),
        BoardSize::Four => oxello::eval::evaluate(board, position.size),
    }
}

/// The iterations of a search as they finish (`Engine.iterations`).
#[pyclass(module = "oxello", name = "Iterations")]
pub struct Iterations {
    inbox: Mutex<Option<Inbox<facade::SearchEvent>>>,
    stop: StopSignal,
    position: Position,
    result: Mutex<Option<SearchResult>>,
}

#[pymethods]
impl Iterations {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<SearchResult>> {
        let mut inbox = wait::claim(&self.inbox, || {
            "these iterations are being read by another thread".to_string()
        })?;
        let Some(receiver) = inbox.as_ref() else {
            return Ok(None);
        };
        match wait::receive(py, receiver, &self.stop) {
            Ok(Received::Message(Event::Progress(report))) => {
                Ok(Some(SearchResult::from_report(&self.position, &report)))
            }
            Ok(Received::Message(Event::Finished(result))) => {
                *self.result.lock().unwrap_or_else(|p| p.into_inner()) =
                    Some(SearchResult::from_result(&self.position, &result));
                *inbox = None;
                Ok(None)
            }
            Ok(Received::Closed) => {
                *inbox = None;
                Err(oxello_error("the search ended without a result"))
            }
            Err(error) => {
                if let Some(receiver) = inbox.take() {
                    wait::drain(py, &receiver);
                }
                Err(error)
            }
        }
    }

    /// The final result, once the iterations are exhausted (else `None`).
    #[getter]
    fn result(&self) -> Option<SearchResult> {
        self.result
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Stops the search (the iterator then ends with its result).
    fn stop(&self) {
        self.stop.stop();
    }
}

impl Drop for Iterations {
    fn drop(&mut self) {
        if self
            .inbox
            .get_mut()
            .map(|inbox| inbox.is_some())
            .unwrap_or(false)
        {
            self.stop.stop();
        }
    }
}
