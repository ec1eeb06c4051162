//! `fast` on boards of side 16 and up, once the plain search of [`super::large`] has spent its
//! first nodes without deciding: search with conflict learning (CDCL) over the literals
//! "cell = digit", started again from the board that [`super::large`]'s rules leave at the
//! root.
//!
//! Without learning the search commits to a wrong split in its first few levels and must
//! exhaust a subtree of hundreds of thousands of nodes to refute it (docs/benchmarks.md).
//! Here every contradiction is analysed to the first unique implication point, the clause
//! learned is kept, and the search jumps back to the level where that clause asserts.
//!
//! The constraints, each with its propagation:
//! - at most one digit per cell and one place per digit in a house, implicit: a literal made
//!   true removes its digit from the peers and the cell's other digits, each removal's reason
//!   being that literal (a binary clause never stored);
//! - at least one digit per cell and one place per digit in a house (naked and hidden
//!   singles): never stored either; each cell and each house-digit keeps the set of its
//!   literals not yet false, so a removal finds a single (reason: the others false) or an
//!   empty set (the conflict: all of them false) in constant time. Learned clauses, and the
//!   clauses that block solutions, are watched by two literals.
//!
//! Branching takes the unassigned variable of highest activity (VSIDS: bumped when it takes
//! part in a conflict's analysis, decayed after each conflict) with its saved phase (the value
//! it had when last unassigned; "placed" at first). Restarts follow the Luby sequence; when a
//! restart finds too many learned clauses, the half with the highest LBD goes (those of LBD 2
//! or less stay), and so it does between restarts past a cap, sparing the clauses that are
//! reasons.
//!
//! Counting stays exact: after a solution the clause that forbids it (no cell unplaced at the
//! root keeps its digit) is added at the root and the search goes on, until the clauses are
//! unsatisfiable or the solutions wanted are found. Counters here: `nodes` is the root and
//! one per decision, `guesses` one per decision, `propagation_rounds` one per propagation to
//! the fixpoint (after each decision, learned clause or restart).

use crate::model::layout::Layout;
use crate::model::{DigitSet, Grid};

use super::Tally;

/// How many decisions pass between two looks at the clock and the cancel flag.
const CLOCK_NODES: u64 = 16;

/// Conflicts per unit of the Luby sequence of restarts. Learned clauses are dropped at restarts
/// (see `reduce`; between them only past [`LEARNED_CAP`]), so the unit is also how long the
/// clauses learned since the last reduction are kept: long units keep many, which costs time
/// per node but on hard 25x25 puzzles saves more in nodes (docs/benchmarks.md).
const RESTART_UNIT: u64 = 10_000;

/// Activities shrink by this factor after each conflict (the bump grows by its inverse).
const ACTIVITY_DECAY: f64 = 0.95;

/// Learned clauses kept before the first reduction, and how much the bound grows after each.
const FIRST_REDUCTION: usize = 2_000;
const REDUCTION_GROWTH: usize = 300;

/// Learned clauses past which a reduction comes at once, between restarts: the restarts'
/// units grow with the Luby sequence, and a search of hours would otherwise keep millions.
const LEARNED_CAP: usize = 200_000;

/// A literal: `2 * var` says "var holds", `2 * var + 1` says it does not. Variable
/// `cell * side + d` is "cell holds digit d + 1".
type Lit = u32;

/// The value of a literal: unassigned, true or false.
const UNSET: u8 = 0;
const TRUE: u8 = 1;
const FALSE: u8 = 2;

/// Why a variable holds its value.
#[derive(Clone, Copy)]
enum Reason {
    /// A decision, or a fact of the root.
    None,
    /// A removal forced by this placement literal (at most one digit per cell and per house).
    Placement(Lit),
    /// A naked single: every other digit of this cell is false.
    Cell(u32),
    /// A hidden single: the digit of this `house * side + digit` is false in every other cell
    /// of the house.
    House(u32),
    /// The clause of this index, whose first literal is the one it implied.
    Clause(u32),
}

struct Clause {
    lits: Vec<Lit>,
    learned: bool,
    /// Distinct decision levels among the literals when learned (glucose's LBD).
    lbd: u32,
    deleted: bool,
}

#[derive(Clone, Copy)]
struct Watch {
    clause: u32,
    /// A literal of the clause: when it is true the clause need not be visited.
    blocker: Lit,
}

/// Variables by activity, highest first: a binary max-heap with each variable's position.
struct Heap {
    items: Vec<u32>,
    /// Position in `items`, `u32::MAX` when absent.
    position: Vec<u32>,
}

impl Heap {
    fn new(vars: usize) -> Heap {
        Heap {
            items: Vec::with_capacity(vars),
            position: vec![u32::MAX; vars],
        }
    }

    fn contains(&self, var: u32) -> bool {
        self.position[var as usize] != u32::MAX
    }

    fn insert(&mut self, var: u32, activity: &[f64]) {
        if self.contains(var) {
            return;
        }
        self.position[var as usize] = self.items.len() as u32;
        self.items.push(var);
        self.up(self.items.len() - 1, activity);
    }

    /// Restores the order after `var`'s activity grew.
    fn raised(&mut self, var: u32, activity: &[f64]) {
        if self.contains(var) {
            self.up(self.position[var as usize] as usize, activity);
        }
    }

    fn pop(&mut self, activity: &[f64]) -> Option<u32> {
        let top = *self.items.first()?;
        let last = self.items.pop()?;
        self.position[top as usize] = u32::MAX;
        if !self.items.is_empty() {
            self.items[0] = last;
            self.position[last as usize] = 0;
            self.down(0, activity);
        }
        Some(top)
    }

    fn up(&mut self, mut at: usize, activity: &[f64]) {
        let var = self.items[at];
        while at > 0 {
            let parent = (at - 1) / 2;
            let above = self.items[parent];
            if activity[above as usize] >= activity[var as usize] {
                break;
            }
            self.items[at] = above;
            self.position[above as usize] = at as u32;
            at = parent;
        }
        self.items[at] = var;
        self.position[var as usize] = at as u32;
    }

    fn down(&mut self, mut at: usize, activity: &[f64]) {
        let var = self.items[at];
        loop {
            let left = 2 * at + 1;
            if left >= self.items.len() {
                break;
            }
            let right = left + 1;
            let child = if right < self.items.len()
                && activity[self.items[right] as usize] > activity[self.items[left] as usize]
            {
                right
            } else {
                left
            };
            let below = self.items[child];
            if activity[below as usize] <= activity[var as usize] {
                break;
            }
            self.items[at] = below;
            self.position[below as usize] = at as u32;
            at = child;
        }
        self.items[at] = var;
        self.position[var as usize] = at as u32;
    }
}

/// The `i`-th term (from 0) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, ...
fn luby(mut i: u64) -> u64 {
    let (mut size, mut power) = (1u64, 0u32);
    while size < i + 1 {
        power += 1;
        size = 2 * size + 1;
    }
    while size - 1 != i {
        size = (size - 1) / 2;
        power -= 1;
        i %= size;
    }
    1 << power
}

struct Learner<'a, 't> {
    layout: &'a Layout,
    puzzle: &'a Grid,
    side: usize,
    /// Per literal, its value: a variable's two literals are set together.
    values: Vec<u8>,
    level: Vec<u32>,
    /// Why each assigned variable holds its value (stale once it is unassigned).
    reason: Vec<Reason>,
    /// The value each variable had when last unassigned.
    phase: Vec<bool>,
    activity: Vec<f64>,
    bump: f64,
    heap: Heap,
    trail: Vec<Lit>,
    /// Where each decision level starts in `trail`.
    levels: Vec<usize>,
    /// The next trail entry to propagate.
    head: usize,
    clauses: Vec<Clause>,
    /// Per literal, the clauses to visit when it becomes false.
    watches: Vec<Vec<Watch>>,
    learned: usize,
    /// [`LEARNED_CAP`], lowered by tests to reduce between restarts.
    learned_cap: usize,
    /// Learned clauses past which the next reduction between restarts comes: the cap, or
    /// above it when a reduction left more (clauses of LBD 2 or less, and reasons, stay), so
    /// that reductions cannot follow every conflict.
    reduce_above: usize,
    seen: Vec<bool>,
    /// Buffers of [`Learner::redundant`], kept to spare their allocations.
    stack: Vec<usize>,
    antecedents: Vec<Lit>,
    /// Per cell, the digits not yet false (bit `d` for digit `d + 1`).
    cell_open: Vec<u64>,
    /// Per `house * side + digit`, the places in the house (bit `i` for its `i`-th cell)
    /// where the digit is not yet false.
    house_open: Vec<u64>,
    /// `cell_open` and `house_open` as they were at the root, some time since the search
    /// began. A literal outside them is false at the root, where analysis ignores it, so the
    /// reasons and conflicts of the "at least one" sets list only the literals inside.
    root_cell_open: Vec<u64>,
    root_house_open: Vec<u64>,
    /// `slots[slot_start[cell]..slot_start[cell + 1]]`: each house of `cell` with the cell's
    /// place in it.
    slots: Vec<(u32, u32)>,
    slot_start: Vec<u32>,
    /// `apart[apart_start[cell]..apart_start[cell + 1]]`: the peers of `cell` that share no
    /// house with it (a variant's extra constraints), which the house sets do not reach.
    apart: Vec<u16>,
    apart_start: Vec<u32>,
    tally: &'t mut Tally<'a>,
}

/// The outcome of a propagation: the literals of a clause made false, if any.
type Conflict = Option<Vec<Lit>>;

/// Finishes a search that the plain search of [`super::large`] began: from its `root`, with
/// the solutions it found (boards of one candidate per cell) forbidden, so that the tally
/// counts each solution once.
pub(super) fn search<'a>(
    layout: &'a Layout,
    puzzle: &'a Grid,
    root: &[u64],
    found: &[Vec<u64>],
    tally: &mut Tally<'a>,
) {
    let mut learner = Learner::new(layout, puzzle, tally);
    if !learner.load(root) {
        return;
    }
    for solution in found {
        let lits = solution
            .iter()
            .enumerate()
            .map(|(cell, &bit)| 2 * (cell * layout.side + bit.trailing_zeros() as usize) as Lit + 1)
            .collect();
        if !learner.add_root_clause(lits, false) {
            return;
        }
    }
    learner.run();
}

impl<'a, 't> Learner<'a, 't> {
    fn new(layout: &'a Layout, puzzle: &'a Grid, tally: &'t mut Tally<'a>) -> Self {
        let side = layout.side;
        let vars = layout.cells * side;
        let mut slots = Vec::new();
        let mut slot_start = vec![0u32];
        for cell in 0..layout.cells {
            for &house in layout.houses_of_cell(cell) {
                let house = usize::from(house);
                let at = layout.houses[house * side..][..side]
                    .iter()
                    .position(|&other| usize::from(other) == cell)
                    .unwrap_or(0);
                slots.push((house as u32, at as u32));
            }
            slot_start.push(slots.len() as u32);
        }
        let mut apart = Vec::new();
        let mut apart_start = vec![0u32];
        // `mate[other] == cell + 1` when `other` shares a house with `cell`.
        let mut mate = vec![0usize; layout.cells];
        for cell in 0..layout.cells {
            for &house in layout.houses_of_cell(cell) {
                for &other in &layout.houses[usize::from(house) * side..][..side] {
                    mate[usize::from(other)] = cell + 1;
                }
            }
            apart.extend(
                layout
                    .peers(cell)
                    .iter()
                    .filter(|&&peer| mate[usize::from(peer)] != cell + 1),
            );
            apart_start.push(apart.len() as u32);
        }
        let full = DigitSet::full(side).bits();
        Learner {
            layout,
            puzzle,
            side,
            values: vec![UNSET; 2 * vars],
            level: vec![0; vars],
            reason: vec![Reason::None; vars],
            phase: vec![true; vars],
            activity: vec![0.0; vars],
            bump: 1.0,
            heap: Heap::new(vars),
            trail: Vec::with_capacity(vars),
            levels: Vec::new(),
            head: 0,
            clauses: Vec::new(),
            watches: vec![Vec::new(); 2 * vars],
            learned: 0,
            learned_cap: LEARNED_CAP,
            reduce_above: LEARNED_CAP,
            seen: vec![false; vars],
            stack: Vec::new(),
            antecedents: Vec::new(),
            cell_open: vec![full; layout.cells],
            house_open: vec![full; layout.house_count() * side],
            root_cell_open: vec![full; layout.cells],
            root_house_open: vec![full; layout.house_count() * side],
            slots,
            slot_start,
            apart,
            apart_start,
            tally,
        }
    }
}

impl Learner<'_, '_> {
    #[inline]
    fn value(&self, lit: Lit) -> u8 {
        self.values[lit as usize]
    }

    /// Marks variable `var` false in the sets of what is still open.
    #[inline]
    fn close(&mut self, var: usize) {
        let (cell, digit) = (var / self.side, var % self.side);
        self.cell_open[cell] &= !(1u64 << digit);
        for k in self.slot_start[cell] as usize..self.slot_start[cell + 1] as usize {
            let (house, at) = self.slots[k];
            self.house_open[house as usize * self.side + digit] &= !(1u64 << at);
        }
    }

    /// Undoes [`Learner::close`].
    #[inline]
    fn reopen(&mut self, var: usize) {
        let (cell, digit) = (var / self.side, var % self.side);
        self.cell_open[cell] |= 1u64 << digit;
        for k in self.slot_start[cell] as usize..self.slot_start[cell + 1] as usize {
            let (house, at) = self.slots[k];
            self.house_open[house as usize * self.side + digit] |= 1u64 << at;
        }
    }

    /// The variable of the `at`-th cell of `house` and `digit`.
    #[inline]
    fn house_var(&self, house: usize, at: usize, digit: usize) -> usize {
        usize::from(self.layout.houses[house * self.side + at]) * self.side + digit
    }

    /// The literals of the "at least one" clause of cell `cell`, or of `house * side + digit`,
    /// that were open at the root when last looked ([`Learner::look_at_root`]): the others
    /// are false at the root.
    fn at_least_one(&self, reason: Reason, out: &mut Vec<Lit>) {
        let side = self.side;
        match reason {
            Reason::Cell(cell) => {
                let mut open = self.root_cell_open[cell as usize];
                while open != 0 {
                    let digit = open.trailing_zeros() as usize;
                    open &= open - 1;
                    out.push(2 * (cell as usize * side + digit) as Lit);
                }
            }
            Reason::House(index) => {
                let (house, digit) = (index as usize / side, index as usize % side);
                let mut open = self.root_house_open[index as usize];
                while open != 0 {
                    let at = open.trailing_zeros() as usize;
                    open &= open - 1;
                    out.push(2 * self.house_var(house, at, digit) as Lit);
                }
            }
            _ => {}
        }
    }

    /// Takes the root's open sets as they are now; at the root only.
    fn look_at_root(&mut self) {
        self.root_cell_open.copy_from_slice(&self.cell_open);
        self.root_house_open.copy_from_slice(&self.house_open);
    }

    /// After variable `var` became false: the naked and hidden singles it leaves, or the
    /// "at least one" clause it falsifies.
    fn singles(&mut self, var: usize) -> Conflict {
        let (cell, digit) = (var / self.side, var % self.side);
        let open = self.cell_open[cell];
        if open == 0 {
            let mut lits = Vec::new();
            self.at_least_one(Reason::Cell(cell as u32), &mut lits);
            return Some(lits);
        }
        if super::large::single(open) {
            let lit = 2 * (cell * self.side + open.trailing_zeros() as usize) as Lit;
            self.enqueue(lit, Reason::Cell(cell as u32));
        }
        for k in self.slot_start[cell] as usize..self.slot_start[cell + 1] as usize {
            let (house, _) = self.slots[k];
            let index = house as usize * self.side + digit;
            let open = self.house_open[index];
            if open == 0 {
                let mut lits = Vec::new();
                self.at_least_one(Reason::House(index as u32), &mut lits);
                return Some(lits);
            }
            if super::large::single(open) {
                let place = self.house_var(house as usize, open.trailing_zeros() as usize, digit);
                self.enqueue(2 * place as Lit, Reason::House(index as u32));
            }
        }
        None
    }

    fn decision_level(&self) -> u32 {
        self.levels.len() as u32
    }

    /// Makes `lit` true; `false` if it is already false.
    #[inline]
    fn enqueue(&mut self, lit: Lit, reason: Reason) -> bool {
        match self.value(lit) {
            TRUE => true,
            FALSE => false,
            _ => {
                let var = (lit >> 1) as usize;
                self.values[lit as usize] = TRUE;
                self.values[lit as usize ^ 1] = FALSE;
                self.level[var] = self.decision_level();
                self.reason[var] = reason;
                self.trail.push(lit);
                if lit & 1 == 1 {
                    self.close(var);
                }
                true
            }
        }
    }

    /// Sets the root's facts; `false` if they contradict at once.
    fn load(&mut self, root: &[u64]) -> bool {
        let side = self.side;
        for (cell, &candidates) in root.iter().enumerate() {
            for digit in 0..side {
                let var = (cell * side + digit) as Lit;
                if candidates & (1 << digit) == 0 {
                    self.enqueue(2 * var + 1, Reason::None);
                } else if candidates.is_power_of_two() {
                    self.enqueue(2 * var, Reason::None);
                }
            }
        }
        // Fewer candidates, more activity at first: the first decisions follow the fewest
        // choices, as the plain search does.
        for (cell, &candidates) in root.iter().enumerate() {
            let start = 1.0 / f64::from(candidates.count_ones().max(1));
            for digit in 0..side {
                let var = cell * side + digit;
                self.activity[var] = start * 1e-3;
            }
        }
        for var in 0..self.level.len() {
            if self.value(2 * var as Lit) == UNSET {
                self.heap.insert(var as u32, &self.activity);
            }
        }
        self.propagate().is_none()
    }

    /// Adds a clause at the root (no decision made): literals false there dropped, nothing
    /// added if one is true; `false` if no literal is left.
    fn add_root_clause(&mut self, lits: Vec<Lit>, learned: bool) -> bool {
        if lits.iter().any(|&lit| self.value(lit) == TRUE) {
            return true;
        }
        let lits: Vec<Lit> = lits
            .into_iter()
            .filter(|&lit| self.value(lit) == UNSET)
            .collect();
        match lits.len() {
            0 => false,
            1 => self.enqueue(lits[0], Reason::None),
            _ => {
                self.attach(lits, learned, 0);
                true
            }
        }
    }

    /// Stores a clause of two or more literals, watching its first two; returns its index.
    fn attach(&mut self, lits: Vec<Lit>, learned: bool, lbd: u32) -> u32 {
        let index = self.clauses.len() as u32;
        self.watches[lits[0] as usize].push(Watch {
            clause: index,
            blocker: lits[1],
        });
        self.watches[lits[1] as usize].push(Watch {
            clause: index,
            blocker: lits[0],
        });
        self.learned += usize::from(learned);
        self.clauses.push(Clause {
            lits,
            learned,
            lbd,
            deleted: false,
        });
        index
    }

    /// Propagates the trail to the fixpoint; the literals of a falsified clause on a
    /// contradiction.
    fn propagate(&mut self) -> Conflict {
        self.tally.rounds += 1;
        while self.head < self.trail.len() {
            let lit = self.trail[self.head];
            self.head += 1;
            if lit & 1 == 0
                && let Err(conflict) = self.place((lit >> 1) as usize)
            {
                return Some(conflict);
            }
            if lit & 1 == 1
                && let Some(conflict) = self.singles((lit >> 1) as usize)
            {
                return Some(conflict);
            }
            if let Some(conflict) = self.visit_watches(lit ^ 1) {
                return Some(conflict);
            }
        }
        None
    }

    /// Takes variable `var`, just made true, out of its cell's other digits and its digit's
    /// other places; `Err` with the clause two placements break.
    fn place(&mut self, var: usize) -> Result<(), Vec<Lit>> {
        let side = self.side;
        let (cell, digit) = (var / side, var % side);
        let lit = 2 * var as Lit;
        // Only literals not yet false are visited: the cell's open digits, the open places of
        // the digit in each of its houses, then the peers outside them.
        let mut others = self.cell_open[cell] & !(1u64 << digit);
        while others != 0 {
            let removed = cell * side + others.trailing_zeros() as usize;
            others &= others - 1;
            self.exclude(removed, lit)?;
        }
        for k in self.slot_start[cell] as usize..self.slot_start[cell + 1] as usize {
            let (house, at) = self.slots[k];
            let mut places = self.house_open[house as usize * side + digit] & !(1u64 << at);
            while places != 0 {
                let place = places.trailing_zeros() as usize;
                places &= places - 1;
                self.exclude(self.house_var(house as usize, place, digit), lit)?;
            }
        }
        for k in self.apart_start[cell] as usize..self.apart_start[cell + 1] as usize {
            self.exclude(self.apart[k] as usize * side + digit, lit)?;
        }
        Ok(())
    }

    /// Makes variable `var` false because placement `placed` holds; `Err` with the clause of
    /// the two when `var` is already true.
    #[inline]
    fn exclude(&mut self, var: usize, placed: Lit) -> Result<(), Vec<Lit>> {
        let removed = 2 * var as Lit + 1;
        if self.enqueue(removed, Reason::Placement(placed)) {
            Ok(())
        } else {
            Err(vec![placed ^ 1, removed])
        }
    }

    /// Visits the clauses watching `false_lit`, which has just become false.
    fn visit_watches(&mut self, false_lit: Lit) -> Conflict {
        if self.watches[false_lit as usize].is_empty() {
            return None;
        }
        let mut watches = std::mem::take(&mut self.watches[false_lit as usize]);
        let mut kept = 0;
        let mut at = 0;
        let mut conflict = None;
        while at < watches.len() {
            let watch = watches[at];
            at += 1;
            if self.value(watch.blocker) == TRUE {
                watches[kept] = watch;
                kept += 1;
                continue;
            }
            let index = watch.clause as usize;
            if self.clauses[index].deleted {
                continue;
            }
            let mut lits = std::mem::take(&mut self.clauses[index].lits);
            if lits[0] == false_lit {
                lits.swap(0, 1);
            }
            let first = lits[0];
            let mut moved = false;
            if self.value(first) != TRUE {
                for k in 2..lits.len() {
                    if self.value(lits[k]) != FALSE {
                        lits.swap(1, k);
                        self.watches[lits[1] as usize].push(Watch {
                            clause: watch.clause,
                            blocker: first,
                        });
                        moved = true;
                        break;
                    }
                }
            }
            if !moved {
                watches[kept] = Watch {
                    clause: watch.clause,
                    blocker: first,
                };
                kept += 1;
                if self.value(first) == FALSE {
                    conflict = Some(lits.clone());
                } else {
                    self.enqueue(first, Reason::Clause(watch.clause));
                }
            }
            self.clauses[index].lits = lits;
            if conflict.is_some() {
                while at < watches.len() {
                    watches[kept] = watches[at];
                    kept += 1;
                    at += 1;
                }
            }
        }
        watches.truncate(kept);
        self.watches[false_lit as usize] = watches;
        conflict
    }

    /// The false literals that made `var` take its value (its reason clause without it).
    fn antecedents(&self, var: usize, out: &mut Vec<Lit>) {
        out.clear();
        match self.reason[var] {
            Reason::None => {}
            Reason::Placement(lit) => out.push(lit ^ 1),
            Reason::Clause(index) => out.extend_from_slice(&self.clauses[index as usize].lits[1..]),
            Reason::Cell(_) | Reason::House(_) => {
                self.at_least_one(self.reason[var], out);
                out.retain(|&lit| (lit >> 1) as usize != var);
            }
        }
    }

    fn bump_var(&mut self, var: usize) {
        self.activity[var] += self.bump;
        if self.activity[var] > 1e100 {
            for activity in &mut self.activity {
                *activity *= 1e-100;
            }
            self.bump *= 1e-100;
        }
        self.heap.raised(var as u32, &self.activity);
    }

    /// First-UIP analysis of a conflict at a level above the root: the learned clause (its
    /// first literal the one it asserts, its second one of the highest level below) and the
    /// level to jump back to.
    fn analyze(&mut self, conflict: Vec<Lit>) -> (Vec<Lit>, u32) {
        let current = self.decision_level();
        let mut learned: Vec<Lit> = vec![0];
        let mut pending = 0usize;
        let mut reason = conflict;
        let mut scratch = Vec::new();
        let mut index = self.trail.len();
        let uip = loop {
            for &lit in &reason {
                let var = (lit >> 1) as usize;
                if self.seen[var] || self.level[var] == 0 {
                    continue;
                }
                self.seen[var] = true;
                self.bump_var(var);
                if self.level[var] == current {
                    pending += 1;
                } else {
                    learned.push(lit);
                }
            }
            let lit = loop {
                index -= 1;
                let lit = self.trail[index];
                if self.seen[(lit >> 1) as usize] {
                    break lit;
                }
            };
            let var = (lit >> 1) as usize;
            self.seen[var] = false;
            pending -= 1;
            if pending == 0 {
                break lit;
            }
            self.antecedents(var, &mut scratch);
            std::mem::swap(&mut reason, &mut scratch);
        };
        learned[0] = uip ^ 1;
        // A literal implied by the others (its reasons, followed back, end in the clause or
        // at the root) adds nothing: MiniSat's recursive minimisation.
        let levels = learned[1..].iter().fold(0u64, |levels, &lit| {
            levels | 1 << (self.level[(lit >> 1) as usize] % 64)
        });
        let mut cleared = Vec::new();
        let mut minimized = vec![learned[0]];
        for &lit in &learned[1..] {
            let var = (lit >> 1) as usize;
            if matches!(self.reason[var], Reason::None)
                || !self.redundant(var, levels, &mut cleared)
            {
                minimized.push(lit);
            }
        }
        for &lit in &learned[1..] {
            self.seen[(lit >> 1) as usize] = false;
        }
        for var in cleared {
            self.seen[var] = false;
        }
        let mut back = 0;
        if minimized.len() > 1 {
            let mut highest = 1;
            for i in 2..minimized.len() {
                if self.level[(minimized[i] >> 1) as usize]
                    > self.level[(minimized[highest] >> 1) as usize]
                {
                    highest = i;
                }
            }
            minimized.swap(1, highest);
            back = self.level[(minimized[1] >> 1) as usize];
        }
        (minimized, back)
    }

    /// Whether variable `var`, in the clause being learned, follows from the clause's other
    /// literals: every path back through the reasons ends at a literal seen (in the clause,
    /// or shown implied before) or at the root. `levels` has bit `level % 64` set for each
    /// level in the clause. The walk fails at a decision, and at a variable of a level the
    /// clause has no literal of (its reasons lead back to that level's decision, which is
    /// not in the clause). Variables shown implied stay seen and are added to `cleared`.
    fn redundant(&mut self, var: usize, levels: u64, cleared: &mut Vec<usize>) -> bool {
        let mut stack = std::mem::take(&mut self.stack);
        let mut antecedents = std::mem::take(&mut self.antecedents);
        stack.clear();
        stack.push(var);
        let top = cleared.len();
        let mut implied = true;
        while let Some(at) = stack.pop() {
            self.antecedents(at, &mut antecedents);
            for &lit in &antecedents {
                let other = (lit >> 1) as usize;
                if self.seen[other] || self.level[other] == 0 {
                    continue;
                }
                if matches!(self.reason[other], Reason::None)
                    || levels & 1 << (self.level[other] % 64) == 0
                {
                    for &var in &cleared[top..] {
                        self.seen[var] = false;
                    }
                    cleared.truncate(top);
                    implied = false;
                    stack.clear();
                    break;
                }
                self.seen[other] = true;
                stack.push(other);
                cleared.push(other);
            }
        }
        self.stack = stack;
        self.antecedents = antecedents;
        implied
    }

    /// Undoes every level above `target`.
    fn backtrack(&mut self, target: u32) {
        if self.decision_level() <= target {
            return;
        }
        let start = self.levels[target as usize];
        for at in (start..self.trail.len()).rev() {
            let lit = self.trail[at];
            let var = (lit >> 1) as usize;
            self.values[2 * var] = UNSET;
            self.values[2 * var + 1] = UNSET;
            if lit & 1 == 1 {
                self.reopen(var);
            }
            self.phase[var] = lit & 1 == 0;
            self.heap.insert(var as u32, &self.activity);
        }
        self.trail.truncate(start);
        self.head = start;
        self.levels.truncate(target as usize);
    }

    /// Whether clause `index` is the reason of an assignment that stands: its first literal
    /// is the one it implied, and stays first while it holds.
    fn locked(&self, index: u32) -> bool {
        let first = self.clauses[index as usize].lits[0];
        self.value(first) == TRUE
            && matches!(self.reason[(first >> 1) as usize], Reason::Clause(i) if i == index)
    }

    /// Drops the learned clauses of highest LBD, half of those above 2 that are not the
    /// reason of an assignment that stands (analysis reads those).
    fn reduce(&mut self) {
        let mut candidates: Vec<u32> = (0..self.clauses.len() as u32)
            .filter(|&i| {
                let clause = &self.clauses[i as usize];
                clause.learned && !clause.deleted && clause.lbd > 2 && !self.locked(i)
            })
            .collect();
        // Highest LBD first, the older first among equals.
        candidates.sort_by_key(|&i| (std::cmp::Reverse(self.clauses[i as usize].lbd), i));
        for &i in &candidates[..candidates.len() / 2] {
            let clause = &mut self.clauses[i as usize];
            clause.deleted = true;
            clause.lits = Vec::new();
            self.learned -= 1;
        }
    }

    /// The grid of the current full assignment.
    fn solution(&self) -> Grid {
        let mut grid = self.puzzle.clone().without_rules();
        for cell in 0..self.layout.cells {
            let digit = (0..self.side)
                .find(|&d| self.values[2 * (cell * self.side + d)] == TRUE)
                .unwrap_or(0);
            grid.set(cell, digit as u8 + 1);
        }
        grid
    }

    fn run(&mut self) {
        let mut restarts = 0u64;
        let mut conflicts_here = 0u64;
        let mut reduction_at = FIRST_REDUCTION;
        self.look_at_root();
        loop {
            if let Some(conflict) = self.propagate() {
                if self.decision_level() == 0 {
                    return;
                }
                let (learned, back) = self.analyze(conflict);
                let lbd = {
                    let mut levels: Vec<u32> = learned
                        .iter()
                        .map(|&lit| self.level[(lit >> 1) as usize])
                        .collect();
                    levels.sort_unstable();
                    levels.dedup();
                    levels.len() as u32
                };
                self.backtrack(back);
                let asserted = learned[0];
                if learned.len() == 1 {
                    self.enqueue(asserted, Reason::None);
                } else {
                    let index = self.attach(learned, true, lbd);
                    self.enqueue(asserted, Reason::Clause(index));
                }
                self.bump /= ACTIVITY_DECAY;
                conflicts_here += 1;
                if self.learned > self.reduce_above {
                    self.reduce();
                    self.reduce_above = self.learned_cap.max(self.learned + self.learned_cap / 4);
                }
                continue;
            }
            if conflicts_here >= luby(restarts) * RESTART_UNIT {
                restarts += 1;
                conflicts_here = 0;
                self.backtrack(0);
                self.look_at_root();
                if self.learned > reduction_at {
                    self.reduce();
                    reduction_at += REDUCTION_GROWTH;
                }
                continue;
            }
            let Some(var) = self.pick() else {
                if !self.tally.report(&self.solution()) || !self.block_solution() {
                    return;
                }
                continue;
            };
            if !self.tally.enter_node() {
                return;
            }
            if self.tally.nodes % CLOCK_NODES == 0
                && self.tally.budget.has_clock()
                && let Err(stop) = self.tally.budget.check_clock()
            {
                self.tally.stopped = Some(stop);
                return;
            }
            self.tally.guesses += 1;
            self.levels.push(self.trail.len());
            let lit = 2 * var + u32::from(!self.phase[var as usize]);
            self.enqueue(lit, Reason::None);
        }
    }

    /// The unassigned variable of highest activity, `None` when all are assigned.
    fn pick(&mut self) -> Option<u32> {
        while let Some(var) = self.heap.pop(&self.activity) {
            if self.value(2 * var) == UNSET {
                return Some(var);
            }
        }
        None
    }

    /// Adds, at the root, the clause that forbids the current solution; `false` when no
    /// other solution can exist (every cell was placed at the root).
    fn block_solution(&mut self) -> bool {
        let lits: Vec<Lit> = self
            .trail
            .iter()
            .filter(|&&lit| lit & 1 == 0 && self.level[(lit >> 1) as usize] > 0)
            .map(|&lit| lit ^ 1)
            .collect();
        self.backtrack(0);
        self.add_root_clause(lits, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{Format, Reader};
    use crate::model::Shape;
    use crate::strategy::{Limits, Outcome, Verdict};

    fn puzzles(text: &str) -> Vec<Grid> {
        Reader::new(text.as_bytes(), Format::Line, None)
            .map(|record| record.unwrap().puzzle)
            .collect()
    }

    /// The board of `puzzle`'s givens alone (no rule applied), `None` when two givens clash.
    fn givens_board(puzzle: &Grid, layout: &Layout) -> Option<Vec<u64>> {
        let mut board = vec![DigitSet::full(layout.side).bits(); layout.cells];
        for cell in 0..layout.cells {
            let digit = puzzle.get(cell);
            if digit == 0 {
                continue;
            }
            let bit = 1u64 << (digit - 1);
            if board[cell] & bit == 0 {
                return None;
            }
            board[cell] = bit;
            for &peer in layout.peers(cell) {
                board[peer as usize] &= !bit;
            }
        }
        Some(board)
    }

    /// Runs the learning search from the givens alone; every solution, sorted, and the
    /// outcome.
    fn learn_all(puzzle: &Grid, limits: &Limits) -> (Vec<Vec<u8>>, Outcome) {
        let layout = Layout::of(puzzle.shape());
        let mut solutions = Vec::new();
        let mut on_solution = |grid: &Grid| solutions.push(grid.cells().to_vec());
        let mut tally = Tally::new(limits, &mut on_solution);
        if let Some(root) = givens_board(puzzle, layout) {
            tally.enter_node();
            search(layout, puzzle, &root, &[], &mut tally);
        }
        let outcome = tally.outcome();
        solutions.sort();
        (solutions, outcome)
    }

    /// Every solution of the 9x9 path, sorted.
    fn classic_all(puzzle: &Grid) -> Vec<Vec<u8>> {
        let mut solutions = Vec::new();
        super::super::classic::search(puzzle, &Limits::unlimited(), &mut |grid| {
            solutions.push(grid.cells().to_vec());
        });
        solutions.sort();
        solutions
    }

    /// The 9x9 test puzzles: the reference set, and minimal puzzles as they are and with one
    /// to three givens taken out (up to a few hundred solutions).
    fn nine_by_nine() -> Vec<Grid> {
        let mut all = puzzles(include_str!("../../../../../corpora/reference.txt"));
        all.extend(super::super::loosened_minimal(30));
        all.retain(|puzzle| puzzle.shape() == Shape::CLASSIC);
        all
    }

    /// Learning, backjumping, restarts and the clauses that block solutions found lose no
    /// solution and count none twice: the same solutions as the 9x9 path, from the givens
    /// alone (so that the search, not the root's rules, does the work).
    #[test]
    fn learning_finds_what_the_classic_path_finds() {
        let mut multiple = 0;
        let mut learned_any = 0;
        for puzzle in nine_by_nine() {
            let (found, outcome) = learn_all(&puzzle, &Limits::unlimited());
            let line = crate::model::to_line(&puzzle).unwrap();
            assert_eq!(found, classic_all(&puzzle), "{line}");
            assert_eq!(outcome.found as usize, found.len(), "{line}");
            assert_eq!(outcome.stopped, None, "{line}");
            multiple += usize::from(found.len() > 1);
            learned_any +=
                usize::from(outcome.stats.get(crate::strategy::Counter::Guesses) > Some(0));
        }
        assert!(
            multiple >= 10,
            "only {multiple} puzzles with several solutions"
        );
        assert!(
            learned_any >= 20,
            "only {learned_any} puzzles needed a decision"
        );
    }

    /// A variant's constraints that no house holds (anti-knight, anti-king) are propagated:
    /// from the givens alone every bundled puzzle has exactly its bundled solution.
    #[test]
    fn constraints_outside_the_houses_are_kept() {
        let mut decided = 0;
        for text in [
            include_str!("../../../../../corpora/variants/anti-knight.json"),
            include_str!("../../../../../corpora/variants/anti-king.json"),
        ] {
            for record in Reader::new(text.as_bytes(), Format::Json, None) {
                let record = record.unwrap();
                let (puzzle, solution) = (record.puzzle, record.solution.unwrap());
                let layout = Layout::for_rules(puzzle.rules().unwrap());
                assert!(
                    layout.peers(2).len() > 20,
                    "no constraint beyond the houses"
                );
                let mut found = Vec::new();
                let mut on_solution = |grid: &Grid| found.push(grid.cells().to_vec());
                let limits = Limits::unlimited();
                let mut tally = Tally::new(&limits, &mut on_solution);
                tally.enter_node();
                search(
                    &layout,
                    &puzzle,
                    &givens_board(&puzzle, &layout).unwrap(),
                    &[],
                    &mut tally,
                );
                assert_eq!(found, [solution.cells().to_vec()]);
                decided += 1;
            }
        }
        assert_eq!(decided, 8);
    }

    /// The minimal 16x16 puzzles with their bundled solutions.
    fn minimal_16x16() -> Vec<(Grid, Grid)> {
        let text = include_str!("../../../../../corpora/minimal-16x16.txt");
        Reader::new(text.as_bytes(), Format::Line, None)
            .map(|record| {
                let record = record.unwrap();
                (record.puzzle, record.solution.unwrap())
            })
            .collect()
    }

    /// What the learner does from `puzzle`'s givens alone (so that the search meets
    /// contradictions and learns), wanting `wanted` solutions and keeping at most `cap` learned
    /// clauses between restarts: the solutions, the outcome, the learned clauses kept and how
    /// many were dropped.
    fn learn_from_givens(
        puzzle: &Grid,
        wanted: u64,
        cap: usize,
    ) -> (Vec<Vec<u8>>, Outcome, Vec<Vec<Lit>>, usize) {
        let layout = Layout::of(puzzle.shape());
        let limits = Limits::solutions(wanted);
        let mut found = Vec::new();
        let mut on_solution = |grid: &Grid| found.push(grid.cells().to_vec());
        let mut tally = Tally::new(&limits, &mut on_solution);
        tally.enter_node();
        let mut learner = Learner::new(layout, puzzle, &mut tally);
        (learner.learned_cap, learner.reduce_above) = (cap, cap);
        assert!(learner.load(&givens_board(puzzle, layout).unwrap()));
        learner.run();
        let kept = learner.clauses.iter().filter(|c| c.learned && !c.deleted);
        let kept = kept.map(|c| c.lits.clone()).collect();
        let dropped = learner.clauses.iter().filter(|c| c.deleted).count();
        let outcome = tally.outcome();
        (found, outcome, kept, dropped)
    }

    /// Every clause learned while looking for the first solution is implied by the puzzle: the
    /// bundled solution of each minimal 16x16 puzzle satisfies it, literal by literal.
    #[test]
    fn learned_clauses_hold_in_the_solution() {
        let mut clauses = 0;
        for (puzzle, solution) in minimal_16x16() {
            let side = puzzle.shape().side();
            let (found, _, kept, _) = learn_from_givens(&puzzle, 1, LEARNED_CAP);
            for clause in kept {
                clauses += 1;
                let holds = clause.iter().any(|&lit| {
                    let var = (lit >> 1) as usize;
                    let placed = solution.get(var / side) as usize == var % side + 1;
                    placed == (lit & 1 == 0)
                });
                assert!(holds, "{clause:?} fails the solution");
            }
            assert_eq!(found, [solution.cells().to_vec()]);
        }
        assert!(clauses > 0, "no clause learned: nothing was checked");
    }

    /// Reductions between restarts (the learned clauses past a cap lowered to 20) spare the
    /// clauses that are reasons: each minimal 16x16 puzzle, from its givens alone, is still
    /// proven unique with its bundled solution, and clauses were dropped on the way.
    #[test]
    fn reducing_between_restarts_keeps_the_reasons() {
        let mut dropped = 0;
        for (puzzle, solution) in minimal_16x16() {
            let (found, outcome, _, gone) = learn_from_givens(&puzzle, 2, 20);
            dropped += gone;
            assert_eq!(found, [solution.cells().to_vec()]);
            assert_eq!((outcome.found, outcome.verdict()), (1, Verdict::Unique));
        }
        assert!(dropped > 0, "no clause dropped: nothing was checked");
    }

    /// The node budget (the root and one per decision) stops the search and says so.
    #[test]
    fn learning_stops_at_its_node_budget() {
        // The empty grid: two decisions and their propagation cannot fill it.
        let puzzle = puzzles(&".".repeat(81)).remove(0);
        let (found, outcome) = learn_all(&puzzle, &Limits::unlimited().with_max_nodes(3));
        assert_eq!(found.len(), 0);
        assert_eq!(outcome.stopped, Some(crate::strategy::Stop::NodeLimit));
        assert_eq!(outcome.stats.get(crate::strategy::Counter::Nodes), Some(3));
    }

    /// The Luby sequence, as Luby, Sinclair and Zuckerman define it.
    #[test]
    fn luby_sequence() {
        let terms: Vec<u64> = (0..15).map(luby).collect();
        assert_eq!(terms, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}
