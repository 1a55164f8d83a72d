//! The console for people, modelled on Edax's: play against the engine or a
//! simple player, look for hints, analyse a game, solve a position.
//!
//! After every change the board is printed with the legal moves marked, the
//! disc counts and the side to move. Forced passes are played by themselves.
//! While the engine thinks, a table shows each completed iteration:
//!
//! ```text
//!  depth|score|       time   |  nodes (N)  |   N/s    | principal variation
//! ------+-----+--------------+-------------+----------+----------------------
//!      8   -02       0:00.002         23480    8292527  f6 e6 f4 e3 c5 c6 d6 e7
//!   100%  >+02       0:01.234      12345678   10004601  c4 e3 f6
//! ```
//!
//! The score is the side to move's disc difference, after a bound marker
//! (`>` at least, `<` at most, blank exact). Errors are one line starting
//! with `error:` and leave the game as it was. Lines typed while the engine
//! thinks wait their turn, `quit` and the end of input included (a game of
//! `mode 2` is played out first); `stop` ends the search the moment it is
//! typed (the engine plays the best move found so far and waits for the next
//! command). See [`COMMANDS`] (or type `help`) for the
//! commands.
//!
//! `mode` says who plays which colour: 0 you Black against oxello, 1 oxello
//! Black against you, 2 oxello against itself (the game is played out), 3
//! (the default) people on both sides, oxello moving only on `go`. A move
//! typed for a colour oxello plays is refused, even while oxello waits (after
//! `stop`, `undo` or `redo`): `go` lets it move.

mod commands;

use commands::fail;
pub use commands::{
    COMMANDS, Command, CommandInfo, ConsoleError, MAX_PERFT_DEPTH, PlayMode, TABLE_HEADER,
    format_score, format_time, help_lines, parse, table_row,
};

use crate::analysis::{self, Analyser, AnalysisOptions, GameInfo};
use crate::bitboard::squares;
use crate::color::Color;
use crate::diagram::diagram;
use crate::engine::{DEFAULT_LEVEL, GoRequest, Level, Player, SearchEvent};
use crate::formats::ggf::GgfGame;
use crate::formats::spec;
use crate::formats::transcript::{self, Token};
use crate::game::Game;
use crate::moves::Move;
use crate::perft::{self, PassConvention};
use crate::protocol::GameEvent;
use crate::protocol::host::SearchHost;
use crate::protocol::{Flow, Handler};
use crate::search::{Depth, Report, SearchResult, SolveMode, StopReason};
use std::time::Instant;

/// What the running search is for.
#[derive(Debug)]
enum Task {
    /// The engine chooses the move to play.
    Play,
    Hint,
    Solve,
    Analyze(Box<Analysis>),
}

/// An `analyze` in progress: the library's analysis, its searches run by the
/// engine one at a time.
#[derive(Debug)]
struct Analysis {
    analyser: Analyser,
    started: Instant,
}

/// The console handler.
pub(crate) struct Console {
    host: SearchHost,
    game: Game,
    mode: PlayMode,
    /// No automatic engine move until the next command (after `stop`,
    /// `undo`).
    paused: bool,
    /// The level hints, solves and analyses use while a simple player is
    /// chosen: the last search level set.
    search_level: Level,
    task: Option<Task>,
    rejected: bool,
}

fn title(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

impl Console {
    pub fn new(host: SearchHost) -> Console {
        let search_level = match host.engine().options().player {
            Player::Level(level) => level,
            Player::Simple(_) => Level::new(DEFAULT_LEVEL),
        };
        Console {
            search_level,
            game: host.engine().game().clone(),
            host,
            mode: PlayMode::HumanBoth,
            paused: false,
            task: None,
            rejected: false,
        }
    }

    fn print_board(&self, out: &mut Vec<String>) {
        out.extend(diagram(&self.game.position()).lines().map(str::to_string));
        if !self.game.moves().is_empty() {
            out.push(format!(
                "ply {}: {}",
                self.game.moves().len(),
                transcript::format_game(&self.game)
            ));
        }
    }

    /// After any change: forced passes, the board, then the engine's move
    /// when it is its turn.
    fn after_change(&mut self, out: &mut Vec<String>) {
        while self.game.position().must_pass() {
            let side = self.game.position().side;
            if self.game.play(Move::Pass).is_err() {
                break;
            }
            out.push(format!("{} has no legal move and passes.", title(side)));
        }
        self.print_board(out);
        let position = self.game.position();
        if self.paused || position.is_game_over() || !self.mode.engine_plays(position.side) {
            return;
        }
        if self.host.interrupted() {
            // A stop was read while the last move was being found: wait for
            // the next command.
            self.paused = true;
            return;
        }
        self.start(Task::Play, GoRequest::default(), out);
    }

    /// Starts a search of the current game. Hints and solves search even
    /// when a simple player is chosen (analyses search with their own limits).
    fn start(&mut self, task: Task, request: GoRequest, out: &mut Vec<String>) {
        let player = self.host.engine().options().player;
        let swap = matches!(player, Player::Simple(_)) && !matches!(task, Task::Play);
        if swap {
            let level = Player::Level(self.search_level);
            self.host.engine_mut().set_player(level);
        }
        if matches!(task, Task::Play) {
            out.push(format!(
                "oxello ({}) thinks for {}...",
                player,
                title(self.game.position().side)
            ));
        }
        out.extend(TABLE_HEADER.iter().map(|line| line.to_string()));
        self.host.start(&self.game, request);
        if swap {
            self.host.engine_mut().set_player(player);
        }
        self.task = Some(task);
    }

    /// The midgame depth of hints, solves and analyses.
    fn search_depth(&self) -> u32 {
        let options = self.host.engine().options();
        let level = match options.player {
            Player::Level(level) => level,
            Player::Simple(_) => self.search_level,
        };
        options.depth.unwrap_or(level.midgame_depth)
    }

    fn execute(&mut self, command: Command, out: &mut Vec<String>) -> Result<Flow, ConsoleError> {
        match command {
            Command::New(size) => {
                self.game = Game::new(size.unwrap_or(self.game.size()));
                self.after_change(out);
            }
            Command::SetBoard(position) => {
                self.game = Game::from_position(position);
                self.after_change(out);
            }
            Command::Play(tokens) => {
                let mut game = self.game.clone();
                for (number, token) in tokens.iter().enumerate() {
                    self.play_for_person(&mut game, *token)
                        .map_err(|e| ConsoleError(format!("move {}: {}", number + 1, e.0)))?;
                }
                self.game = game;
                self.after_change(out);
            }
            Command::Move(token) => {
                let mut game = self.game.clone();
                self.play_for_person(&mut game, token)?;
                self.game = game;
                self.after_change(out);
            }
            Command::Undo => {
                self.undo()?;
                self.paused = true;
                self.print_board(out);
            }
            Command::Redo => {
                self.redo()?;
                self.paused = true;
                self.print_board(out);
            }
            Command::Go => {
                self.ensure_not_over()?;
                self.start(Task::Play, GoRequest::default(), out);
            }
            Command::Hint(n) => {
                self.ensure_not_over()?;
                let request = GoRequest {
                    multi_pv: n,
                    ..GoRequest::default()
                };
                self.start(Task::Hint, request, out);
            }
            Command::Level(None) => {
                out.push(format!("level: {}", self.host.engine().options().player))
            }
            Command::Level(Some(player)) => {
                if let Player::Level(level) = player {
                    self.search_level = level;
                }
                self.host.engine_mut().set_player(player);
                out.push(format!("level: {player}"));
            }
            Command::Threads(None) => {
                let options = self.host.engine().options();
                out.push(format!("threads: {}", options.search_threads(false)));
            }
            Command::Threads(Some(n)) => {
                self.host.engine_mut().set_threads(Some(n));
                out.push(format!("threads: {n}"));
            }
            Command::Mode(None) => out.push(self.mode.to_string()),
            Command::Mode(Some(mode)) => {
                self.mode = mode;
                out.push(mode.to_string());
                self.after_change(out);
            }
            Command::Analyze => self.analyze(out)?,
            Command::Solve => {
                self.ensure_not_over()?;
                let request = GoRequest {
                    solve: Some(SolveMode::Exact),
                    ..GoRequest::default()
                };
                self.start(Task::Solve, request, out);
            }
            Command::Perft(depth) => {
                let position = self.game.position();
                let started = Instant::now();
                let leaves = perft::perft(
                    position.board,
                    position.size,
                    depth,
                    PassConvention::PassIsPly,
                );
                let seconds = started.elapsed().as_secs_f64();
                out.push(format!(
                    "perft {depth}: {leaves} leaves in {seconds:.3} s ({:.0} leaves/s)",
                    leaves as f64 / seconds.max(1e-9)
                ));
            }
            Command::Load(path) => {
                let game =
                    spec::read_game(&path, self.game.size()).map_err(|error| match error {
                        // A file error names the file itself.
                        spec::SpecError::File(error) => ConsoleError(format!("load: {error}")),
                        error => ConsoleError(format!("load {path}: {error}")),
                    })?;
                self.game = game;
                out.push(format!("loaded {path}"));
                self.after_change(out);
            }
            Command::Save(path) => {
                let record = self.record();
                std::fs::write(&path, format!("{record}\n"))
                    .map_err(|error| ConsoleError(format!("cannot write {path}: {error}")))?;
                out.push(format!("saved the game to {path}"));
            }
            Command::Board => self.print_board(out),
            Command::Stop => {
                // The reader stopped the search the moment it read the line;
                // by now its answer has been handled.
                self.paused = true;
                self.host.stop();
            }
            Command::Help => out.extend(help_lines()),
            Command::Quit => {
                self.host.cancel();
                self.task = None;
                return Ok(Flow::Quit);
            }
        }
        Ok(Flow::Continue)
    }

    /// Plays a move the person typed on `game`. A move of a colour the
    /// engine plays is refused (it is the engine's to choose, even while it
    /// waits after `stop`, `undo` or `redo`); on error `game` is unchanged.
    fn play_for_person(&self, game: &mut Game, token: Token) -> Result<(), ConsoleError> {
        let position = game.position();
        // A square is played after the pass it may force: its mover is then
        // the other colour.
        let mover = match token {
            Token::Square(_) if position.must_pass() => position.side.opponent(),
            _ => position.side,
        };
        if !position.is_game_over() && self.mode.engine_plays(mover) {
            return fail(format!(
                "oxello plays {} in mode {}; 'go' lets it move, 'mode 3' lets you play both sides",
                title(mover),
                self.mode.number()
            ));
        }
        play_token(game, token)
    }

    fn ensure_not_over(&self) -> Result<(), ConsoleError> {
        if self.game.is_over() {
            fail("the game is over; 'new' starts another")
        } else {
            Ok(())
        }
    }

    /// The game as a GGF record, players named after the mode.
    fn record(&self) -> GgfGame {
        let engine = format!("oxello-{}", self.host.engine().options().player);
        let name = |color| {
            if self.mode.engine_plays(color) {
                engine.clone()
            } else {
                "human".to_string()
            }
        };
        let mut record =
            GgfGame::from_game(&self.game).with_players(&name(Color::Black), &name(Color::White));
        record.place = "oxello".to_string();
        record
    }

    /// Takes back one move and the passes before it; against the engine,
    /// back to a position where the person is on move.
    fn undo(&mut self) -> Result<(), ConsoleError> {
        if self.game.moves().is_empty() {
            return fail("nothing to undo");
        }
        let mut game = self.game.clone();
        let back_one = |game: &mut Game| {
            while game.undo().is_some() {
                if !game.position().must_pass() {
                    break;
                }
            }
        };
        back_one(&mut game);
        let against_engine = matches!(self.mode, PlayMode::HumanBlack | PlayMode::HumanWhite);
        if against_engine
            && self.mode.engine_plays(game.position().side)
            && !game.moves().is_empty()
        {
            back_one(&mut game);
        }
        self.game = game;
        Ok(())
    }

    /// Replays moves taken back, the same way `undo` took them.
    fn redo(&mut self) -> Result<(), ConsoleError> {
        let mut game = self.game.clone();
        if game.redo().is_none() {
            return fail("nothing to redo");
        }
        while game.position().must_pass() && game.redo().is_some() {}
        let against_engine = matches!(self.mode, PlayMode::HumanBlack | PlayMode::HumanWhite);
        if against_engine && self.mode.engine_plays(game.position().side) && game.redo().is_some() {
            while game.position().must_pass() && game.redo().is_some() {}
        }
        self.game = game;
        Ok(())
    }

    /// How the console analyses: as deep as the level plays (or `--depth`),
    /// solving exactly from the level's exact-solve empties, at the
    /// selectivity of `--selectivity` or the level's.
    fn analysis_options(&self) -> AnalysisOptions {
        let options = self.host.engine().options();
        let level = match options.player {
            Player::Level(level) => level,
            Player::Simple(_) => self.search_level,
        };
        AnalysisOptions {
            depth: Some(self.search_depth()),
            time: options.time,
            exact_from: level.exact_empties,
            hash_mib: options.hash_mib,
            threads: options.search_threads(false),
            selectivity: options.selectivity.unwrap_or(level.selectivity),
        }
    }

    fn analyze(&mut self, out: &mut Vec<String>) -> Result<(), ConsoleError> {
        if self.game.moves().is_empty() {
            return fail("no moves to analyse yet");
        }
        let options = self.analysis_options();
        out.push(format!(
            "analysing {} moves from the last one back (depth {}, exact from {} empties); 'stop' ends it",
            self.game.moves().len(),
            options.depth.unwrap_or_default(),
            options.exact_from
        ));
        let analysis = Analysis {
            analyser: Analyser::new(&self.game, options),
            started: Instant::now(),
        };
        self.task = Some(Task::Analyze(Box::new(analysis)));
        self.advance_analysis(None, out);
        Ok(())
    }

    /// Takes the result of the last analysis search (if any) and starts the
    /// next one, or prints the table: of every move when done, of the moves
    /// analysed so far when stopped.
    fn advance_analysis(&mut self, result: Option<SearchResult>, out: &mut Vec<String>) {
        let Some(Task::Analyze(mut analysis)) = self.task.take() else {
            return;
        };
        let mut stopped = self.host.interrupted();
        if let Some(result) = result {
            if result.stopped == Some(StopReason::Signal) {
                // An unfinished search says nothing sure about its move.
                stopped = true;
            } else {
                analysis.analyser.record(&result);
            }
        }
        let next = if stopped {
            None
        } else {
            analysis.analyser.next_search()
        };
        if let Some(search) = next {
            self.host.start_limits(search.position, search.limits);
            self.task = Some(Task::Analyze(analysis));
            return;
        }
        let info = GameInfo::default();
        let mut result = analysis.analyser.analysis();
        if let Some(book) = self.host.engine().book() {
            analysis::mark_book(&mut result, book);
        }
        let table = analysis::format_table(&info, &result);
        out.extend(table.lines().map(str::to_string));
        let elapsed = format_time(analysis.started.elapsed());
        out.push(if stopped {
            format!(
                "analysis stopped after {}: the last {} of {} moves analysed",
                elapsed,
                analysis.analyser.done(),
                analysis.analyser.total()
            )
        } else {
            format!("analysis done in {elapsed}")
        });
    }

    fn finished(&mut self, result: SearchResult, out: &mut Vec<String>) {
        match self.task.take() {
            Some(Task::Play) => {
                if result.stopped == Some(StopReason::Signal) {
                    self.paused = true;
                }
                let Some(mv) = result.best else {
                    self.print_board(out);
                    return;
                };
                let side = self.game.position().side;
                match self.game.play(mv) {
                    Ok(()) if mv.is_pass() => {
                        out.push(format!("oxello passes for {}.", title(side)))
                    }
                    Ok(()) => out.push(format!(
                        "oxello plays {mv} for {} (score {:+}, {})",
                        title(side),
                        result.score,
                        depth_words(result.depth)
                    )),
                    Err(error) => log::error!("oxello: the search chose an illegal move: {error}"),
                }
                self.after_change(out);
            }
            Some(Task::Hint) => {
                let text = if result.lines.is_empty() {
                    result.best.map(|mv| mv.to_string()).unwrap_or_default()
                } else {
                    hint_text(&result.lines)
                };
                out.push(format!("hint: {text}"));
            }
            Some(Task::Solve) => {
                let mv = result.best.map(|mv| mv.to_string()).unwrap_or_default();
                let verdict = match result.depth {
                    Depth::Exact if result.stopped.is_none() => "exact",
                    _ => "not finished",
                };
                out.push(format!(
                    "solve: best {mv}, score {:+} ({verdict}) in {}",
                    result.score,
                    format_time(result.elapsed)
                ));
            }
            Some(task @ Task::Analyze(_)) => {
                self.task = Some(task);
                self.advance_analysis(Some(result), out);
            }
            None => {}
        }
    }
}

/// How deep a result looked, in words.
fn depth_words(depth: Depth) -> String {
    match depth {
        Depth::Midgame(..) => format!("depth {}", depth.label()),
        Depth::Probable {
            selectivity, mode, ..
        } => match mode {
            SolveMode::Exact => format!("probable solve ({selectivity})"),
            SolveMode::Wld => format!("probable win/loss/draw ({selectivity})"),
        },
        Depth::Exact => "exact".to_string(),
        Depth::Wld => "win/loss/draw".to_string(),
    }
}

/// The lines of a hint: `c4 +1, c3 +1, c5 -2 (depth 8)`. A search stopped
/// early can leave lines of different depths, some only bounds (`>+6`): each
/// line then says how deep it looked, so that no bound passes for a score.
fn hint_text(lines: &[Report]) -> String {
    let same_depth = lines.windows(2).all(|pair| pair[0].depth == pair[1].depth);
    let parts: Vec<String> = lines
        .iter()
        .map(|line| {
            let marker = line.bound.marker().to_string();
            let text = format!("{} {}{:+}", line.best(), marker.trim(), line.score);
            if same_depth {
                text
            } else {
                format!("{text} ({})", depth_words(line.depth))
            }
        })
        .collect();
    match lines.first() {
        Some(first) if same_depth => format!("{} ({})", parts.join(", "), depth_words(first.depth)),
        _ => parts.join(", "),
    }
}

/// Plays a token on `game`, a square passing first when the side to move is
/// blocked; on error `game` is unchanged.
fn play_token(game: &mut Game, token: Token) -> Result<(), ConsoleError> {
    let position = game.position();
    if position.is_game_over() {
        return fail("the game is over; 'new' starts another");
    }
    let played = match token {
        Token::Pass => game.play(Move::Pass),
        Token::Square(square) => game.play_implicit(square).map(|_| ()),
    };
    played.map_err(|error| {
        let legal: Vec<String> = squares(position.legal_moves())
            .map(|s| s.to_string())
            .collect();
        let legal = if legal.is_empty() {
            "pass".to_string()
        } else {
            legal.join(" ")
        };
        ConsoleError(format!("{error} (legal: {legal})"))
    })
}

impl Handler for Console {
    fn start(&mut self, out: &mut Vec<String>) {
        out.push(format!(
            "oxello {}: type a move such as f5 to play it, 'mode 0' to play Black against oxello, 'help' for more.",
            env!("CARGO_PKG_VERSION")
        ));
        self.print_board(out);
    }

    fn line(&mut self, line: &str, out: &mut Vec<String>) -> Flow {
        self.rejected = true;
        let command = match parse(line) {
            Ok(Some(command)) => command,
            Ok(None) => return Flow::Continue,
            Err(error) => {
                out.push(error.to_string());
                return Flow::Continue;
            }
        };
        if command != Command::Stop {
            self.paused = false;
        }
        let interrupts = matches!(command, Command::Stop | Command::Quit);
        if !interrupts && self.task.is_some() {
            // Lines wait while a search runs, so this only happens when a
            // session is driven by hand; finish the search first.
            self.host.cancel();
            self.task = None;
        }
        match self.execute(command, out) {
            Ok(flow) => {
                self.rejected = false;
                flow
            }
            Err(error) => {
                out.push(error.to_string());
                Flow::Continue
            }
        }
    }

    fn too_long(&mut self, bytes: usize, out: &mut Vec<String>) -> Flow {
        self.rejected = true;
        out.push(
            ConsoleError(format!("that line is too long ({bytes} bytes), ignored")).to_string(),
        );
        Flow::Continue
    }

    fn event(&mut self, generation: u64, event: GameEvent, out: &mut Vec<String>) -> Flow {
        let Some(event) = self.host.accept(generation, event) else {
            return Flow::Continue;
        };
        match event {
            SearchEvent::Progress(report) => {
                if matches!(self.task, Some(Task::Play | Task::Hint | Task::Solve)) {
                    out.push(table_row(&report));
                }
            }
            SearchEvent::Finished(result) => self.finished(result, out),
        }
        Flow::Continue
    }

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

    fn ctrl_c_line(&self) -> Option<&'static str> {
        Some("stop")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineOptions;
    use crate::players::SimplePlayer;
    use crate::protocol::{Mode, Session};

    fn session(player: Player) -> Session {
        let options = EngineOptions {
            hash_mib: 2,
            player,
            ..EngineOptions::default()
        };
        Session::new(Mode::Console, options)
    }

    #[test]
    fn plays_a_game_out_against_itself() {
        let mut console = session(Player::Level(Level::new(1)));
        let out = console.send("mode 2");
        assert!(console.game().unwrap().is_over(), "{out:?}");
        assert!(out.iter().any(|l| l.contains("game over")), "{out:?}");
        let out = console.send("analyze");
        assert!(out.iter().any(|l| l.starts_with("Black: ")), "{out:?}");
    }

    #[test]
    fn errors_leave_the_game_alone() {
        let mut console = session(Player::Simple(SimplePlayer::Greedy));
        console.send("f5");
        let before = console.game().unwrap().clone();
        for line in [
            "a1",
            "play d6 a1",
            "setboard xyz",
            "redo",
            "load /nonexistent/file",
        ] {
            let out = console.send(line);
            assert_eq!(out.len(), 1, "{line}: {out:?}");
            assert!(out[0].starts_with("error: "), "{line}: {out:?}");
            assert_eq!(console.game().unwrap(), &before, "{line}");
        }
        console.send("undo");
        assert_eq!(console.game().unwrap().moves().len(), 0);
        console.send("redo");
        assert_eq!(console.game().unwrap(), &before);
    }

    #[test]
    fn hints_of_a_stopped_search_say_how_deep_each_line_looked() {
        use crate::search::Bound;
        let line = |square: &str, depth: u32, score: i32, bound: Bound| Report {
            rank: 0,
            depth: Depth::plies(depth),
            score,
            bound,
            pv: vec![Move::Place {
                square: square.parse().unwrap(),
                flips: 0,
            }],
            nodes: 0,
            elapsed: std::time::Duration::ZERO,
        };
        let complete = [
            line("c4", 8, 1, Bound::Exact),
            line("c3", 8, -2, Bound::Exact),
        ];
        assert_eq!(hint_text(&complete), "c4 +1, c3 -2 (depth 8)");
        let stopped = [
            line("c4", 9, 6, Bound::Lower),
            line("c3", 8, 1, Bound::Exact),
        ];
        assert_eq!(hint_text(&stopped), "c4 >+6 (depth 9), c3 +1 (depth 8)");
    }

    #[test]
    fn a_move_for_the_engines_colour_is_refused() {
        let mut console = session(Player::Simple(SimplePlayer::Greedy));
        console.send("f5");
        console.send("undo");
        console.send("mode 0");
        // `redo` pauses the engine: White, oxello's colour, is to move.
        console.send("redo");
        let before = console.game().unwrap().clone();
        assert_eq!(before.position().side, Color::White);
        for line in ["d6", "play d6", "pass"] {
            let out = console.send(line);
            assert_eq!(out.len(), 1, "{line}: {out:?}");
            assert!(
                out[0].starts_with("error: ") && out[0].contains("go"),
                "{line}: {out:?}"
            );
            assert_eq!(console.game().unwrap(), &before, "{line}");
        }
        // A sequence may not hold a move of oxello's either.
        console.send("go");
        let before = console.game().unwrap().clone();
        let mut game = before.clone();
        let mut sequence = Vec::new();
        for _ in 0..2 {
            let mv = game.position().move_list()[0];
            sequence.push(mv.to_string());
            game.play(mv).unwrap();
        }
        let play = format!("play {}", sequence.join(" "));
        let out = console.send(&play);
        assert!(out[0].starts_with("error: move 2"), "{out:?}");
        assert_eq!(console.game().unwrap(), &before);
        console.send("mode 3");
        let out = console.send(&play);
        assert!(out.iter().all(|l| !l.starts_with("error")), "{out:?}");
        assert_eq!(console.game().unwrap(), &game);
    }

    #[test]
    fn human_against_greedy_player() {
        let mut console = session(Player::Simple(SimplePlayer::Greedy));
        console.send("mode 0");
        while !console.game().unwrap().is_over() {
            let position = console.game().unwrap().position();
            assert_eq!(position.side, Color::Black);
            let square = squares(position.legal_moves()).next().unwrap();
            let out = console.send(&square.to_string());
            assert!(out.iter().all(|l| !l.starts_with("error")), "{out:?}");
        }
    }
}
