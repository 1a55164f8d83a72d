//! The defaults of a self-play run, one list for `oxello selfplay` and the
//! Python package's `oxello.selfplay`, so that the same options play the
//! same games from either.

/// Level of the searches unless `--level` says otherwise.
pub const LEVEL: u32 = 8;
/// Table of each game's searcher unless `--hash` says otherwise, MiB.
pub const HASH_MIB: usize = 16;
/// Random moves after the standard start when no opening list is given.
pub const RANDOM_MOVES: u32 = 8;
/// Seed without the global `--seed`: a run is reproducible by default, and
/// resuming it needs no option.
pub const SEED: u64 = 1;
/// Gomoku: deepest iteration unless `--depth` says otherwise.
pub const GOMOKU_DEPTH: u32 = 8;
/// Gomoku: nodes per move unless `--nodes` says otherwise.
pub const GOMOKU_NODES: u64 = 20_000;
/// Gomoku: random opening stones unless `--random-moves` says otherwise.
pub const GOMOKU_RANDOM_STONES: u32 = 4;
/// Gomoku: moves are drawn while fewer stones are on the board.
pub const GOMOKU_RANDOM_PLIES: u32 = 8;
/// Gomoku: temperature of the move draw and of the policy (evaluation
/// units).
pub const GOMOKU_TEMPERATURE: f64 = 50.0;
/// Gomoku: moves drawn at most this far below the best (evaluation units).
pub const GOMOKU_MAX_LOSS: i32 = 100;
