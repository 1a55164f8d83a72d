//! Multi-ProbCut: cut a node when a shallow search predicts, with enough
//! confidence, that the deep search would fall outside the window.
//!
//! At a node searched to depth *d* with a null window at `alpha`, a search
//! of depth *d'* (same parity as *d*, about a quarter of it) gives *v'*. Our
//! own searches show that the depth-*d* score is about `slope·v' +
//! intercept`, with a normal error of standard deviation σ. When that
//! prediction lies above `beta` by *t*·σ (or below `alpha` by *t*·σ), the
//! deep search would fail high (low) with the confidence of the selectivity
//! level (see [`crate::search::selectivity`]), so the node returns at once.
//! The static evaluation, which costs little, decides which of the two tests
//! is worth its shallow search.
//!
//! In the solver the deep result is the exact final score, predicted from a
//! midgame search of the node (see [`endgame_shallow_depth`]).
//!
//! The regression and σ (as a linear function of the empties and the two
//! depths) are fitted from our own searches by `oxello fit-probcut` and ship
//! in `fitted/probcut.bin`, read once at start-up. The shipped ones come
//! from 400 midgame samples (14-54 empties, depth <= 12) and 300 endgame
//! samples (12-22 empties), seed 1, searched with the evaluation and the
//! search of bench signature 8711943: a new evaluation or a search that
//! changes the samples needs a refit (`oxello fit-probcut --out
//! fitted/probcut.bin`, the last step of `scripts/train-network.sh`).

use crate::board::Board;
use crate::fitted::{self, FittedError};
use crate::search::Search;
use crate::search::params::{
    ENDGAME_PROBCUT_MAX_SHALLOW, ENDGAME_PROBCUT_MIN_EMPTIES, PROBCUT_MIN_DEPTH, PROBCUT_MIN_SIGMA,
    SCORE_MAX, SCORE_MIN,
};
use std::fmt::Write as _;
use std::sync::OnceLock;

/// The fitted parameters, built into the binary.
const FITTED: &[u8] = include_bytes!("../../fitted/probcut.bin");

/// The kind and version of a parameter file ([`fitted`]).
const KIND: [u8; 4] = *b"PCUT";
const VERSION: u16 = 1;

/// The empties `oxello fit-probcut` samples midgame positions from.
pub const MIDGAME_SAMPLED_EMPTIES: (u32, u32) = (14, 54);

/// Deepest midgame depth and most empties the model covers.
const MAX: usize = 64;

/// The depth of the shallow search that predicts a depth-`depth` search:
/// about a quarter of it, with the same parity (so both end on the same
/// side to move, whose evaluations agree best).
pub const fn shallow_depth(depth: u32) -> u32 {
    2 * (depth / 4) + (depth & 1)
}

/// The depth of the midgame search that predicts the exact score of a
/// position with `empties` empty squares.
pub const fn endgame_shallow_depth(empties: u32) -> u32 {
    let d = empties / 4;
    if d > ENDGAME_PROBCUT_MAX_SHALLOW {
        ENDGAME_PROBCUT_MAX_SHALLOW
    } else {
        d
    }
}

/// A linear prediction `slope·v + intercept` with error σ.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prediction {
    pub slope: f64,
    pub intercept: f64,
    pub sigma: f64,
}

/// Everything a node needs to try a cut.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cut {
    /// Depth of the shallow search (0: the static evaluation).
    pub shallow: u32,
    /// The deep score from the shallow search's.
    pub search: Prediction,
    /// The deep score from the static evaluation (chooses the test to try).
    pub eval: Prediction,
}

/// `σ = a·empties + b·depth + c·shallow + k`, at least [`PROBCUT_MIN_SIGMA`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SigmaModel {
    pub empties: f64,
    pub depth: f64,
    pub shallow: f64,
    pub constant: f64,
}

impl SigmaModel {
    pub fn sigma(&self, empties: u32, depth: u32, shallow: u32) -> f64 {
        (self.empties * empties as f64
            + self.depth * depth as f64
            + self.shallow * shallow as f64
            + self.constant)
            .max(PROBCUT_MIN_SIGMA)
    }
}

impl std::fmt::Display for SigmaModel {
    /// The four coefficients: `a b c k`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:.5} {:.5} {:.5} {:.5}",
            self.empties, self.depth, self.shallow, self.constant
        )
    }
}

/// The fitted parameters, as in `fitted/probcut.bin`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parameters {
    /// `(depth, shallow, slope, intercept)`: the midgame regressions.
    pub midgame_pairs: Vec<(u32, u32, f64, f64)>,
    pub midgame_sigma: SigmaModel,
    /// `(shallow, slope, intercept)`: the exact score from a shallow search.
    pub endgame_pairs: Vec<(u32, f64, f64)>,
    /// σ of the exact score (its `depth` term is unused: the deep search
    /// is the solve).
    pub endgame_sigma: SigmaModel,
    /// The deepest midgame depth fitted: deeper searches use its σ (same
    /// parity), since a linear σ is not to be trusted far outside its data.
    pub max_depth: u32,
    /// Likewise the most empties of an endgame sample.
    pub max_endgame_empties: u32,
}

impl Parameters {
    /// The layout of a parameter file ([`fitted`]): its counts of midgame
    /// and endgame regressions.
    fn layout(&self) -> fitted::Layout {
        fitted::Layout {
            kind: KIND,
            version: VERSION,
            fields: [
                self.midgame_pairs.len() as u32,
                self.endgame_pairs.len() as u32,
                0,
            ],
        }
    }

    /// The file form ([`fitted`], kind `PCUT`): the range, the midgame
    /// regressions (depth, shallow, slope, intercept) and σ model, the
    /// endgame regressions (shallow, slope, intercept) and σ model, as
    /// `f64`.
    pub fn encode(&self) -> Vec<u8> {
        let sigma = |s: &SigmaModel| [s.empties, s.depth, s.shallow, s.constant];
        let mut values = vec![
            f64::from(self.max_depth),
            f64::from(self.max_endgame_empties),
        ];
        for &(depth, shallow, slope, intercept) in &self.midgame_pairs {
            values.extend([f64::from(depth), f64::from(shallow), slope, intercept]);
        }
        values.extend(sigma(&self.midgame_sigma));
        for &(shallow, slope, intercept) in &self.endgame_pairs {
            values.extend([f64::from(shallow), slope, intercept]);
        }
        values.extend(sigma(&self.endgame_sigma));
        fitted::encode(&self.layout(), &fitted::f64s(&values))
    }

    /// Reads the form [`Parameters::encode`] writes, refusing another kind
    /// or version, a failed checksum, or a file without regressions.
    pub fn decode(bytes: &[u8]) -> Result<Parameters, FittedError> {
        let ([midgame, endgame, _], body) = fitted::open(KIND, VERSION, bytes)?;
        let (midgame, endgame) = (midgame as usize, endgame as usize);
        let values = fitted::read_f64s(body, 2 + 4 * midgame + 4 + 3 * endgame + 4)?;
        let sigma = |v: &[f64]| SigmaModel {
            empties: v[0],
            depth: v[1],
            shallow: v[2],
            constant: v[3],
        };
        let (range, rest) = values.split_at(2);
        let (pairs, rest) = rest.split_at(4 * midgame);
        let (midgame_sigma, rest) = rest.split_at(4);
        let (endgame_pairs, endgame_sigma) = rest.split_at(3 * endgame);
        let parameters = Parameters {
            midgame_pairs: pairs
                .chunks_exact(4)
                .map(|p| (p[0] as u32, p[1] as u32, p[2], p[3]))
                .collect(),
            midgame_sigma: sigma(midgame_sigma),
            endgame_pairs: endgame_pairs
                .chunks_exact(3)
                .map(|p| (p[0] as u32, p[1], p[2]))
                .collect(),
            endgame_sigma: sigma(endgame_sigma),
            max_depth: range[0] as u32,
            max_endgame_empties: range[1] as u32,
        };
        if midgame == 0
            || endgame == 0
            || parameters.max_depth < PROBCUT_MIN_DEPTH
            || parameters.max_endgame_empties == 0
        {
            return Err(FittedError::WrongLayout {
                found: [midgame as u32, endgame as u32, 0],
                expected: [1, 1, 0],
            });
        }
        Ok(parameters)
    }

    /// The parameters as text, one line per regression, then the σ models:
    /// what `oxello fit-probcut` prints.
    pub fn to_text(&self, header: &str) -> String {
        let mut text = String::new();
        for line in header.lines() {
            let _ = writeln!(text, "# {line}");
        }
        let _ = writeln!(
            text,
            "# range max-depth max-endgame-empties: the data's extent (sigma is not extrapolated past it)"
        );
        let _ = writeln!(
            text,
            "range {} {}",
            self.max_depth, self.max_endgame_empties
        );
        let _ = writeln!(
            text,
            "# midgame-pair depth shallow slope intercept: depth score ~ slope * shallow score + intercept"
        );
        for &(d, s, slope, intercept) in &self.midgame_pairs {
            let _ = writeln!(text, "midgame-pair {d} {s} {slope:.4} {intercept:.4}");
        }
        let _ = writeln!(
            text,
            "# midgame-sigma a b c k: sigma = a * empties + b * depth + c * shallow + k"
        );
        let _ = writeln!(text, "midgame-sigma {}", self.midgame_sigma);
        let _ = writeln!(
            text,
            "# endgame-pair shallow slope intercept: exact score ~ slope * shallow score + intercept"
        );
        for &(s, slope, intercept) in &self.endgame_pairs {
            let _ = writeln!(text, "endgame-pair {s} {slope:.4} {intercept:.4}");
        }
        let _ = writeln!(
            text,
            "# endgame-sigma a b c k: sigma = a * empties + b * 0 + c * shallow + k"
        );
        let _ = writeln!(text, "endgame-sigma {}", self.endgame_sigma);
        text
    }

    /// The midgame regression of (`depth`, `shallow`), or the nearest fitted
    /// one of the same shallow depth's parity (deeper pairs than were fitted
    /// reuse the deepest).
    fn midgame_pair(&self, depth: u32, shallow: u32) -> (f64, f64) {
        let exact = self
            .midgame_pairs
            .iter()
            .find(|p| p.0 == depth && p.1 == shallow);
        let nearest = || {
            self.midgame_pairs
                .iter()
                .filter(|p| (p.1 == 0) == (shallow == 0) && p.0 % 2 == depth % 2)
                .min_by_key(|p| p.0.abs_diff(depth))
        };
        exact.or_else(nearest).map_or((1.0, 0.0), |p| (p.2, p.3))
    }

    /// The endgame regression of `shallow`, or the nearest fitted one.
    fn endgame_pair(&self, shallow: u32) -> (f64, f64) {
        self.endgame_pairs
            .iter()
            .min_by_key(|p| p.0.abs_diff(shallow))
            .map_or((1.0, 0.0), |p| (p.1, p.2))
    }
}

/// The cuts of every (empties, depth), computed once from the parameters.
pub struct Model {
    midgame: Vec<Option<Cut>>,
    endgame: Vec<Option<Cut>>,
}

impl Model {
    /// Precomputes the cuts of `parameters`.
    pub fn new(parameters: &Parameters) -> Model {
        let prediction = |(slope, intercept): (f64, f64), sigma: f64| Prediction {
            slope,
            intercept,
            sigma,
        };
        let mut midgame = vec![None; (MAX + 1) * (MAX + 1)];
        for empties in 0..=MAX as u32 {
            for depth in PROBCUT_MIN_DEPTH..empties {
                let shallow = shallow_depth(depth);
                let m = &parameters.midgame_sigma;
                // σ of deeper searches than were fitted: the deepest fitted
                // pair of the same parity.
                let fitted = if depth > parameters.max_depth {
                    parameters.max_depth - (depth - parameters.max_depth) % 2
                } else {
                    depth
                };
                // Likewise σ is read within the sampled empties.
                let sampled = empties.clamp(MIDGAME_SAMPLED_EMPTIES.0, MIDGAME_SAMPLED_EMPTIES.1);
                midgame[empties as usize * (MAX + 1) + depth as usize] = Some(Cut {
                    shallow,
                    search: prediction(
                        parameters.midgame_pair(depth, shallow),
                        m.sigma(sampled, fitted, shallow_depth(fitted)),
                    ),
                    eval: prediction(
                        parameters.midgame_pair(depth, 0),
                        m.sigma(sampled, fitted, 0),
                    ),
                });
            }
        }
        let mut endgame = vec![None; MAX + 1];
        for empties in ENDGAME_PROBCUT_MIN_EMPTIES..=MAX as u32 {
            let shallow = endgame_shallow_depth(empties);
            let e = &parameters.endgame_sigma;
            let fitted = empties.min(parameters.max_endgame_empties);
            endgame[empties as usize] = Some(Cut {
                shallow,
                search: prediction(
                    parameters.endgame_pair(shallow),
                    e.sigma(fitted, 0, shallow),
                ),
                eval: prediction(parameters.endgame_pair(0), e.sigma(fitted, 0, 0)),
            });
        }
        Model { midgame, endgame }
    }

    /// The cut of a midgame node of `depth` with `empties` empty squares.
    #[inline]
    pub fn midgame(&self, empties: u32, depth: u32) -> Option<&Cut> {
        if empties as usize > MAX || depth as usize > MAX {
            return None;
        }
        self.midgame[empties as usize * (MAX + 1) + depth as usize].as_ref()
    }

    /// The cut of a solver node with `empties` empty squares.
    #[inline]
    pub fn endgame(&self, empties: u32) -> Option<&Cut> {
        self.endgame.get(empties as usize)?.as_ref()
    }
}

/// The model of the built-in parameters.
pub fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| {
        let parameters = Parameters::decode(FITTED).expect("the built-in parameters decode");
        Model::new(&parameters)
    })
}

impl Search<'_> {
    /// Multi-ProbCut at a midgame null-window node: `Some(score)` when a
    /// shallow search shows the node fails high or low with the confidence
    /// of the search's selectivity.
    #[inline]
    pub(crate) fn midgame_probcut(
        &mut self,
        board: Board,
        alpha: i32,
        depth: u32,
        empties: u32,
    ) -> Option<i32> {
        let t = self.step.selectivity.threshold()?;
        let cut = *self.probcut.midgame(empties, depth)?;
        self.probcut(board, alpha, t, &cut)
    }

    /// Multi-ProbCut at a solver node: the exact score predicted from a
    /// shallow midgame search.
    #[inline]
    pub(crate) fn endgame_probcut(
        &mut self,
        board: Board,
        alpha: i32,
        empties: u32,
    ) -> Option<i32> {
        let t = self.step.selectivity.threshold()?;
        let cut = *self.probcut.endgame(empties)?;
        self.probcut(board, alpha, t, &cut)
    }

    /// Tries the cut the evaluation points to: fail high when it predicts a
    /// score above `alpha`, fail low otherwise.
    fn probcut(&mut self, board: Board, alpha: i32, t: f64, cut: &Cut) -> Option<i32> {
        let beta = alpha + 1;
        let eval = self.evaluate(board) as f64;
        let predicted = cut.eval.slope * eval + cut.eval.intercept;
        let p = cut.search;
        if predicted >= beta as f64 {
            // The deep score is at least beta if slope·v + intercept - tσ >= beta.
            let bound = ((beta as f64 + t * p.sigma - p.intercept) / p.slope).ceil() as i32;
            if bound <= SCORE_MAX && self.shallow_nws(board, bound - 1, cut.shallow) >= bound {
                return Some(beta);
            }
        } else {
            let bound = ((alpha as f64 - t * p.sigma - p.intercept) / p.slope).floor() as i32;
            if bound >= SCORE_MIN && self.shallow_nws(board, bound, cut.shallow) <= bound {
                return Some(alpha);
            }
        }
        None
    }

    /// The null-window search of a probcut test (depth 0: the evaluation).
    fn shallow_nws(&mut self, board: Board, alpha: i32, depth: u32) -> i32 {
        if depth == 0 {
            self.evaluate(board)
        } else {
            self.nws(board, alpha, depth)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_depths_keep_parity_and_stay_shallower() {
        for depth in PROBCUT_MIN_DEPTH..40 {
            let s = shallow_depth(depth);
            assert_eq!(s % 2, depth % 2, "depth {depth}");
            assert!(s < depth, "depth {depth}");
        }
        assert!(endgame_shallow_depth(60) <= ENDGAME_PROBCUT_MAX_SHALLOW);
    }

    #[test]
    fn built_in_parameters_decode_and_round_trip() {
        let parameters = Parameters::decode(FITTED).unwrap();
        assert_eq!(Parameters::decode(&parameters.encode()), Ok(parameters));
        let model = model();
        let cut = model.midgame(30, 10).unwrap();
        assert_eq!(cut.shallow, shallow_depth(10));
        assert!(cut.search.sigma >= PROBCUT_MIN_SIGMA);
        // Slopes near 1: a search predicts a deeper one of the same scale.
        assert!((0.5..1.5).contains(&cut.search.slope), "{cut:?}");
        assert!(model.midgame(30, 1).is_none());
        assert!(model.endgame(ENDGAME_PROBCUT_MIN_EMPTIES - 1).is_none());
        assert!(model.endgame(24).is_some());
    }

    #[test]
    fn depths_past_the_fitted_ones_reuse_the_deepest_of_their_parity() {
        let parameters = Parameters::decode(FITTED).unwrap();
        let model = Model::new(&parameters);
        let deepest = parameters.max_depth;
        for extra in 1..6 {
            let cut = model.midgame(60, deepest + extra).unwrap();
            let same = model.midgame(60, deepest - extra % 2).unwrap();
            assert_eq!(
                cut.search.sigma,
                same.search.sigma,
                "depth {}",
                deepest + extra
            );
        }
    }

    #[test]
    fn bad_parameter_files_are_refused() {
        assert_eq!(Parameters::decode(b""), Err(FittedError::BadMagic));
        let empty = Parameters {
            max_depth: 12,
            max_endgame_empties: 22,
            ..Parameters::default()
        };
        assert!(matches!(
            Parameters::decode(&empty.encode()),
            Err(FittedError::WrongLayout { .. })
        ));
        let bytes = Parameters::decode(FITTED).unwrap().encode();
        assert!(matches!(
            Parameters::decode(&bytes[..bytes.len() - 8]),
            Err(FittedError::BadChecksum { .. })
        ));
        let pattern_weights = crate::eval::patterns::built_in().encode();
        assert!(matches!(
            Parameters::decode(&pattern_weights),
            Err(FittedError::WrongKind { .. })
        ));
    }
}
