//! `oxello selfplay`: the engine plays itself and writes training records
//! (see [`oxello::selfplay`]).

use super::EngineArgs;
use clap::Args;
use oxello::bitboard::BoardSize;
use oxello::engine::{Level, Player};
use oxello::selfplay::{self, Config, Format, OpeningSource, PlayOptions, SearchBudget, Shard};
use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Level of the searches unless `--level` says otherwise.
pub const DEFAULT_LEVEL: u32 = 8;
/// Table of each game's searcher unless `--hash` says otherwise, MiB.
pub const DEFAULT_HASH_MIB: usize = 16;
/// Random moves after the standard start when no opening list is given.
pub const DEFAULT_RANDOM_MOVES: u32 = 8;
/// Seed without the global `--seed`: a run is reproducible by default, and
/// resuming it needs no option.
pub const DEFAULT_SEED: u64 = 1;

/// Options of `oxello selfplay`. The search is the global `--level` (8 by
/// default: its depth, selectivity and exact solve), `--depth` and
/// `--selectivity`; `--threads` is the number of games played at once
/// (default: every core), each searched on one thread; `--hash` the table
/// of each game (16 MiB by default).
#[derive(Debug, Args)]
pub struct SelfplayArgs {
    /// Games of the whole run, all shards together.
    #[arg(short, long)]
    pub games: u32,
    /// Record file. Rerunning the same command with the same file resumes
    /// it. `-` writes to standard output (no resuming).
    #[arg(short, long)]
    pub output: PathBuf,
    /// `jsonl` (one JSON object per line) or `binary` (160-byte records).
    #[arg(long, default_value = "jsonl")]
    pub format: Format,
    /// Play only shard `i` of `n` (games whose index is i-1 modulo n); the
    /// shards' files together hold the games of the whole run.
    #[arg(long, default_value = "1/1", value_name = "I/N")]
    pub shard: Shard,
    /// Board size: 4, 6 or 8.
    #[arg(short, long, default_value = "8")]
    pub size: BoardSize,
    /// Nodes per move (with the level's depth as a cap). Reproducible,
    /// unlike time, which self-play does not offer.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Opening list, one transcript per line (the XOT lists of
    /// `../shared/openings/`); games take its lines in a seeded order.
    #[arg(long, conflicts_with = "wthor")]
    pub openings: Option<PathBuf>,
    /// Folder of WTHOR `.wtb` files: games start from the distinct
    /// `--prefix`-move beginnings of its games (8x8 only).
    #[arg(long)]
    pub wthor: Option<PathBuf>,
    /// Moves of a WTHOR game that make an opening (passes included).
    #[arg(long, default_value_t = 20, requires = "wthor")]
    pub prefix: u32,
    /// Uniformly random moves after the opening [default: 8, or 0 with
    /// `--openings` or `--wthor`].
    #[arg(long)]
    pub random_moves: Option<u32>,
    /// Temperature, in discs, of the softmax over the root moves' scores
    /// that draws the move played early in the game; 0 plays the best.
    #[arg(long, default_value_t = 1.0)]
    pub temperature: f64,
    /// Draw moves while fewer than this many plies (from the start, opening
    /// included) are played [default: a third of the game's moves: 20 on
    /// 8x8, 10 on 6x6, 4 on 4x4].
    #[arg(long)]
    pub random_plies: Option<u32>,
    /// Draw only among moves at most this many discs below the best.
    #[arg(long, default_value_t = 4)]
    pub max_loss: i32,
    /// Temperature, in discs, of the softmax over the root moves' scores
    /// that makes the recorded policy.
    #[arg(long, default_value_t = 1.0)]
    pub policy_temperature: f64,
}

/// The run the arguments ask for.
pub fn config(args: &SelfplayArgs, engine: &EngineArgs) -> Result<Config, Box<dyn Error>> {
    if engine.time.is_some() {
        return Err(
            "selfplay searches by depth and --nodes, not --time: a time limit \
                    would make the records depend on the machine and its load"
                .into(),
        );
    }
    let options = engine.options()?;
    let level = match engine.level {
        None => Level::new(DEFAULT_LEVEL),
        Some(Player::Level(level)) => level,
        Some(Player::Simple(player)) => {
            return Err(format!("selfplay needs a search level, not the {player} player").into());
        }
    };
    if args.games == 0 {
        return Err("--games 0: nothing to play".into());
    }
    if args.nodes == Some(0) {
        return Err("--nodes 0: give a positive node budget".into());
    }
    for (name, t) in [
        ("--temperature", args.temperature),
        ("--policy-temperature", args.policy_temperature),
    ] {
        if !(t.is_finite() && t >= 0.0) {
            return Err(format!("{name} {t}: use a temperature of 0 or more discs").into());
        }
    }
    if args.max_loss < 0 {
        return Err(format!("--max-loss {}: use 0 or more discs", args.max_loss).into());
    }
    let opening = match (&args.openings, &args.wthor) {
        (Some(path), _) => OpeningSource::List(path.clone()),
        (None, Some(dir)) => OpeningSource::Wthor {
            dir: dir.clone(),
            plies: args.prefix,
        },
        (None, None) => OpeningSource::Start,
    };
    let random_moves = args.random_moves.unwrap_or(match opening {
        OpeningSource::Start => DEFAULT_RANDOM_MOVES,
        _ => 0,
    });
    let mut budget = SearchBudget::of_level(level);
    budget.nodes = args.nodes;
    if let Some(depth) = engine.depth {
        budget.depth = depth;
    }
    if let Some(selectivity) = engine.selectivity {
        budget.selectivity = selectivity;
    }
    Ok(Config {
        size: args.size,
        games: args.games,
        seed: engine.seed.unwrap_or(DEFAULT_SEED),
        shard: args.shard,
        threads: options
            .threads
            .unwrap_or_else(oxello::engine::default_threads),
        hash_mib: engine.hash.map_or(DEFAULT_HASH_MIB, |_| options.hash_mib),
        format: args.format,
        opening,
        random_moves,
        play: PlayOptions {
            budget,
            temperature: args.temperature,
            random_plies: args.random_plies.unwrap_or((args.size.squares() - 4) / 3),
            max_loss: args.max_loss,
            policy_temperature: args.policy_temperature,
        },
    })
}

/// Runs `oxello selfplay`.
pub fn run(args: &SelfplayArgs, engine: &EngineArgs) -> Result<ExitCode, Box<dyn Error>> {
    let config = config(args, engine)?;
    let started = Instant::now();
    let bar = super::progress::counting(0, "games");
    let mut progress = |p: selfplay::Progress| {
        bar.set_length(p.total as u64);
        bar.set_message(format!("{} records", p.records));
        bar.set_position(p.games as u64);
    };
    let summary = if args.output.as_os_str() == "-" {
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        selfplay::generate_to(&config, &mut out, &mut progress)
    } else {
        selfplay::generate(&config, &args.output, &mut progress)
    };
    bar.finish_and_clear();
    let summary = summary?;
    let seconds = started.elapsed().as_secs_f64();
    if summary.resumed_games > 0 || summary.dropped_bytes > 0 {
        eprintln!(
            "resumed: {} games kept, {} bytes of an unfinished game cut off",
            summary.resumed_games, summary.dropped_bytes
        );
    }
    eprintln!(
        "selfplay {}x{} shard {}: {} games, {} records in {seconds:.1} s \
         ({:.1} games/min, {:.0} records/s; {} openings)",
        config.size,
        config.size,
        config.shard,
        summary.games,
        summary.records,
        summary.games as f64 * 60.0 / seconds.max(1e-9),
        summary.records as f64 / seconds.max(1e-9),
        summary.openings
    );
    Ok(ExitCode::SUCCESS)
}
