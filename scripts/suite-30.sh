#!/usr/bin/env bash
# A yardstick of positions from engine games (issue 71): 100 positions of 28
# empties and 100 of 29, sampled from the held-out games (every tenth) of
# the self-play records that train the network (scripts/value-data.sh, the
# 150,000 games of scripts/train-network.sh), after at least 4 searched moves
# of their game, every best move solved exactly. Rerunning resumes each file
# where it stopped; the two files together make the suite.
#
#   scripts/suite-30.sh RECORDS.bin DIR [JOBS]
#
# JOBS 2 solves the two files side by side, one core each (default 1: one
# after the other).
#
# A position of 28 empties costs about 4 minutes of one core (its best
# move's solve, median 60 s, then a null window for each other move), so
# the suite takes about 15 core-hours. At 32 empties one position took
# more than 30 minutes, which is why the suite stops at 29.
set -euo pipefail
records=${1:?usage: scripts/suite-30.sh RECORDS.bin DIR [JOBS]}
dir=${2:?usage: scripts/suite-30.sh RECORDS.bin DIR [JOBS]}
jobs=${3:-1}
case "$jobs" in
1 | 2) ;;
*)
    echo "scripts/suite-30.sh: JOBS is 1 or 2, not '$jobs'" >&2
    exit 2
    ;;
esac
oxello=${OXELLO:-target/release/oxello}
mkdir -p "$dir"
solve() {
    "$oxello" solve --sample-selfplay "$records" --empties "$1" --count 100 \
        --seed "$1" --threads 1 --write "$dir/suite-$1.obf" --resume
}
if [ "$jobs" = 2 ]; then
    # Both run to their end, whichever fails, so that none is left behind.
    solve 28 &
    first=$!
    status=0
    solve 29 || status=$?
    wait "$first" || status=$?
    [ "$status" = 0 ] || exit "$status"
else
    solve 28
    solve 29
fi
cat "$dir"/suite-{28,29}.obf > "$dir/suite-28-29.obf"
