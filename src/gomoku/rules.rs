//! The rules of a gomoku game: board size, n in a row, and which lines win.

use crate::Color;
use std::fmt;
use std::str::FromStr;

/// Smallest board side.
pub const MIN_SIDE: usize = 5;
/// Largest board side.
pub const MAX_SIDE: usize = 22;
/// Smallest n in a row.
pub const MIN_N: usize = 3;
/// Largest n in a row.
pub const MAX_N: usize = 6;

/// Which rows of stones win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Rule {
    /// n or more in a row wins.
    #[default]
    Freestyle,
    /// Exactly n in a row wins; an overline does not.
    Standard,
    /// Black: exactly n, and double-three, double-four and overline are
    /// forbidden to Black; White: n or more.
    Renju,
    /// A row of exactly n wins unless opponent stones block it at both ends
    /// (the edge is no block); a longer row wins (GomocupJudge's reading
    /// of `rule 8`; Piskvork's `rule 9` maps here too).
    Caro,
}

impl Rule {
    /// The rule of a Gomocup `INFO rule` bitmask: 4 renju, 8 caro, 1 exactly
    /// five, otherwise freestyle (bit 2, the continuous game, is ignored).
    pub fn from_gomocup(bits: i64) -> Rule {
        if bits & 4 != 0 {
            Rule::Renju
        } else if bits & 8 != 0 {
            Rule::Caro
        } else if bits & 1 != 0 {
            Rule::Standard
        } else {
            Rule::Freestyle
        }
    }

    /// The Gomocup bitmask of this rule.
    pub fn gomocup_bits(self) -> u32 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
        }
    }

    /// How rows of `color` win under this rule.
    pub fn line_rule(self, color: Color) -> LineRule {
        match (self, color) {
            (Rule::Freestyle, _) | (Rule::Renju, Color::White) => LineRule::AtLeast,
            (Rule::Standard, _) | (Rule::Renju, Color::Black) => LineRule::Exact,
            (Rule::Caro, _) => LineRule::Unblocked,
        }
    }

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule name that is not one of ours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseRuleError(pub String);

impl fmt::Display for ParseRuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a rule (freestyle, standard, renju, caro)",
            self.0
        )
    }
}

impl std::error::Error for ParseRuleError {}

impl FromStr for Rule {
    type Err = ParseRuleError;
    fn from_str(text: &str) -> Result<Rule, ParseRuleError> {
        match text.to_ascii_lowercase().as_str() {
            "freestyle" | "free" => Ok(Rule::Freestyle),
            "standard" | "exact" => Ok(Rule::Standard),
            "renju" => Ok(Rule::Renju),
            "caro" => Ok(Rule::Caro),
            _ => Err(ParseRuleError(text.to_string())),
        }
    }
}

/// How a row wins for one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineRule {
    /// n or more.
    AtLeast,
    /// Exactly n.
    Exact,
    /// Exactly n not blocked by opponent stones at both ends, or more than n.
    Unblocked,
}

/// The size and rule of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    pub width: usize,
    pub height: usize,
    /// Stones in a row needed to win.
    pub n: usize,
    pub rule: Rule,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            width: 15,
            height: 15,
            n: 5,
            rule: Rule::Freestyle,
        }
    }
}

/// Why a configuration is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    Size {
        width: usize,
        height: usize,
    },
    N(usize),
    /// Renju is played on 15x15 with five in a row.
    Renju,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Size { width, height } => write!(
                f,
                "board {width}x{height} is not supported (sides {MIN_SIDE} to {MAX_SIDE})"
            ),
            ConfigError::N(n) => write!(f, "{n} in a row is not supported ({MIN_N} to {MAX_N})"),
            ConfigError::Renju => write!(f, "renju is played on 15x15 with five in a row"),
        }
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// Checks the ranges: sides 5-22, n 3-6 (and no longer than a side),
    /// renju only on 15x15 with five.
    pub fn validate(self) -> Result<Config, ConfigError> {
        let side_ok = |side| (MIN_SIDE..=MAX_SIDE).contains(&side);
        if !side_ok(self.width) || !side_ok(self.height) {
            return Err(ConfigError::Size {
                width: self.width,
                height: self.height,
            });
        }
        if !(MIN_N..=MAX_N).contains(&self.n) {
            return Err(ConfigError::N(self.n));
        }
        if self.rule == Rule::Renju && (self.width != 15 || self.height != 15 || self.n != 5) {
            return Err(ConfigError::Renju);
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gomocup_rule_bits() {
        assert_eq!(Rule::from_gomocup(0), Rule::Freestyle);
        assert_eq!(Rule::from_gomocup(1), Rule::Standard);
        assert_eq!(Rule::from_gomocup(2), Rule::Freestyle);
        assert_eq!(Rule::from_gomocup(4), Rule::Renju);
        assert_eq!(Rule::from_gomocup(5), Rule::Renju);
        assert_eq!(Rule::from_gomocup(8), Rule::Caro);
        assert_eq!(Rule::from_gomocup(9), Rule::Caro);
    }

    #[test]
    fn config_ranges() {
        assert!(Config::default().validate().is_ok());
        let bad = Config {
            width: 4,
            ..Config::default()
        };
        assert!(bad.validate().is_err());
        let renju20 = Config {
            width: 20,
            height: 20,
            rule: Rule::Renju,
            ..Config::default()
        };
        assert_eq!(renju20.validate(), Err(ConfigError::Renju));
    }
}
