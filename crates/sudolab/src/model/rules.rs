//! The rules of a variant puzzle as data: houses, must-differ pairs, non-consecutive pairs and
//! cages.
//!
//! Plain Sudoku (rows, columns, rectangular boxes) is the grid's [`Shape`] alone; a [`Grid`]
//! carries a [`Rules`] only when it is a variant. A `Rules` is built once from its
//! [`RulesSpec`] (the documented JSON/TOML form, `docs/variants.md`), checked, and shared by
//! every search of the puzzle behind an `Arc`; the flattened geometry the engines read (peers
//! and houses) is derived from it on first use and cached in it.
//!
//! The vocabulary: a *house* must hold every digit `1..=n` exactly once (rows, columns, boxes,
//! jigsaw regions, the two diagonals of X-Sudoku, the windows of windoku); a *different* pair
//! of cells must hold different digits (anti-king, anti-knight); a *non-consecutive* pair must
//! not hold digits that differ by one; a *cage* holds no digit twice and, when it has a sum,
//! its digits add up to it (killer).
//!
//! [`Grid`]: super::Grid

use std::collections::BTreeMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::layout::Layout;
use super::shape::{MAX_SIDE, Shape};

// The path the variant backtrackers, the CNF encoder and the generator import it by.
pub(crate) use super::candidates::RuleCheck;

/// The variant rules as written in a puzzle file: every field optional, plain Sudoku when all
/// are absent. Cells are named `r3c7` (one-based).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "each flag is one independent rule of the documented file form"
)]
pub struct RulesSpec {
    /// A Latin square: rows and columns only, no boxes (any order `1..=64`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub latin: bool,
    /// X-Sudoku: both main diagonals are houses.
    #[serde(default, skip_serializing_if = "is_false")]
    pub diagonals: bool,
    /// Windoku: the windows one cell in from the boxes (four on 9x9) are houses.
    #[serde(default, skip_serializing_if = "is_false")]
    pub windows: bool,
    /// Jigsaw: `n` rows of `n` symbols, one symbol per region; the regions replace the boxes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regions: Option<Vec<String>>,
    /// Anti-king: cells a king's move apart hold different digits.
    #[serde(default, skip_serializing_if = "is_false")]
    pub anti_king: bool,
    /// Anti-knight: cells a knight's move apart hold different digits.
    #[serde(default, skip_serializing_if = "is_false")]
    pub anti_knight: bool,
    /// Non-consecutive: orthogonally adjacent cells never hold digits that differ by one.
    #[serde(default, skip_serializing_if = "is_false")]
    pub nonconsecutive: bool,
    /// Killer cages: no repeated digit, and the sum when one is given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cages: Vec<CageSpec>,
    /// Further pairs of cells that must hold different digits.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub different: Vec<[String; 2]>,
}

impl RulesSpec {
    /// The names of the fields as written in a puzzle file (serde's names, in declaration
    /// order): the members of a JSON or TOML puzzle that describe its rules.
    pub const FIELDS: [&'static str; 9] = [
        "latin",
        "diagonals",
        "windows",
        "regions",
        "anti_king",
        "anti_knight",
        "nonconsecutive",
        "cages",
        "different",
    ];

    /// Whether the spec asks for nothing beyond plain Sudoku.
    pub fn is_plain(&self) -> bool {
        *self == RulesSpec::default()
    }

    /// The names of the variant's features, as `compare` and the docs list them:
    /// `latin`, `x`, `windoku`, `jigsaw`, `anti-king`, `anti-knight`, `nonconsecutive`,
    /// `killer`, `different`.
    pub fn features(&self) -> Vec<&'static str> {
        let mut features = Vec::new();
        for (on, name) in [
            (self.latin, "latin"),
            (self.diagonals, "x"),
            (self.windows, "windoku"),
            (self.regions.is_some(), "jigsaw"),
            (self.anti_king, "anti-king"),
            (self.anti_knight, "anti-knight"),
            (self.nonconsecutive, "nonconsecutive"),
            (!self.cages.is_empty(), "killer"),
            (!self.different.is_empty(), "different"),
        ] {
            if on {
                features.push(name);
            }
        }
        features
    }
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
fn is_false(flag: &bool) -> bool {
    !*flag
}

/// A cage as written: its cells and, for killer, the sum of its digits.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CageSpec {
    /// The sum of the cage's digits; `None`: only no repeat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sum: Option<u32>,
    /// The cells, as `r3c7`.
    pub cells: Vec<String>,
}

/// What kind of house a region is, for messages and drawings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RegionKind {
    /// A row.
    Row,
    /// A column.
    Column,
    /// A rectangular box.
    Box,
    /// A jigsaw region.
    Jigsaw,
    /// A main diagonal (0: top-left to bottom-right, 1: top-right to bottom-left).
    Diagonal,
    /// A windoku window.
    Window,
}

impl RegionKind {
    /// The letter of its houses' exact-cover items (`r3.5`: row 3 holds 5) and of the page's
    /// drawings: `r`ow, `c`olumn, `b`ox, `j`igsaw region, `d`iagonal, `w`indow.
    pub fn letter(self) -> char {
        match self {
            RegionKind::Row => 'r',
            RegionKind::Column => 'c',
            RegionKind::Box => 'b',
            RegionKind::Jigsaw => 'j',
            RegionKind::Diagonal => 'd',
            RegionKind::Window => 'w',
        }
    }
}

/// One house: `n` cells that hold every digit once.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Region {
    /// What it is.
    pub kind: RegionKind,
    /// Its number among houses of its kind, from 0; for a jigsaw region, its symbol's order.
    pub index: usize,
    /// The symbol of a jigsaw region (as written in `regions`).
    pub symbol: Option<char>,
    /// The cells, ascending.
    pub cells: Vec<u16>,
}

impl fmt::Display for Region {
    /// One-based, as people count: `row 3`, `diagonal 1`, `window 2`, `region 'B'`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let number = self.index + 1;
        match self.kind {
            RegionKind::Row => write!(f, "row {number}"),
            RegionKind::Column => write!(f, "column {number}"),
            RegionKind::Box => write!(f, "box {number}"),
            RegionKind::Jigsaw => match self.symbol {
                Some(symbol) => write!(f, "region '{symbol}'"),
                None => write!(f, "region {number}"),
            },
            RegionKind::Diagonal if self.index == 0 => f.write_str("the main diagonal"),
            RegionKind::Diagonal => f.write_str("the anti-diagonal"),
            RegionKind::Window => write!(f, "window {number}"),
        }
    }
}

/// A cage: cells that hold no digit twice, with the sum of their digits when one is given.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cage {
    /// The cells, ascending.
    pub cells: Vec<u16>,
    /// The sum, when given.
    pub sum: Option<u32>,
}

/// Why a variant's rules were refused; each names the region, cage or pair and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// A cell name that is not `rRcC` on the board.
    #[error("{place}: expected a cell such as r1c1 with row and column 1-{side}, found '{found}'")]
    BadCell {
        /// Where the name appeared (`cage 2`, `different pair 1`).
        place: String,
        /// The board side.
        side: usize,
        /// The text found.
        found: String,
    },
    /// `regions` that do not describe `n` regions of `n` cells.
    #[error("regions: {0}")]
    Regions(String),
    /// A cage that cannot hold.
    #[error("cage {cage}: {why}")]
    Cage {
        /// One-based cage number, in the order written.
        cage: usize,
        /// What is wrong.
        why: String,
    },
    /// A must-differ pair naming one cell twice.
    #[error("different pair {pair}: {cell} is named twice")]
    SameCell {
        /// One-based pair number.
        pair: usize,
        /// The cell.
        cell: String,
    },
    /// Features that exclude each other, or need a shape the board lacks.
    #[error("{0}")]
    Conflicting(String),
    /// A side outside `1..=64`.
    #[error("the side must be between 1 and {MAX_SIDE}, found {0}")]
    Side(usize),
}

/// The checked rules of a variant, with the geometry the engines read built on first use.
pub struct Rules {
    spec: RulesSpec,
    shape: Shape,
    has_boxes: bool,
    houses: Vec<Region>,
    different: Vec<[u16; 2]>,
    nonconsecutive: Vec<[u16; 2]>,
    cages: Vec<Cage>,
    layout: OnceLock<Layout>,
}

impl fmt::Debug for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rules")
            .field("shape", &self.shape)
            .field("spec", &self.spec)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Rules {
    fn eq(&self, other: &Rules) -> bool {
        self.shape == other.shape && self.spec == other.spec
    }
}

impl Eq for Rules {}

impl Hash for Rules {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.shape.hash(state);
        self.spec.hash(state);
    }
}

impl Rules {
    /// Checks `spec` on a board of side `side` with boxes `shape` (`None`: the default box for
    /// the side, or no boxes at all for a Latin square or a jigsaw whose side has none).
    pub fn new(side: usize, shape: Option<Shape>, spec: RulesSpec) -> Result<Rules, RulesError> {
        if !(1..=MAX_SIDE).contains(&side) {
            return Err(RulesError::Side(side));
        }
        let boxless = spec.latin || spec.regions.is_some();
        if spec.latin && spec.regions.is_some() {
            return Err(RulesError::Conflicting(
                "latin and regions exclude each other: a Latin square has no regions".into(),
            ));
        }
        let shape = match shape {
            Some(shape) if shape.side() != side => {
                return Err(RulesError::Conflicting(format!(
                    "box {shape} is for side {}, but the board has side {side}",
                    shape.side()
                )));
            }
            Some(_) if boxless => {
                return Err(RulesError::Conflicting(
                    "a Latin square or a jigsaw has no boxes: drop \"box\"".into(),
                ));
            }
            Some(shape) => shape,
            None if boxless => Shape::for_side(side).unwrap_or_else(|_| Shape::rows_only(side)),
            None => {
                Shape::for_side(side).map_err(|err| RulesError::Conflicting(err.to_string()))?
            }
        };
        let houses = houses_of(&spec, shape, side, boxless)?;
        let (different, nonconsecutive) = pairs_of(&spec, side)?;
        let cages = cages_of(&spec.cages, side)?;
        Ok(Rules {
            spec,
            shape,
            has_boxes: !boxless,
            houses,
            different,
            nonconsecutive,
            cages,
            layout: OnceLock::new(),
        })
    }

    /// Plain Sudoku's rules on `shape` (rows, columns and boxes), for code that reads every
    /// puzzle through rules.
    pub fn plain(shape: Shape) -> Rules {
        Rules::new(shape.side(), Some(shape), RulesSpec::default())
            .expect("a shape's own rows, columns and boxes are valid rules")
    }

    /// The spec these rules were built from.
    pub fn spec(&self) -> &RulesSpec {
        &self.spec
    }

    /// The shape of the grid: the box shape when the variant has boxes; for a Latin square or a
    /// jigsaw, the default box of the side, or `1 x n` when the side has none (the boxes are
    /// then not houses: see [`Rules::has_boxes`]).
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The side `n`.
    pub fn side(&self) -> usize {
        self.shape.side()
    }

    /// Whether the shape's boxes are houses (not for Latin squares and jigsaws).
    pub fn has_boxes(&self) -> bool {
        self.has_boxes
    }

    /// Every house: rows, columns, then boxes or jigsaw regions, then diagonals and windows.
    pub fn houses(&self) -> &[Region] {
        &self.houses
    }

    /// Pairs of cells that must hold different digits and share no house rule written as one
    /// (anti-king, anti-knight, `different`), each as `[low, high]`, ascending.
    pub fn different_pairs(&self) -> &[[u16; 2]] {
        &self.different
    }

    /// Orthogonally adjacent pairs whose digits must not differ by one, ascending.
    pub fn nonconsecutive_pairs(&self) -> &[[u16; 2]] {
        &self.nonconsecutive
    }

    /// The cages.
    pub fn cages(&self) -> &[Cage] {
        &self.cages
    }

    /// Whether every rule is a house or a must-differ pair (no non-consecutive pair and no
    /// cage): what engines built on peers and exactly-one houses take.
    pub fn is_house_based(&self) -> bool {
        self.nonconsecutive.is_empty() && self.cages.is_empty()
    }

    /// The flattened geometry of these rules, built on first use.
    pub(crate) fn layout(&self) -> &Layout {
        self.layout.get_or_init(|| Layout::for_rules(self))
    }

    /// The variant's name for messages: its features joined by `+` (`x+anti-king`).
    pub fn name(&self) -> String {
        let features = self.spec.features();
        if features.is_empty() {
            "sudoku".to_string()
        } else {
            features.join("+")
        }
    }
}

/// The houses of a variant: rows, columns, boxes or jigsaw regions, diagonals, windows.
fn houses_of(
    spec: &RulesSpec,
    shape: Shape,
    side: usize,
    boxless: bool,
) -> Result<Vec<Region>, RulesError> {
    let cell = |row: usize, col: usize| (row * side + col) as u16;
    let mut houses = Vec::new();
    for (kind, index) in (0..side).map(|i| (RegionKind::Row, i)) {
        houses.push(region(kind, index, (0..side).map(|col| cell(index, col))));
    }
    for index in 0..side {
        houses.push(region(
            RegionKind::Column,
            index,
            (0..side).map(|row| cell(row, index)),
        ));
    }
    if let Some(rows) = &spec.regions {
        houses.extend(jigsaw_regions(rows, side)?);
    } else if !spec.latin {
        let (box_rows, box_cols) = (shape.box_rows(), shape.box_cols());
        for index in 0..side {
            let top = index / (side / box_cols) * box_rows;
            let left = index % (side / box_cols) * box_cols;
            houses.push(region(
                RegionKind::Box,
                index,
                (top..top + box_rows)
                    .flat_map(|row| (left..left + box_cols).map(move |col| (row, col)))
                    .map(|(row, col)| cell(row, col)),
            ));
        }
    }
    if spec.diagonals {
        houses.push(region(
            RegionKind::Diagonal,
            0,
            (0..side).map(|i| cell(i, i)),
        ));
        houses.push(region(
            RegionKind::Diagonal,
            1,
            (0..side).map(|i| cell(i, side - 1 - i)),
        ));
    }
    if spec.windows {
        let (box_rows, box_cols) = (shape.box_rows(), shape.box_cols());
        if boxless || box_rows != box_cols || box_rows < 2 {
            return Err(RulesError::Conflicting(format!(
                "windows need square boxes of at least 2x2 (windoku is 9x9 with 3x3 boxes), \
                 found {}",
                if boxless {
                    "no boxes".to_string()
                } else {
                    format!("box {shape}")
                }
            )));
        }
        let step = box_rows + 1;
        let starts: Vec<usize> = (0..box_rows - 1).map(|k| 1 + k * step).collect();
        let mut index = 0;
        for &top in &starts {
            for &left in &starts {
                houses.push(region(
                    RegionKind::Window,
                    index,
                    (top..top + box_rows)
                        .flat_map(|row| (left..left + box_cols).map(move |col| (row, col)))
                        .map(|(row, col)| cell(row, col)),
                ));
                index += 1;
            }
        }
    }

    Ok(houses)
}

/// The must-differ pairs (anti-king, anti-knight, `different`) and the non-consecutive pairs.
fn pairs_of(spec: &RulesSpec, side: usize) -> Result<PairLists, RulesError> {
    let cell = |row: usize, col: usize| (row * side + col) as u16;
    let mut different = Vec::new();
    let mut moves: Vec<(isize, isize)> = Vec::new();
    if spec.anti_king {
        moves.extend([(1, -1), (1, 1)]);
    }
    if spec.anti_knight {
        moves.extend([(1, -2), (1, 2), (2, -1), (2, 1)]);
    }
    for row in 0..side {
        for col in 0..side {
            for &(dr, dc) in &moves {
                let target = (row.checked_add_signed(dr), col.checked_add_signed(dc));
                if let (Some(r2), Some(c2)) = target
                    && r2 < side
                    && c2 < side
                {
                    different.push([cell(row, col), cell(r2, c2)]);
                }
            }
        }
    }
    for (idx, [first, second]) in spec.different.iter().enumerate() {
        let place = format!("different pair {}", idx + 1);
        let (a, b) = (
            parse_cell(first, side, &place)?,
            parse_cell(second, side, &place)?,
        );
        if a == b {
            return Err(RulesError::SameCell {
                pair: idx + 1,
                cell: first.clone(),
            });
        }
        different.push([a.min(b), a.max(b)]);
    }
    different.sort_unstable();
    different.dedup();

    let mut nonconsecutive = Vec::new();
    if spec.nonconsecutive {
        for row in 0..side {
            for col in 0..side {
                if col + 1 < side {
                    nonconsecutive.push([cell(row, col), cell(row, col + 1)]);
                }
                if row + 1 < side {
                    nonconsecutive.push([cell(row, col), cell(row + 1, col)]);
                }
            }
        }
        nonconsecutive.sort_unstable();
    }

    Ok((different, nonconsecutive))
}

/// Must-differ pairs and non-consecutive pairs.
type PairLists = (Vec<[u16; 2]>, Vec<[u16; 2]>);

/// The checked cages: cells on the board, no overlap, a size and sum that can hold.
fn cages_of(specs: &[CageSpec], side: usize) -> Result<Vec<Cage>, RulesError> {
    let mut cages = Vec::new();
    let mut cage_of: BTreeMap<u16, usize> = BTreeMap::new();
    for (idx, cage) in specs.iter().enumerate() {
        let number = idx + 1;
        let place = format!("cage {number}");
        let mut cells = Vec::with_capacity(cage.cells.len());
        for name in &cage.cells {
            let cell = parse_cell(name, side, &place)?;
            if let Some(&other) = cage_of.get(&cell) {
                let why = if other == number {
                    format!("{name} is named twice")
                } else {
                    format!("{name} is also in cage {other}; cages must not overlap")
                };
                return Err(RulesError::Cage { cage: number, why });
            }
            cage_of.insert(cell, number);
            cells.push(cell);
        }
        let size = cells.len();
        if size == 0 {
            return Err(RulesError::Cage {
                cage: number,
                why: "it has no cells".into(),
            });
        }
        if size > side {
            return Err(RulesError::Cage {
                cage: number,
                why: format!(
                    "it has {size} cells, but with no repeated digit a cage holds at most {side}"
                ),
            });
        }
        if let Some(sum) = cage.sum {
            let (low, high) = sum_range(size, side);
            if !(low..=high).contains(&sum) {
                return Err(RulesError::Cage {
                    cage: number,
                    why: format!(
                        "sum {sum} cannot be reached: {size} different digits 1-{side} add \
                         up to {low} to {high}"
                    ),
                });
            }
        }
        cells.sort_unstable();
        cages.push(Cage {
            cells,
            sum: cage.sum,
        });
    }

    Ok(cages)
}

fn region(kind: RegionKind, index: usize, cells: impl Iterator<Item = u16>) -> Region {
    let mut cells: Vec<u16> = cells.collect();
    cells.sort_unstable();
    Region {
        kind,
        index,
        symbol: None,
        cells,
    }
}

/// The smallest and largest sums of `size` different digits `1..=side`.
pub fn sum_range(size: usize, side: usize) -> (u32, u32) {
    let size = size as u32;
    let side = side as u32;
    let low = size * (size + 1) / 2;
    let high = size * (2 * side + 1 - size) / 2;
    (low, high)
}

/// Reads `r3c7` (case-insensitive, one-based) as a cell index.
fn parse_cell(text: &str, side: usize, place: &str) -> Result<u16, RulesError> {
    let bad = || RulesError::BadCell {
        place: place.to_string(),
        side,
        found: text.to_string(),
    };
    let lower = text.trim().to_ascii_lowercase();
    let rest = lower.strip_prefix('r').ok_or_else(bad)?;
    let (row, col) = rest.split_once('c').ok_or_else(bad)?;
    let row: usize = row.parse().map_err(|_| bad())?;
    let col: usize = col.parse().map_err(|_| bad())?;
    if !(1..=side).contains(&row) || !(1..=side).contains(&col) {
        return Err(bad());
    }
    Ok(((row - 1) * side + col - 1) as u16)
}

/// The jigsaw regions of `rows`: `n` rows of `n` symbols (whitespace ignored), `n` symbols of
/// `n` cells each, numbered in order of first appearance.
fn jigsaw_regions(rows: &[String], side: usize) -> Result<Vec<Region>, RulesError> {
    if rows.len() != side {
        return Err(RulesError::Regions(format!(
            "expected {side} rows of {side} symbols, found {} rows",
            rows.len()
        )));
    }
    let mut order: Vec<char> = Vec::new();
    let mut cells_of: BTreeMap<char, Vec<u16>> = BTreeMap::new();
    for (row_idx, row) in rows.iter().enumerate() {
        let symbols: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
        if symbols.len() != side {
            return Err(RulesError::Regions(format!(
                "row {}: expected {side} symbols, found {}",
                row_idx + 1,
                symbols.len()
            )));
        }
        for (col, symbol) in symbols.into_iter().enumerate() {
            if !cells_of.contains_key(&symbol) {
                order.push(symbol);
            }
            cells_of
                .entry(symbol)
                .or_default()
                .push((row_idx * side + col) as u16);
        }
    }
    if order.len() != side {
        return Err(RulesError::Regions(format!(
            "expected {side} regions, found {} ({})",
            order.len(),
            order.iter().collect::<String>()
        )));
    }
    order
        .iter()
        .enumerate()
        .map(|(index, symbol)| {
            let cells = cells_of.remove(symbol).unwrap_or_default();
            if cells.len() != side {
                return Err(RulesError::Regions(format!(
                    "region '{symbol}' has {} cells; every region needs {side}",
                    cells.len()
                )));
            }
            Ok(Region {
                kind: RegionKind::Jigsaw,
                index,
                symbol: Some(*symbol),
                cells,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(json: &str) -> RulesSpec {
        serde_json::from_str(json).unwrap()
    }

    fn error(side: usize, json: &str) -> String {
        Rules::new(side, None, spec(json)).unwrap_err().to_string()
    }

    #[test]
    fn houses_of_each_variant() {
        let x = Rules::new(9, None, spec(r#"{"diagonals": true}"#)).unwrap();
        assert_eq!(x.houses().len(), 29);
        assert_eq!(
            x.houses()[27].cells,
            (0..9).map(|i| i * 10).collect::<Vec<u16>>()
        );
        assert_eq!(x.houses()[28].to_string(), "the anti-diagonal");
        let windoku = Rules::new(9, None, spec(r#"{"windows": true}"#)).unwrap();
        assert_eq!(windoku.houses().len(), 31);
        assert_eq!(
            windoku.houses()[27].cells,
            vec![10, 11, 12, 19, 20, 21, 28, 29, 30]
        );
        assert_eq!(windoku.houses()[30].cells[0], 5 * 9 + 5);
        let latin = Rules::new(7, None, spec(r#"{"latin": true}"#)).unwrap();
        assert_eq!(latin.houses().len(), 14);
        assert!(!latin.has_boxes());
        assert_eq!(latin.shape().to_string(), "1x7");
        let king = Rules::new(4, None, spec(r#"{"anti_king": true}"#)).unwrap();
        // 3 x 3 down-right and 3 x 3 down-left diagonal neighbours.
        assert_eq!(king.different_pairs().len(), 18);
        let knight = Rules::new(9, None, spec(r#"{"anti_knight": true}"#)).unwrap();
        assert_eq!(knight.different_pairs().len(), 2 * 8 * 7 + 2 * 7 * 8);
        let nc = Rules::new(4, None, spec(r#"{"nonconsecutive": true}"#)).unwrap();
        assert_eq!(nc.nonconsecutive_pairs().len(), 24);
        assert_eq!(x.name(), "x");
    }

    #[test]
    fn bad_rules_are_named() {
        assert_eq!(
            error(4, r#"{"regions": ["AABB", "AABB", "CCDD", "CCD"]}"#),
            "regions: row 4: expected 4 symbols, found 3"
        );
        // A jigsaw need not be made of rectangles.
        assert!(
            Rules::new(
                4,
                None,
                spec(r#"{"regions": ["AAAB", "ABBB", "CCDD", "CCDD"]}"#)
            )
            .is_ok()
        );
        assert_eq!(
            error(4, r#"{"regions": ["AAAA", "ABBB", "CCDD", "CCDD"]}"#),
            "regions: region 'A' has 5 cells; every region needs 4"
        );
        assert_eq!(
            error(4, r#"{"regions": ["AABB", "AABB", "CCDD", "CCDE"]}"#),
            "regions: expected 4 regions, found 5 (ABCDE)"
        );
        assert_eq!(
            error(
                9,
                r#"{"cages": [{"sum": 3, "cells": ["r1c1", "r1c2"]}, {"sum": 50, "cells": ["r2c1", "r2c2", "r2c3"]}]}"#
            ),
            "cage 2: sum 50 cannot be reached: 3 different digits 1-9 add up to 6 to 24"
        );
        assert_eq!(
            error(
                9,
                r#"{"cages": [{"sum": 3, "cells": ["r1c1", "r1c2"]}, {"sum": 9, "cells": ["r1c2", "r2c2"]}]}"#
            ),
            "cage 2: r1c2 is also in cage 1; cages must not overlap"
        );
        assert_eq!(
            error(9, r#"{"cages": [{"cells": ["r1c1", "r10c2"]}]}"#),
            "cage 1: expected a cell such as r1c1 with row and column 1-9, found 'r10c2'"
        );
        assert_eq!(
            error(9, r#"{"cages": [{"cells": []}]}"#),
            "cage 1: it has no cells"
        );
        assert_eq!(
            error(4, r#"{"different": [["r1c1", "R1C1"]]}"#),
            "different pair 1: r1c1 is named twice"
        );
        assert_eq!(
            error(6, r#"{"windows": true}"#),
            "windows need square boxes of at least 2x2 (windoku is 9x9 with 3x3 boxes), found box 2x3"
        );
        assert_eq!(
            Rules::new(9, Some(Shape::CLASSIC), spec(r#"{"latin": true}"#))
                .unwrap_err()
                .to_string(),
            "a Latin square or a jigsaw has no boxes: drop \"box\""
        );
        assert!(
            serde_json::from_str::<RulesSpec>(r#"{"diagonal": true}"#)
                .unwrap_err()
                .to_string()
                .starts_with("unknown field `diagonal`")
        );
    }

    #[test]
    fn fields_are_the_serde_names_in_order() {
        // Every field set, so that none is skipped when serialized.
        let full = RulesSpec {
            latin: true,
            diagonals: true,
            windows: true,
            regions: Some(vec!["A".into()]),
            anti_king: true,
            anti_knight: true,
            nonconsecutive: true,
            cages: vec![CageSpec {
                sum: None,
                cells: vec!["r1c1".into()],
            }],
            different: vec![["r1c1".into(), "r1c2".into()]],
        };
        let serde_json::Value::Object(object) = serde_json::to_value(&full).unwrap() else {
            panic!("a RulesSpec serializes to an object");
        };
        let mut names: Vec<&str> = object.keys().map(String::as_str).collect();
        let mut fields = RulesSpec::FIELDS.to_vec();
        names.sort_unstable();
        fields.sort_unstable();
        assert_eq!(names, fields);
        // In declaration order, as the serializer writes them (error messages list them so).
        let text = serde_json::to_string(&full).unwrap();
        let places: Vec<usize> = RulesSpec::FIELDS
            .iter()
            .map(|field| text.find(&format!("\"{field}\":")).unwrap())
            .collect();
        assert!(places.is_sorted(), "{text}");
        // And each one alone is accepted (the struct denies unknown fields).
        for field in RulesSpec::FIELDS {
            let one = format!("{{\"{field}\": {}}}", object[field]);
            assert!(serde_json::from_str::<RulesSpec>(&one).is_ok(), "{one}");
        }
    }

    #[test]
    fn sum_ranges() {
        assert_eq!(sum_range(1, 9), (1, 9));
        assert_eq!(sum_range(2, 9), (3, 17));
        assert_eq!(sum_range(9, 9), (45, 45));
    }
}
