//! The kernel both games share: the stop signal, the number of search
//! threads, the simple players' names, and the engine thread that runs a
//! game's search ([`worker`]). Nothing here knows a board.

pub mod players;
pub mod span;
pub mod stop;
pub mod threads;
pub mod worker;

pub use players::SimplePlayer;
pub use stop::StopSignal;
pub use threads::{MAX_THREADS, default_threads, parse_threads};
pub use worker::{Event, GameSearch, Worker};
