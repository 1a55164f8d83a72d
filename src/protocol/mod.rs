//! The line-oriented protocols on stdin/stdout: NBoard ([`nboard`]), GTP
//! ([`gtp`]) and the console for people ([`console`]), plus the one-shot
//! mode ([`oneshot`]); for gomoku, the Gomocup brain ([`gomocup`]) and the
//! gomoku console ([`gomoku_console`]).
//!
//! # One command loop
//!
//! A reader thread reads stdin line by line (lines are capped at
//! [`MAX_LINE_BYTES`], invalid UTF-8 is read lossily) and sends each line to
//! the loop through a channel. Search events come back from the engine's
//! worker thread into the same channel, so the loop is the only writer of
//! stdout, and it flushes after every line. Logs go to stderr through `log`.
//!
//! Every line is handled in order, and a line read ahead never changes the
//! answer to the command before it: while a search runs, the lines after it
//! wait, `quit` and the end of input included (a script that pipes `go` and
//! then ends gets the same answer as a person typing it). Two lines interrupt
//! by design, `stop` (NBoard, the console) and NBoard's `ping`: the reader
//! raises the engine's stop signal the moment it reads them, so the running
//! search ends within milliseconds and gives its answer, and any search
//! started by the lines still before them is stopped as soon as it starts.
//! At the end of input the lines already read are answered, the work they
//! started (an engine's game played out, an analysis) is finished, and the
//! loop ends.
//!
//! Each protocol is a handler with typed commands, driven either by [`run`]
//! or in-process by a [`Session`] (tests, embedding).
//!
//! # Choosing the protocol
//!
//! [`Mode::Auto`] starts as the console and switches by itself when the first
//! command is `nboard N` (NBoard) or a GTP command (`protocol_version`,
//! `boardsize`, `list_commands`, a command with a numeric id, ...), and to
//! the Gomocup gomoku protocol when it is `START`, `RECTSTART`, `ABOUT` or
//! `INFO`.

pub mod console;
pub mod gomocup;
pub mod gomoku_console;
pub mod gtp;
mod host;
mod input;
pub mod nboard;
pub mod oneshot;

#[cfg(test)]
mod fuzz;
#[cfg(test)]
pub(crate) mod scratch;

use crate::core::StopSignal;
use crate::engine::{Engine, EngineOptions};
use crate::game::Game;
use crate::gomoku::engine::{Engine as GomokuEngine, EngineOptions as GomokuOptions};
pub(crate) use host::{GameEvent, GomokuHost};
use host::{Interrupt, SearchHost};
use std::collections::VecDeque;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

pub use input::MAX_LINE_BYTES;

/// Which protocol the command loop speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Start as the console; switch on `nboard` or a GTP command.
    Auto,
    Nboard,
    Gtp,
    Console,
    /// Gomocup (Piskvork) gomoku brain: [`gomocup`].
    Gomocup,
    /// The console for people playing gomoku with these rules:
    /// [`gomoku_console`].
    GomokuConsole(crate::gomoku::Config),
}

/// What the command loop receives, in order.
#[derive(Debug)]
pub(crate) enum Input {
    /// A line of input, without its end of line; `urgent` when the reader
    /// raised the interrupt for it (see [`input::Urgency`]).
    Line { text: String, urgent: bool },
    /// A line longer than [`MAX_LINE_BYTES`], dropped.
    TooLong { bytes: usize },
    /// An event of the search started as `generation`.
    Search { generation: u64, event: GameEvent },
    /// End of input.
    Eof,
    /// Ctrl-C (SIGINT) at the terminal, and when it came.
    CtrlC { at: Instant },
}

/// Whether the loop goes on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    Continue,
    Quit,
}

/// Settings of the command loop besides the engine's.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Where NBoard's `learn` appends games: `$OXELLO_LEARN_FILE`, else
    /// `oxello-learned.ggf` in the working directory.
    pub learn_file: PathBuf,
    /// Whether a person is typing (stdin is a terminal): the console then
    /// greets at once, even in [`Mode::Auto`].
    pub interactive: bool,
    /// The gomoku engine's options, for the gomoku modes (and
    /// [`Mode::Auto`] when it switches to the Gomocup brain).
    pub gomoku: GomokuOptions,
}

/// Environment variable naming the file NBoard's `learn` appends to.
pub const LEARN_FILE_VAR: &str = "OXELLO_LEARN_FILE";
/// Default file of NBoard's `learn`, in the working directory.
pub const DEFAULT_LEARN_FILE: &str = "oxello-learned.ggf";

impl Default for Settings {
    fn default() -> Self {
        let learn_file = std::env::var_os(LEARN_FILE_VAR)
            .filter(|path| !path.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(DEFAULT_LEARN_FILE));
        Settings {
            learn_file,
            interactive: false,
            gomoku: GomokuOptions::default(),
        }
    }
}

/// One protocol: turns lines and search events into reply lines.
pub(crate) trait Handler {
    /// Called once before the first line (greetings).
    fn start(&mut self, out: &mut Vec<String>) {
        let _ = out;
    }
    /// Handles one line of input.
    fn line(&mut self, line: &str, out: &mut Vec<String>) -> Flow;
    /// A line longer than [`MAX_LINE_BYTES`] was dropped.
    fn too_long(&mut self, bytes: usize, out: &mut Vec<String>) -> Flow;
    // The defaults of `event`, `busy`, `working` and `game` are those of a
    // handler that never searches: no engine events, never busy between
    // lines, no Othello game.
    /// Handles an event of a search this handler started.
    fn event(&mut self, generation: u64, event: GameEvent, out: &mut Vec<String>) -> Flow {
        let _ = (generation, event, out);
        Flow::Continue
    }
    /// Whether lines must wait (a command is still at work).
    fn busy(&self) -> bool {
        false
    }
    /// Whether a search of this handler is running (its events are due).
    fn working(&self) -> bool {
        false
    }
    /// The game as the protocol sees it (`None` before a protocol is chosen).
    fn game(&self) -> Option<&Game> {
        None
    }
    /// Whether the last line handled was refused (the game is unchanged).
    fn last_rejected(&self) -> bool;
    /// The line that Ctrl-C stands for while a search runs (the console's
    /// `stop`), or `None` when Ctrl-C quits, as it does by default.
    fn ctrl_c_line(&self) -> Option<&'static str> {
        None
    }
}

/// Builds the handler of `mode`, an Othello mode or [`Mode::Auto`] (which
/// starts as the Othello console).
fn make_handler(mode: Mode, host: SearchHost, settings: &Settings) -> Box<dyn Handler> {
    match mode {
        Mode::Auto => Box::new(Auto::new(host, settings.clone())),
        Mode::Nboard => Box::new(nboard::Nboard::new(host, settings.learn_file.clone())),
        Mode::Gtp => Box::new(gtp::Gtp::new(host)),
        Mode::Console => othello_console(host),
        Mode::Gomocup | Mode::GomokuConsole(_) => {
            // The gomoku engine stops on the same signal as the Othello one
            // the reader raises.
            let (events, interrupt) = host.channel();
            let engine = GomokuEngine::new(settings.gomoku.hash_mib, host.engine().stop_signal());
            gomoku_handler(
                mode,
                GomokuHost::new(engine, events, interrupt),
                &settings.gomoku,
            )
        }
    }
}

/// The Othello console.
fn othello_console(host: SearchHost) -> Box<dyn Handler> {
    Box::new(console::Console::new(console::othello::Othello::new(host)))
}

/// Builds the handler of a gomoku mode.
fn gomoku_handler(mode: Mode, host: GomokuHost, options: &GomokuOptions) -> Box<dyn Handler> {
    match mode {
        Mode::GomokuConsole(config) => {
            // `run` refuses an invalid configuration before it gets here.
            let board = crate::gomoku::Board::new(config)
                .or_else(|_| crate::gomoku::Board::new(crate::gomoku::Config::default()))
                .expect("the default gomoku configuration is valid");
            Box::new(console::Console::new(gomoku_console::Gomoku::with_board(
                board, host, options,
            )))
        }
        _ => Box::new(gomocup::Gomocup::new(host, options)),
    }
}

/// The handler of `mode` and the stop signal of its engine's searches: the
/// gomoku modes build a gomoku engine, the others an Othello one.
fn new_handler(
    mode: Mode,
    options: EngineOptions,
    settings: &Settings,
    events: mpsc::Sender<Input>,
    interrupt: Interrupt,
) -> (Box<dyn Handler>, StopSignal) {
    if matches!(mode, Mode::Gomocup | Mode::GomokuConsole(_)) {
        let stop = StopSignal::new();
        let engine = GomokuEngine::new(settings.gomoku.hash_mib, stop.clone());
        let host = GomokuHost::new(engine, events, interrupt);
        (gomoku_handler(mode, host, &settings.gomoku), stop)
    } else {
        let engine = Engine::new(options);
        let stop = engine.stop_signal();
        let host = SearchHost::new(engine, events, interrupt);
        (make_handler(mode, host, settings), stop)
    }
}

/// The loop's state: the handler and the lines waiting for it.
struct Core {
    handler: Box<dyn Handler>,
    pending: VecDeque<Input>,
    interrupt: Interrupt,
    draining: bool,
    quit: bool,
    /// When the last Ctrl-C came: a second one soon after quits.
    last_ctrl_c: Option<Instant>,
}

impl Core {
    fn new(handler: Box<dyn Handler>, interrupt: Interrupt) -> Core {
        Core {
            handler,
            pending: VecDeque::new(),
            interrupt,
            draining: false,
            quit: false,
            last_ctrl_c: None,
        }
    }

    /// Takes one input; replies go to `out`.
    fn input(&mut self, input: Input, out: &mut Vec<String>) {
        if self.quit {
            return;
        }
        match input {
            line @ (Input::Line { .. } | Input::TooLong { .. }) => {
                if !self.pending.is_empty() || self.handler.busy() {
                    self.pending.push_back(line);
                } else {
                    self.apply(line, out);
                }
            }
            Input::Search { generation, event } => {
                let flow = self.handler.event(generation, event, out);
                self.quit |= flow == Flow::Quit;
            }
            // The lines read and the work they started are finished first.
            Input::Eof => self.draining = true,
            Input::CtrlC { at } => self.ctrl_c(at, out),
        }
        while !self.quit && !self.handler.busy() {
            let Some(next) = self.pending.pop_front() else {
                break;
            };
            self.apply(next, out);
        }
    }

    fn apply(&mut self, input: Input, out: &mut Vec<String>) {
        let flow = match input {
            Input::Line { text, urgent } => {
                if urgent {
                    // The line that raised the interrupt is handled now.
                    self.interrupt.lower();
                }
                self.handler.line(&text, out)
            }
            Input::TooLong { bytes } => self.handler.too_long(bytes, out),
            _ => Flow::Continue,
        };
        self.quit |= flow == Flow::Quit;
    }

    /// Ctrl-C: while a search runs, the handler's stop line (the console
    /// keeps its game); while idle, or a second time within
    /// [`CTRL_C_REPEAT`], or in a protocol for programs, the loop quits.
    fn ctrl_c(&mut self, at: Instant, out: &mut Vec<String>) {
        let repeated = self
            .last_ctrl_c
            .is_some_and(|last| at.saturating_duration_since(last) < CTRL_C_REPEAT);
        self.last_ctrl_c = Some(at);
        let searching = self.handler.working();
        match self.handler.ctrl_c_line() {
            Some(line) if searching && !repeated => {
                self.interrupt.raise();
                let text = line.to_string();
                self.input(Input::Line { text, urgent: true }, out);
            }
            _ => {
                log::debug!("oxello: Ctrl-C quits");
                self.quit = true;
            }
        }
    }

    /// Whether nothing more is due.
    fn idle(&self) -> bool {
        !self.handler.working() && !self.handler.busy() && self.pending.is_empty()
    }

    fn finished(&self) -> bool {
        self.quit || (self.draining && self.idle())
    }
}

/// A second Ctrl-C within this time of the first quits, even while the
/// search the first one stopped is still winding down.
pub const CTRL_C_REPEAT: Duration = Duration::from_secs(2);

/// Routes Ctrl-C (SIGINT) into the loop as [`Input::CtrlC`], stopping the
/// running search at once. Without it the process would die mid-game; a
/// failure to install it is only logged (Ctrl-C then ends the process).
fn catch_ctrl_c(sender: mpsc::Sender<Input>, stop: StopSignal) {
    let installed = ctrlc::set_handler(move || {
        stop.stop();
        if sender.send(Input::CtrlC { at: Instant::now() }).is_err() {
            std::process::exit(130);
        }
    });
    if let Err(error) = installed {
        log::warn!("oxello: Ctrl-C is not caught: {error}");
    }
}

/// Runs the command loop until `quit` or end of input: `options` are the
/// Othello engine's, `gomoku` the gomoku engine's (see [`Settings::gomoku`]).
pub fn run(mode: Mode, options: EngineOptions, gomoku: GomokuOptions) -> std::io::Result<()> {
    if let Mode::GomokuConsole(config) = mode {
        config.validate().map_err(|error| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, error.to_string())
        })?;
    }
    let settings = Settings {
        interactive: std::io::stdin().is_terminal(),
        gomoku,
        ..Settings::default()
    };
    let (sender, receiver) = mpsc::channel();
    let interrupt = Interrupt::default();
    let (handler, stop) = new_handler(mode, options, &settings, sender.clone(), interrupt.clone());
    input::spawn_reader(sender.clone(), stop.clone(), interrupt.clone(), mode)?;
    if matches!(mode, Mode::Console | Mode::Auto | Mode::GomokuConsole(_)) {
        catch_ctrl_c(sender.clone(), stop);
    }
    let mut core = Core::new(handler, interrupt);
    let mut writer = input::Writer::new();
    let mut out = Vec::new();
    core.handler.start(&mut out);
    if !writer.write(&mut out)? {
        return Ok(());
    }
    while !core.finished() {
        let Ok(input) = receiver.recv() else {
            break;
        };
        core.input(input, &mut out);
        if !writer.write(&mut out)? {
            break;
        }
    }
    log::debug!("oxello: command loop ends");
    Ok(())
}

/// Hands `handler` the events of its searches until it is idle, as the
/// command loop does: for tests that drive a handler directly.
#[cfg(test)]
pub(crate) fn settle(
    handler: &mut dyn Handler,
    inbox: &Receiver<Input>,
    out: &mut Vec<String>,
) -> Flow {
    while handler.busy() {
        let input = inbox
            .recv_timeout(SESSION_TIMEOUT)
            .unwrap_or_else(|error| panic!("no search event: {error}"));
        let flow = match input {
            Input::Search { generation, event } => handler.event(generation, event, out),
            _ => Flow::Continue,
        };
        if flow == Flow::Quit {
            return Flow::Quit;
        }
    }
    Flow::Continue
}

/// How long [`Session::send`] waits for a search to finish.
pub const SESSION_TIMEOUT: Duration = Duration::from_secs(120);

/// A protocol driven in-process: lines in, reply lines out, no stdin or
/// stdout. [`Session::send`] handles one line and waits for the searches it
/// started, so a session is deterministic line by line.
pub struct Session {
    core: Core,
    receiver: Receiver<crate::protocol::Input>,
}

impl Session {
    /// A session of `mode` with default [`Settings`].
    pub fn new(mode: Mode, options: EngineOptions) -> Session {
        Session::with_settings(mode, options, Settings::default())
    }

    /// A session of `mode` with explicit settings. The gomoku modes build a
    /// gomoku engine from [`Settings::gomoku`] and leave `options` unused.
    pub fn with_settings(mode: Mode, options: EngineOptions, settings: Settings) -> Session {
        let (sender, receiver) = mpsc::channel();
        let interrupt = Interrupt::default();
        let (handler, _) = new_handler(mode, options, &settings, sender, interrupt.clone());
        let core = Core::new(handler, interrupt);
        Session { core, receiver }
    }

    /// The greeting of a session: what [`run`] prints before any input.
    /// Call it at most once, before the first line.
    pub fn greeting(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        self.core.handler.start(&mut out);
        out
    }

    /// Handles one line and returns every line printed until the session is
    /// idle again (searches finished, queued lines handled).
    pub fn send(&mut self, line: &str) -> Vec<String> {
        let mut out = Vec::new();
        // A session waits for each line's work, so no line is ever read
        // ahead: none needs to interrupt.
        let input = Input::Line {
            text: line.to_string(),
            urgent: false,
        };
        self.core.input(input, &mut out);
        self.settle(&mut out);
        out
    }

    /// As if a line of `bytes` bytes, over the limit, had been read.
    pub fn send_too_long(&mut self, bytes: usize) -> Vec<String> {
        let mut out = Vec::new();
        self.core.input(Input::TooLong { bytes }, &mut out);
        self.settle(&mut out);
        out
    }

    /// As if input had ended; returns the last replies.
    pub fn close(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        self.core.input(Input::Eof, &mut out);
        self.settle(&mut out);
        out
    }

    fn settle(&mut self, out: &mut Vec<String>) {
        let deadline = Instant::now() + SESSION_TIMEOUT;
        while !self.core.quit && !self.core.idle() {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.receiver.recv_timeout(left) {
                Ok(input) => self.core.input(input, out),
                Err(_) => {
                    log::error!("oxello: session timed out waiting for a search");
                    break;
                }
            }
        }
    }

    /// The current game (`None` while [`Mode::Auto`] has not chosen).
    pub fn game(&self) -> Option<&Game> {
        self.core.handler.game()
    }

    /// Whether the last line was refused (and so changed nothing).
    pub fn last_rejected(&self) -> bool {
        self.core.handler.last_rejected()
    }

    /// Whether `quit` was handled.
    pub fn has_quit(&self) -> bool {
        self.core.quit
    }
}

/// Which protocol a first line asks for.
fn detect(line: &str) -> Option<Mode> {
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return None;
    }
    let first = trimmed.split_whitespace().next().unwrap_or("");
    if first.eq_ignore_ascii_case("nboard") {
        Some(Mode::Nboard)
    } else if ["START", "RECTSTART", "ABOUT", "INFO"]
        .iter()
        .any(|word| first.eq_ignore_ascii_case(word))
    {
        Some(Mode::Gomocup)
    } else if gtp::starts_session(trimmed) {
        Some(Mode::Gtp)
    } else {
        Some(Mode::Console)
    }
}

/// [`Mode::Auto`]: decides on the first line, then hands everything on.
struct Auto {
    host: Option<SearchHost>,
    inner: Option<Box<dyn Handler>>,
    settings: Settings,
    greeted: bool,
}

impl Auto {
    fn new(host: SearchHost, settings: Settings) -> Auto {
        Auto {
            host: Some(host),
            inner: None,
            settings,
            greeted: false,
        }
    }

    fn choose(&mut self, mode: Mode) -> &mut Box<dyn Handler> {
        if self.inner.is_none() {
            let host = self.host.take().expect("the host is kept until a choice");
            let handler: Box<dyn Handler> = match mode {
                Mode::Console | Mode::Auto => othello_console(host),
                other => make_handler(other, host, &self.settings),
            };
            log::debug!("oxello: protocol chosen: {mode:?}");
            self.inner = Some(handler);
        }
        self.inner.as_mut().expect("just set")
    }
}

impl Handler for Auto {
    /// A person at a terminal gets the console's greeting and board at
    /// once; the host is taken back, since the first line may still choose
    /// another protocol.
    fn start(&mut self, out: &mut Vec<String>) {
        if !self.settings.interactive || self.greeted {
            return;
        }
        self.greeted = true;
        let Some(host) = self.host.take() else {
            return;
        };
        let mut console = console::Console::new(console::othello::Othello::new(host));
        console.start(out);
        out.push(
            "('nboard 2', a GTP command or a Gomocup one such as START 15 as the first line \
             switches protocol)"
                .to_string(),
        );
        self.host = Some(console.into_game().into_host());
    }

    fn line(&mut self, line: &str, out: &mut Vec<String>) -> Flow {
        if let Some(inner) = &mut self.inner {
            return inner.line(line, out);
        }
        match detect(line) {
            Some(mode) => self.choose(mode).line(line, out),
            None => Flow::Continue,
        }
    }

    fn too_long(&mut self, bytes: usize, out: &mut Vec<String>) -> Flow {
        match &mut self.inner {
            Some(inner) => inner.too_long(bytes, out),
            None => {
                log::warn!("oxello: dropped an input line of {bytes} bytes");
                Flow::Continue
            }
        }
    }

    fn event(&mut self, generation: u64, event: GameEvent, out: &mut Vec<String>) -> Flow {
        match &mut self.inner {
            Some(inner) => inner.event(generation, event, out),
            None => Flow::Continue,
        }
    }

    fn busy(&self) -> bool {
        self.inner.as_ref().is_some_and(|inner| inner.busy())
    }

    fn working(&self) -> bool {
        self.inner.as_ref().is_some_and(|inner| inner.working())
    }

    fn game(&self) -> Option<&Game> {
        self.inner.as_ref().and_then(|inner| inner.game())
    }

    fn ctrl_c_line(&self) -> Option<&'static str> {
        self.inner.as_ref().and_then(|inner| inner.ctrl_c_line())
    }

    fn last_rejected(&self) -> bool {
        self.inner
            .as_ref()
            .is_some_and(|inner| inner.last_rejected())
    }
}

/// Whether a line holds characters no protocol sends: control characters
/// other than tab, or bytes that were not UTF-8.
pub(crate) fn is_binary(line: &str) -> bool {
    line.chars()
        .any(|c| (c.is_control() && c != '\t') || c == char::REPLACEMENT_CHARACTER)
}

/// Shortest search whose rate is printed: over less time, the clock's
/// start-up costs make any rate meaningless (342 nodes in 0.3 ms once
/// printed as 342000 nodes/s).
pub(crate) const MIN_RATE_TIME: Duration = Duration::from_millis(10);

/// Nodes per second, when `elapsed` is long enough to measure a rate.
pub(crate) fn nodes_per_second(nodes: u64, elapsed: Duration) -> Option<u64> {
    (elapsed >= MIN_RATE_TIME).then(|| (nodes as f64 / elapsed.as_secs_f64()).round() as u64)
}

/// A number with two decimals, never in exponent notation, never `-0.00`.
pub(crate) fn fixed2(x: f64) -> String {
    let x = if x.is_finite() { x } else { 0.0 };
    let text = format!("{x:.2}");
    if text == "-0.00" {
        "0.00".to_string()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_the_protocol_from_the_first_line() {
        assert_eq!(detect("nboard 2"), Some(Mode::Nboard));
        assert_eq!(detect("NBoard 1"), Some(Mode::Nboard));
        assert_eq!(detect("protocol_version"), Some(Mode::Gtp));
        assert_eq!(detect("1 boardsize 8"), Some(Mode::Gtp));
        assert_eq!(detect("play black f5"), Some(Mode::Gtp));
        assert_eq!(detect("play f5d6"), Some(Mode::Console));
        assert_eq!(detect("f5"), Some(Mode::Console));
        assert_eq!(detect("undo"), Some(Mode::Console));
        assert_eq!(detect("START 15"), Some(Mode::Gomocup));
        assert_eq!(detect("rectstart 20,15"), Some(Mode::Gomocup));
        assert_eq!(detect("ABOUT"), Some(Mode::Gomocup));
        assert_eq!(detect("info timeout_turn 1000"), Some(Mode::Gomocup));
        assert_eq!(detect("   "), None);
        assert_eq!(detect("# comment"), None);
    }

    #[test]
    fn fixed_point_numbers() {
        assert_eq!(fixed2(0.5), "0.50");
        assert_eq!(fixed2(-0.0), "0.00");
        assert_eq!(fixed2(-0.001), "0.00");
        assert_eq!(fixed2(1e-9), "0.00");
        assert_eq!(fixed2(64.0), "64.00");
        assert_eq!(fixed2(f64::NAN), "0.00");
        assert_eq!(fixed2(1e20), "100000000000000000000.00");
    }

    #[test]
    fn binary_lines() {
        assert!(is_binary("ab\u{0}c"));
        assert!(is_binary("\u{fffd}"));
        assert!(!is_binary("go\t"));
    }
}
