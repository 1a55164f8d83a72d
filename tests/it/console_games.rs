//! One console for both games, against the real binary: the same opening,
//! defaults, commands and help, `undo n` and `redo` to the person's turn,
//! and `stop` or Ctrl-C making oxello move now (issue 75: defects 8, 9, 10
//! and 20 were each found on e144fb8).

use crate::protocol_util;

use protocol_util::Oxello;
use std::time::Duration;

/// A console of each game: its arguments, a first move for the person, and
/// the help line of a move.
struct Game {
    args: &'static [&'static str],
    first: &'static str,
}

const OTHELLO: Game = Game {
    // Without the opening book: its answers would leave nothing to stop.
    args: &[
        "console",
        "--level",
        "3",
        "--hash",
        "8",
        "--threads",
        "1",
        "--no-book",
    ],
    first: "f5",
};

const GOMOKU: Game = Game {
    args: &[
        "console",
        "--game",
        "gomoku",
        "--size",
        "9",
        "--level",
        "3",
        "--threads",
        "1",
    ],
    first: "e5",
};

const TIMEOUT: Duration = Duration::from_secs(120);

fn piped(game: &Game, script: &str) -> Vec<String> {
    let (status, lines) = protocol_util::piped(game.args, script, TIMEOUT);
    assert!(status.success(), "{lines:?}");
    lines
}

/// The lines after the first that starts with `prefix`.
fn after<'a>(lines: &'a [String], prefix: &str) -> &'a [String] {
    let at = lines
        .iter()
        .position(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starts with {prefix:?}: {lines:?}"));
    &lines[at + 1..]
}

/// The help lines of the shared commands, with the game's words for a
/// move taken out.
fn shared_help(lines: &[String]) -> Vec<String> {
    let start = lines.iter().position(|l| l == "commands:").expect("help");
    lines[start + 1..]
        .iter()
        .take_while(|l| l.starts_with("  "))
        .filter(|l| {
            let word = l.split_whitespace().next().unwrap_or("");
            !["f5", "h8", "play", "level", "new", "time"].contains(&word)
        })
        .cloned()
        .collect()
}

/// Defect 9: both consoles open with the board and say who plays what; a
/// person's first move gets oxello's answer; `time`, `undo 2` and `help`
/// are the same in both.
#[test]
fn both_consoles_open_alike_and_oxello_answers_the_first_move() {
    let mut helps = Vec::new();
    for game in [OTHELLO, GOMOKU] {
        let script = format!("{}\ntime\nundo 2\nhelp\n", game.first);
        let lines = piped(&game, &script);
        assert!(
            lines[0].contains("You play Black (X), oxello plays White (O)")
                && lines[0].contains(&format!("type a move such as {}", game.first)),
            "{lines:?}"
        );
        // The board before any input: its column letters, top and bottom.
        let before_move = after(&lines, "oxello ");
        assert!(
            before_move[0].trim_start().starts_with("a b c"),
            "{lines:?}"
        );
        let answer = after(&lines, "oxello (level 3) thinks for White...");
        assert!(
            answer.iter().any(|l| l.starts_with("oxello plays ")),
            "{lines:?}"
        );
        assert!(lines.iter().any(|l| l.starts_with("time: ")), "{lines:?}");
        assert!(!lines.iter().any(|l| l.starts_with("error")), "{lines:?}");
        helps.push(shared_help(&lines));
    }
    assert!(helps[0].len() >= 10, "{helps:?}");
    assert_eq!(helps[0], helps[1]);
}

/// Defect 10: `redo` replays back to the person's turn in both games, and
/// the person plays on.
#[test]
fn redo_replays_to_the_persons_turn_in_both_games() {
    for (game, second) in [(OTHELLO, "board"), (GOMOKU, "board")] {
        let script = format!("{}\nundo\nredo\n{second}\n", game.first);
        let lines = piped(&game, &script);
        assert!(!lines.iter().any(|l| l.starts_with("error")), "{lines:?}");
        // After redo: the person's move and oxello's answer are back, and
        // Black (the person) is to move, with no move of oxello's pending.
        let redone = after(&lines, "oxello plays ");
        let moves = |l: &String| l.starts_with("ply 2: ") || l.starts_with("moves 2: ");
        assert_eq!(redone.iter().filter(|l| moves(l)).count(), 3, "{lines:?}");
        assert!(
            redone
                .iter()
                .filter(|l| l.contains("Black (X) to move"))
                .count()
                >= 3,
            "{lines:?}"
        );
        assert!(!redone.iter().any(|l| l.contains("thinks")), "{lines:?}");
    }
}

/// A console of `game` where the person has played the first move and
/// oxello thinks on its answer, for a minute at least.
fn oxello_thinking(game: &Game) -> Oxello {
    let mut ox = Oxello::spawn(game.args);
    ox.until(|l| l.contains(" to move"));
    ox.send("level 40");
    ox.send("time 60");
    ox.send(game.first);
    ox.until(|l| l.starts_with(" depth"));
    ox
}

/// Defect 8: `stop` (or Ctrl-C) while oxello chooses its move makes it play
/// the best move found so far; during a hint it only stops it. `help`
/// says so.
#[test]
fn stop_makes_oxello_move_now_and_only_ends_a_hint() {
    for game in [OTHELLO, GOMOKU] {
        let mut ox = oxello_thinking(&game);
        ox.send("stop");
        let played = ox.until(|l| l.starts_with("oxello plays "));
        assert!(
            played
                .last()
                .unwrap()
                .ends_with(" - stopped: the best move found so far"),
            "{played:?}"
        );
        ox.until(|l| l.contains("Black (X) to move"));
        ox.send("hint");
        ox.until(|l| l.starts_with(" depth"));
        ox.send("stop");
        let hint = ox.until(|l| l.starts_with("hint: "));
        let hint = hint.last().unwrap();
        assert!(
            hint.ends_with("stopped") || hint.ends_with("stopped)"),
            "{hint}"
        );
        // Two moves played, the person to move: the hint played nothing.
        ox.send("board");
        let board = ox.until(|l| l.starts_with("ply ") || l.starts_with("moves "));
        let last = board.last().unwrap();
        assert!(
            last.starts_with("ply 2: ") || last.starts_with("moves 2: "),
            "{board:?}"
        );
        ox.send("help");
        let help = ox.until(|l| l.contains("leave"));
        assert!(
            help.iter().any(|l| l.starts_with("  stop (or Ctrl-C) ")
                && l.contains(
                    "oxello moves now with the best move found; a hint or analysis just stops"
                )),
            "{help:?}"
        );
        ox.send("quit");
        assert!(ox.wait(Duration::from_secs(20)).success());
    }
}

/// Defect 8, Ctrl-C: the same as `stop`, in both games; a second Ctrl-C
/// while idle quits.
#[cfg(unix)]
#[test]
fn ctrl_c_makes_oxello_move_now() {
    for game in [OTHELLO, GOMOKU] {
        let mut ox = oxello_thinking(&game);
        std::thread::sleep(Duration::from_millis(700));
        ox.ctrl_c();
        let played = ox.until(|l| l.starts_with("oxello plays "));
        assert!(
            played
                .last()
                .unwrap()
                .ends_with("stopped: the best move found so far"),
            "{played:?}"
        );
        ox.until(|l| l.contains("Black (X) to move"));
        std::thread::sleep(Duration::from_millis(2500));
        ox.ctrl_c();
        assert!(ox.wait(Duration::from_secs(20)).success());
    }
}

/// Defect 20: the Othello board marks the last disc played in lower case,
/// as the gomoku board does.
#[test]
fn both_boards_mark_the_last_move() {
    let lines = piped(&OTHELLO, "mode 3\nf5\n");
    let row = lines.iter().rev().find(|l| l.starts_with(" 5 ")).unwrap();
    assert!(row.starts_with(" 5 - - - X X x - - 5"), "{lines:?}");
    let lines = piped(&GOMOKU, "mode 3\ne5\n");
    let row = lines.iter().rev().find(|l| l.starts_with("  5 ")).unwrap();
    assert!(row.starts_with("  5 . . . . x . . . . 5"), "{lines:?}");
}

/// A game whose only move is a pass shows it, not an empty transcript
/// ("ply 1: " on e144fb8, issue 75 defect 18).
#[test]
fn a_pass_shows_in_the_transcript_line() {
    let board = format!("OX{} X", "-".repeat(62));
    let lines = piped(&OTHELLO, &format!("mode 3\nsetboard {board}\npass\n"));
    let ply = lines.iter().rev().find(|l| l.starts_with("ply 1")).unwrap();
    assert_eq!(ply, "ply 1: pass", "{lines:?}");
}

/// A second trial's finding: the Othello console named only the level when a
/// depth or a time per move overrides it.
#[test]
fn the_othello_console_names_the_depth_and_time_that_override_the_level() {
    let args = [
        "console",
        "--level",
        "5",
        "--depth",
        "2",
        "--time",
        "0.5",
        "--hash",
        "8",
        "--threads",
        "1",
        "--no-book",
    ];
    let (status, lines) = protocol_util::piped(&args, "f5\n", TIMEOUT);
    assert!(status.success(), "{lines:?}");
    assert!(
        lines[0].contains("oxello at level 5, depth 2, 0.5 s a move."),
        "{lines:?}"
    );
    after(
        &lines,
        "oxello (level 5, depth 2, 0.5 s a move) thinks for White...",
    );
}
