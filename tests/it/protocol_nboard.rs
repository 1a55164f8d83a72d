//! NBoard sessions against the real binary, in the order the NBoard GUI
//! sends its commands (protocols.md §1.6 and §1.10).

use crate::common::TempDir;
use crate::protocol_util;

use oxello::formats::ggf::{GgfClock, GgfGame};
use oxello::{BoardSize, Game, Move};
use protocol_util::{Oxello, first_game_to_a_pass, legal_move};
use std::time::{Duration, Instant};

/// Words that start a protocol line; no stderr line may start with one.
const KEYWORDS: &[&str] = &[
    "set",
    "pong",
    "status",
    "search",
    "book",
    "nodestats",
    "===",
    "analysis",
    "learned",
];

/// The record NBoard would send for `game`.
fn ggf(game: &Game) -> String {
    let mut record = GgfGame::from_game(game).with_players("oxello", "alice");
    record.place = "NBoard".to_string();
    record.clock = GgfClock::new(15.0 * 60.0);
    record.to_string()
}

/// Whether `text` is a number with exactly two decimals (`-1.00`, `0.50`).
fn is_fixed2(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    match digits.split_once('.') {
        Some((whole, fraction)) => {
            !whole.is_empty()
                && whole.bytes().all(|b| b.is_ascii_digit())
                && fraction.len() == 2
                && fraction.bytes().all(|b| b.is_ascii_digit())
        }
        None => false,
    }
}

/// Checks a `nodestats <nodes> <seconds>` line.
fn check_nodestats(line: &str) {
    let parts: Vec<&str> = line.split(' ').collect();
    assert_eq!(parts.len(), 3, "{line}");
    assert_eq!(parts[0], "nodestats", "{line}");
    assert!(parts[1].parse::<u64>().is_ok(), "{line}");
    assert!(is_fixed2(parts[2]), "{line}");
}

/// Reads `=== MV/eval/time`; returns the move (legal in `game`) and the
/// payload to send back with `move`.
fn check_best(line: &str, game: &Game) -> (Move, String) {
    let payload = line
        .strip_prefix("=== ")
        .unwrap_or_else(|| panic!("not an answer to go: {line}"));
    let parts: Vec<&str> = payload.split('/').collect();
    assert_eq!(parts.len(), 3, "{line}");
    assert!(is_fixed2(parts[1]) && is_fixed2(parts[2]), "{line}");
    let mv = legal_move(game, parts[0]).unwrap_or_else(|| panic!("illegal move: {line}"));
    (mv, payload.to_string())
}

/// Checks the lines of a `hint n` (up to its `nodestats`) against `game`:
/// each PV legal from the position, all `n` lines of a depth before the next
/// depth, the same depth token within an iteration. Returns the first moves.
fn check_hints(lines: &[String], game: &Game, n: usize) -> Vec<String> {
    let (last, searches) = lines.split_last().expect("hint lines");
    check_nodestats(last);
    let position = game.position();
    // A forced pass is the one move: one line an iteration.
    let wanted = if position.must_pass() {
        1
    } else {
        position.move_list().len().min(n)
    };
    let mut depths: Vec<(String, usize)> = Vec::new();
    let mut firsts = Vec::new();
    for line in searches {
        let parts: Vec<&str> = line.split(' ').collect();
        assert_eq!(parts.len(), 5, "{line}");
        assert_eq!((parts[0], parts[3]), ("search", "0"), "{line}");
        assert!(is_fixed2(parts[2]), "{line}");
        let depth = parts[4];
        assert!(depth.starts_with(|c: char| c.is_ascii_digit()), "{line}");
        let mut replay = game.clone();
        for name in parts[1].split('-') {
            let mv = legal_move(&replay, name)
                .unwrap_or_else(|| panic!("illegal PV step {name} in {line}"));
            replay.play(mv).unwrap();
        }
        firsts.push(parts[1].split('-').next().unwrap().to_string());
        match depths.last_mut() {
            Some((token, count)) if token == depth => *count += 1,
            _ => depths.push((depth.to_string(), 1)),
        }
    }
    assert!(!depths.is_empty(), "no search line: {lines:?}");
    for (token, count) in &depths {
        assert_eq!(*count, wanted, "depth {token} has {count} lines: {lines:?}");
    }
    firsts
}

fn check_stderr(oxello: &mut Oxello) {
    let lines = oxello.stderr_at_exit();
    assert!(!lines.is_empty(), "run with RUST_LOG=debug: logs expected");
    for line in lines {
        let first = line.split_whitespace().next().unwrap_or("");
        assert!(
            !KEYWORDS.contains(&first),
            "stderr line starts with a protocol keyword: {line}"
        );
    }
}

#[test]
fn gui_session_from_start_to_analysis() {
    let files = TempDir::new("nboard", "gui_session");
    let learn = files.join("learned.ggf");
    let learn_name = learn.display().to_string();
    // No subcommand: the first line switches to NBoard.
    // Without the book: the hints are all searches here (the book's are
    // tested in `book.rs`); `learn` still adds the game to a book file.
    let mut ox = Oxello::spawn_with_env(
        &["--hash", "8", "--no-book"],
        &[("OXELLO_LEARN_FILE", &learn_name), ("RUST_LOG", "debug")],
    );
    ox.send("nboard 2");
    ox.expect("set myname oxello12");
    ox.send("set depth 4");
    ox.expect("set myname oxello4");
    let mut game = Game::new(BoardSize::Eight);
    ox.send(&format!("set game {}", ggf(&game)));
    ox.send("ping 1");
    ox.expect("pong 1");
    ox.send("go");
    check_nodestats(&ox.recv());
    let (mv, payload) = check_best(&ox.recv(), &game);
    game.play(mv).unwrap();
    // The GUI echoes the engine's move, then asks for hints for the user.
    ox.send(&format!("move {payload}"));
    ox.send("ping 2");
    ox.send("hint 4");
    ox.expect("pong 2");
    let hints = ox.until(|line| line.starts_with("nodestats "));
    check_hints(&hints, &game, 4);
    // The user plays (time only), then it is the engine's move.
    let user = game.position().move_list()[0];
    game.play(user).unwrap();
    ox.send(&format!("move {}//4.2", user.to_upper()));
    ox.send("ping 3");
    ox.send("go");
    ox.expect("pong 3");
    check_nodestats(&ox.recv());
    let (engine_move, payload) = check_best(&ox.recv(), &game);
    // go did not change the board: hints are still for the same position.
    ox.send("ping 4");
    ox.send("hint 2");
    ox.expect("pong 4");
    let hints = ox.until(|line| line.starts_with("nodestats "));
    check_hints(&hints, &game, 2);
    game.play(engine_move).unwrap();
    ox.send(&format!("move {payload}"));
    // Navigating back: the GUI sends the shorter game.
    let mut back = game.clone();
    back.truncate(1);
    ox.send(&format!("set game {}", ggf(&back)));
    ox.send("ping 5");
    ox.send("hint 3");
    ox.expect("pong 5");
    let hints = ox.until(|line| line.starts_with("nodestats "));
    check_hints(&hints, &back, 3);
    // Forward again, learn, analyze.
    ox.send(&format!("set game {}", ggf(&game)));
    ox.send("ping 6");
    ox.send("learn");
    ox.expect("pong 6");
    ox.expect("learned");
    let learned = std::fs::read_to_string(&learn).expect("learn file written");
    let record = oxello::formats::ggf::parse_one(learned.trim()).expect("learned GGF");
    assert_eq!(record.to_game().unwrap().position(), game.position());
    ox.send("ping 7");
    ox.send("analyze");
    ox.expect("pong 7");
    let analysis = ox.until(|line| line.starts_with("nodestats "));
    let (last, points) = analysis.split_last().unwrap();
    check_nodestats(last);
    let made: Vec<usize> = points
        .iter()
        .map(|line| {
            let parts: Vec<&str> = line.split(' ').collect();
            assert_eq!(parts.len(), 3, "{line}");
            assert_eq!(parts[0], "analysis");
            assert!(is_fixed2(parts[2]), "{line}");
            parts[1].parse().unwrap()
        })
        .collect();
    let expected: Vec<usize> = (0..=game.moves().len()).rev().collect();
    assert_eq!(made, expected);
    ox.send("quit");
    assert!(ox.wait(Duration::from_secs(20)).success());
    assert!(ox.rest().is_empty());
    check_stderr(&mut ox);
    let book = learn.with_extension("book");
    let learned = oxello::book::format::load(&book).expect("learn writes a book");
    assert!(learned.contains(game.position().board));
}

#[test]
fn nothing_older_than_the_last_pong_follows_it() {
    let mut ox = Oxello::spawn(&["nboard", "--hash", "8"]);
    ox.send("nboard 2");
    ox.expect("set myname oxello12");
    let mut game = Game::new(BoardSize::Eight);
    ox.send(&format!("set game {}", ggf(&game)));
    let mut ping = 0;
    for round in 0..6u64 {
        // A long hint, interrupted after a while by the next request.
        ox.send("set depth 30");
        ping += 1;
        ox.send(&format!("ping {ping}"));
        ox.send("hint 4");
        ox.until(|line| line == format!("pong {ping}"));
        std::thread::sleep(Duration::from_millis(round * 40));
        let mv = game.position().move_list()[0];
        game.play(mv).unwrap();
        ox.send(&format!("move {}", mv.to_upper()));
        ox.send("set depth 3");
        ping += 1;
        ox.send(&format!("ping {ping}"));
        ox.send("go");
        ox.until(|line| line == format!("pong {ping}"));
        // After the pong: exactly the answer to go, then silence.
        check_nodestats(&ox.recv());
        let (reply, _) = check_best(&ox.recv(), &game);
        assert!(game.position().play(reply).is_ok());
        ox.expect_silence(Duration::from_millis(150));
    }
    ox.send("quit");
    assert!(ox.wait(Duration::from_secs(20)).success());
}

#[test]
fn passes_are_explicit_and_forced_passes_answer_pa() {
    let game = first_game_to_a_pass(BoardSize::Eight);
    let mut ox = Oxello::spawn(&["nboard", "--hash", "8"]);
    ox.send("nboard 2");
    ox.expect("set myname oxello12");
    ox.send("set depth 3");
    ox.expect("set myname oxello3");
    ox.send(&format!("set game {}", ggf(&game)));
    ox.send("ping 1");
    ox.send("go");
    ox.expect("pong 1");
    ox.expect("=== PA");
    ox.send("ping 2");
    ox.send("hint 2");
    ox.expect("pong 2");
    let hints = ox.until(|line| line.starts_with("nodestats "));
    let firsts = check_hints(&hints, &game, 2);
    assert!(firsts.iter().all(|first| first == "PA"), "{hints:?}");
    // The user passes; the engine then moves for the other side.
    let mut passed = game.clone();
    passed.play(Move::Pass).unwrap();
    ox.send("move PA//0.8");
    ox.send("ping 3");
    ox.send("go");
    ox.expect("pong 3");
    check_nodestats(&ox.recv());
    check_best(&ox.recv(), &passed);
    // The record with the trailing pass written out replays the pass.
    ox.send(&format!("set game {}", ggf(&passed)));
    ox.send("ping 4");
    ox.send("hint 1");
    ox.expect("pong 4");
    check_hints(&ox.until(|l| l.starts_with("nodestats ")), &passed, 1);
    ox.send("quit");
    assert!(ox.wait(Duration::from_secs(20)).success());
}

#[test]
fn garbage_between_commands_changes_nothing() {
    let mut ox = Oxello::spawn(&["nboard", "--hash", "8", "--no-book"]);
    ox.send("nboard 2");
    ox.expect("set myname oxello12");
    ox.send("set depth 2");
    ox.expect("set myname oxello2");
    let mut game = Game::new(BoardSize::Eight);
    game.play(legal_move(&game, "f5").unwrap()).unwrap();
    ox.send(&format!("set game {}", ggf(&game)));
    // Unknown lines are ignored; malformed known ones get a status line.
    ox.send("hello there engine");
    ox.send_bytes(b"\xff\xfe\x00\x01binary\n");
    let mut long = vec![b'x'; 100_000];
    long.push(b'\n');
    ox.send_bytes(&long);
    ox.send("move Z9");
    ox.send("move A1");
    ox.send("set game (;GM[Othello]B[A1];)");
    ox.send("set depth many");
    ox.send("hint 0");
    ox.send("ping 1");
    let before = ox.until(|line| line == "pong 1");
    let (pong, statuses) = before.split_last().unwrap();
    assert_eq!(pong, "pong 1");
    assert_eq!(statuses.len(), 7, "{before:?}");
    assert!(
        statuses.iter().all(|l| l.starts_with("status ")),
        "{before:?}"
    );
    // The game is unchanged: hints are for the position after f5.
    ox.send("hint 3");
    check_hints(&ox.until(|l| l.starts_with("nodestats ")), &game, 3);
    ox.send("quit");
    assert!(ox.wait(Duration::from_secs(20)).success());
}

#[test]
fn end_of_input_during_a_search_waits_for_its_answer() {
    let mut ox = Oxello::spawn(&["nboard", "--hash", "8", "--no-book"]);
    ox.send("nboard 2");
    ox.expect("set myname oxello12");
    ox.send("set depth 8");
    ox.expect("set myname oxello8");
    ox.send("hint 4");
    assert!(ox.recv().starts_with("search "));
    ox.close_stdin();
    let status = ox.wait(Duration::from_secs(60));
    assert!(status.success(), "{status:?}");
    // The hint went on to its depth: the last four lines are of depth 8.
    let rest = ox.rest();
    let (stats, hints) = rest.split_last().expect("the end of the hint");
    assert!(stats.starts_with("nodestats "), "{rest:?}");
    assert!(hints.len() >= 4, "{rest:?}");
    assert!(
        hints[hints.len() - 4..].iter().all(|l| l.ends_with(" 0 8")),
        "{rest:?}"
    );
}

#[test]
fn ping_answers_quickly_during_a_deep_search() {
    let mut ox = Oxello::spawn(&["nboard", "--hash", "16"]);
    ox.send("nboard 2");
    ox.expect("set myname oxello12");
    ox.send("set depth 60");
    ox.expect("set myname oxello60");
    let mut latencies = Vec::new();
    for n in 1..=8 {
        ox.send("hint 64");
        std::thread::sleep(Duration::from_millis(300));
        let sent = Instant::now();
        ox.send(&format!("ping {n}"));
        ox.until(|line| line == format!("pong {n}"));
        latencies.push(sent.elapsed());
    }
    latencies.sort();
    let median = latencies[latencies.len() / 2];
    let worst = latencies[latencies.len() - 1];
    eprintln!("ping->pong during a deep search: median {median:?}, worst {worst:?}");
    println!("ping->pong during a deep search: median {median:?}, worst {worst:?}");
    assert!(worst < Duration::from_secs(1), "{latencies:?}");
    ox.send("quit");
    assert!(ox.wait(Duration::from_secs(20)).success());
}

#[test]
fn the_name_gives_the_depth_in_use() {
    let mut ox = Oxello::spawn(&["nboard", "--depth", "3", "--hash", "8"]);
    ox.send("nboard 2");
    ox.expect("set myname oxello3");
    ox.send("set depth 5");
    ox.expect("set myname oxello5");
    ox.send("quit");
    assert!(ox.wait(Duration::from_secs(20)).success());
    let mut ox = Oxello::spawn(&["nboard", "--level", "greedy", "--depth", "3"]);
    ox.send("nboard 2");
    ox.expect("set myname oxello-greedy");
    ox.send("quit");
    assert!(ox.wait(Duration::from_secs(20)).success());
}

/// Issue 75, defect 17: `set depth` out of 1-60 is refused with the limit
/// stated, 0 and 99 alike, and the depth stays as it was.
#[test]
fn set_depth_out_of_range_is_refused_with_the_limit() {
    let mut ox = Oxello::spawn(&["nboard", "--hash", "8"]);
    ox.send("nboard 2");
    ox.expect("set myname oxello12");
    ox.send("set depth 5");
    ox.expect("set myname oxello5");
    for depth in ["0", "61", "99"] {
        ox.send(&format!("set depth {depth}"));
        let status = ox.recv();
        assert!(
            status.starts_with("status ")
                && status.contains(&format!("'{depth}'"))
                && status.contains("1-60"),
            "{status}"
        );
    }
    ox.send("set depth 60");
    ox.expect("set myname oxello60");
    ox.send("quit");
    assert!(ox.wait(Duration::from_secs(20)).success());
}

/// A status line is one line whatever it quotes, its control characters
/// escaped: here the learn file's name, with a line break and an escape
/// sequence in it.
#[test]
fn a_status_line_escapes_control_characters() {
    let files = TempDir::new("nboard", "status_escapes");
    let learn = files.join("no\nsuch\u{1b}[31m").join("learned.ggf");
    let learn_name = learn.display().to_string();
    let mut ox = Oxello::spawn_with_env(
        &["nboard", "--hash", "8", "--no-book"],
        &[("OXELLO_LEARN_FILE", &learn_name)],
    );
    ox.send("nboard 2");
    ox.expect("set myname oxello12");
    ox.send("learn");
    ox.send("ping 1");
    let lines = ox.until(|line| line == "pong 1");
    assert_eq!(lines.len(), 2, "{lines:?}");
    let status = &lines[0];
    assert!(
        status.starts_with("status oxello: learn: cannot write "),
        "{status}"
    );
    assert!(status.contains("no\\nsuch\\u{1b}[31m"), "{status}");
    assert!(!status.chars().any(char::is_control), "{status:?}");
    ox.send("quit");
    assert!(ox.wait(Duration::from_secs(20)).success());
}
