//! `sudolab certify`: a checkable certificate per puzzle.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context, bail};
use clap::Args;

use sudolab::certcheck::{self};
use sudolab::certify::{self, CertifyError, Options, Producer};
use sudolab::corpus::Record;

use super::input::{Done, for_each_record_in_parallel, place};
use super::output::Out;
use super::{BudgetArgs, InputArgs, ShardArgs, Status};

#[derive(Debug, Args)]
pub(crate) struct CertifyArgs {
    #[command(flatten)]
    input: InputArgs,

    /// Where to write the certificates: DIR/STEM-NNNNN.cert, STEM the input file's name and
    /// NNNNN the puzzle's position in it (and .drat beside it with --drat).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,

    /// Who writes the refutations: 'tree', the exact-cover search over the CNF (small proofs
    /// where propagation does most of the work), 'sat', varisat's proof turned into LRAT by
    /// varisat-lrat, or 'auto': the tree where its proof stays under 32 bytes per variable of
    /// the CNF (23 KB at 9x9), sat otherwise.
    #[arg(long, value_parser = super::choice::<Producer>(), default_value_t = Producer::Auto)]
    producer: Producer,

    /// Also write each refutation as DRAT, in a .drat file beside the certificate.
    #[arg(long)]
    drat: bool,

    /// Give up on a puzzle whose proof passes this many bytes (the puzzle is reported and
    /// no certificate is written).
    #[arg(long, value_name = "BYTES", default_value_t = certify::DEFAULT_MAX_PROOF_BYTES)]
    max_proof_bytes: u64,

    /// Claim that each unique puzzle is minimal: one witness per clue, a second solution of
    /// the puzzle without that clue. A puzzle with a clue that can go is reported (exit 1).
    #[arg(long)]
    minimal: bool,

    /// Puzzles certified in parallel (default: one per core).
    #[arg(long, short = 'j', value_name = "N", value_parser = super::parse_jobs)]
    jobs: Option<usize>,

    #[command(flatten)]
    budget: BudgetArgs,

    #[command(flatten)]
    shard: ShardArgs,
}

/// What the certificates of a run added up to.
#[derive(Default)]
struct Tally {
    verdicts: HashMap<&'static str, u64>,
    proof_bytes: Vec<usize>,
    lemmas: Vec<usize>,
    producers: std::collections::BTreeMap<String, u64>,
}

pub(crate) fn run(args: &CertifyArgs) -> anyhow::Result<Status> {
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let mut stems: HashMap<String, &Path> = HashMap::new();
    for file in &args.input.files {
        let stem = stem_of(&file.to_string_lossy());
        if let Some(other) = stems.insert(stem.clone(), file) {
            if other != file {
                bail!(
                    "inputs {} and {} share the name '{stem}', so their certificates would \
                     collide: certify them into different --out directories",
                    other.display(),
                    file.display()
                );
            }
        }
    }
    let options = Options {
        producer: args.producer,
        drat: args.drat,
        max_proof_bytes: args.max_proof_bytes,
        minimal: args.minimal,
        limits: args.budget.limits(),
    };
    let tally = Mutex::new(Tally::default());
    let mut out = Out::new();
    let status = for_each_record_in_parallel(
        &args.input,
        args.jobs,
        args.shard.selected(),
        |source, record, _| certify_one(args, &options, source, record, &tally),
        &mut out,
    )?;
    out.finish()?;
    let tally = tally
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let written: u64 = tally.verdicts.values().sum();
    let mut summary = format!(
        "sudolab: {written} certificates in {} ({} unique, {} multiple, {} none)",
        args.out.display(),
        tally.verdicts.get("unique").unwrap_or(&0),
        tally.verdicts.get("multiple").unwrap_or(&0),
        tally.verdicts.get("none").unwrap_or(&0),
    );
    if !tally.proof_bytes.is_empty() {
        let producers: Vec<String> = tally
            .producers
            .iter()
            .map(|(producer, count)| format!("{producer} {count}"))
            .collect();
        let _ = write!(
            summary,
            "; proofs ({}): bytes median {} max {}, lemmas median {} max {}",
            producers.join(", "),
            median(&tally.proof_bytes),
            tally.proof_bytes.iter().max().unwrap_or(&0),
            median(&tally.lemmas),
            tally.lemmas.iter().max().unwrap_or(&0),
        );
    }
    note!("{summary}");
    Ok(status)
}

/// The median: the middle value, or the mean of the two middle values of an even count (0 for
/// none); printed as `1500` or `1500.5`.
fn median(values: &[usize]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let middle = sorted.len() / 2;
    match sorted.len() {
        0 => 0.0,
        len if len % 2 == 1 => sorted[middle] as f64,
        _ => f64::midpoint(sorted[middle - 1] as f64, sorted[middle] as f64),
    }
}

/// A file name's stem for certificate names: `<stdin>` and `<arg 2>` become `stdin` and `arg-2`.
fn stem_of(source: &str) -> String {
    Path::new(source)
        .file_stem()
        .map_or("stdin".into(), |stem| {
            stem.to_string_lossy()
                .replace(['<', '>'], "")
                .replace(' ', "-")
        })
}

fn certify_one(
    args: &CertifyArgs,
    options: &Options,
    source: &str,
    record: &Record,
    tally: &Mutex<Tally>,
) -> Done {
    let name = format!("{}-{:05}", stem_of(source), record.number);
    let here = place(source, record);
    let failed = |message: String, status: Status| Done {
        line: None,
        notes: vec![format!("sudolab: {here}: {message}")],
        status,
    };
    let certificate = match certify::certify(
        &record.puzzle,
        &format!("{source}:{}", record.line),
        options,
    ) {
        Ok(certificate) => certificate,
        Err(err @ CertifyError::Producer { .. }) => return failed(err.to_string(), Status::Error),
        Err(err) => return failed(err.to_string(), Status::Negative),
    };
    let path = args.out.join(format!("{name}.cert"));
    if let Err(err) = std::fs::write(&path, &certificate.text) {
        return failed(
            format!("cannot write {}: {err}", path.display()),
            Status::Error,
        );
    }
    if let Some(drat) = &certificate.drat {
        let drat_path = args.out.join(format!("{name}.drat"));
        if let Err(err) = std::fs::write(&drat_path, drat) {
            return failed(
                format!("cannot write {}: {err}", drat_path.display()),
                Status::Error,
            );
        }
    }
    let verdict = match certificate.verdict {
        sudolab::strategy::Verdict::Unique => "unique",
        sudolab::strategy::Verdict::Multiple => "multiple",
        _ => "none",
    };
    {
        let mut tally = tally
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *tally.verdicts.entry(verdict).or_default() += 1;
        if certificate.proof_bytes > 0 {
            tally.proof_bytes.push(certificate.proof_bytes);
            tally.lemmas.push(certificate.lemmas);
            if let Some(producer) = certificate.producer {
                *tally.producers.entry(producer.to_string()).or_default() += 1;
            }
        }
    }
    let mut notes = Vec::new();
    let mut status = Status::Success;
    if let Some(clue) = &certificate.redundant_clue {
        notes.push(format!(
            "sudolab: {here}: not minimal: clue {clue} can go and the solution stays unique; \
             the certificate makes no minimality claim"
        ));
        status = Status::Negative;
    }
    let mut line = format!("{source}:{}\t{verdict}\t{}", record.line, path.display());
    if let Some(producer) = certificate.producer {
        let _ = write!(
            line,
            "\t{} lemmas\t{} bytes\t{producer}",
            certificate.lemmas, certificate.proof_bytes
        );
    }
    Done {
        line: Some(line),
        notes,
        status,
    }
}

/// `verify --certify DIR`: certifies a verified puzzle (producer `auto`), writes the
/// certificate and checks it with the independent checker; its path, or why not.
pub(crate) fn certify_verified(
    dir: &Path,
    source: &str,
    record: &Record,
) -> Result<PathBuf, String> {
    let certificate = certify::certify(
        &record.puzzle,
        &format!("{source}:{}", record.line),
        &Options::default(),
    )
    .map_err(|err| format!("no certificate: {err}"))?;
    if let Err(failure) = certcheck::check_text(&certificate.text) {
        return Err(format!(
            "the certificate does not check ({}: {})",
            failure.step, failure.reason
        ));
    }
    if certificate.verdict != sudolab::strategy::Verdict::Unique {
        return Err(format!(
            "the certificate proves {:?}, not uniqueness",
            certificate.verdict
        ));
    }
    let path = dir.join(format!("{}-{:05}.cert", stem_of(source), record.number));
    std::fs::write(&path, &certificate.text)
        .map_err(|err| format!("cannot write {}: {err}", path.display()))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_of_an_even_count_is_the_mean_of_the_two_middle_values() {
        // As the summary prints it.
        let median = |values: &[usize]| format!("{}", median(values));
        assert_eq!(median(&[]), "0");
        assert_eq!(median(&[7]), "7");
        assert_eq!(median(&[300, 100]), "200");
        assert_eq!(median(&[4, 1, 2, 3]), "2.5");
        assert_eq!(median(&[5, 1, 9]), "5");
        assert_eq!(median(&[1000, 2001]), "1500.5");
    }
}
