//! Tests leave nothing in the temporary directory (issue 75, defect 16: a
//! run left `oxello-gtp-PID-*.ggf`, `*.txt` and a fuzz `learn.ggf`): the
//! protocol tests that write files run again in a child process whose
//! `TMPDIR` is a directory of this test's, which must be empty after them.

use crate::common::TempDir;
use std::process::Command;

#[test]
fn protocol_tests_leave_no_files_behind() {
    let tmp = TempDir::new("temp-files", "tmpdir");
    let output = Command::new(std::env::current_exe().expect("the test binary"))
        .args([
            "protocol_gtp::",
            "protocol_oneshot::board_string_transcript_and_ggf_file",
            "protocol_nboard::gui_session_from_start_to_analysis",
            "--test-threads",
            "2",
        ])
        .env("TMPDIR", tmp.path())
        .output()
        .expect("the test binary runs");
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{report}");
    assert!(report.contains("test result: ok. "), "{report}");
    let left: Vec<String> = std::fs::read_dir(tmp.path())
        .expect("the temporary directory")
        .map(|entry| entry.map_or_else(|e| e.to_string(), |e| e.path().display().to_string()))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}
