//! `oxello solve`: exact or WLD solves of OBF suites and single positions.

use super::solve_checkpoint::{Before, Checkpoints};
use super::solve_progress::SolveProgress;
use super::{EngineArgs, usage};
use clap::Args;
use oxello::arena::results::count;
use oxello::bitboard::BoardSize;
use oxello::formats::{board_string, obf, wthor};
use oxello::json::{SearchJson, to_line};
use oxello::position::Position;
use oxello::search::{
    Depth, Limits, SearchResult, Searcher, Selectivity, SolveMode, StopReason, StopSignal,
};
use oxello::train::patterns::is_held_out;
use std::error::Error;
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

/// Options of `oxello solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// An OBF file of positions to solve (with expected scores), or one
    /// position: `start`, a board string, a transcript, or a file holding
    /// one.
    #[arg(default_value = "start")]
    pub position: String,
    /// Board size (4, 6 or 8) for `start` and transcripts [default: 8]; a
    /// board string or a file has its own, which this must match.
    #[arg(short, long)]
    pub size: Option<BoardSize>,
    /// Exact scores (the default).
    #[arg(long, conflicts_with = "wld")]
    pub exact: bool,
    /// Only win / loss / draw (not with `--write`: an OBF file holds exact
    /// scores, and a WLD result is only a bound on one).
    #[arg(long)]
    pub wld: bool,
    /// One JSON object per position, then one for the totals.
    #[arg(long)]
    pub json: bool,
    /// Number of the first position of the file (the FFO files start at 1,
    /// 20 or 40).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub first_number: usize,
    /// Only the positions numbered in this range, e.g. `40-44` or `47`.
    #[arg(long)]
    pub range: Option<String>,
    /// Solve every legal move, not just the best, each with its exact score:
    /// shown under the position's row (`moves` in JSON), checked against the
    /// file's scores of those moves, written with `--write`.
    #[arg(long)]
    pub all_moves: bool,
    /// Write the solved positions to this OBF file (with `--all-moves`, every
    /// move's score; otherwise every best move, each proved to reach the best
    /// score by a null-window search).
    #[arg(long)]
    pub write: Option<std::path::PathBuf>,
    /// Keep the positions already in the `--write` file, append to it and
    /// solve only the others: a long run that was stopped goes on where it
    /// was.
    #[arg(long, requires = "write")]
    pub resume: bool,
    /// Save the table of a running solve in this folder every
    /// `--checkpoint-every` seconds and on Ctrl-C or SIGTERM (a file a
    /// position, named by its board), and start the solve of a position from
    /// its file: a long solve stopped by a signal, a crash or a reboot goes on from its
    /// last checkpoint (with `--resume` for a file of positions). A file
    /// goes once its position is solved.
    #[arg(long)]
    pub checkpoint: Option<std::path::PathBuf>,
    /// Seconds between two checkpoints (a save writes the whole table; slow
    /// saves come less often).
    #[arg(long, default_value_t = 600.0, requires = "checkpoint")]
    pub checkpoint_every: f64,
    /// Solve positions sampled from the WTHOR games of this folder instead
    /// of a file (with `--empties`, `--count`, `--seed`): how the accuracy
    /// sets of `positions/` are made.
    #[arg(long)]
    pub sample_wthor: Option<std::path::PathBuf>,
    /// Solve positions sampled from a self-play record file instead (binary
    /// if its name ends in `.bin`, JSON Lines otherwise): engine games of
    /// varied openings. Only positions of the games that training holds out
    /// (every tenth, `train::patterns::is_held_out`) reached after at least
    /// `--engine-moves` searched moves of their game are sampled, so that a
    /// suite made of them tests weights on positions they never learned.
    #[arg(long, conflicts_with = "sample_wthor")]
    pub sample_selfplay: Option<std::path::PathBuf>,
    /// With `--sample-selfplay`: searched moves a game must have played
    /// before a sampled position (its random opening left behind).
    #[arg(
        long,
        default_value_t = 4,
        requires = "sample_selfplay",
        allow_negative_numbers = true
    )]
    pub engine_moves: u8,
    /// Empty squares of the sampled positions [default: 24].
    #[arg(long, allow_negative_numbers = true)]
    pub empties: Option<u32>,
    /// Number of sampled positions [default: 50].
    #[arg(long, allow_negative_numbers = true)]
    pub count: Option<usize>,
    /// With a sample: print its positions as OBF lines without scores and
    /// solve nothing (a suite's positions, to be solved later from the file).
    #[arg(long, conflicts_with_all = ["write", "json"])]
    pub list: bool,
}

/// One position to solve, with the score the file expects, if any, and the
/// moves' scores it lists.
struct Task {
    number: usize,
    position: Position,
    expected: Option<i32>,
    expected_moves: Vec<(oxello::moves::Move, i32)>,
}

/// With `--all-moves`, a move's solve (a bound under `--wld`, as the row's)
/// beside the score the file lists for it.
#[derive(serde::Serialize)]
struct MoveScore {
    #[serde(flatten)]
    search: SearchJson,
    expected: Option<i32>,
    ok: bool,
}

/// Seed of `solve --sample-wthor` without `--seed`: the accuracy sets of
/// `positions/` are reproducible by default.
pub const DEFAULT_SAMPLE_SEED: u64 = 1;

/// A row of `solve --json`: the position, the score the file expects and
/// whether the result agrees with it, and the search result.
#[derive(serde::Serialize)]
struct SolveJson {
    number: usize,
    board: String,
    empties: u32,
    expected: Option<i32>,
    ok: bool,
    #[serde(flatten)]
    result: SearchJson,
    /// Every move's score, with `--all-moves`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    moves: Vec<MoveScore>,
}

/// The last line of `solve --json`.
#[derive(serde::Serialize)]
struct TotalJson {
    total: bool,
    positions: usize,
    wrong: usize,
    nodes: u64,
    time: f64,
    nps: u64,
}

/// Whether `a` and `b` name one existing file (links and relative paths
/// resolved).
fn is_same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

pub fn run(args: &SolveArgs, engine: &EngineArgs) -> Result<ExitCode, Box<dyn Error>> {
    let sampling = args.sample_wthor.is_some() || args.sample_selfplay.is_some();
    if !sampling && (args.empties.is_some() || args.count.is_some()) {
        return Err(usage(
            "--empties and --count size a sample: give --sample-wthor or --sample-selfplay",
        ));
    }
    if sampling && args.position != "start" {
        return Err(usage(
            "solve: give a position or a sample (--sample-wthor, --sample-selfplay), not both",
        ));
    }
    if args.wld && args.write.is_some() {
        return Err(usage(
            "--wld does not apply to --write (an OBF file holds exact scores; a win/loss/draw \
             result only bounds one)",
        ));
    }
    if let Some(write) = &args.write
        && is_same_file(std::path::Path::new(&args.position), write)
    {
        return Err(usage(format!(
            "--write {}: that is the file being solved (it would be overwritten, or appended to \
             with --resume); write to another file",
            write.display()
        )));
    }
    if sampling && (args.first_number != 1 || args.range.is_some()) {
        return Err(usage(
            "--first-number and --range number a file's positions; a sample is numbered from 1",
        ));
    }
    if args.list && !sampling {
        return Err(usage(
            "--list prints a sample: give --sample-wthor or --sample-selfplay",
        ));
    }
    let options = engine.options()?;
    let mut tasks = load_tasks(args, engine.seed.unwrap_or(DEFAULT_SAMPLE_SEED))?;
    if args.list {
        let mut out = std::io::stdout().lock();
        for task in &tasks {
            writeln!(out, "{};", board_string::format_position(&task.position))?;
        }
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(path) = args.write.as_ref().filter(|_| args.resume) {
        let done = already_solved(path)?;
        let before = tasks.len();
        tasks.retain(|task| !done.contains(&task.position));
        log::info!(
            "{}: {} of the {before} positions already solved",
            path.display(),
            before - tasks.len()
        );
    }
    let mode = if args.wld {
        SolveMode::Wld
    } else {
        SolveMode::Exact
    };
    let checkpoints = args
        .checkpoint
        .as_deref()
        .map(|dir| Checkpoints::new(dir, args.checkpoint_every, mode))
        .transpose()?;
    let stop = StopSignal::new();
    let stopped_code = match &checkpoints {
        Some(_) => super::solve_signals::catch_stops(&stop),
        None => Box::new(|| 130),
    };
    let mut searcher = Searcher::warmed(options.hash_mib);
    let mut totals = (0u64, Duration::ZERO, 0usize);
    let mut written = match &args.write {
        Some(path) => Some((
            path,
            std::fs::OpenOptions::new()
                .create(true)
                .write(true)
                .append(args.resume)
                .truncate(!args.resume)
                .open(path)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        )),
        None => None,
    };
    let mut out = std::io::stdout().lock();
    if !args.json {
        writeln!(
            out,
            " #  | empties | move | score | expected |      nodes      |   time   |  nodes/s"
        )?;
        writeln!(
            out,
            "----+---------+------+-------+----------+-----------------+----------+-----------"
        )?;
    }
    // A bar for a suite only; one position shows nothing but its row.
    let bar = super::progress::counting_several(tasks.len(), "positions");
    for task in &tasks {
        // Ctrl-C between two positions: the next one is not started.
        if stop.is_stopped() {
            bar.finish_and_clear();
            return Ok(ExitCode::from(stopped_code()));
        }
        // Written exact solves list every best move: the solve goes on past
        // the best with null windows until a search fails low.
        let ties_only = !args.all_moves && args.write.is_some() && mode == SolveMode::Exact;
        let multi_pv = if args.all_moves || ties_only { 64 } else { 1 };
        // Through the ladder from SOLVE_LADDER_MIN_EMPTIES, as in play
        // (it saves nodes there), unless --selectivity says where to start.
        let solve_selectivity = options
            .selectivity
            .unwrap_or_else(|| Limits::ladder(Selectivity::MOST, task.position.empty_count()));
        let limits = Limits {
            ties_only,
            solve_empties: Some(64),
            solve_mode: mode,
            multi_pv,
            // The presolve iterations run at the ladder's first step, as in
            // play: a solve that climbs the ladder takes no moves from their
            // entries (SOLVE_TABLE_MOVE_MIN_DEPTH), so exhaustive iterations
            // only cost nodes. One thread, side by side against 100%: FFO
            // #45-52 1,156.5 M -> 1,110.9 M nodes, #53-59 13.13 G -> 12.79 G
            // (#59, 34 empties, 14.8 M -> 8.4 M: its depth-14 presolve took
            // 6.4 M nodes at 100%).
            selectivity: solve_selectivity,
            solve_selectivity,
            threads: options.search_threads(false),
            ..Limits::default()
        };
        let progress = SolveProgress::start(
            task.number,
            task.position,
            mode,
            limits.threads,
            args.json,
            &bar,
        );
        let before = match &checkpoints {
            Some(checkpoints) => checkpoints.start(&mut searcher, &task.position, &progress),
            None => {
                searcher.clear();
                Before::default()
            }
        };
        let searcher = &searcher;
        let mut result = std::thread::scope(|scope| {
            let (done, running) = std::sync::mpsc::channel::<()>();
            let (searching, searched) = std::sync::mpsc::channel::<()>();
            let progress = &progress;
            scope.spawn(move || progress.heartbeat(&running, &|| searcher.nodes_now()));
            if let Some(checkpoints) = &checkpoints {
                scope.spawn(move || {
                    checkpoints.keep(searcher, &task.position, before, progress, &searched);
                });
            }
            let result = searcher.search(&task.position, &limits, &stop, &mut |report| {
                progress.step(report);
                if report.rank == 0 {
                    bar.set_message(format!(
                        "#{}: depth {}, {:+}, {} nodes",
                        task.number, report.depth, report.score, report.nodes
                    ));
                }
            });
            drop((done, searching));
            result
        });
        result.nodes = result.nodes.saturating_add(before.nodes);
        result.elapsed += before.elapsed;
        if result.stopped == Some(StopReason::Signal) && stop.is_stopped() {
            // Ctrl-C or SIGTERM: the result is no solve; the table is what to
            // keep. (A solve that finished as the signal came is written as
            // any other.)
            if let Some(checkpoints) = &checkpoints
                && checkpoints.save(
                    searcher,
                    &task.position,
                    result.nodes,
                    result.elapsed,
                    &progress,
                )
            {
                progress.note(
                    &format!(
                        "stopped after {:.1} s; checkpoint saved in {}: the same command \
                         goes on from it",
                        result.elapsed.as_secs_f64(),
                        checkpoints.path(&task.position).display()
                    ),
                    serde_json::json!({
                        "stopped": true,
                        "checkpoint": checkpoints.path(&task.position).display().to_string(),
                    }),
                );
            }
            bar.finish_and_clear();
            return Ok(ExitCode::from(stopped_code()));
        }

        let entry = solved_entry(task, &result);
        let moves = match args.all_moves {
            true => move_scores(mode, task, &result),
            false => Vec::new(),
        };
        let agrees = task
            .expected
            .is_none_or(|e| score_agrees(mode, result.score, e))
            && moves.iter().all(|m| m.ok);
        if !agrees {
            totals.2 += 1;
        }
        totals.0 = totals.0.saturating_add(result.nodes);
        totals.1 += result.elapsed;
        // Appended after every position, before its row (which a closed
        // stdout ends): a long run keeps what it solved.
        if let Some((path, file)) = &mut written {
            writeln!(file, "{entry}")
                .and_then(|()| file.flush())
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        // Only once the solve is kept (in the --write file, else shown) does
        // its checkpoint go.
        let finish = || {
            if let Some(checkpoints) = &checkpoints {
                checkpoints.finish(&task.position);
            }
        };
        if written.is_some() {
            finish();
        }
        bar.suspend(|| print_row(&mut out, args.json, task, &result, moves, agrees))?;
        if written.is_none() {
            finish();
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let (nodes, time, wrong) = totals;
    let nps = nodes as f64 / time.as_secs_f64().max(1e-6);
    if args.json {
        let total = TotalJson {
            total: true,
            positions: tasks.len(),
            wrong,
            nodes,
            time: (time.as_secs_f64() * 1000.0).round() / 1000.0,
            nps: nps.round() as u64,
        };
        writeln!(out, "{}", to_line(&total))?;
    } else {
        writeln!(
            out,
            "{}, {wrong} wrong, {nodes} nodes in {:.3} s, {:.0} nodes/s",
            count(tasks.len() as u32, "position", "positions"),
            time.as_secs_f64(),
            nps
        )?;
    }
    Ok(if wrong == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The OBF entry of a solved position: every solved move with its score
/// (all moves with `--all-moves`, else the best ones).
fn solved_entry(task: &Task, result: &SearchResult) -> obf::ObfEntry {
    let mut entry = obf::ObfEntry::new(task.position);
    if !result.lines.is_empty() {
        entry.move_scores = result
            .lines
            .iter()
            .map(|line| (line.best(), line.score))
            .collect();
    } else if let Some(best) = result.best {
        entry.move_scores = vec![(best, result.score)];
    } else {
        entry.best_score = Some(result.score);
    }
    let empties = task.position.empty_count();
    entry.comment = Some(format!(
        "solved by oxello {}, {empties} empties",
        env!("CARGO_PKG_VERSION")
    ));
    entry
}

/// The positions of an OBF file written by an earlier run (none if it does
/// not exist yet, or if the run stopped before its first position).
fn already_solved(path: &std::path::Path) -> Result<Vec<Position>, Box<dyn Error>> {
    if std::fs::metadata(path).map_or(true, |m| m.is_file() && m.len() == 0) {
        return Ok(Vec::new());
    }
    let text = oxello::formats::read_text_file(path, u64::MAX)?;
    let entries = obf::parse_file(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(entries.into_iter().map(|entry| entry.position).collect())
}

/// An exact score must match; a WLD result must have the expected sign.
fn score_agrees(mode: SolveMode, score: i32, expected: i32) -> bool {
    match mode {
        SolveMode::Exact => score == expected,
        SolveMode::Wld => score.signum() == expected.signum(),
    }
}

/// Every solved move's score beside the one the file lists for it, if any.
fn move_scores(mode: SolveMode, task: &Task, result: &SearchResult) -> Vec<MoveScore> {
    result
        .lines
        .iter()
        .map(|line| {
            let expected = task
                .expected_moves
                .iter()
                .find(|(mv, _)| *mv == line.best())
                .map(|&(_, score)| score);
            MoveScore {
                search: SearchJson::from_report(&task.position, line),
                expected,
                ok: expected.is_none_or(|e| score_agrees(mode, line.score, e)),
            }
        })
        .collect()
}

/// A score as a row shows it: signed discs, or the WLD result.
fn score_text(depth: Depth, score: i32) -> String {
    match depth {
        Depth::Wld => ["loss", "draw", "win"][(score.signum() + 1) as usize].to_string(),
        _ => format!("{score:+}"),
    }
}

fn print_row(
    out: &mut impl Write,
    json: bool,
    task: &Task,
    result: &SearchResult,
    moves: Vec<MoveScore>,
    agrees: bool,
) -> std::io::Result<()> {
    let best = result.best.map_or("--".to_string(), |m| m.to_string());
    let seconds = result.elapsed.as_secs_f64();
    let expected = task.expected.map_or("?".to_string(), |e| format!("{e:+}"));
    let score = score_text(result.depth, result.score);
    if json {
        let row = SolveJson {
            number: task.number,
            board: board_string::format_position(&task.position),
            empties: task.position.empty_count(),
            expected: task.expected,
            ok: agrees,
            result: SearchJson::new(&task.position, result),
            moves,
        };
        writeln!(out, "{}", to_line(&row))?;
    } else {
        writeln!(
            out,
            "{:>3} | {:>7} | {best:>4} | {score:>5} | {expected:>8} | {:>15} | {seconds:>8.3} | {:>9.0}{}",
            task.number,
            task.position.empty_count(),
            result.nodes,
            result.nodes_per_second(),
            if agrees { "" } else { "  WRONG" }
        )?;
        // With --all-moves, the moves' scores under the row; one the file
        // disagrees with shows the file's.
        if !moves.is_empty() {
            let scores: Vec<String> = moves
                .iter()
                .map(|m| {
                    let name = m.search.mv.as_deref().unwrap_or("--");
                    let score = score_text(result.depth, m.search.score);
                    match (m.ok, m.expected) {
                        (false, Some(e)) => format!("{name} {score} (file {e:+})"),
                        _ => format!("{name} {score}"),
                    }
                })
                .collect();
            writeln!(out, "    | every move: {}", scores.join(", "))?;
        }
    }
    Ok(())
}

fn load_tasks(args: &SolveArgs, seed: u64) -> Result<Vec<Task>, Box<dyn Error>> {
    let source = match (&args.sample_wthor, &args.sample_selfplay) {
        (Some(folder), _) => Some((folder, wthor::folder_positions(folder)?)),
        (None, Some(file)) => Some((file, selfplay_positions(file, args.engine_moves)?)),
        (None, None) => None,
    };
    if let Some((from, all)) = source {
        let (empties, count) = (args.empties.unwrap_or(24), args.count.unwrap_or(50));
        let sampled = wthor::sample(&all, empties, count, seed);
        if sampled.len() < count {
            log::warn!(
                "only {} distinct positions with {empties} empties in {}",
                sampled.len(),
                from.display()
            );
        }
        return Ok(sampled
            .into_iter()
            .enumerate()
            .map(|(i, position)| Task {
                number: i + 1,
                position,
                expected: None,
                expected_moves: Vec::new(),
            })
            .collect());
    }
    let path = std::path::Path::new(&args.position);
    let Some(entries) = suite(path)? else {
        if args.range.is_some() {
            return Err(usage("--range applies to a file of positions"));
        }
        let game = super::load(&args.position, args.size)?;
        return Ok(vec![Task {
            number: args.first_number,
            position: game.position(),
            expected: None,
            expected_moves: Vec::new(),
        }]);
    };
    for entry in &entries {
        super::check_size(entry.position.size, args.size)?;
    }
    let tasks: Vec<Task> = entries
        .into_iter()
        .enumerate()
        .map(|(i, entry)| Task {
            number: args.first_number.saturating_add(i),
            expected: entry.best_score(),
            position: entry.position,
            expected_moves: entry.move_scores,
        })
        .collect();
    let Some((lo, hi)) = parse_range(args.range.as_deref())? else {
        return Ok(tasks);
    };
    let last = args.first_number.saturating_add(tasks.len() - 1);
    if lo < args.first_number || hi > last {
        return Err(usage(format!(
            "--range {lo}-{hi}: {} numbers its positions {} to {last}",
            path.display(),
            args.first_number
        )));
    }
    Ok(tasks
        .into_iter()
        .filter(|task| (lo..=hi).contains(&task.number))
        .collect())
}

/// The positions of a self-play record file's held-out games reached after
/// at least `engine_moves` searched moves of their game.
fn selfplay_positions(
    path: &std::path::Path,
    engine_moves: u8,
) -> Result<Vec<Position>, Box<dyn Error>> {
    let records = oxello::selfplay::read_file(path)?;
    Ok(records
        .iter()
        .filter(|r| r.index >= engine_moves && is_held_out(r.game as usize))
        .map(|r| r.position)
        .collect())
}

/// The positions of an OBF suite, or `None` when `path` is no file of
/// positions with scores in OBF (then it is read as one position). A suite
/// without a position is an error.
fn suite(path: &std::path::Path) -> Result<Option<Vec<obf::ObfEntry>>, Box<dyn Error>> {
    let is_obf = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("obf"));
    if !is_obf && !path.is_file() {
        return Ok(None);
    }
    let text = oxello::formats::read_text_file(path, u64::MAX)?;
    let entries = match obf::parse_file(&text) {
        Ok(entries) => entries,
        Err(_) if !is_obf => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", path.display()).into()),
    };
    if entries.is_empty() {
        if !is_obf {
            return Ok(None);
        }
        return Err(format!("{}: no position in the file", path.display()).into());
    }
    Ok(Some(entries))
}

/// `40-44` or `47`.
fn parse_range(text: Option<&str>) -> Result<Option<(usize, usize)>, Box<dyn Error>> {
    let Some(text) = text else { return Ok(None) };
    let bad = || format!("bad range '{text}' (expected N or N-M)");
    let (lo, hi) = oxello::core::span::parse_span::<usize>(text).ok_or_else(|| usage(bad()))?;
    if lo > hi {
        return Err(usage(bad()));
    }
    Ok(Some((lo, hi)))
}
