//! oxello in the match process: a level or a simple player played through
//! the [`Engine`] facade, with no subprocess and no protocol.

use crate::arena::contestant::{
    Contestant, Fault, GameSetup, Lifecycle, MoveRequest, MoveTime, Othello, Reply,
};
use crate::engine::{Engine, EngineOptions, GoRequest, Player};
use crate::formats::transcript::Token;
use crate::search::Clock;

/// An in-process oxello.
pub struct LocalEngine {
    name: String,
    options: EngineOptions,
    engine: Option<Engine>,
}

impl LocalEngine {
    /// A player with its own table of `hash_mib` MiB searching with
    /// `threads` threads; `depth` fixes its midgame depth.
    pub fn new(
        name: &str,
        player: Player,
        depth: Option<u32>,
        hash_mib: usize,
        threads: usize,
    ) -> LocalEngine {
        LocalEngine {
            name: name.to_string(),
            options: EngineOptions {
                hash_mib,
                player,
                depth,
                threads: Some(threads.max(1)),
                ..EngineOptions::default()
            },
            engine: None,
        }
    }

    fn engine(&mut self) -> &mut Engine {
        let options = &self.options;
        self.engine
            .get_or_insert_with(|| Engine::new(options.clone()))
    }
}

impl Lifecycle for LocalEngine {
    fn name(&self) -> &str {
        &self.name
    }

    fn ensure_started(&mut self) -> Result<(), Fault> {
        self.engine();
        Ok(())
    }

    fn restart(&mut self) -> Result<(), Fault> {
        self.engine = None;
        self.ensure_started()
    }

    fn set_seed(&mut self, seed: u64) {
        self.options.seed = seed;
        if let Some(engine) = &mut self.engine {
            engine.set_seed(seed);
        }
    }
}

impl Contestant<Othello> for LocalEngine {
    /// A fresh table for every game, so that a game does not depend on the
    /// games played before it (the same as a new process would give).
    fn new_game(&mut self, _setup: &GameSetup) -> Result<(), Fault> {
        self.engine().clear_table();
        Ok(())
    }

    fn choose(&mut self, request: &MoveRequest<'_>) -> Result<Reply, Fault> {
        let simple = matches!(self.options.player, Player::Simple(_));
        let mut go = GoRequest {
            depth: request.depth,
            ..GoRequest::default()
        };
        match request.time {
            MoveTime::Unlimited => {}
            MoveTime::PerMove(time) => go.time = Some(time),
            MoveTime::Clock(clock) => {
                go.clock = Some(Clock {
                    remaining: clock.remaining,
                    increment: clock.increment,
                    moves_to_go: None,
                })
            }
        }
        let engine = self.engine();
        engine.set_game(request.game.clone());
        let result = engine
            .think(go)
            .ok_or_else(|| Fault::crash("the search thread ended without a result"))?;
        let token = match result.best.and_then(|mv| mv.square()) {
            Some(square) => Token::Square(square),
            None => Token::Pass,
        };
        Ok(Reply {
            token,
            eval: (!simple).then_some(f64::from(result.score)),
        })
    }
}
