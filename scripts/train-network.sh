#!/usr/bin/env bash
# The evaluation's network (issue 71, docs/training.md, "The network"):
# makes its labels in FOLDER and trains fitted/network-8.bin, which the next
# build embeds. Every step is deterministic and resumable (rerun the same
# command after a kill); the steps whose output exists are skipped.
#
#   scripts/train-network.sh [FOLDER] [SELF-PLAY GAMES] [WTHOR folder]
#
# 1. Self-play games (scripts/value-data.sh; 10-50 random moves, then level
#    14 at depth 8, solved from 18 empties): about 35,000 games a core-hour,
#    so the 150,000 games the shipped network learned from take about 4.3
#    core-hours. They were played by commit f58002c (bench signature
#    9307358), which the script builds in a worktree (FOLDER/player): a
#    later search plays other games.
# 2. The exact scores of every position of 16 empties or fewer of the
#    WTHOR training games (search-labels --exact 16): 1,958,269 positions,
#    27.7 G nodes, about one core-hour.
# 3. train-eval --network 32: the WTHOR games, the exact scores and the
#    self-play records, 8 epochs; about 5 minutes on one core.
# 4. fit-probcut with a build that embeds the new network: the Multi-ProbCut
#    parameters describe the evaluation the search uses; about 4 minutes.
set -euo pipefail
out=${1:-labels-network}
games=${2:-150000}
wthor=${3:-../shared/games/wthor}
mkdir -p "$out"
out=$(cd "$out" && pwd)
wthor=$(cd "$wthor" && pwd)
cd "$(dirname "$0")/.."
cargo build --release
oxello=$(pwd)/target/release/oxello
player=$(scripts/build-commit.sh f58002c "$out/player")
OXELLO="$player" scripts/value-data.sh "$out" "$games"
if [ ! -s "$out/wthor-exact16.obf" ]; then
    "$oxello" search-labels --wthor "$wthor" --exact 16 --out "$out/wthor-exact16.part.obf"
    mv "$out/wthor-exact16.part.obf" "$out/wthor-exact16.obf"
fi
"$oxello" train-eval --wthor "$wthor" --network 32 --epochs 8 \
    --exact "$out/wthor-exact16.obf" --selfplay "$out/gen1-l14d8-1of1.bin" \
    --out fitted/network-8.bin
cargo build --release
"$oxello" fit-probcut --wthor "$wthor" --out fitted/probcut.bin
