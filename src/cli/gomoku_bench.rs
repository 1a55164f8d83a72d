//! `oxello bench --game gomoku`: the gomoku benchmark. The positions of
//! the first balanced openings (5 to 10 stones) searched to a fixed depth,
//! one thread, a fresh table for each. As with the Othello bench, the total
//! node count is the search's signature: a change that alters it changes
//! the gomoku search, and its commit records the new one.

use oxello::gomoku::openings::parse_list;
use oxello::gomoku::pattern::PatternTable;
use oxello::gomoku::search::{Limits, Searcher};
use oxello::gomoku::{Config, Rule};
use oxello::search::StopSignal;
use std::error::Error;
use std::io::Write as _;
use std::process::ExitCode;
use std::time::Duration;

/// Depth of the gomoku bench when `--depth` is not given.
pub const DEFAULT_GOMOKU_BENCH_DEPTH: u32 = 8;

/// Table size of the gomoku bench, MiB (fixed: the signature depends on it).
const GOMOKU_BENCH_HASH_MIB: usize = 64;

/// The opening lists the positions come from, compiled in, with their
/// board and how many of their first openings the bench takes: 15x15
/// standard (the rule of the Rapfi matches) and 20x20 freestyle (the
/// other Gomocup board).
const LISTS: [(&str, Config, usize); 2] = [
    (
        include_str!("../../positions/gomoku-balanced-15-standard.txt"),
        Config {
            width: 15,
            height: 15,
            n: 5,
            rule: Rule::Standard,
        },
        8,
    ),
    (
        include_str!("../../positions/gomoku-balanced-20-freestyle.txt"),
        Config {
            width: 20,
            height: 20,
            n: 5,
            rule: Rule::Freestyle,
        },
        4,
    ),
];

/// Searches each bench position to `depth`; prints one row per position
/// and the signature.
pub fn run(depth: u32) -> Result<ExitCode, Box<dyn Error>> {
    let mut searcher = Searcher::new(GOMOKU_BENCH_HASH_MIB);
    let limits = Limits {
        depth: Some(depth),
        vct: true,
        threads: 1,
        ..Limits::default()
    };
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        " #  | board           | stones | depth | move | score  |    nodes    |   time   |  nodes/s"
    )?;
    writeln!(
        out,
        "----+-----------------+--------+-------+------+--------+-------------+----------+----------"
    )?;
    let (mut count, mut nodes, mut time) = (0, 0u64, Duration::ZERO);
    for (text, config, take) in LISTS {
        // The pattern table fills as the search reads it: filled first, the
        // first position's time is its search's alone.
        PatternTable::shared(config.n, config.rule).fill();
        let openings = parse_list(text, config).map_err(|e| format!("bench list: {e}"))?;
        for opening in openings.iter().take(take) {
            let board = opening.board(config)?;
            searcher.clear();
            let result = searcher.search(&board, &limits, &StopSignal::new(), &mut |_| {});
            count += 1;
            nodes += result.nodes;
            time += result.elapsed;
            let nps = result.nodes as f64 / result.elapsed.as_secs_f64().max(1e-6);
            writeln!(
                out,
                "{count:>3} | {:<15} | {:>6} | {:>5} | {:>4} | {:>+6} | {:>11} | {:>8.3} | {nps:>8.0}",
                format!("{}x{} {}", config.width, config.height, config.rule.name()),
                board.stone_count(),
                result.depth,
                result.best.map_or("--".to_string(), |p| p.to_string()),
                result.score,
                result.nodes,
                result.elapsed.as_secs_f64(),
            )?;
        }
    }
    let nps = nodes as f64 / time.as_secs_f64().max(1e-6);
    writeln!(
        out,
        "gomoku bench depth {depth}: {count} positions, {nodes} nodes, {:.3} s, {nps:.0} nodes/s",
        time.as_secs_f64()
    )?;
    writeln!(out, "signature {nodes}")?;
    Ok(ExitCode::SUCCESS)
}
