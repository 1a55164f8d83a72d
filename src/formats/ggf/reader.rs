//! The GGF reader: a cursor over the text, the tag list, and the game built
//! from the tags.

use super::*;

/// A position in the text; always on a character boundary.
pub(super) struct Cursor<'a> {
    pub(super) text: &'a str,
    pub(super) pos: usize,
}

impl Cursor<'_> {
    pub(super) fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    pub(super) fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    pub(super) fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }
}

/// A tag as read: upper-cased name, unescaped value.
pub(super) struct RawTag {
    name: String,
    value: String,
}

/// Reads `(; TAG[value] ... ;)` at the cursor, which is on the `(`.
pub(super) fn parse_tags(cursor: &mut Cursor<'_>) -> Result<Vec<RawTag>, GgfError> {
    let start = cursor.pos;
    let unterminated = GgfError::Unterminated { offset: start };
    cursor.bump();
    cursor.skip_whitespace();
    match cursor.bump() {
        Some(';') => {}
        Some(found) => {
            return Err(GgfError::Unexpected {
                offset: cursor.pos - found.len_utf8(),
                found,
            });
        }
        None => return Err(unterminated),
    }
    let mut tags = Vec::new();
    loop {
        cursor.skip_whitespace();
        let offset = cursor.pos;
        match cursor.peek() {
            None | Some('(') => return Err(unterminated),
            Some(')') => {
                cursor.bump();
                return Ok(tags);
            }
            Some(';') => {
                cursor.bump();
                cursor.skip_whitespace();
                if cursor.peek() == Some(')') {
                    cursor.bump();
                    return Ok(tags);
                }
            }
            Some(c) if c.is_ascii_alphabetic() => {
                let mut name = String::new();
                while let Some(c) = cursor.peek().filter(char::is_ascii_alphanumeric) {
                    name.push(c.to_ascii_uppercase());
                    cursor.bump();
                }
                cursor.skip_whitespace();
                match cursor.bump() {
                    Some('[') => {}
                    Some(found) => {
                        return Err(GgfError::Unexpected {
                            offset: cursor.pos - found.len_utf8(),
                            found,
                        });
                    }
                    None => return Err(unterminated),
                }
                let value = read_value(cursor).ok_or(GgfError::Unterminated { offset })?;
                tags.push(RawTag { name, value });
            }
            Some(found) => return Err(GgfError::Unexpected { offset, found }),
        }
    }
}

/// Reads a tag value up to its unescaped `]`; `None` at the end of the text.
pub(super) fn read_value(cursor: &mut Cursor<'_>) -> Option<String> {
    let mut value = String::new();
    loop {
        match cursor.bump()? {
            ']' => return Some(value),
            '\\' if matches!(cursor.peek(), Some(']' | '\\')) => value.push(cursor.bump()?),
            c => value.push(c),
        }
    }
}

/// Turns the tags of one game into a record.
pub(super) fn build_game(tags: Vec<RawTag>) -> Result<GgfGame, GgfError> {
    let mut game = GgfGame::default();
    let mut game_type = None;
    let mut board = None;
    for RawTag { name, value } in tags {
        let number = |tag: &str| {
            parse_number(&value).ok_or_else(|| GgfError::BadValue {
                tag: tag.to_string(),
                value: value.clone(),
            })
        };
        let clock = |tag: &str| {
            GgfClock::parse(&value).ok_or_else(|| GgfError::BadValue {
                tag: tag.to_string(),
                value: value.clone(),
            })
        };
        match name.as_str() {
            "GM" => {
                if !value.trim().eq_ignore_ascii_case("othello") {
                    return Err(GgfError::NotOthello { found: value });
                }
            }
            "PC" => game.place = value.trim().to_string(),
            "DT" => game.date = value.trim().to_string(),
            "PB" => game.black_name = value.trim().to_string(),
            "PW" => game.white_name = value.trim().to_string(),
            "RB" => game.black_rating = Some(number("RB")?),
            "RW" => game.white_rating = Some(number("RW")?),
            "TI" => game.clock = clock("TI")?,
            "TB" => game.black_clock = Some(clock("TB")?),
            "TW" => game.white_clock = Some(clock("TW")?),
            "TY" => game_type = Some(GameType::parse(&value)?),
            "RE" => game.result = GgfResult::parse(&value)?,
            "BO" => board = Some(parse_board(&value)?),
            "KM" => game.komi = Some(number("KM")?),
            "CO" => game.comment = value.trim().to_string(),
            "B" | "W" | "KB" | "KW" => {
                let color = if name.ends_with('B') {
                    Color::Black
                } else {
                    Color::White
                };
                let number = game.moves.len() + 1;
                let mv = GgfMove::parse(color, &value).ok_or(GgfError::BadMove {
                    number,
                    value: value.clone(),
                })?;
                match name.as_str() {
                    "KB" => game.black_komi_move = Some(mv),
                    "KW" => game.white_komi_move = Some(mv),
                    _ => game.moves.push(mv),
                }
            }
            _ => game.extra_tags.push((name, value)),
        }
    }
    game.start = match (game_type, board) {
        (Some(game_type), Some(board)) if game_type.size != board.size => {
            return Err(GgfError::SizeMismatch {
                declared: game_type.size.n(),
                found: board.size.n(),
            });
        }
        (_, Some(board)) => board,
        (Some(game_type), None) => Position::start(game_type.size),
        (None, None) => Position::start(BoardSize::Eight),
    };
    game.game_type = game_type.unwrap_or_default();
    game.game_type.size = game.start.size;
    Ok(game)
}

/// Reads `BO[8 <squares> <side>]`.
pub(super) fn parse_board(value: &str) -> Result<Position, GgfError> {
    let trimmed = value.trim_start();
    let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Err(GgfError::BadValue {
            tag: "BO".to_string(),
            value: value.to_string(),
        });
    }
    let size = parse_size(&trimmed[..digits])?;
    let position =
        board_string::parse_position(&trimmed[digits..]).map_err(|error| GgfError::BadBoard {
            value: value.to_string(),
            error,
        })?;
    if position.size != size {
        return Err(GgfError::SizeMismatch {
            declared: size.n(),
            found: position.size.n(),
        });
    }
    Ok(position)
}
