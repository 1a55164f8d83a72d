//! The integration tests, one crate: each module is a former test file, so
//! the suite links once (25 binaries linked one by one took most of a
//! fresh-clone `cargo test`). `common` and `protocol_util` are helpers.

mod common;
mod protocol_util;

mod analysis;
mod arena;
mod book;
mod cli_closed_stdout;
mod cli_files;
mod cli_fuzz;
mod cli_hash;
mod cli_newcomer;
mod cli_options;
mod cli_seed;
mod console_games;
mod endgame;
mod gomoku_console;
mod gomoku_match;
mod gomoku_protocol;
mod gomoku_rules;
mod gomoku_search;
mod movegen_oracle;
mod perft;
mod protocol_console;
mod protocol_gtp;
mod protocol_nboard;
mod protocol_oneshot;
mod protocol_piped;
mod real_data;
mod search;
mod selfplay;
mod selfplay_gomoku;
mod temp_files;
mod training;
