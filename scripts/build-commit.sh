#!/usr/bin/env bash
# Builds COMMIT of this repository in a worktree at DIR (once: an existing
# build is kept) and prints the path of its oxello binary. The training
# scripts use it for the build whose play or evaluation made their labels.
#
#   scripts/build-commit.sh COMMIT DIR
set -euo pipefail
commit=${1:?usage: scripts/build-commit.sh COMMIT DIR}
dir=${2:?usage: scripts/build-commit.sh COMMIT DIR}
if [ ! -x "$dir/target/release/oxello" ]; then
    git worktree add --force --detach "$dir" "$commit" >&2
    (cd "$dir" && cargo build --release >&2)
fi
echo "$dir/target/release/oxello"
