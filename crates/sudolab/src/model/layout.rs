//! The geometry of a shape, flattened for the engines' inner loops and built once per process.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock, PoisonError};

use super::Shape;
use super::rules::Rules;

/// Peers, houses and the houses of each cell of one shape, or of one variant's rules.
pub(crate) struct Layout {
    pub(crate) side: usize,
    pub(crate) cells: usize,
    /// `peers[peer_start[cell]..peer_start[cell + 1]]`, ascending: the cells that share a house
    /// with `cell` or must differ from it.
    peers: Vec<u16>,
    peer_start: Vec<u32>,
    /// `houses[house * side..][..side]`: rows, columns, boxes (or a variant's houses in the
    /// order of [`Rules::houses`]).
    pub(crate) houses: Vec<u16>,
    /// `(row, column, box)` of every cell; empty for a variant's layout.
    pub(crate) houses_of: Vec<[u8; 3]>,
    /// `house_list[house_start[cell]..house_start[cell + 1]]`: the houses of `cell`, ascending.
    house_list: Vec<u16>,
    house_start: Vec<u32>,
    /// Each cell's peers as a bit set over the cells, `cells.div_ceil(64)` words per cell,
    /// built on first use (only `mrv` reads them, and only on boards of up to 256 cells).
    peer_bits: OnceLock<Vec<u64>>,
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
        let houses: Vec<Vec<u16>> = shape
            .houses()
            .map(|house| {
                shape
                    .house_cells(house)
                    .into_iter()
                    .map(|cell| cell as u16)
                    .collect()
            })
            .collect();
        let mut layout = Layout::from_houses(side, &houses, &[]);
        layout.houses_of = (0..cells)
            .map(|cell| {
                [
                    shape.row_of(cell) as u8,
                    shape.col_of(cell) as u8,
                    shape.box_of(cell) as u8,
                ]
            })
            .collect();
        layout
    }

    /// The layout of a variant: its houses, and its must-differ pairs among the peers.
    pub(crate) fn for_rules(rules: &Rules) -> Layout {
        let houses: Vec<Vec<u16>> = rules
            .houses()
            .iter()
            .map(|region| region.cells.clone())
            .collect();
        Layout::from_houses(rules.side(), &houses, rules.different_pairs())
    }

    fn from_houses(side: usize, houses: &[Vec<u16>], different: &[[u16; 2]]) -> Layout {
        let cells = side * side;
        let mut peer_sets: Vec<Vec<u16>> = vec![Vec::new(); cells];
        let mut houses_of_cell: Vec<Vec<u16>> = vec![Vec::new(); cells];
        for (house_idx, house) in houses.iter().enumerate() {
            for &cell in house {
                houses_of_cell[cell as usize].push(house_idx as u16);
                peer_sets[cell as usize].extend(house.iter().filter(|&&other| other != cell));
            }
        }
        for &[a, b] in different {
            peer_sets[a as usize].push(b);
            peer_sets[b as usize].push(a);
        }
        let (peers, peer_start) = flatten(peer_sets.into_iter().map(|mut peers| {
            peers.sort_unstable();
            peers.dedup();
            peers
        }));
        let (house_list, house_start) = flatten(houses_of_cell.into_iter());
        Layout {
            side,
            cells,
            peers,
            peer_start,
            houses: houses.iter().flatten().copied().collect(),
            houses_of: Vec::new(),
            house_list,
            house_start,
            peer_bits: OnceLock::new(),
        }
    }

    /// The cells that share a house with `cell` (or must differ from it), ascending.
    #[inline]
    pub(crate) fn peers(&self, cell: usize) -> &[u16] {
        &self.peers[self.peer_start[cell] as usize..self.peer_start[cell + 1] as usize]
    }

    /// The peers of every cell as bit sets over the cells, `W` words each (`W` must be
    /// `cells.div_ceil(64)`): bit `p % 64` of word `p / 64` of `cell`'s words
    /// (`[cell * W..][..W]`) is set when `p` is a peer of `cell`.
    pub(crate) fn peer_bits<const W: usize>(&self) -> &[u64] {
        assert_eq!(
            W,
            self.cells.div_ceil(64),
            "peer bit sets of the board's width"
        );
        self.peer_bits.get_or_init(|| {
            let mut words = vec![0u64; self.cells * W];
            for cell in 0..self.cells {
                for &peer in self.peers(cell) {
                    words[cell * W + peer as usize / 64] |= 1u64 << (peer % 64);
                }
            }
            words
        })
    }

    /// The houses of `cell`, as indices into [`Layout::houses`] (in steps of `side`), ascending.
    #[inline]
    pub(crate) fn houses_of_cell(&self, cell: usize) -> &[u16] {
        &self.house_list[self.house_start[cell] as usize..self.house_start[cell + 1] as usize]
    }

    /// The number of houses.
    pub(crate) fn house_count(&self) -> usize {
        self.houses.len() / self.side.max(1)
    }
}

/// Lists flattened into one vector with start offsets (`starts.len() == lists + 1`).
fn flatten(lists: impl Iterator<Item = Vec<u16>>) -> (Vec<u16>, Vec<u32>) {
    let mut flat = Vec::new();
    let mut starts = vec![0u32];
    for list in lists {
        flat.extend(list);
        starts.push(flat.len() as u32);
    }
    (flat, starts)
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
