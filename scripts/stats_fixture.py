#!/usr/bin/env python3
"""Writes tests/fixtures/statistics.json: seeded search times of two or three strategies and
the statistics scipy and numpy compute from them, which the suite holds sudolab's summaries
to (tests/sudolab/statistics.rs, to 1e-9).

Definitions asked for, as sudolab implements them:
- decided searches only for median, mean and p90; percentiles by numpy's default 'linear'
  method (Hyndman and Fan's definition 7);
- PAR-2: mean over every search, an undecided one counted as 2 x the timeout;
- ratio: geometric mean (scipy.stats.gmean) of time / baseline's time over the puzzles both
  decided;
- Wilcoxon signed-rank on the paired differences time - baseline (whole nanoseconds),
  zero_method='wilcox', correction=False, method='approx', two-sided.

Run: python3 scripts/stats_fixture.py > tests/fixtures/statistics.json (needs scipy, numpy;
not a runtime dependency of sudolab).
"""

import json

import numpy as np
from scipy import stats


def case(name, seed, puzzles, factors, timeout_ms, undecided_share, ties):
    rng = np.random.default_rng(seed)
    strategies = ["fast"] + [f"s{i}" for i in range(1, len(factors))]
    limit_ns = timeout_ms * 1_000_000
    base = np.maximum(1, np.round(rng.lognormal(np.log(20_000), 1.0, puzzles))).astype(np.int64)
    times = []
    decided = []
    for factor in factors:
        spread = rng.lognormal(np.log(factor), 0.5, puzzles)
        t = np.maximum(1, np.round(base * spread)).astype(np.int64)
        if ties:
            # Some searches exactly as long as the baseline's (zero differences) and some
            # equal differences (tied ranks).
            same = rng.random(puzzles) < 0.05
            t[same] = base[same]
            t = np.where(rng.random(puzzles) < 0.1, base + 500, t)
        if factor == 1.0 and not times:
            t = base
        d = rng.random(puzzles) >= undecided_share
        t = np.where(d, t, np.minimum(limit_ns, t * 3))
        times.append(t)
        decided.append(d)
    rows = []
    for p in range(puzzles):
        for s in range(len(strategies)):
            rows.append([p, s, int(times[s][p]), bool(decided[s][p])])
    expected = {}
    for s, name_s in enumerate(strategies):
        d = decided[s]
        t = times[s]
        dec = t[d].astype(np.float64) / 1e3
        par2 = np.where(d, t.astype(np.float64), 2.0 * limit_ns) / 1e3
        both = d & decided[0]
        entry = {
            "decided": int(d.sum()),
            "median_us": float(np.percentile(dec, 50, method="linear")),
            "mean_us": float(np.mean(dec)),
            "p90_us": float(np.percentile(dec, 90, method="linear")),
            "par2_us": float(np.mean(par2)),
            "ratio_pairs": int(both.sum()),
        }
        if s > 0:
            x = t[both].astype(np.float64)
            y = times[0][both].astype(np.float64)
            entry["ratio"] = float(stats.gmean(x / y))
            result = stats.wilcoxon(
                t[both] - times[0][both],
                zero_method="wilcox",
                correction=False,
                method="approx",
                alternative="two-sided",
            )
            entry["wilcoxon_p"] = float(result.pvalue)
        expected[name_s] = entry
    return {
        "name": name,
        "timeout_ms": timeout_ms,
        "strategies": strategies,
        "rows": rows,
        "expected": expected,
    }


cases = [
    case("lognormal", 36, 400, [1.0, 1.7, 0.6], 1, 0.08, False),
    case("ties and zeros", 7, 150, [1.0, 1.02], 1, 0.05, True),
    case("small", 3, 25, [1.0, 3.0], 2, 0.0, False),
]
print(json.dumps({"generator": "scripts/stats_fixture.py", "scipy": __import__("scipy").__version__,
                  "numpy": np.__version__, "cases": cases}, indent=None, separators=(",", ":")))
