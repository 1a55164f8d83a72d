//! Engine specifications: what `--engine` names.
//!
//! * `level:N` (or `oxello:N`), `depth:N`, `random`, `greedy`, `positional`:
//!   oxello itself, in the match process, through the [`Engine`] facade.
//!   `depth:N` is level `N` with the midgame depth fixed at `N` (the level's
//!   endgame solving is kept).
//! * Anything else is a command line, split like a shell does (quotes and
//!   backslashes), run as a subprocess speaking NBoard, GTP or (gomoku) the
//!   Gomocup protocol. The protocol is taken from the command when a word of
//!   it says so (`nboard`, `-nboard`, `--nboard`, `gtp`, `-gtp`, `--gtp`,
//!   `gomocup`) or, failing that, when the name of the program or script
//!   does (`edax-gtp`, `bot_nboard.py`, `pbrain-rapfi`); it must be named
//!   otherwise (a gomoku match names it: every gomoku engine speaks
//!   Gomocup). A program named `oxello` that is not on the `PATH` is the
//!   running oxello binary (`oxello gomocup` is oxello's gomoku brain).
//!
//! [`Engine`]: crate::engine::Engine

use crate::engine::{Level, Player};
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// The protocol a subprocess engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Nboard,
    Gtp,
    /// Gomoku's Gomocup (Piskvork) protocol.
    Gomocup,
}

impl Protocol {
    pub const ALL: [Protocol; 3] = [Protocol::Nboard, Protocol::Gtp, Protocol::Gomocup];

    /// The name on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Protocol::Nboard => "nboard",
            Protocol::Gtp => "gtp",
            Protocol::Gomocup => "gomocup",
        }
    }

    /// Words in program or script names that tell the protocol:
    /// `edax-gtp`, `bot_nboard.py`, `pbrain-rapfi` (the Gomocup naming rule).
    const fn name_hints(self) -> &'static [&'static str] {
        match self {
            Protocol::Nboard => &["nboard"],
            Protocol::Gtp => &["gtp"],
            Protocol::Gomocup => &["gomocup", "pbrain"],
        }
    }
}

impl FromStr for Protocol {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Protocol, SpecError> {
        let name = text.trim();
        Protocol::ALL
            .into_iter()
            .find(|protocol| protocol.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| SpecError::UnknownProtocol(text.to_string()))
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A program to run and how to talk to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandLine {
    pub program: PathBuf,
    pub args: Vec<String>,
    pub protocol: Protocol,
}

/// How an engine is run.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineKind {
    /// oxello in this process.
    Local {
        player: Player,
        /// Midgame depth overriding the level's.
        depth: Option<u32>,
    },
    /// A subprocess.
    Command(CommandLine),
}

/// One side of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// Display name, also written to the game records (`PB`, `PW`).
    pub name: String,
    pub kind: EngineKind,
    /// Gomocup settings sent to this engine alone, as `INFO key value`
    /// lines at the start of each game after the match's own (so they
    /// override them): `max_node` to cap a sparring engine, for instance.
    /// Only for Gomocup engines ([`InfoSetting::parse`]).
    pub info: Vec<InfoSetting>,
}

/// One `INFO key value` line for one engine of a gomoku match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InfoSetting {
    pub key: String,
    pub value: String,
}

impl InfoSetting {
    /// Reads `KEY=VALUE`: a key of letters, digits and underscores, and a
    /// value without spaces or control characters (one word of a line).
    pub fn parse(text: &str) -> Result<InfoSetting, String> {
        let bad = || format!("bad INFO setting '{text}': use KEY=VALUE, such as max_node=10000");
        let (key, value) = text.trim().split_once('=').ok_or_else(bad)?;
        let key_ok = !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        let value_ok =
            !value.is_empty() && !value.chars().any(|c| c.is_whitespace() || c.is_control());
        if key_ok && value_ok {
            Ok(InfoSetting {
                key: key.to_string(),
                value: value.to_string(),
            })
        } else {
            Err(bad())
        }
    }
}

impl fmt::Display for InfoSetting {
    /// The line's text after `INFO `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.key, self.value)
    }
}

/// Why an engine specification was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    Empty,
    /// A quote is not closed.
    UnclosedQuote(String),
    UnknownProtocol(String),
    /// The command does not say which protocol it speaks.
    NoProtocol(String),
    /// The program is no file, or not on the `PATH`.
    NoProgram(String),
    /// `level:`/`depth:` with a bad number.
    BadLevel(String),
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::Empty => f.write_str("empty engine specification"),
            SpecError::UnclosedQuote(text) => write!(f, "unclosed quote in '{text}'"),
            SpecError::UnknownProtocol(text) => {
                write!(f, "unknown protocol '{text}' (use nboard, gtp or gomocup)")
            }
            SpecError::NoProtocol(text) => write!(
                f,
                "cannot tell the protocol of '{text}': name it (--proto1/--proto2 nboard|gtp|gomocup)"
            ),
            SpecError::NoProgram(program) if program.contains(std::path::MAIN_SEPARATOR) => {
                write!(f, "{program}: no such file")
            }
            SpecError::NoProgram(program) => write!(f, "{program}: no such program on the PATH"),
            SpecError::BadLevel(text) => write!(
                f,
                "bad level in '{text}': use level:N or depth:N with N from 1 to {}",
                crate::engine::MAX_LEVEL
            ),
        }
    }
}

impl std::error::Error for SpecError {}

impl EngineSpec {
    /// Reads a specification (see the module documentation). `protocol`
    /// overrides detection; `name` the default display name.
    pub fn parse(
        text: &str,
        protocol: Option<Protocol>,
        name: Option<&str>,
    ) -> Result<EngineSpec, SpecError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(SpecError::Empty);
        }
        let kind = match local_player(trimmed)? {
            Some(kind) => kind,
            None => EngineKind::Command(command_line(trimmed, protocol)?),
        };
        let name = match name.map(str::trim).filter(|n| !n.is_empty()) {
            Some(name) => name.to_string(),
            None => default_name(trimmed, false),
        };
        Ok(EngineSpec {
            name,
            kind,
            info: Vec::new(),
        })
    }
}

/// The in-process players, or `None` for a command.
fn local_player(text: &str) -> Result<Option<EngineKind>, SpecError> {
    let lower = text.to_ascii_lowercase();
    if let Ok(player) = lower.parse::<crate::players::SimplePlayer>() {
        return Ok(Some(EngineKind::Local {
            player: Player::Simple(player),
            depth: None,
        }));
    }
    let Some((word, number)) = lower.split_once(':') else {
        return Ok(None);
    };
    let fixed_depth = match word.trim() {
        "level" | "oxello" => false,
        "depth" => true,
        _ => return Ok(None),
    };
    let n = number
        .trim()
        .parse::<u32>()
        .ok()
        .filter(|n| (1..=crate::engine::MAX_LEVEL).contains(n))
        .ok_or_else(|| SpecError::BadLevel(text.to_string()))?;
    Ok(Some(EngineKind::Local {
        player: Player::Level(Level::new(n)),
        depth: fixed_depth.then_some(n),
    }))
}

fn command_line(text: &str, protocol: Option<Protocol>) -> Result<CommandLine, SpecError> {
    let words = split_command(text)?;
    let (program, args) = words.split_first().ok_or(SpecError::Empty)?;
    let program_path = resolve_program(program);
    let protocol = match protocol {
        Some(protocol) => protocol,
        None => match detect_protocol(program, args) {
            Some(protocol) => protocol,
            // A missing program is the first thing to fix.
            None => {
                find_program(&program_path)?;
                return Err(SpecError::NoProtocol(text.to_string()));
            }
        },
    };
    Ok(CommandLine {
        program: program_path,
        args: args.to_vec(),
        protocol,
    })
}

impl CommandLine {
    /// Refuses a program that is no file (a path) or not on the `PATH` (a
    /// name), before a match starts it.
    pub fn check_program(&self) -> Result<(), SpecError> {
        find_program(&self.program)
    }
}

/// Finds `program` as the system would run it: a path names a file, a bare
/// name is looked up on the `PATH`.
fn find_program(program: &std::path::Path) -> Result<(), SpecError> {
    let missing = || SpecError::NoProgram(program.display().to_string());
    if program.components().count() > 1 || program.is_absolute() {
        return if program.is_file() {
            Ok(())
        } else {
            Err(missing())
        };
    }
    let name = program.to_string_lossy();
    if on_path(&name) {
        Ok(())
    } else {
        Err(missing())
    }
}

/// The protocol a command line names, if exactly one: by a word of its
/// arguments, or else by the name of its program or script.
fn detect_protocol(program: &str, args: &[String]) -> Option<Protocol> {
    let said = |protocol: Protocol| {
        args.iter().any(|arg| {
            arg.trim_start_matches('-')
                .eq_ignore_ascii_case(protocol.name())
        })
    };
    // A program or script whose name says it (`edax-gtp`, `bot_nboard.py`).
    let stems: Vec<String> = std::iter::once(program)
        .chain(args.iter().map(String::as_str))
        .filter(|word| !word.starts_with('-'))
        .filter_map(|word| std::path::Path::new(word).file_stem())
        .map(|stem| stem.to_string_lossy().to_ascii_lowercase())
        .collect();
    let named = |protocol: Protocol| {
        protocol
            .name_hints()
            .iter()
            .any(|hint| stems.iter().any(|stem| stem.contains(hint)))
    };
    let only = |test: &dyn Fn(Protocol) -> bool| {
        let mut found = Protocol::ALL.into_iter().filter(|&protocol| test(protocol));
        match (found.next(), found.next()) {
            (Some(protocol), None) => Some(protocol),
            _ => None,
        }
    };
    if Protocol::ALL.into_iter().any(said) {
        only(&said)
    } else {
        only(&named)
    }
}

/// `oxello` not on the `PATH` is this very binary (when it is oxello).
fn resolve_program(program: &str) -> PathBuf {
    let path = PathBuf::from(program);
    if program != "oxello" || on_path(program) {
        return path;
    }
    match std::env::current_exe() {
        Ok(exe)
            if exe
                .file_stem()
                .is_some_and(|stem| stem.to_string_lossy().starts_with("oxello")) =>
        {
            exe
        }
        _ => path,
    }
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// Interpreters whose first argument is the real program.
const INTERPRETERS: [&str; 8] = [
    "python", "python3", "perl", "ruby", "node", "sh", "bash", "java",
];

/// Options of an interpreter that run code given on the command line
/// (`python3 -c CODE`, `perl -e CODE`): there is no script to name.
const INLINE_CODE: [&str; 3] = ["-c", "-e", "--eval"];

/// Options of an interpreter whose value names the program: a module
/// (`python3 -m engine`) or an archive (`java -jar engine.jar`).
const PROGRAM_OPTIONS: [&str; 2] = ["-m", "-jar"];

/// The default display name: the file name of the program, or of the
/// script or module an interpreter runs (`python3 bots/edge.py` is
/// `edge.py`); with inline code (`python3 -c ...`), the interpreter's.
/// With `arguments`, the arguments after it follow (`edax -l 10`).
fn default_name(text: &str, arguments: bool) -> String {
    let words = split_command(text).unwrap_or_else(|_| vec![text.to_string()]);
    let file_name = |word: &str| {
        std::path::Path::new(word)
            .file_name()
            .map_or(word.to_string(), |name| name.to_string_lossy().into_owned())
    };
    let Some(first) = words.first() else {
        return String::new();
    };
    let mut program = 0;
    if INTERPRETERS.contains(&file_name(first).as_str()) {
        let mut at = 1;
        while let Some(word) = words.get(at) {
            if INLINE_CODE.contains(&word.as_str()) {
                break;
            }
            if PROGRAM_OPTIONS.contains(&word.as_str()) {
                program = (at + 1).min(words.len() - 1);
                break;
            }
            if !word.starts_with('-') {
                program = at;
                break;
            }
            at += 1;
        }
    }
    let name = file_name(&words[program]);
    if !arguments {
        return name;
    }
    let rest = if program == 0 { 1 } else { program + 1 };
    std::iter::once(name)
        .chain(words.into_iter().skip(rest))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Makes the names of a match's two engines differ, `texts` being their
/// specifications and `named` whether the user named them: default names
/// that agree get their arguments (`edax -l 10`, `edax -l 20`), and names
/// that still agree a `#2` on the second.
pub fn tell_apart(engines: &mut [EngineSpec; 2], texts: [&str; 2], named: [bool; 2]) {
    if engines[0].name == engines[1].name {
        for (engine, (text, named)) in engines.iter_mut().zip(texts.into_iter().zip(named)) {
            if !named {
                engine.name = default_name(text.trim(), true);
            }
        }
    }
    if engines[0].name == engines[1].name {
        engines[1].name.push_str("#2");
    }
}

/// Splits a command line into words like a POSIX shell: whitespace
/// separates, single quotes keep everything, double quotes keep everything
/// but `\"` and `\\`, a backslash outside quotes keeps the next character.
pub fn split_command(text: &str) -> Result<Vec<String>, SpecError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(SpecError::UnclosedQuote(text.to_string())),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(SpecError::UnclosedQuote(text.to_string())),
                        },
                        Some(c) => word.push(c),
                        None => return Err(SpecError::UnclosedQuote(text.to_string())),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::SimplePlayer;

    #[test]
    fn local_players() {
        let spec = EngineSpec::parse("level:10", None, None).unwrap();
        assert_eq!(spec.name, "level:10");
        assert_eq!(
            spec.kind,
            EngineKind::Local {
                player: Player::Level(Level::new(10)),
                depth: None
            }
        );
        let spec = EngineSpec::parse("depth:6", None, Some("d6")).unwrap();
        assert_eq!(spec.name, "d6");
        assert!(matches!(
            spec.kind,
            EngineKind::Local { depth: Some(6), .. }
        ));
        let spec = EngineSpec::parse("Greedy", None, None).unwrap();
        assert_eq!(
            spec.kind,
            EngineKind::Local {
                player: Player::Simple(SimplePlayer::Greedy),
                depth: None
            }
        );
        assert_eq!(
            EngineSpec::parse("level:0", None, None),
            Err(SpecError::BadLevel("level:0".to_string()))
        );
    }

    #[test]
    fn commands_and_protocols() {
        let spec = EngineSpec::parse("/usr/bin/edax -gtp -l 10", None, None).unwrap();
        assert_eq!(spec.name, "edax");
        let EngineKind::Command(command) = spec.kind else {
            panic!("a command");
        };
        assert_eq!(command.protocol, Protocol::Gtp);
        assert_eq!(command.args, ["-gtp", "-l", "10"]);
        let spec = EngineSpec::parse("python3 'my engine.py' nboard", None, None).unwrap();
        let EngineKind::Command(command) = spec.kind else {
            panic!("a command");
        };
        assert_eq!(command.protocol, Protocol::Nboard);
        assert_eq!(command.args, ["my engine.py", "nboard"]);
        assert!(matches!(
            EngineSpec::parse("python3 bot.py", None, None),
            Err(SpecError::NoProtocol(_))
        ));
        let spec = EngineSpec::parse("python3 tests/engines/fake_gtp.py --at 3", None, None);
        let spec = spec.unwrap();
        assert_eq!(spec.name, "fake_gtp.py");
        assert!(matches!(spec.kind, EngineKind::Command(c) if c.protocol == Protocol::Gtp));
        let spec = EngineSpec::parse("python3 bot.py", Some(Protocol::Gtp), None).unwrap();
        assert!(matches!(spec.kind, EngineKind::Command(c) if c.protocol == Protocol::Gtp));
        assert_eq!("GTP".parse::<Protocol>(), Ok(Protocol::Gtp));
        let spec = EngineSpec::parse("/work/peers/rapfi/pbrain-rapfi", None, None).unwrap();
        assert_eq!(spec.name, "pbrain-rapfi");
        assert!(matches!(spec.kind, EngineKind::Command(c) if c.protocol == Protocol::Gomocup));
        let spec = EngineSpec::parse("oxello gomocup", None, None).unwrap();
        assert!(matches!(spec.kind, EngineKind::Command(c) if c.protocol == Protocol::Gomocup));
        assert!(matches!(
            EngineSpec::parse("pbrain-x --gtp", None, None).unwrap().kind,
            EngineKind::Command(c) if c.protocol == Protocol::Gtp
        ));
    }

    /// Issue 75, defect 15: engines are named after their program, told
    /// apart by their arguments when the programs agree; a missing program
    /// is named as such.
    #[test]
    fn engines_are_named_after_their_program() {
        let name = |text: &str| default_name(text, false);
        assert_eq!(name("python3 -c 'print(1)'"), "python3");
        assert_eq!(name("python3 -u bots/edge.py --gtp"), "edge.py");
        assert_eq!(name("python3 -m bots.edge nboard"), "bots.edge");
        assert_eq!(name("java -jar /opt/engine.jar"), "engine.jar");
        assert_eq!(name("/opt/edax/edax -gtp"), "edax");
        let spec = |text: &str| EngineSpec::parse(text, Some(Protocol::Gtp), None).unwrap();
        let texts = ["/opt/edax -gtp -l 10", "/opt/edax -gtp -l 20"];
        let mut engines = [spec(texts[0]), spec(texts[1])];
        tell_apart(&mut engines, texts, [false, false]);
        assert_eq!(
            engines.map(|e| e.name),
            ["edax -gtp -l 10", "edax -gtp -l 20"]
        );
        let mut engines = [spec(texts[0]), spec(texts[0])];
        tell_apart(&mut engines, [texts[0]; 2], [false, false]);
        assert_eq!(
            engines.map(|e| e.name),
            ["edax -gtp -l 10", "edax -gtp -l 10#2"]
        );
        let error = EngineSpec::parse("/nonexistent/engine", None, None).unwrap_err();
        assert_eq!(error.to_string(), "/nonexistent/engine: no such file");
        let error = EngineSpec::parse("no-such-engine-anywhere", None, None).unwrap_err();
        assert!(
            error.to_string().contains("no such program on the PATH"),
            "{error}"
        );
        let EngineKind::Command(command) = spec("/nonexistent/engine").kind else {
            panic!("a command");
        };
        assert!(command.check_program().is_err());
    }

    #[test]
    fn shell_splitting() {
        assert_eq!(
            split_command(r#"a "b c" 'd "e"' f\ g "h\"i""#).unwrap(),
            ["a", "b c", "d \"e\"", "f g", "h\"i"]
        );
        assert_eq!(split_command("  ").unwrap(), Vec::<String>::new());
        assert_eq!(split_command("''").unwrap(), [""]);
        assert!(split_command("a 'b").is_err());
    }
}
