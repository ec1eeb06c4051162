#!/usr/bin/env bash
# Compare a corpus as a Slurm job array (one task per shard), then merge the shards in a job
# that starts when every task has succeeded.
#
#   docs/scale/slurm.sh CORPUS OUT_DIR [SHARDS]
#
# Environment: SUDOLAB (the binary, on a path every node can read; default `sudolab`),
# STRATEGIES (default fast,dlx-knuth,sat). OUT_DIR must be on a file system the nodes share.
# Each task finds its shard with `--shard auto` (SLURM_ARRAY_TASK_ID of
# SLURM_ARRAY_TASK_COUNT) and writes OUT_DIR/shard-K.json; the merge job writes
# OUT_DIR/merged.json and .html. The script waits for the merge and fails if it did not run.
set -euo pipefail
corpus=$(realpath "${1:?usage: slurm.sh CORPUS OUT_DIR [SHARDS]}")
mkdir -p "${2:?usage: slurm.sh CORPUS OUT_DIR [SHARDS]}"
out=$(realpath "$2")
shards=${3:-4}
sudolab=${SUDOLAB:-sudolab}
strategies=${STRATEGIES:-fast,dlx-knuth,sat}
rm -f "$out"/shard-*.json "$out/merged.json"

# --wrap runs under /bin/sh: \$SLURM_ARRAY_TASK_ID is expanded in each task, not here.
array=$(sbatch --parsable --job-name=sudolab-shards --array="1-$shards" --cpus-per-task=1 \
  --chdir="$out" --output="$out/slurm-%A_%a.out" \
  --wrap="'$sudolab' compare -j1 -s '$strategies' --shard auto \
          --report '$out'/shard-\$SLURM_ARRAY_TASK_ID.json '$corpus'")
echo "submitted shards: job array $array"

# afterok: the merge runs only if every shard succeeded. sbatch --wait returns 0 for a job
# cancelled because its dependency failed, so the merged report's presence is checked too.
sbatch --wait --parsable --job-name=sudolab-merge --dependency="afterok:$array" \
  --kill-on-invalid-dep=yes --chdir="$out" --output="$out/merge-%j.out" \
  --wrap="'$sudolab' report '$out'/shard-*.json --report '$out/merged.json' \
          --report '$out/merged.html'"
if [[ ! -s $out/merged.json ]]; then
  echo "slurm.sh: the merge did not run (a shard failed?); see $out/slurm-*.out" >&2
  exit 1
fi
echo "merged: $out/merged.json"
