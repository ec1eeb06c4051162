#![no_main]
//! Every registered strategy on small puzzles made from the input, against a brute-force
//! solution counter written here (it shares no code with the library).
//!
//! Input: byte 0 picks the box shape (rows `b % 3 + 1`, columns `b / 3 % 3 + 1`: sides 1 to 9,
//! among them 2x2 (4x4), 2x3 and 3x2 (6x6) and 3x3 (9x9)); byte 1 the kind of puzzle; byte 2
//! the density of givens; the rest drives the choices (missing bytes read as 0).
//! - kind 0: random givens, which may clash;
//! - kind 1: a valid solution grid (a pattern grid shuffled by digit relabelling, row and band
//!   swaps, column and stack swaps) with the givens kept by the density;
//! - kind 2: as kind 1, then one to three givens changed (often no solution, or several).
//!
//! On 9x9, kinds 1 and 2 keep at least about 30 givens, so that the brute force and `dlx` (whose
//! crate takes no node budget) stay fast.
//!
//! The brute force counts up to 3 solutions (MRV backtracking on bit masks), within 300,000
//! nodes; past that the input is skipped. Then each registered engine that supports the shape
//! runs `search` (up to 3 solutions), `count_up_to(2)`, `solve` and, when traceable,
//! `trace::record` (on 9x9 the `sat*` engines run `search` only: clause loading dominates), with a node budget and a time budget (a stop is allowed; a wrong answer is
//! not). Checks:
//! - every reported grid is a valid solution of the puzzle (the library's `validate` and the
//!   harness's own check) and solutions are reported once each;
//! - `found` is the number of callbacks;
//! - an exhausted search found exactly the brute-force count, and the same solutions;
//! - a search stopped at the solution limit found 3 and the brute force finds at least 3;
//! - any other stop found no more than exist;
//! - every definite verdict (search, count_up_to, solve, trace) is the brute-force verdict;
//! - an engine reports only the counters it declares.
use std::collections::BTreeSet;
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use sudolab::model::{Grid, Shape, validate};
use sudolab::strategy::{self, Counter, Limits, Outcome, Stop, Verdict};

/// The solutions the brute force collects (at most `LIMIT`).
const LIMIT: u64 = 3;
/// The brute force's node budget; past it the input is skipped.
const BRUTE_NODES: u64 = 300_000;

/// Reads the input's bytes in order; 0 once they run out.
struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        let byte = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        byte
    }

    /// A value below `n` (`n >= 1`).
    fn below(&mut self, n: usize) -> usize {
        self.next() as usize % n
    }
}

/// The board seen by the brute force: cells row-major, 0 for empty.
struct Board {
    br: usize,
    bc: usize,
    n: usize,
    cells: Vec<u8>,
}

impl Board {
    fn box_of(&self, cell: usize) -> usize {
        let (r, c) = (cell / self.n, cell % self.n);
        (r / self.br) * (self.n / self.bc) + c / self.bc
    }

    /// Whether two givens clash in a row, column or box.
    fn givens_clash(&self) -> bool {
        let n = self.n;
        (0..n * n).any(|a| {
            self.cells[a] != 0
                && (a + 1..n * n).any(|b| {
                    self.cells[a] == self.cells[b]
                        && (a / n == b / n || a % n == b % n || self.box_of(a) == self.box_of(b))
                })
        })
    }

    /// Whether `grid` is complete, keeps the givens and has every house a permutation.
    fn solves(&self, grid: &[u8]) -> bool {
        let n = self.n;
        if grid.len() != n * n {
            return false;
        }
        if grid.iter().any(|&v| v == 0 || v as usize > n) {
            return false;
        }
        if self.cells.iter().zip(grid).any(|(&g, &v)| g != 0 && g != v) {
            return false;
        }
        let mut rows = vec![0u64; n];
        let mut cols = vec![0u64; n];
        let mut boxes = vec![0u64; n];
        for (cell, &v) in grid.iter().enumerate() {
            let bit = 1u64 << v;
            for (set, idx) in [
                (&mut rows, cell / n),
                (&mut cols, cell % n),
                (&mut boxes, self.box_of(cell)),
            ] {
                if set[idx] & bit != 0 {
                    return false;
                }
                set[idx] |= bit;
            }
        }
        true
    }
}

/// Counts solutions up to `LIMIT`, collecting them; `None` when the node budget ran out.
fn brute_force(board: &Board) -> Option<Vec<Vec<u8>>> {
    struct Search<'a> {
        board: &'a Board,
        rows: Vec<u64>,
        cols: Vec<u64>,
        boxes: Vec<u64>,
        cells: Vec<u8>,
        found: Vec<Vec<u8>>,
        nodes: u64,
    }
    impl Search<'_> {
        /// `Some(true)`: stop (limit reached); `None`: out of nodes.
        fn run(&mut self) -> Option<bool> {
            self.nodes += 1;
            if self.nodes > BRUTE_NODES {
                return None;
            }
            let n = self.board.n;
            let full = ((1u64 << (n + 1)) - 1) & !1;
            // The empty cell with the fewest candidates.
            let mut best: Option<(usize, u64)> = None;
            for cell in 0..n * n {
                if self.cells[cell] != 0 {
                    continue;
                }
                let used =
                    self.rows[cell / n] | self.cols[cell % n] | self.boxes[self.board.box_of(cell)];
                let cand = full & !used;
                if best.is_none_or(|(_, b)| cand.count_ones() < b.count_ones()) {
                    best = Some((cell, cand));
                    if cand == 0 {
                        break;
                    }
                }
            }
            let Some((cell, cand)) = best else {
                self.found.push(self.cells.clone());
                return Some(self.found.len() as u64 >= LIMIT);
            };
            let (r, c, b) = (cell / n, cell % n, self.board.box_of(cell));
            for d in 1..=n as u8 {
                let bit = 1u64 << d;
                if cand & bit == 0 {
                    continue;
                }
                self.cells[cell] = d;
                self.rows[r] |= bit;
                self.cols[c] |= bit;
                self.boxes[b] |= bit;
                let stop = self.run();
                self.cells[cell] = 0;
                self.rows[r] &= !bit;
                self.cols[c] &= !bit;
                self.boxes[b] &= !bit;
                match stop {
                    Some(false) => {}
                    other => return other,
                }
            }
            Some(false)
        }
    }
    if board.givens_clash() {
        return Some(Vec::new());
    }
    let n = board.n;
    let mut search = Search {
        board,
        rows: vec![0; n],
        cols: vec![0; n],
        boxes: vec![0; n],
        cells: board.cells.clone(),
        found: Vec::new(),
        nodes: 0,
    };
    for (cell, &v) in board.cells.iter().enumerate() {
        if v != 0 {
            let bit = 1u64 << v;
            search.rows[cell / n] |= bit;
            search.cols[cell % n] |= bit;
            search.boxes[board.box_of(cell)] |= bit;
        }
    }
    search.run()?;
    Some(search.found)
}

/// A valid solution grid: the pattern grid of the shape, shuffled by the input.
fn solution_grid(bytes: &mut Bytes, br: usize, bc: usize) -> Vec<u8> {
    let n = br * bc;
    // Relabel digits with a permutation (Fisher-Yates driven by the input).
    let mut digits: Vec<u8> = (1..=n as u8).collect();
    for i in (1..n).rev() {
        digits.swap(i, bytes.below(i + 1));
    }
    // Rows: permute the bands, then the rows within each band (same for columns and stacks).
    let order = |groups: usize, size: usize, bytes: &mut Bytes| -> Vec<usize> {
        let mut bands: Vec<usize> = (0..groups).collect();
        for i in (1..groups).rev() {
            bands.swap(i, bytes.below(i + 1));
        }
        let mut out = Vec::with_capacity(groups * size);
        for band in bands {
            let mut inner: Vec<usize> = (0..size).collect();
            for i in (1..size).rev() {
                inner.swap(i, bytes.below(i + 1));
            }
            out.extend(inner.into_iter().map(|k| band * size + k));
        }
        out
    };
    // Row bands are `bc` groups of `br` rows; column stacks are `br` groups of `bc` columns.
    let rows = order(bc, br, bytes);
    let cols = order(br, bc, bytes);
    let pattern = |r: usize, c: usize| (bc * (r % br) + r / br + c) % n;
    let mut grid = vec![0u8; n * n];
    for r in 0..n {
        for c in 0..n {
            grid[r * n + c] = digits[pattern(rows[r], cols[c])];
        }
    }
    grid
}

fn expected_verdict(truth: u64) -> Verdict {
    match truth {
        0 => Verdict::None,
        1 => Verdict::Unique,
        _ => Verdict::Multiple,
    }
}

/// A definite verdict must be the brute force's.
fn check_verdict(what: &str, verdict: Verdict, truth: u64, context: &str) {
    if verdict != Verdict::Unknown {
        assert_eq!(
            verdict,
            expected_verdict(truth),
            "{what}: wrong verdict; {context}"
        );
    }
}

/// An engine reports only the counters it declares.
fn check_counters(name: &str, declared: &[Counter], outcome: &Outcome, context: &str) {
    for (counter, _) in outcome.stats.iter() {
        assert!(
            declared.contains(&counter),
            "{name} reports counter {} it does not declare; {context}",
            counter.name()
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes { data, at: 0 };
    let shape_byte = bytes.next();
    let (br, bc) = (
        (shape_byte % 3) as usize + 1,
        (shape_byte / 3 % 3) as usize + 1,
    );
    let n = br * bc;
    let kind = bytes.next() % 3;
    let density = bytes.next();
    let cells: Vec<u8> = if kind == 0 {
        (0..n * n)
            .map(|_| {
                let b = bytes.next();
                if b < density { b % n as u8 + 1 } else { 0 }
            })
            .collect()
    } else {
        let solution = solution_grid(&mut bytes, br, bc);
        // Keep each given with probability about density/256 (at least 3/8 on 9x9).
        let keep_at_least = if n == 9 { 96 } else { 0 };
        let threshold = density.max(keep_at_least);
        let mut cells: Vec<u8> = solution
            .iter()
            .map(|&v| if bytes.next() < threshold { v } else { 0 })
            .collect();
        if kind == 2 {
            for _ in 0..=bytes.below(3) {
                let cell = bytes.below(n * n);
                cells[cell] = bytes.below(n + 1) as u8;
            }
        }
        cells
    };

    let board = Board {
        br,
        bc,
        n,
        cells: cells.clone(),
    };
    let Some(truth_solutions) = brute_force(&board) else {
        return; // the reference could not decide within its budget: nothing to compare
    };
    let truth = truth_solutions.len() as u64;
    let truth_set: BTreeSet<Vec<u8>> = truth_solutions.into_iter().collect();
    assert_eq!(
        truth_set.len() as u64,
        truth,
        "the brute force found a solution twice"
    );
    for solution in &truth_set {
        assert!(board.solves(solution), "the brute force is wrong");
    }

    let shape = Shape::new(br, bc).expect("1..=3 by construction");
    let puzzle = Grid::from_cells(shape, cells.clone()).expect("values in 0..=n by construction");
    let context =
        format!("box {br}x{bc}, puzzle {cells:?}, brute force {truth} (capped at {LIMIT})");
    let limits = Limits::default()
        .with_max_nodes(500_000)
        .with_timeout(Duration::from_secs(10));

    for engine in strategy::registry() {
        let name = engine.name();
        if engine.supports(shape).is_err() {
            continue;
        }
        // search, up to LIMIT solutions.
        let mut seen: Vec<Vec<u8>> = Vec::new();
        let mut calls = 0u64;
        let mut invalid = None;
        let outcome = engine.search(
            &puzzle,
            &limits.clone().with_max_solutions(LIMIT),
            &mut |grid| {
                calls += 1;
                if let Err(err) = validate(&puzzle, grid) {
                    invalid.get_or_insert_with(|| format!("{err}: {:?}", grid.cells()));
                } else if !board.solves(grid.cells()) {
                    invalid.get_or_insert_with(|| {
                        format!("validate passed a non-solution {:?}", grid.cells())
                    });
                }
                seen.push(grid.cells().to_vec());
            },
        );
        assert!(
            invalid.is_none(),
            "{name} reported an invalid solution {invalid:?}; {context}"
        );
        assert_eq!(
            outcome.found, calls,
            "{name}: found {} but {calls} callbacks; {context}",
            outcome.found
        );
        let seen_set: BTreeSet<Vec<u8>> = seen.iter().cloned().collect();
        assert_eq!(
            seen_set.len(),
            seen.len(),
            "{name} reported a solution twice; {context}"
        );
        match outcome.stopped {
            None => {
                assert_eq!(
                    outcome.found, truth,
                    "{name} exhausted its tree with {} solutions; {context}",
                    outcome.found
                );
                assert_eq!(
                    seen_set, truth_set,
                    "{name} found other solutions; {context}"
                );
            }
            Some(Stop::SolutionLimit) => {
                assert_eq!(
                    outcome.found, LIMIT,
                    "{name} stopped at the solution limit with {} found; {context}",
                    outcome.found
                );
                assert_eq!(truth, LIMIT, "{name} found {LIMIT} solutions; {context}");
            }
            Some(Stop::Unsupported) => {
                panic!("{name} supports {shape} but answered unsupported; {context}")
            }
            Some(_) => {
                assert!(
                    outcome.found <= truth,
                    "{name} found {} solutions; {context}",
                    outcome.found
                );
            }
        }
        check_verdict(
            &format!("{name} search"),
            outcome.verdict(),
            truth,
            &context,
        );
        check_counters(name, engine.counters(), &outcome, &context);

        // On 9x9 the sat engines spend most of the run loading their clauses into varisat
        // (instrumented); their count_up_to and solve are the trait's provided methods over the
        // same search, so only `search` runs there.
        if n > 6 && name.starts_with("sat") {
            continue;
        }

        // count_up_to(2), the path `count` and `compare` take.
        let counted = engine.count_up_to(&puzzle, 2, &limits);
        assert!(
            counted.found <= truth.min(2),
            "{name} count_up_to(2) found {}; {context}",
            counted.found
        );
        check_verdict(
            &format!("{name} count_up_to"),
            counted.verdict(),
            truth,
            &context,
        );
        check_counters(name, engine.counters(), &counted, &context);

        // solve, the path `solve` takes.
        let (solution, solved) = engine.solve(&puzzle, &limits);
        match &solution {
            Some(grid) => {
                assert_eq!(validate(&puzzle, grid), Ok(()), "{name} solve; {context}");
                // The brute force collected every solution when it found fewer than LIMIT.
                assert!(
                    truth >= LIMIT || truth_set.contains(grid.cells()),
                    "{name} solve returned a solution the brute force does not know; {context}"
                );
            }
            None => assert!(
                truth == 0 || solved.stopped.is_some(),
                "{name} solve found nothing in a complete search; {context}"
            ),
        }
        assert_eq!(
            solved.found,
            u64::from(solution.is_some()),
            "{name} solve: found {}; {context}",
            solved.found
        );

        // The trace, for the engines `sudolab trace` takes.
        if engine.traceable() {
            let traced = sudolab::trace::record(*engine, &puzzle, 2, &limits, 100_000)
                .unwrap_or_else(|err| panic!("{name} says traceable but: {err}"));
            assert!(
                traced.solutions <= truth.min(2),
                "trace of {name} found {}; {context}",
                traced.solutions
            );
            check_verdict(&format!("trace of {name}"), traced.verdict, truth, &context);
            if !traced.cut && traced.stopped.is_none() {
                assert_eq!(
                    traced.solutions,
                    truth.min(2),
                    "trace of {name} exhausted; {context}"
                );
            }
        }
    }
});
