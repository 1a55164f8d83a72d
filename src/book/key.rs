//! The symmetry class of a position: a book stores each position once,
//! under its canonical board, the least `(player, opponent)` pair of its 8
//! images, and its moves in that board's coordinates.

use crate::bitboard::{BoardSize, Symmetry};
use crate::board::Board;
use crate::moves::Move;
use crate::square::Square;

/// The code of a pass among a book position's move codes (squares are 0-63).
pub const PASS: u8 = 64;

/// The canonical board of `board`'s symmetry class and the symmetry that
/// maps `board` onto it.
pub fn canonical(board: Board) -> (Board, Symmetry) {
    let mut best = (board, Symmetry::Identity);
    for symmetry in &Symmetry::ALL[1..] {
        let image = board.symmetric(*symmetry, BoardSize::Eight);
        if (image.player, image.opponent) < (best.0.player, best.0.opponent) {
            best = (image, *symmetry);
        }
    }
    best
}

/// The move code of `mv` (a square index, or [`PASS`]) after `symmetry`.
pub fn code(mv: Move, symmetry: Symmetry) -> u8 {
    match mv.square() {
        Some(square) => symmetry.apply_square(square, BoardSize::Eight).index() as u8,
        None => PASS,
    }
}

/// The move of `board` whose code, in the coordinates `symmetry` maps
/// `board` to, is `code`; `None` when it is not a legal move of `board`.
pub fn decode(board: Board, code: u8, symmetry: Symmetry) -> Option<Move> {
    if code == PASS {
        let blocked = board.legal_moves() == 0 && !board.is_game_over();
        return blocked.then_some(Move::Pass);
    }
    let square = Square::new(code)?;
    let real = symmetry.inverse().apply_square(square, BoardSize::Eight);
    board.placement_on(real, BoardSize::Eight).ok()
}

/// The legal moves of `board` (a lone pass when it is blocked, none when the
/// game is over) with their codes in `board`'s own coordinates.
pub fn moves(board: Board) -> Vec<(u8, Board)> {
    board
        .move_list_on(BoardSize::Eight)
        .iter()
        .map(|mv| (code(*mv, Symmetry::Identity), board.play_unchecked(*mv)))
        .collect()
}

/// The name of a move code: `f5`, `pass`.
pub fn name(code: u8) -> String {
    match Square::new(code) {
        Some(square) => square.to_string(),
        None => "pass".to_string(),
    }
}

/// The move code of a name: a square or a pass word.
pub fn parse(text: &str) -> Option<u8> {
    if crate::moves::is_pass_word(text) {
        return Some(PASS);
    }
    text.parse::<Square>().ok().map(|s| s.index() as u8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::transcript;
    use crate::position::Position;

    #[test]
    fn every_image_has_the_same_canonical_board_and_moves_map_back() {
        let game = transcript::parse_game("f5d6c3d3c4f4f6", Position::default()).unwrap();
        let board = game.position().board;
        let (key, symmetry) = canonical(board);
        for image in Symmetry::ALL {
            let other = board.symmetric(image, BoardSize::Eight);
            let (other_key, other_symmetry) = canonical(other);
            assert_eq!(other_key, key, "{image:?}");
            // A move of the image, coded in canonical coordinates, decodes
            // back to the same move of the image.
            for mv in other.move_list_on(BoardSize::Eight).iter() {
                let c = code(*mv, other_symmetry);
                assert_eq!(decode(other, c, other_symmetry), Some(*mv));
                // And leads to the same canonical child as the canonical move.
                let via_key = decode(key, c, Symmetry::Identity).unwrap();
                assert_eq!(
                    canonical(other.play_unchecked(*mv)).0,
                    canonical(key.play_unchecked(via_key)).0
                );
            }
        }
        assert_eq!(canonical(key), (key, Symmetry::Identity));
        let _ = symmetry;
        assert_eq!(parse("F5"), Some(37));
        assert_eq!(parse("PA"), Some(PASS));
        assert_eq!(name(37), "f5");
        assert_eq!(name(PASS), "pass");
    }
}
