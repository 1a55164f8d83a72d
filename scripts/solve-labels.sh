#!/usr/bin/env bash
# Exact training labels for the evaluation: WTHOR positions of 14 to 20
# empties, sampled (fixed seed) and solved by oxello, one OBF file per number
# of empties in FOLDER. About 40 minutes on two cores; `oxello train-eval
# --solved FOLDER` reads them (docs/training.md, "Training the evaluation").
#
#   scripts/solve-labels.sh FOLDER [WTHOR folder] [oxello binary] [jobs]
set -euo pipefail
out=${1:?usage: scripts/solve-labels.sh FOLDER [WTHOR] [OXELLO] [JOBS]}
wthor=${2:-../shared/games/wthor}
oxello=${3:-target/release/oxello}
jobs=${4:-$(nproc)}
mkdir -p "$out"
# Empties:count. Fewer positions where a solve costs more (about 3 ms at 14
# empties, 9 ms at 16, 20 ms at 17, 160 ms at 20 on one core; a small table,
# as clearing a large one before every position would cost more).
specs="20:10000 19:20000 18:30000 17:40000 16:40000 15:40000 14:20000"
printf '%s\n' $specs | xargs -P "$jobs" -I{} sh -c '
    spec={}; empties=${spec%%:*}; count=${spec##*:}
    "$0" solve --sample-wthor "$1" --empties "$empties" --count "$count" \
        --seed 1 --threads 1 --hash 8 --write "$2/solved-$empties.obf" > "$2/solved-$empties.log"
    tail -n 1 "$2/solved-$empties.log"' "$oxello" "$wthor" "$out"
