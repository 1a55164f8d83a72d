//! Move notations: Gomocup `x,y` (0-based) and the letter-number "pos"
//! notation of GomocupJudge and c-gomoku-cli (`h8` = x 7, y 7; the number
//! is y + 1).

use crate::gomoku::board::Point;
use std::fmt;

/// A move that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePointError(pub String);

impl fmt::Display for ParsePointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a move", self.0)
    }
}

impl std::error::Error for ParsePointError {}

/// Reads `x,y` (spaces allowed around the numbers).
pub fn parse_xy(text: &str) -> Result<Point, ParsePointError> {
    let error = || ParsePointError(text.to_string());
    let (x, y) = text.split_once(',').ok_or_else(error)?;
    let x = x.trim().parse::<usize>().map_err(|_| error())?;
    let y = y.trim().parse::<usize>().map_err(|_| error())?;
    Ok(Point::new(x, y))
}

/// Reads one move in pos notation, e.g. `h8` or `H10`.
pub fn parse_pos(text: &str) -> Result<Point, ParsePointError> {
    let error = || ParsePointError(text.to_string());
    let mut chars = text.trim().chars();
    let letter = chars.next().ok_or_else(error)?.to_ascii_lowercase();
    if !letter.is_ascii_lowercase() {
        return Err(error());
    }
    let number = chars.as_str().parse::<usize>().map_err(|_| error())?;
    if number == 0 {
        return Err(error());
    }
    Ok(Point::new(usize::from(letter as u8 - b'a'), number - 1))
}

/// Reads a run of moves in pos notation, e.g. `h8h9i8`.
pub fn parse_moves(text: &str) -> Result<Vec<Point>, ParsePointError> {
    let mut moves = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let digits_at = rest
            .char_indices()
            .skip(1)
            .find(|(_, c)| !c.is_ascii_digit())
            .map_or(rest.len(), |(i, _)| i);
        moves.push(parse_pos(&rest[..digits_at])?);
        rest = &rest[digits_at..];
    }
    Ok(moves)
}

/// A point in pos notation.
pub fn format_pos(p: Point) -> String {
    format!("{}{}", (b'a' + p.x as u8) as char, p.y + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notations() {
        assert_eq!(parse_xy("7,8"), Ok(Point::new(7, 8)));
        assert_eq!(parse_xy(" 7 , 8 "), Ok(Point::new(7, 8)));
        assert!(parse_xy("7;8").is_err());
        assert!(parse_xy("-1,8").is_err());
        assert_eq!(parse_pos("h8"), Ok(Point::new(7, 7)));
        assert_eq!(
            parse_moves("h8h10i9"),
            Ok(vec![Point::new(7, 7), Point::new(7, 9), Point::new(8, 8)])
        );
        assert!(parse_moves("h0").is_err());
        assert_eq!(format_pos(Point::new(7, 9)), "h10");
    }
}
