//! Puzzles for a run: the records of a [`Walk`] numbered in input order, with the claims of
//! their side files attached, and every problem of the input handed to the caller.

use crate::corpus::{Met, Walk};

use super::Item;
use super::side::{SideError, SideFile, SideKind};

/// A problem met on the way: a malformed puzzle or unreadable source (the walk goes on), or a
/// side file that contradicts its own format (the walk ends).
#[derive(Debug)]
pub enum InputProblem {
    /// Reported, and the walk goes on.
    Skipped(String),
    /// The walk ends here.
    Fatal(SideError),
}

/// Side files that go with one source: line `i` for its `i`-th puzzle.
#[derive(Clone, Debug, Default)]
pub struct Sides {
    /// Known solution counts.
    pub counts: Option<SideFile>,
    /// Known solutions.
    pub solutions: Option<SideFile>,
}

/// The items of a walk, numbered from 0 over all sources.
pub struct Items<P: FnMut(InputProblem)> {
    walk: Walk,
    sides: Vec<Sides>,
    within_source: Vec<u64>,
    ordinal: u64,
    on_problem: P,
    ended: bool,
}

impl<P: FnMut(InputProblem)> Items<P> {
    /// The puzzles of `walk`; `sides[k]` (when present) goes with the walk's source `k`.
    pub fn new(walk: Walk, sides: Vec<Sides>, on_problem: P) -> Items<P> {
        let within_source = vec![0; walk.sources().len()];
        Items {
            walk,
            sides,
            within_source,
            ordinal: 0,
            on_problem,
            ended: false,
        }
    }
}

impl<P: FnMut(InputProblem)> Iterator for Items<P> {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        while !self.ended {
            match self.walk.next()? {
                Met::Problem { message, .. } => (self.on_problem)(InputProblem::Skipped(message)),
                Met::Puzzle { source, record } => {
                    let index = self.within_source[source];
                    self.within_source[source] += 1;
                    let mut item = Item {
                        ordinal: self.ordinal,
                        source: format!("{}:{}", self.walk.sources()[source].name(), record.line),
                        puzzle: record.puzzle,
                        solution: record.solution,
                        count: record.count,
                    };
                    self.ordinal += 1;
                    if let Some(sides) = self.sides.get(source)
                        && let Err(err) = attach(sides, index, &mut item)
                    {
                        self.ended = true;
                        (self.on_problem)(InputProblem::Fatal(err));
                        return None;
                    }
                    return Some(item);
                }
            }
        }
        None
    }
}

/// Adds what the side files say of the puzzle at `index` of its source (a side file's claim
/// takes the place of the record's own).
pub fn attach(sides: &Sides, index: u64, item: &mut Item) -> Result<(), SideError> {
    for side in [&sides.counts, &sides.solutions].into_iter().flatten() {
        match side.kind() {
            SideKind::Counts => {
                if let Some(count) = side.count(index)? {
                    item.count = Some(count);
                }
            }
            SideKind::Solutions => {
                if let Some(solution) = side.solution(index, item.puzzle.shape())? {
                    item.solution = Some(solution);
                }
            }
        }
    }
    Ok(())
}
