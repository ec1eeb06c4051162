//! The data-driven suite: every case of `corpora/cases/*.toml` against every registered
//! strategy, one `#[test]` per strategy, named after it (`cases::mrv`, `cases::dlx_knuth`) and
//! generated from the registry's own list, so that a newly registered strategy has its test
//! with no edit here. Cases are named `file/name`; set `SUDOLAB_CASE=substring` to run only
//! matching ones. Every failure is collected (panics included) and reported at once.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use std::sync::Arc;

use sudolab::model::{Features, Grid, Rules, RulesSpec, Shape, parse_line_record, validate};
use sudolab::strategy::{self, Counter, Limits, Outcome, RuleKind, Strategy, Verdict};

/// One case as written in a TOML file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub name: String,
    #[serde(rename = "box")]
    pub box_shape: Option<String>,
    /// Variant rules by name (`x`, `latin`, `anti-king`...), as `--variant` takes them.
    pub variant: Option<String>,
    /// Variant rules in full (regions, cages), as the JSON and TOML forms write them.
    pub rules: Option<RulesSpec>,
    /// Line form; whitespace is ignored, so long puzzles can be broken into rows.
    pub puzzle: String,
    pub verdict: String,
    pub solution: Option<String>,
    /// The exact number of solutions.
    pub count: Option<u64>,
    #[serde(default)]
    pub tags: Vec<String>,
    /// Counters per strategy when finding one solution.
    #[serde(default)]
    pub solve: BTreeMap<String, BTreeMap<String, u64>>,
    /// Counters per strategy when counting up to two.
    #[serde(default)]
    pub uniqueness: BTreeMap<String, BTreeMap<String, u64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    case: Vec<Case>,
}

/// A case with its parsed grids and its suite name `file/name`.
pub struct Loaded {
    pub id: String,
    pub case: Case,
    pub puzzle: Grid,
    pub solution: Option<Grid>,
    pub verdict: Verdict,
}

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/cases")
}

fn parse_grid(text: &str, shape: Option<Shape>) -> Result<Grid, String> {
    let compact: String = text.split_whitespace().collect();
    parse_line_record(compact.as_bytes(), shape, 1)
        .map(|record| record.puzzle)
        .map_err(|err| err.to_string())
}

fn parse_verdict(text: &str) -> Result<Verdict, String> {
    match text {
        "none" => Ok(Verdict::None),
        "unique" => Ok(Verdict::Unique),
        "multiple" => Ok(Verdict::Multiple),
        other => Err(format!(
            "unknown verdict '{other}' (none, unique, multiple)"
        )),
    }
}

fn load(file: &Path, case: Case) -> Result<Loaded, String> {
    let stem = file.file_stem().unwrap().to_string_lossy();
    let id = format!("{stem}/{}", case.name);
    let shape = case
        .box_shape
        .as_deref()
        .map(str::parse::<Shape>)
        .transpose()
        .map_err(|err| format!("{id}: {err}"))?;
    let mut spec = case.rules.clone().unwrap_or_default();
    if let Some(names) = &case.variant {
        let features: Features = names.parse().map_err(|err| format!("{id}: {err}"))?;
        features.add_to(&mut spec);
    }
    let puzzle = if spec.is_plain() {
        parse_grid(&case.puzzle, shape).map_err(|err| format!("{id}: puzzle: {err}"))?
    } else {
        let cells = case.puzzle.split_whitespace().collect::<String>().len();
        let side = (1..=64).find(|side| side * side == cells).unwrap_or(0);
        let rules = Rules::new(side, shape, spec).map_err(|err| format!("{id}: rules: {err}"))?;
        parse_grid(&case.puzzle, Some(rules.shape()))
            .map_err(|err| format!("{id}: puzzle: {err}"))?
            .with_rules(Arc::new(rules))
    };
    let solution = case
        .solution
        .as_deref()
        .map(|text| parse_grid(text, Some(puzzle.shape())))
        .transpose()
        .map_err(|err| format!("{id}: solution: {err}"))?;
    let verdict = parse_verdict(&case.verdict).map_err(|err| format!("{id}: {err}"))?;
    Ok(Loaded {
        id,
        case,
        puzzle,
        solution,
        verdict,
    })
}

/// Every case of every file, sorted by file name; panics on a malformed case file.
pub fn all_cases() -> Vec<Loaded> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(cases_dir())
        .expect("corpora/cases exists")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no case files in corpora/cases");
    let mut loaded = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let parsed: CaseFile =
            toml::from_str(&text).unwrap_or_else(|err| panic!("{}: {err}", file.display()));
        for case in parsed.case {
            loaded.push(load(&file, case).unwrap_or_else(|err| panic!("{err}")));
        }
    }
    loaded
}

/// One case by its suite name, `file/name`.
pub fn case(id: &str) -> Loaded {
    all_cases()
        .into_iter()
        .find(|loaded| loaded.id == id)
        .unwrap_or_else(|| panic!("no case {id}"))
}

/// Cases selected by `SUDOLAB_CASE` (a substring of `file/name`, or a tag), if set.
pub fn selected_cases() -> Vec<Loaded> {
    let filter = std::env::var("SUDOLAB_CASE").unwrap_or_default();
    all_cases()
        .into_iter()
        .filter(|loaded| loaded.id.contains(&filter) || loaded.case.tags.contains(&filter))
        .collect()
}

/// A budget no correct engine needs on the bundled cases, so that a broken one fails instead
/// of hanging the suite.
pub fn suite_limits() -> Limits {
    Limits::default()
        .with_max_nodes(50_000_000)
        .with_timeout(Duration::from_secs(60))
}

fn compare_counters(
    what: &str,
    expected: Option<&BTreeMap<String, u64>>,
    outcome: &Outcome,
    problems: &mut Vec<String>,
) {
    let Some(expected) = expected else { return };
    for (name, &value) in expected {
        let counter = Counter::ALL.iter().find(|counter| counter.name() == name);
        let Some(&counter) = counter else {
            problems.push(format!("{what}: unknown counter '{name}'"));
            continue;
        };
        let actual = outcome.stats.get(counter);
        if actual != Some(value) {
            problems.push(format!("{what}: {name} = {actual:?}, expected {value}"));
        }
    }
}

/// Runs one case on one strategy; returns what went wrong.
fn check_case(strategy: &dyn Strategy, loaded: &Loaded) -> Vec<String> {
    let mut problems = Vec::new();
    let puzzle = &loaded.puzzle;

    // The uniqueness check: count up to two, certify every solution.
    let mut solutions = Vec::new();
    let outcome = strategy.search(puzzle, &suite_limits().with_max_solutions(2), &mut |grid| {
        solutions.push(grid.clone());
    });
    if outcome.verdict() != loaded.verdict {
        problems.push(format!(
            "verdict {} ({} found, stopped: {:?}), expected {}",
            outcome.verdict(),
            outcome.found,
            outcome.stopped,
            loaded.verdict
        ));
    }
    if solutions.len() as u64 != outcome.found {
        problems.push(format!(
            "reported {} solutions but called back {} times",
            outcome.found,
            solutions.len()
        ));
    }
    for solution in &solutions {
        if let Err(invalid) = validate(puzzle, solution) {
            problems.push(format!("invalid solution: {invalid}"));
        }
        // A solution is a plain grid: the rules stay the puzzle's.
        if solution.rules().is_some() {
            problems.push("a solution carries the puzzle's rules".to_string());
        }
    }
    if let (Some(expected), Verdict::Unique) = (&loaded.solution, loaded.verdict) {
        if solutions.first() != Some(expected) {
            problems.push("the unique solution differs from the expected one".to_string());
        }
    }
    compare_counters(
        "uniqueness",
        loaded.case.uniqueness.get(strategy.name()),
        &outcome,
        &mut problems,
    );

    // Exact counts: enumerate everything.
    if let Some(expected) = loaded.case.count {
        let outcome = strategy.count_up_to(puzzle, 0, &suite_limits());
        if outcome.count().exhausted && outcome.found != expected || !outcome.count().exhausted {
            problems.push(format!(
                "count {} (exhausted: {}), expected {expected}",
                outcome.found,
                outcome.count().exhausted
            ));
        }
    }

    // Solving: one solution exactly when there is one.
    let (solution, outcome) = strategy.solve(puzzle, &suite_limits());
    match (solution, loaded.verdict) {
        (Some(solution), Verdict::Unique | Verdict::Multiple) => {
            if let Err(invalid) = validate(puzzle, &solution) {
                problems.push(format!("solve: invalid solution: {invalid}"));
            }
        }
        (None, Verdict::None) if outcome.stopped.is_none() => {}
        (solution, expected) => problems.push(format!(
            "solve: returned {} (stopped: {:?}) for a puzzle with verdict {expected}",
            if solution.is_some() {
                "a solution"
            } else {
                "nothing"
            },
            outcome.stopped
        )),
    }
    compare_counters(
        "solve",
        loaded.case.solve.get(strategy.name()),
        &outcome,
        &mut problems,
    );
    problems
}

/// The registered strategy a test is named after: its name with `-` written `_`.
fn strategy_named(test: &str) -> &'static dyn Strategy {
    strategy::registry()
        .iter()
        .copied()
        .find(|strategy| strategy.name().replace('-', "_") == test)
        .unwrap_or_else(|| {
            panic!(
                "the registry lists `{test}`, but no registered strategy is named so (registered: \
                 {}); the identifier of a registry entry is its strategy's name with `-` written `_`",
                strategy::names().join(", ")
            )
        })
}

/// Runs every selected case that `strategy` accepts on it; fails with every problem found, or
/// when the strategy ran no case at all (no strategy may opt out of the suite silently).
fn run_cases(strategy: &dyn Strategy) {
    let cases = selected_cases();
    let mut failures = Vec::new();
    let mut runs = 0;
    for loaded in &cases {
        if let Err(reason) = strategy.accepts(&loaded.puzzle) {
            eprintln!("skip {} on {}: {reason}", loaded.id, strategy.name());
            continue;
        }
        runs += 1;
        match catch_unwind(AssertUnwindSafe(|| check_case(strategy, loaded))) {
            Ok(problems) => failures.extend(
                problems
                    .into_iter()
                    .map(|problem| format!("{} [{}]: {problem}", loaded.id, strategy.name())),
            ),
            Err(panic) => failures.push(format!(
                "{} [{}]: panicked: {}",
                loaded.id,
                strategy.name(),
                panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(ToString::to_string))
                    .unwrap_or_default()
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        runs > 0 || cases.is_empty(),
        "strategy {} ran no case",
        strategy.name()
    );
}

/// One `#[test]` per entry of the registry's list, named after the entry, and the list of
/// those names (`TESTED`).
macro_rules! strategy_tests {
    ($($(#[path = $file:literal])? $test:ident => $strategy:expr,)*) => {
        $(
            #[test]
            fn $test() {
                run_cases(strategy_named(stringify!($test)));
            }
        )*

        const TESTED: &[&str] = &[$(stringify!($test)),*];
    };
}

sudolab::for_each_strategy!(strategy_tests);

/// The generated tests and the registry name the same strategies: a registered strategy with
/// no test of its own (or a test for a strategy that is not registered) fails here, named.
#[test]
fn every_registered_strategy_has_its_own_test() {
    let registered: Vec<String> = strategy::names()
        .iter()
        .map(|name| name.replace('-', "_"))
        .collect();
    let untested: Vec<&String> = registered
        .iter()
        .filter(|name| !TESTED.contains(&name.as_str()))
        .collect();
    assert!(
        untested.is_empty(),
        "registered strategies without a test of their own: {untested:?}"
    );
    let unregistered: Vec<&&str> = TESTED
        .iter()
        .filter(|test| !registered.iter().any(|name| name == *test))
        .collect();
    assert!(
        unregistered.is_empty(),
        "tests for strategies that are not registered: {unregistered:?}"
    );
    assert_eq!(TESTED.len(), registered.len(), "a strategy listed twice");
}

/// Counters named in case files must belong to registered strategies, and every registered
/// strategy must be exercised on every shape of the bundled cases (none may opt out silently).
#[test]
fn case_files_name_registered_strategies_and_cover_every_shape() {
    let cases = all_cases();
    let names = strategy::names();
    for loaded in &cases {
        for name in loaded
            .case
            .solve
            .keys()
            .chain(loaded.case.uniqueness.keys())
        {
            assert!(
                names.contains(&name.as_str()),
                "{}: counters for unregistered strategy '{name}'",
                loaded.id
            );
        }
    }
    let shapes: Vec<String> = cases
        .iter()
        .map(|loaded| loaded.puzzle.shape().to_string())
        .collect();
    for expected in [
        "1x1", "1x2", "2x2", "2x3", "3x2", "3x3", "3x4", "4x4", "5x5",
    ] {
        assert!(
            shapes.iter().any(|shape| shape == expected),
            "no case with {expected} boxes"
        );
    }
    // Every engine refuses exactly the sizes it declares (engines whose crate cannot be
    // interrupted refuse sides where one call can run for minutes), on every case and at the
    // edge of its declared size.
    for strategy in strategy::registry() {
        let refusals = strategy.refusals();
        for loaded in &cases {
            let side = loaded.puzzle.side();
            assert_eq!(
                strategy.supports(loaded.puzzle.shape()).is_err(),
                refusals.refuses_side(side),
                "{} on {} (side {side}): refusals declared {refusals:?}",
                strategy.name(),
                loaded.id
            );
        }
        if let Some(max_side) = refusals.max_side {
            // The declared largest side, and the next larger side a board can have.
            let larger = (max_side + 1..=64).find_map(|side| Shape::for_side(side).ok());
            for shape in Shape::for_side(max_side).ok().into_iter().chain(larger) {
                assert_eq!(
                    strategy.supports(shape).is_err(),
                    shape.side() > max_side,
                    "{} on side {}: declared max_side {max_side}",
                    strategy.name(),
                    shape.side()
                );
            }
        }
    }
}

/// Every engine takes exactly the variants it declares it can express
/// ([`Strategy::refusals`]): a variant is refused when it has a kind of rule the engine
/// declares it refuses, and a refusal says why. The variant cases have every kind of rule, and
/// each kind alone, so that a declaration that refuses one kind too many or too few fails.
#[test]
fn engines_take_the_variants_they_can_express() {
    let cases = all_cases();
    let mut kinds = BTreeMap::new();
    for loaded in &cases {
        let Some(rules) = loaded.puzzle.rules() else {
            continue;
        };
        let used: Vec<RuleKind> = RuleKind::ALL
            .into_iter()
            .filter(|kind| kind.used_by(rules))
            .collect();
        for &kind in &used {
            *kinds.entry(format!("{kind:?}")).or_insert(false) |= used.len() == 1;
        }
        for strategy in strategy::registry() {
            let refusals = strategy.refusals();
            let accepted = strategy.accepts(&loaded.puzzle);
            assert_eq!(
                accepted.is_ok(),
                !refusals.refuses_side(loaded.puzzle.side()) && !refusals.refuses_rules(rules),
                "{} on {} (rules {used:?}): refusals declared {refusals:?}",
                strategy.name(),
                loaded.id
            );
            if let Err(refusal) = accepted {
                assert!(
                    refusal.to_string().contains(": "),
                    "{} on {}: a refusal says why: {refusal}",
                    strategy.name(),
                    loaded.id
                );
            }
        }
    }
    // Every kind in some case, and in some case on its own (Houses alone: x, windoku, jigsaw).
    let expected: BTreeMap<String, bool> = RuleKind::ALL
        .into_iter()
        .map(|kind| (format!("{kind:?}"), true))
        .collect();
    assert_eq!(
        kinds, expected,
        "variant cases of every kind of rule, each alone"
    );
    let killer = case("variants/killer-unique");
    assert_eq!(
        strategy::find("dlx-knuth")
            .unwrap()
            .accepts(&killer.puzzle)
            .unwrap_err()
            .to_string(),
        "dlx-knuth does not take killer puzzles: exact cover takes houses and pairs of cells, not \
         the sum of a cage (docs/variants.md lists the engines that take every rule)"
    );
    assert_eq!(
        strategy::find("fast")
            .unwrap()
            .accepts(&killer.puzzle)
            .unwrap_err()
            .to_string(),
        "fast does not take killer puzzles: its propagation knows houses and must-differ pairs, \
         not non-consecutive pairs or cages"
    );
}

/// `scan` and `toggle` walk the same tree, so every counter matches on every case, when
/// solving and when counting.
#[test]
fn scan_and_toggle_report_identical_counters() {
    let scan = strategy::find("scan").unwrap();
    let toggle = strategy::find("toggle").unwrap();
    for loaded in selected_cases() {
        for max_solutions in [1, 2, 0] {
            let limits = suite_limits().with_max_solutions(max_solutions);
            let by_scan = scan.search(&loaded.puzzle, &limits, &mut |_| {});
            let by_toggle = toggle.search(&loaded.puzzle, &limits, &mut |_| {});
            assert_eq!(
                by_scan, by_toggle,
                "{} with limit {max_solutions}",
                loaded.id
            );
        }
    }
}

/// A node budget stops a search with `unknown`, never `none`, and within the budget, in every
/// engine that counts nodes; the others ignore it and still answer correctly.
#[test]
fn budgets_give_unknown_never_none() {
    let board_b = case("reference/board-b");
    for strategy in strategy::registry() {
        // Board B needs at least 4 nodes from every engine that counts them (`fast`: exactly 4).
        let limits = Limits::default().with_max_nodes(2);
        let outcome = strategy.count_up_to(&board_b.puzzle, 2, &limits);
        if strategy.counters().contains(&Counter::Nodes) {
            assert_eq!(outcome.verdict(), Verdict::Unknown, "{}", strategy.name());
            assert_eq!(outcome.stopped, Some(strategy::Stop::NodeLimit));
            assert_eq!(
                outcome.stats.get(Counter::Nodes),
                Some(2),
                "{}",
                strategy.name()
            );
        } else {
            assert_eq!(outcome.verdict(), Verdict::Unique, "{}", strategy.name());
            assert_eq!(
                outcome.stats.get(Counter::Nodes),
                None,
                "{}",
                strategy.name()
            );
        }
    }
}

/// Every engine reports exactly the counters it declares.
#[test]
fn engines_report_the_counters_they_declare() {
    let board_a = case("reference/board-a");
    for strategy in strategy::registry() {
        let outcome = strategy.count_up_to(&board_a.puzzle, 2, &Limits::default());
        let reported: Vec<Counter> = outcome.stats.iter().map(|(counter, _)| counter).collect();
        let mut declared = strategy.counters().to_vec();
        declared.sort();
        assert_eq!(reported, declared, "{}", strategy.name());
    }
}

/// An empty 64x64 board with a small node budget returns at once, without exhausting memory,
/// from every engine that takes such a board; the others refuse it with a reason.
#[test]
fn the_largest_board_respects_a_small_budget() {
    let puzzle = Grid::empty(Shape::new(8, 8).unwrap());
    let mut ran = 0;
    for strategy in strategy::registry() {
        if let Err(reason) = strategy.supports(puzzle.shape()) {
            assert_eq!(reason.side, 64, "{}", strategy.name());
            assert!(reason.max_side < 64, "{}", strategy.name());
            assert!(
                reason.to_string().contains("on a 64x64 board"),
                "{}: {reason}",
                strategy.name()
            );
            // Called anyway, it answers at once that it did not search.
            let outcome = strategy.count_up_to(&puzzle, 2, &Limits::default());
            assert_eq!(outcome.stopped, Some(strategy::Stop::Unsupported));
            assert_eq!(outcome.verdict(), Verdict::Unknown);
            continue;
        }
        ran += 1;
        let outcome = strategy.count_up_to(&puzzle, 2, &Limits::default().with_max_nodes(1_000));
        assert_eq!(outcome.verdict(), Verdict::Unknown, "{}", strategy.name());
    }
    let take_every_size = strategy::registry()
        .iter()
        .filter(|strategy| strategy.refusals().max_side.is_none())
        .count();
    assert_eq!(
        ran, take_every_size,
        "the engines that declare no largest side"
    );
    assert!(ran > 0, "some engine takes every size");
}

/// The cancel flag stops a search that would otherwise run for a very long time.
#[test]
fn cancellation_stops_the_search() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let puzzle = Grid::empty(Shape::new(3, 3).unwrap());
    let flag = Arc::new(AtomicBool::new(true));
    let limits = Limits {
        cancel: Some(flag),
        ..Limits::default()
    };
    for strategy in strategy::registry() {
        let outcome = strategy.count_up_to(&puzzle, 0, &limits);
        assert_eq!(
            outcome.stopped,
            Some(strategy::Stop::Cancelled),
            "{}",
            strategy.name()
        );
    }
}

/// Engines that can be traced report one `try` event per placement, one `undo` per backtrack
/// and one `solution` per solution, and the traced search is the same search.
#[test]
fn traced_searches_match_their_counters() {
    use sudolab::strategy::Event;
    let board_b = case("reference/board-b");
    let mut traced = 0;
    for strategy in strategy::registry() {
        let limits = Limits::solutions(2);
        let mut counts = [0u64; 3];
        let mut max_depth = 0;
        let mut observer = |depth: usize, _nodes: u64, event: Event| {
            max_depth = max_depth.max(depth);
            match event {
                Event::Try { .. } => counts[0] += 1,
                Event::Undo { .. } => counts[1] += 1,
                Event::Solution => counts[2] += 1,
                _ => {}
            }
        };
        let observed =
            strategy.search_observed(&board_b.puzzle, &limits, &mut |_| {}, &mut observer);
        assert_eq!(
            observed.is_some(),
            strategy.traceable(),
            "{}: reports events exactly when it says it is traceable",
            strategy.name()
        );
        let Some(outcome) = observed else {
            continue;
        };
        traced += 1;
        assert_eq!(
            outcome,
            strategy.search(&board_b.puzzle, &limits, &mut |_| {})
        );
        assert_eq!(
            counts,
            [
                outcome.stats.get(Counter::Placements).unwrap(),
                outcome.stats.get(Counter::Backtracks).unwrap(),
                outcome.found
            ],
            "{}",
            strategy.name()
        );
        assert!(max_depth > 0);
    }
    assert!(traced > 0, "some engine can be traced");
}
