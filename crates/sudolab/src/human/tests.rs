//! Unit tests of the step solver: hand-checked positions per technique, and every step of the
//! bundled puzzles checked against their solutions.

use super::*;
use crate::model::parse_line_record;

fn grid(line: &str) -> Grid {
    line.parse().expect("a valid test puzzle")
}

/// Board A of docs/teaching.md.
const BOARD_A: &str =
    "030260701680070090190004500820100040004602900050003028009300074040050036703018000";

#[test]
fn technique_slugs_are_the_json_names() {
    for technique in Technique::ALL {
        assert_eq!(
            serde_json::to_value(technique).unwrap(),
            serde_json::Value::from(technique.slug())
        );
    }
}

#[test]
fn board_a_is_solved_by_singles_and_every_step_is_right() {
    let puzzle = grid(BOARD_A);
    let path = solve_path(&puzzle).unwrap();
    assert!(path.solved);
    let solution = is_proper(&puzzle).unwrap();
    check_path(&path, &solution).unwrap();
    assert_eq!(path.end, solution);
    assert_eq!(path.steps.len(), 81 - puzzle.clue_count());
}

/// Every puzzle with a known solution in a bundled file: the path never contradicts the
/// solution, and ends solved or stopped; returns (solved, stopped).
fn replay_file(path: &str) -> (usize, usize) {
    let text = std::fs::read_to_string(format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR")))
        .expect("a bundled corpus file");
    let (mut solved, mut stopped) = (0, 0);
    for (index, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let record = parse_line_record(line.as_bytes(), None, index + 1).expect("bundled puzzle");
        let solution = record.solution.expect("bundled files give solutions");
        let path_taken = solve_path(&record.puzzle).expect("bundled puzzles are proper");
        if let Err(wrong) = check_path(&path_taken, &solution) {
            panic!("{path}:{}: {wrong}", index + 1);
        }
        if path_taken.solved {
            assert_eq!(path_taken.end, solution, "{path}:{}", index + 1);
            solved += 1;
        } else {
            stopped += 1;
        }
    }
    (solved, stopped)
}

#[test]
fn every_step_on_the_bundled_generated_puzzles_agrees_with_the_solution() {
    assert_eq!(replay_file("corpora/generated/4x4.txt"), (20, 0));
    assert_eq!(replay_file("corpora/generated/6x6.txt"), (20, 0));
    assert_eq!(replay_file("corpora/generated/9x9-minimal.txt"), (100, 0));
    assert_eq!(replay_file("corpora/generated/9x9-rot180.txt"), (20, 0));
}

#[test]
fn twelve_by_twelve_puzzles_are_solved_with_every_step_right() {
    assert_eq!(replay_file("corpora/generated/12x12.txt"), (10, 0));
}

/// The first use of each technique on the path of the first 300 puzzles of the rated corpus
/// (`rated/` of the public corpora), pinned: puzzle, step number, technique, effect, difficulty in
/// tenths. Each path is also checked against the puzzle's solution.
const PINNED: &[(&str, usize, Technique, &str, u32)] = &[
    (
        "7...4...6...759...9..8.1..3...524....3.....2.4.......75.1...2.8.8.....1.2.9...3.4",
        1,
        Technique::HiddenSingleBox,
        "r3c5 = 6",
        12,
    ),
    (
        "7...4...6...759...9..8.1..3...524....3.....2.4.......75.1...2.8.8.....1.2.9...3.4",
        4,
        Technique::HiddenSingleLine,
        "r4c8 = 3",
        15,
    ),
    (
        "7...4...6...759...9..8.1..3...524....3.....2.4.......75.1...2.8.8.....1.2.9...3.4",
        5,
        Technique::Pointing,
        "r1c2 <> 2, r1c3 <> 2",
        26,
    ),
    (
        "7...4...6...759...9..8.1..3...524....3.....2.4.......75.1...2.8.8.....1.2.9...3.4",
        10,
        Technique::WxyzWing,
        "r4c3 <> 8, r6c3 <> 8",
        56,
    ),
    (
        "7...4...6...759...9..8.1..3...524....3.....2.4.......75.1...2.8.8.....1.2.9...3.4",
        11,
        Technique::Aic,
        "r9c6 <> 7",
        70,
    ),
    (
        "7...4...6...759...9..8.1..3...524....3.....2.4.......75.1...2.8.8.....1.2.9...3.4",
        13,
        Technique::CellForcingChain,
        "r6c5 <> 8",
        87,
    ),
    (
        "7...4...6...759...9..8.1..3...524....3.....2.4.......75.1...2.8.8.....1.2.9...3.4",
        29,
        Technique::VwxyzWing,
        "r4c7 <> 9",
        63,
    ),
    (
        "7...4...6...759...9..8.1..3...524....3.....2.4.......75.1...2.8.8.....1.2.9...3.4",
        35,
        Technique::Claiming,
        "r7c6 <> 7",
        28,
    ),
    (
        "7...4...6...759...9..8.1..3...524....3.....2.4.......75.1...2.8.8.....1.2.9...3.4",
        44,
        Technique::NakedSingle,
        "r7c6 = 6",
        23,
    ),
    (
        "7...4...6...759...9..8.1..3...524....3.....2.4.......75.1...2.8.8.....1.2.9...3.4",
        45,
        Technique::XWing,
        "r5c4 <> 9",
        32,
    ),
    (
        "7...4...6...759...9..8.1..3...524....3.....2.4.......75.1...2.8.8.....1.2.9...3.4",
        47,
        Technique::NakedPair,
        "r2c3 <> 8, r3c3 <> 5, r6c3 <> 5",
        30,
    ),
    (
        "7...4...6...759...9..8.1..3...524....3.....2.4.......75.1...2.8.8.....1.2.9...3.4",
        51,
        Technique::FullHouse,
        "r4c1 = 6",
        10,
    ),
    (
        "..5.1.2..3...4...71..3.9..4..69.73...71...89..........6...8...3.3.425.6..........",
        29,
        Technique::XyzWing,
        "r6c8 <> 2",
        44,
    ),
    (
        "..5.1.2..3...4...71..3.9..4..69.73...71...89..........6...8...3.3.425.6..........",
        38,
        Technique::XyWing,
        "r6c1 <> 2",
        42,
    ),
    (
        "....1.....6..4.2.1.....9.64.9...35..8.7.9.4.6..46...9.14.3.....9.5.6..2.....5....",
        11,
        Technique::HiddenPair,
        "r1c9 <> 3, r1c9 <> 7, r1c9 <> 8, r7c9 <> 7, r7c9 <> 8",
        34,
    ),
    (
        "....1.....6..4.2.1.....9.64.9...35..8.7.9.4.6..46...9.14.3.....9.5.6..2.....5....",
        12,
        Technique::XChain,
        "r1c2 <> 3, r6c1 <> 3",
        66,
    ),
    (
        "24.9....1..5.74..9.......8..1..2...5.3.4.5.6.8...1..4..2.......7..34.5..4....2.78",
        20,
        Technique::UniqueRectangle1,
        "r6c9 <> 2, r6c9 <> 7",
        45,
    ),
    (
        "24.9....1..5.74..9.......8..1..2...5.3.4.5.6.8...1..4..2.......7..34.5..4....2.78",
        38,
        Technique::Bug1,
        "r3c4 = 1",
        56,
    ),
    (
        "8....3....3..6..28.59..8.3...76.....52.....79.....92...9.5..86.76..1..5....8....2",
        15,
        Technique::NakedTriple,
        "r1c5 <> 2, r1c5 <> 4",
        36,
    ),
    (
        ".7.9.2.4....368...8.......5...........58749..91.6.5.847.1...3.2.........23..1..96",
        23,
        Technique::XyChain,
        "r2c2 <> 2, r3c3 <> 2",
        71,
    ),
    (
        "7.....6...18..3..7..2.8......94....6.4..9..2.1....87......4.9..8..5..13...4.....8",
        22,
        Technique::DynamicForcingChain,
        "r1c9 <> 1",
        90,
    ),
    (
        "7.....6...18..3..7..2.8......94....6.4..9..2.1....87......4.9..8..5..13...4.....8",
        45,
        Technique::UniqueRectangle4,
        "r1c2 <> 3, r6c2 <> 3",
        46,
    ),
    (
        "..4.2.7..2.......8...3.8...92..7..34.65.3.29.....6....17.....65..26.51...........",
        47,
        Technique::NakedQuad,
        "r9c9 <> 3",
        50,
    ),
    (
        "7.......8.6.9.2.7..49...56.4..7.5..1..1.4.6...3.....5.....8....6..129..5..25.68..",
        12,
        Technique::Swordfish,
        "r5c2 <> 2, r6c7 <> 2, r5c8 <> 2",
        38,
    ),
    (
        ".52.9.31............9...5...1..4..8.9...8...628.9.3.548.6.2.7.1...........46.78..",
        40,
        Technique::HiddenTriple,
        "r8c2 <> 9, r8c9 <> 9",
        40,
    ),
    (
        "8...2...3..21.36...3.....7.29.....46..5...3..1...8...7...258...6.7.3.8.9....6....",
        25,
        Technique::UniqueRectangle2,
        "r2c2 <> 7",
        46,
    ),
    (
        ".29.6.58...5.8.3..7..3.5..2..25.96..4...2...8..........76.9.21.....7.......1.6...",
        44,
        Technique::Jellyfish,
        "r4c9 <> 4, r6c9 <> 4, r9c9 <> 4",
        52,
    ),
    // A W-Wing (line 6 of the corpus): r1c3 and r6c2 hold 2 and 3, 3 is in r9c2 or r9c3.
    (
        "700400009008000200000053000480930600005000400006074015000310000009000300500006004",
        14,
        Technique::WWing,
        "r1c2 <> 2",
        70,
    ),
    // Unique rectangles of type 3 with a naked quad (line 19 of the corpus), triple (78) and
    // pair (81): 4.8, 4.7, 4.6.
    (
        "004000760170906240260000001040805010000020000030709020800000032016302089023000100",
        21,
        Technique::UniqueRectangle3,
        "r7c5 <> 6, r7c5 <> 7, r9c5 <> 4, r9c5 <> 6",
        48,
    ),
    (
        "700104003002000900040060050000457000170000084020000070000000000400805001000903000",
        25,
        Technique::UniqueRectangle3,
        "r4c2 <> 6, r4c2 <> 8",
        47,
    ),
    (
        "700010002906000504082000910000070000020301090004000200600508003000020000050709040",
        35,
        Technique::UniqueRectangle3,
        "r6c6 <> 6",
        46,
    ),
];

#[test]
fn the_first_step_of_each_technique_is_pinned() {
    let mut paths: Vec<(&str, Path)> = Vec::new();
    for &(puzzle, number, technique, effect, difficulty) in PINNED {
        if paths.last().is_none_or(|(line, _)| *line != puzzle) {
            let grid = grid(puzzle);
            let path = solve_path(&grid).unwrap();
            check_path(&path, &is_proper(&grid).unwrap()).unwrap();
            assert!(path.solved, "{puzzle}");
            paths.push((puzzle, path));
        }
        let (_, path) = paths.last().unwrap();
        let step = &path.steps[number - 1];
        let shape = Shape::CLASSIC;
        assert_eq!(
            (step.technique, step.effect(shape).as_str(), step.difficulty),
            (technique, effect, difficulty),
            "{puzzle} step {number}: {}",
            step.reason
        );
        // No easier technique was available: the step is the first of its kind or later.
        assert!(
            path.steps[..number - 1]
                .iter()
                .all(|earlier| earlier.technique != technique),
            "{puzzle}: {technique} appears before step {number}"
        );
    }
}

#[test]
fn reasons_name_cells_and_houses() {
    let puzzle = grid(PINNED[0].0);
    let path = solve_path(&puzzle).unwrap();
    assert_eq!(
        path.steps[0].reason,
        "r3c5 is the only place for 6 in box 2"
    );
    let pair = solve_path(&grid(
        "700010002906000504082000910000070000020301090004000200600508003000020000050709040",
    ))
    .unwrap();
    assert_eq!(
        pair.steps[34].reason,
        "r4c1, r4c9, r6c1 and r6c9 would be a deadly pattern of 1 and 5 (two solutions) unless \
         r6c1 or r6c9 holds 3 or 6; with r6c2 they hold 3 and 6 between them in row 6, so those \
         digits leave the rest of row 6"
    );
    let w_wing = solve_path(&grid(
        "700400009008000200000053000480930600005000400006074015000310000009000300500006004",
    ))
    .unwrap();
    assert_eq!(
        w_wing.steps[13].reason,
        "r1c3 and r6c2 both hold only 2 and 3, and 3 goes in r9c3 or r9c2 in row 9; were neither \
         2, both would be 3 and row 9 would have no place for it, so one of them is 2: no cell \
         seeing both is 2"
    );
    let x_wing = &path.steps[44];
    assert_eq!(
        x_wing.reason,
        "in columns 5 and 9, 9 can only go in rows 5 and 8, so 9 leaves the rest of those rows"
    );
}

#[test]
fn not_proper_puzzles_have_no_path() {
    assert_eq!(
        solve_path(&grid("................")).unwrap_err(),
        NotProper::Several
    );
    assert_eq!(
        solve_path(&grid("12......3...4...")).unwrap_err(),
        NotProper::NoSolution
    );
    assert_eq!(
        NotProper::Several.to_string(),
        "not a proper puzzle: it has several solutions"
    );
}

#[test]
fn sixteen_by_sixteen_singles_and_subsets_run_and_stay_right() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../corpora/generated/16x16.txt"
    ))
    .unwrap();
    let line = text.lines().find(|l| !l.starts_with('#')).unwrap();
    let record = parse_line_record(line.as_bytes(), None, 1).unwrap();
    let path = solve_path(&record.puzzle).unwrap();
    check_path(&path, record.solution.as_ref().unwrap()).unwrap();
    assert!(path.solved);
}

#[test]
fn sudoku_explainer_length_additions() {
    // Thresholds 4, 6, 8, 12, 16, 24 on the length (nodes - 2).
    let added: Vec<u32> = [6, 7, 8, 9, 10, 11, 14, 15, 18, 19, 26, 27]
        .into_iter()
        .map(chains::length_tenths)
        .collect();
    assert_eq!(added, vec![0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6]);
}
