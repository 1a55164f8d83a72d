//! The transposition table, made for Othello: the full board is the key, so a
//! hit is never a false one. Any number of search threads may probe and
//! store the same [`Table`] at once, through `&Table`.
//!
//! Each entry keeps lower and upper bounds on the score, the depth they hold
//! for (see [`exact_depth`] for exact solves), the selectivity of the search
//! that found them (see [`NO_SELECTIVITY`]), the best move, and the search
//! generation (age) that wrote it. Entries live in buckets of two, chosen by
//! the board's hash; a bucket fills one cache line.
//!
//! # Sharing
//!
//! An entry is three machine words (player, opponent, and the rest packed
//! into one), so a thread could read a mix of two entries written at once.
//! Each bucket has a sequence counter, odd while a writer is at work, that
//! works as a seqlock:
//!
//! - a writer claims the bucket by moving its counter from an even value to
//!   the next odd one, writes, then releases it at the next even value. A
//!   writer that finds the bucket claimed gives up its store rather than
//!   wait: a lost store costs a little search, a wait could cost much more.
//! - a reader reads the counter, the words, then the counter again, and
//!   treats the probe as a miss if the counter was odd or moved in between.
//!
//! So a probe only ever returns words that were stored together, under the
//! board's own full key: no torn entry and no false hit.
//!
//! # Replacement
//!
//! A store for a board already in the bucket updates that entry (see
//! [`Table::store`]). Otherwise it takes the entry of least value, where an
//! entry from an older search is worth less than any from the current one
//! and, within the same age, a shallower entry (for exact results: fewer
//! empties) is worth less; on a tie the first entry goes. Selectivity plays
//! no part in this choice.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering, fence};

use crate::bitboard::BoardSize;
use crate::board::Board;
use crate::search::huge_pages;
use crate::search::params::{SCORE_MAX, SCORE_MIN};
use crate::search::selectivity::Selectivity;

/// Exact endgame results are recorded at this depth plus the number of empty
/// squares: deeper than any midgame depth, so a midgame probe may use them,
/// and ordered by subtree size, so replacement keeps the costly ones.
pub const EXACT_DEPTH_BASE: u8 = 64;

/// The depth recorded for an exact result with `empties` empty squares.
#[inline]
pub const fn exact_depth(empties: u32) -> u8 {
    EXACT_DEPTH_BASE + empties as u8
}

/// Whether a recorded depth belongs to an exact endgame result.
#[inline]
pub const fn is_exact(depth: u8) -> bool {
    depth > EXACT_DEPTH_BASE
}

/// The selectivity of a full-width search, whose result holds without any
/// selective pruning. Lower values index ever more selective searches, 0
/// the most selective; a result is more trustworthy the higher its value.
pub const NO_SELECTIVITY: u8 = 5;

/// `best` of an entry that has no best move.
pub const NO_MOVE: u8 = 255;

/// One stored position, as a value. In the table it is three words: the
/// two halves of the board and the other fields packed into one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    pub player: u64,
    pub opponent: u64,
    pub lower: i8,
    pub upper: i8,
    /// 0 for an empty entry.
    pub depth: u8,
    /// Best move's square index, or [`NO_MOVE`].
    pub best: u8,
    pub age: u8,
    /// See [`NO_SELECTIVITY`].
    pub selectivity: u8,
    /// The table's [`Table::clear`] count when it was written (0 for an
    /// empty entry): an entry of an earlier one is as good as empty.
    epoch: u8,
    _pad: u8,
}

const _: () = assert!(std::mem::size_of::<Entry>() == 24);

impl Entry {
    /// Everything but the board, in one word.
    #[inline]
    fn packed(&self) -> u64 {
        u64::from_le_bytes([
            self.lower as u8,
            self.upper as u8,
            self.depth,
            self.best,
            self.age,
            self.selectivity,
            self.epoch,
            0,
        ])
    }

    /// The entry of `board` whose other fields are `packed`.
    #[inline]
    fn unpack(board: Board, packed: u64) -> Entry {
        let [lower, upper, depth, best, age, selectivity, epoch, _] = packed.to_le_bytes();
        Entry {
            player: board.player,
            opponent: board.opponent,
            lower: lower as i8,
            upper: upper as i8,
            depth,
            best,
            age,
            selectivity,
            epoch,
            _pad: 0,
        }
    }

    #[inline]
    fn holds(&self, board: Board) -> bool {
        self.player == board.player && self.opponent == board.opponent
    }

    /// The entry after storing `new`, a result for the same board, or
    /// `None` if the store changes nothing. See [`Table::store`].
    #[inline]
    fn merge(self, new: Entry) -> Option<Entry> {
        let mut entry = self;
        if new.depth == entry.depth && new.selectivity == entry.selectivity {
            // Same search: tighten the bounds we already have.
            entry.lower = entry.lower.max(new.lower);
            entry.upper = entry.upper.min(new.upper);
            if entry.lower > entry.upper {
                (entry.lower, entry.upper) = (new.lower, new.upper);
            }
        } else if new.supersedes(&entry) || entry.age != new.age {
            (entry.lower, entry.upper) = (new.lower, new.upper);
            (entry.depth, entry.selectivity) = (new.depth, new.selectivity);
        } else if new.depth > entry.depth && new.best != NO_MOVE {
            // Deeper but more selective: its bounds are not comparable with
            // the stored ones, which stay, but its move is the better guess.
            entry.best = new.best;
            return Some(entry);
        } else {
            return None;
        }
        if new.best != NO_MOVE {
            entry.best = new.best;
        }
        entry.age = new.age;
        Some(entry)
    }

    /// Whether this result is worth more than `other`'s for the same board:
    /// deeper and at least as wide, or as deep and wider, or a solve (even
    /// a probable one) where `other` is a midgame search's.
    ///
    /// The last rule: a midgame bound can never settle a solver node, but
    /// it kept a probable solve's bounds out, so that the next step of the
    /// solve ladder searched those nodes again (the presolve's and the
    /// ordering searches' full-width results, and the shallowest results of
    /// every search, which are full width, held their places). FFO #50-52,
    /// one thread: 932.1 M -> 915.0 M nodes alone; with the table's
    /// midgame moves taken only from depth 9 up
    /// ([`SOLVE_TABLE_MOVE_MIN_DEPTH`]), 905.3 M -> 866.8 M.
    ///
    /// [`SOLVE_TABLE_MOVE_MIN_DEPTH`]: crate::search::params::SOLVE_TABLE_MOVE_MIN_DEPTH
    #[inline]
    fn supersedes(&self, other: &Entry) -> bool {
        (is_exact(self.depth) && !is_exact(other.depth))
            || (self.depth > other.depth && self.selectivity >= other.selectivity)
            || (self.depth == other.depth && self.selectivity > other.selectivity)
    }
}

/// What a probe found for a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    pub lower: i32,
    pub upper: i32,
    pub depth: u8,
    /// See [`NO_SELECTIVITY`].
    pub selectivity: u8,
    pub best: u8,
}

impl Hit {
    /// The stored bound that settles a null-window search at `alpha`: a
    /// lower bound above it (fail high) or an upper bound at or below it
    /// (fail low). The caller checks the depth (and selectivity) first.
    #[inline]
    pub fn cutoff(&self, alpha: i32) -> Option<i32> {
        if self.lower > alpha {
            Some(self.lower)
        } else if self.upper <= alpha {
            Some(self.upper)
        } else {
            None
        }
    }
}

/// A search result to store: `score` of a search to `depth` at
/// `selectivity` with window (`alpha`, `beta`), and its best move (or
/// [`NO_MOVE`]). The score is exact inside the window, an upper bound at or
/// below `alpha` and a lower bound at or above `beta`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    pub depth: u8,
    pub selectivity: u8,
    pub alpha: i32,
    pub beta: i32,
    pub score: i32,
    pub best: u8,
}

impl Record {
    /// The (lower, upper) bounds the record proves.
    #[inline]
    fn bounds(&self) -> (i32, i32) {
        if self.score <= self.alpha {
            (SCORE_MIN, self.score)
        } else if self.score >= self.beta {
            (self.score, SCORE_MAX)
        } else {
            (self.score, self.score)
        }
    }
}

/// One entry's storage.
#[derive(Default)]
struct Slot {
    player: AtomicU64,
    opponent: AtomicU64,
    /// The other fields of the entry (`Entry::packed`).
    packed: AtomicU64,
}

/// Two slots and their seqlock counter (odd while a writer holds it), in
/// one cache line.
#[derive(Default)]
#[repr(C, align(64))]
struct Bucket {
    seq: AtomicU64,
    slots: [Slot; BUCKET],
}

const BUCKET: usize = 2;

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

impl Slot {
    /// The stored entry, read without synchronisation (the caller holds the
    /// bucket or validates the read by its counter).
    #[inline]
    fn load(&self) -> Entry {
        let board = Board {
            player: self.player.load(Ordering::Relaxed),
            opponent: self.opponent.load(Ordering::Relaxed),
        };
        Entry::unpack(board, self.packed.load(Ordering::Relaxed))
    }

    /// Writes `entry`; the caller holds the bucket.
    #[inline]
    fn save(&self, entry: &Entry) {
        self.player.store(entry.player, Ordering::Relaxed);
        self.opponent.store(entry.opponent, Ordering::Relaxed);
        self.packed.store(entry.packed(), Ordering::Relaxed);
    }
}

/// The table. Its size is fixed at creation, in MiB.
pub struct Table {
    buckets: Vec<Bucket>,
    /// Number of buckets minus one (a power of two minus one).
    bucket_mask: usize,
    /// Generation of the current search, never 0 (the age of empty entries).
    age: AtomicU8,
    /// Entries written since the last [`Table::clear`] carry it, never 0.
    epoch: u8,
}

impl Table {
    /// A table of at most `mib` MiB (at least 1 MiB is asked for): the
    /// largest power-of-two number of buckets that fits. If the memory is
    /// not to be had, the table is halved until it is, with a warning. The
    /// buckets are asked to live on huge pages (see `search/huge_pages.rs`):
    /// FFO #45-49, one thread, side by side with the build before, about
    /// 8% faster (medians of 3: 44.9 s -> 41.4 s, with the changes of the
    /// same commit).
    pub fn new(mib: usize) -> Table {
        let wanted = bucket_count(mib);
        let mut buckets = wanted;
        let mut storage = Vec::new();
        while buckets > 1 && storage.try_reserve_exact(buckets).is_err() {
            buckets /= 2;
        }
        if buckets < wanted {
            log::warn!(
                "transposition table: {mib} MiB unavailable, using {} KiB",
                (buckets * std::mem::size_of::<Bucket>()) >> 10
            );
        }
        Table::with_storage(storage, buckets)
    }

    /// A table of `buckets` buckets (a power of two), in `storage`.
    fn with_storage(mut storage: Vec<Bucket>, buckets: usize) -> Table {
        debug_assert!(buckets.is_power_of_two());
        storage.reserve_exact(buckets);
        huge_pages::advise(
            storage.as_ptr().cast(),
            storage.capacity() * std::mem::size_of::<Bucket>(),
        );
        storage.resize_with(buckets, Bucket::default);
        Table {
            buckets: storage,
            bucket_mask: buckets - 1,
            age: AtomicU8::new(1),
            epoch: 1,
        }
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Forgets everything.
    ///
    /// Most clears only move to a new epoch, which turns every entry
    /// written before into an empty one (as the table reads it);
    /// the memory is wiped once in 255, before an epoch would come back.
    /// The table then answers exactly as if wiped, so each search after a
    /// clear stays reproducible, without writing the whole table each time.
    /// A 64 MiB wipe took about 2.9 ms: `oxello solve` of 1000 positions of
    /// 15 empties, one thread, took 5.68 s with a wipe before each, 2.74 s
    /// with this (wall time, the same nodes).
    pub fn clear(&mut self) {
        if self.epoch == u8::MAX {
            self.buckets.fill_with(Bucket::default);
            self.epoch = 1;
        } else {
            self.epoch += 1;
        }
        *self.age.get_mut() = 1;
    }

    /// `entry` as the table holds it: empty if written before the last
    /// clear.
    #[inline]
    fn current(&self, entry: Entry) -> Entry {
        if entry.epoch == self.epoch {
            entry
        } else {
            Entry::default()
        }
    }

    /// Starts a new search: entries of older searches become cheap to replace.
    pub fn new_search(&self) {
        let next = |age: u8| Some(age.wrapping_add(1).max(1));
        // The closure never fails, so neither does the update.
        let _ = self
            .age
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, next);
    }

    #[inline]
    fn bucket(&self, board: Board) -> &Bucket {
        &self.buckets[(board.hash64() as usize) & self.bucket_mask]
    }

    /// Starts loading `board`'s bucket into the cache, for a probe soon
    /// after (a hint: it reads nothing and changes nothing).
    #[inline]
    pub fn prefetch(&self, board: Board) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket: *const Bucket = self.bucket(board);
            // SAFETY: a prefetch only hints the cache: it never faults, and
            // the address is that of a bucket of the table anyway.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    bucket.cast(),
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = board;
    }

    /// The stored bounds for `board`, if present. A probe that meets a
    /// store in progress in the same bucket misses.
    #[inline]
    pub fn probe(&self, board: Board) -> Option<Hit> {
        let bucket = self.bucket(board);
        let seq = bucket.seq.load(Ordering::Acquire);
        if seq & 1 != 0 {
            return None;
        }
        let entry = bucket.slots.iter().find_map(|slot| {
            if slot.player.load(Ordering::Relaxed) != board.player
                || slot.opponent.load(Ordering::Relaxed) != board.opponent
            {
                return None;
            }
            let entry = Entry::unpack(board, slot.packed.load(Ordering::Relaxed));
            // An entry from before the last clear is not there.
            (entry.epoch == self.epoch).then_some(entry)
        })?;
        // Orders the loads above before the check below: if any of them saw
        // a concurrent store, the counter has moved.
        fence(Ordering::Acquire);
        if bucket.seq.load(Ordering::Relaxed) != seq {
            return None;
        }
        (entry.depth > 0).then_some(Hit {
            lower: entry.lower as i32,
            upper: entry.upper as i32,
            depth: entry.depth,
            selectivity: entry.selectivity,
            best: entry.best,
        })
    }

    /// Records `record` for `board`, unless another thread is storing into
    /// the same bucket (then the record is dropped).
    ///
    /// If the board is already stored, with the same depth and selectivity,
    /// the bounds are tightened (or replaced if they would cross). Otherwise
    /// the record replaces the stored result if it is deeper at the same or
    /// a higher selectivity, as deep and less selective, a solve where the
    /// stored result is a midgame search's (whatever their selectivities),
    /// or if the stored entry is from an older search. Else the stored
    /// bounds stay; the record's best move is kept if the record is deeper. A replaced or
    /// tightened entry takes the record's best move unless that is
    /// [`NO_MOVE`], and the current age.
    #[inline]
    pub fn store(&self, board: Board, record: Record) {
        let (lower, upper) = record.bounds();
        let new = Entry {
            player: board.player,
            opponent: board.opponent,
            lower: lower as i8,
            upper: upper as i8,
            depth: record.depth,
            best: record.best,
            age: self.age.load(Ordering::Relaxed),
            selectivity: record.selectivity,
            epoch: self.epoch,
            _pad: 0,
        };
        let bucket = self.bucket(board);
        let seq = bucket.seq.load(Ordering::Relaxed);
        if seq & 1 != 0
            || bucket
                .seq
                .compare_exchange(seq, seq + 1, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        // Keeps the stores below after the claim, for readers that see them.
        fence(Ordering::Release);
        let entries = [bucket.slots[0].load(), bucket.slots[1].load()].map(|e| self.current(e));
        if let Some(i) = entries.iter().position(|e| e.holds(board)) {
            if let Some(merged) = entries[i].merge(new) {
                bucket.slots[i]
                    .packed
                    .store(merged.packed(), Ordering::Relaxed);
            }
        } else {
            let value = |e: &Entry| (e.age == new.age) as u32 * 256 + e.depth as u32;
            let victim = if value(&entries[0]) <= value(&entries[1]) {
                0
            } else {
                1
            };
            bucket.slots[victim].save(&new);
        }
        bucket.seq.store(seq + 2, Ordering::Release);
    }
}

/// A saved entry: the words of a slot (player, opponent, the rest packed),
/// what [`Table::snapshot_each`] gives and [`Table::restore_one`] takes.
pub type SavedEntry = [u64; 3];

/// What the numbers of an entry mean, as one number: the depth of exact
/// results, the selectivity of a full-width search, the percentages of the
/// selectivity indices and the score range. A saved table is read back
/// only by a build whose entries mean the same (`search/checkpoint.rs`):
/// an entry of 99% read as 100% would be taken for a proof.
pub const ENTRY_MEANING: u32 = {
    let mut bytes = [0u8; 16];
    bytes[0] = EXACT_DEPTH_BASE;
    bytes[1] = NO_SELECTIVITY;
    bytes[2] = SCORE_MIN as i8 as u8;
    bytes[3] = SCORE_MAX as u8;
    let mut i = 0;
    while i <= NO_SELECTIVITY as usize {
        bytes[4 + i] = Selectivity::from_index(i as u8).percent() as u8;
        i += 1;
    }
    crate::fitted::checksum(&bytes)
};

const _: () = assert!(NO_SELECTIVITY == Selectivity::NONE.index());

impl Table {
    /// Calls `save` with every entry written since the last
    /// [`Table::clear`], each read whole: a bucket that a writer holds or
    /// changes while it is read is read again, up to a few times, then
    /// skipped. Search threads may go on storing meanwhile; each saved
    /// entry is a result as true as when it was stored, whatever the
    /// others. Age and epoch are left out (a restore sets its own).
    pub fn snapshot_each(&self, mut save: impl FnMut(SavedEntry)) {
        for bucket in &self.buckets {
            for _ in 0..4 {
                let seq = bucket.seq.load(Ordering::Acquire);
                if seq & 1 != 0 {
                    std::hint::spin_loop();
                    continue;
                }
                let entries = [bucket.slots[0].load(), bucket.slots[1].load()];
                fence(Ordering::Acquire);
                if bucket.seq.load(Ordering::Relaxed) != seq {
                    continue;
                }
                for entry in entries {
                    if entry.epoch == self.epoch && entry.depth > 0 {
                        let bare = Entry {
                            age: 0,
                            epoch: 0,
                            ..entry
                        };
                        save([entry.player, entry.opponent, bare.packed()]);
                    }
                }
                break;
            }
        }
    }

    /// Every entry [`Table::snapshot_each`] gives, in a vector.
    pub fn snapshot(&self) -> Vec<SavedEntry> {
        let mut saved = Vec::new();
        self.snapshot_each(|entry| saved.push(entry));
        saved
    }

    /// Stores `saved` (an entry of a [`Table::snapshot_each`] of a table of
    /// any size, for boards of `size`) as a result of the next search, so
    /// that that search replaces it no sooner than its own. Where a bucket
    /// is full, the deeper entry stays. Returns whether it was stored: an
    /// entry that no search could have written (discs off the board or on
    /// one square, bounds out of range or crossed, an exact depth that is
    /// not its empties', a selectivity or move out of range) is refused.
    /// Call [`Table::clear`] first to start from nothing.
    pub fn restore_one(&mut self, saved: SavedEntry, size: BoardSize) -> bool {
        let [player, opponent, packed] = saved;
        let board = Board { player, opponent };
        let mut entry = Entry::unpack(board, packed);
        let empties = (size.mask() & !(player | opponent)).count_ones();
        let possible = player & opponent == 0
            && (player | opponent) & !size.mask() == 0
            && entry.depth > 0
            && (!is_exact(entry.depth) || entry.depth == exact_depth(empties))
            && entry.selectivity <= NO_SELECTIVITY
            && i32::from(entry.lower) >= SCORE_MIN
            && entry.lower <= entry.upper
            && i32::from(entry.upper) <= SCORE_MAX
            && (entry.best == NO_MOVE || (entry.best < 64 && size.mask() >> entry.best & 1 != 0));
        if !possible {
            return false;
        }
        entry.age = self.age.get_mut().wrapping_add(1).max(1);
        entry.epoch = self.epoch;
        let bucket = &self.buckets[(board.hash64() as usize) & self.bucket_mask];
        let stored = bucket
            .slots
            .each_ref()
            .map(|slot| self.current(slot.load()));
        let (slot, replaces) = match stored.iter().position(|e| e.holds(board)) {
            Some(same) => (same, stored[same].depth <= entry.depth),
            None => {
                let shallower = usize::from(stored[1].depth < stored[0].depth);
                (shallower, stored[shallower].depth < entry.depth)
            }
        };
        if replaces {
            bucket.slots[slot].save(&entry);
        }
        replaces
    }

    /// Forgets everything, then restores every entry of `saved`; returns
    /// how many the table holds.
    pub fn restore(&mut self, saved: &[SavedEntry], size: BoardSize) -> usize {
        self.clear();
        for &entry in saved {
            self.restore_one(entry, size);
        }
        self.count_entries()
    }

    /// Number of entries written since the last [`Table::clear`].
    pub fn count_entries(&self) -> usize {
        let mut count = 0;
        self.snapshot_each(|_| count += 1);
        count
    }
}

/// The number of buckets of a table of at most `mib` MiB (at least 1 MiB):
/// a power of two, at least one.
fn bucket_count(mib: usize) -> usize {
    let bytes = mib.max(1).saturating_mul(1 << 20);
    let wanted = (bytes / std::mem::size_of::<Bucket>()).max(1);
    1 << wanted.ilog2()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::BoardSize;
    use std::sync::atomic::AtomicUsize;

    fn record(depth: u8, alpha: i32, beta: i32, score: i32, best: u8) -> Record {
        Record {
            depth,
            selectivity: NO_SELECTIVITY,
            alpha,
            beta,
            score,
            best,
        }
    }

    fn hit(lower: i32, upper: i32, depth: u8, selectivity: u8, best: u8) -> Option<Hit> {
        Some(Hit {
            lower,
            upper,
            depth,
            selectivity,
            best,
        })
    }

    #[test]
    fn stores_and_tightens_bounds() {
        let mut table = Table::new(1);
        assert!(table.bytes() <= 1 << 20);
        let board = Board::start(BoardSize::Eight);
        assert_eq!(table.probe(board), None);
        table.store(board, record(5, 0, 10, 20, 3));
        assert_eq!(table.probe(board), hit(20, 64, 5, NO_SELECTIVITY, 3));
        // 25 fails low in (30, 40): an upper bound that tightens the entry.
        table.store(board, record(5, 30, 40, 25, NO_MOVE));
        assert_eq!(table.probe(board), hit(20, 25, 5, NO_SELECTIVITY, 3));
        // Bounds that cross the stored ones replace them.
        table.store(board, record(5, 30, 40, 35, 6));
        assert_eq!(table.probe(board), hit(35, 35, 5, NO_SELECTIVITY, 6));
        table.store(board, record(7, -64, 64, 2, 4));
        assert_eq!(table.probe(board), hit(2, 2, 7, NO_SELECTIVITY, 4));
        // A shallower result of the same search does not overwrite a deeper one.
        table.store(board, record(3, -64, 64, 9, 5));
        assert_eq!(table.probe(board), hit(2, 2, 7, NO_SELECTIVITY, 4));
        // ... but one of a later search does.
        table.new_search();
        table.store(board, record(3, -64, 64, 9, 5));
        assert_eq!(table.probe(board), hit(9, 9, 3, NO_SELECTIVITY, 5));
        table.clear();
        assert_eq!(table.probe(board), None);
    }

    /// A table cleared any number of times (past the epoch's wrap, where
    /// the memory is wiped) answers as a new one: no entry of before, and
    /// the same choice of slot for a store.
    #[test]
    fn a_cleared_table_answers_as_a_new_one() {
        let boards: Vec<Board> =
            crate::eval::test_support::random_game_boards(BoardSize::Eight, 40, 3)
                .into_iter()
                .take(40)
                .collect();
        let mut table = Table::with_storage(Vec::new(), 4);
        for round in 0..600u32 {
            let fresh = Table::with_storage(Vec::new(), 4);
            for (i, &board) in boards.iter().enumerate().skip(round as usize % 7) {
                let depth = 1 + ((i as u32 + round) % 30) as u8;
                let score = (i as i32 + round as i32) % 41 - 20;
                for t in [&table, &fresh] {
                    t.store(board, record(depth, -64, 64, score, i as u8));
                }
            }
            for &board in &boards {
                assert_eq!(table.probe(board), fresh.probe(board), "round {round}");
            }
            table.clear();
            for &board in &boards {
                assert_eq!(table.probe(board), None, "round {round}");
            }
        }
    }

    #[test]
    fn selectivity_decides_between_results_of_one_depth() {
        let table = Table::new(1);
        let board = Board::start(BoardSize::Eight);
        let at = |depth, selectivity, score, best| Record {
            depth,
            selectivity,
            alpha: -64,
            beta: 64,
            score,
            best,
        };
        table.store(board, at(10, 2, 4, 19));
        assert_eq!(table.probe(board), hit(4, 4, 10, 2, 19));
        // As deep, more selective: dropped.
        table.store(board, at(10, 1, 6, 20));
        assert_eq!(table.probe(board), hit(4, 4, 10, 2, 19));
        // Shallower, less selective: dropped.
        table.store(board, at(9, NO_SELECTIVITY, 6, 20));
        assert_eq!(table.probe(board), hit(4, 4, 10, 2, 19));
        // As deep, less selective: replaces.
        table.store(board, at(10, 3, 8, 26));
        assert_eq!(table.probe(board), hit(8, 8, 10, 3, 26));
        // Deeper, as selective: replaces.
        table.store(board, at(12, 3, -2, 37));
        assert_eq!(table.probe(board), hit(-2, -2, 12, 3, 37));
        // Deeper, more selective: the bounds stay, the move is taken.
        table.store(board, at(14, 0, 30, 44));
        assert_eq!(table.probe(board), hit(-2, -2, 12, 3, 44));
        // Deeper, less selective: replaces.
        table.store(board, at(13, NO_SELECTIVITY, 0, 45));
        assert_eq!(table.probe(board), hit(0, 0, 13, NO_SELECTIVITY, 45));
        // A solve, even a probable one, replaces a midgame result, however
        // wide; a midgame result never replaces a solve.
        let solve = exact_depth(20);
        table.store(board, at(solve, 0, 12, 50));
        assert_eq!(table.probe(board), hit(12, 12, solve, 0, 50));
        table.store(board, at(30, NO_SELECTIVITY, 2, 51));
        assert_eq!(table.probe(board), hit(12, 12, solve, 0, 50));
        // Any result of a later search replaces.
        table.new_search();
        table.store(board, at(2, 0, 1, 10));
        assert_eq!(table.probe(board), hit(1, 1, 2, 0, 10));
    }

    /// A snapshot restored into a table of another size answers every
    /// probe as the table it was taken from; where a bucket is too small,
    /// the deepest entries stay; the restored entries are the next
    /// search's own.
    #[test]
    fn a_restored_snapshot_answers_as_the_table_it_was_taken_from() {
        let boards: Vec<Board> =
            crate::eval::test_support::random_game_boards(BoardSize::Eight, 20, 9);
        let table = Table::new(1);
        table.store(boards[0], record(3, -64, 64, 7, 1));
        table.new_search();
        for (i, &board) in boards.iter().enumerate().skip(1) {
            table.store(
                board,
                record(1 + (i % 40) as u8, -64, 64, i as i32 % 60, (i % 64) as u8),
            );
        }
        let saved = table.snapshot();
        assert!(saved.len() > boards.len() * 9 / 10, "{}", saved.len());
        let mut large = Table::new(4);
        large.store(boards[1], record(60, -64, 64, 0, 0));
        large.restore(&saved, BoardSize::Eight);
        for &board in &boards {
            assert_eq!(large.probe(board), table.probe(board));
        }
        // One bucket: only the two deepest stay.
        let mut one = Table::with_storage(Vec::new(), 1);
        one.restore(&saved, BoardSize::Eight);
        let mut depths: Vec<u8> = saved.iter().map(|e| e[2].to_le_bytes()[2]).collect();
        depths.sort_unstable();
        let kept: Vec<u8> = boards
            .iter()
            .filter_map(|&b| one.probe(b).map(|hit| hit.depth))
            .collect();
        assert_eq!(kept.len(), 2);
        assert!(kept.iter().all(|&d| d >= depths[depths.len() - 2]));
        // They count as the next search's: a shallower entry of that search
        // goes before the restored one.
        let deep = [saved
            .iter()
            .max_by_key(|e| e[2].to_le_bytes()[2])
            .copied()
            .unwrap()];
        one.restore(&deep, BoardSize::Eight);
        one.new_search();
        let (a, b) = (Board::new(1, 2), Board::new(4, 8));
        one.store(a, record(5, -64, 64, 0, 0));
        one.store(b, record(3, -64, 64, 0, 0));
        assert!(
            one.probe(Board {
                player: deep[0][0],
                opponent: deep[0][1]
            })
            .is_some()
        );
        assert!(one.probe(a).is_none() && one.probe(b).is_some());
        // Entries no search could have written are refused.
        let good = saved[0];
        let [player, opponent, packed] = good;
        let with = |f: &dyn Fn(&mut Entry)| {
            let mut entry = Entry::unpack(Board { player, opponent }, packed);
            f(&mut entry);
            [player, opponent, entry.packed()]
        };
        let empties = 64 - (player | opponent).count_ones();
        let six = BoardSize::Six;
        for (bad, size) in [
            ([3, 1, packed], BoardSize::Eight),
            (good, six),
            (with(&|e| e.depth = 0), BoardSize::Eight),
            (with(&|e| (e.lower, e.upper) = (5, 4)), BoardSize::Eight),
            (with(&|e| e.upper = 65), BoardSize::Eight),
            (
                with(&|e| e.selectivity = NO_SELECTIVITY + 1),
                BoardSize::Eight,
            ),
            (with(&|e| e.best = 64), BoardSize::Eight),
            (
                with(&|e| e.depth = exact_depth(empties + 1)),
                BoardSize::Eight,
            ),
        ] {
            let mut table = Table::new(1);
            assert!(!table.restore_one(bad, size), "{bad:?}");
            assert_eq!(table.count_entries(), 0);
        }
        let mut table = Table::new(1);
        assert!(table.restore_one(with(&|e| e.depth = exact_depth(empties)), BoardSize::Eight));
    }

    /// A snapshot taken while threads store gives only whole entries:
    /// each as one store wrote it.
    #[test]
    fn a_snapshot_beside_storing_threads_holds_only_whole_entries() {
        let table = Table::with_storage(Vec::new(), 64);
        let stop = std::sync::atomic::AtomicBool::new(false);
        // Every field follows from the board: a torn entry would not.
        let record_of = |i: u64| {
            let board = Board::new(i << 20 | 1, i << 40 | 2);
            let depth = 1 + (i % 50) as u8;
            (
                board,
                record(depth, -64, 64, (i % 100) as i32 - 50, (i % 64) as u8),
            )
        };
        let consistent = |[player, opponent, packed]: SavedEntry| {
            let i = player >> 20;
            let (board, rec) = record_of(i);
            let entry = Entry::unpack(board, packed);
            board.player == player
                && board.opponent == opponent
                && entry.depth == rec.depth
                && i32::from(entry.lower) == rec.score
                && entry.best == rec.best
        };
        let mut checked = 0;
        std::thread::scope(|scope| {
            for t in 0..2u64 {
                let (table, stop) = (&table, &stop);
                scope.spawn(move || {
                    let mut i = t;
                    while !stop.load(Ordering::Relaxed) {
                        let (board, rec) = record_of(1 + i % 5000);
                        table.store(board, rec);
                        i += 2;
                    }
                });
            }
            // Until both threads are storing (on a busy machine they may
            // start late), then for 200 snapshots.
            while table.count_entries() < 64 {
                std::thread::yield_now();
            }
            for _ in 0..200 {
                let saved = table.snapshot();
                assert!(saved.iter().all(|&e| consistent(e)));
                checked += saved.len();
            }
            stop.store(true, Ordering::Relaxed);
        });
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn replaces_old_then_shallow_entries_of_other_boards() {
        // One bucket: every board competes for its two entries.
        let table = Table::with_storage(Vec::new(), 1);
        let boards = [1u64, 2, 3, 4].map(|i| Board::new(i, i << 8));
        table.store(boards[0], record(6, -64, 64, 1, 1));
        table.store(boards[1], record(4, -64, 64, 2, 2));
        // The shallower entry goes.
        table.store(boards[2], record(8, -64, 64, 3, 3));
        assert!(table.probe(boards[0]).is_some());
        assert!(table.probe(boards[1]).is_none());
        assert!(table.probe(boards[2]).is_some());
        // An older entry goes before any of the current search, however deep.
        table.new_search();
        table.store(boards[0], record(1, -64, 64, 1, 1));
        table.store(boards[3], record(1, -64, 64, 4, 4));
        assert!(table.probe(boards[0]).is_some());
        assert!(table.probe(boards[2]).is_none());
        assert_eq!(table.probe(boards[3]), hit(4, 4, 1, NO_SELECTIVITY, 4));
    }

    #[test]
    fn probes_never_return_another_boards_data() {
        let table = Table::with_storage(Vec::new(), 1);
        let a = Board::new(0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        let b = Board::new(a.opponent, a.player);
        let c = Board::new(a.player, a.opponent | 1);
        table.store(a, record(3, -64, 64, 7, 12));
        assert_eq!(table.probe(b), None);
        assert_eq!(table.probe(c), None);
        table.store(b, record(4, -64, 64, -7, 13));
        assert_eq!(table.probe(a), hit(7, 7, 3, NO_SELECTIVITY, 12));
        assert_eq!(table.probe(b), hit(-7, -7, 4, NO_SELECTIVITY, 13));
        assert_eq!(table.probe(c), None);
        // The empty board matches the zeroed entries of an empty table.
        assert_eq!(Table::new(1).probe(Board::new(0, 0)), None);
    }

    /// Whether the kernel's huge-page policy lets a program ask for them
    /// (`always` or `madvise`).
    fn huge_pages_available() -> bool {
        std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled")
            .is_ok_and(|policy| policy.contains("[always]") || policy.contains("[madvise]"))
    }

    /// The value of `field` (such as `VmFlags:`) in the `/proc/self/smaps`
    /// entry of the mapping of this process holding `address`.
    fn smaps_field_at(address: usize, field: &str) -> Option<String> {
        let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
        let mut inside = false;
        for line in smaps.lines() {
            let first = line.split_whitespace().next().unwrap_or_default();
            if let Some((start, end)) = first.split_once('-')
                && let (Ok(start), Ok(end)) = (
                    usize::from_str_radix(start, 16),
                    usize::from_str_radix(end, 16),
                )
            {
                inside = (start..end).contains(&address);
            } else if inside && let Some(value) = line.strip_prefix(field) {
                return Some(value.trim().to_string());
            }
        }
        None
    }

    #[test]
    fn a_large_table_asks_for_huge_pages_where_the_kernel_allows() {
        if !cfg!(target_os = "linux") || !huge_pages_available() {
            eprintln!("skipped: no transparent huge pages on this machine");
            return;
        }
        let table = Table::new(16);
        let middle = table.buckets.as_ptr() as usize + table.bytes() / 2;
        // The mapping is marked for huge pages (`hg`). Whether the kernel
        // found free ones at that moment depends on how fragmented its
        // memory is (this test failed with 0 KiB on huge pages while other
        // suites ran, after hours of solves), so only the request is
        // tested, and what was granted is printed.
        let flags = smaps_field_at(middle, "VmFlags:").expect("the table's mapping");
        assert!(
            flags.split_whitespace().any(|flag| flag == "hg"),
            "VmFlags: {flags}"
        );
        eprintln!(
            "on huge pages: {}",
            smaps_field_at(middle, "AnonHugePages:").unwrap_or_default()
        );
        // And it is an ordinary table.
        let board = Board::start(BoardSize::Eight);
        table.store(board, record(7, -3, 3, 1, 19));
        assert_eq!(table.probe(board).map(|hit| hit.best), Some(19));
    }

    #[test]
    fn advising_any_region_is_harmless() {
        let bytes = vec![7u8; 3 << 20];
        for (offset, len) in [
            (0, 0),
            (1, 10),
            (4095, 4097),
            (0, 3 << 20),
            (5, (3 << 20) - 5),
        ] {
            huge_pages::advise(bytes[offset..].as_ptr(), len);
        }
        assert!(bytes.iter().all(|&b| b == 7));
    }

    #[test]
    fn sizes_are_powers_of_two_within_the_request() {
        for mib in [0, 1, 3, 64, 100] {
            let buckets = bucket_count(mib);
            assert!(buckets.is_power_of_two());
            assert!(buckets * 64 <= mib.max(1) << 20);
            assert!(buckets * 128 > mib.max(1) << 20);
        }
        assert!(bucket_count(usize::MAX).is_power_of_two());
        assert_eq!(Table::new(64).bytes(), 64 << 20);
    }

    #[test]
    fn table_is_shared_between_threads() {
        fn shareable<T: Send + Sync>() {}
        shareable::<Table>();
    }

    /// The record of `board` in the stress test: every field follows from
    /// the board.
    fn record_of(board: Board) -> Record {
        let h = board.hash64();
        let score = (h % 129) as i32 - 64;
        let (alpha, beta) = match (h >> 8) % 3 {
            0 => (score - 1, score + 1),
            1 => (score, score + 1),
            _ => (score - 1, score),
        };
        Record {
            depth: 1 + ((h >> 16) % 90) as u8,
            selectivity: ((h >> 24) % (NO_SELECTIVITY as u64 + 1)) as u8,
            alpha,
            beta,
            score,
            best: ((h >> 32) % 64) as u8,
        }
    }

    fn hit_of(board: Board) -> Hit {
        let r = record_of(board);
        let (lower, upper) = r.bounds();
        Hit {
            lower,
            upper,
            depth: r.depth,
            selectivity: r.selectivity,
            best: r.best,
        }
    }

    /// Threads hammer a tiny table: every hit must be exactly its own
    /// board's record, never a mix of two and never another board's.
    #[test]
    fn concurrent_stores_never_tear() {
        const THREADS: u64 = 4;
        const ROUNDS: usize = 200_000;
        for buckets in [1, 4] {
            let table = Table::with_storage(Vec::new(), buckets);
            let hits = AtomicUsize::new(0);
            std::thread::scope(|scope| {
                for t in 0..THREADS {
                    let (table, hits) = (&table, &hits);
                    scope.spawn(move || {
                        let mut x = 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(t + 1);
                        let mut local = 0;
                        for round in 0..ROUNDS {
                            x ^= x << 13;
                            x ^= x >> 7;
                            x ^= x << 17;
                            // 64 boards to store, 64 others never stored.
                            let i = x % 128;
                            let board = Board::new(i | 1 << 40, (i + 7) << 48);
                            if i < 64 && x >> 60 < 6 {
                                table.store(board, record_of(board));
                            } else if let Some(hit) = table.probe(board) {
                                assert!(i < 64, "hit on a board never stored: {board:?}");
                                assert_eq!(hit, hit_of(board), "{board:?}");
                                local += 1;
                            }
                            if t == 0 && round % 10_000 == 0 {
                                table.new_search();
                            }
                        }
                        hits.fetch_add(local, Ordering::Relaxed);
                    });
                }
            });
            assert!(hits.into_inner() > 0);
        }
    }
}
