//! The console for people, one for both games: play against oxello, ask
//! for hints, take moves back. `Console` holds what the games share (who
//! plays which colour, oxello's moves when its turn comes, `undo`/`redo`,
//! `time`, `stop`, the command table and `help`); a game supplies its
//! board, moves and searches through the `ConsoleGame` trait: Othello
//! (`othello.rs` beside this file) and gomoku
//! ([`crate::protocol::gomoku_console`]).
//!
//! It opens with the board and says who plays what: by default the person
//! plays Black against oxello (`mode 0`). After every change the board is
//! printed, the last move in lower case; when oxello is to move it thinks,
//! printing each finished iteration, and plays. Errors are one line
//! starting with `error:` and leave the game as it was. Lines typed while
//! oxello thinks wait their turn, `quit` and the end of input included (a
//! game of `mode 2` is played out first).
//!
//! `stop`, or Ctrl-C, ends the search the moment it is typed: oxello, when
//! it was choosing its move, plays the best move found so far ("move now",
//! as GUIs have it) and waits for the next command; a hint, solve or
//! analysis shows what it found and the game stays as it was. Ctrl-C while
//! nothing runs, or twice within two seconds, quits.
//!
//! `mode` says who plays which colour: 0 you Black against oxello (the
//! default), 1 oxello Black against you, 2 oxello against itself (the game
//! is played out), 3 people on both sides, oxello moving only on `go`. A
//! move typed for a colour oxello plays is refused, even while oxello waits
//! (after `stop`, `undo` or `redo`): `go` lets it move. `undo n` takes back
//! n moves and `redo n` replays n, each then going on to the person's turn
//! when a person plays against oxello.

mod commands;
pub(crate) mod othello;

pub(crate) use commands::fail;
pub use commands::{
    Command, CommandInfo, ConsoleError, GameWords, MAX_HINTS, MAX_SECONDS, MIN_SECONDS, PlayMode,
    TimeSetting, describe_time, help_lines, parse, title,
};
pub use othello::{MAX_PERFT_DEPTH, TABLE_HEADER, format_score, format_time, table_row};

use crate::color::Color;
use crate::game::Game;
use crate::protocol::{Flow, GameEvent, Handler};
use std::time::Duration;

/// What oxello searches for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// Its move, to be played.
    Move,
    /// The best n moves, not played.
    Hint(usize),
}

/// What a search event came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing the console acts on (a progress row, a hint's end).
    Nothing,
    /// oxello played its move; `stopped` when `stop` cut its search short.
    Played { stopped: bool },
}

/// A game as the console plays it: its position and moves, its board for
/// people, and its engine. Errors are sentences for people, without the
/// `error:` the console adds.
pub(crate) trait ConsoleGame {
    /// What the shared `help` lines and the greeting say in this game's
    /// words.
    const WORDS: GameWords;
    /// The game's own commands, listed by `help` under [`Self::NAME`].
    const COMMANDS: &'static [CommandInfo];
    /// The game's name: `Othello`, `gomoku`.
    const NAME: &'static str;

    /// The game in a few words: `Othello 8x8`.
    fn describe(&self) -> String;
    /// A move to show in the greeting.
    fn move_example(&self) -> String {
        Self::WORDS.move_example.to_string()
    }
    /// Whether `text` is one or more moves in this game's syntax.
    fn is_moves(&self, text: &str) -> bool;
    /// The colour to move.
    fn to_move(&self) -> Color;
    /// How the game ended, or `None` while it goes on.
    fn over(&self) -> Option<String>;
    /// Moves played (forced passes go with the move before them).
    fn moves_played(&self) -> usize;
    /// Moves taken back that `redo` can replay.
    fn moves_to_redo(&self) -> usize;
    /// Plays a person's moves, all or none: `engine_plays` says which
    /// colours are oxello's, whose moves are refused.
    fn play_moves(
        &mut self,
        text: &str,
        engine_plays: &dyn Fn(Color) -> bool,
    ) -> Result<(), ConsoleError>;
    /// Takes back one move (and the forced passes before it).
    fn undo(&mut self) -> bool;
    /// Replays one move taken back (and the forced passes after it).
    fn redo(&mut self) -> bool;
    /// Starts a new game; `arguments` as typed after `new`.
    fn new_game(&mut self, arguments: &str, out: &mut Vec<String>) -> Result<(), ConsoleError>;
    /// Plays the passes the rules force, saying so.
    fn forced_passes(&mut self, out: &mut Vec<String>) {
        let _ = out;
    }
    /// The board, its status and the moves played.
    fn board(&self, out: &mut Vec<String>);

    /// oxello's level in words.
    fn level(&self) -> String;
    /// Sets oxello's level from text; returns it in words.
    fn set_level(&mut self, text: &str) -> Result<String, ConsoleError>;
    /// oxello's time per move (`None`: no limit, the level decides).
    fn time(&self) -> Option<Duration>;
    fn set_time(&mut self, time: Option<Duration>);
    fn threads(&self) -> usize;
    fn set_threads(&mut self, threads: usize);

    /// Starts a search of the current position.
    fn think(&mut self, search: Search, out: &mut Vec<String>);
    /// Handles an event of a search this game started.
    fn event(&mut self, generation: u64, event: GameEvent, out: &mut Vec<String>) -> Outcome;
    /// Whether a command's searches are still at work (lines wait).
    fn busy(&self) -> bool;
    /// Whether a search runs whose events are due.
    fn searching(&self) -> bool;
    /// Stops the running search and forgets it.
    fn cancel(&mut self);
    /// Whether a `stop` was read and is not handled yet: oxello starts no
    /// move of its own meanwhile.
    fn interrupted(&self) -> bool;
    /// The `stop` line itself is handled: the searches it stopped are over.
    fn stop_handled(&mut self) {}
    /// A command of [`Self::COMMANDS`] (`name` is its first name);
    /// returns whether it changed the game (the console then shows the
    /// board, or oxello moves).
    fn command(
        &mut self,
        name: &'static str,
        rest: &str,
        engine_plays: &dyn Fn(Color) -> bool,
        out: &mut Vec<String>,
    ) -> Result<bool, ConsoleError>;
    /// The Othello game, for [`Handler::game`].
    fn othello(&self) -> Option<&Game> {
        None
    }
}

/// The console: a game and who plays it.
pub(crate) struct Console<G> {
    game: G,
    mode: PlayMode,
    /// No move of oxello's own until the next command (after `stop`,
    /// `undo`, `redo`).
    paused: bool,
    rejected: bool,
}

impl<G: ConsoleGame> Console<G> {
    pub fn new(game: G) -> Console<G> {
        Console {
            game,
            mode: PlayMode::HumanBlack,
            paused: false,
            rejected: false,
        }
    }

    /// The game, given back (the Othello engine's host, after a greeting).
    pub fn into_game(self) -> G {
        self.game
    }

    /// The game, for tests.
    #[cfg(test)]
    pub fn inner(&self) -> &G {
        &self.game
    }

    /// The greeting: the game, who plays what, and how to move.
    fn greeting(&self) -> String {
        format!(
            "oxello {}: {}. {}; type a move such as {}, or 'help'.",
            env!("CARGO_PKG_VERSION"),
            self.game.describe(),
            self.mode.sentence(),
            self.game.move_example()
        )
    }

    /// After any change: forced passes, then oxello's move when its turn
    /// has come (the board is printed after it), else the board.
    fn after_change(&mut self, out: &mut Vec<String>) {
        self.game.forced_passes(out);
        let due = !self.paused
            && self.game.over().is_none()
            && self.mode.engine_plays(self.game.to_move());
        if !due {
            return self.game.board(out);
        }
        if self.game.interrupted() {
            // A stop was read while the last move was being found: wait
            // for the next command.
            self.paused = true;
            return self.game.board(out);
        }
        self.game.think(Search::Move, out);
    }

    fn ensure_not_over(&self) -> Result<(), ConsoleError> {
        match self.game.over() {
            Some(end) => fail(format!("the game is over ({end}); 'new' starts another")),
            None => Ok(()),
        }
    }

    fn execute(&mut self, command: Command, out: &mut Vec<String>) -> Result<Flow, ConsoleError> {
        let mode = self.mode;
        let engine_plays = move |color| mode.engine_plays(color);
        match command {
            Command::Moves(text) => {
                self.game.play_moves(&text, &engine_plays)?;
                self.after_change(out);
            }
            Command::New(arguments) => {
                self.game.new_game(&arguments, out)?;
                self.after_change(out);
            }
            Command::Undo(n) => {
                self.undo(n)?;
                self.review(out);
            }
            Command::Redo(n) => {
                self.redo(n)?;
                self.review(out);
            }
            Command::Go => {
                self.ensure_not_over()?;
                self.game.think(Search::Move, out);
            }
            Command::Hint(n) => {
                self.ensure_not_over()?;
                self.game.think(Search::Hint(n), out);
            }
            Command::Level(None) => out.push(format!("level: {}", self.game.level())),
            Command::Level(Some(text)) => {
                let level = self.game.set_level(&text)?;
                out.push(format!("level: {level}"));
            }
            Command::Time(setting) => {
                if let Some(setting) = setting {
                    self.game.set_time(match setting {
                        TimeSetting::Off => None,
                        TimeSetting::PerMove(time) => Some(time),
                    });
                }
                out.push(format!("time: {}", describe_time(self.game.time())));
            }
            Command::Threads(threads) => {
                if let Some(threads) = threads {
                    self.game.set_threads(threads);
                }
                out.push(format!("threads: {}", self.game.threads()));
            }
            Command::Mode(None) => out.push(self.mode.to_string()),
            Command::Mode(Some(mode)) => {
                self.mode = mode;
                out.push(mode.to_string());
                self.after_change(out);
            }
            Command::Board => self.game.board(out),
            Command::Stop => {
                // The reader stopped the search the moment it read the line;
                // by now its answer has been handled.
                self.paused = true;
                self.game.stop_handled();
            }
            Command::Help => out.extend(help_lines(&G::WORDS, G::NAME, G::COMMANDS)),
            Command::Quit => {
                self.game.cancel();
                return Ok(Flow::Quit);
            }
            Command::Game(name, rest) => {
                if self.game.command(name, &rest, &engine_plays, out)? {
                    self.after_change(out);
                }
            }
        }
        Ok(Flow::Continue)
    }

    /// After `undo` or `redo`: the board, oxello waiting for `go` when it
    /// is its turn (the person is looking through the game).
    fn review(&mut self, out: &mut Vec<String>) {
        self.paused = true;
        self.game.board(out);
        let side = self.game.to_move();
        if self.game.over().is_none() && self.mode.engine_plays(side) {
            out.push(format!(
                "oxello plays {} and waits: 'go' lets it move",
                title(side)
            ));
        }
    }

    /// Takes back `n` moves; against oxello, then back to a position where
    /// the person is to move.
    fn undo(&mut self, n: usize) -> Result<(), ConsoleError> {
        let played = self.game.moves_played();
        if played == 0 {
            return fail("nothing to undo");
        }
        if n > played {
            return fail(format!("undo {n}: only {}", moves(played, "played")));
        }
        for _ in 0..n {
            self.game.undo();
        }
        while self.mode.against_engine()
            && self.mode.engine_plays(self.game.to_move())
            && self.game.undo()
        {}
        Ok(())
    }

    /// Replays `n` moves taken back; against oxello, then on to a position
    /// where the person is to move, as far as moves were taken back.
    fn redo(&mut self, n: usize) -> Result<(), ConsoleError> {
        let available = self.game.moves_to_redo();
        if available == 0 {
            return fail("nothing to redo");
        }
        if n > available {
            return fail(format!("redo {n}: only {}", moves(available, "to redo")));
        }
        for _ in 0..n {
            self.game.redo();
        }
        while self.mode.against_engine()
            && self.game.over().is_none()
            && self.mode.engine_plays(self.game.to_move())
            && self.game.redo()
        {}
        Ok(())
    }
}

/// `1 move played`, `3 moves to redo`.
fn moves(n: usize, what: &str) -> String {
    let noun = if n == 1 { "move" } else { "moves" };
    format!("{n} {noun} {what}")
}

impl<G: ConsoleGame> Handler for Console<G> {
    fn start(&mut self, out: &mut Vec<String>) {
        out.push(self.greeting());
        self.after_change(out);
    }

    fn line(&mut self, line: &str, out: &mut Vec<String>) -> Flow {
        self.rejected = true;
        let command = match parse(line, G::COMMANDS, |text| self.game.is_moves(text)) {
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
        if !matches!(command, Command::Stop | Command::Quit) && self.game.busy() {
            // Lines wait while a search runs, so this only happens when a
            // session is driven by hand; finish the search first.
            self.game.cancel();
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
        if let Outcome::Played { stopped } = self.game.event(generation, event, out) {
            if stopped {
                self.paused = true;
            }
            self.after_change(out);
        }
        Flow::Continue
    }

    fn busy(&self) -> bool {
        self.game.busy()
    }

    fn working(&self) -> bool {
        self.game.searching()
    }

    fn game(&self) -> Option<&Game> {
        self.game.othello()
    }

    fn last_rejected(&self) -> bool {
        self.rejected
    }

    fn ctrl_c_line(&self) -> Option<&'static str> {
        Some("stop")
    }
}
