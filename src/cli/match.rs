//! `oxello match`: builds the match from the command line (Othello, or
//! gomoku with `--game gomoku`), shows a live progress line on stderr and
//! prints the summary on stdout.

use super::EngineArgs;
use super::game::{BoardArgs, Game};
use clap::Args;
use oxello::arena::gomoku::GOMOCUP_MAX_MEMORY;
use oxello::arena::spec::EngineKind;
use oxello::arena::{
    EngineSpec, GomokuMatch, GomokuSettings, InfoSetting, MatchConfig, MatchEvent, MatchGame,
    MatchRecord, OthelloMatch, Protocol, ScheduleOptions, TimeControl, run_match,
};
use oxello::bitboard::BoardSize;
use oxello::engine::Player;
use oxello::formats::ggf::GgfGame;
use oxello::formats::openings;
use oxello::gomoku::sgf::GomokuRecord;
use oxello::players::SimplePlayer;
use oxello::position::Position;
use std::error::Error;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

/// Most games played at once: each runs two engine processes.
const MAX_CONCURRENCY: usize = 256;

/// Options of `oxello match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// An engine, given twice: `level:N`, `depth:N`, `random`, `greedy`,
    /// `positional`, or a command line speaking NBoard or GTP; for gomoku,
    /// `greedy`, `random` or a command speaking the Gomocup protocol
    /// (`"oxello gomocup"`, `pbrain-rapfi`).
    #[arg(short, long = "engine", value_name = "ENGINE")]
    pub engines: Vec<String>,
    /// Engine 1 (instead of the first `--engine`).
    #[arg(long, value_name = "ENGINE", conflicts_with = "engines")]
    pub engine1: Option<String>,
    /// Engine 2 (instead of the second `--engine`).
    #[arg(long, value_name = "ENGINE", conflicts_with = "engines")]
    pub engine2: Option<String>,
    /// Protocol of engine 1 when its command does not say (`nboard`, `gtp`;
    /// gomoku engines speak `gomocup`).
    #[arg(long)]
    pub proto1: Option<oxello::arena::Protocol>,
    /// Protocol of engine 2 when its command does not say.
    #[arg(long)]
    pub proto2: Option<oxello::arena::Protocol>,
    /// Display name of engine 1 (default: its program's file name, or its
    /// command's words after the program when both engines run the same
    /// one).
    #[arg(long)]
    pub name1: Option<String>,
    /// Display name of engine 2.
    #[arg(long)]
    pub name2: Option<String>,
    /// Gomoku: a setting for engine 1 alone, `KEY=VALUE`, sent as `INFO KEY
    /// VALUE` at the start of each game after the match's own settings (so
    /// it overrides them); repeatable. `max_node=10000` caps an engine that
    /// reads it (oxello, Rapfi) at that many nodes a move.
    #[arg(long, value_name = "KEY=VALUE")]
    pub info1: Vec<String>,
    /// Gomoku: a setting for engine 2 alone (see --info1).
    #[arg(long, value_name = "KEY=VALUE")]
    pub info2: Vec<String>,
    /// The game: `othello`, or `gomoku` (five in a row, engines speaking the
    /// Gomocup protocol; `--size`, `--rule`, `--max-memory`).
    #[arg(long, value_enum, default_value_t = Game::Othello)]
    pub game: Game,
    /// Opening list, each played twice. Othello: one transcript per line
    /// (XOT); without it, games start from the standard position. Gomoku:
    /// c-gomoku-cli's formats, offsets from the centre (`0,0, 1,0, 1,3`) or
    /// moves (`h8i9j7`); without it, games start on the empty board.
    #[arg(long)]
    pub openings: Option<std::path::PathBuf>,
    /// Number of games, 1 or more (default: two per opening per round).
    #[arg(short, long, allow_negative_numbers = true,
          value_parser = super::positive_usize)]
    pub games: Option<usize>,
    /// Passes through the opening list, 1 or more.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true,
          value_parser = super::positive_usize)]
    pub rounds: usize,
    /// Play the openings in random order (reproducible with the global
    /// `--seed`, which implies `--random`).
    #[arg(long)]
    pub random: bool,
    /// Game clock: `MAIN[+INC]` in seconds or `M:SS` (e.g. `60+0.5`).
    /// Gomoku: each engine's time for its moves of a game (`timeout_match`),
    /// no increment; `--time` gives the time per move (`timeout_turn`), and
    /// both may be given.
    #[arg(long, value_name = "MAIN[+INC]")]
    pub tc: Option<String>,
    /// Seconds of tolerance beyond the clock or time per move (gomoku: the
    /// turn or match time left).
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    pub grace: f64,
    /// Longest wait for a move without a clock, seconds.
    #[arg(long, default_value_t = 60.0, allow_negative_numbers = true)]
    pub move_timeout: f64,
    /// Longest wait for an engine to start or answer a protocol command,
    /// seconds.
    #[arg(long, default_value_t = 10.0, allow_negative_numbers = true)]
    pub startup_timeout: f64,
    /// Games played at once (each with its own engine processes).
    #[arg(short = 'j', long, default_value_t = 1, allow_negative_numbers = true,
          value_parser = super::positive_usize)]
    pub concurrency: usize,
    /// Match file: every game is appended when it ends, as GGF (Othello)
    /// or SGF (gomoku), one game per line; an existing file is resumed.
    #[arg(short, long)]
    pub output: Option<std::path::PathBuf>,
    /// Stop when decided: `elo0,elo1[,alpha,beta]` (alpha = beta = 0.05).
    #[arg(long, value_name = "ELO0,ELO1[,ALPHA,BETA]")]
    pub sprt: Option<oxello::arena::Sprt>,
    /// Play at most this many games in this run, 1 or more (rerun to
    /// continue).
    #[arg(long, allow_negative_numbers = true,
          value_parser = super::positive_usize)]
    pub stop_after: Option<usize>,
    /// Play only slice `i` of `n` of the schedule: opening pairs go to the
    /// shards in turn. Run each shard with its own --output, then combine
    /// them with --merge.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<oxello::shard::Shard>,
    /// Report the combined result (W/D/L, Elo, SPRT with --sprt) of match
    /// files, such as the shards of one match, and play nothing.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub merge: Vec<std::path::PathBuf>,
    /// How passes are sent to GTP engines: `explicit` (`play white pass`,
    /// the default) or `implicit` (left out; the engine infers them).
    #[arg(long)]
    pub gtp_passes: Option<oxello::arena::gtp::PassStyle>,
    #[command(flatten)]
    pub board: BoardArgs,
    /// Gomoku: the memory the engines may use (`INFO max_memory`), MiB; 0
    /// for no limit [default: 350, Gomocup's].
    #[arg(long, value_name = "MIB", allow_negative_numbers = true)]
    pub max_memory: Option<u64>,
}

/// Seconds from the command line as a duration, refusing nonsense.
fn seconds(option: &str, value: f64) -> Result<Duration, Box<dyn Error>> {
    if value.is_finite() && (0.0..1e7).contains(&value) {
        Ok(Duration::from_secs_f64(value))
    } else {
        Err(super::usage(format!(
            "{option} {value}: use a number of seconds"
        )))
    }
}

/// The parts of the match the command line describes that do not depend
/// on the game: the engines (checked by `game`, whose engines speak
/// `protocol` when their commands do not say), the schedule, the match
/// file, the stopping rules.
fn match_config<G: MatchGame>(
    args: &MatchArgs,
    engine: &EngineArgs,
    game: G,
    protocol: Option<Protocol>,
) -> Result<MatchConfig<G>, Box<dyn Error>> {
    let texts: Vec<String> = match (&args.engine1, &args.engine2) {
        (Some(one), Some(two)) => vec![one.clone(), two.clone()],
        (None, None) => args.engines.clone(),
        _ => return Err(super::usage("give both --engine1 and --engine2")),
    };
    let [one, two] = texts.as_slice() else {
        return Err(super::usage(format!(
            "a match needs two engines (--engine twice), {} given",
            texts.len()
        )));
    };
    let parse = |number: usize,
                 text: &str,
                 proto: Option<Protocol>,
                 name: &Option<String>,
                 info: &[String]| {
        EngineSpec::parse(text, proto.or(protocol), name.as_deref())
            .map_err(|e| e.to_string())
            .and_then(|mut spec| {
                spec.info = info
                    .iter()
                    .map(|text| InfoSetting::parse(text))
                    .collect::<Result<_, _>>()?;
                game.check_engine(&spec)?;
                if let EngineKind::Command(command) = &spec.kind {
                    command.check_program().map_err(|e| e.to_string())?;
                }
                Ok(spec)
            })
            .map_err(|e| super::usage(format!("engine {number}: {e}")))
    };
    let mut engines = [
        parse(1, one, args.proto1, &args.name1, &args.info1)?,
        parse(2, two, args.proto2, &args.name2, &args.info2)?,
    ];
    oxello::arena::spec::tell_apart(
        &mut engines,
        [one, two],
        [args.name1.is_some(), args.name2.is_some()],
    );
    let mut config = MatchConfig::with_game(engines, game);
    config.schedule = ScheduleOptions {
        games: args.games,
        rounds: args.rounds,
        seed: match (engine.seed, args.random) {
            (Some(seed), _) => Some(seed),
            (None, true) => Some(0),
            (None, false) => None,
        },
    };
    config.startup_timeout = seconds("--startup-timeout", args.startup_timeout)?;
    if args.concurrency > MAX_CONCURRENCY {
        return Err(super::usage(format!(
            "--concurrency {}: use 1 to {MAX_CONCURRENCY} (games at once, two engines each)",
            args.concurrency
        )));
    }
    config.concurrency = args.concurrency;
    config.output = args.output.clone();
    config.sprt = args.sprt;
    if let Some(shard) = args.shard {
        if args.sprt.is_some() {
            return Err(super::usage(
                "--sprt stops a whole match, not a shard: play the shards without it \
                 and give --sprt to --merge",
            ));
        }
        config.shard = shard;
    }
    config.stop_after = args.stop_after;
    config.seed = engine.seed.unwrap_or_else(rand::random);
    Ok(config)
}

/// The Othello match the command line describes.
pub fn config(args: &MatchArgs, engine: &EngineArgs) -> Result<MatchConfig, Box<dyn Error>> {
    let mut game = OthelloMatch::default();
    if let Some(path) = &args.openings {
        let text = oxello::formats::read_text_file(path, u64::MAX)?;
        game.openings = openings::parse_list(&text, Position::start(BoardSize::Eight))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if game.openings.is_empty() {
            return Err(format!("{}: no openings", path.display()).into());
        }
    }
    game.referee.depth = engine.depth;
    game.referee.time = match (&args.tc, engine.time) {
        (Some(_), Some(_)) => return Err(super::usage("give --tc or --time, not both")),
        (Some(tc), None) => clock(tc)?,
        (None, Some(time)) => TimeControl::PerMove(seconds("--time", time)?),
        (None, None) => TimeControl::Unlimited,
    };
    game.referee.grace = seconds("--grace", args.grace)?;
    game.referee.move_timeout = seconds("--move-timeout", args.move_timeout)?;
    if let Some(threads) = engine.threads {
        game.threads = super::check_threads(threads)?;
    }
    game.gtp_passes = args.gtp_passes.unwrap_or_default();
    let mut config = match_config(args, engine, game, None)?;
    if let Some(hash) = engine.hash {
        // Every game in progress has its own in-process engines, each with
        // its table.
        let local = config
            .engines
            .iter()
            .filter(|spec| matches!(spec.kind, EngineKind::Local { .. }))
            .count();
        super::check_hash(hash, local * config.concurrency).map_err(super::usage)?;
        config.game.hash_mib = hash;
    }
    Ok(config)
}

/// `--tc MAIN[+INC]`.
fn clock(tc: &str) -> Result<TimeControl, Box<dyn Error>> {
    TimeControl::parse_clock(tc)
        .ok_or_else(|| super::usage(format!("--tc {tc}: use MAIN[+INC], e.g. 60+0.5 or 5:00")))
}

/// The gomoku match the command line describes.
pub fn gomoku(
    args: &MatchArgs,
    engine: &EngineArgs,
) -> Result<MatchConfig<GomokuMatch>, Box<dyn Error>> {
    engine.refuse("match --game gomoku", &["hash"])?;
    if let Some(threads) = engine.threads {
        super::check_threads(threads)?;
    }
    if let Some(depth) = engine.depth {
        super::check_gomoku_depth("match --game gomoku", depth)?;
    }
    if args.gtp_passes.is_some() {
        return Err(super::usage("--gtp-passes is for GTP Othello engines"));
    }
    let config = args.board.config(None)?;
    let openings = match &args.openings {
        Some(path) => {
            let text = oxello::formats::read_text_file(path, u64::MAX)?;
            let openings = oxello::gomoku::openings::parse_list(&text, config)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            if openings.is_empty() {
                return Err(format!("{}: no openings", path.display()).into());
            }
            openings
        }
        None => Vec::new(),
    };
    let match_time = match args.tc.as_deref().map(clock).transpose()? {
        Some(TimeControl::Game { main, increment }) if increment.is_zero() => Some(main),
        Some(_) => {
            return Err(super::usage(
                "--tc: gomoku engines have no increment (Gomocup's timeout_match): give --tc MAIN",
            ));
        }
        None => None,
    };
    let max_memory = match args.max_memory {
        None => GOMOCUP_MAX_MEMORY,
        Some(mib) if mib <= 1 << 30 => mib << 20,
        Some(mib) => return Err(super::usage(format!("--max-memory {mib}: too large"))),
    };
    let settings = GomokuSettings {
        config,
        turn: engine.time.map(|t| seconds("--time", t)).transpose()?,
        match_time,
        tolerance: seconds("--grace", args.grace)?,
        move_timeout: seconds("--move-timeout", args.move_timeout)?,
        max_memory,
        depth: engine.depth,
        threads: engine.threads,
    };
    let game = GomokuMatch::new(settings, openings).map_err(super::usage)?;
    match_config(args, engine, game, Some(Protocol::Gomocup))
}

/// A warning when the match would play the same games over and over: with
/// no opening list every game starts from the same position, so two
/// engines that do not play at random repeat the same two games.
fn repetition_warning<G: MatchGame>(config: &MatchConfig<G>, list: &str) -> Option<String> {
    let openings = config.game.openings();
    let games = oxello::arena::schedule::schedule(openings, &config.schedule).len();
    let random = config.engines.iter().any(|spec| {
        matches!(
            spec.kind,
            EngineKind::Local {
                player: Player::Simple(SimplePlayer::Random),
                ..
            }
        )
    });
    (openings == 0 && games > 2 && !random).then(|| {
        format!(
            "no --openings: all {games} games start from the same position, so engines that \
             do not play at random repeat the same two games; give an opening list ({list})"
        )
    })
}

/// `oxello match --merge FILE...`: the combined result of match files of
/// records `R`.
fn merge<R: MatchRecord>(
    args: &MatchArgs,
    engine: &EngineArgs,
) -> Result<ExitCode, Box<dyn Error>> {
    engine.refuse_all("match --merge (it plays nothing)")?;
    let playing = !args.engines.is_empty()
        || args.engine1.is_some()
        || args.engine2.is_some()
        || args.openings.is_some()
        || args.games.is_some()
        || args.tc.is_some()
        || args.output.is_some()
        || args.shard.is_some()
        || args.stop_after.is_some();
    if playing {
        return Err(super::usage(
            "match --merge reads match files and plays nothing: give only the files (and --sprt)",
        ));
    }
    let merged = oxello::arena::merge::merge::<R>(&args.merge)?;
    if merged.dropped > 0 {
        note!(
            "warning: {} line(s) of the files are not finished match games and were left out",
            merged.dropped
        );
    }
    let mut out = std::io::stdout().lock();
    let missing = match merged.missing.as_slice() {
        [] => "none missing".to_string(),
        missing => {
            let shown: Vec<String> = missing.iter().take(10).map(usize::to_string).collect();
            format!(
                "{} missing ({}{})",
                missing.len(),
                shown.join(", "),
                if missing.len() > 10 { ", ..." } else { "" }
            )
        }
    };
    writeln!(
        out,
        "Merged {} file{}: games 1-{}, {missing}",
        args.merge.len(),
        if args.merge.len() == 1 { "" } else { "s" },
        merged.last_game
    )?;
    write!(out, "{}", merged.tally.summary(args.sprt.as_ref()))?;
    Ok(ExitCode::SUCCESS)
}

/// Runs `oxello match`.
pub fn run(args: &MatchArgs, engine: &EngineArgs) -> Result<ExitCode, Box<dyn Error>> {
    if args.game == Game::Othello && (args.board.given() || args.max_memory.is_some()) {
        return Err(super::usage(
            "--size, --rule and --max-memory are gomoku options (--game gomoku)",
        ));
    }
    match (args.game, args.merge.is_empty()) {
        (Game::Othello, false) => merge::<GgfGame>(args, engine),
        (Game::Gomoku, false) => merge::<GomokuRecord>(args, engine),
        (Game::Othello, true) => play(
            args,
            &config(args, engine)?,
            "the standard start",
            "positions/xot-first-50.txt, or an XOT list",
        ),
        (Game::Gomoku, true) => play(
            args,
            &gomoku(args, engine)?,
            "the empty board",
            "positions/gomoku-openings.txt",
        ),
    }
}

/// Plays the match of `config`; `start` names the position games start
/// from without openings, `list` an opening list to suggest.
fn play<G: MatchGame>(
    args: &MatchArgs,
    config: &MatchConfig<G>,
    start: &str,
    list: &str,
) -> Result<ExitCode, Box<dyn Error>> {
    let openings = match &args.openings {
        Some(path) => format!("{} openings of {}", config.game.openings(), path.display()),
        None => start.to_string(),
    };
    let mut out = std::io::stdout().lock();
    let shard = if config.shard == oxello::shard::Shard::WHOLE {
        String::new()
    } else {
        format!(", shard {}", config.shard)
    };
    writeln!(
        out,
        "Match {} vs {}: {openings}, {}, concurrency {}, seed {}{shard}",
        config.engines[0].name,
        config.engines[1].name,
        config.game.describe(),
        config.concurrency,
        config.seed
    )?;
    if let Some(warning) = repetition_warning(config, list) {
        note!("warning: {warning}");
    }
    let terminal = std::io::stderr().is_terminal();
    let mut progress = Progress::new();
    let sprt = config.sprt;
    let report = run_match(config, &mut |event| match event {
        MatchEvent::Resumed {
            games,
            tally,
            total,
        } => {
            progress.println(&format!(
                "resumed: {} already in the match file",
                oxello::arena::results::count(games as u32, "game", "games")
            ));
            progress.show(
                tally.games() as usize,
                total,
                &tally.progress_line(total, sprt.as_ref()),
            );
        }
        MatchEvent::Started { total, to_play } => {
            if to_play < total {
                progress.println(&format!("{to_play} of {total} games to play"));
            }
            progress.start(total - to_play, total);
        }
        MatchEvent::GameFinished {
            record,
            result,
            tally,
            total,
        } => {
            if !terminal {
                let outcome = record.result_text().unwrap_or_else(|| "?".to_string());
                let [black, white] = record.players();
                note!(
                    "game {} {black} (Black) vs {white} (White): {outcome}{}",
                    result.tag.number,
                    if result.tag.note.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", result.tag.note)
                    }
                );
            }
            progress.show(
                tally.games() as usize,
                total,
                &tally.progress_line(total, sprt.as_ref()),
            );
        }
    });
    progress.finish();
    let report = report?;
    write!(out, "{}", report.tally.summary(sprt.as_ref()))?;
    let decided = report
        .sprt
        .is_some_and(|(_, _, decision)| decision != oxello::arena::SprtDecision::Continue);
    if decided {
        writeln!(
            out,
            "SPRT decided after {} of {} games",
            report.tally.games(),
            report.scheduled
        )?;
    } else if !report.complete {
        writeln!(
            out,
            "Stopped after {} of {} games{}",
            report.tally.games(),
            report.scheduled,
            if config.output.is_some() {
                "; rerun with the same --output to continue"
            } else {
                ""
            }
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The progress line: a bar on a terminal, one line per update otherwise
/// (a log of the match for scripts).
struct Progress {
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    fn new() -> Progress {
        let terminal = std::io::stderr().is_terminal();
        Progress {
            bar: terminal
                .then(|| super::progress::bar(0, "{elapsed:>4} [{bar:25}] ETA {eta} {wide_msg}")),
        }
    }

    fn show(&mut self, games: usize, total: usize, line: &str) {
        match &self.bar {
            Some(bar) => {
                bar.set_length(total as u64);
                bar.set_position(games as u64);
                bar.set_message(line.to_string());
            }
            None => note!("{line}"),
        }
    }

    /// Sizes the bar before the first game ends.
    fn start(&mut self, done: usize, total: usize) {
        if let Some(bar) = &self.bar {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        }
    }

    /// Prints a line above the bar.
    fn println(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => note!("{line}"),
        }
    }

    fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            // The last line stays on the screen as a record of the match.
            bar.finish();
        }
    }
}
