#!/usr/bin/env bash
# The built-in opening book, fitted/book.bin (issue 74): every position within
# the first PLIES moves of the WTHOR games seen in at least MIN_GAMES of them,
# its best move outside the book searched at DEPTH and SELECTIVITY, the values
# negamaxed; then ROUNDS rounds of `book extend`, each adding the best move
# outside the book of every position where that move scores within WINDOW
# discs of the position's value. Rerun the same command to resume a killed
# run (every search is kept in a journal as it finishes).
#
#   scripts/book.sh DIR                the whole book on this machine: DIR/book.bin
#   SHARD=3/8 scripts/book.sh DIR      part 3 of 8 of the build: DIR/build-3of8.bin
#   scripts/book.sh DIR merge          the parts merged into DIR/built.bin, then
#                                      the extend rounds: DIR/book.bin
#   cp DIR/book.bin fitted/book.bin    then rebuild oxello
#
# Settings (environment, with their defaults): PLIES=24 MIN_GAMES=5 DEPTH=24
# SELECTIVITY=73 ROUNDS=1 WINDOW=2 THREADS=$(nproc) HASH=64 (MiB a worker)
# WTHOR=../shared/games/wthor OXELLO=target/release/oxello.
#
# Cost, measured on this project's 2-core machine (one search thread, CPU
# time; docs/book.md): 0.036 s a position at depth 16, 0.18 s at 20, 1.5 s at
# 24. The defaults choose 37,502 positions: about 16 core-hours for the build
# and 18 for the extend round (in the small run of docs/book.md, 58% of the
# positions were candidates, two searches each: the new position and its
# parent's moves left), about 35 core-hours and 1.7 MB in all.
set -euo pipefail
dir=${1:?usage: scripts/book.sh DIR [merge]}
step=${2:-build}
plies=${PLIES:-24}
min_games=${MIN_GAMES:-5}
depth=${DEPTH:-24}
selectivity=${SELECTIVITY:-73}
rounds=${ROUNDS:-1}
window=${WINDOW:-2}
threads=${THREADS:-$(nproc)}
hash=${HASH:-64}
wthor=${WTHOR:-../shared/games/wthor}
oxello=${OXELLO:-target/release/oxello}
shard=${SHARD:-}
[ -x "$oxello" ] || cargo build --release
mkdir -p "$dir"
search=(--depth "$depth" --selectivity "$selectivity" --threads "$threads" --hash "$hash")

if [ "$step" = build ]; then
    if [ -n "$shard" ]; then
        # One part of the build, for one of several machines.
        exec "$oxello" book build --wthor "$wthor" --plies "$plies" --min-games "$min_games" \
            "${search[@]}" --shard "$shard" --output "$dir/build-${shard/\//of}.bin"
    fi
    [ -f "$dir/built.bin" ] || "$oxello" book build --wthor "$wthor" --plies "$plies" \
        --min-games "$min_games" "${search[@]}" --output "$dir/built.bin"
elif [ "$step" = merge ]; then
    [ -f "$dir/built.bin" ] || "$oxello" book merge "$dir"/build-*of*.bin --output "$dir/built.bin"
else
    echo "scripts/book.sh: unknown step '$step' (build or merge)" >&2
    exit 2
fi

# The extend rounds, each done once (DIR/extend-N.done marks it).
[ -f "$dir/book.bin" ] || cp "$dir/built.bin" "$dir/book.bin"
for round in $(seq 1 "$rounds"); do
    [ -f "$dir/extend-$round.done" ] && continue
    "$oxello" book extend "$dir/book.bin" --window "$window" "${search[@]}"
    touch "$dir/extend-$round.done"
done
"$oxello" book stats --book "$dir/book.bin"
