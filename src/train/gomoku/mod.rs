//! The gomoku tools: fitting the evaluation's weights to games
//! ([`mod@tune`], `oxello train-eval --game gomoku`), the balanced opening list
//! ([`openings`], `oxello openings --game gomoku`), and where a teacher
//! engine's moves fall in the search's move order ([`order`], `oxello
//! move-order`).

mod logistic;
mod model;
pub mod openings;
pub mod order;
mod samples;
pub mod tune;
mod weights_file;

pub use tune::{TuneOptions, tune};
pub use weights_file::{file, scaled};
