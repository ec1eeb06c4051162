#!/usr/bin/env bash
# CI: the docs/scale.md recipes, run for real (GNU parallel, and a single-node Slurm brought up
# by .ci/cluster-up.sh), each merged report checked against one run over the whole corpus:
# the same rows (times aside) and the same verdict and node aggregates.
set -euo pipefail
cd "$(dirname "$0")/.."
export SUDOLAB=$PWD/target/release/sudolab
export STRATEGIES=fast,mrv,dlx-knuth
[[ -x $SUDOLAB ]] || cargo build --release --quiet

work=$(mktemp -d /tmp/sudolab-scale.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
corpus=$work/corpus.txt
cat corpora/reference.txt corpora/generated/{4x4,6x6,9x9-minimal,9x9-rot180}.txt > "$corpus"

"$SUDOLAB" compare -j1 -s "$STRATEGIES" --report "$work/one.json" "$corpus" > /dev/null

same_as_one_run() {
  python3 - "$work/one.json" "$1" <<'PY'
import json, sys
one, merged = (json.load(open(path)) for path in sys.argv[1:3])
def timeless(rows):
    return [{k: v for k, v in row.items() if k not in ("time_ns", "median_ns", "cpu_ns")} for row in rows]
keys = ("strategy", "runs", "solved", "unique", "multiple", "none", "unknown",
        "decided", "work_unit", "work_total", "work_median", "work_max", "work_by_clues")
def aggregates(report):
    return [{k: s[k] for k in keys} for s in report["summary"]]
problems = []
if merged["puzzles"] != one["puzzles"]:
    problems.append(f"puzzles {merged['puzzles']} != {one['puzzles']}")
if timeless(merged["rows"]) != timeless(one["rows"]):
    problems.append("rows differ")
if aggregates(merged) != aggregates(one):
    problems.append(f"aggregates differ:\n{aggregates(merged)}\n{aggregates(one)}")
if not merged["complete"] or merged["problems"]:
    problems.append("merged report incomplete or with problems")
if problems:
    sys.exit(f"{sys.argv[2]}: " + "; ".join(problems))
print(f"{sys.argv[2]}: {merged['puzzles']} puzzles, the same rows and aggregates as one run "
      f"(merged from {len(merged['context']['merged_from'])} shards)")
PY
}

echo "== GNU parallel: docs/scale/parallel.sh, 4 shards"
bash .ci/cluster-up.sh > /dev/null   # installs parallel too (and Slurm, for the next step)
bash docs/scale/parallel.sh "$corpus" "$work/parallel" 4
same_as_one_run "$work/parallel/merged.json"

echo "== Slurm: docs/scale/slurm.sh, a job array of 3 shards and a dependent merge job"
bash docs/scale/slurm.sh "$corpus" "$work/slurm" 3
same_as_one_run "$work/slurm/merged.json"
