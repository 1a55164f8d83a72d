//! The kernel both games share: the stop signal, the number of search
//! threads, the simple players' names, the engine thread that runs a
//! game's search ([`worker`]), and quoted text escaped to one line for
//! error messages ([`one_line`]). Nothing here knows a board.

pub mod players;
pub mod span;
pub mod stop;
pub mod text;
pub mod threads;
pub mod worker;

pub use players::SimplePlayer;
pub use stop::StopSignal;
pub use text::one_line;
pub use threads::{MAX_THREADS, default_threads, parse_threads};
pub use worker::{Event, GameSearch, Worker};
