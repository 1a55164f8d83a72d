//! Where a teacher engine's moves fall in the search's move order, and how
//! often each player of the games chose the teacher's move.
//!
//! ```text
//! scripts/gomoku-teacher-labels.py rapfi 100000 2 GAMES.sgf -- pbrain-rapfi --config config.toml
//! cargo run --release --example gomoku_order -- rapfi GAMES.sgf...
//! ```
//!
//! Reads `GAMES.sgf.moves-NAME` (one line per searched move of the file:
//! the teacher's move `x,y`, or `-`), as `scripts/gomoku-teacher-labels.py`
//! writes it beside the scores. Over the positions whose moves are not
//! forced (no four or open three to answer), it prints how often the
//! teacher's move is first in the order the search tries a node's moves
//! ([`oxello::gomoku::search::move_order`]), among the first 3, 6, 12 (the
//! moves an inner node searches) and 20; the same for the move each player
//! chose; and, over every labelled position, how often each player chose
//! the teacher's move.
//!
//! Measured on the 200 games of 15x15 standard of the session of
//! 2026-11-29 against Rapfi classical at 1 s a move, every second searched
//! move labelled by Rapfi at 100,000 nodes: of 2,475 positions not forced,
//! Rapfi's move was first in our order in 20.1%, among the first 12 in
//! 77.1%, among the first 20 in 90.4%; oxello's own move at 1 s among the
//! first 12 in 78.4%. Over every labelled position, Rapfi at 1 s chose its
//! 100,000-node move in 83.8% of its positions, oxello in 51.2% of its
//! own (20x20 freestyle: 85.7% and 54.4%). Against Rapfi at 1,000,000
//! nodes, on every sixteenth searched move of the 15x15 games (287
//! positions), oxello chose the same move in 51.6% at 60,000 nodes a
//! search, 51.9% at 300,000 and 56.4% at 1,500,000; Rapfi in 62.4% at
//! 10,000 nodes and 73.2% at 100,000.
use oxello::gomoku::Point;
use oxello::gomoku::search::move_order;
use oxello::gomoku::sgf::GomokuRecord;
use std::collections::BTreeMap;
use std::process::ExitCode;

/// The places in the order that are reported: first, first 3, ...
const CUTS: [usize; 5] = [1, 3, 6, 12, 20];

/// How many positions had a move within each of [`CUTS`].
#[derive(Default)]
struct Ranks {
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

    fn print(&self, what: &str) {
        let mut line = format!("{what}: {} positions;", self.total);
        let mut within = 0;
        for (count, cut) in self.counts.iter().zip(CUTS) {
            within += count;
            line += &format!(" first {cut} {:.1}%", percent(within, self.total));
        }
        println!("{line}");
    }
}

fn percent(part: u64, whole: u64) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

/// What is tallied over the files.
#[derive(Default)]
struct Tally {
    /// The teacher's move in the order.
    teacher: Ranks,
    /// Each player's move in the order.
    played: BTreeMap<String, Ranks>,
    /// Each player's choices that were the teacher's, and its labelled
    /// positions.
    agreed: BTreeMap<String, (u64, u64)>,
}

/// A move `x,y` of the teacher's file; `None` for `-` (not labelled).
fn parse_move(text: &str) -> Option<Point> {
    let (x, y) = text.split_once(',')?;
    Some(Point {
        x: x.trim().parse().ok()?,
        y: y.trim().parse().ok()?,
    })
}

fn read(path: &str, name: &str, tally: &mut Tally) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let file = format!("{path}.moves-{name}");
    let taught = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
    let taught: Vec<Option<Point>> = taught.lines().map(parse_move).collect();
    let mut searched = 0;
    for line in text.lines().filter(|l| l.trim_start().starts_with('(')) {
        let record = GomokuRecord::parse(line).map_err(|e| format!("{path}: {e}"))?;
        record
            .replay(|board, mv| {
                if mv.time_ms.is_none() {
                    return;
                }
                let teacher = taught.get(searched).copied().flatten();
                searched += 1;
                let player = match mv.color {
                    oxello::Color::Black => &record.black,
                    oxello::Color::White => &record.white,
                };
                let Some(teacher) = teacher else { return };
                let agreed = tally.agreed.entry(player.clone()).or_default();
                agreed.0 += u64::from(teacher == mv.point);
                agreed.1 += 1;
                if let Some((order, false)) = move_order(board) {
                    let rank = |p: Point| order.iter().position(|&c| c == p.index());
                    tally.teacher.add(rank(teacher));
                    tally
                        .played
                        .entry(player.clone())
                        .or_default()
                        .add(rank(mv.point));
                }
            })
            .map_err(|e| format!("{path}: {e}"))?;
    }
    if searched != taught.len() {
        return Err(format!(
            "{file}: {} lines for {searched} searched moves",
            taught.len()
        ));
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((name, paths)) = args.split_first().filter(|(_, paths)| !paths.is_empty()) else {
        eprintln!("usage: gomoku_order NAME GAMES.sgf...");
        return ExitCode::FAILURE;
    };
    let mut tally = Tally::default();
    for path in paths {
        if let Err(e) = read(path, name, &mut tally) {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    }
    tally.teacher.print(&format!("{name}'s move in the order"));
    for (player, ranks) in &tally.played {
        ranks.print(&format!("{player}'s move in the order"));
    }
    for (player, (agreed, total)) in &tally.agreed {
        println!(
            "{player} chose {name}'s move in {agreed} of {total} labelled positions ({:.1}%)",
            percent(*agreed, *total)
        );
    }
    ExitCode::SUCCESS
}
