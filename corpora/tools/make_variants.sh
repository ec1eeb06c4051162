#!/usr/bin/env bash
# Re-makes corpora/variants/*.json with sudolab's own generator (run from the project root after
# `cargo build --release`). tests/sudolab/variants.rs runs each command below and expects the
# same bytes. Every puzzle was re-proven unique by the --verify engines when it was made. Each
# check may take 10 minutes of wall time: the files hold no undecided check, and a shorter limit
# (the default is 10 s) lets a loaded machine, or a debug build under tests, leave one undecided
# and write other bytes.
set -euo pipefail
sudolab=${SUDOLAB:-target/release/sudolab}
"$sudolab" generate --variant x -c 4 --seed 1 --json --check-timeout 10m --verify sat,mrv > corpora/variants/x.json
"$sudolab" generate --variant windoku -c 4 --seed 1 --json --check-timeout 10m --verify sat,mrv > corpora/variants/windoku.json
"$sudolab" generate --variant anti-king -c 4 --seed 1 --json --check-timeout 10m --verify sat,mrv > corpora/variants/anti-king.json
"$sudolab" generate --variant anti-knight -c 4 --seed 1 --json --check-timeout 10m --verify sat,mrv > corpora/variants/anti-knight.json
"$sudolab" generate --variant nonconsecutive -c 4 --seed 1 --json --check-timeout 10m --verify sat,mrv > corpora/variants/nonconsecutive.json
"$sudolab" generate --variant killer -c 3 --seed 1 --json --check-timeout 10m --verify sat-extended,mrv > corpora/variants/killer.json
"$sudolab" generate --rules corpora/variants/regions/jigsaw-9x9.json -c 3 --seed 1 --json --check-timeout 10m --verify sat,dlx-knuth,mrv > corpora/variants/jigsaw.json
"$sudolab" generate --model latin --size 7 -c 4 --seed 1 --json --check-timeout 10m --verify sat,dlx-knuth > corpora/variants/latin-7.json
"$sudolab" generate --model qwh --size 12 --holes 60 --balance full -c 5 --seed 1 --json --check-timeout 10m > corpora/variants/qwh-12.json
