//! sudolab: many solving strategies, one puzzle, certified answers compared side by side.
//!
//! The library parses puzzles of any box shape from 1x1 to 8x8 boxes ([`model`]), streams them
//! from files ([`corpus`]), and answers them with a registry of engines ([`strategy`]) that all
//! speak one trait: a search that calls back once per solution, honours budgets, and reports
//! counters. Every answer can be certified by [`model::validate`], which never searches.
//!
//! On top of the engines: [`experiment`] runs a plan (strategies with their limits, repeats,
//! order, jobs, a sample or shard) over a stream of puzzles, timing only the searches and
//! certifying every answer, and reads experiment files; [`check`] cross-checks the answers of
//! several strategies against each other and the corpus's claims; [`report`] folds the runs of
//! a corpus into per-strategy aggregates in fixed memory, renders them (text, Markdown, CSV,
//! JSON, HTML with charts) and merges the reports of shards;
//! [`generate`] makes seeded puzzles whose uniqueness a checker engine proves; [`trace`]
//! records the events of a search for teaching; [`encode`] holds the exact-cover matrix and the
//! CNF encodings.
//!
//! # Available strategies
//!
//! - **`fast`** (the default): bit-board constraint propagation (naked and hidden singles; on
//!   9x9 also locked candidates) with a guess on the cell with the fewest candidates when
//!   propagation stalls, each guess on a copy of the board. Solves four in five of the 17-clue
//!   puzzles without guessing. Counters: `nodes`, `guesses`, `propagation_rounds`.
//! - **`scan`**: plain backtracking as the textbooks write it. Row-major cells, values ascending,
//!   each value checked by scanning its row, column and box. The teaching baseline; hopeless on
//!   puzzles whose first rows are nearly empty (the 17-clue set), where its tree has millions
//!   of nodes.
//! - **`toggle`**: the same search tree as `scan` (same nodes, placements and backtracks on every
//!   puzzle), with a list of blanks and row/column/box used tables toggled on enter and undo.
//!   The fastest way to walk that tree; shows that a cheaper node does not make a smaller tree.
//! - **`mrv`**: branches on the empty cell with the fewest candidates, ties row-major, and fails
//!   a node at once when a cell has none. Orders of magnitude fewer nodes than `scan` on hard
//!   puzzles, with no propagation beyond the choice of cell.
//! - **`dlx-knuth`**: Knuth's Dancing Links (Algorithm X choosing the item with the fewest
//!   options), written for sudolab, with Knuth's `nodes` and `updates`. Its item choice includes
//!   hidden singles, so its trees are smaller than `mrv`'s; the fastest exact-cover engine here.
//!   Exponential on large minimal puzzles (undecided on 25x25 after minutes).
//! - **`dlx`**: the same exact-cover matrix solved by the `dlx-rs` crate. The crate has no
//!   counters and cannot be stopped inside a search: only `items`, `options` and
//!   `solutions_enumerated` are reported, node budgets do not apply; above 9x9 and on variants
//!   the search runs on its own thread, abandoned at the deadline, and boards above 16x16 are
//!   refused (one search there can run for minutes).
//! - **`sat`**, **`sat-extended`**, **`sat-minimal`**: CNF encodings (reduced after Kwon and Jain
//!   2006; extended and minimal after Lynce and Ouaknine 2006) solved by `varisat`, counting by
//!   blocking clauses. varisat has no statistics and no interrupt flag: `variables`, `clauses`
//!   and `solver_calls` are reported; above 9x9 and on variants a proof sink that fails at the
//!   deadline stops a call, and boards above 36x36 are refused. Clause learning makes SAT the
//!   winner on large minimal puzzles.
//!
//! # Example
//!
//! ```
//! use sudolab::model::{Grid, to_line, validate};
//! use sudolab::strategy::{self, Limits, Strategy, Verdict};
//!
//! let puzzle: Grid = "4..3.....1....2.".parse().unwrap();
//! let mrv = &strategy::Mrv;
//! let outcome = mrv.count_up_to(&puzzle, 2, &Limits::default());
//! assert_eq!(outcome.verdict(), Verdict::Unique);
//!
//! let (solution, _) = mrv.solve(&puzzle, &Limits::default());
//! let solution: Grid = solution.unwrap();
//! assert_eq!(validate(&puzzle, &solution), Ok(()));
//! assert_eq!(to_line(&solution).unwrap(), "4213134221343421");
//! ```

pub use sudolab_certcheck as certcheck;
pub mod certify;
pub mod check;
pub mod corpus;
pub mod encode;
pub mod experiment;
pub mod generate;
pub mod grids;
pub mod human;
pub mod model;
pub mod plan;
pub mod report;
pub mod strategy;
pub mod trace;
