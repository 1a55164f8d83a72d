#!/usr/bin/env bash
# A yardstick of positions from engine games (issue 71): 40 positions each of
# 28 to 32 empties, sampled from self-play records (scripts/value-data.sh)
# after at least 4 searched moves of their game, every best move solved
# exactly. Rerunning resumes each file where it stopped; the five files
# together make the suite.
#
#   scripts/suite-30.sh RECORDS.bin DIR
#
# About 2-3 minutes of one core per position at 30 empties.
set -euo pipefail
records=${1:?usage: scripts/suite-30.sh RECORDS.bin DIR}
dir=${2:?usage: scripts/suite-30.sh RECORDS.bin DIR}
oxello=${OXELLO:-target/release/oxello}
mkdir -p "$dir"
for empties in 28 29 30 31 32; do
    "$oxello" solve --sample-selfplay "$records" --empties "$empties" --count 40 \
        --seed "$empties" --threads 1 --write "$dir/suite-$empties.obf" --resume
done
cat "$dir"/suite-{28,29,30,31,32}.obf > "$dir/suite-28-32.obf"
