//! The `oxello` binary: parse the command line, run it, map errors to a
//! non-zero exit code. Logs go to stderr (`RUST_LOG=debug` for more).

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = oxello::cli::Cli::parse();
    match oxello::cli::run(cli) {
        Ok(code) => code,
        Err(error) if oxello::cli::is_closed_stdout(error.as_ref()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}
