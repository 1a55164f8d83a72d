//! Game analysis: every move of a game compared with the best move.
//!
//! For each position where a move was chosen (forced passes are skipped),
//! the position is searched for its best move and score, and the position
//! after the move played is searched one ply less deep (or solved) for the
//! played move's score, both from the mover's point of view. Positions with
//! at most [`AnalysisOptions::exact_from`] empty squares are solved exactly,
//! so that late scores are the true game-theoretic values; earlier ones come
//! from a midgame search to [`AnalysisOptions::depth`] (or within
//! [`AnalysisOptions::time`]). The positions are analysed from the end of
//! the game backwards, which lets the endgame solves share the table.
//!
//! The loss of a move is `best score - played score` (never negative: when a
//! midgame search finds the played move better than its own choice, the
//! played move counts as best). A loss of [`MISTAKE_LOSS`] discs or more is
//! a **mistake** (`?`), of [`BLUNDER_LOSS`] or more a **blunder** (`??`):
//! the thresholds most Othello analysis tools use, four discs being about
//! the noise of a midgame evaluation and ten a lost corner.

use crate::color::Color;
use crate::game::Game;
use crate::moves::Move;
use crate::position::Position;
use crate::search::{Depth, Limits, Searcher, SolveMode, StopSignal};
use std::fmt::Write as _;
use std::time::Duration;

/// Solve exactly from this many empties unless told otherwise.
pub const DEFAULT_EXACT_FROM: u32 = 18;
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
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions {
            depth: Some(DEFAULT_DEPTH),
            time: None,
            exact_from: DEFAULT_EXACT_FROM,
            hash_mib: crate::search::DEFAULT_HASH_MIB,
            threads: 1,
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
/// each position.
pub fn analyse_game(
    game: &Game,
    options: &AnalysisOptions,
    progress: &mut dyn FnMut(usize, usize),
) -> GameAnalysis {
    let mut searcher = Searcher::new(options.hash_mib);
    let positions = game.positions();
    let total = game.moves().len();
    let mut moves: Vec<MoveAnalysis> = Vec::with_capacity(total);
    for (done, ply) in (0..total).rev().enumerate() {
        let position = positions[ply];
        let played = game.moves()[ply];
        let eval =
            (!played.is_pass()).then(|| evaluate_move(&mut searcher, &position, played, options));
        moves.push(MoveAnalysis {
            ply,
            color: position.side,
            played,
            empties: position.empty_count(),
            eval,
        });
        progress(done + 1, total);
    }
    moves.reverse();
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
        start: game.start(),
        moves,
        totals,
        final_score: game.final_score_black(),
    }
}

/// The limits for a position: an exact solve near the end, else the
/// midgame depth (one less for the position after the move: `child`).
fn limits(position: &Position, options: &AnalysisOptions, child: bool) -> Limits {
    if position.empty_count() <= options.exact_from {
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
        threads: options.threads,
        ..Limits::default()
    }
}

/// Searches the best move of `position` and scores `played`.
fn evaluate_move(
    searcher: &mut Searcher,
    position: &Position,
    played: Move,
    options: &AnalysisOptions,
) -> MoveEval {
    let stop = StopSignal::new();
    let root = searcher.search(
        position,
        &limits(position, options, false),
        &stop,
        &mut |_| {},
    );
    let mut best = root.best.unwrap_or(played);
    let mut best_score = root.score;
    let played_score = if best.square() == played.square() {
        best_score
    } else {
        let after = position.play_unchecked(played);
        let reply = searcher.search(&after, &limits(&after, options, true), &stop, &mut |_| {});
        -reply.score
    };
    if played_score > best_score {
        best = played;
        best_score = played_score;
    }
    let loss = best_score - played_score;
    MoveEval {
        best,
        best_score,
        played_score,
        loss,
        depth: root.depth,
        judgement: Judgement::of_loss(loss),
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

fn depth_label(depth: Depth) -> String {
    match depth {
        Depth::Exact => "exact".to_string(),
        Depth::Wld => "wld".to_string(),
        _ => depth.label(),
    }
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
    text.push_str("  ply | colour | move | empties | depth | score | best | best score | loss |\n");
    text.push_str(
        "------+--------+------+---------+-------+-------+------+------------+------+---\n",
    );
    for analysis in &analysis.moves {
        let colour = analysis.color.name();
        match analysis.eval {
            None => {
                let _ = writeln!(
                    text,
                    " {:>4} | {colour:<6} | {:<4} | {:>7} |       |       |      |            |      |",
                    analysis.ply + 1,
                    "pass",
                    analysis.empties
                );
            }
            Some(eval) => {
                let _ = writeln!(
                    text,
                    " {:>4} | {colour:<6} | {:<4} | {:>7} | {:>5} | {:>+5} | {:<4} | {:>+10} | {:>4} | {}",
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
            "{}: {} moves, {} mistakes, {} blunders, total loss {} discs, average {:.2}",
            player_label(info, color),
            totals.moves,
            totals.mistakes,
            totals.blunders,
            totals.total_loss,
            totals.average_loss()
        );
    }
    let _ = writeln!(
        text,
        "(? mistake: loss >= {MISTAKE_LOSS} discs, ?? blunder: loss >= {BLUNDER_LOSS}; scores are discs for the side to move)"
    );
    text
}

/// A JSON string literal.
pub fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The analysis as one JSON object.
pub fn format_json(info: &GameInfo, analysis: &GameAnalysis) -> String {
    let moves: Vec<String> = analysis
        .moves
        .iter()
        .map(|analysis| {
            let head = format!(
                "{{\"ply\":{},\"color\":\"{}\",\"move\":\"{}\",\"empties\":{}",
                analysis.ply + 1,
                analysis.color.name(),
                analysis.played,
                analysis.empties
            );
            match analysis.eval {
                None => format!("{head},\"forced\":true}}"),
                Some(eval) => format!(
                    "{head},\"depth\":\"{}\",\"played_score\":{},\"best_move\":\"{}\",\"best_score\":{},\"loss\":{},\"judgement\":\"{}\"}}",
                    depth_label(eval.depth),
                    eval.played_score,
                    eval.best,
                    eval.best_score,
                    eval.loss,
                    eval.judgement.name()
                ),
            }
        })
        .collect();
    let totals = |totals: &PlayerTotals| {
        format!(
            "{{\"moves\":{},\"mistakes\":{},\"blunders\":{},\"total_loss\":{},\"average_loss\":{:.3}}}",
            totals.moves,
            totals.mistakes,
            totals.blunders,
            totals.total_loss,
            totals.average_loss()
        )
    };
    format!(
        "{{\"game\":{},\"black\":{},\"white\":{},\"result\":{},\"moves\":[{}],\"totals\":{{\"black\":{},\"white\":{}}}}}",
        json_string(&info.label),
        json_string(&info.black),
        json_string(&info.white),
        analysis
            .final_score
            .map_or("null".to_string(), |score| score.to_string()),
        moves.join(","),
        totals(&analysis.totals[0]),
        totals(&analysis.totals[1])
    )
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
        assert_eq!(json_string("a\"b\\\n"), "\"a\\\"b\\\\\\n\"");
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
        let json = format_json(&info, &analysis);
        assert!(json.starts_with("{\"game\":\"\"") && json.ends_with("}}"));
    }
}
