"use strict";
const data = JSON.parse(document.getElementById("data").textContent);
// Each event is [code, depth, nodes, a, b]; the codes by name (EVENT.try, EVENT.undo, ...)
// come from the table the Rust side encodes the events with.
const EVENT = JSON.parse(document.getElementById("event-codes").textContent);
// A cell event marks its cell on the board; an item event the cells of its item.
const CELL_EVENTS = [EVENT.choose, EVENT.try, EVENT.undo];
const ITEM_EVENTS = [EVENT.choose_item, EVENT.cover, EVENT.uncover];
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
  if (e[0] === EVENT.try) { p.board[e[3]] = e[4]; p.placements++; }
  if (e[0] === EVENT.undo) { p.board[e[3]] = 0; p.backtracks++; }
  if (e[0] === EVENT.solution) p.solutions.push(p.board.slice());
}
function unapply(p, i) {
  const e = p.t.events[i];
  if (e[0] === EVENT.try) { p.board[e[3]] = 0; p.placements--; }
  if (e[0] === EVENT.undo) { p.board[e[3]] = e[4]; p.backtracks--; }
  if (e[0] === EVENT.solution) p.solutions.pop();
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
    const now = last && CELL_EVENTS.includes(last[0]) ? last[3] : -1;
    let house = [];
    if (last && ITEM_EVENTS.includes(last[0])) house = itemCells(p.t.items[last[3]]);
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
function runUntil(code) {
  while (forward()) {
    if (panels.some(p => p.applied === step && p.t.events[step - 1][0] === code)) break;
  }
  draw();
}
function stop() { if (timer) { clearInterval(timer); timer = null; document.getElementById("play").textContent = "play"; } }
document.getElementById("forward").onclick = () => { stop(); forward(); draw(); };
document.getElementById("back").onclick = () => { stop(); back(); draw(); };
document.getElementById("start").onclick = () => { stop(); while (step > 0) back(); draw(); };
document.getElementById("end").onclick = () => { stop(); while (forward()); draw(); };
document.getElementById("nextBacktrack").onclick = () => { stop(); runUntil(EVENT.undo); };
document.getElementById("nextSolution").onclick = () => { stop(); runUntil(EVENT.solution); };
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
