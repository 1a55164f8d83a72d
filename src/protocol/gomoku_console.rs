//! Gomoku at the console (`oxello console --game gomoku`): a board with
//! coordinates, moves such as `h8`, and renju's forbidden points marked.
//! The console itself, its modes and commands, is the one Othello has
//! ([`crate::protocol::console`]); this is the game behind it.
//!
//! Searches run on the gomoku engine's thread ([`crate::gomoku::engine`]),
//! as in the Gomocup protocol: each iteration's row is printed as it
//! finishes, then the move or the hint. The level is the deepest iteration,
//! the time the most a move may take (3 s by default).

use crate::color::Color;
use crate::core::{Event, MAX_THREADS, StopSignal, default_threads};
use crate::gomoku::board::{Board, Point, Status};
use crate::gomoku::engine::EngineOptions;
use crate::gomoku::forbid::Foul;
use crate::gomoku::rules::{Config, Rule};
use crate::gomoku::search::{Limits, Progress, SearchResult, Source, WIN_BOUND};
use crate::gomoku::text::{format_pos, parse_moves};
use crate::protocol::console::{
    CommandInfo, ConsoleError, ConsoleGame, GameWords, Outcome, Search, fail, title,
};
use crate::protocol::gomocup::ranked_moves;
use crate::protocol::{GameEvent, GomokuHost, nodes_per_second};
use std::time::Duration;

/// Deepest level (the search's iteration limit).
pub const MAX_LEVEL: u32 = crate::gomoku::search::MAX_DEPTH;
/// Level by default: the depth of a quick but sound move.
pub const DEFAULT_LEVEL: u32 = 10;
/// Seconds per move by default.
pub const DEFAULT_SECONDS: f64 = 3.0;
/// Longest time per move accepted, seconds (the console's `time`).
pub const MAX_SECONDS: f64 = crate::protocol::console::MAX_SECONDS;
/// The mark of a point forbidden to Black under renju.
pub const FORBIDDEN_MARK: char = '#';

/// The search table's header.
const TABLE_HEADER: &str =
    " depth | score  |   time   |   nodes    |    N/s     | principal variation";

/// Gomoku as the console plays it: the board, the moves taken back, and
/// the engine.
pub struct Gomoku {
    board: Board,
    /// Moves taken back, for `redo` (last taken back last).
    redo: Vec<usize>,
    engine: GomokuHost,
    stop: StopSignal,
    level: u32,
    /// Time per move (`None`: the level alone decides).
    time: Option<Duration>,
    threads: usize,
    /// The running search, and the depth of its last row printed.
    pending: Option<(Search, Option<u32>)>,
}

impl Gomoku {
    /// A game starting from `board`, searching on `engine` with the command
    /// line's `options`: its threads (every core by default), and its level
    /// (search depth) and time per move, each kept in the range its command
    /// accepts.
    pub(crate) fn with_board(board: Board, engine: GomokuHost, options: &EngineOptions) -> Gomoku {
        let mut game = Gomoku {
            board,
            redo: Vec::new(),
            stop: engine.engine().stop_signal(),
            engine,
            level: DEFAULT_LEVEL,
            time: Some(Duration::from_secs_f64(DEFAULT_SECONDS)),
            threads: options
                .threads
                .unwrap_or_else(default_threads)
                .clamp(1, MAX_THREADS),
            pending: None,
        };
        if let Some(depth) = options.depth {
            game.level = depth.clamp(1, MAX_LEVEL);
        }
        if let Some(turn) = options.time {
            let seconds = turn.as_secs_f64().clamp(0.01, MAX_SECONDS);
            game.time = Some(Duration::from_secs_f64(seconds));
        }
        game
    }

    fn limits(&self, search: Search) -> Limits {
        let mut limits = match self.time {
            Some(time) => Limits::for_time(time),
            None => Limits {
                vct: true,
                ..Limits::default()
            },
        };
        limits.depth = Some(self.level);
        limits.threads = self.threads;
        limits.score_root = matches!(search, Search::Hint(n) if n > 1);
        limits
    }

    /// The end of a search: the hint, or oxello's move played.
    fn finish(
        &mut self,
        search: Search,
        last_row: Option<u32>,
        result: SearchResult,
        out: &mut Vec<String>,
    ) -> Outcome {
        // With several threads the answer can come from a helper's deeper
        // iteration, which printed no row: its row comes now.
        if result.source == Source::Search && last_row.is_none_or(|depth| depth < result.depth) {
            out.push(progress_row(&Progress {
                depth: result.depth,
                score: result.score,
                nodes: result.nodes,
                elapsed: result.elapsed,
                pv: result.pv.clone(),
            }));
        }
        let stopped = self.stop.is_stopped();
        let Some(best) = result.best else {
            out.push("no move: the board is full".to_string());
            return Outcome::Nothing;
        };
        let how = match result.source {
            Source::Forced => "forced".to_string(),
            Source::Vcf => "a win by continuous fours (VCF)".to_string(),
            Source::Vct => "a win by continuous threats (VCT)".to_string(),
            Source::Search => format!("depth {}", result.depth),
        };
        match search {
            Search::Hint(n) => {
                let how = if stopped {
                    format!("{how} - stopped")
                } else {
                    how
                };
                out.push(format!("hint: {} ({how})", hint_moves(&result, best, n)));
                Outcome::Nothing
            }
            Search::Move => {
                let color = self.board.to_move();
                let _ = self.board.play(best);
                self.redo.clear();
                let stopped_words = if stopped {
                    " - stopped: the best move found so far"
                } else {
                    ""
                };
                out.push(format!(
                    "oxello plays {} for {} (score {}, {how}){stopped_words}",
                    format_pos(best),
                    title(color),
                    format_score(result.score),
                ));
                Outcome::Played { stopped }
            }
        }
    }
}

/// A hint's moves: the best, then (`hint n`) the next best by score:
/// `h8 +35, i9 +20`.
fn hint_moves(result: &SearchResult, best: Point, n: usize) -> String {
    ranked_moves(result, best)
        .into_iter()
        .take(n)
        .map(|(mv, score)| format!("{} {}", format_pos(mv), format_score(score)))
        .collect::<Vec<_>>()
        .join(", ")
}

impl ConsoleGame for Gomoku {
    const WORDS: GameWords = GameWords {
        move_example: "h8",
        play_example: "play h8 i9 (or h8i9)",
        new: (
            "new",
            "a new game (the board, rule and n in a row are set on the command line)",
        ),
        level: (
            "level [1-40]",
            "oxello's deepest search iteration (default 10)",
        ),
        default_time: "3 s",
    };
    const COMMANDS: &'static [CommandInfo] = &[];
    const NAME: &'static str = "gomoku";

    fn describe(&self) -> String {
        format!(
            "gomoku {}, oxello at level {}",
            describe_config(self.board.config()),
            self.level
        )
    }

    /// The centre point, where a game usually starts.
    fn move_example(&self) -> String {
        format_pos(Point::new(self.board.width() / 2, self.board.height() / 2))
    }

    fn is_moves(&self, text: &str) -> bool {
        text.split_whitespace()
            .all(|word| parse_moves(word).is_ok_and(|moves| !moves.is_empty()))
    }

    fn to_move(&self) -> Color {
        self.board.to_move()
    }

    fn over(&self) -> Option<String> {
        match self.board.status() {
            Status::Ongoing => None,
            status => Some(describe_status(status)),
        }
    }

    fn moves_played(&self) -> usize {
        self.board.history().len()
    }

    fn moves_to_redo(&self) -> usize {
        self.redo.len()
    }

    /// All or none, each checked: off the board, occupied, the game over,
    /// a point forbidden to Black under renju, or oxello's colour.
    fn play_moves(
        &mut self,
        text: &str,
        engine_plays: &dyn Fn(Color) -> bool,
    ) -> Result<(), ConsoleError> {
        let mut points = Vec::new();
        for word in text.split_whitespace() {
            match parse_moves(word) {
                Ok(moves) if !moves.is_empty() => points.extend(moves),
                _ => return fail(format!("'{word}' is not a move such as h8")),
            }
        }
        let mut board = self.board.clone();
        for p in points {
            let color = board.to_move();
            if board.status() == Status::Ongoing && engine_plays(color) {
                return fail(format!(
                    "{} would be oxello's move: oxello plays {}; 'go' lets it move, \
                     'mode 3' lets you play both sides",
                    format_pos(p),
                    title(color)
                ));
            }
            check_person_move(&board, p).map_err(ConsoleError)?;
            let _ = board.play(p);
        }
        self.board = board;
        self.redo.clear();
        Ok(())
    }

    fn undo(&mut self) -> bool {
        match self.board.undo() {
            Some(index) => {
                self.redo.push(index);
                true
            }
            None => false,
        }
    }

    fn redo(&mut self) -> bool {
        match self.redo.pop() {
            Some(index) => {
                self.board.play_index(index);
                true
            }
            None => false,
        }
    }

    fn new_game(&mut self, arguments: &str, out: &mut Vec<String>) -> Result<(), ConsoleError> {
        if !arguments.is_empty() {
            return fail(
                "'new' takes no argument: the board is set on the command line \
                 (--size, --rule, --n-in-row)",
            );
        }
        let config = self.board.config();
        self.board = Board::new(config).map_err(|error| ConsoleError(error.to_string()))?;
        self.redo.clear();
        out.push(format!("new game: {}", describe_config(config)));
        Ok(())
    }

    /// The board, its status and the moves played.
    fn board(&self, out: &mut Vec<String>) {
        out.extend(diagram(&self.board).lines().map(str::to_string));
        let status = match self.board.status() {
            Status::Ongoing => {
                let side = self.board.to_move();
                format!("{} ({}) to move", title(side), side.symbol())
            }
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

    fn level(&self) -> String {
        self.level.to_string()
    }

    fn set_level(&mut self, text: &str) -> Result<String, ConsoleError> {
        match text.parse::<u32>() {
            Ok(level) if (1..=MAX_LEVEL).contains(&level) => {
                self.level = level;
                Ok(level.to_string())
            }
            _ => fail(format!(
                "level {text}: give a search depth from 1 to {MAX_LEVEL}"
            )),
        }
    }

    fn time(&self) -> Option<Duration> {
        self.time
    }

    fn set_time(&mut self, time: Option<Duration>) {
        self.time = time;
    }

    fn threads(&self) -> usize {
        self.threads
    }

    fn set_threads(&mut self, threads: usize) {
        self.threads = threads;
    }

    fn think(&mut self, search: Search, out: &mut Vec<String>) {
        if search == Search::Move {
            out.push(format!(
                "oxello (level {}) thinks for {}...",
                self.level,
                title(self.board.to_move())
            ));
        }
        out.push(TABLE_HEADER.to_string());
        // A stop read ahead of this line raised the interrupt too, which
        // stops the new search as it starts (see `Host`).
        self.stop.reset();
        self.pending = Some((search, None));
        let limits = self.limits(search);
        self.engine.start(&self.board, limits);
    }

    fn event(&mut self, generation: u64, event: GameEvent, out: &mut Vec<String>) -> Outcome {
        match self.engine.accept(generation, event) {
            Some(Event::Progress(p)) => {
                if let Some((_, last_row)) = &mut self.pending {
                    *last_row = Some(p.depth);
                    out.push(progress_row(&p));
                }
                Outcome::Nothing
            }
            Some(Event::Finished(result)) => match self.pending.take() {
                Some((search, last_row)) => self.finish(search, last_row, result, out),
                None => Outcome::Nothing,
            },
            None => Outcome::Nothing,
        }
    }

    fn busy(&self) -> bool {
        self.pending.is_some()
    }

    fn searching(&self) -> bool {
        self.engine.is_active()
    }

    fn cancel(&mut self) {
        self.engine.cancel();
        self.pending = None;
    }

    fn interrupted(&self) -> bool {
        self.engine.interrupted()
    }

    fn stop_handled(&mut self) {
        self.stop.reset();
    }

    fn command(
        &mut self,
        name: &'static str,
        _: &str,
        _: &dyn Fn(Color) -> bool,
        _: &mut Vec<String>,
    ) -> Result<bool, ConsoleError> {
        fail(format!("'{name}' is not available"))
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
            "the game is over ({}); 'new' starts another",
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
        Status::Won(color) => format!("{} wins", title(color)),
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

/// One row of the search table; the rate is `-` until it can be measured.
fn progress_row(p: &Progress) -> String {
    let pv: Vec<String> = p.pv.iter().map(|&m| format_pos(m)).collect();
    let rate = nodes_per_second(p.nodes, p.elapsed)
        .map_or_else(|| "-".to_string(), |rate| rate.to_string());
    format!(
        "{:>6} | {:>6} | {:>8.3} | {:>10} | {:>10} | {}",
        p.depth,
        format_score(p.score),
        p.elapsed.as_secs_f64(),
        p.nodes,
        rate,
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
                Some(color) if last == Some(index) => color.symbol().to_ascii_lowercase(),
                Some(color) => color.symbol(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::engine::{DEFAULT_HASH_MIB, Engine};
    use crate::protocol::console::Console;
    use crate::protocol::{Flow, Handler, Input};
    use std::sync::mpsc::{self, Receiver};

    /// A console, and the channel its search events come back on.
    struct Tested {
        c: Console<Gomoku>,
        inbox: Receiver<Input>,
    }

    impl Tested {
        fn board(&self) -> &Board {
            &self.c.inner().board
        }

        fn history(&self) -> Vec<usize> {
            self.board().history().to_vec()
        }
    }

    fn game(config: Config) -> (Gomoku, Receiver<Input>) {
        let (events, inbox) = mpsc::channel();
        let board = Board::new(config).unwrap();
        let engine = Engine::new(DEFAULT_HASH_MIB, StopSignal::new());
        let host = GomokuHost::new(engine, events, Default::default());
        let options = EngineOptions {
            threads: Some(1),
            ..EngineOptions::default()
        };
        (Gomoku::with_board(board, host, &options), inbox)
    }

    fn console(config: Config) -> Tested {
        let (game, inbox) = game(config);
        Tested {
            c: Console::new(game),
            inbox,
        }
    }

    fn nine() -> Config {
        Config {
            width: 9,
            height: 9,
            ..Config::default()
        }
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
        let mut c = console(nine());
        run(&mut c, "level 2");
        run(&mut c, "time 0.2");
        let out = run(&mut c, "e5");
        assert!(!c.c.last_rejected(), "{out:?}");
        // oxello answered as White.
        assert_eq!(c.history().len(), 2, "{out:?}");
        assert!(out.iter().any(|l| l.starts_with("oxello plays")), "{out:?}");
        let before = c.history();
        // Occupied, off the board, not a move: refused, nothing changes.
        for bad in [
            "e5", "z1", "play", "level 0", "level 41", "time -1", "mode 7", "undo x", "undo 3",
            "redo", "new 9",
        ] {
            let out = run(&mut c, bad);
            assert!(c.c.last_rejected(), "{bad}: {out:?}");
            assert_eq!(out.len(), 1, "{bad}: {out:?}");
            assert!(out[0].starts_with("error:"), "{bad}: {out:?}");
            assert_eq!(c.history(), before, "{bad}");
        }
        // undo goes back to the person's turn: both moves.
        run(&mut c, "undo");
        assert!(c.history().is_empty());
        run(&mut c, "redo");
        assert_eq!(c.history(), before);
        // A move for oxello's colour is refused in mode 0...
        run(&mut c, "mode 3");
        run(&mut c, "a1 a2");
        assert_eq!(c.history().len(), 4);
        run(&mut c, "mode 0");
        // ...where Black (the person) is to move again.
        let out = run(&mut c, "b1 b2");
        assert!(c.c.last_rejected(), "{out:?}");
        assert!(out.iter().any(|l| l.contains("oxello's move")), "{out:?}");
        assert_eq!(c.history().len(), 4);
    }

    #[test]
    fn finds_a_win_and_reports_the_end() {
        let mut c = console(nine());
        run(&mut c, "mode 3");
        run(&mut c, "a1 a9 b1 b9 c1 c9 d1 d9");
        let out = run(&mut c, "hint");
        assert!(out.iter().any(|l| l.starts_with("hint: e1")), "{out:?}");
        run(&mut c, "e1");
        let out = run(&mut c, "board");
        assert!(out.iter().any(|l| l == "game over: Black wins"), "{out:?}");
        for line in ["f5", "go", "hint"] {
            let out = run(&mut c, line);
            assert!(c.c.last_rejected(), "{out:?}");
        }
    }

    #[test]
    fn hints_list_the_best_moves() {
        let mut c = console(nine());
        run(&mut c, "level 3");
        run(&mut c, "mode 3");
        run(&mut c, "e5 d4");
        let out = run(&mut c, "hint 3");
        let hint = out.iter().find(|l| l.starts_with("hint: ")).unwrap();
        assert_eq!(hint.matches(", ").count(), 2, "{hint}");
    }

    /// Defect 18 of issue 75: with two threads a helper's deeper iteration
    /// can be the answer; its depth gets a row before the summary.
    #[test]
    fn the_answers_depth_has_its_row() {
        let (mut game, _) = game(nine());
        let result = SearchResult {
            best: Some(Point::new(4, 4)),
            score: 12,
            depth: 9,
            nodes: 342,
            elapsed: Duration::from_micros(300),
            pv: vec![Point::new(4, 4), Point::new(3, 3)],
            source: Source::Search,
            root_scores: Vec::new(),
        };
        let mut out = Vec::new();
        game.finish(Search::Hint(1), Some(8), result.clone(), &mut out);
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(out[0].starts_with("     9 |"), "{out:?}");
        // 342 nodes in 0.3 ms: no rate.
        assert!(out[0].contains("|          - | e5 d4"), "{out:?}");
        assert_eq!(out[1], "hint: e5 +12 (depth 9)");
        out.clear();
        game.finish(Search::Hint(1), Some(9), result, &mut out);
        assert_eq!(out, ["hint: e5 +12 (depth 9)"]);
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
        let board = c.board();
        assert_eq!(
            board.foul(Point::new(8, 7).index()),
            Some(Foul::DoubleThree)
        );
        let forbidden: Vec<Point> = board
            .points()
            .iter()
            .filter(|&&index| board.is_forbidden(index))
            .map(|&index| Point::from_index(index))
            .collect();
        let text = diagram(board);
        assert_eq!(
            text.matches(FORBIDDEN_MARK).count(),
            forbidden.len(),
            "{text}"
        );
        assert!(!forbidden.is_empty(), "{text}");
        let before = c.history();
        let out = run(&mut c, &format_pos(forbidden[0]));
        assert!(c.c.last_rejected(), "{out:?}");
        assert!(
            out.iter().any(|l| l.contains("forbidden to Black")),
            "{out:?}"
        );
        assert_eq!(c.history(), before);
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
            "hint 2",
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
                let before = c.history();
                let (flow, out) = send(&mut c, &line);
                if flow == Flow::Quit {
                    continue;
                }
                if c.c.last_rejected() {
                    assert_eq!(c.history(), before, "{line:?}: {out:?}");
                    let errors = out.iter().filter(|l| l.starts_with("error: ")).count();
                    assert_eq!(errors, 1, "{line:?}: {out:?}");
                }
            }
        }
    }
}
