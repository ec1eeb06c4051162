//! Verification (`verify`, Python's `verify`): a puzzle re-proven unique by every verifier that
//! takes it, at least two of them, each answer certified and all of them equal.

use super::{Item, Plan, Scratch, check};
use crate::check::Verifiers;
use crate::strategy::{Limits, Strategy};

/// What verification found on one puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verification {
    /// What failed; empty when the puzzle is verified.
    pub problems: Vec<String>,
    /// The verifiers that took the puzzle, in order.
    pub by: Vec<&'static str>,
}

impl Verification {
    /// Whether every verifier that took the puzzle proved it unique, and at least two did.
    pub fn verified(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Re-proves `item` unique with each verifier asked (`verifiers.for_puzzle`) that takes it (its
/// size, its rules): each must say "unique" with a certified grid equal to the item's known
/// solution (when it has one) and to each other's, and fewer than two takers is itself a
/// failure.
pub fn verify(
    item: Item,
    verifiers: &Verifiers,
    limits: &Limits,
    scratch: &mut Scratch,
) -> Verification {
    let asked = verifiers.for_puzzle(&item.puzzle);
    let usable: Vec<&'static dyn Strategy> = asked
        .iter()
        .copied()
        .filter(|verifier| verifier.accepts(&item.puzzle).is_ok())
        .collect();
    let what = match item.puzzle.rules() {
        Some(rules) => format!("{} puzzles", rules.name()),
        None => format!("{} boxes", item.puzzle.shape()),
    };
    let plan = Plan::new(&usable, limits);
    let mut problems = check(&plan, item, scratch).uniqueness_problems();
    if usable.len() < 2 {
        let names: Vec<&str> = asked.iter().map(|v| v.name()).collect();
        problems.push(format!(
            "fewer than two of {} take {what}",
            names.join(", ")
        ));
    }
    Verification {
        problems,
        by: usable.iter().map(|v| v.name()).collect(),
    }
}
