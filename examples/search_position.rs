//! Searches a position with the library's [`Searcher`] and prints the best
//! move, its score and the principal variation.
//!
//! ```text
//! cargo run --release --example search_position -- f5d6c3 8
//! ```
//!
//! The position is a transcript of moves from the start (default `f5d6`),
//! a 64-character board string with the side to move, or a file holding
//! either; the depth defaults to 6.

use oxello::BoardSize;
use oxello::formats::spec;
use oxello::search::{Limits, Searcher, StopSignal};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let position = args.next().unwrap_or_else(|| "f5d6".to_string());
    let depth = match args.next().map(|d| d.parse::<u32>()) {
        None => 6,
        Some(Ok(depth)) if (1..=60).contains(&depth) => depth,
        Some(_) => {
            eprintln!("usage: search_position [POSITION] [DEPTH 1-60]");
            return ExitCode::FAILURE;
        }
    };
    let game = match spec::read_game(&position, BoardSize::Eight) {
        Ok(game) => game,
        Err(e) => {
            eprintln!("{position}: {e}");
            return ExitCode::FAILURE;
        }
    };
    // One thread and a 16 MiB table; a depth limit makes the search
    // deterministic.
    let searcher = Searcher::new(16);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let result = searcher.search(&game.position(), &limits, &StopSignal::new(), &mut |_| {});
    let pv: Vec<String> = result.pv.iter().map(ToString::to_string).collect();
    match result.best {
        Some(best) => println!(
            "best {best} score {:+} depth {} nodes {} pv {}",
            result.score,
            result.depth,
            result.nodes,
            pv.join(" ")
        ),
        None => println!("no move: the game is over (score {:+})", result.score),
    }
    ExitCode::SUCCESS
}
