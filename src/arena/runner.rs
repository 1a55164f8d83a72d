//! Runs a match: worker threads play the scheduled games, each with its own
//! pair of engines (kept across games, restarted after a fault); the calling
//! thread writes every finished game to the match file, keeps the tally,
//! reports progress and stops the match when the SPRT decides (games still
//! in progress then are finished but neither written nor counted, so the
//! result is the one the test decided on) or the engines cannot be started.

use crate::arena::contestant::{Fault, Lifecycle};
use crate::arena::game::{MatchGame, MatchRecord, PlayedGame};
use crate::arena::record::{self, GameTag, MatchFile, RecordError};
use crate::arena::results::{GameResult, Tally};
use crate::arena::schedule::{self, ScheduledGame};
use crate::arena::stats::SprtDecision;
use crate::arena::{MatchConfig, MatchEvent, MatchReport};
use crate::color::Color;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Starting an engine failing this many times in a row ends the match.
const MAX_START_FAILURES: u32 = 3;

/// Why a match could not be run.
#[derive(Debug)]
pub enum MatchError {
    /// The match file could not be read or written.
    Record(RecordError),
    /// The match file holds games of another schedule or other engines.
    Mismatch(String),
    /// An engine cannot be started.
    Engine { name: String, fault: Fault },
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Record(error) => write!(f, "match file: {error}"),
            MatchError::Mismatch(what) => write!(f, "cannot resume: {what}"),
            MatchError::Engine { name, fault } => write!(f, "engine {name}: {fault}"),
        }
    }
}

impl std::error::Error for MatchError {}

impl From<RecordError> for MatchError {
    fn from(error: RecordError) -> Self {
        MatchError::Record(error)
    }
}

/// What a worker tells the main thread.
enum Message<R> {
    Played(ScheduledGame, Box<PlayedGame<R>>),
    Fatal(MatchError),
}

/// Runs the match of `config`, calling `observer` for every event.
pub fn run_match<G: MatchGame>(
    config: &MatchConfig<G>,
    observer: &mut dyn FnMut(MatchEvent<'_, G::Record>),
) -> Result<MatchReport, MatchError> {
    let names = [
        config.engines[0].name.clone(),
        config.engines[1].name.clone(),
    ];
    let games = schedule::schedule(config.game.openings(), &config.schedule);
    let in_shard = |game: &ScheduledGame| config.shard.contains(pair_of(game.number));
    let shard_games = games.iter().filter(|game| in_shard(game)).count();
    let mut tally = Tally::new(names.clone());
    let mut done = vec![false; games.len()];
    if let Some(path) = &config.output {
        let previous = record::load::<G::Record>(path)?;
        for (game, tag) in &previous {
            check_resumed(config, &games, game, tag)?;
            if done[tag.number - 1] {
                return Err(MatchError::Mismatch(format!(
                    "game {} is in the file twice",
                    tag.number
                )));
            }
            done[tag.number - 1] = true;
            tally.add(&GameResult::from_record(game, tag.clone()));
        }
        if !previous.is_empty() {
            observer(MatchEvent::Resumed {
                games: previous.len(),
                tally: &tally,
                total: shard_games,
            });
        }
    }
    let mut pending: Vec<ScheduledGame> = games
        .iter()
        .filter(|game| in_shard(game) && !done[game.number - 1])
        .copied()
        .collect();
    if let Some(limit) = config.stop_after {
        pending.truncate(limit);
    }
    let decided = |tally: &Tally| {
        config
            .sprt
            .is_some_and(|sprt| sprt.decision(&tally.wdl) != SprtDecision::Continue)
    };
    if decided(&tally) {
        pending.clear();
    }
    observer(MatchEvent::Started {
        total: shard_games,
        to_play: pending.len(),
    });
    let mut file = match &config.output {
        Some(path) if !pending.is_empty() => Some(MatchFile::open(path)?),
        _ => None,
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let workers = config.concurrency.clamp(1, pending.len().max(1));
    let (sender, receiver) = mpsc::channel::<Message<G::Record>>();
    let mut failure = None;
    let mut played = 0;
    std::thread::scope(|scope| {
        for worker in 0..workers {
            let sender = sender.clone();
            let (pending, next, stop) = (&pending, &next, &stop);
            std::thread::Builder::new()
                .name(format!("match-worker-{worker}"))
                .spawn_scoped(scope, move || {
                    work(config, pending, next, stop, &sender);
                })
                .expect("cannot start a match worker");
        }
        drop(sender);
        let mut decided_now = false;
        for message in receiver {
            match message {
                // Once the SPRT has decided, games still in progress then are
                // not counted (nor written): the result is the one decided.
                Message::Played(..) if decided_now => {}
                Message::Played(game, outcome) => {
                    let (record, result) = finish_record(config, &game, *outcome);
                    if let Some(file) = file.as_mut()
                        && let Err(error) = file.append(&record)
                    {
                        failure.get_or_insert(MatchError::Record(error));
                        stop.store(true, Ordering::SeqCst);
                    }
                    tally.add(&result);
                    played += 1;
                    observer(MatchEvent::GameFinished {
                        record: &record,
                        result: &result,
                        tally: &tally,
                        total: shard_games,
                    });
                    if decided(&tally) {
                        decided_now = true;
                        stop.store(true, Ordering::SeqCst);
                    }
                }
                Message::Fatal(error) => {
                    failure.get_or_insert(error);
                    stop.store(true, Ordering::SeqCst);
                }
            }
        }
    });
    if let Some(error) = failure {
        return Err(error);
    }
    let complete = tally.games() as usize == shard_games;
    Ok(MatchReport {
        sprt: config
            .sprt
            .map(|sprt| (sprt, sprt.llr(&tally.wdl), sprt.decision(&tally.wdl))),
        tally,
        scheduled: shard_games,
        played,
        complete,
    })
}

/// A game of the file must be the game of this schedule with that number,
/// played by these engines.
fn check_resumed<G: MatchGame>(
    config: &MatchConfig<G>,
    games: &[ScheduledGame],
    record: &G::Record,
    tag: &GameTag,
) -> Result<(), MatchError> {
    let mismatch = |what: String| Err(MatchError::Mismatch(format!("game {}: {what}", tag.number)));
    let Some(game) = games.get(tag.number.wrapping_sub(1)) else {
        return mismatch(format!("not among the {} games scheduled", games.len()));
    };
    if !config.shard.contains(pair_of(game.number)) {
        return mismatch(format!(
            "belongs to another shard than {} (a match file per shard)",
            config.shard
        ));
    }
    let expected = GameTag::new(game, &config.game.opening_text(game.opening));
    if (
        expected.round,
        expected.opening,
        expected.black,
        &expected.moves,
    ) != (tag.round, tag.opening, tag.black, &tag.moves)
    {
        return mismatch(format!(
            "the file has '{}', this match schedules '{expected}' (other openings or seed?)",
            GameTag {
                forfeit: None,
                note: String::new(),
                ..tag.clone()
            }
        ));
    }
    let names = [&config.engines[0].name, &config.engines[1].name];
    let black = names[tag.black];
    let white = names[1 - tag.black];
    let [played_black, played_white] = record.players();
    if played_black != black || played_white != white {
        return mismatch(format!(
            "played by {played_black} (Black) and {played_white} (White), not {black} and {white}"
        ));
    }
    Ok(())
}

/// The pair of game `number` (from 1): the two games of an opening, which
/// one shard plays together.
fn pair_of(number: usize) -> u64 {
    (number.saturating_sub(1) / 2) as u64
}

/// The record of a played game with its tag, and its result.
fn finish_record<G: MatchGame>(
    config: &MatchConfig<G>,
    game: &ScheduledGame,
    played: PlayedGame<G::Record>,
) -> (G::Record, GameResult) {
    let mut tag = GameTag::new(game, &config.game.opening_text(game.opening));
    if let Some(forfeit) = &played.forfeit {
        let engine = engine_of(game, forfeit.loser);
        tag.forfeit = Some((engine, forfeit.fault.kind));
        tag.note = format!(
            "{} ({}) {}",
            config.engines[engine].name,
            forfeit.loser.name(),
            forfeit.fault
        );
    }
    let mut record = played.record;
    record.set_comment(tag.to_string());
    let result = GameResult::from_record(&record, tag);
    (record, result)
}

/// The engine (0 or 1) that has `color` in `game`.
fn engine_of(game: &ScheduledGame, color: Color) -> usize {
    match color {
        Color::Black => game.black,
        Color::White => 1 - game.black,
    }
}

/// The seed of engine `engine`'s random choices in game `number`: draws of
/// one generator started at the match seed, unrelated from game to game and
/// engine to engine.
fn game_seed(seed: u64, number: usize, engine: usize) -> u64 {
    schedule::splitmix_at(seed, 2 * number as u64 + engine as u64)
}

/// A worker: plays pending games until none is left or the match stops.
fn work<G: MatchGame>(
    config: &MatchConfig<G>,
    pending: &[ScheduledGame],
    next: &AtomicUsize,
    stop: &AtomicBool,
    sender: &mpsc::Sender<Message<G::Record>>,
) {
    let fatal = |spec: &crate::arena::EngineSpec, fault| {
        let _ = sender.send(Message::Fatal(MatchError::Engine {
            name: spec.name.clone(),
            fault,
        }));
    };
    let mut engines = Vec::with_capacity(2);
    for spec in &config.engines {
        let started = config
            .game
            .player(spec, config.startup_timeout)
            .and_then(|mut engine| engine.ensure_started().map(|()| engine));
        match started {
            Ok(engine) => engines.push(engine),
            Err(fault) => return fatal(spec, fault),
        }
    }
    let mut start_failures = [0u32; 2];
    loop {
        if stop.load(Ordering::SeqCst) {
            return;
        }
        let index = next.fetch_add(1, Ordering::SeqCst);
        let Some(&game) = pending.get(index) else {
            return;
        };
        for (index, engine) in engines.iter_mut().enumerate() {
            engine.set_seed(game_seed(config.seed, game.number, index));
        }
        let (first, second) = engines.split_at_mut(1);
        let (black, white) = if game.black == 0 {
            (&mut first[0], &mut second[0])
        } else {
            (&mut second[0], &mut first[0])
        };
        let played = config.game.play(black, white, game.opening);
        if let Some(forfeit) = &played.forfeit {
            let engine = engine_of(&game, forfeit.loser);
            match engines[engine].restart() {
                Ok(()) => start_failures[engine] = 0,
                Err(fault) => {
                    start_failures[engine] += 1;
                    if start_failures[engine] >= MAX_START_FAILURES {
                        let _ = sender.send(Message::Played(game, Box::new(played)));
                        return fatal(&config.engines[engine], fault);
                    }
                }
            }
        }
        if sender
            .send(Message::Played(game, Box::new(played)))
            .is_err()
        {
            return;
        }
    }
}
