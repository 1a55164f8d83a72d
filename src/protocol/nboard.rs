//! The NBoard protocol, version 2 (the NBoard GUI by Chris Welty; version 1
//! is accepted too).
//!
//! The GUI precedes every request with `ping N` and drops every line printed
//! before the matching `pong N`; so `ping` stops the running search the
//! moment it is read, and nothing of that search is printed after `pong`.
//! Other lines wait while a request (`go`, `hint`, `analyze`) runs, so a
//! script that pipes its commands gets the same answers as a GUI that waits
//! for them; `stop` also ends the running request early.
//!
//! | Command | Reply |
//! |---|---|
//! | `nboard 2` | `set myname oxello12` |
//! | `set depth 12` | `set myname oxello12` (the level: midgame depth, solves a few more empties; the name gives the depth in use, `--depth` included) |
//! | `set game (;GM[Othello]...;)` | none; every pass and clock of the GGF record is applied |
//! | `set contempt 0` | none (stored; the search has no contempt yet) |
//! | `set myname NAME` | `set myname NAME`: the name given to the GUI from now on |
//! | `move F5[/eval[/time]]`, or a bare `F5` (version 1) | none |
//! | `hint 4` | first `book F5-D6-C3 0.00 5210 20` (pv, eval, games, depth) per book move, best first; then `search F5-D6-C3 0.00 0 12` per other move and completed depth, then `nodestats` |
//! | `go` | `nodestats 12345 0.12` then `=== F5/0.00/0.12`; `=== PA` at once when a pass is forced; the board is not changed |
//! | `ping 7` | `pong 7` |
//! | `learn` | `learned`: the game is appended as GGF to [`crate::protocol::Settings::learn_file`] and added to the user's book: the `--book` file, else `oxello-learned.book` (see [`crate::engine::Engine::learn`]) |
//! | `analyze` | `analysis <movesMade> <eval>` for every position, from the end back, then `nodestats` |
//! | `stop` | ends the running search early (its answer still comes) |
//! | `clear` | empties the transposition table |
//! | `quit` | exits |
//!
//! Evals are discs with two decimals, from the side to move's view; times
//! are seconds; no number is ever printed in exponent notation. Depth tokens
//! are `12` (midgame), `100%W` (win/loss/draw solve) or `100%` (exact). A
//! line that is not an NBoard command is ignored, as the protocol asks; a
//! known command that cannot be read gets a `status` line and changes
//! nothing.

mod commands;

pub use commands::{Command, CommandError, MoveSpec, ParseMoveError, Response, format_pv, parse};

use crate::color::Color;
use crate::engine::{GoRequest, Level, Player, SearchEvent};
use crate::formats::ggf::{GgfGame, GgfMove, GgfResult};
use crate::formats::transcript::Token;
use crate::game::Game;
use crate::moves::Move;
use crate::protocol::GameEvent;
use crate::protocol::host::SearchHost;
use crate::protocol::{Flow, Handler};
use crate::search::{Clock, Depth, SearchResult, StopReason};
use std::io::Write as _;
use std::path::PathBuf;
use std::time::Duration;

/// What the running search is for.
#[derive(Debug)]
enum Task {
    Go,
    /// A hint; `passed` when the side to move must pass (PVs start `PA`,
    /// evals are negated), `lines` printed so far.
    Hint {
        passed: bool,
        lines: usize,
    },
    Analyze(Analysis),
}

/// An `analyze` in progress: positions still to do (popped from the end)
/// and the one being searched.
#[derive(Debug)]
struct Analysis {
    todo: Vec<usize>,
    current: usize,
    negate: bool,
    nodes: u64,
    elapsed: Duration,
}

/// The NBoard handler.
pub(crate) struct Nboard {
    host: SearchHost,
    game: Game,
    /// The record of the game: metadata, clocks and one entry per move of
    /// `game` (passes explicit) with the GUI's evals and times.
    record: GgfGame,
    contempt: i32,
    name: Option<String>,
    learn_file: PathBuf,
    task: Option<Task>,
    rejected: bool,
}

impl Nboard {
    pub fn new(host: SearchHost, learn_file: PathBuf) -> Nboard {
        let game = host.engine().game().clone();
        Nboard {
            record: GgfGame::from_game(&game),
            game,
            host,
            contempt: 0,
            name: None,
            learn_file,
            task: None,
            rejected: false,
        }
    }

    /// The name given to the GUI unless set: `oxello<depth>` with the
    /// midgame depth in use (`--depth` overrides the level's, as NTest and
    /// Edax name themselves after `set depth`), `oxello-<player>` for a
    /// simple player.
    fn my_name(&self) -> String {
        if let Some(name) = &self.name {
            return name.clone();
        }
        let options = self.host.engine().options();
        match options.player {
            Player::Level(level) => {
                format!("oxello{}", options.depth.unwrap_or(level.midgame_depth))
            }
            Player::Simple(player) => format!("oxello-{player}"),
        }
    }

    /// Stops the running search and forgets its output.
    fn cancel(&mut self) {
        self.host.cancel();
        self.task = None;
    }

    fn execute(&mut self, command: Command, out: &mut Vec<String>) -> Result<Flow, String> {
        match command {
            Command::Nboard(version) => {
                if !(1..=2).contains(&version) {
                    log::warn!("oxello: NBoard protocol version {version}; speaking version 2");
                }
                out.push(Response::MyName(self.my_name()).to_string());
            }
            Command::SetDepth(depth) => {
                let engine = self.host.engine_mut();
                if matches!(engine.options().player, Player::Level(_)) {
                    engine.set_player(Player::Level(Level::new(depth)));
                    engine.set_depth(None);
                } else {
                    engine.set_depth(Some(depth.min(crate::engine::MAX_LEVEL)));
                }
                out.push(Response::MyName(self.my_name()).to_string());
            }
            Command::SetGame(record) => self.set_game(*record)?,
            Command::SetContempt(contempt) => self.contempt = contempt,
            Command::SetMyName(name) => {
                self.name = Some(name);
                out.push(Response::MyName(self.my_name()).to_string());
            }
            Command::SetOther(variable) => {
                log::debug!("oxello: ignored 'set {variable}'");
            }
            Command::Move(spec) => self.play(spec)?,
            Command::Hint(n) => self.hint(n, out),
            Command::Go => self.go(out)?,
            Command::Ping(n) => {
                self.cancel();
                out.push(Response::Pong(n).to_string());
            }
            Command::Learn => self.learn(out)?,
            Command::Analyze => {
                self.cancel();
                let todo: Vec<usize> = (0..=self.game.moves().len()).collect();
                self.task = Some(Task::Analyze(Analysis {
                    todo,
                    current: 0,
                    negate: false,
                    nodes: 0,
                    elapsed: Duration::ZERO,
                }));
                self.advance_analysis(out);
            }
            Command::Quit => {
                self.cancel();
                return Ok(Flow::Quit);
            }
            Command::Clear => {
                self.cancel();
                self.host.engine_mut().clear_table();
            }
            Command::Stop => self.host.stop(),
        }
        Ok(Flow::Continue)
    }

    fn set_game(&mut self, record: GgfGame) -> Result<(), String> {
        let game = record
            .to_game()
            .map_err(|error| format!("set game: {error}"))?;
        let expected = record
            .moves
            .last()
            .map_or(record.start.side, |mv| mv.color.opponent());
        if game.position().side != expected {
            return Err(format!(
                "set game: {} would be on move after the record, {} is",
                expected,
                game.position().side
            ));
        }
        self.cancel();
        let moves = aligned_moves(&game, &record.moves);
        self.record = GgfGame { moves, ..record };
        self.game = game;
        Ok(())
    }

    fn play(&mut self, spec: MoveSpec) -> Result<(), String> {
        let mut game = self.game.clone();
        let played = match spec.token {
            Token::Pass => game.play(Move::Pass),
            Token::Square(square) => game.play_implicit(square).map(|_| ()),
        };
        played.map_err(|error| format!("move: {error}"))?;
        self.cancel();
        let before = self.game.moves().len();
        for (index, (position, mv)) in game.positions().iter().zip(game.moves()).enumerate() {
            if index < before {
                continue;
            }
            let mut record = GgfMove::new(position.side, token_of(*mv));
            if index + 1 == game.moves().len() {
                record.eval = spec.eval;
                record.time = spec.time;
            }
            self.record.moves.push(record);
        }
        self.game = game;
        Ok(())
    }

    fn hint(&mut self, n: usize, out: &mut Vec<String>) {
        self.cancel();
        let position = self.game.position();
        if position.is_game_over() {
            out.push(Response::Status("oxello: the game is over".to_string()).to_string());
            return;
        }
        let mut searched = self.game.clone();
        let passed = position.must_pass();
        if passed {
            let _ = searched.play(Move::Pass);
        }
        // A forced pass is the one move: its value is that of the best reply
        // (the GUI keeps one hint per move, so a second line would overwrite
        // the pass's value with a worse reply's).
        let wanted = if passed { 1 } else { n.clamp(1, 64) };
        let (given, excluded) = self.book_hints(&searched.position(), passed, wanted, out);
        let legal = searched.position().legal_moves();
        if given >= wanted || (given > 0 && legal & !excluded == 0) {
            // The book gave every line: no search, and no nodes.
            let stats = Response::NodeStats {
                nodes: 0,
                seconds: 0.0,
            };
            out.push(stats.to_string());
            return;
        }
        let request = GoRequest {
            multi_pv: wanted - given,
            excluded,
            ..GoRequest::default()
        };
        self.host.start(&searched, request);
        self.task = Some(Task::Hint { passed, lines: 0 });
    }

    /// The `book` lines of the best `wanted` book moves of `position` (the
    /// position after the pass when `passed`), with the line the book
    /// expects after each; returns their number and their squares.
    fn book_hints(
        &self,
        position: &crate::position::Position,
        passed: bool,
        wanted: usize,
        out: &mut Vec<String>,
    ) -> (usize, u64) {
        let Some(book) = self.host.engine().book() else {
            return (0, 0);
        };
        let moves = book.moves(position).unwrap_or_default();
        let mut excluded = 0;
        let mut given = 0;
        for mv in moves.iter().filter(|m| m.in_book).take(wanted) {
            let mut pv = book.line(position, mv.mv, BOOK_HINT_PLIES);
            let mut eval = f64::from(mv.value.score);
            if passed {
                pv.insert(0, Move::Pass);
                eval = -eval;
            }
            let line = Response::Book {
                pv,
                eval,
                games: mv.games,
                depth: mv.value.search_depth(position.empty_count()),
            };
            out.push(line.to_string());
            excluded |= mv.mv.square().map_or(0, |s| s.bit());
            given += 1;
        }
        (given, excluded)
    }

    fn go(&mut self, out: &mut Vec<String>) -> Result<(), String> {
        self.cancel();
        let position = self.game.position();
        if position.is_game_over() {
            return Err("go: the game is over".to_string());
        }
        if position.must_pass() {
            let best = Response::Best {
                mv: Move::Pass,
                eval: None,
                seconds: None,
            };
            out.push(best.to_string());
            return Ok(());
        }
        let request = GoRequest {
            clock: self.clock(position.side),
            ..GoRequest::default()
        };
        log::debug!(
            "oxello: go with clock {:?}, contempt {} (not used by the search)",
            request.clock,
            self.contempt
        );
        self.host.start(&self.game, request);
        self.task = Some(Task::Go);
        Ok(())
    }

    /// The game clock of `side` from the record: main time plus increments
    /// minus the time of its moves, the grace period once the main time is
    /// gone. `None` when the game is untimed.
    fn clock(&self, side: Color) -> Option<Clock> {
        let setting = match side {
            Color::Black => self.record.black_clock,
            Color::White => self.record.white_clock,
        }
        .unwrap_or(self.record.clock);
        if setting.main <= 0.0 && setting.increment <= 0.0 {
            return None;
        }
        // Only timed moves were played on the clock: the untimed moves of an
        // opening (an XOT line) earned no increment. Counting them gave the
        // engine 4 increments too many in XOT games (0.2 s of a 6+0.05 s
        // clock), which it then spent past the referee's clock.
        let timed = self
            .record
            .moves
            .iter()
            .filter(|mv| mv.color == side)
            .filter_map(|mv| mv.time);
        let (count, used) = timed.fold((0u32, 0.0f64), |(count, used), time| {
            (count + 1, used + time)
        });
        let mut remaining = setting.main + setting.increment * f64::from(count) - used;
        if remaining <= 0.0 {
            remaining += setting.grace.unwrap_or(DEFAULT_GRACE_SECONDS);
        }
        Some(Clock {
            remaining: Duration::from_secs_f64(remaining.clamp(0.0, 1e9)),
            increment: Duration::from_secs_f64(setting.increment.clamp(0.0, 1e9)),
            moves_to_go: None,
        })
    }

    /// Appends the game to the learn file as GGF, then adds it to the
    /// user's book: the `--book` file, else the learn file's name with the
    /// extension `.book` (`oxello-learned.book`), created from the book in
    /// use. Its new positions are searched at the level's depth before the
    /// answer (see [`crate::engine::Engine::learn`]), and the engine plays
    /// from that book from then on.
    fn learn(&mut self, out: &mut Vec<String>) -> Result<(), String> {
        self.cancel();
        let mut record = self.record.clone();
        record.result = self.game.final_score_black().map(|score| GgfResult {
            score: f64::from(score),
            flag: None,
        });
        if record.place.is_empty() {
            record.place = "oxello".to_string();
        }
        let path = &self.learn_file;
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut file| writeln!(file, "{record}"));
        if let Err(error) = written {
            return Err(format!("learn: cannot write {}: {error}", path.display()));
        }
        let book_path = match &self.host.engine().options().book {
            crate::book::BookSource::File(path) => path.clone(),
            _ => self.learn_file.with_extension("book"),
        };
        let engine = self.host.engine_mut();
        engine.set_game(self.game.clone());
        match engine.learn(&book_path) {
            Ok(learned) => {
                log::info!(
                    "oxello: learned the game into {}: {} new positions, {} searches, {} positions",
                    book_path.display(),
                    learned.added,
                    learned.searched,
                    learned.positions
                );
                out.push(Response::Learned.to_string());
                Ok(())
            }
            Err(error) => Err(format!("learn: book {}: {error}", book_path.display())),
        }
    }

    /// Starts the next search of an `analyze`, printing the positions that
    /// need none (game over); ends it when all are done.
    fn advance_analysis(&mut self, out: &mut Vec<String>) {
        loop {
            let Some(Task::Analyze(analysis)) = &mut self.task else {
                return;
            };
            let Some(index) = analysis.todo.pop() else {
                let stats = Response::NodeStats {
                    nodes: analysis.nodes,
                    seconds: analysis.elapsed.as_secs_f64(),
                };
                out.push(stats.to_string());
                self.task = None;
                return;
            };
            let mut game = self.game.clone();
            game.truncate(index);
            let position = game.position();
            if position.is_game_over() {
                let eval = f64::from(position.board.final_score_on(position.size));
                let line = Response::Analysis {
                    moves_made: index,
                    eval,
                };
                out.push(line.to_string());
                continue;
            }
            analysis.current = index;
            analysis.negate = position.must_pass();
            if analysis.negate {
                let _ = game.play(Move::Pass);
            }
            self.host.start(&game, GoRequest::default());
            return;
        }
    }

    fn finished(&mut self, result: SearchResult, out: &mut Vec<String>) {
        let stats = Response::NodeStats {
            nodes: result.nodes,
            seconds: result.elapsed.as_secs_f64(),
        };
        match self.task.take() {
            Some(Task::Go) => {
                out.push(stats.to_string());
                let best = Response::Best {
                    mv: result.best.unwrap_or(Move::Pass),
                    eval: Some(f64::from(result.score)),
                    seconds: Some(result.elapsed.as_secs_f64()),
                };
                out.push(best.to_string());
            }
            Some(Task::Hint { passed, lines }) => {
                if lines == 0 && result.best.is_some() {
                    out.push(hint_line(passed, &result.pv, result.score, result.depth));
                }
                out.push(stats.to_string());
            }
            Some(Task::Analyze(mut analysis)) => {
                let sign = if analysis.negate { -1.0 } else { 1.0 };
                let line = Response::Analysis {
                    moves_made: analysis.current,
                    eval: sign * f64::from(result.score),
                };
                out.push(line.to_string());
                analysis.nodes += result.nodes;
                analysis.elapsed += result.elapsed;
                if result.stopped == Some(StopReason::Signal) {
                    analysis.todo.clear();
                }
                self.task = Some(Task::Analyze(analysis));
                self.advance_analysis(out);
            }
            None => {}
        }
    }
}

/// Longest line a `book` hint shows: the move and the book's expected
/// answers.
const BOOK_HINT_PLIES: usize = 8;

/// Extra time after the main time when the record names none (NBoard's
/// reader assumes the same).
const DEFAULT_GRACE_SECONDS: f64 = 120.0;

fn hint_line(passed: bool, pv: &[Move], score: i32, depth: Depth) -> String {
    let (pv, eval) = if passed {
        let mut full = vec![Move::Pass];
        full.extend_from_slice(pv);
        (full, -f64::from(score))
    } else {
        (pv.to_vec(), f64::from(score))
    };
    Response::Search { pv, eval, depth }.to_string()
}

fn token_of(mv: Move) -> Token {
    match mv.square() {
        Some(square) => Token::Square(square),
        None => Token::Pass,
    }
}

/// One record entry per move of `game`: the written entry when it is that
/// move (keeping its eval and time), a bare one for a pass the record left
/// out.
fn aligned_moves(game: &Game, written: &[GgfMove]) -> Vec<GgfMove> {
    let mut written = written.iter().peekable();
    game.positions()
        .iter()
        .zip(game.moves())
        .map(|(position, mv)| {
            let token = token_of(*mv);
            written
                .next_if(|entry| entry.color == position.side && entry.token == token)
                .copied()
                .unwrap_or_else(|| GgfMove::new(position.side, token))
        })
        .collect()
}

impl Handler for Nboard {
    fn line(&mut self, line: &str, out: &mut Vec<String>) -> Flow {
        self.rejected = true;
        let command = match parse(line) {
            Ok(command) => command,
            Err(CommandError::Unknown(word)) => {
                if !word.is_empty() {
                    log::debug!("oxello: ignored unknown command '{word}'");
                }
                return Flow::Continue;
            }
            Err(error) => {
                out.push(Response::Status(format!("oxello: {error}")).to_string());
                return Flow::Continue;
            }
        };
        match self.execute(command, out) {
            Ok(flow) => {
                self.rejected = false;
                flow
            }
            Err(message) => {
                out.push(Response::Status(format!("oxello: {message}")).to_string());
                Flow::Continue
            }
        }
    }

    fn too_long(&mut self, bytes: usize, out: &mut Vec<String>) -> Flow {
        self.rejected = true;
        let text = format!("oxello: line of {bytes} bytes too long, ignored");
        out.push(Response::Status(text).to_string());
        Flow::Continue
    }

    fn event(&mut self, generation: u64, event: GameEvent, out: &mut Vec<String>) -> Flow {
        let Some(event) = self.host.accept(generation, event) else {
            return Flow::Continue;
        };
        match event {
            SearchEvent::Progress(report) => {
                if let Some(Task::Hint { passed, lines }) = &mut self.task {
                    *lines += 1;
                    out.push(hint_line(*passed, &report.pv, report.score, report.depth));
                }
            }
            SearchEvent::Finished(result) => self.finished(result, out),
        }
        Flow::Continue
    }

    /// A request (`go`, `hint`, `analyze`) holds the lines after it until
    /// it is answered; `ping` and `stop` end it the moment they are read.
    fn busy(&self) -> bool {
        self.task.is_some()
    }

    fn working(&self) -> bool {
        self.host.is_active()
    }

    fn game(&self) -> Option<&Game> {
        Some(&self.game)
    }

    fn last_rejected(&self) -> bool {
        self.rejected
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineOptions;
    use crate::protocol::{Mode, Session, Settings};

    const START_BO: &str = "8 ---------------------------O*------*O--------------------------- *";

    fn session(level: u32) -> Session {
        let options = EngineOptions {
            hash_mib: 2,
            player: Player::Level(Level::new(level)),
            ..EngineOptions::default()
        };
        let settings = Settings {
            learn_file: std::env::temp_dir()
                .join(format!("oxello-nboard-unit-{}.ggf", std::process::id())),
            interactive: false,
            ..Settings::default()
        };
        Session::with_settings(Mode::Nboard, options, settings)
    }

    #[test]
    fn go_does_not_change_the_board_and_ping_answers() {
        let mut nboard = session(2);
        assert_eq!(nboard.send("nboard 2"), vec!["set myname oxello2"]);
        assert_eq!(nboard.send("set depth 3"), vec!["set myname oxello3"]);
        let game = format!("set game (;GM[Othello]PC[NBoard]TI[0]TY[8]BO[{START_BO}]B[F5];)");
        assert!(nboard.send(&game).is_empty());
        assert_eq!(nboard.send("ping 1"), vec!["pong 1"]);
        let reply = nboard.send("go");
        assert_eq!(reply.len(), 2, "{reply:?}");
        assert!(reply[0].starts_with("nodestats "));
        assert!(reply[1].starts_with("=== "));
        assert_eq!(nboard.game().unwrap().moves().len(), 1);
        let hints = nboard.send("hint 3");
        let searches: Vec<_> = hints.iter().filter(|l| l.starts_with("search ")).collect();
        assert_eq!(searches.len(), 9, "{hints:?}");
        assert!(searches.iter().take(3).all(|l| l.ends_with(" 0 1")));
        assert!(hints.last().unwrap().starts_with("nodestats "));
    }

    #[test]
    fn bad_lines_get_status_and_change_nothing() {
        let mut nboard = session(1);
        nboard.send("move F5");
        let before = nboard.game().unwrap().clone();
        for line in [
            "move A1",
            "move F5",
            "set game (;GM[Othello]B[A1];)",
            "set depth x",
            "hint -1",
            "\u{0}\u{1}",
        ] {
            let reply = nboard.send(line);
            assert_eq!(reply.len(), 1, "{line}: {reply:?}");
            assert!(reply[0].starts_with("status "), "{line}: {reply:?}");
            assert!(nboard.last_rejected());
            assert_eq!(nboard.game().unwrap(), &before);
        }
        assert!(nboard.send("what is this").is_empty());
        assert!(nboard.send_too_long(100_000)[0].starts_with("status "));
    }

    /// A game of random moves that reaches a forced pass, stopped there.
    fn game_to_a_pass() -> Game {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        loop {
            let mut game = Game::new(crate::bitboard::BoardSize::Eight);
            while !game.is_over() {
                if game.position().must_pass() {
                    return game;
                }
                let moves = game.position().move_list();
                game.play(moves[rng.random_range(0..moves.len())]).unwrap();
            }
        }
    }

    #[test]
    fn forced_pass_answers_pa_at_once() {
        let game = game_to_a_pass();
        let mut nboard = session(2);
        let record = GgfGame::from_game(&game);
        assert!(nboard.send(&format!("set game {record}")).is_empty());
        assert!(nboard.game().unwrap().position().must_pass());
        assert_eq!(nboard.send("go"), vec!["=== PA"]);
        // One line a depth, the pass's, whatever the count asked.
        let hints = nboard.send("hint 3");
        let searches: Vec<&str> = hints
            .iter()
            .filter_map(|l| l.strip_prefix("search "))
            .collect();
        let depths: Vec<&str> = searches
            .iter()
            .map(|l| l.rsplit(' ').next().unwrap_or(""))
            .collect();
        let distinct: std::collections::BTreeSet<&&str> = depths.iter().collect();
        assert!(!searches.is_empty(), "{hints:?}");
        assert_eq!(distinct.len(), depths.len(), "{hints:?}");
        assert!(searches.iter().all(|l| l.starts_with("PA-")), "{hints:?}");
        // A NaN eval (Novello's, for a pass) does not lose the move.
        assert_eq!(nboard.send("move PA/NaN/0.5"), Vec::<String>::new());
        let mut passed = game.clone();
        passed.play(Move::Pass).unwrap();
        assert_eq!(nboard.game().unwrap(), &passed);
        // The record with its trailing pass is replayed with the pass.
        let record = GgfGame::from_game(&passed);
        assert!(nboard.send(&format!("set game {record}")).is_empty());
        assert_eq!(nboard.game().unwrap().position(), passed.position());
    }

    #[test]
    fn clocks_come_from_the_record() {
        let (sender, _receiver) = std::sync::mpsc::channel();
        let engine = crate::engine::Engine::new(EngineOptions {
            hash_mib: 1,
            ..EngineOptions::default()
        });
        let mut nboard = Nboard::new(
            SearchHost::new(engine, sender, Default::default()),
            PathBuf::new(),
        );
        let text =
            format!("set game (;GM[Othello]TI[5:00/2]TY[8]BO[{START_BO}]B[F5//10.5]W[D6//3];)");
        let mut out = Vec::new();
        nboard.line(&text, &mut out);
        assert!(out.is_empty() && !nboard.last_rejected(), "{out:?}");
        let black = nboard.clock(Color::Black).unwrap();
        assert!((black.remaining.as_secs_f64() - (300.0 + 2.0 - 10.5)).abs() < 1e-6);
        nboard.line("move C3//400", &mut out);
        let black = nboard.clock(Color::Black).unwrap();
        assert!((black.remaining.as_secs_f64() - (304.0 - 410.5 + 120.0)).abs() < 1e-6);
        // The untimed moves of an opening earn no increment.
        let text = format!(
            "set game (;GM[Othello]TI[5:00/2]TY[8]BO[{START_BO}]B[F5]W[D6]B[C3//1]W[D3//1];)"
        );
        nboard.line(&text, &mut out);
        let black = nboard.clock(Color::Black).unwrap();
        assert!(
            (black.remaining.as_secs_f64() - (300.0 + 2.0 - 1.0)).abs() < 1e-6,
            "{black:?} {out:?}"
        );
        nboard.line("set game (;GM[Othello]TI[0]B[F5//10.5];)", &mut out);
        assert_eq!(nboard.clock(Color::White), None);
    }
}
