//! The line-oriented protocols on stdin/stdout: NBoard, GTP and the console.
//! (Being written: see `oneshot` for the one-shot mode.)

pub mod oneshot;

use crate::engine::EngineOptions;

/// Which protocol the command loop speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Start as the console; switch on `nboard` or a GTP command.
    Auto,
    Nboard,
    Gtp,
    Console,
}

/// Runs the command loop until `quit` or end of input.
pub fn run(mode: Mode, options: EngineOptions) -> std::io::Result<()> {
    let _ = (mode, options);
    Err(std::io::Error::other("protocols are not built yet"))
}
