//! `N` or `N-M`: the span syntax of `--range`, `--depths`, `--random-moves`
//! and game numbers, read in one place. Each caller checks its own bounds
//! and words its own errors.

use std::str::FromStr;

/// The ends of `text`, `N` (both `N`) or `N-M`, spaces around the numbers
/// allowed; `None` when a number does not parse. The order of the ends is
/// not checked.
pub fn parse_span<T: FromStr + Copy>(text: &str) -> Option<(T, T)> {
    let number = |t: &str| t.trim().parse::<T>().ok();
    match text.split_once('-') {
        Some((first, last)) => Some((number(first)?, number(last)?)),
        None => number(text).map(|n| (n, n)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_parse() {
        assert_eq!(parse_span::<u32>("12-50"), Some((12, 50)));
        assert_eq!(parse_span::<u32>(" 7 "), Some((7, 7)));
        assert_eq!(parse_span::<usize>("5-2"), Some((5, 2)));
        for bad in ["", "x", "1-", "-3", "1-2-3", "a-b"] {
            assert_eq!(parse_span::<u32>(bad), None, "{bad}");
        }
    }
}
