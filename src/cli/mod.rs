//! The command line of the `oxello` binary: the clap root and the engine
//! options shared by every mode, then one file per subcommand owning its
//! `Args` and its code. It lives in the binary, not the library: no library
//! module depends on it.
//!
//! Everything here runs at the edge: errors become messages on stderr (or
//! `{"error":...}` on stdout under `--json`) and an exit code, the same for
//! the same kind of error in every subcommand: [`EXIT_FAILURE`] (1) for a
//! run that went wrong, [`EXIT_USAGE`] (2) for a wrong command line, as
//! clap's own. Reports go to stdout.

mod analyze;
mod bench;
mod bench_speed;
mod book;
mod console;
mod fit_probcut;
mod game;
mod game_analysis;
mod gomoku_bench;
mod r#match;
mod r#move;
mod move_order;
mod openings;
mod perft;
mod progress;
mod search_labels;
mod selfplay;
mod show;
mod solve;
mod train_eval;

use analyze::AnalyzeArgs;
use bench::BenchArgs;
use clap::{Args, Parser, Subcommand};
use fit_probcut::FitProbcutArgs;
use r#match::MatchArgs;
use r#move::MoveArgs;
use move_order::MoveOrderArgs;
use openings::OpeningsArgs;
use oxello::bitboard::BoardSize;
use oxello::formats::spec;
use oxello::game::Game;
use perft::PerftArgs;
use search_labels::SearchLabelsArgs;
use selfplay::SelfplayArgs;
use show::ShowArgs;
use solve::SolveArgs;
use std::error::Error;
use std::fmt;
use std::process::ExitCode;
use train_eval::TrainEvalArgs;

/// Exit code of a run that went wrong: a position or file that cannot be
/// read, a solve that disagrees with its file, an engine that failed.
pub const EXIT_FAILURE: u8 = 1;
/// Exit code of a command line that is wrong, as clap's own: an unknown
/// option, a value out of range, an option that does not apply.
pub const EXIT_USAGE: u8 = 2;

/// A mistake in the command line found after clap parsed it (exit code
/// [`EXIT_USAGE`]).
#[derive(Debug)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Error for UsageError {}

/// A [`UsageError`] with this message.
pub fn usage(message: impl Into<String>) -> Box<dyn Error> {
    Box::new(UsageError(message.into()))
}

/// The exit code for an error a command returned.
pub fn exit_code(error: &(dyn Error + 'static)) -> u8 {
    if error.is::<UsageError>() {
        EXIT_USAGE
    } else {
        EXIT_FAILURE
    }
}

/// oxello: an engine for Othello (Reversi) and gomoku (five in a row).
///
/// Othello is the default game; `--game gomoku` (console, match, selfplay,
/// bench, train-eval) and `oxello gomocup` (the Gomocup brain, also
/// installed as `pbrain-oxello`) play gomoku. Othello positions can be given as a 64-character board string followed by the side
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
    /// or a simple player: random, greedy, positional. In `gomocup` and the
    /// gomoku console, the search depth 1-40.
    #[arg(short, long, global = true)]
    pub level: Option<oxello::engine::Player>,
    /// Transposition table size in MiB (in `gomocup` and the gomoku console,
    /// the gomoku table's; the brain's `INFO max_memory` resizes it).
    #[arg(long, global = true, allow_negative_numbers = true)]
    pub hash: Option<usize>,
    /// Search depth, 1 to 60: the midgame depth overriding the level's;
    /// `perft`'s depth in plies (default 9); `bench`'s midgame depth; the
    /// gomoku modes' deepest iteration (1 to 40).
    #[arg(short, long, global = true, value_parser = clap::value_parser!(u32).range(1..=60), allow_negative_numbers = true)]
    pub depth: Option<u32>,
    /// Seconds per move (the level's depth still caps the search); the
    /// gomoku brain's turn time until the manager sends `timeout_turn`.
    #[arg(short, long, global = true, allow_negative_numbers = true)]
    pub time: Option<f64>,
    /// Search threads (default: every core for play, analysis and solving;
    /// 1 for `bench` and node-limited searches, which stay reproducible, and
    /// for the gomoku brain unless `INFO thread_num` says otherwise).
    #[arg(long, global = true, allow_negative_numbers = true)]
    pub threads: Option<usize>,
    /// Multi-ProbCut selectivity in percent: 73, 87, 95, 98, 99 or 100
    /// (100: no selectivity). Overrides the level's.
    #[arg(long, global = true)]
    pub selectivity: Option<oxello::search::Selectivity>,
    /// Seed of random choices, for reproducible runs: the random player's
    /// moves (default: a new seed from the system each run, printed in match
    /// headers), a match's opening order (which it then shuffles, as
    /// `--random` does), the sampling of fit-probcut and of
    /// `solve --sample-wthor` (default 1).
    #[arg(long, global = true, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Opening book file to play from instead of the built-in one (and the
    /// book `book show`, `stats` and `export` read; NBoard's `learn` adds
    /// games to it).
    #[arg(long, global = true, value_name = "FILE", conflicts_with = "no_book")]
    pub book: Option<std::path::PathBuf>,
    /// Play without an opening book.
    #[arg(long, global = true)]
    pub no_book: bool,
    /// Play any book move within D discs of the best book move, drawn with
    /// the seed, for varied games (0, the default: always the best).
    #[arg(long, global = true, value_name = "D", value_parser = clap::value_parser!(u32).range(0..=64))]
    pub book_randomness: Option<u32>,
}

impl EngineArgs {
    /// The engine options these arguments ask for.
    pub fn options(&self) -> Result<oxello::engine::EngineOptions, Box<dyn Error>> {
        let mut options = oxello::engine::EngineOptions::default();
        if let Some(player) = self.level {
            options.player = player;
        }
        if let Some(hash) = self.hash {
            check_hash(hash, 1).map_err(usage)?;
            options.hash_mib = hash;
        }
        options.depth = self.depth;
        if let Some(threads) = self.threads {
            if !(1..=oxello::core::MAX_THREADS).contains(&threads) {
                return Err(usage(format!(
                    "--threads {threads}: use 1 to {}",
                    oxello::core::MAX_THREADS
                )));
            }
            options.threads = Some(threads);
        }
        options.selectivity = self.selectivity;
        options.book = match (&self.book, self.no_book) {
            (_, true) => oxello::book::BookSource::None,
            (Some(path), false) => oxello::book::BookSource::File(path.clone()),
            (None, false) => oxello::book::BookSource::BuiltIn,
        };
        options.book_randomness = self.book_randomness.unwrap_or(0);
        // A random player that plays the same moves every run is no random
        // player: without --seed, every run draws its own.
        options.seed = self.seed.unwrap_or_else(rand::random);
        if let Some(seconds) = self.time {
            if !(seconds.is_finite() && seconds > 0.0 && seconds < 1e7) {
                return Err(usage(format!(
                    "--time {seconds}: use a number of seconds above 0 and below 10000000 (1e7)"
                )));
            }
            options.time = Some(std::time::Duration::from_secs_f64(seconds));
        }
        Ok(options)
    }

    /// The options of the Gomocup brain the auto-detecting loop switches
    /// to, from the Othello `options`: its search depth is `--level N` (the
    /// Othello level until then) when no `--depth` is given, at most the
    /// gomoku search's deepest.
    pub fn auto_gomoku_options(
        &self,
        options: &oxello::engine::EngineOptions,
    ) -> oxello::gomoku::engine::EngineOptions {
        use oxello::engine::Player;
        let depth = match self.level {
            Some(Player::Level(level)) if self.depth.is_none() => {
                Some(level.level.min(oxello::gomoku::search::MAX_DEPTH))
            }
            _ => None,
        };
        gomoku_engine_options(options, depth.or(options.depth))
    }

    /// The options of the gomoku modes (`gomocup`, `console --game
    /// gomoku`): `--depth N` or `--level N` caps the search at depth N,
    /// `--time S` is the time per move (the brain's until the manager sends
    /// `INFO timeout_turn`), `--hash` and `--threads` as everywhere.
    /// `--selectivity`, `--seed` and the simple players are Othello's and
    /// are refused rather than ignored.
    pub fn gomoku_options(
        &self,
        command: &str,
    ) -> Result<oxello::gomoku::engine::EngineOptions, Box<dyn Error>> {
        use oxello::engine::Player;
        use oxello::gomoku::search::MAX_DEPTH;
        use oxello::protocol::gomoku_console::MAX_SECONDS;
        self.refuse(command, &["selectivity", "seed"])?;
        let options = self.options()?;
        let level = match self.level {
            Some(Player::Level(level)) => Some(level.level),
            Some(Player::Simple(player)) => {
                return Err(usage(format!(
                    "--level {player}: {command} plays by search; give a level 1 to {MAX_DEPTH} \
                     (its search depth)"
                )));
            }
            None => None,
        };
        if self.depth.is_some() && level.is_some() {
            return Err(usage(format!(
                "--depth and --level both set {command}'s search depth: give one"
            )));
        }
        let depth = self.depth.or(level);
        if let Some(depth) = depth
            && !(1..=MAX_DEPTH).contains(&depth)
        {
            return Err(usage(format!(
                "{command}: search depth {depth}: use 1 to {MAX_DEPTH}"
            )));
        }
        if let Some(seconds) = self.time
            && !(0.01..=MAX_SECONDS).contains(&seconds)
        {
            return Err(usage(format!(
                "{command}: --time {seconds}: use 0.01 to {MAX_SECONDS} seconds per move"
            )));
        }
        Ok(gomoku_engine_options(&options, depth))
    }

    /// Refuses the global options among `names` (see [`ENGINE_OPTIONS`]) (`level`, `hash`, `depth`,
    /// `time`, `threads`, `selectivity`, `seed`) that were given: `command`
    /// does not use them, and ignoring them silently would mislead.
    pub fn refuse(&self, command: &str, names: &[&str]) -> Result<(), Box<dyn Error>> {
        for name in names {
            let given = match *name {
                "level" => self.level.is_some(),
                "hash" => self.hash.is_some(),
                "depth" => self.depth.is_some(),
                "time" => self.time.is_some(),
                "threads" => self.threads.is_some(),
                "selectivity" => self.selectivity.is_some(),
                "seed" => self.seed.is_some(),
                "book" => self.book.is_some(),
                "no-book" => self.no_book,
                "book-randomness" => self.book_randomness.is_some(),
                _ => false,
            };
            if given {
                return Err(usage(format!("--{name} does not apply to {command}")));
            }
        }
        Ok(())
    }
}

/// The names of every engine option, for [`EngineArgs::refuse`] by a
/// command that searches nothing.
pub const ENGINE_OPTIONS: &[&str] = &[
    "level",
    "hash",
    "depth",
    "time",
    "threads",
    "selectivity",
    "seed",
    "book",
    "no-book",
    "book-randomness",
];

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
    /// The console for people: play, analyse, solve at a terminal; with
    /// `--game gomoku`, play five in a row (`--size`, `--rule`,
    /// `--n-in-row`).
    Console(console::ConsoleArgs),
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
    ///
    /// With `--game gomoku`, gomoku engines speaking the Gomocup protocol
    /// (`--engine "oxello gomocup"`, `pbrain-rapfi`) or the simple players
    /// `greedy` and `random` play on `--size` under `--rule`, with `--time`
    /// per move (`timeout_turn`) and `--tc` per game (`timeout_match`); the
    /// match file is SGF.
    Match(Box<MatchArgs>),
    /// Train the pattern evaluation from WTHOR game files and write the
    /// weight file (the built-in one is `fitted/pattern-weights-8.bin`);
    /// with `--size 6`, the 6x6 one from self-play records (`--selfplay`,
    /// `fitted/pattern-weights-6.bin`); with `--game gomoku`, the gomoku
    /// evaluation's weights (`fitted/gomoku-eval.bin`).
    ///
    /// Every position of every finished game is labelled with the game's
    /// theoretical score, and with `--solved`, positions solved exactly by
    /// `scripts/solve-labels.sh` are added; one game (and one solved
    /// position) in 10 is held out, and the error on it is printed per
    /// phase beside the built-in weights'.
    ///
    /// Gomoku fits a logistic model of the outcome to self-play records
    /// (`--selfplay`) and match games (`--sgf`), in two stages (a small
    /// model, then every feature), and prints the held-out log loss of the
    /// search scores, of the weights in force and of the fit.
    TrainEval(TrainEvalArgs),
    /// Search the WTHOR positions past the theoretical depth (where a
    /// game's label is the players' result) and write their search values,
    /// for `train-eval --searched` (or, with `--held-out`, for measuring
    /// the evaluation with `bench --eval-error`).
    ///
    /// Every position with at least `--min-empties` of one training game in
    /// `--every` (one held-out game with `--held-out`) is searched to
    /// `--depth` (default 10) at the selectivity of
    /// play, one game per thread, each game with a fresh table: the values
    /// are the same for any number of threads. The file keeps the games'
    /// order; rerunning the same command resumes a killed run.
    SearchLabels(SearchLabelsArgs),
    /// Fit the Multi-ProbCut parameters from our own searches of WTHOR
    /// positions and write them (the built-in ones are
    /// `fitted/probcut.bin`).
    ///
    /// Midgame positions are searched without selectivity to `--max-depth`;
    /// endgame positions are solved exactly and searched shallowly. The
    /// regressions and σ are printed per depth pair.
    FitProbcut(FitProbcutArgs),
    /// Write the balanced gomoku opening list (`--game gomoku`; the
    /// shipped one is `positions/gomoku-openings.txt`) on stdout.
    ///
    /// Every three-stone opening (Black at the centre, White and Black
    /// within three points of it, once up to symmetry) is searched on 15x15
    /// under the standard rule, White to move (depth 10, at most 400,000
    /// nodes, one thread: the same list every run of the same engine); the
    /// `--count` whose score is nearest 0 are written in c-gomoku-cli's
    /// offset format, most balanced first, with their scores on stderr.
    Openings(OpeningsArgs),
    /// Measure the gomoku search's move order against a teacher engine's
    /// moves (`--game gomoku`).
    ///
    /// Reads the teacher's move for each searched move of each match file
    /// from `GAMES.sgf.moves-NAME` (`scripts/gomoku-teacher-labels.py`),
    /// and prints how often the teacher's move, and each player's, is among
    /// the first 1, 3, 6, 12 and 20 moves of the order in positions not
    /// forced, and how often each player chose the teacher's move.
    MoveOrder(MoveOrderArgs),
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
    Selfplay(Box<SelfplayArgs>),
    /// Build, grow, merge, inspect and convert opening books (see
    /// `oxello book --help`). Play uses the built-in book unless `--book
    /// FILE` or `--no-book` says otherwise.
    Book(book::BookArgs),
}

/// Whether the command line asks for JSON (`--json`): errors are then one
/// JSON object on stdout, `{"error":"..."}`, so that a script reads one
/// object whatever happens.
pub fn json_requested(args: impl IntoIterator<Item = std::ffi::OsString>) -> bool {
    args.into_iter()
        .take_while(|arg| arg != "--")
        .any(|arg| arg == "--json")
}

/// Prints `{"error":"MESSAGE"}` on stdout.
pub fn print_json_error(message: &str) {
    use std::io::Write as _;
    // Nobody to tell when stdout is closed.
    let _ = writeln!(std::io::stdout(), "{}", oxello::json::error_json(message));
}

/// Whether `error` is a write to a closed stdout (the reader of a pipe has
/// gone, as after `| head`): the command then ends quietly, with success, as
/// the protocol modes do. Reports are written with `writeln!` and `?`, so
/// this error ends them at the first line nobody reads.
pub fn is_closed_stdout(error: &(dyn Error + 'static)) -> bool {
    let mut cause = Some(error);
    while let Some(error) = cause {
        let broken = error
            .downcast_ref::<std::io::Error>()
            .is_some_and(|error| error.kind() == std::io::ErrorKind::BrokenPipe);
        if broken {
            return true;
        }
        cause = error.source();
    }
    false
}

/// The gomoku engine's options from the command line's `options`, with the
/// search depth `depth`.
fn gomoku_engine_options(
    options: &oxello::engine::EngineOptions,
    depth: Option<u32>,
) -> oxello::gomoku::engine::EngineOptions {
    oxello::gomoku::engine::EngineOptions {
        hash_mib: options.hash_mib,
        depth,
        time: options.time,
        threads: options.threads,
    }
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<ExitCode, Box<dyn Error>> {
    use oxello::protocol::Mode;
    let engine = &cli.engine;
    let run_loop = |mode, options, gomoku| -> Result<ExitCode, Box<dyn Error>> {
        oxello::protocol::run(mode, options, gomoku)?;
        Ok(ExitCode::SUCCESS)
    };
    // The book options, refused where nothing plays from a book.
    const BOOK_OPTIONS: &[&str] = &["book", "no-book", "book-randomness"];
    match &cli.command {
        None | Some(Command::Nboard | Command::Gtp | Command::Move(_) | Command::Book(_)) => {}
        Some(Command::Console(args)) if args.game == game::Game::Othello => {}
        Some(Command::Analyze(args)) if game_analysis::wanted(args) => {
            engine.refuse("analyze (it plays no move)", &["book-randomness"])?
        }
        Some(_) => engine.refuse("this command (it plays from no book)", BOOK_OPTIONS)?,
    }
    // An Othello mode, which never switches to gomoku.
    let protocol = |mode, options| run_loop(mode, options, Default::default());
    let gomoku = |mode, gomoku| run_loop(mode, Default::default(), gomoku);
    match &cli.command {
        Some(Command::Console(args)) => match console::mode(args)? {
            mode @ Mode::GomokuConsole(_) => {
                gomoku(mode, engine.gomoku_options("console --game gomoku")?)
            }
            mode => protocol(mode, engine.options()?),
        },
        Some(Command::Gomocup) => gomoku(Mode::Gomocup, engine.gomoku_options("gomocup")?),
        None => {
            let options = engine.options()?;
            let gomoku = engine.auto_gomoku_options(&options);
            run_loop(Mode::Auto, options, gomoku)
        }
        Some(Command::Nboard) => protocol(Mode::Nboard, engine.options()?),
        Some(Command::Gtp) => protocol(Mode::Gtp, engine.options()?),
        Some(Command::Move(args)) => r#move::run(args, engine),
        Some(Command::Perft(args)) => perft::run(args, engine),
        Some(Command::Show(args)) => show::run(args, engine),
        Some(Command::Solve(args)) => solve::run(args, engine),
        Some(Command::Bench(args)) => bench::run(args, engine),
        Some(Command::Analyze(args)) => analyze::run(args, engine),
        Some(Command::Match(args)) => r#match::run(args, engine),
        Some(Command::TrainEval(args)) => train_eval::run(args, engine),
        Some(Command::SearchLabels(args)) => search_labels::run(args, engine),
        Some(Command::FitProbcut(args)) => fit_probcut::run(args, engine),
        Some(Command::Openings(args)) => openings::run(args, engine),
        Some(Command::MoveOrder(args)) => move_order::run(args, engine),
        Some(Command::Selfplay(args)) => selfplay::run(args, engine),
        Some(Command::Book(args)) => book::run(args, engine),
    }
}

/// Reads the POSITION argument of a subcommand into a game.
pub fn load(position: &str, size: BoardSize) -> Result<Game, Box<dyn Error>> {
    spec::read_game(position, size).map_err(|e| match e {
        // A file error names the file itself.
        spec::SpecError::File(e) => format!("position: {e}").into(),
        e => format!("position '{position}': {e}").into(),
    })
}

/// The entries of the OBF file `path` (an empty file is refused; a file of
/// comments alone has no entry).
pub fn read_obf(
    path: &std::path::Path,
) -> Result<Vec<oxello::formats::obf::ObfEntry>, Box<dyn Error>> {
    let text = oxello::formats::read_text_file(path, u64::MAX)?;
    Ok(oxello::formats::obf::parse_file(&text).map_err(|e| format!("{}: {e}", path.display()))?)
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

    /// Issue 75, defect 5: a negative number is read as the option's value,
    /// and its check says what is allowed (defect 6: the limit is stated).
    #[test]
    fn negative_numbers_are_values_and_time_limits_are_stated() {
        use clap::Parser as _;
        let cli = Cli::try_parse_from(["oxello", "move", "f5d6", "--time", "-1"])
            .expect("-1 is the value of --time");
        assert_eq!(cli.engine.time, Some(-1.0));
        let error = cli.engine.options().unwrap_err().to_string();
        assert!(error.contains("above 0 and below 10000000"), "{error}");
        let cli = Cli::try_parse_from(["oxello", "--time", "1e9", "show"]).unwrap();
        let error = cli.engine.options().unwrap_err().to_string();
        assert!(error.contains("below 10000000"), "{error}");
        let selfplay = ["oxello", "selfplay", "-g", "2", "-o", "x.jsonl"];
        let cli = Cli::try_parse_from(selfplay.iter().chain(&["--temperature", "-1"]));
        assert!(cli.is_ok(), "-1 is the value of --temperature");
    }

    /// Issue 75, defect 14: a match of no games is a usage error.
    #[test]
    fn a_match_of_no_games_is_refused() {
        use clap::Parser as _;
        for option in ["--games", "--rounds", "--stop-after"] {
            let args = [
                "oxello", "match", "-e", "greedy", "-e", "random", option, "0",
            ];
            let error = Cli::try_parse_from(args).unwrap_err();
            assert_eq!(error.exit_code(), 2, "{option}");
        }
    }

    /// Issue 75, defect 2: a closed stdout under self-play is a quiet end.
    #[test]
    fn a_closed_stdout_under_selfplay_is_recognised() {
        let broken = std::io::Error::from(std::io::ErrorKind::BrokenPipe);
        let error: Box<dyn Error> = Box::new(oxello::selfplay::SelfplayError::Io(broken));
        assert!(is_closed_stdout(error.as_ref()));
        let other = std::io::Error::from(std::io::ErrorKind::NotFound);
        let error: Box<dyn Error> = Box::new(oxello::selfplay::SelfplayError::Io(other));
        assert!(!is_closed_stdout(error.as_ref()));
    }
}
