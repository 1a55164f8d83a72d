//! `oxello bench`: a fixed set of positions searched to a fixed depth (or
//! solved exactly), one thread, a fresh table for each. The total node
//! count is the search's signature: a change that alters it changes the
//! search. Record it in the commit message of such changes.
//!
//! The bench searches at the selectivity of play (73% in the midgame; its
//! solves, of 18-20 empties, climb the selectivity ladder from 73% to
//! 100%); `--selectivity 100` gives the signature of the full-width search.

use super::EngineArgs;
use super::game::Game;
use clap::Args;
use oxello::accuracy::{self, AccuracyError, Summary};
use oxello::eval::{error, legacy, patterns};
use oxello::formats::{board_string, obf};
use oxello::position::Position;
use oxello::search::{Limits, Searcher, Selectivity, StopSignal};
use std::error::Error;
use std::io::Write as _;
use std::process::ExitCode;
use std::time::Duration;

/// Options of `oxello bench`. Its midgame depth is the global `--depth`
/// (default 12; 15 with `--accuracy`), its selectivity `--selectivity`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Measure move accuracy instead: search each position of this OBF
    /// file to the depth, and report how often an optimal move is chosen
    /// and the discs lost. Each position lists every move's exact score (as
    /// `solve --all-moves --write` makes), or only every best move (as
    /// `solve --write` makes; the discs lost are then not known).
    #[arg(long)]
    pub accuracy: Option<std::path::PathBuf>,
    /// With `--accuracy`: search every depth of this range (e.g. `10-20`)
    /// instead of one, and print a row of figures per depth, then the means
    /// over the odd and over the even depths.
    #[arg(long, value_name = "MIN-MAX", requires = "accuracy")]
    pub depths: Option<DepthRange>,
    /// Measure the static evaluation's error instead: for each phase (two
    /// empties), the root-mean-square difference between the built-in
    /// evaluation and the scores of this OBF file (exact solves, or search
    /// values as `search-labels` writes them), beside the first learned
    /// evaluation's (weight format 1, the one before), and the built-in
    /// evaluation's mean signed error at even and at odd empties.
    #[arg(long, conflicts_with = "accuracy")]
    pub eval_error: Option<std::path::PathBuf>,
    /// Time one component instead, on positions of seeded random games:
    /// `eval`, `incremental` and `hand-set` (Othello evaluations), `vcf`
    /// (the gomoku VCF search). `--game` does not apply.
    #[arg(long, value_enum, conflicts_with_all = ["accuracy", "eval_error", "game"])]
    pub speed: Option<super::bench_speed::Speed>,
    /// The game: `othello`, or `gomoku` (the positions of the first
    /// balanced openings, 15x15 standard and 20x20 freestyle, searched to
    /// `--depth`, default 8).
    #[arg(long, value_enum, default_value_t = Game::Othello)]
    pub game: Game,
}

/// A range of search depths, `MIN-MAX` (or one depth).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DepthRange {
    pub min: u32,
    pub max: u32,
}

impl std::str::FromStr for DepthRange {
    type Err = String;

    fn from_str(text: &str) -> Result<DepthRange, String> {
        let (min, max) = oxello::core::span::parse_span::<u32>(text)
            .filter(|&(min, max)| (1..=60).contains(&min) && (1..=60).contains(&max))
            .ok_or_else(|| {
                format!("{text:?}: expected MIN-MAX with depths from 1 to 60, e.g. 10-20")
            })?;
        if min > max {
            return Err(format!("{text:?}: the minimum is above the maximum"));
        }
        Ok(DepthRange { min, max })
    }
}

/// The bench positions, compiled in so the bench runs from anywhere.
const BENCH_POSITIONS: &str = include_str!("../../positions/bench.txt");

/// Midgame depth of the bench when none is given.
pub const DEFAULT_BENCH_DEPTH: u32 = 12;

/// Midgame depth of `bench --accuracy` when none is given: the depth of the
/// move-accuracy figures the issues quote (depth 15 on 30 empties).
pub const DEFAULT_ACCURACY_DEPTH: u32 = 15;

/// Table size of the bench, MiB (fixed: the signature depends on it).
pub const BENCH_HASH_MIB: usize = 64;

/// A bench position.
pub struct BenchPosition {
    pub endgame: bool,
    pub position: Position,
}

/// Reads the bench file format (see `positions/bench.txt`).
pub fn parse_bench(text: &str) -> Result<Vec<BenchPosition>, String> {
    let mut positions = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (kind, board) = line
            .split_once(' ')
            .ok_or(format!("bench line {}: no board", number + 1))?;
        let endgame = match kind {
            "midgame" => false,
            "endgame" => true,
            other => return Err(format!("bench line {}: unknown kind '{other}'", number + 1)),
        };
        let position = board_string::parse_position(board)
            .map_err(|e| format!("bench line {}: {e}", number + 1))?;
        positions.push(BenchPosition { endgame, position });
    }
    Ok(positions)
}

/// Runs `oxello bench`: it takes `--depth` and `--selectivity`, and refuses
/// the other engine options, which would change or blur its signature.
pub fn run(args: &BenchArgs, engine: &EngineArgs) -> Result<ExitCode, Box<dyn Error>> {
    if let Some(speed) = args.speed {
        engine.refuse_all("bench --speed (no search)")?;
        return super::bench_speed::run(speed);
    }
    if let Some(path) = &args.eval_error {
        engine.refuse_all("bench --eval-error (no search)")?;
        if args.game == Game::Gomoku {
            return Err(super::usage(
                "--eval-error measures the Othello evaluation: drop --game gomoku",
            ));
        }
        return run_eval_error(path);
    }
    if args.game == Game::Gomoku {
        if args.accuracy.is_some() {
            return Err(super::usage(
                "--accuracy measures Othello moves: drop --game gomoku",
            ));
        }
        // The gomoku modes' own checks: the depth's range, no selectivity.
        let depth = engine
            .gomoku_options("bench --game gomoku")?
            .depth
            .unwrap_or(super::gomoku_bench::DEFAULT_GOMOKU_BENCH_DEPTH);
        return super::gomoku_bench::run(depth);
    }
    let selectivity = engine.options()?.analysis_selectivity();
    match &args.accuracy {
        Some(path) => match args.depths {
            Some(_) if engine.depth.is_some() => Err(super::usage(
                "--depths gives the depths of bench --accuracy: drop --depth",
            )),
            Some(range) => run_accuracy_depths(path, range, selectivity),
            None => run_accuracy(
                path,
                engine.depth.unwrap_or(DEFAULT_ACCURACY_DEPTH),
                selectivity,
            ),
        },
        None => run_bench(engine.depth.unwrap_or(DEFAULT_BENCH_DEPTH), selectivity),
    }
}

fn run_bench(depth: u32, selectivity: Selectivity) -> Result<ExitCode, Box<dyn Error>> {
    let positions = parse_bench(BENCH_POSITIONS)?;
    let mut searcher = Searcher::warmed(BENCH_HASH_MIB);
    let (mut nodes, mut time) = (0u64, Duration::ZERO);
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        " #  | kind    | empties |  depth  | move | score |      nodes      |   time   |  nodes/s"
    )?;
    writeln!(
        out,
        "----+---------+---------+---------+------+-------+-----------------+----------+-----------"
    )?;
    for (i, bench) in positions.iter().enumerate() {
        searcher.clear();
        let limits = if bench.endgame {
            Limits {
                solve_empties: Some(64),
                solve_selectivity: Limits::ladder(selectivity, bench.position.empty_count()),
                ..Limits::default()
            }
        } else {
            Limits {
                depth: Some(depth),
                selectivity,
                ..Limits::default()
            }
        };
        let result = searcher.search(&bench.position, &limits, &StopSignal::new(), &mut |_| {});
        nodes += result.nodes;
        time += result.elapsed;
        writeln!(
            out,
            "{:>3} | {:<7} | {:>7} | {:>7} | {:>4} | {:>+5} | {:>15} | {:>8.3} | {:>9.0}",
            i + 1,
            if bench.endgame { "endgame" } else { "midgame" },
            bench.position.empty_count(),
            result.depth.label(),
            result.best.map_or("--".to_string(), |m| m.to_string()),
            result.score,
            result.nodes,
            result.elapsed.as_secs_f64(),
            result.nodes_per_second()
        )?;
    }
    let nps = nodes as f64 / time.as_secs_f64().max(1e-6);
    writeln!(
        out,
        "bench depth {depth} at {selectivity}: {} positions, {nodes} nodes, {:.3} s, {nps:.0} nodes/s",
        positions.len(),
        time.as_secs_f64()
    )?;
    writeln!(out, "signature {nodes}")?;
    Ok(ExitCode::SUCCESS)
}

/// `bench --eval-error FILE`: the built-in 8x8 evaluation's error, and the
/// first learned one's, phase by phase, against the scores of an OBF file.
fn run_eval_error(path: &std::path::Path) -> Result<ExitCode, Box<dyn Error>> {
    let entries = read_positions(path)?;
    let mut values = Vec::with_capacity(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        if entry.position.size != oxello::BoardSize::Eight {
            return Err(format!("{} position {}: not an 8x8 board", path.display(), i + 1).into());
        }
        if let Some(score) = entry.best_score() {
            values.push((entry.position.board, score));
        }
    }
    if values.is_empty() {
        return Err(format!("{}: no position with a score", path.display()).into());
    }
    let shipped = error::by_phase(values.iter().copied(), &patterns::evaluate);
    let first = error::by_phase(values.iter().copied(), &|b| legacy::previous().evaluate(b));
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        " empties | positions | built-in | first learned (v1) | signed, even | signed, odd"
    )?;
    writeln!(
        out,
        "---------+-----------+----------+--------------------+--------------+------------"
    )?;
    let signed = |phase: &error::PhaseError, odd| {
        phase
            .mean_signed(odd)
            .map_or("-".to_string(), |e| format!("{e:+.2}"))
    };
    for (new, old) in shipped.iter().zip(&first) {
        writeln!(
            out,
            " {:>2}-{:<2}   | {:>9} | {:>8.2} | {:>18.2} | {:>12} | {:>11}",
            new.empties,
            new.empties + 1,
            new.positions(),
            new.rms(),
            old.rms(),
            signed(new, false),
            signed(new, true)
        )?;
    }
    let (new, old) = (error::total(&shipped), error::total(&first));
    writeln!(
        out,
        "evaluation error (RMS, discs) on {} positions: built-in {:.2}, first learned {:.2}",
        new.positions(),
        new.rms(),
        old.rms()
    )?;
    writeln!(
        out,
        "built-in mean signed error (evaluation minus value, discs): {} at even empties, {} at odd",
        signed(&new, false),
        signed(&new, true)
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The entries of an OBF file, at least one.
fn read_positions(path: &std::path::Path) -> Result<Vec<obf::ObfEntry>, Box<dyn Error>> {
    let entries = super::read_obf(path)?;
    if entries.is_empty() {
        return Err(format!("{}: no position", path.display()).into());
    }
    Ok(entries)
}

/// `bench --accuracy FILE`: each position of the OBF file searched to
/// `depth` at `selectivity`, one thread, fresh table; prints one row per
/// position and the share of optimal moves, the discs lost and the nodes.
fn run_accuracy(
    path: &std::path::Path,
    depth: u32,
    selectivity: Selectivity,
) -> Result<ExitCode, Box<dyn Error>> {
    let entries = read_positions(path)?;
    let mut searcher = Searcher::warmed(BENCH_HASH_MIB);
    let mut out = std::io::stdout().lock();
    let limits = Limits {
        depth: Some(depth),
        selectivity,
        ..Limits::default()
    };
    writeln!(
        out,
        " #  | empties |  depth  | move | exact | best | loss | score |      nodes      |   time"
    )?;
    writeln!(
        out,
        "----+---------+---------+------+-------+------+------+-------+-----------------+---------"
    )?;
    let (mut summary, mut skipped) = (Summary::default(), 0);
    for (i, entry) in entries.iter().enumerate() {
        let judged = match accuracy::judge(&mut searcher, entry, &limits) {
            Ok(judged) => judged,
            Err(AccuracyError::NoChoice) => {
                skipped += 1;
                continue;
            }
            Err(e) => return Err(format!("{} position {}: {e}", path.display(), i + 1).into()),
        };
        summary.add(&judged);
        writeln!(
            out,
            "{:>3} | {:>7} | {:>7} | {:>4} | {:>5} | {:>+4} | {:>4} | {:>+5} | {:>15} | {:>7.3}",
            i + 1,
            entry.position.empty_count(),
            judged.result.depth.label(),
            judged.chosen.to_string(),
            judged
                .chosen_score
                .map_or("<".to_string(), |s| format!("{s:+}")),
            judged.best_score,
            judged.loss().map_or("?".to_string(), |l| l.to_string()),
            judged.result.score,
            judged.result.nodes,
            judged.result.elapsed.as_secs_f64()
        )?;
    }
    writeln!(
        out,
        "accuracy depth {depth} at {selectivity}: {} positions, optimal {} ({:.1}%), \
         average loss {}, score error: mean {:.2} discs, within 3 discs {:.1}%, \
         mean signed {:+.2}; {:.0} nodes/position, {:.1} s{}",
        summary.positions,
        summary.optimal,
        summary.optimal_percent(),
        match summary.average_loss() {
            Some(loss) => format!("{loss:.2} discs"),
            None => format!(
                "not known ({} chosen moves are outside their positions' lists of best moves)",
                summary.positions - summary.losses_known
            ),
        },
        summary.mean_abs_error(),
        summary.within_3_percent(),
        summary.mean_signed_error(),
        summary.nodes_per_position(),
        summary.seconds,
        if skipped > 0 {
            format!(" ({skipped} positions without a move to choose skipped)")
        } else {
            String::new()
        }
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `bench --accuracy FILE --depths MIN-MAX`: the positions searched at
/// every depth of the range; a row of figures per depth, then the means over
/// the odd and the even depths (their difference is the parity bias of the
/// scores).
fn run_accuracy_depths(
    path: &std::path::Path,
    range: DepthRange,
    selectivity: Selectivity,
) -> Result<ExitCode, Box<dyn Error>> {
    let entries = read_positions(path)?;
    let mut searcher = Searcher::warmed(BENCH_HASH_MIB);
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "accuracy of {} at {selectivity}: {} positions",
        path.display(),
        entries.len()
    )?;
    writeln!(
        out,
        "depth | positions | optimal | avg loss | score MAE | within 3 | signed | nodes/position"
    )?;
    writeln!(
        out,
        "------+-----------+---------+----------+-----------+----------+--------+---------------"
    )?;
    let (mut odd, mut even) = (Summary::default(), Summary::default());
    for depth in range.min..=range.max {
        let limits = Limits {
            depth: Some(depth),
            selectivity,
            ..Limits::default()
        };
        let mut summary = Summary::default();
        for (i, entry) in entries.iter().enumerate() {
            match accuracy::judge(&mut searcher, entry, &limits) {
                Ok(judged) => summary.add(&judged),
                Err(AccuracyError::NoChoice) => {}
                Err(e) => {
                    return Err(format!("{} position {}: {e}", path.display(), i + 1).into());
                }
            }
        }
        write_depth_row(&mut out, &depth.to_string(), &summary)?;
        if depth % 2 == 1 { &mut odd } else { &mut even }.merge(&summary);
    }
    for (name, summary) in [("odd", &odd), ("even", &even)] {
        if summary.positions > 0 {
            write_depth_row(&mut out, name, summary)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn write_depth_row(
    out: &mut impl std::io::Write,
    name: &str,
    summary: &Summary,
) -> std::io::Result<()> {
    writeln!(
        out,
        "{name:>5} | {:>9} | {:>6.1}% | {:>8} | {:>9.2} | {:>7.1}% | {:>+6.2} | {:>14.0}",
        summary.positions,
        summary.optimal_percent(),
        summary
            .average_loss()
            .map_or("?".to_string(), |loss| format!("{loss:.2}")),
        summary.mean_abs_error(),
        summary.within_3_percent(),
        summary.mean_signed_error(),
        summary.nodes_per_position()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_ranges_parse() {
        assert_eq!("10-20".parse(), Ok(DepthRange { min: 10, max: 20 }));
        assert_eq!("9".parse(), Ok(DepthRange { min: 9, max: 9 }));
        for bad in ["20-10", "0-5", "1-61", "x", "", "5-"] {
            assert!(bad.parse::<DepthRange>().is_err(), "{bad}");
        }
    }

    #[test]
    fn bench_file_parses() {
        let positions = parse_bench(BENCH_POSITIONS).unwrap();
        assert_eq!(positions.iter().filter(|p| p.endgame).count(), 4);
        assert_eq!(positions.iter().filter(|p| !p.endgame).count(), 8);
        assert!(positions.iter().all(|p| p.position.legal_moves() != 0));
    }
}
