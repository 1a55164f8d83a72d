#!/usr/bin/env bash
# Value-training data for the 8x8 evaluation (issue 71): self-play games of
# 10-50 uniformly random moves from the start, then the engine's best move at
# level 14 and depth 8, solved exactly from 18 empties. Every record is labelled
# by the game's outcome, and by its exact score from 18 empties. Deterministic
# for a seed; rerun the same command to resume a killed run; --shard I/N
# splits it over machines. GENERATION N (default 1) names the file genN-... and
# seeds it with 70+N: generation 1 was played by the linear weights (f58002c),
# generation 2 by the first trained network (4b7f231); OXELLO names the player.
#
#   scripts/value-data.sh DIR [GAMES] [SHARD] [GENERATION]
#                                   (default 1000000 games, 1/1, generation 1)
#
# One core makes about 300 records/s (binary, 160 bytes each).
set -euo pipefail
dir=${1:?usage: scripts/value-data.sh DIR [GAMES] [SHARD] [GENERATION]}
games=${2:-1000000}
shard=${3:-1/1}
generation=${4:-1}
[[ $generation =~ ^[1-9][0-9]*$ ]] || { echo "value-data.sh: GENERATION must be 1, 2, ..." >&2; exit 2; }
oxello=${OXELLO:-target/release/oxello}
mkdir -p "$dir"
exec "$oxello" selfplay --games "$games" --random-moves 10-50 --score-moves best \
    --level 14 --depth 8 --threads 1 --format binary --seed $((70 + generation)) --shard "$shard" \
    --output "$dir/gen${generation}-l14d8-${shard/\//of}.bin"
