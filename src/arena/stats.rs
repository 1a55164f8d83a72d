//! Match statistics: win/draw/loss counts, the Elo difference they imply
//! with a 95% interval, the likelihood of superiority, and the sequential
//! probability ratio test that stops a match once it is decided.
//!
//! # Model
//!
//! Every game scores 1, ½ or 0 for the first engine; the games are taken as
//! independent draws from a trinomial distribution. Scores and Elo
//! differences are related by the logistic curve
//! `score = 1 / (1 + 10^(-elo / 400))`.
//!
//! * **Elo and interval.** The sample mean score `s` and the per-game sample
//!   variance `σ² = (W(1-s)² + D(½-s)² + L s²) / N` give the standard error
//!   `σ / √N`; the interval `s ± 1.96 σ/√N` is mapped through the logistic
//!   curve (a bound outside (0, 1) becomes an infinite Elo).
//! * **LOS** (likelihood of superiority), draws ignored:
//!   `½ (1 + erf((W - L) / √(2 (W + L))))`.
//! * **SPRT.** H0: the Elo difference is `elo0`; H1: it is `elo1`. The
//!   log-likelihood ratio uses the normal approximation of the generalised
//!   SPRT (no BayesElo draw model): with `s0`, `s1` the scores the two
//!   hypotheses predict, `LLR = N (s1 - s0) (2 s - s0 - s1) / (2 σ²)`. The
//!   test accepts H1 once `LLR ≥ ln((1-β)/α)` and H0 once `LLR ≤ ln(β/(1-α))`
//!   (±2.94 for α = β = 0.05). While one of the three outcomes has not
//!   happened yet, the variance is computed with half a game added to each
//!   outcome, so that a run of identical results still moves the LLR instead
//!   of dividing by zero. The approximation needs a sample: no decision is
//!   taken before [`SPRT_MIN_GAMES`] games.

use std::fmt;

/// Two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses, from one engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    /// Counts from the three numbers.
    pub const fn new(wins: u32, draws: u32, losses: u32) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The same counts from the opponent's point of view.
    pub fn flipped(&self) -> Wdl {
        Wdl::new(self.losses, self.draws, self.wins)
    }

    /// Adds one game scoring 1, ½ or 0 (`Ordering::Greater` is a win).
    pub fn add(&mut self, outcome: std::cmp::Ordering) {
        match outcome {
            std::cmp::Ordering::Greater => self.wins += 1,
            std::cmp::Ordering::Equal => self.draws += 1,
            std::cmp::Ordering::Less => self.losses += 1,
        }
    }

    /// Mean score per game (0.5 before any game).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n)
    }

    /// Per-game sample variance of the score.
    pub fn variance(&self) -> f64 {
        variance(
            f64::from(self.wins),
            f64::from(self.draws),
            f64::from(self.losses),
        )
    }

    /// Draws as a fraction of the games.
    pub fn draw_ratio(&self) -> f64 {
        match self.games() {
            0 => 0.0,
            n => f64::from(self.draws) / f64::from(n),
        }
    }
}

impl fmt::Display for Wdl {
    /// `12-3-5` (wins-draws-losses).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}-{}", self.wins, self.draws, self.losses)
    }
}

/// Variance of a score sample with these (possibly fractional) counts.
fn variance(wins: f64, draws: f64, losses: f64) -> f64 {
    let n = wins + draws + losses;
    if n <= 0.0 {
        return 0.0;
    }
    let s = (wins + 0.5 * draws) / n;
    (wins * (1.0 - s).powi(2) + draws * (0.5 - s).powi(2) + losses * s.powi(2)) / n
}

/// The Elo difference that a mean score implies (±infinity at 1 and 0).
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The mean score an Elo difference predicts.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

impl EloEstimate {
    /// Half the width of the interval (infinite when a bound is).
    pub fn margin(&self) -> f64 {
        if self.low.is_infinite() || self.high.is_infinite() {
            f64::INFINITY
        } else {
            (self.high - self.low) / 2.0
        }
    }
}

/// The Elo difference of these results with its 95% interval; `None`
/// before any game.
pub fn elo_estimate(wdl: &Wdl) -> Option<EloEstimate> {
    let n = wdl.games();
    if n == 0 {
        return None;
    }
    let score = wdl.score();
    let error = (wdl.variance() / f64::from(n)).sqrt();
    Some(EloEstimate {
        elo: elo_from_score(score),
        low: elo_from_score(score - Z95 * error),
        high: elo_from_score(score + Z95 * error),
    })
}

/// The 95% lower bound of the Elo difference of an engine that won all of
/// `games` games, where the normal approximation of [`elo_estimate`] has
/// no width: the exact (Clopper-Pearson) bound of the score, `0.025^(1/N)`.
pub fn all_won_lower_bound(games: u32) -> f64 {
    elo_from_score(0.025f64.powf(1.0 / f64::from(games.max(1))))
}

/// Likelihood of superiority: the probability that the engine is the
/// stronger one, from wins and losses (draws carry no information here).
pub fn likelihood_of_superiority(wdl: &Wdl) -> f64 {
    let decisive = f64::from(wdl.wins + wdl.losses);
    if decisive == 0.0 {
        return 0.5;
    }
    let z = (f64::from(wdl.wins) - f64::from(wdl.losses)) / (2.0 * decisive).sqrt();
    0.5 * (1.0 + erf(z))
}

/// The error function, to about 1.2e-7 (the Chebyshev fit of the
/// complementary error function published in Numerical Recipes).
pub fn erf(x: f64) -> f64 {
    const COEFFICIENTS: [f64; 10] = [
        -1.265_512_23,
        1.000_023_68,
        0.374_091_96,
        0.096_784_18,
        -0.186_288_06,
        0.278_868_07,
        -1.135_203_98,
        1.488_515_87,
        -0.822_152_23,
        0.170_872_77,
    ];
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let polynomial = COEFFICIENTS.iter().rev().fold(0.0, |acc, &c| acc * t + c);
    let erfc = t * (-z * z + polynomial).exp();
    if x >= 0.0 { 1.0 - erfc } else { erfc - 1.0 }
}

/// The parameters of a sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference of the null hypothesis.
    pub elo0: f64,
    /// Elo difference of the alternative hypothesis.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Why an SPRT specification was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSprtError(pub String);

impl fmt::Display for ParseSprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad SPRT '{}': use elo0,elo1[,alpha,beta] with elo0 < elo1 and 0 < alpha, beta < 0.5",
            self.0
        )
    }
}

impl std::error::Error for ParseSprtError {}

impl std::str::FromStr for Sprt {
    type Err = ParseSprtError;

    /// `elo0,elo1` or `elo0,elo1,alpha,beta` (α = β = 0.05 by default).
    fn from_str(text: &str) -> Result<Sprt, ParseSprtError> {
        let bad = || ParseSprtError(text.to_string());
        let numbers = text
            .split(',')
            .map(|part| part.trim().parse::<f64>().ok().filter(|x| x.is_finite()))
            .collect::<Option<Vec<f64>>>()
            .ok_or_else(bad)?;
        let (elo0, elo1, alpha, beta) = match numbers[..] {
            [elo0, elo1] => (elo0, elo1, 0.05, 0.05),
            [elo0, elo1, alpha, beta] => (elo0, elo1, alpha, beta),
            _ => return Err(bad()),
        };
        let probability = |p: f64| p > 0.0 && p < 0.5;
        if elo0 >= elo1 || !probability(alpha) || !probability(beta) {
            return Err(bad());
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0 {} elo1 {} alpha {} beta {}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

/// Games an SPRT plays before it may decide. On a few games the sample
/// variance is far too small: 5 straight wins gave an LLR of 3.6 for elo0 0,
/// elo1 100 (H1 accepted), where the exact likelihood of wins and losses
/// adds ln(0.64 / 0.5) = 0.25 a win and needs 12 of them.
pub const SPRT_MIN_GAMES: u32 = 16;

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Not decided yet: keep playing.
    Continue,
    /// H0 accepted: the difference is at most about `elo0`.
    AcceptH0,
    /// H1 accepted: the difference is at least about `elo1`.
    AcceptH1,
}

impl Sprt {
    /// The lower (accept H0) and upper (accept H1) LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for these results (see the
    /// module documentation).
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        let n = f64::from(wdl.games());
        if n == 0.0 {
            return 0.0;
        }
        let (w, d, l) = (
            f64::from(wdl.wins),
            f64::from(wdl.draws),
            f64::from(wdl.losses),
        );
        let var = if w == 0.0 || d == 0.0 || l == 0.0 {
            variance(w + 0.5, d + 0.5, l + 0.5)
        } else {
            variance(w, d, l)
        };
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        n * (s1 - s0) * (2.0 * wdl.score() - s0 - s1) / (2.0 * var)
    }

    /// The decision for these results (none before [`SPRT_MIN_GAMES`]).
    pub fn decision(&self, wdl: &Wdl) -> SprtDecision {
        if wdl.games() < SPRT_MIN_GAMES {
            return SprtDecision::Continue;
        }
        let llr = self.llr(wdl);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(close(elo_from_score(0.75), 400.0 * 3f64.log10(), 1e-9));
        assert!(close(elo_from_score(0.75), 190.848, 1e-3));
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(close(elo_from_score(0.25), -190.848, 1e-3));
        assert!(close(score_from_elo(190.848_501_887), 0.75, 1e-9));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn interval_of_a_known_sample() {
        // 60 wins, 20 draws, 20 losses: s = 0.7, σ² = 0.16, σ/√N = 0.04, so
        // the 95% interval of the score is 0.7 ± 0.0784.
        let wdl = Wdl::new(60, 20, 20);
        assert!(close(wdl.score(), 0.7, 1e-12));
        assert!(close(wdl.variance(), 0.16, 1e-12));
        let estimate = elo_estimate(&wdl).unwrap();
        assert!(close(estimate.elo, 147.1907, 1e-3));
        assert!(close(estimate.low, 86.2250, 1e-3));
        assert!(close(estimate.high, 218.2518, 1e-3));
        assert!(elo_estimate(&Wdl::default()).is_none());
        let all_won = elo_estimate(&Wdl::new(5, 0, 0)).unwrap();
        assert_eq!(all_won.elo, f64::INFINITY);
        // 10 of 10: the score is at least 0.025^(1/10) = 0.6915.
        assert!(close(
            all_won_lower_bound(10),
            elo_from_score(0.691_505),
            0.01
        ));
    }

    #[test]
    fn erf_and_los() {
        assert!(close(erf(0.0), 0.0, 2e-7));
        assert!(close(erf(1.0), 0.842_700_792_949_715, 2e-7));
        assert!(close(erf(-0.5), -0.520_499_877_813_047, 2e-7));
        assert!(close(erf(3.0), 0.999_977_909_503_001, 2e-7));
        assert!(close(
            likelihood_of_superiority(&Wdl::new(10, 5, 8)),
            0.681_324,
            1e-5
        ));
        assert!(close(
            likelihood_of_superiority(&Wdl::new(3, 1, 3)),
            0.5,
            2e-7
        ));
    }

    #[test]
    fn sprt_llr_of_known_samples() {
        let sprt: Sprt = "0,10".parse().unwrap();
        assert_eq!((sprt.alpha, sprt.beta), (0.05, 0.05));
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944_438_979, 1e-8) && close(upper, 2.944_438_979, 1e-8));
        // s = 0.7, σ² = 0.16, s0 = 0.5, s1 = 0.514387...: 100/0.32 * ...
        assert!(close(sprt.llr(&Wdl::new(60, 20, 20)), 1.733_713_312, 1e-6));
        let sprt: Sprt = "0,5,0.05,0.05".parse().unwrap();
        assert!(close(sprt.llr(&Wdl::new(45, 30, 25)), 0.420_377_922, 1e-6));
        // Symmetric hypotheses and an even score: no evidence either way.
        let sprt: Sprt = "-5,5".parse().unwrap();
        assert!(close(sprt.llr(&Wdl::new(30, 40, 30)), 0.0, 1e-12));
        assert_eq!(sprt.decision(&Wdl::new(30, 40, 30)), SprtDecision::Continue);
    }

    #[test]
    fn sprt_decides_clear_results() {
        let sprt: Sprt = "0,20".parse().unwrap();
        assert_eq!(sprt.decision(&Wdl::new(80, 10, 10)), SprtDecision::AcceptH1);
        assert_eq!(sprt.decision(&Wdl::new(10, 10, 80)), SprtDecision::AcceptH0);
        // A run of wins only still ends the test (smoothed variance).
        assert_eq!(sprt.decision(&Wdl::new(40, 0, 0)), SprtDecision::AcceptH1);
        assert!(sprt.llr(&Wdl::new(3, 0, 0)) > 0.0);
    }

    /// Five straight wins are no proof of 100 Elo.
    #[test]
    fn sprt_waits_for_a_sample() {
        let sprt: Sprt = "0,100".parse().unwrap();
        assert!(sprt.llr(&Wdl::new(5, 0, 0)) > sprt.bounds().1);
        assert_eq!(sprt.decision(&Wdl::new(5, 0, 0)), SprtDecision::Continue);
        let games = SPRT_MIN_GAMES - 1;
        assert_eq!(
            sprt.decision(&Wdl::new(games, 0, 0)),
            SprtDecision::Continue
        );
        assert_eq!(
            sprt.decision(&Wdl::new(games + 1, 0, 0)),
            SprtDecision::AcceptH1
        );
    }

    #[test]
    fn sprt_parse_errors() {
        for bad in ["", "5", "10,0", "0,10,0.6,0.05", "0,10,0.05", "a,b"] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
    }
}
