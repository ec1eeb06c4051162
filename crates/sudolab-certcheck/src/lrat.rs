//! A small LRAT checker (Cruz-Filipe, Heule, Hunt, Kaufmann and Schneider-Kamp, "Efficient
//! certified RAT verification", 2017), for refutations that use reverse unit propagation only.
//!
//! The text form, one step a line:
//! - `ID LIT... 0 HINT... 0` adds clause ID (larger than every earlier ID): with the negation
//!   of its literals assumed, each hint clause in turn must become unit (its one open literal
//!   is then assumed) until one is falsified, which proves the clause.
//! - `ID d ID... 0` deletes clauses (ID is ignored, as every LRAT checker does).
//!
//! Negative hints (RAT steps) are refused: a refutation of a Sudoku formula never needs them.
//! The refutation is complete once the empty clause is added.

use super::rules::Formula;

/// What a checked proof held.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Clauses added.
    pub lemmas: usize,
    /// Clauses deleted.
    pub deletions: usize,
}

/// The clause store: the formula's clauses by position, then the added ones by their IDs.
struct Store {
    literals: Vec<i32>,
    /// `(start, len)` of clause `id` for `id <= formula_len`, `None` once deleted.
    formula: Vec<Option<(u32, u32)>>,
    /// Added clauses: IDs ascending, with their literals.
    added_ids: Vec<u64>,
    added: Vec<Option<(u32, u32)>>,
}

impl Store {
    fn get(&self, id: u64) -> Option<&[i32]> {
        let span = if id == 0 {
            None
        } else if id <= self.formula.len() as u64 {
            self.formula[id as usize - 1]
        } else {
            let at = self.added_ids.binary_search(&id).ok()?;
            self.added[at]
        }?;
        Some(&self.literals[span.0 as usize..(span.0 + span.1) as usize])
    }

    fn delete(&mut self, id: u64) -> bool {
        let slot = if id == 0 {
            None
        } else if id <= self.formula.len() as u64 {
            Some(&mut self.formula[id as usize - 1])
        } else {
            self.added_ids
                .binary_search(&id)
                .ok()
                .map(|at| &mut self.added[at])
        };
        match slot {
            Some(slot @ Some(_)) => {
                *slot = None;
                true
            }
            _ => false,
        }
    }
}

/// Checks that `proof` (LRAT text) refutes `formula`; the error names the proof's line (1 is
/// its first) and what is wrong.
pub fn check(formula: &Formula, proof: &str) -> Result<Checked, String> {
    let vars = formula.vars as usize;
    let mut store = Store {
        literals: Vec::new(),
        formula: Vec::with_capacity(formula.len()),
        added_ids: Vec::new(),
        added: Vec::new(),
    };
    for clause in formula.clauses() {
        store
            .formula
            .push(Some((store.literals.len() as u32, clause.len() as u32)));
        store.literals.extend_from_slice(clause);
    }
    // `value[var]`: 1 true, -1 false, 0 open; `trail` lists the assigned variables.
    let mut value = vec![0_i8; vars + 1];
    let mut trail: Vec<usize> = Vec::new();
    let mut last_id = formula.len() as u64;
    let mut checked = Checked::default();
    let mut refuted = false;
    let mut lemma: Vec<i32> = Vec::new();
    for (index, line) in proof.lines().enumerate() {
        let at = index + 1;
        let mut tokens = line.split_ascii_whitespace();
        let Some(first) = tokens.next() else {
            continue;
        };
        let id: u64 = first
            .parse()
            .map_err(|_| format!("line {at}: expected a clause ID, found '{first}'"))?;
        let mut rest = tokens.peekable();
        if rest.peek() == Some(&"d") {
            rest.next();
            checked.deletions += delete(&mut store, &mut rest, at)?;
            continue;
        }
        if id <= last_id {
            return Err(format!(
                "line {at}: clause ID {id} is not larger than the ID before it ({last_id})"
            ));
        }
        lemma.clear();
        for lit in numbers_to_zero(&mut rest, at, "literal")? {
            let lit = i32::try_from(lit)
                .ok()
                .filter(|lit| lit.unsigned_abs() as usize <= vars)
                .ok_or_else(|| {
                    format!("line {at}: literal {lit} is outside the formula's {vars} variables")
                })?;
            lemma.push(lit);
        }
        let hints = numbers_to_zero(&mut rest, at, "hint")?;
        expect_end(&mut rest, at)?;
        let verdict = prove(&store, &lemma, &hints, &mut value, &mut trail);
        verdict.map_err(|reason| format!("line {at}: clause {id}: {reason}"))?;
        store.added_ids.push(id);
        store
            .added
            .push(Some((store.literals.len() as u32, lemma.len() as u32)));
        store.literals.extend_from_slice(&lemma);
        last_id = id;
        checked.lemmas += 1;
        if lemma.is_empty() {
            refuted = true;
            break;
        }
    }
    if refuted {
        Ok(checked)
    } else {
        Err(format!(
            "the proof ends after {} clauses without the empty clause",
            checked.lemmas
        ))
    }
}

/// Deletes the clauses a `d` line names (after the `d`); returns how many.
fn delete<'a>(
    store: &mut Store,
    tokens: &mut impl Iterator<Item = &'a str>,
    at: usize,
) -> Result<usize, String> {
    let ids = numbers_to_zero(tokens, at, "clause ID")?;
    for &id in &ids {
        let id =
            u64::try_from(id).map_err(|_| format!("line {at}: deletes clause {id}, not an ID"))?;
        if !store.delete(id) {
            return Err(format!(
                "line {at}: deletes clause {id}, which does not exist"
            ));
        }
    }
    expect_end(tokens, at)?;
    Ok(ids.len())
}

/// Assumes the negation of `lemma` and follows the hints (a clause with both `x` and `-x`
/// holds outright); the assignment is empty again afterwards.
fn prove(
    store: &Store,
    lemma: &[i32],
    hints: &[i64],
    value: &mut [i8],
    trail: &mut Vec<usize>,
) -> Result<(), String> {
    let mut tautology = false;
    for &lit in lemma {
        let var = lit.unsigned_abs() as usize;
        let want = if lit > 0 { -1 } else { 1 };
        match value[var] {
            0 => {
                value[var] = want;
                trail.push(var);
            }
            current if current != want => tautology = true,
            _ => {}
        }
    }
    let verdict = if tautology {
        Ok(())
    } else {
        propagate_hints(store, hints, value, trail)
    };
    for var in trail.drain(..) {
        value[var] = 0;
    }
    verdict
}

/// Follows the hints under the current assignment: each must be unit (its open literal is
/// assumed) until one is falsified.
fn propagate_hints(
    store: &Store,
    hints: &[i64],
    value: &mut [i8],
    trail: &mut Vec<usize>,
) -> Result<(), String> {
    for &hint in hints {
        if hint < 0 {
            return Err(format!(
                "hint {hint} asks for a RAT step, which this checker does not accept"
            ));
        }
        let clause = store
            .get(hint as u64)
            .ok_or_else(|| format!("hint {hint} names no live clause"))?;
        let mut open = None;
        let mut open_count = 0;
        for &lit in clause {
            let var = lit.unsigned_abs() as usize;
            let sign = if lit > 0 { 1 } else { -1 };
            match value[var] * sign {
                1 => return Err(format!("hint {hint} is already satisfied")),
                0 => {
                    open_count += 1;
                    open = Some(lit);
                }
                _ => {}
            }
        }
        match (open_count, open) {
            (0, _) => return Ok(()),
            (1, Some(lit)) => {
                let var = lit.unsigned_abs() as usize;
                value[var] = if lit > 0 { 1 } else { -1 };
                trail.push(var);
            }
            _ => {
                return Err(format!(
                    "hint {hint} is not unit ({open_count} open literals)"
                ));
            }
        }
    }
    Err("the hints end without a conflict".to_string())
}

/// Numbers up to a terminating 0.
fn numbers_to_zero<'a>(
    tokens: &mut impl Iterator<Item = &'a str>,
    at: usize,
    what: &str,
) -> Result<Vec<i64>, String> {
    let mut numbers = Vec::new();
    loop {
        let Some(token) = tokens.next() else {
            return Err(format!(
                "line {at}: the line ends before the 0 that ends its {what}s"
            ));
        };
        let number: i64 = token
            .parse()
            .map_err(|_| format!("line {at}: expected a {what}, found '{token}'"))?;
        if number == 0 {
            return Ok(numbers);
        }
        numbers.push(number);
    }
}

fn expect_end<'a>(tokens: &mut impl Iterator<Item = &'a str>, at: usize) -> Result<(), String> {
    match tokens.next() {
        None => Ok(()),
        Some(token) => Err(format!("line {at}: unexpected '{token}' after the final 0")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::encode;

    /// (x1 or x2), (-x1 or x2), (x1 or -x2), (-x1 or -x2): unsatisfiable.
    fn four() -> Formula {
        let mut formula = Formula::new(2);
        for clause in [[1, 2], [-1, 2], [1, -2], [-1, -2]] {
            formula.push(&clause);
        }
        formula
    }

    #[test]
    fn a_correct_refutation_checks() {
        let proof = "5 2 0 1 2 0\n5 d 1 2 0\n6 0 5 3 4 0\n";
        assert_eq!(
            check(&four(), proof),
            Ok(Checked {
                lemmas: 2,
                deletions: 2
            })
        );
    }

    #[test]
    fn every_fault_is_named() {
        let cases = [
            ("5 2 0 1 0\n", "hints end without a conflict"),
            ("6 0 1 0\n", "not unit"),
            ("5 2 0 1 2 0\n6 0 5 4 0\n", "hints end without a conflict"),
            ("5 2 0 1 2 0\n", "without the empty clause"),
            ("4 2 0 1 2 0\n", "not larger"),
            ("5 2 0 9 0\n", "names no live clause"),
            ("5 2 0 -1 0\n", "RAT"),
            ("5 7 0 1 0\n", "outside the formula"),
            ("5 2 0 1 2\n", "ends before the 0"),
            ("5 2 0 1 2 0 7\n", "after the final 0"),
            ("x\n", "expected a clause ID"),
            ("5 d 9 0\n", "does not exist"),
            ("5 d 1 0\n6 2 0 1 2 0\n", "names no live clause"),
            ("5 -2 0 2 0\n", "already satisfied"),
        ];
        for (proof, reason) in cases {
            let err = check(&four(), proof).unwrap_err();
            assert!(err.contains(reason), "{proof:?}: {err}");
        }
    }

    #[test]
    fn conflicting_givens_are_refuted_by_unit_propagation() {
        // 1x1 with given 1 checks, and a 4x4 with two 1s in the first row is refuted.
        let mut givens = [0; 16];
        givens[0] = 1;
        givens[1] = 1;
        let formula = encode(2, 2, &givens);
        // Clauses: cell 0: 1..=7 (ALO, 6 AMO), unit 8; cell 1: 9..=15, unit 16.
        // Row 1 digit 1: the first AMO pair (-v(0,1) -v(1,1)) comes right after the cells.
        let pair = 16 * 7 + 2 + 1;
        assert_eq!(formula.clause(pair), Some(&[-1, -5][..]));
        let proof = format!("{} 0 8 16 {pair} 0\n", formula.len() + 1);
        assert!(check(&formula, &proof).is_ok());
    }
}
