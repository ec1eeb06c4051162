//! Unit propagation at level 0: what any CDCL solver does first with a formula, done before the
//! formula is handed over, so that the solver loads only what is left.
//!
//! The input is a CNF in DIMACS numbering, the output the variables it fixes and the clauses
//! that are neither satisfied nor units, without their false literals, over the free variables
//! renumbered from 1. Every model of the output, extended by the fixed values (and any value of a
//! free variable that no clause is left to constrain), is a model of the input, and every model
//! of the input is one of those; a conflict means the input has no model. Generic over the
//! formula: it knows nothing of Sudoku, so it serves every encoding and every variant's clauses.

use std::borrow::Cow;

/// The result of propagating a formula's unit clauses to the fixpoint.
#[derive(Clone, Debug, Default)]
pub struct Propagated<'a> {
    /// `value[v]` for DIMACS variable `v` (index 0 unused): 1 true, -1 false, 0 free.
    value: Vec<i8>,
    /// `compact[v]`: the variable's number in the clauses left, 0 when it is fixed.
    compact: Vec<i32>,
    /// `original[k - 1]`: the DIMACS variable of number `k` in the clauses left.
    original: Vec<u32>,
    /// The clauses left in the compact numbering, each ended by a 0.
    literals: Cow<'a, [i32]>,
    clause_count: usize,
    conflict: bool,
}

/// The open count of a satisfied clause (see [`Occurrences::build`]).
const SATISFIED: u32 = u32::MAX;

/// The clauses in which each literal occurs, in one flat array filled by a counting sort.
struct Occurrences {
    /// Literal `lit` has slot `lit + offset`.
    offset: i32,
    /// Each clause's first literal in the formula, then the formula's length.
    starts: Vec<u32>,
    /// The clauses of slot `s` are `lists[first[s]..first[s + 1]]`.
    first: Vec<u32>,
    lists: Vec<u32>,
}

impl Occurrences {
    /// The clause starts and the units (clauses of one literal); `None` when a clause is empty.
    fn starts_and_units(literals: &[i32]) -> Option<(Vec<u32>, Vec<i32>)> {
        let mut starts = Vec::with_capacity(literals.len() / 2 + 1);
        let mut units = Vec::new();
        let mut start = 0;
        for (end, &lit) in literals.iter().enumerate() {
            if lit != 0 {
                continue;
            }
            match end - start {
                0 => return None,
                1 => units.push(literals[start]),
                _ => {}
            }
            starts.push(start as u32);
            start = end + 1;
        }
        starts.push(start as u32);
        Some((starts, units))
    }

    /// The occurrence lists, and each clause's open count: its literals not yet made false by
    /// a propagated literal, or `SATISFIED`.
    fn build(var_count: usize, literals: &[i32], starts: Vec<u32>) -> (Occurrences, Vec<u32>) {
        let offset = i32::try_from(var_count).expect("DIMACS variables fit in an i32");
        let slot = |lit: i32| (lit + offset) as usize;
        // `first[s]` starts as the end of slot `s`'s list and is counted down to its start while
        // the list is filled, so that slot `s` ends up at `first[s]..first[s + 1]`.
        let mut first = vec![0u32; 2 * var_count + 2];
        for &lit in literals {
            if lit != 0 {
                first[slot(lit)] += 1;
            }
        }
        let mut sum = 0;
        for count in &mut first {
            sum += *count;
            *count = sum;
        }
        first.push(sum);
        let mut lists = vec![0u32; sum as usize];
        let mut open = Vec::with_capacity(starts.len() - 1);
        let mut clause = 0;
        let mut len = 0;
        for &lit in literals {
            if lit == 0 {
                open.push(len);
                len = 0;
                clause += 1;
                continue;
            }
            len += 1;
            let at = &mut first[slot(lit)];
            *at -= 1;
            lists[*at as usize] = clause;
        }
        let occurrences = Occurrences {
            offset,
            starts,
            first,
            lists,
        };
        (occurrences, open)
    }

    /// The clauses in which `lit` occurs.
    fn of(&self, lit: i32) -> &[u32] {
        let slot = (lit + self.offset) as usize;
        &self.lists[self.first[slot] as usize..self.first[slot + 1] as usize]
    }

    /// The literals of `clause`.
    fn clause<'a>(&self, literals: &'a [i32], clause: u32) -> &'a [i32] {
        let clause = clause as usize;
        &literals[self.starts[clause] as usize..self.starts[clause + 1] as usize - 1]
    }
}

impl<'a> Propagated<'a> {
    /// Propagates the units of the formula over `var_count` variables whose clauses are
    /// `literals` (DIMACS literals, each clause ended by a 0).
    pub fn run(var_count: usize, literals: &'a [i32]) -> Propagated<'a> {
        let mut result = Propagated {
            value: vec![0; var_count + 1],
            ..Propagated::default()
        };
        let Some((starts, units)) = Occurrences::starts_and_units(literals) else {
            result.conflict = true;
            return result;
        };
        if units.is_empty() {
            result.keep_all(var_count, literals, starts.len() - 1);
            return result;
        }
        let (occurrences, mut open) = Occurrences::build(var_count, literals, starts);
        result.conflict = !result.propagate(literals, &occurrences, &mut open, &units);
        if !result.conflict {
            result.keep_open(var_count, literals, &occurrences, &open);
        }
        result
    }

    /// Propagates `units` to the fixpoint; false on a conflict.
    fn propagate(
        &mut self,
        literals: &[i32],
        occurrences: &Occurrences,
        open: &mut [u32],
        units: &[i32],
    ) -> bool {
        // Assigns `lit` true and queues it; false when it is false already.
        let assign = |value: &mut [i8], queue: &mut Vec<i32>, lit: i32| {
            let var = lit.unsigned_abs() as usize;
            let want = if lit > 0 { 1 } else { -1 };
            match value[var] {
                0 => {
                    value[var] = want;
                    queue.push(lit);
                    true
                }
                have => have == want,
            }
        };
        let mut queue = Vec::with_capacity(self.value.len());
        for &lit in units {
            if !assign(&mut self.value, &mut queue, lit) {
                return false;
            }
        }
        let mut next = 0;
        while let Some(&lit) = queue.get(next) {
            next += 1;
            for &clause in occurrences.of(lit) {
                open[clause as usize] = SATISFIED;
            }
            for &clause in occurrences.of(-lit) {
                let count = &mut open[clause as usize];
                if *count == SATISFIED {
                    continue;
                }
                *count -= 1;
                match *count {
                    0 => return false,
                    // One literal is left: if it is free, it must be true. If it is assigned
                    // already, it waits in the queue and settles the clause when its turn
                    // comes (satisfied, or a count of 0).
                    1 => {
                        let lits = occurrences.clause(literals, clause);
                        let value = &self.value;
                        if let Some(&unit) = lits
                            .iter()
                            .find(|&&l| value[l.unsigned_abs() as usize] == 0)
                        {
                            assign(&mut self.value, &mut queue, unit);
                        }
                    }
                    _ => {}
                }
            }
        }
        true
    }

    /// Keeps the clauses not satisfied, without their false literals, over the free variables
    /// renumbered.
    fn keep_open(
        &mut self,
        var_count: usize,
        literals: &[i32],
        occurrences: &Occurrences,
        open: &[u32],
    ) {
        self.compact = vec![0; var_count + 1];
        for var in 1..=var_count {
            if self.value[var] == 0 {
                self.original.push(var as u32);
                self.compact[var] =
                    i32::try_from(self.original.len()).expect("DIMACS variables fit in an i32");
            }
        }
        let mut kept = Vec::new();
        let mut clause_count = 0;
        for (clause, &count) in open.iter().enumerate() {
            if count == SATISFIED {
                continue;
            }
            // Not satisfied, so every assigned literal is false; at the fixpoint at least two
            // are free.
            for &lit in occurrences.clause(literals, clause as u32) {
                let var = lit.unsigned_abs() as usize;
                if self.value[var] == 0 {
                    kept.push(lit.signum() * self.compact[var]);
                }
            }
            kept.push(0);
            clause_count += 1;
        }
        self.literals = Cow::Owned(kept);
        self.clause_count = clause_count;
    }

    /// No unit to propagate: every variable is free and every clause is kept as it is.
    fn keep_all(&mut self, var_count: usize, literals: &'a [i32], clause_count: usize) {
        self.compact =
            (0..=i32::try_from(var_count).expect("DIMACS variables fit in an i32")).collect();
        self.original = (1..=var_count as u32).collect();
        self.literals = Cow::Borrowed(literals);
        self.clause_count = clause_count;
    }

    /// Whether propagation derived the empty clause: the formula has no model.
    pub fn conflict(&self) -> bool {
        self.conflict
    }

    /// The value propagation fixed for DIMACS variable `var`: `Some(true)`, `Some(false)` or
    /// `None` when it is free.
    pub fn fixed(&self, var: u32) -> Option<bool> {
        match self.value.get(var as usize).copied().unwrap_or(0) {
            0 => None,
            value => Some(value > 0),
        }
    }

    /// The number of free variables, numbered from 1 in [`Propagated::clauses`].
    pub fn free_count(&self) -> usize {
        self.original.len()
    }

    /// The compact number of DIMACS variable `var`, when it is free.
    pub fn compact(&self, var: u32) -> Option<usize> {
        let k = self.compact.get(var as usize).copied().unwrap_or(0);
        (k != 0).then_some(k.unsigned_abs() as usize)
    }

    /// The DIMACS variable of compact number `k` (from 1).
    pub fn original(&self, k: usize) -> u32 {
        self.original[k - 1]
    }

    /// The number of clauses left.
    pub fn clause_count(&self) -> usize {
        self.clause_count
    }

    /// The clauses left, over the compact numbering.
    pub fn clauses(&self) -> impl Iterator<Item = &[i32]> {
        self.literals.split(|&lit| lit == 0).take(self.clause_count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flat(clauses: &[&[i32]]) -> Vec<i32> {
        clauses
            .iter()
            .flat_map(|clause| clause.iter().copied().chain([0]))
            .collect()
    }

    fn left(propagated: &Propagated) -> Vec<Vec<i32>> {
        propagated.clauses().map(<[i32]>::to_vec).collect()
    }

    #[test]
    fn a_chain_of_units_fixes_its_variables_and_drops_satisfied_clauses() {
        // 1; -1 | 2; -2 | 3 | 4; 3 | 5; -4 | 5 | 6; 4 | 6.
        let cnf = flat(&[&[1], &[-1, 2], &[-2, 3, 4], &[3, 5], &[-4, 5, 6], &[4, 6]]);
        let propagated = Propagated::run(6, &cnf);
        assert!(!propagated.conflict());
        assert_eq!(propagated.fixed(1), Some(true));
        assert_eq!(propagated.fixed(2), Some(true));
        assert_eq!(propagated.fixed(3), None);
        // Free: 3, 4, 5, 6 as 1, 2, 3, 4. Left: 3 | 4 (from -2 | 3 | 4), 3 | 5, -4 | 5 | 6, 4 | 6.
        assert_eq!(propagated.free_count(), 4);
        assert_eq!(
            left(&propagated),
            vec![vec![1, 2], vec![1, 3], vec![-2, 3, 4], vec![2, 4]]
        );
        assert_eq!(propagated.original(2), 4);
        assert_eq!(propagated.compact(4), Some(2));
        assert_eq!(propagated.compact(1), None);
    }

    #[test]
    fn propagation_reaches_the_fixpoint_through_long_clauses() {
        // -3; -2; 1 | 2 | 3 gives 1; then -1 | 4 gives 4; -4 | -5 gives -5; 5 | 6 gives 6.
        let cnf = flat(&[&[1, 2, 3], &[-1, 4], &[-4, -5], &[5, 6], &[-3], &[-2]]);
        let propagated = Propagated::run(6, &cnf);
        assert!(!propagated.conflict());
        let values: Vec<_> = (1..=6).map(|var| propagated.fixed(var)).collect();
        assert_eq!(
            values,
            [true, false, false, true, false, true].map(Some).to_vec()
        );
        assert_eq!(propagated.free_count(), 0);
        assert_eq!(propagated.clause_count(), 0);
    }

    #[test]
    fn conflicts_are_found_between_units_and_through_clauses() {
        assert!(Propagated::run(1, &flat(&[&[1], &[-1]])).conflict());
        assert!(Propagated::run(2, &flat(&[&[1], &[-1, 2], &[-2, -1]])).conflict());
        assert!(Propagated::run(2, &flat(&[&[1, 2], &[]])).conflict());
        // Two units in the queue make the same clause false.
        assert!(Propagated::run(3, &flat(&[&[1], &[2], &[-1, -2]])).conflict());
    }

    /// Whether `clauses` (flat) hold under `model` (`model[v]` for variable `v`).
    fn holds(literals: &[i32], model: &[bool]) -> bool {
        literals.split_inclusive(|&lit| lit == 0).all(|clause| {
            clause[..clause.len() - 1]
                .iter()
                .any(|&lit| model[lit.unsigned_abs() as usize] == (lit > 0))
        })
    }

    proptest::proptest! {
        /// On random formulas of up to 8 variables, against every assignment: the input's models
        /// are exactly the fixed values joined to the output's models.
        #[test]
        fn models_are_kept_exactly(
            clauses in proptest::collection::vec(
                proptest::collection::vec((1i32..=8, proptest::bool::ANY), 1..4),
                0..14,
            )
        ) {
            let cnf: Vec<i32> = clauses
                .iter()
                .flat_map(|clause| {
                    clause
                        .iter()
                        .map(|&(var, negative)| if negative { -var } else { var })
                        .chain([0])
                })
                .collect();
            let propagated = Propagated::run(8, &cnf);
            let left: Vec<i32> = propagated
                .clauses()
                .flat_map(|clause| clause.iter().copied().chain([0]))
                .collect();
            let mut any_model = false;
            for bits in 0u32..256 {
                let model: Vec<bool> =
                    std::iter::once(false).chain((0..8).map(|v| bits >> v & 1 == 1)).collect();
                let input = holds(&cnf, &model);
                let fixed_agree = (1..=8u32).all(|var| {
                    propagated.fixed(var).is_none_or(|value| value == model[var as usize])
                });
                let compact: Vec<bool> = std::iter::once(false)
                    .chain((1..=propagated.free_count()).map(|k| model[propagated.original(k) as usize]))
                    .collect();
                let output = !propagated.conflict() && fixed_agree && holds(&left, &compact);
                proptest::prop_assert_eq!(input, output, "assignment {:08b}", bits);
                any_model |= input;
            }
            proptest::prop_assert_eq!(propagated.conflict() && any_model, false);
        }
    }

    #[test]
    fn without_units_the_formula_is_kept() {
        let cnf = flat(&[&[1, 2], &[-1, -2], &[2, 3]]);
        let propagated = Propagated::run(3, &cnf);
        assert!(!propagated.conflict());
        assert_eq!(propagated.free_count(), 3);
        assert_eq!(
            left(&propagated),
            vec![vec![1, 2], vec![-1, -2], vec![2, 3]]
        );
    }
}
