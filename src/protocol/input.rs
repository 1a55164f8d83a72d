//! Standard input and output of the command loop: the reader thread and the
//! flushed writer.

use crate::core::StopSignal;
use crate::protocol::host::Interrupt;
use crate::protocol::{Input, Mode, detect};
use std::io::{self, BufRead, Write};
use std::sync::mpsc::Sender;

/// Longest input line read; longer lines are dropped and reported to the
/// protocol, which answers with its error form.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// One line as read.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum RawLine {
    /// The text, read lossily, without `\n` or `\r\n`.
    Text(String),
    /// A line over the limit (its length in bytes), skipped to its end.
    TooLong(usize),
}

/// Reads one line of at most `limit` bytes; `None` at the end of input. A
/// longer line is consumed to its end and reported as [`RawLine::TooLong`].
pub(crate) fn read_line(reader: &mut impl BufRead, limit: usize) -> io::Result<Option<RawLine>> {
    let mut bytes = Vec::new();
    let mut length = 0usize;
    let mut seen_any = false;
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if buffer.is_empty() {
            break;
        }
        seen_any = true;
        let (chunk, found_end) = match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => (&buffer[..end], true),
            None => (buffer, false),
        };
        length += chunk.len();
        if length <= limit {
            bytes.extend_from_slice(chunk);
        }
        let used = chunk.len() + usize::from(found_end);
        reader.consume(used);
        if found_end {
            break;
        }
    }
    if !seen_any {
        return Ok(None);
    }
    if length > limit {
        return Ok(Some(RawLine::TooLong(length)));
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Ok(Some(RawLine::Text(
        String::from_utf8_lossy(&bytes).into_owned(),
    )))
}

/// Which lines interrupt the command before them the moment they are read:
/// `stop` (NBoard, the console) and NBoard's `ping`. Every other line, `quit`
/// included, waits its turn, so a line read ahead never changes the answer
/// to the command before it. GTP has no such command.
///
/// In [`Mode::Auto`] the first command line chooses the protocol, exactly as
/// the command loop does, so the reader and the loop agree on it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Urgency {
    mode: Mode,
}

impl Urgency {
    pub fn new(mode: Mode) -> Urgency {
        Urgency { mode }
    }

    /// Whether `line`, the next line of input, interrupts.
    pub fn is_urgent(&mut self, line: &str) -> bool {
        if self.mode == Mode::Auto {
            match detect(line) {
                Some(mode) => self.mode = mode,
                None => return false,
            }
        }
        let first = line.split_whitespace().next().unwrap_or("");
        let words: &[&str] = match self.mode {
            Mode::Nboard => &["ping", "stop"],
            Mode::Console | Mode::GomokuConsole(_) => &["stop"],
            Mode::Gomocup => &["yxstop", "stop"],
            Mode::Gtp | Mode::Auto => &[],
        };
        words.iter().any(|word| first.eq_ignore_ascii_case(word))
    }
}

/// Starts the thread that reads stdin into the loop's channel. A line that
/// interrupts (see [`Urgency`]) raises `stop` and `interrupt` before it is
/// passed on, so a running search ends at once; the end of input is passed
/// on like a line and stops nothing.
pub(crate) fn spawn_reader(
    sender: Sender<Input>,
    stop: StopSignal,
    interrupt: Interrupt,
    mode: Mode,
) -> io::Result<()> {
    let mut urgency = Urgency::new(mode);
    std::thread::Builder::new()
        .name("oxello-stdin".to_string())
        .spawn(move || {
            let stdin = io::stdin();
            let mut reader = stdin.lock();
            loop {
                let input = match read_line(&mut reader, MAX_LINE_BYTES) {
                    Ok(Some(RawLine::Text(text))) => {
                        let urgent = urgency.is_urgent(&text);
                        if urgent {
                            interrupt.raise();
                            stop.stop();
                        }
                        Input::Line { text, urgent }
                    }
                    Ok(Some(RawLine::TooLong(bytes))) => Input::TooLong { bytes },
                    Ok(None) => Input::Eof,
                    Err(error) => {
                        log::warn!("oxello: cannot read standard input: {error}");
                        Input::Eof
                    }
                };
                let end = matches!(input, Input::Eof);
                if sender.send(input).is_err() || end {
                    break;
                }
            }
        })?;
    Ok(())
}

/// The single writer of stdout: one line at a time, flushed after each.
pub(crate) struct Writer {
    stdout: io::Stdout,
}

impl Writer {
    pub fn new() -> Writer {
        Writer {
            stdout: io::stdout(),
        }
    }

    /// Writes and clears `lines`. Returns `false` when the reader of stdout
    /// is gone (a closed pipe ends the loop quietly).
    pub fn write(&mut self, lines: &mut Vec<String>) -> io::Result<bool> {
        let mut lock = self.stdout.lock();
        for line in lines.drain(..) {
            let written = lock
                .write_all(line.as_bytes())
                .and_then(|_| lock.write_all(b"\n"))
                .and_then(|_| lock.flush());
            match written {
                Ok(()) => {}
                Err(error) if error.kind() == io::ErrorKind::BrokenPipe => return Ok(false),
                Err(error) => return Err(error),
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(data: &[u8], limit: usize) -> Vec<RawLine> {
        let mut reader = io::BufReader::with_capacity(7, data);
        let mut out = Vec::new();
        while let Some(line) = read_line(&mut reader, limit).unwrap() {
            out.push(line);
        }
        out
    }

    #[test]
    fn reads_capped_lossy_lines() {
        let text = |s: &str| RawLine::Text(s.to_string());
        assert_eq!(
            lines(b"ping 1\r\ngo\n\nlast", 100),
            vec![text("ping 1"), text("go"), text(""), text("last")]
        );
        assert_eq!(
            lines(b"0123456789abcdef\nok\n", 10),
            vec![RawLine::TooLong(16), text("ok")]
        );
        assert_eq!(lines(b"a\xffb\n", 10), vec![text("a\u{fffd}b")]);
        assert!(lines(b"", 10).is_empty());
    }

    #[test]
    fn urgent_words_depend_on_the_protocol() {
        let urgent = |mode, lines: &[&str]| -> Vec<bool> {
            let mut urgency = Urgency::new(mode);
            lines.iter().map(|line| urgency.is_urgent(line)).collect()
        };
        assert_eq!(
            urgent(Mode::Nboard, &["ping 3", "STOP", "quit", "go", "pingx"]),
            [true, true, false, false, false]
        );
        assert_eq!(
            urgent(Mode::Console, &["stop", "ping 1", "quit", "exit"]),
            [true, false, false, false]
        );
        assert_eq!(
            urgent(Mode::Gtp, &["stop", "12 quit", "quit"]),
            [false, false, false]
        );
        // Auto: the first command line decides, as the loop does.
        assert_eq!(
            urgent(Mode::Auto, &["", "ping 1", "stop", "ping 2"]),
            [false, false, true, false]
        );
        assert_eq!(
            urgent(Mode::Auto, &["# hi", "nboard 2", "ping 1"]),
            [false, false, true]
        );
        assert_eq!(
            urgent(Mode::Auto, &["protocol_version", "stop"]),
            [false, false]
        );
    }
}
