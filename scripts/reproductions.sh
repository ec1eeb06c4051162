#!/usr/bin/env bash
# Regenerates the table of docs/reproductions.md: runs every entry's command, takes the last
# word of its output as sudolab's figure and times it (wall clock, this machine, its load).
#   scripts/reproductions.sh           rewrite the table in docs/reproductions.md
#   scripts/reproductions.sh --check   run every entry and compare its figure with the published
#                                      one and the table's; exit status 1 on any difference
#   scripts/reproductions.sh --skip-slow   the same without the entries marked slow (minutes
#                                      each): their rows are kept as the table has them
#   SUDOLAB=path/to/sudolab            the binary to run (default: target/release/sudolab,
#                                      built with cargo build --release when missing)
#   SUDOLAB_PUBLIC_CORPORA=DIR         the public benchmark corpora that some entries read
#                                      (default: ../shared/corpora); missing, those entries fail
set -euo pipefail
cd "$(dirname "$0")/.."
check=false
skip_slow=false
for arg in "$@"; do
    case "$arg" in
        --check) check=true ;;
        --skip-slow) skip_slow=true ;;
        *) echo "usage: $0 [--check] [--skip-slow]" >&2; exit 2 ;;
    esac
done
bin="${SUDOLAB:-target/release/sudolab}"
if [[ ! -x "$bin" ]]; then
    cargo build --release --quiet
fi
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
export SUDOLAB_PUBLIC_CORPORA="${SUDOLAB_PUBLIC_CORPORA:-../shared/corpora}"

# figure|source|command|published (digits only); a trailing |slow marks an entry of minutes
entries=(
"4x4 Sudoku grids (2x2 boxes), band method|Felgenhauer and Jarvis, *Mathematics of Sudoku I* (2006), and every enumeration since|sudolab grids count --box 2x2|288"
"4x4 Sudoku grids, by search|as above|echo ................ \| sudolab count --all|288"
"6x6 Sudoku grids (2x3 boxes), band method|Felgenhauer and Jarvis, *Mathematics of Sudoku I* (2006)|sudolab grids count --box 2x3|28200960"
"6x6 Sudoku grids, by search|as above|echo .................................... \| sudolab count --all --box 2x3|28200960|slow"
"8x8 Sudoku grids (2x4 boxes), band method|K. F. Pettersen (2006), tabled in Wikipedia's *Mathematics of Sudoku*, \"Sudoku with rectangular regions\"|sudolab grids count --box 2x4|29136487207403520"
"9x9 Sudoku grids, band method|B. Felgenhauer and F. Jarvis, *Enumerating possible Sudoku grids* (2005); *Mathematics of Sudoku I*, Mathematical Spectrum 39 (2006)|sudolab grids count --box 3x3|6670903752021072936960"
"Latin squares of order 5|OEIS A002860|echo ......................... \| sudolab count --all --variant latin|161280"
"Solution counts of tdoku's 43 test puzzles (0 to 847 each), summed|T. Dillon, tdoku's test file of 43 puzzles, each with its published count|sudolab count --all \"\$SUDOLAB_PUBLIC_CORPORA/tdoku/test_puzzles.txt\" \| awk '{ s += \$3 } END { print s }'|5260"
"Solution counts of Serg's 10,000 multi-solution puzzles (2 to 1,555 each), summed|Serg's benchmark via tdoku, with its published exact counts|sudolab count --all \"\$SUDOLAB_PUBLIC_CORPORA/tdoku/puzzles7_serg_benchmark.txt\" \| awk '{ s += \$3 } END { print s }'|1982741"
"17-clue puzzles with exactly one solution|G. Royle's collection of 49,151 17-clue puzzles, completed to 49,158 by later searches (all unique by construction)|sudolab count \"\$SUDOLAB_PUBLIC_CORPORA/tdoku/puzzles2_17_clue.txt\" \| awk '\$2 == \"unique\" { n++ } END { print n }'|49158"
"Essentially different 4x4 grids|E. Russell and F. Jarvis, *Mathematics of Sudoku II*, Mathematical Spectrum 39 (2006)|sudolab grids count --box 2x2 --essentially-different|2"
"Essentially different 6x6 grids (2x3 boxes)|as above; tabled in Wikipedia's *Mathematics of Sudoku*|sudolab grids count --box 2x3 --essentially-different|49"
"Essentially different 9x9 grids, by Burnside's lemma|E. Russell and F. Jarvis, *Mathematics of Sudoku II*, Mathematical Spectrum 39 (2006)|sudolab grids count --box 3x3 --essentially-different|5472730538|slow"
"Fewest clues of a unique 4x4 puzzle|G. McGuire, B. Tugemann, G. Civario, *There is no 16-clue Sudoku* (2012, arXiv:1201.0749), and the 4x4 enumerations it cites|sudolab grids min-clues --all --box 2x2|4"
"Fewest clues of a unique 6x6 puzzle (2x3 boxes)|Method of G. McGuire, B. Tugemann, G. Civario, *There is no 16-clue Sudoku* (2012, arXiv:1201.0749); the method; no paper stating the 6x6 minimum was located, so the published column is the figure quoted for it in Sudoku forums, and sudolab proves it (no 7-clue puzzle on any of the 49 classes, an 8-clue one found)|sudolab grids min-clues --all --box 2x3|8"
"Mean clues of minimal 9x9 puzzles made by deleting clues in random order (100,000 puzzles, seed 1)|D. Berthier, *Unbiased statistics of a CSP: a controlled-bias generator* (2009): the top-down generator's mean, 24.38 (sd 1.12), biased towards few clues|sudolab generate --count 100000 --seed 1 --stats 2>&1 >/dev/null \| awk '{ print \$(NF-2) }'|24.38"
)

rows=()
failed=0
for entry in "${entries[@]}"; do
    IFS='|' read -r figure source command published slow <<<"${entry//\\|/@PIPE@}"
    command="${command//@PIPE@/|}"
    if $skip_slow && [[ "${slow:-}" == slow ]]; then
        kept=$(grep -F -- "| \`${command//|/\\|}\` |" docs/reproductions.md || true)
        [[ -n "$kept" ]] && rows+=("$kept")
        continue
    fi
    start=$(date +%s.%N)
    output=$(sh -c "${command//sudolab /$bin }")
    end=$(date +%s.%N)
    ours=$(printf '%s\n' "$output" | tail -n 1 | awk '{print $NF}')
    seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
    if [[ "$ours" != "$published" ]]; then
        echo "MISMATCH: $figure: published $published, sudolab $ours ($command)" >&2
        failed=1
    fi
    commas=$(printf '%s' "$published" | rev | sed 's/\([0-9]\{3\}\)/\1,/g; s/,$//' | rev)
    rows+=("| $figure | $source | \`${command//|/\\|}\` | $commas | $ours | $seconds s |")
    echo "$figure: $ours in $seconds s" >&2
done

if $check; then
    # The table's figures must be today's too.
    for row in "${rows[@]}"; do
        key=$(printf '%s' "$row" | awk -F' \\| ' '{print $3 " | " $4 " | " $5}')
        if ! grep -qF -- "$key" docs/reproductions.md; then
            echo "STALE: docs/reproductions.md lacks: $key" >&2
            failed=1
        fi
    done
    exit "$failed"
fi
[[ $failed == 0 ]] || exit 1

{
    sed -n '1,/^<!-- table: begin -->$/p' docs/reproductions.md
    echo "| Figure | Source | Command | Published | sudolab | Time |"
    echo "|---|---|---|---:|---:|---:|"
    printf '%s\n' "${rows[@]}"
    sed -n '/^<!-- table: end -->$/,$p' docs/reproductions.md
} > docs/reproductions.md.new
mv docs/reproductions.md.new docs/reproductions.md
