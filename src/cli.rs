//! The command line: clap definitions and the code behind each subcommand.
//!
//! Everything here runs at the edge: errors become messages on stderr and a
//! non-zero exit code, reports go to stdout.

use crate::bitboard::BoardSize;
use crate::diagram::diagram;
use crate::formats::{board_string, spec, transcript};
use crate::game::Game;
use crate::movegen;
use crate::perft::{self, PassConvention};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::error::Error;
use std::io::Write as _;
use std::process::ExitCode;
use std::time::Instant;

/// oxello: an Othello (Reversi) engine.
///
/// Positions can be given as a 64-character board string followed by the side
/// to move (`---------------------------OX------XO--------------------------- X`),
/// as a transcript of moves from the start (`f5d6c3`), or as the path of a
/// file holding either or a GGF game record. Squares are named a1..h8 with
/// row 1 at the top.
///
/// With no subcommand, oxello reads commands on standard input: it starts as
/// a console for people and switches by itself to the NBoard protocol when
/// the first command is `nboard`, or to GTP on a GTP command.
#[derive(Debug, Parser)]
#[command(name = "oxello", version, about, long_about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Engine options, accepted the same way by every mode and subcommand.
#[derive(Debug, Clone, Args)]
pub struct EngineArgs {
    /// Playing level 1-60 (midgame depth; solves from a few more empties),
    /// or a simple player: random, greedy, positional.
    #[arg(short, long, global = true)]
    pub level: Option<crate::engine::Player>,
    /// Transposition table size in MiB.
    #[arg(long, global = true)]
    pub hash: Option<usize>,
    /// Midgame search depth, overriding the level's.
    #[arg(long, global = true)]
    pub depth: Option<u32>,
    /// Seconds per move (the level's depth still caps the search).
    #[arg(short, long, global = true)]
    pub time: Option<f64>,
    /// Search threads (default: every core for play, analysis and solving;
    /// 1 for `bench` and node-limited searches, which stay reproducible).
    #[arg(long, global = true)]
    pub threads: Option<usize>,
    /// Multi-ProbCut selectivity in percent: 73, 87, 95, 98, 99 or 100
    /// (100: no selectivity). Overrides the level's.
    #[arg(long, global = true)]
    pub selectivity: Option<crate::search::Selectivity>,
    /// Seed of random choices, for reproducible runs: the random player's
    /// moves (default: a new seed from the system each run, printed in match
    /// headers), a match's opening order (which it then shuffles, as
    /// `--random` does), the sampling of fit-probcut and of
    /// `solve --sample-wthor` (default 1).
    #[arg(long, global = true)]
    pub seed: Option<u64>,
}

impl EngineArgs {
    /// The engine options these arguments ask for.
    pub fn options(&self) -> Result<crate::engine::EngineOptions, Box<dyn Error>> {
        let mut options = crate::engine::EngineOptions::default();
        if let Some(player) = self.level {
            options.player = player;
        }
        if let Some(hash) = self.hash {
            check_hash(hash, 1)?;
            options.hash_mib = hash;
        }
        options.depth = self.depth;
        if let Some(threads) = self.threads {
            if !(1..=crate::engine::MAX_THREADS).contains(&threads) {
                return Err(format!(
                    "--threads {threads}: use 1 to {}",
                    crate::engine::MAX_THREADS
                )
                .into());
            }
            options.threads = Some(threads);
        }
        options.selectivity = self.selectivity;
        // A random player that plays the same moves every run is no random
        // player: without --seed, every run draws its own.
        options.seed = self.seed.unwrap_or_else(rand::random);
        if let Some(seconds) = self.time {
            if !(seconds.is_finite() && seconds > 0.0 && seconds < 1e7) {
                return Err(format!("--time {seconds}: use a positive number of seconds").into());
            }
            options.time = Some(std::time::Duration::from_secs_f64(seconds));
        }
        Ok(options)
    }
}

/// Refuses a `--hash` of `mib` MiB out of range, or larger than the memory
/// the machine has available for `tables` such tables (a match runs several
/// engines). The table would otherwise take the memory of every other
/// program, or be killed for it when the system overcommits; a clear error
/// before anything is allocated is better.
pub fn check_hash(mib: usize, tables: usize) -> Result<(), String> {
    if mib == 0 || mib > MAX_HASH_MIB {
        return Err(format!("--hash {mib}: use 1 to {MAX_HASH_MIB} MiB"));
    }
    let Some(available) = available_memory_mib() else {
        return Ok(());
    };
    let needed = mib.saturating_mul(tables.max(1));
    if needed <= available {
        return Ok(());
    }
    Err(if tables > 1 {
        format!(
            "--hash {mib}: {tables} tables need {needed} MiB, and only {available} MiB of memory is available"
        )
    } else {
        format!("--hash {mib}: only {available} MiB of memory is available")
    })
}

/// Largest `--hash`, MiB.
pub const MAX_HASH_MIB: usize = 1 << 20;

/// The memory the system could give now, in MiB (`MemAvailable` of
/// `/proc/meminfo`); `None` where the system does not say.
fn available_memory_mib() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    mem_available_mib(&text)
}

/// `MemAvailable` of a `/proc/meminfo` text, in MiB.
fn mem_available_mib(meminfo: &str) -> Option<usize> {
    let line = meminfo
        .lines()
        .find(|line| line.starts_with("MemAvailable:"))?;
    let mut words = line.split_whitespace().skip(1);
    let kib: usize = words.next()?.parse().ok()?;
    (words.next() == Some("kB")).then_some(kib / 1024)
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the leaves of the game tree to a depth (perft), with time and
    /// leaves per second.
    ///
    /// Two pass conventions exist and differ from depth 9 on: A counts a forced
    /// pass as a ply (Aart Bik's table, Egaroucid mode 1); B does not
    /// (Egaroucid mode 2). Both count a finished game as one leaf.
    Perft(PerftArgs),
    /// Print a position as a board diagram with the legal moves marked.
    Show(ShowArgs),
    /// Speak the NBoard protocol on stdin/stdout (for the NBoard GUI).
    Nboard,
    /// Speak GTP on stdin/stdout (Quarry, GoGui, scripts).
    Gtp,
    /// The console for people: play, analyse, solve at a terminal.
    Console,
    /// Speak the Gomocup (Piskvork) protocol as a gomoku brain.
    Gomocup,
    /// One-shot: print the best move of a position and exit (for scripts
    /// and bots).
    Move(MoveArgs),
    /// Solve positions exactly (or win/loss/draw): each position of an OBF
    /// file, checked against the scores in the file, or one position.
    ///
    /// Prints one row per position (number, empties, best move, score,
    /// expected score, nodes, time, nodes/s) and totals; exits non-zero when
    /// a score disagrees with the file.
    Solve(SolveArgs),
    /// Run the fixed benchmark: midgame positions to a fixed depth and
    /// endgame positions solved, one thread, fresh table; prints the node
    /// signature and nodes/s.
    Bench(BenchArgs),
    /// Search one position and show each iteration: depth, score, nodes,
    /// time and principal variation, then the best move. With `--game` (and
    /// always for GGF and WTHOR files), analyse every move of a game
    /// instead: the played move's score, the best move and its score, the
    /// loss, mistakes and blunders, totals per player.
    Analyze(AnalyzeArgs),
    /// Play a match between two engines and report which is stronger:
    /// wins/draws/losses, score, Elo difference with its 95% interval.
    ///
    /// Engines are oxello itself (`level:10`, `depth:6`, `greedy`, `random`,
    /// `positional`) or commands speaking NBoard or GTP
    /// (`--engine "oxello nboard --level 10"`). Each opening is played twice,
    /// colours swapped. The global `--depth` fixes the midgame depth of both
    /// engines (NBoard `set depth`), `--time` gives seconds per move, `--tc`
    /// a game clock. Every game is appended to `--output` as GGF when it
    /// ends; rerunning with the same file resumes the match.
    Match(Box<MatchArgs>),
    /// Train the pattern evaluation from WTHOR game files and write the
    /// weight file (the built-in one is `src/eval/pattern-weights.bin`).
    ///
    /// Every position of every finished game is labelled with the game's
    /// theoretical score; one game in 10 is held out, and the error on it is
    /// printed per phase.
    TrainEval(TrainEvalArgs),
    /// Fit the Multi-ProbCut parameters from our own searches of WTHOR
    /// positions and write them (the built-in ones are
    /// `src/search/probcut.txt`).
    ///
    /// Midgame positions are searched without selectivity to `--max-depth`;
    /// endgame positions are solved exactly and searched shallowly. The
    /// regressions and σ are printed per depth pair.
    FitProbcut(FitProbcutArgs),
    /// Play the engine against itself and write training records: for every
    /// position with a choice, the board, the search's move distribution
    /// (policy), the move played, the search score and the game's outcome.
    ///
    /// Games start from random moves, an opening list (`--openings`) or
    /// WTHOR prefixes (`--wthor`), draw among near-best moves early on, and
    /// are reproducible for a `--seed`: searches are single-threaded and
    /// limited by level and `--nodes`, never by time. `--shard i/n` plays a
    /// part of the run for one machine; rerunning with the same `--output`
    /// resumes a killed run.
    Selfplay(Box<crate::cli_selfplay::SelfplayArgs>),
}

/// Options of `oxello fit-probcut`.
#[derive(Debug, Args)]
pub struct FitProbcutArgs {
    /// Folder of WTHOR `.wtb` files.
    #[arg(long, default_value = "../shared/games/wthor")]
    pub wthor: std::path::PathBuf,
    /// Where to write the parameters.
    #[arg(long, default_value = "src/search/probcut.txt")]
    pub out: std::path::PathBuf,
    /// Midgame sample positions.
    #[arg(long, default_value_t = 400)]
    pub positions: usize,
    /// Endgame sample positions (solved exactly).
    #[arg(long, default_value_t = 300)]
    pub endgame_positions: usize,
    /// Deepest midgame search of a sample.
    #[arg(long, default_value_t = 12)]
    pub max_depth: u32,
    /// Most empties of an endgame sample (solving costs grow fast).
    #[arg(long, default_value_t = 22)]
    pub max_endgame_empties: u32,
}

/// Seed of fit-probcut's sampling without `--seed`: its parameters are
/// reproducible by default.
pub const DEFAULT_FIT_SEED: u64 = 1;

/// Seed of `solve --sample-wthor` without `--seed`: the accuracy sets of
/// `positions/` are reproducible by default.
pub const DEFAULT_SAMPLE_SEED: u64 = 1;

/// Options of `oxello train-eval`.
#[derive(Debug, Args)]
pub struct TrainEvalArgs {
    /// Folder of WTHOR `.wtb` files.
    #[arg(long, default_value = "../shared/games/wthor")]
    pub wthor: std::path::PathBuf,
    /// Where to write the weights.
    #[arg(long, default_value = "src/eval/pattern-weights.bin")]
    pub out: std::path::PathBuf,
    /// Passes over the samples of each phase.
    #[arg(long, default_value_t = 8)]
    pub epochs: usize,
}

/// Options of `oxello match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// An engine, given twice: `level:N`, `depth:N`, `random`, `greedy`,
    /// `positional`, or a command line speaking NBoard or GTP.
    #[arg(short, long = "engine", value_name = "ENGINE")]
    pub engines: Vec<String>,
    /// Engine 1 (instead of the first `--engine`).
    #[arg(long, value_name = "ENGINE", conflicts_with = "engines")]
    pub engine1: Option<String>,
    /// Engine 2 (instead of the second `--engine`).
    #[arg(long, value_name = "ENGINE", conflicts_with = "engines")]
    pub engine2: Option<String>,
    /// Protocol of engine 1 when its command does not say (`nboard`, `gtp`).
    #[arg(long)]
    pub proto1: Option<crate::arena::Protocol>,
    /// Protocol of engine 2 when its command does not say.
    #[arg(long)]
    pub proto2: Option<crate::arena::Protocol>,
    /// Display name of engine 1 (default: its specification).
    #[arg(long)]
    pub name1: Option<String>,
    /// Display name of engine 2.
    #[arg(long)]
    pub name2: Option<String>,
    /// Opening list, one transcript per line (XOT); each is played twice.
    /// Without it, games start from the standard position.
    #[arg(long)]
    pub openings: Option<std::path::PathBuf>,
    /// Number of games (default: two per opening per round).
    #[arg(short, long)]
    pub games: Option<usize>,
    /// Passes through the opening list.
    #[arg(long, default_value_t = 1)]
    pub rounds: usize,
    /// Play the openings in random order (reproducible with the global
    /// `--seed`, which implies `--random`).
    #[arg(long)]
    pub random: bool,
    /// Game clock: `MAIN[+INC]` in seconds or `M:SS` (e.g. `60+0.5`).
    #[arg(long, value_name = "MAIN[+INC]")]
    pub tc: Option<String>,
    /// Seconds of tolerance beyond the clock or time per move.
    #[arg(long, default_value_t = 1.0)]
    pub grace: f64,
    /// Longest wait for a move without a clock, seconds.
    #[arg(long, default_value_t = 60.0)]
    pub move_timeout: f64,
    /// Longest wait for an engine to start or answer a protocol command,
    /// seconds.
    #[arg(long, default_value_t = 10.0)]
    pub startup_timeout: f64,
    /// Games played at once (each with its own engine processes).
    #[arg(short = 'j', long, default_value_t = 1)]
    pub concurrency: usize,
    /// Match file: every game is appended as GGF when it ends; an existing
    /// file is resumed.
    #[arg(short, long)]
    pub output: Option<std::path::PathBuf>,
    /// Stop when decided: `elo0,elo1[,alpha,beta]` (alpha = beta = 0.05).
    #[arg(long, value_name = "ELO0,ELO1[,ALPHA,BETA]")]
    pub sprt: Option<crate::arena::Sprt>,
    /// Play at most this many games in this run (rerun to continue).
    #[arg(long)]
    pub stop_after: Option<usize>,
    /// How passes are sent to GTP engines: `explicit` (`play white pass`)
    /// or `implicit` (left out; the engine infers them).
    #[arg(long, default_value = "explicit")]
    pub gtp_passes: crate::arena::gtp::PassStyle,
}

/// Options of `oxello bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Midgame search depth (default 12; 15 with `--accuracy`).
    #[arg(long = "bench-depth")]
    pub bench_depth: Option<u32>,
    /// Measure move accuracy instead: search each position of this OBF
    /// file (every move's exact score listed, as `solve --all-moves
    /// --write` makes) to the depth, and report how often an optimal move
    /// is chosen and the discs lost.
    #[arg(long)]
    pub accuracy: Option<std::path::PathBuf>,
}

/// Options of `oxello analyze`. The search depth and time are the global
/// `--depth` and `--time` (5 s when neither is given; a game analysis
/// defaults to depth 8).
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// The position: `start`, a board string, a transcript, or a file.
    #[arg(default_value = "start", allow_hyphen_values = true)]
    pub position: String,
    /// Board size (4, 6 or 8) for `start` and transcripts.
    #[arg(short, long, default_value = "8")]
    pub size: BoardSize,
    /// Solve exactly.
    #[arg(long, conflicts_with = "wld")]
    pub exact: bool,
    /// Solve win/loss/draw.
    #[arg(long)]
    pub wld: bool,
    /// Number of best moves to find.
    #[arg(long, default_value_t = 1)]
    pub multi_pv: usize,
    /// One JSON object with the result (with `--game`: the whole analysis).
    #[arg(long)]
    pub json: bool,
    /// Analyse every move of the game (automatic for GGF and WTHOR files).
    #[arg(long)]
    pub game: bool,
    /// Which games of a GGF or WTHOR file, counting from 1: `12` or `3-7`
    /// (also written `FILE.wtb:12`). Default: all.
    #[arg(long, visible_alias = "wthor-index", value_name = "N[-M]")]
    pub index: Option<String>,
    /// Solve exactly from this many empty squares (game analysis).
    #[arg(long, default_value_t = crate::analysis::DEFAULT_EXACT_FROM)]
    pub exact_from: u32,
    /// Write an evaluation graph as SVG (one file per game, numbered, when
    /// several games are analysed).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
}

/// Options of `oxello perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// Depth in plies.
    #[arg(short, long, default_value_t = 9)]
    pub depth: u32,
    /// Position to count from: `start`, a board string, a transcript, or a file.
    #[arg(short, long, default_value = "start", allow_hyphen_values = true)]
    pub position: String,
    /// Board size (4, 6 or 8) for `start` and transcripts.
    #[arg(short, long, default_value = "8")]
    pub size: BoardSize,
    /// Print the count below each legal move as well.
    #[arg(long)]
    pub divide: bool,
    /// Pass convention: `A` (a pass is a ply) or `B` (a pass is not a ply).
    #[arg(short, long, default_value = "A")]
    pub convention: PassConvention,
    /// Move generator: the build's fastest, or the portable reference.
    #[arg(long, value_enum, default_value_t = Backend::Native)]
    pub backend: Backend,
}

/// Move generator choice for `perft --backend`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Backend {
    /// The fastest generator this build has (AVX2 where the build targets it).
    Native,
    /// The portable generator, always compiled.
    Portable,
}

/// Options of `oxello show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The position: `start`, a board string, a transcript, or a file.
    #[arg(default_value = "start", allow_hyphen_values = true)]
    pub position: String,
    /// Board size (4, 6 or 8) for `start` and transcripts.
    #[arg(short, long, default_value = "8")]
    pub size: BoardSize,
}

/// Options of `oxello move`.
#[derive(Debug, Args)]
pub struct MoveArgs {
    /// The position: a board string, a transcript, or a file (GGF, ...).
    #[arg(allow_hyphen_values = true)]
    pub position: String,
    /// Board size (4, 6 or 8) for transcripts.
    #[arg(short, long, default_value = "8")]
    pub size: BoardSize,
    /// Print a JSON object with the move, score, depth and PV.
    #[arg(long)]
    pub json: bool,
}

/// Options of `oxello solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// OBF file of positions to solve (with expected scores). Without it,
    /// the start position of `--size` or `--position` is solved.
    pub file: Option<std::path::PathBuf>,
    /// The position to solve when no file is given.
    #[arg(short, long, default_value = "start", allow_hyphen_values = true)]
    pub position: String,
    /// Board size (4, 6 or 8) for `start` and transcripts.
    #[arg(short, long, default_value = "8")]
    pub size: BoardSize,
    /// Exact scores (the default).
    #[arg(long, conflicts_with = "wld")]
    pub exact: bool,
    /// Only win / loss / draw.
    #[arg(long)]
    pub wld: bool,
    /// One JSON object per position, then one for the totals.
    #[arg(long)]
    pub json: bool,
    /// Number of the first position of the file (the FFO files start at 1,
    /// 20 or 40).
    #[arg(long, default_value_t = 1)]
    pub first_number: usize,
    /// Only the positions numbered in this range, e.g. `40-44` or `47`.
    #[arg(long)]
    pub range: Option<String>,
    /// Solve every legal move, not just the best (each with its exact score).
    #[arg(long)]
    pub all_moves: bool,
    /// Write the solved positions to this OBF file (with `--all-moves`, every
    /// move's score; otherwise the best moves).
    #[arg(long)]
    pub write: Option<std::path::PathBuf>,
    /// Solve positions sampled from the WTHOR games of this folder instead
    /// of a file (with `--empties`, `--count`, `--seed`): how the accuracy
    /// sets of `positions/` are made.
    #[arg(long, conflicts_with = "file")]
    pub sample_wthor: Option<std::path::PathBuf>,
    /// Empty squares of the sampled positions.
    #[arg(long, default_value_t = 24, requires = "sample_wthor")]
    pub empties: u32,
    /// Number of sampled positions.
    #[arg(long, default_value_t = 50, requires = "sample_wthor")]
    pub count: usize,
}

/// Whether `error` is a write to a closed stdout (the reader of a pipe has
/// gone, as after `| head`): the command then ends quietly, with success, as
/// the protocol modes do. Reports are written with `writeln!` and `?`, so
/// this error ends them at the first line nobody reads.
pub fn is_closed_stdout(error: &(dyn Error + 'static)) -> bool {
    error
        .downcast_ref::<std::io::Error>()
        .is_some_and(|error| error.kind() == std::io::ErrorKind::BrokenPipe)
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<ExitCode, Box<dyn Error>> {
    use crate::protocol::Mode;
    let protocol = |mode| -> Result<ExitCode, Box<dyn Error>> {
        crate::protocol::run(mode, cli.engine.options()?)?;
        Ok(ExitCode::SUCCESS)
    };
    match &cli.command {
        None => protocol(Mode::Auto),
        Some(Command::Nboard) => protocol(Mode::Nboard),
        Some(Command::Gtp) => protocol(Mode::Gtp),
        Some(Command::Console) => protocol(Mode::Console),
        Some(Command::Gomocup) => protocol(Mode::Gomocup),
        Some(Command::Move(args)) => crate::protocol::oneshot::run(args, cli.engine.options()?),
        _ => run_tool(cli),
    }
}

fn run_tool(cli: Cli) -> Result<ExitCode, Box<dyn Error>> {
    match cli.command {
        Some(Command::Perft(args)) => run_perft(&args),
        Some(Command::Show(args)) => run_show(&args),
        Some(Command::Solve(args)) => crate::cli_solve::run(
            &args,
            cli.engine.options()?,
            cli.engine.seed.unwrap_or(DEFAULT_SAMPLE_SEED),
        ),
        Some(Command::Bench(args)) => {
            let selectivity = cli.engine.options()?.analysis_selectivity();
            match &args.accuracy {
                Some(path) => crate::cli_bench::run_accuracy(
                    path,
                    args.bench_depth
                        .unwrap_or(crate::cli_bench::DEFAULT_ACCURACY_DEPTH),
                    selectivity,
                ),
                None => crate::cli_bench::run(
                    args.bench_depth
                        .unwrap_or(crate::cli_bench::DEFAULT_BENCH_DEPTH),
                    selectivity,
                ),
            }
        }
        Some(Command::Analyze(args)) if crate::cli_game_analysis::wanted(&args) => {
            crate::cli_game_analysis::run(&args, cli.engine.options()?)
        }
        Some(Command::Analyze(args)) => crate::cli_analyze::run(&args, cli.engine.options()?),
        Some(Command::Match(args)) => crate::cli_match::run(&args, &cli.engine),
        Some(Command::TrainEval(args)) => crate::cli_train::run(&args),
        Some(Command::FitProbcut(args)) => {
            crate::cli_probcut::run(&args, cli.engine.seed.unwrap_or(DEFAULT_FIT_SEED))
        }
        Some(Command::Selfplay(args)) => crate::cli_selfplay::run(&args, &cli.engine),
        _ => unreachable!("protocol modes are dispatched by run"),
    }
}

fn load(position: &str, size: BoardSize) -> Result<Game, Box<dyn Error>> {
    spec::read_game(position, size).map_err(|e| match e {
        // A file error names the file itself.
        spec::SpecError::File(e) => format!("position: {e}").into(),
        e => format!("position '{position}': {e}").into(),
    })
}

fn run_perft(args: &PerftArgs) -> Result<ExitCode, Box<dyn Error>> {
    let game = load(&args.position, args.size)?;
    let mut out = std::io::stdout().lock();
    let position = game.position();
    let backend = match args.backend {
        Backend::Native => movegen::BACKEND,
        Backend::Portable => "portable",
    };
    writeln!(
        out,
        "perft depth {} convention {} size {} backend {}",
        args.depth, args.convention, position.size, backend
    )?;
    writeln!(out, "position {}", board_string::format_position(&position))?;
    let started = Instant::now();
    let leaves = if args.divide {
        let parts = perft::divide(position.board, position.size, args.depth, args.convention);
        for (mv, count) in &parts {
            writeln!(out, "{mv:<4} {count}")?;
        }
        parts.iter().map(|(_, count)| count).sum()
    } else {
        let count = match args.backend {
            Backend::Native => perft::perft_with::<perft::Native>,
            Backend::Portable => perft::perft_with::<perft::Portable>,
        };
        count(position.board, position.size, args.depth, args.convention)
    };
    let seconds = started.elapsed().as_secs_f64();
    writeln!(out, "leaves {leaves}")?;
    writeln!(out, "time {seconds:.3} s")?;
    writeln!(out, "leaves/s {:.0}", leaves as f64 / seconds.max(1e-9))?;
    Ok(ExitCode::SUCCESS)
}

fn run_show(args: &ShowArgs) -> Result<ExitCode, Box<dyn Error>> {
    let game = load(&args.position, args.size)?;
    let mut out = std::io::stdout().lock();
    let position = game.position();
    write!(out, "{}", diagram(&position))?;
    writeln!(out, "board {}", board_string::format_position(&position))?;
    if !game.moves().is_empty() {
        writeln!(out, "moves {}", transcript::format_game(&game))?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn available_memory_is_read_from_meminfo() {
        let meminfo = "MemTotal:       24684112 kB\nMemFree:        23813788 kB\n\
                       MemAvailable:   24184460 kB\nBuffers:           98412 kB\n";
        assert_eq!(mem_available_mib(meminfo), Some(23617));
        assert_eq!(mem_available_mib("MemFree: 1 kB\n"), None);
        assert_eq!(mem_available_mib("MemAvailable: x kB\n"), None);
        assert!(check_hash(0, 1).is_err());
        assert!(check_hash(MAX_HASH_MIB + 1, 1).is_err());
        assert!(check_hash(1, 1).is_ok());
    }
}
