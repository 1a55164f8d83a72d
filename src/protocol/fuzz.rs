//! Property tests: tens of thousands of random, valid and mutated command
//! lines fed to each protocol handler. No line may panic; a refused line
//! must answer in the protocol's error form and leave the game exactly as
//! it was.
//!
//! Searches are kept short (levels 1-3); lines that would start very long
//! work (deep levels, `solve` far from the end, deep `perft`) are skipped.

use crate::bitboard::{BoardSize, squares};
use crate::engine::{EngineOptions, Level, Player};
use crate::formats::board_string;
use crate::formats::ggf::GgfGame;
use crate::game::Game;
use crate::moves::Move;
use crate::protocol::scratch::ScratchDir;
use crate::protocol::{Mode, Session, Settings};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Lines sent to each handler.
pub const LINES_PER_HANDLER: usize = 30_000;

/// A session of `mode` whose files (NBoard's `learn`) go to `dir`.
fn new_session(mode: Mode, dir: &ScratchDir) -> Session {
    let options = EngineOptions {
        hash_mib: 1,
        player: Player::Level(Level::new(1)),
        ..EngineOptions::default()
    };
    let settings = Settings {
        learn_file: dir.join("learn.ggf"),
        interactive: false,
        ..Settings::default()
    };
    Session::with_settings(mode, options, settings)
}

/// Characters mutations insert: letters, digits, separators, control
/// characters, non-ASCII and the replacement character of bad UTF-8.
const NOISE: &[char] = &[
    'a', 'f', 'h', 'z', 'P', 'A', 'x', 'O', '*', '-', '1', '5', '9', '0', ' ', ' ', '\t', '/', '#',
    '[', ']', '(', ')', ';', '.', '+', 'e', '\0', '\u{1}', '\u{7f}', '\r', 'é', '\u{fffd}', '%',
    'W', 'B', '\\',
];

fn mutate(rng: &mut StdRng, line: &str) -> String {
    let mut chars: Vec<char> = line.chars().collect();
    for _ in 0..rng.random_range(1..=3) {
        let at = rng.random_range(0..=chars.len());
        match rng.random_range(0..6) {
            0 if at < chars.len() => {
                chars.remove(at);
            }
            1 => chars.insert(at, NOISE[rng.random_range(0..NOISE.len())]),
            2 if at < chars.len() => chars[at] = NOISE[rng.random_range(0..NOISE.len())],
            3 => chars.truncate(at),
            4 if at < chars.len() => {
                let end = rng.random_range(at..chars.len());
                let copy: Vec<char> = chars[at..=end].to_vec();
                chars.splice(at..at, copy);
            }
            _ => {
                if let Some(c) = chars.get_mut(at) {
                    *c = if c.is_ascii_lowercase() {
                        c.to_ascii_uppercase()
                    } else {
                        c.to_ascii_lowercase()
                    };
                }
            }
        }
    }
    chars.into_iter().collect()
}

fn random_bytes(rng: &mut StdRng) -> String {
    let bytes: Vec<u8> = (0..rng.random_range(0..40))
        .map(|_| rng.random_range(0..=255u8))
        .collect();
    String::from_utf8_lossy(&bytes)
        .split('\n')
        .next()
        .unwrap_or("")
        .to_string()
}

/// A legal move of the game's position, or a random square now and then.
fn some_move(rng: &mut StdRng, game: &Game) -> Option<Move> {
    let position = game.position();
    let moves = position.move_list();
    if moves.is_empty() || rng.random_range(0..8) == 0 {
        return None;
    }
    Some(moves[rng.random_range(0..moves.len())])
}

fn some_square_name(rng: &mut StdRng, game: &Game) -> String {
    match some_move(rng, game) {
        Some(mv) if rng.random_bool(0.5) => mv.to_upper(),
        Some(mv) => mv.to_string(),
        None => {
            let col = (b'a' + rng.random_range(0..9u8)) as char;
            let row = rng.random_range(0..10u8);
            format!("{col}{row}")
        }
    }
}

/// A random game of a random size, played `plies` moves at most.
fn random_game(rng: &mut StdRng) -> Game {
    let size = BoardSize::ALL[rng.random_range(0..3)];
    let mut game = Game::new(size);
    for _ in 0..rng.random_range(0..70) {
        let moves = game.position().move_list();
        if moves.is_empty() {
            break;
        }
        let _ = game.play(moves[rng.random_range(0..moves.len())]);
    }
    game
}

/// Drives a handler with `count` lines from `make_line`, checking after
/// each that a refused line left the game alone; `check_reply` checks the
/// form of every reply. Returns the number of lines sent.
fn drive(
    mode: Mode,
    seed: u64,
    count: usize,
    mut make_line: impl FnMut(&mut StdRng, &Game) -> Option<String>,
    check_reply: impl Fn(&str, &[String], bool),
) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    let files = ScratchDir::new("fuzz");
    let mut session = new_session(mode, &files);
    session.send(match mode {
        Mode::Nboard => "nboard 2",
        Mode::Gtp => "protocol_version",
        _ => "board",
    });
    let mut sent = 0;
    let mut rejected = 0;
    while sent < count {
        let game = session.game().expect("a protocol is chosen").clone();
        let Some(line) = make_line(&mut rng, &game) else {
            continue;
        };
        sent += 1;
        let reply = session.send(&line);
        let refused = session.last_rejected();
        check_reply(&line, &reply, refused);
        if refused {
            rejected += 1;
            assert_eq!(
                session.game().unwrap(),
                &game,
                "refused line {line:?} changed the game"
            );
        }
        if session.has_quit() {
            session = new_session(mode, &files);
            session.send(match mode {
                Mode::Nboard => "nboard 2",
                Mode::Gtp => "protocol_version",
                _ => "board",
            });
        }
    }
    eprintln!("{mode:?}: {sent} lines, {rejected} refused");
    assert!(rejected > count / 10 && rejected < count, "{rejected}");
    sent
}

/// Mixes valid lines, mutated valid lines and random bytes.
fn mix(rng: &mut StdRng, valid: String) -> String {
    match rng.random_range(0..10) {
        0..=4 => valid,
        5..=8 => mutate(rng, &valid),
        _ => random_bytes(rng),
    }
}

/// Whether no number of a line is in exponent notation (or inf, NaN).
fn no_exponent(line: &str) -> bool {
    line.split([' ', '/']).all(|piece| {
        let number = piece.parse::<f64>().is_ok();
        !(number && piece.chars().any(|c| c.is_ascii_alphabetic()))
    })
}

fn first_word(line: &str) -> String {
    let mut words = line.split_whitespace();
    let mut first = words.next().unwrap_or("");
    if first.bytes().all(|b| b.is_ascii_digit()) {
        first = words.next().unwrap_or("");
    }
    first.to_ascii_lowercase()
}

/// The second word as a number, if it is one.
fn number_after(line: &str, word: &str) -> Option<u64> {
    let mut words = line.split_whitespace();
    while let Some(w) = words.next() {
        if w.eq_ignore_ascii_case(word) {
            return words.next()?.parse().ok();
        }
    }
    None
}

#[test]
fn nboard_handler_survives_random_lines() {
    let ggf_text = |rng: &mut StdRng| {
        let game = random_game(rng);
        let mut record = GgfGame::from_game(&game);
        record.place = "NBoard".to_string();
        if rng.random_bool(0.3) {
            record.clock = crate::formats::ggf::GgfClock::new(rng.random_range(1.0..600.0));
        }
        record.to_string()
    };
    let make_line = |rng: &mut StdRng, game: &Game| {
        let valid = match rng.random_range(0..20) {
            0 => format!("nboard {}", rng.random_range(0..4)),
            1 => format!("set depth {}", rng.random_range(1..=3)),
            2 | 3 => format!("set game {}", ggf_text(rng)),
            4 => format!("set contempt {}", [0, 100, -100][rng.random_range(0..3)]),
            5 => "set myname tester".to_string(),
            6..=9 => {
                let eval = if rng.random_bool(0.5) { "/0.50" } else { "" };
                let time = if rng.random_bool(0.5) { "/1.2" } else { "" };
                let name = if game.position().must_pass() {
                    "PA".to_string()
                } else {
                    some_square_name(rng, game)
                };
                if rng.random_bool(0.2) {
                    name
                } else {
                    format!("move {name}{eval}{time}")
                }
            }
            10 | 11 => format!("hint {}", rng.random_range(1..=5)),
            12 | 13 => "go".to_string(),
            14 => format!("ping {}", rng.random_range(0..1000)),
            15 => "learn".to_string(),
            16 => "analyze".to_string(),
            17 => ["clear", "stop", "quit"][rng.random_range(0..3)].to_string(),
            _ => "move PA".to_string(),
        };
        let line = mix(rng, valid);
        let deep =
            first_word(&line) == "set" && number_after(&line, "depth").is_some_and(|d| d > 3);
        (!deep).then_some(line)
    };
    let check = |line: &str, reply: &[String], refused: bool| {
        for out in reply {
            let known = [
                "set myname ",
                "pong ",
                "status",
                "search ",
                "book ",
                "nodestats ",
                "=== ",
                "analysis ",
                "learned",
            ];
            assert!(
                known.iter().any(|k| out.starts_with(k)),
                "{line:?} gave {out:?}"
            );
            let free_text = out.starts_with("status") || out.starts_with("set myname");
            assert!(free_text || no_exponent(out), "{line:?} gave {out:?}");
        }
        if refused && !reply.is_empty() {
            assert!(reply[0].starts_with("status "), "{line:?} gave {reply:?}");
        }
    };
    let sent = drive(
        Mode::Nboard,
        0x000b_0a4d,
        LINES_PER_HANDLER,
        make_line,
        check,
    );
    assert_eq!(sent, LINES_PER_HANDLER);
}

#[test]
fn gtp_handler_survives_random_lines() {
    let files = ScratchDir::new("fuzz-gtp-load");
    let sgf = files.join("load.ggf");
    std::fs::write(
        &sgf,
        "(;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6];)\n",
    )
    .unwrap();
    let sgf_name = sgf.display().to_string();
    let make_line = |rng: &mut StdRng, game: &Game| {
        let color = ["b", "w", "black", "WHITE", "B"][rng.random_range(0..5)];
        let side = game.position().side.name();
        let command = match rng.random_range(0..24) {
            0..=5 => format!("play {side} {}", some_square_name(rng, game)),
            6 => format!("play {color} {}", some_square_name(rng, game)),
            7 => format!(
                "play {color} {}",
                ["pass", "PASS", "PA"][rng.random_range(0..3)]
            ),
            8 | 9 => format!("genmove {color}"),
            10 => format!("reg_genmove {side}"),
            11 => "undo".to_string(),
            12 => format!("boardsize {}", [4, 6, 8, 8, 5, 10][rng.random_range(0..6)]),
            13 => "clear_board".to_string(),
            14 => "showboard".to_string(),
            15 => format!("komi {}", rng.random_range(-10..10)),
            16 => format!("time_settings {} 0 0", rng.random_range(0..100)),
            17 => format!("time_left {color} {} 0", rng.random_range(0..100)),
            18 => format!("loadsgf {sgf_name}"),
            19 => "final_score".to_string(),
            20 => [
                "gogui-rules_board",
                "gogui-rules_legal_moves",
                "gogui-rules_side_to_move",
                "gogui-rules_final_result",
                "gogui-rules_game_id",
                "gogui-rules_board_size",
            ][rng.random_range(0..6)]
            .to_string(),
            21 => [
                "list_commands",
                "known_command play",
                "name",
                "version",
                "list_games",
            ][rng.random_range(0..5)]
            .to_string(),
            22 => "set_game Othello".to_string(),
            _ => "quit".to_string(),
        };
        let valid = if rng.random_bool(0.5) {
            format!("{} {command}", rng.random_range(0..100))
        } else {
            command
        };
        Some(mix(rng, valid))
    };
    let check = |line: &str, reply: &[String], refused: bool| {
        if reply.is_empty() {
            return;
        }
        assert_eq!(
            reply.last().map(String::as_str),
            Some(""),
            "{line:?}: {reply:?}"
        );
        assert!(
            reply[0].starts_with('=') || reply[0].starts_with('?'),
            "{line:?}: {reply:?}"
        );
        assert!(
            reply[..reply.len() - 1].iter().all(|l| !l.is_empty()),
            "{line:?}: {reply:?}"
        );
        if refused {
            assert!(reply[0].starts_with('?'), "{line:?}: {reply:?}");
        }
    };
    let sent = drive(Mode::Gtp, 0x6e7b, LINES_PER_HANDLER, make_line, check);
    assert_eq!(sent, LINES_PER_HANDLER);
}

#[test]
fn console_handler_survives_random_lines() {
    let files = ScratchDir::new("fuzz-console-save");
    let save = files.join("save.ggf");
    let save_name = save.display().to_string();
    let make_line = |rng: &mut StdRng, game: &Game| {
        let valid = match rng.random_range(0..22) {
            0 => format!("new {}", ["", "4", "6", "8", "7"][rng.random_range(0..5)]),
            1 => {
                let game = random_game(rng);
                format!(
                    "setboard {}",
                    board_string::format_position(&game.position())
                )
            }
            2 | 3 => {
                let moves: Vec<String> = (0..rng.random_range(1..4))
                    .map(|_| some_square_name(rng, game))
                    .collect();
                format!("play {}", moves.concat())
            }
            4..=8 => some_square_name(rng, game),
            9 => "undo".to_string(),
            10 => "redo".to_string(),
            11 => "go".to_string(),
            12 => format!("hint {}", rng.random_range(1..4)),
            13 => format!(
                "level {}",
                ["1", "2", "3", "random", "greedy", "positional"][rng.random_range(0..6)]
            ),
            14 => format!("mode {}", rng.random_range(0..5)),
            15 => "analyze".to_string(),
            16 => "solve".to_string(),
            17 => format!("perft {}", rng.random_range(1..4)),
            18 => format!("load {save_name}"),
            19 => format!("save {save_name}"),
            20 => ["board", "stop", "help", "pass"][rng.random_range(0..4)].to_string(),
            _ => "quit".to_string(),
        };
        let line = mix(rng, valid);
        let word = first_word(&line);
        let too_long = match word.as_str() {
            "solve" => game.position().empty_count() > 14,
            "perft" => number_after(&line, "perft").is_none_or(|d| d > 4),
            "level" | "l" => number_after(&line, &word).is_some_and(|l| l > 3),
            "save" | "s" => {
                !line.contains(&save_name) || line.trim() != format!("{word} {save_name}")
            }
            _ => false,
        };
        (!too_long).then_some(line)
    };
    let check = |line: &str, reply: &[String], refused: bool| {
        if refused && !reply.is_empty() {
            assert!(
                reply.last().unwrap().starts_with("error: "),
                "{line:?}: {reply:?}"
            );
            assert_eq!(reply.len(), 1, "{line:?}: {reply:?}");
        }
    };
    let sent = drive(
        Mode::Console,
        0xc0_501e,
        LINES_PER_HANDLER,
        make_line,
        check,
    );
    assert_eq!(sent, LINES_PER_HANDLER);
}

#[test]
fn auto_mode_survives_random_first_lines() {
    let mut rng = StdRng::seed_from_u64(0xa070);
    let files = ScratchDir::new("fuzz-auto");
    let firsts = [
        "nboard 2",
        "protocol_version",
        "1 boardsize 8",
        "f5",
        "help",
        "play black f5",
        "quit",
    ];
    for _ in 0..500 {
        let mut session = new_session(Mode::Auto, &files);
        let pick = firsts[rng.random_range(0..firsts.len())].to_string();
        let first = mix(&mut rng, pick);
        let _ = session.send(&first);
        let pick = firsts[rng.random_range(0..firsts.len())].to_string();
        let second = mix(&mut rng, pick);
        let _ = session.send(&second);
        if let Some(game) = session.game() {
            let position = game.position();
            assert!(squares(position.legal_moves()).count() <= 64);
        }
    }
}
