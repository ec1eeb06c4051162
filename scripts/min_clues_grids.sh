#!/usr/bin/env bash
# `grids min-clues` on the solution grids of the public 17-clue set, one Markdown table row a
# grid: grid N is line 491 * (N - 1) + 1 of the set's solutions (every 491st, 101 grids).
#
#   scripts/min_clues_grids.sh K FIRST LAST            # e.g. 16 1 100
#   JOBS=2 SUDOLAB=path/to/sudolab SUDOLAB_PUBLIC_CORPORA=dir scripts/min_clues_grids.sh 17 1 3
#
# Each grid is one process and one search without a budget, so a row is one grid's whole
# search (minutes for 16 clues, a quarter of an hour or more for 17); JOBS grids run at once
# (default 1). The table comes out in grid order once every grid is done; a search that
# does not complete fails the script.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
sudolab="${SUDOLAB:-$root/target/release/sudolab}"
corpora="${SUDOLAB_PUBLIC_CORPORA:-$root/../shared/corpora}"
solutions="$corpora/solutions/tdoku_puzzles2_17_clue.solutions.txt"

if [ "${1:-}" = "--one" ]; then
  # One grid's row: --one K N.
  clues=$2 n=$3
  grid=$(awk -v line=$((491 * (n - 1) + 1)) 'NR == line { print; exit }' "$solutions")
  if [ -z "$grid" ]; then
    echo "$0: no grid $n (the set has 101)" >&2
    exit 1
  fi
  status=0
  json=$("$sudolab" grids min-clues "$grid" --clues "$clues" --json 2>/dev/null) || status=$?
  if [ "$status" -ne 0 ]; then
    echo "$0: grid $n: sudolab exited with status $status (1: the search gave up)" >&2
    exit 1
  fi
  python3 - "$n" "$json" <<'PY'
import json, sys
grid, run = sys.argv[1], json.loads(sys.argv[2])
found = len(run["puzzles"])
outcome = f"complete, {found} puzzle{'s' if found != 1 else ''}" if found else "complete, none"
fewer = run["unique_with_one_fewer"]
if fewer is not None:
    outcome += f"; {run['clues'] - 1} clues: " + ("some" if fewer else "none")
print(f"| {grid} | {run['clues']} | {outcome} | {run['nodes']:,} | {run['checks']:,} "
      f"| {run['cpu_seconds']:.1f} |")
PY
  exit 0
fi

if [ $# -ne 3 ]; then
  echo "usage: $0 K FIRST LAST   (grids FIRST to LAST of 1 to 101; JOBS=N runs N at once)" >&2
  exit 2
fi
if [ ! -x "$sudolab" ]; then
  echo "$0: no sudolab binary at $sudolab (cargo build --release, or set SUDOLAB)" >&2
  exit 1
fi
if [ ! -r "$solutions" ]; then
  echo "$0: the 17-clue set's solutions are not at $solutions (set SUDOLAB_PUBLIC_CORPORA)" >&2
  exit 1
fi
rows=$(seq "$2" "$3" | xargs -P "${JOBS:-1}" -I{} bash "$0" --one "$1" {})
echo "| grid | K | outcome | nodes | engine checks | CPU s |"
echo "|---:|---:|---|---:|---:|---:|"
sort -t'|' -k2,2n <<<"$rows"
