//! `sudolab trace` and `sudolab explain cover`: events, summaries, refusals, cuts.

use serde_json::Value;

use crate::cli::sudolab;

#[test]
fn text_traces_name_cells_indent_by_depth_and_end_with_the_tree_shape() {
    let run = sudolab(
        &["trace", "corpora/reference.txt", "-p", "2", "-s", "mrv"],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    // The first events of board B for mrv: the first cell (row-major) with the fewest
    // candidates, values ascending.
    assert_eq!(
        &lines[..5],
        [
            "# trace of mrv on .4..6..2.....8....96..4..8739.8.7.41....9....8..3.6..27.......9..5...3..6..1.5..4",
            "choose r9c8 (1 candidate)  [depth 0, nodes 1]",
            "try r9c8 = 7  [depth 0, nodes 1]",
            "  choose r1c1 (2 candidates)  [depth 1, nodes 2]",
            "  try r1c1 = 1  [depth 1, nodes 2]",
        ]
    );
    let summary = run.stdout.split("# summary: ").nth(1).expect("a summary");
    assert!(summary.contains("verdict unique (1 solution found)\nnodes 219  placements 218  backtracks 218\nnodes per depth:\n    0         1 #"), "{summary}");
}

#[test]
fn jsonl_traces_follow_the_documented_schema() {
    let run = sudolab(
        &[
            "trace",
            "4..3.....1....2.",
            "-s",
            "dlx-knuth",
            "-o",
            "jsonl",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let events: Vec<Value> = run
        .stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect();
    assert_eq!(
        events[0],
        serde_json::json!({"depth": 0, "nodes": 1, "event": "choose_item", "item": "p1.2", "options": 1})
    );
    assert_eq!(
        events[1],
        serde_json::json!({"depth": 0, "nodes": 1, "event": "cover", "item": "p1.2"})
    );
    assert_eq!(
        events[2],
        serde_json::json!({"depth": 0, "nodes": 1, "event": "try", "cell": 1, "value": 2})
    );
    let summary = events.last().unwrap();
    assert_eq!(summary["event"], "summary");
    assert_eq!(summary["verdict"], "unique");
    assert_eq!(summary["cut"], false);
    let tries = events.iter().filter(|e| e["event"] == "try").count() as u64;
    assert_eq!(summary["counters"]["placements"].as_u64(), Some(tries));
}

#[test]
fn untraceable_engines_cut_traces_and_dead_puzzles_are_explained() {
    let run = sudolab(&["trace", "4..3.....1....2.", "-s", "sat"], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        format!(
            "sudolab: sat cannot be traced: its search runs inside the varisat crate, which \
             reports no events; the strategies that can: {}\n",
            sudolab::trace::traceable_names().join(", ")
        )
    );
    let run = sudolab(
        &[
            "trace",
            "corpora/reference.txt",
            "-p",
            "2",
            "-s",
            "scan",
            "--max-events",
            "50",
        ],
        "",
    );
    // A cut search has no verdict: a negative result, like count's 'unknown'.
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stdout.lines().filter(|l| l.contains("[depth")).count(),
        50
    );
    assert!(
        run.stdout
            .contains("verdict unknown (0 solutions found); CUT after 50 events")
    );
    // A puzzle without a solution (r1c3 has no candidate) still traces and says so.
    let run = sudolab(
        &[
            "trace",
            "12......3...4...",
            "-s",
            "toggle",
            "-o",
            "html",
            "-r",
            "/dev/null",
        ],
        "",
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("verdict none (0 solutions found)"),
        "{}",
        run.stderr
    );
    let run = sudolab(&["trace", "4..3.x...1....2."], "");
    assert_eq!(run.code, 2);
    assert!(run.stderr.starts_with("sudolab: '4..3.x...1....2.' is neither a file nor a puzzle in line form: line 1, column 6"), "{}", run.stderr);
}

#[test]
fn explain_cover_prints_the_matrix_with_givens() {
    let run = sudolab(&["explain", "cover", "4..3.....1....2."], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 1 + 3 + 64 + 2);
    assert_eq!(
        lines[7],
        "G r1c1=4  1............... ...1............ ...1............ ...1............"
    );
    assert_eq!(
        lines[9],
        "  r1c2=2  .1.............. .1.............. .....1.......... .1.............."
    );
    assert_eq!(
        lines.last().unwrap(),
        &"after choosing the givens: 48 items to cover, 22 options left (what dlx-knuth searches)"
    );
    let run = sudolab(&["explain", "cover", "corpora/reference.txt"], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("sides up to 6 (9x9 has 729 options and 324 items)")
    );
}

/// A variant's houses are items like the rest: X-Sudoku's two diagonals add `d` items, a Latin
/// square has no `b` items; rules that are not houses have no matrix, and say why.
#[test]
fn explain_cover_lays_out_a_variants_houses() {
    let run = sudolab(
        &["explain", "cover", "--variant", "x", "1...........2..."],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 1 + 3 + 64 + 2);
    assert_eq!(
        lines[0],
        "exact cover of 1...........2... (x): 64 options (rows) x 72 items (columns); p = cell, \
         r = row+digit, c = column+digit, b = box+digit, d = diagonal+digit"
    );
    assert_eq!(
        lines[1],
        "          pppppppppppppppp rrrrrrrrrrrrrrrr cccccccccccccccc bbbbbbbbbbbbbbbb dddddddd"
    );
    // r2c2 is on the main diagonal, r4c1 (a given) on the other one.
    assert_eq!(
        lines[4 + 4 * 5 + 3],
        "  r2c2=4  .....1.......... .......1........ .......1........ ...1............ ...1...."
    );
    assert_eq!(
        lines[4 + 4 * 12 + 1],
        "G r4c1=2  ............1... .............1.. .1.............. .........1...... .....1.."
    );
    assert_eq!(
        lines.last().unwrap(),
        &"after choosing the givens: 62 items to cover, 40 options left (what dlx-knuth searches)"
    );

    let latin = "1...........2............";
    let run = sudolab(&["explain", "cover", "--variant", "latin", latin], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with(&format!(
        "exact cover of {latin} (latin): 125 options (rows) x 75 items (columns); p = cell, \
         r = row+digit, c = column+digit\n"
    )));
    // 23 empty cells x 5 digits, less digit 1 in row 1 and column 1 and digit 2 in row 3 and
    // column 3.
    assert!(run.stdout.ends_with(
        "after choosing the givens: 69 items to cover, 99 options left (what dlx-knuth searches)\n"
    ));

    // Pairs are secondary items, one per digit: of the 18 anti-king pairs of 4x4, the 10 whose
    // cells share no box (r1c2 and r2c3, pair 3, the first), 40 q items after the 64 primary.
    let run = sudolab(
        &[
            "explain",
            "cover",
            "--variant",
            "anti-king",
            ".2..............",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "exact cover of .2.............. (anti-king): 64 options (rows) x 104 items (columns); \
         p = cell, r = row+digit, c = column+digit, b = box+digit, q = must-differ pair+digit \
         (secondary: at most once)"
    );
    let q = |line: &str| line.rsplit(' ').next().unwrap().to_string();
    // Four header lines: q, the pair number in two digits, the digit.
    assert_eq!(q(lines[1]), "q".repeat(40));
    assert_eq!(q(lines[2]), format!("{}{}", "0".repeat(20), "1".repeat(20)));
    assert_eq!(q(lines[3]), "3333444477778888999900001111222255556666");
    assert_eq!(q(lines[4]), "1234".repeat(10));
    // r1c2 = 2 and r2c3 = 2 share pair 3's item for digit 2: the given rules the other out.
    let row = |label: &str| *lines.iter().find(|l| l[2..].starts_with(label)).unwrap();
    assert!(row("r1c2=2").starts_with("G r1c2=2"));
    assert_eq!(q(row("r1c2=2")), format!(".1{}", ".".repeat(38)));
    assert!(row("r2c3=2").starts_with("x r2c3=2"));
    assert_eq!(
        q(row("r2c3=2")),
        format!(".1{}1...1{}", ".".repeat(19), ".".repeat(14))
    );
    assert_eq!(
        lines.last().unwrap(),
        &"after choosing the givens: 60 items to cover (and 39 secondary, to cover at most once), \
          52 options left (what dlx-knuth searches)"
    );

    let run = sudolab(&["explain", "cover", "corpora/variants/killer.json"], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "sudolab: killer puzzles have no exact-cover matrix: exact cover takes houses and pairs \
         of cells, not the sum of a cage (docs/variants.md lists the engines that take every \
         rule)\n"
    );
}

/// The JSON the trace page carries in its data element.
fn page_data(page: &str) -> Value {
    let start = page.find("id=\"data\">").unwrap() + "id=\"data\">".len();
    let end = start + page[start..].find("</script>").unwrap();
    serde_json::from_str(&page[start..end]).unwrap()
}

/// Variants trace like plain puzzles; an engine that cannot take the rules is refused before
/// the search, with its reason, and the page carries the houses and cages it draws.
#[test]
fn variants_trace_and_engines_that_cannot_take_them_say_why() {
    let run = sudolab(
        &[
            "trace",
            "corpora/variants/killer.json",
            "-s",
            "mrv,dlx-knuth",
        ],
        "",
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "sudolab: cannot trace this puzzle: dlx-knuth does not take killer puzzles: exact cover \
         takes houses and pairs of cells, not the sum of a cage (docs/variants.md lists the \
         engines that take every rule)\n"
    );
    let run = sudolab(
        &[
            "trace",
            "corpora/variants/killer.json",
            "-s",
            "mrv",
            "-o",
            "html",
            "--max-events",
            "50",
        ],
        "",
    );
    assert_eq!(run.code, 1, "cut: {}", run.stderr);
    let data = page_data(&run.stdout);
    let geometry = &data["geometry"];
    assert_eq!(geometry["rules"], "killer");
    assert_eq!(geometry["cages"].as_array().unwrap().len(), 27);
    assert_eq!(
        geometry["cages"][0],
        serde_json::json!({"sum": 13, "cells": [0, 9]})
    );
    assert_eq!(
        geometry["houses"]["b"][4],
        serde_json::json!([30, 31, 32, 39, 40, 41, 48, 49, 50])
    );
    assert_eq!(geometry["region"][80], 8);

    let run = sudolab(
        &[
            "trace",
            "--variant",
            "latin",
            "1...........2............",
            "-s",
            "dlx-knuth",
            "-o",
            "html",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let data = page_data(&run.stdout);
    let geometry = &data["geometry"];
    assert_eq!(geometry["rules"], "latin");
    assert!(geometry["houses"].get("b").is_none());
    assert_eq!(
        geometry["houses"]["c"][0],
        serde_json::json!([0, 5, 10, 15, 20])
    );
    assert!(
        geometry["region"]
            .as_array()
            .unwrap()
            .iter()
            .all(Value::is_null)
    );
}

/// `trace --human`: the person's path goes into the page's data beside the searches; other
/// forms and puzzles without one solution are refused with the reason.
#[test]
fn trace_human_puts_the_path_of_easiest_steps_on_the_page() {
    let run = sudolab(
        &[
            "trace",
            "4..3.....1....2.",
            "-s",
            "mrv",
            "--human",
            "-o",
            "html",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains(
        "\"human\":{\"hardest\":\"hidden single (box)\",\"rating\":\"1.2\",\"solved\":true,\
         \"steps\":[{\"cells\":[4],\"difficulty\":\"1.2\",\"effect\":\"r2c1 = 1\","
    ));
    assert!(run.stdout.contains("How a person solves it: "));
    let run = sudolab(&["trace", "4..3.....1....2.", "-s", "mrv"], "");
    assert!(!run.stdout.contains("\"human\""));
    let run = sudolab(&["trace", "4..3.....1....2.", "--human"], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "sudolab: --human draws a person's path on the html page: add -o html or --report \
         FILE.html\n"
    );
    let run = sudolab(&["trace", "................", "--human", "-o", "html"], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "sudolab: --human: not a proper puzzle: it has several solutions\n"
    );
}
