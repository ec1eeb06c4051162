//! The solver-competition pictures of a report, as SVG: the cactus plot (puzzles decided
//! against time, one line per strategy) and, for each strategy but the baseline, the log-log
//! scatter of its time against the baseline's per puzzle, with the diagonal and the time
//! limits. The HTML report embeds them; `--plots DIR` writes them as files ([`files`]).
//!
//! Both draw only what the summaries hold ([`Summary::cactus`], [`Summary::scatter`]), so a
//! report read back from JSON draws the same pictures as the run that wrote it.

use plotters::prelude::*;

use super::html::{CAPTION, DESCRIPTION, LABEL, colour, decades, short, svg};
use super::{Report, Summary};

/// The size of the cactus plot.
pub const CACTUS_SIZE: (u32, u32) = (760, 420);
/// The size of each scatter plot.
pub const SCATTER_SIZE: (u32, u32) = (460, 440);
/// The colour of the diagonal and the limit lines: not a strategy's.
const GUIDE: RGBColor = RGBColor(120, 120, 120);

/// The cactus plot: for each strategy, the number of searches it decided within each time
/// (a step per decided search; undecided searches never arrive), on a log time axis, with the
/// time limits as vertical grey lines. `None` when no strategy decided anything.
pub fn cactus(report: &Report) -> Option<String> {
    let drawn: Vec<(usize, &Summary)> = report
        .summary
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.cactus.is_empty())
        .collect();
    if drawn.is_empty() {
        return None;
    }
    let limits = time_limits(report);
    Some(svg(CACTUS_SIZE, |root| {
        let x = decades(
            drawn
                .iter()
                .flat_map(|(_, s)| s.cactus.iter().map(|p| p.1))
                .chain(limits.iter().copied()),
        );
        let most = drawn
            .iter()
            .filter_map(|(_, s)| s.cactus.last().map(|p| p.0))
            .max()
            .unwrap_or(1);
        let mut chart = ChartBuilder::on(root)
            .caption("cactus: searches decided within a time", CAPTION)
            .margin(12)
            .x_label_area_size(46)
            .y_label_area_size(70)
            .build_cartesian_2d(x.clone().log_scale(), 0f64..(most as f64 * 1.05).max(1.0))
            .map_err(|err| err.to_string())?;
        chart
            .configure_mesh()
            .x_desc("time per search (µs, log scale)")
            .x_label_formatter(&|v| short(*v))
            .y_desc("puzzles decided")
            .y_label_formatter(&|v| short(*v))
            .label_style(LABEL)
            .axis_desc_style(DESCRIPTION)
            .draw()
            .map_err(|err| err.to_string())?;
        for limit in &limits {
            chart
                .draw_series(LineSeries::new(
                    [(*limit, 0.0), (*limit, most as f64 * 1.05)],
                    GUIDE.stroke_width(1),
                ))
                .map_err(|err| err.to_string())?;
        }
        for (index, summary) in &drawn {
            let mut points = vec![(summary.cactus[0].1.max(x.start), 0.0)];
            points.extend(
                summary
                    .cactus
                    .iter()
                    .map(|(count, us)| (us.max(x.start), *count as f64)),
            );
            chart
                .draw_series(LineSeries::new(points, colour(*index).stroke_width(2)))
                .map_err(|err| err.to_string())?;
        }
        Ok(())
    }))
}

/// The distinct time limits (microseconds) that the strategies' timeouts set, for the guide
/// lines; a strategy without a timeout sets none.
fn time_limits(report: &Report) -> Vec<f64> {
    let mut limits: Vec<f64> = report
        .summary
        .iter()
        .filter(|s| s.par2_limit_from == "timeout" && s.par2_limit_us > 0.0)
        .map(|s| s.par2_limit_us)
        .collect();
    limits.sort_by(f64::total_cmp);
    limits.dedup();
    limits
}

/// One scatter plot per strategy but the baseline: its time (y) against the baseline's (x) on
/// each puzzle both ran, log-log, with the diagonal (equal times: points above it are puzzles
/// the baseline was faster on) and each side's limit line (an undecided search is drawn on
/// it). In strategy order; empty without a baseline.
pub fn scatters(report: &Report) -> Vec<(String, String)> {
    let Some(baseline) = report.context.baseline.as_deref() else {
        return Vec::new();
    };
    let Some(base) = report.summary.iter().find(|s| s.strategy == baseline) else {
        return Vec::new();
    };
    report
        .summary
        .iter()
        .enumerate()
        .filter(|(_, s)| s.strategy != baseline && !s.scatter.is_empty())
        .map(|(index, summary)| {
            let picture = svg(SCATTER_SIZE, |root| {
                let range = decades(
                    summary
                        .scatter
                        .iter()
                        .flat_map(|(x, y)| [*x, *y])
                        .chain([base.par2_limit_us, summary.par2_limit_us]),
                );
                let mut chart = ChartBuilder::on(root)
                    .caption(format!("{} against {baseline}", summary.strategy), CAPTION)
                    .margin(12)
                    .x_label_area_size(46)
                    .y_label_area_size(62)
                    .build_cartesian_2d(range.clone().log_scale(), range.clone().log_scale())
                    .map_err(|err| err.to_string())?;
                chart
                    .configure_mesh()
                    .x_desc(format!("{baseline} time (µs, log scale)"))
                    .y_desc(format!("{} time (µs, log scale)", summary.strategy))
                    .x_label_formatter(&|v| short(*v))
                    .y_label_formatter(&|v| short(*v))
                    .label_style(LABEL)
                    .axis_desc_style(DESCRIPTION)
                    .draw()
                    .map_err(|err| err.to_string())?;
                let guide =
                    |points: [(f64, f64); 2]| LineSeries::new(points, GUIDE.stroke_width(1));
                chart
                    .draw_series(guide([(range.start, range.start), (range.end, range.end)]))
                    .map_err(|err| err.to_string())?;
                let (x_limit, y_limit) = (base.par2_limit_us, summary.par2_limit_us);
                if x_limit > 0.0 {
                    chart
                        .draw_series(guide([(x_limit, range.start), (x_limit, range.end)]))
                        .map_err(|err| err.to_string())?;
                }
                if y_limit > 0.0 {
                    chart
                        .draw_series(guide([(range.start, y_limit), (range.end, y_limit)]))
                        .map_err(|err| err.to_string())?;
                }
                let style = colour(index).mix(0.6).filled();
                chart
                    .draw_series(summary.scatter.iter().map(|(x, y)| {
                        Circle::new((x.max(range.start), y.max(range.start)), 2, style)
                    }))
                    .map_err(|err| err.to_string())?;
                Ok(())
            });
            (summary.strategy.clone(), picture)
        })
        .collect()
}

/// The cactus plot's file name under `--plots DIR`.
pub const CACTUS_FILE: &str = "cactus.svg";

/// The file name of a strategy's scatter plot under `--plots DIR`: `scatter-NAME.svg`, the
/// name's characters other than ASCII letters, digits, `-` and `_` written `_`.
pub fn scatter_file(strategy: &str) -> String {
    let safe: String = strategy
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("scatter-{safe}.svg")
}

/// The pictures as files: [`CACTUS_FILE`] and a [`scatter_file`] per strategy but the
/// baseline, each with its SVG text.
pub fn files(report: &Report) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = cactus(report)
        .map(|svg| (CACTUS_FILE.to_string(), svg))
        .into_iter()
        .collect();
    files.extend(
        scatters(report)
            .into_iter()
            .map(|(name, svg)| (scatter_file(&name), svg)),
    );
    files
}
