//! Every tuned number of the search, named, in one place.

/// Largest and smallest scores: a final disc difference lies in -64..=64.
pub const SCORE_MAX: i32 = 64;
/// See [`SCORE_MAX`].
pub const SCORE_MIN: i32 = -64;
/// A bound beyond any score, for "no score yet".
pub const SCORE_INF: i32 = 127;

/// Endgame: from 5 empties up to below this many, the solver sorts moves
/// fastest first; from here on it uses the shared table and the enhanced
/// transposition cutoff. Sorting down to 5 empties (parity order alone
/// before) costs about as much time as it saves: FFO #40-44,
/// one thread: 163.8 M nodes with parity order up to 7 empties, 132.4 M
/// sorting from 7, 123.3 M from 6, 109.7 M from 5.
///
/// Below this, a small table private to the thread
/// (`search/local_table.rs`) replaces the shared one. FFO #40-44:
/// 89.8 M nodes with no table below 8 empties and the shared one from 8;
/// 79.3 M with the private table for 5-7 and the shared one from 8; 77.9 M
/// with the private one for 5-9 and the shared one from 10. callgrind
/// (x86-64-v3) on FFO #40 and #44: 3.17 + 6.18 G instructions; 3.04 + 5.87
/// G; 2.90 + 5.55 G; the private table up to 11 empties: 2.95 + 5.46 G
/// (7.14 + 12.55 M nodes against 6.88 + 12.28 M up to 9).
///
/// Parity order alone at 5 empties (each empty square tried in turn, odd
/// regions first, as at 4), measured again with today's solver: callgrind
/// (x86-64-v3) on FFO #40 + #44 10.34 G -> 9.66 G instructions, but
/// 22.38 M -> 24.93 M nodes; FFO #45-46 241.1 M -> 270.1 M nodes, time
/// 15.1 -> 13.9 s (medians of 3, noisy). Not kept: the tree grows, and a
/// smaller tree is the goal as much as the time.
pub const DEEP_SOLVE_EMPTIES: u32 = 10;
/// Entries per number of empties in the thread's private solver table, as a
/// power of two (24 bytes each: 5 x 1024 entries are 120 KiB, which stay in
/// the core's 1 MiB L2 beside the rest of the search's data).
///
/// callgrind on FFO #40 and #44: 2.90 + 5.55 G instructions at 10 bits,
/// 2.87 + 5.52 G at 12 (6.79 + 12.18 M nodes against 6.88 + 12.28 M). But
/// instructions do not count the cache misses of the larger table: perf put
/// 14% of the sorted solver's samples on the load after a probe. Time, FFO
/// #45-50, one thread, two builds side by side on the two cores (swapped
/// each run, 6 runs each): 12 bits 1,023.8 M nodes, median 60.7 s; 10 bits
/// 1,035.0 M (+1.1%), median 58.6 s, faster in all 6 pairs (by 2.8 s on
/// average). Against 10 bits the same way: 9 bits 1,042.6 M nodes, median
/// 55.4 s against 55.2 s; 11 bits 1,028.9 M, median 60.1 s against 59.1 s
/// (10 bits faster or level in all 6 pairs). The whole of FFO #40-59, one
/// thread: 18.73 G nodes in 1,011.7 s at 12 bits, 18.91 G in 971.8 s and
/// 907.9 s (two runs; the machine's speed drifts by 5-10%) at 10.
/// Keeping the best move in these entries too, to search it first when the
/// bounds do not settle the node: FFO #40-49 687,490,784 -> 687,485,780
/// nodes. Such hits are too rare to matter, so the entries keep bounds only.
pub const LOCAL_TABLE_BITS: u32 = 10;
/// Endgame: from this many empties on, positions are stored in the table.
pub const TABLE_MIN_EMPTIES: u32 = 8;
/// Endgame: from this many empties on, every solver node first tries a
/// stability bound (it is only computed when alpha is high enough for the
/// opponent's discs to make a cut possible). FFO #45-49, one thread, exact:
/// 1,178 M nodes from 9 empties; 917 M from 5; 773 M from 4; 726 M from 3.
/// Time, x86-64-v3 builds side by side: 70-78 s from 3 against 76-84 s
/// from 9. The test itself is not free: callgrind, FFO #40: 3.69 G
/// instructions from 9, 3.12 G from 3 (13.6 M -> 7.6 M nodes), but FFO
/// #41-44: 31.2 G from 9, 34.4 G from 3 (94.6 M -> 82.5 M nodes). A cheaper
/// bound for the last empties (only the discs on no line through an empty
/// square, one table lookup per empty) lost too many cuts: FFO #40 3.26 G
/// instructions when used up to 4 empties, 3.45 G up to 6.
/// Border discs from edge tables (a border line's stable discs for each of
/// its 3^8 contents) instead of only those chained to a corner: FFO #40-49,
/// one thread, 816.4 M -> 794.6 M nodes, time unchanged within noise
/// (85-105 s against 79-96 s); callgrind FFO #40 3.12 G -> 3.17 G
/// instructions (7.60 M -> 7.47 M nodes), #44 6.04 G -> 6.18 G.
///
/// How often the bound, once computed, cuts (FFO #40-44, one thread): 21%
/// of the computations at 3 empties, 23% at 4, 8% at 5 and 6, 3% at 7 and
/// 8, 1% and less from 9. The alphas of these nodes sit in a narrow band,
/// so a threshold on alpha per number of empties (as Edax keeps) would skip
/// at most 2-3% of the computations below 7 empties for 1% of the cuts.
/// Computing the bound with the 8x8 board size as a constant: callgrind
/// FFO #40 + #44 10.10 G -> 10.02 G instructions.
///
/// From 4 instead of 3, with the solver of d9b7710 (perf: the bound took
/// 17-18% of a solve's time): 60 WTHOR
/// positions of 22 empties (`solve --sample-wthor ../shared/games/wthor
/// --empties 22 --count 60 --seed 4`), one thread, two builds side by
/// side, twice: 995.6 M nodes in 38.97 / 38.89 s from 3; 1,066.2 M (+7.1%)
/// in 37.40 / 37.59 s from 4; from 5 1,218.7 M in 39.0 / 39.1 s (4: 39.4
/// / 38.1 s). The whole of FFO #40-59, one thread, side by side: 16.19 G
/// nodes in 790.0 s from 3, 16.89 G (+4.3%) in 758.2 s (-4.0%) from 4,
/// every score right. The tree stays below the strongest engine's
/// (19.47 G), and the time is what lags, so 4.
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
/// table before any is searched (enhanced transposition cutoff).
///
/// The probes miss the cache: perf puts 88% of the cutoff's samples on the
/// first load of a bucket. Prefetching every child's bucket before the
/// first probe changed nothing measurable (FFO #45-46, one thread, medians
/// of 3 side by side: 16.1 s without, 16.6 s with); the table on huge pages
/// ([`crate::search::tt::Table::new`]) made the whole solve about 8% faster.
/// From 12 instead, with the table on huge pages (one thread): FFO #45-49
/// 626.76 M -> 629.97 M nodes, time medians of 3 alternating 43.6 -> 41.8
/// s; FFO #50-52 1.184 G -> 1.190 G nodes; FFO #40-44 60.73 M -> 61.44 M.
/// Kept at 10: a few percent of time for a larger tree.
/// Again with the private table at 10 bits ([`LOCAL_TABLE_BITS`]): FFO
/// #45-50, one thread, 1,035.0 M -> 1,056.4 M nodes from 12, medians of 6
/// side-by-side runs 57.4 -> 56.9 s with the pairs mixed: still 10.
pub const ETC_MIN_EMPTIES: u32 = 10;
/// Depth of that shallow ordering search.
pub const SHALLOW_ORDERING_DEPTH: u32 = 4;
/// Endgame: a solver node puts the table's best move first only when it
/// comes from a solve (exact or probable) or from a midgame search at least
/// this deep. Shallow searches (the ordering searches of
/// [`SHALLOW_ORDERING_DEPTH`], Multi-ProbCut's) leave entries whose best
/// move is a worse guess than the solver's own ordering, which weighs
/// mobility beside the score. One thread, default
/// table, nodes, every table move against this rule: FFO #50-54 7.80 G ->
/// 6.65 G; FFO #40-44 61.0 M -> 60.7 M; FFO #45-49 623.6 M -> 626.8 M; the
/// 6x6 solve 360 M -> 253 M. Solve entries only (no midgame move at all):
/// FFO #50-53 3.26 G against 3.40 G, the 6x6 249 M, but FFO #40-44 76.3 M:
/// below the ladder's reach the presolve iterations' moves guide the solve.
/// The whole of FFO #40-59 (one thread, default table): 25.78 G -> 21.05 G
/// nodes (#55 12.89 G -> 10.07 G), every score right.
///
/// From 5 (one more than the ordering searches) to 9, with today's
/// solver: the moves of depths 5-8 come from the shallow searches of
/// Multi-ProbCut ([`ENDGAME_PROBCUT_MAX_SHALLOW`]) and the presolve's
/// lower plies, and a larger table kept more of them and solved in *more*
/// nodes: FFO #50-52, one thread, 0.90 G nodes with a 16 MiB table, 0.93
/// G with 64, 1.02 G with 256, 1.25 G with 1 GiB. FFO #40-59, one thread,
/// default table, nodes (every score right):
///
/// | | #40-44 | #45-49 | #50-52 | #53-54 | #55-59 | all |
/// |---|---|---|---|---|---|---|
/// | from 5 | 55.6 M | 560.0 M | 932.1 M | 5.725 G | 11.638 G | 18.91 G |
/// | from 9 | 55.9 M | 576.8 M | 905.3 M | 5.145 G | 11.591 G | 18.27 G |
/// | from 9, a solve replacing a midgame entry (kept) | 55.9 M | 481.9 M | 866.8 M | 4.166 G | 10.616 G | **16.19 G** |
///
/// From 10: #40-44 58.5 M, #50-52 896.3 M. Solve entries only: #40-44
/// 65.3 M, #50-52 864.2 M, #53-54 5.136 G. The small solves of 18-20
/// empties, which the ladder does not reach, lose from the presolve's
/// moves of depths 5-8: `oxello bench`'s four endgame positions 6.55 M ->
/// 7.93 M nodes. The 6x6 start (`solve --size 6 --threads 1 --hash
/// 1024`): 322.7 M -> 227.4 M. With 1 GiB, FFO #50-52 takes 981.4 M
/// nodes: a larger table still costs some, less than before.
///
/// A solve that climbs the selectivity ladder takes no midgame move at
/// all, in any of its steps (`Step::midgame_moves`): its probable steps
/// leave solve entries, whose moves guide the next step better than the
/// presolve's. FFO #53, one thread, before: 1.54 G nodes with a 16 MiB
/// table, 1.58 G with 64, 1.64 G with 512 (the presolve's moves outlive
/// the steps in a larger table). Runtime switch, one binary, side by side,
/// nodes: FFO #45-49 506.7 M -> 426.3 M (#49 212.6 M -> 149.6 M); only
/// from the second step on, 463.4 M; 30 WTHOR positions of 24 empties
/// 1,844.5 M -> 1,721.8 M; but straight solves (FFO #40-44, below the
/// ladder) 59.3 M -> 72.4 M without midgame moves, so they keep them. The
/// whole of FFO #40-59, one thread, every score right: 15.45 G nodes in
/// 655.7 s -> 14.35 G in 614.3 s (#55 7.29 G -> 6.78 G, #57 1.21 G ->
/// 0.82 G; #50 375 M -> 404 M, #56 650 M -> 668 M).
/// (FFO #40-44 climb the ladder too since it starts at 18 empties, see
/// [`SOLVE_LADDER_MIN_EMPTIES`]: 55.1 M nodes that way.)
pub const SOLVE_TABLE_MOVE_MIN_DEPTH: u32 = 9;
/// Ordering by a shallow search: one disc of its score outweighs any
/// mobility difference (mobility values stay below this), so mobility only
/// breaks ties between equal scores.
pub const SEARCH_ORDERING_SCALE: i32 = 1 << 12;
/// The solver's ordering by a shallow search (from
/// [`SHALLOW_ORDERING_EMPTIES`]): one disc weighs half an opponent move
/// ([`MOBILITY_WEIGHT`]), so mobility counts beside the score. FFO #40-44,
/// one thread (sorting from 5 empties, the evaluation from 12): 103.2 M
/// nodes at `1 << 10`, 100.3 M at `1 << 9`, 102.1 M at `1 << 8` (109.7 M
/// at `1 << 12` with the evaluation from 14).
///
/// With the weights of e497de5 and [`SOLVE_EVAL_ORDERING_SCALE`] at
/// `1 << 8`, one thread: FFO #53-54 and #56-58 take 8.86 G nodes at
/// `1 << 9` against 10.10 G at `1 << 8` (9.52 G with both scales at
/// `1 << 9`); the whole of FFO #40-59 18.73 G at `1 << 9` against 20.59 G
/// at `1 << 10`.
pub const SOLVE_ORDERING_SCALE: i32 = 1 << 9;
/// The solver's ordering by the evaluation (from [`EVAL_ORDERING_EMPTIES`]
/// to [`SHALLOW_ORDERING_EMPTIES`]): the weight of one disc of the
/// evaluation, by board size (4x4, 6x6, 8x8), as each size has an
/// evaluation of its own.
///
/// 8x8: three sixteenths of an opponent move. The weights of e497de5 (search
/// values in their labels) order better with less weight than the earlier
/// ones had (`1 << 9`, as the shallow search's). Nodes, one thread: 100
/// WTHOR positions of 22 empties (`solve --sample-wthor
/// ../shared/games/wthor --empties 22 --count 100 --seed 7`) 1,397 M at
/// `1 << 9`; 1,370 M at 384, 1,325 M at `1 << 8` (fewer in 88 of 100),
/// 1,310 M at 192, 1,305 M at `1 << 7`; FFO #40-52 1,841 M -> 1,579 M at
/// `1 << 8`. The whole of FFO #40-59: 21.20 G -> 18.73 G nodes (fewer in
/// 18 of 20 positions; #53 2.27 G -> 2.58 G, #55 9.82 G -> 8.31 G), every
/// score right.
///
/// Again with the solver of b48555e (the stability cutoff from 4 empties,
/// the table's best move from a depth of 9), one thread, nodes and
/// seconds of two builds side by side:
///
/// | scale | FFO #45-52 | 60 positions of 22 empties | FFO #53-54 |
/// |---|---|---|---|
/// | 64 | 1,514.9 M, 59.4 s | | |
/// | 96 | 1,411.9 M, 57.1 s | | |
/// | 128 | 1,365.6 M, 57.0 s | 1,080.9 M, 36.1 / 35.9 s | |
/// | 192 | 1,360.7 M, 57.6 s | 1,054.0 M, 36.0 s | 4.084 G, 150.3 s |
/// | `1 << 8` | 1,416.5 M, 60.7 s | 1,066.2 M, 37.0 s | 4.282 G, 160.8 s |
/// | `1 << 9` | 1,759.5 M, 75.6 s | | |
///
/// (The 22-empties set: `solve --sample-wthor ../shared/games/wthor
/// --empties 22 --count 60 --seed 4`.) FFO #40-44: 58.0 M nodes at 192,
/// 57.5 M at `1 << 8`. So 192. The whole of FFO #40-59: 16,887,571,454
/// nodes in 688.9 s at `1 << 8`, 16,374,840,525 in 659.8 s at 192 (-3.0%,
/// -4.2%), every score right.
///
/// 6x6 (its own learned evaluation): the solve takes 290.5 M nodes at
/// `1 << 8`, 248.8 M at `1 << 9`, 261.4 M at `1 << 10`, 280.0 M at
/// `1 << 11`, so it keeps `1 << 9`, as does 4x4 (solved in a few hundred
/// nodes).
pub const SOLVE_EVAL_ORDERING_SCALE: [i32; 3] = [1 << 9, 1 << 9, 192];

/// Fastest-first: weight of each opponent move after ours (corners count
/// double through [`CORNER_MOBILITY_BONUS`]).
pub const MOBILITY_WEIGHT: i32 = 1 << 10;
/// Fastest-first: extra weight of an opponent move that takes a corner.
pub const CORNER_MOBILITY_BONUS: i32 = 1 << 10;
/// Fastest-first: weight of each empty square next to our discs after the
/// move (potential mobility we hand the opponent).
///
/// Without it in the solver's fastest-first order (5-9 empties): callgrind
/// FFO #40 + #44 10.34 G -> 9.97 G instructions, but 2.4% and 1.3% more
/// nodes.
/// Again with the nearly forced children searched before the sort, without
/// it at 5-8 empties only: 9.57 G -> 9.35 G instructions, 21.78 M -> 21.80
/// M nodes, and no faster: FFO #45-49, one thread, run side by side on
/// the two cores (swapped each time), 34.2-41.1 s with it, 34.8-39.7 s
/// without (means 37.5 and 37.4 s). Not kept: a second rule for a gain no
/// clock shows.
pub const POTENTIAL_MOBILITY_WEIGHT: i32 = 1 << 6;
/// The solver's ordering by the evaluation (from [`EVAL_ORDERING_EMPTIES`]
/// to [`SHALLOW_ORDERING_EMPTIES`]): weight of each empty square next to
/// our discs after the move (the opponent's potential mobility), in place
/// of [`POTENTIAL_MOBILITY_WEIGHT`]. A quarter of an opponent move.
///
/// Tuned with the solver of c81db19, one thread, nodes and seconds of two
/// builds side by side (the weight of [`SOLVE_POTENTIAL_WEIGHT`] beside
/// it; `1 << 6` and `1 << 6` before):
///
/// | weights (eval, shallow) | FFO #45-52 | 30 positions of 24 empties |
/// |---|---|---|
/// | `1 << 6`, `1 << 6` | 1,360.7 M, 61.7 s | 1,909.0 M, 75.5 s |
/// | 384, 384 (and 384 in the midgame's evaluation ordering) | 1,252.9 M, 56.7 s | |
/// | 384, `1 << 6` | | 1,880.6 M, 72.9 s |
/// | `1 << 6`, `1 << 10` | | 1,871.7 M, 74.5 s |
/// | **`1 << 8`, `1 << 9`** | | **1,844.5 M, 72.4 s** |
/// | 384, `1 << 10` | 1,223.8 M, 53.3 s | 1,842.7 M, 72.1 s |
/// | `1 << 9`, `1 << 11` | 1,305.9 M, 56.0 s | 1,895.0 M, 72.6 s |
///
/// (The 24-empties set: `solve --sample-wthor ../shared/games/wthor
/// --empties 24 --count 30 --seed 9`.) FFO #45-52 tunes badly on its own:
/// most of its gain was #50's (450 M -> 341 M at 384, `1 << 10`), and the
/// whole of FFO #40-59 took 16.54 G nodes against 16.37 G there, #58 1.50
/// G against 1.12 G. At `1 << 8`, `1 << 9` #58 takes 1.15 G, and the whole
/// of FFO #40-59 **15,449,792,834 nodes in 641.1 s against 16,374,840,525
/// in 677.0 s** (-5.6%, -5.3%; fewer nodes in 14 of 20 positions), every
/// score right. 60 positions of 22 empties (seed 4): 1,054.0 M, 37.2 s ->
/// 1,029.4 M, 36.5 s. The 6x6 solve (its own evaluation): 243.7 M, 11.4 s
/// -> 232.4 M, 11.0 s; 4x4 the same 635 nodes.
pub const SOLVE_EVAL_POTENTIAL_WEIGHT: i32 = 1 << 8;
/// The solver's ordering by a shallow search (from
/// [`SHALLOW_ORDERING_EMPTIES`]): the same weight, half an opponent move
/// (see [`SOLVE_EVAL_POTENTIAL_WEIGHT`]).
pub const SOLVE_POTENTIAL_WEIGHT: i32 = 1 << 9;
/// Fastest-first: bonus for a move in a region with an odd number of empties.
pub const PARITY_BONUS: i32 = 1 << 8;

/// Midgame: width of the aspiration window around the previous score, discs.
///
/// The exact solve after a probable one uses it too: ±1 instead of ±4 there
/// gave FFO #45-49 626.76 M -> 626.41 M nodes, too little to matter.
///
/// Measured again with the learned evaluation and its move ordering
/// (c37511c): the 120 positions of `positions/midgame-120.txt` at depth 14
/// (see [`EVAL_ORDERING_MIN_DEPTH`]), nodes summed, for windows of +-1, 2,
/// 3, 4, 6 and 8 discs and none: 38.85, 38.27, 37.38, 35.81, 35.14, 35.05
/// and 35.71 M. From 4 up the differences stay within 2%, so it stays.
pub const ASPIRATION_WINDOW: i32 = 4;
/// Midgame: from this depth on, moves are ordered by the learned evaluation
/// of the position after each move (fewest opponent replies below).
///
/// The ordering searches once grew with the depth (a search of depth - 8
/// plies, at most half the depth, after each move, a rule from the first
/// hand-set evaluation). With the learned evaluation they cost more nodes
/// than they save. The 120 positions of `positions/midgame-120.txt` (44, 38
/// and 32 empties, from games against NTest), each searched by `oxello
/// move POS --depth D --selectivity 73 --threads 1`, nodes summed, with
/// ordering searches of depth - R plies:
///
/// | depth | R = 8 (before) | R = 12 | R = 16 | the evaluation alone |
/// |---|---|---|---|---|
/// | 14 (120 positions) | 53.4 M | 35.8 M | 35.8 M | 35.8 M |
/// | 16 (120) | 177.0 M | 92.5 M | 84.8 M | 84.8 M |
/// | 18 (40) | 187.3 M | 82.6 M | 73.2 M | 71.8 M |
/// | 20 (40) | not run | 244.7 M | 201.2 M | 191.3 M |
///
/// Depth 14, CPU time of the 120 searches less the processes' start-up:
/// 8.2 s before, 5.2 s with the evaluation alone. Move accuracy at depth 15
/// (`oxello bench --accuracy`, 73%) did not suffer: accuracy-24 80.0% ->
/// 82.5% optimal, loss 0.55 -> 0.40 discs, 455 K -> 252 K nodes a
/// position; FFO #20-39 and #40-59 the same rates and losses (90%, 0.20
/// and 80%, 0.70 discs), 572 K -> 427 K and 531 K -> 301 K nodes. The
/// solver hardly notices (its presolve iterations): FFO #40-49, one
/// thread, 663.8 M -> 671.4 M nodes, time within noise.
/// The evaluation from depth 2, 3, 5 or 6 instead of 4 (mobility below):
/// 54.7, 39.3, 34.7 and 34.3 M nodes at depth 14 against 35.8 M; CPU time
/// with the start-up 9.2 s from 3 and 9.3 s from 6 against 9.0 s from 4.
/// In play, against 772de00 (the ordering searches; 200 games, XOT paired,
/// 6+0.05 s, one thread each): 96-37-67, Elo +50.7 +- 44.1.
pub const EVAL_ORDERING_MIN_DEPTH: u32 = 4;

/// Midgame iterations run before a solve, to depth empties / this: they give
/// a fallback move and fill the table with best moves for the solve.
pub const PRESOLVE_DEPTH_DIVISOR: u32 = 2;
/// ... but never deeper than this.
pub const PRESOLVE_MAX_DEPTH: u32 = 14;

/// Time-limited searches solve as soon as the solve should fit: an exact
/// solve of 20 empties takes about this many nodes...
///
/// Measured on the positions of 100 games against NTest (XOT openings):
/// exact solves of 20 empties took 3.6 M nodes on average (median 2.6 M,
/// 90th percentile 8.5 M), of 24 empties 72.6 M (median 53.3 M), of 26
/// empties 412 M (median 294 M), two threads. The figure was 25 M, from an
/// older solver: a 26-empties position's 73% step was expected at 59 M
/// nodes and took 3-6 M, so play solved about three empties later than it
/// could.
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
/// Solves of fewer empties skip the ladder and solve exactly at once. FFO
/// #40-44 (20-23 empties, one thread): 199 M nodes, 10.4 s straight to
/// 100%; 208 M nodes, 14.3 s through the ladder from 73%. Bench endgames
/// (18-20 empties): the ladder doubled their nodes. FFO #45-49 (24-26
/// empties): 2.00 G nodes, 79 s straight; 2.29 G, 123 s through the ladder.
/// Since results out of the cuts' reach are stored as full width: FFO
/// #40-44 127 M nodes through the ladder against 164 M straight (time about
/// equal), but FFO #45-49 3.17 G against 2.00 G (#49: 1.78 G against 0.98 G).
/// Now (solver ordering by the evaluation from 12 empties), FFO #45-49: 1.18
/// G straight, 2.02 G through 73-87-95-98-99-100%, 1.30 G through
/// 73-87-95-100% (the ladder since; see
/// [`crate::search::selectivity::LADDER_LAST_SELECTIVE`]).
/// With the evaluation and Multi-ProbCut fit of issue 10 (one thread,
/// nodes), straight against through the ladder from here on: FFO #40-49
/// 697.3 M against 684.5 M; FFO #50-59 28.12 G against 25.09 G (#53 4.52 G
/// against 2.49 G, #54 4.46 against 3.95 G, #56 1.24 against 1.09 G, #59
/// 299 M against 26 M; the others within 2%, #50 and #58 up by 0.4% and
/// 1.7%); the 6x6 solve 695 M against 548 M. So play and `oxello solve`
/// both climb the ladder from here on.
///
/// From 18, not 24, since the ladder's steps take no midgame moves
/// ([`SOLVE_TABLE_MOVE_MIN_DEPTH`]) and their presolve runs at 73%
/// (`oxello solve`): straight against through the ladder from 73%, one
/// thread, side by side, nodes and seconds: FFO #40-44 (20-23 empties)
/// 59.3 M in 2.70 s against 55.1 M in 2.05 s; 60 WTHOR positions of 22
/// empties 1,029.4 M in 37.8 s against 825.0 M in 30.5 s; 300 of 20
/// empties 880.0 M in 32.2 s against 720.7 M in 29.8 s; 200 of 18 121.0 M
/// in 4.21 s against 104.9 M in 3.79 s. Below, no clear gain: 300 of 17
/// 89.8 M in 3.06 s against 84.6 M in 3.09 s; 300 of 16 42.9 M against
/// 41.8 M; 1,000 of 15 69.5 M against 71.7 M, both 2.74 s.
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
/// evaluation instead of mobility alone.
///
/// FFO #40-44, one thread: 199 M nodes with mobility ordering up to 21
/// empties; by the evaluation from 12: 161 M, 14: 164 M, 15: 168 M, 16:
/// 173 M (times within noise, 5.8-6.6 s); a depth-1 or 2 search instead of
/// the evaluation: 170 M nodes but 10.7 s. With [`SOLVE_ORDERING_SCALE`]
/// (then the evaluation's scale too) and sorting from 5 empties: 100.3 M from 12, 102.3 M from 10, and from
/// 14 with the old scale 109.7 M.
/// Again with the solver of 7ac2196 (an evaluation counts as a node), from
/// 12 / 14: callgrind FFO #40 + #44 8.43 G / 7.81 G instructions (16: 7.84
/// G, 13: 8.08 G); but one thread, nodes and seconds side by side: FFO
/// #40-44 58.7 M / 60.0 M; #45-49 605.1 M / 604.9 M, 31.7-30.2 s /
/// 32.4-29.8 s; #50-52 1,155 M in 68.4 s / 1,106 M in 64.4 s; #53-54
/// 5,287 M in 284.8 s / 5,488 M in 279.4 s. In all 7,106 M / 7,259 M
/// nodes, about 2% less time: not a clear gain, so 12 stays.
pub const EVAL_ORDERING_EMPTIES: u32 = 12;
/// Depth of that search (0: the evaluation of the position after the move).
///
/// The evaluations' cost is their weight loads (perf, FFO #49: two thirds
/// of `evaluate`'s samples, as a phase's 334 KB of weights miss the
/// cache). Tried and not kept: the children sharing the weights of the
/// instances their move leaves unchanged (about two thirds of the 46; the
/// same values, so the same tree), loaded once per node. FFO #45-50, one
/// thread, side by side, 6 runs each: median 56.1 s against 57.3 s, 0.7 s
/// faster on average but slower in 2 of the 6 pairs. The misses are the
/// changed instances' loads, which stay: the shared ones were already
/// cached by the sibling before.
pub const EVAL_ORDERING_DEPTH: u32 = 0;
