//! Walking several puzzle sources in order: files (or standard input, `-`) opened one after
//! the other, each read by a [`Reader`], every puzzle or problem handed on with its source.
//! A command line's arguments may also be puzzles typed in place of a file
//! ([`Walk::from_arguments`]).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor};
use std::path::{Path, PathBuf};

use crate::model::{RulesSpec, Shape, parse_line_record};

use super::{Deferred, Format, LineAt, Reader, Record};

/// One source of puzzles and how to read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// A file, or `-` for standard input.
    pub path: PathBuf,
    /// Its text form (`Auto` decides from the first puzzle).
    pub format: Format,
    /// The box shape of every puzzle, when it is not the default for the side.
    pub shape: Option<Shape>,
    /// Variant rules for every plain puzzle (`--variant`), when given.
    pub variant: Option<RulesSpec>,
}

impl Source {
    /// The name messages and reports give it: the path, or `<stdin>` for `-`.
    pub fn name(&self) -> String {
        if self.is_stdin() {
            "<stdin>".to_string()
        } else {
            self.path.display().to_string()
        }
    }

    /// Whether it is standard input.
    pub fn is_stdin(&self) -> bool {
        self.path.as_os_str() == "-"
    }
}

/// What a walk meets: a puzzle, or a problem (a source that cannot be opened, a malformed
/// puzzle, a source with no puzzle), each with the index of its source.
#[derive(Debug)]
pub enum Met {
    /// A puzzle read.
    Puzzle {
        /// Index of its source in the walk's list.
        source: usize,
        /// The puzzle and its claims.
        record: Record,
    },
    /// A problem, as a message that names the source (`FILE: line 3, column 7: ...`).
    Problem {
        /// Index of its source in the walk's list.
        source: usize,
        /// What went wrong.
        message: String,
        /// True when the problem is one puzzle that could not be read, which keeps its place
        /// in the input's order; false for a source that gave no puzzle at all (it cannot be
        /// opened, is a directory, or holds none).
        in_place_of_puzzle: bool,
    },
}

/// Walks sources in order, lazily: a source is opened when the one before it is done.
pub struct Walk {
    sources: Vec<Source>,
    /// For each source, the text typed on the command line in place of a file, if it was.
    typed: Vec<Option<String>>,
    next_source: usize,
    current: Option<Open>,
}

/// The source being read.
struct Open {
    index: usize,
    reader: Reader<Box<dyn BufRead>>,
    seen_any: bool,
}

impl Walk {
    /// A walk over `sources`, in order.
    pub fn new(sources: Vec<Source>) -> Walk {
        Walk {
            sources,
            typed: Vec::new(),
            next_source: 0,
            current: None,
        }
    }

    /// A walk over command-line arguments read as `format` and `shape`: `-` is standard input,
    /// an argument that [`Walk::typed_puzzle`] takes for a puzzle is read from its own text and
    /// named `<arg N>` (N counting the arguments from 1), any other argument is a file.
    pub fn from_arguments(arguments: &[PathBuf], format: Format, shape: Option<Shape>) -> Walk {
        let mut sources = Vec::with_capacity(arguments.len());
        let mut typed = Vec::with_capacity(arguments.len());
        for (index, argument) in arguments.iter().enumerate() {
            let text = Walk::typed_puzzle(argument, shape);
            let path = if text.is_some() {
                PathBuf::from(format!("<arg {}>", index + 1))
            } else {
                argument.clone()
            };
            sources.push(Source {
                path,
                format,
                shape,
                variant: None,
            });
            typed.push(text);
        }
        Walk {
            sources,
            typed,
            next_source: 0,
            current: None,
        }
    }

    /// The same walk with every plain puzzle of every source read under `spec` (`--variant`).
    #[must_use]
    pub fn with_variant(mut self, spec: Option<&RulesSpec>) -> Walk {
        for source in &mut self.sources {
            source.variant = spec.cloned();
        }
        self
    }

    /// The puzzle text of a command-line argument that is a puzzle rather than a file name, or
    /// `None` for a file name. An argument is a puzzle when no file or directory of that name
    /// exists, it has no path separator, and either it reads as a line-form puzzle of side 2 or
    /// more (whitespace inside it removed when that is what makes it read, so
    /// `"4..3 .... .1.. ..2."` is `4..3.....1....2.`), or it holds only digits, `.`, `_`, the
    /// field separators `,;:` and spaces, which no file name chosen by a person does: such an
    /// argument is read as a puzzle so that its mistake is reported with its column instead of
    /// "cannot open".
    pub fn typed_puzzle(argument: &Path, shape: Option<Shape>) -> Option<String> {
        let text = argument.to_str()?.trim();
        if text == "-" || text.contains(['/', '\\']) || argument.symlink_metadata().is_ok() {
            return None;
        }
        let reads = |text: &str| {
            parse_line_record(text.as_bytes(), shape, 1)
                .is_ok_and(|record| record.puzzle.side() >= 2)
        };
        if reads(text) {
            return Some(text.to_string());
        }
        let joined: String = text.chars().filter(|c| !c.is_ascii_whitespace()).collect();
        if joined.len() != text.len() && reads(&joined) {
            return Some(joined);
        }
        let symbols_only = text.len() >= 4
            && text
                .bytes()
                .all(|b| b.is_ascii_digit() || b" ._,;:".contains(&b));
        if !symbols_only {
            return None;
        }
        // A puzzle and its known solution keep their space, for the error's column; a puzzle
        // typed in groups ("4..3 .... .1..") is read joined.
        let first_field = text.split(' ').next().unwrap_or_default().len();
        let puzzle_then_fields = first_field >= 16 && first_field.isqrt().pow(2) == first_field;
        Some(if puzzle_then_fields {
            text.to_string()
        } else {
            joined
        })
    }

    /// The sources walked.
    pub fn sources(&self) -> &[Source] {
        &self.sources
    }
}

/// What [`Walk::next_deferred`] meets: a line-form puzzle left unparsed, or what the walk
/// meets otherwise.
#[derive(Debug)]
pub enum Walked {
    /// A line whose bytes were appended to the caller's buffer; [`super::parse_line_into`]
    /// reads it. A parse error is then a problem in place of a puzzle, whose message is
    /// `NAME: ERROR` with the source's [`Source::name`].
    Line {
        /// Index of its source in the walk's list.
        source: usize,
        /// Where the line is, and its shape.
        at: LineAt,
    },
    /// A puzzle read, or a problem.
    Met(Met),
}

impl Walk {
    /// Like [`Iterator::next`], except that line-form puzzles are left unparsed
    /// ([`Reader::next_deferred`]): their bytes are appended to `bytes`.
    pub fn next_deferred(&mut self, bytes: &mut Vec<u8>) -> Option<Walked> {
        self.step(Some(bytes))
    }

    /// Up to `max` plain lines of the current source ([`Reader::next_plain_lines`]), each
    /// passed to `found` with its source's index and its bytes' range in `bytes`. Returns how
    /// many; 0 when the next place needs [`Walk::next_deferred`] (a new source, the end of
    /// one, any other line or form).
    pub fn next_plain_lines(
        &mut self,
        bytes: &mut Vec<u8>,
        max: usize,
        mut found: impl FnMut(usize, LineAt, std::ops::Range<usize>),
    ) -> usize {
        let Some(open) = &mut self.current else {
            return 0;
        };
        let index = open.index;
        let taken = open
            .reader
            .next_plain_lines(bytes, max, |at, range| found(index, at, range));
        open.seen_any |= taken > 0;
        taken
    }

    fn step(&mut self, mut defer: Option<&mut Vec<u8>>) -> Option<Walked> {
        loop {
            if let Some(open) = &mut self.current {
                let index = open.index;
                let item = match defer.as_deref_mut() {
                    Some(bytes) => open.reader.next_deferred(bytes),
                    None => open.reader.next().map(Deferred::Read),
                };
                if let Some(item) = item {
                    open.seen_any = true;
                    return Some(match item {
                        Deferred::Line(at) => Walked::Line { source: index, at },
                        Deferred::Read(Ok(record)) => Walked::Met(Met::Puzzle {
                            source: index,
                            record,
                        }),
                        Deferred::Read(Err(err)) => Walked::Met(Met::Problem {
                            source: index,
                            message: format!("{}: {err}", self.sources[index].name()),
                            in_place_of_puzzle: true,
                        }),
                    });
                }
                let seen_any = open.seen_any;
                self.current = None;
                if !seen_any {
                    return Some(Walked::Met(Met::Problem {
                        source: index,
                        message: format!(
                            "{}: no puzzles found (the input is empty or only comments)",
                            self.sources[index].name()
                        ),
                        in_place_of_puzzle: false,
                    }));
                }
            }
            let index = self.next_source;
            let source = self.sources.get(index)?;
            self.next_source += 1;
            let input: Box<dyn BufRead> = if let Some(Some(text)) = self.typed.get(index) {
                Box::new(Cursor::new(text.clone().into_bytes()))
            } else if source.is_stdin() {
                Box::new(BufReader::new(io::stdin()))
            } else if source.path.is_dir() {
                return Some(Walked::Met(Met::Problem {
                    source: index,
                    message: format!(
                        "{}: is a directory; name the puzzle files in it ({}/*.txt)",
                        source.name(),
                        source.name().trim_end_matches('/')
                    ),
                    in_place_of_puzzle: false,
                }));
            } else {
                match File::open(&source.path) {
                    // 64 KiB reads: a tenth of the read calls of the default 8 KiB, on the
                    // thread that every pipeline's other threads wait on.
                    Ok(file) => Box::new(BufReader::with_capacity(1 << 16, file)),
                    Err(err) => {
                        return Some(Walked::Met(Met::Problem {
                            source: index,
                            message: format!("{}: cannot open: {err}", source.name()),
                            in_place_of_puzzle: false,
                        }));
                    }
                }
            };
            let format = match source.format {
                Format::Auto if source.path.extension().is_some_and(|ext| ext == "toml") => {
                    Format::Toml
                }
                format => format,
            };
            let reader =
                Reader::new(input, format, source.shape).with_variant(source.variant.clone());
            self.current = Some(Open {
                index,
                reader,
                seen_any: false,
            });
        }
    }
}

impl Iterator for Walk {
    type Item = Met;

    fn next(&mut self) -> Option<Met> {
        match self.step(None)? {
            Walked::Met(met) => Some(met),
            Walked::Line { .. } => unreachable!("lines are left unparsed only when asked"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_files_or_typed_puzzles() {
        let typed = |text: &str| Walk::typed_puzzle(Path::new(text), None);
        assert_eq!(typed("4..3.....1....2."), Some("4..3.....1....2.".into()));
        assert_eq!(
            typed("4..3 .... .1.. ..2."),
            Some("4..3.....1....2.".into())
        );
        // Only symbols: read as a puzzle, so that the mistake is reported at its column.
        assert_eq!(typed("4..3..9..1....2."), Some("4..3..9..1....2.".into()));
        assert_eq!(typed("4..3 .... .1.. ..2"), Some("4..3.....1....2".into()));
        for file in [
            "-",
            "missing.txt",
            "corpora",
            "Cargo.toml",
            "a/4..3.....1....2.",
            "1",
        ] {
            assert_eq!(typed(file), None, "{file}");
        }
    }

    #[test]
    fn sources_are_walked_in_order_with_their_problems() {
        let dir = std::env::temp_dir().join(format!("sudolab-walk-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.txt");
        std::fs::write(&good, "4..3.....1....2.\n# only a comment next\n12x\n").unwrap();
        let empty = dir.join("empty.txt");
        std::fs::write(&empty, "# nothing\n").unwrap();
        let source = |path: &PathBuf| Source {
            path: path.clone(),
            format: Format::Auto,
            variant: None,
            shape: None,
        };
        let walk = Walk::new(vec![
            source(&good),
            source(&dir.join("missing.txt")),
            source(&empty),
        ]);
        let seen: Vec<String> = walk
            .map(|found| match found {
                Met::Puzzle { source, record } => format!("{source}: puzzle {}", record.line),
                Met::Problem {
                    source, message, ..
                } => {
                    format!(
                        "{source}: {}",
                        message.replace(&dir.display().to_string(), "D")
                    )
                }
            })
            .collect();
        assert_eq!(seen.len(), 4, "{seen:?}");
        assert_eq!(seen[0], "0: puzzle 1");
        assert!(
            seen[1].starts_with("0: D/good.txt: line 3, column 1: "),
            "{}",
            seen[1]
        );
        assert!(
            seen[2].starts_with("1: D/missing.txt: cannot open: "),
            "{}",
            seen[2]
        );
        assert_eq!(
            seen[3],
            "2: D/empty.txt: no puzzles found (the input is empty or only comments)"
        );
    }
}
