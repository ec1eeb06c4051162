#!/usr/bin/env bash
# What `sudolab count -s fast -j1` costs above the library, in instructions (valgrind's
# callgrind: the same count at any load, unlike a time on a shared machine).
#
#   scripts/cli_instructions.sh [N]    the first N puzzles of the 17-clue set (default 10000;
#                                      0 for all 49,158)
#
# It prints three figures: the library's `fast.count_up_to(puzzle, 2)` over the puzzles parsed
# beforehand (the `library` function of `benches/cli.rs`, inclusive, as SUDOLAB_CLI_LIBRARY_ONCE
# runs it), the whole `count -s fast -j1` process over the same file (start-up included), and
# their ratio; then the instructions of a one-puzzle `count -s fast -j1` (start-up, mostly).
# The 17-clue set is read from $SUDOLAB_PUBLIC_CORPORA/tdoku, or ../shared/corpora/tdoku.
# Needs valgrind. Builds the release binary and the bench first, unless $SUDOLAB (a sudolab
# binary) and $SUDOLAB_CLI_BENCH (the bench's binary, target/release/deps/cli-HASH) are given.
set -euo pipefail
cd "$(dirname "$0")/.."

take=${1:-10000}
corpora=${SUDOLAB_PUBLIC_CORPORA:-../shared/corpora}
set_file=$corpora/tdoku/puzzles2_17_clue.txt
[ -f "$set_file" ] || { echo "no 17-clue set at $set_file" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The puzzle lines (comments left out), the first $take of them; read whole, so that no
# pipe closes early under pipefail.
awk -v n="$take" '!/^#/ && (n == 0 || taken++ < n)' "$set_file" > "$work/puzzles.txt"
awk 'NR == 1' "$work/puzzles.txt" > "$work/one.txt"

sudolab=${SUDOLAB:-}
if [ -z "$sudolab" ]; then
  cargo build --release --quiet --bin sudolab
  sudolab=target/release/sudolab
fi
bench=${SUDOLAB_CLI_BENCH:-}
if [ -z "$bench" ]; then
  bench=$(cargo bench --bench cli --no-run --message-format=json 2>/dev/null |
    grep -o '"executable":"[^"]*/cli-[^"]*"' | tail -n 1 | cut -d'"' -f4)
fi
[ -x "$bench" ] || { echo "no cli bench binary (cargo bench --bench cli --no-run)" >&2; exit 1; }

# The inclusive instructions of the function named $2 in callgrind's output $1, or the total.
inclusive() {
  callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
    awk -v name="$2" 'index($0, name) && !done { gsub(",", "", $1); print $1; done = 1 }'
}

SUDOLAB_CLI_LIBRARY_ONCE="$work/puzzles.txt" valgrind --tool=callgrind \
  --callgrind-out-file="$work/library.out" "$bench" > /dev/null 2> "$work/library.log"
valgrind --tool=callgrind --callgrind-out-file="$work/count.out" \
  "$sudolab" count -s fast -j1 "$work/puzzles.txt" > /dev/null 2> "$work/count.log"
valgrind --tool=callgrind --callgrind-out-file="$work/one.out" \
  "$sudolab" count -s fast -j1 "$work/one.txt" > /dev/null 2> "$work/one.log"

puzzles=$(wc -l < "$work/puzzles.txt")
library=$(inclusive "$work/library.out" ':cli::library ')
count=$(inclusive "$work/count.out" 'PROGRAM TOTALS')
one=$(inclusive "$work/one.out" 'PROGRAM TOTALS')
awk -v n="$puzzles" -v lib="$library" -v cnt="$count" -v one="$one" 'BEGIN {
  printf "puzzles: %d\n", n
  printf "library (fast.count_up_to, parsed): %d instructions, %.0f a puzzle\n", lib, lib / n
  printf "count -s fast -j1 (whole process):  %d instructions, %.0f a puzzle\n", cnt, cnt / n
  printf "ratio count / library: %.3f\n", cnt / lib
  printf "count -s fast -j1, one puzzle:      %d instructions\n", one
}'
