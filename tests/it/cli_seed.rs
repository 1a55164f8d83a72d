//! The random player is random from run to run unless `--seed` fixes it;
//! matches print their seed, and warn when every game would repeat the
//! same two.

use crate::protocol_util;

use protocol_util::run;
use std::collections::BTreeSet;

/// The move `oxello move f5d6c3 --level random EXTRA` answers.
fn random_move(extra: &[&str]) -> String {
    let args = [&["move", "f5d6c3", "--level", "random"][..], extra].concat();
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{out:?} {err:?}");
    out.concat()
}

#[test]
fn the_random_player_varies_unless_seeded() {
    // White has four moves after f5d6c3: twelve runs answering the same one
    // would happen once in 4^11 (about 4 million) if they were random.
    let answers: BTreeSet<String> = (0..12).map(|_| random_move(&[])).collect();
    assert!(answers.len() > 1, "always {answers:?}");
    let seeded: BTreeSet<String> = (0..4).map(|_| random_move(&["--seed", "7"])).collect();
    assert_eq!(seeded.len(), 1, "{seeded:?}");
}

/// The moves of every game of a match file.
fn games_of(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let records = oxello::formats::ggf::parse_all(&text).unwrap();
    records
        .iter()
        .map(|record| oxello::formats::transcript::format_game(&record.to_game().unwrap()))
        .collect()
}

#[test]
fn a_match_prints_its_seed_and_random_games_vary() {
    let dir = std::env::temp_dir().join(format!("oxello-seed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let play = |name: &str, extra: &[&str]| {
        let path = dir.join(name);
        let _ = std::fs::remove_file(&path);
        let output = path.display().to_string();
        let args = [
            &[
                "match", "-e", "random", "-e", "greedy", "--games", "2", "-o", &output,
            ][..],
            extra,
        ]
        .concat();
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{out:?} {err:?}");
        let header = out.first().cloned().unwrap_or_default();
        assert!(header.starts_with("Match random vs greedy: "), "{out:?}");
        let seed = header
            .split_once(", seed ")
            .unwrap_or_else(|| panic!("no seed in {header:?}"))
            .1
            .to_string();
        (seed, games_of(&path))
    };
    let (seed_a, games_a) = play("a.ggf", &[]);
    let (seed_b, games_b) = play("b.ggf", &[]);
    assert_ne!(seed_a, seed_b);
    assert_ne!(games_a, games_b);
    // The seed printed replays the same games.
    let (seed_c, games_c) = play("c.ggf", &["--seed", &seed_a]);
    assert_eq!(seed_c, seed_a);
    assert_eq!(games_c, games_a);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_match_of_repeated_games_warns() {
    let (code, _, err) = run(&["match", "-e", "greedy", "-e", "positional", "--games", "4"]);
    assert_eq!(code, 0);
    assert!(
        err.iter()
            .any(|l| l.starts_with("warning: ") && l.contains("--openings")),
        "{err:?}"
    );
    // With openings, or two games only, nothing repeats: no warning.
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/xot-first-50.txt");
    for args in [
        &[
            "match",
            "-e",
            "greedy",
            "-e",
            "positional",
            "--games",
            "4",
            "--openings",
            openings,
        ][..],
        &["match", "-e", "greedy", "-e", "positional"],
    ] {
        let (code, _, err) = run(args);
        assert_eq!(code, 0);
        assert!(!err.iter().any(|l| l.starts_with("warning: ")), "{err:?}");
    }
}
