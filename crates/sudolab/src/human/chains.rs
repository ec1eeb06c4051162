//! Chains over the implication graph of candidates: X-chains (one digit), XY-chains (bivalue
//! cells), alternating inference chains (both), static contradictions and cell or region
//! forcing chains. A node is a candidate that is on (the cell holds the digit) or off; "on"
//! leads to "off" along weak links (same cell, or same digit in a peer), "off" leads to "on"
//! along strong links (the cell's other candidate when it has two, the digit's other place when a
//! house has two). Each found step is rated after Sudoku Explainer: a base per family plus 0.1
//! for every length threshold (4, 6, 8, 12, 16, 24, ...) the chain's node count passes.

use std::collections::VecDeque;

use super::board::Board;
use super::{Step, Technique};
use crate::model::cell_name;

/// Which links a chain may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Links {
    /// One digit: peers and a house's two places (X-chains, turbot fish).
    SameDigit,
    /// Bivalue cells joined by peers holding the same digit (XY-chains).
    Bivalue,
    /// Every link (alternating inference chains, forcing chains).
    All,
}

/// Sudoku Explainer's length addition: 0.1 (one tenth) per threshold the length passes.
pub(super) fn length_tenths(nodes: usize) -> u32 {
    let length = nodes.saturating_sub(2);
    let (mut ceil, mut added, mut odd) = (4usize, 0u32, false);
    while length > ceil {
        added += 1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

/// The implication graph of one board.
pub(super) struct Graph<'a> {
    board: &'a Board,
    side: usize,
    links: Links,
    /// Scratch for breadth-first searches.
    parent: Vec<u32>,
    dist: Vec<u32>,
    queue: VecDeque<u32>,
}

const UNSEEN: u32 = u32::MAX;

impl<'a> Graph<'a> {
    pub(super) fn new(board: &'a Board, links: Links) -> Graph<'a> {
        let nodes = 2 * board.cell_count() * board.side();
        Graph {
            board,
            side: board.side(),
            links,
            parent: vec![UNSEEN; nodes],
            dist: vec![UNSEEN; nodes],
            queue: VecDeque::new(),
        }
    }

    fn node(&self, cell: usize, digit: u8, on: bool) -> u32 {
        ((cell * self.side + usize::from(digit) - 1) * 2 + usize::from(on)) as u32
    }

    fn split(&self, node: u32) -> (usize, u8, bool) {
        let node = node as usize;
        let candidate = node / 2;
        (
            candidate / self.side,
            (candidate % self.side) as u8 + 1,
            node % 2 == 1,
        )
    }

    /// The nodes `node` implies.
    fn successors(&self, node: u32, out: &mut Vec<u32>) {
        out.clear();
        let (cell, digit, on) = self.split(node);
        let board = self.board;
        if on {
            // Bivalue chains leave a cell only through its other digit (a strong link).
            if self.links == Links::All {
                for other in crate::model::DigitSet::from_bits(board.bits(cell)).iter() {
                    if other != digit {
                        out.push(self.node(cell, other, false));
                    }
                }
            }
            for &peer in board.peers(cell) {
                let peer = usize::from(peer);
                if board.has(peer, digit) {
                    out.push(self.node(peer, digit, false));
                }
            }
        } else {
            let bits = board.bits(cell);
            if self.links != Links::SameDigit && bits.count_ones() == 2 {
                let other = (bits & !(1 << (digit - 1))).trailing_zeros() as u8 + 1;
                out.push(self.node(cell, other, true));
            }
            if self.links != Links::Bivalue {
                for house in board.houses_of(cell) {
                    let positions = board.positions(house, digit);
                    if positions.count_ones() == 2 {
                        for position in crate::model::DigitSet::from_bits(positions).iter() {
                            let other = usize::from(board.house(house)[usize::from(position) - 1]);
                            if other != cell {
                                out.push(self.node(other, digit, true));
                            }
                        }
                    }
                }
            }
        }
    }

    /// Breadth-first search from `start`, filling `dist` and `parent`; returns the nodes reached
    /// in order, the start first.
    fn search(&mut self, start: u32, max_dist: u32) -> Vec<u32> {
        self.dist.iter_mut().for_each(|d| *d = UNSEEN);
        self.queue.clear();
        self.dist[start as usize] = 0;
        self.parent[start as usize] = UNSEEN;
        self.queue.push_back(start);
        let mut order = vec![start];
        let mut next = Vec::new();
        while let Some(node) = self.queue.pop_front() {
            let dist = self.dist[node as usize];
            if dist >= max_dist {
                continue;
            }
            self.successors(node, &mut next);
            for &succ in &next {
                if self.dist[succ as usize] == UNSEEN {
                    self.dist[succ as usize] = dist + 1;
                    self.parent[succ as usize] = node;
                    self.queue.push_back(succ);
                    order.push(succ);
                }
            }
        }
        order
    }

    /// The path from the last search's start to `node`, start first.
    fn path(&self, node: u32) -> Vec<u32> {
        let mut path = vec![node];
        let mut at = node;
        while self.parent[at as usize] != UNSEEN && self.dist[at as usize] != 0 {
            at = self.parent[at as usize];
            path.push(at);
        }
        path.reverse();
        path
    }

    /// A node as people read it: `r3c7=5` or `r3c7<>5`.
    fn describe(&self, node: u32) -> String {
        let (cell, digit, on) = self.split(node);
        let relation = if on { "=" } else { "<>" };
        format!("{}{relation}{digit}", cell_name(self.board.shape(), cell))
    }

    fn describe_path(&self, path: &[u32]) -> String {
        path.iter()
            .map(|&node| self.describe(node))
            .collect::<Vec<_>>()
            .join(" -> ")
    }
}

/// Whether candidate `(a, da)` being on rules out `(b, db)`.
fn weakly_linked(board: &Board, a: usize, da: u8, b: usize, db: u8) -> bool {
    (a == b && da != db) || (da == db && board.sees(a, b))
}

/// The candidates of the board, as `(cell, digit)`.
fn candidates(board: &Board) -> Vec<(usize, u8)> {
    (0..board.cell_count())
        .flat_map(|cell| {
            crate::model::DigitSet::from_bits(board.bits(cell))
                .iter()
                .map(move |digit| (cell, digit))
        })
        .collect()
}

/// The easiest chain of the family `links`: from "A is off" to "B is on", so A or B holds, and
/// every candidate seeing both goes; or from "A is off" back to "A is on", so A holds.
pub(super) fn alternating_chain(board: &Board, links: Links) -> Option<Step> {
    let (technique, base) = match links {
        Links::SameDigit => (Technique::XChain, 66),
        Links::Bivalue => (Technique::XyChain, 70),
        Links::All => (Technique::Aic, 70),
    };
    let mut graph = Graph::new(board, links);
    let all = candidates(board);
    let mut best: Option<(usize, Step)> = None;
    for &(a, da) in &all {
        // The candidates that A being on rules out: the only ones that can go.
        let seeing_a: Vec<(usize, u8)> = all
            .iter()
            .copied()
            .filter(|&(x, dx)| weakly_linked(board, a, da, x, dx))
            .collect();
        let max_dist = best.as_ref().map_or(u32::MAX, |(nodes, _)| *nodes as u32);
        let start = graph.node(a, da, false);
        let order = graph.search(start, max_dist);
        for &node in &order[1..] {
            let (b, db, on) = graph.split(node);
            if !on {
                continue;
            }
            let nodes = graph.dist[node as usize] as usize + 1;
            if best
                .as_ref()
                .is_some_and(|(best_nodes, _)| nodes >= *best_nodes)
            {
                break;
            }
            let path = graph.path(node);
            let chain = graph.describe_path(&path);
            let cells: Vec<usize> = path.iter().map(|&n| graph.split(n).0).collect();
            let step = if (b, db) == (a, da) {
                Step::placing(
                    technique,
                    a,
                    da,
                    format!(
                        "{chain}: if {} were not {da} it would be {da}, so it is {da}",
                        cell_name(board.shape(), a)
                    ),
                )
            } else {
                let eliminations: Vec<(usize, u8)> = seeing_a
                    .iter()
                    .copied()
                    .filter(|&(x, dx)| (x, dx) != (b, db) && weakly_linked(board, b, db, x, dx))
                    .collect();
                if eliminations.is_empty() {
                    continue;
                }
                Step::eliminating(
                    technique,
                    cells,
                    eliminations,
                    format!(
                        "{chain}: {} is {da} or {} is {db}, so a candidate ruled out by both goes",
                        cell_name(board.shape(), a),
                        cell_name(board.shape(), b)
                    ),
                )
            };
            best = Some((nodes, step));
            break;
        }
    }
    best.map(|(nodes, mut step)| {
        step.difficulty = base + length_tenths(nodes);
        step
    })
}

/// Static forcing chains. With `contradiction`: a candidate whose being on implies some
/// candidate both on and off is off. Otherwise cell and region forcing chains: every candidate
/// of a cell (or every place of a digit in a house) implies the same conclusion, which holds.
#[expect(
    clippy::too_many_lines,
    reason = "two searches sharing their graph and scratch"
)]
pub(super) fn forcing_chain(board: &Board, contradiction: bool) -> Option<Step> {
    let mut graph = Graph::new(board, Links::All);
    let all = candidates(board);
    let mut best: Option<(usize, Step)> = None;
    let shape = board.shape();
    if contradiction {
        for &(a, da) in &all {
            let start = graph.node(a, da, true);
            let order = graph.search(start, u32::MAX);
            let mut found: Option<(usize, u32, u32)> = None;
            for &node in &order {
                let twin = node ^ 1;
                if graph.dist[twin as usize] != UNSEEN {
                    let nodes =
                        (graph.dist[node as usize] + graph.dist[twin as usize]) as usize + 1;
                    if found.is_none_or(|(n, ..)| nodes < n) {
                        found = Some((nodes, node, twin));
                    }
                }
            }
            let Some((nodes, first, second)) = found else {
                continue;
            };
            if best.as_ref().is_some_and(|(n, _)| nodes >= *n) {
                continue;
            }
            let reason = format!(
                "if {} were {da}: {} and {}, a contradiction, so it is not {da}",
                cell_name(shape, a),
                graph.describe_path(&graph.path(first)),
                graph.describe_path(&graph.path(second))
            );
            let step = Step::eliminating(Technique::ForcingChain, vec![a], vec![(a, da)], reason);
            best = Some((nodes, step));
        }
        return best.map(|(nodes, mut step)| {
            step.difficulty = 70 + length_tenths(nodes);
            step
        });
    }
    // Cell and region forcing chains: the premises, each a set of candidates one of which holds.
    let mut premises: Vec<(String, Vec<(usize, u8)>)> = Vec::new();
    for cell in 0..board.cell_count() {
        let bits = board.bits(cell);
        if board.value(cell) == 0 && (2..=4).contains(&bits.count_ones()) {
            premises.push((
                format!("{} holds one of its candidates", cell_name(shape, cell)),
                crate::model::DigitSet::from_bits(bits)
                    .iter()
                    .map(|digit| (cell, digit))
                    .collect(),
            ));
        }
    }
    for house in 0..board.house_count() {
        for digit in 1..=board.side() as u8 {
            let positions = board.positions(house, digit);
            if (2..=4).contains(&positions.count_ones()) {
                premises.push((
                    format!("{digit} goes somewhere in {}", board.house_name(house)),
                    crate::model::DigitSet::from_bits(positions)
                        .iter()
                        .map(|p| (usize::from(board.house(house)[usize::from(p) - 1]), digit))
                        .collect(),
                ));
            }
        }
    }
    let node_count = graph.dist.len();
    let mut total = vec![0u32; node_count];
    let mut hits = vec![0u32; node_count];
    for (premise, branches) in &premises {
        total.fill(0);
        hits.fill(0);
        for &(cell, digit) in branches {
            let start = graph.node(cell, digit, true);
            let order = graph.search(start, u32::MAX);
            for &node in &order {
                hits[node as usize] += 1;
                total[node as usize] += graph.dist[node as usize] + 1;
            }
        }
        let wanted = branches.len() as u32;
        let mut conclusion: Option<(usize, u32)> = None;
        for node in 0..node_count as u32 {
            if hits[node as usize] != wanted {
                continue;
            }
            let (cell, digit, on) = graph.split(node);
            // A conclusion must say something new: a candidate off, or a value on.
            if !board.has(cell, digit) || (on && board.value(cell) != 0) {
                continue;
            }
            let nodes = total[node as usize] as usize;
            if conclusion.is_none_or(|(n, _)| nodes < n) {
                conclusion = Some((nodes, node));
            }
        }
        let Some((nodes, node)) = conclusion else {
            continue;
        };
        if best.as_ref().is_some_and(|(n, _)| nodes >= *n) {
            continue;
        }
        let (cell, digit, on) = graph.split(node);
        let mut chains = Vec::new();
        for &(branch_cell, branch_digit) in branches {
            graph.search(graph.node(branch_cell, branch_digit, true), u32::MAX);
            chains.push(graph.describe_path(&graph.path(node)));
        }
        let reason = format!(
            "{premise}, and each leads to {}: {}",
            graph.describe(node),
            chains.join("; ")
        );
        let cells: Vec<usize> = branches.iter().map(|&(c, _)| c).collect();
        let step = if on {
            Step::placing(Technique::CellForcingChain, cell, digit, reason)
        } else {
            Step::eliminating(
                Technique::CellForcingChain,
                cells,
                vec![(cell, digit)],
                reason,
            )
        };
        let mut step = step;
        step.cells = branches.iter().map(|&(c, _)| c).collect();
        best = Some((nodes, step));
    }
    best.map(|(nodes, mut step)| {
        step.difficulty = 82 + length_tenths(nodes);
        step
    })
}
