//! Selectivity: how much a search may trust Multi-ProbCut's predictions.
//!
//! A selective search cuts a node when a shallow search predicts, with a
//! confidence of the level's percentage, that the deep search would fail
//! high or low (see [`crate::search::probcut`]). The confidence comes from
//! the cut threshold *t*, in standard deviations of the prediction error:
//! a normal error stays within *t*·σ on one side with probability Φ(t).
//!
//! | level | t   | confidence |
//! |------:|----:|-----------:|
//! | 0     | 1.1 | 73%        |
//! | 1     | 1.5 | 87%        |
//! | 2     | 2.0 | 95%        |
//! | 3     | 2.6 | 98%        |
//! | 4     | 3.3 | 99%        |
//! | 5     | —   | 100% (no cut: a full-width, exact search) |

use std::fmt;
use std::str::FromStr;

/// Cut thresholds (standard deviations) of the selective levels.
const THRESHOLDS: [f64; 5] = [1.1, 1.5, 2.0, 2.6, 3.3];
/// Confidence of each level in percent (Φ(t), rounded), the last one full width.
const PERCENTS: [u32; 6] = [73, 87, 95, 98, 99, 100];

/// The last selective step of the solve ladder, 95%: then the exact solve.
/// FFO #45-49 (24-26 empties), one thread, nodes: straight to 100% 1.18 G;
/// 73 -> 87 -> 95 -> 98 -> 99 -> 100% 2.02 G (#45: 12, 12, 19, 109, 379 and
/// 278 M per step: the 99% step alone costs more than the exact solve);
/// 73 -> 87 -> 95 -> 100% 1.30 G; 73 -> 87 -> 100% 1.21 G. The 95% step is
/// kept: under a clock its probable result is often the best one to play
/// (see [`crate::search::params::SOLVE_LADDER_MIN_EMPTIES`]).
pub const LADDER_LAST_SELECTIVE: Selectivity = Selectivity(2);

/// A selectivity level, from the most selective (73%) to none (100%).
/// Ordered by reliability: a higher level is less selective.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Selectivity(u8);

impl Selectivity {
    /// The most selective level, 73%.
    pub const MOST: Selectivity = Selectivity(0);
    /// No selectivity: every move searched to full depth (100%).
    pub const NONE: Selectivity = Selectivity(THRESHOLDS.len() as u8);

    /// Every level, most selective first.
    pub fn all() -> impl Iterator<Item = Selectivity> {
        (0..=Self::NONE.0).map(Selectivity)
    }

    /// The level stored in a table entry (an index; out-of-range values mean
    /// none).
    pub const fn from_index(index: u8) -> Selectivity {
        if index > Self::NONE.0 {
            Self::NONE
        } else {
            Selectivity(index)
        }
    }

    /// The index stored in a table entry: 0 (73%) ..= 5 (100%).
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The confidence in percent: 73, 87, 95, 98, 99 or 100.
    pub const fn percent(self) -> u32 {
        PERCENTS[self.0 as usize]
    }

    /// The cut threshold in standard deviations, `None` for no selectivity.
    pub fn threshold(self) -> Option<f64> {
        THRESHOLDS.get(self.0 as usize).copied()
    }

    /// Whether this is a full-width (exact) search.
    pub const fn is_none(self) -> bool {
        self.0 == Self::NONE.0
    }

    /// The next step of the solve ladder: 73 -> 87 -> 95 -> 100% (`None`
    /// after 100%). The 98% and 99% steps are skipped: they cost more than
    /// the exact solve they were to speed up (see [`LADDER_LAST_SELECTIVE`]).
    pub fn next_solve_step(self) -> Option<Selectivity> {
        if self.is_none() {
            None
        } else if self.0 >= LADDER_LAST_SELECTIVE.0 {
            Some(Self::NONE)
        } else {
            Some(Selectivity(self.0 + 1))
        }
    }

    /// The level of a percentage: the listed level at or above it (so
    /// `90` gives 95%), 100% above 99.
    pub fn from_percent(percent: u32) -> Selectivity {
        let index = PERCENTS.iter().position(|&p| p >= percent);
        Selectivity(index.unwrap_or(PERCENTS.len() - 1) as u8)
    }
}

impl Default for Selectivity {
    fn default() -> Self {
        Selectivity::NONE
    }
}

impl fmt::Display for Selectivity {
    /// `73%` ... `100%`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}%", self.percent())
    }
}

/// A selectivity that is not one of the levels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSelectivityError(pub String);

impl fmt::Display for ParseSelectivityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a selectivity (73, 87, 95, 98, 99 or 100, with or without %)",
            self.0
        )
    }
}

impl std::error::Error for ParseSelectivityError {}

impl FromStr for Selectivity {
    type Err = ParseSelectivityError;

    /// One of the listed percentages, `%` optional.
    fn from_str(text: &str) -> Result<Selectivity, ParseSelectivityError> {
        let digits = text.trim().trim_end_matches('%');
        digits
            .parse::<u32>()
            .ok()
            .and_then(|p| PERCENTS.iter().position(|&q| q == p))
            .map(|i| Selectivity(i as u8))
            .ok_or_else(|| ParseSelectivityError(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_ordered_and_named() {
        let all: Vec<Selectivity> = Selectivity::all().collect();
        assert_eq!(all.len(), 6);
        assert!(all.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(all[0], Selectivity::MOST);
        assert_eq!(all[5], Selectivity::NONE);
        let names: Vec<String> = all.iter().map(|s| s.to_string()).collect();
        assert_eq!(names, ["73%", "87%", "95%", "98%", "99%", "100%"]);
        assert_eq!(Selectivity::NONE.threshold(), None);
        assert_eq!(Selectivity::MOST.threshold(), Some(1.1));
    }

    #[test]
    fn the_solve_ladder_skips_98_and_99() {
        let mut steps = vec![Selectivity::MOST];
        while let Some(next) = steps.last().unwrap().next_solve_step() {
            steps.push(next);
        }
        let percents: Vec<u32> = steps.iter().map(|s| s.percent()).collect();
        assert_eq!(percents, [73, 87, 95, 100]);
        let from_98 = Selectivity::from_percent(98).next_solve_step();
        assert_eq!(from_98, Some(Selectivity::NONE));
    }

    #[test]
    fn parses_and_converts() {
        assert_eq!("95%".parse::<Selectivity>().unwrap().percent(), 95);
        assert_eq!("100".parse::<Selectivity>().unwrap(), Selectivity::NONE);
        assert!("90".parse::<Selectivity>().is_err());
        assert!("x".parse::<Selectivity>().is_err());
        assert_eq!(Selectivity::from_percent(90).percent(), 95);
        assert_eq!(Selectivity::from_percent(0), Selectivity::MOST);
        assert_eq!(Selectivity::from_percent(1000), Selectivity::NONE);
        assert_eq!(Selectivity::from_index(200), Selectivity::NONE);
        for s in Selectivity::all() {
            assert_eq!(Selectivity::from_index(s.index()), s);
        }
    }
}
