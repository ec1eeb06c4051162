//! Rank correlations between a rating and a ground truth: Spearman's rho (Pearson's correlation
//! of the ranks, ties given their average rank) and Kendall's tau-b (pairs, ties corrected).

/// Average ranks (1-based), ties sharing the mean of the ranks they span.
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start;
        while end + 1 < order.len()
            && values[order[end + 1]]
                .total_cmp(&values[order[start]])
                .is_eq()
        {
            end += 1;
        }
        let rank = (start + end) as f64 / 2.0 + 1.0;
        for &index in &order[start..=end] {
            ranks[index] = rank;
        }
        start = end + 1;
    }
    ranks
}

/// Spearman's rank correlation of two equally long series; `None` with fewer than two values
/// or when one series is constant.
pub fn spearman(xs: &[f64], ys: &[f64]) -> Option<f64> {
    if xs.len() != ys.len() || xs.len() < 2 {
        return None;
    }
    let (rx, ry) = (ranks(xs), ranks(ys));
    let n = rx.len() as f64;
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (x, y) in rx.iter().zip(&ry) {
        sxy += (x - mx) * (y - my);
        sxx += (x - mx) * (x - mx);
        syy += (y - my) * (y - my);
    }
    (sxx > 0.0 && syy > 0.0).then(|| sxy / (sxx * syy).sqrt())
}

/// Kendall's tau-b of two equally long series; `None` as for [`spearman`].
pub fn kendall_tau_b(xs: &[f64], ys: &[f64]) -> Option<f64> {
    if xs.len() != ys.len() || xs.len() < 2 {
        return None;
    }
    let (mut concordant, mut discordant, mut ties_x, mut ties_y) = (0i64, 0i64, 0i64, 0i64);
    for i in 0..xs.len() {
        for j in i + 1..xs.len() {
            let dx = xs[i].total_cmp(&xs[j]) as i64;
            let dy = ys[i].total_cmp(&ys[j]) as i64;
            match (dx, dy) {
                (0, 0) => {}
                (0, _) => ties_x += 1,
                (_, 0) => ties_y += 1,
                _ if dx == dy => concordant += 1,
                _ => discordant += 1,
            }
        }
    }
    let n1 = (concordant + discordant + ties_x) as f64;
    let n2 = (concordant + discordant + ties_y) as f64;
    (n1 > 0.0 && n2 > 0.0).then(|| (concordant - discordant) as f64 / (n1 * n2).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perfect_and_reversed_orders() {
        let xs = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(spearman(&xs, &[10.0, 20.0, 30.0, 40.0]), Some(1.0));
        assert_eq!(spearman(&xs, &[4.0, 3.0, 2.0, 1.0]), Some(-1.0));
        assert_eq!(kendall_tau_b(&xs, &[10.0, 20.0, 30.0, 40.0]), Some(1.0));
        assert_eq!(kendall_tau_b(&xs, &[4.0, 3.0, 2.0, 1.0]), Some(-1.0));
        assert_eq!(spearman(&xs, &[1.0, 1.0, 1.0, 1.0]), None);
    }

    #[test]
    fn ties_take_average_ranks() {
        assert_eq!(ranks(&[3.0, 1.0, 3.0, 2.0]), vec![3.5, 1.0, 3.5, 2.0]);
        // x = 1 2 3 4 5, y = 1 3 2 4 4: worked by hand, rho = 0.8721 (ranks of y 1 3 2 4.5 4.5),
        // tau-b = (8 - 1) / sqrt(10 * 9) = 0.7379.
        let xs = [1.0, 2.0, 3.0, 4.0, 5.0];
        let ys = [1.0, 3.0, 2.0, 4.0, 4.0];
        let rho = spearman(&xs, &ys).unwrap();
        assert!((rho - 0.872_082).abs() < 1e-5, "{rho}");
        let tau = kendall_tau_b(&xs, &ys).unwrap();
        assert!((tau - 7.0 / 90f64.sqrt()).abs() < 1e-12, "{tau}");
    }
}
