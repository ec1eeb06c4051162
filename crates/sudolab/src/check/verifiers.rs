//! Who re-proves a puzzle unique (`verify`, `generate --verify`): at least two different
//! strategies, so that each answer is re-proven by another method; `auto` lets the engine
//! policy pick them per puzzle.

use crate::model::Grid;
use crate::strategy::{self, ListError, Strategy, find_all};

/// The verifiers by default: `auto`, the engine policy's choice for each puzzle's size and
/// rules ([`strategy::auto_verifiers`]).
pub const DEFAULT_VERIFIERS: [&str; 1] = ["auto"];

/// Who verifies: the strategies a user named, or the policy's choice per puzzle.
#[derive(Clone, Debug)]
pub enum Verifiers {
    /// [`strategy::auto_verifiers`] of each puzzle.
    Auto,
    /// These strategies, each once, at least two.
    Named(Vec<&'static dyn Strategy>),
}

impl Verifiers {
    /// The strategies asked to re-prove `puzzle`, in order (a front end reports the ones that
    /// took it, from [`crate::experiment::Verification::by`]).
    pub fn for_puzzle(&self, puzzle: &Grid) -> Vec<&'static dyn Strategy> {
        match self {
            Verifiers::Auto => strategy::auto_verifiers(puzzle),
            Verifiers::Named(named) => named.clone(),
        }
    }

    /// Every strategy these verifiers may run, each once (for a front end that prepares or
    /// checks each engine ahead of the run).
    pub fn engines(&self) -> Vec<&'static dyn Strategy> {
        match self {
            Verifiers::Auto => strategy::auto_verifier_engines(),
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
    let is_auto = |name: &S| name.as_ref().trim() == "auto";
    if names.iter().any(is_auto) {
        if names.len() == 1 {
            return Ok(Verifiers::Auto);
        }
        return Err(VerifiersError::AutoAmongOthers {
            given: names.iter().map(|n| n.as_ref().trim().to_owned()).collect(),
        });
    }
    let found = find_all(names)?;
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
        assert!(matches!(verifiers(&DEFAULT_VERIFIERS), Ok(Verifiers::Auto)));
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
            names(&Verifiers::Auto.for_puzzle(&puzzle))
        };
        assert_eq!(on(3, 3), ["fast", "dlx-knuth", "sat"]);
        assert_eq!(on(4, 4), ["sat", "fast"]);
        assert_eq!(on(5, 5), ["sat", "fast"]);
    }
}
