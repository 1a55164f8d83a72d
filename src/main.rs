//! The `oxello` binary: parse the command line, run it, map errors to an
//! exit code (see [`cli`]). Logs go to stderr (`RUST_LOG=debug` for more).

/// `eprintln!` for a closed standard error: a log or progress line that
/// cannot be written is dropped and the run goes on (`eprintln!` panics, and
/// `oxello match ... 2>&1 | head` would end the match after a game).
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let json = cli::json_requested(&args);
    let parsed = match cli::parse_from(&args) {
        Ok(parsed) => parsed,
        // Values with a line break are escaped first, so that joining
        // clap's lines does not change them.
        Err(error) if json && error.use_stderr() => {
            let rendered = cli::escape_values(&error.render().to_string(), &args);
            cli::print_json_error(&cli::clap_message(&rendered));
            return ExitCode::from(cli::EXIT_USAGE);
        }
        // A value with a line break or a tab, echoed in the message, would
        // spread it over lines that read as something else: clap's text
        // then shows such values escaped.
        Err(error) if error.use_stderr() && args.iter().any(|arg| cli::has_control(arg)) => {
            let text = cli::escape_values(&error.render().to_string(), &args);
            note!("{}", text.trim_end_matches('\n'));
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
                note!("error: {}", oxello::core::one_line(&error.to_string()));
            }
            ExitCode::from(cli::exit_code(error.as_ref()))
        }
    }
}
