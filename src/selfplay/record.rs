//! One training record: a position met in a self-play game, what the root
//! search thought of its moves, the move played and how the game ended.
//!
//! A [`Record`] is the single in-memory form behind both file formats
//! ([`super::binary`] and [`super::jsonl`]); each format writes exactly its
//! fields, so a record survives a trip through either unchanged.
//!
//! The policy is stored quantized, as 64 weights that add up to exactly
//! [`POLICY_TOTAL`] (a probability is `weight / 65535`), so that the binary
//! format holds it in 16 bits a square and the JSON text reads back to the
//! same weights.

use super::binary::{self, RECORD_LEN};
use super::game::TrainingRecord;
use super::jsonl;
use super::npz::Sample;
use super::output::Format;
use crate::bitboard::{BoardSize, squares};
use crate::color::Color;
use crate::position::Position;
use crate::square::Square;
use std::fmt;

/// What the weights of a policy add up to: a probability is
/// `weight / POLICY_TOTAL`.
pub const POLICY_TOTAL: u16 = u16::MAX;

/// A move distribution over the 64 squares, quantized to 1/65535.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Policy([u16; 64]);

impl Policy {
    /// All the weight on one square.
    pub fn one_hot(square: Square) -> Policy {
        let mut weights = [0; 64];
        weights[square.index()] = POLICY_TOTAL;
        Policy(weights)
    }

    /// A policy from its weights, which must add up to [`POLICY_TOTAL`].
    pub fn from_weights(weights: [u16; 64]) -> Result<Policy, RecordError> {
        let total: u32 = weights.iter().map(|&w| u32::from(w)).sum();
        if total == u32::from(POLICY_TOTAL) {
            Ok(Policy(weights))
        } else {
            Err(RecordError::PolicyTotal { total })
        }
    }

    /// The softmax of root-move scores (discs, side to move's view) at
    /// `temperature` discs: `p(m) ∝ exp((score(m) - best) / temperature)`.
    /// Temperature 0 shares the weight among the best moves. Weights are
    /// rounded to 1/65535 and the rounding error goes to the heaviest
    /// square, so they always add up to [`POLICY_TOTAL`]; a move below
    /// 1/131070 gets weight 0. `None` when `scores` is empty.
    pub fn softmax(scores: &[(Square, i32)], temperature: f64) -> Option<Policy> {
        // Square order: the rounding error goes to the lowest heaviest
        // square, whatever order the search reported the moves in.
        let mut sorted = scores.to_vec();
        sorted.sort_by_key(|&(square, _)| square.index());
        let mut weights = [0u16; 64];
        for (square, weight) in softmax_weights(&sorted, temperature)? {
            weights[square.index()] = weight;
        }
        Some(Policy(weights))
    }

    /// The 64 weights, a1 first.
    pub fn weights(&self) -> &[u16; 64] {
        &self.0
    }

    /// The probability of a square.
    pub fn probability(&self, square: Square) -> f64 {
        f64::from(self.0[square.index()]) / f64::from(POLICY_TOTAL)
    }

    /// The squares of non-zero weight, with their weights, a1 first.
    pub fn moves(&self) -> impl Iterator<Item = (Square, u16)> + '_ {
        Square::all()
            .map(|square| (square, self.0[square.index()]))
            .filter(|&(_, w)| w > 0)
    }

    /// The squares of non-zero weight as a bitboard.
    pub fn support(&self) -> u64 {
        self.moves().fold(0, |acc, (square, _)| acc | square.bit())
    }
}

/// The softmax of move scores at `temperature` as weights adding up to
/// exactly [`POLICY_TOTAL`] (see [`Policy::softmax`]), in the order of
/// `scores`; `None` when `scores` is empty.
pub(crate) fn softmax_weights<M: Copy>(
    scores: &[(M, i32)],
    temperature: f64,
) -> Option<Vec<(M, u16)>> {
    let best = scores.iter().map(|&(_, s)| s).max()?;
    let raw: Vec<f64> = scores
        .iter()
        .map(|&(_, score)| softmax_weight(score, best, temperature))
        .collect();
    let sum: f64 = raw.iter().sum();
    let mut weights: Vec<(M, u16)> = scores
        .iter()
        .zip(&raw)
        .map(|(&(mv, _), &w)| (mv, (w / sum * f64::from(POLICY_TOTAL)).round() as u16))
        .collect();
    let total: i64 = weights.iter().map(|&(_, w)| i64::from(w)).sum();
    // The heaviest move (the first of equals) absorbs the rounding error:
    // at most one unit per move, so it never goes below 0 or above the
    // total.
    let heaviest = (0..weights.len()).max_by_key(|&i| (weights[i].1, std::cmp::Reverse(i)))?;
    let fixed = i64::from(weights[heaviest].1) + i64::from(POLICY_TOTAL) - total;
    weights[heaviest].1 = u16::try_from(fixed).ok()?;
    Some(weights)
}

/// The unnormalised softmax weight of `score` when the best is `best`.
pub(crate) fn softmax_weight(score: i32, best: i32, temperature: f64) -> f64 {
    if temperature > 0.0 {
        (f64::from(score - best) / temperature).exp()
    } else if score == best {
        1.0
    } else {
        0.0
    }
}

impl fmt::Debug for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.moves()).finish()
    }
}

/// The game's result from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    Win,
    Draw,
    Loss,
}

impl GameResult {
    /// The result of a final disc difference.
    pub fn of(outcome: i32) -> GameResult {
        match outcome.signum() {
            1 => GameResult::Win,
            0 => GameResult::Draw,
            _ => GameResult::Loss,
        }
    }

    /// A record read back: its `result` field must name the result of its
    /// `outcome`.
    pub fn check_named(result: String, outcome: i8) -> Result<(), RecordError> {
        if result == GameResult::of(outcome.into()).name() {
            Ok(())
        } else {
            Err(RecordError::Result { result, outcome })
        }
    }

    /// +1, 0 or -1, as the npz arrays write it.
    pub fn z(self) -> f32 {
        match self {
            GameResult::Win => 1.0,
            GameResult::Draw => 0.0,
            GameResult::Loss => -1.0,
        }
    }

    /// `win`, `draw` or `loss`, as the JSONL records write it.
    pub fn name(self) -> &'static str {
        match self {
            GameResult::Win => "win",
            GameResult::Draw => "draw",
            GameResult::Loss => "loss",
        }
    }
}

/// One position of a self-play game where the side to move had a choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    /// The game's index in the run (the same in every shard).
    pub game: u32,
    /// Moves played since the standard start, passes and opening included.
    pub ply: u8,
    /// This record's place among the game's records, from 0.
    pub index: u8,
    /// Records in the game.
    pub records: u8,
    /// The board, the side to move and the size.
    pub position: Position,
    /// The root search's move distribution.
    pub policy: Policy,
    /// The move played.
    pub mv: Square,
    /// The root search's score of the position (discs, side to move's view).
    pub score: i8,
    /// Depth of the search: plies of a midgame search, empties of a solve.
    pub depth: u8,
    /// Whether the search score (and every move's score) is an exact solve.
    pub exact: bool,
    /// The final disc difference (empties to the winner), side to move's
    /// view.
    pub outcome: i8,
}

impl Record {
    /// Win, draw or loss for the side to move.
    pub fn result(&self) -> GameResult {
        GameResult::of(self.outcome.into())
    }

    /// Checks what a reader cannot take on trust: the discs lie on the board
    /// and do not overlap, the move is legal, the policy covers legal moves
    /// only, the record's place in its game and the scores are possible.
    pub fn check(&self) -> Result<(), RecordError> {
        let board = self.position.board;
        let mask = self.position.size.mask();
        if board.player & board.opponent != 0 || (board.player | board.opponent) & !mask != 0 {
            return Err(RecordError::Discs);
        }
        let legal = self.position.legal_moves();
        if legal & self.mv.bit() == 0 {
            return Err(RecordError::IllegalMove(self.mv));
        }
        if self.policy.support() & !legal != 0 {
            return Err(RecordError::PolicyOffLegal);
        }
        if self.index >= self.records {
            return Err(RecordError::Index {
                index: self.index,
                records: self.records,
            });
        }
        let squares = self.position.size.squares() as i32;
        for (field, value) in [("score", self.score), ("outcome", self.outcome)] {
            if i32::from(value).abs() > squares {
                return Err(RecordError::OutOfRange {
                    field,
                    value: value.into(),
                });
            }
        }
        if u32::from(self.depth) > self.position.size.squares() {
            return Err(RecordError::OutOfRange {
                field: "depth",
                value: self.depth.into(),
            });
        }
        Ok(())
    }
}

/// Why bytes or a line are not a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// A binary record does not start with the tag `OX`.
    Tag([u8; 2]),
    /// A binary record of a version this build does not read.
    Version(u8),
    /// A board size other than 4, 6 or 8.
    Size(u32),
    /// A side to move other than 0 (Black) or 1 (White).
    Side(u8),
    /// A byte that is no square.
    Square(u32),
    /// Discs off the board or on both sides.
    Discs,
    /// The move played is not legal in the position.
    IllegalMove(Square),
    /// The policy's weights do not add up to 65535.
    PolicyTotal { total: u32 },
    /// The policy gives weight to a square that is no legal move.
    PolicyOffLegal,
    /// The record's index is not below the game's record count.
    Index { index: u8, records: u8 },
    /// A number outside what the board allows.
    OutOfRange { field: &'static str, value: i64 },
    /// The `result` field disagrees with `outcome`.
    Result { result: String, outcome: i8 },
    /// A JSON line that does not parse into a record.
    Json(String),
    /// A binary record cut short (only at the end of a file).
    Truncated { found: usize },
    /// Binary records of a game that has none (gomoku).
    NoBinary,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Tag(tag) => write!(f, "no record tag (found {tag:02x?}, expected \"OX\")"),
            RecordError::Version(v) => write!(f, "record version {v} (this build reads 1)"),
            RecordError::Size(n) => write!(f, "board size {n} (expected 4, 6 or 8)"),
            RecordError::Side(s) => write!(f, "side to move {s} (expected 0 or 1)"),
            RecordError::Square(s) => write!(f, "{s} is no square"),
            RecordError::Discs => f.write_str("discs off the board or on both sides"),
            RecordError::IllegalMove(mv) => write!(f, "the move {mv} is illegal"),
            RecordError::PolicyTotal { total } => {
                write!(f, "policy weights add up to {total}, not 65535")
            }
            RecordError::PolicyOffLegal => f.write_str("policy weight on an illegal move"),
            RecordError::Index { index, records } => {
                write!(f, "record {index} of a game of {records} records")
            }
            RecordError::OutOfRange { field, value } => write!(f, "{field} {value} out of range"),
            RecordError::Result { result, outcome } => {
                write!(f, "result '{result}' disagrees with outcome {outcome}")
            }
            RecordError::Json(message) => write!(f, "bad JSON record: {message}"),
            RecordError::Truncated { found } => write!(f, "record cut short ({found} bytes)"),
            RecordError::NoBinary => f.write_str("gomoku records have no binary format"),
        }
    }
}

impl std::error::Error for RecordError {}

impl TrainingRecord for Record {
    const BINARY_LEN: Option<usize> = Some(RECORD_LEN);

    fn game(&self) -> u32 {
        self.game
    }

    fn index(&self) -> usize {
        self.index.into()
    }

    fn records(&self) -> usize {
        self.records.into()
    }

    fn encode(&self, format: Format, out: &mut Vec<u8>) {
        match format {
            Format::Binary => out.extend_from_slice(&binary::encode(self)),
            Format::Jsonl | Format::Npz => {
                out.extend_from_slice(jsonl::encode(self).as_bytes());
                out.push(b'\n');
            }
        }
    }

    fn decode(format: Format, bytes: &[u8]) -> Result<Record, RecordError> {
        match format {
            Format::Binary => match bytes.first_chunk::<RECORD_LEN>() {
                Some(chunk) if bytes.len() == RECORD_LEN => binary::decode(chunk),
                _ => Err(RecordError::Truncated { found: bytes.len() }),
            },
            Format::Jsonl | Format::Npz => {
                let line = std::str::from_utf8(bytes)
                    .map_err(|e| RecordError::Json(format!("not UTF-8: {e}")))?;
                jsonl::decode(line)
            }
        }
    }

    /// Squares index `row * n + column` (a1 = 0, row 1 first). The last
    /// move is the previous record's move when no pass came between them
    /// (its ply is one less); at a game's first record (the opening's last
    /// move is not recorded) and after a pass the plane is all zero.
    fn sample(&self, previous: Option<&Record>) -> Sample {
        let position = &self.position;
        let n = position.size.n();
        let cell = |s: Square| usize::from(s.row()) * n + usize::from(s.col());
        let cells = |bits: u64| squares(bits).map(cell).collect::<Vec<_>>();
        let last = previous
            .filter(|p| u32::from(p.ply) + 1 == u32::from(self.ply))
            .map(|p| cell(p.mv));
        Sample {
            width: n,
            height: n,
            own: cells(position.board.player),
            opponent: cells(position.board.opponent),
            last,
            black_to_move: position.side == Color::Black,
            probs: self
                .policy
                .moves()
                .map(|(s, w)| {
                    let p = f64::from(w) / f64::from(POLICY_TOTAL);
                    (cell(s), p as f32)
                })
                .collect(),
            z: GameResult::of(self.outcome.into()).z(),
        }
    }
}

/// The size with side `n`, as a record error when unsupported.
pub(crate) fn size_of_side(n: u32) -> Result<BoardSize, RecordError> {
    usize::try_from(n)
        .ok()
        .and_then(BoardSize::from_n)
        .ok_or(RecordError::Size(n))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use rand::{Rng, SeedableRng, rngs::StdRng};

    /// Random valid records from random games of every size, for the
    /// round-trip tests of both formats.
    pub(crate) fn random_records(count: usize, seed: u64) -> Vec<Record> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut records = Vec::new();
        while records.len() < count {
            let size = BoardSize::ALL[rng.random_range(0..3)];
            let mut position = Position::start(size);
            for _ in 0..rng.random_range(0..size.squares()) {
                let moves = position.move_list();
                if moves.is_empty() {
                    break;
                }
                position = position.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
            let legal: Vec<Square> = squares(position.legal_moves()).collect();
            if legal.is_empty() {
                continue;
            }
            let scores: Vec<(Square, i32)> = legal
                .iter()
                .map(|&s| (s, rng.random_range(-64..=64)))
                .collect();
            let records_in_game = rng.random_range(1..=60u8);
            let limit = size.squares() as i32;
            records.push(Record {
                game: rng.random(),
                ply: rng.random(),
                index: rng.random_range(0..records_in_game),
                records: records_in_game,
                position,
                policy: Policy::softmax(&scores, rng.random_range(0.0..8.0)).unwrap(),
                mv: legal[rng.random_range(0..legal.len())],
                score: rng.random_range(-limit..=limit) as i8,
                depth: rng.random_range(0..=size.squares()) as u8,
                exact: rng.random(),
                outcome: rng.random_range(-limit..=limit) as i8,
            });
        }
        records
    }

    #[test]
    fn random_records_are_valid() {
        for record in random_records(500, 1) {
            record.check().unwrap();
        }
    }

    #[test]
    fn softmax_adds_up_and_prefers_better_moves() {
        let sq = |name: &str| name.parse::<Square>().unwrap();
        let scores = [(sq("d3"), 4), (sq("c4"), 2), (sq("f5"), -6), (sq("e6"), 4)];
        let policy = Policy::softmax(&scores, 1.0).unwrap();
        let total: u32 = policy.weights().iter().map(|&w| u32::from(w)).sum();
        assert_eq!(total, u32::from(POLICY_TOTAL));
        assert_eq!(policy.support().count_ones(), 4);
        let p = |name| policy.probability(sq(name));
        assert!((p("d3") - p("e6")).abs() < 2e-5);
        // exp(-2) relative to the best: 0.1353.
        assert!((p("c4") / p("d3") - (-2f64).exp()).abs() < 1e-3);
        assert!(p("f5") < p("c4"));
        // Temperature 0: the best moves share everything.
        let greedy = Policy::softmax(&scores, 0.0).unwrap();
        assert_eq!(greedy.support(), sq("d3").bit() | sq("e6").bit());
        // A very high temperature is close to uniform.
        let flat = Policy::softmax(&scores, 1e9).unwrap();
        assert!((flat.probability(sq("f5")) - 0.25).abs() < 1e-4);
        assert_eq!(Policy::softmax(&[], 1.0), None);
        assert_eq!(
            Policy::softmax(&[(sq("a1"), 3)], 1.0),
            Some(Policy::one_hot(sq("a1")))
        );
    }

    #[test]
    fn softmax_always_adds_up() {
        let mut rng = StdRng::seed_from_u64(7);
        for _ in 0..2000 {
            let n = rng.random_range(1..=33);
            let scores: Vec<(Square, i32)> = (0..n)
                .map(|i| (Square::new(i).unwrap(), rng.random_range(-64..=64)))
                .collect();
            let t = [0.0, 0.01, 0.5, 1.0, 3.0, 100.0][rng.random_range(0..6)];
            let policy = Policy::softmax(&scores, t).unwrap();
            assert!(Policy::from_weights(*policy.weights()).is_ok());
        }
    }

    #[test]
    fn check_refuses_impossible_records() {
        let good = random_records(1, 3)[0];
        let mut bad = good;
        bad.index = bad.records;
        assert!(matches!(bad.check(), Err(RecordError::Index { .. })));
        let mut bad = good;
        bad.outcome = 100;
        assert!(matches!(bad.check(), Err(RecordError::OutOfRange { .. })));
        let mut bad = good;
        bad.position = Position {
            board: crate::board::Board {
                player: 1,
                opponent: 1,
            },
            side: Color::Black,
            size: BoardSize::Eight,
        };
        assert_eq!(bad.check(), Err(RecordError::Discs));
        let mut bad = good;
        let occupied = Square::from_lowest_bit(good.position.board.player).unwrap();
        bad.mv = occupied;
        assert_eq!(bad.check(), Err(RecordError::IllegalMove(occupied)));
        let mut bad = good;
        bad.policy = Policy::one_hot(occupied);
        assert_eq!(bad.check(), Err(RecordError::PolicyOffLegal));
        assert_eq!(GameResult::of(-3), GameResult::Loss);
        assert_eq!(GameResult::of(0).name(), "draw");
    }
}
