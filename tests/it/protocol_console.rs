//! The console against the real binary: games played to the end (engine
//! against itself, a scripted person against a simple player), friendly
//! errors, end of input while thinking (the game is played out).

use crate::common::TempDir;
use crate::protocol_util;

use oxello::formats::transcript;
use oxello::{BoardSize, Position};
use protocol_util::Oxello;
use std::time::Duration;

/// Reads a board diagram: 10 lines for 8x8, from column header to column
/// header.
fn read_diagram(ox: &mut Oxello) -> Vec<String> {
    let header = |line: &str| line.trim_start().starts_with("a b c");
    let mut lines = ox.until(header);
    lines.drain(..lines.len() - 1);
    lines.extend(ox.until(header));
    lines
}

/// Reads lines up to and including the one holding "game over", then the
/// rest of that diagram and its `ply` line; returns the diagram and the
/// moves played.
fn read_to_game_over(ox: &mut Oxello) -> (Vec<String>, String) {
    let before = ox.until(|line| line.contains("game over"));
    let start = before
        .iter()
        .rposition(|line| line.trim_start().starts_with("a b c"))
        .expect("the diagram starts before the game over line");
    let mut diagram = before[start..].to_vec();
    diagram.extend(ox.until(|line| line.trim_start().starts_with("a b c")));
    let ply = ox.recv();
    let moves = ply.split_once(": ").expect("a ply line").1.to_string();
    (diagram, moves)
}

#[test]
fn engine_plays_itself_to_the_end() {
    let mut ox = Oxello::spawn(&["console", "--level", "3", "--hash", "8"]);
    assert!(ox.recv().starts_with("oxello "));
    let start = read_diagram(&mut ox);
    assert!(start[4].ends_with("Black (X) to move"), "{start:?}");
    ox.send("mode 2");
    ox.expect("mode 2: oxello plays both sides");
    let (diagram, moves) = read_to_game_over(&mut ox);
    let game = transcript::parse_game(&moves, Position::start(BoardSize::Eight)).unwrap();
    assert!(game.is_over());
    println!(
        "{}\nply {}: {moves}",
        diagram.join("\n"),
        game.moves().len()
    );
    ox.send("analyze");
    let analysis = ox.until(|line| line.starts_with("analysis done"));
    assert!(
        analysis.iter().any(|l| l.starts_with("Black: ")),
        "{analysis:?}"
    );
    ox.send("go");
    let refused = ox.recv();
    assert!(
        refused.starts_with("error: the game is over (")
            && refused.ends_with("'new' starts another"),
        "{refused}"
    );
    ox.send("quit");
    assert!(ox.wait(Duration::from_secs(20)).success());
}

#[test]
fn a_person_plays_a_whole_game_against_the_greedy_player() {
    let mut ox = Oxello::spawn(&["console", "--level", "greedy", "--hash", "8"]);
    assert!(ox.recv().starts_with("oxello "));
    read_diagram(&mut ox);
    ox.send("mode 0");
    ox.expect("mode 0: you play Black, oxello plays White");
    let mut status = String::new();
    let mut my_moves = 0;
    loop {
        let line = ox.recv();
        if line.contains("game over") {
            break;
        }
        if line.contains("to move") {
            status = line.clone();
        }
        if let Some((_, legal)) = line.split_once("legal: ")
            && status.ends_with("Black (X) to move")
        {
            // A simple person: the first legal move listed.
            let mv = legal.split(' ').next().unwrap().to_string();
            ox.send(&mv);
            my_moves += 1;
        }
        assert!(!line.starts_with("error"), "{}", ox.transcript());
    }
    assert!(my_moves >= 5);
    ox.send("quit");
    assert!(ox.wait(Duration::from_secs(20)).success());
}

#[test]
fn mistakes_get_friendly_errors_and_change_nothing() {
    let mut ox = Oxello::spawn(&["console", "--level", "2", "--hash", "8"]);
    assert!(ox.recv().starts_with("oxello "));
    let start = read_diagram(&mut ox);
    for line in [
        "z9",
        "a1",
        "play f5 a1",
        "setboard nonsense",
        "mode 9",
        "level 99",
        "hint x",
        "perft 99",
        "new 7",
        "undo",
        "redo",
        "analyze",
        "load /no/such/game.ggf",
        "fly me to the moon",
    ] {
        ox.send(line);
        let reply = ox.recv();
        assert!(reply.starts_with("error: "), "{line}: {reply}");
    }
    ox.send_bytes(b"\x00\x01\xff\n");
    assert!(ox.recv().starts_with("error: "));
    let mut long = vec![b'f'; 80_000];
    long.push(b'\n');
    ox.send_bytes(&long);
    assert!(ox.recv().starts_with("error: that line is too long"));
    ox.send("board");
    assert_eq!(read_diagram(&mut ox), start);
    ox.send("help");
    let help = ox.until(|line| line.contains("leave"));
    assert!(help.len() > 15, "{help:?}");
    ox.send("quit");
    assert!(ox.wait(Duration::from_secs(20)).success());
}

#[test]
fn load_quotes_a_file_on_one_line_without_control_bytes() {
    let files = TempDir::new("console", "load_quotes_a_file");
    let path = files.join("ctl.txt");
    std::fs::write(&path, "z\n\nq\u{1}\u{1b}[31mRED").unwrap();
    let mut ox = Oxello::spawn(&["console", "--level", "2", "--hash", "8"]);
    assert!(ox.recv().starts_with("oxello "));
    let start = read_diagram(&mut ox);
    ox.send(&format!("load {}", path.display()));
    let reply = ox.recv();
    assert!(reply.starts_with("error: load "), "{reply}");
    assert!(reply.contains("'z\\n\\nq\\u{1}\\u{1b}["), "{reply}");
    assert!(!reply.chars().any(char::is_control), "{reply:?}");
    // Nothing of the file follows on lines of its own.
    ox.send("level");
    let next = ox.recv();
    assert!(next.starts_with("level: "), "{next:?}");
    ox.send("board");
    assert_eq!(read_diagram(&mut ox), start);
    ox.send("quit");
    assert!(ox.wait(Duration::from_secs(20)).success());
}

#[test]
fn plain_oxello_is_a_console_on_a_move() {
    let mut ox = Oxello::spawn(&["--level", "2", "--hash", "8"]);
    // A person plays Black: oxello answers as White.
    ox.send("f5");
    let answer = ox.until(|line| line.starts_with("oxello plays ") && line.contains(" for White "));
    // The built-in book answers f5 at level 2, and says so.
    assert!(
        answer.last().unwrap().contains(" from its book "),
        "{answer:?}"
    );
    let diagram = read_diagram(&mut ox);
    assert!(diagram[4].ends_with("Black (X) to move"), "{diagram:?}");
    let ply = ox.recv();
    assert!(ply.starts_with("ply 2: f5"), "{ply}");
    ox.send("mode 3");
    ox.expect("mode 3: you play both sides");
    read_diagram(&mut ox);
    assert_eq!(ox.recv(), ply);
    ox.send("hint 2");
    let hint = ox.until(|line| line.starts_with("hint: "));
    assert!(hint[0].starts_with(" depth|score|"), "{hint:?}");
    // Solving from 58 empties is refused, with the estimate, not started.
    ox.send("solve");
    let refusal = ox.until(|line| line.starts_with("error: solve: "));
    let refusal = refusal.last().unwrap();
    assert!(refusal.contains("out of reach"), "{refusal}");
    ox.send("board");
    read_diagram(&mut ox);
    assert_eq!(ox.recv(), ply);
    ox.close_stdin();
    assert!(ox.wait(Duration::from_secs(20)).success());
}

#[test]
fn end_of_input_while_thinking_plays_the_game_out() {
    let mut ox = Oxello::spawn(&["console", "--level", "2", "--hash", "8"]);
    assert!(ox.recv().starts_with("oxello "));
    read_diagram(&mut ox);
    ox.send("mode 2");
    ox.until(|line| line.starts_with("------+"));
    ox.close_stdin();
    assert!(ox.wait(Duration::from_secs(60)).success());
    let rest = ox.rest();
    assert!(rest.iter().any(|l| l.contains("game over")), "{rest:?}");
}

#[test]
fn a_person_cannot_move_for_oxello() {
    // `redo` leaves White, oxello's colour in mode 0, to move with the
    // engine paused: the person's d6 must be refused.
    let script = "mode 3\nf5\nundo\nmode 0\nredo\nd6\nboard\n";
    let (status, lines) = protocol_util::piped(
        &["console", "--level", "greedy"],
        script,
        Duration::from_secs(60),
    );
    assert!(status.success());
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("error: ") && l.contains("oxello plays White")),
        "{lines:?}"
    );
    assert_eq!(
        lines.last().map(String::as_str),
        Some("ply 1: f5"),
        "{lines:?}"
    );
}

/// WTHOR 1985, game 3: at level 3 the console's own analysis showed row 6
/// as `f3 +12 | f4 +10 | 0`, the played move above the "best".
const WTHOR_1985_3: &str = "f5d6c3d3c2f3e3f4g3g5e6d7c4d2e1f6g4c1e2h3h4h5c5h2h6h7g6f7c6b6c7b5b4c8\
                            e7d8a5f2f8a3a6b3f1a4a2b7e8b1d1g1a8a7b8g7g8h8g2h1b2a1";

/// The rows of an analysis table: one per move.
fn analysis_rows(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.contains(" | black  | ") || l.contains(" | white  | "))
        .cloned()
        .collect()
}

#[test]
fn the_console_analysis_is_the_librarys() {
    let script = format!("mode 3\nplay {WTHOR_1985_3}\nanalyze\n");
    let console = ["console", "--level", "3", "--threads", "1"];
    let (status, lines) = protocol_util::piped(&console, &script, Duration::from_secs(120));
    assert!(status.success());
    let rows = analysis_rows(&lines);
    // 60 moves and two passes.
    assert_eq!(rows.len(), 62, "{lines:?}");
    // Level 3: depth 3 at the level's selectivity, exact from 7 empties.
    let (code, out, err) = protocol_util::run(&[
        "analyze",
        WTHOR_1985_3,
        "--game",
        "--depth",
        "3",
        "--exact-from",
        "7",
        "--selectivity",
        "73",
        "--threads",
        "1",
    ]);
    assert_eq!(code, 0, "{err:?}");
    assert_eq!(rows, analysis_rows(&out));
    for row in &rows {
        // ply | colour | move | empties | depth | score | best | best score | loss |
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        if cells[2] == "pass" {
            continue;
        }
        let played: i32 = cells[5].parse().unwrap();
        let best: i32 = cells[7].parse().unwrap();
        let loss: i32 = cells[8].parse().unwrap();
        assert!(played <= best && loss == best - played, "{row}");
    }
}

/// Ctrl-C during a search stops it and keeps the game; Ctrl-C while idle
/// quits.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_search_then_quits() {
    // A hint to depth 60 never ends on its own.
    let mut ox = Oxello::spawn(&["console", "--hash", "8", "--depth", "60"]);
    assert!(ox.recv().starts_with("oxello "));
    read_diagram(&mut ox);
    ox.send("mode 3");
    ox.expect("mode 3: you play both sides");
    read_diagram(&mut ox);
    ox.send("f5");
    read_diagram(&mut ox);
    ox.expect("ply 1: f5");
    ox.send("hint");
    std::thread::sleep(Duration::from_millis(500));
    ox.ctrl_c();
    ox.until(|line| line.starts_with("hint: "));
    ox.send("board");
    read_diagram(&mut ox);
    ox.expect("ply 1: f5");
    std::thread::sleep(Duration::from_millis(2500));
    ox.ctrl_c();
    assert!(ox.wait(Duration::from_secs(20)).success());
}

/// Two quick Ctrl-Cs quit even while a search runs.
#[cfg(unix)]
#[test]
fn a_second_ctrl_c_quits() {
    let mut ox = Oxello::spawn(&["console", "--hash", "8", "--depth", "60"]);
    assert!(ox.recv().starts_with("oxello "));
    read_diagram(&mut ox);
    ox.send("hint");
    std::thread::sleep(Duration::from_millis(500));
    ox.ctrl_c();
    // Two signals sent back to back can merge into one before the process
    // runs (the kernel keeps one pending SIGINT): a person's second press
    // comes later than this.
    std::thread::sleep(Duration::from_millis(150));
    ox.ctrl_c();
    assert!(ox.wait(Duration::from_secs(20)).success());
}

/// A solve within reach is announced with its estimate, and `stop` ends it
/// with what it found, the game kept.
#[test]
fn a_long_solve_is_announced_and_stops() {
    let mut ox = Oxello::spawn(&["console", "--hash", "8", "--threads", "1"]);
    assert!(ox.recv().starts_with("oxello "));
    read_diagram(&mut ox);
    ox.send("mode 3");
    ox.expect("mode 3: you play both sides");
    read_diagram(&mut ox);
    // Position 3 of positions/suite-30.obf: 28 empties.
    ox.send("setboard X-O-----OOOOXX--XOXOX---XOXXXXXXXOXOOXX--OOOOOX----O-O---------- X");
    let before = read_diagram(&mut ox);
    ox.send("solve");
    let announced = ox.until(|line| line.starts_with("solve: 28 empties: expect "));
    assert!(
        announced
            .last()
            .unwrap()
            .contains("'stop' or Ctrl-C ends it"),
        "{announced:?}"
    );
    ox.send("stop");
    ox.until(|line| line.starts_with("solve: best "));
    ox.send("board");
    assert_eq!(read_diagram(&mut ox), before);
    ox.send("quit");
    assert!(ox.wait(Duration::from_secs(20)).success());
}
