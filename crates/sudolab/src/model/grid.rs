//! A board: its shape and one value per cell, `0` for empty.

use std::sync::Arc;

use super::rules::Rules;
use super::shape::Shape;

/// A puzzle or a solution: a shape and `n * n` cells in row-major order, `0` for an empty cell,
/// `1..=n` for a digit.
///
/// Every value is in range by construction. Givens that contradict each other are still a
/// valid `Grid` (a puzzle with no solution); [`crate::model::find_conflict`] names the clash.
///
/// A variant puzzle (X, jigsaw, killer, a Latin square...) also carries its [`Rules`]; a plain
/// Sudoku carries none, and its rules are its shape's rows, columns and boxes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    shape: Shape,
    cells: Vec<u8>,
    rules: Option<Arc<Rules>>,
}

/// Why cells could not make a grid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    /// The number of cells is not `n * n`.
    #[error("expected {expected} cells for a {shape} box shape, found {found}")]
    WrongCellCount {
        /// The box shape.
        shape: Shape,
        /// `n * n`.
        expected: usize,
        /// The cells given.
        found: usize,
    },
    /// A value above `n`.
    #[error("cell {cell_idx}: expected a value 0-{side}, found {value}")]
    ValueOutOfRange {
        /// The cell index, row-major.
        cell_idx: usize,
        /// The side `n`.
        side: usize,
        /// The value found.
        value: u64,
    },
}

impl Grid {
    /// An empty board of the given shape.
    pub fn empty(shape: Shape) -> Grid {
        Grid {
            shape,
            cells: vec![0; shape.cell_count()],
            rules: None,
        }
    }

    /// A grid from row-major cell values, each `0..=n`.
    pub fn from_cells(shape: Shape, cells: Vec<u8>) -> Result<Grid, GridError> {
        if cells.len() != shape.cell_count() {
            return Err(GridError::WrongCellCount {
                shape,
                expected: shape.cell_count(),
                found: cells.len(),
            });
        }
        // The common case first, as one vectorized pass: the largest value.
        let side = shape.side() as u8;
        if cells.iter().fold(0, |largest, &value| largest.max(value)) <= side {
            return Ok(Grid {
                shape,
                cells,
                rules: None,
            });
        }
        if let Some((cell_idx, &value)) = cells.iter().enumerate().find(|&(_, &value)| value > side)
        {
            return Err(GridError::ValueOutOfRange {
                cell_idx,
                side: shape.side(),
                value: value as u64,
            });
        }
        Ok(Grid {
            shape,
            cells,
            rules: None,
        })
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The same cells under a variant's rules, whose shape they must have.
    ///
    /// # Panics
    /// When the rules are for another shape: callers build the rules for the grid's side.
    #[must_use]
    pub fn with_rules(mut self, rules: Arc<Rules>) -> Grid {
        assert_eq!(
            rules.shape(),
            self.shape,
            "variant rules are built for the grid's own shape"
        );
        self.rules = Some(rules);
        self
    }

    /// An empty board under a variant's rules.
    pub fn empty_with_rules(rules: Arc<Rules>) -> Grid {
        Grid::empty(rules.shape()).with_rules(rules)
    }

    /// The variant's rules; `None` for plain Sudoku.
    pub fn rules(&self) -> Option<&Arc<Rules>> {
        self.rules.as_ref()
    }

    /// The same grid without variant rules (a solution to compare by its cells).
    #[must_use]
    pub fn without_rules(mut self) -> Grid {
        self.rules = None;
        self
    }

    /// The side `n`.
    pub fn side(&self) -> usize {
        self.shape.side()
    }

    /// The cells, row-major, `0` for empty.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The cells for writing, inside the crate only: an engine that writes a whole solution
    /// (values it knows to be in `1..=n`) skips [`Grid::set`]'s check per cell.
    pub(crate) fn cells_mut(&mut self) -> &mut [u8] {
        &mut self.cells
    }

    /// The value at a cell index, `0` for empty.
    pub fn get(&self, cell_idx: usize) -> u8 {
        self.cells[cell_idx]
    }

    /// Sets a cell; `value` must be `0..=n`.
    ///
    /// # Panics
    /// When `value` is above `n`: grids keep their values in range.
    pub fn set(&mut self, cell_idx: usize, value: u8) {
        assert!(
            value as usize <= self.side(),
            "grid values stay in 0..=n, got {value} for side {}",
            self.side()
        );
        self.cells[cell_idx] = value;
    }

    /// The value at row `row`, column `col`.
    pub fn at(&self, row: usize, col: usize) -> u8 {
        self.cells[self.shape.cell_at(row, col)]
    }

    /// How many cells hold a digit.
    pub fn clue_count(&self) -> usize {
        // Summed in byte lanes (chunks of at most 255 cells cannot overflow one), which the
        // compiler vectorizes 16 cells a step: every report row counts its puzzle's givens,
        // and a filtered count cost 3 instructions a cell.
        self.cells
            .chunks(255)
            .map(|chunk| {
                let givens = chunk
                    .iter()
                    .fold(0u8, |givens, &value| givens + u8::from(value != 0));
                usize::from(givens)
            })
            .sum()
    }

    /// Whether every cell holds a digit.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&value| value != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn givens_are_counted_past_a_byte_lane() {
        // 25x25: 625 cells, counted in chunks of 255; every third cell given.
        let shape = Shape::for_side(25).unwrap();
        let cells: Vec<u8> = (0..625).map(|i| u8::from(i % 3 == 0)).collect();
        assert_eq!(Grid::from_cells(shape, cells).unwrap().clue_count(), 209);
        let full = vec![25; 625];
        assert_eq!(Grid::from_cells(shape, full).unwrap().clue_count(), 625);
        assert_eq!(Grid::empty(shape).clue_count(), 0);
    }
}
