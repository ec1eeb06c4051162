//! The data-driven suite: every case of `corpora/cases/*.toml` against every registered
//! strategy. Cases are named `file/name`; set `SUDOLAB_CASE=substring` to run only matching
//! ones. Every failure is collected (panics included) and reported at once.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use std::sync::Arc;

use sudolab::model::{Features, Grid, Rules, RulesSpec, Shape, parse_line_record, validate};
use sudolab::strategy::{self, Counter, Limits, Outcome, Strategy, Verdict};

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

/// Runs every selected case on every registered strategy that supports its shape.
#[test]
fn every_strategy_passes_every_case() {
    let cases = selected_cases();
    let mut failures = Vec::new();
    let mut runs: BTreeMap<&str, usize> = BTreeMap::new();
    for strategy in strategy::registry() {
        for loaded in &cases {
            if let Err(reason) = strategy.accepts(&loaded.puzzle) {
                eprintln!("skip {} on {}: {reason}", loaded.id, strategy.name());
                continue;
            }
            *runs.entry(strategy.name()).or_default() += 1;
            match catch_unwind(AssertUnwindSafe(|| check_case(*strategy, loaded))) {
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
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The guard: no registered strategy may be left out of the suite.
    for strategy in strategy::registry() {
        assert!(
            runs.get(strategy.name()).copied().unwrap_or(0) > 0 || cases.is_empty(),
            "strategy {} ran no case",
            strategy.name()
        );
    }
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
    // Engines whose crate cannot be interrupted refuse sides where one call can run for
    // minutes (dlx and sat-minimal above 16); every other engine runs every case.
    let refuse_above_16 = ["dlx", "sat-minimal"];
    for strategy in strategy::registry() {
        for loaded in &cases {
            let supported = strategy.supports(loaded.puzzle.shape());
            if loaded.puzzle.side() > 16 && refuse_above_16.contains(&strategy.name()) {
                assert!(supported.is_err(), "{} on {}", strategy.name(), loaded.id);
            } else {
                assert_eq!(
                    supported,
                    Ok(()),
                    "{} does not support {}",
                    strategy.name(),
                    loaded.id
                );
            }
        }
    }
}

/// Every engine takes exactly the variants it can express: the backtrackers and SAT every rule,
/// `fast` houses and must-differ pairs, the exact-cover engines houses and pairs (as secondary
/// items) but not cages; a refusal says why. The variant cases cover all three kinds.
#[test]
fn engines_take_the_variants_they_can_express() {
    let cases = all_cases();
    // Kinds: with cages; pairs but no cages (non-consecutive pairs, or must-differ ones);
    // houses only.
    let mut kinds = [false; 3];
    for loaded in &cases {
        let Some(rules) = loaded.puzzle.rules() else {
            continue;
        };
        let no_cages = rules.cages().is_empty();
        let houses_only = rules.is_house_based() && rules.different_pairs().is_empty();
        kinds[usize::from(no_cages) + usize::from(houses_only)] = true;
        for strategy in strategy::registry() {
            let expected = match strategy.name() {
                "fast" => rules.is_house_based(),
                "dlx" | "dlx-knuth" => no_cages,
                _ => true,
            };
            assert_eq!(
                strategy.accepts(&loaded.puzzle).is_ok(),
                expected,
                "{} on {}",
                strategy.name(),
                loaded.id
            );
        }
    }
    assert_eq!(kinds, [true; 3], "cases of every kind of variant");
    let killer = case("variants/killer-unique");
    assert_eq!(
        strategy::find("dlx-knuth")
            .unwrap()
            .accepts(&killer.puzzle)
            .unwrap_err()
            .to_string(),
        "dlx-knuth does not take killer puzzles: exact cover takes houses and pairs of cells, not \
         the sum of a cage (sat, scan, toggle and mrv take every rule)"
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
    assert!(ran >= 4, "scan, toggle, mrv and dlx-knuth take every size");
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
        let Some(outcome) =
            strategy.search_observed(&board_b.puzzle, &limits, &mut |_| {}, &mut observer)
        else {
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
    assert_eq!(traced, 4, "scan, toggle, mrv and dlx-knuth can be traced");
}
