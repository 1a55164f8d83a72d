//! An engine subprocess: piped standard input and output, a reader thread
//! that turns the output into lines on a channel (so that every read can
//! have a deadline), and the last lines of its standard error kept for
//! crash reports.

use crate::arena::contestant::Fault;
use crate::arena::spec::CommandLine;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Lines of standard error kept for crash reports.
const STDERR_TAIL_LINES: usize = 5;
/// How long a process gets to exit after `quit` before it is killed.
const QUIT_WAIT: Duration = Duration::from_millis(500);

/// What the reader thread delivers.
enum Output {
    Line(String),
    /// Standard output closed (the process exited or closed it).
    Closed,
}

/// A running engine process.
pub struct EngineProcess {
    /// Name used in log messages.
    label: String,
    child: Child,
    stdin: Option<ChildStdin>,
    output: Receiver<Output>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    closed: bool,
}

impl EngineProcess {
    /// Starts `command`; `label` names it in logs.
    pub fn spawn(command: &CommandLine, label: &str) -> Result<EngineProcess, Fault> {
        let mut child = Command::new(&command.program)
            .args(&command.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| {
                Fault::crash(format!(
                    "cannot start {}: {error}",
                    command.program.display()
                ))
            })?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (sender, output) = mpsc::channel();
        std::thread::Builder::new()
            .name(format!("{label}-stdout"))
            .spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if sender.send(Output::Line(line)).is_err() {
                        return;
                    }
                }
                let _ = sender.send(Output::Closed);
            })
            .map_err(|error| Fault::crash(format!("cannot start a reader thread: {error}")))?;
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr_tail);
        let stderr_label = label.to_string();
        std::thread::Builder::new()
            .name(format!("{label}-stderr"))
            .spawn(move || {
                for line in BufReader::new(stderr).lines() {
                    let Ok(line) = line else { break };
                    log::debug!("{stderr_label} stderr: {line}");
                    let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
                    if tail.len() == STDERR_TAIL_LINES {
                        tail.pop_front();
                    }
                    tail.push_back(line);
                }
            })
            .map_err(|error| Fault::crash(format!("cannot start a reader thread: {error}")))?;
        log::debug!("{label}: started process {}", child.id());
        Ok(EngineProcess {
            label: label.to_string(),
            stdin: child.stdin.take(),
            child,
            output,
            stderr_tail,
            closed: false,
        })
    }

    /// Sends one line (a newline is added) and flushes.
    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        log::debug!("{} < {line}", self.label);
        let written = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}").and_then(|()| stdin.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        written.map_err(|error| self.crash_fault(&format!("cannot write to it ({error})")))
    }

    /// The next line of output, waiting until `deadline` at most.
    pub fn receive(&mut self, deadline: Instant, started: Instant) -> Result<String, Fault> {
        if self.closed {
            return Err(self.crash_fault("its output is closed"));
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.output.recv_timeout(wait) {
            Ok(Output::Line(line)) => {
                log::debug!("{} > {line}", self.label);
                Ok(line)
            }
            Ok(Output::Closed) | Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Err(self.crash_fault("it closed its output"))
            }
            Err(RecvTimeoutError::Timeout) => Err(Fault::timeout(started.elapsed())),
        }
    }

    /// A crash fault with the exit status and the end of standard error.
    fn crash_fault(&mut self, what: &str) -> Fault {
        // Give a dying process a moment to be reaped, for its exit status.
        let mut status = None;
        for _ in 0..20 {
            if let Ok(Some(exit)) = self.child.try_wait() {
                status = Some(exit);
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let mut detail = match status {
            Some(status) => format!("{what}; exited with {status}"),
            None => what.to_string(),
        };
        let tail = self.stderr_tail.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(last) = tail.back() {
            detail.push_str(&format!("; stderr: {last}"));
        }
        Fault::crash(detail)
    }

    /// Asks the process to quit (closing its input), then kills it if it is
    /// still running after a short wait.
    pub fn shut_down(&mut self, quit_line: Option<&str>) {
        if let Some(line) = quit_line {
            let _ = self.send(line);
        }
        self.stdin = None;
        let waited = Instant::now();
        while waited.elapsed() < QUIT_WAIT {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    /// Kills the process (this process's own child, by its handle) and reaps it.
    pub fn kill(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            log::debug!("{}: killing process {}", self.label, self.child.id());
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stdin = None;
        self.kill();
    }
}
