//! An engine of either game as the protocols use it: one search at a time,
//! numbered, with its events sent into the command loop's channel.
//!
//! Every search gets a generation number. Cancelling a search stops it,
//! waits for it and moves to the next generation, so the events it left in
//! the channel are recognised as stale and dropped: nothing of an old search
//! is printed after a `pong`.

use crate::core::worker::{EventSink, GameSearch, SearchEvent};
use crate::core::{Event, Worker};
use crate::engine::{Engine, GoRequest};
use crate::game::Game;
use crate::gomoku::engine::Engine as GomokuEngine;
use crate::position::Position;
use crate::protocol::Input;
use crate::search::{Limits, Searcher};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Sender;

/// Raised by the stdin reader when it reads a line that interrupts (`stop`,
/// NBoard's `ping`), lowered when the loop handles that line; a count, so
/// that two such lines read ahead keep it raised until the second is
/// handled. While it is raised, a search that starts is stopped at once (the
/// line that raised it is waiting behind the command that started the
/// search), and a protocol that chains searches (the console's
/// engine-against-engine games, analyses) starts no next one.
#[derive(Clone, Debug, Default)]
pub(crate) struct Interrupt(Arc<AtomicUsize>);

impl Interrupt {
    pub fn raise(&self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }

    pub fn lower(&self) {
        // Never below zero: the update fails only when it is zero already.
        let _ = self
            .0
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
    }

    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::SeqCst) > 0
    }
}

/// An event of either game's search as the command loop carries it.
#[derive(Debug)]
pub(crate) enum GameEvent {
    Othello(crate::engine::SearchEvent),
    Gomoku(crate::gomoku::engine::Event),
}

/// A search whose events travel through the command loop.
pub(crate) trait Hosted: GameSearch {
    fn wrap(event: SearchEvent<Self>) -> GameEvent;
    /// The event back, when it is of this game.
    fn unwrap(event: GameEvent) -> Option<SearchEvent<Self>>;
}

impl Hosted for Searcher {
    fn wrap(event: SearchEvent<Self>) -> GameEvent {
        GameEvent::Othello(event)
    }

    fn unwrap(event: GameEvent) -> Option<SearchEvent<Self>> {
        match event {
            GameEvent::Othello(event) => Some(event),
            GameEvent::Gomoku(_) => None,
        }
    }
}

impl Hosted for crate::gomoku::search::Searcher {
    fn wrap(event: SearchEvent<Self>) -> GameEvent {
        GameEvent::Gomoku(event)
    }

    fn unwrap(event: GameEvent) -> Option<SearchEvent<Self>> {
        match event {
            GameEvent::Gomoku(event) => Some(event),
            GameEvent::Othello(_) => None,
        }
    }
}

/// What the host needs of an engine: it runs one search at a time, which
/// can be told to stop and waited for.
pub(crate) trait Searching {
    type Search: Hosted;
    fn stop(&self);
    fn wait(&mut self) -> Option<<Self::Search as GameSearch>::Result>;
}

impl Searching for Engine {
    type Search = Searcher;

    fn stop(&self) {
        Engine::stop(self)
    }

    fn wait(&mut self) -> Option<<Searcher as GameSearch>::Result> {
        Engine::wait(self)
    }
}

impl<S: Hosted> Searching for Worker<S> {
    type Search = S;

    fn stop(&self) {
        Worker::stop(self)
    }

    fn wait(&mut self) -> Option<S::Result> {
        Worker::wait(self)
    }
}

/// The engine, its event channel and the number of the current search.
pub(crate) struct Host<E> {
    engine: E,
    events: Sender<Input>,
    generation: u64,
    active: bool,
    interrupt: Interrupt,
}

/// The Othello engine's host.
pub(crate) type SearchHost = Host<Engine>;
/// The gomoku engine's host.
pub(crate) type GomokuHost = Host<GomokuEngine>;

impl<E: Searching> Host<E> {
    pub fn new(engine: E, events: Sender<Input>, interrupt: Interrupt) -> Host<E> {
        Host {
            engine,
            events,
            generation: 0,
            active: false,
            interrupt,
        }
    }

    /// Whether a line that interrupts (`stop`, NBoard's `ping`) was read and
    /// is not handled yet.
    pub fn interrupted(&self) -> bool {
        self.interrupt.is_raised()
    }

    /// The command loop's channel and interrupt, for another engine's host.
    pub fn channel(&self) -> (Sender<Input>, Interrupt) {
        (self.events.clone(), self.interrupt.clone())
    }

    pub fn engine(&self) -> &E {
        &self.engine
    }

    pub fn engine_mut(&mut self) -> &mut E {
        &mut self.engine
    }

    /// Starts the next search with `go` (after [`Host::cancel`]), its
    /// events numbered with the current generation, which it returns.
    fn launch(&mut self, go: impl FnOnce(&mut E, EventSink<E::Search>)) -> u64 {
        let generation = self.generation;
        let events = self.events.clone();
        self.active = true;
        go(
            &mut self.engine,
            Box::new(move |event| {
                let event = E::Search::wrap(event);
                let _ = events.send(Input::Search { generation, event });
            }),
        );
        if self.interrupt.is_raised() {
            self.engine.stop();
        }
        generation
    }

    /// Stops the running search, if any, and drops its pending events.
    pub fn cancel(&mut self) {
        if self.active {
            self.engine.stop();
            let _ = self.engine.wait();
            self.active = false;
        }
        self.generation += 1;
    }

    /// Asks the running search to finish now; its result still comes.
    pub fn stop(&self) {
        self.engine.stop();
    }

    /// Whether a search is running whose events are still due.
    pub fn is_active(&self) -> bool {
        self.active
    }

    /// Passes on an event when it belongs to the current search; the
    /// `Finished` event ends it.
    pub fn accept(&mut self, generation: u64, event: GameEvent) -> Option<SearchEvent<E::Search>> {
        let event = E::Search::unwrap(event)?;
        if generation != self.generation || !self.active {
            return None;
        }
        if matches!(event, Event::Finished(_)) {
            // The worker sends the result right after this event: collect it
            // so the engine knows the search is over.
            let _ = self.engine.wait();
            self.active = false;
        }
        Some(event)
    }
}

impl Host<Engine> {
    /// Starts searching the current position of `game` (any running search
    /// is cancelled first). Returns the new search's generation.
    pub fn start(&mut self, game: &Game, request: GoRequest) -> u64 {
        self.launch_on(game, |engine, sink| engine.go(request, sink))
    }

    /// Starts searching `position` with exactly `limits` (an analysis'
    /// search), whoever plays. Returns the new search's generation.
    pub fn start_limits(&mut self, position: Position, limits: Limits) -> u64 {
        let game = Game::from_position(position);
        self.launch_on(&game, |engine, sink| engine.go_limits(limits, sink))
    }

    fn launch_on(&mut self, game: &Game, go: impl FnOnce(&mut Engine, EventSink<Searcher>)) -> u64 {
        self.cancel();
        self.engine.set_game(game.clone());
        self.launch(go)
    }
}

impl Host<GomokuEngine> {
    /// Starts searching `board` within `limits` (any running search is
    /// cancelled first); the events of earlier searches are dropped from
    /// now on.
    pub fn start(&mut self, board: &crate::gomoku::Board, limits: crate::gomoku::search::Limits) {
        self.cancel();
        self.launch(|engine, sink| engine.go(board.clone(), limits, sink));
    }

    /// Empties the table (after the running search).
    pub fn clear(&mut self) {
        self.engine.clear();
    }

    /// Gives the table `mib` MiB (after the running search).
    pub fn resize(&mut self, mib: usize) {
        self.engine.resize(mib);
    }
}
