//! A deliberately simple move generator, written the way the simplest
//! programs do it: an array of cells and a walk in each of the 8 directions
//! from each empty square. It shares no code with the library and serves as
//! the oracle for the bitboard generators.

use oxello::{Board, BoardSize};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cell {
    Empty,
    Mine,
    Theirs,
}

/// A board of `n` x `n` cells, `cells[row][col]`, from the side to move's view.
#[derive(Clone, Debug)]
pub struct NaiveBoard {
    pub n: usize,
    pub cells: Vec<Vec<Cell>>,
}

const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

impl NaiveBoard {
    pub fn from_board(board: Board, size: BoardSize) -> NaiveBoard {
        let n = size.n();
        let mut cells = vec![vec![Cell::Empty; n]; n];
        for (row, line) in cells.iter_mut().enumerate() {
            for (col, cell) in line.iter_mut().enumerate() {
                let bit = 1u64 << (row * 8 + col);
                if board.player & bit != 0 {
                    *cell = Cell::Mine;
                } else if board.opponent & bit != 0 {
                    *cell = Cell::Theirs;
                }
            }
        }
        NaiveBoard { n, cells }
    }

    fn inside(&self, row: i32, col: i32) -> bool {
        row >= 0 && col >= 0 && (row as usize) < self.n && (col as usize) < self.n
    }

    /// Squares (row, col) flipped by playing at (row, col); empty if illegal.
    pub fn flips(&self, row: usize, col: usize) -> Vec<(usize, usize)> {
        let mut all = Vec::new();
        if self.cells[row][col] != Cell::Empty {
            return all;
        }
        for (dr, dc) in DIRECTIONS {
            let mut line = Vec::new();
            let (mut r, mut c) = (row as i32 + dr, col as i32 + dc);
            while self.inside(r, c) && self.cells[r as usize][c as usize] == Cell::Theirs {
                line.push((r as usize, c as usize));
                r += dr;
                c += dc;
            }
            if !line.is_empty()
                && self.inside(r, c)
                && self.cells[r as usize][c as usize] == Cell::Mine
            {
                all.extend(line);
            }
        }
        all
    }

    /// All legal moves as (row, col), in reading order.
    pub fn moves(&self) -> Vec<(usize, usize)> {
        let mut moves = Vec::new();
        for row in 0..self.n {
            for col in 0..self.n {
                if !self.flips(row, col).is_empty() {
                    moves.push((row, col));
                }
            }
        }
        moves
    }

    /// The board after playing (row, col), seen by the other side.
    pub fn play(&self, row: usize, col: usize) -> NaiveBoard {
        let mut next = self.clone();
        for (r, c) in self.flips(row, col) {
            next.cells[r][c] = Cell::Mine;
        }
        next.cells[row][col] = Cell::Mine;
        next.pass()
    }

    /// The same discs seen by the other side.
    pub fn pass(&self) -> NaiveBoard {
        let mut next = self.clone();
        for line in &mut next.cells {
            for cell in line.iter_mut() {
                *cell = match *cell {
                    Cell::Mine => Cell::Theirs,
                    Cell::Theirs => Cell::Mine,
                    Cell::Empty => Cell::Empty,
                };
            }
        }
        next
    }

    /// Legal moves as a bitboard (bit row*8+col).
    pub fn move_bits(&self) -> u64 {
        self.moves()
            .iter()
            .fold(0, |bits, &(r, c)| bits | 1u64 << (r * 8 + c))
    }

    /// Flips of (row, col) as a bitboard.
    pub fn flip_bits(&self, row: usize, col: usize) -> u64 {
        self.flips(row, col)
            .iter()
            .fold(0, |bits, &(r, c)| bits | 1u64 << (r * 8 + c))
    }
}

/// Perft by the naive generator. `pass_is_ply` chooses convention A (true)
/// or B (false); a finished game is one leaf in both.
pub fn perft(board: &NaiveBoard, depth: u32, pass_is_ply: bool) -> u64 {
    perft_inner(board, depth, pass_is_ply, false)
}

fn perft_inner(board: &NaiveBoard, depth: u32, pass_is_ply: bool, passed: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.moves();
    if moves.is_empty() {
        let other = board.pass();
        if other.moves().is_empty() {
            return 1;
        }
        return if pass_is_ply {
            if passed {
                1
            } else {
                perft_inner(&other, depth - 1, true, true)
            }
        } else {
            perft_inner(&other, depth, false, true)
        };
    }
    moves
        .iter()
        .map(|&(r, c)| perft_inner(&board.play(r, c), depth - 1, pass_is_ply, false))
        .sum()
}

impl NaiveBoard {
    /// Disc counts (mine, theirs) and empty squares.
    pub fn counts(&self) -> (i32, i32, i32) {
        let mut counts = (0, 0, 0);
        for cell in self.cells.iter().flatten() {
            match cell {
                Cell::Mine => counts.0 += 1,
                Cell::Theirs => counts.1 += 1,
                Cell::Empty => counts.2 += 1,
            }
        }
        counts
    }

    /// The final score with the empty squares given to the winner.
    pub fn final_score(&self) -> i32 {
        let (mine, theirs, empty) = self.counts();
        let diff = mine - theirs;
        diff + diff.signum() * empty
    }
}

/// Exact score by plain negamax with alpha-beta over the naive generator:
/// the second, simple solver the fast one is checked against.
pub fn solve(board: &NaiveBoard, mut alpha: i32, beta: i32) -> i32 {
    let moves = board.moves();
    if moves.is_empty() {
        let other = board.pass();
        if other.moves().is_empty() {
            return board.final_score();
        }
        return -solve(&other, -beta, -alpha);
    }
    let mut best = i32::MIN;
    for (row, col) in moves {
        let score = -solve(&board.play(row, col), -beta, -alpha);
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// Exact score of each legal move, (row, col) -> score.
pub fn solve_moves(board: &NaiveBoard) -> Vec<((usize, usize), i32)> {
    board
        .moves()
        .into_iter()
        .map(|(r, c)| ((r, c), -solve(&board.play(r, c), -64, 64)))
        .collect()
}
