//! The runner, the checks and the selections, end to end on small puzzles.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::*;
use crate::check::Run;
use crate::model::Grid;
use crate::model::parse_line_record;
use crate::strategy::{self, Limits, Stop, Strategy, Verdict};

fn item(ordinal: u64, line: &str) -> Item {
    let record = parse_line_record(line.as_bytes(), None, 1).expect("a test puzzle");
    Item {
        ordinal,
        source: format!("t:{}", ordinal + 1),
        puzzle: record.puzzle,
        solution: record.solution,
        count: record.count,
    }
}

fn items() -> Vec<Item> {
    [
        "4..3.....1....2.",
        "4..3............",
        "44..............",
        "4..3.....1....2.:1",
    ]
    .iter()
    .cycle()
    .take(600)
    .enumerate()
    .map(|(ordinal, line)| item(ordinal as u64, line))
    .collect()
}

fn plan(order: Order, jobs: usize) -> Plan {
    let strategies = [
        strategy::find("fast").unwrap(),
        strategy::find("mrv").unwrap(),
        strategy::find("dlx-knuth").unwrap(),
    ];
    Plan {
        order,
        jobs,
        ..Plan::new(&strategies, &Limits::solutions(2))
    }
}

fn verdicts(plan: &Plan) -> Vec<(u64, Vec<Verdict>, Vec<Option<u64>>)> {
    let mut seen = Vec::new();
    let ended = Runner::new(plan)
        .items(items(), |checked| {
            assert!(checked.problems.is_empty(), "{:?}", checked.problems);
            seen.push((
                checked.item.ordinal,
                checked.runs.iter().map(Run::verdict).collect(),
                checked
                    .runs
                    .iter()
                    .map(|run| run.stats.get(strategy::Counter::Nodes))
                    .collect(),
            ));
            Ok::<(), ()>(())
        })
        .expect("a pool")
        .expect("no error");
    assert!(!ended.interrupted);
    assert_eq!(ended.puzzles, seen.len() as u64);
    seen
}

#[test]
fn every_order_and_job_count_gives_the_same_rows_in_input_order() {
    let reference = verdicts(&plan(Order::Puzzle, 1));
    assert_eq!(reference.len(), 600);
    assert_eq!(
        reference[..3]
            .iter()
            .map(|(_, v, _)| v.clone())
            .collect::<Vec<_>>(),
        [
            vec![Verdict::Unique; 3],
            vec![Verdict::Multiple; 3],
            vec![Verdict::None; 3]
        ]
    );
    assert!(
        reference
            .iter()
            .enumerate()
            .all(|(i, (ordinal, _, _))| *ordinal == i as u64)
    );
    assert_eq!(verdicts(&plan(Order::Engine, 1)), reference);
    assert_eq!(verdicts(&plan(Order::Engine, 2)), reference);
    assert_eq!(verdicts(&plan(Order::Puzzle, 2)), reference);
}

#[test]
fn shards_partition_and_samples_are_reproducible() {
    let ordinals = |selection: Selection| {
        let plan = Plan {
            selection,
            ..plan(Order::Engine, 2)
        };
        let mut seen = Vec::new();
        Runner::new(&plan)
            .items(items(), |checked| {
                seen.push(checked.item.ordinal);
                Ok::<(), ()>(())
            })
            .unwrap()
            .unwrap();
        seen
    };
    let mut all: Vec<u64> = (1..=3)
        .flat_map(|index| ordinals(Selection::Shard(Shard { index, count: 3 })))
        .collect();
    all.sort_unstable();
    assert_eq!(all, (0..600).collect::<Vec<u64>>());
    let sample = ordinals(Selection::Sample { size: 7, seed: 4 });
    assert_eq!(sample.len(), 7);
    assert!(sample.windows(2).all(|w| w[0] < w[1]), "input order");
    assert_eq!(ordinals(Selection::Sample { size: 7, seed: 4 }), sample);
    assert_ne!(ordinals(Selection::Sample { size: 7, seed: 5 }), sample);
}

#[test]
fn a_cancelled_run_hands_on_no_cancelled_puzzle() {
    let flag = Arc::new(AtomicBool::new(true));
    let plan = Plan {
        cancel: Some(flag),
        ..plan(Order::Engine, 1)
    };
    let ended = Runner::new(&plan)
        .items(items(), |_| Ok::<(), ()>(()))
        .unwrap()
        .unwrap();
    assert_eq!(
        ended,
        Ended {
            puzzles: 0,
            interrupted: true
        }
    );
}

/// `fast`, except on puzzles whose first cell is given: there it says its search was
/// cancelled, as a search under way at Ctrl-C does.
struct CancelledOnSome;

static CANCELLED_ON_SOME: CancelledOnSome = CancelledOnSome;

impl Strategy for CancelledOnSome {
    fn name(&self) -> &'static str {
        "cancelled-on-some"
    }

    fn summary(&self) -> &'static str {
        "fast, cancelled on puzzles with r1c1 given"
    }

    fn counters(&self) -> &'static [strategy::Counter] {
        strategy::find("fast").unwrap().counters()
    }

    fn budget_unit(&self) -> strategy::WorkUnit {
        strategy::WorkUnit::Nodes
    }

    fn search(
        &self,
        puzzle: &Grid,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid),
    ) -> strategy::Outcome {
        let mut outcome = strategy::find("fast")
            .unwrap()
            .search(puzzle, limits, on_solution);
        if puzzle.cells()[0] != 0 {
            outcome.stopped = Some(Stop::Cancelled);
        }
        outcome
    }
}

#[test]
fn an_interrupted_run_hands_on_every_search_that_ended() {
    // Puzzle 5's second search is cancelled, its first and every other puzzle's ended: the
    // run hands on every puzzle, puzzle 5 with its first search alone, in both orders and
    // with any jobs.
    let lines = (0..12).map(|i| {
        if i == 5 {
            "4..3.....1....2."
        } else {
            ".2..1...3..1...."
        }
    });
    let items: Vec<Item> = lines
        .enumerate()
        .map(|(ordinal, line)| item(ordinal as u64, line))
        .collect();
    for (order, jobs) in [(Order::Engine, 1), (Order::Engine, 2), (Order::Puzzle, 2)] {
        let strategies: [&'static dyn Strategy; 2] =
            [strategy::find("mrv").unwrap(), &CANCELLED_ON_SOME];
        let plan = Plan {
            order,
            jobs,
            ..Plan::new(&strategies, &Limits::solutions(2))
        };
        let mut seen = Vec::new();
        let ended = Runner::new(&plan)
            .items(items.clone(), |checked| {
                let strategies: Vec<&str> = checked.runs.iter().map(|run| run.strategy).collect();
                seen.push((checked.item.ordinal, strategies));
                Ok::<(), ()>(())
            })
            .unwrap()
            .unwrap();
        let expected: Vec<(u64, Vec<&str>)> = (0..12)
            .map(|ordinal| {
                if ordinal == 5 {
                    (ordinal, vec!["mrv"])
                } else {
                    (ordinal, vec!["mrv", "cancelled-on-some"])
                }
            })
            .collect();
        assert_eq!(seen, expected, "{order} order, {jobs} jobs");
        assert_eq!(
            ended,
            Ended {
                puzzles: 12,
                interrupted: true
            }
        );
    }
}

#[test]
fn the_tally_counts_exactly_the_results_handed_on() {
    // Without a cancelled puzzle every result is tallied once (as it is mapped, in engine
    // order); with puzzle 300 cancelled, exactly those handed on: the other puzzles of the
    // batches run (every one up to the end of 300's batch), in every order, with any jobs,
    // through both pipelines, though later batches were already sent to the pool.
    let dir = std::env::temp_dir().join(format!("sudolab-tally-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for cancelled in [None, Some(300)] {
        let lines: Vec<&str> = (0..2_000)
            .map(|ordinal| {
                if Some(ordinal) == cancelled {
                    "4..3.....1....2."
                } else {
                    ".2..1...3..1...."
                }
            })
            .collect();
        let path = dir.join("puzzles.txt");
        std::fs::write(&path, lines.join("\n")).unwrap();
        for (order, jobs) in [(Order::Engine, 1), (Order::Engine, 2), (Order::Puzzle, 2)] {
            let strategies: [&'static dyn Strategy; 1] = [&CANCELLED_ON_SOME];
            let plan = Plan {
                order,
                jobs,
                ..Plan::new(&strategies, &Limits::solutions(2))
            };
            for walked in [false, true] {
                let parts: Vec<std::sync::Mutex<Vec<u64>>> = (0..Runner::new(&plan).parts())
                    .map(|_| std::sync::Mutex::default())
                    .collect();
                let mut handed_on = Vec::new();
                let map = |checked: Checked| checked.item.ordinal;
                let tally = |part: usize, ordinal: &mut u64| {
                    parts[part].lock().unwrap().push(*ordinal);
                };
                let on_done = |ordinal| {
                    handed_on.push(ordinal);
                    Ok::<(), ()>(())
                };
                if walked {
                    let input = Input {
                        walk: crate::corpus::Walk::new(vec![crate::corpus::Source {
                            path: path.clone(),
                            format: crate::corpus::Format::Auto,
                            shape: None,
                            variant: None,
                        }]),
                        sides: Vec::new(),
                        whole: Sides::default(),
                    };
                    Runner::new(&plan)
                        .map(map)
                        .tally(tally)
                        .walk(input, |_| {}, on_done)
                } else {
                    let items = lines
                        .iter()
                        .enumerate()
                        .map(|(ordinal, line)| item(ordinal as u64, line));
                    Runner::new(&plan)
                        .map(map)
                        .tally(tally)
                        .items(items, on_done)
                }
                .unwrap()
                .unwrap();
                let mut tallied: Vec<u64> = parts
                    .into_iter()
                    .flat_map(|part| part.into_inner().unwrap())
                    .collect();
                tallied.sort_unstable();
                let case = format!("{order} order, {jobs} jobs, walked: {walked}");
                assert_eq!(tallied, handed_on, "{case}");
                // Where 300's batch ends depends on the block sizes, which follow the clock.
                let end = handed_on.last().map_or(0, |last| last + 1);
                let expected: Vec<u64> = (0..end).filter(|&o| Some(o) != cancelled).collect();
                assert_eq!(handed_on, expected, "{case}");
                match cancelled {
                    Some(cancelled) => assert!(end > cancelled, "{case}: {end}"),
                    None => assert_eq!(end, 2_000, "{case}"),
                }
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shards_parse_split_ranges_and_read_job_arrays() {
    assert_eq!("2/4".parse(), Ok(Shard { index: 2, count: 4 }));
    assert_eq!(
        "0/4".parse::<Shard>().unwrap_err().to_string(),
        "expected K/N with 1 <= K <= N, such as 2/4; found '0/4'"
    );
    let ranges: Vec<_> = (1..=3)
        .map(|index| Shard { index, count: 3 }.range(10))
        .collect();
    assert_eq!(ranges, [0..3, 3..6, 6..10]);
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            pairs
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| (*value).to_string())
        }
    };
    assert_eq!(
        Shard::from_job_array(env(&[
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "4")
        ])),
        Ok(Shard { index: 3, count: 4 })
    );
    assert_eq!(
        Shard::from_job_array(env(&[
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "2")
        ])),
        Ok(Shard { index: 1, count: 2 })
    );
    assert_eq!(Shard::from_job_array(env(&[])), Err(ShardError::NoArray));
    assert_eq!(
        Shard::from_task(env(&[("PARALLEL_SEQ", "3")]), 4, "auto/4"),
        Ok(Shard { index: 3, count: 4 })
    );
    assert_eq!(
        Shard::from_task(env(&[("PARALLEL_SEQ", "5")]), 4, "auto/4")
            .unwrap_err()
            .to_string(),
        "expected K/N with 1 <= K <= N, such as 2/4; found 'auto/4 (task 5 of 4)'"
    );
    assert_eq!(
        Shard::from_task(env(&[]), 4, "auto/4"),
        Err(ShardError::NoTask)
    );
    assert_eq!(
        Shard::from_job_array(env(&[
            ("SLURM_ARRAY_TASK_ID", "x"),
            ("SLURM_ARRAY_TASK_COUNT", "2")
        ]))
        .unwrap_err()
        .to_string(),
        "SLURM_ARRAY_TASK_ID='x' is not a task number"
    );
}

/// Searches under way now, and the most ever under way at once, of [`InFlight`].
static IN_FLIGHT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static MOST_IN_FLIGHT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
/// Set once a search has waited in vain for a second one: later searches wait no more.
static GAVE_UP: AtomicBool = AtomicBool::new(false);

/// `fast`, counting the searches in flight: each search waits (at most 10 s, once per test)
/// until some search has had a second one beside it, so two jobs that both search show as two
/// in flight whatever the machine's load, and one job alone as one.
struct InFlight;

static IN_FLIGHT_ENGINE: InFlight = InFlight;

impl Strategy for InFlight {
    fn name(&self) -> &'static str {
        "in-flight"
    }

    fn summary(&self) -> &'static str {
        "fast, counting the searches in flight"
    }

    fn counters(&self) -> &'static [strategy::Counter] {
        strategy::find("fast").unwrap().counters()
    }

    fn budget_unit(&self) -> strategy::WorkUnit {
        strategy::WorkUnit::Nodes
    }

    fn search(
        &self,
        puzzle: &Grid,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid),
    ) -> strategy::Outcome {
        use std::sync::atomic::Ordering::SeqCst;
        let now = IN_FLIGHT.fetch_add(1, SeqCst) + 1;
        MOST_IN_FLIGHT.fetch_max(now, SeqCst);
        let since = std::time::Instant::now();
        while MOST_IN_FLIGHT.load(SeqCst) < 2 && !GAVE_UP.load(SeqCst) {
            if since.elapsed() > std::time::Duration::from_secs(10) {
                GAVE_UP.store(true, SeqCst);
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        let outcome = strategy::find("fast")
            .unwrap()
            .search(puzzle, limits, on_solution);
        IN_FLIGHT.fetch_sub(1, SeqCst);
        outcome
    }
}

#[test]
fn two_jobs_keep_two_searches_in_flight_on_a_short_input() {
    // 18 puzzles, one batch: in engine order its chunks must still spread over both jobs.
    use std::sync::atomic::Ordering::SeqCst;
    for order in [Order::Engine, Order::Puzzle] {
        IN_FLIGHT.store(0, SeqCst);
        MOST_IN_FLIGHT.store(0, SeqCst);
        GAVE_UP.store(false, SeqCst);
        let strategies: [&'static dyn Strategy; 1] = [&IN_FLIGHT_ENGINE];
        let plan = Plan {
            order,
            jobs: 2,
            ..Plan::new(&strategies, &Limits::solutions(2))
        };
        let items: Vec<Item> = (0..18)
            .map(|ordinal| item(ordinal, ".2..1...3..1...."))
            .collect();
        let ended = Runner::new(&plan)
            .items(items, |_| Ok::<(), ()>(()))
            .unwrap()
            .unwrap();
        assert_eq!(ended.puzzles, 18);
        assert_eq!(MOST_IN_FLIGHT.load(SeqCst), 2, "{order} order");
        assert!(!GAVE_UP.load(SeqCst), "{order} order");
    }
}
