//! The JSON Lines format: one object per record, one record per line.
//!
//! ```text
//! {"game":0,"ply":8,"index":0,"records":52,"size":8,"board":"----…","side":"black",
//!  "policy":{"c3":0.0419,"d3":0.8411,…},"move":"d3","score":2,"depth":9,"exact":false,
//!  "outcome":-4,"result":"loss"}
//! ```
//!
//! (one line in the file). `board` is the board string of oxello's other
//! tools: the squares in reading order (a1, b1, …, then row 2), `X` Black,
//! `O` White, `-` empty, 16, 36 or 64 characters; `side` is `black` or
//! `white`; `policy` maps each square of non-zero probability to it (the
//! probabilities are multiples of 1/65535 rounded to 6 decimals, and add up
//! to 1 within 1e-4); `result` is
//! `win`, `draw` or `loss`, the sign of `outcome`. The other fields are those
//! of [`Record`].

use super::record::{GameResult, POLICY_TOTAL, Policy, Record, RecordError, size_of_side};
use crate::formats::board_string;
use crate::square::Square;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The JSON shape of a record.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonRecord {
    game: u32,
    ply: u8,
    index: u8,
    records: u8,
    size: u32,
    board: String,
    side: String,
    policy: BTreeMap<String, f64>,
    #[serde(rename = "move")]
    mv: String,
    score: i8,
    depth: u8,
    exact: bool,
    outcome: i8,
    result: String,
}

/// The line of a record, without the newline.
pub fn encode(record: &Record) -> String {
    let position = &record.position;
    let json = JsonRecord {
        game: record.game,
        ply: record.ply,
        index: record.index,
        records: record.records,
        size: position.size.n() as u32,
        board: board_string::format_squares(position),
        side: position.side.name().to_string(),
        policy: record
            .policy
            .moves()
            .map(|(square, w)| (square.to_string(), probability_text(w)))
            .collect(),
        mv: record.mv.to_string(),
        score: record.score,
        depth: record.depth,
        exact: record.exact,
        outcome: record.outcome,
        result: record.result().name().to_string(),
    };
    // A struct of numbers, strings and a string-keyed map always serialises.
    serde_json::to_string(&json).unwrap_or_default()
}

/// A weight as a probability rounded to 6 decimals: short to write, and
/// still read back to the same weight (the rounding moves it by at most
/// 5e-7 x 65535 = 0.033 of a unit).
fn probability_text(weight: u16) -> f64 {
    (f64::from(weight) / f64::from(POLICY_TOTAL) * 1e6).round() / 1e6
}

/// Reads and checks the record of one line (see [`Record::check`]).
pub fn decode(line: &str) -> Result<Record, RecordError> {
    let json: JsonRecord =
        serde_json::from_str(line).map_err(|e| RecordError::Json(e.to_string()))?;
    let size = size_of_side(json.size)?;
    let side = json
        .side
        .parse::<crate::color::Color>()
        .map_err(|e| RecordError::Json(e.to_string()))?;
    let position = board_string::parse_position(&format!("{} {}", json.board, side.symbol()))
        .map_err(|e| RecordError::Json(format!("board: {e}")))?;
    if position.size != size {
        return Err(RecordError::Json(format!(
            "a board of {} squares with size {}",
            json.board.chars().count(),
            json.size
        )));
    }
    let mut weights = [0u16; 64];
    for (name, p) in &json.policy {
        let square = parse_square(name)?;
        if !(0.0..=1.0).contains(p) {
            return Err(RecordError::Json(format!("probability {p} of {name}")));
        }
        weights[square.index()] = (p * f64::from(POLICY_TOTAL)).round() as u16;
    }
    let record = Record {
        game: json.game,
        ply: json.ply,
        index: json.index,
        records: json.records,
        position,
        policy: Policy::from_weights(weights)?,
        mv: parse_square(&json.mv)?,
        score: json.score,
        depth: json.depth,
        exact: json.exact,
        outcome: json.outcome,
    };
    GameResult::check_named(json.result, json.outcome)?;
    record.check()?;
    Ok(record)
}

fn parse_square(name: &str) -> Result<Square, RecordError> {
    name.parse()
        .map_err(|e: crate::square::ParseSquareError| RecordError::Json(e.to_string()))
}

/// Every record of a text (a whole file, or several concatenated).
pub fn read_all(text: &str) -> Result<Vec<Record>, RecordError> {
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(decode)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selfplay::record::tests::random_records;

    #[test]
    fn records_round_trip() {
        let records = random_records(3000, 17);
        let mut text = String::new();
        for record in &records {
            let line = encode(record);
            assert!(!line.contains('\n'));
            assert_eq!(decode(&line).unwrap(), *record, "{line}");
            text += &line;
            text.push('\n');
        }
        assert_eq!(read_all(&text).unwrap(), records);
    }

    #[test]
    fn fields_are_named_as_documented() {
        let record = random_records(1, 19)[0];
        let value: serde_json::Value = serde_json::from_str(&encode(&record)).unwrap();
        for field in [
            "board", "side", "policy", "move", "score", "outcome", "result",
        ] {
            assert!(value.get(field).is_some(), "{field}");
        }
        assert_eq!(value["move"], record.mv.to_string());
        assert_eq!(value["result"], record.result().name());
        let total: f64 = value["policy"]
            .as_object()
            .unwrap()
            .values()
            .map(|p| p.as_f64().unwrap())
            .sum();
        assert!((total - 1.0).abs() < 1e-4);
    }

    #[test]
    fn bad_lines_are_refused() {
        let line = encode(&random_records(1, 23)[0]);
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        let with = |field: &str, new: serde_json::Value| {
            let mut changed = value.clone();
            changed[field] = new;
            decode(&changed.to_string())
        };
        assert!(matches!(decode("{"), Err(RecordError::Json(_))));
        assert!(matches!(decode(""), Err(RecordError::Json(_))));
        assert!(with("size", 5.into()).is_err());
        assert!(with("board", "XO".into()).is_err());
        assert!(with("side", "red".into()).is_err());
        assert!(with("move", "z9".into()).is_err());
        assert!(with("result", "maybe".into()).is_err());
        assert!(with("policy", serde_json::json!({"a1": 2.0})).is_err());
        assert!(with("extra", 1.into()).is_err());
    }
}
