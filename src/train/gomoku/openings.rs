//! The balanced gomoku opening list (`positions/gomoku-openings.txt`).
//!
//! Every three-stone opening of the Gomocup kind is considered: Black at
//! the centre, White and then Black within [`RADIUS`] points of it (each
//! taken once up to the eight symmetries of the board). The search judges
//! each on 15x15 under the standard rule (exactly five), White to move,
//! with a fixed budget (iterations to depth 10, at most 400,000 nodes,
//! threat searches included), and the openings whose score is nearest 0,
//! none a win found for either side, are the most balanced. The search is
//! deterministic (one thread, a node limit), so the list is the same every
//! run of the same engine.

use crate::gomoku::board::{Board, Point};
use crate::gomoku::openings::Opening;
use crate::gomoku::rules::{Config, Rule};
use crate::gomoku::search::{Limits, Searcher, WIN_BOUND};
use crate::search::StopSignal;
use std::collections::BTreeSet;

/// How far from the centre the second and third stones go.
pub const RADIUS: i64 = 3;

/// An offset from the centre.
type Offset = (i64, i64);

/// The eight symmetries of the square about its centre, on offsets.
fn symmetries(dx: i64, dy: i64) -> [Offset; 8] {
    [
        (dx, dy),
        (-dx, dy),
        (dx, -dy),
        (-dx, -dy),
        (dy, dx),
        (-dy, dx),
        (dy, -dx),
        (-dy, -dx),
    ]
}

/// The same opening under every symmetry, as sorted Black and White
/// stones; the least is the opening's canonical form.
fn canonical(black: &[Offset], white: &[Offset]) -> (Vec<Offset>, Vec<Offset>) {
    (0..8)
        .map(|k| {
            let turn = |stones: &[Offset]| {
                let mut turned: Vec<Offset> =
                    stones.iter().map(|&(x, y)| symmetries(x, y)[k]).collect();
                turned.sort_unstable();
                turned
            };
            (turn(black), turn(white))
        })
        .min()
        .unwrap_or_default()
}

/// The configuration the openings are judged in: 15x15, standard rule.
pub fn config() -> Config {
    Config {
        rule: Rule::Standard,
        ..Config::default()
    }
}

/// Every opening judged, most balanced first, with its score for White to
/// move (openings the search found won or lost are left out).
pub fn judge() -> Vec<(i32, Opening)> {
    let config = config();
    let (cx, cy) = (config.width as i64 / 2, config.height as i64 / 2);
    let point = |(dx, dy): Offset| Point::new((cx + dx) as usize, (cy + dy) as usize);
    let near: Vec<Offset> = (-RADIUS..=RADIUS)
        .flat_map(|dy| (-RADIUS..=RADIUS).map(move |dx| (dx, dy)))
        .filter(|&offset| offset != (0, 0))
        .collect();
    let mut seen = BTreeSet::new();
    let mut judged = Vec::new();
    let mut searcher = Searcher::new(64);
    let stop = StopSignal::new();
    for &white in &near {
        for &black in &near {
            if black == white || !seen.insert(canonical(&[(0, 0), black], &[white])) {
                continue;
            }
            let opening = Opening {
                moves: vec![point((0, 0)), point(white), point(black)],
            };
            let board: Board = match opening.board(config) {
                Ok(board) => board,
                Err(_) => continue,
            };
            searcher.clear();
            let limits = Limits {
                depth: Some(10),
                nodes: Some(400_000),
                vct: true,
                ..Limits::default()
            };
            let result = searcher.search(&board, &limits, &stop, &mut |_| {});
            if result.score.abs() < WIN_BOUND {
                judged.push((result.score.abs(), result.score, opening));
            }
        }
    }
    judged.sort_by_key(|(abs, _, opening)| (*abs, opening.text()));
    judged
        .into_iter()
        .map(|(_, score, opening)| (score, opening))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_opening_and_its_symmetries_have_one_canonical_form() {
        let (black, white) = ([(0, 0), (1, 2)], [(-1, 0)]);
        let form = canonical(&black, &white);
        for k in 0..8 {
            let turn = |stones: &[Offset]| -> Vec<Offset> {
                stones.iter().map(|&(x, y)| symmetries(x, y)[k]).collect()
            };
            assert_eq!(canonical(&turn(&black), &turn(&white)), form);
        }
        assert_ne!(canonical(&[(0, 0), (1, 2)], &[(1, 0)]), form);
    }
}
