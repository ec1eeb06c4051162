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

/// Event kinds in the page's compact form `[kind, depth, nodes, a, b]`.
fn compact(event: &Event, items: &mut Vec<String>) -> (u8, u64, u64) {
    let mut item_index = |name: &String| {
        let index = items.iter().position(|i| i == name).unwrap_or_else(|| {
            items.push(name.clone());
            items.len() - 1
        });
        index as u64
    };
    match event {
        Event::Choose { cell, candidates } => (0, *cell as u64, *candidates as u64),
        Event::ChooseItem { item, options } => (1, item_index(item), *options as u64),
        Event::Cover { item } => (2, item_index(item), 0),
        Event::Uncover { item } => (3, item_index(item), 0),
        Event::Try { cell, value } => (4, *cell as u64, u64::from(*value)),
        Event::Undo { cell, value } => (5, *cell as u64, u64::from(*value)),
        Event::DeadEnd => (6, 0, 0),
        Event::Solution => (7, 0, 0),
    }
}

fn trace_data(trace: &Trace) -> Value {
    let mut items = Vec::new();
    let shape = trace.shape();
    let events: Vec<Value> = trace
        .events
        .iter()
        .map(|step| {
            let (kind, a, b) = compact(&step.event, &mut items);
            json!([kind, step.depth, step.nodes, a, b])
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
    PAGE.replace("{{TITLE}}", &title).replace("{{DATA}}", &data)
}

const PAGE: &str = r##"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>sudolab trace: {{TITLE}}</title>
<style>
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.3em;margin:0 0 .5em}
#controls{margin:.5em 0 1em;display:flex;gap:.4em;align-items:center;flex-wrap:wrap}
button{font-size:14px;padding:3px 9px}
#panels{display:flex;gap:2em;flex-wrap:wrap;align-items:flex-start}
.panel h2{font-size:1.1em;margin:.2em 0}
.board-wrap{position:relative;display:inline-block}
svg.cages{position:absolute;pointer-events:none}
.cage-sum{fill:#333;stroke:#fff;stroke-width:2px;paint-order:stroke}
#rules-note{font-size:14px;margin:0 0 .8em;max-width:60em}
table.board{border-collapse:collapse;margin:.3em 0;table-layout:fixed}
table.board td{border:1px solid #bbb;text-align:center;vertical-align:middle;padding:0;
  font-size:20px;position:relative}
table.board td.given{font-weight:bold;color:#000}
table.board td.placed{color:#1565c0}
table.board td.window{background:#ececec}
table.board td.diagonal{background:#e1f0fb}
table.board td.hi{background:#ffe082}
table.board td.house{background:#fff8e1}
table.board td.now{outline:3px solid #e65100;outline-offset:-3px}
td .cand{font-size:9px;color:#888;line-height:1.05;display:block;letter-spacing:1px;
  word-break:break-all;overflow:hidden}
.info{font-family:ui-monospace,monospace;font-size:13px;white-space:pre;margin:.3em 0;
  min-height:4.2em}
.solution-note{font-size:13px;color:#2e7d32;margin:.2em 0;min-height:1.2em;max-width:32em}
.done{color:#2e7d32;font-weight:bold}.cut{color:#b00;font-weight:bold}
#chart{margin-top:1.5em;max-width:100%}
#chart svg{max-width:100%;height:auto}
#chart-legend{display:flex;gap:1.2em;flex-wrap:wrap;font-size:13px;margin:.3em 0}
#chart-legend span.swatch{display:inline-block;width:12px;height:12px;margin-right:4px;
  vertical-align:-1px}
#chart-head{display:flex;gap:1.5em;align-items:baseline;flex-wrap:wrap}
#chart-head h2{font-size:1.1em;margin:0}
.human{max-width:34em}
table.board td.pattern{background:#e3f2fd}
table.board td.put{background:#c8e6c9}
table.board td.lose{background:#ffebee}
td .cand b{color:#2e7d32}td .cand s{color:#c62828}
#human-steps{max-height:22em;overflow-y:auto;font-size:13px;margin:.3em 0;padding-left:2.8em}
#human-steps li{cursor:pointer;padding:1px 3px}
#human-steps li:hover{background:#f1f1f1}
#human-steps li.chosen{background:#ffe082}
#human-step{font-size:13px;margin:.3em 0;min-height:3.2em;white-space:pre-line}
</style></head><body>
<h1>sudolab trace: {{TITLE}}</h1>
<div id="controls">
<button id="start" title="back to the start">&laquo; start</button>
<button id="back" title="one step back">&#x25C0; back</button>
<button id="forward" title="one step forward">forward &#x25B6;</button>
<button id="play">play</button>
<label>speed <select id="speed">
<option value="1">1 step/s</option><option value="5" selected>5 steps/s</option>
<option value="20">20 steps/s</option><option value="100">100 steps/s</option>
<option value="1000">1000 steps/s</option></select></label>
<button id="nextBacktrack" title="run to the next undo">next backtrack</button>
<button id="nextSolution" title="run to the next solution">next solution</button>
<button id="end" title="to the end">end &raquo;</button>
<span id="step"></span>
<span id="keys-help" style="font-size:12px;color:#666">keys: &larr; &rarr; step, Home, End</span>
</div>
<div id="panels"></div>
<div id="chart-head"><h2>Nodes per depth</h2>
<label><input type="checkbox" id="log-scale"> log scale</label></div>
<div id="chart-legend"></div>
<div id="chart"></div>
<script type="application/json" id="data">{{DATA}}</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("data").textContent);
const n = data.side, g = data.geometry;
const symbols = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const sym = v => v <= 9 ? String(v) : (n <= 35 ? symbols[v - 1] : String(v));
// The rules as the page uses them: each cell's peers (the cells of its houses and cages and its
// must-differ partners), its non-consecutive neighbours, its cage, and the extra houses shaded.
const peerLists = Array.from({length: n * n}, () => new Set());
const linkAll = cells => { for (const a of cells) for (const b of cells) if (a !== b) peerLists[a].add(b); };
for (const list of Object.values(g.houses)) for (const house of list) linkAll(house);
for (const [a, b] of g.different || []) { peerLists[a].add(b); peerLists[b].add(a); }
const neighbours = Array.from({length: n * n}, () => []);
for (const [a, b] of g.nonconsecutive || []) { neighbours[a].push(b); neighbours[b].push(a); }
const cageOf = new Array(n * n).fill(null);
for (const cage of g.cages || []) { linkAll(cage.cells); for (const c of cage.cells) cageOf[c] = cage; }
const shade = Array.from({length: n * n}, () => []);
for (const house of g.houses.w || []) for (const c of house) shade[c].push("window");
for (const house of g.houses.d || []) for (const c of house) shade[c].push("diagonal");
if (g.rules) {
  const parts = [];
  if (g.houses.j) parts.push("jigsaw regions inside the thick lines");
  if (!g.houses.b && !g.houses.j) parts.push("no boxes");
  if (g.houses.d) parts.push("diagonals shaded blue");
  if (g.houses.w) parts.push("windows shaded grey");
  if ((g.cages || []).length) parts.push("cages dashed, each sum in its first cell");
  if ((g.different || []).length) parts.push((g.different.length) + " must-differ pairs");
  if ((g.nonconsecutive || []).length) parts.push("orthogonal neighbours never consecutive");
  const note = document.createElement("div");
  note.id = "rules-note";
  note.textContent = "variant " + g.rules + ": " + parts.join("; ") +
    ". Candidates follow every rule.";
  document.getElementById("panels").before(note);
}
// A board: thick lines around boxes or jigsaw regions, cells with ids prefix + cell.
function boardTable(id, prefix) {
  const table = document.createElement("table");
  table.className = "board";
  table.id = id;
  const cells = [];
  const size = Math.max(22, Math.min(44, Math.floor(400 / n)));
  const thick = "2px solid #333", region = g.region;
  const apart = (a, b) => region[a] !== null && region[a] !== region[b];
  for (let r = 0; r < n; r++) {
    const tr = document.createElement("tr");
    for (let c = 0; c < n; c++) {
      const i = r * n + c, td = document.createElement("td");
      td.id = prefix + i;
      td.style.width = td.style.height = size + "px";
      if (r === 0 || apart(i, i - n)) td.style.borderTop = thick;
      if (c === 0 || apart(i, i - 1)) td.style.borderLeft = thick;
      if (r === n - 1) td.style.borderBottom = thick;
      if (c === n - 1) td.style.borderRight = thick;
      tr.appendChild(td);
      cells.push(td);
    }
    table.appendChild(tr);
  }
  const wrap = document.createElement("div");
  wrap.className = "board-wrap";
  wrap.appendChild(table);
  return {wrap, table, cells};
}
// The cages, once the board is laid out: a dashed line just inside each cage's edge, and the
// sum in the corner of its first cell, on a layer over the table.
function drawCages(board, id) {
  if (!(g.cages || []).length) return;
  const ns = "http://www.w3.org/2000/svg", inset = 4, t = board.table;
  const svg = document.createElementNS(ns, "svg");
  svg.id = id;
  svg.setAttribute("class", "cages");
  svg.setAttribute("width", t.offsetWidth);
  svg.setAttribute("height", t.offsetHeight);
  svg.style.left = t.offsetLeft + "px";
  svg.style.top = t.offsetTop + "px";
  const add = (name, attrs, text) => {
    const e = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.appendChild(e);
  };
  for (const cage of g.cages) {
    const inCage = new Set(cage.cells);
    for (const cell of cage.cells) {
      const td = board.cells[cell], r = Math.floor(cell / n), c = cell % n;
      const x0 = td.offsetLeft, y0 = td.offsetTop, x1 = x0 + td.offsetWidth, y1 = y0 + td.offsetHeight;
      const up = r === 0 || !inCage.has(cell - n), down = r === n - 1 || !inCage.has(cell + n);
      const left = c === 0 || !inCage.has(cell - 1), right = c === n - 1 || !inCage.has(cell + 1);
      const l = left ? x0 + inset : x0, rt = right ? x1 - inset : x1;
      const tp = up ? y0 + inset : y0, bt = down ? y1 - inset : y1;
      const edge = (xa, ya, xb, yb) => add("line", {x1: xa, y1: ya, x2: xb, y2: yb,
        stroke: "#555", "stroke-width": 1, "stroke-dasharray": "3 2"});
      if (up) edge(l, tp, rt, tp);
      if (down) edge(l, bt, rt, bt);
      if (left) edge(l, tp, l, bt);
      if (right) edge(rt, tp, rt, bt);
    }
    if (cage.sum !== null) {
      const td = board.cells[cage.cells[0]];
      add("text", {x: td.offsetLeft + inset + 1, y: td.offsetTop + inset + 8, "font-size": 9,
        class: "cage-sum"}, String(cage.sum));
    }
  }
  board.wrap.appendChild(svg);
}
const panels = data.traces.map((t, k) => {
  const div = document.createElement("div");
  div.className = "panel";
  const title = document.createElement("h2");
  title.textContent = (data.human ? "How backtracking does it: " : "") + t.strategy + " (" +
    t.nodes + " nodes, " + t.events.length + " events)";
  div.appendChild(title);
  const board = boardTable("board-" + k, "cell-" + k + "-");
  const cells = board.cells;
  div.appendChild(board.wrap);
  const info = document.createElement("div");
  info.className = "info";
  info.id = "counters-" + k;
  div.appendChild(info);
  const note = document.createElement("div");
  note.className = "solution-note";
  note.id = "solution-note-" + k;
  div.appendChild(note);
  document.getElementById("panels").appendChild(div);
  drawCages(board, "cages-" + k);
  // solutions: the board at each solution event applied so far (a stack, for stepping back).
  return {t, cells, info, note, board: data.givens.slice(), solutions: [], applied: 0,
    placements: 0, backtracks: 0};
});
const longest = Math.max(...data.traces.map(t => t.events.length));

// How a person solves it: the path of easiest steps, beside the searches. The board shows the
// candidates before the chosen step (each step's eliminations carried over from the earlier
// ones), its pattern cells, its placements (green) and its eliminations (struck, red).
function peersOf(cell) { return [...peerLists[cell]]; }
const human = data.human ? (() => {
  const h = data.human;
  const div = document.createElement("div");
  div.className = "panel human";
  div.id = "human";
  const title = document.createElement("h2");
  title.textContent = "How a person solves it: " + h.steps.length + " steps, " +
    (h.solved ? "rating " + h.rating + (h.hardest ? " (" + h.hardest + ")" : "")
      : "stopped: no technique the solver knows applies (hardest so far " + h.rating + ")");
  div.appendChild(title);
  const board = boardTable("human-board", "human-cell-");
  const cells = board.cells;
  div.appendChild(board.wrap);
  const nav = document.createElement("div");
  nav.innerHTML = '<button id="human-back">&#x25C0; step</button> ' +
    '<button id="human-forward">step &#x25B6;</button> <span id="human-at"></span>';
  div.appendChild(nav);
  const words = document.createElement("div");
  words.id = "human-step";
  div.appendChild(words);
  const list = document.createElement("ol");
  list.id = "human-steps";
  h.steps.forEach((s, k) => {
    const li = document.createElement("li");
    li.textContent = s.difficulty + " " + s.name + ": " + s.effect;
    li.onclick = () => showHuman(k);
    list.appendChild(li);
  });
  div.appendChild(list);
  document.getElementById("panels").appendChild(div);
  return {h, cells, words, list, chosen: 0};
})() : null;
// The board before step k (k = the number of steps: the end): values and candidate sets.
function humanBoard(k) {
  const values = data.givens.slice();
  const cands = values.map((v, i) => v ? new Set() : new Set(candidateDigits(values, i)));
  for (const s of human.h.steps.slice(0, k)) {
    for (const [cell, d] of s.place) {
      values[cell] = d;
      cands[cell] = new Set();
      for (const p of peersOf(cell)) cands[p].delete(d);
    }
    for (const [cell, d] of s.remove) cands[cell].delete(d);
  }
  return {values, cands};
}
function showHuman(k) {
  const steps = human.h.steps;
  human.chosen = Math.max(0, Math.min(k, steps.length));
  const at = human.chosen, s = at < steps.length ? steps[at] : null;
  const {values, cands} = humanBoard(at);
  const put = new Map(s ? s.place.map(([c, d]) => [c, d]) : []);
  const lose = new Map();
  if (s) for (const [c, d] of s.remove) { if (!lose.has(c)) lose.set(c, []); lose.get(c).push(d); }
  human.cells.forEach((td, i) => {
    const v = values[i];
    td.className = data.givens[i] ? "given" : (v ? "placed" : "");
    if (shade[i].length) td.classList.add(...shade[i]);
    if (s && s.cells.includes(i)) td.classList.add("pattern");
    if (put.has(i)) td.classList.add("put");
    if (lose.has(i)) td.classList.add("lose");
    td.title = lose.has(i) ? "removed: " + lose.get(i).map(sym).join(", ") : "";
    if (v) { td.textContent = sym(v); return; }
    if (n > 9) { td.textContent = put.has(i) ? sym(put.get(i)) : ""; return; }
    const shown = [...cands[i]].sort((a, b) => a - b).map(d =>
      put.get(i) === d ? "<b>" + sym(d) + "</b>"
        : (lose.get(i) || []).includes(d) ? "<s>" + sym(d) + "</s>" : sym(d));
    td.innerHTML = '<span class="cand">' + shown.join("") + "</span>";
  });
  [...human.list.children].forEach((li, j) => li.className = j === at ? "chosen" : "");
  if (s) human.list.children[at].scrollIntoView({block: "nearest"});
  document.getElementById("human-at").textContent = s
    ? "step " + (at + 1) + " of " + steps.length : "the end (" + steps.length + " steps)";
  human.words.textContent = s
    ? s.difficulty + " " + s.name + ": " + s.effect + "\n" + s.reason
    : (human.h.solved ? "solved" : "stopped: no technique the solver knows applies");
}
if (human) {
  document.getElementById("human-back").onclick = () => showHuman(human.chosen - 1);
  document.getElementById("human-forward").onclick = () => showHuman(human.chosen + 1);
}
let step = 0, timer = null;

function apply(p, i) {
  const e = p.t.events[i];
  if (e[0] === 4) { p.board[e[3]] = e[4]; p.placements++; }
  if (e[0] === 5) { p.board[e[3]] = 0; p.backtracks++; }
  if (e[0] === 7) p.solutions.push(p.board.slice());
}
function unapply(p, i) {
  const e = p.t.events[i];
  if (e[0] === 4) { p.board[e[3]] = 0; p.placements--; }
  if (e[0] === 5) { p.board[e[3]] = e[4]; p.backtracks--; }
  if (e[0] === 7) p.solutions.pop();
}
function forward() {
  if (step >= longest) return false;
  for (const p of panels) if (p.applied < p.t.events.length && p.applied === step) { apply(p, step); p.applied++; }
  step++;
  return true;
}
function back() {
  if (step === 0) return;
  step--;
  for (const p of panels) if (p.applied > step) { p.applied--; unapply(p, step); }
}
// The digits every rule still allows in an empty cell: none of a peer's, none next to a
// non-consecutive neighbour's, and none that leaves its cage's sum out of reach of the smallest
// and largest sums its other empty cells can make.
function candidateDigits(board, cell) {
  const used = new Set();
  for (const p of peerLists[cell]) used.add(board[p]);
  for (const p of neighbours[cell]) if (board[p]) { used.add(board[p] - 1); used.add(board[p] + 1); }
  const cage = cageOf[cell];
  let found = 0, others = -1;
  if (cage) for (const c of cage.cells) { if (board[c]) found += board[c]; else others++; }
  const low = others * (others + 1) / 2, high = others * (2 * n + 1 - others) / 2;
  const out = [];
  for (let v = 1; v <= n; v++) {
    if (used.has(v)) continue;
    if (cage && cage.sum !== null && (found + v + low > cage.sum || found + v + high < cage.sum)) continue;
    out.push(v);
  }
  return out;
}
function candidates(board, cell) { return candidateDigits(board, cell).map(sym); }
// The cells an exact-cover item stands for: p3.7 = cell r3c7, r3.5 = row 3, c7.5 = column 7,
// b2.5 = box 2, and a variant's j2.5 = jigsaw region 2, d1.5 = diagonal 1, w4.5 = window 4.
function itemCells(name) {
  const m = /^([a-z])(\d+)\.(\d+)$/.exec(name);
  if (!m) return [];
  const a = +m[2] - 1, b = +m[3] - 1;
  if (m[1] === "p") return [a * n + b];
  const houses = g.houses[m[1]];
  return houses && houses[a] ? houses[a] : [];
}
function draw() {
  for (const p of panels) {
    const last = p.applied > 0 ? p.t.events[p.applied - 1] : null;
    const now = last && (last[0] === 0 || last[0] === 4 || last[0] === 5) ? last[3] : -1;
    let house = [];
    if (last && last[0] >= 1 && last[0] <= 3) house = itemCells(p.t.items[last[3]]);
    const showCandidates = n <= 9;
    const done = p.applied === p.t.events.length;
    // At the end, a search that went on after its solution (to prove it unique) has undone
    // every move: show the first solution instead of the bare givens.
    const shown = done && p.solutions.length > 0 ? p.solutions[0] : p.board;
    p.cells.forEach((td, i) => {
      const v = shown[i];
      td.className = data.givens[i] ? "given" : (v ? "placed" : "");
      if (shade[i].length) td.classList.add(...shade[i]);
      if (house.includes(i)) td.classList.add("house");
      if (i === now) td.classList.add("now", "hi");
      if (v) td.textContent = sym(v);
      else if (showCandidates) td.innerHTML = '<span class="cand">' + candidates(p.board, i).join("") + "</span>";
      else td.textContent = "";
    });
    p.note.textContent = done && p.solutions.length > 0
      ? "solution 1" + (p.solutions.length > 1 ? " of " + p.solutions.length + " found" : "") +
        " shown" + (p.board.some((v, i) => v !== p.solutions[0][i])
          ? "; the search then undid its moves to look for another" : "")
      : "";
    const depth = last ? last[1] : 0, nodes = last ? last[2] : 0;
    let text = "event " + p.applied + " of " + p.t.events.length + ": " +
      (last ? p.t.words[p.applied - 1] : "(start)") + "\n" +
      "depth " + depth + "  nodes " + nodes + "  placements " + p.placements +
      "  backtracks " + p.backtracks;
    p.info.textContent = text;
    if (done) {
      const s = document.createElement("div");
      s.className = p.t.cut ? "cut" : "done";
      s.textContent = p.t.cut
        ? "cut by --max-events: the search was stopped here (verdict unknown)"
        : "finished: " + p.t.verdict + ", " + p.t.solutions + " solution(s), " + p.t.nodes +
          " nodes, " + p.t.placements + " placements, " + p.t.backtracks + " backtracks";
      p.info.appendChild(s);
    }
  }
  document.getElementById("step").textContent = "step " + step + " of " + longest;
}
function runUntil(kind) {
  while (forward()) {
    if (panels.some(p => p.applied === step && p.t.events[step - 1][0] === kind)) break;
  }
  draw();
}
function stop() { if (timer) { clearInterval(timer); timer = null; document.getElementById("play").textContent = "play"; } }
document.getElementById("forward").onclick = () => { stop(); forward(); draw(); };
document.getElementById("back").onclick = () => { stop(); back(); draw(); };
document.getElementById("start").onclick = () => { stop(); while (step > 0) back(); draw(); };
document.getElementById("end").onclick = () => { stop(); while (forward()); draw(); };
document.getElementById("nextBacktrack").onclick = () => { stop(); runUntil(5); };
document.getElementById("nextSolution").onclick = () => { stop(); runUntil(7); };
// Arrow keys step, Home and End go to the start and the end (not while a menu has the focus).
function key(name) {
  if (name === "ArrowRight") { stop(); forward(); }
  else if (name === "ArrowLeft") { stop(); back(); }
  else if (name === "Home") { stop(); while (step > 0) back(); }
  else if (name === "End") { stop(); while (forward()); }
  else return false;
  draw();
  return true;
}
document.addEventListener("keydown", e => {
  if (e.altKey || e.ctrlKey || e.metaKey || e.target.tagName === "SELECT") return;
  if (key(e.key)) e.preventDefault();
});
document.getElementById("play").onclick = () => {
  if (timer) { stop(); return; }
  const rate = +document.getElementById("speed").value;
  const perTick = Math.max(1, Math.round(rate / 50));
  document.getElementById("play").textContent = "pause";
  timer = setInterval(() => {
    let moved = false;
    for (let i = 0; i < perTick; i++) moved = forward() || moved;
    draw();
    if (!moved) stop();
  }, 1000 / Math.min(rate, 50));
};

// Nodes per depth, one bar per strategy at each depth, on a labelled axis: linear by default
// (bar heights compare as the counts do), log on request (decades 1, 10, 100, ...).
const colours = ["#0072b2", "#e69f00", "#009e73", "#d55e00", "#cc79a7", "#56b4e9", "#000000",
  "#a08c00", "#999999", "#8c510a"];
function niceStep(x) {
  const p = Math.pow(10, Math.floor(Math.log10(x))), m = x / p;
  return Math.max(1, (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p);
}
function drawChart() {
  const log = document.getElementById("log-scale").checked;
  const depths = Math.max(1, ...data.traces.map(t => t.nodesPerDepth.length));
  const most = Math.max(1, ...data.traces.flatMap(t => t.nodesPerDepth));
  const ticks = [0];
  if (log) { for (let v = 1; ticks[ticks.length - 1] < most; v *= 10) ticks.push(v); }
  else { const s = niceStep(most / 4); for (let v = s; ticks[ticks.length - 1] < most; v += s) ticks.push(v); }
  const topTick = ticks[ticks.length - 1];
  const left = 70, right = 12, top = 12, bottom = 42, h = 280, plotH = h - top - bottom;
  const w = Math.max(560, Math.min(1400, depths * data.traces.length * 6 + left + right));
  const slot = (w - left - right) / depths, bar = slot / (data.traces.length + 1);
  const y = v => v <= 0 ? 0 : (log ? Math.log10(v + 1) / Math.log10(topTick + 1) : v / topTick) * plotH;
  let svg = '<svg xmlns="http://www.w3.org/2000/svg" id="depth-chart" width="' + w + '" height="' + h +
    '" viewBox="0 0 ' + w + " " + h + '" font-family="sans-serif">';
  for (const v of ticks) {
    const ty = (h - bottom - y(v)).toFixed(1);
    svg += '<line x1="' + left + '" y1="' + ty + '" x2="' + (w - right) + '" y2="' + ty + '" stroke="#e4e4e4"/>' +
      '<text class="ytick" x="' + (left - 6) + '" y="' + ty + '" dy="4" font-size="12" text-anchor="end">' +
      v.toLocaleString("en") + "</text>";
  }
  data.traces.forEach((t, k) => {
    t.nodesPerDepth.forEach((v, d) => {
      const bh = y(v), x = left + d * slot + k * bar;
      svg += '<rect x="' + x.toFixed(1) + '" y="' + (h - bottom - bh).toFixed(1) + '" width="' +
        Math.max(1, bar - 1).toFixed(1) + '" height="' + bh.toFixed(1) + '" fill="' + colours[k % 10] +
        '"><title>' + t.strategy + ", depth " + d + ": " + v + " nodes</title></rect>";
    });
  });
  for (let d = 0; d < depths; d += Math.max(1, Math.ceil(depths / 20))) {
    svg += '<text class="xtick" x="' + (left + (d + 0.5) * slot).toFixed(1) + '" y="' + (h - bottom + 15) +
      '" font-size="12" text-anchor="middle">' + d + "</text>";
  }
  svg += '<line x1="' + left + '" y1="' + top + '" x2="' + left + '" y2="' + (h - bottom) + '" stroke="#333"/>' +
    '<line x1="' + left + '" y1="' + (h - bottom) + '" x2="' + (w - right) + '" y2="' + (h - bottom) + '" stroke="#333"/>' +
    '<text id="y-label" x="14" y="' + (top + plotH / 2) + '" font-size="13" text-anchor="middle" transform="rotate(-90 14 ' +
    (top + plotH / 2) + ')">nodes at this depth' + (log ? " (log scale)" : "") + "</text>" +
    '<text id="x-label" x="' + (left + (w - left - right) / 2) + '" y="' + (h - 6) +
    '" font-size="13" text-anchor="middle">depth (choices made on the path from the root)</text></svg>';
  document.getElementById("chart").innerHTML = svg;
}
document.getElementById("chart-legend").innerHTML = data.traces.map((t, k) =>
  '<span><span class="swatch" style="background:' + colours[k % 10] + '"></span>' + t.strategy +
  " (" + t.nodes + " nodes)</span>").join("");
document.getElementById("log-scale").onchange = drawChart;
drawChart();

const hash = /step=(\w+)/.exec(location.hash);
if (hash) { if (hash[1] === "end") { while (forward()); } else { for (let i = 0; i < +hash[1]; i++) forward(); } }
draw();
if (human) {
  const chosen = /human=(\w+)/.exec(location.hash);
  showHuman(!chosen ? 0 : chosen[1] === "end" ? human.h.steps.length : +chosen[1] - 1);
}
// keys=ArrowRight,Home,...: the keys pressed in turn, through the page's own key handler.
const keys = /keys=([\w,]+)/.exec(location.hash);
if (keys) for (const k of keys[1].split(",")) document.dispatchEvent(new KeyboardEvent("keydown", {key: k}));
</script>
</body></html>
"##;
