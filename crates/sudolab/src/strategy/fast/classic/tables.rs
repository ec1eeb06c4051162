//! The constant tables of the 9x9 path, built at compile time. Bit layouts: the module doc of
//! [`classic`](super).

/// All 27 cells of a band.
pub(super) const BAND: u32 = (1 << 27) - 1;

/// All 27 words of a board, as dirty bits.
pub(super) const ALL_WORDS: u32 = (1 << 27) - 1;

/// Segments with a place ([`segments`]) -> cells of every 3x3 permutation among them; 0: none.
///
/// [`segments`]: super::board::segments
pub(super) const BAND_ALLOWED: [u32; 512] = {
    const PERMUTATIONS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut table = [0; 512];
    let mut segments = 0;
    while segments < 512 {
        let mut union = 0;
        let mut p = 0;
        while p < PERMUTATIONS.len() {
            let perm = PERMUTATIONS[p];
            let matrix = (1 << perm[0]) | (1 << (3 + perm[1])) | (1 << (6 + perm[2]));
            if segments & matrix == matrix {
                union |= matrix;
            }
            p += 1;
        }
        let mut cells = 0;
        let mut bit = 0;
        while bit < 9 {
            if union & (1 << bit) != 0 {
                cells |= 7 << (9 * (bit / 3) + 3 * (bit % 3));
            }
            bit += 1;
        }
        // Built from the row-major bit order (`3 * row + box`), stored under the box-major one.
        let mut transposed = 0;
        let mut bit = 0;
        while bit < 9 {
            if segments & (1 << bit) != 0 {
                transposed |= 1 << (3 * (bit % 3) + bit / 3);
            }
            bit += 1;
        }
        table[transposed] = cells;
        segments += 1;
    }
    table
};

/// Segments -> cells of the rows [`BAND_ALLOWED`] keeps in one segment: a lone place there is set.
/// Why the same index as [`BAND_ALLOWED`]: row singles then need not wait for that look-up.
pub(super) const LONE_SEGMENT: [u32; 512] = {
    let mut table = [0; 512];
    let mut segments = 0;
    while segments < 512 {
        let allowed = BAND_ALLOWED[segments];
        let mut row = 0;
        while row < 3 {
            let cells = (allowed >> (9 * row)) & 0x1FF;
            let mut kept = 0;
            let mut k = 0;
            while k < 3 {
                if cells & (7 << (3 * k)) != 0 {
                    kept += 1;
                }
                k += 1;
            }
            if kept == 1 {
                table[segments] |= cells << (9 * row);
            }
            row += 1;
        }
        segments += 1;
    }
    table
};

/// A digit's columns in a band -> cells of those alone in their box, to clear in the other bands.
/// Why cells, not columns: a multiplication after the look-up would lengthen every word update.
pub(super) const LOCKED_COLUMNS: [u32; 512] = {
    let mut table = [0; 512];
    let mut columns: usize = 0;
    while columns < 512 {
        let mut locked = 0;
        let mut k = 0;
        while k < 3 {
            let in_box = (columns >> (3 * k)) & 7;
            if in_box.is_power_of_two() {
                locked |= in_box << (3 * k);
            }
            k += 1;
        }
        table[columns] = column_cells(locked as u32);
        columns += 1;
    }
    table
};

/// Cell of a band -> its column.
pub(super) const COLUMN: [u8; 27] = {
    let mut table = [0; 27];
    let mut cell = 0;
    while cell < 27 {
        table[cell] = (cell % 9) as u8;
        cell += 1;
    }
    table
};

/// Word -> the words of the same digit in the two other bands.
pub(super) const SAME_DIGIT: [[u8; 2]; 27] = {
    let mut table = [[0; 2]; 27];
    let mut word = 0;
    while word < 27 {
        let first = word - word % 3;
        table[word] = [
            (first + (word + 1) % 3) as u8,
            (first + (word + 2) % 3) as u8,
        ];
        word += 1;
    }
    table
};

/// Band -> the two other bands.
pub(super) const OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [2, 0], [0, 1]];

/// 9-bit value -> its number of ones.
pub(super) const ONES_IN_9_BITS: [u8; 512] = {
    let mut table = [0; 512];
    let mut value = 0;
    while value < 512 {
        table[value] = (value as u32).count_ones() as u8;
        value += 1;
    }
    table
};

/// Set of rows of a band (bit per row) -> their cells.
pub(super) const ROW_CELLS: [u32; 8] = {
    let mut table = [0; 8];
    let mut rows = 0;
    while rows < 8 {
        let mut row = 0;
        while row < 3 {
            if rows & (1 << row) != 0 {
                table[rows] |= 0x1FF << (9 * row);
            }
            row += 1;
        }
        rows += 1;
    }
    table
};

/// Set of boxes of a band (bit per box) -> their cells.
pub(super) const BOX_CELLS: [u32; 8] = {
    let mut table = [0; 8];
    let mut boxes = 0;
    while boxes < 8 {
        let mut k = 0;
        while k < 3 {
            if boxes & (1 << k) != 0 {
                table[boxes] |= column_cells(7 << (3 * k));
            }
            k += 1;
        }
        boxes += 1;
    }
    table
};

/// Cell of a band -> the other cells of its row and its box.
pub(super) const BAND_PEERS: [u32; 27] = {
    let mut table = [0; 27];
    let mut cell = 0;
    while cell < 27 {
        let (row, col) = (cell / 9, cell % 9);
        let peers = (0x1FF << (9 * row)) | column_cells(7 << (3 * (col / 3)));
        table[cell] = peers & !(1 << cell);
        cell += 1;
    }
    table
};

/// Cell of the board (0-80) -> its row, column and box as bits 0-8, 9-17 and 18-26.
pub(super) const CELL_HOUSES: [u32; 81] = {
    let mut table = [0; 81];
    let mut cell = 0;
    while cell < 81 {
        let (row, col) = (cell / 9, cell % 9);
        table[cell] = (1 << row) | (1 << (9 + col)) | (1 << (18 + 3 * (row / 3) + col / 3));
        cell += 1;
    }
    table
};

/// Byte -> a `u64` with its bit `j` at bit 0 of byte `j`: eight solution cells written at once.
pub(super) const SPREAD: [u64; 256] = {
    let mut table = [0; 256];
    let mut value = 0;
    while value < 256 {
        let mut bit = 0;
        while bit < 8 {
            if value & (1 << bit) != 0 {
                table[value] |= 1 << (8 * bit);
            }
            bit += 1;
        }
        value += 1;
    }
    table
};

/// A 9-bit set of columns, repeated on the three rows of a band.
#[inline]
pub(super) const fn column_cells(columns: u32) -> u32 {
    columns * 0x40201
}
