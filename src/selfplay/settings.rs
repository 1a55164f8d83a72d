//! The settings a record file was written with, kept beside it in
//! `<output>.settings.json`, so that a rerun resumes only what the same
//! settings wrote.
//!
//! The records carry no header (binary files concatenate with `cat` and map
//! as an array; every JSONL line is a record), hence the file beside them.
//! It holds one JSON object of names and values, the settings that decide
//! what the games are: board, seed, search, openings, draws (not `--games`,
//! which a rerun may raise, nor `--threads`, which changes no game). A run
//! that finds records and settings that differ from its own refuses to
//! resume, naming each difference; records without a settings file (from
//! before this file existed) resume on trust, and the run writes one.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// Settings by name, in a stable order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings(BTreeMap<String, String>);

impl Settings {
    /// These settings and `name` = `value`.
    pub fn with(mut self, name: &str, value: impl fmt::Display) -> Settings {
        self.0.insert(name.to_string(), value.to_string());
        self
    }

    /// The value of `name`, if set.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// What differs between the settings a file was written with (`file`)
    /// and these: `depth: 4 in the file, 5 in this run`.
    pub fn differences(&self, file: &Settings) -> Vec<String> {
        let names: std::collections::BTreeSet<&String> =
            self.0.keys().chain(file.0.keys()).collect();
        names
            .into_iter()
            .filter_map(|name| {
                let (there, here) = (file.0.get(name), self.0.get(name));
                (there != here).then(|| {
                    let show =
                        |value: Option<&String>| value.map_or("unset", |v| v.as_str()).to_string();
                    format!(
                        "{name} {} in the file, {} in this run",
                        show(there),
                        show(here)
                    )
                })
            })
            .collect()
    }
}

/// The settings file of the record file `output`.
pub fn path_of(output: &Path) -> PathBuf {
    let mut name = output.as_os_str().to_os_string();
    name.push(".settings.json");
    PathBuf::from(name)
}

/// What [`check`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// No records yet: the run starts the file (and writes its settings).
    Fresh,
    /// Records written with these very settings.
    Same,
    /// Records without a settings file: resumed on trust.
    Unrecorded,
}

/// Checks whether a run of `settings` may resume `records` (the file
/// resumed: the output, or an npz output's journal), whose settings file is
/// the one of `output`. Reads, never writes. The error names the
/// differences, or why the settings file does not read.
pub fn check(settings: &Settings, records: &Path, output: &Path) -> Result<Found, String> {
    let has_records = std::fs::metadata(records).is_ok_and(|m| m.len() > 0);
    if !has_records {
        return Ok(Found::Fresh);
    }
    let path = path_of(output);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Found::Unrecorded),
        Err(error) => return Err(format!("{}: {error}", path.display())),
    };
    let stored: BTreeMap<String, String> = serde_json::from_str(&text)
        .map_err(|error| format!("{}: not a settings file: {error}", path.display()))?;
    let differences = settings.differences(&Settings(stored));
    if differences.is_empty() {
        return Ok(Found::Same);
    }
    Err(format!(
        "{} was written with other settings ({}): rerun with the settings of {}, or write \
         another file",
        records.display(),
        differences.join("; "),
        path.display()
    ))
}

/// Writes the settings file of `output` (through a temporary file renamed
/// into place, so that a kill leaves the old one or the new one).
pub fn write(settings: &Settings, output: &Path) -> std::io::Result<()> {
    let path = path_of(output);
    let mut temporary = path.as_os_str().to_os_string();
    temporary.push(".tmp");
    let temporary = PathBuf::from(temporary);
    // A map of strings always serialises.
    let text = serde_json::to_string_pretty(&settings.0).unwrap_or_default();
    std::fs::write(&temporary, text + "\n")?;
    std::fs::rename(&temporary, &path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_are_named() {
        let file = Settings::default().with("depth", 4).with("seed", 1);
        let run = Settings::default()
            .with("depth", 5)
            .with("seed", 1)
            .with("nodes", 100);
        assert_eq!(
            run.differences(&file),
            [
                "depth 4 in the file, 5 in this run",
                "nodes unset in the file, 100 in this run"
            ]
        );
        assert!(file.differences(&file.clone()).is_empty());
    }

    #[test]
    fn a_file_resumes_only_under_its_settings() {
        let dir = std::env::temp_dir().join(format!("oxello-settings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let output = dir.join("games.jsonl");
        let settings = Settings::default().with("depth", 4);
        assert_eq!(check(&settings, &output, &output), Ok(Found::Fresh));
        std::fs::write(&output, "a game\n").unwrap();
        assert_eq!(check(&settings, &output, &output), Ok(Found::Unrecorded));
        write(&settings, &output).unwrap();
        assert_eq!(check(&settings, &output, &output), Ok(Found::Same));
        let other = Settings::default().with("depth", 5);
        let error = check(&other, &output, &output).unwrap_err();
        assert!(
            error.contains("depth 4 in the file, 5 in this run"),
            "{error}"
        );
        std::fs::write(path_of(&output), "garbage").unwrap();
        assert!(check(&settings, &output, &output).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
