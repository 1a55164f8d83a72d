use super::*;
use crate::board::IllegalReason;
use crate::formats::transcript;
use rand::{Rng, SeedableRng};

const START_BO: &str = "8 ---------------------------O*------*O--------------------------- *";

/// The GGS example of protocols.md 5.3 (move list shortened).
const GGS: &str = "1 (;GM[Othello]PC[GGS/os]DT[2003.12.15_12:33:18.MST]PB[Saio1200]\
    PW[Saio3000]RB[2196.37]RW[2200.35]TI[05:00//02:00]TY[8]RE[+0.000]\
    BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]\
    B[d3//0.01]W[c5//0.01]B[f6//0.01];)";

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

#[test]
fn reads_the_ggs_example() {
    let game = parse_one(GGS).unwrap();
    assert_eq!(game.place, "GGS/os");
    assert_eq!(game.date, "2003.12.15_12:33:18.MST");
    assert_eq!(game.black_name, "Saio1200");
    assert_eq!(game.white_name, "Saio3000");
    assert_eq!(game.black_rating, Some(2196.37));
    assert_eq!(game.white_rating, Some(2200.35));
    assert_eq!(
        game.clock,
        GgfClock {
            main: 300.0,
            increment: 0.0,
            grace: Some(120.0)
        }
    );
    assert_eq!(game.clock.to_string(), "05:00//02:00");
    assert_eq!(
        game.result,
        Some(GgfResult {
            score: 0.0,
            flag: None
        })
    );
    assert_eq!(game.start, Position::start(BoardSize::Eight));
    assert_eq!(game.moves.len(), 3);
    assert_eq!(
        game.moves[0],
        GgfMove {
            color: Color::Black,
            token: Token::Square(sq("d3")),
            eval: None,
            time: Some(0.01)
        }
    );
    let replayed = game.to_game().unwrap();
    assert_eq!(transcript::format_game(&replayed), "d3c5f6");
    let written = game.to_string();
    assert!(written.starts_with("(;GM[Othello]PC[GGS/os]DT[2003.12.15_12:33:18.MST]"));
    assert!(written.contains(&format!("TY[8]BO[{START_BO}]B[D3//0.01]W[C5//0.01]")));
    assert!(written.contains("RE[+0.00]TI[05:00//02:00]"));
    assert!(written.ends_with("B[F6//0.01];)"));
    assert_eq!(parse_one(&written).unwrap(), game);
}

#[test]
fn reads_the_nboard_examples() {
    let edax =
        format!("(;GM[Othello]PC[NBoard]BO[{START_BO}]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)");
    let game = parse_one(&edax).unwrap();
    let replayed = game.to_game().unwrap();
    assert_eq!(transcript::format_game(&replayed), "f5f6d3c5e6f7e7f4");
    assert_eq!(replayed.position().side, Color::Black);
    let full = format!(
        "(;GM[Othello]PC[NBoard]DT[2024-05-01 10:00:00 GMT]PB[Rusthello]PW[alice]RE[?]\
         TI[15:00]TY[8]BO[{START_BO}];)"
    );
    let game = parse_one(&full).unwrap();
    assert_eq!(game.date, "2024-05-01 10:00:00 GMT");
    assert_eq!(game.clock, GgfClock::new(900.0));
    assert_eq!(game.result, None);
    assert!(game.moves.is_empty());
    // The strict writer reproduces NBoard's own line exactly.
    assert_eq!(game.to_string(), full);
}

#[test]
fn writes_the_strict_form() {
    let mut game = Game::new(BoardSize::Eight);
    for name in ["f5", "d6", "c3"] {
        game.play_square(sq(name)).unwrap();
    }
    let mut record = GgfGame::from_game(&game).with_players("oxello", "bob");
    record.place = "oxello".to_string();
    record.moves[0].eval = Some(0.0);
    record.moves[0].time = Some(1.2);
    record.moves[1].time = Some(0.0000001);
    record.moves[2].eval = Some(-1.234);
    assert_eq!(
        record.to_string(),
        format!(
            "(;GM[Othello]PC[oxello]DT[]PB[oxello]PW[bob]RE[?]TI[0]TY[8]BO[{START_BO}]\
             B[F5/0.00/1.2]W[D6//0.0000001]B[C3/-1.234];)"
        )
    );
    assert_eq!(parse_one(&record.to_string()).unwrap(), record);
    assert_eq!(record.to_game().unwrap(), game);
}

#[test]
fn finished_game_with_passes_round_trips() {
    // A 4x4 game: the board fills quickly and passes happen.
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    for size in BoardSize::ALL {
        for _ in 0..50 {
            let mut game = Game::new(size);
            while !game.is_over() {
                let moves = game.position().move_list();
                game.play(moves[rng.random_range(0..moves.len())]).unwrap();
            }
            let record = GgfGame::from_game(&game);
            let text = record.to_string();
            assert!(text.contains(&format!("TY[{}]BO[{} ", size.n(), size.n())));
            if game.moves().contains(&Move::Pass) {
                assert!(text.contains("[PA]"));
            }
            let score = game.final_score_black().unwrap();
            assert_eq!(record.result.unwrap().score, f64::from(score));
            let again = parse_one(&text).unwrap();
            assert_eq!(again, record);
            assert_eq!(again.to_game().unwrap(), game);
        }
    }
}

#[test]
fn six_by_six_game() {
    let text = "(;GM[Othello]PC[test]TY[6]BO[6 ------ ------ --O*-- --*O-- ------ ------ *]\
                B[c2]W[b2]B[b3];)";
    let game = parse_one(text).unwrap();
    assert_eq!(game.start, Position::start(BoardSize::Six));
    let replayed = game.to_game().unwrap();
    assert_eq!(replayed.size(), BoardSize::Six);
    assert_eq!(replayed.moves().len(), 3);
    let written = game.to_string();
    assert!(written.contains("TY[6]BO[6 --------------O*----*O-------------- *]"));
    assert_eq!(parse_one(&written).unwrap(), game);
    // TY alone gives the start position of its size.
    let bare = parse_one("(;TY[6]B[C2];)").unwrap();
    assert_eq!(bare.to_game().unwrap().moves().len(), 1);
    // A square off the 6x6 board is illegal.
    let off = parse_one("(;TY[6]B[g7];)").unwrap();
    assert!(matches!(
        off.to_game(),
        Err(GgfError::Illegal { number: 1, ref error }) if error.reason == IllegalReason::OffBoard
    ));
}

#[test]
fn many_games_and_counts() {
    let one = "(;GM[Othello]B[f5];)";
    let two = "(;GM[Othello]B[d3];)";
    for text in [
        format!("{one}{two}"),
        format!("{one}\n{two}\n"),
        format!("1 {one}\n1 {two}\n"),
        format!("2 {one}{two}"),
        format!("  2\n{one}  {two}  "),
    ] {
        let games = parse_all(&text).unwrap();
        assert_eq!(games.len(), 2, "{text}");
        assert_eq!(games[1].moves[0].token, Token::Square(sq("d3")));
    }
    assert_eq!(parse_all("").unwrap(), Vec::new());
    assert_eq!(parse_one(" \n"), Err(GgfError::NoGame));
    assert_eq!(
        parse_one(&format!("2 {one}{two}")),
        Err(GgfError::ManyGames { count: 2 })
    );
    let games = parse_all(&format!("2 {one}{two}")).unwrap();
    assert_eq!(parse_all(&format_all(&games)).unwrap(), games);
}

#[test]
fn lenient_reading() {
    let text = "(; gm[othello] pb [Al\\]ice\\\\] XX[kept] B[PASS] w[f5/+1.5/2] ; \
                b[Pa//3];)";
    let game = parse_one(text).unwrap();
    assert_eq!(game.black_name, "Al]ice\\");
    assert_eq!(
        game.extra_tags,
        vec![("XX".to_string(), "kept".to_string())]
    );
    assert_eq!(game.moves.len(), 3);
    assert_eq!(game.moves[0].token, Token::Pass);
    assert_eq!(game.moves[1].eval, Some(1.5));
    // An eval or time that is not a finite number is left out, the move
    // kept (Novello writes `NaN` for a forced pass's eval).
    let odd = parse_one("(;GM[Othello]B[F5/NaN/0.5]W[d6/1,2/-3]B[c3/inf/x];)").unwrap();
    assert_eq!(odd.moves.len(), 3);
    assert_eq!((odd.moves[0].eval, odd.moves[0].time), (None, Some(0.5)));
    assert_eq!((odd.moves[1].eval, odd.moves[1].time), (None, None));
    assert_eq!((odd.moves[2].eval, odd.moves[2].time), (None, None));
    assert!(parse_one("(;GM[Othello]B[F5/1/2/3];)").is_err());
    let written = game.to_string();
    assert!(written.contains("PB[Al\\]ice\\\\]"));
    assert!(!written.contains("XX"));
    let again = parse_one(&written).unwrap();
    assert_eq!(again.black_name, game.black_name);
    assert_eq!(again.moves, game.moves);
    // Typed clocks, types and results.
    let clock = |text: &str| GgfClock::parse(text);
    assert_eq!(clock("0"), Some(GgfClock::default()));
    assert!(clock("0").unwrap().is_untimed());
    assert_eq!(clock("1:00:00/30").unwrap().main, 3600.0);
    assert_eq!(clock("1:00:00/30").unwrap().increment, 30.0);
    assert_eq!(clock("1.02:03:04").unwrap().main, 93_784.0);
    assert_eq!(clock("90.5").unwrap().main, 90.5);
    for bad in ["a", "1:2:3:4", "-5", "inf", "1/2/3/4", "1.5:00", "x:00"] {
        assert_eq!(clock(bad), None, "{bad}");
    }
    for seconds in [0.0, 59.0, 300.0, 3600.0, 93_784.0, 0.25, 1e7] {
        let written = GgfClock::new(seconds).to_string();
        assert_eq!(clock(&written), Some(GgfClock::new(seconds)), "{written}");
    }
    let ty = GameType::parse("s8r20").unwrap();
    assert!(ty.synchro && ty.random_discs == Some(20) && ty.size == BoardSize::Eight);
    assert_eq!(ty.to_string(), "s8r20");
    assert_eq!(GameType::parse("8kr20").unwrap().to_string(), "8kr20");
    assert!(matches!(
        GameType::parse("10"),
        Err(GgfError::UnsupportedSize { .. })
    ));
    assert!(matches!(
        GameType::parse("8q"),
        Err(GgfError::BadValue { .. })
    ));
    let re = GgfResult::parse("+64.00:r").unwrap().unwrap();
    assert_eq!(re.flag, Some(ResultFlag::Resigned));
    assert_eq!(re.to_string(), "+64.00:r");
    assert_eq!(
        GgfResult::parse("-2.5:T").unwrap().unwrap().to_string(),
        "-2.50:t"
    );
    assert_eq!(GgfResult::parse("?"), Ok(None));
    assert!(GgfResult::parse("+2:x").is_err());
}

#[test]
fn inserts_passes_and_checks_colours() {
    // A random 4x4 game with a pass in it.
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    let game = loop {
        let mut game = Game::new(BoardSize::Four);
        while !game.is_over() {
            let moves = game.position().move_list();
            game.play(moves[rng.random_range(0..moves.len())]).unwrap();
        }
        let passes = game.moves().iter().filter(|mv| mv.is_pass()).count();
        if passes > 0 && game.moves().last() != Some(&Move::Pass) {
            break game;
        }
    };
    let mut record = GgfGame::from_game(&game);
    record.moves.retain(|mv| mv.token != Token::Pass);
    assert_eq!(record.to_game().unwrap(), game);

    let mut wrong = GgfGame::default();
    wrong
        .moves
        .push(GgfMove::new(Color::White, Token::Square(sq("f5"))));
    assert!(matches!(
        wrong.to_game(),
        Err(GgfError::WrongColor {
            number: 1,
            expected: Color::Black,
            found: Color::White,
            ..
        })
    ));
}

#[test]
fn errors_are_typed() {
    let illegal = parse_one("(;B[f5]W[d6]B[a1];)").unwrap().to_game();
    match illegal {
        Err(GgfError::Illegal { number, ref error }) => {
            assert_eq!(number, 3);
            assert_eq!(error.mv, "a1");
        }
        ref other => panic!("unexpected {other:?}"),
    }
    assert!(illegal.unwrap_err().to_string().contains("move 3"));
    assert!(matches!(
        parse_one("(;B[f5]W[PA];)").unwrap().to_game(),
        Err(GgfError::Illegal { number: 2, .. })
    ));
    assert!(matches!(
        parse_one("(;B[f5]W[z9];)"),
        Err(GgfError::BadMove { number: 2, .. })
    ));
    assert!(matches!(
        parse_one("(;B[f5/x/1/2];)"),
        Err(GgfError::BadMove { number: 1, .. })
    ));
    assert!(matches!(
        parse_one("(;B[f5]"),
        Err(GgfError::Unterminated { offset: 0 })
    ));
    assert!(matches!(
        parse_one("(;B[f5;)"),
        Err(GgfError::Unterminated { offset: 2 })
    ));
    assert!(matches!(
        parse_one("(;B[f5](;B[d3];)"),
        Err(GgfError::Unterminated { offset: 0 })
    ));
    assert!(matches!(
        parse_one("x(;;)"),
        Err(GgfError::Unexpected {
            offset: 0,
            found: 'x'
        })
    ));
    assert!(matches!(
        parse_one("(;GM[Go];)"),
        Err(GgfError::NotOthello { .. })
    ));
    assert!(matches!(
        parse_one("(;BO[8 ---];)"),
        Err(GgfError::BadBoard { .. })
    ));
    assert!(matches!(
        parse_one(&format!("(;BO[{}];)", START_BO.replace('O', "?"))),
        Err(GgfError::BadBoard { .. })
    ));
    assert!(matches!(
        parse_one(&format!("(;BO[6{}];)", &START_BO[1..])),
        Err(GgfError::SizeMismatch {
            declared: 6,
            found: 8
        })
    ));
    assert!(matches!(
        parse_one(&format!("(;TY[6]BO[{START_BO}];)")),
        Err(GgfError::SizeMismatch { .. })
    ));
    assert!(matches!(
        parse_one("(;BO[10 ---];)"),
        Err(GgfError::UnsupportedSize { .. })
    ));
    assert!(matches!(
        parse_one("(;BO[* *];)"),
        Err(GgfError::BadValue { .. })
    ));
    assert!(matches!(
        parse_one("(;TI[5:xx];)"),
        Err(GgfError::BadValue { .. })
    ));
    assert!(matches!(
        parse_one("(;RB[NaN];)"),
        Err(GgfError::BadValue { .. })
    ));
}

/// Checks the parser on `text`: no panic, and a parsed game writes and
/// reads back to itself (unknown tags aside).
/// Returns how many games of `text` were read.
fn check_round_trip(text: &str) -> usize {
    let Ok(games) = parse_all(text) else {
        return 0;
    };
    let count = games.len();
    for mut game in games {
        game.extra_tags.clear();
        let written = game.to_string();
        let again = parse_one(&written)
            .unwrap_or_else(|error| panic!("{written:?} from {text:?}: {error}"));
        assert_eq!(again, game, "{written:?}");
        if let Ok(replayed) = game.to_game() {
            let record = GgfGame::from_game(&replayed);
            assert_eq!(record.to_game().unwrap(), replayed);
        }
    }
    count
}

/// A random game text: a tag list built from plausible and broken tags
/// and values, sometimes with a count, sometimes left open.
fn random_game_text(rng: &mut rand::rngs::StdRng) -> String {
    const TAGS: [&str; 16] = [
        "GM", "PC", "PB", "B", "W", "B", "W", "TI", "TB", "RE", "TY", "BO", "RB", "KM", "KW", "XX",
    ];
    const VALUES: [&str; 30] = [
        "Othello",
        "f5",
        "D6",
        "c3",
        "PA",
        "pass",
        "f5/1.5/2",
        "d3//0.01",
        "e6/-0.5",
        "--",
        "05:00//02:00",
        "15:00",
        "0",
        "1:00:00/5",
        "+2.00:r",
        "?",
        "-64:t",
        "8",
        "6",
        "4",
        "s8r20",
        "2196.37",
        "",
        "a\\]b",
        "é",
        "-",
        "1e3",
        "inf",
        "z9",
        "8 *",
    ];
    let boards = [
        START_BO.to_string(),
        "6 ------ ------ --O*-- --*O-- ------ ------ O".to_string(),
        "4 ---- -O*- -*O- ---- *".to_string(),
    ];
    let mut text = String::new();
    if rng.random_bool(0.2) {
        text.push_str("1 ");
    }
    text.push_str("(;");
    for _ in 0..rng.random_range(0..10) {
        let tag = TAGS[rng.random_range(0..TAGS.len())];
        let value = if tag == "BO" && rng.random_bool(0.8) {
            boards[rng.random_range(0..boards.len())].clone()
        } else {
            VALUES[rng.random_range(0..VALUES.len())].to_string()
        };
        text.push_str(&format!("{tag}[{value}]"));
    }
    if rng.random_bool(0.95) {
        text.push_str(";)");
    }
    text
}

#[test]
fn random_input_never_panics() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(13);
    let mut read = 0;
    let pieces = [
        "(;", ";)", "(", ")", ";", "[", "]", "\\", " ", "\n", "B[", "W[", "f5", "d6", "c3", "PA",
        "pass", "/", "//", "1.5", "-2", ":", "TI[", "RE[", "TY[", "BO[", "GM[", "PB[", "KB[",
        "KM[", "8", "6", "4", "0", "*", "O", "-", "?", "é", "r", "s", "e", "inf", "\u{0}",
    ];
    for _ in 0..40_000 {
        let text = if rng.random_bool(0.5) {
            random_game_text(&mut rng)
        } else {
            let len = rng.random_range(0..30);
            (0..len)
                .map(|_| pieces[rng.random_range(0..pieces.len())])
                .collect()
        };
        read += check_round_trip(&text);
    }
    eprintln!("{read} games read");
    assert!(read > 500, "the generator should produce readable games");
}

#[test]
fn mutated_games_never_panic() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(17);
    let mut read = 0;
    let mut seeds = vec![GGS.to_string()];
    let mut game = Game::new(BoardSize::Six);
    while !game.is_over() {
        let moves = game.position().move_list();
        game.play(moves[rng.random_range(0..moves.len())]).unwrap();
    }
    seeds.push(GgfGame::from_game(&game).to_string());
    let alphabet: Vec<char> = "()[];:/\\ 0123456789.+-*O?abcdefghPASWBTIYREé"
        .chars()
        .collect();
    for _ in 0..20_000 {
        let mut text: Vec<char> = seeds[rng.random_range(0..seeds.len())].chars().collect();
        for _ in 0..rng.random_range(1..5) {
            let at = rng.random_range(0..=text.len());
            match rng.random_range(0..3) {
                0 if at < text.len() => {
                    text.remove(at);
                }
                1 if at < text.len() => text[at] = alphabet[rng.random_range(0..alphabet.len())],
                _ => text.insert(at, alphabet[rng.random_range(0..alphabet.len())]),
            }
        }
        let text: String = text.into_iter().collect();
        read += check_round_trip(&text);
    }
    eprintln!("{read} games read");
    assert!(read > 500, "the generator should produce readable games");
}
