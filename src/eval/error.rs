//! How far an evaluation is from known values: its root-mean-square error,
//! phase by phase (two empties each, as the trainer's phases), and its mean
//! signed error for each parity of the empties, on scored positions such as
//! exactly solved OBF files or deep-search labels (`oxello bench
//! --eval-error`). The signed error is split by parity because the side to
//! move at an odd count expects the last move: a bias between the parities
//! moves a search's score with the parity of its depth.

use crate::board::Board;

/// The error of an evaluation on the positions of one phase.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PhaseError {
    /// The phase's fewer empties: it holds positions of this many empty
    /// squares and of one more.
    pub empties: u32,
    /// Sum of the squared errors, in discs squared.
    pub squared: f64,
    /// Positions of an even and of an odd number of empties.
    pub by_parity: [usize; 2],
    /// Sum of the signed errors (evaluation minus value), in discs, of the
    /// positions of an even and of an odd number of empties.
    pub signed: [f64; 2],
}

impl PhaseError {
    /// Positions of the phase, of either parity.
    pub fn positions(&self) -> usize {
        self.by_parity[0] + self.by_parity[1]
    }

    /// Root-mean-square error, in discs (0 for no position).
    pub fn rms(&self) -> f64 {
        match self.positions() {
            0 => 0.0,
            n => (self.squared / n as f64).sqrt(),
        }
    }

    /// Mean signed error (evaluation minus value, discs) of the positions
    /// with an odd number of empties if `odd`, an even number otherwise;
    /// `None` without such a position.
    pub fn mean_signed(&self, odd: bool) -> Option<f64> {
        let parity = usize::from(odd);
        (self.by_parity[parity] > 0).then(|| self.signed[parity] / self.by_parity[parity] as f64)
    }

    /// Adds the errors of `other` (any phase) to this one's.
    pub fn add(&mut self, other: &PhaseError) {
        self.squared += other.squared;
        for parity in 0..2 {
            self.by_parity[parity] += other.by_parity[parity];
            self.signed[parity] += other.signed[parity];
        }
    }
}

/// The errors of `evaluate` (discs for the side to move) against `values`,
/// pairs of an 8x8 board (relative to the side to move) and its known
/// value, grouped by phase of two empties, fewest empties first. Phases
/// without a position are left out.
pub fn by_phase(
    values: impl IntoIterator<Item = (Board, i32)>,
    evaluate: &dyn Fn(Board) -> i32,
) -> Vec<PhaseError> {
    let mut phases = [PhaseError::default(); 33];
    for (board, value) in values {
        let empties = board.empties().count_ones();
        let phase = &mut phases[(empties / 2) as usize];
        phase.empties = empties / 2 * 2;
        let error = f64::from(evaluate(board) - value);
        let parity = (empties & 1) as usize;
        phase.squared += error.powi(2);
        phase.by_parity[parity] += 1;
        phase.signed[parity] += error;
    }
    phases.into_iter().filter(|p| p.positions() > 0).collect()
}

/// The sum of `phases`: the error over all their positions.
pub fn total(phases: &[PhaseError]) -> PhaseError {
    let mut all = PhaseError::default();
    for phase in phases {
        all.add(phase);
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::BoardSize;
    use crate::formats::transcript;
    use crate::position::Position;

    fn after(moves: &str) -> Board {
        let game = transcript::parse_game(moves, Position::start(BoardSize::Eight)).expect("legal");
        game.position().board
    }

    #[test]
    fn errors_are_grouped_by_two_empties_and_root_mean_squared() {
        // 58 and 59 empties share a phase; 60 has its own.
        let start = after("");
        let one = after("f5");
        let two = after("f5d6");
        let phases = by_phase([(start, 3), (one, -4), (two, 0)], &|_| 0);
        assert_eq!(phases.len(), 2);
        assert_eq!((phases[0].empties, phases[0].positions()), (58, 2));
        assert!((phases[0].rms() - 8.0f64.sqrt()).abs() < 1e-12);
        assert_eq!((phases[1].empties, phases[1].positions()), (60, 1));
        assert_eq!(phases[1].rms(), 3.0);
        // 60 and 58 empties are even, 59 odd: errors -3 and 0, then +4.
        assert_eq!(phases[0].mean_signed(false), Some(0.0));
        assert_eq!(phases[0].mean_signed(true), Some(4.0));
        assert_eq!(phases[1].mean_signed(false), Some(-3.0));
        assert_eq!(phases[1].mean_signed(true), None);
        let all = total(&phases);
        assert_eq!(all.positions(), 3);
        assert!((all.rms() - (25.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert_eq!(all.mean_signed(false), Some(-1.5));
        assert_eq!(all.mean_signed(true), Some(4.0));
        assert_eq!(PhaseError::default().rms(), 0.0);
    }
}
