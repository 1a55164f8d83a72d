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
mod solve_checkpoint;
mod solve_progress;
mod solve_signals;
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
use oxello::core::one_line;
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

/// Reads a count of 1 or more (games, rounds, nodes), with an error that
/// says so rather than clap's range (`0 is not in 1..18446744073709551615`).
pub fn positive_count(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err("use 1 or more".to_string()),
        Ok(n) => Ok(n),
        Err(_) if text.trim().starts_with('-') => Err("use 1 or more".to_string()),
        Err(_) => Err(format!("'{text}' is not a whole number (use 1 or more)")),
    }
}

/// [`positive_count`] as a `usize`.
pub fn positive_usize(text: &str) -> Result<usize, String> {
    positive_count(text).and_then(|n| usize::try_from(n).map_err(|_| "too large".to_string()))
}

/// `--threads N`: 1 to [`oxello::core::MAX_THREADS`].
pub fn check_threads(threads: usize) -> Result<usize, Box<dyn Error>> {
    if (1..=oxello::core::MAX_THREADS).contains(&threads) {
        Ok(threads)
    } else {
        Err(usage(format!(
            "--threads {threads}: use 1 to {}",
            oxello::core::MAX_THREADS
        )))
    }
}

/// A gomoku search depth: 1 to the search's deepest.
pub fn check_gomoku_depth(command: &str, depth: u32) -> Result<(), Box<dyn Error>> {
    use oxello::gomoku::search::MAX_DEPTH;
    if (1..=MAX_DEPTH).contains(&depth) {
        Ok(())
    } else {
        Err(usage(format!(
            "{command}: search depth {depth}: use 1 to {MAX_DEPTH}"
        )))
    }
}

/// Refuses at once an output file that cannot be written, before the work
/// whose result it is: the path names a folder, or its folder does not
/// exist. A run that cannot write (exit 1, as a file that cannot be read).
pub fn check_output(option: &str, path: &std::path::Path) -> Result<(), Box<dyn Error>> {
    if path.is_dir() {
        return Err(format!("{option} {}: is a folder", path.display()).into());
    }
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => std::path::Path::new("."),
    };
    if !folder.is_dir() {
        return Err(format!(
            "{option} {}: no folder {}",
            path.display(),
            folder.display()
        )
        .into());
    }
    Ok(())
}

/// `--out`'s file, or `default` when none is given, checked by
/// [`check_output`]; a default that cannot be written says it is the
/// default (it is relative to the project's folder).
pub fn output_or_default(
    out: Option<&std::path::Path>,
    default: &str,
) -> Result<std::path::PathBuf, Box<dyn Error>> {
    match out {
        Some(path) => check_output("--out", path).map(|()| path.to_path_buf()),
        None => {
            let path = std::path::PathBuf::from(default);
            check_output("the default --out", &path)
                .map_err(|e| format!("{e} (run from the project's folder, or give --out)"))?;
            Ok(path)
        }
    }
}

/// Reads a seed: a whole number from 0 to 18446744073709551615.
pub fn seed_value(text: &str) -> Result<u64, String> {
    text.trim().parse::<u64>().map_err(|_| {
        format!(
            "'{text}' is not a seed (a whole number from 0 to {})",
            u64::MAX
        )
    })
}

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
/// the first command is `nboard`, to GTP on a GTP command, or to the
/// Gomocup protocol on `START`, `RECTSTART`, `ABOUT` or `INFO`.
#[derive(Debug, Parser)]
#[command(name = "oxello", version, about, long_about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub engine: EngineArgs,
}

// Engine options, the same for every mode and subcommand that takes them
// (see `engine_use`): an option is one field here. (A comment, not
// documentation: clap would make it the about text of every subcommand.)
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Engine options")]
pub struct EngineArgs {
    /// Playing level 1-60 (midgame depth; solves from a few more empties),
    /// or a simple player: random, greedy, positional. In `gomocup` and the
    /// gomoku console, the search depth 1-40.
    #[arg(short, long)]
    pub level: Option<oxello::engine::Player>,
    /// Transposition table size in MiB (in `gomocup` and the gomoku console,
    /// the gomoku table's; the brain's `INFO max_memory` resizes it).
    #[arg(long, allow_negative_numbers = true)]
    pub hash: Option<usize>,
    /// Search depth, 1 to 60: the midgame depth overriding the level's;
    /// `perft`'s depth in plies (default 9); `bench`'s midgame depth; the
    /// gomoku modes' deepest iteration (1 to 40).
    #[arg(short, long, value_parser = clap::value_parser!(u32).range(1..=60), allow_negative_numbers = true)]
    pub depth: Option<u32>,
    /// Seconds per move (the level's depth still caps the search); the
    /// gomoku brain's turn time until the manager sends `timeout_turn`.
    #[arg(short, long, allow_negative_numbers = true)]
    pub time: Option<f64>,
    /// Search threads (default: every core for play, analysis and solving;
    /// 1 for `bench` and node-limited searches, which stay reproducible, and
    /// for the gomoku brain unless `INFO thread_num` says otherwise).
    #[arg(long, allow_negative_numbers = true)]
    pub threads: Option<usize>,
    /// Multi-ProbCut selectivity in percent: 73, 87, 95, 98, 99 or 100
    /// (100: no selectivity). Overrides the level's.
    #[arg(long)]
    pub selectivity: Option<oxello::search::Selectivity>,
    /// Seed of random choices, for reproducible runs: the random player's
    /// moves (default: a new seed from the system each run, printed in match
    /// headers), a match's opening order (which it then shuffles, as
    /// `--random` does), the sampling of fit-probcut and of
    /// `solve --sample-wthor` (default 1).
    #[arg(long, allow_negative_numbers = true, value_parser = seed_value)]
    pub seed: Option<u64>,
    /// Opening book file to play from instead of the built-in one (NBoard's
    /// `learn` adds games to it).
    #[arg(long, value_name = "FILE", conflicts_with = "no-book")]
    pub book: Option<std::path::PathBuf>,
    /// Play without an opening book.
    // A value-less option, not a `SetTrue` flag (whose default `false`
    // would be in the subcommand's matches and overwrite `oxello --no-book
    // move`).
    #[arg(long, id = "no-book", num_args = 0, default_missing_value = "true")]
    pub no_book: Option<bool>,
    /// Play any book move within D discs of the best book move, drawn with
    /// the seed, for varied games (0, the default: always the best).
    #[arg(long, id = "book-randomness", value_name = "D", value_parser = clap::value_parser!(u32).range(0..=64))]
    pub book_randomness: Option<u32>,
    /// The ids of the options given on the command line (filled by
    /// [`parse_from`]), for [`EngineArgs::refuse`].
    #[arg(skip)]
    pub given: Vec<String>,
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
            options.threads = Some(check_threads(threads)?);
        }
        options.selectivity = self.selectivity;
        options.book = match (&self.book, self.no_book == Some(true)) {
            (_, true) => oxello::book::BookSource::None,
            (Some(path), false) => {
                // A book file that is there but cannot be read is refused, not
                // played without. A missing one is allowed (with a warning
                // when the engine starts): NBoard's `learn` makes it.
                if path.exists() {
                    oxello::book::format::load(path)
                        .map_err(|error| format!("--book {}: {error}", path.display()))?;
                }
                oxello::book::BookSource::File(path.clone())
            }
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
        self.refuse(
            command,
            &["selectivity", "seed", "book", "no-book", "book-randomness"],
        )?;
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
        if let Some(depth) = depth {
            check_gomoku_depth(command, depth)?;
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

    /// Refuses the options among `names` (ids of [`EngineArgs`]: `level`,
    /// `hash`, `depth`...) that were given: `command` does not use them, and
    /// ignoring them silently would mislead.
    pub fn refuse(&self, command: &str, names: &[&str]) -> Result<(), Box<dyn Error>> {
        match self
            .given
            .iter()
            .find(|given| names.contains(&given.as_str()))
        {
            Some(name) => Err(usage(format!("--{name} does not apply to {command}"))),
            None => Ok(()),
        }
    }

    /// Refuses every engine option given: `command` searches nothing.
    pub fn refuse_all(&self, command: &str) -> Result<(), Box<dyn Error>> {
        match self.given.first() {
            Some(name) => Err(usage(format!("--{name} does not apply to {command}"))),
            None => Ok(()),
        }
    }
}

/// Which engine options a subcommand takes.
#[derive(Clone, Copy, Debug)]
pub enum Takes {
    /// Every one: the modes that play.
    All,
    /// These ids of [`EngineArgs`]; the others are hidden from its help
    /// and refused, with the reason `why` (if not empty).
    Only {
        ids: &'static [&'static str],
        why: &'static str,
    },
}

/// The engine options of each subcommand (`None`: the mode without one).
/// A subcommand not named here takes none.
pub fn engine_use(subcommand: Option<&str>) -> Takes {
    let only = |ids, why| Takes::Only { ids, why };
    match subcommand {
        None | Some("console" | "nboard" | "gtp" | "move") => Takes::All,
        Some("gomocup") => only(&["level", "hash", "depth", "time", "threads"], ""),
        Some("perft") => only(&["depth"], "its depth is --depth"),
        Some("solve") => only(
            &["hash", "threads", "selectivity", "seed"],
            "it always solves to the end",
        ),
        Some("bench") => only(
            &["depth", "selectivity"],
            "one thread, a fresh table, fixed positions",
        ),
        Some("analyze") => only(
            &[
                "hash",
                "depth",
                "time",
                "threads",
                "selectivity",
                "book",
                "no-book",
            ],
            "its depth is --depth, its time --time",
        ),
        Some("book") => only(
            &[],
            "give the options of a book command after it: oxello book build --depth 20",
        ),
        Some("match") => only(
            &["hash", "depth", "time", "threads", "seed"],
            "name each engine's level and options in --engine: level:10, \
             or a command such as \"oxello nboard --level 10\"",
        ),
        Some("search-labels") => only(&["depth", "threads", "selectivity"], ""),
        Some("fit-probcut") => only(
            &["hash", "threads", "seed"],
            "its depths are --max-depth and --max-endgame-empties",
        ),
        Some("selfplay") => only(
            &["level", "hash", "depth", "threads", "selectivity", "seed"],
            "it plays without a book (its openings are --random-moves, --openings or \
             --wthor), and searches by depth and --nodes, never by time: a time limit would \
             make the records depend on the machine and its load",
        ),
        Some("openings") => only(&[], "its search is fixed, for the same list every run"),
        Some("show" | "move-order") => only(&[], "it searches nothing"),
        Some(_) => only(&[], ""),
    }
}

/// The ids of [`EngineArgs`]' options.
fn engine_ids() -> Vec<String> {
    EngineArgs::augment_args(clap::Command::new("engine"))
        .get_arguments()
        .map(|arg| arg.get_id().to_string())
        .collect()
}

/// The clap command of the command line: the derived one, with the engine
/// options added to every subcommand (those it does not take hidden from
/// its help, and refused by [`parse_from`]). With `hyphen_positions`, a
/// POSITION may start with `-` (a board string such as `---...OX... X`);
/// an unknown option in its place is then refused by [`PositionArg`], and
/// [`parse_from`] parses again without, for clap's own message and its
/// suggestion of a similar option.
pub fn command(hyphen_positions: bool) -> clap::Command {
    use clap::CommandFactory as _;
    let mut root = Cli::command();
    let names: Vec<String> = root
        .get_subcommands()
        .map(|sub| sub.get_name().to_string())
        .collect();
    let ids = engine_ids();
    for name in names {
        let takes = engine_use(Some(&name));
        root = root.mut_subcommand(&name, |sub| {
            let mut sub = EngineArgs::augment_args(sub);
            for id in &ids {
                let taken = match takes {
                    Takes::All => true,
                    Takes::Only { ids, .. } => ids.contains(&id.as_str()),
                };
                if !taken {
                    sub = sub.mut_arg(id, |arg| arg.hide(true));
                }
            }
            with_position_parser(sub, hyphen_positions)
        });
    }
    root
}

/// `command` with its POSITION, and those of its subcommands (`book show`),
/// read as [`command`] says.
fn with_position_parser(mut command: clap::Command, hyphen_positions: bool) -> clap::Command {
    if command
        .get_arguments()
        .any(|arg| arg.get_id() == "position")
    {
        command = command.mut_arg("position", |arg| {
            let arg = arg.allow_hyphen_values(hyphen_positions);
            if hyphen_positions {
                arg.value_parser(PositionArg)
            } else {
                arg
            }
        });
    }
    let names: Vec<String> = command
        .get_subcommands()
        .map(|sub| sub.get_name().to_string())
        .collect();
    for name in names {
        command = command.mut_subcommand(&name, |sub| with_position_parser(sub, hyphen_positions));
    }
    command
}

/// Marks the error of an unknown option read as a POSITION.
const OPTION_AS_POSITION: &str = "an option read as a position";

/// The POSITION value parser under `hyphen_positions` (see [`command`]): a
/// value starting with `-` must look like a board string.
#[derive(Clone, Copy, Debug)]
struct PositionArg;

impl clap::builder::TypedValueParser for PositionArg {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        use clap::error::{ContextKind, ContextValue, ErrorKind};
        let text = clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)?;
        if text.starts_with('-') && !looks_like_board(&text) {
            let mut error = clap::Error::new(ErrorKind::UnknownArgument).with_cmd(cmd);
            error.insert(
                ContextKind::Custom,
                ContextValue::String(OPTION_AS_POSITION.to_string()),
            );
            return Err(error);
        }
        Ok(text)
    }
}

/// Whether `text` looks like a board string (see
/// [`oxello::formats::board_string`]): at least 16 square symbols, spaces,
/// and a side to move, possibly the word `black` or `white`. No option
/// does.
fn looks_like_board(text: &str) -> bool {
    let lower = text.trim().to_ascii_lowercase();
    let squares = lower
        .strip_suffix("black")
        .or_else(|| lower.strip_suffix("white"))
        .unwrap_or(&lower);
    let symbols = squares.chars().filter(|c| !c.is_whitespace()).count();
    symbols >= 16
        && squares
            .chars()
            .all(|c| c.is_whitespace() || "xbo*w-._01;".contains(c))
}

/// Parses the command line `args` (the program's name first): clap's
/// parse (see [`command`]), then the engine options given before the
/// subcommand overridden by those after it, and those the subcommand does
/// not take refused. Every error is clap's, with its exit code (2 for a
/// wrong command line, 0 for `--help` and `--version`).
pub fn parse_from<T: Into<std::ffi::OsString> + Clone>(
    args: impl IntoIterator<Item = T>,
) -> Result<Cli, clap::Error> {
    use clap::FromArgMatches as _;
    use clap::error::{ContextKind, ErrorKind};
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    let matches = match command(true).try_get_matches_from(&args) {
        Ok(matches) => matches,
        Err(error) if error.get(ContextKind::Custom).is_some() => {
            command(false).try_get_matches_from(&args)?
        }
        // An unknown option may have been taken for the POSITION, making
        // the error about a later argument: without hyphen positions, clap
        // names the option itself and suggests a similar one.
        Err(error) if error.kind() == ErrorKind::UnknownArgument => {
            match command(false).try_get_matches_from(&args) {
                Err(strict)
                    if strict.kind() == ErrorKind::UnknownArgument && !about_a_board(&strict) =>
                {
                    return Err(strict);
                }
                _ => return Err(error),
            }
        }
        Err(error) => return Err(error),
    };
    let mut cli = Cli::from_arg_matches(&matches)?;
    let subcommand = matches.subcommand();
    if let Some((_, sub)) = subcommand {
        // Only what was given after the subcommand is in its matches: no
        // engine option has a default value (see the test
        // `no_engine_option_has_a_default`).
        cli.engine.update_from_arg_matches(sub)?;
    }
    let given = |matches: &clap::ArgMatches, id: &str| {
        matches.value_source(id) == Some(clap::parser::ValueSource::CommandLine)
    };
    cli.engine.given = engine_ids()
        .into_iter()
        .filter(|id| given(&matches, id) || subcommand.is_some_and(|(_, sub)| given(sub, id)))
        .collect();
    if let (Some(Command::TrainEval(args)), Some((_, sub))) = (&mut cli.command, subcommand) {
        args.given = sub
            .ids()
            .map(|id| id.as_str())
            .filter(|id| given(sub, id))
            .map(String::from)
            .collect();
    }
    let name = subcommand.map(|(name, _)| name);
    if let Takes::Only { ids, why } = engine_use(name)
        && let Some(id) = cli
            .engine
            .given
            .iter()
            .find(|id| !ids.contains(&id.as_str()))
    {
        let why = if why.is_empty() {
            String::new()
        } else {
            format!(" ({why})")
        };
        return Err(clap::Error::raw(
            ErrorKind::ArgumentConflict,
            format!(
                "--{id} does not apply to {}{why}\n",
                name.unwrap_or("oxello")
            ),
        ));
    }
    Ok(cli)
}

/// Whether a clap error is about a board string taken for an option.
fn about_a_board(error: &clap::Error) -> bool {
    use clap::error::{ContextKind, ContextValue};
    match error.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(arg)) => looks_like_board(arg) || !arg.starts_with('-'),
        _ => true,
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
    /// a score disagrees with the file. A long solve says on stderr how long
    /// it should take, warns when that is out of reach, and shows each step
    /// it finishes.
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

/// Whether the command line asks for JSON: `--json` given to a subcommand
/// that has it. Errors are then one JSON object on stdout,
/// `{"error":"..."}`, so that a script reads one object whatever happens.
pub fn json_requested(args: &[std::ffi::OsString]) -> bool {
    let root = command(false);
    let words = || args.iter().skip(1).take_while(|arg| *arg != "--");
    // The deepest subcommand named (`book show`).
    let mut current: Option<&clap::Command> = None;
    for word in words().filter_map(|arg| arg.to_str()) {
        if let Some(sub) = current.unwrap_or(&root).find_subcommand(word) {
            current = Some(sub);
        }
    }
    current.is_some_and(|sub| {
        sub.get_arguments()
            .any(|arg| arg.get_long() == Some("json"))
    }) && words().any(|arg| arg == "--json")
}

/// Whether a command-line word holds a control character (a line break, a
/// tab...).
pub fn has_control(arg: &std::ffi::OsStr) -> bool {
    arg.to_string_lossy().chars().any(char::is_control)
}

/// Clap's message `text` about the command line `args`, each word of
/// `args` that holds a control character (and its value after a `=`)
/// shown escaped, so that the message keeps clap's lines.
pub fn escape_values(text: &str, args: &[std::ffi::OsString]) -> String {
    let mut text = text.to_string();
    for arg in args.iter().filter(|arg| has_control(arg)) {
        let arg = arg.to_string_lossy();
        let value = arg.split_once('=').map(|(_, value)| value);
        for raw in std::iter::once(arg.as_ref()).chain(value) {
            if has_control(raw.as_ref()) {
                text = text.replace(raw, &one_line(raw));
            }
        }
    }
    text
}

/// Clap's message `rendered` as one line, for a JSON error: the error and
/// its indented details (the missing arguments, the possible values) joined
/// by spaces, a tip after `; `; the usage and the pointer to `--help` are
/// left out.
pub fn clap_message(rendered: &str) -> String {
    let text = rendered.trim_start();
    let text = text.strip_prefix("error: ").unwrap_or(text);
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    lines
        .split(|line| line.is_empty())
        .filter(|paragraph| {
            paragraph.first().is_some_and(|first| {
                !first.starts_with("Usage:") && !first.starts_with("For more information")
            })
        })
        .map(|paragraph| paragraph.join(" "))
        .collect::<Vec<_>>()
        .join("; ")
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
        Some(Command::Show(args)) => show::run(args),
        Some(Command::Solve(args)) => solve::run(args, engine),
        Some(Command::Bench(args)) => bench::run(args, engine),
        Some(Command::Analyze(args)) => analyze::run(args, engine),
        Some(Command::Match(args)) => r#match::run(args, engine),
        Some(Command::TrainEval(args)) => train_eval::run(args),
        Some(Command::SearchLabels(args)) => search_labels::run(args, engine),
        Some(Command::FitProbcut(args)) => fit_probcut::run(args, engine),
        Some(Command::Openings(args)) => openings::run(args),
        Some(Command::MoveOrder(args)) => move_order::run(args),
        Some(Command::Selfplay(args)) => selfplay::run(args, engine),
        Some(Command::Book(args)) => book::run(args),
    }
}

/// Reads the POSITION argument of a subcommand into a game.
pub fn load(position: &str, size: Option<BoardSize>) -> Result<Game, Box<dyn Error>> {
    let game = spec::read_game(position, size.unwrap_or(BoardSize::Eight)).map_err(
        |e| -> Box<dyn Error> {
            match e {
                // A file error names the file itself.
                spec::SpecError::File(e) => format!("position: {e}").into(),
                e => format!("position '{position}': {e}").into(),
            }
        },
    )?;
    check_size(game.size(), size)?;
    Ok(game)
}

/// Refuses a `--size` that a position's own size (a board string's, a
/// file's) contradicts: it would otherwise be ignored.
pub fn check_size(found: BoardSize, given: Option<BoardSize>) -> Result<(), Box<dyn Error>> {
    match given {
        Some(given) if given != found => Err(usage(format!(
            "--size {given}: the position is {found}x{found}; --size sizes `start` and transcripts"
        ))),
        _ => Ok(()),
    }
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
        let cli = parse_from(["oxello", "move", "f5d6", "--time", "-1"])
            .expect("-1 is the value of --time");
        assert_eq!(cli.engine.time, Some(-1.0));
        let error = cli.engine.options().unwrap_err().to_string();
        assert!(error.contains("above 0 and below 10000000"), "{error}");
        let cli = parse_from(["oxello", "--time", "1e9", "move", "f5"]).unwrap();
        let error = cli.engine.options().unwrap_err().to_string();
        assert!(error.contains("below 10000000"), "{error}");
        let selfplay = ["oxello", "selfplay", "-g", "2", "-o", "x.jsonl"];
        let cli = parse_from(selfplay.iter().chain(&["--temperature", "-1"]));
        assert!(cli.is_ok(), "-1 is the value of --temperature");
    }

    /// An engine option means the same before the subcommand as after it,
    /// the `--no-book` flag too (its default in the subcommand's matches
    /// once overwrote it: the book still answered).
    #[test]
    fn engine_options_apply_before_or_after_the_subcommand() {
        for args in [
            ["oxello", "--no-book", "--level", "4", "move", "f5"],
            ["oxello", "move", "f5", "--no-book", "--level", "4"],
            ["oxello", "--level", "4", "move", "f5", "--no-book"],
        ] {
            let cli = parse_from(args).unwrap();
            let options = cli.engine.options().unwrap();
            assert_eq!(options.book, oxello::book::BookSource::None, "{args:?}");
            assert_eq!(
                options.player,
                "4".parse::<oxello::engine::Player>().unwrap(),
                "{args:?}"
            );
        }
        let cli = parse_from(["oxello", "move", "f5"]).unwrap();
        let options = cli.engine.options().unwrap();
        assert_eq!(options.book, oxello::book::BookSource::BuiltIn);
    }

    /// An engine option with a default value would be in the subcommand's
    /// matches when given only before it, and overwrite it there.
    #[test]
    fn no_engine_option_has_a_default() {
        use clap::Args as _;
        let mut engine = EngineArgs::augment_args(clap::Command::new("engine"));
        engine.build();
        for arg in engine.get_arguments() {
            assert!(
                arg.get_default_values().is_empty(),
                "--{} has a default value",
                arg.get_id()
            );
        }
    }

    /// Issue 75, defect 14: a match of no games is a usage error.
    #[test]
    fn a_match_of_no_games_is_refused() {
        for option in ["--games", "--rounds", "--stop-after"] {
            let args = [
                "oxello", "match", "-e", "greedy", "-e", "random", option, "0",
            ];
            let error = parse_from(args).unwrap_err();
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
