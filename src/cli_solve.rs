//! `oxello solve`: exact or WLD solves of OBF suites and single positions.

use crate::cli::SolveArgs;
use crate::formats::{board_string, obf, spec, wthor};
use crate::position::Position;
use crate::search::{Depth, Limits, SearchResult, Searcher, Selectivity, SolveMode, StopSignal};
use std::error::Error;
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

/// One position to solve, with the score the file expects, if any.
struct Task {
    number: usize,
    position: Position,
    expected: Option<i32>,
}

pub fn run(
    args: &SolveArgs,
    options: crate::engine::EngineOptions,
    seed: u64,
) -> Result<ExitCode, Box<dyn Error>> {
    let tasks = load_tasks(args, seed)?;
    let mode = if args.wld {
        SolveMode::Wld
    } else {
        SolveMode::Exact
    };
    let mut searcher = Searcher::new(options.hash_mib);
    let mut totals = (0u64, Duration::ZERO, 0usize);
    let mut solved = Vec::new();
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
    for task in &tasks {
        searcher.clear();
        let multi_pv = if args.all_moves { 64 } else { 1 };
        let limits = Limits {
            solve_empties: Some(64),
            solve_mode: mode,
            multi_pv,
            // Straight to the exact solve unless --selectivity asks for the
            // ladder: it costs nodes on FFO #40-49 (see SOLVE_LADDER_MIN_EMPTIES).
            solve_selectivity: options.selectivity.unwrap_or(Selectivity::NONE),
            threads: options.search_threads(false),
            ..Limits::default()
        };
        let result = searcher.search(&task.position, &limits, &StopSignal::new(), &mut |_| {});
        solved.push(solved_entry(task, &result, args.all_moves));
        let agrees = task
            .expected
            .is_none_or(|e| score_agrees(mode, result.score, e));
        if !agrees {
            totals.2 += 1;
        }
        totals.0 += result.nodes;
        totals.1 += result.elapsed;
        // Written after every position, before its row (which a closed
        // stdout ends): a long run keeps what it solved.
        if let Some(path) = &args.write {
            std::fs::write(path, obf::format_file(&solved))
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        print_row(&mut out, args.json, task, &result, agrees)?;
    }
    let (nodes, time, wrong) = totals;
    let nps = nodes as f64 / time.as_secs_f64().max(1e-6);
    if args.json {
        writeln!(
            out,
            "{{\"total\":true,\"positions\":{},\"wrong\":{wrong},\"nodes\":{nodes},\"time\":{:.3},\"nps\":{nps:.0}}}",
            tasks.len(),
            time.as_secs_f64()
        )?;
    } else {
        writeln!(
            out,
            "{} positions, {wrong} wrong, {nodes} nodes in {:.3} s, {:.0} nodes/s",
            tasks.len(),
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
/// (all moves with `--all-moves`, else the best one).
fn solved_entry(task: &Task, result: &SearchResult, all_moves: bool) -> obf::ObfEntry {
    let mut entry = obf::ObfEntry::new(task.position);
    if all_moves && !result.lines.is_empty() {
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

/// An exact score must match; a WLD result must have the expected sign.
fn score_agrees(mode: SolveMode, score: i32, expected: i32) -> bool {
    match mode {
        SolveMode::Exact => score == expected,
        SolveMode::Wld => score.signum() == expected.signum(),
    }
}

fn print_row(
    out: &mut impl Write,
    json: bool,
    task: &Task,
    result: &SearchResult,
    agrees: bool,
) -> std::io::Result<()> {
    let best = result.best.map_or("--".to_string(), |m| m.to_string());
    let seconds = result.elapsed.as_secs_f64();
    let expected = task.expected.map_or("?".to_string(), |e| format!("{e:+}"));
    let score = match result.depth {
        Depth::Wld => ["loss", "draw", "win"][(result.score.signum() + 1) as usize].to_string(),
        _ => format!("{:+}", result.score),
    };
    if json {
        writeln!(
            out,
            "{{\"number\":{},\"board\":\"{}\",\"empties\":{},\"move\":\"{best}\",\"score\":{},\"expected\":{},\"ok\":{agrees},\"nodes\":{},\"time\":{seconds:.3},\"nps\":{:.0}}}",
            task.number,
            board_string::format_position(&task.position),
            task.position.empty_count(),
            result.score,
            task.expected.map_or("null".to_string(), |e| e.to_string()),
            result.nodes,
            result.nodes_per_second()
        )?;
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
    }
    Ok(())
}

fn load_tasks(args: &SolveArgs, seed: u64) -> Result<Vec<Task>, Box<dyn Error>> {
    if let Some(folder) = &args.sample_wthor {
        let all = wthor::folder_positions(folder)?;
        let sampled = wthor::sample(&all, args.empties, args.count, seed);
        if sampled.len() < args.count {
            log::warn!(
                "only {} distinct positions with {} empties in {}",
                sampled.len(),
                args.empties,
                folder.display()
            );
        }
        return Ok(sampled
            .into_iter()
            .enumerate()
            .map(|(i, position)| Task {
                number: i + 1,
                position,
                expected: None,
            })
            .collect());
    }
    let Some(path) = &args.file else {
        let game =
            spec::read_game(&args.position, args.size).map_err(|e| format!("position: {e}"))?;
        return Ok(vec![Task {
            number: 1,
            position: game.position(),
            expected: None,
        }]);
    };
    let text = crate::formats::read_text_file(path, u64::MAX)?;
    let entries = obf::parse_file(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let range = parse_range(args.range.as_deref())?;
    Ok(entries
        .into_iter()
        .enumerate()
        .map(|(i, entry)| Task {
            number: args.first_number + i,
            expected: entry.best_score(),
            position: entry.position,
        })
        .filter(|task| range.is_none_or(|(lo, hi)| (lo..=hi).contains(&task.number)))
        .collect())
}

/// `40-44` or `47`.
fn parse_range(text: Option<&str>) -> Result<Option<(usize, usize)>, Box<dyn Error>> {
    let Some(text) = text else { return Ok(None) };
    let bad = || format!("bad range '{text}' (expected N or N-M)");
    let (lo, hi) = match text.split_once('-') {
        Some((lo, hi)) => (
            lo.trim().parse().map_err(|_| bad())?,
            hi.trim().parse().map_err(|_| bad())?,
        ),
        None => {
            let n = text.trim().parse().map_err(|_| bad())?;
            (n, n)
        }
    };
    Ok(Some((lo, hi)))
}
