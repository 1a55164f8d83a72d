//! `oxello solve --checkpoint DIR`: the table of a long solve saved now and
//! then, one file a position, and a solve of the same position started from
//! it ([`oxello::search::checkpoint`]).

use super::solve_progress::SolveProgress;
use super::usage;
use oxello::position::Position;
use oxello::search::Searcher;
use oxello::search::checkpoint::Checkpoint;
use std::error::Error;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Where and how often a solve saves its table.
pub struct Checkpoints {
    dir: PathBuf,
    every: Duration,
}

/// What the runs before this one spent on a position: nodes and time.
#[derive(Clone, Copy, Debug, Default)]
pub struct Before {
    pub nodes: u64,
    pub elapsed: Duration,
}

impl Checkpoints {
    /// Checkpoints in the folder `dir` (made if missing) every
    /// `every_seconds`.
    pub fn new(dir: &Path, every_seconds: f64) -> Result<Checkpoints, Box<dyn Error>> {
        let every = Duration::try_from_secs_f64(every_seconds)
            .ok()
            .filter(|every| !every.is_zero())
            .ok_or_else(|| {
                usage(format!(
                    "--checkpoint-every {every_seconds}: give a positive number of seconds"
                ))
            })?;
        std::fs::create_dir_all(dir).map_err(|e| format!("--checkpoint {}: {e}", dir.display()))?;
        Ok(Checkpoints {
            dir: dir.to_path_buf(),
            every,
        })
    }

    /// The checkpoint file of `position`: named by its board, so that the
    /// folder can hold those of several positions (a suite's skipped ones).
    pub fn path(&self, position: &Position) -> PathBuf {
        let board = position.board;
        self.dir.join(format!(
            "{n}x{n}-{:016x}-{:016x}.oxtt",
            board.player,
            board.opponent,
            n = position.size.n()
        ))
    }

    /// Readies `searcher` for the solve of `position`: its checkpoint's
    /// table if there is one, else an empty table. Returns what the runs
    /// before spent on it.
    pub fn start(
        &self,
        searcher: &mut Searcher,
        position: &Position,
        progress: &SolveProgress,
    ) -> Before {
        searcher.clear();
        let path = self.path(position);
        let checkpoint = match Checkpoint::read(&path) {
            Ok(Some(checkpoint)) if checkpoint.is_of(position) => checkpoint,
            Ok(None) => return Before::default(),
            Ok(Some(_)) => {
                log::warn!(
                    "{}: the checkpoint of another position; solving from the beginning",
                    path.display()
                );
                return Before::default();
            }
            Err(e) => {
                log::warn!("{}: {e}; solving from the beginning", path.display());
                return Before::default();
            }
        };
        searcher.restore(&checkpoint);
        progress.note(
            &format!(
                "resumed from {} ({} entries; {} nodes, {:.1} s before)",
                path.display(),
                checkpoint.len(),
                checkpoint.nodes,
                checkpoint.elapsed.as_secs_f64()
            ),
            serde_json::json!({
                "resumed": path.display().to_string(),
                "entries": checkpoint.len(),
                "nodes_before": checkpoint.nodes,
                "time_before": checkpoint.elapsed.as_secs_f64(),
            }),
        );
        Before {
            nodes: checkpoint.nodes,
            elapsed: checkpoint.elapsed,
        }
    }

    /// Saves the table of the running solve every [`Checkpoints::every`],
    /// until `done` closes.
    pub fn keep(
        &self,
        searcher: &Searcher,
        position: &Position,
        before: Before,
        progress: &SolveProgress,
        done: &Receiver<()>,
    ) {
        let started = Instant::now();
        while let Err(RecvTimeoutError::Timeout) = done.recv_timeout(self.every) {
            let nodes = before.nodes + searcher.nodes_now().unwrap_or(0);
            let elapsed = before.elapsed + started.elapsed();
            self.save(searcher, position, nodes, elapsed, progress);
        }
    }

    /// Saves the table now, for a solve that has taken `nodes` and
    /// `elapsed` in all. A failure is reported and the solve goes on.
    pub fn save(
        &self,
        searcher: &Searcher,
        position: &Position,
        nodes: u64,
        elapsed: Duration,
        progress: &SolveProgress,
    ) -> bool {
        let clock = Instant::now();
        let path = self.path(position);
        let checkpoint = searcher.checkpoint(position, nodes, elapsed);
        match checkpoint.write(&path) {
            Ok(()) => {
                log::info!(
                    "{}: {} entries saved in {:.2} s",
                    path.display(),
                    checkpoint.len(),
                    clock.elapsed().as_secs_f64()
                );
                true
            }
            Err(e) => {
                progress.note(
                    &format!("cannot save the checkpoint {}: {e}", path.display()),
                    serde_json::json!({ "error": format!("checkpoint {}: {e}", path.display()) }),
                );
                false
            }
        }
    }

    /// `position` is solved: its checkpoint goes, with the part of one
    /// that a killed run was writing.
    pub fn finish(&self, position: &Position) {
        let path = self.path(position);
        let mut part = path.clone().into_os_string();
        part.push(".part");
        for path in [path, PathBuf::from(part)] {
            match std::fs::remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => log::warn!("cannot remove {}: {e}", path.display()),
            }
        }
    }
}
