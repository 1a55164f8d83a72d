//! Text quoted in a one-line message: an error of the command line, a
//! protocol's error reply.

/// `text` with every control character escaped (`\n`, `\t`, `\u{1b}`): an
/// error message is one line whatever values it quotes (a file's contents,
/// an argument), and no raw control byte reaches a terminal or a protocol
/// stream.
pub fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}
