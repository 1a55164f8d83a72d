#!/usr/bin/env bash
# Our own yardstick of hard midgame positions (issue 71): 100 positions of
# 28 empties and 100 of 29 from engine games of varied openings, every best
# move solved exactly.
#
#   scripts/suite-30.sh DIR [THREADS] [RANGE]
#
# The positions are in the repository, so that a lost disk loses no solve:
#   positions/suite-30-sample.obf  the 200 positions, without scores;
#   positions/suite-30.obf         those solved so far, every best move listed.
# The script solves the sample's positions that suite-30.obf lacks and appends
# them to it (resumable: rerun it after a stop), each on THREADS search threads
# (default: every core; two threads solve a position of 28 empties twice as
# fast as one), only those numbered in RANGE (e.g. `81-200`) when it is
# given. Commit suite-30.obf as it grows.
#
# Each solve saves its table in DIR/checkpoints every 10 minutes (`solve
# --checkpoint`), so that a solve cut off by the end of a session goes on
# from its last checkpoint when the script runs again. Position 80 (29
# empties, +58 for the side to move) took 285.6 G nodes and 9.2 hours over
# several sessions, the last 50 G nodes with --hash 2048. 6 moves down its
# principal line, 23 empties took 380 M nodes on one thread, 50 times FFO
# #43-44's (23 empties): the winning side has many moves at every turn and
# the other few, and proving that the score goes no higher means refuting
# nearly all of the many. RANGE can leave such a position for later, so the
# file need not follow the sample's order.
#
# Only when the sample is missing does the script remake it, in DIR:
# 10,000 self-play games played by the build (seed 30, no game of the
# training runs, whose seeds are 71 and up; 10-50 random moves, then level 14
# and depth 8; about 15 core-minutes), then 100 positions of each count from
# their held-out games (every tenth) after at least 4 searched moves, the two
# counts alternating so that a part of the suite holds both. The shipped
# sample was made by the build of commit 1159628 (`scripts/build-commit.sh`).
#
# On two threads a position of 28 empties took 44-444 s (median 196 s) and one
# of 29 empties 170-1,493 s (median 557 s): positions 35-51, 1159628's build,
# 7 minutes a position on average, so the whole suite costs about 45
# core-hours. Later solves, with nothing else running, put it at about 16
# core-hours, position 80 aside (docs/training.md, "The network"). At 32
# empties one position took more than 30 minutes, which is why the suite
# stops at 29.
set -euo pipefail
usage="usage: scripts/suite-30.sh DIR [THREADS] [RANGE]"
dir=${1:?$usage}
threads=${2:-$(nproc)}
case "$threads" in
'' | *[!0-9]* | 0)
    echo "scripts/suite-30.sh: THREADS is a positive number, not '$threads'" >&2
    exit 2
    ;;
esac
range=()
if [[ -n ${3:-} ]]; then
    range=(--range "$3")
fi
oxello=${OXELLO:-target/release/oxello}
sample=positions/suite-30-sample.obf
suite=positions/suite-30.obf
if [[ ! -s $sample ]]; then
    mkdir -p "$dir"
    for shard in 1 2; do
        "$oxello" selfplay --games 10000 --random-moves 10-50 --score-moves best \
            --level 14 --depth 8 --threads 1 --format binary --seed 30 --shard "$shard/2" \
            --output "$dir/suite-games-${shard}of2.bin" &
    done
    wait
    cat "$dir"/suite-games-{1,2}of2.bin > "$dir/suite-games.bin"
    for empties in 28 29; do
        "$oxello" solve --sample-selfplay "$dir/suite-games.bin" --empties "$empties" \
            --count 100 --seed "$empties" --list > "$dir/sample-$empties.obf"
    done
    paste -d '\n' "$dir/sample-28.obf" "$dir/sample-29.obf" > "$sample.part"
    mv "$sample.part" "$sample"
fi
"$oxello" solve "$sample" --threads "$threads" --write "$suite" --resume \
    --checkpoint "$dir/checkpoints" "${range[@]}"
