#!/usr/bin/env bash
# `grids min-clues` on the solution grids of the public 17-clue set, one Markdown table row a
# grid: grid N is line 491 * (N - 1) + 1 of the set's solutions (every 491st, 101 grids), and
# the set's own puzzle of that grid is the same line of its puzzles (comments left out).
#
#   scripts/min_clues_grids.sh K FIRST LAST            # e.g. 16 1 100
#   JOBS=2 SUDOLAB=path/to/sudolab SUDOLAB_PUBLIC_CORPORA=dir scripts/min_clues_grids.sh 17 1 3
#   OUT=runs/m17 scripts/min_clues_grids.sh 17 1 100   # resumable: keeps each grid's JSON
#
# Each grid is one process and one search without a budget, so a row is one grid's whole
# search (minutes for 16 clues, several minutes or more for 17); JOBS grids run at once
# (default 1). With OUT, each grid's `--json` document is kept as OUT/gN-kK.json once its
# search is complete, and a grid whose document is there is not run again: a long run can be
# stopped and started again, in parts, on several machines (copy the documents together).
# The table comes out in grid order once every grid is done; a search that does not complete
# fails the script. The "own puzzle" column says whether the listing holds the set's own
# puzzle of the grid (for K = 17, the published puzzle must be there).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
sudolab="${SUDOLAB:-$root/target/release/sudolab}"
corpora="${SUDOLAB_PUBLIC_CORPORA:-$root/../shared/corpora}"
solutions="$corpora/solutions/tdoku_puzzles2_17_clue.solutions.txt"
puzzles="$corpora/tdoku/puzzles2_17_clue.txt"

if [ "${1:-}" = "--one" ]; then
  # One grid's row: --one K N.
  clues=$2 n=$3
  line=$((491 * (n - 1) + 1))
  grid=$(awk -v line="$line" 'NR == line { print; exit }' "$solutions")
  own=$(awk -v line="$line" '!/^#/ && ++seen == line { print; exit }' "$puzzles")
  if [ -z "$grid" ] || [ -z "$own" ]; then
    echo "$0: no grid $n (the set has 101)" >&2
    exit 1
  fi
  kept="${OUT:+$OUT/g$n-k$clues.json}"
  if [ -n "$kept" ] && [ -s "$kept" ]; then
    json=$(cat "$kept")
  else
    status=0
    json=$("$sudolab" grids min-clues "$grid" --clues "$clues" --json 2>/dev/null) || status=$?
    if [ "$status" -ne 0 ]; then
      echo "$0: grid $n: sudolab exited with status $status (1: the search gave up)" >&2
      exit 1
    fi
    if [ -n "$kept" ]; then
      printf '%s\n' "$json" > "$kept.part"
      mv "$kept.part" "$kept"
    fi
  fi
  python3 - "$n" "$json" "$own" <<'PY'
import json, sys
grid, run, own = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
if not run["complete"]:
    sys.exit(f"grid {grid}: the kept search is not complete")
found = len(run["puzzles"])
outcome = f"complete, {found} puzzle{'s' if found != 1 else ''}" if found else "complete, none"
fewer = run["unique_with_one_fewer"]
if fewer is not None:
    outcome += f"; {run['clues'] - 1} clues: " + ("some" if fewer else "none")
# The listing's puzzles and the set's line, both with '.' for an empty cell.
own = own.split()[0].replace("0", ".")[:81]
listed = {puzzle.replace("0", ".") for puzzle in run["puzzles"]}
has_own = "yes" if own in listed else "no"
print(f"| {grid} | {run['clues']} | {outcome} | {has_own} | {run['nodes']:,} "
      f"| {run['checks']:,} | {run['cpu_seconds']:.1f} |")
PY
  exit 0
fi

if [ $# -ne 3 ]; then
  echo "usage: $0 K FIRST LAST   (grids FIRST to LAST of 1 to 101; JOBS=N runs N at once," \
    "OUT=DIR keeps each grid's result and skips the grids kept)" >&2
  exit 2
fi
if [ ! -x "$sudolab" ]; then
  echo "$0: no sudolab binary at $sudolab (cargo build --release, or set SUDOLAB)" >&2
  exit 1
fi
for file in "$solutions" "$puzzles"; do
  if [ ! -r "$file" ]; then
    echo "$0: the 17-clue set is not at $file (set SUDOLAB_PUBLIC_CORPORA)" >&2
    exit 1
  fi
done
if [ -n "${OUT:-}" ]; then
  mkdir -p "$OUT"
  export OUT
fi
rows=$(seq "$2" "$3" | xargs -P "${JOBS:-1}" -I{} bash "$0" --one "$1" {})
echo "| grid | K | outcome | own puzzle | nodes | engine checks | CPU s |"
echo "|---:|---:|---|---|---:|---:|---:|"
sort -t'|' -k2,2n <<<"$rows"
