//! `fast`'s clause-learning search on 25x25 boards: a bundled minimal puzzle decided, with its
//! bundled solution and the deterministic node count of the learning search.

use std::path::Path;

use sudolab::corpus::{Format, Reader};
use sudolab::model::validate;
use sudolab::strategy::{self, Counter, Limits, Verdict};

/// The third bundled minimal 25x25 puzzle (the one the plain search could not decide within
/// 20 s and learning decides in under a second of release CPU time): counting to two proves
/// it unique, the one solution is the bundled one, and the node count (the plain search's 16
/// and the 17th that hands over, then one per decision of the learning search) is pinned so
/// that a change of the algorithm shows.
#[test]
fn fast_learning_decides_a_minimal_25x25_puzzle() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/minimal-25x25.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let record = Reader::new(text.as_bytes(), Format::Line, None)
        .nth(2)
        .unwrap()
        .unwrap();
    let (puzzle, bundled) = (record.puzzle, record.solution.unwrap());
    let mut solutions = Vec::new();
    let outcome =
        strategy::find("fast")
            .unwrap()
            .search(&puzzle, &Limits::solutions(2), &mut |grid| {
                assert_eq!(validate(&puzzle, grid), Ok(()));
                solutions.push(grid.cells().to_vec());
            });
    assert_eq!(solutions, [bundled.cells().to_vec()]);
    assert_eq!((outcome.found, outcome.verdict()), (1, Verdict::Unique));
    assert_eq!(outcome.stopped, None);
    assert_eq!(outcome.stats.get(Counter::Nodes), Some(17_086));
}
