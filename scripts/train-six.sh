#!/usr/bin/env bash
# The learned 6x6 evaluation from scratch: self-play games whose endgames
# were solved exactly, then `train-eval --size 6`. Writes
# fitted/pattern-weights-6.bin, which the next build embeds (docs/training.md, "Training
# the evaluation", 6x6). About 25 minutes on two cores.
#
#   scripts/train-six.sh [FOLDER] [JOBS]
#
# The games are played by commit 120d627, the last build whose 6x6 search
# used the hand-set evaluation: a later build plays with its own learned
# weights, so its games (and the weights trained on them) differ. The script
# builds that commit in a worktree of this repository (FOLDER/player), so the
# shipped weights come out byte for byte.
set -euo pipefail
out=${1:-six-data}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.."
jobs=${2:-$(nproc)}
oxello=$(scripts/build-commit.sh 120d627 "$out/player")
# Many varied games: 4 random moves, then moves drawn among the near-best
# (temperature 2 discs) to ply 14; level 14 at depth 4 solves exactly from
# 18 empties. About 16 minutes.
"$oxello" selfplay --size 6 --games 30000 --level 14 --depth 4 --random-moves 4 \
    --temperature 2 --random-plies 14 --seed 14 --format binary --threads "$jobs" \
    --output "$out/level14.bin"
# Fewer, stronger games: level 18 at depth 8 solves from 22 empties. About
# 8 minutes.
"$oxello" selfplay --size 6 --games 1000 --level 18 --depth 8 --random-moves 2 \
    --seed 6 --format binary --threads "$jobs" --output "$out/level18.bin"
cargo run --release -- train-eval --size 6 --selfplay "$out/level14.bin" "$out/level18.bin"
