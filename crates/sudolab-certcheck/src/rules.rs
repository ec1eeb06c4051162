//! The rules of Sudoku as CNF, written out again from the rules alone: the checker's own
//! encoder, sharing no code with `crate::encode` (the trust base of `check-cert`).
//!
//! Encoding `sudolab-extended 1` (Lynce and Ouaknine's extended encoding, clauses in a fixed
//! order, because an LRAT proof names the formula's clauses by their position). A board of
//! side `n = box_rows * box_cols`, cells numbered row-major from 0, digits 1 to `n`. Variable
//! `cell * n + digit` is true when that cell holds that digit. Clause 1 is the first written:
//!
//! 1. For each cell in order: the cell holds some digit (`v(c,1) ... v(c,n)`); then the cell
//!    holds no two digits (`-v(c,i) -v(c,j)` for every `i < j`); then, when the cell is given,
//!    the unit clause `v(c,given)`.
//! 2. For each house, the rows top to bottom, then the columns left to right, then the boxes
//!    row-major (each house's cells row-major), and for each digit `d` from 1: no two of the
//!    house's cells hold `d` (`-v(a,d) -v(b,d)` for every pair of cells, `a` before `b`), then
//!    some cell of the house holds `d`.
//!
//! A 9x9 board has 729 variables and 11,988 clauses plus one per given.

/// A formula in conjunctive normal form: clause `i` (1-based) is `literals[starts[i-1] ..
/// starts[i]]`.
#[derive(Clone, Debug)]
pub struct Formula {
    /// The number of variables, `1..=vars`.
    pub vars: u32,
    literals: Vec<i32>,
    starts: Vec<u32>,
}

impl Formula {
    /// A formula over `vars` variables with no clause yet.
    pub fn new(vars: u32) -> Formula {
        Formula {
            vars,
            literals: Vec::new(),
            starts: vec![0],
        }
    }

    /// The number of clauses.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Whether the formula has no clause.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Clause `id` (1-based), when there is one.
    pub fn clause(&self, id: usize) -> Option<&[i32]> {
        if id == 0 || id > self.len() {
            return None;
        }
        Some(&self.literals[self.starts[id - 1] as usize..self.starts[id] as usize])
    }

    /// The clauses in order.
    pub fn clauses(&self) -> impl Iterator<Item = &[i32]> {
        self.starts
            .windows(2)
            .map(|pair| &self.literals[pair[0] as usize..pair[1] as usize])
    }

    /// Appends a clause (the blocking clause goes after the rules).
    pub fn push(&mut self, clause: &[i32]) {
        self.literals.extend_from_slice(clause);
        self.starts.push(self.literals.len() as u32);
    }

    /// The formula in DIMACS, for outside checkers.
    pub fn to_dimacs(&self) -> String {
        let mut text = format!("p cnf {} {}\n", self.vars, self.len());
        for clause in self.clauses() {
            for lit in clause {
                text.push_str(&lit.to_string());
                text.push(' ');
            }
            text.push_str("0\n");
        }
        text
    }
}

/// The variable "cell holds digit" of a board of side `n`.
pub fn var(n: usize, cell: usize, digit: usize) -> i32 {
    i32::try_from(cell * n + digit).expect("a board of side 36 has 46,656 variables")
}

/// The cells of every house: rows, columns, boxes.
pub fn houses(box_rows: usize, box_cols: usize) -> Vec<Vec<usize>> {
    let n = box_rows * box_cols;
    let mut houses = Vec::with_capacity(3 * n);
    for row in 0..n {
        houses.push((0..n).map(|col| row * n + col).collect());
    }
    for col in 0..n {
        houses.push((0..n).map(|row| row * n + col).collect());
    }
    for band in 0..n / box_rows {
        for stack in 0..n / box_cols {
            let mut cells = Vec::with_capacity(n);
            for row in band * box_rows..(band + 1) * box_rows {
                for col in stack * box_cols..(stack + 1) * box_cols {
                    cells.push(row * n + col);
                }
            }
            houses.push(cells);
        }
    }
    houses
}

/// The formula of a puzzle: `givens` holds `n * n` numbers, 0 for an empty cell. The caller
/// has checked the shape and that every given is at most `n`.
pub fn encode(box_rows: usize, box_cols: usize, givens: &[u8]) -> Formula {
    let n = box_rows * box_cols;
    let mut formula = Formula::new((n * n * n) as u32);
    let mut clause = Vec::with_capacity(n);
    let at_most_one = |formula: &mut Formula, lits: &[i32]| {
        for i in 0..lits.len() {
            for j in i + 1..lits.len() {
                formula.push(&[-lits[i], -lits[j]]);
            }
        }
    };
    for (cell, &given) in givens.iter().enumerate() {
        clause.clear();
        clause.extend((1..=n).map(|digit| var(n, cell, digit)));
        formula.push(&clause);
        at_most_one(&mut formula, &clause);
        if given != 0 {
            formula.push(&[var(n, cell, given as usize)]);
        }
    }
    for house in houses(box_rows, box_cols) {
        for digit in 1..=n {
            clause.clear();
            clause.extend(house.iter().map(|&cell| var(n, cell, digit)));
            at_most_one(&mut formula, &clause);
            formula.push(&clause);
        }
    }
    formula
}

/// Why a grid breaks the rules or the givens, or `None` when it is a solution of the puzzle.
pub fn solution_fault(
    box_rows: usize,
    box_cols: usize,
    givens: &[u8],
    grid: &[u8],
) -> Option<String> {
    let n = box_rows * box_cols;
    if grid.len() != n * n {
        return Some(format!("has {} cells, not {}", grid.len(), n * n));
    }
    for (cell, &digit) in grid.iter().enumerate() {
        if digit == 0 || digit as usize > n {
            return Some(format!(
                "cell r{}c{} holds {digit}, not a digit from 1 to {n}",
                cell / n + 1,
                cell % n + 1
            ));
        }
        if givens[cell] != 0 && givens[cell] != digit {
            return Some(format!(
                "cell r{}c{} holds {digit} but the puzzle gives {}",
                cell / n + 1,
                cell % n + 1,
                givens[cell]
            ));
        }
    }
    for (index, house) in houses(box_rows, box_cols).iter().enumerate() {
        let mut seen = vec![false; n + 1];
        for &cell in house {
            let digit = grid[cell] as usize;
            if seen[digit] {
                let kind = ["row", "column", "box"][index / n];
                return Some(format!(
                    "digit {digit} appears twice in {kind} {}",
                    index % n + 1
                ));
            }
            seen[digit] = true;
        }
    }
    None
}

/// The clause that only this solution falsifies among the puzzle's solutions: for each empty
/// cell, "the cell does not hold its digit in `solution`", in cell order.
pub fn blocking_clause(n: usize, givens: &[u8], solution: &[u8]) -> Vec<i32> {
    givens
        .iter()
        .zip(solution)
        .enumerate()
        .filter(|(_, (given, _))| **given == 0)
        .map(|(cell, (_, &digit))| -var(n, cell, digit as usize))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clause_counts_follow_from_the_rules() {
        // 4x4: 16 cells x (1 + 6) + 12 houses x 4 digits x (6 + 1) = 448, plus the givens.
        let empty = encode(2, 2, &[0; 16]);
        assert_eq!((empty.vars, empty.len()), (64, 448));
        let mut givens = [0; 16];
        givens[0] = 4;
        givens[5] = 1;
        assert_eq!(encode(2, 2, &givens).len(), 450);
        // 9x9: 81 x (1 + 36) + 27 x 9 x (36 + 1) = 11,988.
        let nine = encode(3, 3, &[0; 81]);
        assert_eq!((nine.vars, nine.len()), (729, 11_988));
        // 6x6 (2x3 boxes): 36 x (1 + 15) + 18 x 6 x (15 + 1) = 2,304.
        assert_eq!(encode(2, 3, &[0; 36]).len(), 2_304);
    }

    #[test]
    fn clauses_come_in_the_documented_order() {
        let mut givens = [0; 16];
        givens[0] = 3;
        let formula = encode(2, 2, &givens);
        assert_eq!(formula.clause(1), Some(&[1, 2, 3, 4][..]));
        assert_eq!(formula.clause(2), Some(&[-1, -2][..]));
        assert_eq!(formula.clause(7), Some(&[-3, -4][..]));
        assert_eq!(formula.clause(8), Some(&[3][..]));
        assert_eq!(formula.clause(9), Some(&[5, 6, 7, 8][..]));
        // The first house clause: row 1, digit 1, cells r1c1 and r1c2.
        let rules_of_cells = 16 * 7 + 1;
        assert_eq!(formula.clause(rules_of_cells + 1), Some(&[-1, -5][..]));
        assert_eq!(formula.clause(rules_of_cells + 7), Some(&[1, 5, 9, 13][..]));
        assert_eq!(formula.clause(0), None);
        assert_eq!(formula.clause(formula.len() + 1), None);
    }

    #[test]
    fn boxes_are_row_major_bands_of_stacks() {
        let houses = houses(2, 3);
        assert_eq!(houses.len(), 18);
        assert_eq!(houses[12], vec![0, 1, 2, 6, 7, 8]);
        assert_eq!(houses[13], vec![3, 4, 5, 9, 10, 11]);
        assert_eq!(houses[14], vec![12, 13, 14, 18, 19, 20]);
    }

    #[test]
    fn solutions_are_held_to_rules_and_givens() {
        let solution = [4, 2, 1, 3, 1, 3, 4, 2, 2, 1, 3, 4, 3, 4, 2, 1];
        let mut givens = [0; 16];
        givens[0] = 4;
        assert_eq!(solution_fault(2, 2, &givens, &solution), None);
        givens[0] = 1;
        assert!(
            solution_fault(2, 2, &givens, &solution)
                .unwrap()
                .contains("gives 1")
        );
        let mut broken = solution;
        broken.swap(0, 1);
        assert!(
            solution_fault(2, 2, &[0; 16], &broken)
                .unwrap()
                .contains("twice in column")
        );
        assert!(
            solution_fault(2, 2, &[0; 16], &[0; 16])
                .unwrap()
                .contains("not a digit")
        );
        let mut givens = [0; 16];
        givens[0] = 4;
        let blocking = blocking_clause(4, &givens, &solution);
        assert_eq!(blocking.len(), 15);
        assert_eq!(blocking[0], -(4 + 2));
    }
}
