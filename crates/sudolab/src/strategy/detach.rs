//! Searches inside crates that cannot be interrupted, run where they can be abandoned.
//!
//! `dlx-rs` yields solution after solution and has no stop flag: between two solutions it may
//! search for minutes (over 15 minutes on a 16x16 with 80 givens). Such a search
//! runs here on a thread of its own, which hands each solution over and waits for the caller's
//! word before it searches on. The caller waits at most until the deadline (and looks at the
//! cancel flag while it waits); past it, the search is *abandoned*: the caller answers "timed
//! out" at once, and the thread ends by itself the next time the crate returns, its result
//! dropped. An abandoned search still holds a core until then, so at most
//! [`MAX_ABANDONED`] may run at once: past that, a search that would need a thread is not
//! started ([`Stop::Backlog`]) rather than adding one more.
//!
//! A search without a deadline or a cancel flag needs none of this and runs on the caller's
//! thread ([`run`] decides).

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use super::{Budget, Stop};
use crate::model::Grid;

/// The largest side on which one uninterruptible crate call on plain Sudoku is known to be
/// short: any plain 9x9 puzzle is decided by `dlx-rs` or varisat in milliseconds (the slowest
/// of forum-hardest's 1,106 and of the 49,158 17-clue puzzles).
const BOUNDED_SIDE: usize = 9;

/// Whether one uninterruptible crate call on `puzzle` is known to be short, so that `dlx` may
/// run on the caller's thread and `sat` without an interrupting proof sink, with no overhead.
/// Only plain Sudoku up to 9x9 is: variant rules weaken what the crates propagate (a 9x9
/// non-consecutive puzzle keeps `dlx-rs` for seconds between two solutions and varisat on the
/// minimal encoding for tens of seconds in one call), so every variant runs stoppable.
pub(crate) fn known_short(puzzle: &Grid) -> bool {
    puzzle.shape().side() <= BOUNDED_SIDE
        && puzzle.rules().is_none_or(|rules| rules.spec().is_plain())
}

/// The most abandoned searches that may still be running; a search that would need another
/// thread past this is refused with [`Stop::Backlog`].
pub const MAX_ABANDONED: usize = 4;

/// How often a caller with a cancel flag and no deadline looks at the flag while it waits.
const CANCEL_POLL: Duration = Duration::from_millis(20);

/// Abandoned searches whose threads are still running.
static ABANDONED: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Whether a search ran on a thread of its own on behalf of this thread since the last
    /// [`take_ran_elsewhere`]: this thread's CPU clock then misses the search's work.
    static RAN_ELSEWHERE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether a search detached from this thread since the last call (and forgets it): a
/// measurement by this thread's CPU clock then does not hold the search's work.
pub(crate) fn take_ran_elsewhere() -> bool {
    RAN_ELSEWHERE.with(|flag| flag.replace(false))
}

/// Records that a search's work ran outside this thread (another thread, or another process:
/// an outside solver), so that its measurement takes no CPU time from this thread's clock.
pub(crate) fn mark_ran_elsewhere() {
    RAN_ELSEWHERE.with(|flag| flag.set(true));
}

/// The state of one detached search, shared by the caller and the search's thread.
const RUNNING: u8 = 0;
const FINISHED: u8 = 1;
const GIVEN_UP: u8 = 2;

/// How many abandoned searches are still running (for diagnostics and tests).
pub fn abandoned_running() -> usize {
    ABANDONED.load(Ordering::SeqCst)
}

/// What the search's thread sends: a solution, or the end of its tree.
enum Message<T> {
    Found(T),
    Exhausted,
}

/// A search that reports each solution to `emit` and goes on only while `emit` returns true.
pub(crate) trait Search<T>: FnOnce(&mut dyn FnMut(T) -> bool) + Send + 'static {}
impl<T, F: FnOnce(&mut dyn FnMut(T) -> bool) + Send + 'static> Search<T> for F {}

/// Runs `search`, handing each solution to `on_found`, which may stop the search (`Err`).
/// With `detach` and a budget that has a clock, the search runs on its own thread and is
/// abandoned at the deadline or on cancellation; otherwise it runs here. `Ok` means the search
/// exhausted its tree.
pub(crate) fn run<T: Send + 'static>(
    budget: &Budget,
    detach: bool,
    search: impl Search<T>,
    on_found: &mut dyn FnMut(T) -> Result<(), Stop>,
) -> Result<(), Stop> {
    if !(detach && budget.has_clock()) {
        let mut stopped = None;
        search(
            &mut |found| match on_found(found).and_then(|()| budget.check_clock()) {
                Ok(()) => true,
                Err(stop) => {
                    stopped = Some(stop);
                    false
                }
            },
        );
        return stopped.map_or(Ok(()), Err);
    }
    if ABANDONED.load(Ordering::SeqCst) >= MAX_ABANDONED {
        return Err(Stop::Backlog);
    }
    run_detached(budget, search, on_found)
}

fn run_detached<T: Send + 'static>(
    budget: &Budget,
    search: impl Search<T>,
    on_found: &mut dyn FnMut(T) -> Result<(), Stop>,
) -> Result<(), Stop> {
    RAN_ELSEWHERE.with(|flag| flag.set(true));
    // Rendezvous channels: the thread hands over one solution and waits for a go-ahead.
    let (found_tx, found_rx) = mpsc::sync_channel::<Message<T>>(0);
    let (go_tx, go_rx) = mpsc::sync_channel::<()>(1);
    let state = Arc::new(AtomicU8::new(RUNNING));
    let thread_state = Arc::clone(&state);
    let spawned = thread::Builder::new()
        .name("sudolab-detached".to_owned())
        .spawn(move || {
            search(&mut |found| {
                found_tx.send(Message::Found(found)).is_ok() && go_rx.recv().is_ok()
            });
            // The caller may have gone; then nobody hears this.
            let _ = found_tx.send(Message::Exhausted);
            if thread_state.swap(FINISHED, Ordering::SeqCst) == GIVEN_UP {
                ABANDONED.fetch_sub(1, Ordering::SeqCst);
            }
        });
    let Ok(thread) = spawned else {
        return Err(Stop::EngineFailure);
    };
    let result = loop {
        match receive(budget, &found_rx) {
            Ok(Message::Found(found)) => {
                if let Err(stop) = on_found(found).and_then(|()| budget.check_clock()) {
                    // The thread waits for the go-ahead: without it, it ends at once; and with
                    // no receiver, its last word (`Exhausted`) does not wait either.
                    drop(go_tx);
                    drop(found_rx);
                    let _ = thread.join();
                    return Err(stop);
                }
                if go_tx.send(()).is_err() {
                    break Err(Stop::EngineFailure);
                }
            }
            Ok(Message::Exhausted) => break Ok(()),
            // The thread ended without saying so: the crate panicked.
            Err(Waited::Disconnected) => break Err(Stop::EngineFailure),
            Err(Waited::Stopped(stop)) => break Err(stop),
        }
    };
    if result.is_err() {
        // The thread is inside the crate. Count it as abandoned before marking it, so that
        // its own decrement, when it ends, cannot come first.
        ABANDONED.fetch_add(1, Ordering::SeqCst);
        if state
            .compare_exchange(RUNNING, GIVEN_UP, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            // It finished meanwhile: nothing runs on.
            ABANDONED.fetch_sub(1, Ordering::SeqCst);
        }
    }
    // Dropping the channels tells the thread to end the next time the crate returns.
    result
}

/// Why [`receive`] returned no message.
enum Waited {
    Disconnected,
    Stopped(Stop),
}

/// The search thread's next message, or why the caller stops waiting for it.
fn receive<T>(budget: &Budget, rx: &mpsc::Receiver<Message<T>>) -> Result<Message<T>, Waited> {
    loop {
        budget.check_clock().map_err(Waited::Stopped)?;
        let wait = budget.deadline().map_or(CANCEL_POLL, |deadline| {
            deadline.saturating_duration_since(Instant::now())
        });
        let wait = if budget.has_cancel() {
            wait.min(CANCEL_POLL)
        } else {
            wait
        };
        match rx.recv_timeout(wait) {
            Ok(message) => return Ok(message),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return Err(Waited::Disconnected),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::strategy::Limits;

    /// A search that yields `0, 1, 2, ...` up to `count` and then ends.
    fn counting(count: u32) -> impl Search<u32> {
        move |emit: &mut dyn FnMut(u32) -> bool| {
            for found in 0..count {
                if !emit(found) {
                    return;
                }
            }
        }
    }

    #[test]
    fn a_detached_search_hands_over_every_solution_in_order() {
        let limits = Limits::default().with_timeout(Duration::from_secs(60));
        let budget = Budget::new(&limits);
        let mut seen = Vec::new();
        let result = run(&budget, true, counting(5), &mut |found| {
            seen.push(found);
            Ok(())
        });
        assert_eq!(result, Ok(()));
        assert_eq!(seen, [0, 1, 2, 3, 4]);
    }

    #[test]
    fn a_caller_that_stops_the_search_does_not_wait_for_it() {
        // The regression: the thread's last `Exhausted` waited for a receiver that was
        // joining it.
        let limits = Limits::default().with_timeout(Duration::from_secs(60));
        let budget = Budget::new(&limits);
        let mut seen = Vec::new();
        let result = run(&budget, true, counting(1_000), &mut |found| {
            seen.push(found);
            if found == 1 {
                Err(Stop::SolutionLimit)
            } else {
                Ok(())
            }
        });
        assert_eq!(result, Err(Stop::SolutionLimit));
        assert_eq!(seen, [0, 1]);
    }

    #[test]
    fn a_search_stuck_inside_its_crate_is_abandoned_at_the_deadline() {
        let release = Arc::new(AtomicBool::new(false));
        let stuck = Arc::clone(&release);
        let search = move |emit: &mut dyn FnMut(u32) -> bool| {
            // One solution, then a long silent stretch, as dlx-rs deep in its tree.
            if emit(7) {
                while !stuck.load(Ordering::SeqCst) {
                    thread::sleep(Duration::from_millis(1));
                }
            }
        };
        let limits = Limits::default().with_timeout(Duration::from_millis(50));
        let budget = Budget::new(&limits);
        let before = abandoned_running();
        let start = Instant::now();
        let mut seen = Vec::new();
        let result = run(&budget, true, search, &mut |found| {
            seen.push(found);
            Ok(())
        });
        let waited = start.elapsed();
        assert_eq!(result, Err(Stop::Deadline));
        assert_eq!(seen, [7]);
        assert!(waited < Duration::from_secs(5), "waited {waited:?}");
        assert!(abandoned_running() > before);
        // Once the crate returns, the thread ends and is no longer counted.
        release.store(true, Ordering::SeqCst);
        let until = Instant::now() + Duration::from_secs(10);
        while abandoned_running() > before && Instant::now() < until {
            thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(abandoned_running(), before);
    }

    #[test]
    fn without_a_clock_the_search_runs_on_the_callers_thread() {
        let limits = Limits::default();
        let budget = Budget::new(&limits);
        let caller = thread::current().id();
        let search = move |emit: &mut dyn FnMut(thread::ThreadId) -> bool| {
            emit(thread::current().id());
        };
        let mut ran_on = None;
        let result = run(&budget, true, search, &mut |id| {
            ran_on = Some(id);
            Ok(())
        });
        assert_eq!(result, Ok(()));
        assert_eq!(ran_on, Some(caller));
    }
}
