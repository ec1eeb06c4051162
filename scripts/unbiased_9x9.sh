#!/usr/bin/env bash
# Berthier's controlled-bias distribution of minimal 9x9 puzzles, over 10,000 of them (one
# attempt in about 258,000 keeps its puzzle): every attempt on 2,700,000 uniform grids, 1,000
# attempts a grid, seed 1, in 180 shards of 15,000 grids (about a minute of one core each),
# then their distribution joined.
#
#   scripts/unbiased_9x9.sh DIR [JOBS]   make the shards missing from DIR (JOBS at a time,
#                                        default 1), then print the joined distribution
#
# Resumable: a finished shard is DIR/sK.json, one under way DIR/sK.json.part, so a run cut
# short goes on where it stopped. The shards can as well be made anywhere (a Slurm array:
# `--shard auto/180`) and copied into DIR. SUDOLAB=path/to/sudolab picks the binary (default:
# target/release/sudolab, built when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 1 && $# -le 2 ]] || { echo "usage: $0 DIR [JOBS]" >&2; exit 2; }
dir=$1
jobs=${2:-1}
bin="${SUDOLAB:-target/release/sudolab}"
if [[ ! -x "$bin" ]]; then
    cargo build --release --quiet
fi
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
mkdir -p "$dir"
shards=180
export bin dir shards
seq 1 "$shards" | xargs -P "$jobs" -I {} sh -c '
    [ -s "$dir/s{}.json" ] && exit 0
    "$bin" generate --unbiased --seed 1 --grids 2700000 --attempts-per-grid 1000 \
        --shard {}/$shards --json -j1 > "$dir/s{}.json.part" && mv "$dir/s{}.json.part" "$dir/s{}.json"
'
files=()
for k in $(seq 1 "$shards"); do files+=("$dir/s$k.json"); done
"$bin" generate --unbiased --summarize "${files[@]}"
