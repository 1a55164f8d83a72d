//! `pbrain-oxello`: the gomoku engine under the name Gomocup managers
//! (Piskvork, c-gomoku-cli, GomocupJudge, liskvork) expect. It speaks only
//! the Gomocup protocol on stdin/stdout; logs go to stderr.

use std::process::ExitCode;

fn main() -> ExitCode {
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
