//! CNF encodings of a puzzle, written as DIMACS and decoded back from a solver's model.
//!
//! One variable per cell and digit ("cell holds digit").
//! - `minimal` (Lynce and Ouaknine 2006): every cell holds at least one digit; no digit twice
//!   in a row, column or box (pairwise); givens as unit clauses.
//! - `extended` (Lynce and Ouaknine 2006): `minimal` plus every cell holds at most one digit
//!   and every house holds every digit at least once. Redundant, but gives unit propagation
//!   much more to work with.
//! - `reduced` (after Kwon and Jain 2006): the givens are propagated away before encoding.
//!   Variables exist only for the candidates of empty cells (digits not used by a given peer);
//!   clauses made true by a given are dropped and literals made false are removed; the rest is
//!   the extended encoding. Far smaller, and what the `sat` strategy uses.
//!
//! A DIMACS file written here carries the box shape, the givens and the meaning of every
//! variable in `c sudolab ...` comment lines, so that [`decode_dimacs_model`] can turn any
//! solver's model back into a grid without the original puzzle file.

use std::fmt::Write as _;

use super::Propagated;
use crate::model::rules::RuleCheck;
use crate::model::{DigitSet, Grid, Rules, RulesSpec, Shape, find_conflict};

crate::model::choice::choice! {
    /// Which CNF encoding to build.
    #[derive(Hash)]
    pub enum Encoding ("encoding", default Reduced) {
        /// Lynce and Ouaknine's minimal encoding.
        Minimal = "minimal",
        /// Lynce and Ouaknine's extended encoding.
        Extended = "extended",
        /// The extended encoding over the candidates left by the givens (Kwon and Jain).
        Reduced = "reduced",
    }
}

/// A CNF formula for a puzzle, with the meaning of each variable.
#[derive(Clone, Debug)]
pub struct Cnf {
    puzzle: Grid,
    encoding: Encoding,
    /// `vars[v - 1]` is the (cell, digit) of DIMACS variable `v`.
    vars: Vec<(u32, u8)>,
    /// `var_of[cell * side + digit - 1]`: the DIMACS variable, or 0 when there is none.
    var_of: Vec<u32>,
    /// Clause literals in DIMACS numbering, each clause ended by a 0.
    literals: Vec<i32>,
    clause_count: usize,
}

impl Cnf {
    /// Encodes `puzzle`. Conflicting givens give a formula with an empty clause.
    pub fn build(puzzle: &Grid, encoding: Encoding) -> Cnf {
        let shape = puzzle.shape();
        let side = shape.side();
        let mut cnf = Cnf {
            puzzle: puzzle.clone(),
            encoding,
            vars: Vec::new(),
            var_of: vec![0; shape.cell_count() * side],
            literals: Vec::new(),
            clause_count: 0,
        };
        let houses = houses_of(puzzle);
        match encoding {
            Encoding::Minimal | Encoding::Extended => {
                for cell in 0..shape.cell_count() {
                    for digit in 1..=side as u8 {
                        cnf.new_var(cell, digit);
                    }
                }
                for cell in 0..shape.cell_count() {
                    let lits: Vec<i32> = (1..=side as u8).map(|d| cnf.lit(cell, d)).collect();
                    cnf.add_clause(&lits);
                    if encoding == Encoding::Extended {
                        cnf.at_most_one(&lits);
                    }
                    let given = puzzle.get(cell);
                    if given != 0 {
                        let unit = cnf.lit(cell, given);
                        cnf.add_clause(&[unit]);
                    }
                }
                for cells in &houses {
                    for digit in 1..=side as u8 {
                        let lits: Vec<i32> =
                            cells.iter().map(|&cell| cnf.lit(cell, digit)).collect();
                        cnf.at_most_one(&lits);
                        if encoding == Encoding::Extended {
                            cnf.add_clause(&lits);
                        }
                    }
                }
                if let Some(rules) = puzzle.rules() {
                    cnf.add_rules_beyond_houses(rules, false);
                }
            }
            Encoding::Reduced => {
                if find_conflict(puzzle).is_some() {
                    cnf.add_clause(&[]);
                    return cnf;
                }
                let candidates = match puzzle.rules() {
                    Some(rules) => variant_candidates_of(puzzle, rules),
                    None => candidates_of(puzzle),
                };
                for (cell, cell_candidates) in candidates.iter().enumerate() {
                    for digit in cell_candidates.iter() {
                        cnf.new_var(cell, digit);
                    }
                }
                // About (4 + 3 (k - 1)) k literals for each set of k candidates, k near 5
                // in a cell or a house's digit.
                cnf.literals.reserve(cnf.vars.len() * 50);
                let mut lits = Vec::with_capacity(side);
                for (cell, cell_candidates) in candidates.iter().enumerate() {
                    if puzzle.get(cell) != 0 {
                        continue;
                    }
                    lits.clear();
                    lits.extend(cell_candidates.iter().map(|d| cnf.lit(cell, d)));
                    cnf.add_clause(&lits);
                    cnf.at_most_one(&lits);
                }
                for cells in &houses {
                    let placed: DigitSet = cells
                        .iter()
                        .filter(|&&cell| puzzle.get(cell) != 0)
                        .fold(DigitSet::EMPTY, |mut set, &cell| {
                            set.insert(puzzle.get(cell));
                            set
                        });
                    for digit in 1..=side as u8 {
                        if placed.contains(digit) {
                            continue;
                        }
                        lits.clear();
                        lits.extend(
                            cells
                                .iter()
                                .filter(|&&cell| candidates[cell].contains(digit))
                                .map(|&cell| cnf.lit(cell, digit)),
                        );
                        cnf.add_clause(&lits);
                        cnf.at_most_one(&lits);
                    }
                }
                if let Some(rules) = puzzle.rules() {
                    cnf.add_rules_beyond_houses(rules, true);
                }
            }
        }
        cnf
    }

    /// The variable of "cell holds digit", if the encoding has one.
    fn lit_if_any(&self, cell: usize, digit: u8) -> Option<i32> {
        let var = self.var_of[cell * self.puzzle.side() + digit as usize - 1];
        (var != 0).then(|| i32::try_from(var).expect("at most 64^3 variables fit in an i32"))
    }

    /// A fresh auxiliary variable (a cage's partial sum), which names no cell.
    fn new_aux(&mut self) -> i32 {
        self.vars.push((AUX, 0));
        i32::try_from(self.vars.len()).expect("variables fit in an i32")
    }

    /// The clauses of a variant's rules that are not houses. Must-differ pairs: for each
    /// digit, not both. Non-consecutive pairs: for each digit `d`, not `d` in one and `d + 1`
    /// in the other. Cages: at most one cell per digit, and the sum by a sequential
    /// partial-sum (support) encoding: `s(i, v)` means "the first `i` empty cells of the cage
    /// add up to `v`"; `x(cell_i, d)` and `s(i - 1, v)` imply `s(i, v + d)`, and a step past
    /// the target, or ending anywhere but at it, is forbidden. With `given_aware` (the
    /// reduced encoding) given cells have no variables: their digits were taken out of their
    /// neighbours' candidates, and a cage's target is its sum less its givens.
    fn add_rules_beyond_houses(&mut self, rules: &Rules, given_aware: bool) {
        let side = self.puzzle.side() as u8;
        for &[a, b] in rules.different_pairs() {
            for digit in 1..=side {
                if let (Some(x), Some(y)) = (
                    self.lit_if_any(a as usize, digit),
                    self.lit_if_any(b as usize, digit),
                ) {
                    self.add_clause(&[-x, -y]);
                }
            }
        }
        for &[a, b] in rules.nonconsecutive_pairs() {
            for digit in 1..side {
                for (first, second) in [(a, b), (b, a)] {
                    if let (Some(x), Some(y)) = (
                        self.lit_if_any(first as usize, digit),
                        self.lit_if_any(second as usize, digit + 1),
                    ) {
                        self.add_clause(&[-x, -y]);
                    }
                }
            }
        }
        for cage in rules.cages() {
            let cells: Vec<usize> = cage
                .cells
                .iter()
                .map(|&cell| cell as usize)
                .filter(|&cell| !given_aware || self.puzzle.get(cell) == 0)
                .collect();
            for digit in 1..=side {
                let lits: Vec<i32> = cells
                    .iter()
                    .filter_map(|&cell| self.lit_if_any(cell, digit))
                    .collect();
                self.at_most_one(&lits);
            }
            let Some(sum) = cage.sum else { continue };
            let given_sum: u32 = if given_aware {
                cage.cells
                    .iter()
                    .map(|&cell| u32::from(self.puzzle.get(cell as usize)))
                    .sum()
            } else {
                0
            };
            let Some(target) = sum.checked_sub(given_sum) else {
                self.add_clause(&[]);
                continue;
            };
            let target = target as usize;
            // `reach[v]`: the literal of "the cells so far add up to v"; 0 stands for true.
            let mut reach: Vec<Option<i32>> = vec![None; target + 1];
            reach[0] = Some(0);
            for (idx, &cell) in cells.iter().enumerate() {
                let last = idx + 1 == cells.len();
                let mut next: Vec<Option<i32>> = vec![None; target + 1];
                for (so_far, state) in reach.clone().into_iter().enumerate() {
                    let Some(state) = state else { continue };
                    for digit in 1..=side {
                        let Some(x) = self.lit_if_any(cell, digit) else {
                            continue;
                        };
                        let total = so_far + digit as usize;
                        let mut clause = vec![-x];
                        if state != 0 {
                            clause.push(-state);
                        }
                        if total <= target && !last {
                            let reached = if let Some(var) = next[total] {
                                var
                            } else {
                                let var = self.new_aux();
                                next[total] = Some(var);
                                var
                            };
                            clause.push(reached);
                        } else if total == target && last {
                            continue;
                        }
                        self.add_clause(&clause);
                    }
                }
                reach = next;
            }
            if cells.is_empty() && target != 0 {
                self.add_clause(&[]);
            }
        }
    }

    fn new_var(&mut self, cell: usize, digit: u8) {
        self.vars.push((cell as u32, digit));
        self.var_of[cell * self.puzzle.side() + digit as usize - 1] = self.vars.len() as u32;
    }

    /// The positive literal of "cell holds digit"; the variable must exist.
    fn lit(&self, cell: usize, digit: u8) -> i32 {
        let var = self.var_of[cell * self.puzzle.side() + digit as usize - 1];
        debug_assert!(var != 0, "no variable for cell {cell} digit {digit}");
        i32::try_from(var).expect("at most 64^3 variables fit in an i32")
    }

    fn add_clause(&mut self, lits: &[i32]) {
        self.literals.extend_from_slice(lits);
        self.literals.push(0);
        self.clause_count += 1;
    }

    /// Pairwise at-most-one over positive literals.
    fn at_most_one(&mut self, lits: &[i32]) {
        for (idx, &first) in lits.iter().enumerate() {
            for &second in &lits[idx + 1..] {
                self.add_clause(&[-first, -second]);
            }
        }
    }

    /// The encoding used.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The number of variables.
    pub fn var_count(&self) -> usize {
        self.vars.len()
    }

    /// The number of clauses.
    pub fn clause_count(&self) -> usize {
        self.clause_count
    }

    /// The formula after unit propagation at level 0 (see [`Propagated`]).
    pub fn propagate_units(&self) -> Propagated<'_> {
        Propagated::run(self.vars.len(), &self.literals)
    }

    /// The DIMACS variable of "`cell` holds `digit`", if the encoding has one (the reduced
    /// encoding has none for a given cell or a digit a given peer already holds).
    pub fn var_of(&self, cell: usize, digit: u8) -> Option<u32> {
        if cell >= self.puzzle.cells().len() || digit == 0 || digit as usize > self.puzzle.side() {
            return None;
        }
        self.lit_if_any(cell, digit).map(i32::unsigned_abs)
    }

    /// The (cell, digit) DIMACS variable `var` stands for; `None` for a variable the formula
    /// does not have or an auxiliary one (a cage's partial sum).
    pub fn var_meaning(&self, var: u32) -> Option<(usize, u8)> {
        let &(cell, digit) = self.vars.get((var as usize).checked_sub(1)?)?;
        (cell != AUX).then_some((cell as usize, digit))
    }

    /// The clauses, as slices of DIMACS literals.
    pub fn clauses(&self) -> impl Iterator<Item = &[i32]> {
        self.literals.split(|&lit| lit == 0).take(self.clause_count)
    }

    /// The grid a model describes: the givens plus, for each true variable, its digit.
    /// `is_true(v)` tells whether DIMACS variable `v` is true.
    pub fn decode(&self, is_true: impl Fn(u32) -> bool) -> Grid {
        // A solution is a plain grid: the rules are the puzzle's.
        let mut grid = self.puzzle.clone().without_rules();
        for (idx, &(cell, digit)) in self.vars.iter().enumerate() {
            if cell != AUX && is_true(idx as u32 + 1) && self.puzzle.get(cell as usize) == 0 {
                grid.set(cell as usize, digit);
            }
        }
        grid
    }

    /// The clause that forbids `solution` again: some empty cell must differ.
    pub fn blocking_clause(&self, solution: &Grid) -> Vec<i32> {
        (0..solution.cells().len())
            .filter(|&cell| self.puzzle.get(cell) == 0)
            .map(|cell| -self.lit(cell, solution.get(cell)))
            .collect()
    }

    /// The formula in DIMACS CNF, with comment lines giving the box shape, the givens and the
    /// meaning of every variable (`c sudolab var V ROW COL DIGIT`, one-based).
    pub fn to_dimacs(&self) -> String {
        let shape = self.puzzle.shape();
        let mut text = String::new();
        let _ = writeln!(
            text,
            "c sudolab CNF, {} encoding: variable V true means cell (ROW, COL) holds DIGIT",
            self.encoding
        );
        let _ = writeln!(text, "c decode a model with: sudolab decode THIS.cnf MODEL");
        let _ = writeln!(text, "c sudolab box {shape}");
        if let Some(rules) = self.puzzle.rules() {
            // The variant's rules, so that `sudolab decode` certifies a model against them.
            let spec = serde_json::to_string(rules.spec()).expect("a spec serializes");
            let _ = writeln!(text, "c sudolab rules {spec}");
        }
        for (cell, &digit) in self.puzzle.cells().iter().enumerate() {
            if digit != 0 {
                let _ = writeln!(
                    text,
                    "c sudolab given {} {} {digit}",
                    shape.row_of(cell) + 1,
                    shape.col_of(cell) + 1
                );
            }
        }
        for (idx, &(cell, digit)) in self.vars.iter().enumerate() {
            if cell == AUX {
                continue;
            }
            let cell = cell as usize;
            let _ = writeln!(
                text,
                "c sudolab var {} {} {} {digit}",
                idx + 1,
                shape.row_of(cell) + 1,
                shape.col_of(cell) + 1
            );
        }
        let _ = writeln!(text, "p cnf {} {}", self.vars.len(), self.clause_count);
        for clause in self.clauses() {
            for lit in clause {
                let _ = write!(text, "{lit} ");
            }
            text.push_str("0\n");
        }
        text
    }
}

/// The cells of every house of `puzzle`: its shape's, or its variant's.
fn houses_of(puzzle: &Grid) -> Vec<Vec<usize>> {
    let shape = puzzle.shape();
    match puzzle.rules() {
        Some(rules) => rules
            .houses()
            .iter()
            .map(|region| region.cells.iter().map(|&cell| cell as usize).collect())
            .collect(),
        None => shape
            .houses()
            .map(|house| shape.house_cells(house))
            .collect(),
    }
}

/// The cell of an auxiliary variable (a cage's partial sum) in [`Cnf`]'s variable table.
const AUX: u32 = u32::MAX;

/// The candidates of every empty cell of a variant given the givens: the values the rules
/// allow there on the board of givens ([`RuleCheck`], as the backtrackers test them; a cage's
/// sum bounds prune too, which drops only values no solution has).
fn variant_candidates_of(puzzle: &Grid, rules: &Rules) -> Vec<DigitSet> {
    let check = RuleCheck::new(rules);
    let cells = puzzle.cells();
    (0..cells.len())
        .map(|cell| {
            if cells[cell] != 0 {
                DigitSet::EMPTY
            } else {
                DigitSet::from_bits(check.allowed(cells, cell))
            }
        })
        .collect()
}

/// The candidates of every cell given the givens (empty for given cells); the givens must not
/// conflict.
fn candidates_of(puzzle: &Grid) -> Vec<DigitSet> {
    let shape = puzzle.shape();
    let side = shape.side();
    let mut row_used = vec![DigitSet::EMPTY; side];
    let mut col_used = vec![DigitSet::EMPTY; side];
    let mut box_used = vec![DigitSet::EMPTY; side];
    for (cell, &digit) in puzzle.cells().iter().enumerate() {
        if digit != 0 {
            row_used[shape.row_of(cell)].insert(digit);
            col_used[shape.col_of(cell)].insert(digit);
            box_used[shape.box_of(cell)].insert(digit);
        }
    }
    (0..shape.cell_count())
        .map(|cell| {
            if puzzle.get(cell) != 0 {
                return DigitSet::EMPTY;
            }
            let used = row_used[shape.row_of(cell)].bits()
                | col_used[shape.col_of(cell)].bits()
                | box_used[shape.box_of(cell)].bits();
            DigitSet::from_bits(DigitSet::full(side).bits() & !used)
        })
        .collect()
}

/// A DIMACS file or model that cannot be decoded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The CNF has no `c sudolab box` line: it was not written by sudolab.
    #[error("the CNF has no 'c sudolab box RxC' comment: export it with 'sudolab export cnf'")]
    NotSudolab,
    /// A `c sudolab` line that does not parse.
    #[error("CNF line {line}: {message}")]
    BadComment {
        /// One-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A model token that is not a literal.
    #[error("model line {line}: expected a literal (a signed variable number), found '{found}'")]
    BadLiteral {
        /// One-based line number.
        line: usize,
        /// The token.
        found: String,
    },
    /// The model describes something that is not a solution.
    #[error("the model does not decode to a solution: {0}")]
    NotASolution(String),
    /// A clause line of the CNF holds something other than literals.
    #[error("CNF line {line}: expected a literal (a signed variable number), found '{found}'")]
    BadClause {
        /// One-based line number.
        line: usize,
        /// The token.
        found: String,
    },
    /// The model sets a variable both true and false.
    #[error("model line {line}: variable {var} is set both true and false")]
    Contradiction {
        /// One-based line number of the second setting.
        line: usize,
        /// The variable.
        var: u64,
    },
    /// The model makes a clause of the CNF false: it is not a model of the formula.
    #[error(
        "the model is not a model of the CNF: it makes clause {number} (CNF line {line}: '{text}') \
         false"
    )]
    Falsified {
        /// One-based position of the clause among the CNF's clauses.
        number: usize,
        /// One-based line where the clause starts.
        line: usize,
        /// The clause as written (shortened when long).
        text: String,
    },
}

/// What the `c sudolab` comments of a CNF say: the shape, the givens (with their lines) and the
/// variable of each cell and digit.
type Comments = (
    Option<Shape>,
    Vec<(usize, [usize; 3])>,
    Vec<(usize, usize, u8)>,
    Option<(usize, RulesSpec)>,
);

fn read_comments(cnf_text: &str) -> Result<Comments, DecodeError> {
    let mut shape: Option<Shape> = None;
    let mut givens: Vec<(usize, [usize; 3])> = Vec::new();
    let mut vars: Vec<(usize, usize, u8)> = Vec::new();
    let mut rules: Option<(usize, RulesSpec)> = None;
    for (idx, line) in cnf_text.lines().enumerate() {
        let Some(rest) = line.strip_prefix("c sudolab ") else {
            continue;
        };
        if let Some(spec) = rest.strip_prefix("rules ") {
            let spec: RulesSpec =
                serde_json::from_str(spec).map_err(|err| DecodeError::BadComment {
                    line: idx + 1,
                    message: format!("rules: {err}"),
                })?;
            rules = Some((idx + 1, spec));
            continue;
        }
        let bad = |message: &str| DecodeError::BadComment {
            line: idx + 1,
            message: message.to_string(),
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let numbers = || -> Result<Vec<usize>, DecodeError> {
            fields[1..]
                .iter()
                .map(|field| field.parse().map_err(|_| bad("expected numbers")))
                .collect()
        };
        match fields.first().copied() {
            Some("box") => {
                // Cells of earlier var lines were placed on this shape: a second one would
                // move them.
                if shape.is_some() {
                    return Err(bad("a second box line"));
                }
                let text = fields.get(1).ok_or_else(|| bad("expected a box shape"))?;
                // A boxless variant's side without a default box is written 1xN, N up to 64.
                let rows_only = text
                    .strip_prefix("1x")
                    .and_then(|side| side.parse::<usize>().ok())
                    .filter(|side| (9..=crate::model::MAX_SIDE).contains(side))
                    .map(Shape::rows_only);
                let parsed: Shape = match rows_only {
                    Some(shape) => shape,
                    None => text
                        .parse()
                        .map_err(|err: crate::model::ShapeError| bad(&err.to_string()))?,
                };
                shape = Some(parsed);
            }
            Some("given") => {
                let &[row, col, digit] = &numbers()?[..] else {
                    return Err(bad("expected: given ROW COL DIGIT"));
                };
                givens.push((idx + 1, [row, col, digit]));
            }
            Some("var") => {
                let &[var, row, col, digit] = &numbers()?[..] else {
                    return Err(bad("expected: var V ROW COL DIGIT"));
                };
                let cell = cell_index(shape, row, col).ok_or_else(|| {
                    bad("a var line before the box line, or a cell off the board")
                })?;
                let side = shape.map_or(0, Shape::side);
                let digit = u8::try_from(digit)
                    .ok()
                    .filter(|&d| d > 0 && d as usize <= side)
                    .ok_or_else(|| bad(&format!("digit {digit} is not in 1..={side}")))?;
                vars.push((var, cell, digit));
            }
            _ => {}
        }
    }
    Ok((shape, givens, vars, rules))
}

/// Decodes a SAT solver's model for a CNF written by [`Cnf::to_dimacs`]: `Ok(None)` when the
/// solver said unsatisfiable, `Ok(Some(grid))` otherwise. Accepts the SAT competition format
/// (`s SATISFIABLE`, `v 1 -2 ... 0`, as picosat and CaDiCaL write) and MiniSat's result file
/// (`SAT`, then the literals).
pub fn decode_dimacs_model(cnf_text: &str, model_text: &str) -> Result<Option<Grid>, DecodeError> {
    let (shape, givens, vars, rules) = read_comments(cnf_text)?;
    let shape = shape.ok_or(DecodeError::NotSudolab)?;
    let mut grid = Grid::empty(shape);
    if let Some((line, spec)) = rules {
        let boxes = (!spec.latin && spec.regions.is_none()).then_some(shape);
        let rules =
            Rules::new(shape.side(), boxes, spec).map_err(|err| DecodeError::BadComment {
                line,
                message: format!("rules: {err}"),
            })?;
        grid = grid.with_rules(std::sync::Arc::new(rules));
    }
    for &(line, [row, col, digit]) in &givens {
        let bad = |message: String| DecodeError::BadComment { line, message };
        let cell = cell_index(Some(shape), row, col)
            .ok_or_else(|| bad(format!("given r{row}c{col} is off the {shape} board")))?;
        let digit = u8::try_from(digit)
            .ok()
            .filter(|&d| d as usize <= shape.side() && d > 0)
            .ok_or_else(|| {
                bad(format!(
                    "given digit {digit} is not in 1..={}",
                    shape.side()
                ))
            })?;
        if grid.get(cell) != 0 {
            return Err(bad(format!("r{row}c{col} is given a second time")));
        }
        grid.set(cell, digit);
    }
    let puzzle = grid.clone();

    let mut true_vars = std::collections::HashSet::new();
    let mut false_vars = std::collections::HashSet::new();
    for (idx, line) in model_text.lines().enumerate() {
        let line = line.trim();
        let body = match line.split_whitespace().next() {
            None | Some("c") => continue,
            Some("s" | "SAT" | "SATISFIABLE") => {
                if line.contains("UNSAT") {
                    return Ok(None);
                }
                continue;
            }
            Some("UNSAT" | "UNSATISFIABLE") => return Ok(None),
            Some("v") => &line[1..],
            Some(_) => line,
        };
        for token in body.split_whitespace() {
            let lit: i64 = token.parse().map_err(|_| DecodeError::BadLiteral {
                line: idx + 1,
                found: token.to_string(),
            })?;
            if lit == 0 {
                continue;
            }
            let var = lit.unsigned_abs();
            let (set, other) = if lit > 0 {
                (&mut true_vars, &false_vars)
            } else {
                (&mut false_vars, &true_vars)
            };
            if other.contains(&var) {
                return Err(DecodeError::Contradiction { line: idx + 1, var });
            }
            set.insert(var);
        }
    }
    for &(var, cell, digit) in &vars {
        if true_vars.contains(&(var as u64)) && puzzle.get(cell) == 0 {
            if grid.get(cell) != 0 && grid.get(cell) != digit {
                return Err(DecodeError::NotASolution(format!(
                    "two digits are true in one cell (variable {var})"
                )));
            }
            grid.set(cell, digit);
        }
    }
    crate::model::validate(&puzzle, &grid)
        .map_err(|invalid| DecodeError::NotASolution(invalid.to_string()))?;
    // After the grid: a model that is not a solution is named as such first; one that decodes
    // to a solution may still break a clause the decoder does not read.
    check_clauses(cnf_text, &true_vars, &false_vars)?;
    Ok(Some(grid.without_rules()))
}

/// Holds the model to every clause of the CNF: the decoder reads only the comments, so a
/// model that breaks a clause (a given's unit clause, say) would otherwise decode. A clause is
/// false when the model sets every one of its variables against it; a variable the model does
/// not set can make it true, so it does not count against it.
fn check_clauses(
    cnf_text: &str,
    true_vars: &std::collections::HashSet<u64>,
    false_vars: &std::collections::HashSet<u64>,
) -> Result<(), DecodeError> {
    let (mut number, mut start, mut satisfied) = (0, 0, false);
    let mut text = String::new();
    for (idx, line) in cnf_text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('c') || trimmed.starts_with('p') {
            continue;
        }
        for token in trimmed.split_whitespace() {
            let lit: i64 = token.parse().map_err(|_| DecodeError::BadClause {
                line: idx + 1,
                found: token.to_string(),
            })?;
            if text.is_empty() {
                start = idx + 1;
            }
            if text.len() < 80 {
                text.push_str(token);
                text.push(' ');
            }
            if lit == 0 {
                number += 1;
                if !satisfied {
                    let mut shown = text.trim_end().to_string();
                    if !shown.ends_with(" 0") && shown != "0" {
                        shown.push_str(" ... 0");
                    }
                    return Err(DecodeError::Falsified {
                        number,
                        line: start,
                        text: shown,
                    });
                }
                satisfied = false;
                text.clear();
                continue;
            }
            let var = lit.unsigned_abs();
            let against = if lit > 0 { false_vars } else { true_vars };
            satisfied |= !against.contains(&var);
        }
    }
    Ok(())
}

fn cell_index(shape: Option<Shape>, row: usize, col: usize) -> Option<usize> {
    let side = shape?.side();
    (1..=side)
        .contains(&row)
        .then_some(())
        .filter(|()| (1..=side).contains(&col))
        .map(|()| (row - 1) * side + col - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reproducers found by fuzzing (a short `given` line, a `box` line after `var` lines):
    /// errors with their line, no panic.
    #[test]
    fn malformed_comments_are_located_errors() {
        let decode = |cnf: &str, model: &str| {
            decode_dimacs_model(cnf, model)
                .map(|_| ())
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            decode(
                "c sudolab box 2x2\nc sudolab given 1 1\np cnf 0 0\n",
                "s SATISFIABLE\nv 0\n"
            ),
            "CNF line 2: expected: given ROW COL DIGIT"
        );
        assert_eq!(
            decode("c sudolab box 2x2\nc sudolab given\n", "s SATISFIABLE\n"),
            "CNF line 2: expected: given ROW COL DIGIT"
        );
        assert_eq!(
            decode(
                "c sudolab box 8x8\nc sudolab var 1 64 64 1\nc sudolab box 1x1\n",
                "v 1 0\n"
            ),
            "CNF line 3: a second box line"
        );
        assert_eq!(
            decode("c sudolab box 2x2\nc sudolab given 5 1 1\n", "v 0\n"),
            "CNF line 2: given r5c1 is off the 2x2 board"
        );
        assert_eq!(
            decode("c sudolab box 2x2\nc sudolab given 1 1 0\n", "v 0\n"),
            "CNF line 2: given digit 0 is not in 1..=4"
        );
    }

    fn puzzle_4x4() -> Grid {
        Grid::from_cells(
            "2x2".parse().unwrap(),
            vec![4, 0, 0, 3, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0],
        )
        .unwrap()
    }

    #[test]
    fn sizes_follow_the_encodings() {
        let empty = Grid::empty("2x2".parse().unwrap());
        let minimal = Cnf::build(&empty, Encoding::Minimal);
        assert_eq!(minimal.var_count(), 64);
        // 16 cells + 12 houses x 4 digits x 6 pairs.
        assert_eq!(minimal.clause_count(), 16 + 12 * 4 * 6);
        let extended = Cnf::build(&empty, Encoding::Extended);
        assert_eq!(extended.clause_count(), 16 + 16 * 6 + 12 * 4 * (6 + 1));
        let reduced = Cnf::build(&puzzle_4x4(), Encoding::Reduced);
        assert!(reduced.var_count() < 64 - 4 * 4);
    }

    #[test]
    fn dimacs_round_trips_through_a_model() {
        let puzzle = puzzle_4x4();
        let solution = [4, 2, 1, 3, 1, 3, 4, 2, 2, 1, 3, 4, 3, 4, 2, 1];
        for encoding in [Encoding::Minimal, Encoding::Extended, Encoding::Reduced] {
            let cnf = Cnf::build(&puzzle, encoding);
            let text = cnf.to_dimacs();
            // Build the model by hand from the known solution.
            let model: Vec<String> = (1..=cnf.var_count())
                .map(|var| {
                    let (cell, digit) = cnf.vars[var - 1];
                    if solution[cell as usize] == digit {
                        var.to_string()
                    } else {
                        format!("-{var}")
                    }
                })
                .collect();
            let model_text = format!("s SATISFIABLE\nv {} 0\n", model.join(" "));
            let decoded = decode_dimacs_model(&text, &model_text).unwrap().unwrap();
            assert_eq!(decoded.cells(), &solution, "{encoding}");
            assert_eq!(decode_dimacs_model(&text, "s UNSATISFIABLE\n"), Ok(None));
        }
    }

    #[test]
    fn a_model_that_breaks_a_clause_is_refused_naming_it() {
        let puzzle = puzzle_4x4();
        let solution = [4, 2, 1, 3, 1, 3, 4, 2, 2, 1, 3, 4, 3, 4, 2, 1];
        for encoding in [Encoding::Minimal, Encoding::Extended] {
            let cnf = Cnf::build(&puzzle, encoding);
            let text = cnf.to_dimacs();
            // The solution's model, except that the given r1c1 holds 1, not 4: the grid still
            // decodes (from the givens and the other cells), the cell's own clauses before its
            // unit clause hold, and the unit clause `4 0` is the first false one.
            let model: Vec<String> = (1..=cnf.var_count())
                .map(|var| {
                    let (cell, digit) = cnf.vars[var - 1];
                    let holds = if cell == 0 {
                        digit == 1
                    } else {
                        solution[cell as usize] == digit
                    };
                    if holds {
                        var.to_string()
                    } else {
                        format!("-{var}")
                    }
                })
                .collect();
            let model_text = format!("s SATISFIABLE\nv {} 0\n", model.join(" "));
            let err = decode_dimacs_model(&text, &model_text)
                .unwrap_err()
                .to_string();
            let (number, line) = text
                .lines()
                .enumerate()
                .filter(|(_, line)| !line.starts_with(['c', 'p']))
                .enumerate()
                .find(|(_, (_, line))| *line == "4 0")
                .map(|(number, (line, _))| (number + 1, line + 1))
                .unwrap();
            assert_eq!(
                err,
                format!(
                    "the model is not a model of the CNF: it makes clause {number} (CNF line \
                     {line}: '4 0') false"
                ),
                "{encoding}"
            );
        }
        // A variable set both ways.
        let text = Cnf::build(&puzzle, Encoding::Minimal).to_dimacs();
        assert_eq!(
            decode_dimacs_model(&text, "s SATISFIABLE\nv 1 2\nv -1 0\n")
                .unwrap_err()
                .to_string(),
            "model line 3: variable 1 is set both true and false"
        );
    }

    #[test]
    fn comments_that_contradict_themselves_are_located() {
        let box_line = "c sudolab box 2x2\n";
        let twice = format!("{box_line}c sudolab given 1 1 1\nc sudolab given 1 1 4\n");
        assert_eq!(
            decode_dimacs_model(&twice, "s SATISFIABLE\nv 0\n")
                .unwrap_err()
                .to_string(),
            "CNF line 3: r1c1 is given a second time"
        );
        let digit = format!("{box_line}c sudolab var 15 1 2 0\n");
        assert_eq!(
            decode_dimacs_model(&digit, "s SATISFIABLE\nv 0\n")
                .unwrap_err()
                .to_string(),
            "CNF line 2: digit 0 is not in 1..=4"
        );
    }
}
