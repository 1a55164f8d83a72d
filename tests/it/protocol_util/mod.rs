//! Driving the real `oxello` binary in protocol tests: spawn it with piped
//! stdin/stdout/stderr, send lines, read replies with timeouts (a hang fails
//! the test instead of blocking it).
#![allow(dead_code)]

use oxello::{BoardSize, Game, Move};
use rand::{Rng, SeedableRng, rngs::StdRng};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a reply may take (the machine is shared; searches are small).
pub const REPLY_TIMEOUT: Duration = Duration::from_secs(60);

/// A running `oxello` process.
pub struct Oxello {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<Vec<String>>>,
    stderr_reader: Option<std::thread::JoinHandle<()>>,
    /// Every line sent and received, for failure messages.
    log: Vec<String>,
}

impl Oxello {
    /// Starts `oxello` with these arguments.
    pub fn spawn(args: &[&str]) -> Oxello {
        Oxello::spawn_with_env(args, &[])
    }

    /// Starts `oxello` with these arguments and environment variables.
    pub fn spawn_with_env(args: &[&str], env: &[(&str, &str)]) -> Oxello {
        let mut command = Command::new(env!("CARGO_BIN_EXE_oxello"));
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command.spawn().expect("cannot start oxello");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let errors = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&errors);
        let stderr_reader = std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                sink.lock().unwrap().push(line);
            }
        });
        Oxello {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr: errors,
            stderr_reader: Some(stderr_reader),
            log: Vec::new(),
        }
    }

    /// Sends the process SIGINT, as Ctrl-C at a terminal does.
    #[cfg(unix)]
    pub fn ctrl_c(&mut self) {
        let status = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status()
            .expect("cannot run kill");
        assert!(status.success(), "kill -INT failed");
        self.log.push("> (Ctrl-C)".to_string());
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
        self.log.push(format!("> {line}"));
    }

    /// Sends raw bytes (garbage, over-long lines).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("write to oxello");
        stdin.flush().expect("flush to oxello");
    }

    /// The next line, or `None` after `timeout`.
    pub fn try_recv(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.log.push(format!("< {line}"));
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// The next line; fails the test after [`REPLY_TIMEOUT`].
    pub fn recv(&mut self) -> String {
        match self.try_recv(REPLY_TIMEOUT) {
            Some(line) => line,
            None => panic!("no reply in time; session so far:\n{}", self.transcript()),
        }
    }

    /// Reads the next line and checks it.
    pub fn expect(&mut self, expected: &str) {
        let line = self.recv();
        assert_eq!(line, expected, "session so far:\n{}", self.transcript());
    }

    /// Lines up to and including the first that `last` accepts.
    pub fn until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.recv();
            let done = last(&line);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Fails if any line arrives within `wait`.
    pub fn expect_silence(&mut self, wait: Duration) {
        if let Some(line) = self.try_recv(wait) {
            panic!(
                "unexpected line {line:?}; session so far:\n{}",
                self.transcript()
            );
        }
    }

    /// Closes stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
        self.log.push("> (end of input)".to_string());
    }

    /// Waits for the process to end; fails after `timeout`.
    pub fn wait(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for oxello") {
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!(
                    "oxello did not exit in time; session:\n{}",
                    self.transcript()
                );
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Remaining stdout lines after the process ended.
    pub fn rest(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        while let Some(line) = self.try_recv(Duration::from_millis(200)) {
            lines.push(line);
        }
        lines
    }

    /// Everything the process wrote to stderr, once it has ended (call after
    /// [`Oxello::wait`]).
    pub fn stderr_at_exit(&mut self) -> Vec<String> {
        if let Some(reader) = self.stderr_reader.take() {
            let _ = reader.join();
        }
        self.stderr()
    }

    /// Everything the process wrote to stderr so far.
    pub fn stderr(&self) -> Vec<String> {
        self.stderr.lock().unwrap().clone()
    }

    /// The session so far, one line per message.
    pub fn transcript(&self) -> String {
        self.log.join("\n")
    }
}

impl Drop for Oxello {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Runs `oxello ARGS` with no input; returns the exit code, stdout and
/// stderr. Fails the test if the process does not end within a minute.
pub fn run(args: &[&str]) -> (i32, Vec<String>, Vec<String>) {
    let mut ox = Oxello::spawn(args);
    ox.close_stdin();
    let status = ox.wait(Duration::from_secs(60));
    let out = ox.rest();
    (status.code().unwrap_or(-1), out, ox.stderr_at_exit())
}

/// Runs `oxello` with `script` as its whole input, piped at once and
/// closed, as a shell pipe does; returns the exit status and every line of
/// stdout. Fails the test if the process does not end within `timeout`.
pub fn piped(args: &[&str], script: &str, timeout: Duration) -> (ExitStatus, Vec<String>) {
    let mut ox = Oxello::spawn(args);
    ox.send_bytes(script.as_bytes());
    ox.close_stdin();
    let status = ox.wait(timeout);
    (status, ox.rest())
}

/// A game of random moves (seeded) stopped at the first position where the
/// side to move must pass; `None` if the game ends first.
pub fn game_to_a_pass(size: BoardSize, seed: u64) -> Option<Game> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = Game::new(size);
    while !game.is_over() {
        if game.position().must_pass() {
            return Some(game);
        }
        let moves = game.position().move_list();
        game.play(moves[rng.random_range(0..moves.len())]).unwrap();
    }
    None
}

/// The first seeded random game reaching a forced pass.
pub fn first_game_to_a_pass(size: BoardSize) -> Game {
    (0..10_000)
        .find_map(|seed| game_to_a_pass(size, seed))
        .expect("random games reach a pass")
}

/// A random game played to its end.
pub fn finished_game(size: BoardSize, seed: u64) -> Game {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = Game::new(size);
    while !game.is_over() {
        let moves = game.position().move_list();
        game.play(moves[rng.random_range(0..moves.len())]).unwrap();
    }
    game
}

/// The move named `name` (`f5`, `PA`, any case) in the current position of
/// `game`, if legal.
pub fn legal_move(game: &Game, name: &str) -> Option<Move> {
    let position = game.position();
    if oxello::moves::is_pass_word(name) {
        return position.must_pass().then_some(Move::Pass);
    }
    let square: oxello::Square = name.parse().ok()?;
    position.placement(square).ok()
}
