//! `generate`'s filters on the step solver's measures: `--technique T` (the path of easiest
//! steps uses T), `--propagation LEVEL` and `--te-depth N`. Kept apart from
//! `src/cli/generate.rs`, which only asks [`HumanFilterArgs::keeps`].

use clap::Args;

use sudolab::human::{self, Propagation, Technique};
use sudolab::model::Grid;

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

/// `--propagation`: a level, or `none` (no level solves the puzzle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PropagationFilter(pub(crate) Option<Propagation>);

fn parse_technique(text: &str) -> Result<Technique, String> {
    let wanted = text.trim();
    Technique::ALL
        .into_iter()
        .find(|technique| technique.slug() == wanted)
        .ok_or_else(|| {
            let names: Vec<&str> = Technique::ALL.iter().map(|t| t.slug()).collect();
            format!(
                "unknown technique '{wanted}'; expected one of {}",
                names.join(", ")
            )
        })
}

fn parse_propagation(text: &str) -> Result<PropagationFilter, String> {
    let wanted = text.trim();
    if wanted == "none" {
        return Ok(PropagationFilter(None));
    }
    Propagation::from_name(wanted)
        .map(|level| PropagationFilter(Some(level)))
        .ok_or_else(|| {
            format!(
                "unknown propagation level '{wanted}'; expected one of naked-singles, \
                 hidden-singles, locked-candidates, house-consistency, none"
            )
        })
}

impl HumanFilterArgs {
    /// Whether any filter is given.
    pub(crate) fn any(&self) -> bool {
        self.technique.is_some() || self.propagation.is_some() || self.te_depth.is_some()
    }

    /// The filters as the command line wrote them, for messages and the JSON header.
    pub(crate) fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(technique) = self.technique {
            parts.push(format!("--technique {}", technique.slug()));
        }
        if let Some(PropagationFilter(level)) = self.propagation {
            parts.push(format!(
                "--propagation {}",
                level.map_or("none", Propagation::name)
            ));
        }
        if let Some(depth) = self.te_depth {
            parts.push(format!("--te-depth {depth}"));
        }
        parts.join(" ")
    }

    /// Whether `puzzle` passes every filter given (a puzzle that is not proper passes none).
    pub(crate) fn keeps(&self, puzzle: &Grid) -> bool {
        if !self.any() {
            return true;
        }
        let Ok((rating, path)) = human::rate(puzzle) else {
            return false;
        };
        let uses = |technique| path.steps.iter().any(|step| step.technique == technique);
        self.technique.is_none_or(uses)
            && self
                .propagation
                .is_none_or(|PropagationFilter(level)| rating.propagation == level)
            && self
                .te_depth
                .is_none_or(|depth| rating.te_depth == Some(depth))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_and_unknown_ones_list_the_valid_ones() {
        assert_eq!(parse_technique("x-wing"), Ok(Technique::XWing));
        assert_eq!(
            parse_technique("unique-rectangle4"),
            Ok(Technique::UniqueRectangle4)
        );
        let error = parse_technique("x wing").unwrap_err();
        assert!(
            error.starts_with("unknown technique 'x wing'; expected one of full-house, "),
            "{error}"
        );
        assert!(
            error.ends_with(", dynamic-forcing-chain, dynamic-cell-forcing-chain"),
            "{error}"
        );
        assert_eq!(parse_propagation("none"), Ok(PropagationFilter(None)));
        assert_eq!(
            parse_propagation("locked-candidates"),
            Ok(PropagationFilter(Some(Propagation::LockedCandidates)))
        );
        assert_eq!(
            parse_propagation("gac").unwrap_err(),
            "unknown propagation level 'gac'; expected one of naked-singles, hidden-singles, \
             locked-candidates, house-consistency, none"
        );
    }
}
