//! # oxello
//!
//! An Othello (Reversi) engine: bitboard move generation with exact perft
//! counts ([`movegen`], [`perft`]), notation and game files ([`formats`]),
//! the learned evaluation ([`eval`]), the midgame search and endgame solver
//! ([`search`]) behind the [`engine`] facade, the NBoard, GTP and console
//! protocols ([`protocol`]), engine matches ([`arena`]) and self-play
//! training records ([`selfplay`]). Gomoku, the second game, has its own
//! board and search in [`gomoku`]; its Gomocup protocol and console are in
//! [`protocol`]. What both games share (the stop signal, thread counts,
//! the engine thread) is in [`core`].
//!
//! The vocabulary types are re-exported here: [`Square`], [`Color`],
//! [`BoardSize`], [`Board`] (two bitboards relative to the side to move),
//! [`Move`], [`Position`] (board, colour to move, size) and [`Game`].
//!
//! Replaying a transcript and counting the tree below it:
//!
//! ```
//! use oxello::formats::transcript;
//! use oxello::perft::{perft, PassConvention};
//! use oxello::{BoardSize, Position};
//!
//! let game = transcript::parse_game("f5d6c3", Position::start(BoardSize::Eight)).unwrap();
//! let position = game.position();
//! assert_eq!(oxello::bitboard::squares(position.legal_moves()).count(), 4);
//! assert_eq!(perft(position.board, position.size, 3, PassConvention::PassIsPly), 135);
//! ```
//!
//! Solving a position exactly (the 4x4 board: White wins 11-3 with two
//! empty squares, -10 for Black when the empties go to the winner):
//!
//! ```
//! use oxello::search::{Limits, Searcher, StopSignal};
//! use oxello::{BoardSize, Position};
//!
//! let searcher = Searcher::new(1);
//! let limits = Limits { solve_empties: Some(64), ..Limits::default() };
//! let result = searcher.search(&Position::start(BoardSize::Four), &limits, &StopSignal::new(), &mut |_| {});
//! assert_eq!(result.score, -10);
//! ```

pub mod accuracy;
pub mod analysis;
pub mod arena;
pub mod bitboard;
pub mod board;
pub mod book;
pub mod color;
pub mod core;
pub mod diagram;
pub mod engine;
pub mod eval;
pub mod fitted;
pub mod formats;
pub mod game;
pub mod gomoku;
pub mod json;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod players;
pub mod position;
pub mod protocol;
pub mod search;
pub mod selfplay;
pub mod shard;
pub mod square;
pub mod svg;
pub mod train;

pub use bitboard::{BoardSize, Symmetry};
pub use board::{Board, IllegalMoveError};
pub use color::Color;
pub use game::Game;
pub use moves::{Move, MoveList};
pub use position::Position;
pub use square::Square;
