//! `oxello book`: build, grow, merge, inspect and convert opening books.
//!
//! The searches of `build`, `extend` and `deepen` take `--depth` (default
//! 12), `--selectivity` (default 73%), `--threads` (workers, one search
//! thread each; default every core) and `--hash` (each worker's table,
//! default 16 MiB). `show`, `stats` and `export` read the book of `--book
//! FILE`, else the built-in one.

use super::usage;
use clap::{Args, Subcommand};
use oxello::Position;
use oxello::book::build::{Counter, Selection};
use oxello::book::grow::{self, ExtendOptions};
use oxello::book::journal::Journal;
use oxello::book::pool::{self, RunLimits, RunSummary, SearchSettings};
use oxello::book::{Book, BookSource, format, merge, negamax, text};
use oxello::search::Selectivity;
use oxello::shard::Shard;
use serde::Serialize;
use std::collections::BTreeMap;
use std::error::Error;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Options of `oxello book`.
#[derive(Debug, Args)]
pub struct BookArgs {
    #[command(subcommand)]
    pub command: BookCommand,
}

/// The book subcommands.
#[derive(Debug, Subcommand)]
pub enum BookCommand {
    /// Build a book from games: every position within the first `--plies`
    /// moves seen in at least `--min-games` games, its best move outside
    /// the book searched at `--depth` and `--selectivity`, the values
    /// negamaxed. Rerunning a killed build resumes it (from
    /// `OUTPUT.journal`); `--shard i/n` searches one part, and `book merge`
    /// joins the parts.
    Build(BuildArgs),
    /// Add to the book the best move outside it of every position where
    /// that move scores within `--window` discs of the position's value,
    /// search the new positions and the moves left, negamax the values.
    Extend(ExtendArgs),
    /// Search again at `--depth` every best move outside the book known to
    /// a smaller depth, and negamax the values.
    Deepen(DeepenArgs),
    /// Merge books (the shards of a run, or books from other machines): a
    /// position in several keeps its deepest value; then negamax.
    Merge(MergeArgs),
    /// Print the book's size, depths, selectivities and games.
    Stats(StatsArgs),
    /// Print every book move of a position with its score, depth,
    /// selectivity and games.
    Show(ShowArgs),
    /// Write the book as text, one position and its moves a line.
    Export(ExportArgs),
    /// Read a book from its text form.
    Import(ImportArgs),
}

/// How a run searches: the book's depth and selectivity, the workers.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// Depth of the searches (positions with fewer empties are solved).
    #[arg(short, long, default_value_t = DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// Multi-ProbCut selectivity of the searches in percent: 73, 87, 95, 98,
    /// 99 or 100.
    #[arg(long, default_value = "73")]
    pub selectivity: Selectivity,
    /// Workers, one search thread each (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Each worker's transposition table, MiB.
    #[arg(long, default_value_t = DEFAULT_HASH_MIB, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
}

/// The book a command reads: `--book FILE`, else the built-in one.
#[derive(Debug, Args)]
pub struct BookFileArgs {
    /// The book file (default: the built-in book).
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
}

/// Where a growing run writes and how much of it to do now.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Search only part `i` of `n` of the positions.
    #[arg(long, default_value = "1/1")]
    pub shard: Shard,
    /// Stop after this many searches; rerunning the command resumes.
    #[arg(long)]
    pub stop_after: Option<usize>,
}

#[derive(Debug, Args)]
pub struct BuildArgs {
    /// WTHOR files (`.wtb`) or folders of them.
    #[arg(long)]
    pub wthor: Vec<PathBuf>,
    /// Self-play record files (`oxello selfplay`, JSON Lines or binary).
    #[arg(long)]
    pub selfplay: Vec<PathBuf>,
    /// Positions after at most this many moves.
    #[arg(long, default_value_t = 20)]
    pub plies: u32,
    /// Positions seen in at least this many games.
    #[arg(long, default_value_t = 2)]
    pub min_games: u32,
    /// The book file to write.
    #[arg(short, long)]
    pub output: PathBuf,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Args)]
pub struct ExtendArgs {
    /// The book to grow.
    pub input: PathBuf,
    /// Where to write the result (default: over the input).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Grow positions whose best move outside the book scores at most this
    /// many discs below their value.
    #[arg(long, default_value_t = 2)]
    pub window: i32,
    /// Add at most this many positions (nearest the start first).
    #[arg(long)]
    pub limit: Option<usize>,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Args)]
pub struct DeepenArgs {
    /// The book to deepen.
    pub input: PathBuf,
    /// Where to write the result (default: over the input).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The books to merge.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The merged book.
    #[arg(short, long)]
    pub output: PathBuf,
}

#[derive(Debug, Args)]
pub struct StatsArgs {
    #[command(flatten)]
    pub file: BookFileArgs,
    /// One JSON object instead of the text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The position: `start`, a board string, a transcript, or a file.
    #[arg(default_value = "start")]
    pub position: String,
    #[command(flatten)]
    pub file: BookFileArgs,
    /// One JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    #[command(flatten)]
    pub file: BookFileArgs,
    /// The text file to write (default: standard output).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The text form to read.
    pub input: PathBuf,
    /// The book file to write.
    #[arg(short, long)]
    pub output: PathBuf,
}

/// Default depth of a book's searches.
const DEFAULT_DEPTH: u32 = 12;
/// Default table of each worker, MiB.
const DEFAULT_HASH_MIB: u32 = 16;

pub fn run(args: &BookArgs) -> Result<ExitCode, Box<dyn Error>> {
    match &args.command {
        BookCommand::Build(build) => run_build(build),
        BookCommand::Extend(extend) => run_extend(extend),
        BookCommand::Deepen(deepen) => run_deepen(deepen),
        BookCommand::Merge(merge) => run_merge(merge),
        BookCommand::Stats(stats) => run_stats(stats),
        BookCommand::Show(show) => run_show(show),
        BookCommand::Export(export) => run_export(export),
        BookCommand::Import(import) => run_import(import),
    }
}

/// The searches' settings.
fn settings(args: &SearchArgs) -> Result<SearchSettings, Box<dyn Error>> {
    super::check_hash(args.hash as usize, args.threads.unwrap_or(1) as usize).map_err(usage)?;
    Ok(SearchSettings {
        depth: args.depth.min(60) as u8,
        selectivity: args.selectivity,
        threads: args
            .threads
            .map_or_else(oxello::core::default_threads, |t| t as usize),
        hash_mib: args.hash as usize,
    })
}

/// Searches what `book` needs, resumable through the journal of `output`,
/// negamaxes, and writes `output` when every search of the shard is done.
fn finish(
    mut book: Book,
    settings: &SearchSettings,
    run: &RunArgs,
    output: &Path,
    what: &str,
) -> Result<ExitCode, Box<dyn Error>> {
    let journal_path = Journal::beside(output);
    let mut journal =
        Journal::open(&journal_path).map_err(|e| format!("{}: {e}", journal_path.display()))?;
    // A journal of other settings would go unused and be removed at the
    // end, its searches lost: a mistyped --depth must not cost a long run.
    if !journal.is_empty() && !journal.has_searches_at(settings.depth, settings.selectivity) {
        return Err(format!(
            "{} holds {} searches, none at depth {} {}: rerun with the settings that \
             wrote it to resume, or remove it to start afresh",
            journal_path.display(),
            journal.len(),
            settings.depth,
            settings.selectivity
        )
        .into());
    }
    let bar = super::progress::counting(0, "searches");
    let started = Instant::now();
    let limits = RunLimits {
        shard: run.shard,
        stop_after: run.stop_after,
    };
    let summary = pool::complete(
        &mut book,
        settings,
        limits,
        &mut journal,
        &mut |done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        },
    )?;
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    report(what, &summary, settings, seconds);
    if !summary.complete {
        note!(
            "book {what}: stopped after {} searches; rerun the same command to resume",
            summary.searched
        );
        return Ok(ExitCode::SUCCESS);
    }
    negamax::negamax(&mut book);
    save(&book, output, what)?;
    journal.remove()?;
    Ok(ExitCode::SUCCESS)
}

fn report(what: &str, summary: &RunSummary, settings: &SearchSettings, seconds: f64) {
    let per = if summary.searched > 0 {
        seconds * settings.threads as f64 / summary.searched as f64
    } else {
        0.0
    };
    note!(
        "book {what}: {} searches at depth {} {} ({} from the journal, {} now) in {seconds:.1} s \
         with {} workers: {per:.3} core-seconds a search",
        summary.jobs,
        settings.depth,
        settings.selectivity,
        summary.resumed,
        summary.searched,
        settings.threads
    );
}

fn run_build(args: &BuildArgs) -> Result<ExitCode, Box<dyn Error>> {
    let settings = settings(&args.search)?;
    if args.wthor.is_empty() && args.selfplay.is_empty() {
        return Err(usage("book build: give games with --wthor or --selfplay"));
    }
    let selection = Selection {
        plies: args.plies.min(60),
        min_games: args.min_games,
    };
    let mut counter = Counter::new();
    for path in &args.wthor {
        let files = if path.is_dir() {
            oxello::formats::wthor::read_folder(path)?
        } else {
            vec![oxello::formats::wthor::read_wtb(path)?]
        };
        for file in &files {
            for game in &file.games {
                if let Ok(game) = game.replay() {
                    counter.add_game(game.positions(), &selection);
                }
            }
        }
    }
    for path in &args.selfplay {
        for positions in selfplay_games(&oxello::selfplay::read_file(path)?, selection.plies) {
            counter.add_game(&positions, &selection);
        }
    }
    let book = counter.book(&selection);
    note!(
        "book build: {} games, {} positions within {} plies seen in {} games or more",
        counter.total,
        book.len(),
        selection.plies,
        selection.min_games
    );
    if book.is_empty() {
        return Err(format!(
            "book build: no position within {} plies was seen in {} games or more: lower \
             --min-games",
            selection.plies, selection.min_games
        )
        .into());
    }
    finish(book, &settings, &args.run, &args.output, "build")
}

/// The positions of each game of self-play records within the first
/// `plies` moves, in the order of their games and plies (a record is a
/// position where the side to move had a choice).
fn selfplay_games(records: &[oxello::selfplay::record::Record], plies: u32) -> Vec<Vec<Position>> {
    let mut games: BTreeMap<u32, Vec<(u8, Position)>> = BTreeMap::new();
    for record in records.iter().filter(|r| u32::from(r.ply) <= plies) {
        games
            .entry(record.game)
            .or_default()
            .push((record.ply, record.position));
    }
    games
        .into_values()
        .map(|mut positions| {
            positions.sort_unstable_by_key(|(ply, _)| *ply);
            positions
                .into_iter()
                .map(|(_, position)| position)
                .collect()
        })
        .collect()
}

fn load(path: &Path) -> Result<Book, Box<dyn Error>> {
    let started = Instant::now();
    let book = format::load(path).map_err(|e| format!("{}: {e}", path.display()))?;
    log::info!(
        "book: read {} ({} positions) in {:.3} s",
        path.display(),
        book.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(book)
}

fn run_extend(args: &ExtendArgs) -> Result<ExitCode, Box<dyn Error>> {
    let settings = settings(&args.search)?;
    let mut book = load(&args.input)?;
    let added = grow::extend(
        &mut book,
        &ExtendOptions {
            window: args.window,
            limit: args.limit,
            shard: args.run.shard,
        },
    );
    note!("book extend: {added} positions added");
    let output = args.output.as_ref().unwrap_or(&args.input);
    // The searches of every shard's own positions are in this shard's
    // book: it searches them all.
    let run = RunArgs {
        shard: Shard::WHOLE,
        stop_after: args.run.stop_after,
    };
    finish(book, &settings, &run, output, "extend")
}

fn run_deepen(args: &DeepenArgs) -> Result<ExitCode, Box<dyn Error>> {
    let settings = settings(&args.search)?;
    let mut book = load(&args.input)?;
    let count = grow::deepen(&mut book, settings.depth, settings.selectivity);
    note!(
        "book deepen: {count} positions to search again at depth {}",
        settings.depth
    );
    negamax::negamax(&mut book);
    let output = args.output.as_ref().unwrap_or(&args.input);
    finish(book, &settings, &args.run, output, "deepen")
}

fn run_merge(args: &MergeArgs) -> Result<ExitCode, Box<dyn Error>> {
    let books = args
        .inputs
        .iter()
        .map(|path| load(path))
        .collect::<Result<Vec<_>, _>>()?;
    save(&merge::merge(books), &args.output, "merge")
}

/// Writes `book` to `path` and says so on stderr.
fn save(book: &Book, path: &Path, what: &str) -> Result<ExitCode, Box<dyn Error>> {
    format::save(book, path).map_err(|e| format!("{}: {e}", path.display()))?;
    note!(
        "book {what}: wrote {} ({} positions)",
        path.display(),
        book.len()
    );
    Ok(ExitCode::SUCCESS)
}

/// The book `show`, `stats` and `export` read: `--book FILE`, else the
/// built-in one (empty when there is none).
fn chosen_book(args: &BookFileArgs) -> Result<Book, Box<dyn Error>> {
    match &args.book {
        Some(path) => load(path),
        None => Ok(oxello::book::open(&BookSource::BuiltIn)?
            .map(|book| (*book).clone())
            .unwrap_or_default()),
    }
}

/// Figures of a book for `book stats`.
#[derive(Debug, Default, Serialize)]
struct Stats {
    positions: usize,
    book_moves: usize,
    bytes: usize,
    /// Games through the start position (the games behind the book).
    games: u64,
    /// Positions to search (their best move outside the book unknown).
    unsearched: usize,
    /// Positions by their value's depth and selectivity.
    depths: Vec<(String, usize)>,
    /// Positions by moves from the start (60 - empties - 4 discs).
    plies: Vec<(u32, usize)>,
}

fn run_stats(args: &StatsArgs) -> Result<ExitCode, Box<dyn Error>> {
    let book = chosen_book(&args.file)?;
    let mut stats = Stats {
        positions: book.len(),
        bytes: format::encode(&book).len(),
        ..Stats::default()
    };
    let mut depths = std::collections::BTreeMap::new();
    let mut plies = std::collections::BTreeMap::new();
    for (key, node) in book.iter() {
        stats.book_moves += node.moves.len();
        if book.needs_search(key) {
            stats.unsearched += 1;
        }
        let empties = key.empty_count_on(oxello::bitboard::BoardSize::Eight);
        *plies.entry(60 - empties).or_insert(0) += 1;
        let label = match book.value_of(key) {
            Some(value) => value.search_depth(empties).label(),
            None => "none".to_string(),
        };
        *depths.entry(label).or_insert(0) += 1;
    }
    let start = oxello::Position::default();
    stats.games = book
        .find(start.board)
        .map_or(0, |(node, _, _)| u64::from(node.games));
    stats.depths = depths.into_iter().collect();
    stats.plies = plies.into_iter().collect();
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&stats)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "{} positions, {} book moves, {} bytes, {} games through the start, {} to search",
        stats.positions, stats.book_moves, stats.bytes, stats.games, stats.unsearched
    )?;
    let depths: Vec<String> = stats
        .depths
        .iter()
        .map(|(label, n)| format!("{label}: {n}"))
        .collect();
    writeln!(out, "values by depth: {}", depths.join(", "))?;
    let plies: Vec<String> = stats
        .plies
        .iter()
        .map(|(ply, n)| format!("{ply}: {n}"))
        .collect();
    writeln!(out, "positions by ply: {}", plies.join(", "))?;
    Ok(ExitCode::SUCCESS)
}

/// One move of `book show --json`.
#[derive(Debug, Serialize)]
struct MoveJson {
    #[serde(rename = "move")]
    mv: String,
    score: i32,
    depth: u32,
    selectivity: u32,
    games: u32,
    /// Whether its position is in the book (else the best move outside it).
    book: bool,
}

#[derive(Debug, Serialize)]
struct ShowJson {
    position: String,
    in_book: bool,
    score: Option<i32>,
    depth: Option<u32>,
    selectivity: Option<u32>,
    games: u32,
    moves: Vec<MoveJson>,
}

fn run_show(args: &ShowArgs) -> Result<ExitCode, Box<dyn Error>> {
    let book = chosen_book(&args.file)?;
    let game = super::load(&args.position, None)?;
    let position = game.position();
    let found = book.find(position.board);
    let value = book.value(&position);
    let moves = book.moves(&position).unwrap_or_default();
    let shown = ShowJson {
        position: oxello::formats::board_string::format_position(&position),
        in_book: found.is_some(),
        score: value.map(|v| i32::from(v.score)),
        depth: value.map(|v| u32::from(v.depth)),
        selectivity: value.map(|v| v.selectivity.percent()),
        games: found.map_or(0, |(node, _, _)| node.games),
        moves: moves
            .iter()
            .map(|m| MoveJson {
                mv: m.mv.to_string(),
                score: i32::from(m.value.score),
                depth: u32::from(m.value.depth),
                selectivity: m.value.selectivity.percent(),
                games: m.games,
                book: m.in_book,
            })
            .collect(),
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&shown)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "board {}", shown.position)?;
    match value {
        None => {
            writeln!(out, "not in the book")?;
            return Ok(ExitCode::SUCCESS);
        }
        Some(value) => writeln!(
            out,
            "value {:+} at depth {} {}, {} games",
            value.score, value.depth, value.selectivity, shown.games
        )?,
    }
    writeln!(out, "move | score | depth | selectivity |  games | ")?;
    writeln!(
        out,
        "-----+-------+-------+-------------+--------+------------"
    )?;
    for m in &shown.moves {
        writeln!(
            out,
            "{:<4} | {:>+5} | {:>5} | {:>10}% | {:>6} | {}",
            m.mv,
            m.score,
            m.depth,
            m.selectivity,
            m.games,
            if m.book {
                "book"
            } else {
                "best outside the book"
            }
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

fn run_export(args: &ExportArgs) -> Result<ExitCode, Box<dyn Error>> {
    let book = chosen_book(&args.file)?;
    let text = text::export(&book);
    match &args.output {
        Some(path) => format::write_atomically(path, text.as_bytes())
            .map_err(|e| format!("{}: {e}", path.display()))?,
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    Ok(ExitCode::SUCCESS)
}

fn run_import(args: &ImportArgs) -> Result<ExitCode, Box<dyn Error>> {
    let content = oxello::formats::read_text_file(&args.input, u64::MAX)?;
    let book = text::import(&content).map_err(|e| format!("{}: {e}", args.input.display()))?;
    save(&book, &args.output, "import")
}
