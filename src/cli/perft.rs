//! `oxello perft`: counts the leaves of the game tree below a position.

use super::EngineArgs;
use clap::{Args, ValueEnum};
use oxello::bitboard::BoardSize;
use oxello::formats::board_string;
use oxello::movegen;
use oxello::perft::{self, PassConvention};
use std::error::Error;
use std::io::Write as _;
use std::process::ExitCode;
use std::time::Instant;

/// Depth without the global `--depth`.
const DEFAULT_PERFT_DEPTH: u32 = 9;

/// Options of `oxello perft`. The depth in plies is the global `--depth`
/// (default 9).
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// Position to count from: `start`, a board string, a transcript, or a file.
    #[arg(default_value = "start")]
    pub position: String,
    /// Board size (4, 6 or 8) for `start` and transcripts [default: 8]; a
    /// board string or a file has its own, which this must match.
    #[arg(short, long)]
    pub size: Option<BoardSize>,
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

pub fn run(args: &PerftArgs, engine: &EngineArgs) -> Result<ExitCode, Box<dyn Error>> {
    let depth = engine.depth.unwrap_or(DEFAULT_PERFT_DEPTH);
    let game = super::load(&args.position, args.size)?;
    let mut out = std::io::stdout().lock();
    let position = game.position();
    let backend = match args.backend {
        Backend::Native => movegen::BACKEND,
        Backend::Portable => "portable",
    };
    writeln!(
        out,
        "perft depth {depth} convention {} size {} backend {backend}",
        args.convention, position.size
    )?;
    writeln!(out, "position {}", board_string::format_position(&position))?;
    let started = Instant::now();
    let leaves = if args.divide {
        let divide = match args.backend {
            Backend::Native => perft::divide_with::<perft::Native>,
            Backend::Portable => perft::divide_with::<perft::Portable>,
        };
        let parts = divide(position.board, position.size, depth, args.convention);
        for (mv, count) in &parts {
            writeln!(out, "{mv:<4} {count}")?;
        }
        parts.iter().map(|(_, count)| count).sum()
    } else {
        let count = match args.backend {
            Backend::Native => perft::perft_with::<perft::Native>,
            Backend::Portable => perft::perft_with::<perft::Portable>,
        };
        count(position.board, position.size, depth, args.convention)
    };
    let seconds = started.elapsed().as_secs_f64();
    writeln!(out, "leaves {leaves}")?;
    writeln!(out, "time {seconds:.3} s")?;
    writeln!(out, "leaves/s {:.0}", leaves as f64 / seconds.max(1e-9))?;
    Ok(ExitCode::SUCCESS)
}
