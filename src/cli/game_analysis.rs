//! `oxello analyze GAME --game`: reads the games (a GGF file, a WTHOR
//! `.wtb` file, a transcript), analyses each with [`oxello::analysis`], and
//! prints a table or JSON lines, optionally an SVG graph per game, with a
//! progress bar on stderr when there are several games.

use super::analyze::AnalyzeArgs;
use oxello::analysis::{self, AnalysisOptions, GameInfo};
use oxello::bitboard::BoardSize;
use oxello::engine::EngineOptions;
use oxello::formats::{ggf, spec, wthor};
use oxello::game::Game;
use oxello::search::Selectivity;
use std::error::Error;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Whether the arguments ask for a game analysis rather than the search of
/// one position: `--game`, `--index`, `--svg`, or a GGF or WTHOR file.
pub fn wanted(args: &AnalyzeArgs) -> bool {
    if args.game || args.index.is_some() || args.svg.is_some() {
        return true;
    }
    let (path, range) = split_index(&args.position);
    range.is_some() || game_file_kind(Path::new(path)).is_some()
}

/// The kinds of game files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FileKind {
    Wthor,
    Ggf,
}

/// `FILE.wtb:12` -> (`FILE.wtb`, `Some("12")`) when `FILE.wtb` is a file.
fn split_index(text: &str) -> (&str, Option<&str>) {
    if let Some((path, range)) = text.rsplit_once(':')
        && Path::new(path).is_file()
        && !range.is_empty()
        && range.chars().all(|c| c.is_ascii_digit() || c == '-')
    {
        return (path, Some(range));
    }
    (text, None)
}

fn game_file_kind(path: &Path) -> Option<FileKind> {
    if !path.is_file() {
        return None;
    }
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match extension.as_deref() {
        Some("wtb") => return Some(FileKind::Wthor),
        Some("ggf") => return Some(FileKind::Ggf),
        _ => {}
    }
    let bytes = std::fs::read(path).ok()?;
    String::from_utf8_lossy(&bytes)
        .contains("(;")
        .then_some(FileKind::Ggf)
}

/// Reads `N` or `N-M` (from 1, inclusive) against `count` games. A range
/// the file does not have is a wrong command line (exit 2), as a `solve
/// --range` past the end of its file.
fn parse_range(text: &str, count: usize) -> Result<std::ops::RangeInclusive<usize>, String> {
    let bad = || format!("game range '{text}': use N or N-M within 1-{count}");
    let (first, last) = oxello::core::span::parse_span::<usize>(text).ok_or_else(bad)?;
    if first == 0 || first > last || last > count {
        return Err(bad());
    }
    Ok(first..=last)
}

/// A game to analyse, with its number in the file.
struct Loaded {
    number: usize,
    info: GameInfo,
    game: Game,
}

/// The name file (`.JOU` or `.TRN`) beside a WTHOR game file, if any.
fn names_beside(path: &Path, extension: &str) -> Option<Vec<String>> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty())?;
    let candidates = oxello::formats::files_with_extension(dir, extension).ok()?;
    let bytes = wthor::read_file(candidates.first()?).ok()?;
    let names = match extension {
        "jou" => wthor::parse_jou(&bytes),
        _ => wthor::parse_trn(&bytes),
    };
    names.ok().map(|file| file.names)
}

fn load_wthor(path: &Path, range: Option<&str>) -> Result<Vec<Loaded>, Box<dyn Error>> {
    let named = |e: wthor::WthorError| format!("{}: {e}", path.display());
    let file = wthor::parse_wtb(&wthor::read_file(path)?).map_err(named)?;
    let range = match range {
        Some(range) => parse_range(range, file.games.len()).map_err(super::usage)?,
        None => 1..=file.games.len(),
    };
    let players = names_beside(path, "jou").unwrap_or_default();
    let tournaments = names_beside(path, "trn").unwrap_or_default();
    let name = |names: &[String], index: u16| {
        names
            .get(usize::from(index))
            .cloned()
            .unwrap_or_else(|| format!("#{index}"))
    };
    let file_name = path
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    let mut games = Vec::new();
    for number in range {
        let record = &file.games[number - 1];
        let game = record
            .replay()
            .map_err(|e| format!("{file_name} game {number}: {e}"))?;
        let tournament = tournaments
            .get(usize::from(record.tournament))
            .map_or(String::new(), |t| format!(", {}", t.trim()));
        games.push(Loaded {
            number,
            info: GameInfo {
                label: format!("{file_name} #{number}{tournament}"),
                black: name(&players, record.black_player),
                white: name(&players, record.white_player),
            },
            game,
        });
    }
    Ok(games)
}

fn load_ggf(path: &Path, range: Option<&str>) -> Result<Vec<Loaded>, Box<dyn Error>> {
    let text = oxello::formats::read_text_file(path, u64::MAX)?;
    let records = ggf::parse_all(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let range = match range {
        Some(range) => parse_range(range, records.len()).map_err(super::usage)?,
        None => 1..=records.len(),
    };
    let file_name = path
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    let mut games = Vec::new();
    for number in range {
        let record = &records[number - 1];
        let game = record
            .to_game()
            .map_err(|e| format!("{file_name} game {number}: {e}"))?;
        games.push(Loaded {
            number,
            info: GameInfo {
                label: if records.len() > 1 {
                    format!("{file_name} #{number}")
                } else {
                    file_name.clone()
                },
                black: record.black_name.clone(),
                white: record.white_name.clone(),
            },
            game,
        });
    }
    Ok(games)
}

fn load(args: &AnalyzeArgs) -> Result<Vec<Loaded>, Box<dyn Error>> {
    let (path_text, suffix) = split_index(&args.position);
    if let (Some(suffix), Some(index)) = (suffix, &args.index) {
        return Err(super::usage(format!(
            "{path_text}:{suffix} and --index {index}: give the games once"
        )));
    }
    let range = suffix.or(args.index.as_deref());
    let path = Path::new(path_text);
    let games = match game_file_kind(path) {
        Some(FileKind::Wthor) => load_wthor(path, range)?,
        Some(FileKind::Ggf) => load_ggf(path, range)?,
        None => {
            // The game is read first: one that cannot be read is a run gone
            // wrong (exit 1), a game number for one game a wrong command
            // line (exit 2).
            let size = args.size.unwrap_or(BoardSize::Eight);
            let game = spec::read_game(path_text, size).map_err(|e| format!("game: {e}"))?;
            if let Some(range) = range {
                let given = match suffix {
                    Some(_) => format!("{path_text}:{range}"),
                    None => format!("--index {range}"),
                };
                return Err(super::usage(format!(
                    "{given}: a game number needs a GGF or WTHOR file"
                )));
            }
            vec![Loaded {
                number: 1,
                info: GameInfo::default(),
                game,
            }]
        }
    };
    for loaded in &games {
        super::check_size(loaded.game.size(), args.size)?;
    }
    if games.iter().all(|loaded| loaded.game.moves().is_empty()) {
        return Err("no moves to analyse: give a game (transcript, GGF or WTHOR file)".into());
    }
    Ok(games)
}

/// The SVG file of game `number` when `several` games are analysed:
/// `graph.svg` becomes `graph-12.svg`.
fn svg_path(path: &Path, number: usize, several: bool) -> PathBuf {
    if !several {
        return path.to_path_buf();
    }
    let stem = path
        .file_stem()
        .map_or("graph".to_string(), |s| s.to_string_lossy().into_owned());
    let extension = path
        .extension()
        .map_or("svg".to_string(), |e| e.to_string_lossy().into_owned());
    path.with_file_name(format!("{stem}-{number}.{extension}"))
}

/// Runs a game analysis.
pub fn run(args: &AnalyzeArgs, options: EngineOptions) -> Result<ExitCode, Box<dyn Error>> {
    let games = load(args)?;
    // A graph that cannot be written is found before the analysis, not
    // after it.
    if let Some(path) = &args.svg {
        super::check_output("--svg", path)?;
    }
    let analysis_options = AnalysisOptions {
        depth: options.depth.or(match options.time {
            Some(_) => None,
            None => Some(analysis::DEFAULT_DEPTH),
        }),
        time: options.time,
        exact_from: args.exact_from.unwrap_or(analysis::DEFAULT_EXACT_FROM),
        hash_mib: options.hash_mib,
        threads: options.search_threads(false),
        // Full width unless --selectivity asks otherwise.
        selectivity: options.selectivity.unwrap_or(Selectivity::NONE),
    };
    // The book's moves are marked. A --book file that cannot be read was
    // refused with the options; a missing one is left out.
    let book = oxello::book::open(&options.book).unwrap_or_else(|error| {
        log::warn!("oxello: opening book: {error}; analysing without");
        None
    });
    let several = games.len() > 1;
    let mut out = std::io::stdout().lock();
    // A bar for several games only: one game's table comes quickly.
    let bar = super::progress::counting_several(games.len(), "games");
    for (index, loaded) in games.iter().enumerate() {
        let mut result =
            analysis::analyse_game(&loaded.game, &analysis_options, &mut |done, total| {
                bar.set_message(format!("position {done}/{total}"))
            });
        if let Some(book) = &book {
            analysis::mark_book(&mut result, book);
        }
        // The table goes to stdout: the bar steps aside while it is written.
        bar.suspend(|| -> std::io::Result<()> {
            if args.json {
                writeln!(
                    out,
                    "{}",
                    oxello::json::game_analysis_json(&loaded.info, &result)
                )?;
            } else {
                if index > 0 {
                    writeln!(out)?;
                }
                write!(out, "{}", analysis::format_table(&loaded.info, &result))?;
            }
            out.flush()
        })?;
        if let Some(path) = &args.svg {
            let path = svg_path(path, loaded.number, several);
            let svg = analysis::eval_chart(&loaded.info, &result).render();
            std::fs::write(&path, svg)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert_eq!(parse_range("12", 20), Ok(12..=12));
        assert_eq!(parse_range("3-7", 20), Ok(3..=7));
        assert!(parse_range("0", 20).is_err());
        assert!(parse_range("7-3", 20).is_err());
        assert!(parse_range("21", 20).is_err());
        assert!(parse_range("x", 20).is_err());
    }

    #[test]
    fn svg_names() {
        assert_eq!(
            svg_path(Path::new("out/graph.svg"), 12, true),
            PathBuf::from("out/graph-12.svg")
        );
        assert_eq!(
            svg_path(Path::new("graph.svg"), 12, false),
            PathBuf::from("graph.svg")
        );
    }
}
