#!/usr/bin/env bash
# Regenerates corpora/generated/*.txt with sudolab's own generator. Each file starts with the
# exact command that made it; tests/sudolab/generate.rs re-runs the first of them and expects
# the same bytes (the generator is reproducible on every platform).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet
gen() {
  local out=corpora/generated/$1; shift
  { echo "# sudolab generate $*"; target/release/sudolab generate "$@"; } > "$out"
  echo "$out: $(grep -vc '^#' "$out") puzzles" >&2
}
gen 4x4.txt --size 4 --count 20 --seed 1 --with-solution
gen 6x6.txt --size 6 --count 20 --seed 1 --with-solution
gen 9x9-minimal.txt --count 100 --minimal --verify dlx-knuth,sat --seed 1 --with-solution
gen 9x9-rot180.txt --count 20 --symmetry rot180 --verify dlx-knuth,sat --seed 1 --with-solution
gen 12x12.txt --size 12 --count 10 --verify dlx-knuth,sat --seed 1 --with-solution
gen 16x16.txt --size 16 --count 3 --verify fast,dlx-knuth --seed 1 --with-solution
gen 25x25.txt --size 25 --count 2 --clues 450 --verify fast,dlx-knuth --seed 1 --with-solution
