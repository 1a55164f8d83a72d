//! Where a teacher engine's moves fall in the search's move order, and how
//! often each player of the games chose the teacher's move.
//!
//! The teacher's moves are read from `GAMES.sgf.moves-NAME` (one line per
//! searched move of the file: the teacher's move `x,y`, or `-`), as
//! `scripts/gomoku-teacher-labels.py` writes it beside the scores. Over
//! the positions whose moves are not forced (no four or open three to
//! answer), the tally counts how often the teacher's move is first in the
//! order the search tries a node's moves
//! ([`crate::gomoku::search::move_order`]), among the first 3, 6, 12 (the
//! moves an inner node searches) and 20; the same for the move each player
//! chose; and, over every labelled position, how often each player chose
//! the teacher's move.

use crate::color::Color;
use crate::gomoku::Point;
use crate::gomoku::search::move_order;
use crate::gomoku::sgf::GomokuRecord;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// The places in the order that are reported: first, first 3, ...
pub const CUTS: [usize; 5] = [1, 3, 6, 12, 20];

/// How many positions had a move within each of [`CUTS`].
#[derive(Default)]
pub struct Ranks {
    /// By the first cut the rank is under (the last: none).
    counts: [u64; CUTS.len() + 1],
    total: u64,
}

impl Ranks {
    /// Counts a move at `rank` (from 0; `None` when not in the order).
    fn add(&mut self, rank: Option<usize>) {
        let bucket = rank.map_or(CUTS.len(), |rank| {
            CUTS.iter()
                .position(|&cut| rank < cut)
                .unwrap_or(CUTS.len())
        });
        self.counts[bucket] += 1;
        self.total += 1;
    }

    /// `WHAT: N positions; first 1 P%; first 3 P%; ...`.
    pub fn line(&self, what: &str) -> String {
        let mut line = format!("{what}: {} positions;", self.total);
        let mut within = 0;
        for (count, cut) in self.counts.iter().zip(CUTS) {
            within += count;
            let _ = write!(line, " first {cut} {:.1}%", percent(within, self.total));
        }
        line
    }
}

/// `part` in percent of `whole` (0 of nothing).
pub fn percent(part: u64, whole: u64) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

/// What is tallied over the files.
#[derive(Default)]
pub struct Tally {
    /// The teacher's move in the order.
    pub teacher: Ranks,
    /// Each player's move in the order.
    pub played: BTreeMap<String, Ranks>,
    /// Each player's choices that were the teacher's, and its labelled
    /// positions.
    pub agreed: BTreeMap<String, (u64, u64)>,
}

/// A move `x,y` of the teacher's file; `None` for `-` (not labelled).
fn parse_move(text: &str) -> Option<Point> {
    let (x, y) = text.split_once(',')?;
    Some(Point {
        x: x.trim().parse().ok()?,
        y: y.trim().parse().ok()?,
    })
}

impl Tally {
    /// Tallies the games of the SGF file `path` against the moves of the
    /// teacher `name`.
    pub fn add_file(&mut self, path: &Path, name: &str) -> Result<(), String> {
        let shown = path.display();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
        let file = format!("{shown}.moves-{name}");
        let taught = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
        let taught: Vec<Option<Point>> = taught.lines().map(parse_move).collect();
        let mut searched = 0;
        for line in text.lines().filter(|l| l.trim_start().starts_with('(')) {
            let record = GomokuRecord::parse(line).map_err(|e| format!("{shown}: {e}"))?;
            record
                .replay(|board, mv| {
                    if mv.time_ms.is_none() {
                        return;
                    }
                    let teacher = taught.get(searched).copied().flatten();
                    searched += 1;
                    let player = match mv.color {
                        Color::Black => &record.black,
                        Color::White => &record.white,
                    };
                    let Some(teacher) = teacher else { return };
                    let agreed = self.agreed.entry(player.clone()).or_default();
                    agreed.0 += u64::from(teacher == mv.point);
                    agreed.1 += 1;
                    if let Some((order, false)) = move_order(board) {
                        let rank = |p: Point| order.iter().position(|&c| c == p.index());
                        self.teacher.add(rank(teacher));
                        self.played
                            .entry(player.clone())
                            .or_default()
                            .add(rank(mv.point));
                    }
                })
                .map_err(|e| format!("{shown}: {e}"))?;
        }
        if searched != taught.len() {
            return Err(format!(
                "{file}: {} lines for {searched} searched moves",
                taught.len()
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_count_the_moves_within_each_cut() {
        let mut ranks = Ranks::default();
        for rank in [
            Some(0),
            Some(2),
            Some(5),
            Some(11),
            Some(19),
            Some(25),
            None,
        ] {
            ranks.add(rank);
        }
        assert_eq!(
            ranks.line("teacher"),
            "teacher: 7 positions; first 1 14.3% first 3 28.6% first 6 42.9% first 12 57.1% \
             first 20 71.4%"
        );
        assert_eq!(parse_move("3, 4"), Some(Point { x: 3, y: 4 }));
        assert_eq!(parse_move("-"), None);
    }
}
