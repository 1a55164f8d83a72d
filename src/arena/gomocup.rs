//! The Gomocup client: drives a gomoku brain over the Gomocup (Piskvork)
//! protocol, the way GomocupJudge and c-gomoku-cli do.
//!
//! * Start: `ABOUT`, and one line of answer (`name="..."`; `UNKNOWN` is
//!   accepted too).
//! * Before a game: `START n` (`RECTSTART w,h` for a board that is not
//!   square), answered `OK`; then `INFO timeout_turn` (when set),
//!   `INFO timeout_match` (0 when unlimited), `INFO max_memory`,
//!   `INFO game_type 1`, `INFO rule`, and `INFO max_depth` and
//!   `INFO thread_num` when asked for, then the engine's own settings
//!   (`--info1`, `--info2`: `INFO max_node 10000`, for instance).
//! * Every move: `INFO time_left` (2147483647 when untimed), then `BEGIN` on
//!   an empty board, `TURN x,y` when the engine's board lacks only the
//!   opponent's last move, and otherwise the whole game as `BOARD`, one
//!   `x,y,1` (own stone) or `x,y,2` line per stone in the order played, then
//!   `DONE`.
//! * Answers: a move `x,y`; `MESSAGE`, `DEBUG` lines are logged (at debug
//!   and trace level) and skipped; `ERROR` and `UNKNOWN` refuse the command
//!   (a fault); `SUGGEST x,y` is answered `PLAY x,y`, and the engine's echo
//!   of the move is its answer. Anything else is a bad reply (a fault).
//!   Lines are read case-insensitively; lines are sent ending with LF.
//! * The end: `END`, and the process is killed if it is still there 0.5 s
//!   later.
//!
//! Some engines drop a command that arrives in the instant after they print
//! their move (Rapfi, 4 times in 30 with no pause): nothing is sent to an
//! engine until [`COMMAND_PAUSE`] after its last line. The pause is not
//! charged to the engine's time.

use crate::arena::contestant::{Contestant, Fault, Lifecycle};
use crate::arena::gomoku_exchange::{Gomoku, GomokuReply, GomokuRequest, GomokuSettings};
use crate::arena::process::EngineProcess;
use crate::arena::spec::{CommandLine, InfoSetting};
use crate::gomoku::board::Point;
use crate::gomoku::text::parse_xy;
use std::time::{Duration, Instant};

/// How long after an engine's last line the next command waits.
pub const COMMAND_PAUSE: Duration = Duration::from_millis(30);

/// `time_left` of an untimed game.
pub const UNTIMED_MS: u64 = 2_147_483_647;

/// A running brain: its process and when it last spoke.
struct Brain {
    process: EngineProcess,
    /// The engine's name for logs.
    label: String,
    last_line: Instant,
}

impl Brain {
    /// Waits out [`COMMAND_PAUSE`] after the engine's last line.
    fn settle(&self) {
        let ready = self.last_line + COMMAND_PAUSE;
        let wait = ready.saturating_duration_since(Instant::now());
        if !wait.is_zero() {
            std::thread::sleep(wait);
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.settle();
        self.process.send(line)
    }

    /// The next line that is not empty, `MESSAGE` or `DEBUG`.
    fn next_line(&mut self, deadline: Instant, started: Instant) -> Result<String, Fault> {
        loop {
            let line = self.process.receive(deadline, started)?;
            self.last_line = Instant::now();
            let text = line.trim();
            let (word, rest) = split_word(text);
            if word.eq_ignore_ascii_case("MESSAGE") {
                log::debug!("{}: MESSAGE {rest}", self.label);
            } else if word.eq_ignore_ascii_case("DEBUG") {
                log::trace!("{}: DEBUG {rest}", self.label);
            } else if !text.is_empty() {
                return Ok(text.to_string());
            }
        }
    }

    /// The answer to `command`: the next line, unless it refuses.
    fn answer(
        &mut self,
        command: &str,
        deadline: Instant,
        started: Instant,
    ) -> Result<String, Fault> {
        let line = self.next_line(deadline, started)?;
        let (word, _) = split_word(&line);
        if word.eq_ignore_ascii_case("ERROR") || word.eq_ignore_ascii_case("UNKNOWN") {
            return Err(Fault::bad_output(format!(
                "{command} refused: {}",
                printable(&line)
            )));
        }
        Ok(line)
    }

    /// Sends `command` and waits for `OK`.
    fn ok(&mut self, command: &str, deadline: Instant) -> Result<(), Fault> {
        self.send(command)?;
        let answer = self.answer(command, deadline, Instant::now())?;
        if answer.eq_ignore_ascii_case("OK") {
            Ok(())
        } else {
            Err(Fault::bad_output(format!(
                "{command} answered '{}', not OK",
                printable(&answer)
            )))
        }
    }

    /// Waits for the move that answers `command`.
    fn read_move(
        &mut self,
        command: &str,
        deadline: Instant,
        started: Instant,
    ) -> Result<Point, Fault> {
        loop {
            let answer = self.answer(command, deadline, started)?;
            let (word, rest) = split_word(&answer);
            if word.eq_ignore_ascii_case("SUGGEST") {
                let point = parse_xy(rest).map_err(|_| bad_reply(command, &answer))?;
                self.send(&format!("PLAY {point}"))?;
                continue;
            }
            return parse_xy(&answer).map_err(|_| bad_reply(command, &answer));
        }
    }
}

fn bad_reply(command: &str, answer: &str) -> Fault {
    Fault::bad_output(format!(
        "bad reply to {command}: '{}' is not a move",
        printable(answer)
    ))
}

/// The first word of a line and the rest.
fn split_word(text: &str) -> (&str, &str) {
    match text.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim()),
        None => (text, ""),
    }
}

/// A line as fault messages quote it: control characters dropped, at most
/// 80 characters.
fn printable(text: &str) -> String {
    text.chars().filter(|c| !c.is_control()).take(80).collect()
}

/// A Gomocup engine subprocess.
pub struct GomocupClient {
    name: String,
    command: CommandLine,
    brain: Option<Brain>,
    startup_timeout: Duration,
    /// Stones of the current game on the engine's board (`None` before its
    /// first game).
    known: Option<usize>,
    /// What the engine answered to `ABOUT`.
    about: Option<String>,
    /// Its own `INFO` lines, sent after the match's at each new game.
    info: Vec<InfoSetting>,
}

impl GomocupClient {
    pub fn new(
        name: &str,
        command: CommandLine,
        startup_timeout: Duration,
        info: Vec<InfoSetting>,
    ) -> GomocupClient {
        GomocupClient {
            name: name.to_string(),
            command,
            brain: None,
            startup_timeout,
            known: None,
            about: None,
            info,
        }
    }

    /// What the engine answered to `ABOUT`, if anything.
    pub fn about(&self) -> Option<&str> {
        self.about.as_deref()
    }

    fn brain(&mut self) -> Result<&mut Brain, Fault> {
        self.brain
            .as_mut()
            .ok_or_else(|| Fault::crash("not running"))
    }
}

/// The command that asks for the next move of a game of `moves`, the
/// engine's board holding the first `known` of them: `BEGIN`, `TURN x,y`,
/// or a `BOARD` block (one line per element).
fn move_command(moves: &[Point], known: Option<usize>) -> Vec<String> {
    match (known, moves.last()) {
        (Some(0), None) => vec!["BEGIN".to_string()],
        (Some(known), Some(last)) if known + 1 == moves.len() => vec![format!("TURN {last}")],
        _ => {
            // The side to move owns the stones of its parity.
            let mine = moves.len() % 2;
            let mut lines = vec!["BOARD".to_string()];
            lines.extend(moves.iter().enumerate().map(|(index, point)| {
                let field = if index % 2 == mine { 1 } else { 2 };
                format!("{point},{field}")
            }));
            lines.push("DONE".to_string());
            lines
        }
    }
}

impl Lifecycle for GomocupClient {
    fn name(&self) -> &str {
        &self.name
    }

    fn ensure_started(&mut self) -> Result<(), Fault> {
        if self.brain.is_some() {
            return Ok(());
        }
        let mut brain = Brain {
            process: EngineProcess::spawn(&self.command, &self.name)?,
            label: self.name.clone(),
            last_line: Instant::now(),
        };
        let started = Instant::now();
        brain.send("ABOUT")?;
        // Dropped on failure, which kills the process.
        let about = brain.next_line(started + self.startup_timeout, started)?;
        log::debug!("{}: {about}", self.name);
        self.about = Some(about);
        self.known = None;
        self.brain = Some(brain);
        Ok(())
    }

    fn restart(&mut self) -> Result<(), Fault> {
        self.brain = None;
        self.ensure_started()
    }
}

impl Contestant<Gomoku> for GomocupClient {
    fn new_game(&mut self, settings: &GomokuSettings) -> Result<(), Fault> {
        self.ensure_started()?;
        let deadline = Instant::now() + self.startup_timeout;
        let config = settings.config;
        let start = if config.width == config.height {
            format!("START {}", config.width)
        } else {
            format!("RECTSTART {},{}", config.width, config.height)
        };
        let ms = |time: Duration| time.as_millis();
        let mut info = Vec::new();
        if let Some(turn) = settings.turn {
            info.push(format!("timeout_turn {}", ms(turn)));
        }
        info.push(format!(
            "timeout_match {}",
            settings.match_time.map_or(0, ms)
        ));
        info.push(format!("max_memory {}", settings.max_memory));
        info.push("game_type 1".to_string());
        info.push(format!("rule {}", config.rule.gomocup_bits()));
        if let Some(depth) = settings.depth {
            info.push(format!("max_depth {depth}"));
        }
        if let Some(threads) = settings.threads {
            info.push(format!("thread_num {threads}"));
        }
        info.extend(self.info.iter().map(InfoSetting::to_string));
        let brain = self.brain()?;
        brain.ok(&start, deadline)?;
        for line in info {
            brain.send(&format!("INFO {line}"))?;
        }
        self.known = Some(0);
        Ok(())
    }

    fn choose(&mut self, request: &GomokuRequest<'_>) -> Result<GomokuReply, Fault> {
        self.ensure_started()?;
        let moves: Vec<Point> = request
            .board
            .history()
            .iter()
            .map(|&index| Point::from_index(index))
            .collect();
        let lines = move_command(&moves, self.known);
        // The engine's board may be anything until it answers.
        self.known = None;
        let brain = self.brain()?;
        brain.settle();
        let started = Instant::now();
        let deadline = started + request.allowance;
        let left = request
            .time_left
            .map_or(UNTIMED_MS, |left| (left.as_millis() as u64).min(UNTIMED_MS));
        brain.send(&format!("INFO time_left {left}"))?;
        for line in &lines {
            brain.send(line)?;
        }
        let point = brain.read_move(&lines[0], deadline, started)?;
        let elapsed = started.elapsed();
        self.known = Some(moves.len() + 1);
        Ok(GomokuReply { point, elapsed })
    }
}

impl Drop for GomocupClient {
    fn drop(&mut self) {
        if let Some(brain) = self.brain.as_mut() {
            brain.settle();
            brain.process.shut_down(Some("END"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_commands() {
        let p = Point::new;
        assert_eq!(move_command(&[], Some(0)), ["BEGIN"]);
        assert_eq!(move_command(&[p(7, 7)], Some(0)), ["TURN 7,7"]);
        assert_eq!(
            move_command(&[p(7, 7), p(8, 8), p(9, 9)], Some(2)),
            ["TURN 9,9"]
        );
        // White to move after an opening of three stones: its own stone is 1.
        assert_eq!(
            move_command(&[p(7, 7), p(8, 8), p(9, 9)], Some(0)),
            ["BOARD", "7,7,2", "8,8,1", "9,9,2", "DONE"]
        );
        assert_eq!(
            move_command(&[p(7, 7), p(8, 8)], None),
            ["BOARD", "7,7,1", "8,8,2", "DONE"]
        );
        assert_eq!(move_command(&[], None), ["BOARD", "DONE"]);
    }

    #[test]
    fn words() {
        assert_eq!(split_word("MESSAGE depth 3"), ("MESSAGE", "depth 3"));
        assert_eq!(split_word("7,7"), ("7,7", ""));
        assert_eq!(printable("a\u{1}b\tc"), "abc");
        let fault = bad_reply("TURN 7,7", "hello");
        assert_eq!(
            fault.to_string(),
            "bad output: bad reply to TURN 7,7: 'hello' is not a move"
        );
    }
}
