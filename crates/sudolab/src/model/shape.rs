//! The shape of a board: box dimensions, side length and the houses every cell belongs to.

use std::fmt;
use std::str::FromStr;

/// The largest supported box dimension; with it the side `n` is at most 64, so every digit set
/// fits in one `u64`.
pub const MAX_BOX_DIM: usize = 8;

/// The largest supported side length.
pub const MAX_SIDE: usize = MAX_BOX_DIM * MAX_BOX_DIM;

/// Box dimensions of a board: `box_rows` rows and `box_cols` columns per box.
///
/// The side is `n = box_rows * box_cols`; the board has `n` rows, `n` columns and `n` boxes,
/// and holds the digits `1..=n`. A 6x6 board has 2x3 boxes (2 rows, 3 columns each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    box_rows: u8,
    box_cols: u8,
}

/// Why a shape was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// A box dimension outside `1..=8`.
    #[error("box dimensions must be between 1 and {MAX_BOX_DIM}, found {box_rows}x{box_cols}")]
    OutOfRange {
        /// The rows asked for.
        box_rows: usize,
        /// The columns asked for.
        box_cols: usize,
    },
    /// Text that is not of the form `RxC`.
    #[error("expected a box shape such as 3x3 or 2x3 (rows x columns), found '{0}'")]
    Syntax(String),
    /// A side length that no supported box shape produces by default.
    #[error("no default box shape for side {0}; pass --box RxC")]
    NoDefaultForSide(usize),
}

impl Shape {
    /// The classic 9x9 board.
    pub const CLASSIC: Shape = Shape {
        box_rows: 3,
        box_cols: 3,
    };

    /// A shape with the given box dimensions, each between 1 and 8.
    pub fn new(box_rows: usize, box_cols: usize) -> Result<Shape, ShapeError> {
        if !(1..=MAX_BOX_DIM).contains(&box_rows) || !(1..=MAX_BOX_DIM).contains(&box_cols) {
            return Err(ShapeError::OutOfRange { box_rows, box_cols });
        }
        Ok(Shape {
            box_rows: box_rows as u8,
            box_cols: box_cols as u8,
        })
    }

    /// The default shape for a side length: the most square box with at most as many rows as
    /// columns (4 -> 2x2, 6 -> 2x3, 8 -> 2x4, 12 -> 3x4, 36 -> 6x6). Sides whose only split is
    /// `1 x n` (primes other than 1) have no default.
    pub fn for_side(side: usize) -> Result<Shape, ShapeError> {
        if side == 1 {
            return Shape::new(1, 1);
        }
        let best_rows = (2..=side)
            .take_while(|rows| rows * rows <= side)
            .filter(|rows| side % rows == 0)
            .last()
            .ok_or(ShapeError::NoDefaultForSide(side))?;
        Shape::new(best_rows, side / best_rows).map_err(|_| ShapeError::NoDefaultForSide(side))
    }

    /// The shape of a board of side `side` (at most 64) whose only "boxes" are its rows: the
    /// shape a Latin square or a jigsaw has when its side has no default box. Crate-only, so
    /// that a plain grid never gets it: only [`super::Rules`] read its boxes, and never as
    /// houses.
    pub(crate) fn rows_only(side: usize) -> Shape {
        debug_assert!((1..=MAX_SIDE).contains(&side));
        Shape {
            box_rows: 1,
            box_cols: side as u8,
        }
    }

    /// Rows per box.
    pub fn box_rows(self) -> usize {
        self.box_rows as usize
    }

    /// Columns per box.
    pub fn box_cols(self) -> usize {
        self.box_cols as usize
    }

    /// The side `n`: rows, columns, boxes and digits.
    pub fn side(self) -> usize {
        self.box_rows() * self.box_cols()
    }

    /// The number of cells, `n * n`.
    pub fn cell_count(self) -> usize {
        self.side() * self.side()
    }

    /// The row of a cell index (row-major order).
    pub fn row_of(self, cell_idx: usize) -> usize {
        cell_idx / self.side()
    }

    /// The column of a cell index.
    pub fn col_of(self, cell_idx: usize) -> usize {
        cell_idx % self.side()
    }

    /// The box of a cell index; boxes are numbered row-major, `n / box_cols` of them per band.
    pub fn box_of(self, cell_idx: usize) -> usize {
        self.box_at(self.row_of(cell_idx), self.col_of(cell_idx))
    }

    /// The box containing row `row`, column `col`.
    pub fn box_at(self, row: usize, col: usize) -> usize {
        let boxes_per_band = self.side() / self.box_cols();
        (row / self.box_rows()) * boxes_per_band + col / self.box_cols()
    }

    /// The cell index of row `row`, column `col`.
    pub fn cell_at(self, row: usize, col: usize) -> usize {
        row * self.side() + col
    }

    /// The cells of a house, in row-major order.
    pub fn house_cells(self, house: House) -> Vec<usize> {
        let n = self.side();
        match house {
            House::Row(row) => (0..n).map(|col| self.cell_at(row, col)).collect(),
            House::Col(col) => (0..n).map(|row| self.cell_at(row, col)).collect(),
            House::Box(box_idx) => {
                let boxes_per_band = n / self.box_cols();
                let top = (box_idx / boxes_per_band) * self.box_rows();
                let left = (box_idx % boxes_per_band) * self.box_cols();
                (top..top + self.box_rows())
                    .flat_map(|row| (left..left + self.box_cols()).map(move |col| (row, col)))
                    .map(|(row, col)| self.cell_at(row, col))
                    .collect()
            }
        }
    }

    /// Every house: the rows, then the columns, then the boxes.
    pub fn houses(self) -> impl Iterator<Item = House> {
        let n = self.side();
        (0..n)
            .map(House::Row)
            .chain((0..n).map(House::Col))
            .chain((0..n).map(House::Box))
    }

    /// The peers of a cell: every other cell sharing its row, column or box, ascending.
    pub fn peers(self, cell_idx: usize) -> Vec<usize> {
        let row = self.row_of(cell_idx);
        let col = self.col_of(cell_idx);
        let box_idx = self.box_of(cell_idx);
        let mut peers: Vec<usize> = [House::Row(row), House::Col(col), House::Box(box_idx)]
            .into_iter()
            .flat_map(|house| self.house_cells(house))
            .filter(|&other| other != cell_idx)
            .collect();
        peers.sort_unstable();
        peers.dedup();
        peers
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.box_rows, self.box_cols)
    }
}

impl FromStr for Shape {
    type Err = ShapeError;

    /// Parses `RxC` (also `R*C` or `RXC`): `R` rows and `C` columns per box.
    fn from_str(text: &str) -> Result<Shape, ShapeError> {
        let syntax = || ShapeError::Syntax(text.to_string());
        let (rows, cols) = text.trim().split_once(['x', 'X', '*']).ok_or_else(syntax)?;
        let rows: usize = rows.trim().parse().map_err(|_| syntax())?;
        let cols: usize = cols.trim().parse().map_err(|_| syntax())?;
        Shape::new(rows, cols)
    }
}

/// A row, column or box: a set of `n` cells that must hold every digit once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum House {
    /// Row `0..n`, top to bottom.
    Row(usize),
    /// Column `0..n`, left to right.
    Col(usize),
    /// Box `0..n`, row-major.
    Box(usize),
}

impl fmt::Display for House {
    /// One-based, as people count: `row 3`, `column 7`, `box 5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            House::Row(row) => write!(f, "row {}", row + 1),
            House::Col(col) => write!(f, "column {}", col + 1),
            House::Box(box_idx) => write!(f, "box {}", box_idx + 1),
        }
    }
}

/// Names a cell as people and the teaching traces do: `r3c7`, one-based.
pub fn cell_name(shape: Shape, cell_idx: usize) -> String {
    format!(
        "r{}c{}",
        shape.row_of(cell_idx) + 1,
        shape.col_of(cell_idx) + 1
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_shapes_follow_the_common_conventions() {
        let cases = [
            (1, "1x1"),
            (4, "2x2"),
            (6, "2x3"),
            (8, "2x4"),
            (9, "3x3"),
            (12, "3x4"),
            (16, "4x4"),
            (25, "5x5"),
            (36, "6x6"),
            (64, "8x8"),
        ];
        for (side, expected) in cases {
            assert_eq!(Shape::for_side(side).unwrap().to_string(), expected);
        }
        assert_eq!(Shape::for_side(7), Err(ShapeError::NoDefaultForSide(7)));
        assert_eq!(Shape::for_side(81), Err(ShapeError::NoDefaultForSide(81)));
    }

    #[test]
    fn parses_and_rejects_box_text() {
        assert_eq!("2x3".parse::<Shape>().unwrap(), Shape::new(2, 3).unwrap());
        assert_eq!(
            "9x9".parse::<Shape>(),
            Err(ShapeError::OutOfRange {
                box_rows: 9,
                box_cols: 9
            })
        );
        assert_eq!(
            "3by3".parse::<Shape>().unwrap_err().to_string(),
            "expected a box shape such as 3x3 or 2x3 (rows x columns), found '3by3'"
        );
    }

    #[test]
    fn rectangular_boxes_tile_the_board() {
        let shape = Shape::new(2, 3).unwrap();
        assert_eq!(shape.house_cells(House::Box(0)), vec![0, 1, 2, 6, 7, 8]);
        assert_eq!(
            shape.house_cells(House::Box(3)),
            vec![15, 16, 17, 21, 22, 23]
        );
        assert_eq!(shape.box_at(5, 5), 5);
        assert_eq!(shape.peers(0).len(), 5 + 5 + 2);
        assert_eq!(cell_name(shape, 7), "r2c2");
    }
}
