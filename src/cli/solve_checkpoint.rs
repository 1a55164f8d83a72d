//! `oxello solve --checkpoint DIR`: the table of a long solve saved now and
//! then, one file a position and kind of solve, and a solve of the same
//! position started from it ([`oxello::search::checkpoint`]).

use super::solve_progress::SolveProgress;
use super::usage;
use oxello::position::Position;
use oxello::search::checkpoint::{self, Header};
use oxello::search::{Searcher, SolveMode};
use std::error::Error;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Where and how often a solve saves its table.
pub struct Checkpoints {
    dir: PathBuf,
    every: Duration,
    mode: SolveMode,
}

/// What the runs before this one spent on a position: nodes and time.
#[derive(Clone, Copy, Debug, Default)]
pub struct Before {
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Saves are at least this many times their own duration apart: with a
/// large table (seconds a save) they come less often than asked.
const SAVE_SHARE: u32 = 4;

impl Checkpoints {
    /// Checkpoints of `mode` solves in the folder `dir` (made if missing,
    /// and tried at once: a folder it cannot write is refused now, not at
    /// the first save) every `every_seconds`.
    pub fn new(
        dir: &Path,
        every_seconds: f64,
        mode: SolveMode,
    ) -> Result<Checkpoints, Box<dyn Error>> {
        let every = Duration::try_from_secs_f64(every_seconds)
            .ok()
            .filter(|every| !every.is_zero())
            .ok_or_else(|| {
                usage(format!(
                    "--checkpoint-every {every_seconds}: give a positive number of seconds"
                ))
            })?;
        let cannot = |e: std::io::Error| format!("--checkpoint {}: {e}", dir.display());
        if dir.exists() && !dir.is_dir() {
            return Err(usage(format!(
                "--checkpoint {}: is not a directory (give the folder the tables are saved in)",
                dir.display()
            )));
        }
        std::fs::create_dir_all(dir).map_err(cannot)?;
        let probe = dir.join(format!(".probe-{}", std::process::id()));
        std::fs::write(&probe, b"").map_err(cannot)?;
        std::fs::remove_file(&probe).map_err(cannot)?;
        Ok(Checkpoints {
            dir: dir.to_path_buf(),
            every,
            mode,
        })
    }

    /// The checkpoint file of `position`: named by its board and the kind
    /// of solve, so that the folder can hold those of several positions (a
    /// suite's skipped ones) and an exact solve's and a WLD one's apart.
    pub fn path(&self, position: &Position) -> PathBuf {
        let board = position.board;
        let mode = match self.mode {
            SolveMode::Exact => "exact",
            SolveMode::Wld => "wld",
        };
        self.dir.join(format!(
            "{n}x{n}-{:016x}-{:016x}-{mode}.oxtt",
            board.player,
            board.opponent,
            n = position.size.n()
        ))
    }

    /// Readies `searcher` for the solve of `position`: its checkpoint's
    /// table if there is one, else an empty table. A checkpoint that
    /// cannot be used (damaged, of another format or build) is renamed
    /// aside (only if the rename fails does the next save replace it).
    /// Parts of saves that a killed run left are removed. Returns what the
    /// runs before spent.
    pub fn start(
        &self,
        searcher: &mut Searcher,
        position: &Position,
        progress: &SolveProgress,
    ) -> Before {
        let path = self.path(position);
        self.remove_parts(&path);
        let refused = match Header::read(&path) {
            Ok(None) => {
                searcher.clear();
                return Before::default();
            }
            Ok(Some(header)) if !header.is_of(position, self.mode) => {
                "the checkpoint of another position or solve".to_string()
            }
            Ok(Some(_)) => match searcher.restore_checkpoint(&path) {
                Ok(Some(restored)) => {
                    let header = restored.header;
                    let smaller = if restored.kept < restored.saved as usize {
                        format!(" (the table holds {} of them)", restored.kept)
                    } else {
                        String::new()
                    };
                    progress.note(
                        &format!(
                            "resumed from {} ({} entries{smaller}; {} nodes, {:.1} s before)",
                            path.display(),
                            restored.saved,
                            header.nodes,
                            header.elapsed.as_secs_f64()
                        ),
                        serde_json::json!({
                            "resumed": path.display().to_string(),
                            "entries": restored.saved,
                            "kept": restored.kept,
                            "nodes_before": header.nodes,
                            "time_before": header.elapsed.as_secs_f64(),
                        }),
                    );
                    return Before {
                        nodes: header.nodes,
                        elapsed: header.elapsed,
                    };
                }
                Ok(None) => return Before::default(),
                Err(e) => e.to_string(),
            },
            Err(e) => e.to_string(),
        };
        searcher.clear();
        let mut aside = path.clone().into_os_string();
        aside.push(".bad");
        let aside = PathBuf::from(aside);
        let kept = match std::fs::rename(&path, &aside) {
            Ok(()) => format!("kept aside as {}", aside.display()),
            Err(e) => format!("cannot be kept aside ({e})"),
        };
        progress.note(
            &format!(
                "{}: {refused}; solving from the beginning, and the file {kept}",
                path.display()
            ),
            serde_json::json!({ "error": format!("{}: {refused}", path.display()) }),
        );
        Before::default()
    }

    /// Saves the table of the running solve every [`Checkpoints::every`]
    /// (or less often when saves are slow), until `searched` closes.
    pub fn keep(
        &self,
        searcher: &Searcher,
        position: &Position,
        before: Before,
        progress: &SolveProgress,
        searched: &Receiver<()>,
    ) {
        let started = Instant::now();
        let mut wait = self.every;
        while let Err(RecvTimeoutError::Timeout) = searched.recv_timeout(wait) {
            let nodes = before
                .nodes
                .saturating_add(searcher.nodes_now().unwrap_or(0));
            let clock = Instant::now();
            self.save(
                searcher,
                position,
                nodes,
                before.elapsed + started.elapsed(),
                progress,
            );
            wait = self.every.max(clock.elapsed() * SAVE_SHARE);
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
        let header = Header::new(position, self.mode, nodes, elapsed);
        match searcher.save_checkpoint(&path, &header) {
            Ok(entries) => {
                log::info!(
                    "{}: {entries} entries saved in {:.2} s",
                    path.display(),
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

    /// `position` is solved: its checkpoint goes, with any part of one
    /// that a killed run was writing.
    pub fn finish(&self, position: &Position) {
        let path = self.path(position);
        self.remove_parts(&path);
        remove(&path);
    }

    /// Removes the parts of saves of `path` that killed runs left.
    fn remove_parts(&self, path: &Path) {
        for part in checkpoint::parts_of(path) {
            remove(&part);
        }
    }
}

/// Removes `path`, if it is there.
fn remove(path: &Path) {
    match std::fs::remove_file(path) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => log::warn!("cannot remove {}: {e}", path.display()),
    }
}
