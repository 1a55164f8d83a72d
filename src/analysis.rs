//! Game analysis: every move of a game compared with the best move.
//!
//! For each position where a move was chosen (forced passes are skipped),
//! the position is searched for its best move and score, and the position
//! after the move played is searched one ply less deep (or solved) for the
//! played move's score, both from the mover's point of view. Positions with
//! at most [`AnalysisOptions::exact_from`] empty squares are solved exactly,
//! both searches of their move, so that late scores are the true
//! game-theoretic values; earlier ones come from a midgame search to
//! [`AnalysisOptions::depth`] (or within [`AnalysisOptions::time`]). The
//! positions are analysed from the end of the game backwards, which lets the
//! endgame solves share the table.
//!
//! There is one analysis: an [`Analyser`] says which search comes next and
//! takes its result; [`analyse_game`] runs its searches for the command
//! line, the console runs the same ones through the engine.
//!
//! The loss of a move is `best score - played score` (never negative: when a
//! midgame search finds the played move better than its own choice, the
//! played move counts as best). A loss of [`MISTAKE_LOSS`] discs or more is
//! a **mistake** (`?`), of [`BLUNDER_LOSS`] or more a **blunder** (`??`):
//! the thresholds most Othello analysis tools use, four discs being about
//! the noise of a midgame evaluation and ten a lost corner.
//!
//! With an opening book, [`mark_book`] marks the moves that stay in the
//! book (the position after them is a book position) with the book's score
//! of the move.

use crate::color::Color;
use crate::game::Game;
use crate::moves::Move;
use crate::position::Position;
use crate::search::{Depth, Limits, SearchResult, Searcher, Selectivity, SolveMode, StopSignal};
use std::fmt::Write as _;
use std::time::Duration;

/// Solve exactly from this many empties unless told otherwise.
pub const DEFAULT_EXACT_FROM: u32 = 18;
/// The most empties a game analysis solves from: it solves every position
/// from there to the end, and one typical position of 30 empties takes about
/// 10 minutes on one thread (`crate::search::solve_cost`), each empty more
/// 2.3 times as long.
pub const MAX_EXACT_FROM: u32 = 30;
/// Midgame depth unless told otherwise.
pub const DEFAULT_DEPTH: u32 = 8;
/// Smallest loss (discs) that makes a move a mistake.
pub const MISTAKE_LOSS: i32 = 4;
/// Smallest loss (discs) that makes a move a blunder.
pub const BLUNDER_LOSS: i32 = 10;

/// How deep to look.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnalysisOptions {
    /// Midgame depth (`None`: limited by `time` only).
    pub depth: Option<u32>,
    /// Time for each search.
    pub time: Option<Duration>,
    /// Solve exactly at this many empties or fewer.
    pub exact_from: u32,
    /// Transposition table size, MiB.
    pub hash_mib: usize,
    /// Search threads.
    pub threads: usize,
    /// Selectivity of the midgame searches (solves are exact).
    pub selectivity: Selectivity,
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions {
            depth: Some(DEFAULT_DEPTH),
            time: None,
            exact_from: DEFAULT_EXACT_FROM,
            hash_mib: crate::search::DEFAULT_HASH_MIB,
            threads: 1,
            selectivity: Selectivity::NONE,
        }
    }
}

/// How good a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// Lost less than [`MISTAKE_LOSS`] discs.
    Good,
    Mistake,
    Blunder,
}

impl Judgement {
    /// The judgement of a loss in discs.
    pub fn of_loss(loss: i32) -> Judgement {
        if loss >= BLUNDER_LOSS {
            Judgement::Blunder
        } else if loss >= MISTAKE_LOSS {
            Judgement::Mistake
        } else {
            Judgement::Good
        }
    }

    /// `""`, `?` or `??`.
    pub fn mark(self) -> &'static str {
        match self {
            Judgement::Good => "",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Judgement::Good => "good",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }
}

/// The verdict on one chosen move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveEval {
    pub best: Move,
    /// Scores in discs from the mover's point of view.
    pub best_score: i32,
    pub played_score: i32,
    /// `best_score - played_score`, at least 0.
    pub loss: i32,
    /// Midgame depth or exact solve.
    pub depth: Depth,
    pub judgement: Judgement,
}

/// One move of the game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveAnalysis {
    /// Index of the move in the game (passes count), from 0.
    pub ply: usize,
    pub color: Color,
    pub played: Move,
    /// Empty squares before the move.
    pub empties: u32,
    /// `None` for a forced pass.
    pub eval: Option<MoveEval>,
    /// The opening book's score of the move (mover's view) when the move
    /// stays in the book; see [`mark_book`].
    pub book: Option<i32>,
}

impl MoveAnalysis {
    /// A score from the mover's view turned to Black's.
    pub fn black_view(&self, score: i32) -> i32 {
        match self.color {
            Color::Black => score,
            Color::White => -score,
        }
    }
}

/// One player's totals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayerTotals {
    /// Moves analysed (passes excluded).
    pub moves: u32,
    pub mistakes: u32,
    pub blunders: u32,
    /// Sum of the losses, discs.
    pub total_loss: i64,
}

impl PlayerTotals {
    /// Average loss per move.
    pub fn average_loss(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.total_loss as f64 / f64::from(self.moves)
        }
    }
}

/// The analysis of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameAnalysis {
    pub start: Position,
    pub moves: Vec<MoveAnalysis>,
    /// Black's and White's totals.
    pub totals: [PlayerTotals; 2],
    /// Black's final disc difference when the game is over.
    pub final_score: Option<i32>,
}

/// Analyses every move of `game`; `progress(done, total)` is called after
/// each move. The searches are those of an [`Analyser`], run here one after
/// the other on a table of their own.
pub fn analyse_game(
    game: &Game,
    options: &AnalysisOptions,
    progress: &mut dyn FnMut(usize, usize),
) -> GameAnalysis {
    let searcher = Searcher::warmed(options.hash_mib);
    let mut analyser = Analyser::new(game, *options);
    let stop = StopSignal::new();
    let mut reported = 0;
    loop {
        let next = analyser.next_search();
        while reported < analyser.done() {
            reported += 1;
            progress(reported, analyser.total());
        }
        let Some(search) = next else {
            return analyser.analysis();
        };
        let result = searcher.search(&search.position, &search.limits, &stop, &mut |_| {});
        analyser.record(&result);
    }
}

/// A search an analysis needs: the position and how deep to look.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisSearch {
    pub position: Position,
    pub limits: Limits,
}

/// The search of the move being analysed whose result is awaited.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Awaited {
    /// The position before the move: its best move and score.
    Best,
    /// The position after the move played, the best move being another.
    Played {
        best: Move,
        score: i32,
        depth: Depth,
    },
}

/// An analysis one search at a time, for whoever runs the searches: the
/// command line ([`analyse_game`]) or the console (through the engine,
/// which stays responsive to `stop`).
///
/// Ask [`Analyser::next_search`] for a search, run it, hand its result to
/// [`Analyser::record`], and so on until no search is left;
/// [`Analyser::analysis`] gives the moves analysed so far (the last ones of
/// the game, as the analysis goes from the end back) at any time.
#[derive(Clone, Debug)]
pub struct Analyser {
    game: Game,
    options: AnalysisOptions,
    /// Moves not analysed yet: the next one is `left - 1`.
    left: usize,
    awaited: Awaited,
    /// The moves analysed, from the last one back.
    done: Vec<MoveAnalysis>,
}

impl Analyser {
    pub fn new(game: &Game, options: AnalysisOptions) -> Analyser {
        Analyser {
            game: game.clone(),
            options,
            left: game.moves().len(),
            awaited: Awaited::Best,
            done: Vec::new(),
        }
    }

    /// Moves of the game.
    pub fn total(&self) -> usize {
        self.game.moves().len()
    }

    /// Moves analysed so far.
    pub fn done(&self) -> usize {
        self.done.len()
    }

    /// The next search to run, `None` once every move is analysed. Forced
    /// passes need none and are recorded on the way.
    pub fn next_search(&mut self) -> Option<AnalysisSearch> {
        loop {
            let ply = self.left.checked_sub(1)?;
            let position = self.game.positions()[ply];
            let played = self.game.moves()[ply];
            if played.is_pass() {
                self.finish_move(None);
                continue;
            }
            return Some(match self.awaited {
                Awaited::Best => AnalysisSearch {
                    position,
                    limits: limits(&position, &self.options, false),
                },
                Awaited::Played { .. } => AnalysisSearch {
                    position: position.play_unchecked(played),
                    limits: limits(&position, &self.options, true),
                },
            });
        }
    }

    /// Takes the result of the search [`Analyser::next_search`] gave last.
    pub fn record(&mut self, result: &SearchResult) {
        let Some(ply) = self.left.checked_sub(1) else {
            return;
        };
        let played = self.game.moves()[ply];
        match self.awaited {
            Awaited::Best => {
                let best = result.best.unwrap_or(played);
                if best.square() == played.square() {
                    let eval = judge(played, result.score, played, result.score, result.depth);
                    self.finish_move(Some(eval));
                } else {
                    self.awaited = Awaited::Played {
                        best,
                        score: result.score,
                        depth: result.depth,
                    };
                }
            }
            // The score after the move is the opponent's: the mover's is its
            // negation.
            Awaited::Played { best, score, depth } => {
                let eval = judge(best, score, played, -result.score, depth);
                self.finish_move(Some(eval));
            }
        }
    }

    fn finish_move(&mut self, eval: Option<MoveEval>) {
        let ply = self.left - 1;
        let position = self.game.positions()[ply];
        self.done.push(MoveAnalysis {
            ply,
            color: position.side,
            played: self.game.moves()[ply],
            empties: position.empty_count(),
            eval,
            book: None,
        });
        self.left = ply;
        self.awaited = Awaited::Best;
    }

    /// The analysis of the moves analysed so far: every move once the
    /// searches are done, else the last ones of the game.
    pub fn analysis(&self) -> GameAnalysis {
        let moves: Vec<MoveAnalysis> = self.done.iter().rev().copied().collect();
        let mut totals = [PlayerTotals::default(); 2];
        for analysis in &moves {
            let Some(eval) = analysis.eval else { continue };
            let totals = &mut totals[usize::from(analysis.color == Color::White)];
            totals.moves += 1;
            totals.total_loss += i64::from(eval.loss);
            match eval.judgement {
                Judgement::Good => {}
                Judgement::Mistake => totals.mistakes += 1,
                Judgement::Blunder => totals.blunders += 1,
            }
        }
        GameAnalysis {
            start: self.game.start(),
            moves,
            totals,
            final_score: self.game.final_score_black(),
        }
    }
}

/// The limits of a search for the move played in `root`: an exact solve
/// near the end, else the midgame depth at the analysis' selectivity, one
/// ply less for the position after the move (`child`), so that both scores
/// look as far. The root decides for both, so that the two scores of a move
/// always come from the same kind of search, never a midgame score beside a
/// solved one.
fn limits(root: &Position, options: &AnalysisOptions, child: bool) -> Limits {
    if root.empty_count() <= options.exact_from {
        return Limits {
            solve_empties: Some(64),
            solve_mode: SolveMode::Exact,
            threads: options.threads,
            ..Limits::default()
        };
    }
    Limits {
        depth: options.depth.map(|depth| {
            if child {
                depth.saturating_sub(1).max(1)
            } else {
                depth
            }
        }),
        time: options.time,
        selectivity: options.selectivity,
        threads: options.threads,
        ..Limits::default()
    }
}

/// The verdict on `played` scoring `played_score` where the search found
/// `best` scoring `best_score`, both from the mover's view. When the move
/// played scores better than the search's own choice (a midgame search may
/// see it so), the move played counts as the best: a loss is never
/// negative and the best move never scores below the move played.
fn judge(best: Move, best_score: i32, played: Move, played_score: i32, depth: Depth) -> MoveEval {
    let (best, best_score) = if played_score > best_score {
        (played, played_score)
    } else {
        (best, best_score)
    };
    let loss = best_score - played_score;
    MoveEval {
        best,
        best_score,
        played_score,
        loss,
        depth,
        judgement: Judgement::of_loss(loss),
    }
}

/// Marks the moves of `analysis` that stay in `book` (the position after
/// the move is in it, with a value) with the book's score of the move, from
/// the mover's view.
pub fn mark_book(analysis: &mut GameAnalysis, book: &crate::book::Book) {
    let mut position = analysis.start;
    for analysis in &mut analysis.moves {
        let Ok(next) = position.play(analysis.played) else {
            return;
        };
        analysis.book = book.value(&next).map(|value| -i32::from(value.score));
        position = next;
    }
}

/// Names and result of an analysed game, for display.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameInfo {
    /// Where the game comes from (`WTH_2024.wtb #12`).
    pub label: String,
    pub black: String,
    pub white: String,
}

/// A search's depth as the analysis tables write it: `12@73%`, `24@95%`
/// (a probable solve), `exact`, `wld`; at most 7 characters.
pub fn depth_label(depth: Depth) -> String {
    match depth {
        Depth::Exact => "exact".to_string(),
        Depth::Wld => "wld".to_string(),
        _ => depth.label(),
    }
}

/// `1 mistake`, `2 mistakes`.
fn counted(n: impl Into<i64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `Name (Black)`, or `Black` for a player with no name.
fn player_label(info: &GameInfo, color: Color) -> String {
    let name = match color {
        Color::Black => &info.black,
        Color::White => &info.white,
    };
    let colour = match color {
        Color::Black => "Black",
        Color::White => "White",
    };
    if name.is_empty() {
        colour.to_string()
    } else {
        format!("{name} ({colour})")
    }
}

/// `label: Name (Black) vs Name (White)`.
fn game_title(info: &GameInfo) -> String {
    let players = format!(
        "{} vs {}",
        player_label(info, Color::Black),
        player_label(info, Color::White)
    );
    if info.label.is_empty() {
        players
    } else {
        format!("{}: {players}", info.label)
    }
}

/// The analysis as a table, with the totals per player.
pub fn format_table(info: &GameInfo, analysis: &GameAnalysis) -> String {
    let mut text = String::new();
    let result = analysis
        .final_score
        .map_or("unfinished".to_string(), |score| {
            let black = (64 + score) / 2;
            format!("{black}-{}", 64 - black)
        });
    let _ = writeln!(text, "{}, result {result}", game_title(info));
    text.push_str(
        "  ply | colour | move | empties |  depth  | score | best | best score | loss |\n",
    );
    text.push_str(
        "------+--------+------+---------+---------+-------+------+------------+------+---\n",
    );
    for analysis in &analysis.moves {
        let colour = analysis.color.name();
        match analysis.eval {
            None => {
                let _ = writeln!(
                    text,
                    " {:>4} | {colour:<6} | {:<4} | {:>7} |         |       |      |            |      |",
                    analysis.ply + 1,
                    "pass",
                    analysis.empties
                );
            }
            Some(eval) => {
                let book = analysis
                    .book
                    .map_or(String::new(), |score| format!(" book {score:+}"));
                let _ = writeln!(
                    text,
                    " {:>4} | {colour:<6} | {:<4} | {:>7} | {:>7} | {:>+5} | {:<4} | {:>+10} | {:>4} | {}{book}",
                    analysis.ply + 1,
                    analysis.played.to_string(),
                    analysis.empties,
                    depth_label(eval.depth),
                    eval.played_score,
                    eval.best.to_string(),
                    eval.best_score,
                    eval.loss,
                    eval.judgement.mark()
                );
            }
        }
    }
    for color in [Color::Black, Color::White] {
        let totals = analysis.totals[usize::from(color == Color::White)];
        let _ = writeln!(
            text,
            "{}: {}, {}, {}, total loss {}, average {:.2}",
            player_label(info, color),
            counted(totals.moves, "move", "moves"),
            counted(totals.mistakes, "mistake", "mistakes"),
            counted(totals.blunders, "blunder", "blunders"),
            counted(totals.total_loss, "disc", "discs"),
            totals.average_loss()
        );
    }
    let _ = writeln!(
        text,
        "(? mistake: loss >= {MISTAKE_LOSS} discs, ?? blunder: loss >= {BLUNDER_LOSS}; scores are discs for the side to move)"
    );
    if analysis.moves.iter().any(|m| m.book.is_some()) {
        text.push_str("(book +n: the move stays in the opening book, which scores it n)\n");
    }
    text
}

/// The evaluation graph: the value of each position (best play) and the
/// value after the move played, in discs from Black's view, by move.
pub fn eval_chart(info: &GameInfo, analysis: &GameAnalysis) -> crate::svg::LineChart {
    use crate::svg::{LineChart, Marker, Series};
    let mut best = Vec::new();
    let mut played = Vec::new();
    let mut markers = Vec::new();
    for analysis in &analysis.moves {
        let Some(eval) = analysis.eval else { continue };
        let x = (analysis.ply + 1) as f64;
        best.push((x, f64::from(analysis.black_view(eval.best_score))));
        let y = f64::from(analysis.black_view(eval.played_score));
        played.push((x, y));
        let color = match eval.judgement {
            Judgement::Good => continue,
            Judgement::Mistake => "#e69f00",
            Judgement::Blunder => "#d62728",
        };
        markers.push(Marker {
            x,
            y,
            color: color.to_string(),
            label: format!(
                "{} {}{}",
                analysis.ply + 1,
                analysis.played,
                eval.judgement.mark()
            ),
        });
    }
    LineChart {
        title: game_title(info),
        x_label: "move".to_string(),
        y_label: "score for Black (discs)".to_string(),
        series: vec![
            Series {
                name: "best play".to_string(),
                color: "#1f77b4".to_string(),
                dashed: false,
                points: best,
            },
            Series {
                name: "move played".to_string(),
                color: "#2ca02c".to_string(),
                dashed: true,
                points: played,
            },
        ],
        markers,
        x_range: Some((0.0, analysis.moves.len().max(1) as f64)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::transcript;

    #[test]
    fn judgements() {
        assert_eq!(Judgement::of_loss(0), Judgement::Good);
        assert_eq!(Judgement::of_loss(MISTAKE_LOSS), Judgement::Mistake);
        assert_eq!(Judgement::of_loss(BLUNDER_LOSS + 6), Judgement::Blunder);
    }

    #[test]
    fn a_move_played_scoring_above_the_best_is_the_best() {
        let moves = Position::default().move_list();
        let (best, played) = (moves[0], moves[1]);
        let depth = Depth::plies(3);
        let eval = judge(best, 10, played, 12, depth);
        assert_eq!((eval.best, eval.best_score, eval.loss), (played, 12, 0));
        let eval = judge(best, 10, played, 4, depth);
        assert_eq!((eval.best, eval.best_score, eval.loss), (best, 10, 6));
        assert_eq!(eval.judgement, Judgement::Mistake);
    }

    #[test]
    fn both_searches_of_a_move_are_of_the_same_kind() {
        let options = AnalysisOptions {
            exact_from: 20,
            ..AnalysisOptions::default()
        };
        let empties = |n: u32| {
            let mut position = Position::default();
            while position.empty_count() > n {
                position = position.play_unchecked(position.move_list()[0]);
            }
            position
        };
        // 21 empties: the position after the move has 20, but is searched
        // as its move's root is, in the midgame.
        let root = empties(21);
        assert_eq!(limits(&root, &options, true).solve_empties, None);
        assert_eq!(limits(&root, &options, true).depth, Some(DEFAULT_DEPTH - 1));
        assert_eq!(
            limits(&empties(20), &options, false).solve_empties,
            Some(64)
        );
        assert_eq!(limits(&empties(20), &options, true).solve_empties, Some(64));
    }

    #[test]
    fn a_greedy_game_is_analysed_consistently() {
        // A greedy-versus-greedy game from a 20-move opening.
        let start = Position::default();
        let mut game =
            transcript::parse_game("f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6", start).unwrap();
        let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(1);
        while !game.is_over() {
            let mv = crate::players::SimplePlayer::Greedy.choose(&game.position(), &mut rng);
            game.play(mv).unwrap();
        }
        let options = AnalysisOptions {
            depth: Some(2),
            exact_from: 10,
            hash_mib: 4,
            ..AnalysisOptions::default()
        };
        let mut calls = 0;
        let analysis = analyse_game(&game, &options, &mut |_, _| calls += 1);
        assert_eq!(calls, game.moves().len());
        assert_eq!(analysis.moves.len(), game.moves().len());
        assert_eq!(analysis.final_score, game.final_score_black());
        for analysis in &analysis.moves {
            let Some(eval) = analysis.eval else { continue };
            assert!(eval.loss >= 0);
            assert_eq!(eval.loss, eval.best_score - eval.played_score);
            if analysis.empties <= 10 {
                assert_eq!(eval.depth, Depth::Exact);
            }
        }
        // The last move's exact value is the final result.
        let last = analysis
            .moves
            .iter()
            .rev()
            .find(|m| m.eval.is_some())
            .unwrap();
        assert_eq!(
            last.black_view(last.eval.unwrap().played_score),
            game.final_score_black().unwrap()
        );
        let info = GameInfo::default();
        let table = format_table(&info, &analysis);
        assert!(table.contains("\nBlack: "), "{table}");
        let json = crate::json::game_analysis_json(&info, &analysis);
        assert!(json.starts_with("{\"game\":\"\"") && json.ends_with("}}"));
    }
}
