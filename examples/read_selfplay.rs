//! Reads an Othello self-play file (`oxello selfplay --output FILE`) and
//! prints how many games and positions it holds, and how the games ended.
//!
//! ```text
//! oxello selfplay --games 10 --level 4 --seed 1 --output games.jsonl
//! cargo run --release --example read_selfplay -- games.jsonl
//! ```
//!
//! The format follows the name: binary records for `.bin`, JSON lines
//! otherwise.

use oxello::selfplay::{Format, GameResult, Record};
use std::collections::BTreeSet;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: read_selfplay FILE");
        return ExitCode::FAILURE;
    };
    let format = if path.ends_with(".bin") {
        Format::Binary
    } else {
        Format::Jsonl
    };
    let records: Vec<Record> = match std::fs::read(&path)
        .map_err(|e| e.to_string())
        .and_then(|bytes| format.read_all(&bytes).map_err(|e| e.to_string()))
    {
        Ok(records) => records,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let games: BTreeSet<u32> = records.iter().map(|r| r.game).collect();
    // Each game's result, from its first record's side to move.
    let mut results = [0usize; 3];
    for game in &games {
        if let Some(first) = records.iter().find(|r| r.game == *game) {
            results[match first.result() {
                GameResult::Win => 0,
                GameResult::Draw => 1,
                GameResult::Loss => 2,
            }] += 1;
        }
    }
    println!(
        "{path}: {} games, {} positions; the side to move at a game's first record won {}, drew {}, lost {}",
        games.len(),
        records.len(),
        results[0],
        results[1],
        results[2]
    );
    ExitCode::SUCCESS
}
