//! The registry: every strategy by name. Adding an engine means adding it here; the
//! data-driven suite and the guard test pick it up from this list.

use super::{Dlx, DlxKnuth, Fast, Mrv, Sat, Scan, Strategy, Toggle};

static REGISTRY: [&dyn Strategy; 9] = [
    &Fast,
    &Scan,
    &Toggle,
    &Mrv,
    &DlxKnuth,
    &Dlx,
    &Sat::REDUCED,
    &Sat::EXTENDED,
    &Sat::MINIMAL,
];

/// Every registered strategy, in the order the CLI lists them.
pub fn registry() -> &'static [&'static dyn Strategy] {
    &REGISTRY
}

/// The registered names.
pub fn names() -> Vec<&'static str> {
    registry().iter().map(|strategy| strategy.name()).collect()
}

/// A strategy by name that is not registered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown strategy '{name}'; valid strategies: {}", names().join(", "))]
pub struct UnknownStrategy {
    /// The name asked for.
    pub name: String,
}

/// Looks a strategy up by name.
pub fn find(name: &str) -> Result<&'static dyn Strategy, UnknownStrategy> {
    registry()
        .iter()
        .copied()
        .find(|strategy| strategy.name() == name)
        .ok_or_else(|| UnknownStrategy {
            name: name.to_string(),
        })
}
