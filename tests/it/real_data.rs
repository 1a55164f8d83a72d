//! Real game data read through the format modules: a perfectly played game,
//! the whole WTHOR database, the XOT opening lists and the FFO endgame suite.
//!
//! The data lives in `../shared` beside the repository; without it, its tests
//! are listed as ignored, with the reason. Run under `cargo test --profile test-release`.

use crate::common;

use common::shared;
use oxello::formats::{obf, openings, transcript, wthor};
use oxello::{BoardSize, Color, Position};

fn start() -> Position {
    Position::start(BoardSize::Eight)
}

#[test]
fn takizawa_perfect_game_is_a_draw() {
    let text = "F5D6C3D3C4F4F6F3E6E7D7C5B6D8C6C7D2B5A5A6A7G5E3B4C8G6G4C2E8D1F7E2G3H4\
                F1E1F2G1B1F8G8B3H3B2H5B7A3A4A1A2C1H2H1G2B8A8G7H8H7H6";
    let game = transcript::parse_game(text, start()).unwrap();
    assert_eq!(game.moves().len(), 60);
    assert!(game.moves().iter().all(|mv| !mv.is_pass()));
    assert!(game.is_over());
    assert_eq!(game.position().disc_counts(), (32, 32));
    assert_eq!(game.final_score_black(), Some(0));
}

#[test]
#[cfg_attr(
    not(shared_data),
    ignore = "needs ../shared (WTHOR, XOT, FFO): skipped"
)]
fn wthor_database_replays_with_no_illegal_move() {
    let dir = shared("games/wthor");
    let players = wthor::parse_jou(&wthor::read_file(dir.join("WTH.JOU")).unwrap()).unwrap();
    let tournaments = wthor::parse_trn(&wthor::read_file(dir.join("WTH.TRN")).unwrap()).unwrap();
    let files = oxello::formats::files_with_extension(&dir, "wtb").unwrap();
    assert!(!files.is_empty());

    let (mut games, mut finished, mut unfinished, mut illegal) = (0usize, 0usize, 0usize, 0usize);
    let (mut score_mismatch, mut passes) = (0usize, 0usize);
    let (mut bad_player, mut bad_tournament) = (0usize, 0usize);
    for path in &files {
        let bytes = wthor::read_file(path).unwrap();
        let file = wthor::parse_wtb(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            wthor::write_wtb(&file).unwrap(),
            bytes,
            "{}",
            path.display()
        );
        for (index, record) in file.games.iter().enumerate() {
            games += 1;
            bad_player += usize::from(usize::from(record.black_player) >= players.names.len())
                + usize::from(usize::from(record.white_player) >= players.names.len());
            bad_tournament +=
                usize::from(usize::from(record.tournament) >= tournaments.names.len());
            let game = match record.replay() {
                Ok(game) => game,
                Err(error) => {
                    illegal += 1;
                    eprintln!("{} game {index}: {error}", path.display());
                    continue;
                }
            };
            passes += game.moves().iter().filter(|mv| mv.is_pass()).count();
            if game.is_over() {
                finished += 1;
                if wthor::black_discs(&game) != record.real_score {
                    score_mismatch += 1;
                    eprintln!(
                        "{} game {index}: final score {} but record says {}",
                        path.display(),
                        wthor::black_discs(&game),
                        record.real_score
                    );
                }
            } else {
                unfinished += 1;
            }
        }
    }
    eprintln!(
        "WTHOR: {} files, {games} games replayed: {finished} finished, {unfinished} unfinished, \
         {illegal} illegal; {passes} passes inserted; {score_mismatch} finished games whose \
         score differs from the record",
        files.len()
    );
    eprintln!(
        "WTHOR names: {} players, {} tournaments; {bad_player} player ids and {bad_tournament} \
         tournament ids out of range",
        players.names.len(),
        tournaments.names.len()
    );
    assert_eq!(illegal, 0);
    assert_eq!(score_mismatch, 0);
    assert_eq!(finished + unfinished, games);
    assert_eq!(
        players.names.len(),
        usize::from(players.header.record_count)
    );
    assert_eq!(
        wthor::write_jou(&players).unwrap(),
        wthor::read_file(dir.join("WTH.JOU")).unwrap()
    );
    assert_eq!(
        wthor::write_trn(&tournaments).unwrap(),
        wthor::read_file(dir.join("WTH.TRN")).unwrap()
    );
}

#[test]
#[cfg_attr(
    not(shared_data),
    ignore = "needs ../shared (WTHOR, XOT, FFO): skipped"
)]
fn xot_lists_replay_to_balanced_8_move_positions() {
    let dir = shared("openings");
    let mut total = 0;
    for name in ["xot-small.txt", "xot-large.txt"] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let list = openings::parse_list(&text, start()).unwrap_or_else(|e| panic!("{name}: {e}"));
        for opening in &list {
            let where_ = format!("{name}:{}", opening.line);
            assert_eq!(opening.game.moves().len(), 8, "{where_}");
            assert!(
                opening.game.moves().iter().all(|mv| !mv.is_pass()),
                "{where_}"
            );
            let position = opening.position();
            let (black, white) = position.disc_counts();
            assert_eq!(black + white, 12, "{where_}");
            assert_eq!(position.side, Color::Black, "{where_}");
            assert!(!position.is_game_over(), "{where_}");
        }
        eprintln!("XOT {name}: {} lines replayed", list.len());
        total += list.len();
    }
    eprintln!("XOT: {total} lines replayed in all");
    assert_eq!(total, 14_407);
}

#[test]
#[cfg_attr(
    not(shared_data),
    ignore = "needs ../shared (WTHOR, XOT, FFO): skipped"
)]
fn ffo_obf_files_parse_with_legal_moves() {
    let dir = shared("endgame");
    let files = oxello::formats::files_with_extension(&dir, "obf").unwrap();
    let mut positions = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let entries = obf::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for entry in &entries {
            let legal = entry.position.legal_moves();
            for (mv, score) in &entry.move_scores {
                let square = mv.square().expect("FFO positions have moves");
                assert_ne!(legal & square.bit(), 0, "{}: {entry}", path.display());
                assert!((-64..=64).contains(score));
                assert_eq!(score % 2, 0, "{}: {entry}", path.display());
            }
            assert_eq!(
                entry.move_scores.len() as u32,
                legal.count_ones(),
                "every legal move is scored: {entry}"
            );
        }
        assert_eq!(
            obf::parse_file(&obf::format_file(&entries)).unwrap(),
            entries
        );
        positions += entries.len();
    }
    eprintln!("FFO: {} files, {positions} positions", files.len());
    assert!(positions >= 59);
}

#[test]
#[cfg_attr(
    not(shared_data),
    ignore = "needs ../shared (WTHOR, XOT, FFO): skipped"
)]
fn wthor_samples_are_distinct_reproducible_and_of_the_asked_empties() {
    let dir = shared("games/wthor");
    let all = wthor::folder_positions(&dir).unwrap();
    let a = wthor::sample(&all, 24, 30, 7);
    assert_eq!(a.len(), 30);
    assert!(
        a.iter()
            .all(|p| p.empty_count() == 24 && p.legal_moves() != 0)
    );
    let distinct: std::collections::HashSet<_> = a.iter().collect();
    assert_eq!(distinct.len(), a.len());
    assert_eq!(a, wthor::sample(&all, 24, 30, 7));
    assert_ne!(a, wthor::sample(&all, 24, 30, 8));
}
