//! `sudolab decode`: an outside SAT solver's answer back to a certified grid.

use std::path::PathBuf;

use anyhow::bail;
use clap::Args;

use sudolab::encode::{DecodeError, decode_dimacs_model};

use super::Status;
use super::export::read_text;
use super::output::{GridOutput, GridWriter, Out};

#[derive(Debug, Args)]
pub(crate) struct DecodeArgs {
    /// The CNF file written by 'sudolab export cnf'.
    cnf: PathBuf,
    /// The solver's output: 's SATISFIABLE' and 'v' lines (picosat, CaDiCaL, the SAT
    /// competition format) or MiniSat's result file ('SAT' and the literals).
    model: PathBuf,
    /// How to write the solution.
    #[arg(long, short = 'o', value_enum, default_value_t = GridOutput::Line)]
    output: GridOutput,
}

pub(crate) fn run(args: &DecodeArgs) -> anyhow::Result<Status> {
    let cnf = read_text(&args.cnf)?;
    let model = read_text(&args.model)?;
    match decode_dimacs_model(&cnf, &model) {
        Ok(Some(grid)) => {
            let mut out = Out::new();
            let mut writer = GridWriter::new(args.output);
            if let Err(message) = writer.can_write(&grid) {
                bail!(message);
            }
            writer.write(&mut out, &grid, None)?;
            writer.finish(&mut out)?;
            out.finish()?;
            Ok(Status::Success)
        }
        Ok(None) => {
            note!(
                "sudolab: {}: the solver found no model: the puzzle has no solution",
                args.model.display()
            );
            Ok(Status::Negative)
        }
        // Each error names the file it is about: a CNF problem is the CNF's, not the model's.
        Err(err @ (DecodeError::NotSudolab | DecodeError::BadComment { .. })) => {
            bail!("{}: {err}", args.cnf.display())
        }
        Err(err) => bail!("{}: {err}", args.model.display()),
    }
}
