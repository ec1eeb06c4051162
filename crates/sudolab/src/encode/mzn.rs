//! The MiniZinc model of a puzzle (`sudolab export mzn`): a constraint-programming formulation,
//! one variable per cell with `alldifferent` over every row, column and box, for any MiniZinc
//! solver (Gecode, Chuffed, OR-Tools CP-SAT through MiniZinc).
//!
//! The model is standard MiniZinc (2.x, the global `alldifferent` from the standard library)
//! and names nothing of sudolab. Its output is the solution as the cell values in row-major
//! order, separated by spaces, one line per solution.

use std::fmt::Write as _;

use crate::model::Grid;

/// A puzzle the MiniZinc model does not express.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "no MiniZinc model for {0} puzzles: the model expresses rows, columns and boxes only; \
     export cnf encodes every rule"
)]
pub struct MznRefused(pub String);

/// The MiniZinc model of `puzzle` (any box shape and side); variants (puzzles with rules) are
/// refused. Givens that conflict give a model without a solution, as they give a puzzle
/// without one.
pub fn to_minizinc(puzzle: &Grid) -> Result<String, MznRefused> {
    if let Some(rules) = puzzle.rules() {
        return Err(MznRefused(rules.name()));
    }
    let shape = puzzle.shape();
    let side = shape.side();
    let givens = puzzle.cells().iter().filter(|&&value| value != 0).count();
    let mut text = String::with_capacity(side * side * 3 + 1024);
    let _ = writeln!(
        text,
        "% sudolab: a {side}x{side} puzzle ({}x{} boxes), {givens} givens, as a MiniZinc model",
        shape.box_rows(),
        shape.box_cols()
    );
    text.push_str(
        "% solve: minizinc --solver gecode FILE.mzn (--all-solutions to decide uniqueness)\n\
         include \"alldifferent.mzn\";\n\n",
    );
    let _ = writeln!(text, "int: n = {side};");
    let _ = writeln!(text, "int: box_rows = {};", shape.box_rows());
    let _ = writeln!(text, "int: box_cols = {};", shape.box_cols());
    text.push_str("\n% The givens, 0 for an empty cell.\narray[1..n, 1..n] of 0..n: givens = [|");
    for (row, values) in puzzle.cells().chunks(side).enumerate() {
        text.push_str(if row == 0 { "\n  " } else { "\n | " });
        for (col, value) in values.iter().enumerate() {
            if col > 0 {
                text.push_str(", ");
            }
            let _ = write!(text, "{value}");
        }
    }
    text.push_str(
        "\n|];\n\n\
         array[1..n, 1..n] of var 1..n: cell;\n\n\
         constraint forall(r, c in 1..n where givens[r, c] > 0)(cell[r, c] = givens[r, c]);\n\
         constraint forall(r in 1..n)(alldifferent([cell[r, c] | c in 1..n]));\n\
         constraint forall(c in 1..n)(alldifferent([cell[r, c] | r in 1..n]));\n\
         constraint forall(br in 0..n div box_rows - 1, bc in 0..n div box_cols - 1)(\n  \
         alldifferent([cell[br * box_rows + i, bc * box_cols + j] | i in 1..box_rows, j in 1..box_cols]));\n\n\
         solve satisfy;\n\n\
         output [show(cell[r, c]) ++ if r = n /\\ c = n then \"\\n\" else \" \" endif | r, c in 1..n];\n",
    );
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Shape;

    #[test]
    fn a_4x4_model_states_its_givens_and_every_house() {
        let puzzle: Grid = "4..3.....1....2.".parse().expect("a 4x4 puzzle");
        let model = to_minizinc(&puzzle).expect("a plain puzzle");
        let expected = "\
% sudolab: a 4x4 puzzle (2x2 boxes), 4 givens, as a MiniZinc model
% solve: minizinc --solver gecode FILE.mzn (--all-solutions to decide uniqueness)
include \"alldifferent.mzn\";

int: n = 4;
int: box_rows = 2;
int: box_cols = 2;

% The givens, 0 for an empty cell.
array[1..n, 1..n] of 0..n: givens = [|
  4, 0, 0, 3
 | 0, 0, 0, 0
 | 0, 1, 0, 0
 | 0, 0, 2, 0
|];

array[1..n, 1..n] of var 1..n: cell;

constraint forall(r, c in 1..n where givens[r, c] > 0)(cell[r, c] = givens[r, c]);
constraint forall(r in 1..n)(alldifferent([cell[r, c] | c in 1..n]));
constraint forall(c in 1..n)(alldifferent([cell[r, c] | r in 1..n]));
constraint forall(br in 0..n div box_rows - 1, bc in 0..n div box_cols - 1)(
  alldifferent([cell[br * box_rows + i, bc * box_cols + j] | i in 1..box_rows, j in 1..box_cols]));

solve satisfy;

output [show(cell[r, c]) ++ if r = n /\\ c = n then \"\\n\" else \" \" endif | r, c in 1..n];
";
        assert_eq!(model, expected);
    }

    #[test]
    fn boxes_of_any_shape_are_stated_and_variants_refused() {
        let puzzle = Grid::empty(Shape::new(2, 3).expect("2x3 boxes"));
        let model = to_minizinc(&puzzle).expect("a plain puzzle");
        assert!(model.starts_with("% sudolab: a 6x6 puzzle (2x3 boxes), 0 givens,"));
        assert!(model.contains("int: box_rows = 2;\nint: box_cols = 3;\n"));
        let features: crate::model::Features = "x".parse().expect("the x variant");
        let rules =
            crate::model::Rules::new(9, Some(Shape::CLASSIC), features.spec()).expect("x rules");
        let variant = Grid::empty_with_rules(std::sync::Arc::new(rules));
        assert_eq!(
            to_minizinc(&variant).unwrap_err().to_string(),
            "no MiniZinc model for x puzzles: the model expresses rows, columns and boxes only; \
             export cnf encodes every rule"
        );
    }
}
