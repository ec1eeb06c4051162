//! The statistics of a summary, as pure functions of the times they are given: quantiles,
//! PAR-2, the geometric-mean ratio with its bootstrap interval, and the Wilcoxon signed-rank
//! test. Each has one documented definition (the one `scripts/stats_fixture.py` asks scipy
//! and numpy for, so the suite holds the two to each other).

use rand::RngExt;
use statrs::function::erf::erfc;

use crate::strategy::rng;

/// The bootstrap's resamples: enough for a 95% percentile interval that moves by well under a
/// percent of its width from one seed to another.
pub const BOOTSTRAP_RESAMPLES: u32 = 1000;

/// The bootstrap's seed when a run names none.
pub const DEFAULT_SEED: u64 = 1;

/// The `q` quantile (0.9 = 90th percentile) of sorted values by linear interpolation between
/// closest ranks (Hyndman and Fan's definition 7, numpy's default `linear` method): position
/// `(n - 1) q`, interpolated between the values on either side. `None` for no values.
pub fn quantile(sorted: &[f64], q: f64) -> Option<f64> {
    let last = sorted.len().checked_sub(1)?;
    let position = last as f64 * q.clamp(0.0, 1.0);
    let below = (position.floor() as usize).min(last);
    let above = (below + 1).min(last);
    let fraction = position - below as f64;
    Some(sorted[below] + fraction * (sorted[above] - sorted[below]))
}

/// The arithmetic mean; `None` for no values.
pub fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// The natural logarithm of each pair's ratio `time / baseline`, times floored at one
/// nanosecond so that a search too short for its clock still has a ratio.
pub fn log_ratios(pairs: &[(u64, u64)]) -> Vec<f64> {
    pairs
        .iter()
        .map(|&(time, baseline)| (time.max(1) as f64 / baseline.max(1) as f64).ln())
        .collect()
}

/// The geometric mean of the ratios whose logarithms are given: `exp(mean(logs))`.
pub fn geometric_mean(logs: &[f64]) -> Option<f64> {
    mean(logs).map(f64::exp)
}

/// A 95% percentile bootstrap interval of the geometric mean: `resamples` resamples of the
/// pairs, each as many pairs drawn with replacement, uniformly, from the random stream
/// `(seed, stream)`; the interval is the 2.5% and 97.5% quantiles ([`quantile`]) of the
/// resamples' geometric means. The same seed, stream and logs give the same interval.
pub fn bootstrap_interval(
    logs: &[f64],
    seed: u64,
    stream: u64,
    resamples: u32,
) -> Option<(f64, f64)> {
    if logs.is_empty() || resamples == 0 {
        return None;
    }
    let mut rng = rng::stream(seed, stream);
    let mut means: Vec<f64> = (0..resamples)
        .map(|_| {
            let total: f64 = (0..logs.len())
                .map(|_| logs[rng.random_range(0..logs.len())])
                .sum();
            total / logs.len() as f64
        })
        .collect();
    means.sort_by(f64::total_cmp);
    Some((
        quantile(&means, 0.025)?.exp(),
        quantile(&means, 0.975)?.exp(),
    ))
}

/// The two-sided p-value of the Wilcoxon signed-rank test of paired times, `time - baseline`
/// for each pair (in whole nanoseconds, so ties and zeros are exact): zero differences are
/// dropped (Wilcoxon's treatment, scipy's `zero_method="wilcox"`), tied absolute differences
/// share their mean rank, and the p-value is the normal approximation of the positive ranks'
/// sum with the tie correction of its variance and no continuity correction (scipy's
/// `method="approx", correction=False`). `None` with no nonzero difference. The approximation
/// is rough below about twenty pairs.
pub fn wilcoxon_p(pairs: &[(u64, u64)]) -> Option<f64> {
    let mut differences: Vec<(u64, bool)> = pairs
        .iter()
        .filter(|(time, baseline)| time != baseline)
        .map(|&(time, baseline)| (time.abs_diff(baseline), time > baseline))
        .collect();
    if differences.is_empty() {
        return None;
    }
    differences.sort_unstable_by_key(|(size, _)| *size);
    let n = differences.len() as f64;
    let mut positive = 0.0;
    let mut ties = 0.0;
    let mut start = 0;
    while start < differences.len() {
        let size = differences[start].0;
        let end = start + differences[start..].partition_point(|(other, _)| *other == size);
        // Ranks start + 1 ..= end share their mean.
        let rank = (start + 1 + end) as f64 / 2.0;
        let positives = differences[start..end].iter().filter(|(_, up)| *up).count();
        positive += rank * positives as f64;
        let tied = (end - start) as f64;
        ties += tied * tied * tied - tied;
        start = end;
    }
    let expected = n * (n + 1.0) / 4.0;
    let variance = n * (n + 1.0) * (2.0 * n + 1.0) / 24.0 - ties / 48.0;
    if variance <= 0.0 {
        return Some(1.0);
    }
    let z = (positive - expected) / variance.sqrt();
    // Two-sided: 2 P(Z > |z|) = erfc(|z| / sqrt 2).
    Some(erfc(z.abs() / std::f64::consts::SQRT_2).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_interpolate_between_closest_ranks() {
        let values = [1.0, 2.0, 4.0, 8.0];
        assert_eq!(quantile(&values, 0.5), Some(3.0));
        // Position 2.7: seven tenths of the way from 4 to 8 (2.7 - 2 is not exactly 0.7).
        assert!((quantile(&values, 0.9).unwrap() - 6.8).abs() < 1e-12);
        assert_eq!(quantile(&values, 1.0), Some(8.0));
        assert_eq!(quantile(&values, 0.0), Some(1.0));
        assert_eq!(quantile(&[5.0], 0.9), Some(5.0));
        assert_eq!(quantile(&[], 0.5), None);
    }

    #[test]
    fn wilcoxon_of_a_symmetric_sample_is_one_and_of_one_sign_is_small() {
        // Differences -2, -1, +1, +2: positive ranks 1.5 + 3.5 = 5 = n(n+1)/4.
        let symmetric = [(8, 10), (9, 10), (11, 10), (12, 10)];
        assert_eq!(wilcoxon_p(&symmetric), Some(1.0));
        assert_eq!(wilcoxon_p(&[(3, 3), (4, 4)]), None);
        let slower: Vec<(u64, u64)> = (1..=30).map(|i| (100 + i, 100)).collect();
        assert!(wilcoxon_p(&slower).unwrap() < 1e-5);
    }
}
