//! Board diagrams for people: the position with legal moves marked, disc
//! counts and the side to move; [`diagram_with_last`] also shows the last
//! disc played in lower case (`x`, `o`), as the gomoku board does.
//!
//! ```text
//!    a b c d e f g h
//!  1 - - - - - - - - 1
//!  2 - - - - - - - - 2
//!  3 - - - . - - - - 3
//!  4 - - . O X - - - 4    Black (X) to move
//!  5 - - - X O . - - 5    X: 2  O: 2  empties: 60
//!  6 - - - - . - - - 6    legal: d3 c4 f5 e6
//!  7 - - - - - - - - 7
//!  8 - - - - - - - - 8
//!    a b c d e f g h
//! ```

use crate::bitboard::squares;
use crate::color::Color;
use crate::position::Position;
use crate::square::Square;
use std::fmt::Write;

/// The diagram of a position (see the module header).
pub fn diagram(position: &Position) -> String {
    diagram_with_last(position, None)
}

/// The diagram of a position whose last disc played, on `last`, is drawn
/// in lower case.
pub fn diagram_with_last(position: &Position, last: Option<Square>) -> String {
    let n = position.size.n() as u8;
    let legal = position.legal_moves();
    let columns: String = (0..n).map(|c| format!(" {}", (b'a' + c) as char)).collect();
    let mut notes = side_notes(position).into_iter();
    let mut out = String::new();
    let _ = writeln!(out, "  {columns}");
    for row in 0..n {
        let _ = write!(out, "{:>2}", row + 1);
        for col in 0..n {
            let square = Square::from_coords(col, row).expect("row and col are on the board");
            let symbol = match position.disc(square) {
                Some(color) if last == Some(square) => color.symbol().to_ascii_lowercase(),
                Some(color) => color.symbol(),
                None if legal & square.bit() != 0 => '.',
                None => '-',
            };
            let _ = write!(out, " {symbol}");
        }
        let _ = write!(out, " {}", row + 1);
        if row + 1 >= n / 2
            && let Some(note) = notes.next()
        {
            let _ = write!(out, "    {note}");
        }
        out.push('\n');
    }
    let _ = writeln!(out, "  {columns}");
    out
}

/// The lines printed to the right of the board.
fn side_notes(position: &Position) -> Vec<String> {
    let (black, white) = position.disc_counts();
    let status = if position.is_game_over() {
        let score = position.final_score_black();
        match score {
            0 => "game over: draw".to_string(),
            s if s > 0 => format!("game over: Black wins by {s}"),
            s => format!("game over: White wins by {}", -s),
        }
    } else if position.must_pass() {
        format!(
            "{} ({}) to move: must pass",
            title(position.side),
            position.side.symbol()
        )
    } else {
        format!(
            "{} ({}) to move",
            title(position.side),
            position.side.symbol()
        )
    };
    let legal: Vec<String> = squares(position.legal_moves())
        .map(|s| s.to_string())
        .collect();
    vec![
        status,
        format!(
            "X: {black}  O: {white}  empties: {}",
            position.empty_count()
        ),
        format!(
            "legal: {}",
            if legal.is_empty() {
                "none".to_string()
            } else {
                legal.join(" ")
            }
        ),
    ]
}

fn title(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::BoardSize;

    #[test]
    fn start_diagram_marks_moves() {
        let text = diagram(&Position::start(BoardSize::Eight));
        assert!(
            text.contains(" 4 - - . O X - - - 4    Black (X) to move"),
            "{text}"
        );
        assert!(text.contains("legal: d3 c4 f5 e6"));
        let small = diagram(&Position::start(BoardSize::Four));
        assert_eq!(small.lines().count(), 6, "{small}");
    }

    #[test]
    fn the_last_disc_is_in_lower_case() {
        let f5: Square = "f5".parse().unwrap();
        let after = Position::start(BoardSize::Eight)
            .play(Position::start(BoardSize::Eight).placement(f5).unwrap())
            .unwrap();
        let text = diagram_with_last(&after, Some(f5));
        assert!(text.contains(" 5 - - - X X x - - 5"), "{text}");
        assert_eq!(text.matches('x').count(), 1, "{text}");
        assert!(!diagram(&after).contains('x'));
    }
}
