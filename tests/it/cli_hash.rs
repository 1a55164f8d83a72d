//! `--hash` larger than the memory the machine has: a clear error and a
//! non-zero exit code in every mode, before any table is allocated.

use std::process::{Command, Stdio};

/// A table size no test machine has the memory for: the largest `--hash`.
const HUGE_MIB: usize = 1 << 20;

/// The memory available now, in MiB, when the system says (Linux).
fn available_mib() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// Runs `oxello ARGS` with 2 GiB of address space at most, so that a build
/// that tried the table anyway could not take the machine's memory; returns
/// the exit code and stderr.
fn run_capped(args: &[&str]) -> (Option<i32>, String) {
    let output = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 2097152 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_oxello"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .expect("cannot run sh");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_table_larger_than_memory_is_refused_in_every_mode() {
    match available_mib() {
        Some(mib) if mib < HUGE_MIB / 2 => {}
        other => {
            eprintln!("skipped: available memory {other:?} MiB unknown or huge");
            return;
        }
    }
    let hash = HUGE_MIB.to_string();
    let commands: &[&[&str]] = &[
        &["move", "f5"],
        &["nboard"],
        &["gtp"],
        &[],
        &["analyze", "f5", "--depth", "1"],
        &["solve", "-s", "4"],
        &["match", "-e", "level:1", "-e", "greedy", "--games", "2"],
    ];
    for command in commands {
        let args = [*command, &["--hash", &hash]].concat();
        let (code, stderr) = run_capped(&args);
        assert!(
            code.is_some_and(|code| code != 0),
            "{args:?}: {code:?} {stderr}"
        );
        assert!(
            stderr.starts_with(&format!("error: --hash {hash}: "))
                && stderr.contains("MiB of memory"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
