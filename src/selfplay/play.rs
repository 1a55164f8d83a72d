//! One self-play game: every position with a choice is searched for the
//! score of every legal move (multi-PV over all of them), the policy is the
//! softmax of those scores, and the move played is the best one or, early
//! in the game, drawn among the near-best.
//!
//! # What the search sees
//!
//! Each search is single-threaded and limited by depth and, if asked, by
//! nodes, never by time, and the table is cleared at the start of each
//! game: a game depends only on its start and the seed, not on the machine,
//! its load or which games a worker played before.
//!
//! Scoring every move costs one root search per move at each iteration
//! (multi-PV excluding the moves already found). Under a node budget this
//! buys exact per-move scores at a shallower depth; when the budget runs out
//! in the middle of an iteration, the moves it did not reach keep the score
//! of the previous iteration, and a move never scored (a budget too small
//! for one iteration) gets probability 0.
//!
//! # Passes
//!
//! A forced pass has no choice to learn from: it is played and gets no
//! record. Outcomes stay right because each record stores the outcome from
//! its own side to move's view.

use super::record::{Policy, Record, softmax_weight};
use crate::engine::Level;
use crate::game::Game;
use crate::moves::Move;
use crate::position::Position;
use crate::search::{Depth, Limits, Searcher, Selectivity, SolveMode, StopSignal};
use crate::square::Square;
use rand::Rng;
use rand::rngs::StdRng;

/// How deep each position is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchBudget {
    /// Deepest midgame iteration.
    pub depth: u32,
    /// Multi-ProbCut selectivity of the midgame (and of the first solve
    /// step of large solves).
    pub selectivity: Selectivity,
    /// Solve exactly from this many empties.
    pub exact_empties: u32,
    /// Nodes per move (`None`: the depth alone limits the search).
    pub nodes: Option<u64>,
}

impl SearchBudget {
    /// The budget of a playing level (its depth, selectivity and exact
    /// solve; the win/loss/draw solve of play is left out, as its scores are
    /// no disc differences).
    pub fn of_level(level: Level) -> SearchBudget {
        SearchBudget {
            depth: level.midgame_depth,
            selectivity: level.selectivity,
            exact_empties: level.exact_empties,
            nodes: None,
        }
    }

    /// The limits of a search of `position` scoring every legal move.
    pub fn limits(&self, position: &Position) -> Limits {
        Limits {
            depth: Some(self.depth.max(1)),
            solve_empties: Some(self.exact_empties),
            solve_mode: SolveMode::Exact,
            nodes: self.nodes,
            multi_pv: position.legal_moves().count_ones() as usize,
            selectivity: self.selectivity,
            solve_selectivity: Limits::ladder(self.selectivity, position.empty_count()),
            threads: 1,
            ..Limits::default()
        }
    }
}

/// Which root moves a self-play search scores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scoring {
    /// Every legal move (multi-PV over all of them): the policy is the
    /// softmax of their scores.
    #[default]
    All,
    /// The best move only: the policy is one-hot and no move is drawn. For
    /// value data (positions labelled by outcomes and exact scores) at a
    /// fraction of the cost: about 8 legal moves make `all` several times
    /// slower.
    Best,
}

impl std::str::FromStr for Scoring {
    type Err = String;

    fn from_str(text: &str) -> Result<Scoring, String> {
        match text {
            "all" => Ok(Scoring::All),
            "best" => Ok(Scoring::Best),
            _ => Err(format!("{text:?}: expected all or best")),
        }
    }
}

/// How moves are chosen and the policy is made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayOptions {
    pub budget: SearchBudget,
    /// Which root moves each search scores.
    pub scoring: Scoring,
    /// Temperature (discs) of the softmax that draws the move played during
    /// the first [`PlayOptions::random_plies`] plies; 0 plays the best.
    pub temperature: f64,
    /// Moves are drawn while fewer than this many plies (from the standard
    /// start, opening and passes included) have been played.
    pub random_plies: u32,
    /// Only moves at most this many discs below the best are drawn.
    pub max_loss: i32,
    /// Temperature (discs) of the softmax that makes the recorded policy.
    pub policy_temperature: f64,
}

/// Plays game `index` on from `start` and returns its records, or `None`
/// when `stop` ended it early.
pub fn play_game(
    index: u32,
    start: Game,
    options: &PlayOptions,
    searcher: &mut Searcher,
    rng: &mut StdRng,
    stop: &StopSignal,
) -> Option<Vec<Record>> {
    searcher.clear();
    let mut game = start;
    let mut records = Vec::new();
    loop {
        let position = game.position();
        if position.is_game_over() {
            break;
        }
        if position.must_pass() {
            game.play(Move::Pass).ok()?;
            continue;
        }
        let mut limits = options.budget.limits(&position);
        if options.scoring == Scoring::Best {
            limits.multi_pv = 1;
        }
        let result = searcher.search(&position, &limits, stop, &mut |_| {});
        if stop.is_stopped() {
            return None;
        }
        let scores: Vec<(Square, i32)> = result
            .lines
            .iter()
            .filter_map(|line| Some((line.best().square()?, line.score)))
            .collect();
        let best = result
            .best
            .and_then(Move::square)
            .or_else(|| Square::from_lowest_bit(position.legal_moves()))?;
        let policy = Policy::softmax(&scores, options.policy_temperature)
            .unwrap_or_else(|| Policy::one_hot(best));
        let mv = if game.moves().len() < options.random_plies as usize {
            draw(&scores, options.temperature, options.max_loss, rng).unwrap_or(best)
        } else {
            best
        };
        let squares = position.size.squares() as i32;
        let empties = position.empty_count();
        let depth = match result.depth {
            Depth::Midgame(plies, _) => plies,
            Depth::Probable { empties, .. } => empties,
            Depth::Exact | Depth::Wld => empties,
        };
        records.push(Record {
            game: index,
            ply: u8::try_from(game.moves().len()).unwrap_or(u8::MAX),
            index: u8::try_from(records.len()).unwrap_or(u8::MAX),
            records: 0,
            position,
            policy,
            mv,
            score: result.score.clamp(-squares, squares) as i8,
            depth: depth.min(empties) as u8,
            exact: result.depth == Depth::Exact,
            outcome: 0,
        });
        game.play_square(mv).ok()?;
    }
    let final_black = game.position().final_score_black();
    let count = u8::try_from(records.len()).unwrap_or(u8::MAX);
    for record in &mut records {
        record.records = count;
        let outcome = match record.position.side {
            crate::color::Color::Black => final_black,
            crate::color::Color::White => -final_black,
        };
        record.outcome = outcome as i8;
    }
    Some(records)
}

/// A move drawn among those at most `max_loss` below the best, with softmax
/// weights at `temperature` (both in the scores' unit); `None` when no draw
/// is to be made (no scores, or temperature 0).
pub(crate) fn draw<M: Copy>(
    scores: &[(M, i32)],
    temperature: f64,
    max_loss: i32,
    rng: &mut StdRng,
) -> Option<M> {
    let best = scores.iter().map(|&(_, s)| s).max()?;
    if temperature <= 0.0 {
        return None;
    }
    let candidates: Vec<(M, f64)> = scores
        .iter()
        .filter(|&&(_, s)| s >= best.saturating_sub(max_loss))
        .map(|&(mv, s)| (mv, softmax_weight(s, best, temperature)))
        .collect();
    let total: f64 = candidates.iter().map(|&(_, w)| w).sum();
    let mut target = rng.random::<f64>() * total;
    for &(mv, weight) in &candidates {
        if target < weight {
            return Some(mv);
        }
        target -= weight;
    }
    candidates.last().map(|&(mv, _)| mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::BoardSize;
    use rand::SeedableRng;

    fn options(size_nodes: u64) -> PlayOptions {
        PlayOptions {
            budget: SearchBudget {
                depth: 4,
                selectivity: Selectivity::NONE,
                exact_empties: 8,
                nodes: Some(size_nodes),
            },
            scoring: Scoring::All,
            temperature: 1.0,
            random_plies: 4,
            max_loss: 4,
            policy_temperature: 1.0,
        }
    }

    #[test]
    fn a_game_has_a_record_per_choice_and_consistent_outcomes() {
        let mut searcher = Searcher::new(1);
        let stop = StopSignal::new();
        for size in BoardSize::ALL {
            let mut rng = StdRng::seed_from_u64(3);
            let records = play_game(
                7,
                Game::new(size),
                &options(3000),
                &mut searcher,
                &mut rng,
                &stop,
            )
            .unwrap();
            assert!(!records.is_empty());
            // Replaying the moves from the first record reaches every
            // later record's position (passes in between).
            let mut position = records[0].position;
            for (i, record) in records.iter().enumerate() {
                record.check().unwrap();
                assert_eq!(record.index as usize, i);
                assert_eq!(record.records as usize, records.len());
                assert_eq!(record.game, 7);
                if position.must_pass() {
                    position = position.play_unchecked(Move::Pass);
                }
                assert_eq!(record.position, position, "{size} record {i}");
                assert_ne!(record.policy.weights()[record.mv.index()], 0);
                position = position.play_unchecked(position.placement(record.mv).unwrap());
                // The outcome flips with the side to move.
                let first = &records[0];
                let same_side = record.position.side == first.position.side;
                assert_eq!(
                    record.outcome == first.outcome,
                    same_side || first.outcome == 0
                );
            }
            let last = records.last().unwrap();
            assert!(last.exact, "{size}: the end is solved");
            assert_eq!(
                last.score, last.outcome,
                "{size}: the end is played perfectly"
            );
        }
    }

    #[test]
    fn scoring_the_best_move_only_gives_one_hot_policies() {
        let mut searcher = Searcher::new(1);
        let stop = StopSignal::new();
        let options = PlayOptions {
            scoring: Scoring::Best,
            ..options(3000)
        };
        let mut rng = StdRng::seed_from_u64(3);
        let records = play_game(
            0,
            Game::new(BoardSize::Six),
            &options,
            &mut searcher,
            &mut rng,
            &stop,
        )
        .unwrap();
        assert!(!records.is_empty());
        for record in &records {
            let weights = record.policy.weights();
            assert_eq!(weights[record.mv.index()], u16::MAX, "{record:?}");
            assert_eq!(weights.iter().filter(|&&w| w != 0).count(), 1);
        }
        assert_eq!("best".parse(), Ok(Scoring::Best));
        assert!("some".parse::<Scoring>().is_err());
    }

    #[test]
    fn a_raised_stop_gives_no_game() {
        let stop = StopSignal::new();
        stop.stop();
        let mut rng = StdRng::seed_from_u64(3);
        let game = Game::new(BoardSize::Six);
        let mut searcher = Searcher::new(1);
        assert_eq!(
            play_game(0, game, &options(3000), &mut searcher, &mut rng, &stop),
            None
        );
    }

    #[test]
    fn draws_stay_within_the_loss_window() {
        let sq = |n: &str| n.parse::<Square>().unwrap();
        let scores = [(sq("a1"), 10), (sq("b1"), 8), (sq("c1"), -20)];
        let mut rng = StdRng::seed_from_u64(1);
        let mut seen = [0; 2];
        for _ in 0..1000 {
            match draw(&scores, 1.0, 4, &mut rng).unwrap() {
                s if s == sq("a1") => seen[0] += 1,
                s if s == sq("b1") => seen[1] += 1,
                s => panic!("{s} is 30 discs worse"),
            }
        }
        // exp(-2) = 0.135: about 120 of 1000 draws go to b1.
        assert!((60..200).contains(&seen[1]), "{seen:?}");
        assert_eq!(draw(&scores, 0.0, 4, &mut rng), None);
    }
}
