//! Gomocup protocol sessions against the built binaries: every command,
//! bad input, line endings, the auto-detecting loop, time limits and the
//! end of input in the middle of a search.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

const PBRAIN: &str = env!("CARGO_BIN_EXE_pbrain-oxello");
const OXELLO: &str = env!("CARGO_BIN_EXE_oxello");

/// Runs a whole script (stdin closed at the end) and returns stdout lines.
fn script(program: &str, args: &[&str], input: &str) -> Vec<String> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// Replies that are not MESSAGE/DEBUG lines.
fn answers(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| !l.starts_with("MESSAGE") && !l.starts_with("DEBUG"))
        .cloned()
        .collect()
}

fn is_move(line: &str) -> bool {
    let Some((x, y)) = line.split_once(',') else {
        return false;
    };
    x.parse::<u32>().is_ok() && y.parse::<u32>().is_ok()
}

#[test]
fn a_full_session() {
    let input = "ABOUT\r\nSTART 15\r\nINFO timeout_turn 200\r\nINFO timeout_match 100000\r\nINFO max_memory 367001600\r\nINFO game_type 1\r\nINFO rule 1\r\nINFO time_left 100000\r\nINFO folder /tmp\r\nBEGIN\r\nINFO time_left 99000\r\nTURN 8,8\r\nTAKEBACK 8,8\r\nRESTART\r\nBOARD\r\n7,7,2\r\n8,7,1\r\n9,9,2\r\nDONE\r\nRESTART\r\nSWAP2BOARD\r\nDONE\r\nFOOBAR 1\r\nEND\r\n";
    let lines = script(PBRAIN, &[], input);
    let replies = answers(&lines);
    assert!(replies[0].starts_with("name=\"oxello\""), "{replies:?}");
    assert_eq!(replies[1], "OK");
    assert!(is_move(&replies[2]), "{replies:?}");
    assert!(is_move(&replies[3]), "{replies:?}");
    assert_eq!(replies[4], "OK");
    assert_eq!(replies[5], "OK");
    assert!(is_move(&replies[6]), "{replies:?}");
    assert_eq!(replies[7], "OK");
    assert_eq!(replies[8].split(' ').filter(|m| is_move(m)).count(), 3);
    assert_eq!(replies[9], "UNKNOWN command FOOBAR 1");
    assert_eq!(replies.len(), 10, "{replies:?}");
}

#[test]
fn bad_input_is_answered_and_never_ends_the_session() {
    let input = "START 15\nINFO timeout_turn 100\nTURN 99,1\nTURN a,b\nTURN 7\nTURN 7,7\nTURN 7,7\n\u{1}\u{ff}garbage\nBOARD\n1,1,1\nTURN 2,2\nBOARD\n1,1,9\nDONE\nSTART 3\nSTART 99\nRECTSTART 20,x\nTAKEBACK 14,14\nDONE\nINFO\nINFO rule x\nPLAY 0,0\nEND\n";
    let replies = answers(&script(PBRAIN, &[], input));
    let expect_prefix = [
        "OK",
        "ERROR 99,1 is off the board",
        "ERROR 'a,b' is not a move",
        "ERROR '7' is not a move",
        "",      // a move
        "ERROR", // occupied (by our own answer or the stone)
        "UNKNOWN",
        "ERROR block without DONE",
        "",
        "ERROR bad BOARD line",
        "ERROR",
        "ERROR",
        "ERROR",
        "ERROR no stone",
        "ERROR DONE without BOARD",
        "0,0",
    ];
    assert_eq!(replies.len(), expect_prefix.len(), "{replies:?}");
    for (reply, prefix) in replies.iter().zip(expect_prefix) {
        if prefix.is_empty() {
            assert!(is_move(reply), "{replies:?}");
        } else {
            assert!(
                reply.starts_with(prefix),
                "{reply} !~ {prefix}: {replies:?}"
            );
        }
    }
}

#[test]
fn line_endings_and_case() {
    // CR alone, LF alone, lower case (Yixin-Board).
    let replies = answers(&script(
        PBRAIN,
        &[],
        "start 10\rinfo timeout_turn 50\rbegin\rturn 1,1\nend\n",
    ));
    assert_eq!(replies[0], "OK");
    assert!(is_move(&replies[1]) && is_move(&replies[2]), "{replies:?}");
}

#[test]
fn the_main_binary_detects_the_protocol_and_has_a_subcommand() {
    for args in [&[][..], &["gomocup"][..]] {
        let replies = answers(&script(
            OXELLO,
            args,
            "START 20\r\nINFO timeout_turn 100\r\nBEGIN\r\nEND\r\n",
        ));
        assert_eq!(replies, ["OK", "10,10"], "{args:?}");
    }
    let replies = answers(&script(OXELLO, &[], "ABOUT\nEND\n"));
    assert!(replies[0].starts_with("name="));
    let replies = answers(&script(
        OXELLO,
        &[],
        "INFO rule 4\nSTART 15\nBEGIN\nyxshowforbid\nEND\n",
    ));
    assert_eq!(replies, ["OK", "7,7", "FORBID ."]);
}

/// The deepest iteration a search of the three-stone opening reached,
/// from its last `MESSAGE depth` line.
fn depth_reached(args: &[&str], info: &str) -> u32 {
    let input =
        format!("START 15\nINFO show_detail 1\n{info}BOARD\n7,7,2\n5,5,1\n9,8,2\nDONE\nEND\n");
    let lines = script(OXELLO, args, &input);
    let last = lines
        .iter()
        .rfind(|l| l.starts_with("MESSAGE depth"))
        .unwrap_or_else(|| panic!("{lines:?}"));
    last.split_whitespace().nth(2).unwrap().parse().unwrap()
}

#[test]
fn command_line_depth_level_and_time_are_the_brain_s() {
    // Unbounded by time (60 s a move), the depth option is what stops it.
    let long = "INFO timeout_turn 60000\n";
    assert_eq!(depth_reached(&["gomocup", "--depth", "3"], long), 3);
    assert_eq!(depth_reached(&["gomocup", "--level", "2"], long), 2);
    // The same through the auto-detecting loop, where `--level` is an
    // Othello level until the first line asks for Gomocup, and `--depth`
    // overrides it as it overrides an Othello level's depth.
    assert_eq!(depth_reached(&["--level", "2"], long), 2);
    assert_eq!(depth_reached(&["--depth", "3"], long), 3);
    assert_eq!(depth_reached(&["--level", "2", "--depth", "3"], long), 3);
    // The manager's `INFO max_depth` overrides it.
    let deeper = "INFO timeout_turn 60000\nINFO max_depth 4\n";
    assert_eq!(depth_reached(&["gomocup", "--depth", "2"], deeper), 4);
    // `--time` is the turn time until the manager sends `timeout_turn`.
    let started = Instant::now();
    let replies = answers(&script(
        OXELLO,
        &["gomocup", "--time", "0.3"],
        "START 15\nBOARD\n7,7,2\n5,5,1\n9,8,2\nDONE\nEND\n",
    ));
    assert!(is_move(&replies[1]), "{replies:?}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    for args in [
        &["gomocup", "--level", "random"][..],
        &["gomocup", "--selectivity", "73"],
        &["gomocup", "--seed", "1"],
        &["gomocup", "--depth", "0"],
        &["gomocup", "--depth", "2", "--level", "2"],
        &["gomocup", "--time", "1e6"],
    ] {
        let output = Command::new(OXELLO)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert!(!output.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn yixin_extensions() {
    let input = "INFO show_detail 3\nSTART 15\nINFO timeout_turn 300\nyxboard\n7,7,1\n8,8,2\nDONE\nyxhashclear\nyxnbest 2\nyxshowinfo\nEND\n";
    let lines = script(PBRAIN, &[], input);
    assert_eq!(lines[0], "OK");
    assert!(
        lines.iter().any(|l| l.starts_with("MESSAGE depth")),
        "{lines:?}"
    );
    let replies = answers(&lines);
    assert!(is_move(&replies[1]), "{replies:?}");
    // yxnbest 2: the two best moves, best first, the first the move played.
    let nbest: Vec<(String, i32)> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("MESSAGE nbest "))
        .map(|rest| {
            let fields: Vec<&str> = rest.split_whitespace().collect();
            (fields[1].to_string(), fields[3].parse().unwrap())
        })
        .collect();
    assert_eq!(nbest.len(), 2, "{lines:?}");
    assert_eq!(nbest[0].0, replies[1], "{lines:?}");
    assert_ne!(nbest[0].0, nbest[1].0, "{lines:?}");
    assert!(lines.iter().any(|l| l
        == &format!(
            "MESSAGE INFO MAX_THREAD_NUM {}",
            oxello::engine::MAX_THREADS
        )));
}

#[test]
fn thread_num_is_used_and_absurd_values_are_clamped() {
    let input = "START 15\nINFO thread_num 2\nINFO max_depth 3\nINFO show_detail 1\nBEGIN\nINFO thread_num 0\nINFO thread_num 100000\nINFO thread_num x\nTURN 7,8\nEND\n";
    let lines = script(PBRAIN, &[], input);
    assert_eq!(lines[0], "OK");
    assert!(
        lines
            .iter()
            .any(|l| l == "MESSAGE thread_num 0: using 1 (1 to 256)"),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l == "MESSAGE thread_num 100000: using 256 (1 to 256)"),
        "{lines:?}"
    );
    // Both searches answered with a move, the game going on.
    let moves = lines.iter().filter(|l| is_move(l)).count();
    assert_eq!(moves, 2, "{lines:?}");
}

/// An INFO value out of its range is answered with a MESSAGE and leaves the
/// setting as it was: the turn of 200 ms still holds after `timeout_turn
/// -5`, and `max_depth 999` does not lift `max_depth 2`.
#[test]
fn info_values_out_of_range_are_ignored_with_a_message() {
    let input = "START 15\nINFO timeout_turn 200\nINFO max_depth 2\nINFO timeout_turn -5\n\
                 INFO max_depth 999\nINFO max_depth -1\nINFO max_node -3\nINFO timeout_match -1\n\
                 INFO max_memory -5\nINFO show_detail 7\nINFO show_detail 1\n\
                 BOARD\n7,7,1\n8,8,2\nDONE\nEND\n";
    let lines = script(PBRAIN, &[], input);
    for expected in [
        "MESSAGE INFO timeout_turn -5 ignored: use 0 or more ms",
        "MESSAGE INFO max_depth 999 ignored: use 0 (no limit) or 1 to 40",
        "MESSAGE INFO max_depth -1 ignored: use 0 (no limit) or 1 to 40",
        "MESSAGE INFO max_node -3 ignored: use 0 (no limit) or more nodes",
        "MESSAGE INFO timeout_match -1 ignored: use 0 or more ms",
        "MESSAGE INFO max_memory -5 ignored: use 0 (no limit) or more bytes",
        "MESSAGE INFO show_detail 7 ignored: use 0 to 3",
    ] {
        assert!(lines.iter().any(|l| l == expected), "{expected}: {lines:?}");
    }
    let deepest = lines
        .iter()
        .filter_map(|l| l.strip_prefix("MESSAGE depth "))
        .filter_map(|rest| rest.split_whitespace().next()?.parse::<u32>().ok())
        .max();
    assert_eq!(deepest, Some(2), "{lines:?}");
    assert_eq!(lines.iter().filter(|l| is_move(l)).count(), 1, "{lines:?}");
}

struct Live {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Live {
    fn new() -> Live {
        let mut child = Command::new(PBRAIN)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Live {
            child,
            stdin,
            stdout,
        }
    }

    fn send(&mut self, line: &str) {
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.write_all(b"\r\n").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next reply that is not a MESSAGE, and how long it took.
    fn reply(&mut self) -> (String, Duration) {
        let started = Instant::now();
        loop {
            let mut line = String::new();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "EOF");
            let line = line.trim_end().to_string();
            if !line.starts_with("MESSAGE") && !line.starts_with("DEBUG") {
                return (line, started.elapsed());
            }
        }
    }
}

#[test]
fn never_over_the_turn_limit() {
    let mut live = Live::new();
    live.send("START 15");
    assert_eq!(live.reply().0, "OK");
    live.send("INFO timeout_turn 400");
    live.send("INFO timeout_match 0");
    live.send("BEGIN");
    let (mut mv, took) = live.reply();
    assert!(took < Duration::from_millis(500), "{took:?}");
    // Play the engine against a fixed reply pattern: the opponent answers
    // next to our last move when free.
    let mut taken = vec![mv.clone()];
    for i in 0..8 {
        let (x, y) = mv.split_once(',').unwrap();
        let (x, y): (i32, i32) = (x.parse().unwrap(), y.parse().unwrap());
        let mut reply = None;
        for (dx, dy) in [
            (1, 1),
            (-1, 1),
            (1, -1),
            (-1, -1),
            (0, 1),
            (1, 0),
            (0, -1),
            (-1, 0),
        ] {
            let candidate = format!("{},{}", x + dx, y + dy);
            if (0..15).contains(&(x + dx))
                && (0..15).contains(&(y + dy))
                && !taken.contains(&candidate)
            {
                reply = Some(candidate);
                break;
            }
        }
        let reply = reply.unwrap_or_else(|| format!("{},0", i));
        taken.push(reply.clone());
        live.send(&format!("TURN {reply}"));
        let (answer, took) = live.reply();
        assert!(took < Duration::from_millis(500), "move {i}: {took:?}");
        if !is_move(&answer) {
            break;
        }
        taken.push(answer.clone());
        mv = answer;
    }
    live.send("END");
    assert!(live.child.wait().unwrap().success());
}

#[test]
fn timeout_turn_zero_moves_at_once_and_match_time_is_shared() {
    let mut live = Live::new();
    live.send("START 15");
    live.reply();
    live.send("INFO timeout_turn 0");
    live.send("BEGIN");
    let (_, took) = live.reply();
    assert!(took < Duration::from_millis(100), "{took:?}");
    live.send("INFO timeout_turn 30000");
    live.send("INFO timeout_match 3000");
    live.send("INFO time_left 1000");
    live.send("TURN 8,8");
    let (answer, took) = live.reply();
    assert!(is_move(&answer));
    assert!(took < Duration::from_millis(400), "{took:?}");
    live.send("END");
    assert!(live.child.wait().unwrap().success());
}

/// A `yxstop` read ahead of the `TURN` it is meant for still stops that
/// search, and is spent once handled: the next search runs its time.
#[test]
fn a_yxstop_read_ahead_stops_the_search_before_it() {
    let started = Instant::now();
    let lines = script(
        PBRAIN,
        &[],
        "START 15\nINFO timeout_turn 20000\nTURN 7,7\nYXSTOP\n\
         INFO timeout_turn 300\nTURN 9,9\nEND\n",
    );
    assert!(started.elapsed() < Duration::from_secs(8), "{lines:?}");
    let moves: Vec<_> = answers(&lines).into_iter().filter(|l| is_move(l)).collect();
    assert_eq!(moves.len(), 2, "{lines:?}");
    let depths: Vec<u32> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("MESSAGE depth "))
        .filter_map(|rest| rest.split_whitespace().next()?.parse().ok())
        .collect();
    assert_eq!(depths.len(), 2, "{lines:?}");
    assert!(
        depths[1] > 1,
        "the second search was stopped too: {lines:?}"
    );
}

/// Under `INFO show_detail`, each iteration's `MESSAGE depth` line comes as
/// the iteration ends, while the search still runs: here the search has 60
/// s, and it is the lines already printed that lead to the `yxstop`.
#[test]
fn show_detail_lines_come_while_the_search_runs() {
    let mut live = Live::new();
    live.send("START 15");
    assert_eq!(live.reply().0, "OK");
    live.send("INFO show_detail 1");
    live.send("INFO timeout_turn 60000");
    live.send("INFO timeout_match 0");
    live.send("BOARD");
    for stone in ["7,7,2", "8,8,1", "7,8,2", "6,6,1"] {
        live.send(stone);
    }
    live.send("DONE");
    let started = Instant::now();
    let mut depths = Vec::new();
    while depths.len() < 3 {
        let mut line = String::new();
        assert!(live.stdout.read_line(&mut line).unwrap() > 0, "EOF");
        assert!(!is_move(line.trim_end()), "moved before any stop: {line}");
        if let Some(rest) = line.strip_prefix("MESSAGE depth ") {
            depths.push(rest.split_whitespace().next().unwrap().to_string());
        }
    }
    assert_eq!(depths, ["1", "2", "3"]);
    live.send("YXSTOP");
    let (answer, _) = live.reply();
    assert!(is_move(&answer), "{answer}");
    assert!(started.elapsed() < Duration::from_secs(30));
    live.send("END");
    assert!(live.child.wait().unwrap().success());
}

#[test]
fn end_of_input_in_the_middle_of_a_search() {
    let mut live = Live::new();
    live.send("START 15");
    live.reply();
    live.send("INFO timeout_turn 1500");
    live.send("BOARD");
    live.send("7,7,1");
    live.send("8,8,2");
    live.send("DONE");
    let started = Instant::now();
    drop(live.stdin);
    let status = live.child.wait().unwrap();
    assert!(status.success());
    assert!(started.elapsed() < Duration::from_secs(3));
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut live.stdout, &mut rest).unwrap();
    assert!(rest.lines().any(is_move), "{rest}");
}

/// Issue 75, defect 17: `pbrain-oxello --help` and `--version` answer and
/// exit 0 without reading the protocol; any other argument is a usage
/// error.
#[test]
fn pbrain_answers_help_and_version() {
    let run = |args: &[&str]| {
        let output = Command::new(PBRAIN)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&output.stdout).into_owned();
        let err = String::from_utf8_lossy(&output.stderr).into_owned();
        (output.status.code(), out, err)
    };
    let (code, out, _) = run(&["--help"]);
    assert_eq!(code, Some(0));
    assert!(
        out.starts_with("pbrain-oxello: ") && out.contains("Usage:"),
        "{out}"
    );
    let (code, out, _) = run(&["--version"]);
    assert_eq!(code, Some(0));
    assert_eq!(
        out.trim(),
        format!("pbrain-oxello {}", env!("CARGO_PKG_VERSION"))
    );
    let (code, out, err) = run(&["--time", "5"]);
    assert_eq!(code, Some(2));
    assert!(out.is_empty() && err.starts_with("error: "), "{err}");
}

/// Issue 75, defect 17: `BEGIN` on a board with stones and a `BOARD` in
/// which a side already has five get `ERROR`, and the position stays as it
/// was (the next `TURN` is answered on it).
#[test]
fn begin_on_stones_and_a_board_with_five_are_errors() {
    let five = "BOARD\n0,0,1\n0,5,2\n1,0,1\n1,5,2\n2,0,1\n2,5,2\n3,0,1\n3,5,2\n4,0,1\nDONE\n";
    let input = format!("START 15\nINFO timeout_turn 100\nTURN 7,7\nBEGIN\n{five}TURN 9,9\nEND\n");
    let lines = answers(&script(PBRAIN, &[], &input));
    assert_eq!(lines[0], "OK", "{lines:?}");
    assert!(is_move(&lines[1]), "{lines:?}");
    assert!(
        lines[2].starts_with("ERROR BEGIN on a board with 2 stone"),
        "{lines:?}"
    );
    assert!(
        lines[3].starts_with("ERROR BOARD: the game is over, five in a row"),
        "{lines:?}"
    );
    // The board of the first TURN is kept: 9,9 is answered there (on the
    // board of five it would be refused).
    assert!(is_move(&lines[4]), "{lines:?}");
    assert_eq!(lines.len(), 5, "{lines:?}");
}

/// A line inside a BOARD block that is no command is one bad line of the
/// block, answered once at DONE; an INFO value that is no number in range
/// is reported, not dropped in silence.
#[test]
fn a_bad_block_line_gets_one_answer_and_bad_info_values_a_message() {
    let input = "START 15\nBOARD\nfoo\nDONE\nINFO timeout_turn abc\n\
                 INFO max_node 99999999999999999999\nINFO rule 99\nINFO folder /tmp\nEND\n";
    let lines = script(PBRAIN, &[], input);
    assert_eq!(
        answers(&lines),
        vec!["OK".to_string(), "ERROR bad BOARD line 'foo'".to_string()],
        "{lines:?}"
    );
    let messages: Vec<&String> = lines.iter().filter(|l| l.starts_with("MESSAGE")).collect();
    for expected in [
        "timeout_turn 'abc'",
        "max_node '99999999999999999999'",
        "rule 99",
    ] {
        assert!(
            messages.iter().any(|l| l.contains(expected)),
            "{expected}: {lines:?}"
        );
    }
    assert!(!messages.iter().any(|l| l.contains("folder")), "{lines:?}");
}
