"""Training data for an AlphaZero-style network: self-play batches from
oxello written as NumPy arrays, with the 8 symmetries as augmentation.

    python python/examples/training_data.py [--games 20] [--level 4] [--out data.npz]

The arrays are those of `oxello selfplay --format npz`: states float32
[N, 4, 8, 8] (own discs, opponent's, last move, black-to-move), policies
float32 [N, 64] (cell row * 8 + col) and outcomes float32 [N] (+1 win, 0
draw, -1 loss for the side to move).
"""

import argparse
import time

import numpy as np

import oxello

parser = argparse.ArgumentParser()
parser.add_argument("--games", type=int, default=20)
parser.add_argument("--level", type=int, default=4)
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--batch", type=int, default=256)
parser.add_argument("--out", default="data.npz")
args = parser.parse_args()


def augment(states, policies):
    """The 8 images of each sample: rotations and mirrors of the planes
    and, alike, of the policy grids."""
    grids = policies.reshape(-1, 8, 8)
    images_s, images_p = [], []
    for k in range(4):
        for flip in (False, True):
            s = np.rot90(states, k, axes=(2, 3))
            p = np.rot90(grids, k, axes=(1, 2))
            if flip:
                s, p = s[..., ::-1], p[..., ::-1]
            images_s.append(s)
            images_p.append(p.reshape(-1, 64))
    return np.concatenate(images_s), np.concatenate(images_p)


started = time.monotonic()
states, policies, outcomes = [], [], []
for batch_states, batch_policies, batch_outcomes in oxello.selfplay(
        args.games, level=args.level, seed=args.seed, batch_size=args.batch):
    s, p = augment(batch_states, batch_policies)
    states.append(s)
    policies.append(p)
    outcomes.append(np.tile(batch_outcomes, 8))
    print(f"{sum(len(x) for x in states)} samples after {time.monotonic() - started:.1f} s")

states, policies, outcomes = np.concatenate(states), np.concatenate(policies), np.concatenate(outcomes)
assert np.allclose(policies.sum(axis=1), 1, atol=1e-3)
np.savez(args.out, states=states, mcts_probs=policies, winner=outcomes)
wins = (outcomes > 0).mean()
print(f"wrote {args.out}: states {states.shape}, mcts_probs {policies.shape}, winner {outcomes.shape} "
      f"({wins:.0%} wins for the side to move)")
