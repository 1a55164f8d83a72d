//! Every tuned number of the search, named, in one place.

/// Largest and smallest scores: a final disc difference lies in -64..=64.
pub const SCORE_MAX: i32 = 64;
/// See [`SCORE_MAX`].
pub const SCORE_MIN: i32 = -64;
/// A bound beyond any score, for "no score yet".
pub const SCORE_INF: i32 = 127;

/// Endgame: from 5 empties up to below this many, the solver sorts moves
/// fastest first and uses a small table private to the thread
/// (`search/local_table.rs`); from here on the shared table and the
/// enhanced transposition cutoff. FFO #40-44, one thread: 109.7 M nodes
/// sorting from 5 against 163.8 M from 7; 77.9 M with the private table for
/// 5-9 against 89.8 M with none below 8.
pub const DEEP_SOLVE_EMPTIES: u32 = 10;
/// Entries per number of empties in the thread's private solver table, as a
/// power of two (24 bytes each: 5 x 1024 entries are 120 KiB, which stay in
/// the core's 1 MiB L2 beside the rest of the search's data). Against 12
/// bits: 1.1% more nodes but faster in 6 side-by-side runs of 6 (FFO
/// #45-50, median 58.6 s against 60.7 s); 9 and 11 bits no faster.
pub const LOCAL_TABLE_BITS: u32 = 10;
/// Endgame: from this many empties on, positions are stored in the table.
pub const TABLE_MIN_EMPTIES: u32 = 8;
/// Endgame: from this many empties on, every solver node first tries a
/// stability bound (only computed when alpha is high enough for the
/// opponent's discs to make a cut possible). FFO #40-59, one thread, side
/// by side: 16.89 G nodes in 758.2 s from 4 against 16.19 G in 790.0 s
/// from 3 (-4.0% time); FFO #45-49, 773 M nodes from 4 against 1,178 M
/// from 9.
pub const STABILITY_CUTOFF_EMPTIES: u32 = 4;
/// Endgame: from this many empties on, the moves are ordered by a shallow
/// midgame search instead of mobility alone. From 19 (with
/// [`SOLVE_TABLE_MOVE_MIN_DEPTH`]) the solves take fewer nodes but more
/// time, as the ordering searches' nodes cost more: FFO #40-59, one thread,
/// 21.05 G nodes in 1,213 s from 21 against 19.11 G in 1,431 s from 19
/// (#50 side by side: 690 M in 46.7 s against 652 M in 50.1 s). From 17:
/// more nodes too (FFO #45-52 2.01 G against 1.81 G from 21).
pub const SHALLOW_ORDERING_EMPTIES: u32 = 21;
/// Endgame: from this many empties on, the children are looked up in the
/// table before any is searched (enhanced transposition cutoff). From 12:
/// FFO #45-50, one thread, 1,035.0 M -> 1,056.4 M nodes, time within noise
/// (57.4 -> 56.9 s): 10 keeps the smaller tree.
pub const ETC_MIN_EMPTIES: u32 = 10;
/// Depth of that shallow ordering search.
pub const SHALLOW_ORDERING_DEPTH: u32 = 4;
/// Endgame: a solver node puts the table's best move first only when it
/// comes from a solve (exact or probable) or from a midgame search at least
/// this deep: shallow searches leave worse guesses than the solver's own
/// ordering. A solve that climbs the selectivity ladder takes no midgame
/// move at all (`Step::midgame_moves`). FFO #40-59, one thread, every score
/// right: 25.78 G -> 21.05 G nodes against every table move first; from 9
/// with a solve replacing a midgame entry, 16.19 G against 18.91 G from 5;
/// the ladder's steps without midgame moves, 14.35 G against 15.45 G.
pub const SOLVE_TABLE_MOVE_MIN_DEPTH: u32 = 9;
/// Ordering by a shallow search: one disc of its score outweighs any
/// mobility difference (mobility values stay below this), so mobility only
/// breaks ties between equal scores.
pub const SEARCH_ORDERING_SCALE: i32 = 1 << 12;
/// The solver's ordering by a shallow search (from
/// [`SHALLOW_ORDERING_EMPTIES`]): one disc weighs half an opponent move
/// ([`MOBILITY_WEIGHT`]), so mobility counts beside the score. FFO #40-59,
/// one thread: 18.73 G nodes at `1 << 9` against 20.59 G at `1 << 10`.
pub const SOLVE_ORDERING_SCALE: i32 = 1 << 9;
/// The solver's ordering by the evaluation (from [`EVAL_ORDERING_EMPTIES`]
/// to [`SHALLOW_ORDERING_EMPTIES`]): the weight of one disc of the
/// evaluation, by board size (4x4, 6x6, 8x8), as each size has an
/// evaluation of its own. 8x8, three sixteenths of an opponent move: FFO
/// #40-59, one thread, 16.37 G nodes in 659.8 s against 16.89 G in 688.9 s
/// at `1 << 8`. 6x6: 248.8 M nodes against 290.5 M at `1 << 8`.
pub const SOLVE_EVAL_ORDERING_SCALE: [i32; 3] = [1 << 9, 1 << 9, 192];

/// Fastest-first: weight of each opponent move after ours (corners count
/// double through [`CORNER_MOBILITY_BONUS`]).
pub const MOBILITY_WEIGHT: i32 = 1 << 10;
/// Fastest-first: extra weight of an opponent move that takes a corner.
pub const CORNER_MOBILITY_BONUS: i32 = 1 << 10;
/// Fastest-first: weight of each empty square next to our discs after the
/// move (potential mobility we hand the opponent). Without it: 1.3-2.4%
/// more nodes (callgrind, FFO #40 + #44), and no faster at 5-8 empties.
pub const POTENTIAL_MOBILITY_WEIGHT: i32 = 1 << 6;
/// The solver's ordering by the evaluation (from [`EVAL_ORDERING_EMPTIES`]
/// to [`SHALLOW_ORDERING_EMPTIES`]): weight of each empty square next to
/// our discs after the move (the opponent's potential mobility), in place
/// of [`POTENTIAL_MOBILITY_WEIGHT`]. A quarter of an opponent move (half in
/// the shallow search's order, [`SOLVE_POTENTIAL_WEIGHT`]): FFO #40-59, one
/// thread, 15.45 G nodes in 641.1 s against 16.37 G in 677.0 s at `1 << 6`.
pub const SOLVE_EVAL_POTENTIAL_WEIGHT: i32 = 1 << 8;
/// The solver's ordering by a shallow search (from
/// [`SHALLOW_ORDERING_EMPTIES`]): the same weight, half an opponent move
/// (see [`SOLVE_EVAL_POTENTIAL_WEIGHT`]).
pub const SOLVE_POTENTIAL_WEIGHT: i32 = 1 << 9;
/// Fastest-first: bonus for a move in a region with an odd number of empties.
pub const PARITY_BONUS: i32 = 1 << 8;

/// Midgame: width of the aspiration window around the previous score, discs
/// (the exact solve after a probable one uses it too). The 120 positions of
/// `positions/midgame-120.txt` at depth 14: 35.81 M nodes at 4, 38.85 M at
/// 1, 35.71 M without a window; from 4 up within 2%.
pub const ASPIRATION_WINDOW: i32 = 4;
/// Midgame: from this depth on, moves are ordered by the learned evaluation
/// of the position after each move (fewest opponent replies below), not by
/// ordering searches. `positions/midgame-120.txt` at depth 16: 84.8 M nodes
/// against 177.0 M with searches of depth - 8; in play against them (200
/// games, XOT paired, 6+0.05 s, one thread each): 96-37-67, Elo +50.7 +-
/// 44.1.
pub const EVAL_ORDERING_MIN_DEPTH: u32 = 4;

/// Midgame iterations run before a solve, to depth empties / this: they give
/// a fallback move and fill the table with best moves for the solve.
pub const PRESOLVE_DEPTH_DIVISOR: u32 = 2;
/// ... but never deeper than this.
pub const PRESOLVE_MAX_DEPTH: u32 = 14;

/// Time-limited searches solve as soon as the solve should fit: an exact
/// solve of 20 empties takes about this many nodes... (100 games against
/// NTest, XOT openings, two threads: 3.6 M on average, median 2.6 M.)
pub const SOLVE_NODES_AT_20_EMPTIES: f64 = 3.5e6;
/// ... and each further empty square multiplies that by about this much
/// (the same games: 2.12 per empty from 20 to 24, 2.38 from 24 to 26).
pub const SOLVE_GROWTH_PER_EMPTY: f64 = 2.2;
/// Solver speed assumed for that estimate (conservative), nodes per second.
pub const SOLVE_NODES_PER_SECOND: f64 = 20e6;
/// Each selective step of the solve's ladder (73% -> 87% -> 95%) costs
/// about this many times the step before (FFO #45-49: 0.5-4x, median 1.5x)...
pub const SOLVE_LADDER_GROWTH: f64 = 2.0;
/// ... and the exact solve about this many times the 95% step (FFO #45-49:
/// 6-46x, median 15x).
pub const SOLVE_EXACT_STEP_GROWTH: f64 = 12.0;
/// Solves of fewer empties skip the ladder and solve exactly at once. One
/// thread, straight against through the ladder from 73%: 60 WTHOR positions
/// of 22 empties 1,029.4 M nodes in 37.8 s against 825.0 M in 30.5 s; 200
/// of 18 121.0 M in 4.21 s against 104.9 M in 3.79 s; no clear gain below.
pub const SOLVE_LADDER_MIN_EMPTIES: u32 = 18;
/// Part of the time left that an estimated solve may take.
pub const SOLVE_TIME_FRACTION: f64 = 0.5;

/// How many nodes pass between two looks at the clock and the stop flag.
pub const NODES_BETWEEN_CHECKS: u64 = 1 << 11;
/// Deepest search in plies (60 moves plus passes fit easily).
pub const MAX_PLY: usize = 96;

/// Multi-ProbCut: midgame nodes this deep and deeper may be cut (their
/// shallow search is [`crate::search::probcut::shallow_depth`]).
pub const PROBCUT_MIN_DEPTH: u32 = 3;
/// Multi-ProbCut: solver nodes with this many empties and more may be cut.
pub const ENDGAME_PROBCUT_MIN_EMPTIES: u32 = 12;
/// Multi-ProbCut: the solver's shallow search is a quarter of the empties
/// deep, at most this.
pub const ENDGAME_PROBCUT_MAX_SHALLOW: u32 = 8;
/// Multi-ProbCut: no prediction is trusted to better than this, in discs.
pub const PROBCUT_MIN_SIGMA: f64 = 1.0;

/// Parallel midgame search (busy nodes): solver nodes with this many
/// empties and more are shared between threads (deferred when another
/// thread is in them). Measured when solves shared work this way too, FFO
/// #40-44, two threads: 227-238 M nodes, 4.2-4.6 s at 12; 235-305 M at 10;
/// 227-291 M at 15 (one thread: 199 M, 6.7-6.9 s).
pub const SHARE_MIN_EMPTIES: u32 = 12;
/// Parallel midgame search (busy nodes): midgame nodes this deep and
/// deeper are shared.
pub const SHARE_MIN_DEPTH: u32 = 3;
/// Parallel search: a null-window solver node hands out to idle threads
/// the moves whose children have this many empties and more. FFO #40-49,
/// two threads, twice each: 21.4-21.6 s at 8, 21.2-21.5 at 9, 21.1-22.2 at
/// 10, 21.7-22.1 at 11, 21.7 at 12, 22.0-22.2 at 14, 23.7-23.8 at 16: flat
/// up to 14; 12 keeps the tasks big for more threads.
pub const SPLIT_MIN_EMPTIES: u32 = 12;
/// Parallel search: a null-window midgame node of a solving search (its
/// first quick iterations) hands out to idle threads the moves whose
/// children are searched this deep and deeper.
pub const SPLIT_MIN_DEPTH: u32 = 4;
/// Parallel search: a thread waiting at a split point takes the tasks of
/// other split points only while it works under fewer than this many (its
/// stack grows with each).
pub const SPLIT_MAX_NESTING: usize = 8;
/// Endgame: from this many empties on (below [`SHALLOW_ORDERING_EMPTIES`]),
/// moves are ordered by a search of [`EVAL_ORDERING_DEPTH`] over the learned
/// evaluation instead of mobility alone. FFO #40-44, one thread: 161 M nodes
/// from 12 against 199 M with mobility alone; from 14, 7,259 M against
/// 7,106 M nodes on FFO #40-54 and about 2% less time: not a clear gain.
pub const EVAL_ORDERING_EMPTIES: u32 = 12;
/// Depth of that search (0: the evaluation of the position after the move).
/// Its cost is the weights' loads (perf, FFO #49: two thirds of
/// `evaluate`'s samples, as a phase's 334 KB of weights miss the cache).
pub const EVAL_ORDERING_DEPTH: u32 = 0;
