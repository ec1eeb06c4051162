//! The step-through page in a real headless browser (Debian's `chromium`, or
//! `$SUDOLAB_CHROMIUM`), behind the `browser` feature: `.ci/run` installs chromium and runs it;
//! without a browser this fails, never skips.
//!
//! The page is loaded from a file URL with `#step=N` (the page steps N times on load, through
//! the same function as its "forward" button); the DOM the browser ends with is compared with
//! what the library's trace says the board and counters must be after N events.

use std::path::{Path, PathBuf};
use std::process::Command;

use sudolab::corpus::parse_json;
use sudolab::human;
use sudolab::model::{Grid, RegionKind, find_conflict};
use sudolab::strategy::{self, Event, Limits};
use sudolab::trace::{self, Trace};

const BOARD_B: &str =
    "040060020000080000960040087390807041000090000800306002700000009005000300600105004";

fn chromium() -> String {
    let browser = std::env::var("SUDOLAB_CHROMIUM").unwrap_or_else(|_| "chromium".to_string());
    let found = Command::new(&browser).arg("--version").output();
    assert!(
        found.as_ref().is_ok_and(|out| out.status.success()),
        "no browser: '{browser} --version' failed ({found:?}); install Debian's chromium or set \
         SUDOLAB_CHROMIUM"
    );
    browser
}

/// The page written to a file of its own per test: the tests run in parallel, and a page
/// rewritten while another test's browser reads it is read half-written.
fn page(test: &str) -> (PathBuf, Vec<Trace>) {
    let dir = std::env::temp_dir().join(format!("sudolab-browser-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{test}.html"));
    let status = Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args([
            "trace",
            BOARD_B,
            "-s",
            "toggle,dlx-knuth",
            "--output",
            "html",
            "--report",
        ])
        .arg(&file)
        .output()
        .expect("sudolab runs");
    assert!(status.status.success(), "{status:?}");
    let puzzle: Grid = BOARD_B.parse().unwrap();
    let traces = ["toggle", "dlx-knuth"]
        .iter()
        .map(|name| {
            let engine = strategy::find(name).unwrap();
            trace::record(engine, &puzzle, 2, &Limits::default(), 100_000).unwrap()
        })
        .collect();
    (file, traces)
}

/// The DOM after loading `file#step=...`.
fn dom(file: &Path, step: &str) -> String {
    let url = format!("file://{}#step={step}", file.display());
    let out = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--dump-dom",
            &url,
        ])
        .output()
        .expect("chromium runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The inner HTML of the element with this id.
fn element<'a>(dom: &'a str, id: &str) -> &'a str {
    let start = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id}"));
    let open = start + dom[start..].find('>').unwrap() + 1;
    let close = open
        + dom[open..]
            .find("</td>")
            .or_else(|| dom[open..].find("</div>"))
            .unwrap();
    &dom[open..close]
}

/// The board and counters after `steps` events, replayed from the library's trace.
fn expected(trace: &Trace, puzzle: &Grid, steps: usize) -> (Vec<u8>, String) {
    let mut board = puzzle.cells().to_vec();
    let (mut placements, mut backtracks) = (0, 0);
    for step in &trace.events[..steps] {
        match step.event {
            Event::Try { cell, value } => {
                board[cell] = value;
                placements += 1;
            }
            Event::Undo { cell, .. } => {
                board[cell] = 0;
                backtracks += 1;
            }
            _ => {}
        }
    }
    let last = &trace.events[steps - 1];
    let shape = puzzle.shape();
    let text = format!(
        "event {steps} of {}: {}\ndepth {}  nodes {}  placements {placements}  backtracks {backtracks}",
        trace.events.len(),
        trace::describe(shape, &last.event),
        last.depth,
        last.nodes
    );
    (board, text)
}

#[test]
fn the_page_steps_through_both_searches_as_the_engines_did() {
    let (file, traces) = page("the_page_steps_through_both_searches_as_the_engines_did");
    let puzzle: Grid = BOARD_B.parse().unwrap();
    for steps in [1usize, 40, 400] {
        let dom = dom(&file, &steps.to_string());
        assert!(dom.contains(&format!("step {steps} of {}", traces[0].events.len())));
        for (k, trace) in traces.iter().enumerate() {
            let shown = steps.min(trace.events.len());
            let (board, counters) = expected(trace, &puzzle, shown);
            let info = element(&dom, &format!("counters-{k}"));
            assert!(
                info.starts_with(&counters),
                "panel {k} at {steps}:\n{info}\n{counters}"
            );
            for (cell, value) in board.iter().enumerate() {
                let td = element(&dom, &format!("cell-{k}-{cell}"));
                if *value == 0 {
                    assert!(td.starts_with("<span class=\"cand\">"), "cell {cell}: {td}");
                } else {
                    assert_eq!(td, value.to_string(), "panel {k} cell {cell} at {steps}");
                }
            }
        }
    }
    // The known start of board B: toggle's 40th event is the dead end at r1c7 after 13
    // placements; dlx-knuth has placed 13 options without a single backtrack.
    let dom = dom(&file, "40");
    assert!(element(&dom, "counters-0").starts_with(
        "event 40 of 7181: choose r1c7 (0 candidates)\ndepth 4  nodes 14  placements 13  backtracks 9"
    ));
    assert!(element(&dom, "counters-1").starts_with(
        "event 40 of 553: choose item c1.2 (1 option)\ndepth 13  nodes 14  placements 13  backtracks 0"
    ));
}

#[test]
fn the_end_of_the_page_shows_the_counts_compare_reports() {
    let (file, traces) = page("the_end_of_the_page_shows_the_counts_compare_reports");
    let dom = dom(&file, "end");
    for (k, trace) in traces.iter().enumerate() {
        let info = element(&dom, &format!("counters-{k}"));
        let nodes = trace.counter(strategy::Counter::Nodes);
        assert!(
            info.contains(&format!("finished: unique, 1 solution(s), {nodes} nodes")),
            "{info}"
        );
    }
    assert!(dom.contains("id=\"depth-chart\""));
    // A screenshot to look at: target/browser-trace.png.
    let png = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser-trace.png");
    let url = format!("file://{}#step=600", file.display());
    let out = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--window-size=1300,1000",
        ])
        .arg(format!("--screenshot={}", png.display()))
        .arg(&url)
        .output()
        .unwrap();
    assert!(out.status.success() && png.is_file());
}

/// The inner HTML of the `<div>` with this id (no elements inside).
fn div<'a>(dom: &'a str, id: &str) -> &'a str {
    let start = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id}"));
    let open = start + dom[start..].find('>').unwrap() + 1;
    &dom[open..open + dom[open..].find("</div>").unwrap()]
}

const BOARD_B_SOLUTION: &str =
    "548761923217983456963542187392857641176294835854316792731428569425679318689135274";

/// The digits the board of panel `k` shows (0 for a cell without a digit).
fn board(dom: &str, k: usize) -> Vec<u8> {
    (0..81)
        .map(|cell| {
            let td = element(dom, &format!("cell-{k}-{cell}"));
            td.parse().unwrap_or(0)
        })
        .collect()
}

#[test]
fn the_end_shows_the_solution_the_search_found_and_undid() {
    let (file, _) = page("the_end_shows_the_solution_the_search_found_and_undid");
    let dom = dom(&file, "end");
    let solution: Vec<u8> = BOARD_B_SOLUTION.bytes().map(|b| b - b'0').collect();
    for k in 0..2 {
        assert_eq!(board(&dom, k), solution, "panel {k}");
        assert_eq!(
            div(&dom, &format!("solution-note-{k}")),
            "solution 1 shown; the search then undid its moves to look for another"
        );
    }
    // One step back from the end, the board is the search's own again (the givens, and the
    // one cell its last undo has not reached).
    let dom = self::dom(&file, "end;keys=ArrowLeft");
    assert_eq!(div(&dom, "solution-note-0"), "");
    let shown = board(&dom, 0);
    let filled = shown.iter().filter(|v| **v != 0).count();
    assert_eq!(filled, BOARD_B.bytes().filter(|b| *b != b'0').count() + 1);
}

#[test]
fn the_arrow_keys_home_and_end_step_like_the_buttons() {
    let (file, traces) = page("the_arrow_keys_home_and_end_step_like_the_buttons");
    let puzzle: Grid = BOARD_B.parse().unwrap();
    let total = traces[0].events.len();
    // 40 steps, then right, right, left: step 41, as the library replays it.
    let dom = dom(&file, "40;keys=ArrowRight,ArrowRight,ArrowLeft");
    assert!(dom.contains(&format!("step 41 of {total}")), "{dom}");
    for (k, trace) in traces.iter().enumerate() {
        let (board, counters) = expected(trace, &puzzle, 41);
        assert!(element(&dom, &format!("counters-{k}")).starts_with(&counters));
        let shown: Vec<u8> = self::board(&dom, k);
        assert_eq!(shown, board, "panel {k}");
    }
    let dom = self::dom(&file, "40;keys=End");
    assert!(dom.contains(&format!("step {total} of {total}")));
    assert!(element(&dom, "counters-0").contains("finished: unique"));
    let dom = self::dom(&file, "40;keys=End,Home");
    assert!(dom.contains(&format!("step 0 of {total}")));
    assert!(element(&dom, "counters-0").starts_with("event 0 of"));
}

#[test]
fn the_depth_chart_has_a_labelled_linear_axis_and_a_legend() {
    let (file, traces) = page("the_depth_chart_has_a_labelled_linear_axis_and_a_legend");
    let dom = dom(&file, "1");
    let chart = &dom[dom.find("id=\"depth-chart\"").expect("the chart")..];
    let chart = &chart[..chart.find("</svg>").unwrap()];
    assert!(chart.contains(">nodes at this depth</text>"), "{chart}");
    assert!(chart.contains(">depth (choices made on the path from the root)</text>"));
    // toggle's busiest depth has 328 nodes: ticks every 100 up to 400.
    assert_eq!(traces[0].nodes_per_depth.iter().max(), Some(&328));
    let ticks: Vec<&str> = chart
        .match_indices("class=\"ytick\"")
        .map(|(at, _)| {
            let text = &chart[at..];
            let open = text.find('>').unwrap() + 1;
            &text[open..text.find("</text>").unwrap()]
        })
        .collect();
    assert_eq!(ticks, ["0", "100", "200", "300", "400"]);
    let legend = div(&dom, "chart-legend");
    assert!(legend.contains("toggle (2165 nodes)"), "{legend}");
    assert!(legend.contains("dlx-knuth (112 nodes)"), "{legend}");
}

/// A puzzle whose path of easiest steps has two X-Wings (steps 37 and 38).
const X_WING: &str =
    "34.57............8..69..5......46.71.6.....392..3....6.5...269..3..6...7.........";

/// The text of the element with this id, whatever its tag, with `&lt;`, `&gt;` and `&amp;`
/// read back.
fn text_of(dom: &str, id: &str) -> String {
    let start = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id}"));
    let open = start + dom[start..].find('>').unwrap() + 1;
    let close = open + dom[open..].find("</").unwrap();
    dom[open..close]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The opening tag of the element with this id.
fn tag_of<'a>(dom: &'a str, id: &str) -> &'a str {
    let at = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id}"));
    let open = dom[..at].rfind('<').unwrap();
    &dom[open..at + dom[at..].find('>').unwrap()]
}

#[test]
fn the_human_panel_shows_each_step_on_the_board_before_it() {
    let dir = std::env::temp_dir().join(format!("sudolab-browser-human-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("human.html");
    let run = Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args(["trace", X_WING, "-s", "mrv", "--human", "--report"])
        .arg(&file)
        .output()
        .expect("sudolab runs");
    assert!(run.status.success(), "{run:?}");
    let puzzle: Grid = X_WING.parse().unwrap();
    let shape = puzzle.shape();
    let path = human::solve_path(&puzzle).unwrap();
    assert_eq!(path.steps.len(), 61);
    let dom = dom(&file, "0;human=37");
    assert!(dom.contains("How a person solves it: 61 steps, rating 4.2 (XY-Wing)"));
    assert!(dom.contains("How backtracking does it: mrv"));
    assert_eq!(text_of(&dom, "human-at"), "step 37 of 61");
    let step = &path.steps[36];
    assert_eq!(step.technique, human::Technique::XWing);
    assert_eq!(
        text_of(&dom, "human-step"),
        format!("3.2 X-Wing: {}\n{}", step.effect(shape), step.reason)
    );
    // The board before step 37, as the library replays the first 36 steps, with the X-Wing's
    // four cells marked and its two eliminations struck.
    let mut board = human::Board::new(&puzzle).unwrap();
    for earlier in &path.steps[..36] {
        human::apply(&mut board, earlier);
    }
    for cell in 0..81 {
        let id = format!("human-cell-{cell}");
        let (td, tag) = (text_of(&dom, &id), tag_of(&dom, &id));
        assert_eq!(
            tag.contains("pattern"),
            step.cells.contains(&cell),
            "cell {cell}: {tag}"
        );
        let removed: Vec<u8> = step
            .eliminations
            .iter()
            .filter(|&&(c, _)| c == cell)
            .map(|&(_, d)| d)
            .collect();
        assert_eq!(tag.contains("lose"), !removed.is_empty(), "cell {cell}");
        if board.value(cell) != 0 {
            let inner = element(&dom, &id);
            assert_eq!(inner, board.value(cell).to_string(), "cell {cell}");
            continue;
        }
        let inner = element(&dom, &id);
        let marked: String = board
            .candidates(cell)
            .iter()
            .map(|d| {
                if removed.contains(&d) {
                    format!("<s>{d}</s>")
                } else {
                    d.to_string()
                }
            })
            .collect();
        assert_eq!(
            inner,
            format!("<span class=\"cand\">{marked}</span>"),
            "{td}"
        );
    }
    // A placement: step 1 puts a digit in a green cell; the end shows the solution.
    let dom = self::dom(&file, "0;human=1");
    let (cell, digit) = path.steps[0].placements[0];
    let id = format!("human-cell-{cell}");
    assert!(tag_of(&dom, &id).contains("put"));
    assert!(element(&dom, &id).contains(&format!("<b>{digit}</b>")));
    let dom = self::dom(&file, "0;human=end");
    assert_eq!(text_of(&dom, "human-at"), "the end (61 steps)");
    assert_eq!(text_of(&dom, "human-step"), "solved");
    let solution: Vec<u8> = (0..81)
        .map(|cell| {
            element(&dom, &format!("human-cell-{cell}"))
                .parse()
                .unwrap()
        })
        .collect();
    assert_eq!(solution, path.end.cells());
    // A screenshot to look at: target/browser-human.png.
    let png = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser-human.png");
    let url = format!("file://{}#step=0;human=37", file.display());
    let out = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--window-size=1500,1000",
        ])
        .arg(format!("--screenshot={}", png.display()))
        .arg(&url)
        .output()
        .unwrap();
    assert!(out.status.success() && png.is_file());
}

/// The first puzzle of a bundled variant file, with its rules.
fn variant(file: &str) -> Grid {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("corpora/variants").join(file)).unwrap();
    parse_json(&text, None).remove(0).unwrap().puzzle
}

/// Writes the page of `engines` on the first puzzle of a bundled variant file; returns the page
/// and the library's traces of the same searches.
fn variant_page(file: &str, engines: &str) -> (PathBuf, Grid, Vec<Trace>) {
    let dir = std::env::temp_dir().join(format!("sudolab-browser-variant-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join(file.replace(".json", ".html"));
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args(["trace", "-s", engines, "--max-events", "2000", "--report"])
        .arg(&page)
        .arg(root.join("corpora/variants").join(file))
        .output()
        .expect("sudolab runs");
    let puzzle = variant(file);
    let traces: Vec<Trace> = engines
        .split(',')
        .map(|name| {
            let engine = strategy::find(name).unwrap();
            trace::record(engine, &puzzle, 2, &Limits::default(), 2_000).unwrap()
        })
        .collect();
    // A search cut by --max-events ends with status 1, as an unknown verdict does.
    let cut = traces.iter().any(|t| t.cut);
    assert_eq!(run.status.code(), Some(i32::from(cut)), "{run:?}");
    (page, puzzle, traces)
}

/// A variant's page pencils the digits its rules allow: on the board the search has reached,
/// an empty cell shows exactly the digits that, written there, break no rule the library
/// checks (houses, must-differ and non-consecutive pairs, cage repeats and reachable sums).
#[test]
fn a_variant_page_pencils_what_every_rule_allows() {
    for (file, steps) in [
        ("killer.json", 30),
        ("nonconsecutive.json", 25),
        ("anti-knight.json", 20),
        ("windoku.json", 20),
        ("jigsaw.json", 20),
    ] {
        let (page, puzzle, traces) = variant_page(file, "mrv");
        let dom = dom(&page, &steps.to_string());
        let (board, counters) = expected(&traces[0], &puzzle, steps);
        assert!(element(&dom, "counters-0").starts_with(&counters), "{file}");
        let mut grid = puzzle.clone();
        for (cell, &value) in board.iter().enumerate() {
            grid.set(cell, value);
        }
        let mut pencilled = 0;
        for (cell, &value) in board.iter().enumerate() {
            let td = element(&dom, &format!("cell-0-{cell}"));
            if value != 0 {
                assert_eq!(td, value.to_string(), "{file} cell {cell}");
                continue;
            }
            let allowed: String = (1..=9u8)
                .filter(|&digit| {
                    let mut tried = grid.clone();
                    tried.set(cell, digit);
                    find_conflict(&tried).is_none()
                })
                .map(|digit| digit.to_string())
                .collect();
            assert_eq!(
                td,
                format!("<span class=\"cand\">{allowed}</span>"),
                "{file} cell {cell}"
            );
            pencilled += 1;
        }
        assert!(pencilled > 20, "{file}: {pencilled} empty cells");
        let rules = puzzle.rules().unwrap();
        assert!(
            text_of(&dom, "rules-note").starts_with(&format!("variant {}: ", rules.name())),
            "{file}"
        );
    }
}

/// Killer cages are drawn over the board: one dashed outline segment per open side of each cage
/// cell and the sum in the cage's first cell.
#[test]
fn a_killer_page_draws_every_cage_with_its_sum() {
    let (page, puzzle, _) = variant_page("killer.json", "mrv");
    let dom = dom(&page, "0");
    let rules = puzzle.rules().unwrap();
    let svg = &dom[dom.find("id=\"cages-0\"").expect("the cage layer")..];
    let svg = &svg[..svg.find("</svg>").unwrap()];
    let sums: Vec<&str> = svg
        .split("class=\"cage-sum\">")
        .skip(1)
        .map(|rest| &rest[..rest.find('<').unwrap()])
        .collect();
    let expected: Vec<String> = rules
        .cages()
        .iter()
        .map(|cage| cage.sum.unwrap().to_string())
        .collect();
    assert_eq!(sums, expected);
    // Each cell of a cage has a dashed side wherever its neighbour is outside the cage.
    let side = 9;
    let open_sides: usize = rules
        .cages()
        .iter()
        .flat_map(|cage| {
            cage.cells.iter().map(move |&cell| {
                let (cell, row, col) = (cell as usize, cell as usize / side, cell as usize % side);
                let inside = |other: usize| cage.cells.contains(&(other as u16));
                [
                    row == 0 || !inside(cell - side),
                    row == side - 1 || !inside(cell + side),
                    col == 0 || !inside(cell - 1),
                    col == side - 1 || !inside(cell + 1),
                ]
                .iter()
                .filter(|open| **open)
                .count()
            })
        })
        .sum();
    assert_eq!(svg.matches("<line").count(), open_sides);
}

/// A jigsaw page draws its regions' edges as thick lines, and an exact-cover item of a region
/// (`j3.5`) lights that region's cells.
#[test]
fn a_jigsaw_page_draws_its_regions_and_lights_their_items() {
    let (page, puzzle, traces) = variant_page("jigsaw.json", "dlx-knuth");
    let rules = puzzle.rules().unwrap();
    let region_of = |cell: usize| {
        rules
            .houses()
            .iter()
            .find(|h| h.kind == RegionKind::Jigsaw && h.cells.contains(&(cell as u16)))
            .unwrap()
            .index
    };
    let chosen = traces[0]
        .events
        .iter()
        .position(
            |step| matches!(&step.event, Event::ChooseItem { item, .. } if item.starts_with('j')),
        )
        .expect("dlx-knuth chooses a region's item");
    let Event::ChooseItem { item, .. } = &traces[0].events[chosen].event else {
        unreachable!()
    };
    let region: usize = item[1..item.find('.').unwrap()].parse::<usize>().unwrap() - 1;
    let dom = dom(&page, &(chosen + 1).to_string());
    for cell in 0..81 {
        let tag = tag_of(&dom, &format!("cell-0-{cell}"));
        assert_eq!(
            tag.contains("house"),
            region_of(cell) == region,
            "{item}, cell {cell}: {tag}"
        );
        let (row, col) = (cell / 9, cell % 9);
        assert_eq!(
            tag.contains("border-top: 2px solid"),
            row == 0 || region_of(cell - 9) != region_of(cell),
            "cell {cell}: {tag}"
        );
        assert_eq!(
            tag.contains("border-left: 2px solid"),
            col == 0 || region_of(cell - 1) != region_of(cell),
            "cell {cell}: {tag}"
        );
    }
}

/// The comparison report's competition plots, as the browser lays out the page: the cactus
/// plot with one line per strategy and the scatter plot of each strategy against the baseline
/// with its points, the diagonal and the limit lines, each an SVG the browser parsed.
#[test]
fn the_comparison_report_shows_the_cactus_and_scatter_plots() {
    let dir = std::env::temp_dir().join(format!("sudolab-browser-plots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("report.html");
    let run = Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args(["compare", "-s", "fast,scan,dlx-knuth", "-j1", "--report"])
        .arg(&file)
        .arg("corpora/reference.txt")
        .output()
        .expect("sudolab runs");
    assert!(run.status.success(), "{run:?}");
    let dom = dom(&file, "0");
    let figure = |id: &str| -> String {
        let start = dom
            .find(&format!("<figure id=\"{id}\">"))
            .unwrap_or_else(|| panic!("no figure #{id}"));
        let end = start + dom[start..].find("</figure>").unwrap();
        dom[start..end].to_string()
    };
    let cactus = figure("chart-cactus");
    assert!(cactus.contains("<svg"), "{cactus}");
    // One line per strategy (its colour), and the grey timeout line.
    for colour in ["#0072B2", "#E69F00", "#009E73", "#787878"] {
        let lines = cactus
            .split("<polyline")
            .skip(1)
            .filter(|element| element.split('>').next().unwrap().contains(colour))
            .count();
        assert_eq!(lines, 1, "{colour}");
    }
    assert!(cactus.contains("puzzles decided"));
    for name in ["scan", "dlx-knuth"] {
        let scatter = figure(&format!("chart-scatter-{name}"));
        assert_eq!(
            scatter.matches("<circle").count(),
            2,
            "{name}: one point per puzzle"
        );
        assert!(scatter.contains(&format!("{name} time (µs, log scale)")));
        assert!(scatter.contains("fast time (µs, log scale)"));
    }
    assert!(!dom.contains("chart-scatter-fast"));
}
