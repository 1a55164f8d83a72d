//! `oxello.gomoku`: the gomoku board ([`oxello::gomoku::Board`]) and its
//! engine ([`oxello::gomoku::engine`]) for Python.
//!
//! A move is a point in pos notation (`"h8"`: the letter is the column x,
//! the number the row y + 1), Gomocup's `"x,y"`, a tuple `(x, y)` or a cell
//! index `y * width + x`. Under renju a forbidden point is a legal move
//! that loses at once (Black's foul), as the Gomocup referees have it.

use crate::arrays::array;
use crate::engine::seconds;
use crate::errors::{guard, value_error};
use crate::wait;
use oxello::Color;
use oxello::core::StopSignal;
use oxello::gomoku::engine::{Engine as Worker, Event};
use oxello::gomoku::search::{Limits, Progress, SearchResult as RawResult, Source};
use oxello::gomoku::text::{format_pos, parse_moves, parse_pos, parse_xy};
use oxello::gomoku::{Board, Config, Point, Rule, Status};
use oxello::selfplay::npz::{self, Sample};
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

/// Default depth of a search given no limit: self-play's.
const DEFAULT_DEPTH: u32 = 8;

/// A gomoku board with its history.
///
/// `Board(width=15, height=None, n_in_row=5, rule="freestyle")`: sides 5
/// to 22 (`height` defaults to `width`), 3 to 6 in a row; rules
/// `"freestyle"` (n or more wins), `"standard"` (exactly n), `"renju"`
/// (15x15, five; Black may not play double threes, double fours or
/// overlines) and `"caro"` (a row blocked at both ends does not win).
#[pyclass(module = "oxello.gomoku", name = "Board")]
#[derive(Clone)]
pub struct GomokuBoard {
    pub board: Board,
}

/// The cell index (`y * width + x`) of a point.
fn cell(board: &Board, p: Point) -> usize {
    p.y * board.width() + p.x
}

impl GomokuBoard {
    /// Reads a point of this board from a Python object.
    fn point(&self, object: &Bound<'_, PyAny>) -> PyResult<Point> {
        let point = if object.is_instance_of::<PyString>() {
            let text: String = object.extract()?;
            let text = text.as_str();
            if text.contains(',') {
                parse_xy(text).map_err(value_error)?
            } else {
                parse_pos(text).map_err(value_error)?
            }
        } else if let Ok((x, y)) = object.extract::<(i64, i64)>() {
            let coordinate = |v: i64| {
                usize::try_from(v).map_err(|_| value_error(format!("({x}, {y}) is off the board")))
            };
            Point::new(coordinate(x)?, coordinate(y)?)
        } else if object.is_instance_of::<pyo3::types::PyBool>() {
            return Err(PyTypeError::new_err(
                "a point is 'h8', 'x,y', (x, y) or an index, not a bool",
            ));
        } else if let Ok(index) = object.extract::<i64>() {
            let width = self.board.width();
            let cells = width * self.board.height();
            let index = usize::try_from(index)
                .ok()
                .filter(|&i| i < cells)
                .ok_or_else(|| value_error(format!("cell {index} is not in 0-{}", cells - 1)))?;
            Point::new(index % width, index / width)
        } else {
            return Err(PyTypeError::new_err(format!(
                "a point is 'h8', 'x,y', (x, y) or a cell index, not {}",
                object.get_type().name()?
            )));
        };
        if !self.board.contains(point) {
            return Err(value_error(format!(
                "{} is off the board",
                format_pos(point)
            )));
        }
        Ok(point)
    }

    fn empty_points(&self) -> impl Iterator<Item = Point> + '_ {
        self.board
            .points()
            .iter()
            .filter(|&&index| self.board.is_empty(index))
            .map(|&index| Point::from_index(index))
    }
}

#[pymethods]
impl GomokuBoard {
    #[new]
    #[pyo3(signature = (width = 15, height = None, n_in_row = 5, rule = "freestyle"))]
    fn new(width: usize, height: Option<usize>, n_in_row: usize, rule: &str) -> PyResult<Self> {
        let config = Config {
            width,
            height: height.unwrap_or(width),
            n: n_in_row,
            rule: rule.parse::<Rule>().map_err(value_error)?,
        };
        Ok(GomokuBoard {
            board: Board::new(config).map_err(value_error)?,
        })
    }

    /// A board with the moves of `text` played (`"h8i9h9"`, pos notation).
    #[classmethod]
    #[pyo3(signature = (text, width = 15, height = None, n_in_row = 5, rule = "freestyle"))]
    fn from_moves(
        _cls: &Bound<'_, pyo3::types::PyType>,
        text: &str,
        width: usize,
        height: Option<usize>,
        n_in_row: usize,
        rule: &str,
    ) -> PyResult<Self> {
        let mut board = GomokuBoard::new(width, height, n_in_row, rule)?;
        for point in parse_moves(text).map_err(value_error)? {
            board.board.play(point).map_err(value_error)?;
        }
        Ok(board)
    }

    #[getter]
    fn width(&self) -> usize {
        self.board.width()
    }

    #[getter]
    fn height(&self) -> usize {
        self.board.height()
    }

    #[getter]
    fn n_in_row(&self) -> usize {
        self.board.n()
    }

    #[getter]
    fn rule(&self) -> &'static str {
        self.board.rule().name()
    }

    /// The side to move: `"black"` or `"white"`.
    #[getter]
    fn turn(&self) -> &'static str {
        self.board.to_move().name()
    }

    /// The empty points (pos notation, row by row) while the game goes on,
    /// `[]` once it is over. Under renju they include Black's forbidden
    /// points, which lose (see `forbidden_points`).
    #[getter]
    fn legal_moves(&self) -> Vec<String> {
        if self.board.status() != Status::Ongoing {
            return Vec::new();
        }
        self.empty_points().map(format_pos).collect()
    }

    /// The moves played, in pos notation.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.board
            .history()
            .iter()
            .map(|&index| format_pos(Point::from_index(index)))
            .collect()
    }

    /// Plays `move` for the side to move. A point off the board, occupied,
    /// or a move after the end raises `ValueError` and leaves the board as
    /// it was. Returns the winner after the move (see `winner`).
    fn push(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<Option<&'static str>> {
        let point = self.point(r#move)?;
        self.board.play(point).map_err(value_error)?;
        Ok(self.winner())
    }

    /// Takes back the last stone and returns it; `IndexError` on an empty
    /// board.
    fn pop(&mut self) -> PyResult<String> {
        self.board
            .undo()
            .map(|index| format_pos(Point::from_index(index)))
            .ok_or_else(|| PyIndexError::new_err("pop from an empty board"))
    }

    /// `"black"` or `"white"` once a side has won (a row, or under renju
    /// Black's foul), `"draw"` on a full board, `None` while the game goes
    /// on.
    fn winner(&self) -> Option<&'static str> {
        match self.board.status() {
            Status::Ongoing => None,
            Status::Won(color) => Some(color.name()),
            Status::Draw => Some("draw"),
        }
    }

    fn is_game_over(&self) -> bool {
        self.board.status() != Status::Ongoing
    }

    /// The points Black may not play (renju: double three, double four,
    /// overline) when Black is to move; `[]` otherwise and under other
    /// rules.
    fn forbidden_points(&self) -> Vec<String> {
        if self.board.to_move() != Color::Black || self.board.rule() != Rule::Renju {
            return Vec::new();
        }
        self.empty_points()
            .filter(|p| self.board.is_forbidden(p.index()))
            .map(format_pos)
            .collect()
    }

    /// Whether `move` is forbidden to Black (renju, Black to move).
    fn is_forbidden(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let point = self.point(r#move)?;
        Ok(self.board.to_move() == Color::Black && self.board.is_forbidden(point.index()))
    }

    /// The stone on a point: `"black"`, `"white"` or `None`.
    fn stone_at(&self, point: &Bound<'_, PyAny>) -> PyResult<Option<&'static str>> {
        let point = self.point(point)?;
        Ok(self.board.get(point).map(Color::name))
    }

    /// The AlphaZero planes, float32 `[4, height, width]`: the side to
    /// move's stones, the opponent's, the last move (one-hot), all ones when
    /// Black is to move (the layout of `selfplay --game gomoku --format
    /// npz`; cell `[y, x]`).
    fn to_planes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let board = &self.board;
        let side = board.to_move();
        let stones = |color: Color| {
            board
                .points()
                .iter()
                .filter(|&&index| board.stone_at(index) == Some(color))
                .map(|&index| cell(board, Point::from_index(index)))
                .collect::<Vec<_>>()
        };
        let sample = Sample {
            width: board.width(),
            height: board.height(),
            own: stones(side),
            opponent: stones(side.opponent()),
            last: board
                .last_move()
                .map(|index| cell(board, Point::from_index(index))),
            black_to_move: side == Color::Black,
            probs: Vec::new(),
            z: 0.0,
        };
        let (w, h) = (sample.width, sample.height);
        let mut planes = vec![0f32; 4 * w * h];
        let mut probs = vec![0f32; w * h];
        npz::fill(&sample, &mut planes, &mut probs);
        array(py, &planes, &[4, h, w])
    }

    fn copy(&self) -> Self {
        self.clone()
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// Same rules, same stones, same side to move.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<GomokuBoard>().is_ok_and(|other| {
            let other = &other.borrow().board;
            other.config() == self.board.config()
                && other.to_move() == self.board.to_move()
                && self
                    .board
                    .points()
                    .iter()
                    .all(|&i| other.stone_at(i) == self.board.stone_at(i))
        })
    }

    fn __hash__(&self) -> u64 {
        self.board.hash()
    }

    fn __str__(&self) -> String {
        self.board.diagram()
    }

    fn __repr__(&self) -> String {
        let moves: String = self.moves().concat();
        format!(
            "oxello.gomoku.Board.from_moves('{moves}', width={}, height={}, n_in_row={}, rule='{}')",
            self.board.width(),
            self.board.height(),
            self.board.n(),
            self.board.rule()
        )
    }
}

/// A gomoku search result: `move` (pos notation; `None` on a full board),
/// `score` (evaluation units for the side to move; wins and losses are
/// large), `depth`, `nodes`, `time` (seconds), `pv`, and `source`: how the
/// move was found, `"search"`, `"vcf"` or `"vct"` (a forced win), or
/// `"forced"`. Also each finished iteration of `search(callback=...)`.
#[pyclass(module = "oxello.gomoku", name = "SearchResult", frozen, get_all)]
#[derive(Clone)]
pub struct GomokuResult {
    #[pyo3(name = "move")]
    mv: Option<String>,
    score: i32,
    depth: u32,
    nodes: u64,
    time: f64,
    pv: Vec<String>,
    source: &'static str,
}

fn pv(points: &[Point]) -> Vec<String> {
    points.iter().map(|&p| format_pos(p)).collect()
}

impl GomokuResult {
    fn from_result(result: &RawResult) -> GomokuResult {
        GomokuResult {
            mv: result.best.map(format_pos),
            score: result.score,
            depth: result.depth,
            nodes: result.nodes,
            time: result.elapsed.as_secs_f64(),
            pv: pv(&result.pv),
            source: match result.source {
                Source::Forced => "forced",
                Source::Vcf => "vcf",
                Source::Vct => "vct",
                Source::Search => "search",
            },
        }
    }

    fn from_progress(progress: &Progress) -> GomokuResult {
        GomokuResult {
            mv: progress.pv.first().map(|&p| format_pos(p)),
            score: progress.score,
            depth: progress.depth,
            nodes: progress.nodes,
            time: progress.elapsed.as_secs_f64(),
            pv: pv(&progress.pv),
            source: "search",
        }
    }
}

#[pymethods]
impl GomokuResult {
    fn __repr__(&self) -> String {
        format!(
            "<gomoku.SearchResult move={} score={} depth {} ({}) pv={}>",
            self.mv.as_deref().unwrap_or("None"),
            self.score,
            self.depth,
            self.source,
            self.pv.join(" ")
        )
    }
}

/// The gomoku engine: threat search (VCF, VCT) and an alpha-beta search
/// with a learned evaluation, on its own thread with its table.
/// `Engine(hash_mb=64, threads=1)`.
#[pyclass(module = "oxello.gomoku", name = "Engine")]
pub struct GomokuEngine {
    worker: Mutex<Worker>,
    stop: StopSignal,
    threads: usize,
    hash_mb: usize,
}

#[pymethods]
impl GomokuEngine {
    #[new]
    #[pyo3(signature = (hash_mb = 64, threads = 1))]
    fn new(hash_mb: usize, threads: usize) -> PyResult<Self> {
        if !(1..=1 << 16).contains(&hash_mb) {
            return Err(value_error(format!(
                "hash_mb={hash_mb}: use 1 to 65536 MiB"
            )));
        }
        if !(1..=oxello::core::MAX_THREADS).contains(&threads) {
            return Err(value_error(format!(
                "threads={threads}: use 1 to {}",
                oxello::core::MAX_THREADS
            )));
        }
        let stop = StopSignal::new();
        let worker = guard(|| Ok(Worker::new(hash_mb, stop.clone())))?;
        Ok(GomokuEngine {
            worker: Mutex::new(worker),
            stop,
            threads,
            hash_mb,
        })
    }

    /// Searches `board` to `depth` (default 8 when no limit is given),
    /// within `time` seconds or `nodes`; `vct=False` leaves out the
    /// threat-sequence search at the root. `callback(info)` is called with
    /// each finished iteration. Releases the GIL; `stop()` from another
    /// thread or Ctrl-C ends it.
    #[pyo3(signature = (board, *, depth = None, time = None, nodes = None, vct = true, callback = None))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        board: PyRef<'_, GomokuBoard>,
        depth: Option<u32>,
        time: Option<f64>,
        nodes: Option<u64>,
        vct: bool,
        callback: Option<Bound<'_, PyAny>>,
    ) -> PyResult<GomokuResult> {
        if let Some(depth) = depth
            && !(1..=oxello::gomoku::search::MAX_DEPTH).contains(&depth)
        {
            return Err(value_error(format!(
                "depth={depth}: use 1 to {}",
                oxello::gomoku::search::MAX_DEPTH
            )));
        }
        let time: Option<Duration> = time.map(seconds).transpose()?;
        if nodes == Some(0) {
            return Err(value_error("nodes=0: give a positive node budget"));
        }
        if board.board.status() != Status::Ongoing {
            return Err(value_error("the game is over: nothing to search"));
        }
        let position = board.board.clone();
        drop(board);
        let unlimited = depth.is_none() && time.is_none() && nodes.is_none();
        let limits = Limits {
            depth: if unlimited {
                Some(DEFAULT_DEPTH)
            } else {
                depth
            },
            deadline: time.map(|t| Instant::now() + t),
            nodes,
            vct,
            threads: self.threads,
            score_root: false,
        };
        let mut worker = wait::claim(&self.worker, || {
            "this engine is searching for another thread: use one engine per thread".to_string()
        })?;
        self.stop.reset();
        let (sender, receiver) = mpsc::channel::<Event>();
        let inbox = wait::inbox(receiver);
        worker.go(
            position,
            limits,
            Box::new(move |event| {
                let _ = sender.send(event);
            }),
        );
        let mut progress = |py: Python<'_>, report: Progress| -> PyResult<()> {
            if let Some(callback) = &callback {
                callback.call1((Bound::new(py, GomokuResult::from_progress(&report))?,))?;
            }
            Ok(())
        };
        let finished = wait::finish(py, &inbox, &self.stop, &mut progress);
        let collected = worker.wait();
        match (finished, collected) {
            (Ok(result), _) => Ok(GomokuResult::from_result(&result)),
            (Err(error), Some(_)) => Err(error),
            (Err(error), None) => {
                *worker = Worker::new(self.hash_mb, self.stop.clone());
                Err(error)
            }
        }
    }

    /// Ends the running search at once (from any thread).
    fn stop(&self) {
        self.stop.stop();
    }

    /// Empties the table.
    fn clear(&self) -> PyResult<()> {
        wait::claim(&self.worker, || {
            "this engine is searching for another thread".to_string()
        })?
        .clear();
        Ok(())
    }
}
