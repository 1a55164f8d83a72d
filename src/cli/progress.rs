//! Progress bars on stderr for long commands, shown only when stderr is a
//! terminal: piped or redirected output stays exactly as it was.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// A bar of `len` steps drawn with `template` (indicatif's syntax), or a
/// hidden one when stderr is not a terminal.
pub fn bar(len: u64, template: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    // The templates are constants of this crate; a bad one is a bug, shown
    // as a plain bar rather than an error.
    let style = ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
    bar.set_style(style);
    bar.enable_steady_tick(std::time::Duration::from_millis(250));
    bar
}

/// The usual layout: elapsed time, the bar, `pos/len UNIT`, the time left
/// and a message cut to the terminal's width.
pub fn counting(len: u64, unit: &str) -> ProgressBar {
    bar(
        len,
        &format!("{{elapsed:>4}} [{{bar:25}}] {{pos}}/{{len}} {unit}, ETA {{eta}} {{wide_msg}}"),
    )
}

/// [`counting`] for a run of several items (a suite, a file of games); a
/// single item shows only its result, so it gets a hidden bar.
pub fn counting_several(len: usize, unit: &str) -> ProgressBar {
    if len > 1 {
        counting(len as u64, unit)
    } else {
        ProgressBar::hidden()
    }
}
