#!/usr/bin/env bash
# A yardstick of positions from engine games (issue 71): 100 positions of 28
# empties and 100 of 29, sampled from the held-out games (every tenth) of
# the self-play records that train the network (scripts/value-data.sh, the
# 150,000 games of scripts/train-network.sh), after at least 4 searched moves
# of their game, every best move solved exactly. Rerunning resumes each file
# where it stopped; the two files together make the suite.
#
#   scripts/suite-30.sh RECORDS.bin DIR [THREADS]
#
# The files are solved one after the other, each position on THREADS search
# threads (default: every core). Two threads solve as fast as two files side
# by side on one core each (3 positions of 28 empties: 37.9 s against
# 75.4 s on one thread, the same moves written), and keep both cores busy
# to the end, where two files side by side left one core idle once the
# cheaper file was done.
#
# A position of 28 empties costs about 4 minutes of one core (its best
# move's solve, median 60 s, then a null window for each other move), so
# the suite takes about 15 core-hours. At 32 empties one position took
# more than 30 minutes, which is why the suite stops at 29.
set -euo pipefail
usage="usage: scripts/suite-30.sh RECORDS.bin DIR [THREADS]"
records=${1:?$usage}
dir=${2:?$usage}
threads=${3:-$(nproc)}
case "$threads" in
'' | *[!0-9]* | 0)
    echo "scripts/suite-30.sh: THREADS is a positive number, not '$threads'" >&2
    exit 2
    ;;
esac
oxello=${OXELLO:-target/release/oxello}
mkdir -p "$dir"
for empties in 28 29; do
    "$oxello" solve --sample-selfplay "$records" --empties "$empties" --count 100 \
        --seed "$empties" --threads "$threads" --write "$dir/suite-$empties.obf" --resume
done
cat "$dir"/suite-{28,29}.obf > "$dir/suite-28-29.obf"
