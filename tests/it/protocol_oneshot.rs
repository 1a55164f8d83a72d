//! `oxello move POSITION`: each position form, JSON, forced passes, errors.

use crate::common::TempDir;
use crate::protocol_util;

use oxello::formats::board_string;
use oxello::formats::ggf::GgfGame;
use oxello::{BoardSize, Game};
use protocol_util::{finished_game, first_game_to_a_pass, legal_move};

/// Runs `oxello move ...`; returns the exit code, stdout and stderr.
fn run(args: &[&str]) -> (i32, Vec<String>, Vec<String>) {
    protocol_util::run(&[&["move"][..], args].concat())
}

fn start() -> Game {
    Game::new(BoardSize::Eight)
}

#[test]
fn board_string_transcript_and_ggf_file() {
    let mut game = start();
    for name in ["f5", "d6", "c3"] {
        game.play(legal_move(&game, name).unwrap()).unwrap();
    }
    let board = board_string::format_position(&game.position());
    let (code, out, _) = run(&[&board, "--level", "4"]);
    assert_eq!(code, 0);
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(legal_move(&game, &out[0]).is_some(), "{out:?}");

    let (code, out, _) = run(&["f5d6c3", "--level", "4"]);
    assert_eq!(code, 0);
    assert!(legal_move(&game, &out[0]).is_some(), "{out:?}");

    let files = TempDir::new("oneshot", "move");
    let path = files.join("game.ggf");
    std::fs::write(&path, GgfGame::from_game(&game).to_string()).unwrap();
    let (code, out, _) = run(&[path.to_str().unwrap(), "--time", "0.2"]);
    assert_eq!(code, 0);
    assert!(legal_move(&game, &out[0]).is_some(), "{out:?}");

    let (code, out, _) = run(&["f5", "--level", "greedy"]);
    assert_eq!(code, 0);
    let mut after = start();
    after.play(legal_move(&after, "f5").unwrap()).unwrap();
    assert!(legal_move(&after, &out[0]).is_some(), "{out:?}");
}

#[test]
fn json_answer_has_every_field() {
    let (code, out, _) = run(&["f5d6", "--level", "5", "--json", "--no-book"]);
    assert_eq!(code, 0);
    let json = &out[0];
    assert!(
        json.starts_with("{\"move\":\"") && json.ends_with('}'),
        "{json}"
    );
    for key in [
        "\"score\":",
        "\"bound\":\"",
        "\"search\":\"midgame\"",
        "\"depth\":5,",
        "\"selectivity\":73,",
        "\"nps\":",
        "\"pv\":[\"",
        "\"nodes\":",
        "\"time\":",
    ] {
        assert!(json.contains(key), "{key} missing in {json}");
    }
}

#[test]
fn forced_pass_prints_pass() {
    let game = first_game_to_a_pass(BoardSize::Eight);
    let board = board_string::format_position(&game.position());
    let (code, out, _) = run(&[&board, "--level", "3"]);
    assert_eq!((code, out), (0, vec!["pass".to_string()]));
    let (code, out, _) = run(&[&board, "--level", "3", "--json"]);
    assert_eq!(code, 0);
    assert!(out[0].starts_with("{\"move\":\"pass\""), "{out:?}");
}

#[test]
fn finished_games_and_nonsense_exit_with_1() {
    let game = finished_game(BoardSize::Eight, 9);
    let board = board_string::format_position(&game.position());
    for position in [board.as_str(), "zz", "f5f5", "(;GM[Othello]B[A1];)"] {
        let (code, out, err) = run(&[position]);
        assert_eq!(code, 1, "{position}: {out:?} {err:?}");
        assert!(out.is_empty(), "{position}: {out:?}");
        assert!(
            err.iter().any(|l| l.starts_with("error: ")),
            "{position}: {err:?}"
        );
        // Under --json the error is JSON too, on stdout.
        let (code, out, _) = run(&[position, "--json"]);
        assert_eq!((code, out.len()), (1, 1), "{position}: {out:?}");
        let value: serde_json::Value = serde_json::from_str(&out[0]).unwrap();
        let error = value["error"].as_str().unwrap_or_default();
        assert!(error.starts_with("position '"), "{out:?}");
    }
    let (_, out, _) = run(&[&board, "--json"]);
    assert!(out[0].contains("the game is over"), "{out:?}");
}
