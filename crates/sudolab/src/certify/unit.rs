//! Unit propagation with two watched literals, decision levels and the reason of every implied
//! literal: the search of the tree producer and the hints of every LRAT step are made with it.

/// No reason: a decision (or an assumption).
const DECISION: u32 = u32::MAX;

/// A clause store with unit propagation. Clause `i` (0-based) has LRAT ID `i + 1`.
pub(crate) struct Propagator {
    literals: Vec<i32>,
    starts: Vec<u32>,
    /// `watches[code(lit)]`: the clauses watching `lit`, visited when `lit` becomes false.
    watches: Vec<Vec<u32>>,
    /// Per variable: 1 true, -1 false, 0 open.
    value: Vec<i8>,
    reason: Vec<u32>,
    trail: Vec<i32>,
    /// Where each decision level starts on the trail; level 0 (the root) is not listed.
    levels: Vec<usize>,
    head: usize,
    /// A clause all of whose literals are false at the root.
    root_conflict: Option<u32>,
    seen: Vec<bool>,
    /// The variables of the clause being proved, during [`Propagator::hints`].
    assumed: Vec<bool>,
}

fn code(lit: i32) -> usize {
    (lit.unsigned_abs() as usize) * 2 + usize::from(lit < 0)
}

impl Propagator {
    /// An empty store over variables `1..=vars`.
    pub(crate) fn new(vars: usize) -> Propagator {
        Propagator {
            literals: Vec::new(),
            starts: vec![0],
            watches: vec![Vec::new(); 2 * vars + 2],
            value: vec![0; vars + 1],
            reason: vec![DECISION; vars + 1],
            trail: Vec::new(),
            levels: Vec::new(),
            head: 0,
            root_conflict: None,
            seen: vec![false; vars + 1],
            assumed: vec![false; vars + 1],
        }
    }

    /// The number of clauses.
    pub(crate) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Clause `index`'s literals (in watch order, not as added).
    pub(crate) fn clause(&self, index: u32) -> &[i32] {
        &self.literals
            [self.starts[index as usize] as usize..self.starts[index as usize + 1] as usize]
    }

    /// The value of a literal: 1 true, -1 false, 0 open.
    pub(crate) fn value(&self, lit: i32) -> i8 {
        let value = self.value[lit.unsigned_abs() as usize];
        if lit < 0 { -value } else { value }
    }

    /// A clause whose literals are all false at the root, once there is one.
    pub(crate) fn root_conflict(&self) -> Option<u32> {
        self.root_conflict
    }

    fn assign(&mut self, lit: i32, reason: u32) {
        let var = lit.unsigned_abs() as usize;
        self.value[var] = if lit > 0 { 1 } else { -1 };
        self.reason[var] = reason;
        self.trail.push(lit);
    }

    /// Adds a clause at the root (no decision open) and propagates what it implies there.
    pub(crate) fn add(&mut self, clause: &[i32]) -> u32 {
        debug_assert!(self.levels.is_empty(), "clauses are added at the root");
        let index = self.len() as u32;
        let start = self.literals.len();
        self.literals.extend_from_slice(clause);
        self.starts.push(self.literals.len() as u32);
        if self.root_conflict.is_some() {
            return index;
        }
        // The literals that are not false go first, so that they are the ones watched.
        let lits = &mut self.literals[start..];
        let mut front = 0;
        for at in 0..lits.len() {
            let var = lits[at].unsigned_abs() as usize;
            let value = if lits[at] < 0 {
                -self.value[var]
            } else {
                self.value[var]
            };
            if value >= 0 {
                lits.swap(front, at);
                front += 1;
            }
        }
        let (first, len) = (lits.first().copied(), lits.len());
        if len >= 2 {
            self.watches[code(self.literals[start])].push(index);
            self.watches[code(self.literals[start + 1])].push(index);
        }
        match (front, first) {
            (0, _) => self.root_conflict = Some(index),
            (1, Some(lit)) if self.value(lit) == 0 => {
                self.assign(lit, index);
                if let Some(conflict) = self.propagate() {
                    self.root_conflict = Some(conflict);
                }
            }
            _ => {}
        }
        index
    }

    /// Opens a decision level and assumes `lit` (which must be open).
    pub(crate) fn decide(&mut self, lit: i32) {
        self.levels.push(self.trail.len());
        self.assign(lit, DECISION);
    }

    /// Undoes the latest decision level.
    pub(crate) fn undo(&mut self) {
        let Some(start) = self.levels.pop() else {
            return;
        };
        for lit in self.trail.drain(start..) {
            let var = lit.unsigned_abs() as usize;
            self.value[var] = 0;
            self.reason[var] = DECISION;
        }
        self.head = self.head.min(start);
    }

    /// Propagates the trail; the clause found false, if any.
    pub(crate) fn propagate(&mut self) -> Option<u32> {
        while self.head < self.trail.len() {
            let falsified = -self.trail[self.head];
            self.head += 1;
            let mut watching = std::mem::take(&mut self.watches[code(falsified)]);
            let mut keep = 0;
            let mut conflict = None;
            let mut at = 0;
            while at < watching.len() {
                let index = watching[at];
                at += 1;
                let start = self.starts[index as usize] as usize;
                let end = self.starts[index as usize + 1] as usize;
                if self.literals[start] == falsified {
                    self.literals.swap(start, start + 1);
                }
                let other = self.literals[start];
                if self.value(other) == 1 {
                    watching[keep] = index;
                    keep += 1;
                    continue;
                }
                let mut moved = false;
                for k in start + 2..end {
                    if self.value(self.literals[k]) >= 0 {
                        self.literals.swap(start + 1, k);
                        self.watches[code(self.literals[start + 1])].push(index);
                        moved = true;
                        break;
                    }
                }
                if moved {
                    continue;
                }
                watching[keep] = index;
                keep += 1;
                if self.value(other) == 0 {
                    self.assign(other, index);
                } else {
                    conflict = Some(index);
                    while at < watching.len() {
                        watching[keep] = watching[at];
                        keep += 1;
                        at += 1;
                    }
                }
            }
            watching.truncate(keep);
            self.watches[code(falsified)] = watching;
            if conflict.is_some() {
                self.head = self.trail.len();
                return conflict;
            }
        }
        None
    }

    /// The clauses that propagation used to reach `conflict`, in the order they became unit,
    /// then `conflict` itself: the LRAT hints of the clause `assumed` whose negation was
    /// assumed. The variables of `assumed` need no reason: an LRAT checker assumes them first.
    pub(crate) fn hints(&mut self, conflict: u32, assumed: &[i32]) -> Vec<u32> {
        for &lit in assumed {
            self.assumed[lit.unsigned_abs() as usize] = true;
        }
        let start = self.starts[conflict as usize] as usize;
        let end = self.starts[conflict as usize + 1] as usize;
        for &lit in &self.literals[start..end] {
            self.seen[lit.unsigned_abs() as usize] = true;
        }
        let mut used = Vec::new();
        for at in (0..self.trail.len()).rev() {
            let var = self.trail[at].unsigned_abs() as usize;
            if !self.seen[var] {
                continue;
            }
            self.seen[var] = false;
            let reason = self.reason[var];
            if reason == DECISION || reason == conflict || self.assumed[var] {
                continue;
            }
            used.push(reason);
            let start = self.starts[reason as usize] as usize;
            let end = self.starts[reason as usize + 1] as usize;
            for k in start..end {
                let other = self.literals[k].unsigned_abs() as usize;
                if other != var {
                    self.seen[other] = true;
                }
            }
        }
        for &lit in assumed {
            self.assumed[lit.unsigned_abs() as usize] = false;
        }
        used.reverse();
        used.push(conflict);
        used
    }

    /// The reason of a literal's value (when it was implied): for a clause whose literal is
    /// already true at the root.
    pub(crate) fn reason_of(&self, lit: i32) -> Option<u32> {
        let reason = self.reason[lit.unsigned_abs() as usize];
        (reason != DECISION).then_some(reason)
    }

    /// Makes the unit clause `unit` (of literal `lit`, true) the reason of `lit`.
    pub(crate) fn rest_on(&mut self, lit: i32, unit: u32) {
        self.reason[lit.unsigned_abs() as usize] = unit;
    }

    /// The literals assigned so far, in order.
    pub(crate) fn trail(&self) -> &[i32] {
        &self.trail
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn propagation_finds_the_conflict_and_its_hints() {
        let mut store = Propagator::new(3);
        store.add(&[1, 2]); // 0
        store.add(&[-1, 3]); // 1
        store.add(&[-2, 3]); // 2
        store.add(&[-3]); // 3: a root unit
        assert_eq!(store.value(3), -1);
        // At the root: -3 gives -1 (clause 1) and -2 (clause 2), and clause 0 is false.
        assert_eq!(store.root_conflict(), Some(0));
        let hints = store.hints(0, &[]);
        assert_eq!(hints.last(), Some(&0));
        assert!(hints.starts_with(&[3]));
        assert_eq!(hints.len(), 4);
    }

    #[test]
    fn decisions_are_undone() {
        let mut store = Propagator::new(3);
        store.add(&[-1, 2]);
        store.add(&[-2, 3]);
        store.decide(1);
        assert_eq!(store.propagate(), None);
        assert_eq!(store.trail(), &[1, 2, 3]);
        store.undo();
        assert!(store.trail().is_empty());
        store.decide(-3);
        assert_eq!(store.propagate(), None);
        assert_eq!(store.value(1), -1);
    }
}
