//! The values a variant's rules allow in an empty cell, reading the board for every rule, and
//! the most constrained cell: the test of the variant backtrackers and of the generator's fill.

use super::digits::DigitSet;
use super::layout::Layout;
use super::rules::{Rules, sum_range};

/// The rules of one variant arranged per cell for the allowed-value test of the backtrackers
/// and the generator's fill (`strategy::variant`, `generate`).
pub(crate) struct RuleCheck<'r> {
    pub(crate) layout: &'r Layout,
    pub(crate) full: u64,
    side: usize,
    /// `neighbours[start[cell]..start[cell + 1]]`: the non-consecutive partners of `cell`.
    neighbours: Vec<u16>,
    neighbour_start: Vec<u32>,
    /// The cage of each cell, `u32::MAX` for none.
    cage_of: Vec<u32>,
    cages: Vec<(Vec<u16>, Option<u32>)>,
}

impl<'r> RuleCheck<'r> {
    pub(crate) fn new(rules: &'r Rules) -> RuleCheck<'r> {
        let layout = rules.layout();
        let side = rules.side();
        let mut lists: Vec<Vec<u16>> = vec![Vec::new(); layout.cells];
        for &[a, b] in rules.nonconsecutive_pairs() {
            lists[a as usize].push(b);
            lists[b as usize].push(a);
        }
        let mut neighbours = Vec::new();
        let mut neighbour_start = vec![0u32];
        for list in lists {
            neighbours.extend(list);
            neighbour_start.push(neighbours.len() as u32);
        }
        let mut cage_of = vec![u32::MAX; layout.cells];
        for (idx, cage) in rules.cages().iter().enumerate() {
            for &cell in &cage.cells {
                cage_of[cell as usize] = idx as u32;
            }
        }
        RuleCheck {
            layout,
            full: DigitSet::full(side).bits(),
            side,
            neighbours,
            neighbour_start,
            cage_of,
            cages: rules
                .cages()
                .iter()
                .map(|cage| (cage.cells.clone(), cage.sum))
                .collect(),
        }
    }

    /// The values allowed in empty `cell` by the rules that are not houses, given the board;
    /// `peer_free` is what the houses and must-differ pairs leave.
    pub(crate) fn allowed_beyond_houses(&self, cells: &[u8], cell: usize, peer_free: u64) -> u64 {
        let mut free = peer_free;
        let start = self.neighbour_start[cell] as usize;
        let end = self.neighbour_start[cell + 1] as usize;
        for &other in &self.neighbours[start..end] {
            let value = cells[other as usize];
            if value != 0 {
                // Digits value - 1 and value + 1, at bits value - 2 and value (a 128-bit word,
                // so that digit 64 shifts nothing out of range).
                free &= !(((5u128 << value) >> 2) as u64);
            }
        }
        let cage = self.cage_of[cell];
        if cage != u32::MAX && free != 0 {
            let (cage_cells, sum) = &self.cages[cage as usize];
            let (mut found, mut empty, mut used) = (0u32, 0usize, 0u64);
            for &other in cage_cells {
                let value = cells[other as usize];
                if value == 0 {
                    empty += 1;
                } else {
                    found += u32::from(value);
                    used |= 1u64 << (value - 1);
                }
            }
            free &= !used;
            if let Some(sum) = *sum {
                // This cell is one of the empty ones.
                let (low, high) = sum_range(empty - 1, self.side);
                let mut left = free;
                while left != 0 {
                    let bit = left & left.wrapping_neg();
                    left ^= bit;
                    let value = bit.trailing_zeros() + 1;
                    let total = found + value;
                    if total + low > sum || total + high < sum {
                        free &= !bit;
                    }
                }
            }
        }
        free & self.full
    }

    /// The first empty cell (row-major) with the fewest allowed values, and those values;
    /// `None` when the board is full. A cell with none ends the scan at once.
    pub(crate) fn most_constrained(&self, cells: &[u8]) -> Option<(usize, u64)> {
        let mut best: Option<(usize, u64)> = None;
        for cell in 0..cells.len() {
            if cells[cell] != 0 {
                continue;
            }
            let free = self.allowed(cells, cell);
            if best.is_none_or(|(_, best_free)| free.count_ones() < best_free.count_ones()) {
                best = Some((cell, free));
                if free == 0 {
                    break;
                }
            }
        }
        best
    }

    /// Every allowed value of empty `cell`, reading the board for every rule.
    pub(crate) fn allowed(&self, cells: &[u8], cell: usize) -> u64 {
        let mut used = 0u64;
        for &peer in self.layout.peers(cell) {
            let value = cells[peer as usize];
            used |= (1u64 << (value.wrapping_sub(1) & 63)) * u64::from(value != 0);
        }
        self.allowed_beyond_houses(cells, cell, self.full & !used)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::RulesSpec;

    fn rules(json: &str) -> Rules {
        let spec: RulesSpec = serde_json::from_str(json).unwrap();
        Rules::new(4, None, spec).unwrap()
    }

    #[test]
    fn every_rule_narrows_a_cell() {
        let nonconsecutive = rules(r#"{"nonconsecutive": true}"#);
        let check = RuleCheck::new(&nonconsecutive);
        let mut cells = [0u8; 16];
        cells[1] = 2;
        // r1c1: 2 is in its row, 1 and 3 are next to the 2 beside it.
        assert_eq!(check.allowed(&cells, 0), 0b1000);
        assert_eq!(check.most_constrained(&cells), Some((0, 0b1000)));
        assert_eq!(check.most_constrained(&[1; 16]), None);
        let killer = rules(r#"{"cages": [{"sum": 3, "cells": ["r1c1", "r1c2"]}]}"#);
        let check = RuleCheck::new(&killer);
        // Two cells adding up to 3: 1 and 2 only.
        assert_eq!(check.allowed(&[0; 16], 0), 0b0011);
        let mut cells = [0u8; 16];
        cells[1] = 1;
        assert_eq!(check.allowed(&cells, 0), 0b0010);
    }
}
