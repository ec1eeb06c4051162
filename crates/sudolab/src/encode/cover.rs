//! The exact-cover matrix of a puzzle.
//!
//! Primary items (covered exactly once): one per cell (`p`) and one per house and digit:
//! row-digit (`r`), column-digit (`c`) and box-digit (`b`), `4 n^2` in all for plain Sudoku; a
//! variant's other houses add theirs (jigsaw regions `j` instead of boxes, diagonals `d`,
//! windows `w`; a Latin square has no boxes). Pairs of cells become secondary items (covered at
//! most once, Knuth's way of saying "not both"): a must-differ pair (anti-king, anti-knight,
//! `different`) has one per digit, `q`, in the options that write that digit in either cell; a
//! non-consecutive pair has one per two adjacent digits `k` and `k + 1`, `n`, in the options
//! that write either digit in either cell (the two cells are orthogonal neighbours, so they
//! share a row or a column, which already keeps them from holding one digit). Options: one per
//! cell and digit, covering its cell item, its digit's item in every house of the cell, and its
//! pairs' secondary items. The givens are pruned rather than selected: their items are dropped,
//! and only the options none of whose items a given covers become options. The puzzle's givens
//! must not conflict (callers check [`crate::model::find_conflict`] first). A cage's sum is not
//! an item: the exact-cover engines refuse killer puzzles.

use std::fmt::{self, Write as _};

use crate::model::layout::Layout;
use crate::model::{Grid, RegionKind, Rules, Shape};

/// The most primary items one option covers: its cell, and a row, a column, a box or region,
/// two diagonals and a window.
pub const MAX_OPTION_ITEMS: usize = 8;

/// Whether the exact-cover matrix can express `rules`: houses become items and pairs
/// secondary items; `Err` says why not, for the engines' refusals.
pub fn exact_cover_takes(rules: &Rules) -> Result<(), &'static str> {
    if rules.cages().is_empty() {
        Ok(())
    } else {
        Err(
            "exact cover takes houses and pairs of cells, not the sum of a cage (docs/variants.md \
             lists the engines that take every rule)",
        )
    }
}

/// One item of the matrix: a constraint that exactly one chosen option must satisfy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    /// Cell (row, column) holds some digit.
    Cell(usize, usize),
    /// Row holds digit.
    RowDigit(usize, u8),
    /// Column holds digit.
    ColDigit(usize, u8),
    /// Box holds digit.
    BoxDigit(usize, u8),
    /// Another house of a variant holds digit: its kind, its number among houses of that kind.
    HouseDigit(RegionKind, usize, u8),
    /// Secondary: the cells of must-differ pair `pair` (its index in
    /// [`Rules::different_pairs`]) do not both hold digit.
    Differ(usize, u8),
    /// Secondary: the cells of non-consecutive pair `pair` (its index in
    /// [`Rules::nonconsecutive_pairs`]) hold at most one of the digits `k` and `k + 1`.
    Apart(usize, u8),
}

impl Item {
    /// Whether a solution may leave the item uncovered (the pairs' items).
    pub fn is_secondary(self) -> bool {
        matches!(self, Item::Differ(..) | Item::Apart(..))
    }
}

impl fmt::Display for Item {
    /// Knuth-style names with one-based numbers: `p3.7` (cell r3c7), `r3.5` (row 3 holds 5),
    /// `c7.5`, `b2.5`, and for variants `j2.5` (jigsaw region), `d1.5` (diagonal), `w4.5`
    /// (window), `q12.5` (must-differ pair 12, digit 5), `n3.4` (non-consecutive pair 3,
    /// digits 4 and 5). At most 8 characters, as DLX1 requires, for sides up to 64 and up to
    /// 9,999 pairs of a kind.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Item::Cell(row, col) => write!(f, "p{}.{}", row + 1, col + 1),
            Item::RowDigit(row, digit) => write!(f, "r{}.{digit}", row + 1),
            Item::ColDigit(col, digit) => write!(f, "c{}.{digit}", col + 1),
            Item::BoxDigit(box_idx, digit) => write!(f, "b{}.{digit}", box_idx + 1),
            Item::HouseDigit(kind, index, digit) => {
                write!(f, "{}{}.{digit}", kind.letter(), index + 1)
            }
            Item::Differ(pair, digit) => write!(f, "q{}.{digit}", pair + 1),
            Item::Apart(pair, low) => write!(f, "n{}.{low}", pair + 1),
        }
    }
}

/// One option: writing `digit` into `cell`, which covers its cell item, one item per house of
/// the cell, and the secondary items of the cell's pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoverOption {
    /// Row-major cell index.
    pub cell: usize,
    /// The digit.
    pub digit: u8,
    /// Indices into [`CoverMatrix::items`], the first `len`: cell, then the digit in each house
    /// of the cell in house order (row, column, box for plain Sudoku).
    slots: [u32; MAX_OPTION_ITEMS],
    len: u8,
}

impl CoverOption {
    /// The primary items this option covers (indices into [`CoverMatrix::items`]): the
    /// cell's, then the digit's in each house of the cell, in house order.
    #[inline]
    pub fn items(&self) -> &[u32] {
        &self.slots[..self.len as usize]
    }
}

/// The exact-cover matrix of a puzzle with its givens pruned.
#[derive(Clone, Debug)]
pub struct CoverMatrix {
    shape: Shape,
    /// The items still to cover: the primary ones (cells, then each house's digits in house
    /// order), then the secondary ones (must-differ pairs' digits, then non-consecutive pairs'
    /// digit pairs), from index [`CoverMatrix::primary`] on.
    pub items: Vec<Item>,
    /// How many of `items` are primary.
    pub primary: usize,
    /// The options, cell by cell in row-major order, digits ascending.
    pub options: Vec<CoverOption>,
    /// The options' secondary items, side by side: option `o`'s are
    /// `secondary_items[secondary_start[o]..secondary_start[o + 1]]` (both empty without pairs).
    secondary_items: Vec<u32>,
    secondary_start: Vec<u32>,
}

impl CoverMatrix {
    /// Builds the matrix of `puzzle`, whose givens must not conflict; a variant's houses are
    /// items like the rest (its other rules are not: see the module's documentation).
    pub fn build(puzzle: &Grid) -> CoverMatrix {
        let shape = puzzle.shape();
        let layout = match puzzle.rules() {
            Some(rules) => rules.layout(),
            None => Layout::of(shape),
        };
        let side = shape.side();
        let area = side * side;
        // Item slots in the full matrix: cells, then each house's digits, then the secondary
        // items of the pairs.
        let house_slot = |house: usize, digit: u8| area + house * side + digit as usize - 1;
        let primary_slots = area + layout.house_count() * side;
        let pairs = Pairs::of(puzzle, primary_slots);
        let slot_count = primary_slots + pairs.slot_count();

        let mut covered = vec![false; slot_count];
        let mut secondary = Vec::new();
        for (cell, &digit) in puzzle.cells().iter().enumerate() {
            if digit != 0 {
                covered[cell] = true;
                for &house in layout.houses_of_cell(cell) {
                    covered[house_slot(house as usize, digit)] = true;
                }
                if pairs.any() {
                    secondary.clear();
                    pairs.slots(cell, digit, &mut secondary);
                    for &slot in &secondary {
                        covered[slot as usize] = true;
                    }
                }
            }
        }
        let (items, index_of, primary) = name_items(puzzle, &covered, primary_slots, &pairs);
        let mut options = Vec::new();
        let mut secondary_items = Vec::new();
        let mut secondary_start = Vec::new();
        if pairs.any() {
            secondary_start.push(0);
        }
        for cell in 0..shape.cell_count() {
            if puzzle.get(cell) != 0 {
                continue;
            }
            let houses = layout.houses_of_cell(cell);
            'digits: for digit in 1..=side as u8 {
                let mut option = CoverOption {
                    cell,
                    digit,
                    slots: [0; MAX_OPTION_ITEMS],
                    len: 1 + houses.len() as u8,
                };
                option.slots[0] = index_of[cell];
                for (k, &house) in houses.iter().enumerate() {
                    let slot = house_slot(house as usize, digit);
                    if covered[slot] {
                        continue 'digits;
                    }
                    option.slots[k + 1] = index_of[slot];
                }
                if pairs.any() {
                    secondary.clear();
                    pairs.slots(cell, digit, &mut secondary);
                    if secondary.iter().any(|&slot| covered[slot as usize]) {
                        continue;
                    }
                    secondary_items.extend(secondary.iter().map(|&slot| index_of[slot as usize]));
                    secondary_start.push(secondary_items.len() as u32);
                }
                options.push(option);
            }
        }
        CoverMatrix {
            shape,
            items,
            primary,
            options,
            secondary_items,
            secondary_start,
        }
    }

    /// The secondary items option number `option` covers (indices into
    /// [`CoverMatrix::items`]): its cell's must-differ pairs' items for its digit, then its
    /// non-consecutive pairs' items; none without pairs.
    #[inline]
    pub fn secondary_of(&self, option: usize) -> &[u32] {
        match self.secondary_start.get(option..option + 2) {
            Some(&[start, end]) => &self.secondary_items[start as usize..end as usize],
            _ => &[],
        }
    }

    /// The puzzle's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The matrix in the text format of Knuth's DLX1: comment lines starting with `|`, one line
    /// of item names, then one option per line as the names of its items.
    pub fn to_dlx_text(&self, puzzle: &Grid) -> String {
        let mut text = String::new();
        let _ = writeln!(
            text,
            "| sudolab exact cover, box {}, {} givens pruned: {} items, {} options",
            self.shape,
            puzzle.clue_count(),
            self.items.len(),
            self.options.len()
        );
        let _ = writeln!(
            text,
            "| items: pR.C cell, rR.D row R holds D, cC.D column, bB.D box, jJ.D jigsaw region, dK.D diagonal, wW.D window (one-based); an option pR.C rR.D cC.D bB.D writes D at rRcC"
        );
        if self.primary < self.items.len() {
            let _ = writeln!(
                text,
                "| secondary items, after '|' (at most once): qK.D the cells of must-differ pair K do not both hold D, nK.D non-consecutive pair K holds at most one of D and D+1"
            );
        }
        let names: Vec<String> = self.items.iter().map(ToString::to_string).collect();
        text.push_str(&names[..self.primary].join(" "));
        if self.primary < names.len() {
            text.push_str(" | ");
            text.push_str(&names[self.primary..].join(" "));
        }
        text.push('\n');
        for (index, option) in self.options.iter().enumerate() {
            let names: Vec<&str> = option
                .items()
                .iter()
                .chain(self.secondary_of(index))
                .map(|&item| names[item as usize].as_str())
                .collect();
            text.push_str(&names.join(" "));
            text.push('\n');
        }
        text
    }
}

/// The items of the slots no given covers, in slot order, with each slot's index among them
/// (`u32::MAX` for a covered slot) and how many of them are primary.
fn name_items(
    puzzle: &Grid,
    covered: &[bool],
    primary_slots: usize,
    pairs: &Pairs<'_>,
) -> (Vec<Item>, Vec<u32>, usize) {
    let side = puzzle.shape().side();
    let area = side * side;
    let kinds: Vec<(RegionKind, usize)> = match puzzle.rules() {
        Some(rules) => rules
            .houses()
            .iter()
            .map(|region| (region.kind, region.index))
            .collect(),
        None => [RegionKind::Row, RegionKind::Column, RegionKind::Box]
            .into_iter()
            .flat_map(|kind| (0..side).map(move |index| (kind, index)))
            .collect(),
    };
    let mut index_of = vec![u32::MAX; covered.len()];
    let mut items = Vec::new();
    let mut primary = 0;
    for (slot, &is_covered) in covered.iter().enumerate() {
        if is_covered {
            continue;
        }
        index_of[slot] = items.len() as u32;
        if slot >= primary_slots {
            items.push(pairs.item(slot));
            continue;
        }
        primary += 1;
        if slot < area {
            items.push(Item::Cell(slot / side, slot % side));
            continue;
        }
        let (house, digit) = ((slot - area) / side, ((slot - area) % side + 1) as u8);
        items.push(match kinds[house] {
            (RegionKind::Row, index) => Item::RowDigit(index, digit),
            (RegionKind::Column, index) => Item::ColDigit(index, digit),
            (RegionKind::Box, index) => Item::BoxDigit(index, digit),
            (kind, index) => Item::HouseDigit(kind, index, digit),
        });
    }
    (items, index_of, primary)
}

/// The secondary items of a variant's pairs, as slots after the primary ones: must-differ
/// pairs first (`side` slots each, one per digit), then non-consecutive pairs (`side - 1`
/// each, one per two adjacent digits). A must-differ pair whose cells share a house (an
/// anti-king pair inside a box) has no items: the house's items already say it.
struct Pairs<'r> {
    side: usize,
    /// The first secondary slot.
    base: usize,
    /// The must-differ pairs that need items, by their index in `Rules::different_pairs`.
    different: Vec<usize>,
    nonconsecutive: &'r [[u16; 2]],
    /// Each cell's pairs: `(slot group, is non-consecutive)`, the group being the pair's place
    /// in `different` or its index in `nonconsecutive`.
    of_cell: Vec<Vec<(u32, bool)>>,
}

impl<'r> Pairs<'r> {
    fn of(puzzle: &'r Grid, base: usize) -> Pairs<'r> {
        let side = puzzle.shape().side();
        let mut pairs = Pairs {
            side,
            base,
            different: Vec::new(),
            nonconsecutive: &[],
            of_cell: Vec::new(),
        };
        let Some(rules) = puzzle.rules() else {
            return pairs;
        };
        pairs.nonconsecutive = rules.nonconsecutive_pairs();
        let layout = rules.layout();
        let share_a_house = |a: u16, b: u16| {
            let of_b = layout.houses_of_cell(b as usize);
            layout
                .houses_of_cell(a as usize)
                .iter()
                .any(|house| of_b.contains(house))
        };
        let mut of_cell = vec![Vec::new(); side * side];
        for (index, &[a, b]) in rules.different_pairs().iter().enumerate() {
            if !share_a_house(a, b) {
                let group = pairs.different.len() as u32;
                pairs.different.push(index);
                of_cell[a as usize].push((group, false));
                of_cell[b as usize].push((group, false));
            }
        }
        for (index, &[a, b]) in pairs.nonconsecutive.iter().enumerate() {
            of_cell[a as usize].push((index as u32, true));
            of_cell[b as usize].push((index as u32, true));
        }
        if !pairs.different.is_empty() || !pairs.nonconsecutive.is_empty() {
            pairs.of_cell = of_cell;
        }
        pairs
    }

    /// Whether there are any (plain Sudoku and house-only variants have none).
    #[inline]
    fn any(&self) -> bool {
        !self.of_cell.is_empty()
    }

    fn slot_count(&self) -> usize {
        self.different.len() * self.side + self.nonconsecutive.len() * (self.side - 1)
    }

    /// The secondary slots of writing `digit` into `cell`, appended to `out`.
    fn slots(&self, cell: usize, digit: u8, out: &mut Vec<u32>) {
        let Some(pairs) = self.of_cell.get(cell) else {
            return;
        };
        let digit = digit as usize;
        let apart_base = self.base + self.different.len() * self.side;
        for &(pair, nonconsecutive) in pairs {
            let pair = pair as usize;
            if !nonconsecutive {
                out.push((self.base + pair * self.side + digit - 1) as u32);
                continue;
            }
            // Digit d is in the items of the digit pairs (d - 1, d) and (d, d + 1).
            let first = apart_base + pair * (self.side - 1);
            if digit > 1 {
                out.push((first + digit - 2) as u32);
            }
            if digit < self.side {
                out.push((first + digit - 1) as u32);
            }
        }
    }

    /// The item of secondary slot `slot`.
    fn item(&self, slot: usize) -> Item {
        let offset = slot - self.base;
        let different = self.different.len() * self.side;
        if offset < different {
            let pair = self.different[offset / self.side];
            Item::Differ(pair, (offset % self.side + 1) as u8)
        } else {
            let offset = offset - different;
            Item::Apart(
                offset / (self.side - 1),
                (offset % (self.side - 1) + 1) as u8,
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pairs are secondary items: a given rules out its pair partners' options through them,
    /// and DLX1's text lists them after a `|`.
    #[test]
    fn pairs_are_secondary_items() {
        use crate::model::{Features, Rules};
        use std::sync::Arc;
        let shape: Shape = "2x2".parse().unwrap();
        let spec = "nonconsecutive".parse::<Features>().unwrap().spec();
        let rules = Arc::new(Rules::new(4, Some(shape), spec).unwrap());
        let mut puzzle = Grid::empty_with_rules(rules);
        puzzle.set(0, 2);
        let matrix = CoverMatrix::build(&puzzle);
        let digits_of = |cell: usize| -> Vec<u8> {
            matrix
                .options
                .iter()
                .filter(|option| option.cell == cell)
                .map(|option| option.digit)
                .collect()
        };
        // r1c2 and r2c1, r1c1's neighbours: not 2 (row, column), not 1 or 3 (consecutive).
        assert_eq!(digits_of(1), [4]);
        assert_eq!(digits_of(4), [4]);
        // r2c2, a box peer but no neighbour: 1, 3 and 4.
        assert_eq!(digits_of(5), [1, 3, 4]);
        // 24 pairs of neighbours on 4x4, three items each (digits 1-2, 2-3, 3-4), less the two
        // items of each of r1c1's two pairs that hold 2.
        assert_eq!(matrix.items.len() - matrix.primary, 24 * 3 - 4);
        let option = matrix.options.iter().position(|o| o.cell == 1).unwrap();
        let names: Vec<String> = matrix
            .secondary_of(option)
            .iter()
            .map(|&item| matrix.items[item as usize].to_string())
            .collect();
        // r1c2 = 4: digits 3-4 of its pairs with r1c1, r1c3 and r2c2 (r1c1 = 2 covers that
        // pair's 1-2 and 2-3 only).
        assert_eq!(names.len(), 3);
        assert!(
            names
                .iter()
                .all(|name| name.starts_with('n') && name.ends_with(".3"))
        );
        let text = matrix.to_dlx_text(&puzzle);
        let items = text.lines().find(|line| !line.starts_with('|')).unwrap();
        let (primary, secondary) = items.split_once(" | ").unwrap();
        assert_eq!(primary.split(' ').count(), matrix.primary);
        assert!(secondary.split(' ').all(|name| name.starts_with('n')));
    }

    #[test]
    fn prunes_the_givens() {
        let puzzle = Grid::from_cells(
            "2x2".parse().unwrap(),
            vec![1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        )
        .unwrap();
        let matrix = CoverMatrix::build(&puzzle);
        assert_eq!(matrix.items.len(), 4 * 16 - 4);
        // 15 empty cells x 4 digits, less digit 1 in the 7 peers of r1c1.
        assert_eq!(matrix.options.len(), 15 * 4 - 7);
        let text = matrix.to_dlx_text(&puzzle);
        let mut lines = text.lines().skip(2);
        assert!(lines.next().unwrap().starts_with("p1.2 p1.3 p1.4 p2.1"));
        assert_eq!(lines.next().unwrap(), "p1.2 r1.2 c2.2 b1.2");
    }
}
