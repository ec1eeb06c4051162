//! Berthier's controlled-bias generator (`generate --unbiased`, `--stats`) against the 4x4
//! board, where every grid and every minimal puzzle can be enumerated, and essentially
//! different grids (`grids count --essentially-different`) against the published figures.

use std::collections::BTreeMap;

use sudolab::generate::unbiased::{self, binomial};
use sudolab::grids::GridSampler;
use sudolab::model::{Grid, Shape};
use sudolab::strategy::{self, Limits, Verdict, rng::stream};

use crate::cli::sudolab;

fn fast() -> &'static dyn strategy::Strategy {
    strategy::find("fast").unwrap()
}

fn unique(puzzle: &Grid) -> bool {
    fast().count_up_to(puzzle, 2, &Limits::default()).verdict() == Verdict::Unique
}

/// Each line's puzzle has its line's solution as only solution, and no clue can go.
fn assert_minimal_and_unique(stdout: &str, shape: Shape) {
    for line in stdout.lines() {
        let (puzzle, solution) = line.split_once(' ').expect("puzzle and solution");
        let puzzle: Grid = sudolab::model::parse_line_record(puzzle.as_bytes(), Some(shape), 1)
            .unwrap()
            .puzzle;
        let solution = sudolab::model::parse_line_record(solution.as_bytes(), Some(shape), 1)
            .unwrap()
            .puzzle;
        assert_eq!(fast().solve(&puzzle, &Limits::default()).0, Some(solution));
        assert!(unique(&puzzle), "{line}");
        for cell in 0..shape.cell_count() {
            if puzzle.get(cell) != 0 {
                let mut fewer = puzzle.clone();
                fewer.set(cell, 0);
                assert!(!unique(&fewer), "{line}: clue {cell} can go");
            }
        }
    }
}

/// `generate --unbiased --box SHAPE --seed 5 -c COUNT` with `more` options, at one job and
/// at two: the outputs, each run successful.
fn at_one_and_two_jobs(shape: &str, count: &str, more: &[&str]) -> (String, String) {
    let args = [
        "generate",
        "--unbiased",
        "--box",
        shape,
        "--seed",
        "5",
        "-c",
        count,
    ];
    let [one, two] = ["1", "2"].map(|jobs| {
        let run = sudolab(&[&args[..], more, &["-j", jobs]].concat(), "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.stdout
    });
    (one, two)
}

/// A seed's puzzles are fixed: the same lines at one job and at two, each minimal and unique
/// with the solution written beside it.
#[test]
fn a_seed_gives_the_same_minimal_puzzles_at_any_jobs() {
    for (shape, count, expected) in [("2x2", "4", PINNED_4X4), ("2x3", "2", PINNED_6X6)] {
        let (one, two) = at_one_and_two_jobs(shape, count, &["--with-solution"]);
        assert_eq!(one, expected, "{shape}");
        assert_eq!(two, one, "{shape}");
        assert_minimal_and_unique(&one, shape.parse::<Shape>().unwrap());
    }
}

/// With many attempts a grid, the sets a grid's attempts share change the checks they make,
/// but a seed still fixes everything written, checks included, at any jobs: the runs span
/// many chunks at both sizes and grids split across chunks (more attempts a grid than a
/// chunk makes of one).
#[test]
fn shared_sets_give_the_same_checks_at_any_jobs() {
    for (shape, count, per_grid) in [
        ("2x2", "40", "20"),
        ("2x3", "12", "7"),
        ("2x2", "3000", "20000"),
    ] {
        let more = ["--attempts-per-grid", per_grid, "--json"];
        let (one, two) = at_one_and_two_jobs(shape, count, &more);
        let (one, two): (serde_json::Value, serde_json::Value) = (
            serde_json::from_str(&one).unwrap(),
            serde_json::from_str(&two).unwrap(),
        );
        let checks = |run: &serde_json::Value| -> Vec<(u64, u64)> {
            run["puzzles"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| (p["index"].as_u64().unwrap(), p["checks"].as_u64().unwrap()))
                .collect()
        };
        assert_eq!(checks(&one).len(), count.parse::<usize>().unwrap());
        assert_eq!(
            checks(&one),
            checks(&two),
            "{shape}, {per_grid} attempts a grid"
        );
        assert_eq!(one["distribution"], two["distribution"]);
    }
}

const PINNED_4X4: &str = concat!(
    ".2..4...2..3.3.. 3241413224131324\n",
    ".1.....3.....2.4 3142241343211234\n",
    "1......1.3....4. 1234342143122143\n",
    ".4....2...4..3.. 2431312412434312\n",
);
const PINNED_6X6: &str = concat!(
    ".....53...4..4...3..6..26.......26.. 164325325146241563536412613254452631\n",
    ".....1...32..12...4...3.5...6...6..3 623451154326312645465132531264246513\n",
);

/// The real distribution of clue counts over every minimal 4x4 puzzle of every grid: for each
/// of the 12 grids whose first row is 1234 (each stands for its 24 relabellings, which have
/// the same puzzles), a set of cells is a unique puzzle when it meets every set where another
/// grid differs from this one, and minimal when no clue of it can go.
fn minimal_4x4_puzzles_by_clues() -> BTreeMap<usize, u64> {
    let shape = Shape::new(2, 2).unwrap();
    let mut grids = Vec::new();
    fast().search(
        &Grid::empty(shape),
        &Limits::default(),
        &mut |grid: &Grid| {
            grids.push(grid.cells().to_vec());
        },
    );
    assert_eq!(grids.len(), 288);
    let mut counts = BTreeMap::new();
    for grid in grids.iter().filter(|grid| grid[..4] == [1, 2, 3, 4]) {
        let differences: Vec<u16> = grids
            .iter()
            .filter(|other| *other != grid)
            .map(|other| {
                (0..16)
                    .filter(|&c| other[c] != grid[c])
                    .map(|c| 1u16 << c)
                    .sum()
            })
            .collect();
        let is_unique = |set: u16| differences.iter().all(|&d| d & set != 0);
        for set in 0..=u16::MAX {
            if is_unique(set) && (0..16).all(|c| set & (1 << c) == 0 || !is_unique(set & !(1 << c)))
            {
                *counts.entry(set.count_ones() as usize).or_insert(0) += 1;
            }
        }
    }
    counts
}

/// The mean and standard deviation of the clue counts of the puzzles counted in `by_clues`.
fn moments_of(by_clues: &BTreeMap<usize, u64>) -> (f64, f64) {
    let total = by_clues.values().sum::<u64>() as f64;
    let mean = by_clues
        .iter()
        .map(|(&n, &m)| n as f64 * m as f64)
        .sum::<f64>()
        / total;
    let variance = by_clues
        .iter()
        .map(|(&n, &m)| (n as f64 - mean).powi(2) * m as f64)
        .sum::<f64>()
        / total;
    (mean, variance.sqrt())
}

/// Attempts that share the unavoidable sets their grid's earlier attempts found make the same
/// attempts as the plain method (breaking point, puzzle, verdict), on every board the sampler
/// draws, with under half its checks on 9x9 once the sets are known.
#[test]
fn known_sets_change_the_checks_and_nothing_else() {
    for (boxes, grids, per_grid) in [((2, 2), 20, 20), ((2, 3), 20, 100), ((3, 3), 2, 150)] {
        let shape = Shape::new(boxes.0, boxes.1).unwrap();
        let sampler = GridSampler::new(shape).unwrap();
        let (mut plain_checks, mut known_checks, mut minimal) = (0, 0, 0);
        for grid_index in 0..grids {
            let grid = sampler.sample(&mut stream(3, grid_index));
            let mut known = unbiased::KnownSets::new();
            for nth in 0..per_grid {
                let index = grid_index * per_grid + nth;
                let plain = unbiased::attempt(grid.clone(), fast(), &mut stream(9, index), index);
                let helped = unbiased::attempt_knowing(
                    grid.clone(),
                    fast(),
                    &mut stream(9, index),
                    index,
                    &mut known,
                );
                assert_eq!(
                    (&helped.puzzle, helped.clues, helped.minimal),
                    (&plain.puzzle, plain.clues, plain.minimal),
                    "{shape} grid {grid_index} attempt {nth}"
                );
                plain_checks += plain.checks;
                known_checks += helped.checks;
                minimal += u64::from(plain.minimal);
            }
            assert!(!known.is_empty(), "{shape}: no set found");
        }
        assert!(minimal > 0 || shape.side() == 9, "{shape}: nothing kept");
        assert!(
            known_checks < plain_checks,
            "{shape}: {known_checks} against {plain_checks}"
        );
        if shape.side() == 9 {
            assert!(
                2 * known_checks < plain_checks,
                "{known_checks} against {plain_checks}"
            );
        }
    }
}

/// The generator on 4x4 against the enumeration: a minimal n-clue puzzle comes out with
/// chance 1 / C(16, n), so the kept puzzles' clue counts follow M(n) / C(16, n) (M(n): the
/// minimal n-clue puzzles), which a chi-square test checks (p > 0.01, fixed seed); and the
/// weighted estimate of the mean and spread falls within 3 standard errors of the exact ones.
#[test]
fn the_weighted_4x4_distribution_matches_the_enumeration() {
    let exact = minimal_4x4_puzzles_by_clues();
    let (mean, sd) = moments_of(&exact);
    let shape = Shape::new(2, 2).unwrap();
    let sampler = GridSampler::new(shape).unwrap();
    let mut clues = Vec::new();
    for index in 0..4_000 {
        let mut rng = stream(11, index);
        let attempt = unbiased::attempt(sampler.sample(&mut rng), fast(), &mut rng, index);
        if attempt.minimal {
            clues.push((attempt.clues, index));
        }
    }
    let kept = clues.len() as f64;
    let chance: Vec<(usize, f64)> = exact
        .iter()
        .map(|(&n, &m)| (n, m as f64 / binomial(16, n)))
        .collect();
    let chance_total: f64 = chance.iter().map(|(_, c)| c).sum();
    let statistic: f64 = chance
        .iter()
        .map(|&(n, c)| {
            let expected = kept * c / chance_total;
            let observed = clues.iter().filter(|&&(k, _)| k == n).count() as f64;
            (observed - expected).powi(2) / expected
        })
        .sum();
    // Critical values of chi-square at p = 0.01 for 1 to 4 degrees of freedom.
    let critical = [6.635, 9.210, 11.345, 13.277][chance.len() - 2];
    assert!(
        statistic < critical,
        "{statistic} on {} counts",
        chance.len()
    );
    let summary = unbiased::summarize(16, &clues).unwrap();
    let weighted = summary.weighted;
    assert!(
        (weighted.mean - mean).abs() < 3.0 * weighted.mean_se,
        "{weighted:?} against {mean}"
    );
    assert!(
        (weighted.sd - sd).abs() < 3.0 * weighted.sd_se,
        "{weighted:?} against {sd}"
    );
}

/// Many attempts on each grid (`--attempts-per-grid`), through the command line: the first
/// attempt on each grid is the one-attempt run's (the same puzzles where it keeps one), and
/// the weighted mean and spread still fall within 3 standard errors (a grid's puzzles one
/// sample) of the enumeration's.
#[test]
fn many_attempts_a_grid_keep_the_weighted_estimate_unbiased() {
    let exact = minimal_4x4_puzzles_by_clues();
    let (mean, sd) = moments_of(&exact);
    let json = |args: &[&str]| -> serde_json::Value {
        let run = sudolab(args, "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        serde_json::from_str(&run.stdout).unwrap()
    };
    let grouped = json(&[
        "generate",
        "--unbiased",
        "--box",
        "2x2",
        "--seed",
        "7",
        "-c",
        "600",
        "--attempts-per-grid",
        "20",
        "--json",
    ]);
    assert_eq!(grouped["attempts_per_grid"], 20);
    let puzzles = grouped["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 600);
    // A grid's first attempt (index a multiple of 20) is attempt index / 20 of the plain run.
    let single = json(&[
        "generate",
        "--unbiased",
        "--box",
        "2x2",
        "--seed",
        "7",
        "-c",
        "50",
        "--json",
    ]);
    let plain: BTreeMap<u64, &serde_json::Value> = single["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["index"].as_u64().unwrap(), &p["line"]))
        .collect();
    let mut compared = 0;
    for puzzle in puzzles {
        let index = puzzle["index"].as_u64().unwrap();
        if index % 20 == 0
            && let Some(line) = plain.get(&(index / 20))
        {
            assert_eq!(&&puzzle["line"], line, "attempt {index}");
            compared += 1;
        }
    }
    assert!(compared > 0, "no first attempt of a grid to compare");
    let weighted = &grouped["distribution"]["weighted"];
    let (m, m_se) = (
        weighted["mean"].as_f64().unwrap(),
        weighted["mean_se"].as_f64().unwrap(),
    );
    let (s, s_se) = (
        weighted["sd"].as_f64().unwrap(),
        weighted["sd_se"].as_f64().unwrap(),
    );
    assert!((m - mean).abs() < 3.0 * m_se, "{weighted} against {mean}");
    assert!((s - sd).abs() < 3.0 * s_se, "{weighted} against {sd}");
}

#[test]
fn unbiased_refuses_what_would_bias_it_or_what_it_cannot_draw() {
    let run = sudolab(&["generate", "--unbiased", "--box", "3x4"], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "sudolab: --unbiased draws uniform grids: --box 3x4: grid counting needs boxes of at \
         least 2 rows and 2 columns and a board side of at most 9 (2x2, 2x3, 3x2, 2x4, 4x2, \
         3x3)\n"
    );
    let run = sudolab(&["generate", "--unbiased", "--clues", "20"], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("the argument '--unbiased' cannot be used with '--clues <K>'"),
        "{}",
        run.stderr
    );
    let run = sudolab(
        &["generate", "--unbiased", "--box", "2x2", "--te-depth", "1"],
        "",
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "sudolab: --unbiased keeps every minimal puzzle of its attempts: --technique, \
         --propagation and --te-depth would bias it again; generate without them\n"
    );
}

/// --stats keeps today's summary line and adds the distribution; --json carries the attempts
/// and the same distribution.
#[test]
fn stats_print_the_raw_and_weighted_distribution() {
    let run = sudolab(
        &[
            "generate",
            "--unbiased",
            "--box",
            "2x2",
            "--seed",
            "3",
            "-c",
            "50",
            "--stats",
            "-j",
            "1",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.lines().count(), 50);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert!(
        lines[0].starts_with("sudolab: 50 4x4 puzzles in "),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1..].join("\n"), PINNED_STATS);
    let json = sudolab(
        &[
            "generate",
            "--unbiased",
            "--box",
            "2x2",
            "--seed",
            "3",
            "-c",
            "50",
            "--json",
        ],
        "",
    );
    assert_eq!(json.code, 0, "{}", json.stderr);
    let value: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let puzzles = value["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 50);
    let lines: Vec<&str> = run.stdout.lines().collect();
    for (puzzle, line) in puzzles.iter().zip(lines) {
        assert_eq!(puzzle["line"], *line);
    }
    assert_eq!(value["distribution"]["puzzles"], 50);
    assert_eq!(value["unbiased"], true);
    let attempts = value["attempts"].as_u64().unwrap();
    assert!(
        lines_attempts(&run.stderr) == Some(attempts),
        "{}",
        run.stderr
    );
}

fn lines_attempts(stderr: &str) -> Option<u64> {
    let at = stderr.find("kept of ")? + "kept of ".len();
    stderr[at..].split_whitespace().next()?.parse().ok()
}

const PINNED_STATS: &str = concat!(
    "sudolab: --unbiased: 50 minimal puzzles kept of 381 attempts (13.12%)\n",
    "  clues   kept   raw %   weighted % (± se)\n",
    "      4     19  38.000    19.507 ± 4.608\n",
    "      5     29  58.000    71.458 ± 6.739\n",
    "      6      2   4.000     9.035 ± 5.948\n",
    "  raw:      mean 4.660 ± 0.078, sd 0.552 ± 0.044 (the kept puzzles, biased towards fewer clues)\n",
    "  weighted: mean 4.895 ± 0.082, sd 0.524 ± 0.070 (each puzzle weighted by C(16, clues): all minimal puzzles; standard errors by the delta method)",
);

/// The published counts of essentially different grids: 2 for 4x4, 49 for 6x6 (either box
/// orientation); 8x8 is refused with what stands in the way.
#[test]
fn essentially_different_grids_match_the_published_counts() {
    for (shape, classes) in [("2x2", "2"), ("2x3", "49"), ("3x2", "49")] {
        let run = sudolab(
            &["grids", "count", "--box", shape, "--essentially-different"],
            "",
        );
        assert_eq!(run.code, 0, "{shape}: {}", run.stderr);
        assert_eq!(run.stdout, format!("{classes}\n"), "{shape}");
    }
    let run = sudolab(
        &[
            "grids",
            "count",
            "--box",
            "2x3",
            "--essentially-different",
            "--json",
        ],
        "",
    );
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["essentially_different"], 49);
    assert_eq!(value["box"], "2x3");
    // Burnside's lemma, counted beside the orbits: (2!)^3 * 3! row moves times (3!)^2 * 2!
    // column moves, no transposition for oblong boxes.
    assert_eq!(value["group_order"], 3456);
    // 9x9 is counted by Burnside's lemma alone, in minutes (the reproductions table); the
    // 8x8 boards are refused with what stands in the way.
    let run = sudolab(
        &["grids", "count", "--box", "2x4", "--essentially-different"],
        "",
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "sudolab: --box 2x4 --essentially-different: counted as orbits only for 2x2, 2x3 and 3x2 \
         boxes, whose grids with a fixed first row fit in memory (about 7.2e11 here), and by \
         Burnside's lemma alone for 3x3; other boxes are refused: their grids are too many for \
         orbits, and the lemma's search for the grids each conjugacy class fixes is not \
         measured on them\n"
    );
}

const GRID_RUN: [&str; 11] = [
    "generate",
    "--unbiased",
    "--box",
    "2x2",
    "--seed",
    "5",
    "--grids",
    "300",
    "--attempts-per-grid",
    "20",
    "--json",
];

fn json_of(args: &[&str]) -> serde_json::Value {
    let run = sudolab(args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    serde_json::from_str(&run.stdout).unwrap()
}

/// `GRID_RUN`'s shards 1/3, 2/3 and 3/3, written to `dir`: their documents and paths.
fn grid_shards(dir: &std::path::Path) -> Vec<(serde_json::Value, String)> {
    std::fs::create_dir_all(dir).unwrap();
    ["1/3", "2/3", "3/3"]
        .iter()
        .map(|k| {
            let shard = json_of(&[&GRID_RUN[..], &["--shard", k, "-j", "1"]].concat());
            let path = dir.join(format!("shard-{}.json", k.replace('/', "-")));
            std::fs::write(&path, shard.to_string()).unwrap();
            (shard, path.to_str().unwrap().to_string())
        })
        .collect()
}

/// `--grids M --shard K/N`: the shards of a run of every attempt on M grids are that run cut
/// at grid boundaries (the same puzzles and checks), whose first puzzles are a count's run's,
/// and `--summarize` puts their documents together into the whole run's distribution.
#[test]
fn grid_shards_are_the_run_and_summarize_puts_them_together() {
    let dir = std::env::temp_dir().join(format!("sudolab-grid-shards-{}", std::process::id()));
    let rows = |document: &serde_json::Value| -> Vec<(u64, u64, u64, String)> {
        document["puzzles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let number = |name: &str| p[name].as_u64().unwrap();
                let line = p["line"].as_str().unwrap().to_string();
                (number("index"), number("clues"), number("checks"), line)
            })
            .collect()
    };
    let whole = json_of(&GRID_RUN);
    assert_eq!(whole["grids"], serde_json::json!([0, 300]));
    assert_eq!(whole["run_grids"], 300);
    assert_eq!(whole["attempts"], 6000);
    let shards = grid_shards(&dir);
    let joined: Vec<_> = shards.iter().flat_map(|(shard, _)| rows(shard)).collect();
    assert_eq!(joined, rows(&whole));
    // A count's run of as many puzzles keeps the same ones.
    let count = rows(&whole).len().to_string();
    let mut counted = GRID_RUN.to_vec();
    counted.splice(6..8, ["-c", &count]);
    let counted = json_of(&counted);
    assert_eq!(rows(&counted), rows(&whole));
    // The shards in any order make the whole run's distribution.
    let summary = json_of(&[
        "generate",
        "--unbiased",
        "--json",
        "--summarize",
        &shards[2].1,
        &shards[0].1,
        &shards[1].1,
    ]);
    assert_eq!(summary["distribution"], whole["distribution"]);
    assert_eq!(summary["attempts"], 6000);
    assert_eq!(summary["grids"], serde_json::json!([0, 300]));
    assert_eq!(summary["run_grids"], 300);
    assert_eq!(summary["shards"], 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What cannot be one whole run is refused, by name: a gap (at either end too), an overlap,
/// shards of two seeds, a document without the run's grid count, a shard that did not
/// finish, and shards of a count's run.
#[test]
fn summarize_refuses_what_is_not_one_whole_run() {
    let dir = std::env::temp_dir().join(format!("sudolab-grid-refused-{}", std::process::id()));
    let shards = grid_shards(&dir);
    let paths: Vec<&str> = shards.iter().map(|(_, path)| path.as_str()).collect();
    let refused = |args: &[&str], expected: &str| {
        let run = sudolab(args, "");
        assert_eq!(run.code, 2, "{args:?}: {}", run.stdout);
        assert!(run.stderr.contains(expected), "{args:?}: {}", run.stderr);
    };
    let summarize = ["generate", "--unbiased", "--summarize"];
    refused(
        &[&summarize[..], &[paths[0], paths[2]]].concat(),
        "grids 100..200 are in no shard",
    );
    // Shards missing at the run's ends are gaps too: the documents record the run's grids.
    refused(
        &[&summarize[..], &[paths[0], paths[1]]].concat(),
        "grids 200..300 are in no shard: the run has 300 grids and the last shard given",
    );
    refused(
        &[&summarize[..], &[paths[1], paths[2]]].concat(),
        "grids 0..100 are in no shard: the run's grids start at 0",
    );
    // Unless a partial join is asked for: the gap is named, the rest joined.
    let partial = json_of(
        &[
            &summarize[..],
            &[paths[0], paths[2], "--allow-partial", "--json"],
        ]
        .concat(),
    );
    assert_eq!(partial["missing"], serde_json::json!([[100, 200]]));
    assert_eq!(partial["attempts"], 4000);
    let kept = |document: &serde_json::Value| document["puzzles"].as_array().unwrap().len();
    assert_eq!(partial["puzzles"], kept(&shards[0].0) + kept(&shards[2].0));
    refused(
        &[&summarize[..], &[paths[0], paths[1], paths[0]]].concat(),
        "overlap: give each shard once",
    );
    let mut other = shards[1].0.clone();
    other["seed"] = serde_json::json!(6);
    let other_path = dir.join("other-seed.json");
    let other_name = other_path.to_str().unwrap();
    std::fs::write(&other_path, other.to_string()).unwrap();
    refused(
        &[&summarize[..], &[paths[0], other_name]].concat(),
        "differ in \"seed\"",
    );
    other["seed"] = serde_json::json!(5);
    let run_grids = other.as_object_mut().unwrap().remove("run_grids").unwrap();
    std::fs::write(&other_path, other.to_string()).unwrap();
    refused(
        &[&summarize[..], &[other_name]].concat(),
        "no \"run_grids\" (the M of --grids M): written by an earlier sudolab",
    );
    other["run_grids"] = run_grids;
    other["attempts"] = serde_json::json!(1999);
    std::fs::write(&other_path, other.to_string()).unwrap();
    refused(
        &[&summarize[..], &[other_name]].concat(),
        "1999 attempts made of the 2000 on grids 100..200 at 20 a grid: the shard did not \
         finish",
    );
    std::fs::write(&other_path, "{\"seed\": 5,\n \"box\": }").unwrap();
    refused(
        &[&summarize[..], &[other_name]].concat(),
        "not a JSON document (expected the --json output of 'generate --unbiased --grids M'): \
         expected value at line 2 column 9",
    );
    refused(
        &["generate", "--unbiased", "--shard", "1/2", "-c", "3"],
        "--shard with --unbiased splits the grids of --grids M",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
