//! Text and binary formats, one module each, every one with a typed parse
//! error, a writer and round-trip tests.

pub mod board_string;
pub mod ggf;
pub mod obf;
pub mod openings;
pub mod spec;
pub mod transcript;
pub mod wthor;

use std::path::{Path, PathBuf};

/// The files of `dir` whose extension is `extension` (any case), sorted by
/// path: the game files of a WTHOR folder, the OBF files of a suite.
/// Entries that cannot be read are left out; only an unreadable folder is
/// an error.
pub fn files_with_extension(dir: &Path, extension: &str) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| {
            path.extension()
                .is_some_and(|e| e.to_string_lossy().eq_ignore_ascii_case(extension))
        })
        .collect();
    files.sort();
    Ok(files)
}
