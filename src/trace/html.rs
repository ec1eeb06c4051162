//! The step-through page: one self-contained HTML file (inline CSS and JavaScript, nothing
//! fetched) that replays one or more traces of the same puzzle side by side.
//!
//! The page draws each board with its candidates, highlights the chosen cell (or the row,
//! column, box or cell of the chosen exact-cover item), shows depth and counters, steps forward
//! and back, plays at a chosen speed, jumps to the next backtrack or solution, and draws the
//! nodes per depth of every strategy under the boards. `#step=N` in the address steps N times
//! on load (`#step=end` to the end): the browser test uses it.

use serde_json::{Value, json};

use super::{Trace, describe};
use crate::strategy::{Counter, Event};

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

/// Renders the page for traces of one puzzle (one or more strategies).
pub fn render(traces: &[Trace]) -> String {
    let first = &traces[0];
    let data = json!({
        "puzzle": first.puzzle,
        "side": first.side,
        "boxRows": first.box_shape.0,
        "boxCols": first.box_shape.1,
        "givens": first.cells,
        "traces": traces.iter().map(trace_data).collect::<Vec<_>>(),
    });
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
table.board{border-collapse:collapse;margin:.3em 0}
table.board td{border:1px solid #bbb;text-align:center;vertical-align:middle;padding:0;
  font-size:20px;position:relative}
table.board td.given{font-weight:bold;color:#000}
table.board td.placed{color:#1565c0}
table.board td.hi{background:#ffe082}
table.board td.house{background:#fff8e1}
table.board td.now{outline:3px solid #e65100;outline-offset:-3px}
td .cand{font-size:9px;color:#888;line-height:1.05;display:block;letter-spacing:1px}
.info{font-family:ui-monospace,monospace;font-size:13px;white-space:pre;margin:.3em 0}
.done{color:#2e7d32;font-weight:bold}.cut{color:#b00;font-weight:bold}
#chart{margin-top:1.5em}
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
</div>
<div id="panels"></div>
<div id="chart"></div>
<script type="application/json" id="data">{{DATA}}</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("data").textContent);
const n = data.side, br = data.boxRows, bc = data.boxCols;
const symbols = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const sym = v => v <= 9 ? String(v) : (n <= 35 ? symbols[v - 1] : String(v));
const panels = data.traces.map((t, k) => {
  const div = document.createElement("div");
  div.className = "panel";
  const title = document.createElement("h2");
  title.textContent = t.strategy + " (" + t.nodes + " nodes, " + t.events.length + " events)";
  div.appendChild(title);
  const table = document.createElement("table");
  table.className = "board";
  table.id = "board-" + k;
  const cells = [];
  const size = Math.max(22, Math.min(44, Math.floor(400 / n)));
  for (let r = 0; r < n; r++) {
    const tr = document.createElement("tr");
    for (let c = 0; c < n; c++) {
      const td = document.createElement("td");
      td.id = "cell-" + k + "-" + (r * n + c);
      td.style.width = td.style.height = size + "px";
      if (r % br === 0) td.style.borderTop = "2px solid #333";
      if (c % bc === 0) td.style.borderLeft = "2px solid #333";
      if (r === n - 1) td.style.borderBottom = "2px solid #333";
      if (c === n - 1) td.style.borderRight = "2px solid #333";
      tr.appendChild(td);
      cells.push(td);
    }
    table.appendChild(tr);
  }
  div.appendChild(table);
  const info = document.createElement("div");
  info.className = "info";
  info.id = "counters-" + k;
  div.appendChild(info);
  document.getElementById("panels").appendChild(div);
  return {t, cells, info, board: data.givens.slice(), applied: 0, placements: 0, backtracks: 0};
});
const longest = Math.max(...data.traces.map(t => t.events.length));
let step = 0, timer = null;

function apply(p, i) {
  const e = p.t.events[i];
  if (e[0] === 4) { p.board[e[3]] = e[4]; p.placements++; }
  if (e[0] === 5) { p.board[e[3]] = 0; p.backtracks++; }
}
function unapply(p, i) {
  const e = p.t.events[i];
  if (e[0] === 4) { p.board[e[3]] = 0; p.placements--; }
  if (e[0] === 5) { p.board[e[3]] = e[4]; p.backtracks--; }
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
function candidates(board, cell) {
  const r = Math.floor(cell / n), c = cell % n;
  const used = new Set();
  for (let i = 0; i < n; i++) { used.add(board[r * n + i]); used.add(board[i * n + c]); }
  const r0 = r - r % br, c0 = c - c % bc;
  for (let i = 0; i < br; i++) for (let j = 0; j < bc; j++) used.add(board[(r0 + i) * n + c0 + j]);
  const out = [];
  for (let v = 1; v <= n; v++) if (!used.has(v)) out.push(sym(v));
  return out;
}
// The cells an exact-cover item stands for: p3.7 = cell r3c7, r3.5 = row 3, c7.5 = column 7,
// b2.5 = box 2.
function itemCells(name) {
  const m = /^([prcb])(\d+)\.(\d+)$/.exec(name);
  if (!m) return [];
  const a = +m[2] - 1, b = +m[3] - 1, out = [];
  if (m[1] === "p") out.push(a * n + b);
  if (m[1] === "r") for (let c = 0; c < n; c++) out.push(a * n + c);
  if (m[1] === "c") for (let r = 0; r < n; r++) out.push(r * n + a);
  if (m[1] === "b") {
    const r0 = Math.floor(a / (n / bc)) * br, c0 = (a % (n / bc)) * bc;
    for (let i = 0; i < br; i++) for (let j = 0; j < bc; j++) out.push((r0 + i) * n + c0 + j);
  }
  return out;
}
function draw() {
  for (const p of panels) {
    const last = p.applied > 0 ? p.t.events[p.applied - 1] : null;
    const now = last && (last[0] === 0 || last[0] === 4 || last[0] === 5) ? last[3] : -1;
    let house = [];
    if (last && last[0] >= 1 && last[0] <= 3) house = itemCells(p.t.items[last[3]]);
    const showCandidates = n <= 9;
    p.cells.forEach((td, i) => {
      const v = p.board[i];
      td.className = data.givens[i] ? "given" : (v ? "placed" : "");
      if (house.includes(i)) td.classList.add("house");
      if (i === now) td.classList.add("now", "hi");
      if (v) td.textContent = sym(v);
      else if (showCandidates) td.innerHTML = '<span class="cand">' + candidates(p.board, i).join("") + "</span>";
      else td.textContent = "";
    });
    const done = p.applied === p.t.events.length;
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

// Nodes per depth, one bar per strategy at each depth (bar height on a log scale).
(function chart() {
  const colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd"];
  const depths = Math.max(...data.traces.map(t => t.nodesPerDepth.length));
  const most = Math.max(1, ...data.traces.flatMap(t => t.nodesPerDepth));
  const w = Math.max(600, depths * data.traces.length * 6 + 80), h = 240, left = 50, bottom = 30;
  const slot = (w - left - 10) / Math.max(1, depths), bar = slot / (data.traces.length + 1);
  const y = v => v <= 0 ? 0 : (Math.log10(v + 1) / Math.log10(most + 1)) * (h - bottom - 20);
  let svg = '<svg xmlns="http://www.w3.org/2000/svg" id="depth-chart" width="' + w + '" height="' + h + '">';
  svg += '<text x="' + left + '" y="14" font-size="13">nodes per depth (bar height: log scale; hover for counts)</text>';
  data.traces.forEach((t, k) => {
    svg += '<rect x="' + (w - 160) + '" y="' + (24 + k * 16) + '" width="10" height="10" fill="' + colours[k % 5] + '"/>' +
      '<text x="' + (w - 145) + '" y="' + (33 + k * 16) + '" font-size="12">' + t.strategy + " (" + t.nodes + ")</text>";
    t.nodesPerDepth.forEach((v, d) => {
      const bh = y(v), x = left + d * slot + k * bar;
      svg += '<rect x="' + x.toFixed(1) + '" y="' + (h - bottom - bh).toFixed(1) + '" width="' +
        Math.max(1, bar - 1).toFixed(1) + '" height="' + bh.toFixed(1) + '" fill="' + colours[k % 5] +
        '"><title>' + t.strategy + ", depth " + d + ": " + v + " nodes</title></rect>";
    });
  });
  for (let d = 0; d < depths; d += Math.max(1, Math.ceil(depths / 20))) {
    svg += '<text x="' + (left + d * slot).toFixed(1) + '" y="' + (h - bottom + 14) + '" font-size="11">' + d + "</text>";
  }
  svg += '<text x="' + left + '" y="' + (h - 2) + '" font-size="12">depth</text>';
  svg += '<line x1="' + left + '" y1="' + (h - bottom) + '" x2="' + (w - 10) + '" y2="' + (h - bottom) + '" stroke="#333"/></svg>';
  document.getElementById("chart").innerHTML = svg;
})();

const hash = /step=(\w+)/.exec(location.hash);
if (hash) { if (hash[1] === "end") { while (forward()); } else { for (let i = 0; i < +hash[1]; i++) forward(); } }
draw();
</script>
</body></html>
"##;
