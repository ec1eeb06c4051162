//! Whole grids: exact counts by the band method and uniform samples.

mod count;
mod sample;

pub use count::{CountError, GridCount, LayoutClass, MAX_SIDE, count_grids};
pub use sample::GridSampler;
