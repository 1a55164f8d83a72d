//! The AlphaZero layout as NumPy arrays in an `.npz` archive, as
//! junxiaosong/AlphaZero_Gomoku's trainer holds its samples, so that the
//! usual Python trainers read it with `numpy.load` as is:
//!
//! | Array | dtype, shape | Content |
//! |---|---|---|
//! | `states` | float32 `[N, 4, H, W]` | plane 0 the side to move's stones (discs), 1 the opponent's, 2 the last move (one-hot; all zero when unknown or a pass), 3 all ones when Black is to move, all zeros when White is |
//! | `mcts_probs` | float32 `[N, H*W]` | the recorded policy, cell `row * W + column` |
//! | `winner` | float32 `[N]` | +1 the side to move won, 0 draw, -1 lost |
//!
//! Row 0 is the board's first row (Othello's row 1, gomoku's `y = 0`), the
//! same reading order as the board strings of the JSONL records; there is no
//! flip. Each archive member is a `.npy` file, stored uncompressed, as
//! `numpy.savez` writes them, dated 1980-01-01 so that the same records give
//! the same bytes.
//!
//! A run with `--format npz` writes its records to the JSONL journal
//! `<output>.jsonl` as it goes (resumed like any JSONL output) and, once
//! every game of its shard is in the journal, writes `<output>` from the
//! whole journal (to a temporary file renamed into place). A shard's npz
//! holds its shard's games: trainers concatenate the shards' arrays.

use super::game::TrainingRecord;
use npyz::WriterBuilder;
use std::io::{self, Seek, Write};

/// One record as arrays: cells are `row * width + column`.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub width: usize,
    pub height: usize,
    /// The side to move's stones.
    pub own: Vec<usize>,
    /// The opponent's stones.
    pub opponent: Vec<usize>,
    /// The move that led to the position, if known and not a pass.
    pub last: Option<usize>,
    pub black_to_move: bool,
    /// The policy's non-zero cells.
    pub probs: Vec<(usize, f32)>,
    /// +1 win, 0 draw, -1 loss for the side to move.
    pub z: f32,
}

/// The samples of records read in file order, each told the record before
/// it in its game.
pub fn samples<R: TrainingRecord>(records: &[R]) -> Vec<Sample> {
    let mut previous: Option<&R> = None;
    records
        .iter()
        .map(|record| {
            let before =
                previous.filter(|p| p.game() == record.game() && p.index() + 1 == record.index());
            previous = Some(record);
            record.sample(before)
        })
        .collect()
}

/// Writes one sample's rows of the `states` and `mcts_probs` arrays (see
/// the module header): `planes` holds its `4 * H * W` cells and `probs` its
/// `H * W`, both zeroed. The Python package builds its arrays with it too.
pub fn fill(sample: &Sample, planes: &mut [f32], probs: &mut [f32]) {
    let cells = sample.width * sample.height;
    let (own, rest) = planes.split_at_mut(cells);
    let (opponent, rest) = rest.split_at_mut(cells);
    let (last, colour) = rest.split_at_mut(cells);
    for (plane, stones) in [(own, &sample.own), (opponent, &sample.opponent)] {
        for &cell in stones {
            plane[cell] = 1.0;
        }
    }
    if let Some(cell) = sample.last {
        last[cell] = 1.0;
    }
    if sample.black_to_move {
        colour.fill(1.0);
    }
    for &(cell, p) in &sample.probs {
        probs[cell] = p;
    }
}

/// Writes the samples as an `.npz` archive. Every sample must have the
/// board size of the first; an empty list writes arrays of 0 rows and a
/// 0x0 board.
pub fn write(out: impl Write + Seek, samples: &[Sample]) -> io::Result<()> {
    let (width, height) = samples.first().map_or((0, 0), |s| (s.width, s.height));
    if let Some(odd) = samples
        .iter()
        .find(|s| (s.width, s.height) != (width, height))
    {
        return Err(io::Error::other(format!(
            "a {}x{} board among {width}x{height} ones: one npz holds one board size",
            odd.width, odd.height
        )));
    }
    let cells = width * height;
    let mut states = vec![0f32; samples.len() * 4 * cells];
    let mut probs = vec![0f32; samples.len() * cells];
    for (i, sample) in samples.iter().enumerate() {
        fill(
            sample,
            &mut states[i * 4 * cells..(i + 1) * 4 * cells],
            &mut probs[i * cells..(i + 1) * cells],
        );
    }
    let winner: Vec<f32> = samples.iter().map(|s| s.z).collect();
    let rows = samples.len() as u64;
    let (w, h) = (width as u64, height as u64);
    let mut zip = zip::ZipWriter::new(out);
    let arrays: [(&str, Vec<u64>, &[f32]); 3] = [
        ("states", vec![rows, 4, h, w], &states),
        ("mcts_probs", vec![rows, h * w], &probs),
        ("winner", vec![rows], &winner),
    ];
    for (name, shape, data) in arrays {
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored)
            // A fixed date (1980-01-01): the same records, the same bytes.
            .last_modified_time(zip::DateTime::default())
            .large_file(data.len() * 4 > u32::MAX as usize / 2);
        zip.start_file(format!("{name}.npy"), options)
            .map_err(io::Error::other)?;
        let mut writer = npyz::WriteOptions::new()
            .default_dtype()
            .shape(&shape)
            .writer(&mut zip)
            .begin_nd()?;
        writer.extend(data.iter().copied())?;
        writer.finish()?;
    }
    zip.finish().map_err(io::Error::other)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(side: usize) -> Sample {
        Sample {
            width: side,
            height: side,
            own: vec![0],
            opponent: vec![1],
            last: Some(1),
            black_to_move: false,
            probs: vec![(2, 1.0)],
            z: -1.0,
        }
    }

    #[test]
    fn one_board_size_per_archive_and_fixed_bytes() {
        let mut out = std::io::Cursor::new(Vec::new());
        let error = write(&mut out, &[sample(5), sample(6)]).unwrap_err();
        assert!(error.to_string().contains("one board size"), "{error}");
        let bytes = |samples: &[Sample]| {
            let mut out = std::io::Cursor::new(Vec::new());
            write(&mut out, samples).unwrap();
            out.into_inner()
        };
        let first = bytes(&[sample(5), sample(5)]);
        assert_eq!(first, bytes(&[sample(5), sample(5)]));
        assert_ne!(first, bytes(&[sample(5)]));
    }
}
