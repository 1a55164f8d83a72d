//! Text and binary formats, one module each, every one with a typed parse
//! error, a writer and round-trip tests.

pub mod board_string;
pub mod ggf;
pub mod obf;
pub mod openings;
pub mod spec;
pub mod transcript;
pub mod wthor;
