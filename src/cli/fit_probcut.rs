//! `oxello fit-probcut`: samples WTHOR positions, searches them, fits the
//! Multi-ProbCut parameters and writes them.

use super::EngineArgs;
use clap::Args;
use oxello::formats::wthor;
use oxello::position::Position;
use oxello::search::Searcher;
use oxello::search::params::ENDGAME_PROBCUT_MIN_EMPTIES;
use oxello::search::probcut::MIDGAME_SAMPLED_EMPTIES;
use oxello::train::probcut::{self, FitOptions, Sample};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::error::Error;
use std::io::Write as _;
use std::process::ExitCode;
use std::time::Instant;

/// Options of `oxello fit-probcut`.
#[derive(Debug, Args)]
pub struct FitProbcutArgs {
    /// Folder of WTHOR `.wtb` files.
    #[arg(long, default_value = "../shared/games/wthor")]
    pub wthor: std::path::PathBuf,
    /// Where to write the parameters [default: fitted/probcut.bin].
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Midgame sample positions.
    #[arg(long, default_value_t = 400, value_parser = super::positive_usize, allow_negative_numbers = true)]
    pub positions: usize,
    /// Endgame sample positions (solved exactly).
    #[arg(long, default_value_t = 300, value_parser = super::positive_usize, allow_negative_numbers = true)]
    pub endgame_positions: usize,
    /// Deepest midgame search of a sample, 3 to 18 (a sample searches every
    /// depth up to it).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(3..=18), allow_negative_numbers = true)]
    pub max_depth: u32,
    /// Most empties of an endgame sample, 12 to 26 (each sample is solved
    /// exactly: 26 empties take minutes a sample).
    #[arg(long, default_value_t = 22, value_parser = clap::value_parser!(u32).range(12..=26), allow_negative_numbers = true)]
    pub max_endgame_empties: u32,
}

/// Seed of fit-probcut's sampling without `--seed`: its parameters are
/// reproducible by default.
pub const DEFAULT_FIT_SEED: u64 = 1;

/// Midgame samples come from positions with this many empties.
const MIDGAME_EMPTIES: std::ops::RangeInclusive<u32> =
    MIDGAME_SAMPLED_EMPTIES.0..=MIDGAME_SAMPLED_EMPTIES.1;

/// `count` positions drawn at random with empties in `range`.
fn draw(
    positions: &[Position],
    range: std::ops::RangeInclusive<u32>,
    count: usize,
    rng: &mut StdRng,
) -> Vec<Position> {
    let pool: Vec<&Position> = positions
        .iter()
        .filter(|p| range.contains(&p.empty_count()))
        .collect();
    (0..count.min(pool.len()))
        .map(|_| *pool[rng.random_range(0..pool.len())])
        .collect()
}

pub fn run(args: &FitProbcutArgs, engine: &EngineArgs) -> Result<ExitCode, Box<dyn Error>> {
    let out_path = super::output_or_default(args.out.as_deref(), "fitted/probcut.bin")?;
    let seed = engine.seed.unwrap_or(DEFAULT_FIT_SEED);
    let started = Instant::now();
    let options = FitOptions {
        max_depth: args.max_depth,
        ..FitOptions::default()
    };
    // A line on stderr every 50 samples.
    let progress = |kind: &str, done: usize, total: usize| {
        if done.is_multiple_of(50) {
            let seconds = started.elapsed().as_secs_f64();
            note!("{kind} {done}/{total} ({seconds:.0} s)");
        }
    };
    let all = wthor::folder_positions(&args.wthor)?;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut searcher = Searcher::warmed(64);
    let mut midgame = Vec::new();
    for (i, position) in draw(&all, MIDGAME_EMPTIES, args.positions, &mut rng)
        .iter()
        .enumerate()
    {
        searcher.clear();
        let scores = probcut::depth_scores(
            &mut searcher,
            position,
            options.max_depth,
            options.nodes_per_sample,
        );
        midgame.push(Sample {
            empties: position.empty_count(),
            scores,
            exact: None,
        });
        progress("midgame", i + 1, args.positions);
    }
    let endgame_range = ENDGAME_PROBCUT_MIN_EMPTIES..=args.max_endgame_empties;
    let mut endgame = Vec::new();
    for (i, position) in draw(&all, endgame_range, args.endgame_positions, &mut rng)
        .iter()
        .enumerate()
    {
        searcher.clear();
        let exact = probcut::exact_score(&mut searcher, position);
        searcher.clear();
        let scores = probcut::depth_scores(
            &mut searcher,
            position,
            options.max_endgame_shallow,
            options.nodes_per_sample,
        );
        endgame.push(Sample {
            empties: position.empty_count(),
            scores,
            exact: Some(exact),
        });
        progress("endgame", i + 1, args.endgame_positions);
    }
    let mut out = std::io::stdout().lock();
    // A closed stdout is noticed at the report below; the fit goes on.
    let parameters = probcut::fit(&midgame, &endgame, &options, &mut |line| {
        let _ = writeln!(out, "{line}");
    });
    let header = format!(
        "Multi-ProbCut parameters, written by `oxello fit-probcut` (see src/search/probcut.rs).\n\
         {} midgame samples ({}-{} empties, depth <= {}), {} endgame samples ({}-{} empties), seed {}.",
        midgame.len(),
        MIDGAME_EMPTIES.start(),
        MIDGAME_EMPTIES.end(),
        args.max_depth,
        endgame.len(),
        ENDGAME_PROBCUT_MIN_EMPTIES,
        args.max_endgame_empties,
        seed
    );
    let text = parameters.to_text(&header);
    std::fs::write(&out_path, parameters.encode())
        .map_err(|e| format!("cannot write {}: {e}", out_path.display()))?;
    write!(out, "{text}")?;
    writeln!(
        out,
        "wrote {} in {:.0} s",
        out_path.display(),
        started.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}
