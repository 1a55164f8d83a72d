//! # oxello
//!
//! An Othello (Reversi) engine: bitboard move generation with exact perft
//! counts, notation and game files, and (in later modules) search, endgame
//! solving and the NBoard / GTP protocols.
//!
//! The vocabulary types are re-exported here: [`Square`], [`Color`],
//! [`BoardSize`], [`Board`] (two bitboards relative to the side to move),
//! [`Move`], [`Position`] (board, colour to move, size) and [`Game`].

#![warn(missing_docs)]
#![allow(missing_docs)]

pub mod analysis;
pub mod arena;
pub mod bitboard;
pub mod board;
pub mod cli;
pub mod cli_analyze;
pub mod cli_bench;
pub mod cli_game_analysis;
pub mod cli_match;
pub mod cli_solve;
pub mod color;
pub mod diagram;
pub mod engine;
pub mod eval;
pub mod formats;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod players;
pub mod position;
pub mod protocol;
pub mod search;
pub mod square;
pub mod svg;

pub use bitboard::{BoardSize, Symmetry};
pub use board::{Board, IllegalMoveError};
pub use color::Color;
pub use game::Game;
pub use moves::{Move, MoveList};
pub use position::Position;
pub use square::Square;
