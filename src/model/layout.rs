//! The geometry of a shape, flattened for the engines' inner loops and built once per process.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock, PoisonError};

use super::Shape;

/// Peers, houses and the houses of each cell of one shape.
pub(crate) struct Layout {
    pub(crate) side: usize,
    pub(crate) cells: usize,
    pub(crate) peer_count: usize,
    /// `peers[cell * peer_count..][..peer_count]`, ascending.
    peers: Vec<u16>,
    /// `houses[house * side..][..side]`: rows, columns, boxes.
    pub(crate) houses: Vec<u16>,
    /// `(row, column, box)` of every cell.
    pub(crate) houses_of: Vec<[u8; 3]>,
}

impl Layout {
    /// The layout of `shape`, built once per shape and process. Building one means a peer list
    /// per cell (a quarter of `fast`'s time on a 16x16 puzzle, and most of `mrv`'s on an easy
    /// 9x9 one, when it was rebuilt per search); there are at most 64 shapes, so the cache is
    /// small and never evicts.
    pub(crate) fn of(shape: Shape) -> &'static Layout {
        static CLASSIC: OnceLock<Layout> = OnceLock::new();
        static LAYOUTS: OnceLock<Mutex<HashMap<Shape, &'static Layout>>> = OnceLock::new();
        if shape == Shape::CLASSIC {
            // The common case, without the lock.
            return CLASSIC.get_or_init(|| Layout::new(Shape::CLASSIC));
        }
        let mut layouts = LAYOUTS
            .get_or_init(Mutex::default)
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        layouts
            .entry(shape)
            .or_insert_with(|| Box::leak(Box::new(Layout::new(shape))))
    }

    fn new(shape: Shape) -> Layout {
        let side = shape.side();
        let cells = shape.cell_count();
        let peer_lists: Vec<Vec<usize>> = (0..cells).map(|cell| shape.peers(cell)).collect();
        Layout {
            side,
            cells,
            peer_count: peer_lists.first().map_or(0, Vec::len),
            peers: peer_lists
                .iter()
                .flatten()
                .map(|&cell| cell as u16)
                .collect(),
            houses: shape
                .houses()
                .flat_map(|house| shape.house_cells(house))
                .map(|cell| cell as u16)
                .collect(),
            houses_of: (0..cells)
                .map(|cell| {
                    [
                        shape.row_of(cell) as u8,
                        shape.col_of(cell) as u8,
                        shape.box_of(cell) as u8,
                    ]
                })
                .collect(),
        }
    }

    /// The cells that share a house with `cell`, ascending.
    #[inline]
    pub(crate) fn peers(&self, cell: usize) -> &[u16] {
        &self.peers[cell * self.peer_count..(cell + 1) * self.peer_count]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cached_layout_matches_the_shape() {
        for shape in [
            Shape::CLASSIC,
            Shape::new(2, 3).unwrap(),
            Shape::new(4, 4).unwrap(),
        ] {
            let layout = Layout::of(shape);
            assert!(std::ptr::eq(layout, Layout::of(shape)), "built once");
            assert_eq!(
                (layout.side, layout.cells),
                (shape.side(), shape.cell_count())
            );
            for cell in 0..shape.cell_count() {
                let peers: Vec<usize> = layout.peers(cell).iter().map(|&p| p as usize).collect();
                assert_eq!(peers, shape.peers(cell));
                let [row, col, box_idx] = layout.houses_of[cell];
                assert_eq!(
                    (row as usize, col as usize, box_idx as usize),
                    (shape.row_of(cell), shape.col_of(cell), shape.box_of(cell))
                );
            }
        }
    }
}
