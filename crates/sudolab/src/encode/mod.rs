//! Encodings of a puzzle for other solvers: the exact-cover matrix (Knuth, "Dancing Links",
//! 2000) and CNF formulas for SAT solvers (Lynce and Ouaknine, "Sudoku as a SAT Problem", 2006;
//! Kwon and Jain, "Optimized CNF Encoding for Sudoku Puzzles", 2006) and a MiniZinc model
//! (`alldifferent` over every house) for constraint-programming solvers.
//!
//! Both are built from the puzzle alone (no search) and written in standard text formats, so
//! that any outside exact-cover or SAT solver can check sudolab's answers independently.

mod cnf;
mod cover;
mod mzn;
mod units;

pub use cnf::{Cnf, DecodeError, Encoding, decode_dimacs_model};
pub use cover::{CoverMatrix, CoverOption, Item, MAX_OPTION_ITEMS, exact_cover_takes};
pub use mzn::{MznRefused, to_minizinc};
pub use units::Propagated;
