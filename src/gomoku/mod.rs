//! Gomoku (n in a row), the second game: board and rules, line patterns,
//! renju's forbidden points, threat search (VCF, VCT), a pattern
//! evaluation, an alpha-beta search and the Gomocup (Piskvork) protocol.
//!
//! Nothing here touches the Othello board or search; the protocol plugs
//! into the same command loop ([`crate::protocol`]) and stop signal.

pub mod board;
pub mod console;
pub mod engine;
pub mod eval;
pub mod forbid;
pub mod gomocup;
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
