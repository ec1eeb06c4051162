//! Generation requests: every option of `sudolab generate` as data ([`Request`]), checked
//! against each other into a [`Prepared`] run that both front ends drive. A unique-puzzle run
//! ([`Unique`]) makes candidates one index at a time (the generator of [`crate::generate`]), rates
//! them, re-proves them with the verifiers and hands on the ones its filters keep, batch by
//! batch ([`Batches`]); a holes run ([`Holes`]) empties cells of random solutions.
//!
//! It lives here, not in `generate`, because it verifies through [`check`](super::check) and
//! rates through `human`, both at or above `generate`'s layer.
//!
//! A controlled-bias run (`--unbiased`, [`Unbiased`]) draws uniform grids and keeps the minimal
//! puzzles of Berthier's attempts on them, chunk by chunk ([`Attempts`]).
//!
//! Every random choice still comes from `strategy::rng::stream(seed, index)`, so the puzzles of
//! an index range are the same with any thread pool and in any batch size.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use rayon::prelude::*;
use serde::Serialize;

use super::{Item, Plan, Scratch};
use crate::generate::{self, Balance, Generated, Options, Rating, Symmetry};
use crate::human::{self, Propagation, Technique};
use crate::model::{CageSpec, Choice, Features, Grid, Rules, RulesSpec, Shape};
use crate::strategy::{self, EngineChoice, Limits, Strategy};

mod unbiased;

pub use unbiased::{Attempts, GridShard, JoinedShards, Unbiased, join_shards, unbiased_conflict};

crate::model::choice::choice! {
    /// The instance family of a generation run.
    #[derive(Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Model ("model", default Sudoku) {
        /// Sudoku (or a variant of it) with a unique solution.
        Sudoku = "sudoku",
        /// Latin square completion with a unique solution.
        Latin = "latin",
        /// Quasigroup with holes: a random Latin square with holes.
        Qwh = "qwh",
        /// Generalized Sudoku with holes: a random Sudoku solution with holes.
        Gsp = "gsp",
    }
}

/// Which candidates the rating filter keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RatingFilter {
    /// Every puzzle.
    #[default]
    Any,
    /// Only puzzles that `fast`'s propagation cannot solve (a guess is needed).
    Guess,
    /// Only puzzles that `fast`'s propagation solves alone (singles; on 9x9 also locked
    /// candidates).
    NoGuess,
    /// Only puzzles whose human rating (Sudoku Explainer's scale, in tenths) is in the range;
    /// a puzzle the step solver stops on is above every range.
    Human {
        /// Lowest rating kept, in tenths.
        min: u32,
        /// Highest rating kept, in tenths.
        max: u32,
    },
}

impl RatingFilter {
    /// The filter as it is written: `any`, `guess`, `no-guess` or `MIN..MAX`.
    pub fn name(self) -> String {
        match self {
            RatingFilter::Any => "any".to_string(),
            RatingFilter::Guess => "guess".to_string(),
            RatingFilter::NoGuess => "no-guess".to_string(),
            RatingFilter::Human { min, max } => format!(
                "{}..{}",
                human::format_tenths(min),
                human::format_tenths(max)
            ),
        }
    }
}

impl std::str::FromStr for RatingFilter {
    type Err = String;

    /// `any`, `guess`, `no-guess`, or `MIN..MAX` on Sudoku Explainer's scale (0 to 20).
    fn from_str(text: &str) -> Result<Self, String> {
        let tenths = |part: &str| {
            part.trim()
                .parse::<f64>()
                .ok()
                .filter(|value| (0.0..=20.0).contains(value))
                .map(|value| (value * 10.0).round() as u32)
        };
        match text.trim() {
            "any" => Ok(RatingFilter::Any),
            "guess" => Ok(RatingFilter::Guess),
            "no-guess" => Ok(RatingFilter::NoGuess),
            range => {
                let parsed = range
                    .split_once("..")
                    .and_then(|(min, max)| Some((tenths(min)?, tenths(max)?)));
                match parsed {
                    Some((min, max)) if min <= max => Ok(RatingFilter::Human { min, max }),
                    Some(_) => Err(format!(
                        "the range '{text}' is empty: MIN must not exceed MAX"
                    )),
                    None => Err(format!(
                        "expected guess, no-guess, any, or a range of ratings on Sudoku \
                         Explainer's scale such as 7.0..8.5 (0 to 20), found '{text}'"
                    )),
                }
            }
        }
    }
}

/// The filters on the step solver's measures (`--technique`, `--propagation`, `--te-depth`);
/// every one given must hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HumanFilter {
    /// The path of easiest steps uses this technique at least once.
    pub technique: Option<Technique>,
    /// The weakest solving propagation level is this one.
    pub propagation: Option<PropagationFilter>,
    /// Berthier's trial-and-error depth is this one (0 to [`human::MAX_TE_DEPTH`]).
    pub te_depth: Option<u32>,
}

/// `--propagation`: a level, or `none` (no level solves the puzzle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PropagationFilter(pub Option<Propagation>);

/// Reads a technique by its name (`x-wing`, as `rate --json` writes it).
pub fn parse_technique(text: &str) -> Result<Technique, String> {
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

/// Reads a propagation level by its name, or `none`.
pub fn parse_propagation(text: &str) -> Result<PropagationFilter, String> {
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

impl HumanFilter {
    /// Whether any filter is given.
    pub fn any(&self) -> bool {
        self.technique.is_some() || self.propagation.is_some() || self.te_depth.is_some()
    }

    /// The filters as the command line writes them, for messages and the JSON header.
    pub fn describe(&self) -> String {
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
    pub fn keeps(&self, puzzle: &Grid) -> bool {
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

/// Outside solvers given as verifiers (leaked by the front end that started them: they live
/// as long as the process), compared and shown by name.
#[derive(Clone, Default)]
pub struct Outside(pub Vec<&'static dyn Strategy>);

impl std::fmt::Debug for Outside {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.0.iter().map(|strategy| strategy.name()))
            .finish()
    }
}

impl PartialEq for Outside {
    fn eq(&self, other: &Self) -> bool {
        self.0.len() == other.0.len()
            && self
                .0
                .iter()
                .zip(&other.0)
                .all(|(a, b)| a.name() == b.name())
    }
}

/// Every option of a generation run. [`Request::default`] has the command line's defaults.
// Each flag is an option of its own on the command line, checked against the others by
// `prepare`.
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// Board side, when `box_shape` is not given (boxes as square as the side allows).
    pub size: usize,
    /// Box shape, instead of `size`.
    pub box_shape: Option<Shape>,
    /// Seed of the stream: the same seed and options give the same puzzles.
    pub seed: u64,
    /// Stop removing clues at this many.
    pub clues: Option<usize>,
    /// Remove clues until none can go.
    pub minimal: bool,
    /// The symmetry kept while removing clues.
    pub symmetry: Symmetry,
    /// The checker's name, or `auto`.
    pub checker: String,
    /// Budget of one uniqueness check (and of each verification); `None` is no budget.
    pub check_timeout: Option<Duration>,
    /// Strategies that re-prove each puzzle unique.
    pub verify: Vec<String>,
    /// Outside solvers that re-prove each puzzle too, after `verify`'s strategies unless
    /// `verify` names them.
    pub outside: Outside,
    /// Which puzzles the rating keeps.
    pub rating: RatingFilter,
    /// The step solver's filters.
    pub human_filter: HumanFilter,
    /// Variant rules named by `--variant`.
    pub variant: Option<Features>,
    /// A rules file (JSON or TOML).
    pub rules: Option<PathBuf>,
    /// The instance family.
    pub model: Model,
    /// Cells to empty, for [`Model::Qwh`] and [`Model::Gsp`].
    pub holes: Option<usize>,
    /// How holes spread.
    pub balance: Balance,
    /// Whether the output carries each puzzle's rules (the JSON form does, the line form not):
    /// cages, regions and pairs need it.
    pub carries_rules: bool,
    /// Whether each plain puzzle gets its [`Rating`] even without a rating filter.
    pub want_rating: bool,
    /// Berthier's controlled-bias generator instead ([`Unbiased`]).
    pub unbiased: bool,
    /// With `unbiased`, attempts on each drawn grid (1 or more).
    pub attempts_per_grid: u64,
}

impl Default for Request {
    fn default() -> Self {
        Request {
            size: 9,
            box_shape: None,
            seed: 1,
            clues: None,
            minimal: true,
            symmetry: Symmetry::None,
            checker: "auto".to_string(),
            check_timeout: Some(Duration::from_secs(10)),
            verify: Vec::new(),
            outside: Outside::default(),
            rating: RatingFilter::Any,
            human_filter: HumanFilter::default(),
            variant: None,
            rules: None,
            model: Model::Sudoku,
            holes: None,
            balance: Balance::None,
            carries_rules: false,
            want_rating: false,
            unbiased: false,
            attempts_per_grid: 1,
        }
    }
}

/// Why a request cannot run, or a run had to stop. The texts are the command line's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct GenerateError(String);

impl GenerateError {
    fn new(message: impl Into<String>) -> Self {
        GenerateError(message.into())
    }
}

/// Candidates in a row that a filter may reject before the run gives up: on 2x2 boxes no
/// puzzle needs a guess, and the loop would never end.
pub const MAX_REJECTED: u64 = 10_000;

/// Nodes `mrv` may spend on rating one puzzle.
const MRV_RATING_BUDGET: u64 = 10_000_000;

/// A request checked and ready: unique puzzles, or instances with holes.
pub enum Prepared {
    /// Puzzles with a unique solution ([`Model::Sudoku`], [`Model::Latin`]).
    Unique(Unique),
    /// Random solutions with holes ([`Model::Qwh`], [`Model::Gsp`]).
    Holes(Holes),
    /// Berthier's controlled-bias generator on uniform grids.
    Unbiased(Unbiased),
}

impl Request {
    /// Checks the options against each other and picks the checker and verifiers.
    pub fn prepare(&self) -> Result<Prepared, GenerateError> {
        if self.unbiased {
            return self.prepare_unbiased().map(Prepared::Unbiased);
        }
        if self.attempts_per_grid != 1 {
            return Err(GenerateError::new(
                "--attempts-per-grid is for --unbiased: the other generators draw a fresh \
                 solution for every puzzle",
            ));
        }
        if matches!(self.model, Model::Qwh | Model::Gsp) {
            return self.prepare_holes().map(Prepared::Holes);
        }
        if self.holes.is_some() {
            return Err(GenerateError::new(
                "--holes is for --model qwh or gsp; the other models remove clues while the \
                 solution stays unique",
            ));
        }
        self.prepare_unique().map(Prepared::Unique)
    }

    /// Whether a filter may skip candidates (so a run cannot know where an index range starts).
    pub fn filters(&self) -> bool {
        self.rating != RatingFilter::Any || self.human_filter.any()
    }

    fn size_shape(&self) -> Result<Shape, GenerateError> {
        Shape::for_side(self.size)
            .map_err(|err| GenerateError::new(format!("--size {}: {err}", self.size)))
    }

    fn prepare_unique(&self) -> Result<Unique, GenerateError> {
        let variant = self.variant_of()?;
        let shape = match (&variant, self.box_shape) {
            (Some(variant), _) => variant.rules.shape(),
            (None, Some(shape)) => shape,
            (None, None) => self.size_shape()?,
        };
        let options = Options {
            shape,
            clues: self.clues,
            minimal: self.minimal,
            symmetry: self.symmetry,
            check_timeout: self.check_timeout.filter(|timeout| !timeout.is_zero()),
        };
        // Cages and non-consecutive pairs break the symmetry of digits that the lower bound
        // rests on (a killer puzzle may have no given at all).
        if variant
            .as_ref()
            .is_none_or(|variant| variant.rules.is_house_based() && !variant.killer)
        {
            options
                .check()
                .map_err(|err| GenerateError::new(err.to_string()))?;
        }
        let sample = match &variant {
            // Killer cages come with each solution: the checker must take a cage.
            Some(variant) if variant.killer => {
                let mut spec = variant.rules.spec().clone();
                spec.cages.push(CageSpec {
                    sum: None,
                    cells: vec!["r1c1".into()],
                });
                let boxes = variant.rules.has_boxes().then(|| variant.rules.shape());
                let rules = Rules::new(variant.rules.side(), boxes, spec)
                    .map_err(|err| GenerateError::new(err.to_string()))?;
                Grid::empty_with_rules(Arc::new(rules))
            }
            Some(variant) => Grid::empty_with_rules(Arc::clone(&variant.rules)),
            None => Grid::empty(shape),
        };
        let checker = choose_checker(&self.checker, &sample)?;
        let verifiers = strategy::find_all_among(&self.verify, &self.outside.0)
            .map_err(|err| GenerateError::new(err.to_string()))?;
        for verifier in &verifiers {
            if let Err(reason) = verifier.accepts(&sample) {
                return Err(GenerateError::new(format!(
                    "{} cannot verify these puzzles: {reason}",
                    verifier.name()
                )));
            }
        }
        // The verifiers get the checker's budget: a slow verifier must not hang the
        // generator; an undecided verification is a problem like any other.
        let mut limits = Limits::solutions(2);
        if let Some(timeout) = self.check_timeout {
            limits = limits.with_timeout(timeout);
        }
        let plan = Plan::new(&verifiers, &limits);
        Ok(Unique {
            options,
            checker,
            verifiers,
            plan,
            variant,
            seed: self.seed,
            rating: self.rating,
            human_filter: self.human_filter,
            want_rating: self.want_rating,
        })
    }

    /// The variant the model, `variant` and `rules` ask for, checked.
    fn variant_of(&self) -> Result<Option<Variant>, GenerateError> {
        let mut spec = match &self.rules {
            Some(path) => read_rules_file(path)?,
            None => RulesSpec::default(),
        };
        let mut killer = false;
        if let Some(features) = self.variant {
            features.add_to(&mut spec);
            killer = features.killer;
        }
        if self.model == Model::Latin {
            spec.latin = true;
        }
        if killer && !spec.cages.is_empty() {
            return Err(GenerateError::new(
                "--variant killer draws its own cages, but --rules gives some; drop one of them",
            ));
        }
        if spec.is_plain() && !killer {
            return Ok(None);
        }
        if self.filters() {
            return Err(GenerateError::new(
                "--rating, --technique, --propagation and --te-depth rate plain Sudoku only; \
                 generate variants without them",
            ));
        }
        if (killer
            || !spec.cages.is_empty()
            || spec.regions.is_some()
            || !spec.different.is_empty())
            && !self.carries_rules
        {
            return Err(GenerateError::new(
                "the line form cannot carry cages, regions or pairs: add --json (its puzzles \
                 carry their rules, and every sudolab command reads them back)",
            ));
        }
        let boxes = if spec.latin || spec.regions.is_some() {
            None
        } else {
            self.box_shape
        };
        let side = self.box_shape.map_or(self.size, Shape::side);
        let rules =
            Rules::new(side, boxes, spec).map_err(|err| GenerateError::new(err.to_string()))?;
        Ok(Some(Variant {
            rules: Arc::new(rules),
            killer,
        }))
    }

    fn prepare_holes(&self) -> Result<Holes, GenerateError> {
        let model = self.model.name();
        let Some(holes) = self.holes else {
            return Err(GenerateError::new(format!(
                "--model {model} needs --holes H: the number of cells to empty"
            )));
        };
        if self.variant.is_some()
            || self.rules.is_some()
            || !self.verify.is_empty()
            || !self.outside.0.is_empty()
        {
            return Err(GenerateError::new(format!(
                "--model {model} makes instances with holes, not unique puzzles: --variant, \
                 --rules, --verify and --external do not apply"
            )));
        }
        let (rules, shape) = if self.model == Model::Qwh {
            let order = self.box_shape.map_or(self.size, Shape::side);
            let rules = generate::latin_rules(order).map_err(|err| {
                GenerateError::new(match self.box_shape {
                    Some(shape) => format!("--box {shape}: the order of a qwh square: {err}"),
                    None => format!("--size {order}: the order of a qwh square: {err}"),
                })
            })?;
            let shape = rules.shape();
            (Some(rules), shape)
        } else {
            let shape = match self.box_shape {
                Some(shape) => shape,
                None => self.size_shape()?,
            };
            (None, shape)
        };
        let cells = shape.cell_count();
        if holes > cells {
            return Err(GenerateError::new(format!(
                "--holes {holes} is more than the {cells} cells of a {0}x{0} board",
                shape.side()
            )));
        }
        Ok(Holes {
            shape,
            rules,
            emptied: holes,
            balance: self.balance,
            seed: self.seed,
        })
    }
}

/// A rules file: the JSON or TOML keys of docs/variants.md (JSON when it starts with `{`).
pub fn read_rules_file(path: &Path) -> Result<RulesSpec, GenerateError> {
    let text = std::fs::read_to_string(path).map_err(|err| {
        GenerateError::new(format!("--rules {}: cannot read: {err}", path.display()))
    })?;
    let parsed = if text.trim_start().starts_with('{') {
        serde_json::from_str(&text).map_err(|err| err.to_string())
    } else {
        toml::from_str(&text).map_err(|err| err.to_string())
    };
    parsed.map_err(|err| GenerateError::new(format!("--rules {}: {err}", path.display())))
}

/// The checker `name` names for puzzles like `sample`, or `auto`'s choice ([`EngineChoice`]);
/// refused with the reason when it cannot check them.
pub fn choose_checker(name: &str, sample: &Grid) -> Result<&'static dyn Strategy, GenerateError> {
    let choice: EngineChoice =
        name.parse()
            .map_err(|err: <EngineChoice as std::str::FromStr>::Err| {
                GenerateError::new(err.to_string())
            })?;
    choice.resolve(sample).map_err(|err| {
        let chosen_by = if err.auto {
            " (chosen by --checker auto)"
        } else {
            ""
        };
        GenerateError::new(format!(
            "the checker {}{chosen_by} cannot check {}: {}",
            err.engine, err.what, err.refusal
        ))
    })
}

/// The variant every puzzle is generated under.
pub struct Variant {
    /// Its rules.
    pub rules: Arc<Rules>,
    /// Random cages are drawn over each solution.
    pub killer: bool,
}

impl Variant {
    /// Its name, `+killer` when cages are drawn.
    pub fn name(&self) -> String {
        if self.killer {
            format!("{}+killer", self.rules.name())
        } else {
            self.rules.name()
        }
    }
}

/// What the step solver made of a candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HumanRated {
    /// Its rating in tenths.
    Rated(u32),
    /// The step solver stopped on it (or it was not proper).
    Unrated,
}

/// One candidate, generated, rated and verified.
pub struct Candidate {
    /// The puzzle and the generator's figures.
    pub generated: Generated,
    /// Its mrv rating, for a plain puzzle when asked for or filtered on.
    pub rating: Option<Rating>,
    /// Its human rating, when the rating filter is a range.
    pub human: Option<HumanRated>,
    /// Whether the step solver's filters keep it.
    pub kept_by_human_filter: bool,
    /// What its verification found wrong (empty: verified, or no verifier).
    pub problems: Vec<String>,
}

/// A unique-puzzle run, ready.
pub struct Unique {
    options: Options,
    checker: &'static dyn Strategy,
    verifiers: Vec<&'static dyn Strategy>,
    plan: Plan,
    variant: Option<Variant>,
    seed: u64,
    rating: RatingFilter,
    human_filter: HumanFilter,
    want_rating: bool,
}

impl Unique {
    /// The generator's options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The checker that proves uniqueness after each removal.
    pub fn checker(&self) -> &'static dyn Strategy {
        self.checker
    }

    /// The verifiers.
    pub fn verifiers(&self) -> &[&'static dyn Strategy] {
        &self.verifiers
    }

    /// The variant, if any.
    pub fn variant(&self) -> Option<&Variant> {
        self.variant.as_ref()
    }

    /// The candidate of `index`: generated, rated when asked, verified.
    pub fn candidate(&self, index: u64) -> Candidate {
        let generated = match &self.variant {
            Some(variant) => {
                let made = generate::generate_variant(
                    &self.options,
                    &variant.rules,
                    variant.killer,
                    self.checker,
                    self.seed,
                    index,
                );
                let Some(generated) = made else {
                    let empty = Grid::empty_with_rules(Arc::clone(&variant.rules));
                    return Candidate {
                        generated: Generated {
                            index,
                            puzzle: empty.clone(),
                            solution: empty,
                            clues: 0,
                            target_met: false,
                            checks: 0,
                            undecided: 0,
                        },
                        rating: None,
                        human: None,
                        kept_by_human_filter: true,
                        problems: vec![format!(
                            "no solution of the {} rules found within the fill's budget",
                            variant.rules.name()
                        )],
                    };
                };
                generated
            }
            None => generate::generate(&self.options, self.checker, self.seed, index),
        };
        let plain = self.variant.is_none();
        let need_rating = plain && (self.want_rating || self.rating != RatingFilter::Any);
        let rating = need_rating.then(|| {
            generate::rate(
                &generated.puzzle,
                MRV_RATING_BUDGET,
                self.options.check_timeout,
            )
        });
        // The generator's puzzles are proper, so `rate` only fails on a checker's mistake,
        // which the verifiers report; such a puzzle counts as unrated.
        let human =
            (plain && matches!(self.rating, RatingFilter::Human { .. })).then(
                || match human::rate(&generated.puzzle) {
                    Ok((rating, _)) if rating.solved => HumanRated::Rated(rating.difficulty),
                    _ => HumanRated::Unrated,
                },
            );
        let kept_by_human_filter = self.human_filter.keeps(&generated.puzzle);
        let problems = verify_unique(
            &generated.puzzle,
            Some(&generated.solution),
            &self.plan,
            &mut Scratch::default(),
        );
        Candidate {
            generated,
            rating,
            human,
            kept_by_human_filter,
            problems,
        }
    }

    /// Whether the filters keep `candidate`; an error once [`MAX_REJECTED`] candidates in a
    /// row have not, so that a filter no candidate can pass ends the run.
    pub fn keeps(
        &self,
        candidate: &Candidate,
        rejected_in_a_row: &mut u64,
    ) -> Result<bool, GenerateError> {
        let keep_rating = match (self.rating, candidate.rating) {
            (RatingFilter::Guess, Some(rating)) => !rating.no_guess,
            (RatingFilter::NoGuess, Some(rating)) => rating.no_guess,
            (RatingFilter::Human { min, max }, _) => {
                matches!(candidate.human, Some(HumanRated::Rated(tenths)) if (min..=max).contains(&tenths))
            }
            _ => true,
        };
        if keep_rating && candidate.kept_by_human_filter {
            *rejected_in_a_row = 0;
            return Ok(true);
        }
        *rejected_in_a_row += 1;
        let shape = self.options.shape;
        if *rejected_in_a_row >= MAX_REJECTED && self.human_filter.any() {
            return Err(GenerateError::new(format!(
                "{}: {MAX_REJECTED} candidates in a row on {shape} boxes were rejected (such \
                 puzzles are rare or absent among this generator's); generate without it, or \
                 with another filter",
                self.human_filter.describe()
            )));
        }
        if *rejected_in_a_row >= MAX_REJECTED {
            return Err(GenerateError::new(format!(
                "--rating {}: {MAX_REJECTED} candidates in a row on {shape} boxes were rejected \
                 (on boxes this small, singles may solve every puzzle); generate without \
                 --rating, or with another one",
                self.rating.name()
            )));
        }
        Ok(false)
    }

    /// The puzzles from index `first` on, `count` of them, in batches.
    pub fn batches(&self, first: u64, count: u64) -> Batches<'_> {
        Batches {
            run: self,
            next_index: first,
            left: count,
            rejected_in_a_row: 0,
            stopped: None,
        }
    }
}

/// A unique-puzzle run's output, batch by batch: each kept candidate in index order. A
/// candidate that fails its verification is handed on too (its `problems` say why) and takes
/// its place in the count, so a verifier that always fails still ends the run.
pub struct Batches<'a> {
    run: &'a Unique,
    next_index: u64,
    left: u64,
    rejected_in_a_row: u64,
    /// The error that ended the run, handed on after the candidates kept before it.
    stopped: Option<GenerateError>,
}

impl Batches<'_> {
    /// How many puzzles are still to come.
    pub fn left(&self) -> u64 {
        self.left
    }

    /// The next batch, made on `pool` (at least one candidate per thread); empty when the run
    /// is over. A filter's error comes after the candidates it kept before the error.
    pub fn next_batch(
        &mut self,
        pool: &rayon::ThreadPool,
    ) -> Result<Vec<Candidate>, GenerateError> {
        if let Some(err) = self.stopped.take() {
            self.left = 0;
            return Err(err);
        }
        if self.left == 0 {
            return Ok(Vec::new());
        }
        let jobs = pool.current_num_threads().max(1) as u64;
        let run = self.run;
        let mut kept = Vec::new();
        // A batch whose candidates the filters all reject is followed by another.
        while kept.is_empty() && self.left > 0 {
            // Enough candidates to keep every job busy, no more than the output still needs
            // (a filter may discard some).
            let chunk = self.left.clamp(jobs, jobs * 64);
            let indices: Vec<u64> = (self.next_index..self.next_index + chunk).collect();
            self.next_index += chunk;
            let candidates: Vec<Candidate> = pool.install(|| {
                indices
                    .par_iter()
                    .map(|&index| run.candidate(index))
                    .collect()
            });
            for candidate in candidates {
                if self.left == 0 {
                    break;
                }
                match run.keeps(&candidate, &mut self.rejected_in_a_row) {
                    Ok(true) => {
                        self.left -= 1;
                        kept.push(candidate);
                    }
                    Ok(false) => {}
                    Err(err) if kept.is_empty() => {
                        self.left = 0;
                        return Err(err);
                    }
                    Err(err) => {
                        self.stopped = Some(err);
                        return Ok(kept);
                    }
                }
            }
        }
        Ok(kept)
    }
}

/// Re-proves `puzzle` unique with every strategy of `verifiers`: each must say "unique" with a
/// certified grid equal to `solution` (when given) and to each other's. Returns what failed.
pub fn verify_unique(
    puzzle: &Grid,
    solution: Option<&Grid>,
    verifiers: &Plan,
    scratch: &mut Scratch,
) -> Vec<String> {
    let item = Item {
        ordinal: 0,
        source: String::new(),
        puzzle: puzzle.clone(),
        solution: solution.cloned(),
        count: None,
    };
    super::check(verifiers, item, scratch).uniqueness_problems()
}

/// A holes run, ready: `holes` cells emptied in random solutions.
pub struct Holes {
    shape: Shape,
    rules: Option<Arc<Rules>>,
    /// Cells emptied in each instance.
    emptied: usize,
    balance: Balance,
    seed: u64,
}

/// One instance with holes; it always has `solution` (not necessarily only it).
pub struct Instance {
    /// Its index in the seed's stream.
    pub index: u64,
    /// The solution with holes (under Latin rules for qwh).
    pub puzzle: Grid,
    /// The solution it was made from (without rules).
    pub solution: Grid,
}

impl Holes {
    /// The board's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Cells emptied in each instance.
    pub fn holes(&self) -> usize {
        self.emptied
    }

    /// The instance of `index`. Nothing is searched, so it comes at once.
    pub fn instance(&self, index: u64) -> Instance {
        let shape = self.shape;
        let mut rng = generate::stream(self.seed, index);
        let solution = match &self.rules {
            Some(rules) => Grid::from_cells(shape, generate::latin_square(shape.side(), &mut rng))
                .expect("symbols 1..=n")
                .with_rules(Arc::clone(rules)),
            None => generate::full_grid(shape, &mut rng),
        };
        let mut puzzle = solution.clone();
        for cell in generate::hole_cells(shape.side(), self.emptied, self.balance, &mut rng) {
            puzzle.set(cell, 0);
        }
        Instance {
            index,
            puzzle,
            solution: solution.without_rules(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_picks_a_checker_that_supports_the_shape() {
        let side = |n: usize| Shape::for_side(n).unwrap();
        let auto = |n: usize| {
            choose_checker("auto", &Grid::empty(side(n)))
                .unwrap()
                .name()
        };
        assert_eq!(
            [auto(9), auto(12), auto(14), auto(16), auto(25), auto(36)],
            ["fast", "fast", "sat", "sat", "sat", "sat"]
        );
        assert_eq!(auto(64), "fast");
        let err = choose_checker("sat", &Grid::empty(side(64)))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("the checker sat cannot check 8x8 boxes: "),
            "{err}"
        );
    }

    #[test]
    fn a_generated_puzzle_verifies_and_a_wrong_solution_does_not() {
        let fast = strategy::find("fast").unwrap();
        let shape = Shape::new(2, 2).unwrap();
        let options = Options {
            shape,
            clues: None,
            minimal: true,
            symmetry: Symmetry::None,
            check_timeout: None,
        };
        let generated = generate::generate(&options, fast, 3, 0);
        let verifiers = strategy::find_all(&["dlx-knuth", "sat"]).unwrap();
        let plan = Plan::new(&verifiers, &Limits::solutions(2));
        let scratch = &mut Scratch::default();
        assert!(
            verify_unique(&generated.puzzle, Some(&generated.solution), &plan, scratch).is_empty()
        );
        let empty = Grid::empty(shape);
        let problems = verify_unique(&empty, None, &plan, scratch);
        assert_eq!(
            problems,
            [
                "not unique: dlx-knuth says multiple (2+)",
                "not unique: sat says multiple (2+)"
            ]
        );
    }

    #[test]
    fn rating_filters_and_human_filters_read_back_and_refuse_what_they_cannot_read() {
        assert_eq!("guess".parse(), Ok(RatingFilter::Guess));
        assert_eq!(
            " 4.0..6.5".parse(),
            Ok(RatingFilter::Human { min: 40, max: 65 })
        );
        assert_eq!(RatingFilter::Human { min: 40, max: 65 }.name(), "4.0..6.5");
        assert_eq!(
            "6..4".parse::<RatingFilter>().unwrap_err(),
            "the range '6..4' is empty: MIN must not exceed MAX"
        );
        assert_eq!(
            "hard".parse::<RatingFilter>().unwrap_err(),
            "expected guess, no-guess, any, or a range of ratings on Sudoku Explainer's scale \
             such as 7.0..8.5 (0 to 20), found 'hard'"
        );
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

    #[test]
    fn batches_hand_on_the_same_puzzles_as_single_candidates_in_any_pool() {
        let request = Request {
            size: 4,
            seed: 5,
            rating: RatingFilter::NoGuess,
            ..Request::default()
        };
        let Ok(Prepared::Unique(run)) = request.prepare() else {
            panic!("a plain 4x4 request prepares a unique run");
        };
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let two = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let collect = |pool: &rayon::ThreadPool| {
            let mut batches = run.batches(3, 5);
            let mut puzzles = Vec::new();
            loop {
                let batch = batches.next_batch(pool).unwrap();
                if batch.is_empty() {
                    break;
                }
                puzzles.extend(batch.into_iter().map(|c| c.generated));
            }
            puzzles
        };
        let by_one = collect(&one);
        assert_eq!(by_one.len(), 5);
        assert_eq!(by_one, collect(&two));
        assert_eq!(by_one[0], run.candidate(3).generated);
        assert!(by_one.iter().all(|g| g.index >= 3));
    }

    #[test]
    fn unbiased_runs_refuse_what_would_bias_them_and_hand_on_the_same_puzzles_in_any_pool() {
        let refused = |request: Request| match request.prepare() {
            Err(err) => err.to_string(),
            Ok(_) => panic!("{request:?} prepared"),
        };
        let unbiased = Request {
            unbiased: true,
            size: 4,
            seed: 5,
            ..Request::default()
        };
        assert_eq!(
            refused(Request {
                clues: Some(8),
                ..unbiased.clone()
            }),
            unbiased_conflict("--clues").to_string()
        );
        assert_eq!(
            refused(Request {
                verify: vec!["sat".to_string()],
                ..unbiased.clone()
            }),
            "--unbiased cannot be used with --verify: Berthier's method keeps every minimal \
             puzzle of uniform grids as its checker proves it, and --verify would change which \
             puzzles are made, kept or proven; generate without it"
        );
        assert_eq!(
            refused(Request {
                attempts_per_grid: 0,
                ..unbiased.clone()
            }),
            "--attempts-per-grid: expected 1 or more attempts on each grid, found 0"
        );
        assert_eq!(
            refused(Request {
                attempts_per_grid: 3,
                ..Request::default()
            }),
            "--attempts-per-grid is for --unbiased: the other generators draw a fresh solution \
             for every puzzle"
        );
        let Ok(Prepared::Unbiased(run)) = unbiased.prepare() else {
            panic!("a 4x4 unbiased request prepares");
        };
        let collect = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let mut attempts = run.attempts(4);
            let mut kept = Vec::new();
            while attempts.left() > 0 {
                kept.extend(attempts.next_chunk(&pool));
            }
            assert!(attempts.next_chunk(&pool).is_empty());
            let summary = attempts.summary().expect("four puzzles kept");
            assert_eq!(summary.puzzles, 4);
            (kept, attempts.made())
        };
        let (kept, made) = collect(1);
        assert_eq!(collect(2), (kept.clone(), made));
        // The command line's first puzzle of seed 5 (tests/sudolab/unbiased.rs).
        assert_eq!(
            crate::model::to_line(&kept[0].puzzle).unwrap(),
            ".2..4...2..3.3.."
        );
        assert!(kept.iter().all(|attempt| attempt.minimal));
        assert_eq!(made, kept[3].index + 1);
    }

    #[test]
    fn holes_need_their_model_and_their_count() {
        let refused = |request: Request| match request.prepare() {
            Err(err) => err.to_string(),
            Ok(_) => panic!("{request:?} prepared"),
        };
        assert_eq!(
            refused(Request {
                holes: Some(3),
                ..Request::default()
            }),
            "--holes is for --model qwh or gsp; the other models remove clues while the \
             solution stays unique"
        );
        assert_eq!(
            refused(Request {
                model: Model::Qwh,
                ..Request::default()
            }),
            "--model qwh needs --holes H: the number of cells to empty"
        );
        assert_eq!(
            refused(Request {
                model: Model::Gsp,
                holes: Some(82),
                ..Request::default()
            }),
            "--holes 82 is more than the 81 cells of a 9x9 board"
        );
        let Ok(Prepared::Holes(holes)) = (Request {
            model: Model::Qwh,
            size: 5,
            holes: Some(7),
            ..Request::default()
        })
        .prepare() else {
            panic!("a qwh request prepares a holes run");
        };
        let instance = holes.instance(2);
        assert_eq!(instance.puzzle.side(), 5);
        let empty = (0..25)
            .filter(|&cell| instance.puzzle.get(cell) == 0)
            .count();
        assert_eq!(empty, 7);
        assert!((0..25).all(|cell| instance.puzzle.get(cell) == 0
            || instance.puzzle.get(cell) == instance.solution.get(cell)));
    }
}
