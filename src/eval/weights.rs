//! Every tuned number of the evaluation, in one place.
//!
//! Weights are in discs of final score per unit of feature, stored in
//! fixed point: [`SCALE`] units make one disc (`disc(1.25)` is 160). A weight
//! set gives, for each feature, one weight per phase; a phase is a number of
//! empty squares on the 8x8 board ([`PHASE_EMPTIES`]), and positions between
//! two phases get a linear blend of their weights. Small boards map their
//! empties onto the 8x8 scale: a 6x6 board with 16 of its 32 starting empties
//! left is weighted like an 8x8 board with 30 empties.
//!
//! The hand-set weights follow the usual shape: early on, mobility, potential
//! mobility, corners and the X- and C-squares dominate and more discs is
//! slightly bad; late, the disc count takes over, and at 0 empties it is all
//! that is left.

use super::features::{FEATURE_COUNT, Feature};

/// Fixed-point units per disc.
pub const SCALE: i32 = 128;

/// Number of phases in a weight table.
pub const PHASE_COUNT: usize = 6;

/// One weight per phase, in 1/[`SCALE`] discs.
pub type PhaseCurve = [i32; PHASE_COUNT];

/// The phases: empties on the 8x8 board, from the start to the full board.
pub const PHASE_EMPTIES: [u32; PHASE_COUNT] = [60, 48, 36, 24, 12, 0];

/// A weight in discs, converted to fixed point at compile time.
pub const fn disc(discs: f64) -> i32 {
    let scaled = discs * SCALE as f64;
    if scaled >= 0.0 {
        (scaled + 0.5) as i32
    } else {
        (scaled - 0.5) as i32
    }
}

/// A curve written in discs, phase by phase as in [`PHASE_EMPTIES`].
const fn curve(discs: [f64; PHASE_COUNT]) -> PhaseCurve {
    let mut out = [0; PHASE_COUNT];
    let mut i = 0;
    while i < PHASE_COUNT {
        out[i] = disc(discs[i]);
        i += 1;
    }
    out
}

//                                         60    48    36    24    12     0 empties
/// Per legal move, mine minus theirs.
pub const MOBILITY: PhaseCurve = curve([1.00, 1.25, 1.25, 1.00, 0.50, 0.0]);
/// Per empty square next to their discs, minus next to mine.
pub const POTENTIAL_MOBILITY: PhaseCurve = curve([0.50, 0.50, 0.40, 0.25, 0.10, 0.0]);
/// Per frontier disc (next to an empty square), mine minus theirs.
pub const FRONTIER: PhaseCurve = curve([-0.50, -0.50, -0.40, -0.25, -0.10, 0.0]);
/// Per corner disc, mine minus theirs.
pub const CORNERS: PhaseCurve = curve([8.00, 9.00, 9.00, 8.00, 5.00, 0.0]);
/// Per disc on the X-square of an empty corner, mine minus theirs.
pub const X_SQUARES: PhaseCurve = curve([-6.00, -6.00, -5.00, -3.00, -1.50, 0.0]);
/// Per disc on a C-square of an empty corner, mine minus theirs.
pub const C_SQUARES: PhaseCurve = curve([-2.00, -2.00, -2.00, -1.50, -0.50, 0.0]);
/// Per border disc other than corners, mine minus theirs.
pub const EDGES: PhaseCurve = curve([0.25, 0.25, 0.25, 0.25, 0.25, 0.0]);
/// Per stable disc, mine minus theirs (on top of the disc count).
pub const STABLE: PhaseCurve = curve([1.50, 1.50, 1.50, 1.25, 1.00, 0.0]);
/// For an odd number of empties (+1) or an even one (-1).
pub const PARITY: PhaseCurve = curve([0.00, 0.00, 0.50, 1.00, 1.50, 0.0]);
/// Per disc, mine minus theirs.
pub const DISCS: PhaseCurve = curve([-0.10, -0.05, 0.00, 0.25, 0.60, 1.0]);

/// A complete weight set: data, so that a learned set can replace the
/// hand-set one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// The phases, in empties of the 8x8 board, strictly decreasing; the
    /// first applies to every position with more empties, the last to every
    /// position with fewer.
    pub phase_empties: [u32; PHASE_COUNT],
    /// `curves[feature.index()][phase]`, in 1/[`SCALE`] discs.
    pub curves: [PhaseCurve; FEATURE_COUNT],
}

impl Weights {
    /// The hand-set weights of this file.
    pub const fn hand_set() -> Weights {
        let mut curves = [[0; PHASE_COUNT]; FEATURE_COUNT];
        curves[Feature::Mobility.index()] = MOBILITY;
        curves[Feature::PotentialMobility.index()] = POTENTIAL_MOBILITY;
        curves[Feature::Frontier.index()] = FRONTIER;
        curves[Feature::Corners.index()] = CORNERS;
        curves[Feature::XSquares.index()] = X_SQUARES;
        curves[Feature::CSquares.index()] = C_SQUARES;
        curves[Feature::Edges.index()] = EDGES;
        curves[Feature::Stable.index()] = STABLE;
        curves[Feature::Parity.index()] = PARITY;
        curves[Feature::Discs.index()] = DISCS;
        Weights {
            phase_empties: PHASE_EMPTIES,
            curves,
        }
    }

    /// The weight of every feature for a board with `empties` empty squares
    /// out of `squares` (so `squares - 4` at the start), blended linearly
    /// between the two nearest phases. Computed once per (size, empties) by
    /// [`super::Evaluator::new`], never in the search.
    pub const fn blend(&self, empties: u32, squares: u32) -> [i32; FEATURE_COUNT] {
        // Work on the 8x8 scale multiplied by the small board's span, so the
        // mapping stays exact: x = empties * 60 / (squares - 4), times span.
        let span = (squares - 4) as i64;
        let x = empties as i64 * 60;

        let mut out = [0; FEATURE_COUNT];
        let last = PHASE_COUNT - 1;
        let mut f = 0;
        while f < FEATURE_COUNT {
            let c = &self.curves[f];
            out[f] = if x >= self.knot(0, span) {
                c[0]
            } else if x <= self.knot(last, span) {
                c[last]
            } else {
                let mut i = 0;
                while x < self.knot(i + 1, span) {
                    i += 1;
                }
                // knot i > x >= knot i + 1
                let (hi, lo) = (self.knot(i, span), self.knot(i + 1, span));
                let sum = c[i] as i64 * (x - lo) + c[i + 1] as i64 * (hi - x);
                div_round(sum, hi - lo) as i32
            };
            f += 1;
        }
        out
    }
}

impl Weights {
    /// Phase `i` on the scaled axis of [`Weights::blend`].
    const fn knot(&self, i: usize, span: i64) -> i64 {
        self.phase_empties[i] as i64 * span
    }
}

impl Default for Weights {
    fn default() -> Self {
        Weights::hand_set()
    }
}

/// `a / b` rounded to the nearest integer, halves away from zero (`b > 0`).
#[inline]
pub const fn div_round(a: i64, b: i64) -> i64 {
    if a >= 0 {
        (a + b / 2) / b
    } else {
        -((-a + b / 2) / b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blend_hits_the_phases_and_interpolates() {
        let w = Weights::hand_set();
        let m = Feature::Mobility.index();
        let d = Feature::Discs.index();
        for (phase, &empties) in PHASE_EMPTIES.iter().enumerate() {
            let row = w.blend(empties, 64);
            for (weight, curve) in row.iter().zip(&w.curves) {
                assert_eq!(*weight, curve[phase]);
            }
        }
        // Halfway between 24 and 12 empties.
        assert_eq!(w.blend(18, 64)[m], disc(0.75));
        // Beyond the first phase the first weights hold.
        assert_eq!(w.blend(64, 64), w.blend(60, 64));
        // 6x6: 16 empties of 32 is 30 empties on 8x8.
        assert_eq!(w.blend(16, 36)[d], w.blend(30, 64)[d]);
        assert_eq!(w.blend(0, 16)[d], SCALE);
        assert_eq!(w.blend(12, 16), w.blend(60, 64));
    }

    #[test]
    fn late_game_is_disc_count_only() {
        let row = Weights::hand_set().blend(0, 64);
        for feature in Feature::ALL {
            let expected = if feature == Feature::Discs { SCALE } else { 0 };
            assert_eq!(row[feature.index()], expected, "{}", feature.name());
        }
    }

    #[test]
    fn rounding() {
        assert_eq!(disc(1.25), 160);
        assert_eq!(disc(-0.1), -13);
        assert_eq!(div_round(5, 2), 3);
        assert_eq!(div_round(-5, 2), -3);
        assert_eq!(div_round(-4, 3), -1);
    }
}
