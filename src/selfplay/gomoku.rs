//! Gomoku self-play: the gomoku search plays itself from a few random
//! stones near the centre and records, for every move, the board, the root
//! search's move distribution, the move played, the search score and how the
//! game ended. The run loop, the files, resuming and the npz arrays are the
//! shared ones of [`super`] (through [`SelfplayGame`] and
//! [`TrainingRecord`]).
//!
//! # A game
//!
//! * Opening: [`GomokuOptions::random_stones`] stones, Black first, each
//!   drawn uniformly among the empty points at most
//!   [`opening_radius`] (`max(1, size / 5)`) columns and rows from the
//!   centre that neither win nor are forbidden (renju); the opening stones
//!   get no records.
//! * Then every move is searched by the gomoku search, single-threaded,
//!   limited by depth and nodes (never time), VCF at the root but no VCT
//!   (its own node budget would dwarf a small `--nodes`), scoring every root
//!   move with a full window ([`Limits::score_root`]). The policy is the
//!   softmax of those scores at [`GomokuOptions::policy_temperature`]
//!   (evaluation units), or one-hot on the move played when the search
//!   scored no list of moves (a forced move, a VCF win, a lost position).
//!   The best move is the highest scored (the first in reading order among
//!   equals), or the search's move when none was scored.
//! * While fewer than [`GomokuOptions::random_plies`] stones are on the
//!   board, the move is drawn among those at most
//!   [`GomokuOptions::max_loss`] below the best with softmax weights at
//!   [`GomokuOptions::temperature`]; then the best is played.
//! * The game ends at a win (n in a row, or renju's forbidden move) or a
//!   full board (a draw).
//!
//! # The JSONL record
//!
//! ```text
//! {"game":0,"ply":4,"index":0,"records":31,"size":15,"n":5,"rule":"freestyle",
//!  "board":"------…","side":"black","last":"g9","policy":{"h8":0.61,"i9":0.39},
//!  "move":"h8","score":120,"depth":3,"outcome":1,"result":"win"}
//! ```
//!
//! `board` holds the `size * size` points row by row from `y = 0` (row 1 in
//! pos notation), `x` from 0 in each row: `X` Black, `O` White, `-` empty.
//! Points are in pos notation (`h8` is `x = 7, y = 7`; the letter is the
//! column, the number `y + 1`). `ply` is the stones on the board, `last` the
//! previous stone (`null` on an empty board), `score` the root search's
//! score in evaluation units (beyond ±29000 a win or loss found), `depth`
//! the deepest iteration, `outcome` +1, 0 or -1 for the side to move and
//! `result` its name. The probabilities are multiples of 1/65535 rounded to
//! 6 decimals, as in Othello's records.

use super::game::{SelfplayGame, TrainingRecord};
use super::npz::Sample;
use super::output::Format;
use super::play::draw;
use super::record::{GameResult, POLICY_TOTAL, RecordError, softmax_weights};
use super::run::game_seed;
use crate::Color;
use crate::core::StopSignal;
use crate::gomoku::board::{Board, Point, Status};
use crate::gomoku::rules::{Config, ConfigError, Rule};
use crate::gomoku::search::{Limits, Searcher};
use crate::gomoku::text::{format_pos, parse_pos};
use crate::gomoku::threat::is_legal;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How a gomoku run plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GomokuOptions {
    /// Board, n and rule; square boards only.
    pub config: Config,
    pub seed: u64,
    /// Table of each game's searcher, MiB.
    pub hash_mib: usize,
    /// Deepest iteration of each search.
    pub depth: u32,
    /// Nodes of each search (`None`: the depth alone limits it).
    pub nodes: Option<u64>,
    /// Random stones of the opening.
    pub random_stones: u32,
    /// Temperature (evaluation units) of the draw of the move played.
    pub temperature: f64,
    /// Moves are drawn while fewer stones are on the board.
    pub random_plies: u32,
    /// Only moves at most this far below the best are drawn.
    pub max_loss: i32,
    /// Temperature (evaluation units) of the recorded policy.
    pub policy_temperature: f64,
}

/// How far from the centre the opening's stones go: `max(1, size / 5)`.
pub fn opening_radius(size: usize) -> usize {
    (size / 5).max(1)
}

/// A gomoku run's games: the options and the empty board.
pub struct GomokuSelfplay {
    options: GomokuOptions,
    empty: Board,
}

impl GomokuSelfplay {
    /// Checks the configuration (sizes 5-22, n 3-6, renju on 15x15 with
    /// five; the board square).
    pub fn new(options: GomokuOptions) -> Result<GomokuSelfplay, ConfigError> {
        let config = options.config;
        if config.width != config.height {
            return Err(ConfigError::Size {
                width: config.width,
                height: config.height,
            });
        }
        let empty = Board::new(config.validate()?)?;
        Ok(GomokuSelfplay { options, empty })
    }

    /// Board, n and rule.
    pub fn config(&self) -> Config {
        self.options.config
    }

    /// Plays the opening's random stones.
    fn opening(&self, rng: &mut StdRng) -> Board {
        let mut board = self.empty.clone();
        let size = self.options.config.width;
        let centre = size / 2;
        let radius = opening_radius(size);
        let area = centre.saturating_sub(radius)..=(centre + radius).min(size - 1);
        for _ in 0..self.options.random_stones {
            let me = board.to_move();
            let free: Vec<usize> = area
                .clone()
                .flat_map(|y| area.clone().map(move |x| Point::new(x, y).index()))
                .filter(|&i| {
                    board.is_empty(i) && !board.makes_five(i, me) && is_legal(&board, i, me)
                })
                .collect();
            if free.is_empty() {
                break;
            }
            board.play_index(free[rng.random_range(0..free.len())]);
        }
        board
    }

    fn limits(&self) -> Limits {
        Limits {
            depth: Some(self.options.depth.max(1)),
            nodes: self.options.nodes,
            vct: false,
            score_root: true,
            ..Limits::default()
        }
    }
}

impl SelfplayGame for GomokuSelfplay {
    type Record = GomokuRecord;
    type Searcher = Searcher;

    fn searcher(&self) -> Searcher {
        Searcher::new(self.options.hash_mib)
    }

    fn settings(&self) -> super::settings::Settings {
        let options = &self.options;
        let config = &options.config;
        super::settings::Settings::default()
            .with("game", "gomoku")
            .with("size", format!("{}x{}", config.width, config.height))
            .with("n in row", config.n)
            .with("rule", config.rule)
            .with("seed", options.seed)
            .with("hash", format!("{} MiB", options.hash_mib))
            .with("depth", options.depth)
            .with(
                "nodes",
                options
                    .nodes
                    .map_or("no limit".to_string(), |n| n.to_string()),
            )
            .with("random stones", options.random_stones)
            .with("temperature", options.temperature)
            .with("random plies", options.random_plies)
            .with("max loss", options.max_loss)
            .with("policy temperature", options.policy_temperature)
    }

    fn play(
        &self,
        index: u32,
        searcher: &mut Searcher,
        stop: &StopSignal,
    ) -> Option<Vec<GomokuRecord>> {
        let options = &self.options;
        let mut rng = StdRng::seed_from_u64(game_seed(options.seed, index));
        searcher.clear();
        let mut board = self.opening(&mut rng);
        let mut status = board.status();
        let limits = self.limits();
        let mut records = Vec::new();
        while status == Status::Ongoing {
            let result = searcher.search(&board, &limits, stop, &mut |_| {});
            if stop.is_stopped() {
                return None;
            }
            // Reading order: the draw, the policy and the point that absorbs
            // its rounding do not depend on the order of the search.
            let mut scores = result.root_scores;
            scores.sort_by_key(|&(p, _)| (p.y, p.x));
            // The best of the scores (the first in reading order among
            // equals), so that the move played agrees with the policy even
            // when an interrupted iteration changed the search's mind.
            let top = scores
                .iter()
                .rev()
                .max_by_key(|&&(_, s)| s)
                .map(|&(p, _)| p);
            let best = top.or(result.best)?;
            let mv = if board.stone_count() < options.random_plies as usize {
                draw(&scores, options.temperature, options.max_loss, &mut rng).unwrap_or(best)
            } else {
                best
            };
            let policy = softmax_weights(&scores, options.policy_temperature)
                .unwrap_or_else(|| vec![(mv, POLICY_TOTAL)]);
            records.push(GomokuRecord {
                game: index,
                ply: board.stone_count() as u16,
                index: records.len() as u16,
                records: 0,
                config: options.config,
                stones: stones(&board),
                side: board.to_move(),
                last: board.last_move().map(Point::from_index),
                policy: policy.into_iter().filter(|&(_, w)| w > 0).collect(),
                mv,
                score: result.score,
                depth: result.depth,
                outcome: 0,
            });
            status = board.play(mv).ok()?;
        }
        let count = records.len() as u16;
        for record in &mut records {
            record.records = count;
            record.outcome = match status {
                Status::Won(color) if color == record.side => 1,
                Status::Won(_) => -1,
                _ => 0,
            };
        }
        Some(records)
    }

    fn belongs(&self, record: &GomokuRecord) -> Result<(), String> {
        let (theirs, ours) = (record.config, self.options.config);
        if theirs != ours {
            return Err(format!(
                "a {}x{} {}-in-a-row {} game in a run of {}x{} {}-in-a-row {}",
                theirs.width,
                theirs.height,
                theirs.n,
                theirs.rule,
                ours.width,
                ours.height,
                ours.n,
                ours.rule
            ));
        }
        Ok(())
    }
}

/// The points row by row from `y = 0`.
fn stones(board: &Board) -> Vec<Option<Color>> {
    (0..board.height())
        .flat_map(|y| (0..board.width()).map(move |x| Point::new(x, y)))
        .map(|p| board.get(p))
        .collect()
}

/// One gomoku position of a self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GomokuRecord {
    /// The game's index in the run.
    pub game: u32,
    /// Stones on the board.
    pub ply: u16,
    /// This record's place among the game's records, from 0.
    pub index: u16,
    /// Records in the game.
    pub records: u16,
    pub config: Config,
    /// The points row by row from `y = 0`.
    pub stones: Vec<Option<Color>>,
    pub side: Color,
    /// The previous stone.
    pub last: Option<Point>,
    /// The non-zero weights of the policy, adding up to [`POLICY_TOTAL`],
    /// in reading order (`y`, then `x`).
    pub policy: Vec<(Point, u16)>,
    /// The move played.
    pub mv: Point,
    /// The root search's score (evaluation units, side to move's view).
    pub score: i32,
    /// The deepest iteration.
    pub depth: u32,
    /// +1 win, 0 draw, -1 loss for the side to move.
    pub outcome: i8,
}

impl GomokuRecord {
    /// Win, draw or loss for the side to move.
    pub fn result(&self) -> GameResult {
        GameResult::of(self.outcome.into())
    }

    fn cell(&self, p: Point) -> usize {
        p.y * self.config.width + p.x
    }

    /// The record's position, with its side to move (the stones' order is
    /// not recorded, so under renju it is only the position).
    pub fn board(&self) -> Result<Board, RecordError> {
        let bad = |message: String| RecordError::Json(message);
        let mut board = Board::new(self.config).map_err(|e| bad(e.to_string()))?;
        let width = self.config.width;
        let stones: Vec<(Point, bool)> = self
            .stones
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.map(|c| (Point::new(i % width, i / width), c == self.side)))
            .collect();
        board.set_stones(&stones).map_err(|e| bad(e.to_string()))?;
        if board.to_move() != self.side {
            return Err(bad(format!(
                "{} to move with {} stones",
                self.side.name(),
                stones.len()
            )));
        }
        Ok(board)
    }

    /// Checks what a reader cannot take on trust: the board's size, the
    /// stone counts for the side to move, the move and the policy on empty
    /// points, the weights' total, the record's place in its game.
    pub fn check(&self) -> Result<(), RecordError> {
        let config = self
            .config
            .validate()
            .map_err(|e| RecordError::Json(e.to_string()))?;
        let bad = |message: String| Err(RecordError::Json(message));
        if config.width != config.height || self.stones.len() != config.width * config.height {
            return bad(format!(
                "{} points on a {}x{} board",
                self.stones.len(),
                config.width,
                config.height
            ));
        }
        let count = |c| self.stones.iter().filter(|&&s| s == Some(c)).count();
        let (black, white) = (count(Color::Black), count(Color::White));
        let side_ok = match self.side {
            Color::Black => black == white,
            Color::White => black == white + 1,
        };
        if !side_ok || usize::from(self.ply) != black + white {
            return bad(format!(
                "{black} black and {white} white stones with {} to move at ply {}",
                self.side.name(),
                self.ply
            ));
        }
        let empty = |p: Point| {
            p.x < config.width && p.y < config.height && self.stones[self.cell(p)].is_none()
        };
        if !empty(self.mv) {
            return bad(format!(
                "the move {} is not on an empty point",
                format_pos(self.mv)
            ));
        }
        if let Some(p) = self.policy.iter().map(|&(p, _)| p).find(|&p| !empty(p)) {
            return bad(format!(
                "policy weight on {}, not an empty point",
                format_pos(p)
            ));
        }
        if let Some(last) = self.last
            && (last.x >= config.width
                || last.y >= config.height
                || self.stones[self.cell(last)] != Some(self.side.opponent()))
        {
            return bad(format!(
                "the last move {} is not an opponent stone",
                format_pos(last)
            ));
        }
        let total: u32 = self.policy.iter().map(|&(_, w)| u32::from(w)).sum();
        if total != u32::from(POLICY_TOTAL) {
            return Err(RecordError::PolicyTotal { total });
        }
        if self.index >= self.records {
            return bad(format!(
                "record {} of a game of {} records",
                self.index, self.records
            ));
        }
        if !(-1..=1).contains(&self.outcome) {
            return Err(RecordError::OutOfRange {
                field: "outcome",
                value: self.outcome.into(),
            });
        }
        Ok(())
    }
}

/// The JSON shape of a gomoku record.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonRecord {
    game: u32,
    ply: u16,
    index: u16,
    records: u16,
    size: usize,
    n: usize,
    rule: String,
    board: String,
    side: String,
    last: Option<String>,
    policy: BTreeMap<String, f64>,
    #[serde(rename = "move")]
    mv: String,
    score: i32,
    depth: u32,
    outcome: i8,
    result: String,
}

/// A weight as a probability rounded to 6 decimals (see
/// [`super::jsonl`]).
fn probability_text(weight: u16) -> f64 {
    (f64::from(weight) / f64::from(POLICY_TOTAL) * 1e6).round() / 1e6
}

fn encode_json(record: &GomokuRecord) -> String {
    let json = JsonRecord {
        game: record.game,
        ply: record.ply,
        index: record.index,
        records: record.records,
        size: record.config.width,
        n: record.config.n,
        rule: record.config.rule.name().to_string(),
        board: record
            .stones
            .iter()
            .map(|s| match s {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '-',
            })
            .collect(),
        side: record.side.name().to_string(),
        last: record.last.map(format_pos),
        policy: record
            .policy
            .iter()
            .map(|&(p, w)| (format_pos(p), probability_text(w)))
            .collect(),
        mv: format_pos(record.mv),
        score: record.score,
        depth: record.depth,
        outcome: record.outcome,
        result: record.result().name().to_string(),
    };
    // Numbers, strings and a string-keyed map always serialise.
    serde_json::to_string(&json).unwrap_or_default()
}

fn decode_json(line: &str) -> Result<GomokuRecord, RecordError> {
    let json: JsonRecord =
        serde_json::from_str(line).map_err(|e| RecordError::Json(e.to_string()))?;
    let point = |text: &str| parse_pos(text).map_err(|e| RecordError::Json(e.to_string()));
    let rule = json
        .rule
        .parse::<Rule>()
        .map_err(|e| RecordError::Json(e.to_string()))?;
    let side = json
        .side
        .parse::<Color>()
        .map_err(|e| RecordError::Json(e.to_string()))?;
    let stones = json
        .board
        .chars()
        .map(|c| match c {
            'X' => Ok(Some(Color::Black)),
            'O' => Ok(Some(Color::White)),
            '-' => Ok(None),
            other => Err(RecordError::Json(format!("'{other}' in the board"))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut policy = Vec::with_capacity(json.policy.len());
    for (name, &p) in &json.policy {
        if !(0.0..=1.0).contains(&p) {
            return Err(RecordError::Json(format!("probability {p} of {name}")));
        }
        policy.push((point(name)?, (p * f64::from(POLICY_TOTAL)).round() as u16));
    }
    policy.sort_by_key(|&(p, _)| (p.y, p.x));
    let record = GomokuRecord {
        game: json.game,
        ply: json.ply,
        index: json.index,
        records: json.records,
        config: Config {
            width: json.size,
            height: json.size,
            n: json.n,
            rule,
        },
        stones,
        side,
        last: json.last.as_deref().map(point).transpose()?,
        policy,
        mv: point(&json.mv)?,
        score: json.score,
        depth: json.depth,
        outcome: json.outcome,
    };
    GameResult::check_named(json.result, json.outcome)?;
    record.check()?;
    Ok(record)
}

impl TrainingRecord for GomokuRecord {
    const BINARY_LEN: Option<usize> = None;

    fn game(&self) -> u32 {
        self.game
    }

    fn index(&self) -> usize {
        self.index.into()
    }

    fn records(&self) -> usize {
        self.records.into()
    }

    /// JSON lines for every format: gomoku has no binary records (the
    /// shared code refuses them before any record is written).
    fn encode(&self, _format: Format, out: &mut Vec<u8>) {
        out.extend_from_slice(encode_json(self).as_bytes());
        out.push(b'\n');
    }

    fn decode(format: Format, bytes: &[u8]) -> Result<GomokuRecord, RecordError> {
        if format == Format::Binary {
            return Err(RecordError::NoBinary);
        }
        let line =
            std::str::from_utf8(bytes).map_err(|e| RecordError::Json(format!("not UTF-8: {e}")))?;
        decode_json(line)
    }

    /// Cells `y * size + x`; the last move is the previous stone.
    fn sample(&self, _previous: Option<&GomokuRecord>) -> Sample {
        let cells = |color| {
            self.stones
                .iter()
                .enumerate()
                .filter(|&(_, &s)| s == Some(color))
                .map(|(i, _)| i)
                .collect()
        };
        Sample {
            width: self.config.width,
            height: self.config.height,
            own: cells(self.side),
            opponent: cells(self.side.opponent()),
            last: self.last.map(|p| self.cell(p)),
            black_to_move: self.side == Color::Black,
            probs: self
                .policy
                .iter()
                .map(|&(p, w)| {
                    let probability = f64::from(w) / f64::from(POLICY_TOTAL);
                    (self.cell(p), probability as f32)
                })
                .collect(),
            z: self.result().z(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(size: usize, n: usize, rule: Rule) -> GomokuOptions {
        GomokuOptions {
            config: Config {
                width: size,
                height: size,
                n,
                rule,
            },
            seed: 5,
            hash_mib: 1,
            depth: 3,
            nodes: Some(2_000),
            random_stones: 3,
            temperature: 50.0,
            random_plies: 6,
            max_loss: 100,
            policy_temperature: 50.0,
        }
    }

    #[test]
    fn games_are_consistent_and_round_trip() {
        for (size, n, rule) in [
            (9, 5, Rule::Freestyle),
            (7, 4, Rule::Standard),
            (15, 5, Rule::Renju),
            (8, 5, Rule::Caro),
            (5, 3, Rule::Freestyle),
        ] {
            let game = GomokuSelfplay::new(options(size, n, rule)).unwrap();
            let mut searcher = game.searcher();
            let records = game.play(1, &mut searcher, &StopSignal::new()).unwrap();
            assert!(!records.is_empty(), "{size} {n} {rule}");
            let last = records.last().unwrap();
            for (i, record) in records.iter().enumerate() {
                record.check().unwrap();
                assert_eq!(record.index as usize, i);
                assert!(
                    record.policy.iter().any(|&(p, _)| p == record.mv) || record.policy.len() == 1,
                    "{record:?}"
                );
                // The outcome flips with the side to move.
                let same = record.side == last.side;
                assert_eq!(
                    record.outcome,
                    if same { last.outcome } else { -last.outcome }
                );
                let mut bytes = Vec::new();
                record.encode(Format::Jsonl, &mut bytes);
                let line = std::str::from_utf8(&bytes).unwrap().trim_end();
                assert_eq!(&decode_json(line).unwrap(), record, "{line}");
            }
        }
    }

    #[test]
    fn bad_configurations_are_refused() {
        assert!(GomokuSelfplay::new(options(4, 3, Rule::Freestyle)).is_err());
        assert!(GomokuSelfplay::new(options(9, 7, Rule::Freestyle)).is_err());
        assert!(GomokuSelfplay::new(options(19, 5, Rule::Renju)).is_err());
    }
}
