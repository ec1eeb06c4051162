#!/usr/bin/env bash
# The figures the README and docs quote from sudolab's own commands, produced by those commands.
#
#   scripts/figures.sh            rewrite the quoted figures from what the commands print now
#   scripts/figures.sh --check    change nothing; fail, showing the difference, when a quoted
#                                 figure is not what the commands print (.ci/run runs this)
#
# The binary is $SUDOLAB (default: target/release/sudolab, built first). The rating figures
# need the rated corpus of ../shared/corpora (or $SUDOLAB_PUBLIC_CORPORA); a missing corpus
# is a failure, never a skip.
#
# What is kept current:
# - the rating against Sudoku Explainer (`sudolab rate --against RATED:3`): Spearman and
#   Kendall in README.md and in docs/rating.md ("Now (scripts/figures.sh): ..."), and its
#   calibration chart, docs/results/rating-calibration.html (`--chart`);
# - the README's `sudolab strategies` listing.
# Timings (docs/benchmarks.md) are measurements of one machine and say where they came from.
set -euo pipefail
cd "$(dirname "$0")/.."

check=false
case "${1:-}" in
  --check) check=true ;;
  "") ;;
  *) echo "usage: scripts/figures.sh [--check]" >&2; exit 2 ;;
esac

if [ -z "${SUDOLAB:-}" ]; then
  cargo build --release --quiet --bin sudolab
  SUDOLAB=target/release/sudolab
fi
corpora=${SUDOLAB_PUBLIC_CORPORA:-../shared/corpora}
rated="$corpora/rated/sudoku_exchange_diabolical_sample.txt"
# The chart names its input; it names the default place, wherever the corpus was read from.
quoted_rated="../shared/corpora/rated/sudoku_exchange_diabolical_sample.txt"
if [ ! -f "$rated" ]; then
  echo "figures: the rated corpus is missing: expected $rated (set SUDOLAB_PUBLIC_CORPORA)" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The rating: its last line ends "Spearman 0.8688, Kendall tau-b 0.7774".
"$SUDOLAB" rate --against "$rated:3" --chart "$work/chart.html" > "$work/rate.txt"
last=$(tail -n 1 "$work/rate.txt")
spearman=$(sed -nE 's/.*Spearman ([0-9.]+), Kendall tau-b ([0-9.]+)$/\1/p' <<<"$last")
kendall=$(sed -nE 's/.*Spearman ([0-9.]+), Kendall tau-b ([0-9.]+)$/\2/p' <<<"$last")
if [ -z "$spearman" ] || [ -z "$kendall" ]; then
  echo "figures: rate --against printed no correlations; its last line: $last" >&2
  exit 1
fi
echo "rating against Sudoku Explainer: Spearman $spearman, Kendall tau-b $kendall"
sed "s|$rated|$quoted_rated|g" "$work/chart.html" > "$work/rating-calibration.html"

"$SUDOLAB" strategies > "$work/strategies.txt"

# Each file as it should read, written beside the others in $work/new/.
mkdir -p "$work/new/docs/results"
sed -E "s/(correlations with that column: )[0-9.]+ and [0-9.]+( against Sudoku Explainer)/\1$spearman and $kendall\2/" \
  README.md |
  awk -v listing="$work/strategies.txt" '
    # The lines after "$ sudolab strategies", up to the blank line, are its output.
    skipping && /^$/ { skipping = 0 }
    skipping { next }
    { print }
    /^\$ sudolab strategies$/ {
      while ((getline line < listing) > 0) print line
      skipping = 1
    }
  ' > "$work/new/README.md"
sed -E "s/(Now \(\`scripts\/figures.sh\`\): Spearman )[0-9.]+(, Kendall tau-b )[0-9.]+/\1$spearman\2$kendall/" \
  docs/rating.md > "$work/new/docs/rating.md"
cp "$work/rating-calibration.html" "$work/new/docs/results/rating-calibration.html"

stale=0
for file in README.md docs/rating.md docs/results/rating-calibration.html; do
  if ! cmp -s "$file" "$work/new/$file"; then
    if $check; then
      echo "figures: $file quotes figures that the commands no longer print:" >&2
      diff -u "$file" "$work/new/$file" | cut -c1-300 >&2 || true
      stale=1
    else
      cp "$work/new/$file" "$file"
      echo "updated $file"
    fi
  fi
done
if [ "$stale" -ne 0 ]; then
  echo "figures: run scripts/figures.sh to bring them up to date" >&2
  exit 1
fi
