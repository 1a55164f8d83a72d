//! The `oxello` binary: parse the command line, run it, map errors to an
//! exit code (see [`cli`]). Logs go to stderr (`RUST_LOG=debug` for more).

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let json = cli::json_requested(std::env::args_os());
    let parsed = match cli::Cli::try_parse() {
        Ok(parsed) => parsed,
        Err(error) if json && error.use_stderr() => {
            let rendered = error.render().to_string();
            let first = rendered.lines().next().unwrap_or_default();
            cli::print_json_error(first.trim_start_matches("error: "));
            return ExitCode::from(cli::EXIT_USAGE);
        }
        Err(error) => error.exit(),
    };
    match cli::run(parsed) {
        Ok(code) => code,
        Err(error) if cli::is_closed_stdout(error.as_ref()) => ExitCode::SUCCESS,
        Err(error) => {
            if json {
                cli::print_json_error(&error.to_string());
            } else {
                eprintln!("error: {error}");
            }
            ExitCode::from(cli::exit_code(error.as_ref()))
        }
    }
}
