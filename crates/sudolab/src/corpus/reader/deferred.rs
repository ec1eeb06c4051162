//! The pipelines' fast path: line-form puzzles cut from the input unparsed, on the thread
//! that reads, and parsed on the threads that run them, to the same records and errors as the
//! reader's own iteration gives.

use std::io::BufRead;

use crate::model::{Shape, parse_bare_line_into, parse_line_record};

use super::{MAX_LINE_BYTES, Mode, Reader, Step};
use crate::corpus::{CorpusError, Record};

/// A line-form puzzle that [`Reader::next_deferred`] left unparsed: where it is, and the shape
/// to read it with. [`parse_line_into`] reads it, on whichever thread will run it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineAt {
    /// One-based line number.
    pub line: usize,
    /// One-based position among the source's puzzles.
    pub number: usize,
    /// The box shape given for every puzzle, if any.
    pub shape: Option<Shape>,
}

/// What [`Reader::next_deferred`] gives: a line-form line, unparsed, or what
/// [`Iterator::next`] would have given.
#[derive(Debug)]
pub enum Deferred {
    /// The line's bytes were appended to the caller's buffer.
    Line(LineAt),
    /// A record or an error, read as usual (the grid, JSON and TOML forms, a variant, a line
    /// refused before parsing: binary, overlong).
    Read(Result<Record, CorpusError>),
}

/// Reads a line that [`Reader::next_deferred`] left unparsed into `record`, reusing its grid
/// (no allocation for a bare puzzle of the same shape as the last one); the same record and
/// errors as the reader would have given. On an error `record`'s puzzle is left empty or as
/// it was.
pub fn parse_line_into(text: &[u8], at: LineAt, record: &mut Record) -> Result<(), CorpusError> {
    if parse_bare_line_into(text, at.shape, &mut record.puzzle) {
        record.solution = None;
        record.count = None;
    } else {
        let parsed = parse_line_record(text, at.shape, at.line)?;
        record.puzzle = parsed.puzzle;
        record.solution = parsed.solution;
        record.count = parsed.count;
    }
    record.number = at.number;
    record.line = at.line;
    Ok(())
}

/// The first line of `text` if it is plain (see [`Reader::next_plain_lines`]): its length
/// without the line end, and with it. As `next_line` cuts a line: one `\r` before the `\n` is
/// dropped, and counts towards the length limit.
fn plain_line(text: &[u8]) -> Option<(usize, usize)> {
    // The line's end and the NUL check in one pass: a NUL first is not plain.
    let newline = memchr::memchr2(b'\n', 0, text)?;
    if text[newline] != b'\n' || newline > MAX_LINE_BYTES {
        return None;
    }
    let len = newline - usize::from(newline > 0 && text[newline - 1] == b'\r');
    let first = *text[..len].first()?;
    if first.is_ascii_whitespace() || first == b'#' {
        return None;
    }
    Some((len, newline + 1))
}

impl<R: BufRead> Reader<R> {
    /// Like [`Iterator::next`], except that a line-form puzzle (without `--variant`) is not
    /// parsed: its bytes are appended to `bytes` and its place returned, so that a pipeline
    /// can cut the input into blocks of raw lines on one thread and parse them on the threads
    /// that run them ([`parse_line_into`]).
    pub fn next_deferred(&mut self, bytes: &mut Vec<u8>) -> Option<Deferred> {
        if self.variant.is_some() {
            return self.next().map(Deferred::Read);
        }
        Some(match self.next_step(true)? {
            Ok(Step::Line(at)) => {
                bytes.extend_from_slice(&self.line);
                Deferred::Line(at)
            }
            Ok(Step::Record(record)) => Deferred::Read(Ok(record)),
            Err(err) => Deferred::Read(Err(err)),
        })
    }

    /// Up to `max` plain lines of a line-form file, cut in one pass over the input's buffer
    /// and each passed to `found` with its bytes' range in `bytes`; returns how many. A plain
    /// line is whole in the buffer, opens with a symbol (neither blank nor a comment), is not
    /// overlong and has no NUL byte; the first line that is not (or a buffer without a line
    /// end, or an error filling it, which that way is read again and reported) stops the cut,
    /// and [`Reader::next_deferred`] reads it the general way, to the same place and record.
    /// The lines' bytes are copied with what separates them (line ends) in one piece, and
    /// taken from the buffer at once: against [`Reader::next_deferred`] line by line (a copy
    /// into `self.line`, the checks of the other forms, a second pass for NUL bytes), the
    /// thread that cuts every pipeline's input does about 400 instructions a line fewer.
    pub fn next_plain_lines(
        &mut self,
        bytes: &mut Vec<u8>,
        max: usize,
        mut found: impl FnMut(LineAt, std::ops::Range<usize>),
    ) -> usize {
        if self.variant.is_some()
            || !matches!(self.mode, Mode::Line)
            || self.held
            || self.skip_to_blank
            || !self.bom_checked
        {
            return 0;
        }
        let Ok(available) = self.input.fill_buf() else {
            return 0;
        };
        let start = bytes.len();
        let (mut used, mut taken) = (0, 0);
        while taken < max {
            let Some((len, line_end)) = plain_line(&available[used..]) else {
                break;
            };
            self.line_no += 1;
            self.number += 1;
            // `boxless_line_shape` needs variant rules, which this never has.
            let at = LineAt {
                line: self.line_no,
                number: self.number,
                shape: self.shape,
            };
            found(at, start + used..start + used + len);
            used += line_end;
            taken += 1;
        }
        bytes.extend_from_slice(&available[..used]);
        self.input.consume(used);
        taken
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Format;
    use crate::model::Grid;

    /// What `text` reads to, each record or error as text: through the iterator, or with the
    /// line-form lines deferred (cut `plain` at a time when `plain > 0`) and parsed afterwards.
    fn read(text: &[u8], deferred: bool, plain: usize) -> Vec<String> {
        let mut reader = Reader::new(text, Format::Auto, None);
        if !deferred {
            return reader
                .map(|item| match item {
                    Ok(record) => format!("{record:?}"),
                    Err(err) => err.to_string(),
                })
                .collect();
        }
        let (mut bytes, mut got) = (Vec::new(), Vec::new());
        loop {
            let mut lines = Vec::new();
            let taken = reader.next_plain_lines(&mut bytes, plain, |at, range| {
                lines.push((at, range));
            });
            got.extend(lines.into_iter().map(|(at, range)| Ok((at, range))));
            if taken > 0 {
                continue;
            }
            let start = bytes.len();
            match reader.next_deferred(&mut bytes) {
                None => break,
                Some(Deferred::Line(at)) => got.push(Ok((at, start..bytes.len()))),
                Some(Deferred::Read(read)) => got.push(Err(read)),
            }
        }
        let mut record = Record {
            number: 0,
            line: 0,
            puzzle: Grid::empty(Shape::CLASSIC),
            solution: None,
            count: None,
        };
        got.into_iter()
            .map(|item| match item {
                Ok((at, range)) => match parse_line_into(&bytes[range], at, &mut record) {
                    Ok(()) => format!("{record:?}"),
                    Err(err) => err.to_string(),
                },
                Err(Ok(record)) => format!("{record:?}"),
                Err(Err(err)) => err.to_string(),
            })
            .collect()
    }

    #[test]
    fn deferred_lines_read_as_the_iterator_reads_them() {
        let text = b"# comment\n4..3.....1....2.\n4..3..x..1....2.\n\
                     .1..4..3..2..1.. 2143432134121234\r\n\n  \n4..3.....1....2.:1\n\
                     ...3.....1....2.\n4..3..\0..1....2.\n4..3.....1....2.\n";
        let expected = read(text, false, 0);
        assert_eq!(expected.len(), 6);
        for plain in [0, 1, 2, 100] {
            assert_eq!(
                read(text, true, plain),
                expected,
                "{plain} plain lines at a time"
            );
        }
    }

    #[test]
    fn a_plain_line_is_whole_and_opens_with_a_symbol() {
        assert_eq!(plain_line(b"4..3\nrest"), Some((4, 5)));
        assert_eq!(plain_line(b"4..3\r\n"), Some((4, 6)));
        assert_eq!(plain_line(b"4..3"), None, "no line end yet");
        assert_eq!(plain_line(b" 4..3\n"), None);
        assert_eq!(plain_line(b"# 4..3\n"), None);
        assert_eq!(plain_line(b"\n"), None);
        assert_eq!(plain_line(b"4.\0.3\n"), None);
    }
}
