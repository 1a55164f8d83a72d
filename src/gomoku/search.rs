//! The gomoku search: iterative deepening PVS over candidate moves near the
//! stones, a Zobrist-keyed transposition table, forced-move pruning (a five
//! must be blocked; an open three is answered by a defence or a four), VCF
//! at every node where the side to move has a four, and VCT at the root.
//!
//! With [`Limits::threads`] above one, the threads share the table through
//! `&self` (lock-free slots checked by key XOR entry) and all run the
//! iterations, each taking the root moves after the first from its own
//! place in the list; the best iteration any thread finished (a proven
//! win, else the deepest) is the answer (see `Worker::iterate`). Time to
//! depth 7 on 8 middle-game positions (3,345,736 nodes with one thread):
//! 27.3 s with one thread and 21.9-22.6 s with two before the board kept
//! its patterns and threat flags per cell; since, 17.3-17.4 s with one
//! thread and 12.6-12.8 s with two.
//!
//! The yardstick of the trials measured against Rapfi: oxello at 0.2 s per
//! move against Rapfi's classical evaluation capped at 10,000 nodes a move
//! (`oxello match --game gomoku --rule standard --info2 max_node=10000
//! --time 0.2`), 200 games from `positions/gomoku-balanced-15-standard.txt`
//! (both colours), which a match plays in about 4 minutes on 2 cores.
//! The build of 5f6e41c scored 362-2-436 there in four runs (45.4%; about
//! Elo -32 +- 24), and 117-0-83 (58.5%) with 0.4 s per move: doubling its
//! time is worth about 90 Elo. Against full Rapfi at 1 s per move it scored
//! 3% (15x15 standard) and 7% (20x20 freestyle).
//!
//! As the builds improved, that yardstick grew too easy (the build of
//! 6dc5437 scored 62.0% there), so the later trials also play Rapfi capped at 40,000 nodes
//! a move (`--info2 max_node=40000`, Rapfi then taking about 50 ms a move).
//! It is noisy: the build of 009f62a scored 67-1-132 (33.8%) and 49-0-151
//! (24.5%) in two runs with the same seed (29.1% together), so one run of
//! 200 games tells apart only large differences, and a trial that does not
//! stand out there is measured against the build before it.
//!
//! How the gap grows with time (session of 2026-11-29, 15x15 standard,
//! the build of 0ac3362): at 1 s a move against Rapfi capped at 200,000
//! nodes a move (five times both sides' budgets of the 40,000-node
//! yardstick) it scored 20-1-79 (20.5%, about Elo -240 +- 90), against
//! 27-34% on the yardstick and 6.0% against Rapfi at 1 s a move (500,000
//! to 1,000,000 nodes). Rapfi's strength climbs steeply with its nodes,
//! and what it finds with them is long forced wins: on the 20 positions of
//! `scripts/gomoku-profile.sh` at 1 s it reports nominal depths 15-28 and
//! proven wins or losses in 8 (one a win in 31 plies, found in 0.93 s,
//! where this search at 10 s, depth 16, scores the same move +1207 and
//! proves nothing).
//!
//! Four times the time does not close the gap (session of 2026-12-02, the
//! build of c16687e): at 4 s a move against Rapfi at 1 s (15x15 standard,
//! seed 14, 50 games, `--info1 timeout_turn=4000 --grace 4`, one game at
//! a time beside another such match; it used 2.0 s a move on average, the
//! forced moves counted, Rapfi 0.67 s) it scored 3-0-47 (6.0%; 95%
//! interval about 1-17%), the same as at 1 s (23-0-377, 5.8%). Nothing
//! shows that the games are lost for want of depth, and speed alone will
//! not reach the milestone of the issue.
//!
//! Speed is measured on `scripts/gomoku-profile.sh`: the middle-game
//! positions of `positions/gomoku-middle-15-standard.txt` searched with a
//! node limit through `gomocup`, as a match searches them (`bench --game
//! gomoku` spends most of its time in the root's VCT). The board changes
//! of the build after 14d8ef9 (codes kept for empty cells only, the node
//! VCFs' stones without the near counts, both sides' classes at once, no
//! allocation in the VCF; the same searches, `bench --game gomoku` still
//! 2,086,156 nodes) took it from 10.98 G to 8.54 G instructions at 30,000
//! nodes a position; at 1 s a position, 5.96 M nodes against 4.95 M over
//! the 20 positions (depths summed 185 against 181). On 20x20 freestyle the
//! shorter line codes ([`crate::gomoku::pattern::PatternTable::radius`])
//! add to it: 14.28 G -> 10.43 G on the first 12 openings of
//! `positions/gomoku-balanced-20-freestyle.txt` at 60,000 nodes.

use crate::Color;
use crate::gomoku::board::{Board, Point};
use crate::gomoku::eval::{self, Counts, FEATURES, Sink, Weighted};
use crate::gomoku::table::{Bound, Entry, Table, from_table, to_table};
use crate::gomoku::threat::{Class, candidates, class_of, classes_of, defences, is_legal};
use crate::gomoku::vcf::{ThreatBudget, VcfMemo, vcf, vct};
use crate::search::StopSignal;
use std::cmp::Reverse;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Score of a win now; a win found `k` plies away scores `WIN - k`.
pub const WIN: i32 = 30_000;
/// Scores beyond this are wins or losses.
pub const WIN_BOUND: i32 = 29_000;
/// Deepest iteration.
pub const MAX_DEPTH: u32 = 40;
/// Moves searched at inner nodes that are not forced (best by ordering
/// score). Measured (15x15 standard, 0.3 s per move, 240 games each against
/// 20): 12 scored Elo +39.3 +- 44.0 and +36.3 +- 43.6 in two runs.
///
/// The hand-set ordering keeps the self-play root searches' best move among
/// the 12 in 81% of held-out quiet positions (first in 20%). Tried and not
/// kept: a softmax policy fitted to those searches' root policies, a weight
/// per combination of each colour plus one per pair of classes, which keeps
/// it in 86% (first in 29%). In the search it cost nodes and strength: with
/// it at every node, depth 6 on 8 middle-game positions took 7,142,409
/// nodes against 2,196,002 and the match stood at Elo -110 +- 83 after 78
/// games; at quiet nodes only, 2,947,346 nodes and -55.9 +- 48.3 after 207
/// games (both stopped). The root's best move is not what cuts an inner
/// null-window node fastest. Breaking the hand-set ties by the policy
/// changes nothing (81.4%). Ordering by the fitted evaluation's weights (a
/// cell's combination weight for the side to move plus 1.2 times the
/// opponent's) keeps it among the 12 in only 59%: depth 6 took 389,884
/// nodes instead of 2,350,498, but it scored Elo -105.9 +- 46.3 against the
/// build of 41b2dcd.
///
/// The cut is a guess, so a node whose [`WIDTH`] moves all lose is not
/// proven lost. Searching the rest of its moves in that case (15x15
/// standard, 0.2 s per move, 160 games, against the build without it):
/// `bench --game gomoku` took 7,551,571 nodes against 5,250,948 (depth
/// 8), and the match scored Elo -15.2 +- 53.8; not kept.
///
/// Since the horizon stopped following an open three's defences
/// ([`Forced`]), against 12 (15x15 standard, 0.2 s per move,
/// 160 games): 16 scored Elo -61.4 +- 53.3 (61-10-89), 9 scored +0.0 +-
/// 52.9 (76-8-76).
///
/// Against Rapfi capped at 10,000 nodes a move (the yardstick of the
/// module documentation): a width growing by 2 for each ply left above 2
/// (16 at 4 plies, 20 at 6; `bench --game gomoku` 2,589,150 nodes against
/// 2,430,762) stood at 54-0-83 after 137 games; stopped, not kept. 20
/// moves at principal-variation nodes only (`bench --game gomoku`
/// 2,167,054 nodes against 2,086,156) scored 192-1-207 (seeds 2 and 3)
/// against 202-0-198; not kept.
///
/// Narrower near the horizon, as Rapfi's move-count pruning: at
/// null-window nodes at most `4 + 2 * depth` moves (6 at one ply left, 8
/// at two, 10 at three). The 20 positions of `scripts/gomoku-profile.sh`
/// at 1 s each reached depths summing to 219 against 214, and against
/// Rapfi capped at 40,000 nodes a move it scored 56-0-144 (28.0%) against
/// 29.1% (the module documentation); not kept.
///
/// Against Rapfi's choices (`examples/gomoku_order.rs`; the 1 s games
/// against Rapfi of the session of 2026-11-29, every second searched move
/// labelled by Rapfi at 100,000 nodes): of 2,475 positions of 15x15
/// standard whose moves are not forced, Rapfi's move is first in this
/// order ([`move_order`]) in 20.1% and among the first 12 in 77.1% (20x20
/// freestyle: 21.6% and 79.1%), and our own move of the 1 s search among
/// the first 12 in 78.4% (79.6%): a fifth of the moves the root chooses
/// would not be searched at an inner node. The opponent's nodes wider than
/// ours (16 moves at odd plies from the root, 12 at even ones; the 20
/// positions of `scripts/gomoku-profile.sh` at 300,000 nodes reached
/// depths summing to 181 against 184, at 20 moves 170) scored 48-1-151
/// (24.2%) against Rapfi capped at 40,000 nodes a move, where the build
/// without it scored 54-0-146 (27.0%) in the same session; not kept.
///
/// A width growing with the depth left (2 more moves for each ply above
/// 2: 16 at 4 plies, 28 at 10), measured by how often the search picks
/// Rapfi's move at 1,000,000 nodes on the 287 positions above: 54.4%
/// against 51.9% at 300,000 nodes a search, 59.2% against 56.4% at
/// 1,500,000 (7 and 8 positions more of 287, within the noise of the
/// measure); not played.
///
/// Rapfi's shape of it, narrower near the horizon and wider above it: `4 +
/// 2 * depth` moves, at least 6 and at most 24, at every inner node (the
/// root searches all; 6 at one ply left, 12 at four, 24 from ten). The 20
/// positions of `scripts/gomoku-profile.sh` at 1 s each reached depths
/// summing to 193 against 199, and against full Rapfi classical at 1 s a move (the
/// issue's measure; 15x15 standard, seed 9, session of 2026-12-01) it
/// scored 7-0-93 (7.0%), where the builds of the three sessions before
/// scored 23-0-377 (5.8%; 2.0-9.0% a run of 100 games); not kept.
///
/// Wider only far from the horizon, where more time would pay (session of
/// 2026-12-02): 12 moves up to 4 plies left, 3 more for each ply above (15
/// at 5, 30 at 10, at most 40; `bench --game gomoku` 1,366,744 nodes
/// against 1,178,253). Against full Rapfi classical at 1 s a move (20x20
/// freestyle, seed 15, one game at a time beside another match) it scored
/// 10-0-90 (10.0%), where this width scored 9.0%, 12.0%, 11.0% and 8.0% in
/// four runs of 100; not kept.
const WIDTH: usize = 12;
/// Killer moves kept per ply: the last quiet moves that cut there, tried
/// right after the table's move. Measured as above against none: Elo
/// +54.0 +- 44.7; depth 6 on 8 middle-game positions took 510,024 nodes
/// against 668,699. A history heuristic (each side's cutoffs per cell,
/// weighted by the square of the depth left) reordering the [`WIDTH`]
/// moves under the killers cost nodes: `bench --game gomoku` took
/// 6,173,589 nodes ordered by it alone, 5,926,437 with the first move of
/// the static order kept first, 5,581,663 with two, against 5,250,948
/// (depth 8). The threat order is the better one; not kept.
///
/// Killers outside the node's [`WIDTH`] moves searched too (first, when
/// the cell is empty, near a stone and legal), so that a quiet move that
/// cut a sibling is not left out: the 20 positions of
/// `scripts/gomoku-profile.sh` at 300,000 nodes reached depths summing to
/// 175 against 184, and against Rapfi capped at 40,000 nodes a move it
/// scored 56-0-144 (28.0%), where the build without it scored 54-0-146
/// (27.0%) in the same session; not kept.
const KILLERS: usize = 2;
/// Forced move lists (answers to a four or an open three) of at most this
/// many moves cost no depth. Measured as above: 3 against 1 (only a single
/// reply was free) scored Elo +52.5 +- 44.7, and depth 6 on the 8 positions
/// took 886,851 nodes against 510,024; 5 against 3 scored +64.4 +- 44.8.
///
/// The attacker's side of it, our own threes and fours costing no depth
/// either (a move of class [`Class::Three`] or better for the side to
/// move): with up to 4 such moves on a path, `bench --game gomoku` took
/// 201,477,320 nodes instead of 5,250,948 (depth 8); with one, 12,117,461
/// nodes, and it scored Elo -45.9 +- 53.5 (15x15 standard, 0.2 s per
/// move, 160 games, against the build without it). Not kept.
///
/// With fractional depths (the quarter-ply build described below), such a
/// move at a node with nothing forced searched a quarter ply deeper (a
/// three or four then costs three quarters of a ply; `bench --game gomoku`
/// 1,767,361 nodes against 1,178,253): against the build without it
/// (15x15 standard, 0.2 s a move, 400 games, seed 11) 180-18-202, Elo
/// -19.1 +- 33.4; not kept.
///
/// Since the horizon stopped following an open three's defences
/// ([`Forced`]), only a four's block free (an open three's
/// defences costing a ply): `bench --game gomoku` took 1,796,468 nodes
/// against 2,430,762, and it scored Elo -6.5 +- 53.4 (76-5-79; as above);
/// not kept. Against Rapfi capped at 10,000 nodes a move (the yardstick of
/// the module documentation), 3 (`bench --game gomoku` 1,906,187 nodes
/// against 2,086,156) scored 76-1-123 (seed 2) against 100-0-100, and 8
/// (2,480,646 nodes) 87-1-112 and 59-0-68 after 127 games (seed 3, stopped)
/// against 100-0-100 and 102-0-98; the first 5 moves of a longer forced
/// list free and the rest a ply shallower (2,885,324 nodes), 90-0-110
/// (seed 2); not kept.
///
/// Extending the block of a four beyond that, as Rapfi does (its block of
/// a four gets 1.3 plies, so a four and its block cost 0.7 of a ply): the
/// block searched a ply deeper still at every third ply (a four and its
/// block then cost two thirds of a ply on average; not below the horizon).
/// The 20 positions of `scripts/gomoku-profile.sh` at 1 s each reached
/// depths summing to 192 against 215, and against Rapfi capped at 40,000
/// nodes a move (the module documentation; seed 2, 200 games) it scored
/// 52-1-147 (26.2%) against 67-2-131 (34.0%) for the build without it; at
/// every second ply, depths 188; at principal-variation nodes only,
/// depths 180. Not kept.
///
/// The same with fractional depths (session of 2026-12-01: a scratch build
/// counting depth in quarter plies, giving the same searches as this one
/// with every fraction 0): the block of a four above the horizon searched
/// a quarter ply deeper than its node (a four and its block cost three
/// quarters of a ply, close to Rapfi's 0.7). `bench --game gomoku`
/// 1,410,810 nodes against 1,178,253. Against Rapfi capped at 40,000 nodes
/// a move (the module documentation) it scored 67-0-133 (33.5%; seed 2)
/// where the build without it scored 59-0-141 (29.5%), and 43-1-156
/// (21.8%; seed 3) against 60-0-140 (30.0%; those two runs shared the two
/// cores with the match below); against the build without it (15x15
/// standard, 0.2 s a move, seed 10, most of it with four games at once on
/// two cores) 172-22-206, Elo -29.6 +- 33.3. Half a ply deeper: 43-0-157
/// (21.5%; seed 2, its second half beside that match). Not kept.
const FREE_FORCED_MOVES: usize = 5;
/// Plies a four that only delays an open three (the side to move's four
/// that defends nothing, answering an open three: [`Forced::ByThree`]) is
/// first searched shallower, when it is not the node's first move; it is
/// searched again at full depth if it beats alpha, as a late move is. The
/// defences come first in the list. Rapfi reduces and prunes such
/// distracting answers too. Before, the answers were ordered by score
/// alone (the fours first) and all searched at full depth. The 20
/// positions of `scripts/gomoku-profile.sh` at 300,000 nodes reach depths
/// summing to 184 against 179 (the defences first alone: 178; a reduction
/// of 2: 185). Against Rapfi capped at 10,000 nodes a move (the yardstick
/// of the module documentation): 121-2-77 and 126-0-74 (seeds 2 and 3;
/// 62.0%) against 109-0-91 and 113-0-87 (55.5%) for the build before.
/// Against the build before (15x15 standard, 0.2 s per move, 400 games a
/// run): 204-27-169 and 234-16-150, together 438-43-319 (57.4%, about Elo
/// +52 +- 24). Counting only the defences against [`FREE_FORCED_MOVES`] as well (a
/// list of up to 5 defences free whatever fours follow; depths 156):
/// 122-0-78 and 118-0-82 (60.0%); not kept.
const DELAYING_FOUR_REDUCTION: i32 = 1;
/// Margin per ply of depth left by which a quiet null-window node's static
/// evaluation must beat beta to be cut without a search (futility, at any
/// depth). Measured (15x15 standard, 0.3 s per move, 240 games each
/// against the build without it): 40 scored Elo +39.3 +- 44.4, 60 scored
/// +43.7 +- 44.4 (the two together 267-3-210, about +41 +- 31), 100 scored
/// -8.7 +- 44.0. Against Rapfi capped at 10,000 nodes a move (the
/// yardstick of the module documentation), 40 scored 87-1-112 (43.8%);
/// not kept.
///
/// A null move on top of it (a pass searched with a null window to
/// `depth - 3 - depth / 4`, at quiet null-window nodes from 3 plies left
/// whose evaluation reaches beta, never twice in a row): depth 8 on the
/// bench took 5,299,788 nodes against 5,250,948, and it scored Elo
/// -15.2 +- 53.5 (15x15 standard, 0.2 s per move, 160 games); not kept.
///
/// Razoring, its mirror (a quiet null-window node 1 or 2 plies from the
/// horizon whose evaluation plus a margin is at most alpha is a leaf: the
/// static value, or a win its VCF finds), against the build without it
/// (15x15 standard, 0.2 s per move, 160 games each):
/// - margins 35 and 50: `bench --game gomoku` took 3,414,119 nodes in
///   6.8 s against 5,250,948 in 11.3 s (depth 8), and it scored Elo
///   -34.9 +- 53.1;
/// - margins 120 and 240: 3,550,029 nodes in 6.4 s, Elo -41.5 +- 54.5.
///
/// A third of the nodes saved and about a ply gained in the same time, but
/// games lost (138-9-173 in the two runs together). Why is not measured;
/// a leaf sees the side to move's fours (its VCF) but no threes. Not kept.
const FUTILITY_MARGIN: i32 = 60;
/// Fail-high reduction: at a null-window node with nothing forced whose
/// static evaluation beats beta by `FAIL_HIGH_MARGIN * depth - 9` (less
/// than [`FUTILITY_MARGIN`] asks for a cut without a search), the moves
/// that make no four are searched a ply shallower: the node will most
/// likely fail high, and a four keeps its depth because an attack may be
/// what refutes the evaluation. The idea and the shape of the margin are
/// Rapfi's. Against Rapfi capped at 10,000 nodes a move (the yardstick of
/// the module documentation; each build 800 games in four runs of 200,
/// side by side, the build without it the same binary with the reduction
/// off): 405-0-395 (50.6%) against 362-2-436 (45.4%), about Elo +37 (95%
/// interval about +3 .. +71); with 25, 99-2-99. `bench --game gomoku`
/// (depth 8) takes 2,086,156 nodes against 2,430,762.
const FAIL_HIGH_MARGIN: i32 = 15;
/// Late-move reductions: at a node that is not forced, from 2 plies
/// left, move `k` of the list (counted from 1) is first searched
/// `LMR_SCALE * ln(depth) * ln(k)` plies shallower (`depth` the one its
/// search would get; rounded; one ply less at principal-variation nodes,
/// never to below one ply), and searched again at full depth when it
/// beats alpha. The build before reduced by one ply from the 7th move
/// only. Measured against it (15x15 standard, 0.2 s per move, 160 games
/// from the balanced openings, both colours, each with the VCF memo):
/// - 0.6: Elo +34.9 +- 52.8;
/// - **0.9: +91.1 +- 55.7 (99-3-58), and +41.5 +- 53.8 (87-5-68) in a
///   second run with other openings; together 186-8-126, about +66 +- 38.
///   `bench --game gomoku` (depth 8) takes 3,084,651 nodes in 3.3 s
///   against 5,250,948 in 6.8 s**;
/// - 1.2: +0.0 +- 52.9;
/// - 0.9 with 16 moves at inner nodes instead of [`WIDTH`]: +26.1 +- 53.0;
/// - 0.9, moves that make a three or better for either side (by
///   [`class_of`]) reduced one ply less: +10.9 +- 53.4; never reduced, `bench
///   --game gomoku` took 6,100,422 nodes against 3,548,046 at 0.6;
/// - 0.9 with move-count pruning at null-window nodes (after a move that
///   does not lose, moves past `(3 + depth^1.32) / 2`, or twice that when
///   the static evaluation rose since two plies up, are not searched):
///   -124.5 +- 57.8;
/// - since the horizon stopped following an open three's defences
///   ([`Forced`]), 1.2 against 0.9: -23.9 +- 52.8.
///
/// Before these, reducing from the 4th move, and by two plies from the
/// 9th (from 3 plies left): depth 8 on the bench took 4,422,569 nodes
/// against 5,250,948, and it scored Elo -32.7 +- 53.6; not kept.
///
/// Against Rapfi capped at 10,000 nodes a move (the yardstick of the
/// module documentation), not kept: 1.1, 96-1-103 (48.2%); moves that make
/// or stop a three reduced a ply less, 58-0-73 after 131 games; the root's
/// late moves reduced too (from 3 plies; `bench --game gomoku` 2,062,149
/// nodes), 55-0-80 after 135 games (both stopped); a ply more at expected
/// cut nodes (a later move's null-window search is one, its first child
/// is not, and so on alternately, as Stockfish marks them), 35-0-61 after
/// 96 games (stopped). Internal iterative reduction (a ply less at a
/// principal-variation or expected cut node from 4 plies left that has no
/// table move; `bench --game gomoku` 2,049,984 nodes) scored 205-0-195
/// (seeds 2 and 3) against 202-0-198: not shown better, not kept.
///
/// Rapfi's smaller reduction for a continued attack (a move making a three
/// or better for the side to move, whose own move two plies up made one
/// too): one ply less, the 20 positions of `scripts/gomoku-profile.sh` at
/// 300,000 nodes reached depths summing to 150 against 156; not reduced at
/// all, 149. Not played. With fractional depths (the quarter-ply build of
/// [`FREE_FORCED_MOVES`]), half a ply less, as Rapfi's 0.53: 50-0-150
/// (25.0%) against Rapfi capped at 40,000 nodes a move (seed 2), where the
/// build without it scored 59-0-141 (29.5%); not kept.
///
/// The same reductions unrounded, to the quarter ply (`0.9 * ln(depth) *
/// ln(k)` plies, so a reduction under half a ply is no longer 0): `bench
/// --game gomoku` 1,345,918 nodes against 1,178,253, and 46-2-152 (23.5%;
/// as above); not kept.
const LMR_SCALE: f64 = 0.9;

/// The plies a late quiet move is first searched shallower: `next` the
/// depth its search would get, `index` its place in the node's list.
fn late_move_reduction(next: i32, index: usize, pv: bool) -> i32 {
    static TABLE: std::sync::LazyLock<[[u8; 64]; 64]> = std::sync::LazyLock::new(|| {
        let mut table = [[0u8; 64]; 64];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (index, cell) in row.iter_mut().enumerate() {
                let r = LMR_SCALE * (depth as f64).ln() * ((index + 1) as f64).ln();
                *cell = r.round() as u8;
            }
        }
        table
    });
    let r = i32::from(TABLE[next.clamp(0, 63) as usize][index.min(63)]) - i32::from(pv);
    r.clamp(0, (next - 1).max(0))
}

/// Fours a node's VCF tries.
const NODE_VCF_DEPTH: u32 = 12;
/// Nodes of a node's VCF. Against Rapfi capped at 10,000 nodes a move
/// (the yardstick of the module documentation): 100 scored 85-0-115
/// (42.5%), 400 stood at 64-0-101 after 165 games; not kept.
const NODE_VCF_NODES: u64 = 200;
/// Entries of each thread's cache of node VCF results (16 bytes each).
const VCF_CACHE_ENTRIES: usize = 1 << 14;
/// Slots of each thread's memo of failed VCF positions, as a power of two.
const VCF_MEMO_BITS: u32 = 16;
/// A cached node VCF that won.
const VCF_WON: u64 = u64::MAX;
/// A cached node VCF that found no win in its depth without running out
/// of nodes: none with any budget.
const VCF_NONE: u64 = u64::MAX - 1;
/// Nodes of the root's VCF.
const ROOT_VCF_NODES: u64 = 200_000;
/// Attacking moves of the root's VCT, which deepens to them one at a time
/// ([`vct`]).
const ROOT_VCT_DEPTH: u32 = 6;
/// Nodes of the root's VCT.
const ROOT_VCT_NODES: u64 = 400_000;
/// Most of a turn's time the root's VCT may take. It usually ends within
/// a few milliseconds, but on one of 8 middle-game positions it took its
/// whole 30% (265 ms of a 1 s turn) and found nothing. Measured (15x15
/// standard, 0.3 s per move, 240 games each) against 0.3: 0.1 scored Elo
/// +27.6 +- 44.2 and +39.3 +- 44.2 in two runs (261-4-215 in all, about
/// +33 +- 31).
///
/// The opponent's threats are not looked for at the root. In 93 games
/// lost to Rapfi (1 s per move, 6a37f0e), at our first move after which
/// our VCT (depth 8, 300 K nodes) finds a win for Rapfi, another move
/// that is not a four avoided it in 14 games; in 79, every move allowed
/// it: those games were lost before the threats began. When the search
/// scores the root lost, playing instead the first root move after which
/// the opponent has no VCT (100 K nodes each) scored Elo +6.5 +- 54.1
/// (15x15 standard, 0.2 s per move, 160 games); not kept. Whenever the
/// search's move allowed the opponent a VCT (6 attacking moves, 60,000
/// nodes), playing instead the first of the next 16 root moves (in the
/// root's order) after which the opponent's VCT found none with budget to
/// spare (15,000 nodes each), with 12% of the turn kept for it (session
/// of 2026-12-01): against Rapfi classical at 1 s a move (15x15 standard,
/// seed 12) 1-0-37 after 38 games (2.6%; stopped), where the builds of the
/// sessions before scored 5.8% over 400 games; not kept. It never fired
/// on the 20 positions of `scripts/gomoku-profile.sh` at 1 s each (how
/// often it fired in the games was not counted).
///
/// At 1 s a move the share is 97 ms. In 100 games against Rapfi (the
/// build of 8b45b12, 15x15 standard, seed 8), the root's VCT ran 1,194
/// times and found 20 wins, 18 of them within 25 ms (the others took 57
/// and 86 ms); 745 of its failures took the whole share. The failures
/// took 74 s of the 1,149 s our moves took (6.4%). A share of 3% would
/// give back 4% of the time and lose 2 of the 20 wins; not tried. The
/// VCT's memo ([`crate::gomoku::vcf`]) came after this count.
const ROOT_VCT_SHARE: f64 = 0.1;
/// Nodes between looks at the clock.
const CHECK_EVERY: u64 = 64;

/// What bounds a search.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration (default [`MAX_DEPTH`]).
    pub depth: Option<u32>,
    /// Stop at once at this time.
    pub deadline: Option<Instant>,
    /// Stop after this many nodes of all threads (each adds its count and
    /// checks every 64 nodes); also caps the root's VCF and VCT.
    pub nodes: Option<u64>,
    /// Whether to run VCT at the root.
    pub vct: bool,
    /// Search threads (0 or 1: one). They share the table; only the main
    /// thread's iterations reach `progress`. The answer is the best
    /// iteration any thread finished (a proven win, else the deepest), and
    /// the thread that finishes the last iteration or proves a win stops
    /// the others. Node counts and the node limit add up over all threads.
    pub threads: usize,
    /// Whether to score every root move with a full window (for self-play
    /// policies; see [`SearchResult::root_scores`]) rather than prove the
    /// other moves worse than the best with null windows.
    pub score_root: bool,
}

impl Limits {
    /// Limits for a turn of `budget`: iterations run until its end. An
    /// iteration costs several times the last, so one started late is
    /// mostly cut off; but its best move counts (a move that beat the last
    /// best, even if its search again with a full window was cut off), and
    /// the table it fills helps the next turn. Measured (15x15 standard,
    /// 0.3 s per move, 240 games each against the one before): starting no
    /// iteration after 60% of the turn against 40%, Elo +94.9 +- 45.7;
    /// 80% against 60%, -26.1 +- 43.9 (before a cut-off iteration's best
    /// counted); to the end against 60%, +17.4 +- 44.1 and +14.5 +- 44.2
    /// in two runs (250-2-228 in all, about +16 +- 31; 114-121 against
    /// 103-111 ms per move).
    pub fn for_time(budget: Duration) -> Limits {
        Limits {
            depth: None,
            deadline: Some(Instant::now() + budget),
            nodes: None,
            vct: true,
            score_root: false,
            threads: 1,
        }
    }
}

/// Progress: one line per finished iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub depth: u32,
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Point>,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// `None` only when the board is full.
    pub best: Option<Point>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Point>,
    /// How the move was found.
    pub source: Source,
    /// With [`Limits::score_root`], each root move's score from the deepest
    /// iteration that reached it (a move not reached by an interrupted
    /// iteration keeps its score of the one before), in the order searched;
    /// empty when no iteration ran (a forced move, a VCF or VCT win).
    pub root_scores: Vec<(Point, i32)>,
}

/// What decided the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Forced,
    Vcf,
    Vct,
    Search,
}

/// The moves of a node.
enum Moves {
    /// The side to move makes five here.
    Win(usize),
    /// The side to move makes an open four here (two five points) and the
    /// opponent has no five: a win in three plies.
    OpenFour(usize),
    /// The opponent wins whatever happens (two fives, or the one block is
    /// forbidden).
    Lost,
    /// Moves in order, and what forces them, if anything.
    List(Vec<usize>, Forced),
    /// At the horizon ([`Order::None`]): the side to move has a legal move
    /// and no four of the opponent's to block; the moves are not listed.
    Unlisted,
}

/// What forces a node's moves.
///
/// Past the horizon only the block of a four is followed
/// ([`Forced::ByFour`]: one move, searched at the same depth, so a depth
/// never falls below 0): a node at or past the horizon whose opponent has
/// an open three is a leaf, its evaluation seeing the three through the
/// opponent's best class. Following the defences of open threes there too,
/// as the build of b0e9815 did (down to 8 plies below the horizon), took a
/// third of the search's nodes: `bench --game gomoku` (depth 8) took
/// 3,084,651 nodes with them and 2,430,762 without (17.0-19.5 s against
/// 9.1-11.2 s, three runs each side by side on a loaded machine), and
/// without them it scored Elo +165.7 +- 60.3 (114-3-43; 15x15 standard,
/// 0.2 s per move, 160 games, against the build with them).
///
/// Tried and not kept: the opponent's four-three points forcing too, as
/// Rapfi's move picker has them (the answers: the moves after which the
/// opponent has no four-three left, found by placing each cell on the
/// points' lines, then the side to move's fours; not under renju).
/// With the root's VCT before [`vct`] took fours and deepened, `bench
/// --game gomoku` took 1,118,258 nodes against 1,091,541, the 20
/// positions of `scripts/gomoku-profile.sh` at 300,000 nodes reached
/// depths summing to 172 against 184, and against the build without it
/// (15x15 standard, 0.2 s a move, 400 games) it scored 182-22-194, Elo
/// -10.5 +- 33.3. Nor a static win (in five plies) for the side to move's
/// double three when the opponent has no four, as Rapfi's quick win check
/// has it: `bench --game gomoku` 1,093,162 nodes, the same depths (184) on
/// the profile positions; not played. (For a four-three it gave the same
/// searches: the node's VCF finds those.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Forced {
    /// Nothing: every candidate may be played.
    No,
    /// The opponent has a four: the one block.
    ByFour,
    /// The opponent has an open three: its defences, best first, then the
    /// side to move's fours that defend nothing, best first (each only
    /// delays the three: [`DELAYING_FOUR_REDUCTION`]); this many defences.
    ByThree(usize),
}

/// What the table gives a node.
enum Probe {
    /// A score that decides the node.
    Cut(i32),
    /// Its best move of an earlier search, if any.
    Move(Option<usize>),
}

/// How many moves of a node that is not forced [`generate`] orders.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Order {
    /// None: a node at the horizon evaluates them without searching (7% of
    /// its instructions went to the sort).
    None,
    /// The best [`WIDTH`], the only ones an inner node searches; the rest
    /// are dropped (the sort of the whole list took 4.9% of a 20x20
    /// search).
    Width,
    /// All of them (the root).
    All,
}

/// The position's moves for the side to move, and the static evaluation as
/// a by-product (meaningful only with a non-empty [`Moves::List`]). Forced
/// moves always come in order, all of them; the others as `order` says.
fn generate(board: &mut Board, order: Order) -> (Moves, i32, bool) {
    let mut eval = Weighted::default();
    let (moves, has_four) = generate_into(board, order, &mut eval);
    (moves, eval.value(), has_four)
}

/// The features of the position's static evaluation ([`crate::gomoku::eval`]),
/// from the side to move's view; `None` when the position is decided at
/// once (a five to make, an open four, a lost position) or has no move,
/// where the search does not evaluate.
pub fn eval_features(board: &mut Board) -> Option<[f32; FEATURES]> {
    let mut counts = Counts::default();
    match generate_into(board, Order::None, &mut counts).0 {
        Moves::List(moves, _) if !moves.is_empty() => Some(counts.0),
        Moves::Unlisted => Some(counts.0),
        _ => None,
    }
}

/// The side to move's moves in the order the search tries them at a node
/// before its table move and killers: all of them (as at the root), and
/// whether they are forced (a four's block, an open three's answers);
/// `None` when the position is decided at once or has no move.
pub fn move_order(board: &mut Board) -> Option<(Vec<usize>, bool)> {
    match generate(board, Order::All).0 {
        Moves::List(moves, forced) if !moves.is_empty() => Some((moves, forced != Forced::No)),
        _ => None,
    }
}

/// [`generate`], feeding the evaluation's features to `sink`; returns the
/// moves and whether the side to move has a four.
///
/// At the horizon ([`Order::None`]) only a four's block is searched, so the
/// other moves are neither listed nor ordered, and an open three's defences
/// are not looked for ([`Moves::Unlisted`]).
///
/// Tried and not kept: an incremental evaluation, each empty cell's terms
/// (and both colours' classes) kept by `place` and `undo` with their sums
/// over the near empty cells, the horizon evaluated from the sums without
/// this walk. The same searches, but callgrind (`scripts/gomoku-profile.sh`
/// at 30,000 nodes) counted 10.57 G instructions against 8.71 G: of 2.75 M
/// generations only 1.0 M were horizons the sums could answer (0.3 M more
/// had a five or an open four to find, 1.45 M were inner nodes), and
/// keeping the terms of the cells on a stone's lines when it is placed and
/// taken back cost 1.98 G, more than the walks saved.
fn generate_into<S: Sink>(board: &mut Board, order: Order, sink: &mut S) -> (Moves, bool) {
    let me = board.to_move();
    let me_white = me == Color::White;
    let cells = candidates(board);
    let horizon = order == Order::None;
    let mut any_legal = false;
    let mut scored = Vec::with_capacity(if horizon { 0 } else { cells.len() });
    let mut their_fives = Vec::new();
    let mut their_threats = Vec::new();
    let mut my_fours = Vec::new();
    let mut my_best = (Class::Quiet, 0);
    let mut their_best = Class::Quiet;
    for &cell in &cells {
        let [mine, theirs] = classes_of(board, cell, me);
        if mine.0 == Class::Five {
            return (Moves::Win(cell), true);
        }
        match theirs.0 {
            Class::Five => their_fives.push(cell),
            Class::FlexFour => their_threats.push(cell),
            _ => {}
        }
        if mine.0 >= Class::Four {
            my_fours.push(cell);
        }
        if mine.0 > my_best.0 {
            my_best = (mine.0, cell);
        }
        their_best = their_best.max(theirs.0);
        eval::cell(sink, &board.packed_patterns(cell), me_white, mine, theirs);
        if horizon {
            any_legal = any_legal || is_legal(board, cell, me);
        } else if is_legal(board, cell, me) {
            // The opponent's value counts 4/5. Against Rapfi capped at
            // 10,000 nodes a move (the yardstick of the module
            // documentation), counting it whole scored 81-0-119 (40.5%),
            // and 3/5 scored 90-0-110 (45.0%), against 362-2-436 (45.4%).
            scored.push((mine.1 + theirs.1 * 4 / 5, cell));
        }
    }
    let has_four = !my_fours.is_empty();
    if their_fives.is_empty() && my_best.0 == Class::FlexFour {
        return (Moves::OpenFour(my_best.1), true);
    }
    eval::finish(sink, me_white, my_best.0, their_best);
    if their_fives.len() >= 2 {
        return (Moves::Lost, has_four);
    }
    if let Some(&block) = their_fives.first() {
        // The five point is a candidate (next to the opponent's stones), so
        // it is on the list when it is legal.
        if !is_legal(board, block, me) {
            return (Moves::Lost, has_four);
        }
        return (Moves::List(vec![block], Forced::ByFour), has_four);
    }
    if horizon {
        let moves = if any_legal {
            Moves::Unlisted
        } else {
            Moves::List(Vec::new(), Forced::No)
        };
        return (moves, has_four);
    }
    let by_score = |a: &(i32, usize), b: &(i32, usize)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
    if !their_threats.is_empty() {
        // The forced moves picked out, then sorted: sorting every
        // candidate first cost 3% of a search's instructions (callgrind,
        // `scripts/gomoku-profile.sh`: 10.29 G -> 9.99 G, the same
        // searches).
        let blocks = defences(board, &their_threats);
        // Keyed so that the defences come first, then the fours that only
        // delay the three, each best first: whether a cell defends is
        // looked up once.
        let mut moves: Vec<(bool, Reverse<i32>, usize)> = scored
            .iter()
            .filter_map(|&(score, c)| {
                let defends = blocks.contains(&c);
                (defends || my_fours.contains(&c)).then_some((!defends, Reverse(score), c))
            })
            .collect();
        if !moves.is_empty() {
            moves.sort_unstable();
            let defending = moves.iter().take_while(|&&(delays, _, _)| !delays).count();
            let moves = moves.into_iter().map(|(_, _, c)| c).collect();
            return (Moves::List(moves, Forced::ByThree(defending)), has_four);
        }
        scored.sort_unstable_by(by_score);
    }
    if scored.is_empty() {
        return (Moves::List(Vec::new(), Forced::No), has_four);
    }
    match order {
        Order::None => {}
        Order::Width => {
            if scored.len() > WIDTH {
                scored.select_nth_unstable_by(WIDTH - 1, by_score);
                scored.truncate(WIDTH);
            }
            scored.sort_unstable_by(by_score);
        }
        Order::All => scored.sort_unstable_by(by_score),
    }
    (
        Moves::List(scored.into_iter().map(|(_, c)| c).collect(), Forced::No),
        has_four,
    )
}

/// The search with its table; one per engine.
pub struct Searcher {
    table: Table,
}

/// What the threads of one search share besides the table.
struct Shared<'a> {
    limits: &'a Limits,
    stop: &'a StopSignal,
    /// Nodes of every thread, as each last added its own.
    nodes: AtomicU64,
    /// Raised when the main thread is done, or when a thread finished the
    /// last iteration: every thread stops.
    halt: AtomicBool,
    /// The best iteration any thread finished ([`Found::beats`]).
    best: Mutex<Option<Found>>,
}

impl Shared<'_> {
    /// Records a finished iteration if it is better than the one recorded
    /// ([`Found::beats`]); returns whether it was.
    fn publish(&self, found: &Found) -> bool {
        let mut best = self.best.lock().unwrap_or_else(|e| e.into_inner());
        let better = best.as_ref().is_none_or(|b| found.beats(b));
        if better {
            *best = Some(found.clone());
        }
        better
    }
}

/// One thread's search state.
struct Worker<'a> {
    table: &'a Table,
    shared: &'a Shared<'a>,
    /// This thread's nodes, and those of them already added to the shared
    /// count.
    nodes: u64,
    flushed: u64,
    aborted: bool,
    pv: Vec<Vec<usize>>,
    /// Per ply: the last [`KILLERS`] moves that cut there, newest first.
    killers: Vec<[Option<usize>; KILLERS]>,
    /// The node VCFs' results by position key: see [`Worker::quick_vcf`].
    vcf_cache: Vec<[u64; 2]>,
    /// The node VCFs' failed inner positions ([`VcfMemo`]).
    vcf_memo: VcfMemo,
}

/// Stack of each helper thread (the search recurses through `pvs` and the
/// threat searches).
const HELPER_STACK_BYTES: usize = 16 << 20;

impl Searcher {
    pub fn new(hash_mib: usize) -> Searcher {
        Searcher {
            table: Table::new(hash_mib),
        }
    }

    /// Empties the transposition table (`yxhashclear`).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Resizes the table (drops its content), unless it has that size
    /// already: a manager sends `INFO max_memory` before every game, and a
    /// new table of hundreds of MiB would cost the first move its time.
    pub fn resize(&mut self, hash_mib: usize) {
        self.table.resize(hash_mib);
    }

    /// Searches the side to move's best move with `limits.threads` threads.
    /// `progress` hears each finished iteration of the main thread.
    pub fn search(
        &mut self,
        position: &Board,
        limits: &Limits,
        stop: &StopSignal,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        let started = Instant::now();
        let mut board = position.clone();
        let done =
            |best: Option<usize>, score, depth, nodes, pv: Vec<usize>, source| SearchResult {
                best: best.map(Point::from_index),
                score,
                depth,
                nodes,
                elapsed: started.elapsed(),
                pv: pv.into_iter().map(Point::from_index).collect(),
                source,
                root_scores: Vec::new(),
            };
        let (moves, _, _) = generate(&mut board, Order::All);
        let (root_moves, forced) = match moves {
            Moves::Win(cell) => return done(Some(cell), WIN - 1, 1, 1, vec![cell], Source::Forced),
            Moves::OpenFour(cell) => {
                return done(Some(cell), WIN - 3, 3, 1, vec![cell], Source::Forced);
            }
            Moves::Lost => {
                let any = candidates(&board)
                    .into_iter()
                    .find(|&c| crate::gomoku::threat::is_legal(&board, c, board.to_move()))
                    .or_else(|| candidates(&board).first().copied());
                // Block a five if we can, even when lost.
                let block = crate::gomoku::threat::fives(&board, board.to_move().opponent())
                    .into_iter()
                    .find(|&c| crate::gomoku::threat::is_legal(&board, c, board.to_move()));
                let mv = block.or(any);
                return done(mv, -WIN + 2, 1, 1, mv.into_iter().collect(), Source::Forced);
            }
            Moves::List(list, forced) => (list, forced != Forced::No),
            Moves::Unlisted => unreachable!("only the horizon leaves its moves unlisted"),
        };
        if root_moves.is_empty() {
            return done(None, 0, 0, 0, Vec::new(), Source::Forced);
        }
        if root_moves.len() == 1 {
            let mv = root_moves[0];
            return done(Some(mv), 0, 1, 1, vec![mv], Source::Forced);
        }
        let instant = limits.depth == Some(0);
        if instant {
            return done(
                Some(root_moves[0]),
                0,
                0,
                1,
                vec![root_moves[0]],
                Source::Forced,
            );
        }
        // Threat searches first (one thread), within the node budget if
        // there is one.
        let threat_nodes = |most: u64| limits.nodes.map_or(most, |n| n.min(most));
        let mut budget =
            ThreatBudget::with_limits(threat_nodes(ROOT_VCF_NODES), stop.clone(), limits.deadline);
        let mut line = Vec::new();
        if vcf(&mut board, 30, &mut budget, &mut line) && !line.is_empty() {
            let nodes = budget.visited;
            return done(
                Some(line[0]),
                WIN - line.len() as i32,
                line.len() as u32,
                nodes,
                line,
                Source::Vcf,
            );
        }
        let mut threat_visited = budget.visited;
        if limits.vct && !forced {
            let vct_deadline = limits.deadline.map(|d| {
                let now = Instant::now();
                now + d.saturating_duration_since(now).mul_f64(ROOT_VCT_SHARE)
            });
            let mut budget =
                ThreatBudget::with_limits(threat_nodes(ROOT_VCT_NODES), stop.clone(), vct_deadline);
            let found = vct(&mut board, ROOT_VCT_DEPTH, &mut budget);
            threat_visited += budget.visited;
            if let Some(mv) = found {
                return done(
                    Some(mv),
                    WIN_BOUND + 1,
                    0,
                    threat_visited,
                    vec![mv],
                    Source::Vct,
                );
            }
        }
        let shared = Shared {
            limits,
            stop,
            nodes: AtomicU64::new(threat_visited),
            halt: AtomicBool::new(false),
            best: Mutex::new(None),
        };
        let table = &self.table;
        let threads = limits.threads.clamp(1, crate::engine::MAX_THREADS);
        let found = std::thread::scope(|scope| {
            for helper in 1..threads {
                let mut board = board.clone();
                let root_moves = root_moves.clone();
                let shared = &shared;
                let spawned = std::thread::Builder::new()
                    .name(format!("oxello-gomoku-{helper}"))
                    .stack_size(HELPER_STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        let mut worker = Worker::new(table, shared);
                        worker.iterate(&mut board, root_moves, (helper, threads), started, None);
                        worker.flush();
                    });
                if let Err(error) = spawned {
                    log::warn!("cannot start gomoku search helpers from {helper}: {error}");
                    break;
                }
            }
            let mut worker = Worker::new(table, &shared);
            let found = worker.iterate(
                &mut board,
                root_moves,
                (0, threads),
                started,
                Some(progress),
            );
            worker.flush();
            shared.halt.store(true, Ordering::Relaxed);
            found
        });
        // Every helper is joined now. One may have finished a deeper
        // iteration or proved a win (which stopped the main thread): its
        // result is the answer.
        let published = shared.best.lock().unwrap_or_else(|e| e.into_inner()).take();
        let found = match published {
            Some(better) if better.beats(&found) => better,
            _ => found,
        };
        found.finish(&shared, done)
    }
}

/// What a thread's iterations found.
#[derive(Clone)]
struct Found {
    best: usize,
    score: i32,
    depth: u32,
    pv: Vec<usize>,
    root_scores: Vec<(usize, i32)>,
}

impl Found {
    /// Whether this result is a better answer than `other`: a proven win
    /// first, then the deeper iteration.
    fn beats(&self, other: &Found) -> bool {
        let won = |f: &Found| f.score > WIN_BOUND;
        (won(self), self.depth) > (won(other), other.depth)
    }

    /// The result, with the nodes of every thread (all joined by now).
    fn finish(
        self,
        shared: &Shared,
        done: impl Fn(Option<usize>, i32, u32, u64, Vec<usize>, Source) -> SearchResult,
    ) -> SearchResult {
        let mut result = done(
            Some(self.best),
            self.score,
            self.depth,
            shared.nodes.load(Ordering::Relaxed),
            self.pv,
            Source::Search,
        );
        result.root_scores = self
            .root_scores
            .into_iter()
            .map(|(mv, score)| (Point::from_index(mv), score))
            .collect();
        result
    }
}

impl<'a> Worker<'a> {
    fn new(table: &'a Table, shared: &'a Shared<'a>) -> Worker<'a> {
        Worker {
            table,
            shared,
            nodes: 0,
            flushed: 0,
            aborted: false,
            pv: Vec::new(),
            killers: Vec::new(),
            vcf_cache: vec![[0; 2]; VCF_CACHE_ENTRIES],
            vcf_memo: VcfMemo::with_bits(VCF_MEMO_BITS),
        }
    }

    /// Adds this thread's nodes not yet counted to the shared count.
    fn flush(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// Every thread's nodes, as far as known.
    fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + (self.nodes - self.flushed)
    }

    /// Iterative deepening over `root_moves` by thread `thread.0` of
    /// `thread.1`; `progress` (the main thread's) hears each finished
    /// iteration.
    ///
    /// Every thread searches the best move of the last iteration first, then
    /// the others from its own place in the list, going round: thread `i` of
    /// `n` starts at the `i / n` mark. Their null-window searches have the
    /// same alpha (the first move's score), so each finds most of the moves
    /// the others reach later already in the table.
    ///
    /// Iterations search with the full window. A window of +-50 around the
    /// last iteration's score for the first move (searched again with the
    /// full window when it fails) saved 0.4% of the nodes of `bench --game
    /// gomoku` (2,420,507 against 2,430,762); not kept.
    fn iterate(
        &mut self,
        board: &mut Board,
        mut root_moves: Vec<usize>,
        thread: (usize, usize),
        started: Instant,
        mut progress: Option<&mut dyn FnMut(&Progress)>,
    ) -> Found {
        let limits = self.shared.limits;
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let threaded = limits.threads > 1;
        let mut best = root_moves[0];
        let mut best_score = 0;
        let mut best_pv = vec![best];
        let mut reached = 0;
        let mut root_scores: Vec<(usize, i32)> = Vec::new();
        for depth in 1..=max_depth {
            self.pv = vec![Vec::new(); depth as usize + 64];
            let mut alpha = -WIN - 1;
            let beta = WIN + 1;
            let mut iteration_best = None;
            let mut order = root_moves.clone();
            let (index, count) = thread;
            if index > 0 && order.len() > 2 {
                let shift = (order.len() - 1) * index / count;
                order[1..].rotate_left(shift);
            }
            for (i, &mv) in order.iter().enumerate() {
                board.place(mv);
                let mut failed_high = false;
                let score = if limits.score_root {
                    -self.pvs(board, depth as i32 - 1, -WIN - 1, WIN + 1, 1)
                } else if i == 0 {
                    -self.pvs(board, depth as i32 - 1, -beta, -alpha, 1)
                } else {
                    let probe = -self.pvs(board, depth as i32 - 1, -alpha - 1, -alpha, 1);
                    if probe > alpha && !self.aborted {
                        failed_high = true;
                        -self.pvs(board, depth as i32 - 1, -beta, -alpha, 1)
                    } else {
                        probe
                    }
                };
                board.undo();
                if self.aborted {
                    // Cut off while searching again a move that beat the
                    // best with a null window: it is better at this depth,
                    // by at least that bound.
                    if failed_high {
                        iteration_best = Some((mv, alpha + 1, vec![mv]));
                    }
                    break;
                }
                if limits.score_root {
                    match root_scores.iter_mut().find(|(m, _)| *m == mv) {
                        Some(entry) => entry.1 = score,
                        None => root_scores.push((mv, score)),
                    }
                }
                if score > alpha {
                    alpha = score;
                    let mut pv = vec![mv];
                    pv.extend(self.pv[1].iter().copied());
                    iteration_best = Some((mv, score, pv));
                }
            }
            // A cut-off iteration's best counts too: its moves were searched
            // to the full depth, the last best (searched first) among them,
            // and another that beat it is better at that depth. Measured
            // (15x15 standard, 0.3 s per move, 240 games) against keeping
            // it only if it also beat the last iteration's score: Elo
            // +24.7 +- 44.2.
            if let Some((mv, score, pv)) = iteration_best {
                best = mv;
                best_score = score;
                best_pv = pv;
                if !self.aborted {
                    reached = depth;
                }
            }
            if self.aborted {
                break;
            }
            let last = depth >= max_depth || best_score.abs() > WIN_BOUND;
            if threaded {
                let published = self.shared.publish(&Found {
                    best,
                    score: best_score,
                    depth,
                    pv: best_pv.clone(),
                    root_scores: root_scores.clone(),
                });
                if last && published {
                    // The answer is found: every thread stops.
                    self.shared.halt.store(true, Ordering::Relaxed);
                }
            }
            if let Some(progress) = progress.as_mut() {
                progress(&Progress {
                    depth,
                    score: best_score,
                    nodes: self.total_nodes(),
                    elapsed: started.elapsed(),
                    pv: best_pv.iter().copied().map(Point::from_index).collect(),
                });
            }
            // The best move first next time.
            if let Some(at) = root_moves.iter().position(|&m| m == best) {
                let mv = root_moves.remove(at);
                root_moves.insert(0, mv);
            }
            if best_score.abs() > WIN_BOUND {
                break;
            }
        }
        Found {
            best,
            score: best_score,
            depth: reached,
            pv: best_pv,
            root_scores,
        }
    }

    fn out_of_time(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes - self.flushed >= CHECK_EVERY {
            self.flush();
            let limits = self.shared.limits;
            let late = limits.deadline.is_some_and(|d| Instant::now() >= d);
            let full = limits
                .nodes
                .is_some_and(|n| self.shared.nodes.load(Ordering::Relaxed) >= n);
            self.aborted = late
                || full
                || self.shared.stop.is_stopped()
                || self.shared.halt.load(Ordering::Relaxed);
        }
        self.aborted
    }

    /// The principal-variation search of a node `depth` plies above the
    /// horizon, with the window `(alpha, beta)`, `ply` plies below the root.
    ///
    /// Tried and not kept: singular extensions, as Rapfi's. From 6 plies
    /// left, when the table's move had failed high (or was exact) at least
    /// `depth - 3` plies deep with a score `s` that is no win or loss, the
    /// node's other moves were searched first to half the depth with the
    /// null window at `s - 4 * depth`; if none reached it, the table's move
    /// was searched a ply deeper, and if one did and that bound was at
    /// least beta, a null-window node failed high at once. The 20 positions
    /// of `scripts/gomoku-profile.sh` at 1 s each reached depths summing to
    /// 189 against 211 (with a margin of `2 * depth`, 174); against Rapfi
    /// capped at 40,000 nodes a move 38-0-131 after 169 games (22.5%,
    /// stopped; the module documentation), and against the build without it
    /// (15x15 standard, 0.2 s per move) 145-17-156 after 318 games, Elo
    /// -12.0 +- 37.3 (stopped). Nor Rapfi's smaller extension of the table's
    /// move at principal-variation nodes, a quarter ply (the quarter-ply
    /// build of [`FREE_FORCED_MOVES`]; `bench --game gomoku` 1,712,944 nodes
    /// against 1,178,253): 49-2-149 (25.0%) against Rapfi capped at 40,000
    /// nodes a move (seed 2), where the build without it scored 59-0-141
    /// (29.5%).
    fn pvs(&mut self, board: &mut Board, depth: i32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        debug_assert!(
            depth >= 0,
            "past the horizon only a four's block is followed, at depth 0"
        );
        self.nodes += 1;
        let ply_index = ply as usize;
        if ply_index < self.pv.len() {
            self.pv[ply_index].clear();
        }
        if self.out_of_time() {
            return 0;
        }
        if board.is_full() {
            return 0;
        }
        // With depth left, the table comes before the moves: a cut spares
        // their generation, with the same answers (a position decided at
        // once is never stored). `bench --game gomoku`: the same 3,084,651
        // nodes, median of 5 runs 12.7 s against 13.6 s. A node at the
        // horizon looks only once it is known to be a quiescence node, so
        // that a leaf costs no probe.
        let key = board.hash();
        let mut tt_move = None;
        if depth > 0 {
            match self.probe(key, depth, alpha, beta, ply) {
                Probe::Cut(score) => return score,
                Probe::Move(mv) => tt_move = mv,
            }
        }
        let order = if depth > 0 { Order::Width } else { Order::None };
        let (moves, eval, has_four) = generate(board, order);
        let (moves, forcing) = match moves {
            Moves::Win(_) => return WIN - ply - 1,
            Moves::OpenFour(_) => return WIN - ply - 3,
            Moves::Lost => return -(WIN - ply - 2),
            Moves::Unlisted => return self.leaf(board, eval, has_four, beta, ply),
            Moves::List(moves, forcing) => (moves, forcing),
        };
        if moves.is_empty() {
            return 0;
        }
        // At the horizon the moves are listed only to block a four (other
        // nodes there were leaves above, [`Moves::Unlisted`]).
        debug_assert!(depth > 0 || forcing == Forced::ByFour);
        let forced = forcing != Forced::No;
        let delays_from = match forcing {
            Forced::ByThree(defending) => defending,
            _ => usize::MAX,
        };
        if depth <= 0 {
            match self.probe(key, depth, alpha, beta, ply) {
                Probe::Cut(score) => return score,
                Probe::Move(mv) => tt_move = mv,
            }
        }
        // A null-window node with nothing forced whose static evaluation is
        // no win or loss: futility and the fail-high reduction may trust it.
        let quiet_null_window = beta - alpha == 1 && !forced && eval.abs() < WIN_BOUND;
        // Futility: such a node whose evaluation beats beta by a margin per
        // ply left is cut at once (before its VCF, which could only fail
        // high too).
        if quiet_null_window && eval - FUTILITY_MARGIN * depth >= beta {
            return eval;
        }
        if has_four && moves.len() > 1 && self.quick_vcf(board, NODE_VCF_NODES) {
            return WIN - ply - 3;
        }
        let mut moves = moves;
        if !forced {
            moves.truncate(WIDTH);
            self.killers_first(&mut moves, ply_index);
        }
        if let Some(tt) = tt_move
            && let Some(at) = moves.iter().position(|&m| m == tt)
        {
            moves.remove(at);
            moves.insert(0, tt);
        }
        // A forced reply, or a choice among a few, costs no depth.
        let next = if moves.len() == 1 || (forced && moves.len() <= FREE_FORCED_MOVES) {
            depth
        } else {
            depth - 1
        };
        let likely_cut = quiet_null_window && eval >= beta + FAIL_HIGH_MARGIN * depth - 9;
        let original_alpha = alpha;
        let mut best = -WIN - 1;
        let mut best_move = moves[0];
        for (i, &mv) in moves.iter().enumerate() {
            // A likely cut searches the moves that make no four a ply
            // shallower ([`FAIL_HIGH_MARGIN`]).
            let next =
                if likely_cut && next > 0 && class_of(board, mv, board.to_move()).0 < Class::Four {
                    next - 1
                } else {
                    next
                };
            board.place(mv);
            let mut score;
            if i == 0 {
                score = -self.pvs(board, next, -beta, -alpha, ply + 1);
            } else {
                // Late moves of a node that is not forced: fewer plies
                // first ([`LMR_SCALE`]).
                let reduce = if next >= 2 && !forced {
                    late_move_reduction(next, i, beta - alpha > 1)
                } else if i >= delays_from {
                    DELAYING_FOUR_REDUCTION.min(next)
                } else {
                    0
                };
                score = -self.pvs(board, next - reduce, -alpha - 1, -alpha, ply + 1);
                if score > alpha && !self.aborted {
                    score = -self.pvs(board, next, -beta, -alpha, ply + 1);
                }
            }
            board.undo();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply_index, mv);
                    if alpha >= beta {
                        if !forced {
                            self.add_killer(ply_index, mv);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(
            key,
            Entry {
                best: best_move as u16,
                score: to_table(best, ply),
                depth: depth.clamp(0, i32::from(u8::MAX)) as u8,
                bound,
            },
        );
        best
    }

    /// What the table says of the position of `key` searched to `depth`
    /// with the window `(alpha, beta)`.
    fn probe(&self, key: u64, depth: i32, alpha: i32, beta: i32, ply: i32) -> Probe {
        let Some(entry) = self.table.probe(key) else {
            return Probe::Move(None);
        };
        let score = from_table(entry.score, ply);
        if i32::from(entry.depth) >= depth {
            let cut = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cut {
                return Probe::Cut(score);
            }
        }
        Probe::Move((entry.best != u16::MAX).then_some(usize::from(entry.best)))
    }

    /// Moves this ply's killers that are in `moves` to the front, newest
    /// first.
    fn killers_first(&self, moves: &mut Vec<usize>, ply: usize) {
        let Some(killers) = self.killers.get(ply) else {
            return;
        };
        for killer in killers.iter().rev().flatten() {
            if let Some(at) = moves.iter().position(|m| m == killer) {
                let mv = moves.remove(at);
                moves.insert(0, mv);
            }
        }
    }

    /// Records `mv` as the newest killer of `ply`.
    fn add_killer(&mut self, ply: usize, mv: usize) {
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None; KILLERS]);
        }
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers.rotate_right(1);
            killers[0] = Some(mv);
        }
    }

    fn update_pv(&mut self, ply: usize, mv: usize) {
        if ply + 1 >= self.pv.len() {
            return;
        }
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend(tail[0].iter().copied());
    }

    /// A leaf: a short VCF when the side to move has fours, else the
    /// static evaluation.
    ///
    /// Stand pat: a leaf whose evaluation already reaches `beta` fails high
    /// without its VCF (a win found would only fail high too), and an inner
    /// node cut by futility skips its VCF the same way. The 20 positions of
    /// `scripts/gomoku-profile.sh` at 300,000 nodes: 11.6 s against 15.1 s,
    /// depths summing to 179 against 174; at 1 s each, 3.84 M nodes against
    /// 3.24 M, depths 197 against 186. Against Rapfi capped at 10,000 nodes
    /// a move (the yardstick of the module documentation): 109-0-91 and
    /// 113-0-87 (seeds 2 and 3) against 110-1-89 and 119-0-81; against the
    /// build without it (15x15 standard, 0.2 s per move, 400 games):
    /// 214-19-167, Elo +41.0 +- 33.6. `bench --game gomoku` 1,147,883
    /// nodes (was 1,184,859). Skipping as well the VCF of any quiet
    /// null-window node whose evaluation reaches beta (not only those
    /// futility cuts) lost depth: 174 against 179 on the positions at
    /// 300,000 nodes (the VCF's win cuts sooner than the moves); not kept.
    ///
    /// A quiescence search, as Rapfi's: at a leaf below beta, the side to
    /// move's fours (those near its last stone below the first), each
    /// followed by the block and the evaluation standing pat after it, the
    /// best kept. The 20 positions of `scripts/gomoku-profile.sh` at 1 s
    /// each reach depths summing to 200 with one four (the VCF still run
    /// first for a win) and 199 with two (no VCF), against 208. Against
    /// Rapfi capped at 40,000 nodes a move (the module documentation):
    /// 52-1-147 (26.2%) and 45-1-154 (22.8%), against 29.1% for the build
    /// without it; not kept. A four blocked seldom raises our evaluation,
    /// so what the extra nodes found was seldom worth their depth.
    ///
    /// Many leaves are won by threats the leaf does not see. Of 52,579
    /// distinct leaves of 20,000-node searches (one in 500 kept, from 8,802
    /// positions of six match files against Rapfi), Rapfi at 10,000 nodes
    /// finds a forced win for the side to move in 28.9% and a forced loss
    /// in 9.0%. In a sample of 1,000 (328 won), the static evaluation of
    /// the won ones is no higher than of the others (median 302 against
    /// 301). A VCF of 1,000 nodes finds 68 of the 328, a VCT of two threats
    /// and 100 nodes 148 (and 1 of the 660 Rapfi scores as undecided), at
    /// about 75 threat-search nodes a leaf, some 45 times the cost of a
    /// search node: too dear for every leaf (below beta, it took the 20
    /// positions of `scripts/gomoku-profile.sh` at 1 s each to depths
    /// summing to 174 against 209). At principal-variation leaves below
    /// beta only (depths 204): 60-0-140 (30.0%) against Rapfi capped at
    /// 40,000 nodes a move, where the build without it scored 54-0-146
    /// (27.0%) in the same session, but against that build (15x15
    /// standard, 0.2 s a move) 105-8-112 after 225 games, Elo -10.8 +-
    /// 44.9 (stopped); not kept. Fitting the evaluation to Rapfi's scores
    /// of these leaves did not help either (see [`crate::gomoku::eval`]).
    /// With the VCT of 53dc7ff (the attacker's fours among its attacking
    /// moves, deepening), 3 attacking moves and 300 nodes at
    /// principal-variation leaves below beta: the 20 positions at 300,000
    /// nodes reached depths summing to 152 against 156 (2 moves and 100
    /// nodes: 153), and against the build without it (15x15 standard,
    /// 0.2 s a move) it stood at 65-7-77 after 149 games, Elo -28.0 +-
    /// 55.1 (stopped); not kept.
    ///
    /// Since four times the time was worth nothing measurable against full
    /// Rapfi (the module documentation), the depth such a VCT costs may not
    /// matter either: at every leaf below beta, 2 attacking moves and 100
    /// nodes (session of 2026-12-02). The 20 positions of
    /// `scripts/gomoku-profile.sh` at 1 s each reached depths summing to 167
    /// against 203, `bench --game gomoku` 1,721,679 nodes, and against full
    /// Rapfi classical at 1 s a move (20x20 freestyle, seed 13) it scored
    /// 9-0-91 (9.0%), where the build without it scored 11-0-89 with the
    /// same seed; not kept.
    fn leaf(&mut self, board: &mut Board, eval: i32, has_four: bool, beta: i32, ply: i32) -> i32 {
        let value = eval.clamp(-WIN_BOUND + 1, WIN_BOUND - 1);
        if value < beta && has_four && self.quick_vcf(board, NODE_VCF_NODES / 2) {
            return WIN - ply - 3;
        }
        value
    }

    /// A VCF of at most `nodes` nodes for the side to move, through a
    /// per-thread cache: a win is a win with any budget, and a failure
    /// answers any budget up to the one it had (all of them if it ran out
    /// of moves, not nodes). Node VCFs place about 90% of a search's stones
    /// (the first of the 8 middle-game positions, depth 7: 1.84 M VCF nodes
    /// in 110 K calls, against about 220 K search nodes; one call in six on
    /// a position already tried), and searching without them scored Elo
    /// -10.1 +- 44.1 (15x15 standard, 0.3 s per move, 240 games): what they
    /// find is worth what they cost. The cache took depth 7 on the 8
    /// positions from 20.40 s to 19.76 s. Without the leaves' VCFs (inner
    /// nodes keep theirs), `bench --game gomoku` took 4,813,731 nodes in
    /// 11.0 s against 5,250,948 in 12.7 s, and scored Elo +13.0 +- 54.0
    /// (82-2-76; 15x15 standard, 0.2 s per move, 160 games): not shown
    /// better, not kept. Without the inner nodes' VCFs it took 6,054,213
    /// nodes in 20.7 s. Since the horizon stopped following an open three's
    /// defences ([`Forced`]), without the leaves' VCFs again:
    /// Elo +28.3 +- 53.9 and -8.7 +- 53.2 in two runs with other openings
    /// (160-9-151 together); not kept. Against Rapfi capped at 10,000 nodes
    /// a move (the yardstick of the module documentation; `bench --game
    /// gomoku` 2,015,289 nodes against 2,086,156): 90-0-110 and 100-0-100
    /// (seeds 2 and 3) against 100-0-100 and 102-0-98; not kept. Node VCFs
    /// take 54% of a real search's time (perf, `gomocup` at 2 s a move on
    /// three balanced-opening positions); since the board changes of the
    /// module documentation made the rest cheaper too, 63% (perf, the 20
    /// positions of `scripts/gomoku-profile.sh` at 1 s each), most of it in
    /// placing stones ([`Board::place_unneared`]: 38%). Without the VCFs of
    /// inner nodes one ply from the horizon (222 K of the 689 K node VCFs
    /// on the profile positions at 300,000 nodes each; the search then
    /// visited 1.54 M nodes in 10.3 s against 1.31 M in 11.1 s), against
    /// Rapfi capped at 10,000 nodes a move: 97-1-102 and 100-0-100 (seeds 2
    /// and 3) against 100-0-100 and 102-0-98; not kept. What they find is
    /// worth about what a quarter more nodes is.
    fn quick_vcf(&mut self, board: &mut Board, nodes: u64) -> bool {
        let key = board.hash();
        let slot = key as usize % VCF_CACHE_ENTRIES;
        let [cached_key, info] = self.vcf_cache[slot];
        if cached_key == key && (info == VCF_WON || info >= nodes) {
            return info == VCF_WON;
        }
        let mut budget = ThreatBudget::new(nodes);
        budget.memo = std::mem::take(&mut self.vcf_memo);
        let mut line = Vec::new();
        let won = vcf(board, NODE_VCF_DEPTH, &mut budget, &mut line);
        self.vcf_memo = std::mem::take(&mut budget.memo);
        let info = if won {
            VCF_WON
        } else if budget.exhausted() {
            nodes
        } else {
            VCF_NONE
        };
        self.vcf_cache[slot] = [key, info];

        self.nodes += budget.visited / 4;
        won
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Facing an open three, the answers list its defences first, then the
    /// side to move's fours that defend nothing, and says where those
    /// begin.
    #[test]
    fn an_open_threes_answers_list_the_defences_then_the_delaying_fours() {
        use crate::gomoku::board::Threats;
        use crate::gomoku::rules::{Config, Rule};
        let config = Config {
            width: 15,
            height: 15,
            n: 5,
            rule: Rule::Standard,
        };
        let Ok(mut board) = Board::new(config) else {
            panic!("a 15x15 board");
        };
        // Black: a three on row 1 that White blocks at its left end (fours
        // at x = 4 and x = 5), and a stone far away; White: an open three
        // on row 7.
        for (x, y) in [
            (1, 1),
            (5, 7),
            (2, 1),
            (6, 7),
            (3, 1),
            (7, 7),
            (12, 12),
            (0, 1),
        ] {
            board.place(Point::new(x, y).index());
        }
        assert_eq!(board.to_move(), Color::Black);
        let (moves, _, has_four) = generate(&mut board, Order::Width);
        let Moves::List(moves, Forced::ByThree(defending)) = moves else {
            panic!("an open three to answer");
        };
        assert!(has_four);
        let threats: Vec<usize> = board.flagged_cells(Color::White, Threats::FLEX4).collect();
        let blocks = defences(&mut board, &threats);
        assert!(defending >= 2, "{moves:?}");
        assert!(moves[..defending].iter().all(|m| blocks.contains(m)));
        let delays = &moves[defending..];
        let fours = [Point::new(4, 1).index(), Point::new(5, 1).index()];
        assert_eq!(delays.len(), 2, "{moves:?}");
        assert!(
            delays
                .iter()
                .all(|m| fours.contains(m) && !blocks.contains(m))
        );
    }

    /// [`move_order`] lists every move of a quiet position, the inner
    /// nodes' [`WIDTH`] first in the same order, and a four's block alone
    /// as forced.
    #[test]
    fn the_move_order_is_the_searchs() {
        use crate::gomoku::rules::{Config, Rule};
        let Ok(mut board) = Board::new(Config {
            width: 15,
            height: 15,
            n: 5,
            rule: Rule::Standard,
        }) else {
            panic!("a 15x15 board");
        };
        for (x, y) in [(7, 7), (8, 8), (6, 8), (8, 6), (9, 7)] {
            board.place(Point::new(x, y).index());
        }
        let Some((all, false)) = move_order(&mut board) else {
            panic!("a quiet position");
        };
        assert_eq!(all.len(), candidates(&board).len());
        let Moves::List(width, Forced::No) = generate(&mut board, Order::Width).0 else {
            panic!("a quiet position");
        };
        assert_eq!(width, all[..WIDTH]);
        // White (to move) has four in a column blocked at the top: Black's
        // one answer is the bottom end.
        for (x, y) in [(2, 2), (12, 3), (2, 3), (12, 5), (2, 4), (12, 7), (2, 5)] {
            board.place(Point::new(x, y).index());
        }
        board.place(Point::new(2, 1).index());
        assert_eq!(board.to_move(), Color::White);
        board.place(Point::new(13, 13).index());
        assert_eq!(
            move_order(&mut board),
            Some((vec![Point::new(2, 6).index()], true))
        );
    }

    /// The search's evaluation is the weights' dot product with the
    /// features the tuner reads, on random positions of every rule.
    #[test]
    fn the_evaluation_is_the_weights_times_the_features() {
        use crate::gomoku::eval::{WEIGHT_SCALE, WEIGHTS};
        use crate::gomoku::rules::{Config, Rule};
        use rand::{Rng, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(7);
        let mut compared = 0;
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
            for _ in 0..40 {
                let config = Config {
                    width: 15,
                    height: 15,
                    n: 5,
                    rule,
                };
                let Ok(mut board) = Board::new(config) else {
                    panic!("a 15x15 board");
                };
                let stones = rng.random_range(1..40);
                for _ in 0..stones {
                    let cells = candidates(&board);
                    let cell = cells[rng.random_range(0..cells.len())];
                    if board.play_index(cell) != crate::gomoku::Status::Ongoing {
                        break;
                    }
                    let (moves, eval, _) = generate(&mut board, Order::None);
                    let Some(features) = eval_features(&mut board) else {
                        assert!(!matches!(moves, Moves::List(ref m, _) if !m.is_empty()));
                        assert!(!matches!(moves, Moves::Unlisted));
                        continue;
                    };
                    let sum: i32 = features
                        .iter()
                        .zip(WEIGHTS)
                        .map(|(&x, w)| x as i32 * w)
                        .sum();
                    assert_eq!(eval, sum.div_euclid(WEIGHT_SCALE), "{}", board.diagram());
                    compared += 1;
                }
            }
        }
        assert!(compared > 1000, "{compared} positions");
    }

    /// The reduction grows with the depth and the move's place, is one ply
    /// less at principal-variation nodes, never touches the first move and
    /// always leaves a ply to search.
    #[test]
    fn late_move_reductions_grow_and_leave_a_ply() {
        for next in 1..40 {
            assert_eq!(late_move_reduction(next, 0, false), 0);
            for index in 1..40 {
                let r = late_move_reduction(next, index, false);
                assert!(r >= 0 && next - r >= 1, "depth {next}, move {index}: {r}");
                assert!(r >= late_move_reduction(next, index - 1, false));
                assert!(r >= late_move_reduction(next - 1, index, false));
                let pv = late_move_reduction(next, index, true);
                assert!(pv <= r && pv >= r - 1);
            }
        }
        // 0.9 * ln 8 * ln 12 = 4.63: five plies less for the 12th move at depth 8.
        assert_eq!(late_move_reduction(8, 11, false), 5);
        assert_eq!(late_move_reduction(2, 1, false), 0);
    }

    #[test]
    fn a_proven_win_beats_a_deeper_iteration() {
        let found = |score, depth| Found {
            best: 0,
            score,
            depth,
            pv: Vec::new(),
            root_scores: Vec::new(),
        };
        assert!(found(10, 6).beats(&found(500, 5)));
        assert!(!found(10, 5).beats(&found(10, 5)));
        assert!(found(WIN - 9, 4).beats(&found(300, 7)));
        assert!(!found(300, 9).beats(&found(WIN - 9, 4)));
        assert!(found(WIN - 9, 6).beats(&found(WIN - 9, 4)));
    }
}
