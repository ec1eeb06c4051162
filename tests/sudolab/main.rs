//! sudolab's integration tests, one binary: the data-driven case suite run against every
//! registered strategy, cross-strategy equalities, metamorphic properties and the CLI.

mod bounds;
mod budgets;
mod cases;
mod certify;
mod claims;
mod cli;
mod clock;
mod compare;
mod experiment;
mod fuzz_small;
mod generate;
mod human;
mod inputs;
mod outputs;
mod properties;
mod provenance;
mod robustness;
mod snapshots;
mod statistics;
mod trace;
mod ux_cli;
mod ux_input;
mod ux_reports;
mod variants;
