//! A run over a walk whose line-form puzzles are parsed by the workers: the calling thread
//! only cuts the input into blocks of raw lines ([`Block`]) and hands on the results in
//! order, so that it is not what limits the number of jobs.
//!
//! Each block goes through three steps in one hand-over to the pool: its lines are parsed in
//! parallel (each becomes an [`Item`] with its `FILE:LINE` key); the items are numbered, given
//! their side files' claims and selected by the shard, in input order, by one worker (a few
//! instructions an item; with no side file and no shard, a block of plain lines that all parse
//! is only counted); the selected ones are run as [`run_tallied`] runs a batch, mapped and
//! tallied there. The blocks go through [`run_blocks`], two at a time with its runner, so that
//! the next one is waiting when a block ends. A sample needs every item on one thread
//! (reservoir sampling), so a sampled run reads through [`Items`] and [`run_tallied`] instead.

use std::cell::RefCell;
use std::ops::ControlFlow;

use rayon::prelude::*;

use super::pipeline::{ReadNext, run_blocks};
use crate::corpus::{Block, Place, Source, Walk, key};
use crate::model::{LineRecord, parse_line_record};

use super::input::{InputProblem, Items, Sides, attach};
use super::run::{BATCH_PER_JOB, Ended, PoolError, Ran, run_batch, run_tallied, worker_pool};
use super::side::SideError;
use super::{Checked, Item, Plan, Selection};

/// What [`run_walk`] reads: a walk, the side files of each of its sources (line `i` for the
/// source's `i`-th puzzle), and side files for the whole input (line `i` for the puzzle at
/// ordinal `i`, as `compare --expect-counts` gives them; their claims win).
pub struct Input {
    /// The sources, in order.
    pub walk: Walk,
    /// Side files per source, by the source's index (missing: none).
    pub sides: Vec<Sides>,
    /// Side files of the whole input.
    pub whole: Sides,
}

/// What became of one place of a block, for the calling thread.
enum Slot {
    /// Run: the next of the block's results.
    Ran,
    /// Not this shard's.
    Skipped,
    /// A problem of the input (the walk goes on).
    Problem(String),
    /// A side file that contradicts itself: the walk ends here.
    Fatal(SideError),
}

/// The numbering of items across blocks (what [`Items`] keeps), by one worker at a time.
struct Numbering {
    ordinal: u64,
    within_source: Vec<u64>,
    sides: Vec<Sides>,
    whole: Sides,
    ended: bool,
}

impl Numbering {
    fn new(sources: usize, sides: Vec<Sides>, whole: Sides) -> Numbering {
        Numbering {
            ordinal: 0,
            within_source: vec![0; sources],
            sides,
            whole,
            ended: false,
        }
    }

    /// Whether numbering is only counting: no side file to attach and every item selected.
    /// Then the items of a block of plain lines that all parse are numbered by
    /// [`Numbering::number_all`], without the slots and moves of [`number`].
    fn only_counts(&self, plan: &Plan) -> bool {
        let no_claims = |sides: &Sides| sides.counts.is_none() && sides.solutions.is_none();
        matches!(plan.selection, Selection::All)
            && self.sides.iter().all(no_claims)
            && no_claims(&self.whole)
    }

    /// Numbers a block's items, all of them parsed and selected, from the given sources
    /// ([`Numbering::only_counts`]).
    fn number_all(&mut self, items: &mut [Item], sources: impl Iterator<Item = usize>) {
        for (item, source) in items.iter_mut().zip(sources) {
            item.ordinal = self.ordinal;
            self.ordinal += 1;
            self.within_source[source] += 1;
        }
    }

    /// Numbers an item, attaches its claims, and says whether the plan's selection takes it.
    fn number(&mut self, plan: &Plan, source: usize, item: &mut Item) -> Result<bool, SideError> {
        let index = self.within_source[source];
        self.within_source[source] += 1;
        item.ordinal = self.ordinal;
        self.ordinal += 1;
        if let Some(sides) = self.sides.get(source) {
            attach(sides, index, item)?;
        }
        attach(&self.whole, item.ordinal, item)?;
        Ok(plan.selection.takes(item.ordinal))
    }
}

/// Runs `plan` over `input` as [`run_tallied`] runs it over [`Items`] of the same walk: the
/// same items, ordinals, claims, selection, results and problems in the same order
/// (`on_problem` is called on this thread, in input order), with the line-form puzzles
/// parsed on the workers.
pub(super) fn run_walk<T: Send, E>(
    plan: &Plan,
    input: Input,
    mut on_problem: impl FnMut(InputProblem),
    progress: &(dyn Fn(u64) + Sync),
    map: impl Fn(Checked) -> T + Sync,
    tally: impl Fn(usize, &mut T) + Sync,
    mut on_done: impl FnMut(T) -> Result<(), E>,
) -> Result<Result<Ended, E>, PoolError> {
    if let Selection::Sample { .. } = plan.selection {
        return run_sampled(plan, input, on_problem, progress, map, tally, on_done);
    }
    let (pool, jobs) = worker_pool(plan)?;
    let Input {
        mut walk,
        sides,
        whole,
    } = input;
    let names: Vec<String> = walk.sources().iter().map(Source::name).collect();
    let mut numbering = Numbering::new(names.len(), sides, whole);
    // A shard runs one puzzle in `count`: read that many more places a block.
    let places_per_job = BATCH_PER_JOB
        * match plan.selection {
            Selection::Shard(shard) => shard.count.min(64) as usize,
            Selection::All | Selection::Sample { .. } => 1,
        };
    // Shared by two closures: `read_block` asks it the next block's size, and the handing on
    // tells it when a block is done.
    let sizing = RefCell::new(BlockSizing::new(jobs * places_per_job));
    let mut read_all = false;
    let mut cancelled = false;
    // A block of the input; `None` at its end, or when the cancel flag stopped the reading.
    let read_block = |mut block: Block| -> Option<Block> {
        let places_per_block = sizing.borrow().places();
        block.clear();
        block.reserve(places_per_block);
        while !read_all && block.len() < places_per_block {
            if plan.cancelled() {
                cancelled = true;
                return None;
            }
            // Plain lines in one loop (at most a batch between two looks at the cancel flag).
            let room = places_per_block - block.len();
            if block.push_plain_lines(&mut walk, room.min(BATCH_PER_JOB)) == 0 {
                read_all = block.push_next(&mut walk, true).is_none();
            }
        }
        Some(block).filter(|block| !block.is_empty())
    };
    let names = &names;
    // One hand-over to the pool per block: the numbering runs on the worker that runs this
    // closure (a few instructions an item; with two `install`s around it, the runner's
    // wake-ups cost 6% of a `-j1` run's CPU time).
    let run_block = |block: &mut Block| {
        let places = block.take_places();
        let (slots, items) = items_of(plan, &mut numbering, block, places, names);
        let done = run_batch(plan, items, progress, &map, &tally);
        // No block after a cancelled search or a side file's error runs: the blocks sent
        // meanwhile are dropped unrun, and so never tallied.
        let stop = done.iter().any(|(ran, _)| *ran != Ran::Whole)
            || slots.iter().any(|slot| matches!(slot, Slot::Fatal(_)));
        if stop {
            ControlFlow::Break((slots, done))
        } else {
            ControlFlow::Continue((slots, done))
        }
    };
    let mut ended = Ended {
        puzzles: 0,
        interrupted: false,
    };
    // Two blocks with the runner. A block's results are handed on before the next block is
    // read: its time, taken then, sizes the next block.
    let handed_on = run_blocks(
        &pool,
        2,
        ReadNext::AfterHandingOn,
        read_block,
        run_block,
        |_, (slots, done)| {
            sizing.borrow_mut().block_done();
            hand_on(slots, done, &mut ended, &mut on_problem, &mut on_done)
        },
    );
    if cancelled || plan.cancelled() {
        ended.interrupted = true;
    }
    Ok(handed_on.map(|()| ended))
}

/// How many places the next block holds. Every block ends in a wait for its slowest search
/// and costs the pool a few hand-overs (the parse, the numbering on one worker, the searches),
/// so a block should last well beyond those: with fast searches (`compare -s fast`, 2.6 µs a
/// 17-clue puzzle) blocks of 256 puzzles a job left two jobs 1.27 to 1.44 times as fast as one,
/// blocks of 2,048 a job 1.65 to 1.68 times. But results are written only when their block is
/// done, so with slow searches a big block holds back the output for long. So blocks start at
/// [`BATCH_PER_JOB`] a job and double while one lasts under [`BlockSizing::SHORT`], up to
/// [`BlockSizing::MOST_PER_BASE`] times that, and halve (not below the start) when one lasts over
/// [`BlockSizing::LONG`].
struct BlockSizing {
    base: usize,
    places: usize,
    since: std::time::Instant,
}

impl BlockSizing {
    const SHORT: std::time::Duration = std::time::Duration::from_millis(20);
    const LONG: std::time::Duration = std::time::Duration::from_millis(200);
    const MOST_PER_BASE: usize = 8;

    fn new(base: usize) -> BlockSizing {
        BlockSizing {
            base,
            places: base,
            since: std::time::Instant::now(),
        }
    }

    /// The places the next block reads.
    fn places(&self) -> usize {
        self.places
    }

    /// A block's results came back: its time (from the last block's) sizes the next blocks.
    fn block_done(&mut self) {
        let took = self.since.elapsed();
        self.since = std::time::Instant::now();
        if took < Self::SHORT {
            self.places = (self.places * 2).min(self.base * Self::MOST_PER_BASE);
        } else if took > Self::LONG {
            self.places = (self.places / 2).max(self.base);
        }
    }
}

/// [`run_walk`] with a sample: every item through [`Items`] on this thread.
fn run_sampled<T: Send, E>(
    plan: &Plan,
    input: Input,
    mut on_problem: impl FnMut(InputProblem),
    progress: &(dyn Fn(u64) + Sync),
    map: impl Fn(Checked) -> T + Sync,
    tally: impl Fn(usize, &mut T) + Sync,
    on_done: impl FnMut(T) -> Result<(), E>,
) -> Result<Result<Ended, E>, PoolError> {
    let Input { walk, sides, whole } = input;
    // An error of the whole input's side files ends the walk, as one of a source's does.
    let fatal = std::cell::Cell::new(None);
    let ended = {
        let items = Items::new(walk, sides, &mut on_problem).map_while(|mut item| {
            match attach(&whole, item.ordinal, &mut item) {
                Ok(()) => Some(item),
                Err(err) => {
                    fatal.set(Some(err));
                    None
                }
            }
        });
        run_tallied(plan, items, progress, map, tally, on_done)
    };
    if let Some(err) = fatal.take() {
        on_problem(InputProblem::Fatal(err));
    }
    ended
}

/// Hands on a block's problems and results in input order: every puzzle with a search that
/// ended ([`Ended::interrupted`] when some did not), up to a side file's error, where the walk
/// ends.
fn hand_on<T, E>(
    slots: Vec<Slot>,
    done: Vec<(Ran, T)>,
    ended: &mut Ended,
    on_problem: &mut impl FnMut(InputProblem),
    on_done: &mut impl FnMut(T) -> Result<(), E>,
) -> Result<ControlFlow<()>, E> {
    let mut done = done.into_iter();
    for slot in slots {
        match slot {
            Slot::Skipped => {}
            Slot::Problem(message) => on_problem(InputProblem::Skipped(message)),
            Slot::Fatal(err) => {
                on_problem(InputProblem::Fatal(err));
                return Ok(ControlFlow::Break(()));
            }
            Slot::Ran => {
                let (ran, result) = done.next().expect("one result per item run");
                if ran != Ran::Whole {
                    ended.interrupted = true;
                }
                if ran != Ran::Nothing {
                    ended.puzzles += 1;
                    on_done(result)?;
                }
            }
        }
    }
    Ok(if ended.interrupted {
        ControlFlow::Break(())
    } else {
        ControlFlow::Continue(())
    })
}

/// A place of a block once parsed: an item (its ordinal not yet given) with its source, or a
/// problem.
enum Parsed {
    Item(usize, Item),
    Problem(String),
}

/// Parses a block's places on the current pool, each line into an item keyed `FILE:LINE`.
fn parse(block: &Block, places: Vec<Place>, names: &[String]) -> Vec<Parsed> {
    places
        .into_par_iter()
        .map(|place| match place {
            Place::Line { source, at, bytes } => {
                match parse_line_record(block.line(&bytes), at.shape, at.line) {
                    Ok(record) => Parsed::Item(source, line_item(&names[source], at.line, record)),
                    Err(err) => Parsed::Problem(format!("{}: {err}", names[source])),
                }
            }
            Place::Puzzle { source, record } => Parsed::Item(
                source,
                Item {
                    ordinal: 0,
                    source: key(&names[source], record.line),
                    puzzle: record.puzzle,
                    solution: record.solution,
                    count: record.count,
                },
            ),
            Place::Problem { message, .. } => Parsed::Problem(message),
        })
        .collect()
}

/// The item of a line parsed from the source named `name` (its ordinal not yet given), keyed
/// `NAME:LINE`, with the line's own claims.
fn line_item(name: &str, line: usize, record: LineRecord) -> Item {
    Item {
        ordinal: 0,
        source: key(name, line),
        puzzle: record.puzzle,
        solution: record.solution,
        count: record.count,
    }
}

/// A block's places as items to run, numbered, with what became of each place: through
/// [`parse_plain`] and [`Numbering::number_all`] when they can, else [`parse`] and [`number`].
fn items_of(
    plan: &Plan,
    numbering: &mut Numbering,
    block: &Block,
    places: Vec<Place>,
    names: &[String],
) -> (Vec<Slot>, Vec<Item>) {
    if numbering.only_counts(plan)
        && let Some(mut items) = parse_plain(block, &places, names)
    {
        numbering.number_all(&mut items, places.iter().map(Place::source));
        return (items.iter().map(|_| Slot::Ran).collect(), items);
    }
    number(plan, numbering, parse(block, places, names))
}

/// A block's places parsed into items keyed `FILE:LINE` (ordinals not yet given), when every
/// place is a plain line and parses: the common case, collected in one pass with no
/// [`Parsed`] in between. `None` otherwise, and [`parse`] reads the block (a line that does
/// not parse is read twice, which only an input with mistakes pays).
fn parse_plain(block: &Block, places: &[Place], names: &[String]) -> Option<Vec<Item>> {
    places
        .par_iter()
        .map(|place| match place {
            Place::Line { source, at, bytes } => {
                let record = parse_line_record(block.line(bytes), at.shape, at.line).ok()?;
                Some(line_item(&names[*source], at.line, record))
            }
            Place::Puzzle { .. } | Place::Problem { .. } => None,
        })
        .collect::<Vec<Option<Item>>>()
        // Collected by index first: into an `Option<Vec>`, rayon gathers the items in linked
        // pieces and joins them on one thread (0.5 to 1 ms of a two-job block of 4,096 places,
        // where `parse` and `number` took 0.4); this pass moves them within their buffer.
        .into_iter()
        .collect()
}

/// Numbers a block's items in input order and applies the selection: what became of each
/// place, and the items to run. A side file's error ends the walk there.
fn number(plan: &Plan, numbering: &mut Numbering, parsed: Vec<Parsed>) -> (Vec<Slot>, Vec<Item>) {
    let mut slots = Vec::with_capacity(parsed.len());
    let mut items = Vec::with_capacity(parsed.len());
    for parsed in parsed {
        if numbering.ended {
            break;
        }
        match parsed {
            Parsed::Problem(message) => slots.push(Slot::Problem(message)),
            Parsed::Item(source, mut item) => match numbering.number(plan, source, &mut item) {
                Ok(true) => {
                    slots.push(Slot::Ran);
                    items.push(item);
                }
                Ok(false) => slots.push(Slot::Skipped),
                Err(err) => {
                    numbering.ended = true;
                    slots.push(Slot::Fatal(err));
                }
            },
        }
    }
    (slots, items)
}
