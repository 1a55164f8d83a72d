//! One-shot mode: `oxello move POSITION` prints the best move and exits.

use crate::cli::MoveArgs;
use crate::engine::EngineOptions;
use std::error::Error;
use std::process::ExitCode;

/// Prints the best move of the position in `args`.
pub fn run(args: &MoveArgs, options: EngineOptions) -> Result<ExitCode, Box<dyn Error>> {
    let _ = (args, options);
    Err("one-shot mode is not built yet".into())
}
