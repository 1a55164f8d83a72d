//! OBF, the Othello Board File of Edax's test suites: one position per line.
//!
//! ```text
//! --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; % FFO #1
//! ```
//!
//! Fields end with `;`. The first is a board string (see
//! [`board_string`]), the others are
//! `MOVE:score` pairs, the score being the exact final disc difference for
//! the side to move with perfect play after that move. A line without moves
//! may carry the bare score of the position instead (`... X; +12;`). Text
//! after `%` is a comment; blank and comment-only lines hold no entry.
//!
//! Listed moves must be legal in the position (a pass, `PA`, only when the
//! side to move is blocked). The field `--:-127` that ends the lines of
//! Edax's problem suites (hard-20, hard-25) marks the end of the list, not a
//! move, and is skipped. The writer prints the board as Edax does
//! (`X`/`O`/`-`), upper-case moves and signed scores (`+0`).

use crate::board::IllegalMoveError;
use crate::formats::board_string::{self, BoardStringError};
use crate::moves::{Move, is_pass_word};
use crate::position::Position;
use crate::square::Square;
use std::fmt;

/// Why an OBF line was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObfError {
    /// The board field cannot be read.
    Board(BoardStringError),
    /// A field is neither `MOVE:score` nor a bare score.
    BadField { field: String },
    /// A move name is neither a square nor a pass.
    BadMove { text: String },
    /// A score is not an integer.
    BadScore { text: String },
    /// A listed move is illegal in the position.
    Illegal(IllegalMoveError),
    /// More than one bare score.
    ManyScores,
}

impl fmt::Display for ObfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ObfError::Board(error) => write!(f, "bad OBF board: {error}"),
            ObfError::BadField { field } => write!(f, "cannot read OBF field '{field}'"),
            ObfError::BadMove { text } => write!(f, "'{text}' is not a move"),
            ObfError::BadScore { text } => write!(f, "'{text}' is not a score"),
            ObfError::Illegal(error) => error.fmt(f),
            ObfError::ManyScores => f.write_str("more than one bare score on the line"),
        }
    }
}

impl std::error::Error for ObfError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ObfError::Board(error) => Some(error),
            ObfError::Illegal(error) => Some(error),
            _ => None,
        }
    }
}

/// An OBF error and the 1-based number of the line it is on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfFileError {
    pub line: usize,
    pub error: ObfError,
}

impl fmt::Display for ObfFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.error)
    }
}

impl std::error::Error for ObfFileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// One position with its scored moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfEntry {
    pub position: Position,
    /// The listed moves (legal; [`Move::Pass`] for `PA`) with their scores.
    pub move_scores: Vec<(Move, i32)>,
    /// The bare score of a line (`... X; +12;`), if written. The method
    /// [`ObfEntry::best_score`] gives the position's value either way.
    pub best_score: Option<i32>,
    /// The text after `%`, trimmed.
    pub comment: Option<String>,
}

impl ObfEntry {
    /// An entry with no scores.
    pub fn new(position: Position) -> ObfEntry {
        ObfEntry {
            position,
            move_scores: Vec::new(),
            best_score: None,
            comment: None,
        }
    }

    /// The value of the position: the best move score, or the bare score.
    pub fn best_score(&self) -> Option<i32> {
        self.move_scores
            .iter()
            .map(|&(_, score)| score)
            .max()
            .or(self.best_score)
    }

    /// Every listed move that reaches the best move score, in line order.
    pub fn best_moves(&self) -> Vec<Move> {
        let best = self.move_scores.iter().map(|&(_, score)| score).max();
        self.move_scores
            .iter()
            .filter(|&&(_, score)| Some(score) == best)
            .map(|&(mv, _)| mv)
            .collect()
    }

    /// The score listed for the move on `square`.
    pub fn score_of(&self, square: Square) -> Option<i32> {
        self.move_scores
            .iter()
            .find(|(mv, _)| mv.square() == Some(square))
            .map(|&(_, score)| score)
    }
}

impl fmt::Display for ObfEntry {
    /// `<board> <side>; F5:+2; D3:-4;`, then the bare score, then
    /// ` % comment`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{};", board_string::format_position(&self.position))?;
        for (mv, score) in &self.move_scores {
            write!(f, " {}:{score:+};", mv.to_upper())?;
        }
        if let Some(score) = self.best_score {
            write!(f, " {score:+};")?;
        }
        if let Some(comment) = &self.comment {
            write!(f, " % {comment}")?;
        }
        Ok(())
    }
}

/// Reads one line: `Ok(None)` for a blank or comment-only line.
pub fn parse_line(line: &str) -> Result<Option<ObfEntry>, ObfError> {
    let (data, comment) = match line.split_once('%') {
        Some((data, comment)) => (data, Some(comment.trim().to_string())),
        None => (line, None),
    };
    if data.trim().is_empty() {
        return Ok(None);
    }
    let mut fields = data.split(';');
    let board = fields.next().unwrap_or("");
    let position = board_string::parse_position(board).map_err(ObfError::Board)?;
    let mut entry = ObfEntry {
        comment,
        ..ObfEntry::new(position)
    };
    for field in fields.map(str::trim).filter(|field| !field.is_empty()) {
        match field.split_once(':') {
            Some((name, score)) if name.trim() == "--" && score.trim() == "-127" => {}
            Some((name, score)) => {
                let mv = parse_move(&position, name.trim())?;
                entry.move_scores.push((mv, parse_score(score)?));
            }
            None if entry.best_score.is_some() => return Err(ObfError::ManyScores),
            None if field.starts_with(['+', '-'])
                || field.starts_with(|c: char| c.is_ascii_digit()) =>
            {
                entry.best_score = Some(parse_score(field)?);
            }
            None => {
                return Err(ObfError::BadField {
                    field: field.to_string(),
                });
            }
        }
    }
    Ok(Some(entry))
}

fn parse_score(text: &str) -> Result<i32, ObfError> {
    text.trim().parse().map_err(|_| ObfError::BadScore {
        text: text.to_string(),
    })
}

fn parse_move(position: &Position, name: &str) -> Result<Move, ObfError> {
    if is_pass_word(name) {
        position
            .board
            .check_move_on(Move::Pass, position.size)
            .map_err(ObfError::Illegal)?;
        return Ok(Move::Pass);
    }
    let square: Square = name.parse().map_err(|_| ObfError::BadMove {
        text: name.to_string(),
    })?;
    position.placement(square).map_err(ObfError::Illegal)
}

/// Reads every entry of a file, skipping blank and comment lines.
pub fn parse_file(text: &str) -> Result<Vec<ObfEntry>, ObfFileError> {
    let mut entries = Vec::new();
    for (index, line) in text.lines().enumerate() {
        match parse_line(line) {
            Ok(Some(entry)) => entries.push(entry),
            Ok(None) => {}
            Err(error) => {
                return Err(ObfFileError {
                    line: index + 1,
                    error,
                });
            }
        }
    }
    Ok(entries)
}

/// Writes entries one per line, each ending with a newline.
pub fn format_file(entries: &[ObfEntry]) -> String {
    entries.iter().map(|entry| format!("{entry}\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::BoardSize;
    use crate::board::IllegalReason;
    use crate::color::Color;
    use rand::{Rng, SeedableRng};
    use std::path::PathBuf;

    const FFO1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; \
                        G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;";

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn reads_the_edax_example() {
        let entry = parse_line(FFO1).unwrap().unwrap();
        assert_eq!(entry.position.side, Color::Black);
        assert_eq!(entry.position.empty_count(), 14);
        assert_eq!(entry.move_scores.len(), 8);
        assert_eq!(entry.best_score(), Some(18));
        assert_eq!(entry.best_moves().len(), 1);
        assert_eq!(entry.best_moves()[0].square(), Some(sq("g8")));
        assert_eq!(entry.score_of(sq("b1")), Some(-4));
        assert_eq!(entry.comment, None);
        assert_eq!(entry.to_string(), FFO1);
    }

    #[test]
    fn comments_bare_scores_and_ties() {
        let start = "---------------------------OX------XO--------------------------- X";
        assert_eq!(parse_line(""), Ok(None));
        assert_eq!(parse_line("   % just a comment"), Ok(None));
        let bare = parse_line(&format!("{start}; +0; % start"))
            .unwrap()
            .unwrap();
        assert_eq!(bare.best_score(), Some(0));
        assert_eq!(bare.best_moves(), Vec::new());
        assert_eq!(bare.comment.as_deref(), Some("start"));
        assert_eq!(bare.to_string(), format!("{start}; +0; % start"));
        let ties = parse_line(&format!("{start}; f5:0; d3:+0; c4:-2"))
            .unwrap()
            .unwrap();
        assert_eq!(ties.best_score(), Some(0));
        let best: Vec<String> = ties.best_moves().iter().map(|mv| mv.to_string()).collect();
        assert_eq!(best, ["f5", "d3"]);
        assert_eq!(ties.to_string(), format!("{start}; F5:+0; D3:+0; C4:-2;"));

        let file = format!("% header\n\n{FFO1}\n{start}; +0;  % trailing\n");
        let entries = parse_file(&file).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(parse_file(&format_file(&entries)).unwrap(), entries);
    }

    #[test]
    fn the_end_marker_of_edax_problem_suites_is_skipped() {
        let start =
            board_string::format_position(&Position::start(crate::bitboard::BoardSize::Eight));
        let entry = parse_line(&format!("{start}; F5:+0; D3:+0; --:-127;"))
            .unwrap()
            .unwrap();
        assert_eq!(entry.move_scores.len(), 2);
        assert!(parse_line(&format!("{start}; --:+3;")).is_err());
    }

    #[test]
    fn passes() {
        // White to move has no move but Black has: PA is the only move.
        let blocked = Position::from_colors(
            sq("a1").bit() | sq("b1").bit(),
            sq("c1").bit(),
            Color::White,
            BoardSize::Eight,
        );
        assert!(blocked.must_pass());
        let line = format!("{}; PA:-64;", board_string::format_position(&blocked));
        let entry = parse_line(&line).unwrap().unwrap();
        assert_eq!(entry.move_scores, vec![(Move::Pass, -64)]);
        assert_eq!(entry.to_string(), line);
    }

    #[test]
    fn errors_are_typed() {
        assert!(matches!(
            parse_line("XO; F5:+2;"),
            Err(ObfError::Board(BoardStringError::WrongLength { .. }))
        ));
        let start = "---------------------------OX------XO--------------------------- X";
        let bad = |line: String| parse_line(&line).unwrap_err();
        assert_eq!(
            bad(format!("{start}; F5:+x;")),
            ObfError::BadScore {
                text: "+x".to_string()
            }
        );
        assert!(matches!(
            bad(format!("{start}; Z9:+2;")),
            ObfError::BadMove { .. }
        ));
        assert!(matches!(
            bad(format!("{start}; A1:+2;")),
            ObfError::Illegal(IllegalMoveError {
                reason: IllegalReason::NoFlips,
                ..
            })
        ));
        assert!(matches!(
            bad(format!("{start}; PA:+2;")),
            ObfError::Illegal(IllegalMoveError {
                reason: IllegalReason::PassWithMoves,
                ..
            })
        ));
        assert_eq!(bad(format!("{start}; +2; -2;")), ObfError::ManyScores);
        assert!(matches!(
            bad(format!("{start}; what;")),
            ObfError::BadField { .. }
        ));
        let file = format!("{start}; +0;\n\n{start}; F5:+99999999999;\n");
        let error = parse_file(&file).unwrap_err();
        assert_eq!(error.line, 3);
        assert!(error.to_string().starts_with("line 3: "));
    }

    fn check(text: &str) {
        if let Ok(Some(entry)) = parse_line(text) {
            let written = entry.to_string();
            assert_eq!(parse_line(&written), Ok(Some(entry)), "{written:?}");
        }
    }

    #[test]
    fn random_input_never_panics() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(19);
        let pieces = [
            "X", "O", "-", "--------", "XXXXXXXX", "OOOOOOOO", " ", ";", ":", "%", "+", "-", "1",
            "0", "64", "F5", "d3", "PA", "pass", "é", "\t", "X;", " O;",
        ];
        for _ in 0..30_000 {
            let len = rng.random_range(0..30);
            let text: String = (0..len)
                .map(|_| pieces[rng.random_range(0..pieces.len())])
                .collect();
            check(&text);
        }
    }

    #[test]
    fn mutated_lines_never_panic() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(23);
        let alphabet: Vec<char> = "XO-;:%+-0123456789ABCDEFGHPa é".chars().collect();
        let mut checked = 0;
        for _ in 0..30_000 {
            let mut text: Vec<char> = FFO1.chars().collect();
            for _ in 0..rng.random_range(1..4) {
                let at = rng.random_range(0..text.len());
                match rng.random_range(0..3) {
                    0 => {
                        text.remove(at);
                    }
                    1 => text[at] = alphabet[rng.random_range(0..alphabet.len())],
                    _ => text.insert(at, alphabet[rng.random_range(0..alphabet.len())]),
                }
            }
            let text: String = text.into_iter().collect();
            checked += usize::from(parse_line(&text).is_ok());
            check(&text);
        }
        assert!(checked > 100, "mutations should sometimes stay valid");
    }

    fn endgame_dir() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/endgame")
    }

    #[test]
    #[cfg_attr(
        not(shared_data),
        ignore = "needs ../shared (WTHOR, XOT, FFO): skipped"
    )]
    fn ffo_files_parse_and_moves_are_legal() {
        let dir = endgame_dir();
        let mut count = 0;
        for name in ["fforum-1-19.obf", "fforum-20-39.obf", "fforum-40-59.obf"] {
            let text = std::fs::read_to_string(dir.join(name)).unwrap();
            let entries = parse_file(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            for entry in &entries {
                assert!(!entry.move_scores.is_empty(), "{name}: {entry}");
                for (mv, _) in &entry.move_scores {
                    entry.position.play(*mv).unwrap();
                }
            }
            count += entries.len();
        }
        assert_eq!(count, 59);
    }

    #[test]
    #[cfg_attr(
        not(shared_data),
        ignore = "needs ../shared (WTHOR, XOT, FFO): skipped"
    )]
    fn ffo_40_59_scores_match_the_answer_key() {
        let dir = endgame_dir();
        let obf = std::fs::read_to_string(dir.join("fforum-40-59.obf")).unwrap();
        let entries = parse_file(&obf).unwrap();
        let key = std::fs::read_to_string(dir.join("ffo-40-59.tsv")).unwrap();
        let rows: Vec<&str> = key.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(rows.len(), entries.len());
        for (row, entry) in rows.iter().zip(&entries) {
            let cols: Vec<&str> = row.split('\t').collect();
            assert_eq!(cols.len(), 6, "{row}");
            let empties: u32 = cols[1].parse().unwrap();
            let score: i32 = cols[4].parse().unwrap();
            assert_eq!(entry.position.empty_count(), empties, "#{}", cols[0]);
            assert_eq!(entry.best_score(), Some(score), "#{}", cols[0]);
            let best: Vec<String> = entry.best_moves().iter().map(|m| m.to_upper()).collect();
            let mut expected: Vec<&str> = cols[3].split(',').collect();
            let mut best_sorted: Vec<&str> = best.iter().map(String::as_str).collect();
            expected.sort_unstable();
            best_sorted.sort_unstable();
            assert_eq!(best_sorted, expected, "#{}", cols[0]);
            let board = format!("{} {}", cols[5], cols[2]);
            assert_eq!(
                board_string::parse_position(&board).unwrap(),
                entry.position
            );
        }
    }
}
