//! Blocks of a walk's puzzles, cut on one thread and read on others: line-form puzzles stay raw
//! lines in one buffer (no allocation per line) until the thread that runs them parses them
//! with [`parse_line_into`](super::parse_line_into); every other form, and every problem,
//! is read as the walk reads it.
//!
//! The pipelines of `count`, `solve` and `compare` cut their input this way, so that the
//! thread that reads and writes in input order does little a line (plain lines: a `memchr2`
//! and a share of one copy, [`Block::push_plain_lines`]) and the workers parse, search and
//! format.

use std::ops::Range;

use super::{LineAt, Met, Record, Walk, Walked};

/// Places of a walk, in input order, with the bytes of its raw lines.
#[derive(Debug, Default)]
pub struct Block {
    bytes: Vec<u8>,
    places: Vec<Place>,
}

/// One place of a [`Block`]; `source` is the index of the source in the walk.
#[derive(Debug)]
pub enum Place {
    /// A line-form puzzle, not yet parsed: [`Block::line`] gives its bytes.
    Line {
        /// Index of its source in the walk's list.
        source: usize,
        /// Where it is, and its shape.
        at: LineAt,
        /// Its bytes in the block's buffer.
        bytes: Range<usize>,
    },
    /// A puzzle the walk parsed (the grid, JSON and TOML forms, `--variant`, or a caller that
    /// asked for every puzzle parsed).
    Puzzle {
        /// Index of its source in the walk's list.
        source: usize,
        /// The puzzle.
        record: Record,
    },
    /// A problem the walk met, as [`Met::Problem`] says it.
    Problem {
        /// Index of its source in the walk's list.
        source: usize,
        /// What went wrong, naming the source.
        message: String,
        /// Whether it stands for one puzzle (and keeps its place in the input's order).
        in_place_of_puzzle: bool,
    },
}

impl Place {
    /// The index of the place's source in the walk.
    pub fn source(&self) -> usize {
        match self {
            Place::Line { source, .. }
            | Place::Puzzle { source, .. }
            | Place::Problem { source, .. } => *source,
        }
    }
}

impl Block {
    /// Empties the block, keeping its buffers for the next one.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.places.clear();
    }

    /// Makes room for `places` more places: a block whose places were taken
    /// ([`Block::take_places`]) would otherwise grow its new list by doubling, copying it
    /// about as many times as it doubles, on the thread that cuts the input.
    pub fn reserve(&mut self, places: usize) {
        self.places.reserve(places);
    }

    /// The places, in input order.
    pub fn places(&self) -> &[Place] {
        &self.places
    }

    /// Moves the places out, to be read on other threads; the bytes stay, for
    /// [`Block::line`].
    pub fn take_places(&mut self) -> Vec<Place> {
        std::mem::take(&mut self.places)
    }

    /// The number of places.
    pub fn len(&self) -> usize {
        self.places.len()
    }

    /// Whether there is no place.
    pub fn is_empty(&self) -> bool {
        self.places.is_empty()
    }

    /// The bytes of a raw line.
    pub fn line(&self, bytes: &Range<usize>) -> &[u8] {
        &self.bytes[bytes.clone()]
    }

    /// Adds the walk's next place and returns it (`None` at the end of the walk): a line-form
    /// puzzle as a raw line when `defer`, otherwise everything as [`Iterator::next`] reads it.
    pub fn push_next(&mut self, walk: &mut Walk, defer: bool) -> Option<&Place> {
        let start = self.bytes.len();
        let walked = if defer {
            walk.next_deferred(&mut self.bytes)?
        } else {
            Walked::Met(walk.next()?)
        };
        self.places.push(match walked {
            Walked::Line { source, at } => Place::Line {
                source,
                at,
                bytes: start..self.bytes.len(),
            },
            Walked::Met(Met::Puzzle { source, record }) => Place::Puzzle { source, record },
            Walked::Met(Met::Problem {
                source,
                message,
                in_place_of_puzzle,
            }) => Place::Problem {
                source,
                message,
                in_place_of_puzzle,
            },
        });
        self.places.last()
    }

    /// Adds up to `max` plain line-form puzzles as raw lines, in one loop over the reader's
    /// buffer ([`Walk::next_plain_lines`]), and says how many: 0 when the next place needs
    /// [`Block::push_next`]. The same places as `push_next(walk, true)` would add, for about
    /// half the instructions a line on the thread that cuts the input.
    pub fn push_plain_lines(&mut self, walk: &mut Walk, max: usize) -> usize {
        let places = &mut self.places;
        walk.next_plain_lines(&mut self.bytes, max, |source, at, bytes| {
            places.push(Place::Line { source, at, bytes });
        })
    }

    /// Drops the last place (a puzzle its caller does not take), with its bytes.
    pub fn pop(&mut self) {
        if let Some(Place::Line { bytes, .. }) = self.places.pop() {
            self.bytes.truncate(bytes.start);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::corpus::{Format, parse_line_into};
    use crate::model::{Grid, Shape};

    #[test]
    fn raw_lines_read_as_the_walk_reads_them() {
        let dir = std::env::temp_dir().join(format!("sudolab-block-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("lines.txt");
        // Plain lines, a CRLF one, blank lines, comments, a broken line, one with its solution,
        // and a NUL byte, which ends the file.
        let text = "# two puzzles and a broken line\n4..3.....1....2.\n4..3..x..1....2.\n\
                    .1..4..3..2..1.. 2143432134121234\n4..3.....1....2.\r\n\n   \n\
                    # more\n...3.....1....2.\n4..3.....1....2.\n4..3..\0..1....2.\n\
                    4..3.....1....2.\n";
        std::fs::write(&path, text).unwrap();
        let walk = || Walk::from_arguments(&[PathBuf::from(&path)], Format::Auto, None);
        let expected: Vec<String> = walk().map(|met| format!("{met:?}")).collect();
        // Place by place, and with the plain lines cut two at a time in between.
        for plain in [false, true] {
            let mut deferred = walk();
            let mut block = Block::default();
            loop {
                if plain && block.push_plain_lines(&mut deferred, 2) > 0 {
                    continue;
                }
                if block.push_next(&mut deferred, true).is_none() {
                    break;
                }
            }
            let mut record = Record {
                number: 0,
                line: 0,
                puzzle: Grid::empty(Shape::CLASSIC),
                solution: None,
                count: None,
            };
            let found: Vec<String> = block
                .places()
                .iter()
                .map(|place| match place {
                    Place::Line { source, at, bytes } => {
                        match parse_line_into(block.line(bytes), *at, &mut record) {
                            Ok(()) => format!(
                                "{:?}",
                                Met::Puzzle {
                                    source: *source,
                                    record: record.clone()
                                }
                            ),
                            Err(err) => format!(
                                "{:?}",
                                Met::Problem {
                                    source: *source,
                                    message: format!("{}: {err}", path.display()),
                                    in_place_of_puzzle: true
                                }
                            ),
                        }
                    }
                    other => format!("{other:?}"),
                })
                .collect();
            assert_eq!(found, expected, "plain lines cut apart: {plain}");
            assert_eq!(block.len(), 7);
            block.pop();
            assert_eq!(block.len(), 6);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
