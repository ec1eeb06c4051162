//! `generate --unbiased --summarize FILE...`: the clue-count distribution of a run made in
//! shards (`--grids M --shard K/N --json`), from their documents, joined by the library
//! (`experiment::generate::join_shards`, which refuses anything that is not one whole run,
//! gaps aside with `--allow-partial`).

use std::path::Path;

use anyhow::{Context, bail};
use serde_json::{Value, json};

use sudolab::experiment::generate::{GridShard, join_shards};
use sudolab::model::Shape;

use super::super::super::Status;
use super::super::super::output::Out;
use super::super::GenerateArgs;
use super::stats_text;

pub(in super::super) fn run(args: &GenerateArgs) -> anyhow::Result<Status> {
    let shards = args
        .summarize
        .iter()
        .map(|path| read(path))
        .collect::<anyhow::Result<Vec<GridShard>>>()?;
    let joined = join_shards(shards, args.allow_partial)?;
    let run = &joined.run;
    // Through `Out`, as every command's standard output: a closed pipe ends the command quietly.
    let mut out = Out::new();
    if args.json {
        let document = json!({
            "seed": run.seed,
            "box": run.shape.to_string(),
            "unbiased": true,
            "attempts_per_grid": run.per_grid,
            "checker": run.checker,
            "grids": [run.grids.start, run.grids.end],
            "run_grids": run.run_grids,
            "shards": joined.shards,
            "missing": joined.missing.iter().map(|gap| [gap.start, gap.end]).collect::<Vec<_>>(),
            "attempts": run.attempts,
            "puzzles": run.kept.len(),
            "distribution": joined.summary,
        });
        out.write_str(&format!("{document}\n"))?;
    } else {
        if !joined.missing.is_empty() {
            let gaps: Vec<String> = joined
                .missing
                .iter()
                .map(|gap| format!("{}..{}", gap.start, gap.end))
                .collect();
            out.write_str(&format!(
                "sudolab: --unbiased: partial: grids {} are in no shard; the distribution is \
                 of the {} shards given\n",
                gaps.join(", "),
                joined.shards
            ))?;
        }
        match &joined.summary {
            Some(summary) => out.write_str(&format!(
                "{}\n",
                stats_text(summary, run.attempts, run.per_grid, run.shape)
            ))?,
            None => out.write_str(&format!(
                "sudolab: --unbiased: no minimal puzzle in {} attempts on grids {}..{}\n",
                run.attempts, run.grids.start, run.grids.end
            ))?,
        }
    }
    out.finish()?;
    Ok(Status::Success)
}

/// One shard's `--json` document: its settings, grids, attempts and kept puzzles.
fn read(path: &Path) -> anyhow::Result<GridShard> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
    let expected = "expected the --json output of 'generate --unbiased --grids M'";
    let document: Value = serde_json::from_str(&text)
        .with_context(|| format!("{name}: not a JSON document ({expected})"))?;
    let field = |name_of: &str| -> anyhow::Result<&Value> {
        document
            .get(name_of)
            .with_context(|| format!("{name}: no \"{name_of}\" ({expected})"))
    };
    let number = |name_of: &str| -> anyhow::Result<u64> {
        let value = field(name_of)?;
        value
            .as_u64()
            .with_context(|| format!("{name}: \"{name_of}\" is not a whole number: {value}"))
    };
    let text_of = |name_of: &str| -> anyhow::Result<&str> {
        let value = field(name_of)?;
        value
            .as_str()
            .with_context(|| format!("{name}: \"{name_of}\" is not a string: {value}"))
    };
    let shape: Shape = text_of("box")?
        .parse()
        .map_err(|err| anyhow::anyhow!("{name}: \"box\": {err}"))?;
    let grids = field("grids")?;
    let grids = match grids.as_array().map(Vec::as_slice) {
        Some([start, end]) => match (start.as_u64(), end.as_u64()) {
            (Some(start), Some(end)) if start <= end => start..end,
            _ => bail!("{name}: \"grids\" is not [first, end] with first <= end: {grids}"),
        },
        _ => bail!("{name}: \"grids\" is not [first, end]: {grids}"),
    };
    // Written beside "grids" since the run's grid count is checked: without it, shards
    // missing at either end of the run could not be told from a smaller run.
    if document.get("run_grids").is_none() {
        bail!(
            "{name}: no \"run_grids\" (the M of --grids M): written by an earlier sudolab, \
             which did not record it, so shards missing at the run's ends could not be told; \
             make the shard again"
        );
    }
    let run_grids = number("run_grids")?;
    let puzzles = field("puzzles")?
        .as_array()
        .with_context(|| format!("{name}: \"puzzles\" is not a list"))?;
    let kept = puzzles
        .iter()
        .enumerate()
        .map(|(at, puzzle)| {
            let whole = |key: &str| puzzle.get(key).and_then(Value::as_u64);
            match (whole("clues"), whole("index")) {
                (Some(clues), Some(index)) => Ok((clues as usize, index)),
                _ => bail!(
                    "{name}: puzzle {} has no whole \"index\" and \"clues\"",
                    at + 1
                ),
            }
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(GridShard {
        seed: number("seed")?,
        shape,
        checker: text_of("checker")?.to_string(),
        per_grid: number("attempts_per_grid")?,
        grids,
        run_grids,
        attempts: number("attempts")?,
        kept,
        name,
    })
}
