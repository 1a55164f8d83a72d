//! Which games a match plays: every opening twice, colours swapped.
//!
//! A round is one pass through the opening list (the standard start alone
//! when there is no list), in file order or, with a seed, in an order
//! shuffled by that seed (a different order every round). Each opening gives
//! a pair of games: engine 1 has Black in the first, engine 2 in the second.
//! Rounds follow one another until the number of games asked for is reached
//! (by default every opening of every round). The schedule depends only on
//! these settings, which is what lets a rerun resume a match.

/// How to build the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScheduleOptions {
    /// Total games (`None`: two per opening per round).
    pub games: Option<usize>,
    /// Passes through the opening list.
    pub rounds: usize,
    /// Seed of the random opening order; `None` plays them in file order.
    pub seed: Option<u64>,
}

impl Default for ScheduleOptions {
    fn default() -> Self {
        ScheduleOptions {
            games: None,
            rounds: 1,
            seed: None,
        }
    }
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// Number of the game, from 1.
    pub number: usize,
    /// Round, from 1.
    pub round: usize,
    /// Index of the opening in the list (from 0).
    pub opening: usize,
    /// Which engine (0 or 1) has Black.
    pub black: usize,
}

/// The games of a match over `openings` openings (at least one).
pub fn schedule(openings: usize, options: &ScheduleOptions) -> Vec<ScheduledGame> {
    let openings = openings.max(1);
    let total = options
        .games
        .unwrap_or(2 * openings * options.rounds.max(1));
    let mut games = Vec::with_capacity(total);
    let mut round = 0;
    while games.len() < total {
        round += 1;
        let mut order: Vec<usize> = (0..openings).collect();
        if let Some(seed) = options.seed {
            shuffle(
                &mut order,
                seed ^ (round as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            );
        }
        for &opening in &order {
            for black in [0, 1] {
                if games.len() == total {
                    break;
                }
                games.push(ScheduledGame {
                    number: games.len() + 1,
                    round,
                    opening,
                    black,
                });
            }
        }
    }
    games
}

/// Increment of SplitMix64's state.
const SPLITMIX_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64: a small fixed generator, so that an order depends on the seed
/// alone and never on a library version.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(SPLITMIX_GAMMA);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Output `index` (from 0) of SplitMix64 started at `seed`: unrelated
/// numbers for neighbouring indices (a seed per game of a match).
pub(crate) fn splitmix_at(seed: u64, index: u64) -> u64 {
    let mut state = seed.wrapping_add(index.wrapping_mul(SPLITMIX_GAMMA));
    splitmix(&mut state)
}

/// Fisher-Yates shuffle driven by SplitMix64.
fn shuffle(items: &mut [usize], seed: u64) {
    let mut state = seed;
    for i in (1..items.len()).rev() {
        let j = (splitmix(&mut state) % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequential_pairs_and_rounds() {
        let games = schedule(3, &ScheduleOptions::default());
        assert_eq!(games.len(), 6);
        let pairs: Vec<(usize, usize)> = games.iter().map(|g| (g.opening, g.black)).collect();
        assert_eq!(pairs, [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]);
        let games = schedule(
            3,
            &ScheduleOptions {
                games: Some(9),
                ..ScheduleOptions::default()
            },
        );
        assert_eq!(games.len(), 9);
        assert_eq!(games[8].round, 2);
        assert_eq!(games[8].opening, 1);
        assert_eq!(games[8].number, 9);
        let games = schedule(0, &ScheduleOptions::default());
        assert_eq!(games.len(), 2);
    }

    #[test]
    fn random_order_depends_on_the_seed_only() {
        let options = ScheduleOptions {
            games: None,
            rounds: 2,
            seed: Some(7),
        };
        let a = schedule(20, &options);
        assert_eq!(a, schedule(20, &options));
        assert_eq!(a.len(), 80);
        let mut first: Vec<usize> = a[..40].iter().map(|g| g.opening).collect();
        assert_ne!(
            first[..20],
            (0..20).flat_map(|i| [i, i]).collect::<Vec<_>>()[..20]
        );
        first.sort_unstable();
        first.dedup();
        assert_eq!(first, (0..20).collect::<Vec<_>>());
        let other = schedule(
            20,
            &ScheduleOptions {
                seed: Some(8),
                ..options
            },
        );
        assert_ne!(a, other);
    }
}
