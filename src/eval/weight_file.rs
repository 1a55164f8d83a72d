//! The file format of the learned evaluations' weights (8x8
//! [`patterns`](super::patterns) and 6x6 [`six`](super::six)): a header
//! naming the evaluation and its layout, then the weights, checked.
//!
//! A header of 18 bytes: the evaluation's 4-byte magic, then little-endian
//! its format version (u16), its number of shapes (u16), of phases (u16),
//! of weights per phase (u32) and the FNV-1a checksum of the body (u32).
//! The body is the weights as little-endian `i16`, phase by phase, with
//! each run of zeros written as [`ZERO_RUN`] and the run length (trained
//! tables are sparse: most contents never occur).

/// What a weight file must declare to be read as one evaluation's weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub magic: &'static [u8; 4],
    pub version: u16,
    pub shapes: u16,
    pub phases: u16,
    pub phase_weights: u32,
}

impl Layout {
    /// Weights in a file of this layout.
    pub const fn weights(&self) -> usize {
        self.phases as usize * self.phase_weights as usize
    }
}

/// Why a weight file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WeightsError {
    /// The file does not start with the evaluation's magic (`expected`):
    /// another evaluation's weights, or not a weight file.
    BadMagic { expected: [u8; 4] },
    /// The file is of another format version.
    WrongVersion { found: u16, expected: u16 },
    /// The file was written for other patterns or phases.
    WrongLayout,
    /// The body's checksum does not match the header's.
    BadChecksum { found: u32, expected: u32 },
    /// The file ends early or has the wrong number of weights.
    WrongLength { found: usize, expected: usize },
}

impl std::fmt::Display for WeightsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WeightsError::BadMagic { expected } => write!(
                f,
                "not an oxello weight file of this evaluation (it starts with {})",
                String::from_utf8_lossy(expected)
            ),
            WeightsError::WrongVersion { found, expected } => {
                write!(f, "weight file version {found}, expected {expected}")
            }
            WeightsError::WrongLayout => {
                write!(f, "weight file made for other patterns or phases")
            }
            WeightsError::BadChecksum { found, expected } => write!(
                f,
                "weight file corrupt: checksum {found:08x}, expected {expected:08x}"
            ),
            WeightsError::WrongLength { found, expected } => {
                write!(f, "weight file holds {found} weights, expected {expected}")
            }
        }
    }
}

impl std::error::Error for WeightsError {}

/// Length of the header: magic, version, shapes, phases, weights per phase,
/// checksum.
pub const HEADER: usize = 4 + 2 + 2 + 2 + 4 + 4;

/// In a weight file, this value starts a run of zeros; the next value is
/// the run's length.
pub const ZERO_RUN: i16 = i16::MIN;

/// FNV-1a, 32 bits: the body checksum.
fn checksum(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |hash, &b| {
        (hash ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// The file of `weights` (as many as `layout` holds).
pub fn encode(layout: &Layout, weights: &[i16]) -> Vec<u8> {
    assert_eq!(weights.len(), layout.weights());
    let mut body = Vec::new();
    let mut i = 0;
    while i < weights.len() {
        if weights[i] == 0 {
            let mut run = 0;
            while i < weights.len() && weights[i] == 0 && run < i16::MAX {
                run += 1;
                i += 1;
            }
            body.extend_from_slice(&ZERO_RUN.to_le_bytes());
            body.extend_from_slice(&run.to_le_bytes());
        } else {
            body.extend_from_slice(&weights[i].max(-i16::MAX).to_le_bytes());
            i += 1;
        }
    }
    let mut out = layout.magic.to_vec();
    out.extend_from_slice(&layout.version.to_le_bytes());
    out.extend_from_slice(&layout.shapes.to_le_bytes());
    out.extend_from_slice(&layout.phases.to_le_bytes());
    out.extend_from_slice(&layout.phase_weights.to_le_bytes());
    out.extend_from_slice(&checksum(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// The weights of a file [`encode`] wrote for `layout`, refusing a file of
/// another evaluation, version or layout, or whose checksum fails.
pub fn decode(layout: &Layout, bytes: &[u8]) -> Result<Vec<i16>, WeightsError> {
    let body = bytes
        .strip_prefix(layout.magic)
        .ok_or(WeightsError::BadMagic {
            expected: *layout.magic,
        })?;
    let expected = layout.weights();
    let u16_at = |i: usize| u16::from_le_bytes([body[i], body[i + 1]]);
    let u32_at = |i: usize| u32::from_le_bytes([body[i], body[i + 1], body[i + 2], body[i + 3]]);
    let too_short = WeightsError::WrongLength { found: 0, expected };
    if body.len() < 2 {
        return Err(too_short);
    }
    let version = u16_at(0);
    if version != layout.version {
        return Err(WeightsError::WrongVersion {
            found: version,
            expected: layout.version,
        });
    }
    if body.len() < HEADER - layout.magic.len() {
        return Err(too_short);
    }
    if u16_at(2) != layout.shapes || u16_at(4) != layout.phases || u32_at(6) != layout.phase_weights
    {
        return Err(WeightsError::WrongLayout);
    }
    let stored = u32_at(10);
    let body = &body[HEADER - layout.magic.len()..];
    let found = checksum(body);
    if found != stored {
        return Err(WeightsError::BadChecksum {
            found,
            expected: stored,
        });
    }
    let mut weights = Vec::with_capacity(expected);
    let mut values = body
        .chunks_exact(2)
        .map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
    while let Some(value) = values.next() {
        if value == ZERO_RUN {
            let run = values.next().ok_or(WeightsError::WrongLength {
                found: weights.len(),
                expected,
            })?;
            let run = usize::try_from(run).unwrap_or(0);
            weights.resize(weights.len() + run, 0);
        } else {
            weights.push(value);
        }
        if weights.len() > expected {
            break;
        }
    }
    if weights.len() != expected || !body.len().is_multiple_of(2) {
        return Err(WeightsError::WrongLength {
            found: weights.len(),
            expected,
        });
    }
    Ok(weights)
}
