//! `oxello train-eval`: fits the pattern evaluation to WTHOR game files.

use crate::cli::TrainEvalArgs;
use crate::eval::train::{Samples, TrainOptions, train};
use crate::formats::wthor;
use std::error::Error;
use std::io::Write as _;
use std::process::ExitCode;
use std::time::Instant;

/// Reads every `.wtb` file of the folder, trains, writes the weight file.
pub fn run(args: &TrainEvalArgs) -> Result<ExitCode, Box<dyn Error>> {
    let started = Instant::now();
    let paths = crate::formats::files_with_extension(&args.wthor, "wtb")
        .map_err(|e| format!("cannot read {}: {e}", args.wthor.display()))?;
    if paths.is_empty() {
        return Err(format!("no .wtb file in {}", args.wthor.display()).into());
    }
    let mut samples = Samples::default();
    for path in &paths {
        let bytes = wthor::read_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let file = wthor::parse_wtb(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        samples.add_file(&file);
    }
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
    writeln!(
        out,
        "phase | empties | training | validation | rms error | rms of 0"
    )?;
    let options = TrainOptions {
        epochs: args.epochs,
        ..TrainOptions::default()
    };
    // A closed stdout is noticed at the report below; the training goes on
    // and writes its weights.
    let (weights, _) = train(&samples, options, &mut |r| {
        let low = r.phase * crate::eval::patterns::EMPTIES_PER_PHASE;
        let _ = writeln!(
            out,
            "{:5} | {:2}-{:<4} | {:8} | {:10} | {:9.2} | {:8.2}",
            r.phase,
            low,
            low + crate::eval::patterns::EMPTIES_PER_PHASE - 1,
            r.training_samples,
            r.validation_samples,
            r.validation_rms,
            r.baseline_rms
        );
    });
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
