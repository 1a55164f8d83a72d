//! The evaluation's network: a small network over the 8x8 pattern
//! features, added to the linear pattern evaluation
//! ([`super::patterns`]).
//!
//! Each of the 46 pattern instances of a position selects a row of one
//! table shared by all phases (the instances of a shape share its rows, as
//! the linear weights do); the rows, a bias row and the two mobilities
//! times their rows sum to an accumulator of `width` values. Clipped to
//! [0, 1], the accumulator is weighed by the output head of the position's
//! phase. In fixed point: the table in 1/[`ACC_SCALE`], the heads in
//! 1/[`WEIGHT_SCALE`] discs. Trained by [`crate::train::network`]; the
//! search reads it at its leaves only (docs/training.md, "The network").

use super::pattern_set::{WEIGHT_SCALE, canonical_rows, fold_rows};
use super::patterns::{Eight, PHASE_WEIGHTS};
use crate::fitted::{self, FittedError};

/// One output head per phase of the linear weights (two empties), so
/// that the parity of the empties stays the linear weights' odd-empties
/// term's to correct.
pub const HEADS: usize = super::patterns::PHASES;

/// The accumulator's fixed point: 1.0 is this.
pub const ACC_SCALE: i32 = 256;

/// Widest accumulator.
pub const MAX_WIDTH: usize = 128;

/// Mobility enters the accumulator divided by 2 to this power (8 moves
/// make 1.0 of the mobility row).
pub const MOBILITY_SHIFT: u32 = 3;

/// A network in fixed point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    width: usize,
    /// [`PHASE_WEIGHTS`] rows of `width`, every index of a shape's table
    /// holding its canonical index's trained row: what the evaluation reads
    /// with the raw indices. The trained table is its canonical rows
    /// ([`Network::encode`]).
    folded: Vec<i16>,
    /// [`HEADS`] heads: `width` weights then a bias.
    heads: Vec<i16>,
}

impl Network {
    const fn layout(width: usize) -> fitted::Layout {
        fitted::Layout {
            kind: *b"NET8",
            version: 1,
            fields: [width as u32, HEADS as u32, PHASE_WEIGHTS as u32],
        }
    }

    /// The network of this width, trained table (only its canonical rows
    /// are read) and heads.
    pub fn from_shared(width: usize, shared: Vec<i16>, heads: Vec<i16>) -> Network {
        assert!(width > 0 && width <= MAX_WIDTH && width.is_multiple_of(16));
        assert_eq!(shared.len(), PHASE_WEIGHTS * width);
        assert_eq!(heads.len(), HEADS * (width + 1));
        let mut folded = shared;
        fold_rows::<Eight>(&mut folded, width);
        Network {
            width,
            folded,
            heads,
        }
    }

    pub fn width(&self) -> usize {
        self.width
    }

    /// The network's part of a position's raw evaluation, in
    /// 1/[`WEIGHT_SCALE`] discs: `rows` are its instances' rows (offset
    /// plus index as read, the linear weights' lookups), `empties` its empty
    /// squares, `mine` and `theirs` the two mobilities.
    #[inline]
    pub fn raw(&self, rows: &[u32], empties: u32, mine: i32, theirs: i32) -> i32 {
        // A width known at compile time lets the loops become whole-vector
        // operations.
        match self.width {
            16 => self.raw_of::<16>(rows, empties, mine, theirs),
            32 => self.raw_of::<32>(rows, empties, mine, theirs),
            48 => self.raw_of::<48>(rows, empties, mine, theirs),
            64 => self.raw_of::<64>(rows, empties, mine, theirs),
            _ => self.raw_of::<MAX_WIDTH>(rows, empties, mine, theirs),
        }
    }

    #[inline]
    fn raw_of<const W: usize>(&self, rows: &[u32], empties: u32, mine: i32, theirs: i32) -> i32 {
        let w = self.width.min(W);
        let table = &self.folded;
        let row = |r: usize| -> &[i16] { &table[r * w..r * w + w] };
        let mut acc = [0i16; W];
        for (j, a) in acc.iter_mut().enumerate().take(w) {
            let scalar = i32::from(row(0)[j])
                + ((i32::from(row(1)[j]) * mine + i32::from(row(2)[j]) * theirs) >> MOBILITY_SHIFT);
            *a = scalar.clamp(-32767, 32767) as i16;
        }
        for &r in rows {
            let values = row(r as usize);
            if W == w {
                let values: &[i16; W] = values.try_into().expect("rows are W wide");
                for j in 0..W {
                    acc[j] = acc[j].saturating_add(values[j]);
                }
            } else {
                for (a, &v) in acc.iter_mut().zip(values) {
                    *a = a.saturating_add(v);
                }
            }
        }
        let phase = super::patterns::phase(empties);
        let head = &self.heads[phase * (w + 1)..(phase + 1) * (w + 1)];
        let mut sum = 0i32;
        for (&a, &v) in acc.iter().zip(head).take(w) {
            sum += i32::from(a.clamp(0, ACC_SCALE as i16)) * i32::from(v);
        }
        (sum >> 8) + i32::from(head[w])
    }

    /// The file form ([`fitted`]).
    pub fn encode(&self) -> Vec<u8> {
        let mut values = canonical_rows::<Eight>(&self.folded, self.width);
        values.extend_from_slice(&self.heads);
        fitted::encode(&Self::layout(self.width), &fitted::i16_runs(&values))
    }

    /// Reads what [`Network::encode`] writes, refusing another kind,
    /// version or layout, or a failed checksum.
    pub fn decode(bytes: &[u8]) -> Result<Network, FittedError> {
        // The width is the first layout field; a file too short to hold it
        // is refused by the header check below.
        let width = match bytes.get(fitted::HEADER - 16..fitted::HEADER - 12) {
            Some(&[a, b, c, d]) => u32::from_le_bytes([a, b, c, d]) as usize,
            _ => 16,
        };
        // Any width the evaluation can hold; others are another layout.
        let width = if width > 0 && width <= MAX_WIDTH && width.is_multiple_of(16) {
            width
        } else {
            16
        };
        let body = fitted::decode(&Self::layout(width), bytes)?;
        let table = PHASE_WEIGHTS * width;
        let mut values = fitted::read_i16_runs(body, table + HEADS * (width + 1))?;
        let heads = values.split_off(table);
        Ok(Network::from_shared(width, values, heads))
    }
}

const _: () = assert!(WEIGHT_SCALE == 128);

/// The trained network built into the binary (`fitted/network-8.bin`).
const BUILT_IN: &[u8] = include_bytes!("../../fitted/network-8.bin");

/// The built-in network, decoded once.
pub fn built_in() -> &'static Network {
    static NETWORK: std::sync::OnceLock<Network> = std::sync::OnceLock::new();
    NETWORK.get_or_init(|| Network::decode(BUILT_IN).expect("the built-in network is well formed"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::{BoardSize, Symmetry};
    use crate::board::Board;
    use crate::eval::incremental::PatternState;
    use crate::eval::patterns::{INSTANCES, PatternWeights, built_in as linear, shared_lookups};
    use crate::eval::test_support::random_game_boards;
    use rand::{Rng, SeedableRng};

    pub(crate) fn random_network(width: usize, seed: u64) -> Network {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let table = (0..PHASE_WEIGHTS * width)
            .map(|_| rng.random_range(-40..40))
            .collect();
        let heads = (0..HEADS * (width + 1))
            .map(|_| rng.random_range(-300..300))
            .collect();
        Network::from_shared(width, table, heads)
    }

    fn with(network: &Network, board: Board) -> i32 {
        linear().evaluate_state_with(&PatternState::new(board), Some(network))
    }

    /// The network's part, summed from the trained (canonical) rows of the
    /// `pext` reading: what the folded rows of the state's indices give.
    fn from_shared_rows(network: &Network, board: Board) -> i32 {
        let w = network.width;
        let (mine, theirs) = crate::eval::patterns::mobilities(board);
        let mut acc: Vec<i32> = (0..w)
            .map(|j| {
                i32::from(network.folded[j])
                    + ((i32::from(network.folded[w + j]) * mine
                        + i32::from(network.folded[2 * w + j]) * theirs)
                        >> MOBILITY_SHIFT)
            })
            .collect();
        for &row in &shared_lookups(board) {
            for (j, a) in acc.iter_mut().enumerate() {
                *a += i32::from(network.folded[row as usize * w + j]);
            }
        }
        let phase = crate::eval::patterns::phase(board.empties().count_ones());
        let head = &network.heads[phase * (w + 1)..(phase + 1) * (w + 1)];
        let sum: i32 = acc
            .iter()
            .zip(head)
            .map(|(&a, &v)| a.clamp(0, ACC_SCALE) * i32::from(v))
            .sum();
        (sum >> 8) + i32::from(head[w])
    }

    #[test]
    fn folded_rows_of_the_state_give_the_trained_rows_of_the_reading() {
        let network = random_network(32, 1);
        for board in random_game_boards(BoardSize::Eight, 30, 2) {
            if board.legal_moves() == 0 && board.pass().legal_moves() == 0 {
                continue;
            }
            let state = PatternState::new(board);
            let rows: Vec<u32> = (0..INSTANCES)
                .map(|k| crate::eval::incremental::INSTANCE_OFFSETS[k] + u32::from(state.mine.0[k]))
                .collect();
            let (mine, theirs) = crate::eval::patterns::mobilities(board);
            let empties = board.empties().count_ones();
            assert_eq!(
                network.raw(&rows, empties, mine, theirs),
                from_shared_rows(&network, board)
            );
        }
    }

    #[test]
    fn the_evaluation_with_a_network_is_the_same_from_all_8_symmetries() {
        for (width, seed) in [(16, 3), (64, 4)] {
            let network = random_network(width, seed);
            for board in random_game_boards(BoardSize::Eight, 30, seed) {
                let expected = with(&network, board);
                for symmetry in Symmetry::ALL {
                    let image =
                        Board::new(symmetry.apply(board.player), symmetry.apply(board.opponent));
                    assert_eq!(with(&network, image), expected);
                }
            }
        }
    }

    #[test]
    fn the_network_is_added_to_the_linear_evaluation() {
        let network = random_network(32, 5);
        let mut differ = 0;
        for board in random_game_boards(BoardSize::Eight, 20, 6) {
            let alone = linear().evaluate(board);
            assert_eq!(
                linear().evaluate_state_with(&PatternState::new(board), None),
                alone
            );
            differ += usize::from(with(&network, board) != alone);
        }
        assert!(differ > 100, "{differ}");
        // A finished game is exact whatever the network says.
        let full = Board::new(u64::MAX << 1, 1);
        assert_eq!(with(&network, full), full.final_score_on(BoardSize::Eight));
    }

    #[test]
    fn encoding_round_trips_and_bad_files_are_refused() {
        let network = random_network(16, 7);
        let bytes = network.encode();
        assert_eq!(Network::decode(&bytes), Ok(network.clone()));
        assert_eq!(Network::decode(b"nonsense"), Err(FittedError::BadMagic));
        assert!(matches!(
            Network::decode(b"OXFD"),
            Err(FittedError::WrongLength { .. })
        ));
        assert!(matches!(
            Network::decode(&PatternWeights::zero().encode()),
            Err(FittedError::WrongKind { .. })
        ));
        let mut other_version = bytes.clone();
        other_version[8] = 9;
        assert!(matches!(
            Network::decode(&other_version),
            Err(FittedError::WrongVersion { found: 9, .. })
        ));
        let mut odd_width = bytes.clone();
        odd_width[10] = 17;
        assert!(matches!(
            Network::decode(&odd_width),
            Err(FittedError::WrongLayout { .. })
        ));
        let mut corrupt = bytes.clone();
        corrupt[bytes.len() / 2] ^= 0x10;
        assert!(matches!(
            Network::decode(&corrupt),
            Err(FittedError::BadChecksum { .. })
        ));
        assert!(Network::decode(&bytes[..bytes.len() - 2]).is_err());
        // The shipped file is what its network encodes: the folded table
        // holds all of the trained one.
        let shipped = Network::decode(BUILT_IN).expect("the built-in network");
        assert!(shipped.encode() == BUILT_IN);
    }
}
