//! The one file format of fitted data: the learned evaluations' weights,
//! the ProbCut regressions, the gomoku evaluation's weights. Every such file
//! lives in `fitted/` at the crate root, is written by its trainer and is
//! built into the binary with `include_bytes!`.
//!
//! A header of 26 bytes, then the body:
//!
//! | bytes | field |
//! |---|---|
//! | 4 | [`MAGIC`], `OXFD` |
//! | 4 | the kind of data, e.g. `PAT8` (8x8 pattern weights) |
//! | 2 | the kind's format version (little-endian, as every number) |
//! | 12 | three `u32` layout fields, the kind's own (e.g. shapes, phases, weights per phase) |
//! | 4 | the FNV-1a checksum of the body |
//!
//! The body is numbers in little-endian: `i16` with each run of zeros
//! written as [`ZERO_RUN`] and the run length ([`i16_runs`]: trained
//! tables are sparse), `i32` ([`i32s`]) or `f64` ([`f64s`]).

use std::fmt;

/// First bytes of every fitted file.
pub const MAGIC: [u8; 4] = *b"OXFD";

/// Length of the header: magic, kind, version, layout, checksum.
pub const HEADER: usize = 4 + 4 + 2 + 12 + 4;

/// In an `i16` body, this value starts a run of zeros; the next value is
/// the run's length.
pub const ZERO_RUN: i16 = i16::MIN;

/// What a fitted file must declare to be read as one kind of data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub kind: [u8; 4],
    pub version: u16,
    pub fields: [u32; 3],
}

/// Why a fitted file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FittedError {
    /// The file does not start with [`MAGIC`]: not a fitted file.
    BadMagic,
    /// The file holds another kind of data.
    WrongKind { found: [u8; 4], expected: [u8; 4] },
    /// The file is of another format version.
    WrongVersion { found: u16, expected: u16 },
    /// The file was written for another layout (other patterns or phases).
    WrongLayout { found: [u32; 3], expected: [u32; 3] },
    /// The body's checksum does not match the header's.
    BadChecksum { found: u32, expected: u32 },
    /// The file ends early or holds the wrong number of values.
    WrongLength { found: usize, expected: usize },
}

impl fmt::Display for FittedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FittedError::BadMagic => write!(f, "not an oxello fitted-data file"),
            FittedError::WrongKind { found, expected } => write!(
                f,
                "fitted file of kind {}, expected {}",
                String::from_utf8_lossy(found),
                String::from_utf8_lossy(expected)
            ),
            FittedError::WrongVersion { found, expected } => {
                write!(f, "fitted file version {found}, expected {expected}")
            }
            FittedError::WrongLayout { found, expected } => {
                write!(f, "fitted file of layout {found:?}, expected {expected:?}")
            }
            FittedError::BadChecksum { found, expected } => write!(
                f,
                "fitted file corrupt: checksum {found:08x}, expected {expected:08x}"
            ),
            FittedError::WrongLength { found, expected } => {
                write!(f, "fitted file holds {found} values, expected {expected}")
            }
        }
    }
}

impl std::error::Error for FittedError {}

/// FNV-1a, 32 bits: the body checksum.
pub(crate) const fn checksum(bytes: &[u8]) -> u32 {
    checksum_on(FNV_START, bytes)
}

/// FNV-1a's starting value.
pub(crate) const FNV_START: u32 = 0x811c_9dc5;

/// The FNV-1a checksum of some bytes (`hash`, [`FNV_START`] for none)
/// and then `bytes`: a checksum taken piece by piece, as a table
/// checkpoint's ([`crate::search::checkpoint`]).
pub(crate) const fn checksum_on(mut hash: u32, bytes: &[u8]) -> u32 {
    let mut i = 0;
    while i < bytes.len() {
        hash = (hash ^ bytes[i] as u32).wrapping_mul(0x0100_0193);
        i += 1;
    }
    hash
}

const fn u16_at(bytes: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([bytes[i], bytes[i + 1]])
}

const fn u32_at(bytes: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]])
}

/// The file of `body` under the header of `layout`.
pub fn encode(layout: &Layout, body: &[u8]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&layout.kind);
    out.extend_from_slice(&layout.version.to_le_bytes());
    for field in layout.fields {
        out.extend_from_slice(&field.to_le_bytes());
    }
    out.extend_from_slice(&checksum(body).to_le_bytes());
    out.extend_from_slice(body);
    out
}

/// The body of a file [`encode`] wrote for `layout`, refusing a file of
/// another kind, version or layout, or whose checksum fails. A `const fn`,
/// so that data built into a compile-time table is checked when compiled.
pub const fn decode<'a>(layout: &Layout, bytes: &'a [u8]) -> Result<&'a [u8], FittedError> {
    let (fields, body) = match open(layout.kind, layout.version, bytes) {
        Ok(opened) => opened,
        Err(error) => return Err(error),
    };
    if fields[0] != layout.fields[0]
        || fields[1] != layout.fields[1]
        || fields[2] != layout.fields[2]
    {
        return Err(FittedError::WrongLayout {
            found: fields,
            expected: layout.fields,
        });
    }
    Ok(body)
}

/// The layout fields and the body of a file of `kind` and `version`, for
/// data whose layout the fields describe; refuses a file of another kind or
/// version, or whose checksum fails.
pub const fn open(
    kind: [u8; 4],
    version: u16,
    bytes: &[u8],
) -> Result<([u32; 3], &[u8]), FittedError> {
    let layout = Layout {
        kind,
        version,
        fields: [0; 3],
    };
    if bytes.len() < 4
        || bytes[0] != MAGIC[0]
        || bytes[1] != MAGIC[1]
        || bytes[2] != MAGIC[2]
        || bytes[3] != MAGIC[3]
    {
        return Err(FittedError::BadMagic);
    }
    let too_short = FittedError::WrongLength {
        found: 0,
        expected: HEADER,
    };
    if bytes.len() < 8 {
        return Err(too_short);
    }
    let found = [bytes[4], bytes[5], bytes[6], bytes[7]];
    if u32::from_le_bytes(found) != u32::from_le_bytes(layout.kind) {
        return Err(FittedError::WrongKind {
            found,
            expected: layout.kind,
        });
    }
    if bytes.len() < 10 {
        return Err(too_short);
    }
    let version = u16_at(bytes, 8);
    if version != layout.version {
        return Err(FittedError::WrongVersion {
            found: version,
            expected: layout.version,
        });
    }
    if bytes.len() < HEADER {
        return Err(too_short);
    }
    let fields = [u32_at(bytes, 10), u32_at(bytes, 14), u32_at(bytes, 18)];
    let stored = u32_at(bytes, 22);
    let body = bytes.split_at(HEADER).1;
    let found = checksum(body);
    if found != stored {
        return Err(FittedError::BadChecksum {
            found,
            expected: stored,
        });
    }
    Ok((fields, body))
}

/// The body of `values` as `i16`, runs of zeros shortened.
pub fn i16_runs(values: &[i16]) -> Vec<u8> {
    let mut body = Vec::new();
    let mut i = 0;
    while i < values.len() {
        if values[i] == 0 {
            let mut run = 0;
            while i < values.len() && values[i] == 0 && run < i16::MAX {
                run += 1;
                i += 1;
            }
            body.extend_from_slice(&ZERO_RUN.to_le_bytes());
            body.extend_from_slice(&run.to_le_bytes());
        } else {
            body.extend_from_slice(&values[i].max(-i16::MAX).to_le_bytes());
            i += 1;
        }
    }
    body
}

/// The `expected` values of a body [`i16_runs`] wrote.
pub fn read_i16_runs(body: &[u8], expected: usize) -> Result<Vec<i16>, FittedError> {
    let mut values = Vec::with_capacity(expected);
    let mut numbers = body
        .chunks_exact(2)
        .map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
    while let Some(value) = numbers.next() {
        if value == ZERO_RUN {
            let run = numbers.next().ok_or(FittedError::WrongLength {
                found: values.len(),
                expected,
            })?;
            let run = usize::try_from(run).unwrap_or(0);
            values.resize(values.len() + run, 0);
        } else {
            values.push(value);
        }
        if values.len() > expected {
            break;
        }
    }
    if values.len() != expected || !body.len().is_multiple_of(2) {
        return Err(FittedError::WrongLength {
            found: values.len(),
            expected,
        });
    }
    Ok(values)
}

/// The body of `values` as `i32`.
pub fn i32s(values: &[i32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The `N` values of a body [`i32s`] wrote, at compile time.
pub const fn read_i32s<const N: usize>(body: &[u8]) -> Result<[i32; N], FittedError> {
    if body.len() != 4 * N {
        return Err(FittedError::WrongLength {
            found: body.len() / 4,
            expected: N,
        });
    }
    let mut values = [0; N];
    let mut i = 0;
    while i < N {
        values[i] = u32_at(body, 4 * i) as i32;
        i += 1;
    }
    Ok(values)
}

/// The body of `values` as `f64`.
pub fn f64s(values: &[f64]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The `expected` values of a body [`f64s`] wrote.
pub fn read_f64s(body: &[u8], expected: usize) -> Result<Vec<f64>, FittedError> {
    if body.len() != 8 * expected {
        return Err(FittedError::WrongLength {
            found: body.len() / 8,
            expected,
        });
    }
    Ok(body
        .chunks_exact(8)
        .map(|b| f64::from_le_bytes(b.try_into().expect("8 bytes")))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAYOUT: Layout = Layout {
        kind: *b"TEST",
        version: 3,
        fields: [1, 2, 3],
    };

    #[test]
    fn files_round_trip_and_bad_ones_are_refused() {
        let values: Vec<i16> = (0..500).map(|i| if i % 7 == 0 { i } else { 0 }).collect();
        let bytes = encode(&LAYOUT, &i16_runs(&values));
        let body = decode(&LAYOUT, &bytes).unwrap();
        assert_eq!(read_i16_runs(body, values.len()), Ok(values.clone()));
        assert_eq!(decode(&LAYOUT, b"nonsense"), Err(FittedError::BadMagic));
        let other_kind = Layout {
            kind: *b"ELSE",
            ..LAYOUT
        };
        assert_eq!(
            decode(&other_kind, &bytes),
            Err(FittedError::WrongKind {
                found: *b"TEST",
                expected: *b"ELSE"
            })
        );
        let mut other_version = bytes.clone();
        other_version[8] = 9;
        assert_eq!(
            decode(&LAYOUT, &other_version),
            Err(FittedError::WrongVersion {
                found: 9,
                expected: 3
            })
        );
        let mut other_layout = bytes.clone();
        other_layout[10] ^= 1;
        assert!(matches!(
            decode(&LAYOUT, &other_layout),
            Err(FittedError::WrongLayout { .. })
        ));
        // A flipped bit anywhere in the body.
        for at in [HEADER, HEADER + 1, bytes.len() / 2, bytes.len() - 1] {
            let mut corrupt = bytes.clone();
            corrupt[at] ^= 0x10;
            assert!(
                matches!(
                    decode(&LAYOUT, &corrupt),
                    Err(FittedError::BadChecksum { .. })
                ),
                "{at}"
            );
        }
        // Truncated: in the header, or in the body.
        assert!(matches!(
            decode(&LAYOUT, &bytes[..HEADER - 1]),
            Err(FittedError::WrongLength { .. })
        ));
        let short = encode(&LAYOUT, &i16_runs(&values[..values.len() - 1]));
        assert!(matches!(
            read_i16_runs(decode(&LAYOUT, &short).unwrap(), values.len()),
            Err(FittedError::WrongLength { .. })
        ));
        let cut = encode(&LAYOUT, &i16_runs(&values)[..9]);
        assert!(read_i16_runs(decode(&LAYOUT, &cut).unwrap(), values.len()).is_err());
    }

    #[test]
    fn numbers_round_trip() {
        let ints = [i32::MIN, -1, 0, 7, i32::MAX];
        assert_eq!(read_i32s::<5>(&i32s(&ints)), Ok(ints));
        assert!(read_i32s::<4>(&i32s(&ints)).is_err());
        let floats = [0.9900, -0.3087, 1e-300, f64::MAX];
        assert_eq!(read_f64s(&f64s(&floats), 4), Ok(floats.to_vec()));
        assert!(read_f64s(&f64s(&floats), 5).is_err());
    }
}
