//! Text and binary formats, one module each, every one with a typed parse
//! error, a writer and round-trip tests.

pub mod board_string;
pub mod transcript;
