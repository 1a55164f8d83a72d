//! Gomoku (n in a row), the second game: board and rules, line patterns,
//! renju's forbidden points, threat search (VCF, VCT), a pattern
//! evaluation and an alpha-beta search, run by the engine thread both games
//! share ([`engine`]).
//!
//! Nothing here touches the Othello board or search, nor the protocols: the
//! Gomocup protocol and the gomoku console live in [`crate::protocol`].

pub mod board;
pub mod engine;
pub mod eval;
pub mod forbid;
pub mod openings;
pub mod pattern;
pub mod players;
pub mod rules;
pub mod search;
pub mod sgf;
pub mod text;
pub mod threat;
pub mod vcf;

pub use board::{Board, PlayError, Point, Status};
pub use rules::{Config, Rule};
