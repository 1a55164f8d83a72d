//! The text form of a book, for reading, diffing and moving books between
//! machines: one position a line, in the order of the binary file.
//!
//! ```text
//! # oxello book 1: board (X to move) X, games, book moves, *best unexplored move; move:score:depth:selectivity
//! ---------------------------OX------XO--------------------------- X 5 d3:+0:12:73 c4:+0:12:73 f5:+0:12:73 e6:+0:12:73
//! ```
//!
//! The board is the canonical board of the position's class, its side to
//! move written as `X`; moves are in its coordinates. `book import` reads
//! it back into the same book.

use super::{Book, BookError, Edge, Node, Value, key};
use crate::color::Color;
use crate::formats::board_string;
use crate::position::Position;
use crate::search::Selectivity;
use std::fmt::Write as _;

/// The first line of the text form.
pub const HEADER: &str = "# oxello book 1: board (X to move) X, games, book moves, *best unexplored move; move:score:depth:selectivity";

fn edge_text(edge: &Edge) -> String {
    format!(
        "{}:{:+}:{}:{}",
        key::name(edge.mv),
        edge.value.score,
        edge.value.depth,
        edge.value.selectivity.percent()
    )
}

/// The text form of `book`.
pub fn export(book: &Book) -> String {
    let mut text = String::with_capacity(book.len() * 120);
    text.push_str(HEADER);
    text.push('\n');
    for key in book.sorted_keys() {
        let Some(node) = book.node(&key) else {
            continue;
        };
        let position = Position {
            board: key,
            side: Color::Black,
            ..Position::default()
        };
        let _ = write!(
            text,
            "{} {}",
            board_string::format_position(&position),
            node.games
        );
        for edge in &node.moves {
            let _ = write!(text, " {}", edge_text(edge));
        }
        if let Some(edge) = &node.unexplored {
            let _ = write!(text, " *{}", edge_text(edge));
        }
        text.push('\n');
    }
    text
}

/// The book of a text form (comment and blank lines skipped).
pub fn import(text: &str) -> Result<Book, BookError> {
    let mut book = Book::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let error = |message: String| BookError::Text {
            line: index + 1,
            message,
        };
        let (board, node) = parse_line(line).map_err(error)?;
        if book.node(&board).is_some() {
            return Err(error("a position already given".to_string()));
        }
        book.insert(board, node);
    }
    Ok(book)
}

fn parse_line(line: &str) -> Result<(crate::board::Board, Node), String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() < 3 {
        return Err("expected a board, its side and a game count".to_string());
    }
    let position = board_string::parse_position(&format!("{} {}", words[0], words[1]))
        .map_err(|e| format!("board: {e}"))?;
    if position.size != crate::bitboard::BoardSize::Eight || position.side != Color::Black {
        return Err("the board must be 8x8 with X to move".to_string());
    }
    let board = position.board;
    if key::canonical(board).0 != board {
        return Err("the board is not its class's canonical board".to_string());
    }
    let games = words[2]
        .parse::<u32>()
        .map_err(|_| format!("game count '{}'", words[2]))?;
    let mut node = Node::seen(games);
    for word in &words[3..] {
        let (unexplored, word) = match word.strip_prefix('*') {
            Some(rest) => (true, rest),
            None => (false, *word),
        };
        let edge = parse_edge(word)?;
        if key::decode(board, edge.mv, crate::bitboard::Symmetry::Identity).is_none() {
            return Err(format!("'{word}' is not a legal move"));
        }
        if unexplored {
            if node.unexplored.replace(edge).is_some() {
                return Err("two best unexplored moves".to_string());
            }
        } else {
            node.moves.push(edge);
        }
    }
    Ok((board, node))
}

/// `f5:+2:12:73`; an error names the part that is wrong.
fn parse_edge(word: &str) -> Result<Edge, String> {
    let parts: Vec<&str> = word.split(':').collect();
    let &[square, score, depth, selectivity] = parts.as_slice() else {
        return Err(format!(
            "move '{word}': expected move:score:depth:selectivity"
        ));
    };
    let bad = |what: &str| format!("move '{word}': {what}");
    let mv = key::parse(square).ok_or_else(|| bad(&format!("'{square}' is not a square")))?;
    let score = score
        .parse::<i8>()
        .ok()
        .filter(|score| (-64..=64).contains(score))
        .ok_or_else(|| bad(&format!("score '{score}' is not -64 to +64")))?;
    let depth = depth
        .parse::<u8>()
        .ok()
        .filter(|&depth| depth <= super::MAX_DEPTH)
        .ok_or_else(|| bad(&format!("depth '{depth}' is not 0 to {}", super::MAX_DEPTH)))?;
    let selectivity: Selectivity = selectivity.parse().map_err(|e| bad(&format!("{e}")))?;
    Ok(Edge {
        mv,
        value: Value {
            score,
            depth,
            selectivity,
        },
    })
}
