//! Cross-checking: run several strategies on one puzzle, certify every answer, and find where
//! they disagree.
//!
//! [`crate::experiment::measure`] times one strategy on one puzzle and certifies each solution
//! it returns with [`crate::model::validate`], giving a [`Run`]. [`cross_check`] then compares
//! the runs of all strategies with each other and with what the corpus claims (a known
//! solution, a known count). Nothing here trusts an engine: a verdict is only compared, and a
//! grid is only believed after `validate` has accepted it.

mod verifiers;

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::model::{Grid, validate};
use crate::strategy::{Count, Stats, Stop, Verdict};

pub use verifiers::{DEFAULT_VERIFIERS, Verifiers, VerifiersError, verifiers, verifiers_among};

/// What one strategy found on one puzzle, and what it cost.
#[derive(Clone, Debug)]
pub struct Run {
    /// The strategy's registry name.
    pub strategy: &'static str,
    /// Solutions found, and whether the count is exact.
    pub count: Count,
    /// Why the search stopped early, if it did.
    pub stopped: Option<Stop>,
    /// The engine's counters (from the last repeat; every repeat walks the same tree).
    pub stats: Stats,
    /// Wall-clock time of the fastest repeat.
    pub best: Duration,
    /// Median wall-clock time over the repeats.
    pub median: Duration,
    /// Thread CPU time of the repeat that used least; `None` when the search's work ran on a
    /// thread of its own (`dlx` where it must be abandonable) or the clock cannot be read.
    pub cpu: Option<Duration>,
    /// The first solution found, once certified.
    pub solution: Option<Grid>,
    /// Why a returned grid failed certification: the first failure, if any.
    pub invalid: Option<String>,
    /// How an outside solver failed on this puzzle (it crashed, hung, or wrote a malformed
    /// answer), with the end of its standard error; its verdict is then `unknown`.
    pub failure: Option<String>,
}

impl Run {
    /// The verdict this run supports ([`Verdict::of`]: `solved` when it stopped at a solution
    /// limit of one).
    pub fn verdict(&self) -> Verdict {
        Verdict::of(self.count, self.stopped)
    }
}

/// What a corpus claims about a puzzle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Claims<'a> {
    /// The puzzle the claims are about; with it, a claimed solution is itself certified.
    pub puzzle: Option<&'a Grid>,
    /// A solution the corpus gives.
    pub solution: Option<&'a Grid>,
    /// The exact number of solutions the corpus gives.
    pub count: Option<u64>,
}

/// The kinds of problem a cross-check finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemKind {
    /// A strategy returned a grid that breaks a rule or changes a given.
    InvalidAnswer,
    /// Two strategies gave different definite verdicts (or different exact counts).
    VerdictsDisagree,
    /// Strategies that all say "unique" returned different grids.
    SolutionsDisagree,
    /// A unique answer differs from the solution the corpus gives, or a strategy says "none"
    /// although the corpus gives a solution.
    ContradictsKnownSolution,
    /// A count differs from the count the corpus gives.
    ContradictsKnownCount,
    /// The solution the corpus gives breaks a rule or changes a given (whatever the engines
    /// say: a puzzle with several solutions cannot hide it).
    InvalidKnownSolution,
    /// An outside solver failed on the puzzle: it exited, did not answer in time, or wrote a
    /// malformed or over-long answer.
    SolverFailed,
}

impl ProblemKind {
    /// The kind's name, as every report writes it: `invalid_answer`, `verdicts_disagree`,
    /// `solutions_disagree`, `contradicts_known_solution`, `contradicts_known_count`,
    /// `invalid_known_solution`, `solver_failed`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ProblemKind::InvalidAnswer => "invalid_answer",
            ProblemKind::VerdictsDisagree => "verdicts_disagree",
            ProblemKind::SolutionsDisagree => "solutions_disagree",
            ProblemKind::ContradictsKnownSolution => "contradicts_known_solution",
            ProblemKind::ContradictsKnownCount => "contradicts_known_count",
            ProblemKind::InvalidKnownSolution => "invalid_known_solution",
            ProblemKind::SolverFailed => "solver_failed",
        }
    }
}

/// One disagreement or invalid answer, with the strategies involved and what each said.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// What went wrong.
    pub kind: ProblemKind,
    /// The strategies involved.
    pub strategies: Vec<String>,
    /// What each strategy said, in words.
    pub detail: String,
}

/// Compares the runs of several strategies on one puzzle with each other and with the corpus's
/// claims. An empty result means every answer is certified and every definite verdict agrees.
pub fn cross_check(runs: &[Run], claims: Claims<'_>) -> Vec<Problem> {
    let mut problems = Vec::new();
    for run in runs {
        if let Some(reason) = &run.invalid {
            problems.push(Problem {
                kind: ProblemKind::InvalidAnswer,
                strategies: vec![run.strategy.to_string()],
                detail: format!("{} returned an invalid grid: {reason}", run.strategy),
            });
        }
        if let Some(failure) = &run.failure {
            problems.push(Problem {
                kind: ProblemKind::SolverFailed,
                strategies: vec![run.strategy.to_string()],
                detail: failure.clone(),
            });
        }
    }
    // One run and no claim beyond the puzzle (`count` and `solve` on a bare corpus): there is
    // nothing to compare, and the run's certification is all there is to report.
    if runs.len() == 1 && claims.solution.is_none() && claims.count.is_none() {
        return problems;
    }
    let said = |runs: &mut dyn Iterator<Item = &Run>| {
        runs.map(|run| format!("{} says {}", run.strategy, describe(run)))
            .collect::<Vec<_>>()
            .join("; ")
    };

    // Definite verdicts, and exact counts, must agree. `solved` says nothing of uniqueness;
    // its one solution still contradicts a `none` (the count overshoots the exact 0). Checked
    // against the first of each without collecting: most puzzles have no problem, and this runs
    // once per puzzle.
    let split = |mut values: Box<dyn Iterator<Item = u64> + '_>| {
        values
            .next()
            .is_some_and(|first| values.any(|value| value != first))
    };
    let is_definite = |run: &Run| !matches!(run.verdict(), Verdict::Unknown | Verdict::Solved);
    let verdicts_split = split(Box::new(
        runs.iter()
            .filter(|run| is_definite(run))
            .map(|run| run.verdict() as u64),
    ));
    let exact = runs.iter().filter(|run| run.count.exhausted);
    let counts_split = split(Box::new(exact.clone().map(|run| run.count.found)));
    let exact_count = exact.clone().next().map(|run| run.count.found);
    let overshoot =
        exact_count.is_some_and(|exact_count| runs.iter().any(|run| run.count.found > exact_count));
    if verdicts_split || counts_split || overshoot {
        // The definite verdicts, and the runs that found more than an exact count allows.
        let involved: Vec<&Run> = runs
            .iter()
            .filter(|run| {
                !matches!(run.verdict(), Verdict::Unknown | Verdict::Solved)
                    || exact_count.is_some_and(|exact_count| run.count.found > exact_count)
            })
            .collect();
        problems.push(Problem {
            kind: ProblemKind::VerdictsDisagree,
            strategies: involved
                .iter()
                .map(|run| run.strategy.to_string())
                .collect(),
            detail: said(&mut involved.iter().copied()),
        });
    }

    // A unique solution must be the same grid everywhere, and a `solved` grid must be it too.
    let with_grid = |verdict: Verdict| {
        runs.iter()
            .filter(move |run| run.verdict() == verdict && run.solution.is_some())
    };
    let (mut unique, solved) = (with_grid(Verdict::Unique), with_grid(Verdict::Solved));
    let proof = unique.next();
    if let Some(proof) = proof.filter(|proof| unique.any(|run| run.solution != proof.solution)) {
        problems.push(Problem {
            kind: ProblemKind::SolutionsDisagree,
            strategies: [proof]
                .into_iter()
                .chain(with_grid(Verdict::Unique).skip(1))
                .map(|run| run.strategy.to_string())
                .collect(),
            detail: "strategies that prove uniqueness returned different grids".to_string(),
        });
    } else if let Some(proof) = proof {
        let differ: Vec<&Run> = solved
            .filter(|run| run.solution != proof.solution)
            .collect();
        if !differ.is_empty() {
            let names: Vec<String> = differ.iter().map(|run| run.strategy.to_string()).collect();
            problems.push(Problem {
                kind: ProblemKind::SolutionsDisagree,
                strategies: [proof.strategy.to_string()]
                    .into_iter()
                    .chain(names.iter().cloned())
                    .collect(),
                detail: format!(
                    "{} solved the puzzle with a grid that differs from the unique solution {} \
                     proves",
                    names.join(", "),
                    proof.strategy
                ),
            });
        }
    }

    known_claims(runs, claims, &mut problems);
    problems
}

/// The problems of the corpus's own claims: a known solution that is itself wrong, or that a
/// run contradicts; a known count that a run contradicts.
fn known_claims(runs: &[Run], claims: Claims<'_>, problems: &mut Vec<Problem>) {
    let known_invalid = match (claims.puzzle, claims.solution) {
        (Some(puzzle), Some(known)) => validate(puzzle, known).err(),
        _ => None,
    };
    if let Some(reason) = &known_invalid {
        problems.push(Problem {
            kind: ProblemKind::InvalidKnownSolution,
            strategies: Vec::new(),
            detail: format!("the known solution is wrong: {reason}"),
        });
    }
    // A `solved` grid is held to the known solution like a unique one, unless the puzzle may
    // have other solutions (a run found two, or the corpus says so).
    let several =
        runs.iter().any(|run| run.verdict() == Verdict::Multiple) || claims.count.unwrap_or(1) > 1;
    if let Some(known) = claims.solution.filter(|_| known_invalid.is_none()) {
        for run in runs {
            let held = match run.verdict() {
                Verdict::Unique => true,
                Verdict::Solved => !several,
                _ => false,
            };
            let wrong_grid = held && run.solution.as_ref().is_some_and(|grid| grid != known);
            if wrong_grid || run.verdict() == Verdict::None {
                problems.push(Problem {
                    kind: ProblemKind::ContradictsKnownSolution,
                    strategies: vec![run.strategy.to_string()],
                    detail: if wrong_grid && run.verdict() == Verdict::Solved {
                        format!(
                            "{} found a solution that differs from the known one",
                            run.strategy
                        )
                    } else if wrong_grid {
                        format!(
                            "{} proves a unique solution that differs from the known one",
                            run.strategy
                        )
                    } else {
                        format!(
                            "{} says none, but the corpus gives a solution",
                            run.strategy
                        )
                    },
                });
            }
        }
    }

    if let Some(expected) = claims.count {
        for run in runs {
            let contradicts = if run.count.exhausted {
                run.count.found != expected
            } else {
                run.count.found > expected
            };
            if contradicts {
                problems.push(Problem {
                    kind: ProblemKind::ContradictsKnownCount,
                    strategies: vec![run.strategy.to_string()],
                    detail: format!(
                        "{} says {}, but the corpus gives {expected} solutions",
                        run.strategy,
                        describe(run)
                    ),
                });
            }
        }
    }
}

/// A run's verdict and count in words: `unique (1)`, `multiple (2+)`, `unknown (0+, timed out)`.
pub fn describe(run: &Run) -> String {
    // `solved (1)`: the one solution asked for, not a lower bound.
    let plus = if run.count.exhausted || run.verdict() == Verdict::Solved {
        ""
    } else {
        "+"
    };
    match run.stopped.filter(|stop| *stop != Stop::SolutionLimit) {
        Some(stop) => format!("{} ({}{plus}, {stop})", run.verdict(), run.count.found),
        None => format!("{} ({}{plus})", run.verdict(), run.count.found),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(line: &str) -> Grid {
        line.parse().expect("a valid test puzzle")
    }

    fn fake(strategy: &'static str, found: u64, exhausted: bool, solution: Option<Grid>) -> Run {
        Run {
            strategy,
            count: Count { found, exhausted },
            stopped: (!exhausted).then_some(Stop::Deadline),
            stats: Stats::new(),
            best: Duration::ZERO,
            median: Duration::ZERO,
            cpu: None,
            solution,
            invalid: None,
            failure: None,
        }
    }

    #[test]
    fn unknown_is_not_a_disagreement_but_a_count_overshoot_is() {
        let solution = grid("4213134221343421");
        let runs = [
            fake("a", 1, true, Some(solution.clone())),
            fake("b", 0, false, None),
        ];
        assert_eq!(cross_check(&runs, Claims::default()), Vec::new());

        let runs = [
            fake("a", 1, true, Some(solution)),
            fake("b", 2, false, None),
        ];
        let problems = cross_check(&runs, Claims::default());
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].kind, ProblemKind::VerdictsDisagree);
        assert_eq!(
            problems[0].detail,
            "a says unique (1); b says multiple (2+, timed out)"
        );
    }

    fn solved(strategy: &'static str, solution: Grid) -> Run {
        Run {
            stopped: Some(Stop::SolutionLimit),
            ..fake(strategy, 1, false, Some(solution))
        }
    }

    #[test]
    fn a_solved_grid_is_held_to_the_unique_and_the_known_solution() {
        let one = grid("4213134221343421");
        let other = grid("4231132424133142");
        assert_eq!(solved("s", one.clone()).verdict(), Verdict::Solved);
        assert_eq!(describe(&solved("s", one.clone())), "solved (1)");
        // Agreeing with a unique answer and the known solution: no problem.
        let runs = [
            fake("u", 1, true, Some(one.clone())),
            solved("s", one.clone()),
        ];
        let claims = Claims {
            solution: Some(&one),
            ..Claims::default()
        };
        assert_eq!(cross_check(&runs, claims), Vec::new());
        // A different grid: against the unique answer, and against the known solution.
        let runs = [
            fake("u", 1, true, Some(one.clone())),
            solved("s", other.clone()),
        ];
        let problems = cross_check(&runs, claims);
        let kinds: Vec<ProblemKind> = problems.iter().map(|p| p.kind).collect();
        assert_eq!(
            kinds,
            [
                ProblemKind::SolutionsDisagree,
                ProblemKind::ContradictsKnownSolution
            ]
        );
        assert_eq!(
            problems[0].detail,
            "s solved the puzzle with a grid that differs from the unique solution u proves"
        );
        assert_eq!(problems[0].strategies, ["u", "s"]);
        assert_eq!(
            problems[1].detail,
            "s found a solution that differs from the known one"
        );
        // Two solved grids may differ, and so may one from the known solution of a puzzle
        // with several solutions; a solved grid against a `none` is a disagreement.
        let runs = [solved("a", one.clone()), solved("b", other.clone())];
        assert_eq!(cross_check(&runs, Claims::default()), Vec::new());
        let several = Claims {
            solution: Some(&one),
            count: Some(2),
            ..Claims::default()
        };
        assert_eq!(cross_check(&[solved("b", other)], several), Vec::new());
        let runs = [solved("s", one), fake("n", 0, true, None)];
        let problems = cross_check(&runs, Claims::default());
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].kind, ProblemKind::VerdictsDisagree);
        assert_eq!(problems[0].detail, "s says solved (1); n says none (0)");
        assert_eq!(problems[0].strategies, ["s", "n"]);
    }

    #[test]
    fn a_wrong_known_solution_is_caught_even_when_the_puzzle_has_several() {
        let open = grid("................");
        let wrong = grid("1111111111111111");
        let runs = [fake("a", 2, false, None)];
        let claims = Claims {
            puzzle: Some(&open),
            solution: Some(&wrong),
            count: None,
        };
        let problems = cross_check(&runs, claims);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].kind, ProblemKind::InvalidKnownSolution);
        assert_eq!(
            problems[0].detail,
            "the known solution is wrong: digit 1 appears twice in row 1 (r1c1 and r1c2)"
        );
    }

    #[test]
    fn different_unique_grids_and_known_claims_are_caught() {
        let one = grid("4213134221343421");
        let other = grid("4231132424133142");
        let runs = [
            fake("a", 1, true, Some(one.clone())),
            fake("b", 1, true, Some(other)),
        ];
        let claims = Claims {
            solution: Some(&one),
            count: Some(3),
            ..Claims::default()
        };
        let kinds: Vec<ProblemKind> = cross_check(&runs, claims)
            .into_iter()
            .map(|problem| problem.kind)
            .collect();
        assert_eq!(
            kinds,
            [
                ProblemKind::SolutionsDisagree,
                ProblemKind::ContradictsKnownSolution,
                ProblemKind::ContradictsKnownCount,
                ProblemKind::ContradictsKnownCount,
            ]
        );
    }
}
