//! The tools wing: training and fitting the engine's data, above the games,
//! evaluations and searches it fits (nothing below depends on it).
//!
//! - [`patterns`]: the Othello pattern evaluations (`oxello train-eval`),
//!   and the positions `oxello search-labels` searches;
//! - [`network`]: the 8x8 evaluation's network (`oxello train-eval
//!   --network`);
//! - [`probcut`]: the Multi-ProbCut parameters (`oxello fit-probcut`);
//! - [`gomoku`]: the gomoku evaluation's weights (`oxello train-eval --game
//!   gomoku`), the balanced opening list (`oxello openings`) and the move
//!   order against a teacher (`oxello move-order`);
//! - [`linalg`]: the linear solver the fitters share.

pub mod gomoku;
pub mod linalg;
pub mod network;
pub mod patterns;
pub mod probcut;
