//! Who re-proves a puzzle unique (`verify`, `generate --verify`): at least two different
//! strategies, so that each answer is re-proven by another method; `auto` lets the engine
//! policy pick them per puzzle. Outside solvers a front end made (`verify --external`) verify
//! beside either.

use crate::model::Grid;
use crate::strategy::{self, ListError, Strategy, find_all_among};

/// The verifiers by default: `auto`, the engine policy's choice for each puzzle's size and
/// rules ([`strategy::auto_verifiers`]).
pub const DEFAULT_VERIFIERS: [&str; 1] = ["auto"];

/// Who verifies: the strategies a user named, or the policy's choice per puzzle.
#[derive(Clone, Debug)]
pub enum Verifiers {
    /// [`strategy::auto_verifiers`] of each puzzle, then these outside solvers.
    Auto {
        /// Outside solvers that verify every puzzle beside the policy's engines.
        outside: Vec<&'static dyn Strategy>,
    },
    /// These strategies, each once, at least two.
    Named(Vec<&'static dyn Strategy>),
}

impl Verifiers {
    /// The strategies asked to re-prove `puzzle`, in order (a front end reports the ones that
    /// took it, from [`crate::experiment::Verification::by`]).
    pub fn for_puzzle(&self, puzzle: &Grid) -> Vec<&'static dyn Strategy> {
        match self {
            Verifiers::Auto { outside } => {
                let mut asked = strategy::auto_verifiers(puzzle);
                asked.extend(outside);
                asked
            }
            Verifiers::Named(named) => named.clone(),
        }
    }

    /// Every strategy these verifiers may run, each once (for a front end that prepares or
    /// checks each engine ahead of the run).
    pub fn engines(&self) -> Vec<&'static dyn Strategy> {
        match self {
            Verifiers::Auto { outside } => {
                let mut engines = strategy::auto_verifier_engines();
                engines.extend(outside);
                engines
            }
            Verifiers::Named(named) => named.clone(),
        }
    }
}

/// A list of verifiers that cannot verify.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifiersError {
    /// A name unknown or repeated.
    #[error(transparent)]
    List(#[from] ListError),
    /// Fewer than two strategies.
    #[error(
        "verify needs at least two different strategies, so that each answer is re-proven by \
         another method (given: {}); the default is {}",
        given.join(", "),
        DEFAULT_VERIFIERS.join(",")
    )]
    TooFew {
        /// The names given.
        given: Vec<&'static str>,
    },
    /// `auto` beside named strategies: it stands for a set of its own.
    #[error(
        "'auto' picks every verifier of each puzzle by itself and cannot be listed beside other \
         strategies (given: {})",
        given.join(", ")
    )]
    AutoAmongOthers {
        /// The names given.
        given: Vec<String>,
    },
}

/// The verifiers `names` name: `auto` alone, or registered strategies, each once, at least
/// two.
pub fn verifiers<S: AsRef<str>>(names: &[S]) -> Result<Verifiers, VerifiersError> {
    verifiers_among(names, &[])
}

/// The verifiers `names` name with the outside solvers `outside`, which verify every puzzle
/// whether named or not (named, they take their place in the order; see
/// [`strategy::find_all_among`]): `auto` alone and the outside solvers after its engines, or
/// registered strategies and the outside solvers, each once, at least two in all.
pub fn verifiers_among<S: AsRef<str>>(
    names: &[S],
    outside: &[&'static dyn Strategy],
) -> Result<Verifiers, VerifiersError> {
    let is_auto = |name: &S| name.as_ref().trim() == "auto";
    if names.iter().any(is_auto) {
        if names.len() == 1 {
            return Ok(Verifiers::Auto {
                outside: outside.to_vec(),
            });
        }
        return Err(VerifiersError::AutoAmongOthers {
            given: names.iter().map(|n| n.as_ref().trim().to_owned()).collect(),
        });
    }
    let found = find_all_among(names, outside)?;
    if found.len() < 2 {
        return Err(VerifiersError::TooFew {
            given: found.iter().map(|s| s.name()).collect(),
        });
    }
    Ok(Verifiers::Named(found))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Shape;

    fn names(verifiers: &[&'static dyn Strategy]) -> Vec<&'static str> {
        verifiers.iter().map(|v| v.name()).collect()
    }

    #[test]
    fn the_default_is_auto_and_one_strategy_does_not_verify() {
        assert!(matches!(
            verifiers(&DEFAULT_VERIFIERS),
            Ok(Verifiers::Auto { outside }) if outside.is_empty()
        ));
        assert!(matches!(
            verifiers(&["fast", "sat"]),
            Ok(Verifiers::Named(named)) if names(&named) == ["fast", "sat"]
        ));
        assert_eq!(
            verifiers(&["fast"]).map(|_| ()).unwrap_err().to_string(),
            "verify needs at least two different strategies, so that each answer is re-proven \
             by another method (given: fast); the default is auto"
        );
        assert_eq!(
            verifiers(&["auto", "sat"])
                .map(|_| ())
                .unwrap_err()
                .to_string(),
            "'auto' picks every verifier of each puzzle by itself and cannot be listed beside \
             other strategies (given: auto, sat)"
        );
    }

    #[test]
    fn auto_asks_two_methods_at_least_of_every_size_the_policy_covers() {
        let on = |rows, cols| {
            let puzzle = Grid::empty(Shape::new(rows, cols).expect("a valid shape"));
            names(&Verifiers::Auto { outside: vec![] }.for_puzzle(&puzzle))
        };
        assert_eq!(on(3, 3), ["fast", "dlx-knuth", "sat"]);
        assert_eq!(on(4, 4), ["sat", "fast"]);
        assert_eq!(on(5, 5), ["sat", "fast"]);
    }

    #[test]
    fn outside_solvers_verify_beside_auto_or_the_named_strategies_named_or_not() {
        let mine = strategy::External::new("mine", vec!["true".to_string()])
            .expect("a valid name")
            .leak();
        let puzzle = Grid::empty(Shape::CLASSIC);
        let auto = verifiers_among(&["auto"], &[mine]).expect("auto and mine");
        assert_eq!(
            names(&auto.for_puzzle(&puzzle)),
            ["fast", "dlx-knuth", "sat", "mine"]
        );
        assert_eq!(names(&auto.engines()), ["fast", "dlx-knuth", "sat", "mine"]);
        let placed = verifiers_among(&["mine", "sat"], &[mine]).expect("mine and sat");
        assert_eq!(names(&placed.for_puzzle(&puzzle)), ["mine", "sat"]);
        let appended = verifiers_among(&["sat"], &[mine]).expect("sat, then mine");
        assert_eq!(names(&appended.for_puzzle(&puzzle)), ["sat", "mine"]);
        assert_eq!(
            verifiers_among(&["mine"], &[mine])
                .map(|_| ())
                .unwrap_err()
                .to_string(),
            "verify needs at least two different strategies, so that each answer is re-proven \
             by another method (given: mine); the default is auto"
        );
        assert_eq!(
            verifiers_among(&["mine", "sat", "mine"], &[mine])
                .map(|_| ())
                .unwrap_err()
                .to_string(),
            "strategy 'mine' is listed twice; each strategy runs once"
        );
    }
}
