//! Sharding: splitting a long run (self-play, a match) into deterministic
//! slices that separate processes or machines run independently, for
//! example under GNU parallel or a Slurm array, and whose outputs are
//! concatenated or merged afterwards.

use std::fmt;
use std::str::FromStr;

/// One part of a run: shard `index` of `count` (from 1) holds the items
/// (self-play games, match game pairs) whose index `g` (from 0) has
/// `g mod count = index - 1`. Striding rather than cutting the range in
/// blocks keeps shards even when items late in the range are slower or the
/// run is stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// From 1 to `count`.
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// The whole run.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Whether item `item` (from 0) belongs to this shard.
    pub fn contains(self, item: u64) -> bool {
        item % u64::from(self.count.max(1)) == u64::from(self.index.saturating_sub(1))
    }

    /// This shard's items among the first `games`.
    pub fn games(self, games: u32) -> impl Iterator<Item = u32> {
        (self.index.saturating_sub(1)..games).step_by(self.count.max(1) as usize)
    }
}

impl Default for Shard {
    fn default() -> Self {
        Shard::WHOLE
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `i/n` with `1 <= i <= n`.
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("shard '{text}': expected i/n with 1 <= i <= n (e.g. 3/8)");
        let (i, n) = text.trim().split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_items() {
        let shards: Vec<Shard> = (1..=3).map(|i| Shard { index: i, count: 3 }).collect();
        for item in 0..20u64 {
            assert_eq!(shards.iter().filter(|s| s.contains(item)).count(), 1);
        }
        assert!(Shard::WHOLE.contains(17));
        assert_eq!(shards[1].games(8).collect::<Vec<_>>(), [1, 4, 7]);
        assert_eq!("2/3".parse::<Shard>(), Ok(shards[1]));
        assert!("0/3".parse::<Shard>().is_err());
        assert!("4/3".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
        assert_eq!(shards[2].to_string(), "3/3");
    }
}
