//! `oxello analyze POSITION`: search one position and show every completed
//! iteration (depth, score, nodes, time, PV), then the best move.

use super::{EngineArgs, usage};
use clap::Args;
use oxello::bitboard::BoardSize;
use oxello::engine::EngineOptions;
use oxello::formats::board_string;
use oxello::json::{SearchJson, to_line};
use oxello::search::{Bound, Depth, Limits, Report, Searcher, SolveMode, StopSignal};
use std::error::Error;
use std::io::Write as _;
use std::process::ExitCode;
use std::time::Duration;

/// Options of `oxello analyze`. The search depth and time are the global
/// `--depth` and `--time` (5 s when neither is given; a game analysis
/// defaults to depth 8); `--exact` and `--wld` solve to the end, and take
/// no `--depth`.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// The position: `start`, a board string, a transcript, or a file.
    #[arg(default_value = "start")]
    pub position: String,
    /// Board size (4, 6 or 8) for `start` and transcripts [default: 8]; a
    /// board string or a file has its own, which this must match.
    #[arg(short, long)]
    pub size: Option<BoardSize>,
    /// Solve exactly.
    #[arg(long, conflicts_with = "wld")]
    pub exact: bool,
    /// Solve win/loss/draw.
    #[arg(long)]
    pub wld: bool,
    /// Number of best moves to find (1 to 64; default 1). Not for a game
    /// analysis.
    // An `Option`, so that a game analysis can refuse it when given.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=64), allow_negative_numbers = true)]
    pub multi_pv: Option<u16>,
    /// One JSON object with the result (with `--game`: the whole analysis).
    #[arg(long)]
    pub json: bool,
    /// Analyse every move of the game (automatic for GGF and WTHOR files).
    #[arg(long)]
    pub game: bool,
    /// Which games of a GGF or WTHOR file, counting from 1: `12` or `3-7`
    /// (also written `FILE.wtb:12`). Default: all.
    #[arg(long, visible_alias = "wthor-index", value_name = "N[-M]")]
    pub index: Option<String>,
    /// Solve exactly from this many empty squares (game analysis only;
    /// default 18).
    // An `Option`, so that the analysis of one position can refuse it when
    // given; the test `the_help_states_the_defaults` keeps the default
    // written here that of `oxello::analysis`.
    #[arg(long, allow_negative_numbers = true)]
    pub exact_from: Option<u32>,
    /// Write an evaluation graph as SVG (one file per game, numbered, when
    /// several games are analysed).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
}

/// Default search time when neither depth nor time is given, seconds.
const DEFAULT_ANALYZE_SECONDS: f64 = 5.0;

/// A PV as `f5 d6 c3`.
pub fn format_pv(report_pv: &[oxello::moves::Move]) -> String {
    report_pv
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The depth as the tables write it (`12@73%`, `24@95%`, `exact`, `wld`)
/// and a score with its bound marker, Edax style.
pub fn format_depth_score(depth: Depth, score: i32, bound: Bound) -> (String, String) {
    let depth = oxello::analysis::depth_label(depth);
    (depth, format!("{}{score:+03}", bound.marker()))
}

/// The JSON answer of `analyze --json`: the board and the search result,
/// with every line of a multi-PV search.
#[derive(serde::Serialize)]
struct AnalyzeJson {
    board: String,
    #[serde(flatten)]
    result: SearchJson,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    lines: Vec<SearchJson>,
}

/// Best moves found without `--multi-pv`, as its help says.
const DEFAULT_MULTI_PV: u16 = 1;

/// Runs `oxello analyze`: a game analysis when [`super::game_analysis::wanted`],
/// else the search of one position.
pub fn run(args: &AnalyzeArgs, engine: &EngineArgs) -> Result<ExitCode, Box<dyn Error>> {
    let game = super::game_analysis::wanted(args);
    refuse_unused(args, engine, game)?;
    if game {
        super::game_analysis::run(args, engine.options()?)
    } else {
        run_position(args, engine.options()?)
    }
}

/// Refuses the options that the analysis asked for (of a game when `game`,
/// else of one position) would ignore: an ignored option misleads.
fn refuse_unused(
    args: &AnalyzeArgs,
    engine: &EngineArgs,
    game: bool,
) -> Result<(), Box<dyn Error>> {
    let solve = if args.exact {
        Some("--exact")
    } else if args.wld {
        Some("--wld")
    } else {
        None
    };
    if game {
        if let Some(solve) = solve {
            return Err(usage(format!(
                "{solve} does not apply to a game analysis (it solves exactly from \
                 --exact-from empties)"
            )));
        }
        if args.multi_pv.is_some() {
            return Err(usage(
                "--multi-pv does not apply to a game analysis (it compares each move \
                 played with the best)",
            ));
        }
        if let Some(empties) = args
            .exact_from
            .filter(|&e| e > oxello::analysis::MAX_EXACT_FROM)
        {
            return Err(usage(format!(
                "--exact-from {empties}: at most {max} (every position from there is solved, and \
                 each empty past {max} makes a solve 2.3 times as long)",
                max = oxello::analysis::MAX_EXACT_FROM
            )));
        }
        return Ok(());
    }
    if args.exact_from.is_some() {
        return Err(usage(
            "--exact-from does not apply to the analysis of one position (it is where a \
             game analysis starts solving: give --game, or --exact to solve this position)",
        ));
    }
    if let Some(solve) = solve {
        engine.refuse(
            &format!("analyze {solve} (it solves to the end)"),
            &["depth"],
        )?;
    }
    engine.refuse(
        "the analysis of one position (only a game analysis marks the book's moves)",
        &["book", "no-book"],
    )
}

fn run_position(args: &AnalyzeArgs, options: EngineOptions) -> Result<ExitCode, Box<dyn Error>> {
    let game = super::load(&args.position, args.size)?;
    let position = game.position();
    let searcher = Searcher::warmed(options.hash_mib);
    let solve = args.exact || args.wld;
    let multi_pv = args.multi_pv.unwrap_or(DEFAULT_MULTI_PV);
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
        multi_pv: usize::from(multi_pv),
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
            " rank |  depth  | score |     time  |     nodes     |    N/s     | principal variation"
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
            " {:>4} | {depth:>7} | {score:>5} | {:>9.3} | {:>13} | {:>10.0} | {}",
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
        let lines = if multi_pv > 1 {
            result
                .lines
                .iter()
                .map(|line| SearchJson::from_report(&position, line))
                .collect()
        } else {
            Vec::new()
        };
        let answer = AnalyzeJson {
            board: board_string::format_position(&position),
            result: SearchJson::new(&position, &result),
            lines,
        };
        writeln!(out, "{}", to_line(&answer))?;
    } else {
        let (depth, score) = format_depth_score(result.depth, result.score, result.bound);
        // A solve is no depth: `solved exact`, `solved wld`, `solved 24@95%`.
        let depth = if result.depth.is_solve() {
            format!("solved {depth}")
        } else {
            format!("depth {depth}")
        };
        writeln!(
            out,
            "best {best} score {} {depth} nodes {} time {:.3} s",
            score.trim(),
            result.nodes,
            result.elapsed.as_secs_f64()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    /// The defaults of the options that are `Option`s, written in their
    /// help, are those the code uses.
    #[test]
    fn the_help_states_the_defaults() {
        let mut command = super::super::command(false);
        let help = command
            .find_subcommand_mut("analyze")
            .expect("the analyze subcommand")
            .render_help()
            .to_string();
        let exact_from = format!("default {})", oxello::analysis::DEFAULT_EXACT_FROM);
        assert!(help.contains(&exact_from), "{help}");
        let multi_pv = format!("default {})", super::DEFAULT_MULTI_PV);
        assert!(help.contains(&multi_pv), "{help}");
    }
}
