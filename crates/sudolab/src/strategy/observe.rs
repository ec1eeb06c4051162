//! Search events for teaching traces, delivered to an optional observer.
//!
//! Engines are generic over [`Observer`]; the untraced path uses [`Silent`], whose empty,
//! inlined method compiles away, so nobody pays for tracing who does not ask for it.

use serde::Serialize;

/// Something that happened during a search.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The search picked the cell to branch on, with how many candidates it has.
    Choose {
        /// Row-major cell index.
        cell: usize,
        /// Candidates of that cell (for the fixed-order backtrackers, the values still allowed).
        candidates: usize,
    },
    /// An exact-cover search picked the item to branch on, with how many options cover it.
    ChooseItem {
        /// The item's name: `p3.7` (cell r3c7), `r3.5` (row 3 holds 5), `c7.5`, `b2.5`.
        item: String,
        /// Options still covering it.
        options: usize,
    },
    /// An exact-cover search covered the item it chose (removed it and every option that
    /// covers it from the matrix) before trying those options one by one.
    Cover {
        /// The item's name, as in `ChooseItem`.
        item: String,
    },
    /// An exact-cover search put back the item it had covered: all its options were tried.
    Uncover {
        /// The item's name.
        item: String,
    },
    /// A value was written into a cell (for exact cover: the option "cell holds value" chosen).
    Try {
        /// Row-major cell index.
        cell: usize,
        /// The value.
        value: u8,
    },
    /// A value was taken back.
    Undo {
        /// Row-major cell index.
        cell: usize,
        /// The value.
        value: u8,
    },
    /// A node with no way forward.
    DeadEnd,
    /// A complete, consistent grid.
    Solution,
}

/// Receives search events, each with the depth it happened at and the nodes visited so far.
pub trait Observer {
    /// Whether anybody listens; engines skip work done only for events (such as counting the
    /// candidates of a cell the fixed-order backtrackers do not need) when this is false.
    fn is_active(&self) -> bool {
        true
    }

    /// Called once per event.
    fn event(&mut self, depth: usize, nodes: u64, event: Event);
}

/// The observer nobody listens to.
pub struct Silent;

impl Observer for Silent {
    #[inline]
    fn is_active(&self) -> bool {
        false
    }

    #[inline]
    fn event(&mut self, _depth: usize, _nodes: u64, _event: Event) {}
}

impl<F: FnMut(usize, u64, Event)> Observer for F {
    fn event(&mut self, depth: usize, nodes: u64, event: Event) {
        self(depth, nodes, event);
    }
}

/// Lets a `&mut dyn Observer` stand where a generic observer is expected.
pub(crate) struct Dyn<'a>(pub &'a mut dyn Observer);

impl Observer for Dyn<'_> {
    fn event(&mut self, depth: usize, nodes: u64, event: Event) {
        self.0.event(depth, nodes, event);
    }
}
