//! The registry: every strategy by name.
//!
//! Adding an engine is one file and one line. Write `strategy/NAME.rs` with a type that
//! implements [`Strategy`] (its refusals declared beside `supports` and `supports_rules`, in
//! [`Strategy::refusals`]), and add one line to the list in `for_each_strategy!` below:
//!
//! ```text
//! #[path = "mrv_copy.rs"] mrv_copy => mrv_copy::MrvCopy,
//! ```
//!
//! The attribute declares the file as a module of the registry; engines whose type the library
//! exports are declared in `strategy/mod.rs` instead and their line is `name => Value,`. The
//! identifier before `=>` is the strategy's name with `-` written `_`: the integration suite
//! generates one `#[test]` of that name per line (`cargo test --test sudolab cases::mrv_copy`),
//! and a guard test fails, naming it, when the identifier and the name differ.

use super::{Dlx, DlxKnuth, Fast, Mrv, Sat, Scan, Strategy, Toggle};

/// Calls the macro `$callback` with every registered strategy, one `ident => value` entry each,
/// in the order the CLI lists them; an entry may start with `#[path = "file.rs"]`, which
/// declares the engine's file. This list is the registry: [`registry()`] is built from it, and
/// the integration suite builds one test per entry from it.
#[doc(hidden)]
#[macro_export]
macro_rules! for_each_strategy {
    ($callback:ident) => {
        $callback! {
            fast => Fast,
            scan => Scan,
            toggle => Toggle,
            mrv => Mrv,
            dlx_knuth => DlxKnuth,
            dlx => Dlx,
            sat => Sat::REDUCED,
            sat_extended => Sat::EXTENDED,
            sat_minimal => Sat::MINIMAL,
        }
    };
}

/// Declares the files of the entries that name one, and the registry of all entries.
macro_rules! declare_registry {
    ($($(#[path = $file:literal])? $test:ident => $strategy:expr,)*) => {
        $($(
            #[path = $file]
            mod $test;
        )?)*

        static REGISTRY: &[&dyn Strategy] = &[$(&$strategy),*];
    };
}

for_each_strategy!(declare_registry);

/// Every registered strategy, in the order the CLI lists them.
pub fn registry() -> &'static [&'static dyn Strategy] {
    REGISTRY
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
