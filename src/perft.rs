//! Perft: counting the leaves of the game tree to a fixed depth, the standard
//! check of a move generator.
//!
//! Two conventions are in use (see `docs/reference-data.md` §1 of the shared
//! notes), and they first differ at depth 9:
//!
//! * [`PassConvention::PassIsPly`] (convention **A**, the common one: Aart
//!   Bik's table, Egaroucid "mode 1"): a forced pass is a ply of its own, and
//!   a finished game is one leaf at whatever depth it ends.
//! * [`PassConvention::PassIsFree`] (convention **B**, Egaroucid "mode 2"): a
//!   forced pass uses no depth; a finished game is still one leaf.
//!
//! The last ply is bulk-counted: a node one ply above the leaves returns its
//! number of legal moves without playing them.

use crate::bitboard::BoardSize;
use crate::board::Board;
use crate::movegen;
use crate::moves::Move;
use std::fmt;
use std::str::FromStr;

/// How passes count towards the depth. See the module header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PassConvention {
    /// Convention A: a pass is a ply; a finished game is a leaf.
    #[default]
    PassIsPly,
    /// Convention B: a pass is not a ply; a finished game is a leaf.
    PassIsFree,
}

impl PassConvention {
    /// The letter used in the reference tables: `A` or `B`.
    pub const fn letter(self) -> char {
        match self {
            PassConvention::PassIsPly => 'A',
            PassConvention::PassIsFree => 'B',
        }
    }
}

impl fmt::Display for PassConvention {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PassConvention::PassIsPly => f.write_str("A (pass is a ply)"),
            PassConvention::PassIsFree => f.write_str("B (pass is not a ply)"),
        }
    }
}

/// Why a pass convention name was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseConventionError(pub String);

impl fmt::Display for ParseConventionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown pass convention '{}' (use A or B)", self.0)
    }
}

impl std::error::Error for ParseConventionError {}

impl FromStr for PassConvention {
    type Err = ParseConventionError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.trim().to_ascii_lowercase().as_str() {
            "a" | "pass-is-ply" => Ok(PassConvention::PassIsPly),
            "b" | "pass-is-free" => Ok(PassConvention::PassIsFree),
            _ => Err(ParseConventionError(text.to_string())),
        }
    }
}

/// A move generator backend, so perft can measure each one.
pub trait Generator {
    fn legal_moves(player: u64, opponent: u64) -> u64;
    fn flips(player: u64, opponent: u64, index: usize) -> u64;
}

/// The backend the build uses everywhere ([`movegen::BACKEND`]).
pub struct Native;

/// The portable backend, always available.
pub struct Portable;

impl Generator for Native {
    #[inline(always)]
    fn legal_moves(player: u64, opponent: u64) -> u64 {
        movegen::legal_moves(player, opponent)
    }
    #[inline(always)]
    fn flips(player: u64, opponent: u64, index: usize) -> u64 {
        movegen::flips(player, opponent, index)
    }
}

impl Generator for Portable {
    #[inline(always)]
    fn legal_moves(player: u64, opponent: u64) -> u64 {
        movegen::portable::legal_moves(player, opponent)
    }
    #[inline(always)]
    fn flips(player: u64, opponent: u64, index: usize) -> u64 {
        movegen::portable::flips(player, opponent, index)
    }
}

/// Leaves of the tree below `board` at `depth` plies, with the build's
/// move generator.
pub fn perft(board: Board, size: BoardSize, depth: u32, convention: PassConvention) -> u64 {
    perft_with::<Native>(board, size, depth, convention)
}

/// [`perft`] with a chosen move generator.
pub fn perft_with<G: Generator>(
    board: Board,
    size: BoardSize,
    depth: u32,
    convention: PassConvention,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    // The 8x8 board needs no mask: a separate instance of the counters
    // without it keeps the main game as fast as it can be (the mask costs
    // about 3% of the instructions when it is carried through the recursion).
    let mask = size.mask();
    match (convention, size) {
        (PassConvention::PassIsPly, BoardSize::Eight) => {
            count_pass_is_ply::<G, false>(board, mask, depth, false)
        }
        (PassConvention::PassIsPly, _) => count_pass_is_ply::<G, true>(board, mask, depth, false),
        (PassConvention::PassIsFree, BoardSize::Eight) => {
            count_pass_is_free::<G, false>(board, mask, depth)
        }
        (PassConvention::PassIsFree, _) => count_pass_is_free::<G, true>(board, mask, depth),
    }
}

/// Perft of each legal move (or of the forced pass) of `board`: the "divide"
/// listing used to find where two generators disagree.
pub fn divide(
    board: Board,
    size: BoardSize,
    depth: u32,
    convention: PassConvention,
) -> Vec<(Move, u64)> {
    divide_with::<Native>(board, size, depth, convention)
}

/// [`divide`] with a chosen move generator for the counts below each move.
pub fn divide_with<G: Generator>(
    board: Board,
    size: BoardSize,
    depth: u32,
    convention: PassConvention,
) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = board.move_list_on(size);
    let child_depth = match (moves.as_slice(), convention) {
        ([Move::Pass], PassConvention::PassIsFree) => depth,
        _ => depth - 1,
    };
    moves
        .iter()
        .map(|&mv| {
            (
                mv,
                perft_with::<G>(board.play_unchecked(mv), size, child_depth, convention),
            )
        })
        .collect()
}

/// Legal moves, masked to the playable squares when `MASKED` (small boards).
#[inline(always)]
fn legal<G: Generator, const MASKED: bool>(player: u64, opponent: u64, mask: u64) -> u64 {
    let moves = G::legal_moves(player, opponent);
    if MASKED { moves & mask } else { moves }
}

/// Convention A. `passed` tells that the move leading here was a pass.
fn count_pass_is_ply<G: Generator, const MASKED: bool>(
    board: Board,
    mask: u64,
    depth: u32,
    passed: bool,
) -> u64 {
    let (player, opponent) = (board.player, board.opponent);
    let mut moves = legal::<G, MASKED>(player, opponent, mask);
    if moves == 0 {
        // After a pass, no move means the game is over: one leaf. Otherwise
        // the pass is a ply; at the last ply it is the leaf itself.
        if passed || depth == 1 {
            return 1;
        }
        return count_pass_is_ply::<G, MASKED>(board.pass(), mask, depth - 1, true);
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut leaves = 0;
    while moves != 0 {
        let index = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let flips = G::flips(player, opponent, index);
        let child = Board::new(opponent ^ flips, player ^ flips ^ (1u64 << index));
        leaves += if depth == 2 {
            // The child is one ply above the leaves: count its moves here
            // rather than in a call (a pass or a finished game is one leaf).
            u64::from(
                legal::<G, MASKED>(child.player, child.opponent, mask)
                    .count_ones()
                    .max(1),
            )
        } else {
            count_pass_is_ply::<G, MASKED>(child, mask, depth - 1, false)
        };
    }
    leaves
}

/// Convention B: a forced pass keeps the depth.
fn count_pass_is_free<G: Generator, const MASKED: bool>(
    board: Board,
    mask: u64,
    depth: u32,
) -> u64 {
    let (player, opponent) = (board.player, board.opponent);
    let mut moves = legal::<G, MASKED>(player, opponent, mask);
    if moves == 0 {
        if legal::<G, MASKED>(opponent, player, mask) == 0 {
            return 1;
        }
        return count_pass_is_free::<G, MASKED>(board.pass(), mask, depth);
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut leaves = 0;
    while moves != 0 {
        let index = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let flips = G::flips(player, opponent, index);
        let child = Board::new(opponent ^ flips, player ^ flips ^ (1u64 << index));
        leaves += if depth == 2 {
            // One ply above the leaves: a blocked child passes for free, so
            // its opponent's moves are the leaves (one leaf if none).
            let replies = legal::<G, MASKED>(child.player, child.opponent, mask);
            let replies = if replies != 0 {
                replies
            } else {
                legal::<G, MASKED>(child.opponent, child.player, mask)
            };
            u64::from(replies.count_ones().max(1))
        } else {
            count_pass_is_free::<G, MASKED>(child, mask, depth - 1)
        };
    }
    leaves
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_counts_from_the_start() {
        let start = Board::start(BoardSize::Eight);
        let expected = [1, 4, 12, 56, 244, 1396, 8200, 55092];
        for (depth, &count) in expected.iter().enumerate() {
            for convention in [PassConvention::PassIsPly, PassConvention::PassIsFree] {
                assert_eq!(
                    perft(start, BoardSize::Eight, depth as u32, convention),
                    count
                );
            }
        }
    }

    #[test]
    fn divide_sums_to_perft() {
        let start = Board::start(BoardSize::Eight);
        let parts = divide(start, BoardSize::Eight, 5, PassConvention::PassIsPly);
        assert_eq!(parts.len(), 4);
        assert_eq!(parts.iter().map(|p| p.1).sum::<u64>(), 1396);
    }
}
