//! Gomoku opening lists, in the two formats of c-gomoku-cli's opening
//! files: one opening per line, its stones in the order played (Black
//! first).
//!
//! * Offsets from the centre (c-gomoku-cli's `type=offset`, the Gomocup and
//!   Piskvork form): `dx,dy, dx,dy, ...`, for example `0,0, 1,0, 1,3`. The
//!   stone is at `x = dx + width / 2`, `y = dy + height / 2` (rounded
//!   down), so one list serves every board size.
//! * Moves in pos notation (`type=pos`): `h8i9j7`, the letter the column
//!   from `a`, the number the row from 1 (`h8` is `x = 7, y = 7`).
//!
//! The format is told line by line: a line starting with a letter is in
//! pos notation. Empty lines and lines starting with `#` are skipped
//! (c-gomoku-cli has no comments: keep them out of lists it shares).
//! Every opening must be playable on the board: stones on the board, on
//! empty points, no finished row, no forbidden point (renju).

use crate::gomoku::board::{Board, Point, Status};
use crate::gomoku::rules::Config;
use crate::gomoku::text::{format_pos, parse_moves};
use crate::gomoku::threat::is_legal;
use std::fmt;

/// An opening: stones in the order played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub moves: Vec<Point>,
}

impl Opening {
    /// The stones in pos notation, `h8i9j7`.
    pub fn text(&self) -> String {
        self.moves.iter().map(|&p| format_pos(p)).collect()
    }

    /// The stones as offsets from the centre of `config`'s board:
    /// `0,0, 1,0, 1,3`.
    pub fn offsets(&self, config: Config) -> String {
        let (cx, cy) = (config.width / 2, config.height / 2);
        let offsets: Vec<String> = self
            .moves
            .iter()
            .map(|p| {
                let dx = p.x as i64 - cx as i64;
                let dy = p.y as i64 - cy as i64;
                format!("{dx},{dy}")
            })
            .collect();
        offsets.join(", ")
    }

    /// The board after the opening (checked: see the module documentation).
    pub fn board(&self, config: Config) -> Result<Board, String> {
        let mut board = Board::new(config).map_err(|error| error.to_string())?;
        for &p in &self.moves {
            if board.contains(p) && board.is_empty(p.index()) {
                let me = board.to_move();
                if !is_legal(&board, p.index(), me) {
                    return Err(format!("{p} is forbidden to black"));
                }
            }
            match board.play(p).map_err(|error| error.to_string())? {
                Status::Ongoing => {}
                _ => return Err(format!("the game is over after {p}")),
            }
        }
        Ok(board)
    }
}

/// Why an opening list could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningError {
    /// From 1.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for OpeningError {}

/// Reads a list for the board of `config`.
pub fn parse_list(text: &str, config: Config) -> Result<Vec<Opening>, OpeningError> {
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let error = |message: String| OpeningError {
            line: number + 1,
            message,
        };
        let opening = parse_line(line, config).map_err(error)?;
        opening.board(config).map_err(error)?;
        openings.push(opening);
    }
    Ok(openings)
}

/// One opening in either format.
fn parse_line(line: &str, config: Config) -> Result<Opening, String> {
    if line.starts_with(|c: char| c.is_ascii_alphabetic()) {
        let moves = parse_moves(line).map_err(|error| error.to_string())?;
        return Ok(Opening { moves });
    }
    let numbers = line
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|word| !word.is_empty())
        .map(|word| {
            word.parse::<i64>()
                .map_err(|_| format!("'{word}' is not an offset"))
        })
        .collect::<Result<Vec<i64>, String>>()?;
    if numbers.len() % 2 != 0 {
        return Err(format!("{} offsets do not make pairs", numbers.len()));
    }
    let centre = |side: usize| side as i64 / 2;
    let moves = numbers
        .chunks(2)
        .map(|pair| {
            let x = centre(config.width) + pair[0];
            let y = centre(config.height) + pair[1];
            match (usize::try_from(x), usize::try_from(y)) {
                (Ok(x), Ok(y)) => Ok(Point::new(x, y)),
                _ => Err(format!(
                    "offset {},{} is off the {}x{} board",
                    pair[0], pair[1], config.width, config.height
                )),
            }
        })
        .collect::<Result<Vec<Point>, String>>()?;
    Ok(Opening { moves })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::rules::Rule;

    #[test]
    fn both_formats() {
        let config = Config::default();
        let list = "# three stones\n0,0, 1,0, 1,3\n\n  -1,-1 1,1  \nh8i9j7\n";
        let openings = parse_list(list, config).unwrap();
        assert_eq!(openings.len(), 3);
        assert_eq!(
            openings[0].moves,
            [Point::new(7, 7), Point::new(8, 7), Point::new(8, 10)]
        );
        assert_eq!(openings[0].offsets(config), "0,0, 1,0, 1,3");
        assert_eq!(openings[1].moves, [Point::new(6, 6), Point::new(8, 8)]);
        assert_eq!(openings[2].text(), "h8i9j7");
        // Offsets follow the board's centre.
        let wide = Config {
            width: 20,
            height: 9,
            ..config
        };
        let openings = parse_list("0,0, 1,-1", wide).unwrap();
        assert_eq!(openings[0].moves, [Point::new(10, 4), Point::new(11, 3)]);
    }

    #[test]
    fn bad_openings_name_their_line() {
        let config = Config::default();
        let cases = [
            ("0,0, 1", "do not make pairs"),
            ("0,0, x,1", "not an offset"),
            ("0,0, 0,0", "occupied"),
            ("0,0, 9,0", "off the board"),
            ("0,0, -9,0", "off the 15x15 board"),
            ("a1b", "not a move"),
            ("h8a1i8a2j8a3k8a4l8", "over"),
        ];
        for (line, message) in cases {
            let error = parse_list(&format!("\n{line}\n"), config).unwrap_err();
            assert_eq!(error.line, 2, "{line}");
            assert!(error.message.contains(message), "{line}: {error}");
        }
        // Renju: Black's double three is forbidden.
        let renju = Config {
            rule: Rule::Renju,
            ..config
        };
        let error = parse_list("h8h9i7i9h10i6i11i12g9", renju).unwrap_err();
        assert!(error.message.contains("forbidden"), "{error}");
    }
}
