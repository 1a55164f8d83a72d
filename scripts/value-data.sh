#!/usr/bin/env bash
# Value-training data for the 8x8 evaluation (issue 71): self-play games of
# 10-50 uniformly random moves from the start, then the engine's best move at
# level 14 and depth 8, solved exactly from 18 empties. Every record is labelled
# by the game's outcome, and by its exact score from 18 empties. Deterministic
# for a seed; rerun the same command to resume a killed run; --shard I/N
# splits it over machines.
#
#   scripts/value-data.sh DIR [GAMES] [SHARD]     (default 1000000 games, 1/1)
#
# One core makes about 300 records/s (binary, 160 bytes each).
set -euo pipefail
dir=${1:?usage: scripts/value-data.sh DIR [GAMES] [SHARD]}
games=${2:-1000000}
shard=${3:-1/1}
oxello=${OXELLO:-target/release/oxello}
mkdir -p "$dir"
exec "$oxello" selfplay --games "$games" --random-moves 10-50 --score-moves best \
    --level 14 --depth 8 --threads 1 --format binary --seed 71 --shard "$shard" \
    --output "$dir/gen1-l14d8-${shard/\//of}.bin"
