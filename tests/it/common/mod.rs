//! Helpers shared by the integration tests: a naive reference move generator
//! and random reachable positions.
#![allow(dead_code)]

pub mod naive;

use oxello::{Board, BoardSize, Move};
use rand::{Rng, SeedableRng, rngs::StdRng};

/// Random positions reachable from the start of `size`: every position met in
/// `games` random games (moves chosen uniformly), passes included.
pub fn random_positions(size: BoardSize, games: usize, seed: u64) -> Vec<Board> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut boards = Vec::new();
    for _ in 0..games {
        let mut board = Board::start(size);
        loop {
            boards.push(board);
            let moves = board.move_list_on(size);
            if moves.is_empty() {
                break;
            }
            let mv: Move = moves[rng.random_range(0..moves.len())];
            board = board.play_unchecked(mv);
        }
    }
    boards
}

/// A folder of the workspace's `shared/` data beside the project. Tests
/// that call it are ignored without `cfg(shared_data)`.
pub fn shared(dir: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(dir)
}

/// A fresh directory for one test's files, `oxello-SUITE-TEST-PID` in the
/// system's temporary directory.
pub fn temp_dir(suite: &str, test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("oxello-{suite}-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A fresh directory for one test's files, `oxello-SUITE-TEST-PID` in the
/// system's temporary directory, removed with everything in it when the
/// guard is dropped, also when the test fails (the drop runs while the
/// panic unwinds).
pub struct TempDir(std::path::PathBuf);

impl TempDir {
    pub fn new(suite: &str, test: &str) -> TempDir {
        TempDir(temp_dir(suite, test))
    }

    pub fn path(&self) -> &std::path::Path {
        &self.0
    }

    /// A file in the directory.
    pub fn join(&self, name: &str) -> std::path::PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A match summary (`oxello match`, `--merge`) without the lines that
/// differ from run to run: thinking times and the header.
pub fn match_results(summary: &str) -> String {
    summary
        .lines()
        .filter(|line| {
            !line.contains("ms per move")
                && !line.starts_with("Match ")
                && !line.starts_with("Merged ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}
