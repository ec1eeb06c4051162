//! sudolab's integration tests, one binary: the data-driven case suite run against every
//! registered strategy, cross-strategy equalities, metamorphic properties and the CLI.

mod big_boards;
mod bounds;
mod budgets;
mod budgets_work;
mod cases;
mod certify;
mod claims;
mod cli;
mod clock;
mod compare;
mod diff;
mod dimacs;
mod experiment;
mod external;
mod fuzz_small;
mod generate;
mod human;
mod inputs;
mod min_clues;
mod outputs;
mod overhead;
mod parquet;
mod properties;
mod provenance;
mod reproductions;
mod robustness;
mod snapshots;
mod statistics;
mod trace;
mod unbiased;
mod ux_cli;
mod ux_input;
mod ux_reports;
mod variants;
