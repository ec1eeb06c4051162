#![no_main]
//! `certcheck::check_text`, the checker behind `sudolab check-cert`, on any UTF-8 text.
//!
//! Checks: no panic; a failure names a known step and a reason; and soundness against an
//! engine: a certificate that checks says what `fast` finds on the same puzzle (boards up to
//! 9x9): verdict unique means exactly one solution (the certificate's), none means none,
//! multiple means at least two.
use libfuzzer_sys::fuzz_target;
use sudolab::certcheck::{self, Verdict};
use sudolab::model::{Grid, Shape};
use sudolab::strategy::{self, Limits};

const STEPS: [&str; 6] = [
    "format", "puzzle", "solution", "blocking", "witness", "proof",
];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let bundle = match certcheck::parse(text) {
        Ok(bundle) => bundle,
        Err(failure) => {
            assert!(STEPS.contains(&failure.step.as_str()) && !failure.reason.is_empty());
            return;
        }
    };
    let verified = match certcheck::check(&bundle) {
        Ok(verified) => verified,
        Err(failure) => {
            assert!(STEPS.contains(&failure.step.as_str()) && !failure.reason.is_empty());
            return;
        }
    };
    let (rows, cols) = bundle.box_shape;
    if rows * cols > 9 {
        return;
    }
    let shape = Shape::new(rows, cols).expect("the checker took the shape");
    let puzzle =
        Grid::from_cells(shape, bundle.puzzle.clone()).expect("the checker took the cells");
    let fast = strategy::find("fast").unwrap();
    let mut found: Vec<Grid> = Vec::new();
    let outcome = fast.search(&puzzle, &Limits::solutions(2), &mut |grid| {
        found.push(grid.clone())
    });
    assert!(
        outcome.stopped.is_none() || found.len() == 2,
        "fast gave up"
    );
    match verified.verdict {
        Verdict::Unique => {
            assert_eq!(
                found.len(),
                1,
                "a unique certificate for a puzzle with {} solutions",
                found.len()
            );
            assert_eq!(found[0].cells(), &bundle.solutions[0][..]);
        }
        Verdict::None => assert!(
            found.is_empty(),
            "a no-solution certificate for a solvable puzzle"
        ),
        Verdict::Multiple => assert_eq!(found.len(), 2),
    }
});
