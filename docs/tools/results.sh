#!/usr/bin/env bash
# Renders docs/results/*: every registered strategy on samples of the public corpora, through
# `sudolab compare` itself. Usage: bash docs/tools/results.sh [CORPORA_DIR]
# Takes about 2 minutes on a 2-core machine (the plain backtrackers spend most of it at their
# budget).
set -euo pipefail
cd "$(dirname "$0")/../.."
corpora=${1:-../shared/corpora}
out=docs/results
mkdir -p "$out"
cargo build --release --quiet
sudolab=target/release/sudolab
common=(--jobs 2 --timeout 200ms --baseline fast)

run() {
  local name=$1; shift
  echo "== $name" >&2
  "$sudolab" compare "${common[@]}" "$@" -r "$out/$name.html" \
    > "$out/$name.txt" || [ $? -eq 1 ]
}

run 17-clue --sample 300 --seed 1 \
  --expect-solutions "$corpora/solutions/tdoku_puzzles2_17_clue.solutions.txt" \
  "$corpora/tdoku/puzzles2_17_clue.txt"
run top1465 --sample 300 --seed 1 \
  --expect-solutions "$corpora/solutions/tdoku_puzzles3_magictour_top1465.solutions.txt" \
  "$corpora/tdoku/puzzles3_magictour_top1465.txt"
run forum-hardest-1106 --sample 300 --seed 1 \
  --expect-solutions "$corpora/solutions/tdoku_puzzles6_forum_hardest_1106.solutions.txt" \
  "$corpora/tdoku/puzzles6_forum_hardest_1106.txt"
run serg-counts --sample 300 --seed 1 --limit 0 \
  --expect-counts "$corpora/solutions/tdoku_puzzles7_serg_benchmark.solution_counts.txt" \
  "$corpora/tdoku/puzzles7_serg_benchmark.txt"
run gecode-16x16 \
  --expect-solutions "$corpora/solutions/large_gecode_16x16.solutions.txt" \
  "$corpora/large/gecode_16x16.txt"
