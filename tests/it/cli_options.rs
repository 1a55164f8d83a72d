//! One command line: a positional POSITION everywhere (board strings that
//! start with `-` included), options that do not apply refused, values
//! checked, the same exit codes for the same kinds of error (0 success, 1 a
//! run or input that went wrong, 2 a wrong command line), and one JSON
//! schema for every search result, errors included.

use crate::protocol_util;

use protocol_util::run;
use serde_json::Value;

/// A position whose board string starts with `-` (white to move; black's
/// is `X` in the board string).
const HYPHEN_BOARD: &str = "---------OO-OXO--OXXXXO---X-OXX--OX------XXO-XO--OOX-XO------OX- X";

/// A position of 5 empties, quick to solve.
const SOLVABLE_BOARD: &str = "-----XOOOOXXXOOXOOXXOXXOXOXOOOOXXXOXOXOOXOOOXOOOXOXOXXOXXOXOOOXX X";

fn suite() -> &'static str {
    concat!(env!("CARGO_MANIFEST_DIR"), "/positions/ffo-40-59.obf")
}

/// Runs the command; asserts its exit code and returns stdout and stderr.
fn exits(code: i32, args: &[&str]) -> (Vec<String>, Vec<String>) {
    let (got, out, err) = run(args);
    assert_eq!(got, code, "oxello {args:?}: {out:?} {err:?}");
    (out, err)
}

/// One JSON object per line.
fn json_lines(out: &[String]) -> Vec<Value> {
    out.iter()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

#[test]
fn every_subcommand_takes_a_hyphen_board_as_its_position() {
    exits(0, &["show", HYPHEN_BOARD]);
    exits(0, &["perft", HYPHEN_BOARD, "--depth", "2"]);
    exits(0, &["move", HYPHEN_BOARD, "--level", "2"]);
    exits(0, &["analyze", HYPHEN_BOARD, "--depth", "2"]);
    // HYPHEN_BOARD has too many empties to solve in a test: a board of 5
    // empties, also starting with `-`.
    let (out, _) = exits(
        0,
        &[
            "solve",
            "-----XOOOOXXXOOXOOXXOXXOXOXOOOOXXXOXOXOOXOOOXOOOXOXOXXOXXOXOOOXX X",
        ],
    );
    assert!(out.iter().any(|l| l.starts_with("  1 |")), "{out:?}");
}

#[test]
fn solve_takes_a_suite_or_a_position_as_its_argument() {
    let (out, _) = exits(0, &["solve", "-s", "4", "--json"]);
    let rows = json_lines(&out);
    assert_eq!(rows[0]["score"], -10);
    let (out, _) = exits(
        0,
        &["solve", suite(), "--first-number", "40", "--range", "40"],
    );
    assert!(out.iter().any(|l| l.starts_with(" 40 |")), "{out:?}");
}

#[test]
fn options_that_do_not_apply_are_refused() {
    for args in [
        &["solve", "-s", "4", "--level", "5"][..],
        &["analyze", "f5", "--level", "5"],
        &["perft", "--time", "1"],
        &["solve", "-s", "4", "--time", "1"],
        &["bench", "--hash", "16"],
        &["bench", "--threads", "2"],
        &["bench", "--bench-depth", "3"],
        &["show", "--depth", "3"],
    ] {
        let (_, err) = exits(2, args);
        assert!(
            err.iter().any(|l| l.starts_with("error: ")),
            "{args:?}: {err:?}"
        );
    }
}

#[test]
fn values_are_checked() {
    exits(2, &["move", "f5", "--depth", "0"]);
    exits(2, &["analyze", "f5", "--depth", "2", "--multi-pv", "0"]);
    let (_, err) = exits(
        2,
        &["solve", suite(), "--first-number", "40", "--range", "58-61"],
    );
    assert!(err.concat().contains("40 to 59"), "{err:?}");
    exits(2, &["solve", suite(), "--range", "7-3"]);
    let dir = std::env::temp_dir().join(format!("oxello-options-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let comments = dir.join("comments.obf");
    std::fs::write(&comments, "% only a comment\n").unwrap();
    let (_, err) = exits(1, &["solve", comments.to_str().unwrap()]);
    assert!(err.concat().contains("no position"), "{err:?}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn perft_divide_counts_with_the_backend_asked_for() {
    let (native, _) = exits(0, &["perft", "--divide", "-d", "5"]);
    let (portable, _) = exits(
        0,
        &["perft", "--divide", "-d", "5", "--backend", "portable"],
    );
    assert!(portable[0].ends_with("backend portable"), "{portable:?}");
    // The moves and counts agree; the header and timings differ.
    assert_eq!(native[2..7], portable[2..7]);
}

#[test]
fn the_same_kind_of_error_exits_with_the_same_code() {
    for command in ["show", "perft", "move", "analyze", "solve"] {
        exits(1, &[command, "f5f5"]);
        exits(2, &[command, "f5", "--no-such-option"]);
        exits(2, &[command, "f5", "--threads", "0"]);
    }
}

#[test]
fn search_results_share_one_schema() {
    let keys = [
        "move",
        "score",
        "bound",
        "search",
        "depth",
        "selectivity",
        "pv",
        "nodes",
        "time",
        "nps",
    ];
    let (out, _) = exits(0, &["move", "f5d6", "--depth", "3", "--json"]);
    let (analyzed, _) = exits(0, &["analyze", "f5d6", "--depth", "3", "--json"]);
    let (solved, _) = exits(0, &["solve", "-s", "4", "--json"]);
    for value in [
        &json_lines(&out)[0],
        &json_lines(&analyzed)[0],
        &json_lines(&solved)[0],
    ] {
        for key in keys {
            assert!(value.get(key).is_some(), "{key} missing in {value}");
        }
        assert!(value["pv"].is_array(), "{value}");
    }
    let analyzed = &json_lines(&analyzed)[0];
    assert_eq!(
        (analyzed["search"].as_str(), analyzed["depth"].as_u64()),
        (Some("midgame"), Some(3))
    );
    assert_eq!(json_lines(&solved)[0]["search"], "exact");
}

#[test]
fn a_wld_solve_reports_the_bound_it_proves() {
    // 4x4: White (to move second) wins; Black, to move, loses.
    let (out, _) = exits(0, &["solve", "-s", "4", "--wld", "--json"]);
    let row = &json_lines(&out)[0];
    assert_eq!(row["search"], "wld");
    assert_eq!(row["wld"], "loss");
    assert_eq!(
        (row["score"].as_i64(), row["bound"].as_str()),
        (Some(-2), Some("upper"))
    );
    // A suite row: the expected exact score beside a bound that holds.
    let (out, _) = exits(
        0,
        &[
            "solve",
            suite(),
            "--first-number",
            "40",
            "--range",
            "40",
            "--wld",
            "--json",
        ],
    );
    let row = &json_lines(&out)[0];
    let expected = row["expected"].as_i64().unwrap();
    let score = row["score"].as_i64().unwrap();
    match row["bound"].as_str() {
        Some("lower") => assert!(expected >= score, "{row}"),
        Some("upper") => assert!(expected <= score, "{row}"),
        _ => assert_eq!(expected, score, "{row}"),
    }
    assert_eq!(row["ok"], true);
}

/// `solve --all-moves` shows every move's score under the row (`moves` in
/// JSON) and checks each against the file; one position is numbered by
/// `--first-number`; `--wld` cannot `--write` an OBF file, whose scores are
/// exact (a WLD result is a bound).
#[test]
fn solve_all_moves_shows_and_checks_every_move() {
    let dir = crate::common::TempDir::new("cli-options", "all-moves");
    // positions/endgame-suite.obf #1, 8 empties, every move scored.
    let board = "--OOOOOXO-OOOOOXOOXOOXOXOXOOXXOXOXXXXOXXOOXXXXXX--XXXX-X-XXXXXX- X";
    let good = dir.join("good.obf");
    std::fs::write(&good, format!("{board}; B1:+40; B2:+32; A7:-12; B7:-22;\n")).unwrap();
    let bad = dir.join("bad.obf");
    std::fs::write(&bad, format!("{board}; B1:+40; B2:+32; A7:-14; B7:-22;\n")).unwrap();
    let (good, bad) = (good.display().to_string(), bad.display().to_string());

    let (out, _) = exits(0, &["solve", &good, "--all-moves", "--json"]);
    let row = &json_lines(&out)[0];
    let moves: Vec<(String, i64, i64, bool)> = row["moves"]
        .as_array()
        .unwrap_or_else(|| panic!("no moves: {row}"))
        .iter()
        .map(|m| {
            let field = |name: &str| m[name].as_i64().unwrap();
            let name = m["move"].as_str().unwrap().to_string();
            (name, field("score"), field("expected"), m["ok"] == true)
        })
        .collect();
    let want = [("b1", 40), ("b2", 32), ("a7", -12), ("b7", -22)];
    let want: Vec<(String, i64, i64, bool)> = want
        .iter()
        .map(|&(m, s)| (m.to_string(), s, s, true))
        .collect();
    assert_eq!(moves, want);
    let (out, _) = exits(0, &["solve", &good, "--all-moves"]);
    assert!(
        out.iter()
            .any(|l| l.ends_with("| every move: b1 +40, b2 +32, a7 -12, b7 -22")),
        "{out:?}"
    );
    // A move the file scores otherwise makes the position wrong, though
    // its best move and score agree.
    let (out, _) = exits(1, &["solve", &bad, "--all-moves"]);
    assert!(
        out.iter().any(|l| l.contains("a7 -12 (file -14)")),
        "{out:?}"
    );
    assert!(out.iter().any(|l| l.ends_with("WRONG")), "{out:?}");
    exits(0, &["solve", &bad]);

    // One position takes its number from --first-number, as a file's first.
    let (out, _) = exits(0, &["solve", board, "--first-number", "7"]);
    assert!(out.iter().any(|l| l.starts_with("  7 |")), "{out:?}");

    // Under --wld each move is a bound, as the row is: a loss is -2 at
    // most, never the fail-soft score the search returned.
    let (out, _) = exits(0, &["solve", &good, "--all-moves", "--wld", "--json"]);
    let row = &json_lines(&out)[0];
    for m in row["moves"].as_array().unwrap() {
        let wld = ["loss", "draw", "win"].iter().position(|w| m["wld"] == *w);
        let wld = wld.unwrap_or_else(|| panic!("{m}")) as i64 - 1;
        assert_eq!(m["score"].as_i64(), Some(2 * wld), "{m}");
        assert_ne!(m["bound"], "exact", "{m}");
        assert_eq!(m["ok"], true, "{m}");
    }

    let write = dir.join("w.obf").display().to_string();
    let (_, err) = exits(2, &["solve", &good, "--wld", "--write", &write]);
    assert!(err.iter().any(|l| l.contains("exact scores")), "{err:?}");
    assert!(!dir.join("w.obf").exists());
}

/// `--size` sizes `start` and transcripts; a board string or a file has
/// its own size, and a `--size` that contradicts it is refused, not ignored.
#[test]
fn a_size_the_position_contradicts_is_refused() {
    let eight = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
    for args in [
        &["show", eight, "--size", "6"][..],
        &["perft", eight, "--size", "4", "--depth", "1"],
        &["move", eight, "--size", "6", "--level", "1"],
        &["analyze", eight, "--size", "6", "--depth", "1"],
        &[
            "solve",
            suite(),
            "--size",
            "6",
            "--range",
            "40",
            "--first-number",
            "40",
        ],
    ] {
        let (_, err) = exits(2, args);
        assert!(
            err.iter()
                .any(|l| l.contains("--size") && l.contains("8x8")),
            "{args:?}: {err:?}"
        );
    }
    let (out, _) = exits(2, &["move", eight, "--size", "4", "--json"]);
    assert!(
        json_lines(&out)[0]["error"]
            .as_str()
            .unwrap()
            .contains("8x8")
    );
    // A size that agrees, or none, is taken.
    exits(0, &["show", eight, "--size", "8"]);
    exits(0, &["move", eight, "--level", "1"]);
    exits(0, &["perft", "--size", "6", "--depth", "2"]);
}

/// An unknown option in the place of a POSITION is refused as an option,
/// in a subcommand's own subcommand (`book show`) as in `show`.
#[test]
fn an_unknown_option_is_not_read_as_a_position() {
    for args in [&["show", "--bogus"][..], &["book", "show", "--bogus"]] {
        let (_, err) = exits(2, args);
        assert!(
            err[0].starts_with("error: unexpected argument '--bogus'"),
            "{args:?}: {err:?}"
        );
    }
    // A board string starting with '-' is still a position.
    let board = "---------------------------OX------XO--------------------------- X";
    exits(0, &["book", "show", board]);
}

#[test]
fn errors_under_json_are_json() {
    for args in [
        &["move", "f5f5", "--json"][..],
        &["analyze", "zz", "--json"],
        &["solve", "-s", "4", "--level", "3", "--json"],
        &["move", "f5", "--json", "--no-such-option"],
        // A subcommand's own subcommand (`book show`) too.
        &["book", "show", "zz", "--json"],
        &["book", "stats", "--json", "--book", "/no/such/book.bin"],
    ] {
        let (code, out, _) = run(args);
        assert_ne!(code, 0, "{args:?}");
        let values = json_lines(&out);
        assert_eq!(values.len(), 1, "{args:?}: {out:?}");
        assert!(values[0]["error"].is_string(), "{args:?}: {out:?}");
    }
}

/// A command line clap cannot read gives, under `--json`, clap's message
/// with its details (the missing argument, the tip), not only its first
/// line, which named no argument; the usage lines are left out.
#[test]
fn a_json_usage_error_says_what_is_wrong() {
    for (args, wanted) in [
        (
            &["move", "--json"][..],
            &[
                "the following required arguments were not provided",
                "<POSITION>",
            ][..],
        ),
        (
            &["move", "f5", "--json", "--dpth", "3"],
            &["'--dpth'", "tip: a similar argument exists: '--depth'"],
        ),
        // A value with a line break stays whole, escaped.
        (
            &["move", "f5", "--json", "--level", "a\nb"],
            &["invalid value 'a\\nb' for '--level <LEVEL>'"],
        ),
    ] {
        let (out, _) = exits(2, args);
        let values = json_lines(&out);
        assert_eq!(values.len(), 1, "{args:?}: {out:?}");
        let message = values[0]["error"].as_str().unwrap_or_default();
        for part in wanted {
            assert!(message.contains(part), "{args:?}: {message}");
        }
        assert!(!message.contains("Usage:"), "{args:?}: {message}");
    }
}

#[test]
fn the_gomoku_bench_sums_its_rows_into_its_signature() {
    let (out, _) = exits(0, &["bench", "--game", "gomoku", "--depth", "3"]);
    let rows: Vec<u64> = out
        .iter()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| l.split('|').nth(6).unwrap().trim().parse().unwrap())
        .collect();
    assert_eq!(rows.len(), 12, "{out:?}");
    let signature = out.iter().find_map(|l| l.strip_prefix("signature "));
    assert_eq!(
        signature,
        Some(rows.iter().sum::<u64>().to_string().as_str())
    );
    for args in [
        &["bench", "--game", "gomoku", "--selectivity", "95"][..],
        &["bench", "--game", "gomoku", "--accuracy", suite()],
        &["bench", "--game", "gomoku", "--depth", "41"],
        &["bench", "--game", "gomoku", "--threads", "2"],
    ] {
        let (_, err) = exits(2, args);
        assert!(
            err.iter().any(|l| l.starts_with("error: ")),
            "{args:?}: {err:?}"
        );
    }
}

/// A game number past the end of a game file, or one for a position that
/// is no game file, is a wrong command line (exit 2), as a `solve --range`
/// past the end of its file; a file that cannot be read is a run gone wrong
/// (exit 1).
#[test]
fn analyze_game_numbers_that_do_not_exist_are_command_line_errors() {
    use oxello::formats::{ggf, transcript};
    let dir = crate::common::temp_dir("options", "game-numbers");
    let start = oxello::Position::start(oxello::BoardSize::Eight);
    let records: Vec<_> = ["f5d6c3", "f5f6e6"]
        .iter()
        .map(|moves| ggf::GgfGame::from_game(&transcript::parse_game(moves, start).unwrap()))
        .collect();
    let file = dir.join("two.ggf");
    std::fs::write(&file, ggf::format_all(&records)).unwrap();
    let file = file.display().to_string();
    let (_, err) = exits(2, &["analyze", &file, "--index", "3", "--depth", "1"]);
    assert!(err.concat().contains("within 1-2"), "{err:?}");
    exits(2, &["analyze", &format!("{file}:3"), "--depth", "1"]);
    exits(2, &["analyze", &format!("{file}:1"), "--index", "2"]);
    let (_, err) = exits(2, &["analyze", "f5d6", "--index", "3"]);
    assert!(
        err.concat().contains("needs a GGF or WTHOR file"),
        "{err:?}"
    );
    let missing = dir.join("missing.ggf").display().to_string();
    exits(1, &["analyze", &missing, "--index", "1"]);
    exits(0, &["analyze", &file, "--index", "2", "--depth", "1"]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
#[cfg_attr(
    not(shared_data),
    ignore = "needs ../shared (WTHOR, XOT, FFO): skipped"
)]
fn analyze_wthor_game_numbers_past_the_end_are_command_line_errors() {
    let file = crate::common::shared("games/wthor/WTH_1977.wtb");
    let file = file.display().to_string();
    let (_, err) = exits(2, &["analyze", &file, "--index", "999999"]);
    assert!(err.concat().contains("999999"), "{err:?}");
    exits(2, &["analyze", &format!("{file}:999999")]);
}

/// `analyze` refuses what the analysis it runs would ignore: `--exact-from`
/// for one position (only a game analysis solves from there), `--depth`
/// with `--exact` or `--wld` (a solve goes to the end), `--exact`, `--wld`
/// and `--multi-pv` for a game, the book for one position (only a game
/// analysis marks book moves).
#[test]
fn analyze_refuses_the_options_its_analysis_ignores() {
    for (args, refused) in [
        (
            &["analyze", "f5d6", "--depth", "2", "--exact-from", "10"][..],
            "--exact-from",
        ),
        (&["analyze", "f5", "--exact", "--depth", "2"], "--depth"),
        (&["analyze", "f5", "--wld", "--depth", "2"], "--depth"),
        (&["--depth", "2", "analyze", "f5", "--exact"], "--depth"),
        (&["analyze", "f5d6", "--game", "--exact"], "--exact"),
        (&["analyze", "f5d6", "--game", "--wld"], "--wld"),
        (
            &["analyze", "f5d6", "--game", "--multi-pv", "2"],
            "--multi-pv",
        ),
        (
            &["analyze", "f5d6", "--depth", "1", "--no-book"],
            "--no-book",
        ),
        (
            &["analyze", "f5d6", "--depth", "1", "--book", "x.book"],
            "--book",
        ),
    ] {
        let (_, err) = exits(2, args);
        let expected = format!("error: {refused} does not apply to ");
        assert!(
            err.iter().any(|l| l.starts_with(&expected)),
            "{args:?}: {err:?}"
        );
    }
    // Where they apply, they are taken.
    exits(
        0,
        &[
            "analyze",
            "f5d6c3",
            "--game",
            "--depth",
            "1",
            "--exact-from",
            "10",
        ],
    );
    exits(
        0,
        &["analyze", "f5d6c3", "--game", "--depth", "1", "--no-book"],
    );
    exits(0, &["analyze", "f5d6", "--depth", "1", "--multi-pv", "2"]);
    exits(0, &["analyze", SOLVABLE_BOARD, "--exact", "--time", "10"]);
}

/// Every command that times its searches warms the search up first
/// (`Searcher::warmed`), as the engine of `move` does: the first result's
/// time, nodes/s and `--time` budget would otherwise count the one-time
/// decoding of the evaluation and the Multi-ProbCut model (60-120 ms). Its
/// debug line shows that it ran; the times are not tested (speed lives in
/// benchmarks, never in tests).
#[test]
fn timed_commands_warm_the_search_up_before_they_search() {
    for args in [
        &["analyze", "f5", "--depth", "1"][..],
        &["analyze", "f5d6", "--game", "--depth", "1"],
        &["solve", SOLVABLE_BOARD],
        &["bench", "--depth", "1"],
        &["move", "f5", "--depth", "1"],
    ] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_oxello"))
            .args(args)
            .env("RUST_LOG", "oxello::search=debug")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{args:?}: {stderr}");
        assert!(stderr.contains("search warm-up: "), "{args:?}: {stderr}");
    }
}

/// A new user's mistakes, each refused with what is wrong before any work,
/// and nothing lost.
#[test]
fn a_new_users_mistakes_are_refused_before_any_work() {
    let files = crate::common::TempDir::new("options", "mistakes");
    let dir = files.path();
    std::fs::create_dir_all(dir).unwrap();
    // `solve --write` onto the file being solved would empty it.
    let suite_copy = dir.join("suite.obf");
    std::fs::copy(suite(), &suite_copy).unwrap();
    let before = std::fs::read(&suite_copy).unwrap();
    let copy = suite_copy.to_str().unwrap();
    let (_, err) = exits(2, &["solve", copy, "--range", "1", "--write", copy]);
    assert!(err.concat().contains("the file being solved"), "{err:?}");
    assert_eq!(std::fs::read(&suite_copy).unwrap(), before);
    // A checkpoint folder that is a file.
    let (_, err) = exits(2, &["solve", SOLVABLE_BOARD, "--checkpoint", copy]);
    assert!(err.concat().contains("not a directory"), "{err:?}");
    // No position, or `-`, is not the start position.
    for missing in ["", "-"] {
        let (_, err) = exits(1, &["move", missing, "--level", "1"]);
        assert!(err.concat().contains("position"), "{missing:?}: {err:?}");
    }
    // A game analysis solving from more empties than it can.
    let (_, err) = exits(2, &["analyze", "f5d6", "--game", "--exact-from", "99"]);
    assert!(err.concat().contains("at most 30"), "{err:?}");
    // A graph that cannot be written, found before the analysis.
    let nowhere = dir.join("no-such-folder").join("x.svg");
    let (out, err) = exits(
        1,
        &[
            "analyze",
            "f5d6",
            "--game",
            "--depth",
            "1",
            "--svg",
            nowhere.to_str().unwrap(),
        ],
    );
    assert!(
        out.is_empty() && err.concat().contains("--svg"),
        "{out:?} {err:?}"
    );
    // Counts of 0 say what to give.
    for args in [
        &["match", "-j", "0", "-e", "x", "-e", "y"][..],
        &["match", "--games", "0", "-e", "x", "-e", "y"],
    ] {
        let (_, err) = exits(2, args);
        assert!(err.concat().contains("use 1 or more"), "{args:?}: {err:?}");
    }
    let (_, err) = exits(2, &["--seed", "-1", "move", "f5"]);
    assert!(err.concat().contains("is not a seed"), "{err:?}");
    // A simple player's move is backed by no search, and says so.
    let (out, _) = exits(0, &["move", "f5", "--level", "greedy", "--json"]);
    let answer = &json_lines(&out)[0];
    assert_eq!(
        (&answer["search"], &answer["bound"]),
        (&Value::from("none"), &Value::from("none"))
    );
    // A file that starts with a byte-order mark reads as without.
    let bom = dir.join("bom.txt");
    std::fs::write(&bom, "\u{feff}f5d6\n").unwrap();
    let (out, _) = exits(0, &["show", bom.to_str().unwrap()]);
    assert!(!out.is_empty());
}
