//! The console for people playing gomoku (`oxello console --game gomoku`):
//! a board with coordinates, moves such as `h8`, undo and redo, hints,
//! levels, and renju's forbidden points marked on the board.
//!
//! It follows the Othello console's conventions (`mode 0` to `3`, `go`,
//! `hint`, `level`, `stop`, `quit`). Searches run on the gomoku engine's
//! thread ([`crate::gomoku::engine`]), as in the Gomocup protocol: each
//! iteration's row is printed as it finishes, the lines read meanwhile wait
//! their turn (so piped input gets the same answers as typed input), and
//! `stop` raises the stop signal the moment it is read (it stays raised
//! until the `stop` line itself is handled, so it stops every search of
//! the lines before it, and oxello starts no next move of a game it plays
//! against itself). Ctrl-C during a search stops it and keeps the game;
//! Ctrl-C when idle, or twice, quits.

use crate::color::Color;
use crate::core::StopSignal;
use crate::core::{Event, MAX_THREADS, default_threads, parse_threads};
use crate::gomoku::board::{Board, Point, Status};
use crate::gomoku::engine::EngineOptions;
use crate::gomoku::forbid::Foul;
use crate::gomoku::rules::{Config, Rule};
use crate::gomoku::search::{Limits, Progress, SearchResult, Source, WIN_BOUND};
use crate::gomoku::text::{format_pos, parse_pos};
use crate::protocol::{Flow, GameEvent, GomokuHost, Handler};
use std::time::Duration;

/// Deepest level (the search's iteration limit).
pub const MAX_LEVEL: u32 = crate::gomoku::search::MAX_DEPTH;
/// Level by default: the depth of a quick but sound move.
pub const DEFAULT_LEVEL: u32 = 10;
/// Seconds per move by default.
pub const DEFAULT_SECONDS: f64 = 3.0;
/// Longest time per move accepted, seconds.
pub const MAX_SECONDS: f64 = 3600.0;
/// The mark of a point forbidden to Black under renju.
pub const FORBIDDEN_MARK: char = '#';

/// Who moves for whom, as in the Othello console.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PlayMode {
    /// 0: the person has Black, oxello White.
    PersonBlack,
    /// 1: the person has White, oxello Black.
    PersonWhite,
    /// 2: oxello plays both colours.
    EngineBoth,
    /// 3: the person plays both colours.
    PersonBoth,
}

impl PlayMode {
    fn number(self) -> u8 {
        match self {
            PlayMode::PersonBlack => 0,
            PlayMode::PersonWhite => 1,
            PlayMode::EngineBoth => 2,
            PlayMode::PersonBoth => 3,
        }
    }

    fn engine_plays(self, color: Color) -> bool {
        match self {
            PlayMode::PersonBlack => color == Color::White,
            PlayMode::PersonWhite => color == Color::Black,
            PlayMode::EngineBoth => true,
            PlayMode::PersonBoth => false,
        }
    }

    fn describe(self) -> &'static str {
        match self {
            PlayMode::PersonBlack => "you play Black, oxello plays White",
            PlayMode::PersonWhite => "you play White, oxello plays Black",
            PlayMode::EngineBoth => "oxello plays both colours",
            PlayMode::PersonBoth => "you play both colours",
        }
    }
}

/// The console's state.
pub struct GomokuConsole {
    board: Board,
    /// Moves taken back, for `redo` (last taken back last).
    redo: Vec<usize>,
    engine: GomokuHost,
    stop: StopSignal,
    level: u32,
    seconds: f64,
    /// Search threads.
    threads: usize,
    mode: PlayMode,
    rejected: bool,
    /// The running search and what its result is for.
    pending: Option<Pending>,
}

/// What the running search's result is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    /// oxello's move, played.
    Move,
    /// A hint, not played.
    Hint,
}

const HELP: &[&str] = &[
    "commands:",
    "  h8 (or play h8 i9 ...)   play moves (columns a.., rows 1.. from the top)",
    "  go                       oxello plays the side to move",
    "  hint                     oxello's best move, not played",
    "  undo [N] / redo [N]      take back / replay N moves (undo: back to your turn)",
    "  new                      a new game",
    "  board                    show the board",
    "  level N                  search depth 1-40 (default 10)",
    "  time S                   seconds per move (default 3)",
    "  threads N                search threads (default: every core)",
    "  mode N                   0 you Black, 1 you White, 2 oxello both, 3 you both",
    "  stop                     stop the running search (it plays its best move)",
    "  quit                     leave",
];

impl GomokuConsole {
    /// A console starting from `board`, searching on `engine` with the
    /// command line's `options`: its threads (every core by default), and
    /// its level (search depth) and time per move, each kept in the range
    /// its command accepts.
    pub(crate) fn with_board(
        board: Board,
        engine: GomokuHost,
        options: &EngineOptions,
    ) -> GomokuConsole {
        let mut console = GomokuConsole {
            board,
            redo: Vec::new(),
            stop: engine.engine().stop_signal(),
            engine,
            level: DEFAULT_LEVEL,
            seconds: DEFAULT_SECONDS,
            threads: options
                .threads
                .unwrap_or_else(default_threads)
                .clamp(1, MAX_THREADS),
            mode: PlayMode::PersonBlack,
            rejected: false,
            pending: None,
        };
        if let Some(depth) = options.depth {
            console.level = depth.clamp(1, MAX_LEVEL);
        }
        if let Some(turn) = options.time {
            console.seconds = turn.as_secs_f64().clamp(0.01, MAX_SECONDS);
        }
        console
    }

    fn refuse(&mut self, out: &mut Vec<String>, message: String) {
        self.rejected = true;
        out.push(format!("error: {message}"));
    }

    fn command(&mut self, line: &str, out: &mut Vec<String>) -> Flow {
        let line = line.trim();
        let (word, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(w, r)| (w, r.trim()));
        match word.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "exit" | "q" => return Flow::Quit,
            "help" | "?" => out.extend(HELP.iter().map(|s| s.to_string())),
            "board" | "b" => self.show(out),
            "new" | "init" => {
                let config = self.board.config();
                if let Ok(board) = Board::new(config) {
                    self.board = board;
                }
                self.redo.clear();
                out.push(format!("new game: {}", describe_config(config)));
                self.after_change(out);
            }
            "play" | "p" => self.play_text(rest, out),
            "go" => {
                if self.board.status() != Status::Ongoing {
                    return self.game_over(out);
                }
                self.think(Pending::Move, out);
            }
            "hint" => self.hint(out),
            "undo" | "u" => self.undo(rest, out),
            "redo" => self.redo(rest, out),
            "level" | "l" => match rest.parse::<u32>() {
                Ok(level) if (1..=MAX_LEVEL).contains(&level) => {
                    self.level = level;
                    out.push(format!("level: {level}"));
                }
                _ if rest.is_empty() => out.push(format!("level: {}", self.level)),
                _ => self.refuse(out, format!("level {rest}: use 1 to {MAX_LEVEL}")),
            },
            "time" | "t" => match rest.parse::<f64>() {
                Ok(seconds) if seconds.is_finite() && (0.01..=MAX_SECONDS).contains(&seconds) => {
                    self.seconds = seconds;
                    out.push(format!("time: {seconds} s per move"));
                }
                _ if rest.is_empty() => out.push(format!("time: {} s per move", self.seconds)),
                _ => self.refuse(
                    out,
                    format!("time {rest}: use seconds from 0.01 to {MAX_SECONDS}"),
                ),
            },
            "threads" => match parse_threads(rest) {
                Some(threads) => {
                    self.threads = threads;
                    out.push(format!("threads: {threads}"));
                }
                None if rest.is_empty() => out.push(format!("threads: {}", self.threads)),
                _ => self.refuse(out, format!("threads {rest}: use 1 to {MAX_THREADS}")),
            },
            "mode" | "m" => {
                let mode = match rest {
                    "0" => Some(PlayMode::PersonBlack),
                    "1" => Some(PlayMode::PersonWhite),
                    "2" => Some(PlayMode::EngineBoth),
                    "3" => Some(PlayMode::PersonBoth),
                    "" => {
                        out.push(format!(
                            "mode {}: {}",
                            self.mode.number(),
                            self.mode.describe()
                        ));
                        return Flow::Continue;
                    }
                    _ => None,
                };
                match mode {
                    Some(mode) => {
                        self.mode = mode;
                        out.push(format!("mode {}: {}", mode.number(), mode.describe()));
                        self.engine_turns(out);
                    }
                    None => self.refuse(
                        out,
                        format!(
                            "mode {rest}: use 0 (you Black), 1 (you White), 2 (oxello both) \
                             or 3 (you both)"
                        ),
                    ),
                }
            }
            // The reader raised the stop signal when it read this line, which
            // stopped the searches of the lines before it; now it is spent.
            "stop" => self.stop.reset(),
            _ => {
                // A bare move (or run of moves) is played.
                if parse_pos(word).is_ok() || crate::gomoku::text::parse_moves(line).is_ok() {
                    self.play_text(line, out);
                } else {
                    self.refuse(out, format!("unknown command '{word}' (help lists them)"));
                }
            }
        }
        Flow::Continue
    }

    fn game_over(&mut self, out: &mut Vec<String>) -> Flow {
        let status = describe_status(self.board.status());
        self.refuse(
            out,
            format!("the game is over: {status} (new starts another)"),
        );
        Flow::Continue
    }

    /// Plays the person's moves: all or none, each checked (the engine's
    /// colour is refused unless mode 3 lets the person play both).
    fn play_text(&mut self, text: &str, out: &mut Vec<String>) {
        let words: Vec<&str> = text.split_whitespace().collect();
        let mut points = Vec::new();
        for word in &words {
            match crate::gomoku::text::parse_moves(word) {
                Ok(moves) if !moves.is_empty() => points.extend(moves),
                _ => return self.refuse(out, format!("'{word}' is not a move such as h8")),
            }
        }
        if points.is_empty() {
            return self.refuse(out, "play what? (e.g. play h8)".to_string());
        }
        let mut board = self.board.clone();
        for p in points {
            let color = board.to_move();
            if self.mode.engine_plays(color) {
                return self.refuse(
                    out,
                    format!(
                        "{} is oxello's move as {} ({}): use go, or mode 3 to play both",
                        format_pos(p),
                        colour_name(color),
                        self.mode.describe()
                    ),
                );
            }
            if let Err(message) = check_person_move(&board, p) {
                return self.refuse(out, message);
            }
            let _ = board.play(p);
        }
        self.board = board;
        self.redo.clear();
        self.after_change(out);
    }

    /// After a change: oxello moves if it is its turn; else the board.
    fn after_change(&mut self, out: &mut Vec<String>) {
        if !self.engine_turns(out) {
            self.show(out);
        }
    }

    /// Starts oxello's move if the side to move is oxello's and no `stop`
    /// waits; returns whether it did (the board is shown after the move).
    fn engine_turns(&mut self, out: &mut Vec<String>) -> bool {
        let due = self.board.status() == Status::Ongoing
            && self.mode.engine_plays(self.board.to_move())
            && !self.stop.is_stopped();
        if due {
            self.think(Pending::Move, out);
        }
        due
    }

    fn limits(&self) -> Limits {
        let mut limits = Limits::for_time(Duration::from_secs_f64(self.seconds));
        limits.depth = Some(self.level);
        limits.threads = self.threads;
        limits
    }

    fn hint(&mut self, out: &mut Vec<String>) {
        if self.board.status() != Status::Ongoing {
            self.game_over(out);
            return;
        }
        self.think(Pending::Hint, out);
    }

    /// Starts a search on the engine's thread: its rows come as events
    /// ([`Handler::event`]), then [`GomokuConsole::finish`].
    fn think(&mut self, then: Pending, out: &mut Vec<String>) {
        if then == Pending::Move {
            out.push(format!(
                "oxello (level {}) thinks for {}...",
                self.level,
                colour_name(self.board.to_move())
            ));
        }
        out.push(" depth | score  |   time   |   nodes    | principal variation".to_string());
        // The signal is not lowered here: a `stop` read ahead must stop this
        // search too (it is lowered when the `stop` line itself comes).
        self.pending = Some(then);
        self.engine.start(&self.board, self.limits());
    }

    /// The end of a search: the hint, or oxello's move played and the game
    /// going on.
    fn finish(&mut self, then: Pending, result: SearchResult, out: &mut Vec<String>) {
        let Some(best) = result.best else {
            out.push("no move: the board is full".to_string());
            return self.show(out);
        };
        let nps = result.nodes as f64 / result.elapsed.as_secs_f64().max(1e-3);
        let how = match result.source {
            Source::Forced => "forced".to_string(),
            Source::Vcf => "a win by continuous fours (VCF)".to_string(),
            Source::Vct => "a win by continuous threats (VCT)".to_string(),
            Source::Search => format!("depth {}", result.depth),
        };
        let summary = format!(
            "score {}, {how}, {} nodes, {:.0} nodes/s",
            format_score(result.score),
            result.nodes,
            nps
        );
        match then {
            Pending::Hint => out.push(format!("hint: {} ({summary})", format_pos(best))),
            Pending::Move => {
                let color = self.board.to_move();
                let _ = self.board.play(best);
                self.redo.clear();
                out.push(format!(
                    "oxello plays {} for {} ({summary})",
                    format_pos(best),
                    colour_name(color)
                ));
                self.after_change(out);
            }
        }
    }

    fn count(rest: &str) -> Result<usize, String> {
        if rest.is_empty() {
            return Ok(1);
        }
        match rest.parse::<usize>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(format!("'{rest}': give a number of moves from 1")),
        }
    }

    /// Takes back `N` moves (1 by default), then more while oxello would be
    /// to move, so that it is the person's turn again.
    fn undo(&mut self, rest: &str, out: &mut Vec<String>) {
        let count = match Self::count(rest) {
            Ok(count) => count,
            Err(message) => return self.refuse(out, format!("undo {message}")),
        };
        if self.board.history().len() < count {
            let played = self.board.history().len();
            return self.refuse(out, format!("undo {count}: only {played} move(s) played"));
        }
        for _ in 0..count {
            if let Some(index) = self.board.undo() {
                self.redo.push(index);
            }
        }
        while self.mode.engine_plays(self.board.to_move())
            && self.mode != PlayMode::EngineBoth
            && let Some(index) = self.board.undo()
        {
            self.redo.push(index);
        }
        self.show(out);
    }

    fn redo(&mut self, rest: &str, out: &mut Vec<String>) {
        let count = match Self::count(rest) {
            Ok(count) => count,
            Err(message) => return self.refuse(out, format!("redo {message}")),
        };
        if self.redo.len() < count {
            let available = self.redo.len();
            return self.refuse(out, format!("redo {count}: {available} move(s) to redo"));
        }
        for _ in 0..count {
            if let Some(index) = self.redo.pop() {
                self.board.play_index(index);
            }
        }
        self.show(out);
    }

    /// The board, its status and the moves played.
    fn show(&self, out: &mut Vec<String>) {
        out.extend(diagram(&self.board).lines().map(str::to_string));
        let status = match self.board.status() {
            Status::Ongoing => format!("{} to move", colour_name(self.board.to_move())),
            status => format!("game over: {}", describe_status(status)),
        };
        out.push(status);
        let moves: Vec<String> = self
            .board
            .history()
            .iter()
            .map(|&index| format_pos(Point::from_index(index)))
            .collect();
        out.push(format!("moves {}: {}", moves.len(), moves.concat()));
    }
}

/// Why the person may not play `p`, if so: off the board, occupied, the
/// game over, or (renju) a point forbidden to Black.
fn check_person_move(board: &Board, p: Point) -> Result<(), String> {
    let name = format_pos(p);
    if !board.contains(p) {
        return Err(format!(
            "{name} is off the {}x{} board",
            board.width(),
            board.height()
        ));
    }
    if board.status() != Status::Ongoing {
        return Err(format!(
            "the game is over: {}",
            describe_status(board.status())
        ));
    }
    if !board.is_empty(p.index()) {
        return Err(format!("{name} is occupied"));
    }
    if board.to_move() == Color::Black
        && !board.makes_five(p.index(), Color::Black)
        && let Some(foul) = board.foul(p.index())
    {
        return Err(format!(
            "{name} is forbidden to Black under renju ({}; marked {FORBIDDEN_MARK})",
            describe_foul(foul)
        ));
    }
    Ok(())
}

/// `Black` or `White`, for sentences.
fn colour_name(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

fn describe_foul(foul: Foul) -> &'static str {
    match foul {
        Foul::DoubleThree => "double three",
        Foul::DoubleFour => "double four",
        Foul::Overline => "overline",
    }
}

fn describe_status(status: Status) -> String {
    match status {
        Status::Ongoing => "the game goes on".to_string(),
        Status::Won(color) => format!("{} wins", colour_name(color)),
        Status::Draw => "a draw (the board is full)".to_string(),
    }
}

fn describe_config(config: Config) -> String {
    format!(
        "{}x{}, {} in a row, {}",
        config.width, config.height, config.n, config.rule
    )
}

/// A score for people: `+35`, or `win in 7` / `loss in 4` (plies).
fn format_score(score: i32) -> String {
    let win = crate::gomoku::search::WIN;
    if score > WIN_BOUND {
        format!("win in {}", win - score)
    } else if score < -WIN_BOUND {
        format!("loss in {}", win + score)
    } else {
        format!("{score:+}")
    }
}

fn progress_row(p: &Progress) -> String {
    let pv: Vec<String> = p.pv.iter().map(|&m| format_pos(m)).collect();
    format!(
        "{:>6} | {:>6} | {:>8.3} | {:>10} | {}",
        p.depth,
        format_score(p.score),
        p.elapsed.as_secs_f64(),
        p.nodes,
        pv.join(" ")
    )
}

/// The board with coordinates on all four sides: `X` Black, `O` White,
/// the last move in lower case, `.` empty, and under renju
/// [`FORBIDDEN_MARK`] on the empty points forbidden to Black.
pub fn diagram(board: &Board) -> String {
    let letters: String = (0..board.width())
        .map(|x| format!(" {}", (b'a' + x as u8) as char))
        .collect();
    let mut text = format!("   {letters}\n");
    let last = board.last_move();
    for y in 0..board.height() {
        text.push_str(&format!("{:>3}", y + 1));
        for x in 0..board.width() {
            let p = Point::new(x, y);
            let index = p.index();
            let mark = match board.get(p) {
                Some(Color::Black) if last == Some(index) => 'x',
                Some(Color::Black) => 'X',
                Some(Color::White) if last == Some(index) => 'o',
                Some(Color::White) => 'O',
                None if board.rule() == Rule::Renju && board.is_forbidden(index) => FORBIDDEN_MARK,
                None => '.',
            };
            text.push(' ');
            text.push(mark);
        }
        text.push_str(&format!(" {}\n", y + 1));
    }
    text.push_str(&format!("   {letters}\n"));
    text
}

impl Handler for GomokuConsole {
    fn start(&mut self, out: &mut Vec<String>) {
        out.push(format!(
            "oxello gomoku: {} (help lists the commands)",
            describe_config(self.board.config())
        ));
        out.push(format!("mode 0: {}", self.mode.describe()));
        self.show(out);
    }

    fn line(&mut self, line: &str, out: &mut Vec<String>) -> Flow {
        self.rejected = false;
        self.command(line, out)
    }

    fn too_long(&mut self, bytes: usize, out: &mut Vec<String>) -> Flow {
        self.refuse(out, format!("line of {bytes} bytes dropped"));
        Flow::Continue
    }

    fn last_rejected(&self) -> bool {
        self.rejected
    }

    /// Ctrl-C during a search stops it (the stop signal is raised at once)
    /// and keeps the game, as `stop` does.
    fn ctrl_c_line(&self) -> Option<&'static str> {
        Some("stop")
    }

    fn event(&mut self, generation: u64, event: GameEvent, out: &mut Vec<String>) -> Flow {
        match self.engine.accept(generation, event) {
            Some(Event::Progress(p)) if self.pending.is_some() => out.push(progress_row(&p)),
            Some(Event::Finished(result)) => {
                if let Some(then) = self.pending.take() {
                    self.finish(then, result, out);
                }
            }
            _ => {}
        }
        Flow::Continue
    }

    fn busy(&self) -> bool {
        self.pending.is_some()
    }

    fn working(&self) -> bool {
        self.pending.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::engine::{DEFAULT_HASH_MIB, Engine};
    use crate::protocol::Input;
    use std::sync::mpsc::{self, Receiver};

    /// A console, and the channel its search events come back on.
    struct Tested {
        c: GomokuConsole,
        inbox: Receiver<Input>,
    }

    impl std::ops::Deref for Tested {
        type Target = GomokuConsole;
        fn deref(&self) -> &GomokuConsole {
            &self.c
        }
    }

    fn console(config: Config) -> Tested {
        let (events, inbox) = mpsc::channel();
        let board = Board::new(config).unwrap();
        let engine = Engine::new(DEFAULT_HASH_MIB, StopSignal::new());
        let host = GomokuHost::new(engine, events, Default::default());
        let options = EngineOptions {
            threads: Some(1),
            ..EngineOptions::default()
        };
        let c = GomokuConsole::with_board(board, host, &options);
        Tested { c, inbox }
    }

    /// Handles a line and the events of the searches it starts, as the
    /// command loop does.
    fn send(t: &mut Tested, line: &str) -> (Flow, Vec<String>) {
        let mut out = Vec::new();
        let mut flow = t.c.line(line, &mut out);
        if flow == Flow::Continue {
            flow = crate::protocol::settle(&mut t.c, &t.inbox, &mut out);
        }
        (flow, out)
    }

    fn run(t: &mut Tested, line: &str) -> Vec<String> {
        send(t, line).1
    }

    #[test]
    fn plays_refuses_and_takes_back() {
        let mut c = console(Config {
            width: 9,
            height: 9,
            ..Config::default()
        });
        run(&mut c, "level 2");
        run(&mut c, "time 0.2");
        let out = run(&mut c, "e5");
        assert!(!c.last_rejected(), "{out:?}");
        // oxello answered as White.
        assert_eq!(c.board.history().len(), 2, "{out:?}");
        assert!(out.iter().any(|l| l.starts_with("oxello plays")), "{out:?}");
        let before = c.board.history().to_vec();
        // Occupied, off the board, not a move: refused, nothing changes.
        for bad in [
            "e5", "z1", "play", "level 0", "level 41", "time -1", "mode 7", "undo x",
        ] {
            let out = run(&mut c, bad);
            assert!(c.last_rejected(), "{bad}: {out:?}");
            assert!(
                out.iter().any(|l| l.starts_with("error:")),
                "{bad}: {out:?}"
            );
            assert_eq!(c.board.history(), before.as_slice(), "{bad}");
        }
        // undo goes back to the person's turn: both moves.
        run(&mut c, "undo");
        assert!(c.board.history().is_empty());
        run(&mut c, "redo 2");
        assert_eq!(c.board.history(), before.as_slice());
        // A move for oxello's colour is refused in mode 0...
        run(&mut c, "mode 3");
        run(&mut c, "a1 a2");
        assert_eq!(c.board.history().len(), 4);
        run(&mut c, "mode 0");
        // ...where Black (the person) is to move again.
        let out = run(&mut c, "b1 b2");
        assert!(c.last_rejected(), "{out:?}");
        assert!(out.iter().any(|l| l.contains("oxello's move")), "{out:?}");
        assert_eq!(c.board.history().len(), 4);
    }

    #[test]
    fn finds_a_win_and_reports_the_end() {
        let mut c = console(Config {
            width: 9,
            height: 9,
            ..Config::default()
        });
        run(&mut c, "mode 3");
        run(&mut c, "a1 a9 b1 b9 c1 c9 d1 d9");
        let out = run(&mut c, "hint");
        assert!(out.iter().any(|l| l.starts_with("hint: e1")), "{out:?}");
        run(&mut c, "e1");
        let out = run(&mut c, "board");
        assert!(out.iter().any(|l| l == "game over: Black wins"), "{out:?}");
        let out = run(&mut c, "f5");
        assert!(c.last_rejected(), "{out:?}");
        let out = run(&mut c, "go");
        assert!(c.last_rejected(), "{out:?}");
    }

    #[test]
    fn renju_marks_and_refuses_forbidden_points() {
        let mut c = console(Config {
            rule: Rule::Renju,
            ..Config::default()
        });
        run(&mut c, "mode 3");
        // Black g8 h8 (a row) and i9 i10 (a column), White far away: i8
        // would make two open threes, a double three.
        run(&mut c, "g8 a1 h8 a3 i9 a5 i10 a7");
        assert_eq!(
            c.board.foul(Point::new(8, 7).index()),
            Some(Foul::DoubleThree)
        );
        let forbidden: Vec<Point> = c
            .board
            .points()
            .iter()
            .filter(|&&index| c.board.is_forbidden(index))
            .map(|&index| Point::from_index(index))
            .collect();
        let text = diagram(&c.board);
        assert_eq!(
            text.matches(FORBIDDEN_MARK).count(),
            forbidden.len(),
            "{text}"
        );
        assert!(!forbidden.is_empty(), "{text}");
        let before = c.board.history().to_vec();
        let out = run(&mut c, &format_pos(forbidden[0]));
        assert!(c.last_rejected(), "{out:?}");
        assert!(
            out.iter().any(|l| l.contains("forbidden to Black")),
            "{out:?}"
        );
        assert_eq!(c.board.history(), before.as_slice());
    }

    /// Random and mutated lines: none panics, and a refused line leaves
    /// the game as it was with one `error:` line.
    #[test]
    fn survives_random_lines() {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        let mut rng = StdRng::seed_from_u64(0x90_c0);
        let seeds = [
            "e5",
            "play a1 b2",
            "h8h9",
            "undo",
            "undo 3",
            "redo",
            "redo 2",
            "new",
            "board",
            "hint",
            "go",
            "mode 0",
            "mode 1",
            "mode 2",
            "mode 3",
            "stop",
            "help",
            "z99",
            "a0",
            "play",
            "undo -1",
            "mode",
            "level",
            "time",
            "i9 j10",
        ];
        for rule in [Rule::Freestyle, Rule::Renju, Rule::Caro] {
            let side = if rule == Rule::Renju { 15 } else { 7 };
            let mut c = console(Config {
                width: side,
                height: side,
                rule,
                ..Config::default()
            });
            run(&mut c, "level 1");
            run(&mut c, "time 0.02");
            for _ in 0..1500 {
                let mut line = seeds[rng.random_range(0..seeds.len())].to_string();
                match rng.random_range(0..4) {
                    0 => {
                        let at = rng.random_range(0..=line.len());
                        let byte = rng.random_range(0x20u8..0x7f);
                        if line.is_char_boundary(at) {
                            line.insert(at, byte as char);
                        }
                    }
                    1 => line = line.to_uppercase(),
                    2 => line.push_str(&format!(" {}", rng.random_range(0..30))),
                    _ => {}
                }
                // The search stays at level 1 and 0.02 s a move.
                let word = line.split_whitespace().next().unwrap_or("").to_lowercase();
                if ["level", "l", "time", "t"].contains(&word.as_str()) {
                    continue;
                }
                let before = c.board.history().to_vec();
                let (flow, out) = send(&mut c, &line);
                if flow == Flow::Quit {
                    continue;
                }
                if c.last_rejected() {
                    assert_eq!(c.board.history(), before.as_slice(), "{line:?}: {out:?}");
                    let errors = out.iter().filter(|l| l.starts_with("error: ")).count();
                    assert_eq!(errors, 1, "{line:?}: {out:?}");
                }
            }
        }
    }
}
