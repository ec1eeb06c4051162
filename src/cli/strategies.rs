//! `sudolab strategies`: the registry, one line per strategy.

use sudolab::strategy::registry;

use super::Status;
use super::output::Out;

pub(crate) fn run() -> anyhow::Result<Status> {
    let mut out = Out::new();
    let width = registry().iter().map(|s| s.name().len()).max().unwrap_or(0);
    for strategy in registry() {
        out.write_str(&format!(
            "{:<width$}  {}\n",
            strategy.name(),
            strategy.summary()
        ))?;
    }
    out.finish()?;
    Ok(Status::Success)
}
