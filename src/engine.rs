//! The engine facade: what protocols, the console and tools use to play and
//! analyse. It owns the game, the search (on a worker thread, with its
//! transposition table) and the playing strength, and reports progress as
//! [`SearchEvent`]s. Nothing here prints or reads input.
//!
//! [`Engine::go`] starts a search of the current position and returns at
//! once; [`Engine::stop`] asks it to finish now; [`Engine::wait`] blocks for
//! the result. Changing the game stops a running search first.
//!
//! # Levels
//!
//! A level sets the midgame depth, its selectivity, and the number of empty
//! squares from which the engine solves the game instead of evaluating it:
//!
//! | level | midgame depth | selectivity | win/loss/draw solve at | exact solve at |
//! |------:|--------------:|------------:|-----------------------:|---------------:|
//! | 1     | 1             | 73%         | 4 empties              | 2 empties      |
//! | 5     | 5             | 73%         | 9                      | 7              |
//! | 10    | 10            | 73%         | 16                     | 14             |
//! | 15    | 15            | 73%         | 21                     | 19             |
//! | 20    | 20            | 73%         | 26                     | 24             |
//! | n < 60| n             | 73%         | n + 6 (at least 4)     | n + 4 (at least 2) |
//! | 60    | 60            | 100%        | 60                     | 60             |
//!
//! Selectivity is Multi-ProbCut's confidence (see
//! [`crate::search::selectivity`]): at 73% a node is cut when a shallow
//! search predicts its result with 73% confidence; 100% searches every move
//! to full depth. A solve of 18 empties or more starts at the level's
//! selectivity and rises through 87 and 95% to 100%, each step
//! reusing the table of the last: the steps below 100% are probable solves,
//! reported as such (`95%`), and only the last is exact. Level 60 is
//! perfect play: nothing selective.
//!
//! `--selectivity` overrides the level's (100 turns Multi-ProbCut off).
//!
//! # Threads
//!
//! Searches use [`EngineOptions::threads`] threads; by default every core the
//! machine offers for play, analysis and solving, but one thread for a
//! node-limited search, so that its result is reproducible.
//!
//! Besides the levels, three simple players ([`SimplePlayer`]) move at once
//! without searching.
//!
//! # Opening book
//!
//! With a book ([`EngineOptions::book`]), [`Engine::go`] answers from it
//! at once when the position's book value is known to at least the depth
//! of the search that would replace it (an exact solve when the search
//! would solve), playing the best book move or, with
//! [`EngineOptions::book_randomness`] D, one drawn among the moves within
//! D discs of it. A search limited by time counts as deep as the last
//! such search of the same game went; the first of a game searches.
//! Otherwise the search starts from the book's values of the position and
//! of its moves' positions ([`crate::search::Seed`]).
//! [`Engine::learn`] adds a finished game to a book file.

use crate::bitboard::BoardSize;
use crate::board::IllegalMoveError;
use crate::book::{Book, BookError, BookMove, BookSource, Need};
pub use crate::core::threads::{MAX_THREADS, default_threads, parse_threads};
use crate::core::worker::{self, GameSearch, Worker};
use crate::core::{SimplePlayer, StopSignal};
use crate::game::Game;
use crate::moves::Move;
use crate::position::Position;
use crate::search::{Clock, Depth, Limits, Report, SearchResult, Searcher, Selectivity, SolveMode};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Playing strength: midgame depth and solving thresholds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub level: u32,
    pub midgame_depth: u32,
    /// Solve exactly from this many empties.
    pub exact_empties: u32,
    /// Solve win/loss/draw from this many empties.
    pub wld_empties: u32,
    /// Selectivity of the midgame search, and the first of the solve.
    pub selectivity: Selectivity,
}

/// Highest level (everything solved exactly from 60 empties).
pub const MAX_LEVEL: u32 = 60;
/// Level used when none is given.
pub const DEFAULT_LEVEL: u32 = 12;
/// Selectivity of every level below [`MAX_LEVEL`].
///
/// Its cut threshold, t = 1.1, was measured in play against other values
/// for the midgame nodes (env-gated, not kept; 6+0.05 s game clocks, XOT
/// paired, `--level 30`, one thread each, `-j 2`, against e85118c):
/// t = 1.5, 7-12-33 after 52 games (Elo -190.8 ± 94.7); t = 0.8, 26-10-34
/// after 70 games (-39.9 ± 77.1). A wider cut costs depth, which the clock
/// punishes hard; a narrower one is wrong too often.
const LEVEL_SELECTIVITY: Selectivity = Selectivity::MOST;
/// Extra empties at which a level solves exactly, beyond its depth.
const EXACT_EXTRA: u32 = 4;
/// Extra empties at which a level solves win/loss/draw, beyond its depth.
const WLD_EXTRA: u32 = 6;

impl Level {
    /// The level `n`, clamped to 1..=[`MAX_LEVEL`] (see the module table).
    pub fn new(n: u32) -> Level {
        let level = n.clamp(1, MAX_LEVEL);
        Level {
            level,
            midgame_depth: level,
            exact_empties: (level + EXACT_EXTRA).min(60),
            wld_empties: (level + WLD_EXTRA).min(60),
            selectivity: if level == MAX_LEVEL {
                Selectivity::NONE
            } else {
                LEVEL_SELECTIVITY
            },
        }
    }
}

/// Who makes the engine's moves: a search level or a simple player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Level(Level),
    Simple(SimplePlayer),
}

impl Default for Player {
    fn default() -> Self {
        Player::Level(Level::new(DEFAULT_LEVEL))
    }
}

/// Why a player name was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePlayerError(pub String);

impl fmt::Display for ParsePlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a level (1-{MAX_LEVEL}) or a player (random, greedy, positional)",
            self.0
        )
    }
}

impl std::error::Error for ParsePlayerError {}

impl FromStr for Player {
    type Err = ParsePlayerError;

    /// A level number or a simple player's name.
    fn from_str(text: &str) -> Result<Player, ParsePlayerError> {
        let text = text.trim();
        if let Ok(n) = text.parse::<u32>()
            && (1..=MAX_LEVEL).contains(&n)
        {
            return Ok(Player::Level(Level::new(n)));
        }
        text.parse::<SimplePlayer>()
            .map(Player::Simple)
            .map_err(|_| ParsePlayerError(text.to_string()))
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Level(level) => write!(f, "{}", level.level),
            Player::Simple(player) => write!(f, "{player}"),
        }
    }
}

/// Settings that last across searches.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineOptions {
    /// Transposition table size in MiB.
    pub hash_mib: usize,
    pub player: Player,
    /// Midgame depth overriding the level's.
    pub depth: Option<u32>,
    /// Time per move overriding the level's depth (the depth still caps it).
    pub time: Option<Duration>,
    /// Seed of the random player's choices: fixed by default, so that a
    /// program using the library replays the same games; the command line
    /// draws a new one every run unless `--seed` is given.
    pub seed: u64,
    /// Selectivity overriding the level's.
    pub selectivity: Option<Selectivity>,
    /// Search threads (`None`: every available core, but one for
    /// node-limited searches).
    pub threads: Option<usize>,
    /// The opening book to play from (none by default; the command line
    /// uses the built-in one unless told otherwise).
    pub book: BookSource,
    /// Play any book move within this many discs of the best (drawn with
    /// the seed); 0 always plays the best.
    pub book_randomness: u32,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mib: crate::search::DEFAULT_HASH_MIB,
            player: Player::default(),
            depth: None,
            time: None,
            seed: 0x0e11_0000,
            selectivity: None,
            threads: None,
            book: BookSource::None,
            book_randomness: 0,
        }
    }
}

impl EngineOptions {
    /// The threads of a search: the option, else every core, but one for a
    /// node-limited search (reproducible).
    pub fn search_threads(&self, node_limited: bool) -> usize {
        self.threads
            .unwrap_or(if node_limited { 1 } else { default_threads() })
    }

    /// The selectivity of a search outside play (analysis, solving): the
    /// option, else the levels' (73%, rising to 100% in solves).
    pub fn analysis_selectivity(&self) -> Selectivity {
        self.selectivity.unwrap_or(LEVEL_SELECTIVITY)
    }
}

/// What one search should do, on top of the engine's options.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GoRequest {
    /// Number of best moves wanted (hints); 0 or 1 means just the best.
    pub multi_pv: usize,
    /// Game clock of the side to move.
    pub clock: Option<Clock>,
    /// Time for this move.
    pub time: Option<Duration>,
    /// Midgame depth for this search.
    pub depth: Option<u32>,
    /// Node limit (reproducible searches).
    pub nodes: Option<u64>,
    /// Solve now, exactly or win/loss/draw, whatever the level says.
    pub solve: Option<SolveMode>,
    /// Root moves not to search (a hint's moves already given by the book);
    /// the book answers no search that excludes moves.
    pub excluded: u64,
}

/// Progress and the end of a search: an iteration's line, then the result.
pub type SearchEvent = crate::core::Event<Report, SearchResult>;

/// Receives events on the worker thread.
pub type EventSink = worker::EventSink<Searcher>;

/// The Othello search as the engine thread runs it.
impl GameSearch for Searcher {
    type Position = Position;
    type Limits = Limits;
    type Progress = Report;
    type Result = SearchResult;

    fn search(
        &mut self,
        position: &Position,
        limits: &Limits,
        stop: &StopSignal,
        progress: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        Searcher::search(self, position, limits, stop, progress)
    }

    fn clear(&mut self) {
        Searcher::clear(self)
    }

    fn resize(&mut self, mib: usize) {
        Searcher::resize(self, mib)
    }
}

/// The engine. See the module documentation.
pub struct Engine {
    game: Game,
    options: EngineOptions,
    worker: Worker<Searcher>,
    rng: StdRng,
    book: Option<Arc<Book>>,
    /// Whether the running search is limited by time.
    timed: bool,
    /// The midgame depth the last search limited by time reached, and the
    /// game it searched: the depth a book value must have to answer such a
    /// search later in that game.
    reached: Option<(u32, Game)>,
}

/// Positions of a game that [`Engine::learn`] adds to a book: the first
/// moves, where games meet again.
pub const LEARN_PLIES: usize = 40;

/// What [`Engine::learn`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Learned {
    /// Positions new to the book.
    pub added: usize,
    /// Searches made (best unexplored moves).
    pub searched: usize,
    /// Positions in the book now.
    pub positions: usize,
}

impl Engine {
    /// An engine with a new 8x8 game.
    pub fn new(options: EngineOptions) -> Engine {
        let hash = options.hash_mib;
        let worker = Worker::spawn("oxello-search", "search", StopSignal::new(), move || {
            Searcher::warmed(hash)
        });
        let book = crate::book::open(&options.book).unwrap_or_else(|error| {
            if let BookSource::File(path) = &options.book {
                let made = if path.exists() {
                    ""
                } else {
                    " (NBoard's learn makes it)"
                };
                log::warn!(
                    "oxello: opening book {}: {error}; playing without{made}",
                    path.display()
                );
            }
            None
        });
        Engine {
            game: Game::new(BoardSize::Eight),
            rng: StdRng::seed_from_u64(options.seed),
            options,
            worker,
            book,
            timed: false,
            reached: None,
        }
    }

    /// The opening book in use, if any.
    pub fn book(&self) -> Option<&Book> {
        self.book.as_deref()
    }

    /// A shared handle on the opening book in use, if any.
    pub fn book_handle(&self) -> Option<Arc<Book>> {
        self.book.clone()
    }

    /// Plays from `book` from now on (`None`: no book).
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        self.abort();
        self.book = book;
    }

    /// The book moves of the current position with their values, best
    /// first (empty when it is not in the book).
    pub fn book_moves(&self) -> Vec<BookMove> {
        let position = self.position();
        self.book
            .as_ref()
            .and_then(|book| book.moves(&position))
            .unwrap_or_default()
    }

    /// Adds the game (its first [`LEARN_PLIES`] moves) to the book file at
    /// `path`, created from the book in use when it does not exist: its new
    /// positions' best unexplored moves are searched at the level's depth
    /// and selectivity on this thread, the values negamaxed, and the file
    /// written. The engine plays from the learned book from now on.
    pub fn learn(&mut self, path: &Path) -> Result<Learned, BookError> {
        use crate::book::{grow, journal::Journal, pool};
        self.abort();
        let mut book = if path.exists() {
            crate::book::format::load(path)?
        } else {
            self.book.as_deref().cloned().unwrap_or_default()
        };
        let added = grow::add_game(&mut book, self.game.positions(), LEARN_PLIES);
        let level = match self.options.player {
            Player::Level(level) => level,
            Player::Simple(_) => Level::new(DEFAULT_LEVEL),
        };
        let settings = pool::SearchSettings {
            depth: self.options.depth.unwrap_or(level.midgame_depth).min(60) as u8,
            selectivity: self.options.selectivity.unwrap_or(level.selectivity),
            threads: 1,
            hash_mib: self.options.hash_mib.min(64),
        };
        let summary = pool::settle(&mut book, &settings, &mut Journal::in_memory())?;
        crate::book::format::save(&book, path)?;
        let positions = book.len();
        self.book = Some(Arc::new(book));
        Ok(Learned {
            added,
            searched: summary.searched,
            positions,
        })
    }

    /// The game being played.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The current position.
    pub fn position(&self) -> Position {
        self.game.position()
    }

    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Changes who plays (level or simple player).
    pub fn set_player(&mut self, player: Player) {
        self.options.player = player;
    }

    /// Changes the midgame depth override.
    pub fn set_depth(&mut self, depth: Option<u32>) {
        self.options.depth = depth;
    }

    /// Changes the time-per-move override.
    pub fn set_time(&mut self, time: Option<Duration>) {
        self.options.time = time;
    }

    /// Restarts the random player's choices from `seed` (a match gives each
    /// game its own, so that a game replays whatever was played before it).
    pub fn set_seed(&mut self, seed: u64) {
        self.options.seed = seed;
        self.rng = StdRng::seed_from_u64(seed);
    }

    /// Changes the number of search threads (`None`: the default).
    pub fn set_threads(&mut self, threads: Option<usize>) {
        self.options.threads = threads.map(|n| n.clamp(1, MAX_THREADS));
    }

    /// Replaces the table by one of `mib` MiB.
    pub fn set_hash(&mut self, mib: usize) {
        self.abort();
        self.options.hash_mib = mib;
        self.worker.resize(mib);
    }

    /// Forgets the table's content (for reproducible searches).
    pub fn clear_table(&mut self) {
        self.abort();
        self.worker.clear();
    }

    /// Starts a new game of `size` from its standard position.
    pub fn new_game(&mut self, size: BoardSize) {
        self.abort();
        self.game = Game::new(size);
    }

    /// Replaces the game (set up a position, load a record, navigate).
    pub fn set_game(&mut self, game: Game) {
        self.abort();
        self.game = game;
    }

    /// Plays a move; on error the game is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        self.abort();
        self.game.play(mv)
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<Move> {
        self.abort();
        self.game.undo()
    }

    /// Replays a move taken back.
    pub fn redo(&mut self) -> Option<Move> {
        self.abort();
        self.game.redo()
    }

    /// The limits a search of the current position gets from the options
    /// and `request`.
    pub fn limits(&self, request: &GoRequest) -> Limits {
        let level = match self.options.player {
            Player::Level(level) => level,
            Player::Simple(_) => Level::new(1),
        };
        let empties = self.position().empty_count();
        let selectivity = self.options.selectivity.unwrap_or(level.selectivity);
        let threads = self.options.search_threads(request.nodes.is_some());
        let mut limits = Limits {
            selectivity,
            solve_selectivity: Limits::ladder(selectivity, empties),
            threads,
            depth: Some(
                request
                    .depth
                    .or(self.options.depth)
                    .unwrap_or(level.midgame_depth),
            ),
            multi_pv: request.multi_pv.max(1),
            nodes: request.nodes,
            time: request.time.or(self.options.time),
            clock: request.clock,
            excluded: request.excluded,
            ..Limits::default()
        };
        match request.solve {
            Some(mode) => {
                limits.solve_mode = mode;
                limits.solve_empties = Some(60);
            }
            None if empties <= level.exact_empties => {
                limits.solve_empties = Some(level.exact_empties)
            }
            None if empties <= level.wld_empties => {
                limits.solve_mode = SolveMode::Wld;
                limits.solve_empties = Some(level.wld_empties);
            }
            None => {}
        }
        limits
    }

    /// Starts choosing a move for the current position; returns at once.
    /// Events go to `sink` on the search thread. A simple player answers
    /// immediately with a [`SearchEvent::Finished`].
    pub fn go(&mut self, request: GoRequest, mut sink: EventSink) {
        self.abort();
        let position = self.position();
        if let Player::Simple(player) = self.options.player {
            let started = Instant::now();
            let mv = player.choose(&position, &mut self.rng);
            let over = position.is_game_over();
            let outcome = SearchResult {
                best: (!over).then_some(mv),
                score: 0,
                bound: crate::search::Bound::Exact,
                depth: Depth::plies(0),
                pv: if over { Vec::new() } else { vec![mv] },
                lines: Vec::new(),
                nodes: 0,
                elapsed: started.elapsed(),
                stopped: None,
                book: false,
            };
            sink(SearchEvent::Finished(outcome.clone()));
            self.worker.answer(outcome);
            return;
        }
        let mut limits = self.limits(&request);
        self.timed = limits.time.is_some() || limits.clock.is_some();
        if let Some(book) = self.book.clone() {
            if request.multi_pv <= 1 && request.excluded == 0 {
                let started = Instant::now();
                if let Some(outcome) = self.book_answer(&book, &position, &limits, started) {
                    sink(SearchEvent::Finished(outcome.clone()));
                    self.worker.answer(outcome);
                    return;
                }
            }
            limits.seeds = book.seeds(&position);
        }
        self.search(position, limits, sink);
    }

    /// The book's answer for `position` when its value is known as deeply
    /// as the search of `limits` would know it.
    fn book_answer(
        &mut self,
        book: &Book,
        position: &Position,
        limits: &Limits,
        started: Instant,
    ) -> Option<SearchResult> {
        let empties = position.empty_count();
        let mut depth = limits.depth.unwrap_or(MAX_LEVEL);
        // A search limited by time goes as deep as the time allows: about
        // as deep as the last one of this game did. One of another game
        // does not tell: the last search of a finished game, near its end,
        // reaches depths an opening search does not.
        if limits.time.is_some() || limits.clock.is_some() {
            depth = depth.min(self.reached_in_this_game().unwrap_or(depth));
        }
        let need = if empties <= limits.solve_empties.unwrap_or(0) || depth >= empties {
            Need::Exact
        } else {
            Need::Depth(depth)
        };
        let chosen = book.choose(position, need, self.options.book_randomness, &mut self.rng)?;
        let score = i32::from(chosen.value.score);
        let depth = chosen.value.search_depth(empties);
        let pv = book.line(position, chosen.mv, 24);
        let line = Report {
            rank: 0,
            depth,
            score,
            bound: crate::search::Bound::Exact,
            pv: pv.clone(),
            nodes: 0,
            elapsed: started.elapsed(),
        };
        Some(SearchResult {
            best: Some(chosen.mv),
            score,
            bound: crate::search::Bound::Exact,
            depth,
            pv,
            lines: vec![line],
            nodes: 0,
            elapsed: started.elapsed(),
            stopped: None,
            book: true,
        })
    }

    /// Starts a search of the current position with exactly `limits`,
    /// whoever plays (an analysis chooses its own depth and solves); returns
    /// at once. Events go to `sink` on the search thread.
    pub fn go_limits(&mut self, limits: Limits, sink: EventSink) {
        self.abort();
        self.search(self.position(), limits, sink);
    }

    /// Lowers the stop signal and starts the search.
    fn search(&mut self, position: Position, limits: Limits, sink: EventSink) {
        self.worker.stop_signal().reset();
        self.worker.go(position, limits, sink);
    }

    /// Asks the running search to finish now; returns at once.
    pub fn stop(&self) {
        self.worker.stop();
    }

    /// A handle on the stop flag of this engine's searches, for another
    /// thread (a stdin reader) to stop a search the moment `stop`, `ping`,
    /// `quit` or end of input arrives. [`Engine::go`] lowers the flag when a
    /// search starts, so a stop raised between searches does no harm.
    pub fn stop_signal(&self) -> StopSignal {
        self.worker.stop_signal()
    }

    /// Whether a search has been started and its result not yet collected.
    pub fn is_searching(&self) -> bool {
        self.worker.is_searching()
    }

    /// Waits for the running search and returns its result (`None` when no
    /// search was running).
    pub fn wait(&mut self) -> Option<SearchResult> {
        let result = self.worker.wait();
        if let Some(Depth::Midgame(depth, _)) = result
            .as_ref()
            .filter(|r| self.timed && !r.book)
            .map(|r| r.depth)
        {
            self.reached = Some((depth, self.game.clone()));
        }
        result
    }

    /// The depth the last search limited by time reached, if it searched a
    /// position of the game now played (the same start, and its moves
    /// played since).
    fn reached_in_this_game(&self) -> Option<u32> {
        let (depth, game) = self.reached.as_ref()?;
        let same = game.start() == self.game.start() && self.game.moves().starts_with(game.moves());
        same.then_some(*depth)
    }

    /// Searches the current position and waits for the result.
    pub fn think(&mut self, request: GoRequest) -> Option<SearchResult> {
        self.go(request, Box::new(|_| {}));
        self.wait()
    }

    /// Stops and collects any running search.
    fn abort(&mut self) {
        self.worker.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_follow_the_table() {
        assert_eq!(
            Level::new(10),
            Level {
                level: 10,
                midgame_depth: 10,
                exact_empties: 14,
                wld_empties: 16,
                selectivity: Selectivity::MOST,
            }
        );
        assert_eq!(Level::new(60).selectivity, Selectivity::NONE);
        assert_eq!(Level::new(0).level, 1);
        assert_eq!(Level::new(99).exact_empties, 60);
        assert_eq!(
            "greedy".parse::<Player>().unwrap(),
            Player::Simple(SimplePlayer::Greedy)
        );
        assert_eq!("7".parse::<Player>().unwrap(), Player::Level(Level::new(7)));
        assert!("0".parse::<Player>().is_err() && "x".parse::<Player>().is_err());
    }

    #[test]
    fn engine_plays_and_searches() {
        let mut engine = Engine::new(EngineOptions {
            hash_mib: 4,
            ..EngineOptions::default()
        });
        let result = engine
            .think(GoRequest {
                depth: Some(4),
                ..GoRequest::default()
            })
            .unwrap();
        let best = result.best.unwrap();
        engine.play(best).unwrap();
        assert_eq!(engine.game().moves().len(), 1);
        assert!(engine.play(Move::Pass).is_err());
        assert_eq!(engine.undo(), Some(best));
        engine.set_player(Player::Simple(SimplePlayer::Greedy));
        let quick = engine.think(GoRequest::default()).unwrap();
        assert!(engine.position().play(quick.best.unwrap()).is_ok());
    }

    #[test]
    fn the_book_answers_searches_no_deeper_than_it_and_a_bad_one_is_left_out() {
        let dir = std::env::temp_dir().join(format!("oxello-engine-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("book.bin");
        crate::book::format::save(&crate::book::tests::tiny_book(), &path).unwrap();
        let options = |level: u32, book: BookSource| EngineOptions {
            hash_mib: 2,
            player: Player::Level(Level::new(level)),
            book,
            ..EngineOptions::default()
        };
        let mut engine = Engine::new(options(3, BookSource::File(path.clone())));
        let answer = engine.think(GoRequest::default()).unwrap();
        assert!(answer.book && answer.nodes == 0, "{answer:?}");
        let moves = engine.book_moves();
        assert!(moves.iter().any(|m| Some(m.mv) == answer.best));
        assert_eq!(answer.pv.first().copied(), answer.best);
        // Deeper than the book (depth 4): a search, seeded by the book.
        let mut engine = Engine::new(options(7, BookSource::File(path.clone())));
        let searched = engine.think(GoRequest::default()).unwrap();
        assert!(!searched.book && searched.nodes > 0);
        assert_eq!(engine.limits(&GoRequest::default()).seeds, Vec::new());
        // A book that cannot be read: play goes on without it.
        std::fs::write(&path, b"OXFDBOOK").unwrap();
        let mut engine = Engine::new(options(3, BookSource::File(path.clone())));
        assert!(engine.book().is_none());
        let searched = engine.think(GoRequest::default()).unwrap();
        assert!(!searched.book && searched.best.is_some());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_timed_search_takes_the_book_as_deep_as_the_last_search_of_its_game() {
        let mut engine = Engine::new(EngineOptions {
            hash_mib: 2,
            player: Player::Level(Level::new(30)),
            ..EngineOptions::default()
        });
        engine.set_book(Some(Arc::new(crate::book::tests::tiny_book())));
        engine.set_time(Some(Duration::from_millis(30)));
        // The book (depth 4) answers when this game's last timed search
        // went no deeper.
        engine.reached = Some((3, engine.game().clone()));
        assert!(engine.think(GoRequest::default()).unwrap().book);
        // A search of another game tells nothing of this one: the search
        // runs, and its depth then counts.
        let mut other = Game::new(BoardSize::Eight);
        let first = *other.position().move_list().iter().next().unwrap();
        other.play(first).unwrap();
        engine.reached = Some((3, other));
        let searched = engine.think(GoRequest::default()).unwrap();
        assert!(!searched.book && searched.nodes > 0, "{searched:?}");
        assert!(engine.reached_in_this_game().is_some());
    }

    #[test]
    fn stop_ends_a_long_search_quickly() {
        let mut engine = Engine::new(EngineOptions {
            hash_mib: 4,
            ..EngineOptions::default()
        });
        engine.go(
            GoRequest {
                depth: Some(40),
                ..GoRequest::default()
            },
            Box::new(|_| {}),
        );
        std::thread::sleep(Duration::from_millis(100));
        let asked = Instant::now();
        engine.stop();
        let result = engine.wait().unwrap();
        assert!(asked.elapsed() < Duration::from_secs(1));
        assert!(result.best.is_some());
    }
}
