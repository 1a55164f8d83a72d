//! Board strings: the squares in reading order (a1, b1, .., h1, a2, ..) then
//! the side to move, as Edax, OBF files and most engines write them.
//!
//! The reader is lenient, accepting the symbol sets of every engine and GUI
//! met in practice (whitespace anywhere is ignored):
//!
//! | Black          | White        | Empty    | Side to move                 |
//! |----------------|--------------|----------|------------------------------|
//! | `X x B b *`    | `O o W w`    | `- . _`  | a Black or White symbol, or the word `black`/`white` |
//!
//! Digits are read as Egaroucid writes them (`0` Black, `1` White) when a `1`
//! appears among the squares; otherwise a `0` is a White disc, as NBoard's
//! reader takes it. 16, 36 or 64 squares make a 4x4, 6x6 or 8x8 board. A
//! trailing `;` is allowed, as in OBF lines.
//!
//! The writer is strict: `X`, `O`, `-`, a space, then `X` or `O`.

use crate::bitboard::BoardSize;
use crate::color::Color;
use crate::position::Position;
use std::fmt;

/// Why a board string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardStringError {
    /// A character that is no square symbol, at this character offset.
    BadSymbol { offset: usize, found: char },
    /// The number of symbols (squares and the side to move) is not 17, 37
    /// or 65; a board string longer than any is counted in bytes.
    WrongLength { symbols: usize },
    /// No side to move after the squares.
    MissingSide,
    /// The side to move is not a Black or White symbol.
    BadSide { found: String },
}

impl fmt::Display for BoardStringError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardStringError::BadSymbol { offset, found } => {
                write!(
                    f,
                    "unexpected character {found:?} at offset {offset} in board string"
                )
            }
            BoardStringError::WrongLength { symbols } => {
                write!(
                    f,
                    "board string has {symbols} symbols (expected 16, 36 or 64 squares, then \
                     the side to move)"
                )
            }
            BoardStringError::MissingSide => {
                f.write_str("board string lacks the side to move (X or O)")
            }
            BoardStringError::BadSide { found } => {
                write!(f, "'{found}' is not a side to move (X or O)")
            }
        }
    }
}

impl std::error::Error for BoardStringError {}

/// A square symbol read from a board string.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Symbol {
    Black,
    White,
    Empty,
    /// `0`, whose colour depends on whether digits encode the colours.
    Zero,
    /// `1`, White in digit encoding.
    One,
}

fn symbol(c: char) -> Option<Symbol> {
    match c {
        'X' | 'x' | 'B' | 'b' | '*' => Some(Symbol::Black),
        'O' | 'o' | 'W' | 'w' => Some(Symbol::White),
        '-' | '.' | '_' => Some(Symbol::Empty),
        '0' => Some(Symbol::Zero),
        '1' => Some(Symbol::One),
        _ => None,
    }
}

/// Longest input considered: generous for any spacing of 64 squares.
const MAX_BOARD_STRING: usize = 4096;

/// Reads a board string into a position (see the module header).
pub fn parse_position(text: &str) -> Result<Position, BoardStringError> {
    let text = text.trim().trim_end_matches(';').trim_end();
    if text.len() > MAX_BOARD_STRING {
        return Err(BoardStringError::WrongLength {
            symbols: text.len(),
        });
    }
    let lower = text.to_ascii_lowercase();
    let (body, side) = if let Some(body) = lower.strip_suffix("black") {
        (&text[..body.len()], Some(Color::Black))
    } else if let Some(body) = lower.strip_suffix("white") {
        (&text[..body.len()], Some(Color::White))
    } else {
        (text, None)
    };
    let mut symbols: Vec<(usize, char)> = body
        .char_indices()
        .filter(|(_, c)| !c.is_whitespace())
        .collect();
    let side = match side {
        Some(side) => side,
        None => {
            if !matches!(symbols.len(), 17 | 37 | 65) {
                return match symbols.len() {
                    16 | 36 | 64 => Err(BoardStringError::MissingSide),
                    n => Err(BoardStringError::WrongLength { symbols: n }),
                };
            }
            let (_, c) = symbols.pop().expect("length checked above");
            match c {
                'X' | 'x' | 'B' | 'b' | '*' | '0' => Color::Black,
                'O' | 'o' | 'W' | 'w' | '1' => Color::White,
                other => {
                    return Err(BoardStringError::BadSide {
                        found: other.to_string(),
                    });
                }
            }
        }
    };
    let size = BoardSize::from_n(match symbols.len() {
        16 => 4,
        36 => 6,
        64 => 8,
        n => return Err(BoardStringError::WrongLength { symbols: n }),
    })
    .expect("4, 6 and 8 are sizes");
    let mut read = Vec::with_capacity(symbols.len());
    for &(offset, c) in &symbols {
        read.push(symbol(c).ok_or(BoardStringError::BadSymbol { offset, found: c })?);
    }
    let digits = read.contains(&Symbol::One);
    let (mut black, mut white) = (0u64, 0u64);
    for (square, symbol) in size.reading_order().zip(read) {
        match symbol {
            Symbol::Black => black |= square.bit(),
            Symbol::White | Symbol::One => white |= square.bit(),
            Symbol::Zero if digits => black |= square.bit(),
            Symbol::Zero => white |= square.bit(),
            Symbol::Empty => {}
        }
    }
    Ok(Position::from_colors(black, white, side, size))
}

/// The squares of a position, `X`/`O`/`-`, in reading order, no side.
pub fn format_squares(position: &Position) -> String {
    position
        .size
        .reading_order()
        .map(|square| match position.disc(square) {
            Some(color) => color.symbol(),
            None => '-',
        })
        .collect()
}

/// The strict board string: squares, a space, the side to move.
pub fn format_position(position: &Position) -> String {
    format!("{} {}", format_squares(position), position.side.symbol())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    const START: &str = "---------------------------OX------XO--------------------------- X";

    #[test]
    fn start_position_round_trips() {
        let position = parse_position(START).unwrap();
        assert_eq!(position, Position::start(BoardSize::Eight));
        assert_eq!(format_position(&position), START);
    }

    #[test]
    fn lenient_symbols_and_layouts() {
        let edax = "........ ........ ........ ...ox... ...xo... ........ ........ ........ x";
        let nboard =
            "--------\n--------\n--------\n---O*---\n---*O---\n--------\n--------\n-------- *";
        let digits = "___________________________10______01___________________________ 0";
        let words = "---------------------------WB------BW--------------------------- black";
        for text in [
            edax,
            nboard,
            digits,
            words,
            "  ---------------------------OX------XO--------------------------- X; ",
        ] {
            assert_eq!(
                parse_position(text).unwrap(),
                Position::start(BoardSize::Eight),
                "{text}"
            );
        }
    }

    #[test]
    fn small_boards() {
        let four = parse_position("-----OX--XO----- X").unwrap();
        assert_eq!(four, Position::start(BoardSize::Four));
        let six = Position::start(BoardSize::Six);
        assert_eq!(parse_position(&format_position(&six)).unwrap(), six);
    }

    #[test]
    fn errors_are_typed() {
        assert_eq!(
            parse_position(&START[..64]),
            Err(BoardStringError::MissingSide)
        );
        assert!(matches!(
            parse_position("XO"),
            Err(BoardStringError::WrongLength { .. })
        ));
        let bad = START.replacen('O', "?", 1);
        assert!(matches!(
            parse_position(&bad),
            Err(BoardStringError::BadSymbol {
                found: '?',
                offset: 27
            })
        ));
        let bad_side = format!("{} -", &START[..64]);
        assert!(matches!(
            parse_position(&bad_side),
            Err(BoardStringError::BadSide { .. })
        ));
    }

    #[test]
    fn random_input_never_panics() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let alphabet: Vec<char> = "XOxo-.*_01 \n;bwé\u{0}".chars().collect();
        for _ in 0..20_000 {
            let len = rng.random_range(0..80);
            let text: String = (0..len)
                .map(|_| alphabet[rng.random_range(0..alphabet.len())])
                .collect();
            if let Ok(position) = parse_position(&text) {
                assert_eq!(
                    parse_position(&format_position(&position)).unwrap(),
                    position
                );
            }
        }
    }
}
