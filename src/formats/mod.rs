//! Text and binary formats, one module each, every one with a typed parse
//! error, a writer and round-trip tests.

pub mod board_string;
pub mod ggf;
pub mod obf;
pub mod openings;
pub mod spec;
pub mod transcript;
pub mod wthor;

use std::fmt;
use std::path::{Path, PathBuf};

/// Why a file could not be read, in words a user can act on.
#[derive(Debug)]
pub enum FileError {
    /// Nothing exists at the path.
    NotFound(PathBuf),
    /// The path names a directory.
    IsDirectory(PathBuf),
    /// The file holds nothing (or only white space, for text).
    Empty(PathBuf),
    /// The file is larger than the reader accepts.
    TooLarge {
        path: PathBuf,
        bytes: u64,
        limit: u64,
    },
    /// Another I/O error (permissions, ...).
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::NotFound(path) => write!(f, "{}: no such file", path.display()),
            FileError::IsDirectory(path) => write!(f, "{}: is a directory", path.display()),
            FileError::Empty(path) => write!(f, "{}: is empty", path.display()),
            FileError::TooLarge { path, bytes, limit } => write!(
                f,
                "{}: too large ({bytes} bytes, at most {limit})",
                path.display()
            ),
            FileError::Io { path, error } => write!(f, "{}: cannot read: {error}", path.display()),
        }
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FileError::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// Reads a whole file of at most `limit` bytes. A missing file, a directory
/// and an empty file are each reported as such.
pub fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    let io = |error: std::io::Error| match error.kind() {
        std::io::ErrorKind::NotFound => FileError::NotFound(path.to_path_buf()),
        std::io::ErrorKind::IsADirectory => FileError::IsDirectory(path.to_path_buf()),
        _ => FileError::Io {
            path: path.to_path_buf(),
            error,
        },
    };
    let metadata = std::fs::metadata(path).map_err(io)?;
    if metadata.is_dir() {
        return Err(FileError::IsDirectory(path.to_path_buf()));
    }
    if metadata.len() > limit {
        return Err(FileError::TooLarge {
            path: path.to_path_buf(),
            bytes: metadata.len(),
            limit,
        });
    }
    // The length was only a hint (special files report 0): the read decides.
    let bytes = std::fs::read(path).map_err(io)?;
    if bytes.is_empty() {
        return Err(FileError::Empty(path.to_path_buf()));
    }
    Ok(bytes)
}

/// Reads a whole text file of at most `limit` bytes (bytes that are not
/// UTF-8 are replaced, a leading byte-order mark, as Windows editors
/// write, left out); a file of white space only is empty.
pub fn read_text_file(path: &Path, limit: u64) -> Result<String, FileError> {
    let bytes = read_file(path, limit)?;
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&bytes);
    let text = String::from_utf8_lossy(bytes).into_owned();
    if text.trim().is_empty() {
        return Err(FileError::Empty(path.to_path_buf()));
    }
    Ok(text)
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_errors_say_what_is_wrong() {
        let dir = std::env::temp_dir().join(format!("oxello-formats-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let blank = dir.join("blank.txt");
        std::fs::write(&blank, " \n\t\n").unwrap();
        let text = dir.join("text.txt");
        std::fs::write(&text, "f5d6\n").unwrap();
        let message = |result: Result<String, FileError>| result.unwrap_err().to_string();
        assert!(message(read_text_file(&dir.join("none"), 100)).ends_with(": no such file"));
        assert!(message(read_text_file(&dir, 100)).ends_with(": is a directory"));
        assert!(message(read_text_file(&blank, 100)).ends_with(": is empty"));
        assert!(message(read_text_file(&text, 3)).contains("too large (5 bytes"));
        assert_eq!(read_text_file(&text, 100).unwrap(), "f5d6\n");
        let bom = dir.join("bom.txt");
        std::fs::write(&bom, "\u{feff}f5d6\n").unwrap();
        assert_eq!(read_text_file(&bom, 100).unwrap(), "f5d6\n");
        assert_eq!(read_file(&blank, 100).unwrap().len(), 4);
        let _ = std::fs::remove_dir_all(dir);
    }
}
