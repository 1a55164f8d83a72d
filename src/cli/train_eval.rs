//! `oxello train-eval`: fits the pattern evaluation to WTHOR game files
//! (8x8) or to self-play records (6x6); with `--game gomoku`, the gomoku
//! evaluation's weights to self-play records and match games.

use super::game::Game;
use clap::Args;
use oxello::formats::wthor;
use oxello::train::gomoku::{self, TuneOptions};
use oxello::train::network::NetworkOptions;
use oxello::train::patterns::{EIGHT, Model, SIX, Sample, Samples, TrainOptions, train_model};
use std::error::Error;
use std::io::Write as _;
use std::process::ExitCode;
use std::time::Instant;

/// Options of `oxello train-eval`.
#[derive(Debug, Args)]
pub struct TrainEvalArgs {
    /// The game: `othello` (the pattern evaluations), or `gomoku` (the
    /// weights of the gomoku evaluation, `fitted/gomoku-eval.bin`,
    /// from `--selfplay` records and `--sgf` games).
    #[arg(long, value_enum, default_value_t = Game::Othello)]
    pub game: Game,
    /// Folder of WTHOR `.wtb` files (8x8 only).
    #[arg(long, default_value = "../shared/games/wthor")]
    pub wthor: std::path::PathBuf,
    /// Board size: 8 (WTHOR games, solved positions, search values and
    /// self-play records) or 6 (self-play records only).
    #[arg(long, short = 's', default_value_t = 8, allow_negative_numbers = true)]
    pub size: usize,
    /// Where to write the weights [default: the built-in file of the size,
    /// `fitted/pattern-weights-8.bin` or `fitted/pattern-weights-6.bin`; for
    /// gomoku none, the fit is only reported: give
    /// `fitted/gomoku-eval.bin`].
    #[arg(long, visible_alias = "write")]
    pub out: Option<std::path::PathBuf>,
    /// Passes over the samples of each phase (with `--network`, over all
    /// the samples; the built-in network took 8).
    #[arg(long, default_value_t = 8, value_parser = super::positive_usize, allow_negative_numbers = true)]
    pub epochs: usize,
    /// Self-play record files (`oxello selfplay`, binary if the name ends
    /// in `.bin`, JSONL otherwise) of the size: labelled with the exact
    /// solve's score where the search solved, the game's outcome before.
    /// For gomoku, JSONL records: the game's outcome and the search's
    /// score; every tenth game is held out.
    #[arg(long, num_args = 1..)]
    pub selfplay: Vec<std::path::PathBuf>,
    /// Exactly solved positions to train on besides the games' (OBF files,
    /// or folders of them, as `scripts/solve-labels.sh` makes them),
    /// labelled with their best score; one in 10 is held out, and the error
    /// on those is printed apart (docs/training.md, "Training the evaluation").
    #[arg(long, num_args = 1..)]
    pub solved: Vec<std::path::PathBuf>,
    /// Search values of positions past the theoretical depth (OBF files,
    /// or folders of them, as `oxello search-labels` writes them): a
    /// training position found among them is labelled with
    /// `--search-weight` times its search value plus the rest times its
    /// game's label.
    #[arg(long, num_args = 1..)]
    pub searched: Vec<std::path::PathBuf>,
    /// Exact scores of game positions (OBF files or folders, as `oxello
    /// search-labels --exact` writes them): they replace the players'
    /// results as those positions' labels.
    #[arg(long, num_args = 1..)]
    pub exact: Vec<std::path::PathBuf>,
    /// The share of the search value in the label of a searched position,
    /// 0 to 1. The built-in weights use the default (docs/training.md,
    /// "Search values past the games' results").
    #[arg(long, default_value_t = 0.8, allow_negative_numbers = true)]
    pub search_weight: f32,
    /// The share of the self-play search's score in the label of a
    /// `--selfplay` position the search did not solve, 0 to 1; the rest is
    /// the game's outcome.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub selfplay_search_weight: f32,
    /// Discs added to the outcome in the label of a `--selfplay` position whose
    /// side to move made one move more than the other before the game's
    /// first solved position (its outcome reads about 1.2 discs low at 21
    /// empties), 0 to 8
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(i8).range(0..=8), allow_negative_numbers = true)]
    pub selfplay_parity_fix: i8,
    /// Discs added to the game's label of a `--wthor` training position of
    /// odd empties (17 or more) without an `--exact` score: its side to move
    /// makes one move more than the other before the theoretical score's
    /// position or the game's end, so its label reads low (the players' move
    /// at 24 empties loses 2.3 discs on average), 0 to 8
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(i8).range(0..=8), allow_negative_numbers = true)]
    pub wthor_parity_fix: i8,
    /// Train the evaluation's network of this width (a multiple of 16) on
    /// top of the built-in linear weights, instead of the linear weights;
    /// writes `fitted/network-8.bin` unless `--out` is given.
    #[arg(long, value_name = "WIDTH", value_parser = clap::value_parser!(u16).range(16..=128))]
    pub network: Option<u16>,
    /// The network's Adam step for the table, at the first epoch.
    #[arg(long, default_value_t = NetworkOptions::default().table_rate, allow_negative_numbers = true)]
    pub network_rate: f32,
    /// The network's Adam step for the output heads, at the first epoch.
    #[arg(long, default_value_t = NetworkOptions::default().head_rate, allow_negative_numbers = true)]
    pub network_head_rate: f32,
    /// Each epoch's network steps are the previous epoch's times this.
    #[arg(long, default_value_t = NetworkOptions::default().decay, allow_negative_numbers = true)]
    pub network_decay: f32,
    #[command(flatten)]
    pub gomoku: GomokuTrainArgs,
    /// The ids of the options given on the command line (clap's value
    /// source; a default written out counts as given), filled by
    /// [`super::parse_from`].
    #[arg(skip)]
    pub given: Vec<String>,
}

/// The options of `train-eval --game gomoku` (see
/// [`oxello::train::gomoku::tune`]).
#[derive(Debug, Args)]
#[command(next_help_heading = "Gomoku (--game gomoku)")]
pub struct GomokuTrainArgs {
    /// Match files (`oxello match --game gomoku -o`, SGF): every position
    /// before a searched move, with the game's outcome (positions whose
    /// side to move has a VCF, and forfeits, left out; every tenth game of
    /// a file held out).
    #[arg(long, num_args = 1.., value_name = "GAMES.sgf")]
    pub sgf: Vec<std::path::PathBuf>,
    /// Score each `--sgf` position by a search of so many nodes (one
    /// thread, no VCT; won or lost positions left out), cached in
    /// `GAMES.sgf.scores-NODES` [default: the weights in force stand in].
    #[arg(long, value_name = "NODES", value_parser = super::positive_count, allow_negative_numbers = true)]
    pub label: Option<u64>,
    /// Read the `--sgf` positions' scores from another engine's
    /// evaluations, `GAMES.sgf.scores-NAME`, as
    /// `scripts/gomoku-teacher-labels.py` writes them (`nan` positions left
    /// out).
    #[arg(long, value_name = "NAME", conflicts_with = "label")]
    pub teacher: Option<String>,
    /// Our `K` of the logistic model, instead of fitting it.
    #[arg(long, value_name = "K", allow_negative_numbers = true)]
    pub scale: Option<f64>,
    /// Fit to L times the outcome plus 1 - L times the scores' win
    /// probability.
    #[arg(
        long,
        value_name = "L",
        default_value_t = 1.0,
        allow_negative_numbers = true
    )]
    pub lambda: f64,
    /// Fit every feature in one stage, with the ridge towards the weights
    /// in force.
    #[arg(long)]
    pub refine: bool,
    /// The first stage's ridge towards the hand-set values.
    #[arg(
        long,
        value_name = "R",
        default_value_t = 1e-4,
        allow_negative_numbers = true
    )]
    pub ridge1: f64,
    /// The ridge towards the first stage's values (or, with `--refine`,
    /// the weights in force).
    #[arg(
        long,
        value_name = "R",
        default_value_t = 3e-3,
        allow_negative_numbers = true
    )]
    pub ridge: f64,
}

impl TrainEvalArgs {
    /// The network's training steps: each value and its option's name.
    fn network_steps(&self) -> [(f32, &'static str); 3] {
        [
            (self.network_rate, "--network-rate"),
            (self.network_head_rate, "--network-head-rate"),
            (self.network_decay, "--network-decay"),
        ]
    }

    /// Whether the option of this clap id was given on the command line.
    fn is_given(&self, id: &str) -> bool {
        self.given.iter().any(|given| given == id)
    }

    /// The first of these options (clap ids) given on the command line, as
    /// its flag.
    fn first_given(&self, ids: &[&str]) -> Option<String> {
        ids.iter()
            .find(|id| self.is_given(id))
            .map(|id| format!("--{}", id.replace('_', "-")))
    }

    /// The first of the network's training steps given, for refusing it
    /// where no network is trained.
    fn network_option_given(&self) -> Option<String> {
        self.first_given(&["network_rate", "network_head_rate", "network_decay"])
    }

    /// The first option of the 8x8 WTHOR games' labels given.
    fn wthor_option_given(&self) -> Option<String> {
        self.first_given(&[
            "solved",
            "searched",
            "exact",
            "search_weight",
            "wthor_parity_fix",
            "wthor",
        ])
    }

    /// The first option of the self-play records' labels given.
    fn selfplay_label_option_given(&self) -> Option<String> {
        self.first_given(&["selfplay_search_weight", "selfplay_parity_fix"])
    }

    /// The first option of `--game gomoku` given, for refusing it outside
    /// gomoku.
    fn gomoku_option_given(&self) -> Option<String> {
        self.first_given(&[
            "sgf", "label", "teacher", "scale", "lambda", "refine", "ridge1", "ridge",
        ])
    }

    /// Why a label option given would change nothing: it applies to the
    /// 8x8 WTHOR games under `--size 6`, or its label source is missing.
    fn label_option_without_effect(&self) -> Option<String> {
        let changes = |option: &str, source: &str| {
            format!("{option} changes the {source} labels: give {source} FILES")
        };
        if self.size == 6
            && let Some(option) = self.wthor_option_given()
        {
            Some(format!(
                "{option} applies to the 8x8 WTHOR games; 6x6 trains on --selfplay"
            ))
        } else if self.is_given("search_weight") && self.searched.is_empty() {
            Some(changes("--search-weight", "--searched"))
        } else if self.selfplay.is_empty() {
            let option = self.selfplay_label_option_given()?;
            Some(changes(&option, "--selfplay"))
        } else {
            None
        }
    }
}

/// Reads every `.wtb` file of the folder, trains, writes the weight file.
pub fn run(args: &TrainEvalArgs) -> Result<ExitCode, Box<dyn Error>> {
    if args.game == Game::Gomoku {
        return run_gomoku(args);
    }
    if let Some(option) = args.gomoku_option_given() {
        return Err(super::usage(format!(
            "{option} applies to train-eval --game gomoku"
        )));
    }
    let started = Instant::now();
    if !(0.0..=1.0).contains(&args.search_weight) {
        return Err(super::usage(format!(
            "--search-weight {}: use 0 to 1",
            args.search_weight
        )));
    }
    if !(0.0..=1.0).contains(&args.selfplay_search_weight) {
        return Err(super::usage(format!(
            "--selfplay-search-weight {}: use 0 to 1",
            args.selfplay_search_weight
        )));
    }
    let model = match args.size {
        8 => &EIGHT,
        6 => &SIX,
        n => {
            return Err(super::usage(format!(
                "--size {n}: train-eval trains 8 or 6"
            )));
        }
    };
    if args.network.is_some() && args.size != 8 {
        return Err(super::usage(
            "--network trains the 8x8 evaluation's network",
        ));
    }
    if let Some(width) = args.network
        && !width.is_multiple_of(16)
    {
        return Err(super::usage(format!(
            "--network {width}: use a multiple of 16 (16 to 128)"
        )));
    }
    if args.network.is_none()
        && let Some(name) = args.network_option_given()
    {
        return Err(super::usage(format!(
            "{name} applies to train-eval --network only"
        )));
    }
    for (value, name) in args.network_steps() {
        if !(value > 0.0 && value <= 1.0) {
            return Err(super::usage(format!(
                "{name} {value}: use a number above 0, at most 1"
            )));
        }
    }
    let default_file = if args.network.is_some() {
        "fitted/network-8.bin"
    } else {
        model.file
    };
    let out_path = super::output_or_default(args.out.as_deref(), default_file)?;
    if let Some(message) = args.label_option_without_effect() {
        return Err(super::usage(message));
    }
    if args.size == 6 && args.selfplay.is_empty() {
        return Err(super::usage(
            "--size 6 trains on self-play records: give --selfplay FILES",
        ));
    }
    let mut samples = Samples {
        search_weight: args.search_weight,
        selfplay_search_weight: args.selfplay_search_weight,
        selfplay_parity_fix: args.selfplay_parity_fix,
        wthor_parity_fix: args.wthor_parity_fix,
        ..Samples::default()
    };
    for path in &args.selfplay {
        samples.add_selfplay(&oxello::selfplay::read_file(path)?, model.size);
    }
    let mut files = 0;
    if args.size != 6 {
        for path in obf_files(&args.solved)? {
            samples.add_solved(&super::read_obf(&path)?);
        }
        for path in obf_files(&args.searched)? {
            samples.add_searched(&super::read_obf(&path)?);
        }
        for path in obf_files(&args.exact)? {
            samples.add_exact(&super::read_obf(&path)?);
        }
        let paths = files_in(&args.wthor, "wtb")?;
        files = paths.len();
        let bar = super::progress::counting(paths.len() as u64, "files");
        for path in &paths {
            bar.inc(1);
            samples.add_file(&wthor::read_wtb(path)?);
        }
        bar.finish_and_clear();
    }
    if samples.training.is_empty() {
        return Err(format!(
            "nothing to train on: no {0}x{0} training position in the files given ({1} records of another size skipped)",
            args.size, samples.other_size
        )
        .into());
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}x{}: {} files, {} games ({} skipped), {} self-play games, {} solved positions, {} training positions with a search value, {} with an exact score, {} training and {} held-out positions ({:.1} s)",
        args.size,
        args.size,
        files,
        samples.games,
        samples.skipped,
        samples.selfplay_games,
        samples.solved,
        samples.searched_used,
        samples.exact_used,
        samples.training.len(),
        samples.validation.len() + samples.solved_validation.len(),
        started.elapsed().as_secs_f64()
    )?;
    if let Some(width) = args.network {
        return train_network(args, &samples, usize::from(width), &out_path, started);
    }
    // The held-out error of the weights built into this binary, phase by
    // phase, to compare.
    let before = built_in_rms(model, &samples.validation);
    let before_solved = built_in_rms(model, &samples.solved_validation);
    writeln!(
        out,
        "phase | empties | training | validation | rms train | rms held-out | built-in | rms of 0 | solved held-out | rms | built-in"
    )?;
    let options = TrainOptions {
        epochs: args.epochs,
        ..TrainOptions::default()
    };
    // A closed stdout is noticed at the report below; the training goes on
    // and writes its weights.
    let bar = super::progress::counting(model.phases as u64, "phases");
    let (weights, _) = train_model(model, &samples, options, &mut |r| {
        bar.inc(1);
        let low = r.phase * model.empties_per_phase;
        let solved = if r.solved_samples == 0 {
            format!("{:15} | {:5} | {:8}", 0, "-", "-")
        } else {
            format!(
                "{:15} | {:5.2} | {:8.2}",
                r.solved_samples, r.solved_rms, before_solved[r.phase]
            )
        };
        let _ = bar.suspend(|| {
            writeln!(
                out,
                "{:5} | {:2}-{:<4} | {:8} | {:10} | {:9.2} | {:12.2} | {:8.2} | {:8.2} | {solved}",
                r.phase,
                low,
                low + model.empties_per_phase - 1,
                r.training_samples,
                r.validation_samples,
                r.training_rms,
                r.validation_rms,
                before[r.phase],
                r.baseline_rms
            )
        });
        let _ = out.flush();
    });
    bar.finish_and_clear();
    write_fitted(&mut out, &out_path, &(model.encode)(weights), started)
}

/// Writes a trained file and says so on `out`.
fn write_fitted(
    out: &mut impl std::io::Write,
    path: &std::path::Path,
    bytes: &[u8],
    started: Instant,
) -> Result<ExitCode, Box<dyn Error>> {
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    writeln!(
        out,
        "wrote {} ({} bytes) in {:.1} s",
        path.display(),
        bytes.len(),
        started.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `train-eval --network WIDTH`: trains the network over the built-in
/// linear weights, reporting after each epoch the held-out errors by band
/// of empties, with and without the network.
fn train_network(
    args: &TrainEvalArgs,
    samples: &Samples,
    width: usize,
    out_path: &std::path::Path,
    started: Instant,
) -> Result<ExitCode, Box<dyn Error>> {
    use oxello::train::network::{NetworkData, train};
    let training = NetworkData::new(&samples.training);
    let validation = NetworkData::new(&samples.validation);
    let solved = NetworkData::new(&samples.solved_validation);
    // About 200,000 training samples, to tell underfitting from overfitting.
    let step = (samples.training.len() / 200_000).max(1);
    let subset: Vec<Sample> = samples.training.iter().step_by(step).copied().collect();
    let train_subset = NetworkData::new(&subset);
    let options = NetworkOptions {
        width,
        epochs: args.epochs,
        table_rate: args.network_rate,
        head_rate: args.network_head_rate,
        decay: args.network_decay,
        ..NetworkOptions::default()
    };
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "network {width} wide, {} training samples ({:.1} s)",
        training.len(),
        started.elapsed().as_secs_f64()
    )?;
    let net = train(&training, options, &mut |epoch, net| {
        let _ = writeln!(
            out,
            "epoch {} ({:.0} s): rms with / without the network, by 4 empties (held out, then training)",
            epoch + 1,
            started.elapsed().as_secs_f64()
        );
        for (name, data) in [
            ("games", &validation),
            ("solved", &solved),
            ("training", &train_subset),
        ] {
            let line: Vec<String> = net
                .report(data, 4)
                .iter()
                .map(|(low, n, with, without)| format!("{low}+:{with:.2}/{without:.2}({n})"))
                .collect();
            let _ = writeln!(out, "  {name}: {}", line.join(" "));
        }
        let _ = out.flush();
    });
    write_fitted(&mut out, out_path, &net.quantized().encode(), started)
}

/// `train-eval --game gomoku`: fits, reports on stdout, writes the
/// weights file if `--out` is given.
fn run_gomoku(args: &TrainEvalArgs) -> Result<ExitCode, Box<dyn Error>> {
    let othello_option = args
        .first_given(&["size", "epochs", "network"])
        .or_else(|| args.wthor_option_given())
        .or_else(|| args.selfplay_label_option_given())
        .or_else(|| args.network_option_given());
    if let Some(option) = othello_option {
        return Err(super::usage(format!(
            "{option} does not apply to train-eval --game gomoku"
        )));
    }
    let g = &args.gomoku;
    if !(0.0..=1.0).contains(&g.lambda) {
        return Err(super::usage(format!("--lambda {}: use 0 to 1", g.lambda)));
    }
    if let Some(k) = g.scale
        && !(k > 0.0 && k.is_finite())
    {
        return Err(super::usage(format!("--scale {k}: use a positive number")));
    }
    for (ridge, option) in [(g.ridge1, "--ridge1"), (g.ridge, "--ridge")] {
        if !(ridge >= 0.0 && ridge.is_finite()) {
            return Err(super::usage(format!(
                "{option} {ridge}: use 0 or a positive number"
            )));
        }
    }
    if let Some(path) = &args.out {
        super::check_output("--out", path)?;
    }
    if args.selfplay.is_empty() && g.sgf.is_empty() {
        return Err(super::usage(
            "train-eval --game gomoku fits to --selfplay records and --sgf games: give either",
        ));
    }
    let options = TuneOptions {
        records: args.selfplay.clone(),
        games: g.sgf.clone(),
        label: g.label,
        teacher: g.teacher.clone(),
        scale: g.scale,
        lambda: g.lambda,
        refine: g.refine,
        ridge1: g.ridge1,
        ridge: g.ridge,
    };
    let mut out = std::io::stdout().lock();
    // A closed stdout is noticed at the last line; the fit goes on and
    // writes its weights.
    let weights = gomoku::tune(
        &options,
        &|path| note!("read {}", path.display()),
        &mut |line| {
            let _ = writeln!(out, "{line}");
        },
    )?;
    if let Some(path) = &args.out {
        std::fs::write(path, gomoku::file(&gomoku::scaled(&weights)))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        writeln!(out, "wrote {}", path.display())?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The OBF files named, each folder standing for its `.obf` files.
fn obf_files(paths: &[std::path::PathBuf]) -> Result<Vec<std::path::PathBuf>, Box<dyn Error>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            files.extend(files_in(path, "obf")?);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// The files of `folder` ending in `.extension`: an error if it cannot be
/// read or holds none.
fn files_in(
    folder: &std::path::Path,
    extension: &str,
) -> Result<Vec<std::path::PathBuf>, Box<dyn Error>> {
    let files = oxello::formats::files_with_extension(folder, extension)
        .map_err(|e| format!("cannot read {}: {e}", folder.display()))?;
    if files.is_empty() {
        return Err(format!("no .{extension} file in {}", folder.display()).into());
    }
    Ok(files)
}

/// The RMS error of the weights of `model` built into this binary on
/// `samples`, phase by phase, to compare with the training's.
fn built_in_rms(model: &Model, samples: &[Sample]) -> Vec<f64> {
    let mut sums = vec![(0.0f64, 0usize); model.phases];
    for sample in samples {
        let phase = (model.phase)(model.empties(sample.board));
        let error = f64::from((model.built_in)(sample.board) - i32::from(sample.label));
        sums[phase].0 += error * error;
        sums[phase].1 += 1;
    }
    sums.into_iter()
        .map(|(sum, count)| (sum / count.max(1) as f64).sqrt())
        .collect()
}
