//! The NBoard client: drives an engine the way the NBoard GUI does.
//!
//! * Start: `nboard 2`, then `ping 1` and wait for `pong 1`.
//! * Before a game: `set depth N` when the match has a fixed depth (and it
//!   changed).
//! * Before every `go`: bring the engine's game up to date, with one
//!   `move F5/eval/time` line per move it has not seen (the opponent's moves,
//!   its own moves sent back, passes as `PA`) when its game is a prefix of
//!   the real one, or `set game <GGF>` otherwise (new game, after a
//!   restart). The GGF carries the players, the clock (`TI`) and every
//!   move's eval and time, so an engine can work out its remaining time.
//!   Then `ping N`; lines are discarded until `pong N`; then `go`.
//! * `go` is answered by `=== <move>[/<eval>[/<time>]]` (spaces are accepted
//!   in place of slashes, as the GUI does); `search`, `nodestats`, `status`
//!   and other lines before it are ignored. Nothing is sent while the engine
//!   thinks: some engines abort a search on any input line.
//!
//! Per-move time limits have no NBoard command: the engine is sent a game
//! whose clock is the time for this move (`TI[T]`) and whose moves carry no
//! times, so its remaining time is always `T`.

use crate::arena::contestant::{
    Contestant, Fault, GameSetup, Lifecycle, MoveRequest, Othello, Reply,
};
use crate::arena::process::EngineProcess;
use crate::arena::spec::CommandLine;
use crate::formats::ggf::{GgfGame, GgfMove};
use crate::formats::transcript::Token;
use crate::moves::is_pass_word;
use crate::position::Position;
use crate::square::Square;
use std::time::{Duration, Instant};

/// Most moves sent one by one with `move`; more are sent as `set game`.
const MAX_MOVE_LINES: usize = 8;

/// An NBoard engine subprocess.
pub struct NboardClient {
    name: String,
    command: CommandLine,
    process: Option<EngineProcess>,
    /// Number of the last `ping` sent.
    ping: u64,
    /// The depth last sent with `set depth`.
    depth: Option<u32>,
    /// The game the engine has been told: start and moves.
    known: Option<(Position, Vec<GgfMove>)>,
    /// How long starting and synchronising may take.
    startup_timeout: Duration,
    /// The name the engine gave with `set myname`.
    engine_name: Option<String>,
}

impl NboardClient {
    pub fn new(name: &str, command: CommandLine, startup_timeout: Duration) -> NboardClient {
        NboardClient {
            name: name.to_string(),
            command,
            process: None,
            ping: 0,
            depth: None,
            known: None,
            startup_timeout,
            engine_name: None,
        }
    }

    /// The name the engine announced with `set myname`, if any.
    pub fn engine_name(&self) -> Option<&str> {
        self.engine_name.as_deref()
    }

    fn process(&mut self) -> Result<&mut EngineProcess, Fault> {
        self.process
            .as_mut()
            .ok_or_else(|| Fault::crash("not running"))
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.process()?.send(line)
    }

    /// `ping N`, then waits for `pong N`, discarding everything before it.
    fn synchronise(&mut self, deadline: Instant) -> Result<(), Fault> {
        self.ping += 1;
        let ping = self.ping;
        self.send(&format!("ping {ping}"))?;
        let started = Instant::now();
        loop {
            let line = self.process()?.receive(deadline, started)?;
            let mut words = line.split_whitespace();
            match (words.next(), words.next()) {
                (Some("pong"), Some(number)) if number.parse() == Ok(ping) => return Ok(()),
                (Some("set"), Some("myname")) => {
                    self.engine_name = words.next().map(str::to_string);
                }
                _ => {}
            }
        }
    }

    /// Tells the engine the game of `record`, incrementally when it can.
    fn update_game(&mut self, record: &GgfGame) -> Result<(), Fault> {
        let appended = match &self.known {
            Some((start, moves))
                if *start == record.start
                    && moves.len() <= record.moves.len()
                    && record.moves.len() - moves.len() <= MAX_MOVE_LINES
                    && moves
                        .iter()
                        .zip(&record.moves)
                        .all(|(a, b)| a.color == b.color && a.token == b.token) =>
            {
                Some(moves.len())
            }
            _ => None,
        };
        match appended {
            Some(known) => {
                for mv in &record.moves[known..] {
                    self.send(&format!("move {}", move_value(mv)))?;
                }
            }
            None => {
                let mut game = record.clone();
                game.result = None;
                self.send(&format!("set game {game}"))?;
            }
        }
        self.known = Some((record.start, record.moves.clone()));
        Ok(())
    }
}

/// `F5/0.50/1.2`, `PA`, `D6//0.3`: a move as `move` sends it.
fn move_value(mv: &GgfMove) -> String {
    let mut text = mv.name();
    if mv.eval.is_some() || mv.time.is_some() {
        text.push('/');
        if let Some(eval) = mv.eval {
            text.push_str(&format!("{eval:.2}"));
        }
    }
    if let Some(time) = mv.time {
        text.push_str(&format!("/{time:.3}"));
    }
    text
}

/// Reads the part of a `===` line after the marker: the move, then an
/// optional eval, separated by `/` or spaces. Unreadable evals are dropped.
pub fn parse_best(text: &str) -> Option<Reply> {
    let mut fields = text
        .split(|c: char| c == '/' || c.is_whitespace())
        .filter(|field| !field.is_empty() || text.contains('/'));
    let name = fields.next()?.trim();
    let token = if is_pass_word(name) {
        Token::Pass
    } else {
        Token::Square(name.parse::<Square>().ok()?)
    };
    let eval = fields
        .next()
        .and_then(|field| field.trim().parse::<f64>().ok())
        .filter(|eval| eval.is_finite());
    Some(Reply { token, eval })
}

impl Lifecycle for NboardClient {
    fn name(&self) -> &str {
        &self.name
    }

    fn ensure_started(&mut self) -> Result<(), Fault> {
        if self.process.is_some() {
            return Ok(());
        }
        self.process = Some(EngineProcess::spawn(&self.command, &self.name)?);
        self.depth = None;
        self.known = None;
        let deadline = Instant::now() + self.startup_timeout;
        let ready = self
            .send("nboard 2")
            .and_then(|()| self.synchronise(deadline));
        if ready.is_err()
            && let Some(mut process) = self.process.take()
        {
            process.kill();
        }
        ready
    }

    fn restart(&mut self) -> Result<(), Fault> {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
        self.ensure_started()
    }
}

impl Contestant<Othello> for NboardClient {
    fn new_game(&mut self, setup: &GameSetup) -> Result<(), Fault> {
        self.ensure_started()?;
        if let Some(depth) = setup.depth
            && self.depth != Some(depth)
        {
            self.send(&format!("set depth {depth}"))?;
            self.depth = Some(depth);
        }
        self.known = None;
        Ok(())
    }

    fn choose(&mut self, request: &MoveRequest<'_>) -> Result<Reply, Fault> {
        self.ensure_started()?;
        self.update_game(request.record)?;
        self.synchronise(request.deadline)?;
        self.send("go")?;
        let started = Instant::now();
        loop {
            let line = self.process()?.receive(request.deadline, started)?;
            let trimmed = line.trim_start();
            if let Some(rest) = trimmed.strip_prefix("===") {
                return parse_best(rest.trim())
                    .ok_or_else(|| Fault::bad_output(format!("unreadable answer '{line}'")));
            }
        }
    }
}

impl Drop for NboardClient {
    fn drop(&mut self) {
        if let Some(process) = self.process.as_mut() {
            process.shut_down(Some("quit"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_move_lines() {
        let square = |name: &str| Token::Square(name.parse().unwrap());
        assert_eq!(
            parse_best("F5/0.50/1.2"),
            Some(Reply {
                token: square("f5"),
                eval: Some(0.5)
            })
        );
        assert_eq!(
            parse_best("d3 1.00 0.0"),
            Some(Reply {
                token: square("d3"),
                eval: Some(1.0)
            })
        );
        assert_eq!(
            parse_best("C4//0.3"),
            Some(Reply {
                token: square("c4"),
                eval: None
            })
        );
        assert_eq!(
            parse_best("PA"),
            Some(Reply {
                token: Token::Pass,
                eval: None
            })
        );
        assert_eq!(parse_best("Z9/1"), None);
        assert_eq!(parse_best(""), None);
    }

    #[test]
    fn move_lines() {
        let mut mv = GgfMove::new(crate::Color::Black, Token::Square("f5".parse().unwrap()));
        assert_eq!(move_value(&mv), "F5");
        mv.time = Some(1.25);
        assert_eq!(move_value(&mv), "F5//1.250");
        mv.eval = Some(-2.0);
        assert_eq!(move_value(&mv), "F5/-2.00/1.250");
    }
}
