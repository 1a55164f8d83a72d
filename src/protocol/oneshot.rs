//! One-shot mode: `oxello move POSITION` prints the best move and exits.
//!
//! POSITION is a board string, a transcript or a file (GGF record, board
//! string or transcript). The answer is the move (`f5`, or `pass` when the
//! side to move must pass), or with `--json` one object:
//!
//! ```text
//! {"move":"f5","score":0,"depth":"12","pv":["f5","d6","c3"],"nodes":123456,"time":0.123}
//! ```
//!
//! `depth` is `12` (midgame plies), `100%W` (win/loss/draw solve) or `100%`
//! (exact solve); `score` is the side to move's disc difference; `time` is in
//! seconds. A position that cannot be read, or a finished game, is an error
//! on stderr and exit code [`EXIT_BAD_POSITION`].

use crate::cli::MoveArgs;
use crate::engine::{Engine, EngineOptions, GoRequest};
use crate::formats::spec;
use crate::moves::Move;
use crate::search::SearchResult;
use std::error::Error;
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

/// Exit code for a position that cannot be read or has no move to play.
pub const EXIT_BAD_POSITION: u8 = 2;

/// The name of a move in the answer: `f5` or `pass`.
fn move_name(mv: Move) -> String {
    match mv.square() {
        Some(square) => square.to_string(),
        None => "pass".to_string(),
    }
}

/// A JSON string literal.
fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The `--json` answer.
pub fn format_json(result: &SearchResult) -> String {
    let mv = result
        .best
        .map(move_name)
        .unwrap_or_else(|| "pass".to_string());
    let pv: Vec<String> = result
        .pv
        .iter()
        .map(|mv| json_string(&move_name(*mv)))
        .collect();
    format!(
        "{{\"move\":{},\"score\":{},\"depth\":{},\"pv\":[{}],\"nodes\":{},\"time\":{:.3}}}",
        json_string(&mv),
        result.score,
        json_string(&result.depth.label()),
        pv.join(","),
        result.nodes,
        result.elapsed.as_secs_f64()
    )
}

/// Prints the best move of the position in `args`.
pub fn run(args: &MoveArgs, options: EngineOptions) -> Result<ExitCode, Box<dyn Error>> {
    let game = match spec::read_game(&args.position, args.size) {
        Ok(game) => game,
        Err(error) => {
            eprintln!("error: position '{}': {error}", args.position);
            return Ok(ExitCode::from(EXIT_BAD_POSITION));
        }
    };
    if game.is_over() {
        eprintln!(
            "error: position '{}': the game is over, there is no move to play",
            args.position
        );
        return Ok(ExitCode::from(EXIT_BAD_POSITION));
    }
    let mut engine = Engine::new(options);
    engine.set_game(game);
    let result = engine
        .think(GoRequest::default())
        .ok_or("the search ended without a result")?;
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", format_json(&result))?;
    } else {
        let mv = result
            .best
            .map(move_name)
            .unwrap_or_else(|| "pass".to_string());
        writeln!(out, "{mv}")?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Bound, Depth};
    use std::time::Duration;

    #[test]
    fn json_answer() {
        let result = SearchResult {
            best: Some(Move::Pass),
            score: -3,
            bound: Bound::Exact,
            depth: Depth::Exact,
            pv: vec![Move::Pass],
            lines: Vec::new(),
            nodes: 7,
            elapsed: Duration::from_millis(1500),
            stopped: None,
        };
        assert_eq!(
            format_json(&result),
            r#"{"move":"pass","score":-3,"depth":"100%","pv":["pass"],"nodes":7,"time":1.500}"#
        );
        assert_eq!(json_string("a\"b\u{1}"), "\"a\\\"b\\u0001\"");
    }
}
