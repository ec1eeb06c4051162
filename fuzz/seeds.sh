#!/usr/bin/env bash
# Seed corpora for the fuzz targets, made from the project's own corpora/ (no binary blob is
# committed). Writes fuzz/seeds/<target>/ (git-ignored; removed and rebuilt on each run).
#
# Usage: fuzz/seeds.sh [SUDOLAB]
#   SUDOLAB  the sudolab CLI to make the CNF exports and JSON reports with (also read from the
#            SUDOLAB environment variable). By default it is built in release mode into
#            fuzz/target/cli, away from the main crate's target/ (one job: -j1).
#   SEEDS_DIR overrides the output directory (default fuzz/seeds).
#
# What each target gets:
#   read_any       every file of corpora/ (tools/ aside) behind each of the four form bytes
#                  (auto, line, grid, JSON) with no forced shape, some behind a forced shape;
#                  the bundled puzzles rewritten in the grid form and as JSON; `solve -o json`
#                  and `solve -o grid` output.
#   decode_model   `export cnf` of small bundled puzzles (1x1, 4x4, 6x6 in all three encodings,
#                  9x9 reduced), each with a true model built from its solution (competition
#                  and MiniSat forms), an UNSAT answer and a wrong model; CNF, 0xFF, model.
#   report_read    JSON reports of `compare` on bundled corpora: several strategy sets, node
#                  budgets (unknown verdicts), shards 1/2 and 2/2, problems and input errors.
#   engines_small  bundled 1x1, 4x4, 6x6 and 9x9 puzzles in the target's kind-0 encoding
#                  (givens as bytes), and deterministic pseudo-random inputs of kinds 1 and 2
#                  for every shape.
#   check_cert     `certify` of the bundled 4x4, 6x6 and 9x9 puzzles by both producers, and
#                  certificates of a puzzle with several solutions and of two without one.
set -euo pipefail

FUZZ=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$FUZZ")
CORPORA=$ROOT/corpora
OUT=${SEEDS_DIR:-$FUZZ/seeds}
S=${1:-${SUDOLAB:-}}
if [ -z "$S" ]; then
    cargo build --release --bin sudolab -j1 --manifest-path "$ROOT/Cargo.toml" \
        --target-dir "$FUZZ/target/cli"
    S=$FUZZ/target/cli/release/sudolab
fi
[ -x "$S" ] || { echo "seeds.sh: no sudolab binary at $S" >&2; exit 2; }

rm -rf "$OUT"
mkdir -p "$OUT"/read_any "$OUT"/decode_model "$OUT"/report_read "$OUT"/engines_small "$OUT"/check_cert
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Puzzle fields (first field of each non-comment line) of a line-form file.
puzzles() { grep -v '^[[:space:]]*#' "$1" | grep -v '^[[:space:]]*$' | awk '{print $1}'; }

# A line-form puzzle (sides up to 9) in the grid form.
to_grid() {
    awk '{ n = int(sqrt(length($1)) + 0.5)
           for (r = 0; r < n; r++) { row = ""
               for (c = 1; c <= n; c++) { ch = substr($1, r * n + c, 1)
                   row = row (c > 1 ? " " : "") (ch == "." ? 0 : ch) }
               print row }
           print "" }'
}

# A line-form puzzle (sides up to 9) as a JSON array of rows.
to_json() {
    awk 'BEGIN { printf "[" } { n = int(sqrt(length($1)) + 0.5)
           printf "%s[", (NR > 1 ? "," : "")
           for (r = 0; r < n; r++) { printf "%s[", (r > 0 ? "," : "")
               for (c = 1; c <= n; c++) { ch = substr($1, r * n + c, 1)
                   printf "%s%s", (c > 1 ? "," : ""), (ch == "." ? 0 : ch) }
               printf "]" }
           printf "]" } END { print "]" }'
}

# seed FILE FORM SHAPE NAME: the two read_any prefix bytes, then FILE.
seed_read_any() {
    { printf "\\x$(printf %02x "$2")\\x$(printf %02x "$3")"; cat "$1"; } > "$OUT/read_any/$4"
}

# ---- read_any -------------------------------------------------------------------------------
while IFS= read -r file; do
    name=$(echo "${file#"$CORPORA"/}" | tr '/' '_')
    for form in 0 1 2 3; do
        seed_read_any "$file" "$form" 0 "$name.form$form"
    done
done < <(find "$CORPORA" -type f ! -path '*/tools/*' | sort)
# Forced shapes: 0x80 | (rows-1) << 3 | (cols-1).
seed_read_any "$CORPORA/generated/4x4.txt" 0 $((0x80 | 1 << 3 | 1)) generated_4x4.box2x2
seed_read_any "$CORPORA/generated/6x6.txt" 1 $((0x80 | 1 << 3 | 2)) generated_6x6.box2x3
seed_read_any "$CORPORA/generated/6x6.txt" 0 $((0x80 | 2 << 3 | 1)) generated_6x6.box3x2
seed_read_any "$CORPORA/reference.txt" 0 $((0x80 | 2 << 3 | 2)) reference.box3x3
seed_read_any "$CORPORA/generated/12x12.txt" 0 $((0x80 | 2 << 3 | 3)) generated_12x12.box3x4
seed_read_any "$CORPORA/generated/12x12.txt" 0 $((0x80 | 3 << 3 | 2)) generated_12x12.box4x3
for src in generated/4x4.txt generated/6x6.txt reference.txt; do
    name=$(echo "$src" | tr '/' '_')
    puzzles "$CORPORA/$src" | head -4 | to_grid > "$TMP/grid"
    seed_read_any "$TMP/grid" 0 0 "$name.as-grid"
    seed_read_any "$TMP/grid" 2 0 "$name.as-grid.form2"
    puzzles "$CORPORA/$src" | head -4 | to_json > "$TMP/json"
    seed_read_any "$TMP/json" 0 0 "$name.as-json"
    seed_read_any "$TMP/json" 3 0 "$name.as-json.form3"
    for output in grid json; do
        "$S" solve -o "$output" "$CORPORA/$src" > "$TMP/solved" 2>/dev/null || true
        seed_read_any "$TMP/solved" 0 0 "$name.solved-$output"
    done
done

# ---- decode_model ---------------------------------------------------------------------------
# model CNF SOLUTION: the competition-format model of SOLUTION (line form) for CNF.
model() {
    awk -v sol="$2" '
        function sym(d) { return d <= 9 ? d "" : substr("ABCDEFGHIJKLMNOPQRSTUVWXYZ", d - 9, 1) }
        /^c sudolab box / { split($4, b, "x"); side = b[1] * b[2] }
        /^c sudolab var / { v = $4; r = $5; c = $6; d = $7
            lits = lits (substr(sol, (r - 1) * side + c, 1) == sym(d) ? v : -v) " " }
        END { print "s SATISFIABLE"; print "v " lits "0" }' "$1"
}
n=0
while IFS= read -r line; do
    n=$((n + 1))
    echo "$line" > "$TMP/p.txt"
    sol=$("$S" solve "$TMP/p.txt" 2>/dev/null | head -1)
    [ -n "$sol" ] || continue
    side=$(awk '{ print int(sqrt(length($1)) + 0.5) }' "$TMP/p.txt")
    encodings="reduced extended minimal"
    [ "$side" -le 6 ] || encodings=reduced
    for enc in $encodings; do
        "$S" export cnf -e "$enc" "$TMP/p.txt" > "$TMP/cnf"
        base="$OUT/decode_model/p$n-$enc"
        model "$TMP/cnf" "$sol" > "$TMP/model"
        { cat "$TMP/cnf"; printf '\xff'; cat "$TMP/model"; } > "$base.sat"
        # MiniSat's result file: SAT, then the literals.
        { cat "$TMP/cnf"; printf '\xff'; echo SAT; sed -n 's/^v //p' "$TMP/model"; } > "$base.minisat"
        if [ "$enc" = reduced ]; then
            { cat "$TMP/cnf"; printf '\xffs UNSATISFIABLE\n'; } > "$base.unsat"
            # Every variable false: decodes to an incomplete grid (an error).
            { cat "$TMP/cnf"; printf '\xff'; sed -n 's/^v //p' "$TMP/model" | tr -d '-' |
                awk '{ for (i = 1; i < NF; i++) printf "-%s ", $i; print "0" }'; } > "$base.wrong"
        fi
    done
done < <({ puzzles "$CORPORA/sizes.txt" | head -3
           puzzles "$CORPORA/generated/4x4.txt" | head -2
           puzzles "$CORPORA/generated/6x6.txt" | head -1
           puzzles "$CORPORA/reference.txt" | head -1; })

# ---- report_read ----------------------------------------------------------------------------
R=$OUT/report_read
compare() { "$S" compare --jobs 1 "$@" > /dev/null 2>&1 || true; }
compare -s fast,mrv,scan,dlx "$CORPORA/generated/4x4.txt" --report "$R/4x4-fast-mrv-scan-dlx.json"
compare -s fast,dlx-knuth,sat,sat-minimal "$CORPORA/reference.txt" --report "$R/reference-sat.json"
compare -s toggle,mrv --max-nodes 40 "$CORPORA/reference.txt" --report "$R/reference-nodes40.json"
compare -s fast,toggle --shard 1/2 "$CORPORA/generated/6x6.txt" --report "$R/6x6-shard1.json"
compare -s fast,toggle --shard 2/2 "$CORPORA/generated/6x6.txt" --report "$R/6x6-shard2.json"
compare -s fast,mrv --baseline mrv "$CORPORA/sizes.txt" --report "$R/sizes-baseline.json"
compare -s fast,scan "$CORPORA/malformed/bad-solution.txt" "$CORPORA/malformed/wrong-length.txt" \
    "$CORPORA/malformed/unknown-symbol.txt" --report "$R/malformed-problems.json"
compare --limit 0 -s fast,mrv "$CORPORA/generated/4x4.txt" --report "$R/4x4-limit0.json"

# ---- engines_small --------------------------------------------------------------------------
# Kind 0 with density 255 reproduces a puzzle exactly: byte d-1 for a given d, 0xFF for empty.
# Shape byte: (rows-1) + 3 * (cols-1).
kind0() {
    awk -v shape="$1" '{ printf "\\x%02x\\x00\\xff", shape
        for (i = 1; i <= length($1); i++) { ch = substr($1, i, 1)
            printf "\\x%02x", (ch == "." || ch == "0") ? 255 : ch - 1 }
        print "" }'
}
i=0
while IFS= read -r bytes; do
    i=$((i + 1)); printf "$bytes" > "$OUT/engines_small/corpus-$i"
done < <({ puzzles "$CORPORA/sizes.txt" | head -1 | kind0 0
           puzzles "$CORPORA/generated/4x4.txt" | head -6 | kind0 4
           puzzles "$CORPORA/generated/6x6.txt" | head -6 | kind0 7
           puzzles "$CORPORA/reference.txt" | kind0 8
           puzzles "$CORPORA/generated/9x9-minimal.txt" | head -3 | kind0 8
           puzzles "$CORPORA/generated/9x9-rot180.txt" | head -3 | kind0 8; })
# Kinds 1 and 2 for every shape at three densities: deterministic bytes (awk's seeded rand).
awk 'BEGIN { srand(1)
    for (shape = 0; shape < 9; shape++) for (kind = 1; kind <= 2; kind++)
        for (k = 0; k < 3; k++) { density = 64 + k * 80
            printf "\\x%02x\\x%02x\\x%02x", shape, kind, density
            for (j = 0; j < 120; j++) printf "\\x%02x", int(rand() * 256)
            print "" } }' |
while IFS= read -r bytes; do
    i=$((i + 1)); printf "$bytes" > "$OUT/engines_small/random-$i"
done

# ---- check_cert -----------------------------------------------------------------------------
for producer in tree sat; do
    "$S" certify --producer "$producer" --out "$OUT/check_cert/$producer" \
        "$CORPORA/generated/4x4.txt" "$CORPORA/generated/6x6.txt" "$CORPORA/reference.txt" \
        ................ 12....3...4..... 11.............. >/dev/null 2>&1
    for cert in "$OUT/check_cert/$producer"/*.cert; do
        mv "$cert" "$OUT/check_cert/$producer-$(basename "$cert")"
    done
    rm -rf "${OUT:?}/check_cert/$producer"
done

for dir in "$OUT"/*; do
    echo "$(basename "$dir"): $(find "$dir" -type f | wc -l) seeds, $(du -sh "$dir" | cut -f1)"
done
