//! Transcripts: the moves of a game written one after the other, `f5d6c3..`.
//!
//! Passes are implicit: when the side to move has no legal move but the
//! opponent has, the reader inserts the pass. Explicit passes (`PA`, `pass`,
//! `ps`, `--`, `@@`) are accepted too. Case does not matter, and spaces,
//! commas, semicolons, single dashes (`F5-D6`) and move numbers (`1. f5 d6
//! 2. c3`) may separate the moves. The writer prints lower-case squares with
//! no separators and no passes.

use crate::board::IllegalMoveError;
use crate::game::Game;
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;
use std::fmt;

/// Why a transcript was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TranscriptError {
    /// Text that is neither a move nor a separator, at this byte offset.
    Unreadable { offset: usize, text: String },
    /// The first illegal move: its number in the transcript (1-based,
    /// explicit passes counted) and why.
    Illegal {
        number: usize,
        error: IllegalMoveError,
    },
}

impl fmt::Display for TranscriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TranscriptError::Unreadable { offset, text } => {
                write!(
                    f,
                    "cannot read '{text}' at offset {offset} of the transcript"
                )
            }
            TranscriptError::Illegal { number, error } => write!(f, "move {number}: {error}"),
        }
    }
}

impl std::error::Error for TranscriptError {}

/// One token of a transcript.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token {
    Square(Square),
    Pass,
}

/// Splits a transcript into squares and explicit passes.
pub fn tokenize(text: &str) -> Result<Vec<(usize, Token)>, TranscriptError> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        let lower2 = rest.get(..2).map(|b| b.to_ascii_lowercase());
        if rest[0].is_ascii_whitespace() || matches!(rest[0], b',' | b';') {
            i += 1;
        } else if rest.len() >= 4 && rest[..4].eq_ignore_ascii_case(b"pass") {
            tokens.push((i, Token::Pass));
            i += 4;
        } else if matches!(lower2.as_deref(), Some(b"pa" | b"ps" | b"--" | b"@@")) {
            tokens.push((i, Token::Pass));
            i += if rest.starts_with(b"@@@@") { 4 } else { 2 };
        } else if let Some(square) = Square::parse_prefix(rest) {
            tokens.push((i, Token::Square(square)));
            i += 2;
        } else if rest[0] == b'-' {
            i += 1;
        } else if rest[0].is_ascii_digit() {
            // A move number such as "12." in "12. f5": digits then a dot.
            let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
            if rest.get(digits) != Some(&b'.') {
                return Err(unreadable(text, i));
            }
            i += digits + 1;
        } else {
            return Err(unreadable(text, i));
        }
    }
    Ok(tokens)
}

fn unreadable(text: &str, offset: usize) -> TranscriptError {
    let snippet: String = text[offset..].chars().take(8).collect();
    TranscriptError::Unreadable {
        offset,
        text: snippet,
    }
}

/// Replays a transcript from `start`. The error names the first illegal move.
pub fn parse_game(text: &str, start: Position) -> Result<Game, TranscriptError> {
    let mut game = Game::from_position(start);
    for (number, (_, token)) in tokenize(text)?.into_iter().enumerate() {
        let result = match token {
            Token::Square(square) => game.play_implicit(square).map(|_| ()),
            Token::Pass => game.play(Move::Pass),
        };
        result.map_err(|error| TranscriptError::Illegal {
            number: number + 1,
            error,
        })?;
    }
    Ok(game)
}

/// The transcript of a game: lower-case squares, passes left out.
pub fn format_game(game: &Game) -> String {
    format_moves(game.moves())
}

/// The transcript of a move sequence: lower-case squares, passes left out.
pub fn format_moves(moves: &[Move]) -> String {
    moves
        .iter()
        .filter_map(|mv| mv.square())
        .map(|square| square.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::BoardSize;
    use crate::board::IllegalReason;
    use rand::{Rng, SeedableRng};

    fn start() -> Position {
        Position::start(BoardSize::Eight)
    }

    #[test]
    fn reads_common_spellings() {
        let plain = parse_game("f5d6c3d3c4", start()).unwrap();
        for text in [
            "F5 d6 C3 d3 C4",
            "f5-d6-c3-d3-c4",
            "1. F5 d6 2. C3 d3 3. c4",
            "f5,d6,c3;d3 c4\n",
        ] {
            assert_eq!(parse_game(text, start()).unwrap(), plain, "{text}");
        }
        assert_eq!(format_game(&plain), "f5d6c3d3c4");
    }

    #[test]
    fn names_the_first_illegal_move() {
        let error = parse_game("f5d6a1c3", start()).unwrap_err();
        match error {
            TranscriptError::Illegal { number, ref error } => {
                assert_eq!(number, 3);
                assert_eq!(error.mv, "a1");
                assert_eq!(error.reason, IllegalReason::NoFlips);
            }
            other => panic!("unexpected {other:?}"),
        }
        assert!(error.to_string().contains("move 3"));
        assert!(matches!(
            parse_game("f5 zz", start()),
            Err(TranscriptError::Unreadable { offset: 3, .. })
        ));
        assert!(matches!(
            parse_game("f5 pa", start()),
            Err(TranscriptError::Illegal { number: 2, .. })
        ));
    }

    #[test]
    fn random_input_never_panics() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let alphabet: Vec<char> = "abcdefghpsPA12345678 -.,@é\u{7f}".chars().collect();
        for _ in 0..20_000 {
            let len = rng.random_range(0..40);
            let text: String = (0..len)
                .map(|_| alphabet[rng.random_range(0..alphabet.len())])
                .collect();
            if let Ok(game) = parse_game(&text, start()) {
                let again = parse_game(&format_game(&game), start()).unwrap();
                assert_eq!(again.position(), game.position());
            }
        }
    }
}
