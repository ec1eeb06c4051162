//! The search-tree producer: the exact-cover search is itself a proof.
//!
//! Over the CNF, a DLX-style search branches on the open at-least-one clause (all literals
//! positive: a cell's digits, or a house's cells for a digit) with the fewest open literals, and
//! uses unit propagation only. When the search is exhausted, every node's decision path `D`
//! has been refuted, and "not all of D" is a reverse-unit-propagation (RUP) clause once the
//! children's clauses are known. Clauses are written in post-order, only for branch points
//! that are not the last child: for the last child, unit propagation over its siblings'
//! clauses and the branching clause forces its decision, so its clause would add nothing.
//! The proof ends with the empty clause. On 17-clue 9x9 puzzles this is usually that one
//! clause: propagation alone refutes "the puzzle has another solution".
//!
//! [`to_lrat`] turns any list of RUP clauses into LRAT by propagating again, now with reasons,
//! and keeping only the clauses that the conflict needed.

use std::fmt::Write as _;

use super::unit::Propagator;

/// Why the search gave no refutation.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum TreeStop {
    /// It found an assignment satisfying every clause: the formula has a model, the literals
    /// true in it.
    Model(Vec<i32>),
    /// The clauses written so far passed the byte budget.
    TooLarge,
}

/// The RUP clauses (last: the empty clause) refuting the clauses in `store`; `branch` lists
/// the clauses to branch on. `max_bytes` bounds the clauses' DRAT text.
pub(crate) fn refute(
    store: &mut Propagator,
    branch: &[u32],
    max_bytes: u64,
) -> Result<Vec<Vec<i32>>, TreeStop> {
    let mut search = Search {
        branch,
        lemmas: Vec::new(),
        path: Vec::new(),
        bytes: 0,
        max_bytes,
    };
    if store.root_conflict().is_none() {
        search.explore(store)?;
    }
    search.lemmas.push(Vec::new());
    Ok(search.lemmas)
}

struct Search<'a> {
    branch: &'a [u32],
    lemmas: Vec<Vec<i32>>,
    path: Vec<i32>,
    bytes: u64,
    max_bytes: u64,
}

impl Search<'_> {
    /// Explores the node the store is at (propagated, without conflict) and every node below.
    fn explore(&mut self, store: &mut Propagator) -> Result<(), TreeStop> {
        let mut best: Option<(usize, u32)> = None;
        for &index in self.branch {
            let mut open = 0;
            let mut satisfied = false;
            for &lit in store.clause(index) {
                match store.value(lit) {
                    1 => {
                        satisfied = true;
                        break;
                    }
                    0 => open += 1,
                    _ => {}
                }
            }
            if satisfied || best.is_some_and(|(fewest, _)| fewest <= open) {
                continue;
            }
            best = Some((open, index));
            if open <= 2 {
                break;
            }
        }
        let Some((_, index)) = best else {
            // Every at-least-one clause holds and propagation found no false clause: a model.
            return Err(TreeStop::Model(
                store
                    .trail()
                    .iter()
                    .copied()
                    .filter(|&lit| lit > 0)
                    .collect(),
            ));
        };
        let open: Vec<i32> = store
            .clause(index)
            .iter()
            .copied()
            .filter(|&lit| store.value(lit) == 0)
            .collect();
        for (at, &lit) in open.iter().enumerate() {
            store.decide(lit);
            self.path.push(lit);
            let outcome = if store.propagate().is_none() {
                self.explore(store)
            } else {
                Ok(())
            };
            store.undo();
            if let Err(stop) = outcome {
                self.path.pop();
                return Err(stop);
            }
            if at + 1 < open.len() {
                let lemma: Vec<i32> = self.path.iter().map(|&lit| -lit).collect();
                self.bytes += lemma.iter().map(|lit| digits(*lit) + 1).sum::<u64>() + 2;
                if self.bytes > self.max_bytes {
                    return Err(TreeStop::TooLarge);
                }
                self.lemmas.push(lemma);
            }
            self.path.pop();
        }
        Ok(())
    }
}

/// The characters of a literal in DIMACS.
fn digits(lit: i32) -> u64 {
    u64::from(lit.unsigned_abs().checked_ilog10().unwrap_or(0) + 1) + u64::from(lit < 0)
}

/// From how many clauses to prove on the root's literals are written as unit clauses first.
const UNITIZE_FROM: usize = 32;

/// Writes the root's literals from trail position `from` on, that are not yet unit clauses, as
/// unit clauses (each proved by its reason), and makes each its literal's reason. Returns
/// where the root's trail ends.
fn write_root_units(store: &mut Propagator, from: usize, text: &mut String) -> usize {
    let end = store.trail().len();
    for at in from..end {
        let lit = store.trail()[at];
        let Some(reason) = store.reason_of(lit) else {
            continue;
        };
        if store.clause(reason).len() == 1 {
            continue;
        }
        let id = store.len() + 1;
        let _ = write!(text, "{id} {lit} 0");
        for &other in store.clause(reason) {
            if other != lit {
                let unit = store
                    .reason_of(-other)
                    .expect("a root literal has a reason");
                let _ = write!(text, " {}", unit + 1);
            }
        }
        let _ = writeln!(text, " {} 0", reason + 1);
        let unit = store.add(&[lit]);
        store.rest_on(lit, unit);
    }
    end
}

/// Why RUP clauses could not be written as LRAT.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum LratStop {
    /// Clause number `.0` (0-based) is not RUP: a producer's bug.
    NotRup(usize),
    /// The text passed the byte budget.
    TooLarge,
}

/// Writes `lemmas` as LRAT over the clauses in `store` (at the root, nothing decided): each
/// with the clauses unit propagation used, in order. Returns the text.
pub(crate) fn to_lrat(
    store: &mut Propagator,
    lemmas: &[Vec<i32>],
    max_bytes: u64,
) -> Result<String, LratStop> {
    let mut text = String::new();
    // With many clauses to prove, the literals true at the root are written as unit clauses
    // first, each proved once from its reason: every later hint list names the unit clause
    // instead of repeating the chain that derives it.
    let unitize = lemmas.len() >= UNITIZE_FROM;
    let mut root_done = 0;
    for (number, lemma) in lemmas.iter().enumerate() {
        if unitize && store.root_conflict().is_none() {
            root_done = write_root_units(store, root_done, &mut text);
            if text.len() as u64 > max_bytes {
                return Err(LratStop::TooLarge);
            }
        }
        let mut conflict = store.root_conflict();
        let mut decided = 0;
        if conflict.is_none() {
            for &lit in lemma {
                match store.value(lit) {
                    -1 => {}
                    1 => {
                        // True at the root: the clause that made it true is now false.
                        conflict = store.reason_of(lit);
                        break;
                    }
                    _ => {
                        store.decide(-lit);
                        decided += 1;
                    }
                }
            }
            if conflict.is_none() {
                conflict = store.propagate();
            }
        }
        let hints = conflict.map(|conflict| store.hints(conflict, lemma));
        for _ in 0..decided {
            store.undo();
        }
        let Some(hints) = hints else {
            return Err(LratStop::NotRup(number));
        };
        let id = store.len() + 1;
        let _ = write!(text, "{id}");
        for lit in lemma {
            let _ = write!(text, " {lit}");
        }
        text.push_str(" 0");
        for hint in hints {
            let _ = write!(text, " {}", hint + 1);
        }
        text.push_str(" 0\n");
        if text.len() as u64 > max_bytes {
            return Err(LratStop::TooLarge);
        }
        store.add(lemma);
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pigeons 1 and 2 in one hole each of two, and a third pigeon: unsatisfiable.
    fn pigeons() -> (Propagator, Vec<u32>) {
        // Variable 2 * p + h (p in 0..3, h in 1..=2): pigeon p sits in hole h.
        let mut store = Propagator::new(6);
        let mut branch = Vec::new();
        for pigeon in 0..3 {
            branch.push(store.add(&[2 * pigeon + 1, 2 * pigeon + 2]));
        }
        for hole in 1..=2 {
            for a in 0..3 {
                for b in a + 1..3 {
                    store.add(&[-(2 * a + hole), -(2 * b + hole)]);
                }
            }
        }
        (store, branch)
    }

    #[test]
    fn the_tree_refutes_and_every_clause_is_rup() {
        let (mut store, branch) = pigeons();
        let lemmas = refute(&mut store, &branch, u64::MAX).unwrap();
        assert_eq!(lemmas.last(), Some(&Vec::new()));
        // Two children at the root: the first one's clause, then the empty clause.
        assert_eq!(lemmas.len(), 2);
        let text = to_lrat(&mut store, &lemmas, u64::MAX).unwrap();
        assert_eq!(text.lines().count(), 2);
        assert!(text.lines().last().unwrap().starts_with("11 0 "));
    }

    #[test]
    fn a_model_stops_the_search() {
        let mut store = Propagator::new(2);
        let branch = vec![store.add(&[1, 2])];
        store.add(&[-1, -2]);
        match refute(&mut store, &branch, u64::MAX) {
            Err(TreeStop::Model(model)) => assert_eq!(model.len(), 1),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_clause_that_is_not_rup_is_refused() {
        let mut store = Propagator::new(2);
        store.add(&[1, 2]);
        assert_eq!(
            to_lrat(&mut store, &[vec![1]], u64::MAX),
            Err(LratStop::NotRup(0))
        );
        let (mut store, branch) = pigeons();
        assert_eq!(refute(&mut store, &branch, 3), Err(TreeStop::TooLarge));
    }
}
