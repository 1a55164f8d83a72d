//! `solve --checkpoint`'s signals: Ctrl-C and SIGTERM stop the solve,
//! which then saves its table.

use oxello::search::StopSignal;

/// With checkpoints, Ctrl-C and SIGTERM stop the solve, which saves one, and
/// a second signal ends the process at once (as during a long save); without
/// them, both end it as they always do. Returns the exit status of such a
/// stop: 128 plus the signal's number, 130 for Ctrl-C and 143 for SIGTERM.
pub fn catch_stops(stop: &StopSignal) -> Box<dyn Fn() -> u8> {
    let signal = stop.clone();
    let installed = ctrlc::set_handler(move || {
        if signal.is_stopped() {
            std::process::exit(130);
        }
        signal.stop();
    });
    if let Err(error) = installed {
        log::warn!("oxello: Ctrl-C is not caught, no checkpoint is saved on it: {error}");
    }
    #[cfg(unix)]
    {
        use signal_hook::{consts::SIGTERM, flag, low_level};
        use std::sync::Arc;
        use std::sync::atomic::{AtomicBool, Ordering};
        let terminated = Arc::new(AtomicBool::new(false));
        // The actions run in the order they were registered: a first SIGTERM
        // finds the stop flag down, marks the stop as SIGTERM's and then
        // raises the flag (so whoever sees the flag sees the mark), a second
        // finds the flag up and exits.
        let mut ids = Vec::new();
        let caught = flag::register_conditional_shutdown(SIGTERM, 143, stop.flag())
            .map(|id| ids.push(id))
            .and_then(|()| flag::register(SIGTERM, Arc::clone(&terminated)).map(|id| ids.push(id)))
            .and_then(|()| flag::register(SIGTERM, stop.flag()).map(|id| ids.push(id)));
        match caught {
            Ok(()) => {
                return Box::new(move || {
                    if terminated.load(Ordering::SeqCst) {
                        143
                    } else {
                        130
                    }
                });
            }
            Err(error) => {
                // Half a registration would swallow SIGTERM: undo it, so
                // that SIGTERM ends the process as it does by default.
                for id in ids {
                    low_level::unregister(id);
                }
                log::warn!("oxello: SIGTERM is not caught, no checkpoint is saved on it: {error}")
            }
        }
    }
    Box::new(|| 130)
}
