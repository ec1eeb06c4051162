//! The certificate checker of `sudolab check-cert`: reads a certificate bundle, re-derives the
//! CNF from the puzzle with its own encoder ([`rules`]), checks the solutions against the rules
//! and the givens, the blocking clause against the solution, the minimality witnesses, and the
//! LRAT refutation with its own checker ([`lrat`]).
//!
//! This crate is the trust base, kept small on purpose: it depends on no other crate, sudolab's
//! included (its `Cargo.toml` has no dependencies), only the standard library, so that a fault
//! in the solvers or their encoders cannot make a wrong certificate pass. The bundle
//! format is documented in `docs/certificates.md`.

pub mod lrat;
pub mod outside;
pub mod rules;

use rules::Formula;

/// The first line of every certificate.
pub const MAGIC: &str = "sudolab-certificate 1";
/// The encoding this checker derives.
pub const ENCODING: &str = "sudolab-extended 1";
/// The largest side the checker accepts (a 36x36 formula has 46,656 variables and millions of
/// clauses).
pub const MAX_SIDE: usize = 36;

/// Why a certificate does not check: the step that failed (`format`, `puzzle`, `solution`,
/// `blocking`, `witness`, `proof`, or an outside checker's name) and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The failed step.
    pub step: String,
    /// What is wrong.
    pub reason: String,
}

impl Failure {
    fn new(step: &str, reason: impl Into<String>) -> Failure {
        Failure {
            step: step.to_string(),
            reason: reason.into(),
        }
    }
}

/// The claim a certificate makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Exactly one solution: the solution, and a refutation of the CNF plus the blocking clause.
    Unique,
    /// At least two solutions: two different solutions.
    Multiple,
    /// No solution: a refutation of the CNF.
    None,
}

impl Verdict {
    /// The word used in the bundle.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Unique => "unique",
            Verdict::Multiple => "multiple",
            Verdict::None => "none",
        }
    }
}

/// A certificate read from its text, not yet checked.
#[derive(Clone, Debug)]
pub struct Bundle {
    /// Where the puzzle came from (free text).
    pub source: String,
    /// Box rows and columns.
    pub box_shape: (usize, usize),
    /// The givens, `n * n` numbers, 0 for an empty cell.
    pub puzzle: Vec<u8>,
    /// The claim.
    pub verdict: Verdict,
    /// One solution (unique), two (multiple) or none.
    pub solutions: Vec<Vec<u8>>,
    /// The blocking clause (unique).
    pub blocking: Option<Vec<i32>>,
    /// Whether the certificate claims the puzzle minimal.
    pub minimal: bool,
    /// Minimality witnesses: the clue's row and column (0-based) and a solution of the puzzle
    /// without that clue.
    pub witnesses: Vec<((usize, usize), Vec<u8>)>,
    /// Which producer wrote the proof.
    pub producer: String,
    /// The LRAT refutation (unique and none).
    pub proof: Option<String>,
    /// The lemma count and byte size the proof header states.
    pub proof_header: (usize, usize),
}

impl Bundle {
    /// The side of the board.
    pub fn side(&self) -> usize {
        self.box_shape.0 * self.box_shape.1
    }

    /// The givens in sudolab's line form (`.` for an empty cell, then `1`-`9` and `A`-`Z`),
    /// which holds sides up to 35; a 36x36 board as its numbers joined by commas.
    pub fn puzzle_text(&self) -> String {
        const SYMBOLS: &[u8] = b".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
        let symbols: Option<String> = self
            .puzzle
            .iter()
            .map(|&given| {
                SYMBOLS
                    .get(usize::from(given))
                    .map(|&byte| char::from(byte))
            })
            .collect();
        match symbols {
            Some(line) if self.side() < SYMBOLS.len() => line,
            _ => {
                let numbers: Vec<String> = self.puzzle.iter().map(u8::to_string).collect();
                numbers.join(",")
            }
        }
    }

    /// The formula the proof refutes: the rules and the givens, then the blocking clause.
    pub fn formula(&self) -> Formula {
        let mut formula = rules::encode(self.box_shape.0, self.box_shape.1, &self.puzzle);
        if let Some(blocking) = &self.blocking {
            formula.push(blocking);
        }
        formula
    }
}

/// What a certificate proved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// The claim, now proved.
    pub verdict: Verdict,
    /// The producer named in the bundle.
    pub producer: String,
    /// Clauses the proof added.
    pub lemmas: usize,
    /// Bytes of the proof.
    pub proof_bytes: usize,
    /// Minimality witnesses checked.
    pub witnesses: usize,
}

/// The longest line of a certificate before its proof. The longest legitimate one, a
/// witness or solution of a 36x36 board, is under 5 KB; a blocking clause under 9 KB.
pub const MAX_LINE_BYTES: usize = 64 << 10;

/// The largest proof this checker reads, in bytes (the `proof lrat LEMMAS BYTES` header's
/// BYTES). `certify` writes proofs up to 64 MiB unless told otherwise; a larger header is
/// refused before the proof is read, so that memory stays a small multiple of this bound.
pub const MAX_PROOF_BYTES: usize = 1 << 30;

/// Reads a certificate's text.
pub fn parse(text: &str) -> Result<Bundle, Failure> {
    read(text.as_bytes())
}

/// Reads a certificate from a stream, line by line: no line before the proof may pass
/// [`MAX_LINE_BYTES`] and the proof may not pass its header's byte count, so an endless or
/// huge input is refused after at most about [`MAX_PROOF_BYTES`] bytes, never held whole.
pub fn read(mut input: impl std::io::BufRead) -> Result<Bundle, Failure> {
    let format = |reason: String| Failure::new("format", reason);
    let mut lines = Lines::new(&mut input);
    match lines.next(MAX_LINE_BYTES, BEFORE_PROOF)? {
        Some((_, first)) if first.trim_end() == MAGIC => {}
        Some((_, first)) => {
            return Err(format(format!(
                "not a sudolab certificate: the first line is '{}', not '{MAGIC}'",
                shorten(first.trim_end())
            )));
        }
        None => return Err(format("the file is empty".to_string())),
    }
    let mut fields = Fields::default();
    let mut ended = false;
    while let Some((at, raw)) = lines.next(MAX_LINE_BYTES, BEFORE_PROOF)? {
        let line = raw.trim_end();
        if line.is_empty() || line.starts_with("c ") || line == "c" {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "proof" => {
                let words: Vec<&str> = rest.split(' ').collect();
                let (Some(&"lrat"), Some(lemmas), Some(bytes)) = (
                    words.first(),
                    words.get(1).and_then(|w| w.parse::<usize>().ok()),
                    words.get(2).and_then(|w| w.parse::<usize>().ok()),
                ) else {
                    return Err(format(format!(
                        "line {at}: expected 'proof lrat LEMMAS BYTES', found '{}'",
                        shorten(line)
                    )));
                };
                if bytes > MAX_PROOF_BYTES {
                    return Err(Failure::new(
                        "proof",
                        format!(
                            "line {at}: the header announces {bytes} bytes of proof, more than \
                             this checker reads ({MAX_PROOF_BYTES})"
                        ),
                    ));
                }
                fields.proof_header = (lemmas, bytes);
                let (body, proof_ended) = read_proof(&mut lines, bytes)?;
                fields.proof = Some(body);
                ended = proof_ended;
                break;
            }
            "end" => {
                ended = true;
                break;
            }
            _ => fields.read(key, rest, line, at)?,
        }
    }
    if !ended {
        return Err(format(
            "the file ends before its 'end' line: truncated".to_string(),
        ));
    }
    while let Some((at, line)) = lines.next(MAX_LINE_BYTES, BEFORE_PROOF)? {
        if !line.trim().is_empty() {
            return Err(format(format!("line {at}: text after the 'end' line")));
        }
    }
    fields.finish()?;
    let box_shape = fields
        .box_shape
        .ok_or_else(|| format("no 'box' line".to_string()))?;
    let puzzle = fields
        .puzzle
        .ok_or_else(|| format("no 'puzzle' line".to_string()))?;
    let verdict = fields
        .verdict
        .ok_or_else(|| format("no 'verdict' line".to_string()))?;
    match fields.encoding.as_deref() {
        Some(ENCODING) => {}
        Some(other) => {
            return Err(format(format!(
                "encoding '{}' is not the one this checker derives ('{ENCODING}')",
                shorten(other)
            )));
        }
        None => return Err(format("no 'encoding' line".to_string())),
    }
    Ok(Bundle {
        source: fields.source,
        box_shape,
        puzzle,
        verdict,
        solutions: fields.solutions,
        blocking: fields.blocking,
        minimal: fields.minimal,
        witnesses: fields.witnesses,
        producer: fields.producer,
        proof: fields.proof,
        proof_header: fields.proof_header,
    })
}

/// The proof's lines up to the `end` line, refused as soon as they pass the `bytes` its header
/// announced; with whether the `end` line came.
fn read_proof<R: std::io::BufRead>(
    lines: &mut Lines<'_, R>,
    bytes: usize,
) -> Result<(String, bool), Failure> {
    let mut body = String::with_capacity(bytes.min(1 << 26));
    // Room for the proof still due, and for the `end` line after it.
    while let Some((at, proof_line)) = lines.next(bytes - body.len().min(bytes) + 8, IN_PROOF)? {
        if proof_line.trim_end() == "end" {
            return Ok((body, true));
        }
        body.push_str(proof_line);
        if body.len() > bytes {
            return Err(Failure::new(
                "proof",
                format!(
                    "line {at}: the proof has more than {bytes} bytes by here, its header says \
                     {bytes}"
                ),
            ));
        }
    }
    Ok((body, false))
}

/// Why a line before the proof is bounded, and a proof line.
const BEFORE_PROOF: &str = "the longest a line before the proof may be";
const IN_PROOF: &str = "more than is left of the proof its header announces";

/// A certificate's lines, read one at a time with a bound on each.
struct Lines<'a, R> {
    input: &'a mut R,
    buffer: Vec<u8>,
    /// One-based number of the line last read.
    number: usize,
}

impl<'a, R: std::io::BufRead> Lines<'a, R> {
    fn new(input: &'a mut R) -> Self {
        Lines {
            input,
            buffer: Vec::new(),
            number: 0,
        }
    }

    /// The next line's number and text with its line end, or `None` at the end of the input;
    /// a line longer than `max` bytes is refused after `max + 1` bytes are read, naming its
    /// number and `why` that is the limit.
    fn next(&mut self, max: usize, why: &str) -> Result<Option<(usize, &str)>, Failure> {
        use std::io::{BufRead as _, Read as _};
        self.buffer.clear();
        let limit = u64::try_from(max).unwrap_or(u64::MAX).saturating_add(1);
        let read = self
            .input
            .by_ref()
            .take(limit)
            .read_until(b'\n', &mut self.buffer)
            .map_err(|err| Failure::new("read", err.to_string()))?;
        if read == 0 {
            return Ok(None);
        }
        self.number += 1;
        let at = self.number;
        if self.buffer.len() > max && self.buffer.last() != Some(&b'\n') {
            return Err(Failure::new(
                "format",
                format!("line {at}: longer than {max} bytes ({why})"),
            ));
        }
        std::str::from_utf8(&self.buffer)
            .map(|text| Some((at, text)))
            .map_err(|_| Failure::new("format", format!("line {at}: not UTF-8 text")))
    }
}

/// The lines of a bundle read so far.
#[derive(Default)]
struct Fields {
    source: String,
    box_shape: Option<(usize, usize)>,
    puzzle: Option<Vec<u8>>,
    encoding: Option<String>,
    verdict: Option<Verdict>,
    solutions: Vec<Vec<u8>>,
    blocking: Option<Vec<i32>>,
    minimal: bool,
    witnesses: Vec<((usize, usize), Vec<u8>)>,
    producer: String,
    proof: Option<String>,
    proof_header: (usize, usize),
    /// The line of each key read so far that may appear once, and of each solution.
    once: Vec<(&'static str, usize)>,
    solution_lines: Vec<usize>,
}

/// The keys that may appear once: a second one would leave the certificate meaning whichever
/// the reader kept, so it is refused.
const ONCE: [&str; 8] = [
    "source", "box", "puzzle", "encoding", "verdict", "blocking", "minimal", "producer",
];

impl Fields {
    /// Reads one line before the proof: `key` and the `rest` of `line`, line number `at`.
    fn read(&mut self, key: &str, rest: &str, line: &str, at: usize) -> Result<(), Failure> {
        let format = |reason: String| Failure::new("format", reason);
        if let Some(&once) = ONCE.iter().find(|&&once| once == key) {
            if let Some(&(_, first)) = self.once.iter().find(|(seen, _)| *seen == once) {
                return Err(format(format!(
                    "line {at}: a second '{once}' line (the first is line {first})"
                )));
            }
            self.once.push((once, at));
        }
        if key == "solution" {
            self.solution_lines.push(at);
            if let [first, second, third, ..] = self.solution_lines[..] {
                return Err(format(format!(
                    "line {third}: a third 'solution' line (the others are lines {first} and \
                     {second}); a certificate holds at most two"
                )));
            }
        }
        match key {
            "source" => rest.clone_into(&mut self.source),
            "box" => {
                let numbers = parse_numbers(rest, at)?;
                match numbers[..] {
                    [rows, cols] if (1..=8).contains(&rows) && (1..=8).contains(&cols) => {
                        self.box_shape = Some((rows as usize, cols as usize));
                    }
                    _ => {
                        return Err(Failure::new(
                            "puzzle",
                            format!("line {at}: expected 'box ROWS COLS', each 1 to 8"),
                        ));
                    }
                }
            }
            "puzzle" => self.puzzle = Some(parse_grid(rest, at)?),
            "encoding" => self.encoding = Some(rest.to_string()),
            "verdict" => {
                self.verdict = Some(match rest {
                    "unique" => Verdict::Unique,
                    "multiple" => Verdict::Multiple,
                    "none" => Verdict::None,
                    other => {
                        return Err(format(format!(
                            "line {at}: unknown verdict '{}'",
                            shorten(other)
                        )));
                    }
                });
            }
            "solution" => self.solutions.push(parse_grid(rest, at)?),
            "blocking" => {
                let mut numbers = parse_numbers(rest, at)?;
                if numbers.pop() != Some(0) || numbers.contains(&0) {
                    return Err(format(format!(
                        "line {at}: the blocking clause must end with its only 0"
                    )));
                }
                let clause = numbers
                    .into_iter()
                    .map(|lit| {
                        i32::try_from(lit)
                            .map_err(|_| format(format!("line {at}: literal {lit} is too large")))
                    })
                    .collect::<Result<Vec<i32>, Failure>>()?;
                self.blocking = Some(clause);
            }
            "minimal" if rest == "yes" => self.minimal = true,
            "witness" => {
                let (cell, grid) = rest.split_once(' ').unwrap_or((rest, ""));
                let cell = parse_cell(cell).ok_or_else(|| {
                    format(format!(
                        "line {at}: expected 'witness rRcC GRID', found '{}'",
                        shorten(line)
                    ))
                })?;
                self.witnesses.push((cell, parse_grid(grid, at)?));
            }
            "producer" => rest.clone_into(&mut self.producer),
            other => {
                return Err(format(format!(
                    "line {at}: unknown line '{}'",
                    shorten(other)
                )));
            }
        }
        Ok(())
    }
}

impl Fields {
    /// Refuses more solution lines than the verdict takes, naming the first extra one.
    fn finish(&self) -> Result<(), Failure> {
        let wanted = match self.verdict {
            Some(Verdict::Unique) => 1,
            Some(Verdict::Multiple) | None => 2,
            Some(Verdict::None) => 0,
        };
        if let (Some(verdict), Some(&extra)) = (self.verdict, self.solution_lines.get(wanted)) {
            return Err(Failure::new(
                "format",
                format!(
                    "line {extra}: a 'solution' line too many: verdict {} takes {wanted}",
                    verdict.word()
                ),
            ));
        }
        Ok(())
    }
}

/// Checks a certificate's text: its claim holds, or the first step that fails.
pub fn check_text(text: &str) -> Result<Verified, Failure> {
    let bundle = parse(text)?;
    check(&bundle)
}

/// Checks a parsed certificate.
pub fn check(bundle: &Bundle) -> Result<Verified, Failure> {
    check_puzzle(bundle)?;
    check_solutions(bundle)?;
    check_blocking(bundle)?;
    check_witnesses(bundle)?;
    let (lemmas, proof_bytes) = check_proof(bundle)?;
    Ok(Verified {
        verdict: bundle.verdict,
        producer: bundle.producer.clone(),
        lemmas,
        proof_bytes,
        witnesses: bundle.witnesses.len(),
    })
}

/// The board's size and the givens.
fn check_puzzle(bundle: &Bundle) -> Result<(), Failure> {
    let (rows, cols) = bundle.box_shape;
    let n = rows * cols;
    if n > MAX_SIDE {
        return Err(Failure::new(
            "puzzle",
            format!("a {n}x{n} board is larger than this checker takes ({MAX_SIDE}x{MAX_SIDE})"),
        ));
    }
    if bundle.puzzle.len() != n * n {
        return Err(Failure::new(
            "puzzle",
            format!(
                "{} numbers, but a {n}x{n} board has {} cells",
                bundle.puzzle.len(),
                n * n
            ),
        ));
    }
    if let Some(&big) = bundle.puzzle.iter().find(|&&given| given as usize > n) {
        return Err(Failure::new(
            "puzzle",
            format!("given {big} is larger than {n}"),
        ));
    }
    Ok(())
}

/// As many solutions as the verdict needs, each a solution of the puzzle, two different ones.
fn check_solutions(bundle: &Bundle) -> Result<(), Failure> {
    let (rows, cols) = bundle.box_shape;
    let wanted_solutions = match bundle.verdict {
        Verdict::Unique => 1,
        Verdict::Multiple => 2,
        Verdict::None => 0,
    };
    if bundle.solutions.len() != wanted_solutions {
        return Err(Failure::new(
            "solution",
            format!(
                "verdict {} needs {wanted_solutions} solution lines, found {}",
                bundle.verdict.word(),
                bundle.solutions.len()
            ),
        ));
    }
    for (index, solution) in bundle.solutions.iter().enumerate() {
        if let Some(fault) = rules::solution_fault(rows, cols, &bundle.puzzle, solution) {
            return Err(Failure::new(
                "solution",
                format!("solution {} {fault}", index + 1),
            ));
        }
    }
    if bundle.verdict == Verdict::Multiple && bundle.solutions[0] == bundle.solutions[1] {
        return Err(Failure::new(
            "solution",
            "the two solutions are the same grid",
        ));
    }
    Ok(())
}

/// A unique verdict's blocking clause: exactly the negation of the solution on the empty cells.
fn check_blocking(bundle: &Bundle) -> Result<(), Failure> {
    let n = bundle.side();
    match (bundle.verdict, &bundle.blocking) {
        (Verdict::Unique, Some(blocking)) => {
            let wanted = rules::blocking_clause(n, &bundle.puzzle, &bundle.solutions[0]);
            let mut given = blocking.clone();
            given.sort_unstable();
            let mut sorted = wanted.clone();
            sorted.sort_unstable();
            if given != sorted {
                let missing = wanted.iter().find(|lit| !blocking.contains(lit));
                let extra = blocking.iter().find(|lit| !wanted.contains(lit));
                let detail = match (missing, extra) {
                    (_, Some(extra)) => {
                        format!("it has literal {extra}, which negates no empty cell's digit")
                    }
                    (Some(missing), None) => format!("literal {missing} is missing"),
                    (None, None) => "it repeats a literal".to_string(),
                };
                return Err(Failure::new(
                    "blocking",
                    format!(
                        "the blocking clause is not the negation of the solution on the empty cells: {detail}"
                    ),
                ));
            }
        }
        (Verdict::Unique, None) => {
            return Err(Failure::new("blocking", "no blocking clause"));
        }
        (_, Some(_)) => {
            return Err(Failure::new(
                "blocking",
                format!("verdict {} takes no blocking clause", bundle.verdict.word()),
            ));
        }
        (_, None) => {}
    }
    Ok(())
}

/// The LRAT refutation, against the formula derived here; its lemmas and bytes.
fn check_proof(bundle: &Bundle) -> Result<(usize, usize), Failure> {
    match (&bundle.proof, bundle.verdict) {
        (Some(_), Verdict::Multiple) => {
            Err(Failure::new("proof", "verdict multiple takes no proof"))
        }
        (None, Verdict::Multiple) => Ok((0, 0)),
        (None, _) => Err(Failure::new("proof", "no proof")),
        (Some(proof), _) => {
            let (stated_lemmas, stated_bytes) = bundle.proof_header;
            if proof.len() != stated_bytes {
                return Err(Failure::new(
                    "proof",
                    format!(
                        "the proof has {} bytes, its header says {stated_bytes}",
                        proof.len()
                    ),
                ));
            }
            let formula = bundle.formula();
            let checked =
                lrat::check(&formula, proof).map_err(|reason| Failure::new("proof", reason))?;
            if checked.lemmas != stated_lemmas {
                return Err(Failure::new(
                    "proof",
                    format!(
                        "the proof adds {} clauses, its header says {stated_lemmas}",
                        checked.lemmas
                    ),
                ));
            }
            Ok((checked.lemmas, proof.len()))
        }
    }
}

/// Each witness solves the puzzle without its clue and differs from the solution there; a
/// minimality claim needs one witness per clue.
fn check_witnesses(bundle: &Bundle) -> Result<(), Failure> {
    let (rows, cols) = bundle.box_shape;
    let n = rows * cols;
    let fail = |reason: String| Failure::new("witness", reason);
    if !bundle.witnesses.is_empty() && bundle.verdict != Verdict::Unique {
        return Err(fail("witnesses belong to a unique puzzle".to_string()));
    }
    if bundle.minimal && bundle.verdict != Verdict::Unique {
        return Err(fail(
            "only a unique puzzle can be claimed minimal".to_string(),
        ));
    }
    let mut covered = vec![false; n * n];
    for &((row, col), ref witness) in &bundle.witnesses {
        let name = format!("r{}c{}", row + 1, col + 1);
        let cell = row * n + col;
        if row >= n || col >= n || bundle.puzzle[cell] == 0 {
            return Err(fail(format!("{name} is not a clue")));
        }
        if covered[cell] {
            return Err(fail(format!("{name} has two witnesses")));
        }
        covered[cell] = true;
        let mut reduced = bundle.puzzle.clone();
        reduced[cell] = 0;
        if let Some(fault) = rules::solution_fault(rows, cols, &reduced, witness) {
            return Err(fail(format!("the witness for {name} {fault}")));
        }
        if witness.get(cell) == bundle.solutions[0].get(cell) {
            return Err(fail(format!(
                "the witness for {name} holds the clue's own digit there, so it proves nothing"
            )));
        }
    }
    if bundle.minimal {
        if let Some(cell) = (0..n * n).find(|&cell| bundle.puzzle[cell] != 0 && !covered[cell]) {
            return Err(fail(format!(
                "the puzzle is claimed minimal, but clue r{}c{} has no witness",
                cell / n + 1,
                cell % n + 1
            )));
        }
    }
    Ok(())
}

/// The proof as DRAT (the added clauses without their hints, deletions by their literals), for
/// DRAT checkers such as `rate` and `drat-trim`.
pub fn lrat_to_drat(formula: &Formula, proof: &str) -> Result<String, String> {
    let mut clauses: std::collections::HashMap<u64, Vec<i64>> = formula
        .clauses()
        .enumerate()
        .map(|(index, clause)| {
            (
                index as u64 + 1,
                clause.iter().map(|&lit| i64::from(lit)).collect(),
            )
        })
        .collect();
    let mut drat = String::with_capacity(proof.len());
    for (index, line) in proof.lines().enumerate() {
        let mut tokens = line.split_ascii_whitespace();
        let Some(id) = tokens.next() else { continue };
        let id: u64 = id
            .parse()
            .map_err(|_| format!("line {}: bad clause ID", index + 1))?;
        let tokens: Vec<i64> = tokens
            .map(|token| {
                if token == "d" {
                    Ok(i64::MIN)
                } else {
                    token.parse()
                }
            })
            .collect::<Result<_, _>>()
            .map_err(|_| format!("line {}: bad number", index + 1))?;
        if tokens.first() == Some(&i64::MIN) {
            for deleted in tokens[1..].iter().take_while(|&&id| id != 0) {
                if let Some(clause) = clauses.remove(&(*deleted as u64)) {
                    drat.push_str("d ");
                    for lit in clause {
                        drat.push_str(&lit.to_string());
                        drat.push(' ');
                    }
                    drat.push_str("0\n");
                }
            }
            continue;
        }
        let lits: Vec<i64> = tokens.iter().copied().take_while(|&lit| lit != 0).collect();
        for lit in &lits {
            drat.push_str(&lit.to_string());
            drat.push(' ');
        }
        drat.push_str("0\n");
        let empty = lits.is_empty();
        clauses.insert(id, lits);
        if empty {
            break;
        }
    }
    Ok(drat)
}

fn parse_numbers(text: &str, at: usize) -> Result<Vec<i64>, Failure> {
    text.split_ascii_whitespace()
        .map(|token| {
            token.parse::<i64>().map_err(|_| {
                Failure::new(
                    "format",
                    format!("line {at}: expected a number, found '{}'", shorten(token)),
                )
            })
        })
        .collect()
}

fn parse_grid(text: &str, at: usize) -> Result<Vec<u8>, Failure> {
    parse_numbers(text, at)?
        .into_iter()
        .map(|number| {
            u8::try_from(number).map_err(|_| {
                Failure::new(
                    "format",
                    format!("line {at}: {number} is not a cell's value"),
                )
            })
        })
        .collect()
}

/// `r3c7` as a 0-based row and column.
fn parse_cell(text: &str) -> Option<(usize, usize)> {
    let rest = text.strip_prefix('r')?;
    let (row, col) = rest.split_once('c')?;
    let row: usize = row.parse().ok()?;
    let col: usize = col.parse().ok()?;
    if row == 0 || col == 0 {
        return None;
    }
    Some((row - 1, col - 1))
}

fn shorten(text: &str) -> String {
    if text.chars().count() <= 40 {
        text.to_string()
    } else {
        let head: String = text.chars().take(40).collect();
        format!("{head}...")
    }
}

#[cfg(test)]
mod tests;
