//! Puzzles for a run: the records of a [`Walk`] numbered in input order, with the claims of
//! their side files attached, and every problem of the input handed to the caller.

use crate::corpus::{Met, Source, Walk, key};

use super::side::{SideError, SideFile, SideKind};
use super::{Item, Selection};

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
    /// The sources' names, made once (a name is a path's display form).
    names: Vec<String>,
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
        let names = walk.sources().iter().map(Source::name).collect();
        Items {
            walk,
            names,
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
                        source: key(&self.names[source], record.line),
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

/// How many puzzles a run with `selection` takes from `walk`, counted by reading the input
/// once, without searching (for a progress bar's total): every puzzle, the shard's, or the
/// sample's size when the input holds that many. `None` when `give_up` says so first (it is
/// asked every 4,096 records), so that counting a huge input cannot hold up the run.
pub fn count_selected(
    walk: Walk,
    selection: Selection,
    mut give_up: impl FnMut() -> bool,
) -> Option<u64> {
    let (mut ordinal, mut taken) = (0u64, 0u64);
    for (seen, met) in walk.enumerate() {
        if seen % 4096 == 4095 && give_up() {
            return None;
        }
        if let Met::Puzzle { .. } = met {
            taken += u64::from(selection.takes(ordinal));
            ordinal += 1;
        }
    }
    Some(match selection {
        Selection::Sample { size, .. } => taken.min(size),
        Selection::All | Selection::Shard(_) => taken,
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::corpus::{Format, Source};
    use crate::experiment::Shard;

    fn walk(files: &[&str]) -> Walk {
        let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        Walk::new(
            files
                .iter()
                .map(|file| Source {
                    path: root.join(file),
                    format: Format::Auto,
                    shape: None,
                    variant: None,
                })
                .collect(),
        )
    }

    #[test]
    fn puzzles_are_counted_as_the_run_takes_them() {
        // 2 + 10 puzzles; malformed records and comments are not puzzles.
        let files = ["corpora/reference.txt", "corpora/minimal-16x16.txt"];
        let count = |selection| count_selected(walk(&files), selection, || false);
        assert_eq!(count(Selection::All), Some(12));
        let shards: Vec<Option<u64>> = (1..=5)
            .map(|index| count(Selection::Shard(Shard { index, count: 5 })))
            .collect();
        assert_eq!(shards, [Some(3), Some(3), Some(2), Some(2), Some(2)]);
        assert_eq!(count(Selection::Sample { size: 5, seed: 1 }), Some(5));
        assert_eq!(count(Selection::Sample { size: 50, seed: 1 }), Some(12));
        let malformed = ["corpora/malformed/wrong-length.txt"];
        let valid = count_selected(walk(&malformed), Selection::All, || false);
        let items = Items::new(walk(&malformed), Vec::new(), |_| {}).count() as u64;
        assert_eq!(valid, Some(items));
    }

    #[test]
    fn counting_gives_up_when_asked() {
        let text = "4..3.....1....2.\n".repeat(10_000);
        let dir = std::env::temp_dir().join(format!("sudolab-count-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("many.txt");
        std::fs::write(&file, text).unwrap();
        let many = || {
            Walk::new(vec![Source {
                path: file.clone(),
                format: Format::Auto,
                shape: None,
                variant: None,
            }])
        };
        assert_eq!(
            count_selected(many(), Selection::All, || false),
            Some(10_000)
        );
        let mut asked = 0;
        let counted = count_selected(many(), Selection::All, || {
            asked += 1;
            asked > 1
        });
        assert_eq!((counted, asked), (None, 2));
    }
}
