//! Waiting for a search on the engine thread without holding the GIL, while
//! staying interruptible: the wait gives up the GIL in short slices, and
//! between them runs Python's signal handlers (`Python::check_signals`), so
//! that Ctrl-C raises `KeyboardInterrupt` in the REPL. Any exception there,
//! or from the caller's progress callback, raises the stop signal, waits
//! for the search to end (at once), and is raised.

use crate::errors::OxelloError;
use oxello::core::{Event, StopSignal};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Mutex, MutexGuard, TryLockError};
use std::time::Duration;

/// How long the wait gives up the GIL between two looks at the signals:
/// short enough that Ctrl-C feels immediate, long enough to cost nothing.
const SLICE: Duration = Duration::from_millis(20);

/// Locks what one Python thread at a time may use (an engine, an iterator),
/// or a `RuntimeError` saying `busy` when another thread has it: a thread
/// that waited for the lock holding the GIL would stop the other, which
/// takes the GIL between its waits.
pub fn claim<'a, T>(
    cell: &'a Mutex<T>,
    busy: impl FnOnce() -> String,
) -> PyResult<MutexGuard<'a, T>> {
    match cell.try_lock() {
        Ok(guard) => Ok(guard),
        Err(TryLockError::Poisoned(poisoned)) => Ok(poisoned.into_inner()),
        Err(TryLockError::WouldBlock) => Err(PyRuntimeError::new_err(busy())),
    }
}

/// A receiver the GIL-free waits can borrow (a `Receiver` is not `Sync`).
pub type Inbox<T> = Mutex<Receiver<T>>;

/// An inbox of `receiver`.
pub fn inbox<T>(receiver: Receiver<T>) -> Inbox<T> {
    Mutex::new(receiver)
}

/// What came of waiting for one message.
pub enum Received<T> {
    Message(T),
    /// The sender is gone.
    Closed,
}

/// Waits for the next message of `inbox`, the GIL released, Python's signal
/// handlers run every [`SLICE`]. On an exception from them `stop` is raised
/// and the exception returned; the caller then drains the search.
pub fn receive<T: Send>(
    py: Python<'_>,
    inbox: &Inbox<T>,
    stop: &StopSignal,
) -> PyResult<Received<T>> {
    loop {
        let received = py.detach(|| {
            inbox
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .recv_timeout(SLICE)
        });
        match received {
            Ok(message) => return Ok(Received::Message(message)),
            Err(RecvTimeoutError::Disconnected) => return Ok(Received::Closed),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(error) = py.check_signals() {
                    stop.stop();
                    return Err(error);
                }
            }
        }
    }
}

/// Waits for the end of a search whose events arrive on `inbox`, calling
/// `progress` for each finished iteration; returns its result. An error
/// (a signal, the callback's exception) stops the search, which is waited
/// for before the error is returned, so that the engine is free again.
pub fn finish<P: Send, R: Send>(
    py: Python<'_>,
    inbox: &Inbox<Event<P, R>>,
    stop: &StopSignal,
    progress: &mut dyn FnMut(Python<'_>, P) -> PyResult<()>,
) -> PyResult<R> {
    let failure = loop {
        match receive(py, inbox, stop) {
            Ok(Received::Message(Event::Progress(report))) => {
                if let Err(error) = progress(py, report) {
                    stop.stop();
                    break error;
                }
            }
            Ok(Received::Message(Event::Finished(result))) => return Ok(result),
            Ok(Received::Closed) => return Err(thread_gone()),
            Err(error) => break error,
        }
    };
    drain(py, inbox);
    Err(failure)
}

/// Waits, the GIL released, until the stopped search has sent its result
/// (or its thread is gone).
pub fn drain<P: Send, R: Send>(py: Python<'_>, inbox: &Inbox<Event<P, R>>) {
    py.detach(|| {
        let inbox = inbox
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        while let Ok(event) = inbox.recv() {
            if matches!(event, Event::Finished(_)) {
                break;
            }
        }
    });
}

/// The error of a search thread that ended without a result (it panicked).
pub fn thread_gone() -> PyErr {
    OxelloError::new_err(
        "the search thread ended without a result (an internal error); the engine has been reset",
    )
}
