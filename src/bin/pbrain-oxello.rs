//! `pbrain-oxello`: the gomoku engine under the name Gomocup managers
//! (Piskvork, c-gomoku-cli, GomocupJudge, liskvork) expect. It speaks only
//! the Gomocup protocol on stdin/stdout; logs go to stderr. Managers start
//! it without arguments; `--help` and `--version` answer and exit, and any
//! other argument is refused (exit code 2).

use std::process::ExitCode;

const HELP: &str = "\
pbrain-oxello: the oxello gomoku engine for Gomocup managers (Piskvork, c-gomoku-cli, ...)

Usage: pbrain-oxello [--help | --version]

Without arguments it reads the Gomocup protocol on standard input (START,
BEGIN, TURN, BOARD, INFO, END, ...) and answers on standard output; the
manager sets the time and memory with INFO. `oxello gomocup` is the same
brain with command-line options, and `oxello console --game gomoku` plays
against a person. Logs go to standard error (RUST_LOG=debug for more).";

fn main() -> ExitCode {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    match arguments.first().map(String::as_str) {
        None => {}
        Some("--help" | "-h") if arguments.len() == 1 => {
            println!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Some("--version" | "-V") if arguments.len() == 1 => {
            println!("pbrain-oxello {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Some(_) => {
            eprintln!(
                "error: pbrain-oxello takes no arguments but --help or --version (got '{}'); \
                 Gomocup managers configure it with INFO",
                arguments.join(" ")
            );
            return ExitCode::from(2);
        }
    }
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    match oxello::protocol::run(
        oxello::protocol::Mode::Gomocup,
        oxello::engine::EngineOptions::default(),
        oxello::gomoku::engine::EngineOptions::default(),
    ) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}
