//! Published numbers reproduced: grid counts by the band method (Felgenhauer and Jarvis,
//! Pettersen), the uniform grid sampler's uniformity against grids enumerated by an engine, and
//! the table of docs/reproductions.md.

use std::collections::HashMap;

use sudolab::grids::GridSampler;
use sudolab::model::{Grid, Shape, to_line, validate};
use sudolab::strategy::{self, Limits, rng::stream};

use crate::cli::sudolab;
use crate::reproduction_table;

/// The published counts: 4x4 and 6x6 (Felgenhauer and Jarvis's paper and every enumeration
/// since), 8x8 with 2x4 boxes (Pettersen), each shape also counted transposed.
#[test]
fn grid_counts_match_the_published_figures() {
    for (shape, grids) in [
        ("2x2", "288"),
        ("2x3", "28200960"),
        ("3x2", "28200960"),
        ("2x4", "29136487207403520"),
        ("4x2", "29136487207403520"),
    ] {
        let run = sudolab(&["grids", "count", "--box", shape], "");
        assert_eq!(run.code, 0, "{shape}: {}", run.stderr);
        assert_eq!(run.stdout, format!("{grids}\n"), "{shape}");
    }
}

/// The JSON details add up to the count: multiplier times the classes' layouts times bands
/// times completions.
#[test]
fn grid_count_details_add_up_to_the_count() {
    let run = sudolab(&["grids", "count", "--box", "2x4", "--json"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let number = |value: &serde_json::Value| value.as_str().unwrap().parse::<u128>().unwrap();
    assert_eq!(json["box"], "2x4");
    assert_eq!(json["grids"], "29136487207403520");
    assert_eq!(
        (json["band_rows"].as_u64(), json["bands"].as_u64()),
        (Some(4), Some(2))
    );
    // 8! / (4!)^2 relabellings of the first stack times 2^3 column orders of the others.
    assert_eq!(number(&json["multiplier"]), 70 * 8);
    let classes = json["classes"].as_array().unwrap();
    assert_eq!(json["classes_count"].as_u64(), Some(classes.len() as u64));
    let sum: u128 = classes
        .iter()
        .map(|class| {
            number(&class["layouts"]) * number(&class["bands"]) * number(&class["completions"])
        })
        .sum();
    assert_eq!(number(&json["multiplier"]) * sum, 29_136_487_207_403_520);
    // With two bands the second band's layout is the first's complement, which has as many
    // bands: every class's completions equal its bands.
    assert!(
        classes
            .iter()
            .all(|class| class["bands"] == class["completions"])
    );
    // The classes hold the other three stacks in normal column order (35 assignments each);
    // with their 2^3 column orders, every one of the 70^3 choices of those stacks.
    let layouts: u128 = classes.iter().map(|class| number(&class["layouts"])).sum();
    assert_eq!(layouts, 35u128.pow(3));
    assert_eq!(layouts * 8, 70u128.pow(3));
    assert!(json["seconds"].as_f64().is_some());
}

#[test]
fn boxes_out_of_reach_are_refused() {
    for shape in ["3x4", "1x4", "4x4"] {
        let run = sudolab(&["grids", "count", "--box", shape], "");
        assert_eq!(run.code, 2, "{shape}");
        assert_eq!(run.stdout, "");
        assert_eq!(
            run.stderr,
            format!(
                "sudolab: --box {shape}: grid counting needs boxes of at least 2 rows and 2 \
                 columns and a board side of at most 9 (2x2, 2x3, 3x2, 2x4, 4x2, 3x3)\n"
            )
        );
    }
    let run = sudolab(&["grids", "sample", "--box", "3x4", "-c", "1"], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .starts_with("sudolab: --box 3x4: grid counting needs"),
        "{}",
        run.stderr
    );
}

/// Every solution of the empty board of `shape` whose cells agree with `given`, by `fast`.
fn completions(given: &Grid) -> Vec<Grid> {
    let mut found = Vec::new();
    let outcome =
        strategy::find("fast")
            .unwrap()
            .search(given, &Limits::default(), &mut |grid: &Grid| {
                found.push(grid.clone());
            });
    assert_eq!(outcome.stopped, None);
    found
}

/// The chance of a chi-square statistic at least `statistic` with `df` degrees of freedom: the
/// regularized upper incomplete gamma function Q(df/2, statistic/2), by its series below
/// a + 1 and its continued fraction above (Numerical Recipes, 6.2, whose one-letter names it
/// keeps).
#[allow(clippy::many_single_char_names)]
fn chi_square_p(statistic: f64, df: usize) -> f64 {
    let (a, x) = (df as f64 / 2.0, statistic / 2.0);
    let ln_gamma = |z: f64| -> f64 {
        // Lanczos, g = 7, n = 9: 15 significant digits for z > 0.
        const C: [f64; 9] = [
            0.999_999_999_999_809_9,
            676.520_368_121_885_1,
            -1_259.139_216_722_402_8,
            771.323_428_777_653_1,
            -176.615_029_162_140_6,
            12.507_343_278_686_905,
            -0.138_571_095_265_720_12,
            9.984_369_578_019_572e-6,
            1.505_632_735_149_311_6e-7,
        ];
        let z = z - 1.0;
        let t = z + 7.5;
        let sum = C[0] + (1..9).map(|i| C[i] / (z + i as f64)).sum::<f64>();
        0.5 * (2.0 * std::f64::consts::PI).ln() + (z + 0.5) * t.ln() - t + sum.ln()
    };
    let front = (-x + a * x.ln() - ln_gamma(a)).exp();
    if x < a + 1.0 {
        let (mut term, mut sum, mut n) = (1.0 / a, 1.0 / a, a);
        while term.abs() > sum.abs() * 1e-15 {
            n += 1.0;
            term *= x / n;
            sum += term;
        }
        1.0 - sum * front
    } else {
        // Lentz's method for the continued fraction.
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..10_000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            d = if d.abs() < tiny { tiny } else { d };
            c = b + an / c;
            c = if c.abs() < tiny { tiny } else { c };
            d = 1.0 / d;
            let step = d * c;
            h *= step;
            if (step - 1.0).abs() < 1e-15 {
                break;
            }
        }
        front * h
    }
}

#[test]
fn the_chi_square_tail_matches_tabled_values() {
    // Tabled critical values: P(chi2_1 >= 3.841) = 0.05, P(chi2_10 >= 23.209) = 0.01,
    // P(chi2_287 >= 287) close to one half, P(chi2_35 >= 57.342) = 0.01.
    assert!((chi_square_p(3.841, 1) - 0.05).abs() < 1e-4);
    assert!((chi_square_p(23.209, 10) - 0.01).abs() < 1e-4);
    assert!((chi_square_p(57.342, 35) - 0.01).abs() < 1e-4);
    assert!((chi_square_p(287.0, 287) - 0.5).abs() < 0.02);
}

/// The statistic of observed counts against expected counts.
fn chi_square(observed: &[u64], expected: &[f64]) -> f64 {
    observed
        .iter()
        .zip(expected)
        .map(|(&o, &e)| (o as f64 - e).powi(2) / e)
        .sum()
}

/// The seeds of the uniformity tests: fixed, so a pass or a failure is the same on every run.
const SEEDS: [u64; 3] = [1, 2, 3];

/// 4x4: all 288 grids, enumerated by an engine, each drawn about 20 times per seed; the
/// chi-square test of equal chances passes at p > 0.01 for every seed.
#[test]
fn sampled_4x4_grids_are_uniform() {
    let shape = Shape::new(2, 2).unwrap();
    let all = completions(&Grid::empty(shape));
    assert_eq!(all.len(), 288);
    let index: HashMap<Vec<u8>, usize> = all
        .iter()
        .enumerate()
        .map(|(i, grid)| (grid.cells().to_vec(), i))
        .collect();
    let sampler = GridSampler::new(shape).unwrap();
    let draws = 288 * 20;
    for seed in SEEDS {
        let mut observed = vec![0u64; 288];
        for i in 0..draws {
            let grid = sampler.sample(&mut stream(seed, i));
            observed[index[grid.cells()]] += 1;
        }
        let expected = vec![draws as f64 / 288.0; 288];
        let p = chi_square_p(chi_square(&observed, &expected), 287);
        assert!(p > 0.01, "seed {seed}: p = {p}");
    }
}

/// 6x6: 28,200,960 grids are too many to draw each often, so the test is over a statistic whose
/// exact distribution an engine gives: relabel the digits so that the first row reads 123456;
/// the second row is then one of 36 (456 in some order, then 123 in some order), and its chance
/// is the number of grids with those two rows over the 39,168 with that first row, each counted
/// by `fast`. Chi-square over the 36 at p > 0.01 for every seed.
#[test]
fn sampled_6x6_grids_are_uniform_in_their_second_row() {
    let shape = Shape::new(2, 3).unwrap();
    let mut first_row = Grid::empty(shape);
    for i in 0..6 {
        first_row.set(i, i as u8 + 1);
    }
    let grids = completions(&first_row);
    assert_eq!(grids.len(), 39_168);
    let mut second_rows: HashMap<Vec<u8>, usize> = HashMap::new();
    let mut weight = Vec::new();
    for grid in &grids {
        let row = grid.cells()[6..12].to_vec();
        let next = second_rows.len();
        let at = *second_rows.entry(row).or_insert(next);
        if at == weight.len() {
            weight.push(0u64);
        }
        weight[at] += 1;
    }
    assert_eq!(weight.len(), 36);
    let sampler = GridSampler::new(shape).unwrap();
    let draws = 3_600;
    for seed in SEEDS {
        let mut observed = vec![0u64; 36];
        for i in 0..draws {
            let grid = sampler.sample(&mut stream(seed, i));
            assert_eq!(validate(&Grid::empty(shape), &grid), Ok(()));
            let cells = grid.cells();
            // The digit that stands at column j of the first row becomes j + 1.
            let mut relabel = [0u8; 7];
            for (j, &digit) in cells[..6].iter().enumerate() {
                relabel[digit as usize] = j as u8 + 1;
            }
            let row: Vec<u8> = cells[6..12].iter().map(|&d| relabel[d as usize]).collect();
            observed[second_rows[&row]] += 1;
        }
        let expected: Vec<f64> = weight
            .iter()
            .map(|&w| draws as f64 * w as f64 / 39_168.0)
            .collect();
        let p = chi_square_p(chi_square(&observed, &expected), 35);
        assert!(p > 0.01, "seed {seed}: p = {p}");
    }
}

/// The command writes grid I of a run from stream I of the seed: the library's draws, one line
/// each.
#[test]
fn grids_sample_writes_the_seeded_draws_one_per_line() {
    let run = sudolab(
        &["grids", "sample", "--box", "2x3", "--seed", "9", "-c", "4"],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let sampler = GridSampler::new(Shape::new(2, 3).unwrap()).unwrap();
    let mut expected = String::new();
    for i in 0..4 {
        expected.push_str(&to_line(&sampler.sample(&mut stream(9, i))).unwrap());
        expected.push('\n');
    }
    assert_eq!(run.stdout, expected);
    let again = sudolab(
        &["grids", "sample", "--box", "2x3", "--seed", "9", "-c", "4"],
        "",
    );
    assert_eq!(again.stdout, run.stdout);
}

/// Every row of docs/reproductions.md's table whose time is under a minute and that reads
/// nothing outside the repository: its command, run with this build's `sudolab` first on PATH,
/// ends its output with the published figure, which is also the table's sudolab column. The
/// rows that read the public corpora run in the public-corpora step
/// (`public_corpora::reproduction_rows_on_the_public_corpora`).
#[test]
fn every_entry_under_a_minute_reproduces() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_sudolab"))
        .parent()
        .unwrap();
    let mut ran = 0;
    for row in reproduction_table::rows(root) {
        if row.seconds >= 60.0 || row.reads_public_corpora() {
            continue;
        }
        reproduction_table::assert_reproduces(&row, root, bin_dir, &[]);
        ran += 1;
    }
    assert!(ran >= 5, "the table's fast entries ran: {ran}");
}
