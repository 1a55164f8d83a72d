//! Fuzzed command lines (issue 75): random subcommands, known and unknown
//! options, random values (negative, huge, empty, junk) in random order,
//! run through the built binary. Whatever the line, oxello never panics
//! and never dies of a signal, exits 0, 1 or 2, and a failure says one
//! thing: one `error: ...` line on stderr, clap's form for a command line
//! it cannot read (the error line, a tip, the usage), or, under `--json`,
//! one `{"error":...}` object on stdout.
//!
//! Every line stays quick: searches get tiny limits (depth 1 or 2, a few
//! hundred nodes), positions that a solve could take forever on are kept
//! from solves, and the subcommands that read data or train get an
//! option that they refuse. A process still running after
//! [`TIMEOUT`] is killed and fails the test.

use rand::rngs::StdRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Command lines tried.
const CASES: usize = 300;
/// Longest a command line may run.
const TIMEOUT: Duration = Duration::from_secs(10);
/// Processes run at once.
const WORKERS: usize = 3;

/// A position of 12 empties (quick to solve), one of 45 empties starting
/// with `-`, and positions that are no position.
const SMALL: &str = "OOOOOOOXOOOOOXXXOOOXXXXXOOXXOXXXOXOXXXXX-OXOXXX--XOXXX----XX-O-- X";
const HYPHEN: &str = "---------OO-OXO--OXXXXO---X-OXX--OX------XXO-XO--OOX-XO------OX- X";

/// Values of every kind: valid small ones, out of range, negative, huge,
/// empty, junk.
const JUNK: &[&str] = &[
    "",
    "0",
    "1",
    "-1",
    "-0",
    "2",
    "3-1",
    "1/0",
    "1e9",
    "-1e400",
    "nan",
    "inf",
    "18446744073709551616",
    "-99999999999999999999",
    "abc",
    "-",
    "--",
    "---",
    "a b",
    "f5f5",
    "z9",
    "\u{e9}t\u{e9}",
    "\u{1f642}",
    "tab\there",
    "line\nbreak",
    "%s%n",
    "'quoted'",
    "\"",
    "\\",
];

/// Options no subcommand has.
const UNKNOWN: &[&str] = &[
    "--foo",
    "--levle",
    "--dpeth",
    "-z",
    "--json",
    "--no-such-option=3",
    "-Q",
    "--",
];

/// An option and the values it is tried with (none for a flag).
type Opt = (&'static str, &'static [&'static str]);

/// The engine options, with values that keep searches short.
const ENGINE: &[Opt] = &[
    (
        "--level",
        &["1", "2", "random", "greedy", "positional", "0", "61", "x"],
    ),
    ("--hash", &["1", "4", "0", "999999999999"]),
    ("--depth", &["1", "2", "0", "61"]),
    ("--time", &["0.01", "0", "1e9", "nan"]),
    ("--threads", &["1", "2", "0", "100000"]),
    ("--selectivity", &["73", "100", "50", "x"]),
    ("--seed", &["1", "18446744073709551615"]),
];

/// A subcommand: the arguments that keep it quick (always given, as
/// groups kept together), the options it is tried with, and its
/// positions (none: it takes none).
struct Sub {
    name: &'static str,
    base: &'static [&'static [&'static str]],
    options: &'static [Opt],
    positions: &'static [&'static str],
}

const POSITIONS: &[&str] = &[
    SMALL,
    HYPHEN,
    "start",
    "f5d6",
    "f5f5",
    "/nonexistent/game.ggf",
    "",
];
/// Positions a solve may be given: quick to solve, or no position.
const SOLVABLE: &[&str] = &[SMALL, "f5f5", "/nonexistent/game.ggf", "", "-x"];

const SUBS: &[Sub] = &[
    Sub {
        name: "show",
        base: &[],
        options: &[("--size", &["4", "6", "8", "5"])],
        positions: POSITIONS,
    },
    Sub {
        name: "perft",
        base: &[&["--depth", "2"]],
        options: &[
            ("--size", &["4", "6", "8"]),
            ("--divide", &[]),
            ("--convention", &["A", "B", "C"]),
            ("--backend", &["portable", "native", "x"]),
        ],
        positions: POSITIONS,
    },
    Sub {
        name: "move",
        base: &[&["--depth", "1"]],
        options: &[("--size", &["4", "6", "8"]), ("--json", &[])],
        positions: POSITIONS,
    },
    Sub {
        name: "solve",
        base: &[&[SMALL]],
        options: &[
            ("--wld", &[]),
            ("--exact", &[]),
            ("--json", &[]),
            ("--all-moves", &[]),
            ("--first-number", &["1", "40"]),
            ("--range", &["1", "2-3", "3-1"]),
            ("--empties", &["4"]),
            ("--count", &["2"]),
            ("--sample-wthor", &["/nonexistent"]),
            ("--sample-selfplay", &["/nonexistent.jsonl"]),
            ("--engine-moves", &["4"]),
            ("--checkpoint", &["checkpoints", "/dev/null/checkpoints"]),
            ("--checkpoint-every", &["0.5", "0", "-3", "1e400", "nan"]),
        ],
        positions: SOLVABLE,
    },
    Sub {
        name: "analyze",
        base: &[&[SMALL], &["--depth", "2"]],
        options: &[
            ("--exact", &[]),
            ("--wld", &[]),
            ("--json", &[]),
            ("--game", &[]),
            ("--multi-pv", &["1", "3", "65"]),
            ("--exact-from", &["14", "60"]),
            ("--games", &["1", "2-1"]),
        ],
        positions: SOLVABLE,
    },
    Sub {
        name: "match",
        base: &[&["-e", "random"], &["-e", "greedy"], &["--games", "2"]],
        options: &[
            ("--games", &["2", "4"]),
            ("--concurrency", &["1", "2"]),
            ("--tc", &["1+0", "5:00", "x"]),
            ("--openings", &["/nonexistent.txt"]),
            ("--random", &[]),
            ("--rounds", &["1", "2"]),
            ("--stop-after", &["1"]),
            ("--game", &["gomoku", "othello", "chess"]),
            ("--size", &["9", "15", "4"]),
            ("--rule", &["freestyle", "standard", "renju", "x"]),
            ("--proto1", &["nboard", "gtp", "x"]),
            ("--name1", &["one", ""]),
            ("--sprt", &["5,1", "0,10", "x"]),
            ("--shard", &["1/2", "3/2"]),
            ("--engine", &["level:1", "depth:1", "level:99", "'unclosed"]),
            ("--gtp-passes", &["explicit", "x"]),
        ],
        positions: &[],
    },
    Sub {
        name: "selfplay",
        base: &[
            &["--games", "1"],
            &["--level", "1"],
            &["--nodes", "300"],
            &["-o", "-"],
        ],
        options: &[
            ("--format", &["jsonl", "binary", "npz", "x"]),
            ("--temperature", &["0.5", "0"]),
            ("--policy-temperature", &["2"]),
            ("--random-moves", &["2", "3-5", "5-3"]),
            ("--random-plies", &["4"]),
            ("--max-loss", &["2"]),
            ("--size", &["4", "6", "8", "5"]),
            ("--shard", &["1/2", "2/1"]),
            ("--score-moves", &["all", "best", "x"]),
            ("--game", &["gomoku", "othello"]),
            ("--openings", &["/nonexistent.txt"]),
            ("--wthor", &["/nonexistent"]),
            ("--prefix", &["10"]),
            ("--n-in-row", &["5", "9"]),
            ("--rule", &["freestyle", "x"]),
        ],
        positions: &[],
    },
    Sub {
        name: "bench",
        base: &[&["--depth", "1"]],
        options: &[
            ("--accuracy", &["/nonexistent.obf"]),
            ("--eval-error", &["/nonexistent.obf"]),
            ("--game", &["gomoku", "othello"]),
        ],
        positions: &[],
    },
    Sub {
        name: "console",
        base: &[],
        options: &[
            ("--game", &["gomoku", "othello", "x"]),
            ("--size", &["15", "9", "99"]),
            ("--rule", &["renju", "x"]),
            ("--n-in-row", &["5", "2"]),
        ],
        positions: &[],
    },
    Sub {
        name: "nboard",
        base: &[],
        options: &[],
        positions: &[],
    },
    Sub {
        name: "gtp",
        base: &[],
        options: &[],
        positions: &[],
    },
    Sub {
        name: "gomocup",
        base: &[],
        options: &[],
        positions: &[],
    },
    // Subcommands that read data, train or search at length: each is given
    // an option it refuses, so that only its command line is tried.
    Sub {
        name: "train-eval",
        base: &[&["--level", "3"]],
        options: &[("--size", &["6", "8"]), ("--game", &["gomoku"])],
        positions: &[],
    },
    Sub {
        name: "search-labels",
        base: &[&["--time", "1"]],
        options: &[("--every", &["0", "3"]), ("--held-out", &[])],
        positions: &[],
    },
    Sub {
        name: "fit-probcut",
        base: &[&["--level", "3"]],
        options: &[("--wthor", &["/nonexistent"]), ("--max-depth", &["3"])],
        positions: &[],
    },
    Sub {
        name: "openings",
        base: &[&["--seed", "1"]],
        options: &[("--count", &["3", "0"]), ("--game", &["gomoku"])],
        positions: &[],
    },
    Sub {
        name: "move-order",
        base: &[&["--depth", "1"]],
        options: &[("--game", &["gomoku"])],
        positions: &[],
    },
];

/// One random command line.
fn command_line(rng: &mut StdRng) -> Vec<String> {
    let sub = SUBS.choose(rng).unwrap();
    let mut groups: Vec<Vec<String>> = sub
        .base
        .iter()
        .map(|group| group.iter().map(|s| s.to_string()).collect())
        .collect();
    let value = |rng: &mut StdRng, values: &[&str]| -> String {
        if values.is_empty() || rng.random_bool(0.2) {
            JUNK.choose(rng).unwrap().to_string()
        } else {
            values.choose(rng).unwrap().to_string()
        }
    };
    // Half the lines are well formed: the subcommand's own options, once
    // each, with values it takes, so that the runs go past the parser.
    if rng.random_bool(0.5) {
        let count = rng.random_range(0..=3);
        let mut taken: Vec<&str> = sub
            .base
            .iter()
            .filter_map(|group| group.first().copied())
            .collect();
        for _ in 0..count {
            let Some(&(name, values)) = sub.options.choose(rng) else {
                break;
            };
            if taken.contains(&name) {
                continue;
            }
            taken.push(name);
            groups.push(match values.choose(rng) {
                Some(value) => vec![name.to_string(), value.to_string()],
                None => vec![name.to_string()],
            });
        }
        groups.shuffle(rng);
        return std::iter::once(sub.name.to_string())
            .chain(groups.into_iter().flatten())
            .collect();
    }
    for _ in 0..rng.random_range(0..=5) {
        let group = match rng.random_range(0..20) {
            0..=8 if !sub.options.is_empty() => {
                let (name, values) = *sub.options.choose(rng).unwrap();
                option(rng, name, values, &value)
            }
            0..=12 => {
                let (name, values) = *ENGINE.choose(rng).unwrap();
                option(rng, name, values, &value)
            }
            13 => {
                // Another subcommand's option.
                let other = SUBS.choose(rng).unwrap();
                match other.options.choose(rng) {
                    Some(&(name, values)) => option(rng, name, values, &value),
                    None => vec![UNKNOWN.choose(rng).unwrap().to_string()],
                }
            }
            14..=15 if !sub.positions.is_empty() => {
                vec![sub.positions.choose(rng).unwrap().to_string()]
            }
            16 => vec![UNKNOWN.choose(rng).unwrap().to_string()],
            17 => vec![JUNK.choose(rng).unwrap().to_string()],
            // Now and then, help or the version.
            _ if rng.random_bool(0.2) => {
                vec![["--help", "-h", "-V"].choose(rng).unwrap().to_string()]
            }
            _ => Vec::new(),
        };
        groups.push(group);
    }
    groups.shuffle(rng);
    // Engine options may come before the subcommand; the rest after.
    let mut line: Vec<String> = Vec::new();
    let before = rng.random_bool(0.15);
    let (early, late): (Vec<_>, Vec<_>) = groups.into_iter().partition(|group| {
        before
            && group
                .first()
                .is_some_and(|o| ENGINE.iter().any(|(name, _)| o == name))
    });
    line.extend(early.into_iter().flatten());
    line.push(sub.name.to_string());
    line.extend(late.into_iter().flatten());
    line
}

/// An option with a value (joined by `=` at times), or a flag.
fn option(
    rng: &mut StdRng,
    name: &str,
    values: &[&str],
    value: &dyn Fn(&mut StdRng, &[&str]) -> String,
) -> Vec<String> {
    if values.is_empty() && rng.random_bool(0.9) {
        return vec![name.to_string()];
    }
    let value = value(rng, values);
    if rng.random_bool(0.2) {
        vec![format!("{name}={value}")]
    } else {
        vec![name.to_string(), value]
    }
}

/// What one run did.
struct Outcome {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    timed_out: bool,
}

fn run(args: &[String]) -> Outcome {
    // In a folder of its own: a line may name files or folders to write
    // (`--checkpoint abc`).
    static FOLDER: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    let folder = FOLDER.get_or_init(|| {
        let folder = std::env::temp_dir().join(format!("oxello-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&folder).expect("a temporary folder");
        folder
    });
    let mut child = Command::new(env!("CARGO_BIN_EXE_oxello"))
        .args(args)
        .current_dir(folder)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start oxello");
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stdout.read_to_end(&mut bytes);
        bytes
    });
    let err = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stderr.read_to_end(&mut bytes);
        bytes
    });
    let deadline = Instant::now() + TIMEOUT;
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            timed_out = true;
            let _ = child.kill();
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Outcome {
        code: status.code(),
        stdout: String::from_utf8_lossy(&out.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&err.join().unwrap()).into_owned(),
        timed_out,
    }
}

/// Whether the subcommand of `args` has `--json` and it was asked for.
fn json_asked(args: &[String]) -> bool {
    let words: Vec<&String> = args.iter().take_while(|a| *a != "--").collect();
    let sub = words
        .iter()
        .find_map(|a| SUBS.iter().find(|s| s.name == a.as_str()));
    sub.is_some_and(|s| s.options.iter().any(|(name, _)| *name == "--json"))
        && words.iter().any(|a| *a == "--json")
}

/// Whether a failure said one thing, in a documented form; the problem if
/// not.
fn one_error(args: &[String], outcome: &Outcome) -> Result<(), String> {
    let lines: Vec<&str> = outcome
        .stderr
        .lines()
        .filter(|l| !l.trim().is_empty())
        .collect();
    if json_asked(args) && lines.is_empty() {
        let last = outcome.stdout.lines().last().unwrap_or_default();
        let value: serde_json::Value =
            serde_json::from_str(last).map_err(|e| format!("not JSON ({e}): {last}"))?;
        return match value["error"].as_str() {
            Some(message) if !message.is_empty() => Ok(()),
            _ => Err(format!("no error object: {last}")),
        };
    }
    let Some(first) = lines.first() else {
        return Err("nothing on stderr".to_string());
    };
    if !first.starts_with("error: ") || first.trim() == "error:" {
        return Err(format!("first line is no error: {first}"));
    }
    // Clap's form, for a command line it cannot read: details indented
    // below the error (a tip, the possible values, the missing arguments),
    // then the usage.
    let clap_form = |line: &&str| {
        line.starts_with("  ")
            || line.starts_with("Usage: ")
            || *line == "For more information, try '--help'."
    };
    match lines[1..]
        .iter()
        .find(|line| outcome.code != Some(2) || !clap_form(line))
    {
        Some(line) => Err(format!("more than one error line: {line}")),
        None => Ok(()),
    }
}

#[test]
fn fuzzed_command_lines_fail_cleanly() {
    // Another seed tries other lines: OXELLO_FUZZ_SEED=N.
    let seed = std::env::var("OXELLO_FUZZ_SEED")
        .ok()
        .and_then(|seed| seed.parse().ok())
        .unwrap_or(75);
    let mut rng = StdRng::seed_from_u64(seed);
    let lines: Vec<Vec<String>> = (0..CASES).map(|_| command_line(&mut rng)).collect();
    let started = Instant::now();
    let failures = std::sync::Mutex::new(Vec::new());
    let codes = std::sync::Mutex::new([0usize; 3]);
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..WORKERS {
            scope.spawn(|| {
                while let Some(args) = lines.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed)) {
                    let outcome = run(args);
                    if let Some(code @ 0..=2) = outcome.code {
                        codes.lock().unwrap()[code as usize] += 1;
                    }
                    let problem = if outcome.timed_out {
                        Some(format!("still running after {TIMEOUT:?}"))
                    } else if outcome.stderr.contains("panicked") {
                        Some("panicked".to_string())
                    } else {
                        match outcome.code {
                            None => Some("killed by a signal".to_string()),
                            Some(0) => None,
                            Some(1 | 2) => one_error(args, &outcome).err(),
                            Some(code) => Some(format!("exit code {code}")),
                        }
                    };
                    if let Some(problem) = problem {
                        failures.lock().unwrap().push(format!(
                            "oxello {args:?}: {problem}\n  exit {:?}\n  stderr: {:?}\n  stdout: {:?}",
                            outcome.code,
                            outcome.stderr,
                            outcome.stdout.chars().take(300).collect::<String>()
                        ));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    let _ = std::fs::remove_dir_all(
        std::env::temp_dir().join(format!("oxello-fuzz-{}", std::process::id())),
    );
    println!(
        "{CASES} command lines (seed {seed}) in {:.1} s, exit codes 0, 1, 2: {:?}",
        started.elapsed().as_secs_f64(),
        codes.into_inner().unwrap()
    );
    assert!(
        failures.is_empty(),
        "{} of {CASES} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
