//! `oxello selfplay`: the engine plays itself and writes training records
//! (see [`oxello::selfplay`]).

use super::game::{Game, gomoku_config};
use super::{EngineArgs, usage};
use clap::Args;
use oxello::arena::results::count;
use oxello::bitboard::BoardSize;
use oxello::engine::{Level, Player};
use oxello::gomoku::Rule;
use oxello::selfplay::gomoku::{GomokuOptions, GomokuSelfplay};
use oxello::selfplay::{
    self, Config, Format, MoveCount, OpeningSource, PlayOptions, Run, Scoring, SearchBudget, Shard,
    Summary,
};
use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use oxello::selfplay::defaults::{
    GOMOKU_DEPTH, GOMOKU_MAX_LOSS, GOMOKU_NODES, GOMOKU_RANDOM_PLIES, GOMOKU_RANDOM_STONES,
    GOMOKU_TEMPERATURE, HASH_MIB as DEFAULT_HASH_MIB, LEVEL as DEFAULT_LEVEL,
    RANDOM_MOVES as DEFAULT_RANDOM_MOVES, SEED as DEFAULT_SEED,
};

/// Options of `oxello selfplay`. The search is the global `--level` (8 by
/// default: its depth, selectivity and exact solve), `--depth` and
/// `--selectivity`; `--threads` is the number of games played at once
/// (default: every core), each searched on one thread; `--hash` the table
/// of each game (16 MiB by default).
#[derive(Debug, Args)]
pub struct SelfplayArgs {
    /// The game: `othello`, or `gomoku` (n in a row; `--size`, `--n-in-row`,
    /// `--rule`; searched by `--depth` [default 8] and `--nodes`
    /// [default 20000], no `--level` or `--selectivity`).
    #[arg(long, value_enum, default_value = "othello")]
    pub game: Game,
    /// Gomoku: stones in a row that win, 3 to 6 [default: 5].
    #[arg(long, allow_negative_numbers = true)]
    pub n_in_row: Option<usize>,
    /// Gomoku: freestyle, standard (exactly n), renju (15x15, five) or caro
    /// [default: freestyle].
    #[arg(long)]
    pub rule: Option<Rule>,
    /// Games of the whole run, all shards together.
    #[arg(short, long, allow_negative_numbers = true)]
    pub games: u32,
    /// Record file. Rerunning the same command with the same file resumes
    /// it. `-` writes to standard output (no resuming).
    #[arg(short, long)]
    pub output: PathBuf,
    /// `jsonl` (one JSON object per line), `binary` (160-byte records,
    /// Othello only) or `npz` (AlphaZero arrays, written at the end from the
    /// journal `<output>.jsonl`).
    #[arg(long, default_value = "jsonl")]
    pub format: Format,
    /// Play only shard `i` of `n` (games whose index is i-1 modulo n); the
    /// shards' files together hold the games of the whole run.
    #[arg(long, default_value = "1/1", value_name = "I/N")]
    pub shard: Shard,
    /// Board size: 4, 6 or 8 for Othello [default: 8]; 5 to 22 for gomoku
    /// [default: 15].
    #[arg(short, long, allow_negative_numbers = true)]
    pub size: Option<usize>,
    /// Nodes per move (with the level's depth as a cap). Reproducible,
    /// unlike time, which self-play does not offer.
    #[arg(long, allow_negative_numbers = true)]
    pub nodes: Option<u64>,
    /// Opening list, one transcript per line (the XOT lists of
    /// `../shared/openings/`); games take its lines in a seeded order.
    #[arg(long, conflicts_with = "wthor")]
    pub openings: Option<PathBuf>,
    /// Folder of WTHOR `.wtb` files: games start from the distinct
    /// `--prefix`-move beginnings of its games (8x8 only).
    #[arg(long)]
    pub wthor: Option<PathBuf>,
    /// Moves of a WTHOR game that make an opening (passes included)
    /// [default: 20].
    #[arg(long, requires = "wthor", allow_negative_numbers = true)]
    pub prefix: Option<u32>,
    /// Uniformly random moves after the opening: N, or MIN-MAX for a
    /// number drawn for each game [default: 8, or 0 with `--openings` or
    /// `--wthor`]; gomoku: random stones near the centre [default: 4].
    #[arg(long, value_name = "N|MIN-MAX")]
    pub random_moves: Option<MoveCount>,
    /// Which root moves each search scores: `all` (the policy is their
    /// softmax) or `best` (one-hot policy, no drawn moves: value data at a
    /// fraction of the cost). Othello only.
    #[arg(long, default_value = "all")]
    pub score_moves: Scoring,
    /// Temperature of the softmax over the root moves' scores that draws
    /// the move played early in the game; 0 plays the best [default: 1
    /// disc; gomoku 50 evaluation units].
    #[arg(long, allow_negative_numbers = true)]
    pub temperature: Option<f64>,
    /// Draw moves while fewer than this many plies (from the start, opening
    /// included) are played [default: a third of the game's moves: 20 on
    /// 8x8, 10 on 6x6, 4 on 4x4; gomoku: 8 stones].
    #[arg(long, allow_negative_numbers = true)]
    pub random_plies: Option<u32>,
    /// Draw only among moves at most this far below the best [default: 4
    /// discs; gomoku 100 evaluation units].
    #[arg(long, allow_negative_numbers = true)]
    pub max_loss: Option<i32>,
    /// Temperature of the softmax over the root moves' scores that makes
    /// the recorded policy [default: 1 disc; gomoku 50 evaluation units].
    #[arg(long, allow_negative_numbers = true)]
    pub policy_temperature: Option<f64>,
}

impl SelfplayArgs {
    /// The options this game does not take that were given.
    fn foreign_options(&self) -> Vec<&'static str> {
        let given = match self.game {
            Game::Othello => vec![
                ("--n-in-row", self.n_in_row.is_some()),
                ("--rule", self.rule.is_some()),
            ],
            Game::Gomoku => vec![
                ("--openings", self.openings.is_some()),
                ("--wthor", self.wthor.is_some()),
                ("--prefix", self.prefix.is_some()),
                ("--score-moves", self.score_moves != Scoring::All),
            ],
        };
        given
            .into_iter()
            .filter(|&(_, given)| given)
            .map(|(name, _)| name)
            .collect()
    }

    /// The checks both games share: games, nodes, temperatures, loss.
    fn check_common(
        &self,
        temperature: f64,
        policy_temperature: f64,
        max_loss: i32,
    ) -> Result<(), Box<dyn Error>> {
        if let Some(name) = self.foreign_options().first() {
            let game = self.game.name();
            return Err(usage(format!("{name} does not apply to --game {game}")));
        }
        if self.games == 0 {
            return Err(usage("--games 0: nothing to play"));
        }
        if self.nodes == Some(0) {
            return Err(usage("--nodes 0: give a positive node budget"));
        }
        for (name, t) in [
            ("--temperature", temperature),
            ("--policy-temperature", policy_temperature),
        ] {
            if !(t.is_finite() && t >= 0.0) {
                return Err(usage(format!("{name} {t}: use a temperature of 0 or more")));
            }
        }
        if max_loss < 0 {
            return Err(usage(format!("--max-loss {max_loss}: use 0 or more")));
        }
        if self.format == Format::Npz && self.output.as_os_str() == "-" {
            return Err(usage("--format npz needs an --output file, not -"));
        }
        Ok(())
    }
}

/// The run the arguments ask for.
pub fn config(args: &SelfplayArgs, engine: &EngineArgs) -> Result<Config, Box<dyn Error>> {
    let temperature = args.temperature.unwrap_or(1.0);
    let policy_temperature = args.policy_temperature.unwrap_or(1.0);
    let max_loss = args.max_loss.unwrap_or(4);
    args.check_common(temperature, policy_temperature, max_loss)?;
    let size = match args.size {
        None => BoardSize::Eight,
        Some(n) => BoardSize::from_n(n)
            .ok_or_else(|| usage(format!("--size {n}: Othello boards are 4, 6 or 8")))?,
    };
    let options = engine.options()?;
    let level = match engine.level {
        None => Level::new(DEFAULT_LEVEL),
        Some(Player::Level(level)) => level,
        Some(Player::Simple(player)) => {
            return Err(usage(format!(
                "selfplay needs a search level, not the {player} player"
            )));
        }
    };
    let opening = match (&args.openings, &args.wthor) {
        (Some(path), _) => OpeningSource::List(path.clone()),
        (None, Some(dir)) => OpeningSource::Wthor {
            dir: dir.clone(),
            plies: args.prefix.unwrap_or(20),
        },
        (None, None) => OpeningSource::Start,
    };
    let random_moves = args
        .random_moves
        .unwrap_or(MoveCount::exactly(match opening {
            OpeningSource::Start => DEFAULT_RANDOM_MOVES,
            _ => 0,
        }));
    let mut budget = SearchBudget::of_level(level);
    budget.nodes = args.nodes;
    if let Some(depth) = engine.depth {
        budget.depth = depth;
    }
    if let Some(selectivity) = engine.selectivity {
        budget.selectivity = selectivity;
    }
    Ok(Config {
        size,
        games: args.games,
        seed: engine.seed.unwrap_or(DEFAULT_SEED),
        shard: args.shard,
        threads: options
            .threads
            .unwrap_or_else(oxello::core::default_threads),
        hash_mib: engine.hash.map_or(DEFAULT_HASH_MIB, |_| options.hash_mib),
        format: args.format,
        opening,
        random_moves,
        play: PlayOptions {
            budget,
            scoring: args.score_moves,
            temperature,
            random_plies: args.random_plies.unwrap_or((size.squares() - 4) / 3),
            max_loss,
            policy_temperature,
        },
    })
}

/// The gomoku run the arguments ask for.
pub fn gomoku(
    args: &SelfplayArgs,
    engine: &EngineArgs,
) -> Result<(GomokuSelfplay, Run), Box<dyn Error>> {
    engine.refuse(
        "selfplay --game gomoku (use --depth and --nodes)",
        &["level", "selectivity"],
    )?;
    let temperature = args.temperature.unwrap_or(GOMOKU_TEMPERATURE);
    let policy_temperature = args.policy_temperature.unwrap_or(GOMOKU_TEMPERATURE);
    let max_loss = args.max_loss.unwrap_or(GOMOKU_MAX_LOSS);
    args.check_common(temperature, policy_temperature, max_loss)?;
    if args.format == Format::Binary {
        return Err(usage(
            "--format binary is Othello's: use jsonl or npz with --game gomoku",
        ));
    }
    let options = engine.options()?;
    let config = gomoku_config(args.size.map(|side| (side, side)), args.n_in_row, args.rule);
    let size = config.width;
    let game = GomokuSelfplay::new(GomokuOptions {
        config,
        seed: engine.seed.unwrap_or(DEFAULT_SEED),
        hash_mib: engine.hash.map_or(DEFAULT_HASH_MIB, |_| options.hash_mib),
        depth: engine.depth.unwrap_or(GOMOKU_DEPTH),
        nodes: Some(args.nodes.unwrap_or(GOMOKU_NODES)),
        random_stones: match args.random_moves {
            None => GOMOKU_RANDOM_STONES,
            Some(count) if count.is_fixed() => count.min,
            Some(count) => {
                return Err(usage(format!(
                    "--random-moves {count}: gomoku takes one number of random stones"
                )));
            }
        },
        temperature,
        random_plies: args.random_plies.unwrap_or(GOMOKU_RANDOM_PLIES),
        max_loss,
        policy_temperature,
    })
    .map_err(|e| {
        usage(format!(
            "--size {size} --n-in-row {} --rule {}: {e}",
            config.n, config.rule
        ))
    })?;
    let run = Run {
        games: args.games,
        shard: args.shard,
        threads: options
            .threads
            .unwrap_or_else(oxello::core::default_threads),
        format: args.format,
    };
    Ok((game, run))
}

/// A run checked and ready to play.
enum Job {
    Othello(Box<Config>),
    Gomoku(Box<GomokuSelfplay>, Run),
}

/// Runs `oxello selfplay`.
pub fn run(args: &SelfplayArgs, engine: &EngineArgs) -> Result<ExitCode, Box<dyn Error>> {
    let job = match args.game {
        Game::Othello => Job::Othello(Box::new(config(args, engine)?)),
        Game::Gomoku => {
            let (game, run) = gomoku(args, engine)?;
            Job::Gomoku(Box::new(game), run)
        }
    };
    let started = Instant::now();
    let bar = super::progress::counting(0, "games");
    let mut progress = |p: selfplay::Progress| {
        bar.set_length(p.total as u64);
        bar.set_message(format!("{} records", p.records));
        bar.set_position(p.games as u64);
    };
    let to_stdout = args.output.as_os_str() == "-";
    let stdout = std::io::stdout();
    let (summary, title) = match &job {
        Job::Othello(config) => {
            let summary = if to_stdout {
                selfplay::generate_to(config, &mut stdout.lock(), &mut progress)
            } else {
                selfplay::generate(config, &args.output, &mut progress)
            };
            (summary, format!("{}x{}", config.size, config.size))
        }
        Job::Gomoku(game, run) => {
            let summary = if to_stdout {
                selfplay::generate_game_to(&**game, run, &mut stdout.lock(), &mut progress)
            } else {
                selfplay::generate_game(&**game, run, &args.output, &mut progress)
            };
            let c = game.config();
            (
                summary,
                format!(
                    "gomoku {}x{} {} in a row {}",
                    c.width, c.height, c.n, c.rule
                ),
            )
        }
    };
    bar.finish_and_clear();
    report(
        &summary?,
        &title,
        args.shard,
        started.elapsed().as_secs_f64(),
    );
    Ok(ExitCode::SUCCESS)
}

fn report(summary: &Summary, title: &str, shard: Shard, seconds: f64) {
    if summary.unchecked_settings {
        note!(
            "note: the output has no settings file (an older oxello wrote it): its {} \
             were resumed on trust that this run's settings wrote them",
            count(summary.resumed_games as u32, "game", "games")
        );
    }
    if summary.resumed_games > 0 || summary.dropped_bytes > 0 {
        note!(
            "resumed: {} kept, {} bytes of an unfinished game cut off",
            count(summary.resumed_games as u32, "game", "games"),
            summary.dropped_bytes
        );
    }
    // Gomoku has no opening list.
    let openings = match summary.openings {
        0 => String::new(),
        n => format!("; {}", count(n as u32, "opening", "openings")),
    };
    note!(
        "selfplay {title} shard {shard}: {}, {} in {seconds:.1} s \
         ({:.1} games/min, {:.0} records/s{openings})",
        count(summary.games as u32, "game", "games"),
        count(summary.records as u32, "record", "records"),
        summary.games as f64 * 60.0 / seconds.max(1e-9),
        summary.records as f64 / seconds.max(1e-9),
    );
}
