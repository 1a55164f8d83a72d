//! The package's exceptions, and the guard that turns a Rust panic into
//! one: no error of the engine reaches Python as anything but an exception.

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use std::fmt::Display;
use std::panic::{AssertUnwindSafe, catch_unwind};

create_exception!(
    oxello,
    OxelloError,
    PyException,
    "An error of the oxello engine that is not the caller's input: a file that cannot be read, a search thread that ended without a result."
);
create_exception!(
    oxello,
    IllegalMoveError,
    PyValueError,
    "A move that is not legal (or not a move) in the position; the board is left as it was."
);
create_exception!(
    oxello,
    EngineError,
    OxelloError,
    "An engine outside the process failed: it crashed, answered late, sent an illegal move or output that cannot be read. `kind` names the fault as match files do (crash, timeout, illegal-move, bad-output, resigned) and `detail` says what happened."
);

/// A `ValueError` with the message of `error`.
pub fn value_error(error: impl Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// An [`OxelloError`] with the message of `error`.
pub fn oxello_error(error: impl Display) -> PyErr {
    OxelloError::new_err(error.to_string())
}

/// An `OSError` for a file that cannot be read (`FileNotFoundError` when it
/// is missing), its message naming the file.
pub fn file_error(path: &std::path::Path, error: impl Display) -> PyErr {
    let message = format!("{}: {error}", path.display());
    if path.exists() {
        pyo3::exceptions::PyOSError::new_err(message)
    } else {
        pyo3::exceptions::PyFileNotFoundError::new_err(message)
    }
}

/// Runs `f`, turning a panic into an [`OxelloError`] naming it, so that a
/// bug in the engine is an exception in Python, never a dead interpreter.
pub fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("unknown panic");
        Err(OxelloError::new_err(format!(
            "internal error in the oxello engine: {message}"
        )))
    })
}
