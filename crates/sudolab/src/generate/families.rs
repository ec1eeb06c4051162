//! Research instance families: random Latin squares (Jacobson and Matthews' Markov chain),
//! quasigroup completion with holes (QWH; Achlioptas, Gomes, Kautz and Selman 2000; balanced
//! holes after Kautz, Ruan, Achlioptas, Gomes, Selman and Stickel 2001) and generalized Sudoku
//! with holes (GSP; Ansótegui, Béjar, Fernández, Gomes and Mateu, AAAI-06), and random killer
//! cages. Every draw comes from the caller's seeded ChaCha stream.

use std::sync::Arc;

use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::model::{CageSpec, Grid, Rules, RulesError, RulesSpec, Shape, cell_name};

use super::{below, shuffle};

crate::model::choice::choice! {
    /// How a hole pattern spreads its holes.
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Balance ("balance", default None) {
        /// Holes anywhere, uniformly at random.
        None = "none",
        /// The same number of holes in every row (as near as the count allows).
        Rows = "rows",
        /// The same number of holes in every row and every column (as near as the count allows):
        /// the "balanced" instances of Kautz et al. (2001), which are the hardest.
        Full = "full",
    }
}

/// A uniformly random Latin square of order `order` (1 to 64), by Jacobson and Matthews'
/// Markov chain ("Generating uniformly distributed random Latin squares", J. Combin. Des. 4,
/// 1996) run for `order^3` moves from the cyclic square. Each move keeps the incidence cube a
/// proper or once-improper square; the chain is stopped only at a proper one.
pub fn latin_square(order: usize, rng: &mut ChaCha8Rng) -> Vec<u8> {
    let n = order;
    // cube[(r * n + c) * n + s]: 1 when cell (r, c) holds symbol s; -1 at the one improper
    // cell of an improper square.
    let mut cube = vec![0i8; n * n * n];
    let at = |r: usize, c: usize, s: usize| (r * n + c) * n + s;
    for r in 0..n {
        for c in 0..n {
            cube[at(r, c, (r + c) % n)] = 1;
        }
    }
    // Order 1 has no empty position in its cube to start a move from: its one square is it.
    let moves = if n < 2 { 0 } else { n * n * n };
    let mut improper: Option<(usize, usize, usize)> = None;
    let mut done = 0;
    while done < moves || improper.is_some() {
        let (r, c, s) = match improper {
            Some(cell) => cell,
            None => loop {
                let (r, c, s) = (below(rng, n), below(rng, n), below(rng, n));
                if cube[at(r, c, s)] == 0 {
                    break (r, c, s);
                }
            },
        };
        // The lines through (r, c, s): pick one +1 entry on each (two exist on the lines of
        // the improper cell, one otherwise).
        let pick = |rng: &mut ChaCha8Rng, cube: &[i8], line: &dyn Fn(usize) -> usize| {
            let ones: Vec<usize> = (0..n).filter(|&k| cube[line(k)] == 1).collect();
            ones[below(rng, ones.len())]
        };
        let r2 = pick(rng, &cube, &|k| at(k, c, s));
        let c2 = pick(rng, &cube, &|k| at(r, k, s));
        let s2 = pick(rng, &cube, &|k| at(r, c, k));
        for (cell, delta) in [
            ((r, c, s), 1),
            ((r, c2, s2), 1),
            ((r2, c, s2), 1),
            ((r2, c2, s), 1),
            ((r, c, s2), -1),
            ((r, c2, s), -1),
            ((r2, c, s), -1),
            ((r2, c2, s2), -1),
        ] {
            cube[at(cell.0, cell.1, cell.2)] += delta;
        }
        improper = (cube[at(r2, c2, s2)] < 0).then_some((r2, c2, s2));
        done += 1;
    }
    let mut cells = vec![0u8; n * n];
    for r in 0..n {
        for c in 0..n {
            let s = (0..n)
                .find(|&s| cube[at(r, c, s)] == 1)
                .expect("a proper square has one symbol per cell");
            cells[r * n + c] = s as u8 + 1;
        }
    }
    cells
}

/// The rules of a Latin square of order `order`; an order outside 1 to 64 is an error that
/// names the range.
pub fn latin_rules(order: usize) -> Result<Arc<Rules>, RulesError> {
    let spec = RulesSpec {
        latin: true,
        ..RulesSpec::default()
    };
    Rules::new(order, None, spec).map(Arc::new)
}

/// The cells to empty: `holes` of them, spread as `balance` says.
pub fn hole_cells(side: usize, holes: usize, balance: Balance, rng: &mut ChaCha8Rng) -> Vec<usize> {
    // A board of side 0 has no cell to empty (and the balanced patterns divide by the side).
    if side == 0 {
        return Vec::new();
    }
    let cells = side * side;
    let holes = holes.min(cells);
    match balance {
        Balance::None => {
            let mut all: Vec<usize> = (0..cells).collect();
            shuffle(&mut all, rng);
            all.truncate(holes);
            all.sort_unstable();
            all
        }
        Balance::Rows => {
            // `holes / side` in every row, one more in `holes % side` random rows.
            let mut rows: Vec<usize> = (0..side).collect();
            shuffle(&mut rows, rng);
            let mut chosen = Vec::with_capacity(holes);
            for (rank, &row) in rows.iter().enumerate() {
                let take = holes / side + usize::from(rank < holes % side);
                let mut cols: Vec<usize> = (0..side).collect();
                shuffle(&mut cols, rng);
                chosen.extend(cols[..take].iter().map(|&col| row * side + col));
            }
            chosen.sort_unstable();
            chosen
        }
        Balance::Full => {
            // A random Latin square's first `holes / side` symbols cover every row and column
            // the same number of times; `holes % side` cells of the next symbol (one per row
            // and column) top up without two in a line.
            let pattern = latin_square(side, rng);
            let (full, extra) = (holes / side, holes % side);
            let mut rows: Vec<usize> = (0..side).collect();
            shuffle(&mut rows, rng);
            let topped: Vec<bool> = {
                let mut topped = vec![false; side];
                for &row in &rows[..extra] {
                    topped[row] = true;
                }
                topped
            };
            (0..cells)
                .filter(|&cell| {
                    let symbol = pattern[cell] as usize - 1;
                    symbol < full || (symbol == full && topped[cell / side])
                })
                .collect()
        }
    }
}

/// Random killer cages over a solution: cells taken in random order, each starting a cage
/// that grows through random orthogonal neighbours not yet caged, up to 2 to 5 cells, never
/// repeating a digit of the solution; the sum is the solution's.
pub fn random_cages(solution: &Grid, rng: &mut ChaCha8Rng) -> Vec<CageSpec> {
    let shape: Shape = solution.shape();
    let n = shape.side();
    let mut caged = vec![false; n * n];
    let mut order: Vec<usize> = (0..n * n).collect();
    shuffle(&mut order, rng);
    let mut cages = Vec::new();
    for start in order {
        if caged[start] {
            continue;
        }
        let size = 2 + below(rng, 4);
        let mut cells = vec![start];
        caged[start] = true;
        while cells.len() < size {
            let mut frontier: Vec<usize> = Vec::new();
            for &cell in &cells {
                let (row, col) = (cell / n, cell % n);
                let near = [
                    (row > 0).then(|| cell - n),
                    (row + 1 < n).then(|| cell + n),
                    (col > 0).then(|| cell - 1),
                    (col + 1 < n).then(|| cell + 1),
                ];
                for next in near.into_iter().flatten() {
                    let repeats = cells
                        .iter()
                        .any(|&inside| solution.get(inside) == solution.get(next));
                    if !caged[next] && !repeats && !frontier.contains(&next) {
                        frontier.push(next);
                    }
                }
            }
            if frontier.is_empty() {
                break;
            }
            let next = frontier[below(rng, frontier.len())];
            caged[next] = true;
            cells.push(next);
        }
        cells.sort_unstable();
        cages.push(CageSpec {
            sum: Some(
                cells
                    .iter()
                    .map(|&cell| u32::from(solution.get(cell)))
                    .sum(),
            ),
            cells: cells.iter().map(|&cell| cell_name(shape, cell)).collect(),
        });
    }
    cages.sort_by(|a, b| a.cells.first().cmp(&b.cells.first()));
    cages
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::stream;

    fn is_latin(cells: &[u8], n: usize) -> bool {
        (0..n).all(|i| {
            let row: std::collections::BTreeSet<u8> = (0..n).map(|j| cells[i * n + j]).collect();
            let col: std::collections::BTreeSet<u8> = (0..n).map(|j| cells[j * n + i]).collect();
            row.len() == n && col.len() == n
        })
    }

    #[test]
    fn latin_squares_are_latin_and_seeded() {
        for order in [1, 2, 5, 9, 17, 40] {
            let square = latin_square(order, &mut stream(7, 0));
            assert!(is_latin(&square, order), "order {order}");
            assert_eq!(square, latin_square(order, &mut stream(7, 0)));
        }
        assert_ne!(
            latin_square(9, &mut stream(7, 0)),
            latin_square(9, &mut stream(7, 1))
        );
    }

    #[test]
    fn latin_rules_take_orders_1_to_64_and_name_the_range_otherwise() {
        for order in [1, 2, 9, 64] {
            assert_eq!(latin_rules(order).unwrap().side(), order);
        }
        for order in [0, 65, 1000, usize::MAX] {
            assert_eq!(
                latin_rules(order).unwrap_err().to_string(),
                format!("the side must be between 1 and 64, found {order}")
            );
        }
    }

    #[test]
    fn a_board_of_side_0_has_no_holes_in_any_balance() {
        for balance in [Balance::None, Balance::Rows, Balance::Full] {
            assert!(hole_cells(0, 5, balance, &mut stream(1, 0)).is_empty());
        }
    }

    #[test]
    fn hole_patterns_are_balanced_as_asked() {
        let side = 10;
        for (holes, balance) in [
            (42, Balance::None),
            (42, Balance::Rows),
            (42, Balance::Full),
        ] {
            let cells = hole_cells(side, holes, balance, &mut stream(3, 0));
            assert_eq!(cells.len(), holes);
            let per_row: Vec<usize> = (0..side)
                .map(|row| cells.iter().filter(|&&c| c / side == row).count())
                .collect();
            let per_col: Vec<usize> = (0..side)
                .map(|col| cells.iter().filter(|&&c| c % side == col).count())
                .collect();
            if balance != Balance::None {
                assert!(per_row.iter().all(|&k| k == 4 || k == 5), "{per_row:?}");
            }
            if balance == Balance::Full {
                assert!(per_col.iter().all(|&k| k == 4 || k == 5), "{per_col:?}");
            }
        }
    }
}
