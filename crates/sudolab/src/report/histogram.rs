//! A fixed-memory histogram of non-negative integers (times in nanoseconds, node counts).

use hdrhistogram::Histogram as Hdr;

/// Values to three significant digits (quantiles within 0.1%), the exact maximum, and
/// additive merges: the aggregates of a run are the same whatever the order of its rows.
#[derive(Clone, Debug)]
pub struct Histogram {
    inner: Hdr<u64>,
    max: u64,
}

impl Default for Histogram {
    fn default() -> Histogram {
        Histogram {
            inner: Hdr::new(3).expect("3 significant digits is a valid precision"),
            max: 0,
        }
    }
}

impl Histogram {
    /// Records one value.
    pub fn record(&mut self, value: u64) {
        // `record` grows the histogram as needed; only a value beyond what any histogram can
        // hold (about 2^63) fails, and is then saturated.
        if self.inner.record(value).is_err() {
            self.inner.saturating_record(value);
        }
        self.max = self.max.max(value);
    }

    /// Adds every value `other` recorded, as if recorded here (counts add bucket by bucket).
    pub fn merge(&mut self, other: &Histogram) {
        // Both grow as needed; only values beyond what any histogram holds fail, as in
        // `record`, and are then saturated one bucket at a time.
        if self.inner.add(&other.inner).is_err() {
            for value in other.inner.iter_recorded() {
                self.inner
                    .saturating_record_n(value.value_iterated_to(), value.count_at_value());
            }
        }
        self.max = self.max.max(other.max);
    }

    /// Values recorded.
    pub fn len(&self) -> u64 {
        self.inner.len()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }

    /// The value at quantile `q` (0.5 = median), to three significant digits; 0 when empty.
    pub fn quantile(&self, q: f64) -> u64 {
        if self.is_empty() {
            return 0;
        }
        self.inner.value_at_quantile(q).min(self.max)
    }

    /// The largest value recorded, exactly.
    pub fn max(&self) -> u64 {
        self.max
    }

    /// `points` points `(fraction, value)` of the cumulative distribution, for charts: the
    /// same values as [`quantile`](Histogram::quantile) at `1/points, 2/points, ..., 1`, found
    /// in one pass over the recorded buckets rather than one pass per point (64 passes per
    /// histogram were most of the time of the report at the end of a `compare`).
    pub fn cdf(&self, points: usize) -> Vec<(f64, u64)> {
        if self.is_empty() {
            return Vec::new();
        }
        let total = self.inner.len();
        // As hdrhistogram's `value_at_quantile` counts a quantile's share: rounded up, at
        // least the first value.
        let share = |fraction: f64| ((fraction * total as f64).ceil() as u64).max(1);
        let mut cdf = Vec::with_capacity(points);
        let mut point = 1;
        let mut seen = 0u64;
        for bucket in self.inner.iter_recorded() {
            seen += bucket.count_at_value();
            while point <= points {
                let fraction = point as f64 / points as f64;
                if share(fraction) > seen {
                    break;
                }
                cdf.push((fraction, bucket.value_iterated_to().min(self.max)));
                point += 1;
            }
        }
        cdf
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_within_a_thousandth() {
        let mut histogram = Histogram::default();
        for value in 1..=10_000u64 {
            histogram.record(value * 1000);
        }
        assert_eq!(histogram.len(), 10_000);
        let median = histogram.quantile(0.5) as f64;
        assert!(
            (median - 5_000_000.0).abs() / 5_000_000.0 < 1e-3,
            "{median}"
        );
        assert_eq!(histogram.max(), 10_000_000);
        assert_eq!(histogram.quantile(1.0), 10_000_000);
        assert_eq!(histogram.cdf(4).len(), 4);
        // The one-pass distribution is the quantiles point by point.
        let mut skewed = Histogram::default();
        for value in 0..5_000u64 {
            skewed.record(value * value % 9_973 + u64::from(value % 7 == 0) * 1_000_000);
        }
        for (points, histogram) in [(64, &skewed), (64, &histogram), (7, &skewed)] {
            let by_quantile: Vec<(f64, u64)> = (1..=points)
                .map(|i| {
                    let fraction = i as f64 / points as f64;
                    (fraction, histogram.quantile(fraction))
                })
                .collect();
            assert_eq!(histogram.cdf(points), by_quantile);
        }
        assert_eq!(Histogram::default().quantile(0.5), 0);
    }
}
