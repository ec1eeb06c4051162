//! Traces of a search for teaching: every event with its depth and node count, a summary with
//! the shape of the search tree, and renderers (indented text, JSON lines, a step-through page).

/// The step-through page.
pub mod html;

use std::fmt::Write as _;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use crate::model::{Grid, Rules, Shape, cell_name, to_line};
use crate::strategy::{self, Counter, Event, Limits, Stats, Stop, Strategy, Verdict};

/// One event as recorded: where in the tree it happened and how many nodes were visited then.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// Depth in the search tree (0 at the root).
    pub depth: usize,
    /// Nodes visited so far, this one included.
    pub nodes: u64,
    /// What happened.
    #[serde(flatten)]
    pub event: Event,
}

/// A whole trace: the events and what the search found and cost.
#[derive(Clone, Debug, Serialize)]
pub struct Trace {
    /// The strategy traced.
    pub strategy: String,
    /// The puzzle, in line form when it fits.
    pub puzzle: String,
    /// The board side.
    pub side: usize,
    /// Box rows and columns.
    pub box_shape: (usize, usize),
    /// The givens, row-major, 0 for empty.
    pub cells: Vec<u8>,
    /// The events, up to the cut.
    pub events: Vec<Step>,
    /// True when `max_events` cut the trace (the search was stopped there).
    pub cut: bool,
    /// The verdict of the search (`unknown` when it was cut or ran out of budget).
    pub verdict: Verdict,
    /// Solutions found (for a cut trace, those among its events).
    pub solutions: u64,
    /// Why the search stopped early, if it did.
    pub stopped: Option<Stop>,
    /// The engine's counters at the end (`nodes`, `placements`, `backtracks`, ...); for a cut
    /// trace, counted from its events up to the cut.
    pub counters: Stats,
    /// Nodes per depth: the shape of the search tree (from the events).
    pub nodes_per_depth: Vec<u64>,
    /// A variant's rules (`None` for plain Sudoku), for the page to draw its houses and cages.
    #[serde(skip)]
    pub rules: Option<Arc<Rules>>,
}

impl Trace {
    /// The counter, or 0 when the engine does not have it.
    pub fn counter(&self, counter: Counter) -> u64 {
        self.counters.get(counter).unwrap_or(0)
    }

    fn shape(&self) -> Shape {
        // Only a boxless variant's one-row "boxes" (a Latin square of order 9 and up) are
        // wider than `Shape::new` takes.
        Shape::new(self.box_shape.0, self.box_shape.1)
            .unwrap_or_else(|_| Shape::rows_only(self.side))
    }
}

/// The strategies that can be traced, for messages.
pub fn traceable_names() -> Vec<&'static str> {
    strategy::registry()
        .iter()
        .filter(|s| s.traceable())
        .map(|s| s.name())
        .collect()
}

/// Why a trace could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{strategy} cannot be traced: {reason}; the strategies that can: {}",
    traceable_names().join(", ")
)]
pub struct NotTraceable {
    /// The strategy asked for.
    pub strategy: String,
    /// Why that engine reports no events, and what to trace instead.
    pub reason: &'static str,
}

/// Traces `strategy` on `puzzle` up to `solution_limit` solutions (0: all), within `limits`,
/// keeping at most `max_events` events: at the cut the search is stopped (through the cancel
/// flag, which the engines read every 1,024 nodes) and the trace says so.
pub fn record(
    strategy: &dyn Strategy,
    puzzle: &Grid,
    solution_limit: u64,
    limits: &Limits,
    max_events: usize,
) -> Result<Trace, NotTraceable> {
    if !strategy.traceable() {
        return Err(NotTraceable {
            strategy: strategy.name().to_string(),
            reason: strategy.untraceable_reason(),
        });
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let mut limits = limits.clone().with_max_solutions(solution_limit);
    limits.cancel = Some(Arc::clone(&cancel));
    let mut events: Vec<Step> = Vec::new();
    let mut cut = false;
    let mut observer = |depth: usize, nodes: u64, event: Event| {
        if events.len() >= max_events {
            cut = true;
            cancel.store(true, Ordering::Relaxed);
            return;
        }
        events.push(Step {
            depth,
            nodes,
            event,
        });
    };
    let outcome = strategy
        .search_observed(puzzle, &limits, &mut |_| {}, &mut observer)
        .expect("a traceable strategy reports events");
    let mut nodes_per_depth: Vec<u64> = Vec::new();
    for step in &events {
        // A node announces itself once: by choosing a cell or an item, or as a solution.
        if matches!(
            step.event,
            Event::Choose { .. } | Event::ChooseItem { .. } | Event::Solution
        ) {
            if nodes_per_depth.len() <= step.depth {
                nodes_per_depth.resize(step.depth + 1, 0);
            }
            nodes_per_depth[step.depth] += 1;
        }
    }
    // The engine notices the cut only at its next check of the cancel flag, up to 1,024 nodes
    // later: a cut trace's counters and solutions are counted from its events, so that they
    // agree with the last event shown.
    let (counters, solutions) = if cut {
        (
            counted_up_to_the_cut(&outcome.stats, &events),
            count_solutions(&events),
        )
    } else {
        (outcome.stats.clone(), outcome.found)
    };
    let shape = puzzle.shape();
    Ok(Trace {
        strategy: strategy.name().to_string(),
        puzzle: to_line(puzzle).unwrap_or_default(),
        side: shape.side(),
        box_shape: (shape.box_rows(), shape.box_cols()),
        cells: puzzle.cells().to_vec(),
        events,
        cut,
        verdict: if cut {
            Verdict::Unknown
        } else {
            outcome.verdict()
        },
        solutions,
        stopped: outcome.stopped,
        counters,
        nodes_per_depth,
        rules: puzzle.rules().cloned(),
    })
}

/// The counters of a search cut after `events`: nodes from the last event, placements and
/// backtracks from the tries and undos, the matrix or formula sizes as the engine gave them;
/// counters the events cannot give (dancing-links updates) are left out.
fn counted_up_to_the_cut(engine: &Stats, events: &[Step]) -> Stats {
    let count = |f: fn(&Event) -> bool| events.iter().filter(|s| f(&s.event)).count() as u64;
    let from_events = [
        (Counter::Nodes, events.last().map_or(0, |step| step.nodes)),
        (
            Counter::Placements,
            count(|e| matches!(e, Event::Try { .. })),
        ),
        (
            Counter::Backtracks,
            count(|e| matches!(e, Event::Undo { .. })),
        ),
    ];
    let mut counters = Stats::new();
    for (counter, value) in from_events {
        if engine.get(counter).is_some() {
            counters.set(counter, value);
        }
    }
    for counter in [
        Counter::Items,
        Counter::Options,
        Counter::Variables,
        Counter::Clauses,
    ] {
        if let Some(value) = engine.get(counter) {
            counters.set(counter, value);
        }
    }
    counters
}

/// The solutions among `events`.
fn count_solutions(events: &[Step]) -> u64 {
    events
        .iter()
        .filter(|step| matches!(step.event, Event::Solution))
        .count() as u64
}

/// One event in words, cells named `r3c7`.
pub fn describe(shape: Shape, event: &Event) -> String {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    match event {
        Event::Choose { cell, candidates } => format!(
            "choose {} ({candidates} candidate{})",
            cell_name(shape, *cell),
            plural(*candidates)
        ),
        Event::ChooseItem { item, options } => {
            format!("choose item {item} ({options} option{})", plural(*options))
        }
        Event::Cover { item } => format!("cover {item}"),
        Event::Uncover { item } => format!("uncover {item}"),
        Event::Try { cell, value } => format!("try {} = {value}", cell_name(shape, *cell)),
        Event::Undo { cell, value } => format!("undo {} = {value}", cell_name(shape, *cell)),
        Event::DeadEnd => "dead end".to_string(),
        Event::Solution => "solution".to_string(),
    }
}

/// The text form: one event per line, indented by depth, then the summary.
pub fn to_text(trace: &Trace) -> String {
    let mut out = Vec::new();
    write_text(trace, &mut out).expect("writing to memory");
    String::from_utf8(out).expect("the text form is UTF-8")
}

/// Writes the text form to `out` event by event: a deep trace's lines (indented by depth) can
/// be far larger than its events, so they are never held in memory all at once.
pub fn write_text(trace: &Trace, out: &mut dyn io::Write) -> io::Result<()> {
    let shape = trace.shape();
    writeln!(out, "# trace of {} on {}", trace.strategy, trace.puzzle)?;
    for step in &trace.events {
        writeln!(
            out,
            "{:indent$}{}  [depth {}, nodes {}]",
            "",
            describe(shape, &step.event),
            step.depth,
            step.nodes,
            indent = 2 * step.depth
        )?;
    }
    out.write_all(summary(trace).as_bytes())
}

/// The JSON lines form: one event per line (`{"depth":0,"nodes":1,"event":"choose",...}`), then
/// one summary line (`{"event":"summary",...}`).
pub fn to_json_lines(trace: &Trace) -> String {
    let mut out = Vec::new();
    write_json_lines(trace, &mut out).expect("writing to memory");
    String::from_utf8(out).expect("JSON is UTF-8")
}

/// Writes the JSON lines form to `out` event by event, as [`write_text`] does.
pub fn write_json_lines(trace: &Trace, out: &mut dyn io::Write) -> io::Result<()> {
    for step in &trace.events {
        serde_json::to_writer(&mut *out, step)?;
        out.write_all(b"\n")?;
    }
    let summary = serde_json::json!({
        "event": "summary",
        "strategy": trace.strategy,
        "puzzle": trace.puzzle,
        "verdict": trace.verdict,
        "solutions": trace.solutions,
        "stopped": trace.stopped,
        "cut": trace.cut,
        "events": trace.events.len(),
        "counters": trace.counters,
        "nodes_per_depth": trace.nodes_per_depth,
    });
    serde_json::to_writer(&mut *out, &summary)?;
    out.write_all(b"\n")
}

/// The summary that ends every text trace: the outcome, the counters and the tree's shape as a
/// bar chart of nodes per depth.
pub fn summary(trace: &Trace) -> String {
    let mut out = String::new();
    let w = &mut out;
    writeln!(w, "# summary: {} on {}", trace.strategy, trace.puzzle).expect("String write");
    let ending = match (trace.cut, trace.stopped) {
        (true, _) => format!(
            "; CUT after {} events (--max-events): the search was stopped there",
            trace.events.len()
        ),
        (false, Some(stop)) if stop != Stop::SolutionLimit => format!("; stopped: {stop}"),
        _ => String::new(),
    };
    writeln!(
        w,
        "verdict {} ({} solution{} found){ending}",
        trace.verdict,
        trace.solutions,
        if trace.solutions == 1 { "" } else { "s" },
    )
    .expect("String write");
    writeln!(
        w,
        "nodes {}  placements {}  backtracks {}{}",
        trace.counter(Counter::Nodes),
        trace.counter(Counter::Placements),
        trace.counter(Counter::Backtracks),
        if trace.cut {
            "  (counted up to the cut)"
        } else {
            ""
        }
    )
    .expect("String write");
    writeln!(w, "nodes per depth:").expect("String write");
    let widest = trace
        .nodes_per_depth
        .iter()
        .copied()
        .max()
        .unwrap_or(1)
        .max(1);
    for (depth, nodes) in trace.nodes_per_depth.iter().enumerate() {
        let bar = ((*nodes as f64 / widest as f64) * 50.0).ceil() as usize;
        writeln!(w, "{depth:>5} {nodes:>9} {}", "#".repeat(bar)).expect("String write");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board_b() -> Grid {
        "040060020000080000960040087390807041000090000800306002700000009005000300600105004"
            .parse()
            .unwrap()
    }

    #[test]
    fn events_match_the_counters_for_every_traceable_engine() {
        for name in traceable_names() {
            let engine = strategy::find(name).unwrap();
            let trace = record(engine, &board_b(), 2, &Limits::default(), usize::MAX).unwrap();
            let count =
                |f: fn(&Event) -> bool| trace.events.iter().filter(|s| f(&s.event)).count() as u64;
            let tries = count(|e| matches!(e, Event::Try { .. }));
            assert_eq!(tries, trace.counter(Counter::Placements), "{name}");
            let undos = count(|e| matches!(e, Event::Undo { .. }));
            assert_eq!(undos, trace.counter(Counter::Backtracks), "{name}");
            assert_eq!(count(|e| matches!(e, Event::Solution)), 1, "{name}");
            let nodes: u64 = trace.nodes_per_depth.iter().sum();
            assert_eq!(nodes, trace.counter(Counter::Nodes), "{name}");
            assert_eq!(trace.verdict, Verdict::Unique);
            if name == "dlx-knuth" {
                let covers = count(|e| matches!(e, Event::Cover { .. }));
                let uncovers = count(|e| matches!(e, Event::Uncover { .. }));
                let chosen = count(|e| matches!(e, Event::ChooseItem { .. }));
                let dead = count(|e| matches!(e, Event::DeadEnd));
                assert_eq!((covers, uncovers), (chosen - dead, chosen - dead));
            }
        }
    }

    #[test]
    fn untraceable_engines_are_refused_with_the_list() {
        let sat = strategy::find("sat").unwrap();
        let err = record(sat, &board_b(), 2, &Limits::default(), 10).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "sat cannot be traced: its search runs inside the varisat crate, which reports \
                 no events; the strategies that can: {}",
                traceable_names().join(", ")
            )
        );
        // Derived from the registry: dlx-knuth reports events, sat does not.
        assert!(traceable_names().contains(&"dlx-knuth"));
        assert!(!traceable_names().contains(&"sat"));
        // Every engine that cannot be traced has its own reason.
        for engine in strategy::registry().iter().filter(|s| !s.traceable()) {
            let err = record(*engine, &board_b(), 2, &Limits::default(), 10).unwrap_err();
            assert_ne!(
                err.reason,
                "its search reports no events",
                "{}",
                engine.name()
            );
        }
    }

    #[test]
    fn a_cut_trace_says_so_and_still_summarises() {
        let toggle = strategy::find("toggle").unwrap();
        let trace = record(toggle, &board_b(), 2, &Limits::default(), 100).unwrap();
        assert!(trace.cut);
        assert_eq!(trace.events.len(), 100);
        assert_eq!(trace.verdict, Verdict::Unknown);
        // Counted up to the cut, not up to the moment the engine noticed it.
        let last = trace.events.last().unwrap();
        assert_eq!(trace.counter(Counter::Nodes), last.nodes);
        let tries = trace
            .events
            .iter()
            .filter(|s| matches!(s.event, Event::Try { .. }))
            .count() as u64;
        assert_eq!(trace.counter(Counter::Placements), tries);
        let text = to_text(&trace);
        assert!(
            text.contains("; CUT after 100 events (--max-events)"),
            "{text}"
        );
        assert!(
            text.starts_with(
                "# trace of toggle on \
             .4..6..2.....8....96..4..8739.8.7.41....9....8..3.6..27.......9..5...3..6..1.5..4\n\
             choose r1c1 (2 candidates)  [depth 0, nodes 1]\n\
             try r1c1 = 1  [depth 0, nodes 1]\n\
             \x20 choose r1c3 (3 candidates)  [depth 1, nodes 2]\n\
             \x20 try r1c3 = 3  [depth 1, nodes 2]\n"
            ),
            "{text}"
        );
    }
}
