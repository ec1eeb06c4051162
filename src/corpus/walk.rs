//! Walking several puzzle sources in order: files (or standard input, `-`) opened one after
//! the other, each read by a [`Reader`], every puzzle or problem handed on with its source.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::PathBuf;

use crate::model::Shape;

use super::{Format, Reader, Record};

/// One source of puzzles and how to read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// A file, or `-` for standard input.
    pub path: PathBuf,
    /// Its text form (`Auto` decides from the first puzzle).
    pub format: Format,
    /// The box shape of every puzzle, when it is not the default for the side.
    pub shape: Option<Shape>,
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
    },
}

/// Walks sources in order, lazily: a source is opened when the one before it is done.
pub struct Walk {
    sources: Vec<Source>,
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
            next_source: 0,
            current: None,
        }
    }

    /// The sources walked.
    pub fn sources(&self) -> &[Source] {
        &self.sources
    }
}

impl Iterator for Walk {
    type Item = Met;

    fn next(&mut self) -> Option<Met> {
        loop {
            if let Some(open) = &mut self.current {
                let index = open.index;
                if let Some(item) = open.reader.next() {
                    open.seen_any = true;
                    return Some(match item {
                        Ok(record) => Met::Puzzle {
                            source: index,
                            record,
                        },
                        Err(err) => Met::Problem {
                            source: index,
                            message: format!("{}: {err}", self.sources[index].name()),
                        },
                    });
                }
                let seen_any = open.seen_any;
                self.current = None;
                if !seen_any {
                    return Some(Met::Problem {
                        source: index,
                        message: format!(
                            "{}: no puzzles found (the input is empty or only comments)",
                            self.sources[index].name()
                        ),
                    });
                }
            }
            let index = self.next_source;
            let source = self.sources.get(index)?;
            self.next_source += 1;
            let input: Box<dyn BufRead> = if source.is_stdin() {
                Box::new(BufReader::new(io::stdin()))
            } else {
                match File::open(&source.path) {
                    Ok(file) => Box::new(BufReader::new(file)),
                    Err(err) => {
                        return Some(Met::Problem {
                            source: index,
                            message: format!("{}: cannot open: {err}", source.name()),
                        });
                    }
                }
            };
            let reader = Reader::new(input, source.format, source.shape);
            self.current = Some(Open {
                index,
                reader,
                seen_any: false,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
                Met::Problem { source, message } => {
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
