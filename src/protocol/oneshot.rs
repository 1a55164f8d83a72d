//! One-shot mode: `oxello move POSITION` prints the best move and exits.
//!
//! POSITION is a board string, a transcript or a file (GGF record, board
//! string or transcript). The answer is the move (`f5`, or `pass` when the
//! side to move must pass), or with `--json` one search result object of
//! the schema of [`crate::json`]:
//!
//! ```text
//! {"move":"f5","score":0,"bound":"exact","search":"midgame","depth":12,"selectivity":73,"pv":["f5","d6","c3"],"nodes":123456,"time":0.123,"nps":1003707}
//! ```
//!
//! A position that cannot be read, or a finished game, is a [`OneShotError`].

use crate::bitboard::BoardSize;
use crate::engine::{Engine, EngineOptions, GoRequest};
use crate::formats::spec;
use crate::game::Game;
use crate::json::{SearchJson, move_name, to_line};
use std::error::Error;
use std::fmt;
use std::io::Write as _;

/// What to answer: the position, as the command line gives it, and how.
#[derive(Clone, Debug, Default)]
pub struct OneShot {
    /// A board string, a transcript, or the path of a file holding either
    /// or a GGF game.
    pub position: String,
    /// Board size of transcripts.
    pub size: BoardSize,
    /// Answer with a JSON search result instead of the move alone.
    pub json: bool,
}

/// Why there is no move to answer.
#[derive(Debug)]
pub enum OneShotError {
    /// The position cannot be read.
    Position {
        position: String,
        error: spec::SpecError,
    },
    /// The game is over: there is no move to play.
    GameOver { position: String },
    /// The search gave no result.
    NoResult,
}

impl fmt::Display for OneShotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // A file error names the file itself.
            OneShotError::Position {
                error: spec::SpecError::File(error),
                ..
            } => write!(f, "position: {error}"),
            OneShotError::Position { position, error } => {
                write!(f, "position '{position}': {error}")
            }
            OneShotError::GameOver { position } => write!(
                f,
                "position '{position}': the game is over, there is no move to play"
            ),
            OneShotError::NoResult => f.write_str("the search ended without a result"),
        }
    }
}

impl Error for OneShotError {}

/// Reads the position of `request`.
pub fn read(request: &OneShot) -> Result<Game, OneShotError> {
    spec::read_game(&request.position, request.size).map_err(|error| OneShotError::Position {
        position: request.position.clone(),
        error,
    })
}

/// Searches `game`, read from `request` by [`read`], and prints the answer
/// on stdout.
pub fn answer(request: &OneShot, game: Game, options: EngineOptions) -> Result<(), Box<dyn Error>> {
    if game.is_over() {
        return Err(OneShotError::GameOver {
            position: request.position.clone(),
        }
        .into());
    }
    let position = game.position();
    let mut engine = Engine::new(options);
    engine.set_game(game);
    let result = engine
        .think(GoRequest::default())
        .ok_or(OneShotError::NoResult)?;
    let mut out = std::io::stdout().lock();
    if request.json {
        writeln!(out, "{}", to_line(&SearchJson::new(&position, &result)))?;
    } else {
        let mv = result.best.map_or_else(|| "pass".to_string(), move_name);
        writeln!(out, "{mv}")?;
    }
    Ok(())
}
