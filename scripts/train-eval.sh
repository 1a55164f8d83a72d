#!/usr/bin/env bash
# The built-in 8x8 evaluation from scratch: 200,000 WTHOR positions of 14-20
# empties solved exactly, search values (depth 10, 73%) for the positions of
# one training game in 3 before the games' theoretical depth, then
# `train-eval` on the games and both. Writes fitted/pattern-weights-8.bin,
# which the next build embeds (docs/training.md, "Training the evaluation"). About
# 75 minutes on two cores.
#
#   scripts/train-eval.sh [FOLDER] [WTHOR folder] [JOBS]
#
# The labels are made by commit 3aabaeb, the build before these weights: the
# search values come from its evaluation, so a later build (which searches
# with the weights trained here) would give other values and other weights.
# The script builds that commit in a worktree of this repository
# (FOLDER/labeller), so the shipped weights come out byte for byte.
set -euo pipefail
out=${1:-labels}
wthor=${2:-../shared/games/wthor}
mkdir -p "$out/solved"
out=$(cd "$out" && pwd)
wthor=$(cd "$wthor" && pwd)
cd "$(dirname "$0")/.."
jobs=${3:-$(nproc)}
oxello=$(scripts/build-commit.sh 3aabaeb "$out/labeller")
# Exact labels: about 40 minutes on two cores.
scripts/solve-labels.sh "$out/solved" "$wthor" "$oxello" "$jobs"
# Search values: 794,486 positions, about 30 minutes on two cores.
"$oxello" search-labels --wthor "$wthor" --every 3 --depth 10 --threads "$jobs" \
    --out "$out/search-d10.obf"
# About 2 minutes on one core.
cargo run --release -- train-eval --wthor "$wthor" --solved "$out/solved" \
    --searched "$out/search-d10.obf" --search-weight 0.8
