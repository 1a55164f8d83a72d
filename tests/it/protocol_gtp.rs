//! GTP sessions against the real binary: Quarry's handshake, moves with ids,
//! errors, implicit passes, small boards, garbage.

use crate::common::TempDir;
use crate::protocol_util;

use oxello::formats::ggf::GgfGame;
use oxello::formats::transcript;
use oxello::{BoardSize, Color, Game, Move};
use protocol_util::{Oxello, finished_game, first_game_to_a_pass, legal_move};
use std::time::Duration;

/// Sends a command and reads its answer: the lines before the empty line.
fn ask(ox: &mut Oxello, command: &str) -> Vec<String> {
    ox.send(command);
    let mut lines = ox.until(|line| line.is_empty());
    lines.pop();
    lines
}

/// Sends a command expecting a one-line answer.
fn ask1(ox: &mut Oxello, command: &str) -> String {
    let lines = ask(ox, command);
    assert_eq!(lines.len(), 1, "{command}: {lines:?}");
    lines[0].clone()
}

/// The vertex of an answer such as `=7 f5`, checked legal in `game`.
fn answered_move(answer: &str, id: &str, game: &Game) -> Move {
    let vertex = answer
        .strip_prefix(&format!("={id} "))
        .unwrap_or_else(|| panic!("unexpected answer {answer:?}"));
    legal_move(game, vertex).unwrap_or_else(|| panic!("illegal move {vertex}"))
}

/// Writes `text` to the file `name` of `dir`; returns its path.
fn temp_file(dir: &TempDir, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn quarry_session_with_ids_and_errors() {
    // No subcommand: the first GTP command switches protocol.
    let mut ox = Oxello::spawn(&["--level", "3", "--hash", "8"]);
    assert_eq!(ask1(&mut ox, "protocol_version"), "= 2");
    assert_eq!(ask1(&mut ox, "name"), "= oxello");
    assert_eq!(
        ask1(&mut ox, "version"),
        format!("= {}", env!("CARGO_PKG_VERSION"))
    );
    let commands = ask(&mut ox, "list_commands");
    assert_eq!(commands[0], "= protocol_version");
    for name in [
        "list_games",
        "set_game",
        "boardsize",
        "play",
        "genmove",
        "reg_genmove",
        "undo",
        "time_settings",
        "time_left",
        "loadsgf",
        "final_score",
        "gogui-rules_legal_moves",
    ] {
        assert!(commands.iter().any(|c| c == name), "{name} not listed");
        assert_eq!(ask1(&mut ox, &format!("known_command {name}")), "= true");
    }
    assert_eq!(ask1(&mut ox, "known_command fly"), "= false");
    assert_eq!(ask1(&mut ox, "list_games"), "= Othello");
    assert_eq!(ask1(&mut ox, "set_game Othello"), "=");
    assert_eq!(ask1(&mut ox, "boardsize 8"), "=");
    assert_eq!(ask1(&mut ox, "komi 0"), "=");
    assert_eq!(ask1(&mut ox, "time_settings 300 0 0"), "=");
    assert_eq!(ask1(&mut ox, "time_left white 300 0"), "=");
    let mut game = Game::new(BoardSize::Eight);
    assert_eq!(ask1(&mut ox, "1 play black F5"), "=1");
    game.play(legal_move(&game, "f5").unwrap()).unwrap();
    let reply = ask1(&mut ox, "2 genmove white");
    game.play(answered_move(&reply, "2", &game)).unwrap();
    assert_eq!(ask1(&mut ox, "3 play b a1"), "?3 illegal move");
    assert_eq!(ask1(&mut ox, "4 play w c4"), "?4 wrong color");
    assert_eq!(ask1(&mut ox, "5 boardsize 7"), "?5 unacceptable size");
    assert_eq!(ask1(&mut ox, "6 frobnicate"), "?6 unknown command");
    assert!(ask1(&mut ox, "7 play black").starts_with("?7 syntax error"));
    assert!(ask1(&mut ox, "8 genmove purple").starts_with("?8 syntax error"));
    assert_eq!(ask1(&mut ox, "9 play b pass"), "?9 illegal move");
    let reply = ask1(&mut ox, "10 reg_genmove black");
    answered_move(&reply, "10", &game);
    let reply = ask1(&mut ox, "11 genmove B");
    game.play(answered_move(&reply, "11", &game)).unwrap();
    assert_eq!(ask1(&mut ox, "12 undo"), "=12");
    game.undo();
    let side = ask1(&mut ox, "13 gogui-rules_side_to_move");
    assert_eq!(side, format!("=13 {}", game.position().side.name()));
    let board = ask(&mut ox, "14 showboard");
    assert_eq!(board[0], "=14");
    assert!(board.iter().any(|l| l.contains("legal:")), "{board:?}");
    assert_eq!(ask1(&mut ox, "15 clear_board"), "=15");
    assert_eq!(ask1(&mut ox, "16 undo"), "?16 cannot undo");
    assert_eq!(ask1(&mut ox, "17 quit"), "=17");
    assert!(ox.wait(Duration::from_secs(20)).success());
}

#[test]
fn implicit_passes_are_inserted_only_when_forced() {
    let files = TempDir::new("gtp", "implicit_passes_are_inserted_only_when_forced");
    let game = first_game_to_a_pass(BoardSize::Eight);
    let blocked = game.position().side;
    let other = blocked.opponent();
    let record = temp_file(
        &files,
        "pass.ggf",
        &format!("{}\n", GgfGame::from_game(&game)),
    );
    let mut ox = Oxello::spawn(&["gtp", "--level", "2", "--hash", "8"]);
    assert_eq!(ask1(&mut ox, &format!("1 loadsgf {record}")), "=1");
    let legal = ask1(&mut ox, "2 gogui-rules_legal_moves");
    assert_eq!(legal, "=2 pass");
    // genmove for the blocked colour: pass (and the pass is played).
    assert_eq!(ask1(&mut ox, &format!("3 genmove {blocked}")), "=3 pass");
    let mut after = game.clone();
    after.play(Move::Pass).unwrap();
    assert_eq!(
        ask1(&mut ox, "4 gogui-rules_side_to_move"),
        format!("=4 {other}")
    );
    // A pass for a colour that can move is refused; so is the wrong colour.
    assert_eq!(
        ask1(&mut ox, &format!("5 play {other} pass")),
        "?5 illegal move"
    );
    assert_eq!(
        ask1(&mut ox, &format!("6 play {blocked} pass")),
        "?6 wrong color"
    );
    // Reload: a move for the other colour inserts the pass.
    assert_eq!(ask1(&mut ox, &format!("7 loadsgf {record}")), "=7");
    let mv = after.position().move_list()[0];
    assert_eq!(ask1(&mut ox, &format!("8 play {other} {}", mv)), "=8");
    after.play(mv).unwrap();
    let transcript_now = transcript::format_game(&after);
    let transcript_file = temp_file(&files, "pass.txt", &transcript_now);
    // The same game as a transcript file.
    assert_eq!(ask1(&mut ox, &format!("9 loadsgf {transcript_file}")), "=9");
    assert_eq!(
        ask1(&mut ox, "10 gogui-rules_side_to_move"),
        format!("=10 {}", after.position().side.name())
    );
    // Reload again: genmove for the other colour inserts the pass too.
    assert_eq!(ask1(&mut ox, &format!("11 loadsgf {record}")), "=11");
    let reply = ask1(&mut ox, &format!("12 genmove {other}"));
    let mut again = game.clone();
    again.play(Move::Pass).unwrap();
    answered_move(&reply, "12", &again);
    assert!(ask1(&mut ox, "13 loadsgf /no/such/file.ggf").starts_with("?13 cannot load file"));
    assert_eq!(ask1(&mut ox, "quit"), "=");
    assert!(ox.wait(Duration::from_secs(20)).success());
}

#[test]
fn a_file_quoted_in_an_error_is_one_line_without_control_bytes() {
    let files = TempDir::new("gtp", "a_file_quoted_in_an_error");
    let text = temp_file(&files, "ctl.txt", "z\n\nq\u{1}\u{1b}[31mRED");
    let binary = files.join("binary.dat");
    std::fs::write(&binary, (0..=255u8).cycle().take(600).collect::<Vec<u8>>()).unwrap();
    let binary = binary.display().to_string();
    let mut ox = Oxello::spawn(&["gtp", "--level", "2", "--hash", "8"]);
    assert_eq!(ask1(&mut ox, "1 play b f5"), "=1");
    // An empty line in the reply would end it early; each error is one
    // line, the file's control characters escaped as `show` escapes them.
    let reply = ask1(&mut ox, &format!("2 loadsgf {text}"));
    assert!(reply.starts_with("?2 cannot load file"), "{reply}");
    assert!(reply.contains("'z\\n\\nq\\u{1}\\u{1b}["), "{reply}");
    assert!(!reply.chars().any(char::is_control), "{reply:?}");
    let reply = ask1(&mut ox, &format!("3 loadsgf {binary}"));
    assert!(reply.starts_with("?3 cannot load file"), "{reply}");
    assert!(!reply.chars().any(char::is_control), "{reply:?}");
    // The game is as it was.
    assert_eq!(ask1(&mut ox, "4 gogui-rules_side_to_move"), "=4 white");
    assert_eq!(ask1(&mut ox, "5 quit"), "=5");
    assert!(ox.wait(Duration::from_secs(20)).success());
}

#[test]
fn undo_takes_back_a_whole_play_with_its_implicit_pass() {
    let files = TempDir::new("gtp", "undo_takes_back_a_whole_play_with_its_implicit_pass");
    let game = first_game_to_a_pass(BoardSize::Eight);
    let blocked = game.position().side;
    let other = blocked.opponent();
    let record = temp_file(
        &files,
        "undo-pass.ggf",
        &format!("{}\n", GgfGame::from_game(&game)),
    );
    let mut ox = Oxello::spawn(&["gtp", "--level", "2", "--hash", "8"]);
    assert_eq!(ask1(&mut ox, &format!("loadsgf {record}")), "=");
    let board = ask(&mut ox, "gogui-rules_board");
    let state = |ox: &mut Oxello| {
        (
            ask(ox, "gogui-rules_board"),
            ask1(ox, "gogui-rules_side_to_move"),
        )
    };
    let loaded = state(&mut ox);
    assert_eq!(loaded.0, board);
    assert_eq!(loaded.1, format!("= {blocked}"));
    // `play` for the other colour inserts the pass; `undo` takes both back.
    let mut passed = game.clone();
    passed.play(Move::Pass).unwrap();
    let mv = passed.position().move_list()[0];
    assert_eq!(ask1(&mut ox, &format!("play {other} {mv}")), "=");
    assert_eq!(ask1(&mut ox, "undo"), "=");
    assert_eq!(state(&mut ox), loaded);
    // So does `undo` after a `genmove` that inserted the pass.
    let reply = ask1(&mut ox, &format!("genmove {other}"));
    answered_move(&reply, "", &passed);
    assert_eq!(ask1(&mut ox, "undo"), "=");
    assert_eq!(state(&mut ox), loaded);
    // Before the loaded position, one move of the file at a time.
    assert_eq!(ask1(&mut ox, "undo"), "=");
    let mut before = game.clone();
    before.undo().unwrap();
    assert_eq!(
        ask1(&mut ox, "gogui-rules_side_to_move"),
        format!("= {}", before.position().side)
    );
    assert_eq!(ask1(&mut ox, "quit"), "=");
    assert!(ox.wait(Duration::from_secs(20)).success());
}

#[test]
fn small_boards_play_to_the_end() {
    for size in [4, 6] {
        let mut ox = Oxello::spawn(&["gtp", "--level", "4", "--hash", "8"]);
        assert_eq!(ask1(&mut ox, &format!("boardsize {size}")), "=");
        assert_eq!(ask1(&mut ox, "gogui-rules_board_size"), format!("= {size}"));
        let mut game = Game::new(BoardSize::from_n(size).unwrap());
        let mut turns = 0;
        while !game.is_over() {
            let side = game.position().side;
            let reply = ask1(&mut ox, &format!("{turns} genmove {side}"));
            let mv = answered_move(&reply, &turns.to_string(), &game);
            game.play(mv).unwrap();
            turns += 1;
        }
        let black = game.final_score_black().unwrap();
        let expected = match black {
            0 => "0".to_string(),
            s if s > 0 => format!("B+{s}"),
            s => format!("W+{}", -s),
        };
        assert_eq!(ask1(&mut ox, "final_score"), format!("= {expected}"));
        assert_ne!(ask1(&mut ox, "gogui-rules_final_result"), "= unknown");
        assert_eq!(ask1(&mut ox, "gogui-rules_legal_moves"), "=");
        assert_eq!(ask1(&mut ox, "genmove black"), "= pass");
        assert_eq!(ask1(&mut ox, "play white d1"), "? illegal move");
        ox.close_stdin();
        assert!(ox.wait(Duration::from_secs(20)).success());
    }
}

#[test]
fn a_finished_game_file_and_a_full_board() {
    let files = TempDir::new("gtp", "a_finished_game_file_and_a_full_board");
    let game = finished_game(BoardSize::Eight, 3);
    let record = temp_file(
        &files,
        "finished.ggf",
        &GgfGame::from_game(&game).to_string(),
    );
    let mut ox = Oxello::spawn(&["gtp", "--level", "2", "--hash", "8"]);
    assert_eq!(ask1(&mut ox, &format!("loadsgf {record}")), "=");
    let board = ask(&mut ox, "gogui-rules_board");
    assert_eq!(board.len(), 9, "{board:?}");
    assert!(board[1..].iter().all(|row| row.split(' ').count() == 8));
    let black = game.final_score_black().unwrap();
    let result = ask1(&mut ox, "gogui-rules_final_result");
    assert!(
        result.contains(&black.abs().to_string()) || black == 0,
        "{result}"
    );
    assert!(ask1(&mut ox, "loadsgf").starts_with("? syntax error"));
    // Load the position before the last move (GTP's move number).
    let moves = game.moves().len();
    assert_eq!(ask1(&mut ox, &format!("loadsgf {record} {moves}")), "=");
    let mut before = game.clone();
    before.undo();
    assert_eq!(
        ask1(&mut ox, "gogui-rules_side_to_move"),
        format!("= {}", before.position().side.name())
    );
    ox.send("quit");
    ox.until(|l| l.is_empty());
    assert!(ox.wait(Duration::from_secs(20)).success());
}

#[test]
fn garbage_gets_errors_and_ids_are_kept() {
    let mut ox = Oxello::spawn(&["gtp", "--level", "2", "--hash", "8"]);
    assert_eq!(ask1(&mut ox, "1 play b f5"), "=1");
    // Control characters are deleted, tabs are spaces, comments dropped.
    assert_eq!(
        ask1(&mut ox, "\t2\tgogui-rules_side_to_move # who?"),
        "=2 white"
    );
    ox.send_bytes(b"3 name\x01\x02\r\n");
    assert_eq!(ox.recv(), "=3 oxello");
    assert_eq!(ox.recv(), "");
    ox.send_bytes(b"\xff\xfe garbage\n");
    assert_eq!(ox.recv(), "? unknown command");
    assert_eq!(ox.recv(), "");
    let mut long = vec![b'7'; 70_000];
    long.push(b'\n');
    ox.send_bytes(&long);
    assert!(ox.recv().starts_with("? syntax error"));
    assert_eq!(ox.recv(), "");
    // Empty and comment-only lines get no answer at all.
    ox.send("");
    ox.send("   # nothing");
    assert_eq!(ask1(&mut ox, "4 play W e6"), "?4 illegal move");
    assert_eq!(ask1(&mut ox, "5 play W d6"), "=5");
    assert_eq!(
        ask1(&mut ox, "99999999999999999999999 name"),
        "? syntax error: id too large"
    );
    let board = ask(&mut ox, "showboard");
    assert!(board.iter().any(|l| l.contains("X: 3  O: 3")), "{board:?}");
    assert_eq!(
        ask1(&mut ox, "gogui-rules_side_to_move"),
        format!("= {}", Color::Black)
    );
    ox.close_stdin();
    assert!(ox.wait(Duration::from_secs(20)).success());
}
