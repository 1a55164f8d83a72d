//! Data for learning: `oxello.selfplay(...)`, batches of AlphaZero arrays
//! played by the self-play library with the seeds and shards of `oxello
//! selfplay`, and the readers of self-play record files and WTHOR files.
//!
//! The arrays are those of `selfplay --format npz` (`oxello::selfplay::npz`):
//! `states` float32 `[N, 4, H, W]`, `policies` (`mcts_probs`) float32
//! `[N, H * W]` and `outcomes` (`winner`) float32 `[N]`.

use crate::arrays::array;
use crate::errors::{OxelloError, file_error, guard, oxello_error, value_error};
use crate::wait::{self, Inbox, Received};
use oxello::core::{StopSignal, default_threads};
use oxello::engine::Level;
use oxello::formats::wthor;
use oxello::gomoku::Rule;
use oxello::gomoku::rules::Config as GomokuConfig;
use oxello::selfplay::defaults;
use oxello::selfplay::gomoku::{GomokuOptions, GomokuRecord, GomokuSelfplay};
use oxello::selfplay::npz::{self, Sample};
use oxello::selfplay::run::{Workers, play_games};
use oxello::selfplay::{
    Format, MoveCount, OpeningBook, OpeningSource, PlayOptions, Record, Scoring, SearchBudget,
    Shard, TrainingRecord,
};
use oxello::{BoardSize, Square};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::mpsc::{self, SyncSender};
use std::thread::JoinHandle;

/// The arrays of `samples`: states, policies, outcomes.
fn sample_arrays<'py>(
    py: Python<'py>,
    samples: &[Sample],
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let (width, height) = samples.first().map_or((0, 0), |s| (s.width, s.height));
    let cells = width * height;
    let mut states = vec![0f32; samples.len() * 4 * cells];
    let mut policies = vec![0f32; samples.len() * cells];
    for (i, sample) in samples.iter().enumerate() {
        if (sample.width, sample.height) != (width, height) {
            return Err(value_error("records of several board sizes in one batch"));
        }
        npz::fill(
            sample,
            &mut states[i * 4 * cells..(i + 1) * 4 * cells],
            &mut policies[i * cells..(i + 1) * cells],
        );
    }
    let outcomes: Vec<f32> = samples.iter().map(|s| s.z).collect();
    let n = samples.len();
    Ok((
        array(py, &states, &[n, 4, height, width])?,
        array(py, &policies, &[n, cells])?,
        array(py, &outcomes, &[n])?,
    ))
}

/// A game's samples, or why the run failed.
type GameSamples = Result<Vec<Sample>, String>;

/// What the self-play thread plays.
enum Job {
    Othello {
        book_source: OpeningSource,
        size: BoardSize,
        random_moves: MoveCount,
        seed: u64,
        hash_mib: usize,
        play: PlayOptions,
    },
    Gomoku(Box<GomokuSelfplay>),
}

/// Plays `todo` on `threads` workers, sending each finished game's samples.
fn run_job(
    job: Job,
    threads: usize,
    todo: Vec<u32>,
    stop: StopSignal,
    out: SyncSender<GameSamples>,
) {
    let sender = out.clone();
    let on_game = |_: u32, samples: Vec<Sample>| {
        sender
            .send(Ok(samples))
            .map_err(|_| std::io::Error::other("the batches were dropped"))
    };
    let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match job {
        Job::Othello {
            book_source,
            size,
            random_moves,
            seed,
            hash_mib,
            play,
        } => {
            let book = OpeningBook::new(&book_source, size, random_moves, seed)
                .map_err(|e| format!("openings: {e}"))?;
            let workers = Workers {
                size,
                seed,
                threads,
                hash_mib,
                play,
                book: &book,
                opening: &book_source,
            };
            play_games(
                &workers,
                threads,
                &todo,
                &stop,
                &mut |i, records: &[Record]| on_game(i, npz::samples(records)),
            )
            .map_err(|e| e.to_string())
        }
        Job::Gomoku(game) => play_games(
            &*game,
            threads,
            &todo,
            &stop,
            &mut |i, records: &[GomokuRecord]| on_game(i, npz::samples(records)),
        )
        .map_err(|e| e.to_string()),
    }));
    let failure = match played {
        Ok(Ok(())) => return,
        Ok(Err(message)) => message,
        Err(_) => "the self-play thread panicked (an internal error)".to_string(),
    };
    // A run stopped because its batches were dropped has nobody to tell.
    if !stop.is_stopped() {
        let _ = out.send(Err(failure));
    }
}

/// The batches of a self-play run (`oxello.selfplay`): an iterator of
/// `(states, policies, outcomes)` NumPy arrays. Dropping it (or `close()`)
/// stops the run.
#[pyclass(module = "oxello", name = "SelfplayBatches")]
pub struct SelfplayBatches {
    inbox: Mutex<Option<Inbox<GameSamples>>>,
    pending: Mutex<Vec<Sample>>,
    batch_size: Option<usize>,
    stop: StopSignal,
    thread: Mutex<Option<JoinHandle<()>>>,
    /// Games of this shard.
    #[pyo3(get)]
    games: usize,
}

impl SelfplayBatches {
    /// Stops the run and waits for its thread. The inbox goes first: a run
    /// waiting to hand over a game (the channel full) then sees that nobody
    /// listens and ends.
    fn finish(&self) {
        self.stop.stop();
        *self.inbox.lock().unwrap_or_else(|p| p.into_inner()) = None;
        if let Some(thread) = self.thread.lock().unwrap_or_else(|p| p.into_inner()).take() {
            let _ = thread.join();
        }
    }
}

#[pymethods]
impl SelfplayBatches {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    #[allow(clippy::type_complexity)]
    fn __next__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<(Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyAny>)>> {
        let busy = || "these batches are being read by another thread".to_string();
        let mut inbox = wait::claim(&self.inbox, busy)?;
        let mut pending = wait::claim(&self.pending, busy)?;
        let wanted = self.batch_size.unwrap_or(1);
        let mut games = 0;
        while let Some(receiver) = inbox.as_ref() {
            let full = match self.batch_size {
                Some(size) => pending.len() >= size,
                None => games >= wanted,
            };
            if full {
                break;
            }
            match wait::receive(py, receiver, &self.stop) {
                Ok(Received::Message(Ok(samples))) => {
                    pending.extend(samples);
                    games += 1;
                }
                Ok(Received::Message(Err(message))) => {
                    *inbox = None;
                    return Err(OxelloError::new_err(format!("selfplay: {message}")));
                }
                Ok(Received::Closed) => *inbox = None,
                Err(error) => {
                    *inbox = None;
                    drop((inbox, pending));
                    py.detach(|| self.finish());
                    return Err(error);
                }
            }
        }
        if pending.is_empty() {
            return Ok(None);
        }
        let take = self.batch_size.unwrap_or(pending.len()).min(pending.len());
        let batch: Vec<Sample> = pending.drain(..take).collect();
        sample_arrays(py, &batch).map(Some)
    }

    /// Stops the run (the games being played are dropped).
    fn close(&self, py: Python<'_>) {
        py.detach(|| self.finish());
    }
}

impl Drop for SelfplayBatches {
    fn drop(&mut self) {
        self.finish();
    }
}

/// Reads `"i/n"` or `(i, n)`.
fn shard(object: Option<&Bound<'_, PyAny>>) -> PyResult<Shard> {
    let Some(object) = object else {
        return Ok(Shard::WHOLE);
    };
    let text = match object.extract::<(u32, u32)>() {
        Ok((i, n)) => format!("{i}/{n}"),
        Err(_) => object.extract::<String>()?,
    };
    text.parse::<Shard>().map_err(value_error)
}

/// Self-play as `oxello selfplay` plays it, yielding batches of AlphaZero
/// arrays `(states, policies, outcomes)` instead of writing a file.
///
/// The same `games`, `seed`, `shard` and options play the same games as the
/// subcommand, in the same order (a game depends only on its index, the
/// seed and the options), so the batches hold exactly the rows of
/// `selfplay --format npz`. `batch_size` rows per batch (the last may be
/// shorter); without it, one game per batch. `threads` games are played at
/// once (default: every core). Othello options: `size` (4, 6, 8), `level`
/// (default 8), `depth`, `nodes`, `selectivity`, `openings` (a file of
/// transcripts), `wthor` (a folder of .wtb files) and `prefix`,
/// `random_moves` (`N` or `"MIN-MAX"`), `score_moves` (`"all"` or
/// `"best"`), `temperature`, `random_plies`, `max_loss`,
/// `policy_temperature`. `game="gomoku"` plays gomoku (`size` default 15,
/// `n_in_row`, `rule`, `depth` default 8, `nodes` default 20000).
#[pyfunction]
#[pyo3(signature = (games, *, game = "othello", seed = None, shard = None, batch_size = None,
    threads = None, hash_mb = None, size = None, level = None, depth = None, nodes = None,
    selectivity = None, openings = None, wthor = None, prefix = None, random_moves = None,
    score_moves = "all", temperature = None, random_plies = None, max_loss = None,
    policy_temperature = None, n_in_row = None, rule = None))]
#[allow(clippy::too_many_arguments)]
pub fn selfplay(
    games: u32,
    game: &str,
    seed: Option<u64>,
    shard: Option<Bound<'_, PyAny>>,
    batch_size: Option<usize>,
    threads: Option<usize>,
    hash_mb: Option<usize>,
    size: Option<usize>,
    level: Option<u32>,
    depth: Option<u32>,
    nodes: Option<u64>,
    selectivity: Option<u32>,
    openings: Option<PathBuf>,
    wthor: Option<PathBuf>,
    prefix: Option<u32>,
    random_moves: Option<Bound<'_, PyAny>>,
    score_moves: &str,
    temperature: Option<f64>,
    random_plies: Option<u32>,
    max_loss: Option<i32>,
    policy_temperature: Option<f64>,
    n_in_row: Option<usize>,
    rule: Option<&str>,
) -> PyResult<SelfplayBatches> {
    if games == 0 {
        return Err(value_error("games=0: nothing to play"));
    }
    if batch_size == Some(0) {
        return Err(value_error("batch_size=0: give a positive number of rows"));
    }
    if nodes == Some(0) {
        return Err(value_error("nodes=0: give a positive node budget"));
    }
    if let Some(depth) = depth
        && !(1..=60).contains(&depth)
    {
        return Err(value_error(format!("depth={depth}: use 1 to 60")));
    }
    for (name, t) in [
        ("temperature", temperature),
        ("policy_temperature", policy_temperature),
    ] {
        if let Some(t) = t
            && !(t.is_finite() && t >= 0.0)
        {
            return Err(value_error(format!(
                "{name}={t}: use a temperature of 0 or more"
            )));
        }
    }
    if let Some(loss) = max_loss
        && loss < 0
    {
        return Err(value_error(format!("max_loss={loss}: use 0 or more")));
    }
    let threads = match threads {
        Some(0) => return Err(value_error("threads=0: use 1 or more")),
        Some(n) => n.min(oxello::core::MAX_THREADS),
        None => default_threads(),
    };
    let hash_mib = match hash_mb {
        Some(0) => return Err(value_error("hash_mb=0: use 1 or more")),
        Some(n) => n,
        None => defaults::HASH_MIB,
    };
    let seed = seed.unwrap_or(defaults::SEED);
    let shard = self::shard(shard.as_ref())?;
    let random_moves = random_moves
        .map(|object| -> PyResult<MoveCount> {
            let text = match object.extract::<u32>() {
                Ok(n) => n.to_string(),
                Err(_) => object.extract::<String>()?,
            };
            text.parse::<MoveCount>().map_err(value_error)
        })
        .transpose()?;
    let job = match game {
        "othello" => {
            if n_in_row.is_some() || rule.is_some() {
                return Err(value_error("n_in_row and rule are gomoku options"));
            }
            let size = match size {
                None => BoardSize::Eight,
                Some(n) => crate::board::board_size(n)?,
            };
            let level = match level {
                None => Level::new(defaults::LEVEL),
                Some(n) if (1..=oxello::engine::MAX_LEVEL).contains(&n) => Level::new(n),
                Some(n) => return Err(value_error(format!("level={n}: use 1 to 60"))),
            };
            let book_source = match (openings, wthor) {
                (Some(_), Some(_)) => {
                    return Err(value_error("give openings or wthor, not both"));
                }
                (Some(path), None) => OpeningSource::List(path),
                (None, Some(dir)) => OpeningSource::Wthor {
                    dir,
                    plies: prefix.unwrap_or(20),
                },
                (None, None) => OpeningSource::Start,
            };
            let random_moves = random_moves.unwrap_or(MoveCount::exactly(match book_source {
                OpeningSource::Start => defaults::RANDOM_MOVES,
                _ => 0,
            }));
            let mut budget = SearchBudget::of_level(level);
            budget.nodes = nodes;
            if let Some(depth) = depth {
                budget.depth = depth;
            }
            if let Some(percent) = selectivity {
                budget.selectivity = crate::engine::parse_selectivity(percent)?;
            }
            Job::Othello {
                book_source,
                size,
                random_moves,
                seed,
                hash_mib,
                play: PlayOptions {
                    budget,
                    scoring: score_moves.parse::<Scoring>().map_err(value_error)?,
                    temperature: temperature.unwrap_or(1.0),
                    random_plies: random_plies.unwrap_or((size.squares() - 4) / 3),
                    max_loss: max_loss.unwrap_or(4),
                    policy_temperature: policy_temperature.unwrap_or(1.0),
                },
            }
        }
        "gomoku" => {
            if level.is_some() || selectivity.is_some() {
                return Err(value_error(
                    "level and selectivity do not apply to gomoku (use depth and nodes)",
                ));
            }
            if openings.is_some() || wthor.is_some() || prefix.is_some() || score_moves != "all" {
                return Err(value_error(
                    "openings, wthor, prefix and score_moves are Othello options",
                ));
            }
            let side = size.unwrap_or(15);
            let config = GomokuConfig {
                width: side,
                height: side,
                n: n_in_row.unwrap_or(5),
                rule: rule
                    .map(str::parse::<Rule>)
                    .transpose()
                    .map_err(value_error)?
                    .unwrap_or_default(),
            };
            let random_stones = match random_moves {
                None => defaults::GOMOKU_RANDOM_STONES,
                Some(count) if count.is_fixed() => count.min,
                Some(count) => {
                    return Err(value_error(format!(
                        "random_moves={count}: gomoku takes one number of random stones"
                    )));
                }
            };
            let game = GomokuSelfplay::new(GomokuOptions {
                config,
                seed,
                hash_mib,
                depth: depth.unwrap_or(defaults::GOMOKU_DEPTH),
                nodes: Some(nodes.unwrap_or(defaults::GOMOKU_NODES)),
                random_stones,
                temperature: temperature.unwrap_or(defaults::GOMOKU_TEMPERATURE),
                random_plies: random_plies.unwrap_or(defaults::GOMOKU_RANDOM_PLIES),
                max_loss: max_loss.unwrap_or(defaults::GOMOKU_MAX_LOSS),
                policy_temperature: policy_temperature.unwrap_or(defaults::GOMOKU_TEMPERATURE),
            })
            .map_err(value_error)?;
            Job::Gomoku(Box::new(game))
        }
        other => {
            return Err(value_error(format!(
                "game='{other}': use 'othello' or 'gomoku'"
            )));
        }
    };
    let todo: Vec<u32> = shard.games(games).collect();
    let count = todo.len();
    let stop = StopSignal::new();
    // A few games ahead of the consumer, no more: the run waits for it.
    let (sender, receiver) = mpsc::sync_channel(2 * threads);
    let worker_stop = stop.clone();
    let thread = std::thread::Builder::new()
        .name("oxello-selfplay".to_string())
        .spawn(move || run_job(job, threads, todo, worker_stop, sender))
        .map_err(oxello_error)?;
    Ok(SelfplayBatches {
        inbox: Mutex::new(Some(wait::inbox(receiver))),
        pending: Mutex::new(Vec::new()),
        batch_size,
        stop,
        thread: Mutex::new(Some(thread)),
        games: count,
    })
}

/// A named column of a record file: one number per record.
type Column<'a, R> = (&'static str, &'a dyn Fn(&R) -> i32);

/// The AlphaZero arrays of `records` and their `columns`, in a dict.
fn record_dict<'py, R: TrainingRecord>(
    py: Python<'py>,
    records: &[R],
    columns: &[Column<'_, R>],
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    let (states, policies, outcomes) = sample_arrays(py, &npz::samples(records))?;
    dict.set_item("states", states)?;
    dict.set_item("policies", policies)?;
    dict.set_item("outcomes", outcomes)?;
    for (name, column) in columns {
        let values: Vec<i32> = records.iter().map(column).collect();
        dict.set_item(*name, array(py, &values, &[records.len()])?)?;
    }
    Ok(dict)
}

/// Reads a file of self-play records (`oxello selfplay`'s binary `.bin`
/// or JSON Lines) into a dict of NumPy arrays: the AlphaZero `states`,
/// `policies` and `outcomes`, and per record `game`, `ply`, `move` (cell
/// `row * n + col`), `score` and `outcome` (discs, side to move's view),
/// `depth` and `exact`. `game="gomoku"` reads gomoku JSON Lines records
/// (`score` in evaluation units, `outcome` +1/0/-1).
#[pyfunction]
#[pyo3(signature = (path, *, game = "othello"))]
pub fn read_records<'py>(
    py: Python<'py>,
    path: PathBuf,
    game: &str,
) -> PyResult<Bound<'py, PyDict>> {
    match game {
        "othello" => {
            if !path.is_file() {
                return Err(file_error(&path, "no such file"));
            }
            let records =
                py.detach(|| guard(|| oxello::selfplay::read_file(&path).map_err(value_error)))?;
            let n = |r: &Record| r.position.size.n();
            let cell = |r: &Record, s: Square| usize::from(s.row()) * n(r) + usize::from(s.col());
            let columns: [Column<Record>; 7] = [
                ("game", &|r| r.game as i32),
                ("ply", &|r| r.ply.into()),
                ("move", &|r| cell(r, r.mv) as i32),
                ("score", &|r| r.score.into()),
                ("outcome", &|r| r.outcome.into()),
                ("depth", &|r| r.depth.into()),
                ("exact", &|r| r.exact.into()),
            ];
            record_dict(py, &records, &columns)
        }
        "gomoku" => {
            let records: Vec<GomokuRecord> = py.detach(|| {
                guard(|| {
                    let bytes = std::fs::read(&path).map_err(|e| file_error(&path, e))?;
                    Format::Jsonl
                        .read_all(&bytes)
                        .map_err(|e| value_error(format!("{}: {e}", path.display())))
                })
            })?;
            let columns: [Column<GomokuRecord>; 6] = [
                ("game", &|r| r.game() as i32),
                ("ply", &|r| r.ply.into()),
                ("move", &|r| (r.mv.y * r.config.width + r.mv.x) as i32),
                ("score", &|r| r.score),
                ("outcome", &|r| r.outcome.into()),
                ("depth", &|r| r.depth as i32),
            ];
            record_dict(py, &records, &columns)
        }
        other => Err(value_error(format!(
            "game='{other}': use 'othello' or 'gomoku'"
        ))),
    }
}

/// A named field of the WTHOR game records.
type WthorField<T> = (&'static str, fn(&wthor::WthorGame) -> T);

/// Reads a WTHOR game file (`.wtb`) into a dict of NumPy arrays, one row
/// per game: `moves` int8 `[N, 60]` (square indices `row * 8 + col`, -1
/// after the last move; passes are implicit), `black_score` and
/// `theoretical_score` uint8 (Black's discs), `tournament`,
/// `black_player` and `white_player` uint16 (indices into the `.TRN` and
/// `.JOU` files, see `read_wthor_names`), and `year`, the header's.
#[pyfunction]
pub fn read_wthor<'py>(py: Python<'py>, path: PathBuf) -> PyResult<Bound<'py, PyDict>> {
    let bytes = std::fs::read(&path).map_err(|e| file_error(&path, e))?;
    let file =
        wthor::parse_wtb(&bytes).map_err(|e| value_error(format!("{}: {e}", path.display())))?;
    let n = file.games.len();
    let mut moves = vec![-1i8; n * wthor::MAX_MOVES];
    for (row, game) in file.games.iter().enumerate() {
        for (slot, square) in moves[row * wthor::MAX_MOVES..].iter_mut().zip(&game.moves) {
            *slot = square.index() as i8;
        }
    }
    let dict = PyDict::new(py);
    dict.set_item("moves", array(py, &moves, &[n, wthor::MAX_MOVES])?)?;
    let games = &file.games;
    let scores: [WthorField<u8>; 2] = [
        ("black_score", |g| g.real_score),
        ("theoretical_score", |g| g.theoretical_score),
    ];
    for (name, field) in scores {
        let values: Vec<u8> = games.iter().map(field).collect();
        dict.set_item(name, array(py, &values, &[n])?)?;
    }
    let indices: [WthorField<u16>; 3] = [
        ("tournament", |g| g.tournament),
        ("black_player", |g| g.black_player),
        ("white_player", |g| g.white_player),
    ];
    for (name, field) in indices {
        let values: Vec<u16> = games.iter().map(field).collect();
        dict.set_item(name, array(py, &values, &[n])?)?;
    }
    dict.set_item("year", file.header.games_year)?;
    Ok(dict)
}

/// The names of a WTHOR player file (`.JOU`) or tournament file (`.TRN`),
/// by index.
#[pyfunction]
pub fn read_wthor_names(path: PathBuf) -> PyResult<Vec<String>> {
    let bytes = std::fs::read(&path).map_err(|e| file_error(&path, e))?;
    let tournaments = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("trn"));
    let names = if tournaments {
        wthor::parse_trn(&bytes)
    } else {
        wthor::parse_jou(&bytes)
    };
    names
        .map(|file| file.names)
        .map_err(|e| value_error(format!("{}: {e}", path.display())))
}
