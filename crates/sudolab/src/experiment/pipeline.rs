//! The pipeline that runs blocks of input on a thread pool and hands their results on in input
//! order ([`run_blocks`]): the one under `count`, `solve` and every run of the [`Runner`](super::Runner).

use std::ops::ControlFlow;
use std::sync::mpsc;

/// When [`run_blocks`] reads the next block: before or after it hands on a block that came
/// back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadNext {
    /// Read and send the next block first, so that the runner has it sooner.
    BeforeHandingOn,
    /// Hand on first, so that what was handed on can shape the next block (its size, or
    /// whether it is read at all), and each answer is out before the next block is read.
    AfterHandingOn,
}

/// Runs blocks of input on `pool` in a pipeline of two stages, and hands their results on in
/// input order.
///
/// This thread reads a block (`read` fills the spare buffer it is given; `None` ends the
/// reading) and sends it to a runner thread, which runs it with `pool.install(|| run(&mut
/// block))` and sends the block back with its result; this thread hands each result on
/// (`hand_on`) in the order the blocks were read, then keeps the block as a spare for a later
/// `read`: the blocks' buffers go round. `read_next` says whether the next block is read
/// before or after a block that came back is handed on.
///
/// Why a runner thread: `install` blocks the thread that calls it, so it blocks the runner,
/// not this thread, which meanwhile hands on the block before and reads the next ones, and
/// reading and handing on overlap the runs instead of leaving the pool idle. (Spawning each
/// block into the pool from this thread with `in_place_scope` instead left one of two workers
/// idle: `-j2` was no faster than `-j1`.)
///
/// Why `ahead`: up to that many blocks (at least one) are with the runner. With two, the
/// runner finds the next block waiting when it hands one back; with one, each block began
/// only after three wake-ups in a row (this thread by the result, the runner by the next
/// block, a worker by the runner), about 0.15 ms between two-job blocks of 4,096 `fast`
/// searches (5 ms). With one, and [`ReadNext::AfterHandingOn`], each block is handed on before
/// the next is read.
///
/// Stopping: `run` returns [`ControlFlow::Break`] with a block's result when no later block
/// should run; the runner drops every block it is sent after that one, unrun, and the walk
/// ends once that result is handed on. `hand_on` returns [`ControlFlow::Break`] to end the
/// walk there, or an error, which ends it and is returned. Either way the blocks still with
/// the runner are dropped unrun, after the one it is running, if any, is finished.
pub fn run_blocks<B, R, E>(
    pool: &rayon::ThreadPool,
    ahead: usize,
    read_next: ReadNext,
    mut read: impl FnMut(B) -> Option<B>,
    mut run: impl FnMut(&mut B) -> ControlFlow<R, R> + Send,
    mut hand_on: impl FnMut(&B, R) -> Result<ControlFlow<()>, E>,
) -> Result<(), E>
where
    B: Default + Send,
    R: Send,
{
    let ahead = ahead.max(1);
    std::thread::scope(|threads| {
        // Room for all the blocks ahead but the one the runner holds: with room for one and
        // four ahead, this thread would wait to send while the runner waits to hand back.
        let (to_runner, blocks_in) = mpsc::sync_channel::<B>((ahead - 1).max(1));
        let (results_out, from_runner) = mpsc::sync_channel::<(B, ControlFlow<R, R>)>(1);
        threads.spawn(move || {
            let mut stopped = false;
            for mut block in blocks_in {
                if stopped {
                    continue;
                }
                let ran = pool.install(|| run(&mut block));
                stopped = ran.is_break();
                if results_out.send((block, ran)).is_err() {
                    break;
                }
            }
        });
        let mut spares: Vec<B> = Vec::new();
        let mut in_flight = 0;
        let mut reading = true;
        // Reads and sends blocks until `ahead` are with the runner or the reading ends.
        let mut send_more = |spares: &mut Vec<B>, in_flight: &mut usize| {
            while reading && *in_flight < ahead {
                match read(spares.pop().unwrap_or_default()) {
                    Some(block) => {
                        to_runner
                            .send(block)
                            .expect("the runner takes blocks until this thread is done");
                        *in_flight += 1;
                    }
                    None => reading = false,
                }
            }
        };
        send_more(&mut spares, &mut in_flight);
        while in_flight > 0 {
            let (block, ran) = from_runner
                .recv()
                .expect("the runner answers every block until it stops");
            in_flight -= 1;
            let (result, runner_stopped) = match ran {
                ControlFlow::Continue(result) => (result, false),
                ControlFlow::Break(result) => (result, true),
            };
            if !runner_stopped && read_next == ReadNext::BeforeHandingOn {
                send_more(&mut spares, &mut in_flight);
            }
            let flow = hand_on(&block, result)?;
            spares.push(block);
            if runner_stopped || flow.is_break() {
                break;
            }
            if read_next == ReadNext::AfterHandingOn {
                send_more(&mut spares, &mut in_flight);
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow::{Break, Continue};
    use std::sync::Mutex;

    use rayon::prelude::*;

    use super::*;

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool of two threads builds")
    }

    /// Reads blocks 0 to `blocks - 1`, block `k` holding `k` repeated `k % 4 + 1` times, into
    /// the spare buffers it is given, and logs `read k`, then `end`.
    struct Reader<'a> {
        next: usize,
        blocks: usize,
        /// How many buffers were new (not handed back by the pipeline).
        new_buffers: usize,
        log: &'a Mutex<Vec<String>>,
    }

    impl<'a> Reader<'a> {
        fn new(blocks: usize, log: &'a Mutex<Vec<String>>) -> Reader<'a> {
            Reader {
                next: 0,
                blocks,
                new_buffers: 0,
                log,
            }
        }

        fn read(&mut self, mut spare: Vec<usize>) -> Option<Vec<usize>> {
            if spare.capacity() == 0 {
                self.new_buffers += 1;
            }
            if self.next == self.blocks {
                record(self.log, "end".to_string());
                return None;
            }
            let k = self.next;
            self.next += 1;
            spare.clear();
            spare.resize(k % 4 + 1, k);
            record(self.log, format!("read {k}"));
            Some(spare)
        }
    }

    fn record(log: &Mutex<Vec<String>>, event: String) {
        log.lock().expect("no test thread panics").push(event);
    }

    /// The events but those of the runner's side (`ran k`).
    fn this_threads(events: &[String]) -> Vec<String> {
        events
            .iter()
            .filter(|event| !event.starts_with("ran"))
            .cloned()
            .collect()
    }

    fn strings(events: &[&str]) -> Vec<String> {
        events.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn results_are_handed_on_in_input_order_with_blocks_ahead() {
        for ahead in 1..=4 {
            for read_next in [ReadNext::BeforeHandingOn, ReadNext::AfterHandingOn] {
                let log = Mutex::new(Vec::new());
                let mut reader = Reader::new(50, &log);
                let mut handed = Vec::new();
                let walked = run_blocks(
                    &pool(2),
                    ahead,
                    read_next,
                    |spare| reader.read(spare),
                    |block: &mut Vec<usize>| Continue(block.par_iter().sum::<usize>()),
                    |block, sum| {
                        handed.push((block[0], sum));
                        Ok::<_, ()>(Continue(()))
                    },
                );
                let case = format!("{ahead} ahead, {read_next:?}");
                assert_eq!(walked, Ok(()), "{case}");
                let expected: Vec<(usize, usize)> = (0..50).map(|k| (k, k * (k % 4 + 1))).collect();
                assert_eq!(handed, expected, "{case}");
                // The buffers go round: one a block ahead, and one more when the next block is
                // read while the one that came back is still being handed on.
                let buffers = match read_next {
                    ReadNext::BeforeHandingOn => ahead + 1,
                    ReadNext::AfterHandingOn => ahead,
                };
                assert_eq!(reader.new_buffers, buffers, "{case}");
            }
        }
    }

    #[test]
    fn a_run_that_stops_drops_the_later_blocks_unrun() {
        for read_next in [ReadNext::BeforeHandingOn, ReadNext::AfterHandingOn] {
            let log = Mutex::new(Vec::new());
            let mut reader = Reader::new(10, &log);
            let ran = Mutex::new(Vec::new());
            let mut handed = Vec::new();
            let walked = run_blocks(
                &pool(2),
                2,
                read_next,
                |spare| reader.read(spare),
                |block: &mut Vec<usize>| {
                    ran.lock().expect("no test thread panics").push(block[0]);
                    if block[0] == 3 {
                        Break(block[0])
                    } else {
                        Continue(block[0])
                    }
                },
                |_, k| {
                    handed.push(k);
                    Ok::<_, ()>(Continue(()))
                },
            );
            assert_eq!(walked, Ok(()));
            assert_eq!(handed, [0, 1, 2, 3], "{read_next:?}");
            // Block 4 was read (two blocks ahead) but never run.
            assert_eq!(*ran.lock().unwrap(), [0, 1, 2, 3], "{read_next:?}");
            assert_eq!(reader.next, 5, "{read_next:?}");
        }
    }

    /// Walks ten blocks, two ahead, each run into its number, and hands them to `hand_on`: what
    /// the walk returned, and how many blocks were read.
    fn walk_ten(
        read_next: ReadNext,
        mut hand_on: impl FnMut(usize) -> Result<ControlFlow<()>, String>,
    ) -> (Result<(), String>, usize) {
        let log = Mutex::new(Vec::new());
        let mut reader = Reader::new(10, &log);
        let walked = run_blocks(
            &pool(2),
            2,
            read_next,
            |spare| reader.read(spare),
            |block: &mut Vec<usize>| Continue(block[0]),
            |_, k| hand_on(k),
        );
        (walked, reader.next)
    }

    #[test]
    fn an_error_from_hand_on_ends_the_walk_and_is_returned() {
        let mut handed = Vec::new();
        let (walked, read) = walk_ten(ReadNext::BeforeHandingOn, |k| {
            if k == 2 {
                return Err(format!("cannot write block {k}"));
            }
            handed.push(k);
            Ok(Continue(()))
        });
        assert_eq!(walked, Err("cannot write block 2".to_string()));
        assert_eq!(handed, [0, 1]);
        // Block 4 was read before block 2 was handed on, and nothing after.
        assert_eq!(read, 5);
    }

    #[test]
    fn a_hand_on_that_stops_ends_the_walk() {
        let mut handed = Vec::new();
        let (walked, read) = walk_ten(ReadNext::AfterHandingOn, |k| {
            handed.push(k);
            Ok(if k == 2 { Break(()) } else { Continue(()) })
        });
        assert_eq!(walked, Ok(()));
        assert_eq!(handed, [0, 1, 2]);
        // Blocks 0 to 3 were read: two ahead, and no more after block 2 stopped the walk.
        assert_eq!(read, 4);
    }

    /// The events of a walk of `blocks` blocks: `read k` and `end` ([`Reader`]), `ran k` on the
    /// runner's side, and `handed k`.
    fn logged_walk(blocks: usize, ahead: usize, read_next: ReadNext) -> Vec<String> {
        let log = Mutex::new(Vec::new());
        let mut reader = Reader::new(blocks, &log);
        let walked = run_blocks(
            &pool(2),
            ahead,
            read_next,
            |spare| reader.read(spare),
            |block: &mut Vec<usize>| {
                record(&log, format!("ran {}", block[0]));
                Continue(block[0])
            },
            |_, k| {
                record(&log, format!("handed {k}"));
                Ok::<_, ()>(Continue(()))
            },
        );
        assert_eq!(walked, Ok(()));
        log.into_inner().expect("no test thread panics")
    }

    #[test]
    fn one_block_ahead_handed_on_before_the_next_is_read() {
        let events = logged_walk(3, 1, ReadNext::AfterHandingOn);
        // One block at a time: every step waits for the one before.
        let expected = strings(&[
            "read 0", "ran 0", "handed 0", "read 1", "ran 1", "handed 1", "read 2", "ran 2",
            "handed 2", "end",
        ]);
        assert_eq!(events, expected);
    }

    #[test]
    fn two_blocks_ahead_read_before_handing_on() {
        let events = logged_walk(5, 2, ReadNext::BeforeHandingOn);
        // This thread's steps are in a fixed order: block k + 2 is read before block k is
        // handed on.
        let expected = strings(&[
            "read 0", "read 1", "read 2", "handed 0", "read 3", "handed 1", "read 4", "handed 2",
            "end", "handed 3", "handed 4",
        ]);
        assert_eq!(this_threads(&events), expected);
        // The runner's steps fall between them: each block runs after it is read and before
        // it is handed on, one after the other.
        let at = |event: String| {
            events
                .iter()
                .position(|e| *e == event)
                .unwrap_or_else(|| panic!("no event '{event}' in {events:?}"))
        };
        for k in 0..5 {
            let ran = at(format!("ran {k}"));
            assert!(at(format!("read {k}")) < ran && ran < at(format!("handed {k}")));
            if k > 0 {
                assert!(at(format!("ran {}", k - 1)) < ran);
            }
        }
    }
}
