//! The engine as the protocols use it: one search at a time, numbered, with
//! its events sent into the command loop's channel.
//!
//! Every search gets a generation number. Cancelling a search stops it,
//! waits for it and moves to the next generation, so the events it left in
//! the channel are recognised as stale and dropped: nothing of an old search
//! is printed after a `pong`.

use crate::engine::{Engine, EventSink, GoRequest, SearchEvent};
use crate::game::Game;
use crate::gomoku::engine::{Engine as GomokuEngine, Event as GomokuEvent};
use crate::position::Position;
use crate::protocol::Input;
use crate::search::{Limits, StopSignal};
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

/// The engine, its event channel and the number of the current search.
pub(crate) struct SearchHost {
    engine: Engine,
    events: Sender<Input>,
    generation: u64,
    active: bool,
    interrupt: Interrupt,
}

impl SearchHost {
    pub fn new(engine: Engine, events: Sender<Input>, interrupt: Interrupt) -> SearchHost {
        SearchHost {
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

    /// The command loop's channel, for a handler's own search events (the
    /// gomoku engine's).
    pub fn events(&self) -> Sender<Input> {
        self.events.clone()
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// Starts searching the current position of `game` (any running search
    /// is cancelled first). Returns the new search's generation.
    pub fn start(&mut self, game: &Game, request: GoRequest) -> u64 {
        self.launch(game, |engine, sink| engine.go(request, sink))
    }

    /// Starts searching `position` with exactly `limits` (an analysis'
    /// search), whoever plays. Returns the new search's generation.
    pub fn start_limits(&mut self, position: Position, limits: Limits) -> u64 {
        let game = Game::from_position(position);
        self.launch(&game, |engine, sink| engine.go_limits(limits, sink))
    }

    fn launch(&mut self, game: &Game, go: impl FnOnce(&mut Engine, EventSink)) -> u64 {
        self.cancel();
        self.engine.set_game(game.clone());
        let generation = self.generation;
        let events = self.events.clone();
        self.active = true;
        go(
            &mut self.engine,
            Box::new(move |event| {
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
    pub fn accept(&mut self, generation: u64, event: SearchEvent) -> Option<SearchEvent> {
        if generation != self.generation || !self.active {
            return None;
        }
        if matches!(event, SearchEvent::Finished(_)) {
            // The worker sends the result right after this event: collect it
            // so the engine knows the search is over.
            let _ = self.engine.wait();
            self.active = false;
        }
        Some(event)
    }
}

/// The gomoku engine as the gomoku protocols use it, the sibling of
/// [`SearchHost`]: its searches are numbered and their events sent into the
/// command loop's channel as [`Input::Gomoku`], so an event of an older
/// search is recognised and dropped.
pub(crate) struct GomokuHost {
    engine: GomokuEngine,
    events: Sender<Input>,
    generation: u64,
}

impl GomokuHost {
    /// A gomoku engine with a `hash_mib` MiB table, stopped by `stop`,
    /// sending its events to `events`.
    pub fn new(hash_mib: usize, stop: StopSignal, events: Sender<Input>) -> GomokuHost {
        GomokuHost {
            engine: GomokuEngine::new(hash_mib, stop),
            events,
            generation: 0,
        }
    }

    /// Starts searching `board` within `limits` (after any search still
    /// running); the events of earlier searches are dropped from now on.
    pub fn start(&mut self, board: &crate::gomoku::Board, limits: crate::gomoku::search::Limits) {
        self.generation += 1;
        let generation = self.generation;
        let events = self.events.clone();
        self.engine.go(
            board,
            limits,
            Box::new(move |event| {
                let _ = events.send(Input::Gomoku { generation, event });
            }),
        );
    }

    /// Passes on an event when it belongs to the current search. The
    /// `Finished` event carries the result the engine hands to `wait`,
    /// which also frees it for the next search.
    pub fn accept(&mut self, generation: u64, event: GomokuEvent) -> Option<GomokuEvent> {
        if generation != self.generation {
            return None;
        }
        match event {
            GomokuEvent::Progress(_) => Some(event),
            GomokuEvent::Finished(_) => self.engine.wait().map(GomokuEvent::Finished),
        }
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
