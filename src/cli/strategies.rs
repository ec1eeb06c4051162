//! `sudolab strategies`: the registry, one line per strategy, with its work budget's unit and
//! `compare`'s default budget.

use sudolab::strategy::registry;

use super::Status;
use super::output::Out;

pub(crate) fn run() -> anyhow::Result<Status> {
    let mut out = Out::new();
    let width = registry().iter().map(|s| s.name().len()).max().unwrap_or(0);
    let rows: Vec<(String, String)> = registry()
        .iter()
        .map(|strategy| {
            let default = strategy
                .default_budget()
                .map_or_else(|| "-".to_string(), |budget| budget.to_string());
            (strategy.budget_unit().to_string(), default)
        })
        .collect();
    let unit_width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(4);
    let default_width = rows.iter().map(|r| r.1.len()).max().unwrap_or(0).max(7);
    out.write_str(&format!(
        "{:<width$}  {:<unit_width$}  {:>default_width$}  summary\n",
        "strategy", "unit", "default"
    ))?;
    for (strategy, (unit, default)) in registry().iter().zip(rows) {
        out.write_str(&format!(
            "{:<width$}  {unit:<unit_width$}  {default:>default_width$}  {}\n",
            strategy.name(),
            strategy.summary()
        ))?;
    }
    out.write_str(
        "unit: what --budget counts for the strategy ('none': only --timeout stops it); \
         default: compare's budget when none is given\n",
    )?;
    out.finish()?;
    Ok(Status::Success)
}
