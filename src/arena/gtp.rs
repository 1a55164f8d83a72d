//! The GTP client: drives an Othello engine over the Go Text Protocol.
//!
//! Every command carries an id (`7 genmove black`) and the client waits for
//! its answer (`=7 d3` or `= 7 d3`, then an empty line; an answer without id
//! is accepted) before sending the next. Lines that do not start an answer
//! are skipped.
//!
//! * Start: `protocol_version` and `name` (a `?` answer is tolerated).
//! * Before a game: `boardsize 8` (a refusal is tolerated), `clear_board`,
//!   and with a clock `time_settings`: `M 0 0` for a game clock of `M`
//!   seconds (GTP has no increment: the true remaining time, increments
//!   included, is sent before every move), `0 T 1` for `T` seconds per move.
//!   GTP's times are whole seconds; a time that is not is sent with
//!   decimals first (`0.300`, which oxello and many engines read), and if
//!   the engine refuses that, in whole seconds (rounded down, a time per
//!   move at least 1). An engine that refuses `time_settings` altogether
//!   plays on untold: the commands are optional, and the referee holds
//!   every engine to its clock.
//! * Before every `genmove`: `play <colour> <square>` for each move the
//!   engine has not seen, then `time_left <colour> <seconds> <stones>` with a
//!   clock. Passes are sent as `play <colour> pass` ([`PassStyle::Explicit`],
//!   the default) or left out ([`PassStyle::Implicit`]: the engine must
//!   insert the pass itself when told a move of the colour not on move, as
//!   Edax and Egaroucid do). The colour of `genmove` is always the side to
//!   move of the real game.
//! * `genmove` plays the move in the engine; `resign` loses the game.
//!
//! GTP games start from the standard position: openings are sent as moves.
//! GTP has no depth command: a match's `--depth` reaches NBoard and
//! in-process engines only; give a GTP engine its level on its command line.

use crate::arena::contestant::{
    Contestant, Fault, FaultKind, GameSetup, Lifecycle, MoveRequest, MoveTime, Othello, Reply,
};
use crate::arena::process::EngineProcess;
use crate::arena::spec::CommandLine;
use crate::bitboard::BoardSize;
use crate::color::Color;
use crate::formats::transcript::Token;
use crate::moves::{Move, is_pass_word};
use crate::position::Position;
use crate::square::Square;
use std::time::{Duration, Instant};

/// How passes are told to a GTP engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PassStyle {
    /// `play <colour> pass`.
    #[default]
    Explicit,
    /// Not sent: the engine infers them.
    Implicit,
}

impl std::str::FromStr for PassStyle {
    type Err = String;

    fn from_str(text: &str) -> Result<PassStyle, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "explicit" => Ok(PassStyle::Explicit),
            "implicit" => Ok(PassStyle::Implicit),
            _ => Err(format!("'{text}': use explicit or implicit")),
        }
    }
}

/// A GTP engine subprocess.
pub struct GtpClient {
    name: String,
    command: CommandLine,
    process: Option<EngineProcess>,
    passes: PassStyle,
    next_id: u64,
    /// The moves the engine has played or been told since `clear_board`.
    known: Option<Vec<Move>>,
    startup_timeout: Duration,
    /// What `name` answered.
    engine_name: Option<String>,
    /// How the engine takes times, found by `time_settings`.
    times: Times,
}

/// How an engine is told its times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Times {
    /// With decimals where a time is not whole seconds.
    Decimal,
    /// In whole seconds, as GTP defines them.
    Whole,
    /// Not at all: the engine refused `time_settings`.
    Untold,
}

/// A GTP answer: success or failure, and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub success: bool,
    pub text: String,
}

/// Reads the first line of an answer: `=7 text`, `= 7 text`, `=text`, `?7 error`.
/// Returns success, the leading number (the id, if it is ours) and the text
/// after it.
pub fn parse_answer_line(line: &str) -> Option<(bool, Option<u64>, String)> {
    let line = line.trim_end();
    let success = match line.chars().next()? {
        '=' => true,
        '?' => false,
        _ => return None,
    };
    let rest = line[1..].trim_start();
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let (id, text) = match rest[..digits].parse::<u64>() {
        Ok(id) if rest[digits..].is_empty() || rest[digits..].starts_with(' ') => {
            (Some(id), rest[digits..].trim())
        }
        _ => (None, rest.trim()),
    };
    Some((success, id, text.to_string()))
}

/// Whole seconds, rounded down (GTP's times are integers).
fn whole_seconds(duration: Duration) -> String {
    duration.as_secs().to_string()
}

/// A time per move in whole seconds: rounded down, but at least 1 (0 would
/// read as no time at all).
fn whole_seconds_a_move(duration: Duration) -> String {
    duration.as_secs().max(1).to_string()
}

/// Seconds as GTP numbers: integers when whole, else up to 3 decimals.
fn seconds(duration: Duration) -> String {
    let millis = duration.as_millis();
    if millis.is_multiple_of(1000) {
        format!("{}", millis / 1000)
    } else {
        format!("{:.3}", duration.as_secs_f64())
    }
}

impl GtpClient {
    pub fn new(
        name: &str,
        command: CommandLine,
        passes: PassStyle,
        startup_timeout: Duration,
    ) -> GtpClient {
        GtpClient {
            name: name.to_string(),
            command,
            process: None,
            passes,
            next_id: 1,
            known: None,
            startup_timeout,
            engine_name: None,
            times: Times::Decimal,
        }
    }

    /// What the engine answered to `name`, if anything.
    pub fn engine_name(&self) -> Option<&str> {
        self.engine_name.as_deref()
    }

    fn process(&mut self) -> Result<&mut EngineProcess, Fault> {
        self.process
            .as_mut()
            .ok_or_else(|| Fault::crash("not running"))
    }

    /// Sends a command and waits for its whole answer until `deadline`.
    fn command(&mut self, command: &str, deadline: Instant) -> Result<Answer, Fault> {
        let id = self.next_id;
        self.next_id += 1;
        self.process()?.send(&format!("{id} {command}"))?;
        let started = Instant::now();
        let (success, text) = loop {
            let line = self.process()?.receive(deadline, started)?;
            match parse_answer_line(&line) {
                // A number that is not our id belongs to the text: an
                // engine that does not echo ids answers `= 2` to
                // `1 protocol_version`.
                Some((success, Some(answer_id), _)) if answer_id != id => {
                    break (success, line[1..].trim().to_string());
                }
                Some((success, _, text)) => break (success, text),
                None => log::debug!("{}: skipped '{line}'", self.name),
            }
        };
        let mut lines = vec![text];
        loop {
            let line = self.process()?.receive(deadline, started)?;
            if line.trim().is_empty() {
                break;
            }
            lines.push(line);
        }
        Ok(Answer {
            success,
            text: lines.join("\n"),
        })
    }

    /// A command that must succeed.
    fn required(&mut self, command: &str, deadline: Instant) -> Result<Answer, Fault> {
        let answer = self.command(command, deadline)?;
        if answer.success {
            Ok(answer)
        } else {
            Err(Fault::bad_output(format!(
                "'{command}' refused: ? {}",
                answer.text
            )))
        }
    }

    /// Tells the engine the moves of the game it has not seen.
    fn update_game(&mut self, moves: &[Move], positions: &[Position]) -> Result<(), Fault> {
        let deadline = Instant::now() + self.startup_timeout;
        let prefix = match &self.known {
            Some(known) if known.len() <= moves.len() && moves.starts_with(known) => known.len(),
            _ => {
                self.required("clear_board", deadline)?;
                0
            }
        };
        for (mv, position) in moves[prefix..].iter().zip(&positions[prefix..]) {
            let colour = position.side.name();
            match mv.square() {
                Some(square) => {
                    self.required(&format!("play {colour} {square}"), deadline)?;
                }
                None if self.passes == PassStyle::Explicit => {
                    self.required(&format!("play {colour} pass"), deadline)?;
                }
                None => {}
            }
        }
        self.known = Some(moves.to_vec());
        Ok(())
    }

    /// Reads the vertex of a `genmove` answer.
    fn read_vertex(text: &str) -> Result<Reply, Fault> {
        let word = text.split_whitespace().next().unwrap_or("");
        if word.eq_ignore_ascii_case("resign") {
            return Err(Fault::new(FaultKind::Resigned, "genmove answered resign"));
        }
        let token =
            if is_pass_word(word) {
                Token::Pass
            } else {
                Token::Square(word.parse::<Square>().map_err(|_| {
                    Fault::bad_output(format!("genmove answered '{text}', not a move"))
                })?)
            };
        Ok(Reply { token, eval: None })
    }
}

impl Lifecycle for GtpClient {
    fn name(&self) -> &str {
        &self.name
    }

    fn ensure_started(&mut self) -> Result<(), Fault> {
        if self.process.is_some() {
            return Ok(());
        }
        self.process = Some(EngineProcess::spawn(&self.command, &self.name)?);
        self.known = None;
        let deadline = Instant::now() + self.startup_timeout;
        let ready = self
            .command("protocol_version", deadline)
            .and_then(|_| self.command("name", deadline));
        match ready {
            Ok(name) => {
                if name.success {
                    self.engine_name = Some(name.text);
                }
                Ok(())
            }
            Err(fault) => {
                if let Some(mut process) = self.process.take() {
                    process.kill();
                }
                Err(fault)
            }
        }
    }

    fn restart(&mut self) -> Result<(), Fault> {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
        self.ensure_started()
    }
}

impl Contestant<Othello> for GtpClient {
    fn new_game(&mut self, setup: &GameSetup) -> Result<(), Fault> {
        self.ensure_started()?;
        let deadline = Instant::now() + self.startup_timeout;
        self.command("boardsize 8", deadline)?;
        self.required("clear_board", deadline)?;
        self.known = Some(Vec::new());
        let settings = match setup.time {
            MoveTime::Unlimited => None,
            MoveTime::PerMove(time) => Some((
                format!("time_settings 0 {} 1", seconds(time)),
                format!("time_settings 0 {} 1", whole_seconds_a_move(time)),
            )),
            MoveTime::Clock(clock) => Some((
                format!("time_settings {} 0 0", seconds(clock.remaining)),
                format!("time_settings {} 0 0", whole_seconds(clock.remaining)),
            )),
        };
        if let Some((decimal, whole)) = settings {
            self.times = if self.command(&decimal, deadline)?.success {
                Times::Decimal
            } else if whole != decimal && self.command(&whole, deadline)?.success {
                Times::Whole
            } else {
                log::warn!(
                    "{}: '{decimal}' refused; the engine is not told its times",
                    self.name
                );
                Times::Untold
            };
        }
        Ok(())
    }

    fn choose(&mut self, request: &MoveRequest<'_>) -> Result<Reply, Fault> {
        self.ensure_started()?;
        let game = request.game;
        if game.start() != Position::start(BoardSize::Eight) {
            return Err(Fault::bad_output(
                "GTP games must start from the standard position",
            ));
        }
        self.update_game(game.moves(), game.positions())?;
        let side: Color = game.position().side;
        // The time left, with decimals and in whole seconds.
        let left = match request.time {
            MoveTime::Unlimited => None,
            MoveTime::PerMove(time) => Some((seconds(time), whole_seconds_a_move(time), 1)),
            MoveTime::Clock(clock) => {
                Some((seconds(clock.remaining), whole_seconds(clock.remaining), 0))
            }
        };
        if let Some((decimal, whole, stones)) = left
            && self.times != Times::Untold
        {
            let deadline = Instant::now() + self.startup_timeout;
            let colour = side.name();
            let told = self.times == Times::Decimal
                && self
                    .command(&format!("time_left {colour} {decimal} {stones}"), deadline)?
                    .success;
            // A clock whose start was whole seconds was taken with
            // decimals; its first time left that is not shows whether the
            // engine reads them.
            if !told {
                let command = format!("time_left {colour} {whole} {stones}");
                self.times = if self.command(&command, deadline)?.success {
                    Times::Whole
                } else {
                    log::warn!(
                        "{}: '{command}' refused; the engine is not told its times",
                        self.name
                    );
                    Times::Untold
                };
            }
        }
        let answer = self.required(&format!("genmove {}", side.name()), request.deadline)?;
        let reply = GtpClient::read_vertex(&answer.text)?;
        // The engine has played its move: remember it as known when legal.
        let played = match reply.token {
            Token::Pass => Some(Move::Pass),
            Token::Square(square) => game.position().placement(square).ok(),
        };
        match (played, self.known.as_mut()) {
            (Some(mv), Some(known)) => known.push(mv),
            _ => self.known = None,
        }
        Ok(reply)
    }
}

impl Drop for GtpClient {
    fn drop(&mut self) {
        let id = self.next_id;
        if let Some(process) = self.process.as_mut() {
            process.shut_down(Some(&format!("{id} quit")));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answer_lines() {
        assert_eq!(
            parse_answer_line("=7 d3"),
            Some((true, Some(7), "d3".to_string()))
        );
        assert_eq!(
            parse_answer_line("= 7 d3"),
            Some((true, Some(7), "d3".to_string()))
        );
        assert_eq!(
            parse_answer_line("= d3"),
            Some((true, None, "d3".to_string()))
        );
        assert_eq!(
            parse_answer_line("=12"),
            Some((true, Some(12), String::new()))
        );
        assert_eq!(
            parse_answer_line("?3 illegal move"),
            Some((false, Some(3), "illegal move".to_string()))
        );
        assert_eq!(parse_answer_line("="), Some((true, None, String::new())));
        assert_eq!(parse_answer_line("thinking..."), None);
        assert_eq!(parse_answer_line(""), None);
    }

    #[test]
    fn vertices_and_seconds() {
        assert_eq!(GtpClient::read_vertex("PASS").unwrap().token, Token::Pass);
        assert_eq!(
            GtpClient::read_vertex("F5").unwrap().token,
            Token::Square("f5".parse().unwrap())
        );
        assert_eq!(
            GtpClient::read_vertex("resign").unwrap_err().kind,
            FaultKind::Resigned
        );
        assert_eq!(
            GtpClient::read_vertex("j9").unwrap_err().kind,
            FaultKind::BadOutput
        );
        assert_eq!(seconds(Duration::from_secs(60)), "60");
        assert_eq!(seconds(Duration::from_millis(1500)), "1.500");
        assert_eq!(whole_seconds(Duration::from_millis(1999)), "1");
        assert_eq!(whole_seconds(Duration::from_millis(300)), "0");
    }
}
