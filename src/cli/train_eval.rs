//! `oxello train-eval`: fits the pattern evaluation to WTHOR game files.

use super::EngineArgs;
use clap::Args;
use oxello::eval::train::{Samples, TrainOptions, train};
use oxello::formats::wthor;
use std::error::Error;
use std::io::Write as _;
use std::process::ExitCode;
use std::time::Instant;

/// Options of `oxello train-eval`.
#[derive(Debug, Args)]
pub struct TrainEvalArgs {
    /// Folder of WTHOR `.wtb` files.
    #[arg(long, default_value = "../shared/games/wthor")]
    pub wthor: std::path::PathBuf,
    /// Where to write the weights.
    #[arg(long, default_value = "src/eval/pattern-weights.bin")]
    pub out: std::path::PathBuf,
    /// Passes over the samples of each phase.
    #[arg(long, default_value_t = 8)]
    pub epochs: usize,
}

/// Reads every `.wtb` file of the folder, trains, writes the weight file.
pub fn run(args: &TrainEvalArgs, engine: &EngineArgs) -> Result<ExitCode, Box<dyn Error>> {
    engine.refuse("train-eval", super::ENGINE_OPTIONS)?;
    let started = Instant::now();
    let paths = oxello::formats::files_with_extension(&args.wthor, "wtb")
        .map_err(|e| format!("cannot read {}: {e}", args.wthor.display()))?;
    if paths.is_empty() {
        return Err(format!("no .wtb file in {}", args.wthor.display()).into());
    }
    let mut samples = Samples::default();
    let bar = super::progress::counting(paths.len() as u64, "files");
    for path in &paths {
        bar.inc(1);
        let bytes = wthor::read_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let file = wthor::parse_wtb(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        samples.add_file(&file);
    }
    bar.finish_and_clear();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{} files, {} games ({} skipped), {} training and {} validation positions ({:.1} s)",
        paths.len(),
        samples.games,
        samples.skipped,
        samples.training.len(),
        samples.validation.len(),
        started.elapsed().as_secs_f64()
    )?;
    // The previous evaluation's held-out error, phase by phase, to compare.
    let previous = oxello::eval::legacy::previous();
    let mut before = [(0.0f64, 0usize); oxello::eval::patterns::PHASES];
    for sample in &samples.validation {
        let phase = oxello::eval::patterns::phase(sample.board.empties().count_ones());
        let error = f64::from(previous.evaluate(sample.board) - i32::from(sample.label));
        before[phase].0 += error * error;
        before[phase].1 += 1;
    }
    writeln!(
        out,
        "phase | empties | training | validation | rms train | rms held-out | previous | rms of 0"
    )?;
    let options = TrainOptions {
        epochs: args.epochs,
        ..TrainOptions::default()
    };
    // A closed stdout is noticed at the report below; the training goes on
    // and writes its weights.
    let bar = super::progress::counting(oxello::eval::patterns::PHASES as u64, "phases");
    let (weights, _) = train(&samples, options, &mut |r| {
        bar.inc(1);
        let low = r.phase * oxello::eval::patterns::EMPTIES_PER_PHASE;
        let (sum, count) = before[r.phase];
        let _ = bar.suspend(|| {
            writeln!(
                out,
                "{:5} | {:2}-{:<4} | {:8} | {:10} | {:9.2} | {:12.2} | {:8.2} | {:8.2}",
                r.phase,
                low,
                low + oxello::eval::patterns::EMPTIES_PER_PHASE - 1,
                r.training_samples,
                r.validation_samples,
                r.training_rms,
                r.validation_rms,
                (sum / count.max(1) as f64).sqrt(),
                r.baseline_rms
            )
        });
        let _ = out.flush();
    });
    bar.finish_and_clear();
    let bytes = weights.encode();
    std::fs::write(&args.out, &bytes)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    writeln!(
        out,
        "wrote {} ({} bytes) in {:.1} s",
        args.out.display(),
        bytes.len(),
        started.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}
