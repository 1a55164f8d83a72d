//! The board as an SVG picture, for notebooks (`Board._repr_svg_`): a green
//! board with its grid and coordinates, the discs, the last move ringed and
//! the legal moves dotted. The evaluation graph of an analysis is the
//! engine's own chart (`oxello::svg`).

use oxello::bitboard::squares;
use oxello::{Color, Position, Square};
use std::fmt::Write as _;

/// Side of a square, in pixels.
const CELL: usize = 40;
/// Room for the coordinates around the board.
const MARGIN: usize = 20;

/// The SVG of `position`, `last` (the move that led to it) ringed.
pub fn board_svg(position: &Position, last: Option<Square>) -> String {
    let n = position.size.n();
    let side = 2 * MARGIN + n * CELL;
    let mut svg = String::new();
    let _ = write!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{side}" viewBox="0 0 {side} {side}" font-family="sans-serif" font-size="12">"##
    );
    let board = n * CELL;
    let _ = write!(
        svg,
        r##"<rect x="{MARGIN}" y="{MARGIN}" width="{board}" height="{board}" fill="#2e7d32" stroke="#000"/>"##
    );
    for i in 0..=n {
        let at = MARGIN + i * CELL;
        let end = MARGIN + board;
        let _ = write!(
            svg,
            r##"<line x1="{at}" y1="{MARGIN}" x2="{at}" y2="{end}" stroke="#000"/><line x1="{MARGIN}" y1="{at}" x2="{end}" y2="{at}" stroke="#000"/>"##
        );
    }
    for i in 0..n {
        let centre = MARGIN + i * CELL + CELL / 2;
        let letter = (b'a' + i as u8) as char;
        let bottom = side - 5;
        let _ = write!(
            svg,
            r##"<text x="{centre}" y="14" text-anchor="middle">{letter}</text><text x="{centre}" y="{bottom}" text-anchor="middle">{letter}</text>"##
        );
        let _ = write!(
            svg,
            r##"<text x="10" y="{}" text-anchor="middle">{}</text>"##,
            centre + 4,
            i + 1
        );
    }
    let centre = |square: Square| {
        (
            MARGIN + usize::from(square.col()) * CELL + CELL / 2,
            MARGIN + usize::from(square.row()) * CELL + CELL / 2,
        )
    };
    let radius = CELL / 2 - 4;
    for square in position.size.reading_order() {
        let Some(color) = position.disc(square) else {
            continue;
        };
        let (x, y) = centre(square);
        let (fill, stroke) = match color {
            Color::Black => ("#111", "#000"),
            Color::White => ("#f5f5f5", "#000"),
        };
        let _ = write!(
            svg,
            r##"<circle cx="{x}" cy="{y}" r="{radius}" fill="{fill}" stroke="{stroke}"/>"##
        );
    }
    if let Some(square) = last {
        let (x, y) = centre(square);
        let _ = write!(svg, r##"<circle cx="{x}" cy="{y}" r="5" fill="#d62728"/>"##);
    }
    if !position.is_game_over() {
        for square in squares(position.legal_moves()) {
            let (x, y) = centre(square);
            let _ = write!(
                svg,
                r##"<circle cx="{x}" cy="{y}" r="4" fill="none" stroke="#ffeb3b" stroke-width="2"/>"##
            );
        }
    }
    svg.push_str("</svg>");
    svg
}
