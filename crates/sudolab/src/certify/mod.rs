//! Certificates that anyone can check: `sudolab certify` writes, for each puzzle, a bundle with
//! the puzzle, its verdict and what proves it (the format: `docs/certificates.md`), and
//! [`crate::certcheck`] (`sudolab check-cert`) checks it without trusting any of this.
//!
//! - unique: the solution, the blocking clause (no empty cell holds its digit of the
//!   solution) and an LRAT refutation of the CNF plus the blocking clause;
//! - multiple: two different solutions (they need no proof);
//! - none: an LRAT refutation of the CNF.
//!
//! The CNF is the extended encoding ([`Encoding::Extended`]) in its clause order, named
//! `sudolab-extended 1` in the bundle; the checker derives it again with its own encoder.
//! Two producers write the refutation: [`Producer::Tree`], the exact-cover search over the
//! CNF with unit propagation, whose decision paths are the proof's clauses (`tree.rs`), and
//! [`Producer::Sat`], a varisat solve turned into LRAT by `varisat-lrat` (`sat.rs`).
//! The verdict itself comes first, from the `fast` engine (up to 12x12) or `sat` (above).

mod sat;
mod tree;
mod unit;

use std::fmt::Write as _;

use crate::certcheck::{ENCODING, MAGIC};
use crate::encode::{Cnf, Encoding};
use crate::model::{Grid, cell_name, find_conflict, to_line};
use crate::strategy::{self, EngineChoice, Limits, Verdict};

use unit::Propagator;

crate::model::choice::choice! {
    /// Which proof producer writes the refutations.
    pub enum Producer ("producer", default Auto) {
        /// The tree where its proof is small (up to 32 bytes per variable of the CNF: 23 KB at
        /// 9x9), sat where it is not.
        Auto = "auto",
        /// The search tree: DLX-style branching over the CNF with unit propagation.
        Tree = "tree",
        /// varisat, its proof turned into LRAT by varisat-lrat.
        Sat = "sat",
    }
}

/// `auto`'s budget for a tree proof, in bytes per variable of the CNF.
const AUTO_TREE_BYTES_PER_VAR: u64 = 32;

/// The largest side certified: the checker's limit.
pub const MAX_SIDE: usize = crate::certcheck::MAX_SIDE;

/// The default proof budget: 64 MiB.
pub const DEFAULT_MAX_PROOF_BYTES: u64 = 64 << 20;

/// What to certify and how.
#[derive(Clone, Debug)]
pub struct Options {
    /// The proof producer.
    pub producer: Producer,
    /// Also write the refutation as DRAT.
    pub drat: bool,
    /// Give up on a puzzle whose proof passes this many bytes.
    pub max_proof_bytes: u64,
    /// Claim minimality: one witness per clue.
    pub minimal: bool,
    /// Limits of the search that decides the verdict first (`fast`).
    pub limits: Limits,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            producer: Producer::Auto,
            drat: false,
            max_proof_bytes: DEFAULT_MAX_PROOF_BYTES,
            minimal: false,
            limits: Limits::default(),
        }
    }
}

/// A written certificate.
#[derive(Clone, Debug)]
pub struct Certificate {
    /// The verdict it proves: none, unique or multiple.
    pub verdict: Verdict,
    /// The bundle's text.
    pub text: String,
    /// The refutation as DRAT, when asked for and there is one.
    pub drat: Option<String>,
    /// Clauses the LRAT proof adds (0 without a proof).
    pub lemmas: usize,
    /// Bytes of the LRAT proof (0 without a proof).
    pub proof_bytes: usize,
    /// The producer that wrote the proof (tree or sat; `None` without a proof).
    pub producer: Option<Producer>,
    /// With `minimal`: a clue that can go without losing uniqueness (so no minimality claim).
    pub redundant_clue: Option<String>,
}

/// Why no certificate was written.
#[derive(Debug, thiserror::Error)]
pub enum CertifyError {
    /// A variant: the certificate's encoding (and its independent checker) is plain Sudoku's.
    #[error(
        "certificates encode plain Sudoku (sudolab-extended 1), and their checker knows no {0} \
         rules"
    )]
    Variant(String),
    /// The board is too large for the checker.
    #[error("a {0}x{0} board is larger than certificates take ({MAX_SIDE}x{MAX_SIDE})")]
    TooLargeBoard(usize),
    /// No engine takes the puzzle.
    #[error("no engine decides it: {0}")]
    NoEngine(String),
    /// The search that decides the verdict stopped first.
    #[error("the search that decides the verdict stopped first ({0})")]
    Undecided(String),
    /// The proof would pass the byte budget.
    #[error(
        "the {producer} producer's proof passed the budget of {max} bytes (--max-proof-bytes); \
         no certificate written"
    )]
    TooLarge {
        /// The producer.
        producer: Producer,
        /// The budget.
        max: u64,
    },
    /// A producer failed where it should not (a bug).
    #[error("the {producer} producer failed: {reason}")]
    Producer {
        /// The producer.
        producer: Producer,
        /// What went wrong.
        reason: String,
    },
}

/// Certifies one puzzle; `source` is written into the bundle (where the puzzle came from).
pub fn certify(
    puzzle: &Grid,
    source: &str,
    options: &Options,
) -> Result<Certificate, CertifyError> {
    if let Some(rules) = puzzle.rules() {
        return Err(CertifyError::Variant(rules.name()));
    }
    let side = puzzle.side();
    if side > MAX_SIDE {
        return Err(CertifyError::TooLargeBoard(side));
    }
    let engine = verdict_engine(puzzle)?;
    let mut solutions: Vec<Grid> = Vec::new();
    let outcome = if find_conflict(puzzle).is_some() {
        None
    } else {
        let limits = options.limits.clone().with_max_solutions(2);
        Some(engine.search(puzzle, &limits, &mut |grid| solutions.push(grid.clone())))
    };
    let verdict = outcome
        .as_ref()
        .map_or(Verdict::None, strategy::Outcome::verdict);
    let cnf = Cnf::build(puzzle, Encoding::Extended);
    let mut text = header(puzzle, source, verdict)?;
    let mut certificate = Certificate {
        verdict,
        text: String::new(),
        drat: None,
        lemmas: 0,
        proof_bytes: 0,
        producer: None,
        redundant_clue: None,
    };
    match verdict {
        Verdict::Multiple => {
            for solution in &solutions[..2] {
                let _ = writeln!(text, "solution {}", numbers(solution));
            }
            text.push_str("end\n");
        }
        Verdict::Unique | Verdict::None => {
            let blocking = if verdict == Verdict::Unique {
                let solution = &solutions[0];
                let blocking = cnf.blocking_clause(solution);
                let _ = writeln!(text, "solution {}", numbers(solution));
                let _ = writeln!(text, "blocking {}", clause_text(&blocking));
                if options.minimal {
                    match witnesses(puzzle, solution, &options.limits)? {
                        Ok(witnesses) => {
                            text.push_str("minimal yes\n");
                            text.push_str(&witnesses);
                        }
                        Err(clue) => certificate.redundant_clue = Some(clue),
                    }
                }
                Some(blocking)
            } else {
                None
            };
            let (lrat, drat, producer) = prove(&cnf, blocking.as_deref(), options)?;
            certificate.lemmas = lrat.lines().filter(|line| !is_deletion(line)).count();
            certificate.proof_bytes = lrat.len();
            certificate.producer = Some(producer);
            let _ = writeln!(
                text,
                "producer {producer}\nproof lrat {} {}",
                certificate.lemmas, certificate.proof_bytes
            );
            text.push_str(&lrat);
            text.push_str("end\n");
            certificate.drat = drat;
        }
        Verdict::Solved | Verdict::Unknown => unreachable!("checked in header"),
    }
    certificate.text = text;
    Ok(certificate)
}

/// The engine that decides the verdict (and finds the solutions and witnesses): the `auto`
/// choice ([`EngineChoice::Auto`]), as `generate --checker auto` makes it.
fn verdict_engine(puzzle: &Grid) -> Result<&'static dyn strategy::Strategy, CertifyError> {
    EngineChoice::Auto
        .resolve(puzzle)
        .map_err(|err| CertifyError::NoEngine(err.to_string()))
}

/// The bundle's first lines, up to the verdict.
fn header(puzzle: &Grid, source: &str, verdict: Verdict) -> Result<String, CertifyError> {
    let verdict_word = match verdict {
        Verdict::Unique => "unique",
        Verdict::Multiple => "multiple",
        Verdict::None => "none",
        Verdict::Solved | Verdict::Unknown => {
            return Err(CertifyError::Undecided(
                "give the verdict search more time with --timeout".to_string(),
            ));
        }
    };
    let shape = puzzle.shape();
    let mut text = String::new();
    let _ = writeln!(text, "{MAGIC}");
    let _ = writeln!(text, "source {}", source.replace(['\n', '\r'], " "));
    if let Some(line) = to_line(puzzle) {
        let _ = writeln!(text, "c puzzle {line}");
    }
    let _ = writeln!(text, "box {} {}", shape.box_rows(), shape.box_cols());
    let _ = writeln!(text, "puzzle {}", numbers(puzzle));
    let _ = writeln!(text, "encoding {ENCODING}");
    let _ = writeln!(text, "verdict {verdict_word}");
    Ok(text)
}

/// A grid's cells as numbers, 0 for empty.
fn numbers(grid: &Grid) -> String {
    let mut text = String::with_capacity(grid.cells().len() * 3);
    for (at, &cell) in grid.cells().iter().enumerate() {
        if at > 0 {
            text.push(' ');
        }
        let _ = write!(text, "{cell}");
    }
    text
}

fn clause_text(clause: &[i32]) -> String {
    let mut text = String::new();
    for lit in clause {
        let _ = write!(text, "{lit} ");
    }
    text.push('0');
    text
}

fn is_deletion(line: &str) -> bool {
    line.split_ascii_whitespace().nth(1) == Some("d")
}

/// One witness line per clue (a solution without that clue that differs from `solution`
/// there), or the first clue that can go without losing uniqueness.
fn witnesses(
    puzzle: &Grid,
    solution: &Grid,
    limits: &Limits,
) -> Result<Result<String, String>, CertifyError> {
    let engine = verdict_engine(puzzle)?;
    let limits = limits.clone().with_max_solutions(2);
    let mut text = String::new();
    let shape = puzzle.shape();
    for cell in 0..puzzle.cells().len() {
        if puzzle.get(cell) == 0 {
            continue;
        }
        let mut reduced = puzzle.clone();
        reduced.set(cell, 0);
        let mut other = None;
        let outcome = engine.search(&reduced, &limits, &mut |grid| {
            if grid.get(cell) != solution.get(cell) {
                other.get_or_insert_with(|| grid.clone());
            }
        });
        match (other, outcome.verdict()) {
            (Some(witness), _) => {
                let _ = writeln!(
                    text,
                    "witness {} {}",
                    cell_name(shape, cell),
                    numbers(&witness)
                );
            }
            (None, Verdict::Unique) => return Ok(Err(cell_name(shape, cell))),
            (None, verdict) => {
                return Err(CertifyError::Undecided(format!(
                    "without clue {} the search said {verdict:?}",
                    cell_name(shape, cell)
                )));
            }
        }
    }
    Ok(Ok(text))
}

/// Keeps only the clauses of an LRAT refutation that the empty clause needs, following the
/// hints back from it; deletions are dropped. A producer's bug (an unreadable line) leaves the
/// text as it was, for the checker to reject.
fn trim_lrat(text: &str) -> String {
    let mut steps: Vec<(u64, &str, Vec<u64>)> = Vec::new();
    for line in text.lines() {
        if is_deletion(line) {
            continue;
        }
        let mut numbers = line.split_ascii_whitespace().map(str::parse::<i64>);
        let Some(Ok(id)) = numbers.next() else {
            return text.to_string();
        };
        // Skip the literals up to their 0, then read the hints up to theirs.
        let mut hints = Vec::new();
        let mut zeros = 0;
        for number in numbers {
            let Ok(number) = number else {
                return text.to_string();
            };
            if number == 0 {
                zeros += 1;
            } else if zeros == 1 {
                hints.push(number.unsigned_abs());
            }
        }
        steps.push((id.unsigned_abs(), line, hints));
    }
    let mut needed: std::collections::HashSet<u64> = std::collections::HashSet::new();
    let mut keep = vec![false; steps.len()];
    if let Some(last) = steps.len().checked_sub(1) {
        needed.insert(steps[last].0);
    }
    for (at, (id, _, hints)) in steps.iter().enumerate().rev() {
        if needed.contains(id) {
            keep[at] = true;
            needed.extend(hints.iter().copied());
        }
    }
    let mut trimmed = String::with_capacity(text.len());
    for ((_, line, _), kept) in steps.iter().zip(keep) {
        if kept {
            trimmed.push_str(line);
            trimmed.push('\n');
        }
    }
    trimmed
}

/// What a producer wrote: the LRAT proof, the DRAT one when asked for, and which producer.
type Proofs = (String, Option<String>, Producer);

/// The LRAT refutation (and the DRAT one, when asked for) of the CNF plus `blocking`.
fn prove(cnf: &Cnf, blocking: Option<&[i32]>, options: &Options) -> Result<Proofs, CertifyError> {
    let max = options.max_proof_bytes;
    match options.producer {
        Producer::Auto => {
            let cap = max.min(AUTO_TREE_BYTES_PER_VAR * cnf.var_count() as u64);
            // The search's clauses are about a hundredth of their LRAT text; a sixteenth of the
            // cap stops a tree that is going to be too large early.
            match prove_with(Producer::Tree, cnf, blocking, options.drat, cap / 16, cap) {
                Err(CertifyError::TooLarge { .. }) => {
                    prove_with(Producer::Sat, cnf, blocking, options.drat, max, max)
                }
                other => other,
            }
        }
        producer => prove_with(producer, cnf, blocking, options.drat, max, max),
    }
}

/// One producer's proofs; the search (tree) stops past `search_max` bytes of clauses, the LRAT
/// text past `max`.
fn prove_with(
    producer: Producer,
    cnf: &Cnf,
    blocking: Option<&[i32]>,
    drat: bool,
    search_max: u64,
    max: u64,
) -> Result<Proofs, CertifyError> {
    let too_large = CertifyError::TooLarge { producer, max };
    let failed = |reason: String| CertifyError::Producer { producer, reason };
    let clauses = || cnf.clauses().chain(blocking);
    match producer {
        Producer::Sat | Producer::Auto => match sat::refute(clauses(), drat, max) {
            Ok(proof) => Ok((trim_lrat(&proof.lrat), proof.drat, Producer::Sat)),
            Err(sat::SatStop::TooLarge) => Err(too_large),
            Err(sat::SatStop::Satisfiable) => Err(failed(
                "varisat found a model the verdict search did not".to_string(),
            )),
            Err(sat::SatStop::Failed(reason)) => Err(failed(reason)),
        },
        Producer::Tree => {
            let mut store = Propagator::new(cnf.var_count());
            let mut branch = Vec::new();
            for clause in clauses() {
                let index = store.add(clause);
                if clause.len() >= 2 && clause.iter().all(|&lit| lit > 0) {
                    branch.push(index);
                }
            }
            let lemmas = match tree::refute(&mut store, &branch, search_max) {
                Ok(lemmas) => lemmas,
                Err(tree::TreeStop::TooLarge) => return Err(too_large),
                Err(tree::TreeStop::Model(_)) => {
                    return Err(failed(
                        "the search found a model the verdict search did not".to_string(),
                    ));
                }
            };
            let lrat = match tree::to_lrat(&mut store, &lemmas, max) {
                Ok(lrat) => lrat,
                Err(tree::LratStop::TooLarge) => return Err(too_large),
                Err(tree::LratStop::NotRup(number)) => {
                    return Err(failed(format!(
                        "clause {} of its proof is not RUP",
                        number + 1
                    )));
                }
            };
            let drat = drat.then(|| {
                lemmas
                    .iter()
                    .map(|lemma| clause_text(lemma) + "\n")
                    .collect::<String>()
            });
            Ok((trim_lrat(&lrat), drat, Producer::Tree))
        }
    }
}
