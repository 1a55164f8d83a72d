//! `oxello analyze POSITION`: search one position and show every completed
//! iteration (depth, score, nodes, time, PV), then the best move.

use crate::cli::AnalyzeArgs;
use crate::engine::EngineOptions;
use crate::formats::{board_string, spec};
use crate::search::{Bound, Depth, Limits, Report, Searcher, SolveMode, StopSignal};
use std::error::Error;
use std::io::Write as _;
use std::process::ExitCode;
use std::time::Duration;

/// Default search time when neither depth nor time is given, seconds.
const DEFAULT_ANALYZE_SECONDS: f64 = 5.0;

/// A PV as `f5 d6 c3`.
pub fn format_pv(report_pv: &[crate::moves::Move]) -> String {
    report_pv
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `d@100%`-style depth and a score with its bound marker, Edax style.
pub fn format_depth_score(depth: Depth, score: i32, bound: Bound) -> (String, String) {
    let depth = format!("{:>2}", depth.label());
    (depth, format!("{}{score:+03}", bound.marker()))
}

pub fn run(args: &AnalyzeArgs, options: EngineOptions) -> Result<ExitCode, Box<dyn Error>> {
    let game = spec::read_game(&args.position, args.size).map_err(|e| format!("position: {e}"))?;
    let position = game.position();
    let mut searcher = Searcher::new(options.hash_mib);
    let solve = args.exact || args.wld;
    // Depth and time come from the global --depth and --time; with neither,
    // a midgame analysis gets a few seconds.
    let default_time = (options.depth.is_none() && !solve)
        .then(|| Duration::from_secs_f64(DEFAULT_ANALYZE_SECONDS));
    let time = options.time.or(default_time);
    let limits = Limits {
        depth: options.depth,
        time,
        solve_empties: solve.then_some(64),
        solve_mode: if args.wld {
            SolveMode::Wld
        } else {
            SolveMode::Exact
        },
        multi_pv: args.multi_pv.max(1),
        selectivity: options.analysis_selectivity(),
        solve_selectivity: Limits::ladder(options.analysis_selectivity(), position.empty_count()),
        threads: options.search_threads(false),
        ..Limits::default()
    };
    let mut out = std::io::stdout().lock();
    if !args.json {
        writeln!(out, "position {}", board_string::format_position(&position))?;
        writeln!(
            out,
            " rank | depth | score |     time  |     nodes     |    N/s     | principal variation"
        )?;
    }
    let json = args.json;
    // A closed stdout stops the search: nobody reads its answer.
    let stop = StopSignal::new();
    let mut closed = None;
    let mut print = |report: &Report| {
        if json || closed.is_some() {
            return;
        }
        let (depth, score) = format_depth_score(report.depth, report.score, report.bound);
        let written = writeln!(
            out,
            " {:>4} | {depth:>5} | {score:>5} | {:>9.3} | {:>13} | {:>10.0} | {}",
            report.rank + 1,
            report.elapsed.as_secs_f64(),
            report.nodes,
            report.nodes_per_second(),
            format_pv(&report.pv)
        );
        if let Err(error) = written {
            closed = Some(error);
            stop.stop();
        }
    };
    let result = searcher.search(&position, &limits, &stop, &mut print);
    if let Some(error) = closed {
        return Err(error.into());
    }
    let best = result.best.map_or("none".to_string(), |m| m.to_string());
    if json {
        writeln!(
            out,
            "{{\"board\":\"{}\",\"move\":\"{best}\",\"score\":{},\"bound\":\"{:?}\",\"depth\":\"{}\",\"pv\":\"{}\",\"nodes\":{},\"time\":{:.3}}}",
            board_string::format_position(&position),
            result.score,
            result.bound,
            result.depth.label(),
            format_pv(&result.pv),
            result.nodes,
            result.elapsed.as_secs_f64()
        )?;
    } else {
        let (depth, score) = format_depth_score(result.depth, result.score, result.bound);
        writeln!(
            out,
            "best {best} score {} depth {} nodes {} time {:.3} s",
            score.trim(),
            depth.trim(),
            result.nodes,
            result.elapsed.as_secs_f64()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
