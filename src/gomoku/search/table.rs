//! The gomoku search's transposition table: one 16-byte slot per
//! position, shared by the search's threads through `&self` (lock-free,
//! each slot checked by its key XOR its entry). Win scores are stored
//! relative to the node ([`super::score::to_table`]).

use std::sync::atomic::{AtomicU64, Ordering};

/// How a stored score bounds the position's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    Exact,
    Lower,
    Upper,
}

impl Bound {
    /// The bound's code in a packed entry (0 marks an empty slot).
    fn code(self) -> u64 {
        match self {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        }
    }

    fn from_code(code: u64) -> Option<Bound> {
        match code {
            1 => Some(Bound::Exact),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Upper),
            _ => None,
        }
    }
}

/// What the table keeps of a searched position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub(crate) best: u16,
    pub(crate) score: i32,
    pub(crate) depth: u8,
    pub(crate) bound: Bound,
}

impl Entry {
    /// The entry in one word: best move (bits 0-15), depth (16-23), bound
    /// (24-31), score (32-63).
    fn pack(self) -> u64 {
        u64::from(self.best)
            | u64::from(self.depth) << 16
            | self.bound.code() << 24
            | u64::from(self.score as u32) << 32
    }

    fn unpack(word: u64) -> Option<Entry> {
        Some(Entry {
            best: word as u16,
            depth: (word >> 16) as u8,
            bound: Bound::from_code((word >> 24) & 0xff)?,
            score: (word >> 32) as u32 as i32,
        })
    }
}

/// One slot: the packed entry, and the key XOR the entry. A slot two
/// threads wrote at once holds one's entry and the other's check, which
/// fails the check: a torn slot reads as empty, never as a false hit.
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const _: () = assert!(std::mem::size_of::<Slot>() == 16);

/// The transposition table, shared by the threads of a search through
/// `&self`: one entry per slot, replaced when the new entry is at least as
/// deep, exact, or from another position.
pub struct Table {
    slots: Vec<Slot>,
}

impl Table {
    pub fn new(mib: usize) -> Table {
        Table {
            slots: (0..Table::entries_for(mib))
                .map(|_| Slot {
                    check: AtomicU64::new(0),
                    data: AtomicU64::new(0),
                })
                .collect(),
        }
    }

    /// Entries of a table of `mib` MiB: a power of two, at most that size.
    fn entries_for(mib: usize) -> usize {
        let wanted = (mib.max(1) << 20) / std::mem::size_of::<Slot>();
        (wanted.next_power_of_two() / 2).max(1024)
    }

    /// Makes the table `mib` MiB (dropping its content), unless it has that
    /// size already.
    pub fn resize(&mut self, mib: usize) {
        if Table::entries_for(mib) != self.slots.len() {
            *self = Table::new(mib);
        }
    }

    pub fn clear(&mut self) {
        for slot in &mut self.slots {
            *slot.check.get_mut() = 0;
            *slot.data.get_mut() = 0;
        }
    }

    fn slot(&self, key: u64) -> &Slot {
        &self.slots[(key as usize) & (self.slots.len() - 1)]
    }

    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        if check ^ data != key {
            return None;
        }
        Entry::unpack(data)
    }

    pub(crate) fn store(&self, key: u64, entry: Entry) {
        let slot = self.slot(key);
        let keep = self
            .probe(key)
            .is_some_and(|old| entry.depth < old.depth && entry.bound != Bound::Exact);
        if !keep {
            let data = entry.pack();
            slot.data.store(data, Ordering::Relaxed);
            slot.check.store(key ^ data, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The entry every writer stores for `key`: a function of the key, so
    /// a reader can tell a hit that is not the key's own.
    fn entry_of(key: u64) -> Entry {
        Entry {
            best: (key >> 7) as u16,
            score: (key >> 23) as i16 as i32,
            depth: (key >> 40) as u8,
            bound: [Bound::Exact, Bound::Lower, Bound::Upper][(key % 3) as usize],
        }
    }

    #[test]
    fn entries_pack_and_unpack() {
        for key in [0u64, 1, 0xdead_beef_cafe_f00d, u64::MAX] {
            let entry = entry_of(key);
            let back = Entry::unpack(entry.pack()).expect("a bound");
            assert_eq!(
                (back.best, back.score, back.depth, back.bound),
                (entry.best, entry.score, entry.depth, entry.bound)
            );
        }
        assert!(Entry::unpack(0).is_none(), "a zeroed slot is empty");
    }

    /// Four threads store and probe keys that share a few slots: every hit
    /// is the key's own entry, never another key's or a torn one.
    #[test]
    fn shared_slots_give_no_false_hits() {
        let table = Table::new(1);
        let slots = table.slots.len() as u64;
        let hits = AtomicU64::new(0);
        std::thread::scope(|scope| {
            for thread in 0..4u64 {
                let table = &table;
                let hits = &hits;
                scope.spawn(move || {
                    let mut state = 0x9e37_79b9_7f4a_7c15u64 ^ thread;
                    for _ in 0..200_000 {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        // 16 slots, 64 keys each.
                        let key = ((state >> 10) % 64 + 1) * slots + state % 16;
                        if state >> 40 & 1 == 0 {
                            table.store(key, entry_of(key));
                        } else if let Some(found) = table.probe(key) {
                            let want = entry_of(key);
                            assert_eq!(
                                (found.best, found.score, found.depth, found.bound),
                                (want.best, want.score, want.depth, want.bound)
                            );
                            hits.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        assert!(hits.load(Ordering::Relaxed) > 0, "the probes hit sometimes");
    }
}
