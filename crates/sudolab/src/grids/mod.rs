//! Whole grids: exact counts by the band method, uniform samples, and the puzzles of a given
//! clue count inside a grid (unavoidable sets and a hitting-set search).

mod burnside;
mod classes;
mod count;
mod min_clues;
mod sample;
mod three;
mod unavoidable;

pub use burnside::{BurnsideCount, FixedClass, burnside};
pub use classes::{
    ClassesError, MAX_CLASSES_SIDE, essentially_different, essentially_different_grids,
};
pub use count::{CountError, GridCount, LayoutClass, MAX_SIDE, count_grids};
pub use min_clues::{
    DEFAULT_SET_DIGITS, GaveUp, MAX_ALL_SIDE, MAX_CELLS, MAX_LISTED, MinCluesError,
    MinCluesOptions, MinCluesStats, Minimum, TooManyGrids, check_grid, min_clues,
    minimum_over_grids,
};
pub use sample::GridSampler;
pub use unavoidable::{Cells, Collection, unavoidable_sets};
