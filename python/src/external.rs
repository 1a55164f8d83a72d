//! `oxello.engine`: engines in other processes (NBoard, GTP, Gomocup) and
//! oxello in process, as the match runner drives them ([`oxello::arena`]):
//! the same clients (one command at a time, `ping`/`pong`, every pass
//! relayed, restart after a fault) and the same referees (time allowances
//! with grace, forfeits for illegal moves, crashes, time-outs and bad
//! output). Python scripts can ask one engine for a move (`play`) or
//! referee whole games between two (`play_game`, `play_gomoku_game`).

use crate::board::{Board, move_name};
use crate::engine::seconds;
use crate::errors::{EngineError, guard, value_error};
use crate::gomoku::GomokuBoard;
use oxello::arena::contestant::{
    Contestant, Fault, FaultKind, GameSetup, MoveRequest, MoveTime, Othello, Reply,
};
use oxello::arena::game::PlayedGame;
use oxello::arena::gomocup::GomocupClient;
use oxello::arena::gomoku::{GomokuSettings, LocalGomoku};
use oxello::arena::gomoku_exchange::{Gomoku, GomokuRequest};
use oxello::arena::gtp::{GtpClient, PassStyle};
use oxello::arena::local::LocalEngine;
use oxello::arena::nboard::NboardClient;
use oxello::arena::referee::{self, RefereeSettings, TimeControl};
use oxello::arena::spec::{CommandLine, InfoSetting, Protocol};
use oxello::engine::Player;
use oxello::formats::ggf::{GgfClock, GgfGame};
use oxello::formats::transcript::Token;
use oxello::gomoku::players::GomokuPlayer as SimpleGomoku;
use oxello::gomoku::text::format_pos;
use oxello::gomoku::{Point, Status};
use oxello::moves::Move;
use oxello::{Color, Game};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The exception of a fault, with its `kind` (the match file's slug) and
/// `detail` as attributes.
fn engine_error(py: Python<'_>, name: &str, fault: &Fault) -> PyErr {
    let error = EngineError::new_err(format!("{name}: {fault}"));
    let value = error.value(py);
    let _ = value.setattr("kind", fault.kind.slug());
    let _ = value.setattr("detail", fault.detail.as_str());
    error
}

/// A command line from Python's list of words.
fn command_line(command: Vec<String>, protocol: Protocol) -> PyResult<CommandLine> {
    let (program, args) = command
        .split_first()
        .ok_or_else(|| value_error("the command is empty: give the program and its arguments"))?;
    Ok(CommandLine {
        program: PathBuf::from(program),
        args: args.to_vec(),
        protocol,
    })
}

/// The display name of a command: its program's file name and arguments.
fn default_name(command: &[String]) -> String {
    let mut words = command.iter();
    let program = words
        .next()
        .map(|p| {
            std::path::Path::new(p)
                .file_name()
                .map_or(p.clone(), |n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_default();
    std::iter::once(program)
        .chain(words.cloned())
        .collect::<Vec<_>>()
        .join(" ")
}

fn startup(timeout: f64) -> PyResult<Duration> {
    seconds(timeout)
}

/// A contestant behind a lock, restarted on its next use after a fault.
struct Held<C: ?Sized> {
    contestant: Option<Box<C>>,
    faulted: bool,
}

/// Locks a contestant, or a `RuntimeError` when another thread uses it.
fn hold<'a, C: ?Sized>(cell: &'a Mutex<Held<C>>, name: &str) -> PyResult<MutexGuard<'a, Held<C>>> {
    crate::wait::claim(cell, || {
        format!("{name} is busy (in a game or a move for another thread)")
    })
}

/// Brings a contestant back after a fault, then makes sure it runs.
fn ready<C: oxello::arena::contestant::Lifecycle + ?Sized>(
    held: &mut Held<C>,
    name: &str,
) -> PyResult<()> {
    let contestant = held
        .contestant
        .as_mut()
        .ok_or_else(|| PyRuntimeError::new_err(format!("{name} has quit")))?;
    let started = if held.faulted {
        contestant.restart()
    } else {
        contestant.ensure_started()
    };
    held.faulted = started.is_err();
    started.map_err(|fault| Python::attach(|py| engine_error(py, name, &fault)))
}

/// Runs `f` on the contestant of `cell`, the GIL released; a fault (or a
/// panic of the client) marks it for a restart and is raised.
fn with_contestant<C, T>(
    py: Python<'_>,
    cell: &Mutex<Held<C>>,
    name: &str,
    f: impl FnOnce(&mut C) -> Result<T, Fault> + Send,
) -> PyResult<T>
where
    C: oxello::arena::contestant::Lifecycle + ?Sized,
    T: Send,
{
    let mut held = hold(cell, name)?;
    ready(&mut held, name)?;
    let held = &mut *held;
    let Some(contestant) = held.contestant.as_mut() else {
        return Err(PyRuntimeError::new_err(format!("{name} has quit")));
    };
    let outcome = py.detach(|| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(contestant.as_mut())))
            .unwrap_or_else(|_| Err(Fault::crash("the client panicked (an internal error)")))
    });
    outcome.map_err(|fault| {
        held.faulted = true;
        engine_error(py, name, &fault)
    })
}

/// Plays a refereed game between the contestants of `black` and `white`
/// (cells and names), the GIL released; the loser of a forfeit is marked
/// for a restart.
fn with_both<C, R>(
    py: Python<'_>,
    black: (&Mutex<Held<C>>, &str),
    white: (&Mutex<Held<C>>, &str),
    play: impl FnOnce(&mut C, &mut C) -> PlayedGame<R> + Send,
) -> PyResult<PlayedGame<R>>
where
    C: oxello::arena::contestant::Lifecycle + ?Sized,
    R: Send,
{
    if std::ptr::eq(black.0, white.0) {
        return Err(value_error(
            "black and white are the same engine: start two (one process each)",
        ));
    }
    let mut black_held = hold(black.0, black.1)?;
    let mut white_held = hold(white.0, white.1)?;
    ready(&mut black_held, black.1)?;
    ready(&mut white_held, white.1)?;
    let (Some(b), Some(w)) = (
        black_held.contestant.as_mut(),
        white_held.contestant.as_mut(),
    ) else {
        return Err(PyRuntimeError::new_err("an engine has quit"));
    };
    let played = py.detach(|| guard(|| Ok(play(b.as_mut(), w.as_mut()))))?;
    if let Some(forfeit) = &played.forfeit {
        match forfeit.loser {
            Color::Black => black_held.faulted = true,
            Color::White => white_held.faulted = true,
        }
    }
    Ok(played)
}

/// An engine's move: `move` (`"f5"`, `"pass"`, or a gomoku point), `eval`
/// (the engine's own score, when it gave one) and `time` (seconds it
/// took).
#[pyclass(module = "oxello.engine", name = "PlayResult", frozen, get_all)]
pub struct PlayResult {
    #[pyo3(name = "move")]
    mv: String,
    eval: Option<f64>,
    time: f64,
}

#[pymethods]
impl PlayResult {
    fn __repr__(&self) -> String {
        let eval = self.eval.map_or("None".to_string(), |e| format!("{e:+}"));
        format!(
            "<PlayResult move={} eval={eval} time={:.3}>",
            self.mv, self.time
        )
    }
}

/// An Othello engine driven over NBoard or GTP (`popen_nboard`,
/// `popen_gtp`), or oxello in this process (`local`).
#[pyclass(module = "oxello.engine", name = "OthelloPlayer")]
pub struct OthelloPlayer {
    held: Mutex<Held<dyn Contestant<Othello>>>,
    #[pyo3(get)]
    name: String,
}

impl OthelloPlayer {
    fn new(name: String, contestant: Box<dyn Contestant<Othello>>) -> OthelloPlayer {
        OthelloPlayer {
            held: Mutex::new(Held {
                contestant: Some(contestant),
                faulted: false,
            }),
            name,
        }
    }
}

/// The move an Othello engine chose for `game`, checked as the referee
/// checks it (legal, in time).
fn choose_othello(
    contestant: &mut dyn Contestant<Othello>,
    game: &Game,
    depth: Option<u32>,
    time: Option<Duration>,
    allowance: Duration,
) -> Result<(Move, Reply, Duration), Fault> {
    let setup = GameSetup {
        depth,
        time: time.map_or(MoveTime::Unlimited, MoveTime::PerMove),
    };
    contestant.new_game(&setup)?;
    let mut record = GgfGame::from_game(game);
    if let Some(time) = time {
        record.clock = GgfClock::new(time.as_secs_f64());
        for mv in &mut record.moves {
            mv.time = None;
        }
    }
    let started = Instant::now();
    let request = MoveRequest {
        game,
        record: &record,
        depth,
        time: setup.time,
        deadline: started + allowance,
    };
    let reply = contestant.choose(&request)?;
    let elapsed = started.elapsed();
    if elapsed > allowance {
        return Err(Fault::late(elapsed, allowance));
    }
    let position = game.position();
    let mv = match reply.token {
        Token::Square(square) => position
            .placement(square)
            .map_err(|_| Fault::new(FaultKind::IllegalMove, format!("{square} is not legal")))?,
        Token::Pass => {
            return Err(Fault::new(
                FaultKind::IllegalMove,
                "passed with a legal move",
            ));
        }
    };
    Ok((mv, reply, elapsed))
}

#[pymethods]
impl OthelloPlayer {
    /// Starts `command` (a list: the program and its arguments) speaking
    /// `protocol` ("nboard" or "gtp"); the process starts at the first use.
    #[staticmethod]
    #[pyo3(signature = (protocol, command, *, name = None, startup_timeout = 10.0))]
    fn popen(
        protocol: &str,
        command: Vec<String>,
        name: Option<String>,
        startup_timeout: f64,
    ) -> PyResult<OthelloPlayer> {
        let timeout = startup(startup_timeout)?;
        let name = name.unwrap_or_else(|| default_name(&command));
        let contestant: Box<dyn Contestant<Othello>> = match protocol {
            "nboard" => Box::new(NboardClient::new(
                &name,
                command_line(command, Protocol::Nboard)?,
                timeout,
            )),
            "gtp" => Box::new(GtpClient::new(
                &name,
                command_line(command, Protocol::Gtp)?,
                PassStyle::Explicit,
                timeout,
            )),
            other => {
                return Err(value_error(format!(
                    "protocol '{other}': Othello engines speak 'nboard' or 'gtp'"
                )));
            }
        };
        Ok(OthelloPlayer::new(name, contestant))
    }

    /// oxello in this process, as `oxello match -e level:N` plays it.
    #[staticmethod]
    #[pyo3(signature = (level = 10, *, depth = None, hash_mb = 16, threads = 1, name = None))]
    fn local(
        level: u32,
        depth: Option<u32>,
        hash_mb: usize,
        threads: usize,
        name: Option<String>,
    ) -> PyResult<OthelloPlayer> {
        let player = level.to_string().parse::<Player>().map_err(value_error)?;
        if let Some(depth) = depth
            && !(1..=60).contains(&depth)
        {
            return Err(value_error(format!("depth={depth}: use 1 to 60")));
        }
        if hash_mb == 0 || threads == 0 {
            return Err(value_error("hash_mb and threads are at least 1"));
        }
        let name = name.unwrap_or_else(|| format!("oxello level {level}"));
        let contestant = LocalEngine::new(&name, player, depth, hash_mb, threads);
        Ok(OthelloPlayer::new(name, Box::new(contestant)))
    }

    /// Asks the engine for its move in `board`'s game (told the game first,
    /// as the match runner tells it), within `time` seconds per move plus
    /// `grace`, or `move_timeout` seconds when no time is given; `depth`
    /// is sent where the protocol can. A forced pass is answered `"pass"`
    /// without asking. A fault raises `EngineError` (the engine is
    /// restarted at its next use). Returns a `PlayResult`.
    #[pyo3(signature = (board, *, time = None, depth = None, grace = 1.0, move_timeout = 60.0))]
    fn play(
        &self,
        py: Python<'_>,
        board: PyRef<'_, Board>,
        time: Option<f64>,
        depth: Option<u32>,
        grace: f64,
        move_timeout: f64,
    ) -> PyResult<PlayResult> {
        let time = time.map(seconds).transpose()?;
        let grace = non_negative("grace", grace)?;
        let move_timeout = seconds(move_timeout)?;
        let game = board.game.clone();
        drop(board);
        let position = game.position();
        if position.is_game_over() {
            return Err(value_error("the game is over: there is no move to play"));
        }
        if position.must_pass() {
            return Ok(PlayResult {
                mv: "pass".to_string(),
                eval: None,
                time: 0.0,
            });
        }
        let allowance = time.map_or(move_timeout, |t| t + grace);
        let (mv, reply, elapsed) = with_contestant(py, &self.held, &self.name, |contestant| {
            choose_othello(contestant, &game, depth, time, allowance)
        })?;
        Ok(PlayResult {
            mv: move_name(mv),
            eval: reply.eval,
            time: elapsed.as_secs_f64(),
        })
    }

    /// Ends the engine's process (also done when the object is dropped).
    fn quit(&self) -> PyResult<()> {
        hold(&self.held, &self.name)?.contestant = None;
        Ok(())
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    #[pyo3(signature = (*_exception))]
    fn __exit__(&self, _exception: &Bound<'_, pyo3::types::PyTuple>) -> PyResult<bool> {
        self.quit().map(|()| false)
    }

    fn __repr__(&self) -> String {
        format!("<oxello.engine.OthelloPlayer {}>", self.name)
    }
}

fn non_negative(name: &str, value: f64) -> PyResult<Duration> {
    if value.is_finite() && (0.0..=86_400.0).contains(&value) {
        Ok(Duration::from_secs_f64(value))
    } else {
        Err(value_error(format!(
            "{name}={value}: use 0 or more seconds"
        )))
    }
}

/// A game refereed between two engines: `record` (the GGF or SGF text the
/// match file holds), `result` (Black's disc difference for Othello; for
/// gomoku +1 Black won, -1 White won, 0 draw), `winner` (`"black"`,
/// `"white"`, `"draw"`), `forfeit` (`None`, or `(loser, kind, detail)`
/// when a fault ended the game), `moves` and, for Othello, `board`, the
/// final `Board`.
#[pyclass(module = "oxello.engine", name = "MatchGame", frozen, get_all)]
pub struct MatchGame {
    record: String,
    result: i32,
    winner: &'static str,
    forfeit: Option<(&'static str, &'static str, String)>,
    moves: Vec<String>,
    board: Option<Py<Board>>,
}

#[pymethods]
impl MatchGame {
    fn __repr__(&self) -> String {
        match &self.forfeit {
            None => format!("<MatchGame {} ({:+})>", self.winner, self.result),
            Some((loser, kind, _)) => {
                format!("<MatchGame {} ({loser} forfeits: {kind})>", self.winner)
            }
        }
    }
}

fn winner_of(score: i32) -> &'static str {
    match score {
        s if s > 0 => "black",
        s if s < 0 => "white",
        _ => "draw",
    }
}

/// Plays one Othello game between `black` and `white` (two different
/// `OthelloPlayer`s) from `opening` (a `Board`, its game so far; default
/// the 8x8 start), refereed as `oxello match` referees it: `time` seconds
/// per move, or a game `clock` (`"60+0.5"`: main time and increment), plus
/// `grace`; `depth` sent to the engines that take it; `move_timeout`
/// seconds per move without a clock. A fault loses the game, as in a
/// match. Returns a `MatchGame`.
#[pyfunction]
#[pyo3(signature = (black, white, *, opening = None, time = None, clock = None, depth = None, grace = 1.0, move_timeout = 60.0))]
#[allow(clippy::too_many_arguments)]
pub fn play_game(
    py: Python<'_>,
    black: PyRef<'_, OthelloPlayer>,
    white: PyRef<'_, OthelloPlayer>,
    opening: Option<PyRef<'_, Board>>,
    time: Option<f64>,
    clock: Option<&str>,
    depth: Option<u32>,
    grace: f64,
    move_timeout: f64,
) -> PyResult<MatchGame> {
    let time = match (time, clock) {
        (Some(_), Some(_)) => return Err(value_error("give time or clock, not both")),
        (Some(t), None) => TimeControl::PerMove(seconds(t)?),
        (None, Some(text)) => TimeControl::parse_clock(text).ok_or_else(|| {
            value_error(format!(
                "clock '{text}': use MAIN[+INCREMENT] in seconds, e.g. '60+0.5'"
            ))
        })?,
        (None, None) => TimeControl::Unlimited,
    };
    if let Some(depth) = depth
        && !(1..=60).contains(&depth)
    {
        return Err(value_error(format!("depth={depth}: use 1 to 60")));
    }
    let settings = RefereeSettings {
        depth,
        time,
        grace: non_negative("grace", grace)?,
        move_timeout: seconds(move_timeout)?,
    };
    let opening = opening.map_or_else(|| Game::new(oxello::BoardSize::Eight), |b| b.game.clone());
    if opening.is_over() {
        return Err(value_error("the opening is a finished game"));
    }
    let played = with_both(
        py,
        (&black.held, &black.name),
        (&white.held, &white.name),
        |b, w| referee::play_game(b, w, &opening, &settings),
    )?;
    let game = played.record.to_game().map_err(value_error)?;
    let result = played.record.result.map_or(0, |r| r.score.round() as i32);
    Ok(MatchGame {
        record: played.record.to_string(),
        result,
        winner: winner_of(result),
        forfeit: played
            .forfeit
            .map(|f| (f.loser.name(), f.fault.kind.slug(), f.fault.detail)),
        moves: game.moves().iter().map(|&mv| move_name(mv)).collect(),
        board: Some(Py::new(py, Board { game })?),
    })
}

/// A gomoku engine driven over the Gomocup protocol (`popen_gomocup`), or
/// one of oxello's simple gomoku players (`local`: `"greedy"`,
/// `"random"`).
#[pyclass(module = "oxello.engine", name = "GomokuPlayer")]
pub struct GomokuPlayer {
    held: Mutex<Held<dyn Contestant<Gomoku>>>,
    #[pyo3(get)]
    name: String,
}

impl GomokuPlayer {
    fn new(name: String, contestant: Box<dyn Contestant<Gomoku>>) -> GomokuPlayer {
        GomokuPlayer {
            held: Mutex::new(Held {
                contestant: Some(contestant),
                faulted: false,
            }),
            name,
        }
    }
}

/// The settings of a gomoku game on `board`'s rules.
fn gomoku_settings(
    board: &GomokuBoard,
    turn: Option<f64>,
    match_time: Option<f64>,
    tolerance: f64,
    move_timeout: f64,
) -> PyResult<GomokuSettings> {
    let config = board.board.config();
    if config.n != 5 {
        return Err(value_error(
            "Gomocup engines play five in a row: use n_in_row=5",
        ));
    }
    Ok(GomokuSettings {
        config,
        turn: turn.map(seconds).transpose()?,
        match_time: match_time.map(seconds).transpose()?,
        tolerance: non_negative("tolerance", tolerance)?,
        move_timeout: seconds(move_timeout)?,
        ..GomokuSettings::default()
    })
}

#[pymethods]
impl GomokuPlayer {
    /// Starts `command` (a list: the program and its arguments) speaking
    /// the Gomocup protocol; `info` maps extra `INFO` keys to values (such
    /// as `{"max_node": 10000}`).
    #[staticmethod]
    #[pyo3(signature = (command, *, name = None, startup_timeout = 10.0, info = None))]
    fn popen(
        command: Vec<String>,
        name: Option<String>,
        startup_timeout: f64,
        info: Option<Vec<(String, String)>>,
    ) -> PyResult<GomokuPlayer> {
        let timeout = startup(startup_timeout)?;
        let name = name.unwrap_or_else(|| default_name(&command));
        let info = info
            .unwrap_or_default()
            .into_iter()
            .map(|(key, value)| InfoSetting::parse(&format!("{key}={value}")).map_err(value_error))
            .collect::<PyResult<Vec<_>>>()?;
        let client = GomocupClient::new(
            &name,
            command_line(command, Protocol::Gomocup)?,
            timeout,
            info,
        );
        Ok(GomokuPlayer::new(name, Box::new(client)))
    }

    /// One of oxello's simple gomoku players: `"greedy"` or `"random"`.
    #[staticmethod]
    #[pyo3(signature = (player = "greedy", *, name = None))]
    fn local(player: &str, name: Option<String>) -> PyResult<GomokuPlayer> {
        let simple = player
            .parse::<oxello::core::SimplePlayer>()
            .ok()
            .and_then(SimpleGomoku::from_simple)
            .ok_or_else(|| {
                value_error(format!("'{player}': gomoku players are greedy and random"))
            })?;
        let name = name.unwrap_or_else(|| player.to_string());
        Ok(GomokuPlayer::new(
            name.clone(),
            Box::new(LocalGomoku::new(&name, simple)),
        ))
    }

    /// Asks the engine for its move on `board` (its rules and stones),
    /// within `turn` seconds (`timeout_turn`) plus `tolerance`, or
    /// `move_timeout` seconds without a turn time. The move is checked (on
    /// the board, empty); a fault raises `EngineError`. Returns a
    /// `PlayResult` (`move` in pos notation, no eval).
    #[pyo3(signature = (board, *, turn = None, tolerance = 1.0, move_timeout = 60.0))]
    fn play(
        &self,
        py: Python<'_>,
        board: PyRef<'_, GomokuBoard>,
        turn: Option<f64>,
        tolerance: f64,
        move_timeout: f64,
    ) -> PyResult<PlayResult> {
        let settings = gomoku_settings(&board, turn, None, tolerance, move_timeout)?;
        if board.board.status() != Status::Ongoing {
            return Err(value_error("the game is over: there is no move to play"));
        }
        let position = board.board.clone();
        drop(board);
        let (point, elapsed) = with_contestant(py, &self.held, &self.name, |contestant| {
            contestant.new_game(&settings)?;
            let (time_left, allowance) = settings.allowance(Duration::ZERO);
            let reply = contestant.choose(&GomokuRequest {
                board: &position,
                time_left,
                allowance,
            })?;
            if reply.elapsed > allowance {
                return Err(Fault::late(reply.elapsed, allowance));
            }
            position
                .clone()
                .play(reply.point)
                .map_err(|e| Fault::new(FaultKind::IllegalMove, e.to_string()))?;
            Ok((reply.point, reply.elapsed))
        })?;
        Ok(PlayResult {
            mv: format_pos(point),
            eval: None,
            time: elapsed.as_secs_f64(),
        })
    }

    /// Ends the engine's process (also done when the object is dropped).
    fn quit(&self) -> PyResult<()> {
        hold(&self.held, &self.name)?.contestant = None;
        Ok(())
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    #[pyo3(signature = (*_exception))]
    fn __exit__(&self, _exception: &Bound<'_, pyo3::types::PyTuple>) -> PyResult<bool> {
        self.quit().map(|()| false)
    }

    fn __repr__(&self) -> String {
        format!("<oxello.engine.GomokuPlayer {}>", self.name)
    }
}

/// Plays one gomoku game between `black` and `white` (two different
/// `GomokuPlayer`s) from `opening` (a `gomoku.Board`: its rules and
/// stones; default an empty 15x15 freestyle board), refereed as `oxello
/// match --game gomoku` referees it: `turn` seconds per move and
/// `match_time` seconds for all of a side's moves, plus `tolerance`;
/// `move_timeout` seconds per move without either. A fault loses the
/// game. Returns a `MatchGame` (its `record` is SGF).
#[pyfunction]
#[pyo3(signature = (black, white, *, opening = None, turn = None, match_time = None, tolerance = 1.0, move_timeout = 60.0))]
#[allow(clippy::too_many_arguments)]
pub fn play_gomoku_game(
    py: Python<'_>,
    black: PyRef<'_, GomokuPlayer>,
    white: PyRef<'_, GomokuPlayer>,
    opening: Option<PyRef<'_, GomokuBoard>>,
    turn: Option<f64>,
    match_time: Option<f64>,
    tolerance: f64,
    move_timeout: f64,
) -> PyResult<MatchGame> {
    let opening = match opening {
        Some(board) => board.clone(),
        None => GomokuBoard {
            board: oxello::gomoku::Board::new(oxello::gomoku::Config::default())
                .map_err(value_error)?,
        },
    };
    if opening.board.status() != Status::Ongoing {
        return Err(value_error("the opening is a finished game"));
    }
    let settings = gomoku_settings(&opening, turn, match_time, tolerance, move_timeout)?;
    let stones: Vec<Point> = opening
        .board
        .history()
        .iter()
        .map(|&index| Point::from_index(index))
        .collect();
    let played = with_both(
        py,
        (&black.held, &black.name),
        (&white.held, &white.name),
        |b, w| oxello::arena::gomoku::play_game(b, w, &stones, &settings),
    )?;
    let record = &played.record;
    let result = match record.result {
        Status::Won(Color::Black) => 1,
        Status::Won(Color::White) => -1,
        _ => 0,
    };
    Ok(MatchGame {
        record: record.to_string(),
        result,
        winner: winner_of(result),
        forfeit: played
            .forfeit
            .as_ref()
            .map(|f| (f.loser.name(), f.fault.kind.slug(), f.fault.detail.clone())),
        moves: record.moves.iter().map(|m| format_pos(m.point)).collect(),
        board: None,
    })
}
