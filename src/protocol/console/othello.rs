//! Othello at the console: the board with legal moves marked, moves such
//! as `f5` (passes forced by the rules are played by themselves), and
//! Othello's own commands: `setboard`, `analyze`, `solve`, `perft`,
//! `load` and `save`. While oxello thinks, a table shows each completed
//! iteration:
//!
//! ```text
//!  depth|score|       time   |  nodes (N)  |   N/s    | principal variation
//! ------+-----+--------------+-------------+----------+----------------------
//!      8   -02       0:00.002         23480    8292527  f6 e6 f4 e3 c5 c6 d6 e7
//!   100%  >+02       0:01.234      12345678   10004601  c4 e3 f6
//! ```
//!
//! The score is the side to move's disc difference, after a bound marker
//! (`>` at least, `<` at most, blank exact); the rate is left out (`-`)
//! while too little time has passed to measure it.

use super::commands::{CommandInfo, ConsoleError, GameWords, fail, title};
use super::{ConsoleGame, Outcome, Search};
use crate::analysis::{self, Analyser, AnalysisOptions, GameInfo};
use crate::bitboard::{BoardSize, squares};
use crate::color::Color;
use crate::diagram::diagram_with_last;
use crate::engine::{DEFAULT_LEVEL, EngineOptions, GoRequest, Level, Player, SearchEvent};
use crate::formats::board_string;
use crate::formats::ggf::GgfGame;
use crate::formats::spec;
use crate::formats::transcript::{self, Token};
use crate::game::Game;
use crate::moves::Move;
use crate::perft::{self, PassConvention};
use crate::protocol::host::SearchHost;
use crate::protocol::{GameEvent, nodes_per_second};
use crate::search::{Depth, Report, SearchResult, SolveMode, StopReason, solve_cost};
use std::time::{Duration, Instant};

/// Othello's own commands, listed by `help` after the shared ones.
const COMMANDS: &[CommandInfo] = &[
    CommandInfo {
        names: &["setboard"],
        usage: "setboard <64 squares> <side>",
        help: "new game from a position (X/* black, O white, - empty)",
    },
    CommandInfo {
        names: &["analyze", "analyse", "a"],
        usage: "analyze",
        help: "score every move against the best, mistakes (?) and blunders (??)",
    },
    CommandInfo {
        names: &["solve"],
        usage: "solve",
        help: "exact score of the position by searching to the end",
    },
    CommandInfo {
        names: &["perft"],
        usage: "perft <depth>",
        help: "count the move sequences of a depth (passes are plies)",
    },
    CommandInfo {
        names: &["load", "open", "o"],
        usage: "load <file>",
        help: "load a game (GGF, transcript or board string)",
    },
    CommandInfo {
        names: &["save", "s"],
        usage: "save <file>",
        help: "save the game as GGF",
    },
];

/// Deepest `perft` the console runs (deeper counts take hours).
pub const MAX_PERFT_DEPTH: u32 = 12;

/// What the running search is for.
#[derive(Debug)]
enum Task {
    /// oxello chooses the move to play.
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

/// Othello as the console plays it: the game and the engine's host.
pub(crate) struct Othello {
    host: SearchHost,
    game: Game,
    /// The level hints, solves and analyses use while a simple player is
    /// chosen: the last search level set.
    search_level: Level,
    task: Option<Task>,
}

impl Othello {
    pub fn new(host: SearchHost) -> Othello {
        let search_level = match host.engine().options().player {
            Player::Level(level) => level,
            Player::Simple(_) => Level::new(DEFAULT_LEVEL),
        };
        Othello {
            search_level,
            game: host.engine().game().clone(),
            host,
            task: None,
        }
    }

    /// The engine's host, given back.
    pub fn into_host(self) -> SearchHost {
        self.host
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
                player_words(self.host.engine().options()),
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
        options
            .depth
            .unwrap_or(self.level_or_search().midgame_depth)
    }

    /// The level, or the last search level while a simple player plays.
    fn level_or_search(&self) -> Level {
        match self.host.engine().options().player {
            Player::Level(level) => level,
            Player::Simple(_) => self.search_level,
        }
    }

    /// Says how long a solve of the current position should take when that
    /// is long, and refuses one out of reach (8x8 only: the estimate was
    /// fitted there).
    fn announce_solve(&self, out: &mut Vec<String>) -> Result<(), ConsoleError> {
        let position = self.game.position();
        if position.size != BoardSize::Eight {
            return Ok(());
        }
        let empties = position.empty_count();
        let threads = self.host.engine().options().search_threads(false);
        let seconds = solve_cost::expected_seconds(empties, SolveMode::Exact, threads);
        let estimate = format!(
            "{} (a rough estimate)",
            solve_cost::announcement(empties, seconds, threads)
        );
        if empties > solve_cost::HOPELESS_EMPTIES {
            return fail(format!(
                "solve: {estimate}: an exact solve is out of reach; 'hint' or 'analyze' gives a \
                 score, and 'solve' finishes from about 30 empties"
            ));
        }
        if seconds >= solve_cost::ANNOUNCE_SECONDS {
            out.push(format!("solve: {estimate}; 'stop' or Ctrl-C ends it"));
        }
        Ok(())
    }

    fn ensure_not_over(&self) -> Result<(), ConsoleError> {
        if self.game.is_over() {
            fail("the game is over; 'new' starts another")
        } else {
            Ok(())
        }
    }

    /// The game as a GGF record, players named after the mode.
    fn record(&self, engine_plays: &dyn Fn(Color) -> bool) -> GgfGame {
        let engine = format!("oxello-{}", self.host.engine().options().player);
        let name = |color| {
            if engine_plays(color) {
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

    /// How the console analyses: as deep as the level plays (or `--depth`),
    /// solving exactly from the level's exact-solve empties, at the
    /// selectivity of `--selectivity` or the level's.
    fn analysis_options(&self) -> AnalysisOptions {
        let options = self.host.engine().options();
        let level = self.level_or_search();
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

    fn finished(&mut self, result: SearchResult, out: &mut Vec<String>) -> Outcome {
        let stopped = result.stopped == Some(StopReason::Signal);
        match self.task.take() {
            Some(Task::Play) => {
                let Some(mv) = result.best else {
                    return Outcome::Nothing;
                };
                let side = self.game.position().side;
                let how = if stopped {
                    " - stopped: the best move found so far"
                } else {
                    ""
                };
                match self.game.play(mv) {
                    Ok(()) if mv.is_pass() => {
                        out.push(format!("oxello passes for {}.", title(side)))
                    }
                    Ok(()) => out.push(format!(
                        "oxello plays {mv} for {}{} (score {:+}, {}){how}",
                        title(side),
                        if result.book { " from its book" } else { "" },
                        result.score,
                        depth_words(result.depth)
                    )),
                    Err(error) => {
                        log::error!("oxello: the search chose an illegal move: {error}");
                        return Outcome::Nothing;
                    }
                }
                return Outcome::Played { stopped };
            }
            Some(Task::Hint) => {
                let text = if result.lines.is_empty() {
                    result.best.map(|mv| mv.to_string()).unwrap_or_default()
                } else {
                    hint_text(&result.lines)
                };
                let how = if stopped { " - stopped" } else { "" };
                out.push(format!("hint: {text}{how}"));
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
        Outcome::Nothing
    }
}

impl ConsoleGame for Othello {
    const WORDS: GameWords = GameWords {
        move_example: "f5",
        play_example: "play f5d6c3",
        new: ("new [4|6|8]", "a new game from the standard position"),
        level: (
            "level [1-60|random|greedy|positional]",
            "oxello's strength: a search level or a simple player (default 12)",
        ),
        default_time: "no limit, the level decides",
    };
    const COMMANDS: &'static [CommandInfo] = COMMANDS;
    const NAME: &'static str = "Othello";

    fn describe(&self) -> String {
        let n = self.game.size().n();
        let player = self.host.engine().options().player;
        let preposition = if matches!(player, Player::Level(_)) {
            "at"
        } else {
            "as"
        };
        format!(
            "Othello {n}x{n}, oxello {preposition} {}",
            player_words(self.host.engine().options())
        )
    }

    fn is_moves(&self, text: &str) -> bool {
        transcript::tokenize(text).is_ok_and(|tokens| !tokens.is_empty())
    }

    fn to_move(&self) -> Color {
        self.game.position().side
    }

    fn over(&self) -> Option<String> {
        let score = self.game.final_score_black()?;
        Some(match score {
            0 => "a draw".to_string(),
            s if s > 0 => format!("Black wins by {s}"),
            s => format!("White wins by {}", -s),
        })
    }

    fn moves_played(&self) -> usize {
        self.game.moves().iter().filter(|mv| !mv.is_pass()).count()
    }

    fn moves_to_redo(&self) -> usize {
        let mut game = self.game.clone();
        std::iter::from_fn(|| game.redo())
            .filter(|mv| !mv.is_pass())
            .count()
    }

    fn play_moves(
        &mut self,
        text: &str,
        engine_plays: &dyn Fn(Color) -> bool,
    ) -> Result<(), ConsoleError> {
        let tokens = transcript::tokenize(text).map_err(|error| ConsoleError(error.to_string()))?;
        let mut game = self.game.clone();
        for (number, (_, token)) in tokens.iter().enumerate() {
            play_for_person(&mut game, *token, engine_plays).map_err(|error| {
                if tokens.len() > 1 {
                    ConsoleError(format!("move {}: {}", number + 1, error.0))
                } else {
                    error
                }
            })?;
        }
        self.game = game;
        Ok(())
    }

    /// One move, with the passes it forced (a pass goes with the move
    /// before it).
    fn undo(&mut self) -> bool {
        let mut undone = false;
        while let Some(mv) = self.game.undo() {
            undone |= !mv.is_pass();
            if undone && !self.game.position().must_pass() {
                break;
            }
        }
        undone
    }

    fn redo(&mut self) -> bool {
        if self.game.redo().is_none() {
            return false;
        }
        while self.game.position().must_pass() && self.game.redo().is_some() {}
        true
    }

    fn new_game(&mut self, arguments: &str, _: &mut Vec<String>) -> Result<(), ConsoleError> {
        let size = match arguments {
            "" => self.game.size(),
            size => size
                .parse::<BoardSize>()
                .map_err(|error| ConsoleError(error.to_string()))?,
        };
        self.game = Game::new(size);
        Ok(())
    }

    fn forced_passes(&mut self, out: &mut Vec<String>) {
        while self.game.position().must_pass() {
            let side = self.game.position().side;
            if self.game.play(Move::Pass).is_err() {
                break;
            }
            out.push(format!("{} has no legal move and passes.", title(side)));
        }
    }

    fn board(&self, out: &mut Vec<String>) {
        let last = self.game.moves().iter().rev().find_map(|mv| mv.square());
        out.extend(
            diagram_with_last(&self.game.position(), last)
                .lines()
                .map(str::to_string),
        );
        if !self.game.moves().is_empty() {
            // A transcript leaves passes out: a game of passes only has none.
            let moves = transcript::format_game(&self.game);
            let moves = if moves.is_empty() { "pass" } else { &moves };
            out.push(format!("ply {}: {moves}", self.game.moves().len()));
        }
    }

    fn level(&self) -> String {
        self.host.engine().options().player.to_string()
    }

    fn set_level(&mut self, text: &str) -> Result<String, ConsoleError> {
        let player = text
            .parse::<Player>()
            .map_err(|error| ConsoleError(error.to_string()))?;
        if let Player::Level(level) = player {
            self.search_level = level;
        }
        self.host.engine_mut().set_player(player);
        Ok(player.to_string())
    }

    fn time(&self) -> Option<Duration> {
        self.host.engine().options().time
    }

    fn set_time(&mut self, time: Option<Duration>) {
        self.host.engine_mut().set_time(time);
    }

    fn threads(&self) -> usize {
        self.host.engine().options().search_threads(false)
    }

    fn set_threads(&mut self, threads: usize) {
        self.host.engine_mut().set_threads(Some(threads));
    }

    fn think(&mut self, search: Search, out: &mut Vec<String>) {
        match search {
            Search::Move => self.start(Task::Play, GoRequest::default(), out),
            Search::Hint(n) => {
                let request = GoRequest {
                    multi_pv: n,
                    ..GoRequest::default()
                };
                self.start(Task::Hint, request, out);
            }
        }
    }

    fn event(&mut self, generation: u64, event: GameEvent, out: &mut Vec<String>) -> Outcome {
        let Some(event) = self.host.accept(generation, event) else {
            return Outcome::Nothing;
        };
        match event {
            SearchEvent::Progress(report) => {
                if matches!(self.task, Some(Task::Play | Task::Hint | Task::Solve)) {
                    out.push(table_row(&report));
                }
                Outcome::Nothing
            }
            SearchEvent::Finished(result) => self.finished(result, out),
        }
    }

    fn busy(&self) -> bool {
        self.task.is_some()
    }

    fn searching(&self) -> bool {
        self.host.is_active()
    }

    fn cancel(&mut self) {
        self.host.cancel();
        self.task = None;
    }

    fn interrupted(&self) -> bool {
        self.host.interrupted()
    }

    fn command(
        &mut self,
        name: &'static str,
        rest: &str,
        engine_plays: &dyn Fn(Color) -> bool,
        out: &mut Vec<String>,
    ) -> Result<bool, ConsoleError> {
        let no_argument = || {
            if rest.is_empty() {
                Ok(())
            } else {
                fail(format!("'{name}' takes no argument"))
            }
        };
        match name {
            "setboard" if rest.is_empty() => {
                return fail("setboard what? give 64 squares (X, O, -) and the side to move");
            }
            "setboard" => {
                let position = board_string::parse_position(rest)
                    .map_err(|error| ConsoleError(format!("setboard: {error}")))?;
                self.game = Game::from_position(position);
                return Ok(true);
            }
            "analyze" => {
                no_argument()?;
                self.analyze(out)?;
            }
            "solve" => {
                no_argument()?;
                self.ensure_not_over()?;
                self.announce_solve(out)?;
                let request = GoRequest {
                    solve: Some(SolveMode::Exact),
                    ..GoRequest::default()
                };
                self.start(Task::Solve, request, out);
            }
            "perft" => {
                let depth = match rest.parse::<u32>() {
                    Ok(depth) if (1..=MAX_PERFT_DEPTH).contains(&depth) => depth,
                    _ => return fail(format!("perft: give a depth from 1 to {MAX_PERFT_DEPTH}")),
                };
                let position = self.game.position();
                let started = Instant::now();
                let leaves = perft::perft(
                    position.board,
                    position.size,
                    depth,
                    PassConvention::PassIsPly,
                );
                let rate = nodes_per_second(leaves, started.elapsed())
                    .map(|rate| format!(" ({rate} leaves/s)"))
                    .unwrap_or_default();
                out.push(format!(
                    "perft {depth}: {leaves} leaves in {:.3} s{rate}",
                    started.elapsed().as_secs_f64()
                ));
            }
            "load" | "save" if rest.is_empty() => return fail(format!("{name} which file?")),
            "load" => {
                let game =
                    spec::read_game(rest, self.game.size()).map_err(|error| match error {
                        // A file error names the file itself.
                        spec::SpecError::File(error) => ConsoleError(format!("load: {error}")),
                        error => ConsoleError(format!("load {rest}: {error}")),
                    })?;
                self.game = game;
                out.push(format!("loaded {rest}"));
                return Ok(true);
            }
            "save" => {
                let record = self.record(engine_plays);
                std::fs::write(rest, format!("{record}\n"))
                    .map_err(|error| ConsoleError(format!("cannot write {rest}: {error}")))?;
                out.push(format!("saved the game to {rest}"));
            }
            other => return fail(format!("'{other}' is not available")),
        }
        Ok(false)
    }

    fn othello(&self) -> Option<&Game> {
        Some(&self.game)
    }
}

/// Who oxello is, in words: `level 12`, `level 12, depth 2`, `level 12,
/// 1.5 s a move`, `the greedy player`.
fn player_words(options: &EngineOptions) -> String {
    match options.player {
        Player::Level(level) => {
            let mut words = format!("level {}", level.level);
            if let Some(depth) = options.depth {
                words.push_str(&format!(", depth {depth}"));
            }
            if let Some(time) = options.time {
                words.push_str(&format!(", {} s a move", time.as_secs_f64()));
            }
            words
        }
        Player::Simple(simple) => format!("the {simple} player"),
    }
}

/// Plays a move the person typed on `game`. A move of a colour oxello
/// plays is refused (it is oxello's to choose, even while it waits after
/// `stop`, `undo` or `redo`); on error `game` is unchanged.
fn play_for_person(
    game: &mut Game,
    token: Token,
    engine_plays: &dyn Fn(Color) -> bool,
) -> Result<(), ConsoleError> {
    let position = game.position();
    // A square is played after the pass it may force: its mover is then
    // the other colour.
    let mover = match token {
        Token::Square(_) if position.must_pass() => position.side.opponent(),
        _ => position.side,
    };
    if !position.is_game_over() && engine_plays(mover) {
        return fail(format!(
            "oxello plays {}: 'go' lets it move, 'mode 3' lets you play both sides",
            title(mover)
        ));
    }
    play_token(game, token)
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

/// The table header printed when a search starts.
pub const TABLE_HEADER: [&str; 2] = [
    " depth|score|       time   |  nodes (N)  |   N/s    | principal variation",
    "------+-----+--------------+-------------+----------+----------------------",
];

/// `M:SS.mmm`, or `H:MM:SS.mmm` from an hour.
pub fn format_time(elapsed: Duration) -> String {
    let millis = elapsed.as_millis();
    let (seconds, millis) = (millis / 1000, millis % 1000);
    let (minutes, seconds) = (seconds / 60, seconds % 60);
    if minutes >= 60 {
        format!(
            "{}:{:02}:{seconds:02}.{millis:03}",
            minutes / 60,
            minutes % 60
        )
    } else {
        format!("{minutes}:{seconds:02}.{millis:03}")
    }
}

/// A score with its bound marker: `>+04`, ` -12`, `<+00`.
pub fn format_score(report: &Report) -> String {
    format!("{}{:+03}", report.bound.marker(), report.score)
}

/// One row of the search table; the rate is `-` until it can be measured.
pub fn table_row(report: &Report) -> String {
    let pv: Vec<String> = report.pv.iter().map(|mv| mv.to_string()).collect();
    let rate = nodes_per_second(report.nodes, report.elapsed)
        .map_or_else(|| "-".to_string(), |rate| rate.to_string());
    let row = format!(
        "{:>6} {:>5} {:>14} {:>13} {:>10}  {}",
        report.depth.to_string(),
        format_score(report),
        format_time(report.elapsed),
        report.nodes,
        rate,
        pv.join(" ")
    );
    row.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
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
        console.send("mode 3");
        console.send("f5");
        let before = console.game().unwrap().clone();
        for line in [
            "a1",
            "play d6 a1",
            "setboard xyz",
            "redo",
            "undo 2",
            "load /nonexistent/file",
            "perft 99",
            "new 7",
            "solve x",
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
            elapsed: Duration::ZERO,
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
        console.send("mode 3");
        console.send("f5");
        console.send("undo");
        console.send("mode 0");
        // `redo` pauses oxello: White, its colour, is to move.
        let out = console.send("redo");
        assert!(
            out.iter().any(|l| l.contains("'go' lets it move")),
            "{out:?}"
        );
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
        while !console.game().unwrap().is_over() {
            let position = console.game().unwrap().position();
            assert_eq!(position.side, Color::Black);
            let square = squares(position.legal_moves()).next().unwrap();
            let out = console.send(&square.to_string());
            assert!(out.iter().all(|l| !l.starts_with("error")), "{out:?}");
        }
    }

    #[test]
    fn formats_the_table() {
        let report = Report {
            rank: 0,
            depth: Depth::plies(12),
            score: 4,
            bound: crate::search::Bound::Lower,
            pv: Vec::new(),
            nodes: 1000,
            elapsed: Duration::from_millis(61_234),
        };
        let row = table_row(&report);
        assert_eq!(
            row, "    12  >+04       1:01.234          1000         16",
            "{row}"
        );
        assert_eq!(format_time(Duration::from_secs(3725)), "1:02:05.000");
    }
}
