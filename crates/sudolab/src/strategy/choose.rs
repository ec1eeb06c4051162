//! Choosing engines for the user: a list of names resolved once (unknown and repeated names
//! refused), and the `auto` policy, the one place that decides which engine decides a puzzle
//! when the user leaves it to sudolab (`count`, `solve`, `generate --checker`, `certify`,
//! Python).

use std::str::FromStr;

use super::{DlxKnuth, Fast, Refusal, Sat, Strategy, find};
use crate::model::Grid;

/// The side from which `auto` prefers `sat` to `fast`: on larger minimal puzzles clause
/// learning decides what propagation and guessing take minutes on.
pub const AUTO_SAT_FROM_SIDE: usize = 13;

/// A list of strategy names that cannot run as given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ListError {
    /// A name that is not registered.
    #[error(transparent)]
    Unknown(#[from] super::UnknownStrategy),
    /// A strategy named twice: it would be tallied as one.
    #[error("strategy '{0}' is listed twice; each strategy runs once")]
    Repeated(&'static str),
}

/// The strategies `names` name, in order; surrounding spaces are ignored. An empty list is
/// not an error here: whether a command needs one is the command's rule.
pub fn find_all<S: AsRef<str>>(names: &[S]) -> Result<Vec<&'static dyn Strategy>, ListError> {
    let mut strategies: Vec<&'static dyn Strategy> = Vec::with_capacity(names.len());
    for name in names {
        let strategy = find(name.as_ref().trim())?;
        if strategies.iter().any(|s| s.name() == strategy.name()) {
            return Err(ListError::Repeated(strategy.name()));
        }
        strategies.push(strategy);
    }
    Ok(strategies)
}

/// The strategies `names` name among the registered ones and `outside` (outside solvers a
/// front end made, [`External::leak`](super::External::leak)), in order, then the outside
/// solvers not named: an outside solver is given to be run, so naming it is only a way to place
/// it. Unknown and repeated names are refused as by [`find_all`].
pub fn find_all_among<S: AsRef<str>>(
    names: &[S],
    outside: &[&'static dyn Strategy],
) -> Result<Vec<&'static dyn Strategy>, ListError> {
    let mut strategies: Vec<&'static dyn Strategy> = Vec::with_capacity(names.len());
    for name in names {
        let name = name.as_ref().trim();
        let strategy = match outside.iter().find(|s| s.name() == name) {
            Some(strategy) => *strategy,
            None => find(name)?,
        };
        if strategies.iter().any(|s| s.name() == strategy.name()) {
            return Err(ListError::Repeated(strategy.name()));
        }
        strategies.push(strategy);
    }
    for strategy in outside {
        if !strategies.iter().any(|s| s.name() == strategy.name()) {
            strategies.push(*strategy);
        }
    }
    Ok(strategies)
}

/// The verifiers `auto` asks to re-prove a puzzle like `sample`, the policy's engine first:
/// propagation, exact cover and SAT below [`AUTO_SAT_FROM_SIDE`]; from it SAT and propagation,
/// since exact cover without propagation decides almost no large minimal puzzle within any
/// budget. Those that refuse the puzzle are left out by the caller.
pub fn auto_verifiers(sample: &Grid) -> Vec<&'static dyn Strategy> {
    if sample.side() >= AUTO_SAT_FROM_SIDE {
        vec![&Sat::REDUCED, &Fast]
    } else {
        vec![&Fast, &DlxKnuth, &Sat::REDUCED]
    }
}

/// Every engine [`auto_verifiers`] may ask, each once.
pub fn auto_verifier_engines() -> Vec<&'static dyn Strategy> {
    vec![&Fast, &DlxKnuth, &Sat::REDUCED]
}

/// Which engine decides a puzzle: one the user named, or `auto`.
#[derive(Clone, Copy, Debug)]
pub enum EngineChoice {
    /// `fast` below [`AUTO_SAT_FROM_SIDE`], `sat` from it; when the preferred engine refuses
    /// the puzzle (a board too large for `sat`), the other one.
    Auto,
    /// This engine, or a refusal.
    Named(&'static dyn Strategy),
}

impl FromStr for EngineChoice {
    type Err = super::UnknownStrategy;

    fn from_str(text: &str) -> Result<EngineChoice, Self::Err> {
        match text.trim() {
            "auto" => Ok(EngineChoice::Auto),
            name => find(name).map(EngineChoice::Named),
        }
    }
}

/// No engine of a choice takes the puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{engine} cannot check {what}: {refusal}")]
pub struct NoEngine {
    /// The engine chosen first.
    pub engine: &'static str,
    /// Whether `auto` chose it.
    pub auto: bool,
    /// What the puzzle is: `16x16 boxes`, `diagonal puzzles`.
    pub what: String,
    /// Why the engine refused.
    pub refusal: Refusal,
}

impl EngineChoice {
    /// The engine that decides puzzles like `sample` (its shape and rules).
    pub fn resolve(self, sample: &Grid) -> Result<&'static dyn Strategy, NoEngine> {
        self.resolve_among(sample, |_| true)
    }

    /// Every engine this choice may pick, in no particular order: one for a named engine,
    /// `fast` and `sat` for `auto` (a front end prepares a plan for each).
    pub fn engines(self) -> Vec<&'static dyn Strategy> {
        match self {
            EngineChoice::Auto => vec![&Fast, &Sat::REDUCED],
            EngineChoice::Named(engine) => vec![engine],
        }
    }

    /// Like [`EngineChoice::resolve`], but `auto` passes over the engines `usable` rejects (a
    /// node budget needs an engine that counts nodes, which `sat` does not); a named engine is
    /// the user's, and is never replaced.
    pub fn resolve_among(
        self,
        sample: &Grid,
        usable: impl Fn(&dyn Strategy) -> bool,
    ) -> Result<&'static dyn Strategy, NoEngine> {
        let mut candidates: Vec<&'static dyn Strategy> = match self {
            EngineChoice::Auto if sample.side() >= AUTO_SAT_FROM_SIDE => {
                vec![&Sat::REDUCED, &Fast]
            }
            EngineChoice::Auto => vec![&Fast, &Sat::REDUCED],
            EngineChoice::Named(engine) => vec![engine],
        };
        if matches!(self, EngineChoice::Auto) {
            candidates.retain(|engine| usable(*engine));
            if candidates.is_empty() {
                candidates.push(&Fast);
            }
        }
        let mut first = None;
        for engine in &candidates {
            match engine.accepts(sample) {
                Ok(()) => return Ok(*engine),
                Err(refusal) => {
                    first.get_or_insert((engine.name(), refusal));
                }
            }
        }
        let (engine, refusal) = first.expect("at least one candidate");
        Err(NoEngine {
            engine,
            auto: matches!(self, EngineChoice::Auto),
            what: match sample.rules() {
                Some(rules) => format!("{} puzzles", rules.name()),
                None => format!("{} boxes", sample.shape()),
            },
            refusal,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Shape;

    fn empty(rows: usize, cols: usize) -> Grid {
        Grid::empty(Shape::new(rows, cols).expect("a valid shape"))
    }

    #[test]
    fn auto_takes_fast_below_the_threshold_sat_from_it_and_falls_back() {
        let auto = |rows, cols| {
            EngineChoice::Auto
                .resolve(&empty(rows, cols))
                .map(Strategy::name)
        };
        assert_eq!(auto(3, 3), Ok("fast"));
        assert_eq!(auto(3, 4), Ok("fast"));
        assert_eq!(auto(2, 7), Ok("sat"));
        assert_eq!(auto(4, 4), Ok("sat"));
        assert_eq!(auto(6, 6), Ok("sat"));
        // 49x49 is beyond sat's largest side: fast decides it.
        assert_eq!(auto(7, 7), Ok("fast"));
    }

    #[test]
    fn auto_passes_over_engines_the_caller_cannot_use_and_a_named_one_stays() {
        use crate::strategy::Counter;
        let counts_nodes = |engine: &dyn Strategy| engine.counters().contains(&Counter::Nodes);
        let big = empty(5, 5);
        assert_eq!(
            EngineChoice::Auto.resolve(&big).map(Strategy::name),
            Ok("sat")
        );
        assert_eq!(
            EngineChoice::Auto
                .resolve_among(&big, counts_nodes)
                .map(Strategy::name),
            Ok("fast")
        );
        let sat = "sat".parse::<EngineChoice>().expect("registered");
        assert_eq!(
            sat.resolve_among(&big, counts_nodes).map(Strategy::name),
            Ok("sat")
        );
        let names = |choice: EngineChoice| -> Vec<&str> {
            choice
                .engines()
                .iter()
                .map(|engine| engine.name())
                .collect()
        };
        assert_eq!(names(EngineChoice::Auto), ["fast", "sat"]);
        assert_eq!(names(sat), ["sat"]);
    }

    #[test]
    fn a_named_engine_that_refuses_says_why() {
        let sat = "sat".parse::<EngineChoice>().expect("registered");
        let err = sat.resolve(&empty(8, 8)).expect_err("sat refuses 64x64");
        assert!(
            err.to_string().starts_with("sat cannot check 8x8 boxes: "),
            "{err}"
        );
    }

    #[test]
    fn lists_refuse_unknown_and_repeated_names() {
        let names = |list: &[&str]| {
            find_all(list).map(|found| found.iter().map(|s| s.name()).collect::<Vec<_>>())
        };
        assert_eq!(names(&["fast", " sat"]), Ok(vec!["fast", "sat"]));
        assert_eq!(names(&["fast", "fast"]), Err(ListError::Repeated("fast")));
        assert_eq!(names(&[]), Ok(vec![]));
        assert!(matches!(names(&["quick"]), Err(ListError::Unknown(_))));
    }
}
