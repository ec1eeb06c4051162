//! Who re-proves a puzzle unique (`verify`, `generate --verify`): at least two different
//! strategies, so that each answer is re-proven by another method.

use crate::strategy::{ListError, Strategy, find_all};

/// The verifiers by default: propagation, exact cover and SAT, three different methods.
pub const DEFAULT_VERIFIERS: [&str; 3] = ["fast", "dlx-knuth", "sat"];

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
}

/// The verifiers `names` name: registered, each once, at least two.
pub fn verifiers<S: AsRef<str>>(names: &[S]) -> Result<Vec<&'static dyn Strategy>, VerifiersError> {
    let found = find_all(names)?;
    if found.len() < 2 {
        return Err(VerifiersError::TooFew {
            given: found.iter().map(|s| s.name()).collect(),
        });
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_verify_and_one_strategy_does_not() {
        assert_eq!(verifiers(&DEFAULT_VERIFIERS).map(|v| v.len()), Ok(3));
        assert_eq!(
            verifiers(&["fast"]).map(|_| ()).unwrap_err().to_string(),
            "verify needs at least two different strategies, so that each answer is re-proven \
             by another method (given: fast); the default is fast,dlx-knuth,sat"
        );
    }
}
