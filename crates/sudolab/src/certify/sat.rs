//! The SAT producer: one fresh, non-incremental varisat solve of the clauses, with its proof
//! turned into LRAT by the `varisat-lrat` proof processor (and written as DRAT on request).

use std::cell::Cell;
use std::io;

use varisat::{ExtendFormula, Lit, ProofFormat, Solver};
use varisat_lrat::WriteLrat;

/// What the SAT producer wrote.
pub(crate) struct SatProof {
    /// The LRAT refutation.
    pub(crate) lrat: String,
    /// The DRAT refutation, when asked for.
    pub(crate) drat: Option<String>,
}

/// Why the SAT producer gave no proof.
#[derive(Debug)]
pub(crate) enum SatStop {
    /// The formula is satisfiable.
    Satisfiable,
    /// A proof passed the byte budget.
    TooLarge,
    /// varisat failed.
    Failed(String),
}

/// A sink that fails once more than `max` bytes were written (and says so in `exceeded`):
/// varisat stops a search as soon as writing its proof fails.
struct Capped<'a> {
    out: &'a mut Vec<u8>,
    max: u64,
    exceeded: &'a Cell<bool>,
}

impl io::Write for Capped<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.out.len() as u64 + buf.len() as u64 > self.max {
            self.exceeded.set(true);
            return Err(io::Error::other("the proof passed its byte budget"));
        }
        self.out.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Refutes `clauses` (DIMACS literals) with varisat.
pub(crate) fn refute<'c>(
    clauses: impl Iterator<Item = &'c [i32]>,
    drat: bool,
    max_bytes: u64,
) -> Result<SatProof, SatStop> {
    let mut lrat_bytes = Vec::new();
    let mut drat_bytes = Vec::new();
    let exceeded = Cell::new(false);
    let outcome = {
        let mut lrat = WriteLrat::new(
            Capped {
                out: &mut lrat_bytes,
                max: max_bytes,
                exceeded: &exceeded,
            },
            false,
        );
        let outcome = {
            let mut solver = Solver::new();
            if drat {
                solver.write_proof(
                    Capped {
                        out: &mut drat_bytes,
                        max: max_bytes,
                        exceeded: &exceeded,
                    },
                    ProofFormat::Drat,
                );
            }
            solver.add_proof_processor(&mut lrat);
            let mut lits = Vec::new();
            for clause in clauses {
                lits.clear();
                lits.extend(clause.iter().map(|&lit| Lit::from_dimacs(lit as isize)));
                solver.add_clause(&lits);
            }
            let outcome = solver.solve();
            let closed = solver.close_proof();
            match (outcome, closed) {
                (Ok(true), _) => Err(SatStop::Satisfiable),
                (Ok(false), Ok(())) => Ok(()),
                (Err(err), _) | (_, Err(err)) => Err(SatStop::Failed(err.to_string())),
            }
        };
        let flushed = lrat.flush().map_err(|err| SatStop::Failed(err.to_string()));
        outcome.and(flushed)
    };
    if exceeded.get() {
        return Err(SatStop::TooLarge);
    }
    outcome?;
    let text = |bytes: Vec<u8>| {
        String::from_utf8(bytes)
            .map_err(|_| SatStop::Failed("varisat wrote a proof that is not text".into()))
    };
    Ok(SatProof {
        lrat: text(lrat_bytes)?,
        drat: if drat { Some(text(drat_bytes)?) } else { None },
    })
}
