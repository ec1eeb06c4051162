#!/usr/bin/env bash
# Compare a corpus in N shards with GNU parallel on one machine, then merge the shards.
#
#   docs/scale/parallel.sh CORPUS OUT_DIR [SHARDS]
#
# Environment: SUDOLAB (the binary; default `sudolab` on the PATH), STRATEGIES (default
# fast,dlx-knuth,sat), JOBS (shards run at once; default: one per core). Each shard is one
# `sudolab compare -j1` process, so each search has a core to itself; the merged report
# (OUT_DIR/merged.json, .html) has the aggregates of one run over the whole corpus.
set -euo pipefail
corpus=${1:?usage: parallel.sh CORPUS OUT_DIR [SHARDS]}
out=${2:?usage: parallel.sh CORPUS OUT_DIR [SHARDS]}
shards=${3:-4}
sudolab=${SUDOLAB:-sudolab}
strategies=${STRATEGIES:-fast,dlx-knuth,sat}
mkdir -p "$out"

# One job per shard: job K (PARALLEL_SEQ, {#}) takes shard K with --shard auto/N; -N0 keeps
# the input numbers off the command line. --halt stops the others when a shard fails (an
# error, or a disagreement between engines, which is exit status 1).
seq 1 "$shards" | parallel --will-cite -N0 --halt now,fail=1 --jobs "${JOBS:-100%}" \
  "$sudolab" compare -j1 -s "$strategies" --shard "auto/$shards" \
  --report "$out/shard-{#}.json" "$corpus" '>' "$out/shard-{#}.txt"

# The merge refuses a missing or repeated shard, and shards of different runs.
"$sudolab" report "$out"/shard-*.json --report "$out/merged.json" --report "$out/merged.html"
