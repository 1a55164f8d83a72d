//! `oxello.Board`: an Othello game (its start position and the moves
//! played), with python-chess's vocabulary: `legal_moves`, `push`, `pop`,
//! `is_game_over`, `result`, `turn`.
//!
//! A move is a square name (`"f5"`, any case), a square index (`row * 8 +
//! col`, a1 = 0, h1 = 7, a2 = 8: the engine's own numbering, on every board
//! size) or `oxello.PASS`. A move that is illegal or no move raises
//! `IllegalMoveError` (a `ValueError`) and leaves the board as it was.

use crate::arrays;
use crate::errors::{IllegalMoveError, guard, value_error};
use crate::picture;
use oxello::bitboard::{BoardSize, Symmetry, squares};
use oxello::formats::ggf::{self, GgfGame};
use oxello::formats::{board_string, obf, transcript, wthor};
use oxello::moves::{Move, is_pass_word};
use oxello::perft::{PassConvention, perft};
use oxello::selfplay::npz::{self, Sample};
use oxello::{Color, Game, Position, Square};
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// The name of the pass move (`oxello.PASS`), as the JSON schema writes it.
pub const PASS: &str = "pass";

/// Names of the 8 symmetries, in the order of `Board.symmetries()`.
pub const SYMMETRY_NAMES: [&str; 8] = [
    "identity",
    "flip_vertical",
    "flip_horizontal",
    "flip_diagonal",
    "flip_anti_diagonal",
    "rotate90",
    "rotate180",
    "rotate270",
];

/// An Othello board with its move history.
///
/// `Board(size=8)` is the standard start of a 4x4, 6x6 or 8x8 board; the
/// class methods read a board string, a transcript, a GGF game, an OBF line
/// or a game of a WTHOR file. Moves are `"f5"`, a square index (a1 = 0,
/// h1 = 7, a2 = 8) or `oxello.PASS`; an illegal move raises
/// `IllegalMoveError` (a `ValueError`) and leaves the board unchanged.
/// Equality and hashing look at the position (discs, side to move, size),
/// not at the history.
#[pyclass(module = "oxello", name = "Board")]
#[derive(Clone)]
pub struct Board {
    pub game: Game,
}

impl Board {
    pub fn position(&self) -> Position {
        self.game.position()
    }
}

/// The board size of `n`, or a `ValueError`.
pub fn board_size(n: usize) -> PyResult<BoardSize> {
    BoardSize::from_n(n)
        .ok_or_else(|| value_error(format!("size {n}: Othello boards are 4, 6 or 8")))
}

/// `"black"` or `"white"`.
pub fn color_name(color: Color) -> &'static str {
    color.name()
}

/// A move's name: `f5` or `pass`.
pub fn move_name(mv: Move) -> String {
    oxello::json::move_name(mv)
}

/// Reads a move of `position` from a Python object (see the module header).
pub fn parse_move(position: &Position, object: &Bound<'_, PyAny>) -> PyResult<Move> {
    let illegal = |message: String| IllegalMoveError::new_err(message);
    let square = if object.is_instance_of::<PyString>() {
        let text = object.extract::<String>()?.trim().to_string();
        if is_pass_word(&text) {
            return position
                .play(Move::Pass)
                .map(|_| Move::Pass)
                .map_err(|e| illegal(e.to_string()));
        }
        text.parse::<Square>().map_err(|_| {
            illegal(format!(
                "'{text}' is not a move: use a square such as 'f5', an index 0-63 or oxello.PASS"
            ))
        })?
    } else if object.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err(
            "a move is a square name ('f5'), a square index (0-63) or oxello.PASS, not a bool",
        ));
    } else if let Ok(index) = object.extract::<i64>() {
        u8::try_from(index)
            .ok()
            .and_then(Square::new)
            .ok_or_else(|| illegal(format!("square index {index} is not in 0-63")))?
    } else {
        return Err(PyTypeError::new_err(format!(
            "a move is a square name ('f5'), a square index (0-63) or oxello.PASS, not {}",
            object.get_type().name()?
        )));
    };
    position
        .placement(square)
        .map_err(|e| illegal(e.to_string()))
}

fn symmetry(object: &Bound<'_, PyAny>) -> PyResult<Symmetry> {
    if let Ok(name) = object.extract::<String>() {
        let wanted = name.trim().to_ascii_lowercase();
        return SYMMETRY_NAMES
            .iter()
            .position(|&n| n == wanted)
            .map(|i| Symmetry::ALL[i])
            .ok_or_else(|| {
                value_error(format!(
                    "'{name}' is not a symmetry ({})",
                    SYMMETRY_NAMES.join(", ")
                ))
            });
    }
    let index: i64 = object.extract().map_err(|_| {
        PyTypeError::new_err("a symmetry is a name such as 'rotate90' or an index 0-7")
    })?;
    usize::try_from(index)
        .ok()
        .and_then(|i| Symmetry::ALL.get(i).copied())
        .ok_or_else(|| value_error(format!("symmetry {index} is not in 0-7")))
}

/// The AlphaZero sample of a position (no policy, no outcome): the planes
/// `selfplay --format npz` writes for it.
pub fn sample(position: &Position, last: Option<Square>) -> Sample {
    let n = position.size.n();
    let cell = |s: Square| usize::from(s.row()) * n + usize::from(s.col());
    let cells = |bits: u64| squares(bits).map(cell).collect::<Vec<_>>();
    Sample {
        width: n,
        height: n,
        own: cells(position.board.player),
        opponent: cells(position.board.opponent),
        last: last.map(cell),
        black_to_move: position.side == Color::Black,
        probs: Vec::new(),
        z: 0.0,
    }
}

#[pymethods]
impl Board {
    #[new]
    #[pyo3(signature = (size = 8))]
    fn new(size: usize) -> PyResult<Board> {
        Ok(Board {
            game: Game::new(board_size(size)?),
        })
    }

    /// A board from a board string: the squares a1, b1, ... h8 (`X`/`x`/`*`
    /// Black, `O`/`o` White, `-`/`.` empty; 16, 36 or 64 of them) then the
    /// side to move (`X` or `O`).
    #[classmethod]
    fn from_string(_cls: &Bound<'_, pyo3::types::PyType>, text: &str) -> PyResult<Board> {
        let position = board_string::parse_position(text).map_err(value_error)?;
        Ok(Board {
            game: Game::from_position(position),
        })
    }

    /// A game from a transcript (`"f5d6c3"`, spaces and passes allowed),
    /// played from the start of a board of `size`.
    #[classmethod]
    #[pyo3(signature = (text, size = 8))]
    fn from_transcript(
        _cls: &Bound<'_, pyo3::types::PyType>,
        text: &str,
        size: usize,
    ) -> PyResult<Board> {
        let game = transcript::parse_game(text, Position::start(board_size(size)?))
            .map_err(value_error)?;
        Ok(Board { game })
    }

    /// A game from a GGF record (`(;GM[Othello]...;)`), with all its moves.
    #[classmethod]
    fn from_ggf(_cls: &Bound<'_, pyo3::types::PyType>, text: &str) -> PyResult<Board> {
        let record = ggf::parse_one(text).map_err(value_error)?;
        let game = record.to_game().map_err(value_error)?;
        Ok(Board { game })
    }

    /// The position of an OBF line (`<board string>; F5:+2; ...`).
    #[classmethod]
    fn from_obf(_cls: &Bound<'_, pyo3::types::PyType>, line: &str) -> PyResult<Board> {
        let entry = obf::parse_line(line)
            .map_err(value_error)?
            .ok_or_else(|| value_error("the OBF line holds no position"))?;
        Ok(Board {
            game: Game::from_position(entry.position),
        })
    }

    /// Game `index` (from 0) of a WTHOR `.wtb` file, with all its moves.
    #[classmethod]
    fn from_wthor(
        _cls: &Bound<'_, pyo3::types::PyType>,
        path: std::path::PathBuf,
        index: usize,
    ) -> PyResult<Board> {
        let bytes = std::fs::read(&path).map_err(|e| crate::errors::file_error(&path, e))?;
        let file = wthor::parse_wtb(&bytes)
            .map_err(|e| value_error(format!("{}: {e}", path.display())))?;
        let record = file.games.get(index).ok_or_else(|| {
            PyIndexError::new_err(format!(
                "{}: game {index} of {}",
                path.display(),
                file.games.len()
            ))
        })?;
        let game = record
            .replay()
            .map_err(|e| value_error(format!("{} game {index}: {e}", path.display())))?;
        Ok(Board { game })
    }

    /// Board size: 4, 6 or 8.
    #[getter]
    fn size(&self) -> usize {
        self.game.size().n()
    }

    /// The side to move: `"black"` or `"white"`.
    #[getter]
    fn turn(&self) -> &'static str {
        color_name(self.position().side)
    }

    /// The legal moves: square names in a1, b1, ... order; `["pass"]` when
    /// the side to move must pass; `[]` once the game is over.
    #[getter]
    fn legal_moves(&self) -> Vec<String> {
        let position = self.position();
        if position.is_game_over() {
            Vec::new()
        } else if position.must_pass() {
            vec![PASS.to_string()]
        } else {
            squares(position.legal_moves())
                .map(|s| s.to_string())
                .collect()
        }
    }

    /// The legal placements as square indices (a1 = 0, h1 = 7, a2 = 8).
    #[getter]
    fn legal_squares(&self) -> Vec<usize> {
        squares(self.position().legal_moves())
            .map(Square::index)
            .collect()
    }

    /// The legal placements as a bitboard (bit `row * 8 + col`).
    #[getter]
    fn legal_mask(&self) -> u64 {
        self.position().legal_moves()
    }

    /// Whether `move` is legal here (malformed moves are not).
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> bool {
        parse_move(&self.position(), r#move).is_ok()
    }

    /// Plays `move`. An illegal or malformed move raises `IllegalMoveError`
    /// (a `ValueError`; `TypeError` for objects that are no move at all)
    /// and leaves the board as it was.
    fn push(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let mv = parse_move(&self.position(), r#move)?;
        self.game
            .play(mv)
            .map_err(|e| IllegalMoveError::new_err(e.to_string()))
    }

    /// Takes back the last move and returns its name; `IndexError` at the
    /// start of the game.
    fn pop(&mut self) -> PyResult<String> {
        let index = self
            .game
            .moves()
            .len()
            .checked_sub(1)
            .ok_or_else(|| PyIndexError::new_err("pop from a board without moves"))?;
        let mv = self.game.moves()[index];
        self.game.truncate(index);
        Ok(move_name(mv))
    }

    /// The moves played from the start, passes included.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.game.moves().iter().map(|&mv| move_name(mv)).collect()
    }

    /// Moves played (passes count).
    #[getter]
    fn ply(&self) -> usize {
        self.game.moves().len()
    }

    /// Empty squares.
    #[getter]
    fn empties(&self) -> u32 {
        self.position().empty_count()
    }

    /// Whether neither side can move.
    fn is_game_over(&self) -> bool {
        self.position().is_game_over()
    }

    /// The result as discs, Black's first (`"36-28"`, the empties to the
    /// winner), or `"*"` while the game goes on, as python-chess writes an
    /// unfinished result.
    fn result(&self) -> String {
        match self.game.final_score_black() {
            None => "*".to_string(),
            Some(score) => {
                let squares = self.game.size().squares() as i32;
                let black = (squares + score) / 2;
                format!("{black}-{}", squares - black)
            }
        }
    }

    /// Black's final disc difference (empties to the winner), `None` while
    /// the game goes on.
    fn score(&self) -> Option<i32> {
        self.game.final_score_black()
    }

    /// The winner, `"black"`, `"white"` or `"draw"`, `None` while the game
    /// goes on.
    fn winner(&self) -> Option<&'static str> {
        self.game.final_score_black().map(|score| match score {
            s if s > 0 => "black",
            s if s < 0 => "white",
            _ => "draw",
        })
    }

    /// Discs on the board: `(black, white)`.
    fn disc_count(&self) -> (u32, u32) {
        self.position().disc_counts()
    }

    /// The disc on a square (`"f5"` or an index): `"black"`, `"white"` or
    /// `None`.
    fn piece_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<&'static str>> {
        let square = if let Ok(text) = square.extract::<String>() {
            text.parse::<Square>().map_err(value_error)?
        } else {
            let index: i64 = square
                .extract()
                .map_err(|_| PyTypeError::new_err("a square is a name ('f5') or an index 0-63"))?;
            u8::try_from(index)
                .ok()
                .and_then(Square::new)
                .ok_or_else(|| value_error(format!("square index {index} is not in 0-63")))?
        };
        Ok(self.position().disc(square).map(color_name))
    }

    /// Black's and White's discs as bitboards (bit `row * 8 + col`).
    #[getter]
    fn bitboards(&self) -> (u64, u64) {
        let position = self.position();
        (position.black(), position.white())
    }

    /// A copy (history included).
    fn copy(&self) -> Board {
        self.clone()
    }

    fn __copy__(&self) -> Board {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.clone()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Board>()
            .is_ok_and(|other| other.borrow().position() == self.position())
    }

    fn __hash__(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        self.position().hash(&mut hasher);
        hasher.finish()
    }

    /// The board under one of the 8 symmetries (a name of
    /// `oxello.SYMMETRIES` or its index), history included.
    fn transform(&self, symmetry: &Bound<'_, PyAny>) -> PyResult<Board> {
        let symmetry = self::symmetry(symmetry)?;
        let size = self.game.size();
        let mut game = Game::from_position(self.game.start().symmetric(symmetry));
        for &mv in self.game.moves() {
            let mapped = match mv.square() {
                None => Move::Pass,
                Some(square) => game
                    .position()
                    .placement(symmetry.apply_square(square, size))
                    .map_err(crate::errors::oxello_error)?,
            };
            game.play(mapped).map_err(crate::errors::oxello_error)?;
        }
        Ok(Board { game })
    }

    /// The 8 images of the board, identity first (`oxello.SYMMETRIES`).
    fn symmetries(&self, py: Python<'_>) -> PyResult<Vec<Board>> {
        (0..8)
            .map(|i: usize| self.transform(&i.into_pyobject(py)?.into_any()))
            .collect()
    }

    /// The board string: squares a1..h8 (`X`, `O`, `-`), a space, the side.
    fn board_string(&self) -> String {
        board_string::format_position(&self.position())
    }

    /// The moves as a transcript (`f5d6c3`), passes left out.
    fn transcript(&self) -> String {
        transcript::format_game(&self.game)
    }

    /// The game as a GGF record.
    fn ggf(&self) -> String {
        GgfGame::from_game(&self.game).to_string()
    }

    /// The AlphaZero planes of the position, float32 `[4, n, n]`: the side
    /// to move's discs, the opponent's, the last move (one-hot; zero after
    /// a pass or at the start), and all ones when Black is to move. The
    /// layout of `selfplay --format npz`'s `states`.
    fn to_planes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let last = self.game.moves().last().and_then(|mv| mv.square());
        let sample = sample(&self.position(), last);
        let n = sample.width;
        let mut planes = vec![0f32; 4 * n * n];
        let mut probs = vec![0f32; n * n];
        npz::fill(&sample, &mut planes, &mut probs);
        arrays::array(py, &planes, &[4, n, n])
    }

    /// Leaf positions `depth` plies below this one; a pass counts as a ply
    /// (`passes="ply"`, the usual convention) or not (`"free"`).
    #[pyo3(signature = (depth, passes = "ply"))]
    fn perft(&self, py: Python<'_>, depth: u32, passes: &str) -> PyResult<u64> {
        let convention = match passes {
            "ply" => PassConvention::PassIsPly,
            "free" => PassConvention::PassIsFree,
            other => {
                return Err(value_error(format!(
                    "passes='{other}': use 'ply' or 'free'"
                )));
            }
        };
        if depth > 20 {
            return Err(value_error(format!("perft depth {depth}: at most 20")));
        }
        let position = self.position();
        py.detach(|| guard(|| Ok(perft(position.board, position.size, depth, convention))))
    }

    /// The console's diagram: the board with legal moves marked, disc
    /// counts and the side to move.
    fn __str__(&self) -> String {
        oxello::diagram::diagram(&self.position())
    }

    fn __repr__(&self) -> String {
        format!("oxello.Board.from_string('{}')", self.board_string())
    }

    /// The board as an SVG picture (shown by notebooks).
    fn _repr_svg_(&self) -> String {
        let last = self.game.moves().last().and_then(|mv| mv.square());
        picture::board_svg(&self.position(), last)
    }
}
