#!/usr/bin/env bash
# A reproducible workload for profiling the gomoku search: every position of
# a gomoku opening list in pos notation (`h8i9j7`, one a line) searched with
# a node limit and one thread through `oxello gomocup`, as a match plays it
# (the root's threat searches, then the iterations). `oxello bench --game
# gomoku` spends most of its time in the root's VCT instead. Prints the
# brain's replies: each position's MESSAGE line (depth, nodes, nodes/s) and
# its move.
#
#   scripts/gomoku-profile.sh [FILE] [SIZE] [RULE] [NODES] [COMMAND...]
#
# RULE is the Gomocup rule value (0 freestyle, 1 standard). COMMAND runs the
# brain (default target/release/oxello gomocup --threads 1); for callgrind:
#   scripts/gomoku-profile.sh positions/gomoku-middle-15-standard.txt 15 1 \
#       30000 valgrind --tool=callgrind target/release/oxello gomocup --threads 1
set -euo pipefail
file=${1:-positions/gomoku-middle-15-standard.txt}
size=${2:-15}
rule=${3:-1}
nodes=${4:-30000}
shift $(($# < 4 ? $# : 4))
[ $# -gt 0 ] || set -- target/release/oxello gomocup --threads 1
{
    echo "START $size"
    echo "INFO rule $rule"
    echo "INFO timeout_turn 1000000"
    echo "INFO timeout_match 100000000"
    echo "INFO max_node $nodes"
    grep -v '^#' "$file" | while read -r line; do
        [ -n "$line" ] || continue
        moves=$(grep -oE '[a-z][0-9]+' <<< "$line")
        count=$(wc -l <<< "$moves")
        echo BOARD
        i=0
        for move in $moves; do
            x=$(($(printf '%d' "'${move:0:1}") - 97))
            y=$((${move:1} - 1))
            # The side to move's stones are 1, the opponent's 2.
            echo "$x,$y,$(( (i % 2) == (count % 2) ? 1 : 2 ))"
            i=$((i + 1))
        done
        echo DONE
    done
    echo END
} | "$@"
