//! `oxello search-labels`: search values for the WTHOR positions past the
//! theoretical depth, where the games' labels are the players' results, to
//! blend into the training labels (`train-eval --searched`).

use super::EngineArgs;
use clap::Args;
use oxello::formats::obf::{self, ObfEntry};
use oxello::formats::wthor;
use oxello::position::Position;
use oxello::search::{Limits, Searcher, Selectivity, SolveMode, StopSignal};
use oxello::selfplay::settings::{self, Settings};
use oxello::shard::Shard;
use oxello::train::patterns::{positions_to_search, positions_to_solve};
use std::collections::BTreeMap;
use std::error::Error;
use std::io::Write as _;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Options of `oxello search-labels`.
#[derive(Debug, Args)]
pub struct SearchLabelsArgs {
    /// Folder of WTHOR `.wtb` files.
    #[arg(long, default_value = "../shared/games/wthor")]
    pub wthor: std::path::PathBuf,
    /// The OBF file to write (each position with its best move and search
    /// score, and the game's number in the comment). Rerunning the same
    /// command with the same file resumes it.
    #[arg(short, long)]
    pub out: std::path::PathBuf,
    /// Only positions with at least this many empties (and more than the
    /// file's theoretical depth, below which the games' labels are exact).
    #[arg(long, default_value_t = 25, allow_negative_numbers = true)]
    pub min_empties: u32,
    /// Search one game in this many (the first of each group).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub every: usize,
    /// Only the first this many of those games (in file order), for a
    /// shorter run: its file is the start of the whole run's.
    #[arg(long, allow_negative_numbers = true)]
    pub games: Option<usize>,
    /// Search only shard `i` of `n` of those games; the shards' files
    /// together hold the whole run's labels.
    #[arg(long, default_value = "1/1")]
    pub shard: Shard,
    /// Search the held-out games (one in 10, which training never sees)
    /// instead of the training games: labels for measuring an
    /// evaluation's error (`bench --eval-error`), not for `train-eval
    /// --searched`.
    #[arg(long)]
    pub held_out: bool,
    /// Solve exactly every position with at most this many empties instead
    /// (any empties, below the theoretical depth too), each game from its
    /// end, for `train-eval --exact`: the labels that replace the players'
    /// results there.
    #[arg(long, value_name = "EMPTIES", value_parser = clap::value_parser!(u32).range(1..=30), conflicts_with = "min_empties")]
    pub exact: Option<u32>,
}

/// Midgame depth of a label search without `--depth`: 10 plies cost about
/// 37,000 nodes and 4.4 ms per position on one core (455 positions/s on
/// two; `--every 3`: 794,486 positions, about 30 min).
pub const DEFAULT_LABEL_DEPTH: u32 = 10;

/// Table of each thread's searcher, in MiB: cleared at every game, so
/// small (a game's positions are searched with the table of its earlier
/// ones, the same whichever thread searches it).
const LABEL_HASH_MIB: usize = 16;

pub fn run(args: &SearchLabelsArgs, engine: &EngineArgs) -> Result<ExitCode, Box<dyn Error>> {
    if args.every == 0 {
        return Err(super::usage("search-labels: --every must be at least 1"));
    }
    if args.exact.is_some() && (engine.depth.is_some() || engine.selectivity.is_some()) {
        return Err(super::usage(
            "search-labels --exact solves to the end: --depth and --selectivity do not apply",
        ));
    }
    let options = engine.options()?;
    let depth = engine.depth.unwrap_or(DEFAULT_LABEL_DEPTH);
    let selectivity = options.analysis_selectivity();
    let started = Instant::now();
    let files = wthor::read_folder(&args.wthor)?;
    // A position met in an earlier game (the openings, mostly) is searched
    // once. This is done before sharding, so shards share nothing.
    let mut seen = rustc_hash::FxHashSet::default();
    let selected = match args.exact {
        Some(max) => positions_to_solve(&files, max, args.held_out),
        None => positions_to_search(&files, args.min_empties, args.held_out),
    };
    let games: Vec<(usize, Vec<Position>)> = selected
        .into_iter()
        .step_by(args.every)
        .take(args.games.unwrap_or(usize::MAX))
        .map(|(number, positions)| {
            let fresh = positions.into_iter().filter(|p| seen.insert(*p)).collect();
            (number, fresh)
        })
        .enumerate()
        .filter(|(i, _)| args.shard.contains(*i as u64))
        .map(|(_, game)| game)
        .collect();
    drop(seen);
    drop(files);
    // What decides the labels: a rerun resumes only a file of the same
    // (`--games` may grow, and `--threads` changes no label).
    // The settings' name of the search, and the summary's.
    let (how, done_how) = match args.exact {
        Some(empties) => (
            format!("exact from {empties} empties"),
            "solved exactly".to_string(),
        ),
        None => (
            format!("depth {depth} at {selectivity}"),
            format!("searched to depth {depth} at {selectivity}"),
        ),
    };
    let settings = Settings::default()
        .with("search", &how)
        .with("every", args.every)
        .with("min_empties", args.min_empties)
        .with("held_out", args.held_out)
        .with("shard", args.shard);
    let found = settings::check(&settings, &args.out, &args.out)?;
    let done = resume(&args.out)?;
    if found == settings::Found::Unrecorded && done.is_some() {
        note!(
            "note: {} has no settings file (an older oxello wrote it): its labels were \
             resumed on trust that this run's settings wrote them",
            args.out.display()
        );
    }
    if found != settings::Found::Same {
        settings::write(&settings, &args.out)
            .map_err(|e| format!("cannot write the settings of {}: {e}", args.out.display()))?;
    }
    let todo: Vec<&(usize, Vec<Position>)> = games
        .iter()
        .filter(|(number, _)| done.is_none_or(|last| *number >= last))
        .collect();
    let positions: usize = todo.iter().map(|(_, p)| p.len()).sum();
    log::info!(
        "{} games ({} to do, {positions} positions), {how}",
        games.len(),
        todo.len()
    );
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    let threads = options.search_threads(false).clamp(1, todo.len().max(1));
    let next = AtomicUsize::new(0);
    // Games searched but not yet written: the file keeps the games' order,
    // so that a resumed run knows where to start.
    let finished: Mutex<(usize, BTreeMap<usize, String>, std::fs::File)> =
        Mutex::new((0, BTreeMap::new(), file));
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let bar = super::progress::counting(positions as u64, "positions");
    let nodes = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut searcher = Searcher::warmed(LABEL_HASH_MIB);
                let limits = match args.exact {
                    Some(_) => Limits {
                        solve_empties: Some(64),
                        solve_mode: SolveMode::Exact,
                        selectivity: Selectivity::NONE,
                        solve_selectivity: Selectivity::NONE,
                        threads: 1,
                        ..Limits::default()
                    },
                    None => Limits {
                        depth: Some(depth),
                        selectivity,
                        threads: 1,
                        ..Limits::default()
                    },
                };
                let what = match args.exact {
                    Some(_) => "exact".to_string(),
                    None => format!("depth {depth}"),
                };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((number, positions)) = todo.get(i) else {
                        break;
                    };
                    if failure.lock().map(|f| f.is_some()).unwrap_or(true) {
                        break;
                    }
                    searcher.clear();
                    let mut block = String::new();
                    for position in positions {
                        let result =
                            searcher.search(position, &limits, &StopSignal::new(), &mut |_| {});
                        nodes.fetch_add(result.nodes, Ordering::Relaxed);
                        let mut entry = ObfEntry::new(*position);
                        if let Some(best) = result.best {
                            entry.move_scores = vec![(best, result.score)];
                        }
                        entry.comment = Some(format!("game {number}, {what}"));
                        block.push_str(&obf::format_file(std::slice::from_ref(&entry)));
                        bar.inc(1);
                    }
                    let Ok(mut finished) = finished.lock() else {
                        break;
                    };
                    finished.1.insert(i, block);
                    // Write every game whose predecessors are all written.
                    while let Some(block) = {
                        let first = finished.0;
                        finished.1.remove(&first)
                    } {
                        finished.0 += 1;
                        let file = &mut finished.2;
                        if let Err(e) = file.write_all(block.as_bytes()).and_then(|()| file.flush())
                        {
                            if let Ok(mut failure) = failure.lock() {
                                *failure =
                                    Some(format!("cannot write {}: {e}", args.out.display()));
                            }
                            break;
                        }
                    }
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(failure) = failure.into_inner().ok().flatten() {
        return Err(failure.into());
    }
    let seconds = started.elapsed().as_secs_f64();
    let nodes = nodes.into_inner();
    writeln!(
        std::io::stdout().lock(),
        "{} games, {positions} positions {done_how}, {nodes} nodes in {seconds:.1} s ({:.0} positions/s)",
        todo.len(),
        positions as f64 / seconds.max(1e-6)
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The number of the last game wholly in the file `path` from an earlier
/// run, after removing that game's lines (a killed run may have written it
/// in part) and any unfinished last line: the run starts again with it.
/// `None` when there is no file or nothing in it.
fn resume(path: &std::path::Path) -> Result<Option<usize>, Box<dyn Error>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display()).into()),
    };
    let complete = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    let game_of = |line: &str| -> Option<usize> {
        let comment = line.split_once("% game ")?.1;
        comment.split(',').next()?.trim().parse().ok()
    };
    let Some(last) = complete.lines().filter_map(game_of).next_back() else {
        std::fs::write(path, "").map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        return Ok(None);
    };
    let kept: String = complete
        .lines()
        .filter(|line| game_of(line).is_some_and(|g| g < last))
        .map(|line| format!("{line}\n"))
        .collect();
    std::fs::write(path, kept).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(Some(last))
}
