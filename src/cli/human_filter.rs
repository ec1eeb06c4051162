//! `generate`'s filters on the step solver's measures: `--technique T` (the path of easiest
//! steps uses T), `--propagation LEVEL` and `--te-depth N`, parsed into the library's
//! [`HumanFilter`].

use clap::Args;

use sudolab::experiment::generate::{
    HumanFilter, PropagationFilter, parse_propagation, parse_technique,
};
use sudolab::human::Technique;

// The filters; every one given must hold.
#[derive(Clone, Debug, Default, Args)]
pub(crate) struct HumanFilterArgs {
    /// Keep only puzzles whose path of easiest steps (sudolab steps) uses technique T at least
    /// once, such as x-wing or xy-chain (the names of 'rate --json'). With --rating MIN..MAX
    /// up to T's weight, T is also the hardest step.
    #[arg(long, value_name = "T", value_parser = parse_technique)]
    pub(crate) technique: Option<Technique>,

    /// Keep only puzzles whose weakest solving propagation level (sudolab rate) is LEVEL:
    /// naked-singles, hidden-singles, locked-candidates, house-consistency, or none.
    #[arg(long, value_name = "LEVEL", value_parser = parse_propagation)]
    pub(crate) propagation: Option<PropagationFilter>,

    /// Keep only puzzles of Berthier's trial-and-error depth N (sudolab rate: 0, 1 or 2).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=2))]
    pub(crate) te_depth: Option<u32>,
}

impl HumanFilterArgs {
    /// The filters as the library takes them.
    pub(crate) fn filter(&self) -> HumanFilter {
        HumanFilter {
            technique: self.technique,
            propagation: self.propagation,
            te_depth: self.te_depth,
        }
    }
}
