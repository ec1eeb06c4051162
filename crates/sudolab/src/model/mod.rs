//! The vocabulary every other module speaks: shapes, grids, digit sets, text forms,
//! transformations and certification. No IO, no search.

mod candidates;
pub mod cells;
pub(crate) mod choice;
mod digits;
mod features;
mod format;
mod grid;
pub(crate) mod layout;
pub(crate) mod rules;
mod shape;
mod transform;
mod validate;

pub use choice::{Choice, UnknownChoice, names as choice_names, parse_choice};
pub use digits::DigitSet;
pub use features::{FEATURE_NAMES, Features};
pub use format::{
    EMPTY_SYMBOLS, LineRecord, MAX_LINE_SIDE, ParseError, describe_alphabet, parse_grid_row,
    parse_line_record, push_decimal, push_line, symbol_for, symbol_value, to_grid_text, to_line,
    to_one_line,
};
// The readers' helpers, for `corpus` and the engines' own line readers; nothing outside the
// library uses them.
pub(crate) use format::{
    Found, count_tokens, is_grid_separator, is_rule_line, parse_bare_line_into,
};
pub use grid::{Grid, GridError};
pub use rules::{Cage, CageSpec, Region, RegionKind, Rules, RulesError, RulesSpec, sum_range};
pub use shape::{House, MAX_BOX_DIM, MAX_SIDE, Shape, ShapeError, cell_name};
pub use transform::{relabel, swap_bands, swap_rows_in_band, transpose};
pub use validate::{Conflict, ConflictRule, Invalid, find_conflict, solves, validate};
