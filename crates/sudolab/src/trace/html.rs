//! The step-through page: one self-contained HTML file (inline CSS and JavaScript, nothing
//! fetched) that replays one or more traces of the same puzzle side by side.
//!
//! The page draws each board with its candidates, highlights the chosen cell (or the row,
//! column, box or cell of the chosen exact-cover item), shows depth and counters, steps forward
//! and back (also with the arrow keys, Home and End), plays at a chosen speed, jumps to the next
//! backtrack or solution, shows the first solution at the end (a uniqueness search has undone
//! its moves by then), and draws the nodes per depth of every strategy under the boards, on a
//! labelled axis (linear, or log on request). `#step=N` in the address steps N times on load
//! (`#step=end` to the end), and `keys=ArrowRight,Home,...` after it presses those keys: the
//! browser test uses both.
//!
//! With a human path ([`render_with_path`]), a panel "how a person solves it" stands beside the
//! searches: the path of easiest steps as a list, each step clickable, and a board showing the
//! candidates before the chosen step with its pattern cells, placements and eliminations
//! marked (`#human=N` in the address selects step N on load, `#human=end` the end).
//!
//! The page's HTML, style sheet and script are `page.html`, `page.css` and `page.js` beside this
//! file, put together (with the data and the table of event codes) by [`render_with_path`].

use serde_json::{Value, json};

use super::{Trace, describe};
use crate::human::{self, format_tenths};
use crate::model::{RegionKind, Rules, Shape};
use crate::strategy::{Counter, Event};

/// The board's geometry as the page draws it and pencils candidates by it: every house under
/// the letter of its exact-cover items (`r`, `c`, `b`; a variant's `j`, `d`, `w`), each cell's
/// box or jigsaw region (the thick lines; none in a Latin square), and a variant's
/// must-differ pairs, non-consecutive pairs and cages.
fn geometry(trace: &Trace) -> Value {
    let side = trace.side;
    let plain;
    let rules: &Rules = if let Some(rules) = &trace.rules {
        rules
    } else {
        plain = Rules::plain(trace.shape());
        &plain
    };
    let mut houses = serde_json::Map::new();
    let mut region = vec![Value::Null; side * side];
    for house in rules.houses() {
        let (kind, index) = (house.kind, house.index);
        if matches!(kind, RegionKind::Box | RegionKind::Jigsaw) {
            for &cell in &house.cells {
                region[cell as usize] = json!(index);
            }
        }
        let list = houses
            .entry(kind.letter().to_string())
            .or_insert_with(|| Value::Array(Vec::new()))
            .as_array_mut()
            .expect("the houses of a kind are a list");
        if list.len() <= index {
            list.resize(index + 1, Value::Null);
        }
        list[index] = json!(house.cells);
    }
    let mut data = json!({"houses": houses, "region": region});
    if let Some(rules) = &trace.rules {
        let cages: Vec<Value> = rules
            .cages()
            .iter()
            .map(|cage| json!({"sum": cage.sum, "cells": cage.cells}))
            .collect();
        data["rules"] = json!(rules.name());
        data["different"] = json!(rules.different_pairs());
        data["nonconsecutive"] = json!(rules.nonconsecutive_pairs());
        data["cages"] = json!(cages);
    }
    data
}

/// The page's event codes: the first field of each event in the page's compact form
/// `[code, depth, nodes, a, b]`. The page's script reads them by name (`EVENT.try`), from the
/// table [`render_with_path`] writes into the page, so the script and [`compact`] cannot
/// disagree on a code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Code {
    Choose,
    ChooseItem,
    Cover,
    Uncover,
    Try,
    Undo,
    DeadEnd,
    Solution,
}

impl Code {
    const ALL: [Code; 8] = [
        Code::Choose,
        Code::ChooseItem,
        Code::Cover,
        Code::Uncover,
        Code::Try,
        Code::Undo,
        Code::DeadEnd,
        Code::Solution,
    ];

    /// The name the script reads the code by: the event's name in the JSON lines form.
    const fn name(self) -> &'static str {
        match self {
            Code::Choose => "choose",
            Code::ChooseItem => "choose_item",
            Code::Cover => "cover",
            Code::Uncover => "uncover",
            Code::Try => "try",
            Code::Undo => "undo",
            Code::DeadEnd => "dead_end",
            Code::Solution => "solution",
        }
    }
}

/// The table of codes the page's script reads: `{"choose":0,"choose_item":1,...}`.
fn event_codes() -> Value {
    Value::Object(
        Code::ALL
            .iter()
            .map(|&code| (code.name().to_string(), json!(code as u8)))
            .collect(),
    )
}

/// An event in the page's compact form: its code and its two fields `a` and `b` (a cell and a
/// count or value, or an item's index in `items`).
fn compact(event: &Event, items: &mut Vec<String>) -> (Code, u64, u64) {
    let mut item_index = |name: &String| {
        let index = items.iter().position(|i| i == name).unwrap_or_else(|| {
            items.push(name.clone());
            items.len() - 1
        });
        index as u64
    };
    match event {
        Event::Choose { cell, candidates } => (Code::Choose, *cell as u64, *candidates as u64),
        Event::ChooseItem { item, options } => {
            (Code::ChooseItem, item_index(item), *options as u64)
        }
        Event::Cover { item } => (Code::Cover, item_index(item), 0),
        Event::Uncover { item } => (Code::Uncover, item_index(item), 0),
        Event::Try { cell, value } => (Code::Try, *cell as u64, u64::from(*value)),
        Event::Undo { cell, value } => (Code::Undo, *cell as u64, u64::from(*value)),
        Event::DeadEnd => (Code::DeadEnd, 0, 0),
        Event::Solution => (Code::Solution, 0, 0),
    }
}

fn trace_data(trace: &Trace) -> Value {
    let mut items = Vec::new();
    let shape = trace.shape();
    let events: Vec<Value> = trace
        .events
        .iter()
        .map(|step| {
            let (code, a, b) = compact(&step.event, &mut items);
            json!([code as u8, step.depth, step.nodes, a, b])
        })
        .collect();
    let words: Vec<String> = trace
        .events
        .iter()
        .map(|step| describe(shape, &step.event))
        .collect();
    json!({
        "strategy": trace.strategy,
        "events": events,
        "words": words,
        "items": items,
        "cut": trace.cut,
        "verdict": trace.verdict,
        "solutions": trace.solutions,
        "nodes": trace.counter(Counter::Nodes),
        "placements": trace.counter(Counter::Placements),
        "backtracks": trace.counter(Counter::Backtracks),
        "nodesPerDepth": trace.nodes_per_depth,
    })
}

/// The path of easiest steps as the page replays it: per step its words, pattern cells,
/// placements and eliminations as `[cell, digit]`.
fn path_data(shape: Shape, path: &human::Path) -> Value {
    let pairs = |pairs: &[(usize, u8)]| -> Vec<Value> {
        pairs
            .iter()
            .map(|&(cell, digit)| json!([cell, digit]))
            .collect()
    };
    let steps: Vec<Value> = path
        .steps
        .iter()
        .map(|step| {
            json!({
                "name": step.technique.name(),
                "difficulty": format_tenths(step.difficulty),
                "effect": step.effect(shape),
                "reason": step.reason,
                "cells": step.cells,
                "place": pairs(&step.placements),
                "remove": pairs(&step.eliminations),
            })
        })
        .collect();
    json!({
        "solved": path.solved,
        "rating": format_tenths(path.difficulty()),
        "hardest": path.hardest().map(human::Technique::name),
        "steps": steps,
    })
}

/// Renders the page for traces of one puzzle (one or more strategies).
pub fn render(traces: &[Trace]) -> String {
    render_with_path(traces, None)
}

/// Renders the page for traces of one puzzle, with the path of easiest steps of the same
/// puzzle beside them when `path` is given.
pub fn render_with_path(traces: &[Trace], path: Option<&human::Path>) -> String {
    let first = &traces[0];
    let shape = first.shape();
    let mut data = json!({
        "puzzle": first.puzzle,
        "side": first.side,
        "givens": first.cells,
        "geometry": geometry(first),
        "traces": traces.iter().map(trace_data).collect::<Vec<_>>(),
    });
    if let Some(path) = path {
        data["human"] = path_data(shape, path);
    }
    // JSON inside a script element: "</" must not close it.
    let data = data.to_string().replace("</", "<\\/");
    let title = traces
        .iter()
        .map(|t| t.strategy.as_str())
        .collect::<Vec<_>>()
        .join(" vs ");
    fill(
        PAGE,
        &[
            ("TITLE", &title),
            ("CSS", PAGE_CSS.trim_end()),
            ("SCRIPT", PAGE_SCRIPT.trim_end()),
            ("DATA", &data),
            ("EVENT_CODES", &event_codes().to_string()),
        ],
    )
}

/// The page: its HTML with `{{NAME}}` placeholders, its style sheet and its script, each kept
/// in its own file beside this one.
const PAGE: &str = include_str!("page.html");
const PAGE_CSS: &str = include_str!("page.css");
const PAGE_SCRIPT: &str = include_str!("page.js");

/// `template` with each `{{NAME}}` replaced by the value of `NAME` in `values`, in one pass: a
/// value is never searched for placeholders itself.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(
        template.len() + values.iter().map(|(_, value)| value.len()).sum::<usize>(),
    );
    let mut rest = template;
    while let Some(open) = rest.find("{{") {
        let close = open
            + rest[open..]
                .find("}}")
                .expect("every placeholder of the page is closed");
        let name = &rest[open + 2..close];
        let Some((_, value)) = values.iter().find(|(key, _)| *key == name) else {
            panic!("the page's placeholder {{{{{name}}}}} has no value");
        };
        out.push_str(&rest[..open]);
        out.push_str(value);
        rest = &rest[close + 2..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_codes_are_named_as_the_json_lines_name_the_events() {
        let events = [
            Event::Choose {
                cell: 3,
                candidates: 2,
            },
            Event::ChooseItem {
                item: "r1.2".to_string(),
                options: 2,
            },
            Event::Cover {
                item: "r1.2".to_string(),
            },
            Event::Uncover {
                item: "r1.2".to_string(),
            },
            Event::Try { cell: 3, value: 4 },
            Event::Undo { cell: 3, value: 4 },
            Event::DeadEnd,
            Event::Solution,
        ];
        let mut items = Vec::new();
        let codes: Vec<Code> = events
            .iter()
            .map(|event| {
                let (code, _, _) = compact(event, &mut items);
                let json = serde_json::to_value(event).expect("an event serializes");
                assert_eq!(json["event"], code.name(), "{event:?}");
                code
            })
            .collect();
        assert_eq!(codes, Code::ALL);
        // The codes the page has always used (0 to 7, in this order).
        let table = event_codes();
        for (number, code) in Code::ALL.iter().enumerate() {
            assert_eq!(table[code.name()], json!(number), "{code:?}");
        }
    }

    #[test]
    fn the_script_uses_only_codes_from_the_table() {
        let table = event_codes();
        let mut used = 0;
        for (at, _) in PAGE_SCRIPT.match_indices("EVENT.") {
            let name: String = PAGE_SCRIPT[at + "EVENT.".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            assert!(
                table.get(&name).is_some(),
                "EVENT.{name} is not in the table"
            );
            used += 1;
        }
        assert!(used > 0);
        // No bare code compared with an event's first field.
        for bare in ["[0] === ", "[0] >= ", "[0] <= ", "runUntil("] {
            for (at, _) in PAGE_SCRIPT.match_indices(bare) {
                let next = PAGE_SCRIPT[at + bare.len()..].chars().next();
                assert!(
                    !next.is_some_and(|c| c.is_ascii_digit()),
                    "a bare event code after {bare:?}"
                );
            }
        }
    }

    #[test]
    fn the_page_is_filled_in_once() {
        assert_eq!(
            fill("<{{A}}|{{B}}|{{A}}>", &[("A", "{{B}}"), ("B", "b")]),
            "<{{B}}|b|{{B}}>"
        );
        // Every placeholder of the page has a value.
        let page = fill(
            PAGE,
            &[
                ("TITLE", "t"),
                ("CSS", ""),
                ("SCRIPT", ""),
                ("DATA", "{}"),
                ("EVENT_CODES", "{}"),
            ],
        );
        assert!(!page.contains("{{"), "{page}");
    }
}
