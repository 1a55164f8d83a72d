//! The gomoku search's tuned constants: each with what it is, why, and the
//! measurement that decided it. What else was tried: `docs/trials/gomoku.md`,
//! under the heading named in brackets.

/// Deepest iteration.
pub const MAX_DEPTH: u32 = 40;
/// Moves searched at inner nodes that are not forced (best by ordering
/// score). 12 against 20 (15x15 standard, 0.3 s per move, 240 games each):
/// Elo +39.3 +- 44.0 and +36.3 +- 43.6; no other width or shape of it did
/// better ["Move width"].
pub(super) const WIDTH: usize = 12;
/// Killer moves kept per ply: the last quiet moves that cut there, tried
/// right after the table's move. Against none (as above): Elo +54.0 +-
/// 44.7; depth 6 on 8 middle-game positions took 510,024 nodes against
/// 668,699 ["Move ordering"].
pub(super) const KILLERS: usize = 2;
/// Forced move lists (answers to a four or an open three) of at most this
/// many moves cost no depth. As above: 3 against 1 scored Elo +52.5 +-
/// 44.7, 5 against 3 +64.4 +- 44.8 ["Forced moves and the horizon"].
pub(super) const FREE_FORCED_MOVES: usize = 5;
/// Plies a four that only delays an open three
/// ([`super::moves::Forced::ByThree`]) is first searched shallower when it
/// is not the node's first move (searched again at full depth if it beats
/// alpha). Against all answers at full depth, ordered by score alone (0.2 s
/// per move): 438-43-319 in 800 games (57.4%, about Elo +52 +- 24)
/// ["Forced moves and the horizon"].
pub(super) const DELAYING_FOUR_REDUCTION: i32 = 1;
/// Margin per ply of depth left by which a quiet null-window node's static
/// evaluation must beat beta to be cut without a search (futility, at any
/// depth). Against none (0.3 s per move, 240 games each): 60 scored Elo
/// +43.7 +- 44.4, 40 +39.3 +- 44.4, 100 -8.7 +- 44.0 ["Pruning"].
pub(super) const FUTILITY_MARGIN: i32 = 60;
/// Fail-high reduction: at a null-window node with nothing forced whose
/// static evaluation beats beta by `FAIL_HIGH_MARGIN * depth - 9`, the moves
/// that make no four are searched a ply shallower (an attack may refute the
/// evaluation). The idea and the margin's shape are Rapfi's. Against Rapfi
/// capped at 10,000 nodes a move: 405-0-395 against 362-2-436 in 800 games,
/// about Elo +37 (+3 .. +71) ["Pruning"].
pub(super) const FAIL_HIGH_MARGIN: i32 = 15;
/// Late-move reductions: from 2 plies left, move `k` of a node that is not
/// forced is first searched `LMR_SCALE * ln(depth) * ln(k)` plies shallower
/// (rounded; a ply less at principal-variation nodes, never below one ply).
/// Against one ply from the 7th move (0.2 s per move, 320 games): 186-8-126,
/// about Elo +66 +- 38; 0.6 and 1.2 scored less ["Late-move reductions"].
pub(super) const LMR_SCALE: f64 = 0.9;
/// Fours a node's VCF tries.
pub(super) const NODE_VCF_DEPTH: u32 = 12;
/// Nodes of a node's VCF (half that at a leaf); 100 and 400 did no better
/// against Rapfi capped at 10,000 nodes ["VCF at the nodes"].
pub(super) const NODE_VCF_NODES: u64 = 200;
/// Entries of each thread's cache of node VCF results (16 bytes each).
pub(super) const VCF_CACHE_ENTRIES: usize = 1 << 14;
/// Slots of each thread's memo of failed VCF positions, as a power of two.
pub(super) const VCF_MEMO_BITS: u32 = 16;
/// Nodes of the root's VCF.
pub(super) const ROOT_VCF_NODES: u64 = 200_000;
/// Attacking moves of the root's VCT, which deepens to them one at a time
/// ([`crate::gomoku::vcf::vct`]).
pub(super) const ROOT_VCT_DEPTH: u32 = 6;
/// Nodes of the root's VCT.
pub(super) const ROOT_VCT_NODES: u64 = 400_000;
/// Most of a turn's time the root's VCT may take (it usually ends within a
/// few milliseconds, but may take all it gets and find nothing). 0.1
/// against 0.3 (0.3 s per move, 480 games): 261-4-215, about Elo +33 +- 31
/// ["The root"].
pub(super) const ROOT_VCT_SHARE: f64 = 0.1;
/// Nodes between looks at the clock.
pub(super) const CHECK_EVERY: u64 = 64;
