//! A directory for a test's files, removed with everything in it when the
//! guard is dropped, also when the test fails (the drop runs while the
//! panic unwinds): tests leave nothing in the system's temporary
//! directory.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// `oxello-NAME-PID-N` in the temporary directory, empty when made (`N`
/// numbers the guards of a process, whose tests run at once).
pub(crate) struct ScratchDir(PathBuf);

impl ScratchDir {
    pub fn new(name: &str) -> ScratchDir {
        static MADE: AtomicUsize = AtomicUsize::new(0);
        let n = MADE.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("oxello-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)
            .unwrap_or_else(|error| panic!("cannot make {}: {error}", dir.display()));
        ScratchDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// A file in the directory.
    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_directory_goes_with_the_guard_even_on_a_panic() {
        let made = std::thread::spawn(|| {
            let dir = ScratchDir::new("scratch-test");
            std::fs::write(dir.join("a.txt"), "a").unwrap();
            let path = dir.path().to_path_buf();
            assert!(path.join("a.txt").exists());
            std::panic::panic_any(path);
        })
        .join()
        .unwrap_err();
        let path = made.downcast::<PathBuf>().unwrap();
        assert!(!path.exists(), "{}", path.display());
    }
}
