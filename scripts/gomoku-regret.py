#!/usr/bin/env python3
"""How much of the game each move of a gomoku brain gives away, as a teacher
engine judges it: a yardstick of move quality that needs no match.

    scripts/gomoku-regret.py [--stride S] [--teacher-nodes N] [--turn MS] \\
        [--out FILE] GAMES.sgf... -- TEACHER... -- BRAIN...
    scripts/gomoku-regret.py --paired A B

The positions are those before every S-th searched move (a move whose
comment is `NNNms`) of the `oxello match --game gomoku -o` records, either
side's. The brain (a Gomocup brain, e.g. `target/release/oxello gomocup
--threads 1`) chooses a move in each with `INFO timeout_turn MS`. The
teacher (a brain that reports `MESSAGE ... Eval N ...` lines with `INFO
show_detail 1`, as Rapfi does: a sparring partner built outside this
repository, see `../shared/docs/sparring.md`) searches `N` nodes on the
position and, when the brain's move is not its own, on the position after
that move. Its evaluations become win probabilities, `1 / (1 + exp(-e /
216.3))` (216.3 is the scale by which Rapfi's evaluations best predict the
outcomes of our games: `docs/trials/gomoku-tools.md`), a proven win 1 and a
proven loss 0. A move's regret is the side to move's probability before it
less its probability after it (0 when the brain plays the teacher's move).

It prints the number of positions, how often the brain played the
teacher's move, and the mean regret in percentage points with its standard
error. `--out FILE` writes each position's regret, one a line in the
order of the positions (`nan` where there is none), and `--paired A B`
compares two such files of the same positions: the mean of B's regrets less
A's, with its standard error (smaller than the two means' when the
positions' regrets go together). The teacher's judgments are cached beside
the first record file (`GAMES.sgf.regret-N.json`), so that measuring
another build costs only the brain's searches and the teacher's searches
of moves not seen before.
Positions are searched on two processes.

Measured: the yardstick tells apart only large differences, as a match of a
few hundred games does (four times the time moved the mean by less than two
standard errors), and the games against Rapfi are lost by a steady loss of
ground before the threats begin (`docs/trials/gomoku-tools.md`).
"""
import json
import math
import os
import sys
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gomoku_brain import Brain, searched_positions, teacher_infos  # noqa: E402

# The scale of Rapfi's evaluations (see the module documentation).
SCALE = 216.3


def probability(evaluation):
    """The side to move's win probability from a teacher's `Eval`, or None."""
    if evaluation is None:
        return None
    if evaluation.startswith('+M'):
        return 1.0
    if evaluation.startswith('-M'):
        return 0.0
    try:
        return 1.0 / (1.0 + math.exp(-int(evaluation) / SCALE))
    except ValueError:
        return None


def key(size, rule, color, stones):
    """A position's key: the side to move's and the other's stones."""
    mine = sorted((x, y) for x, y, c in stones if c == color)
    theirs = sorted((x, y) for x, y, c in stones if c != color)
    return f'{size}/{rule}/{mine}/{theirs}'


def judge(job):
    """The regrets of the brain's moves in a chunk of positions: a list of
    (agreed, regret or None), and the teacher's new judgments."""
    chunk, cache, teacher_command, nodes, brain_command, turn = job
    teacher = Brain(teacher_command, teacher_infos(nodes))
    brain = Brain(brain_command, [f'timeout_turn {turn}', 'timeout_match 0'])
    new = {}

    def teacher_of(size, rule, color, stones):
        k = key(size, rule, color, stones)
        if k not in cache and k not in new:
            move, evaluation = teacher.play(size, rule, color, stones)
            new[k] = (move, probability(evaluation))
        return cache[k] if k in cache else new[k]

    results = []
    for size, rule, color, stones in chunk:
        best, before = teacher_of(size, rule, color, stones)
        move, _ = brain.play(size, rule, color, stones)
        if move == best:
            results.append((True, 0.0 if before is not None else None))
            continue
        x, y = map(int, move.split(','))
        other = 'W' if color == 'B' else 'B'
        _, after = teacher_of(size, rule, other, stones + [(x, y, color)])
        if before is None or after is None:
            results.append((False, None))
        else:
            results.append((False, before - (1.0 - after)))
    teacher.close()
    brain.close()
    return results, new


def mean_and_error(values):
    """The mean of `values` and its standard error, in percentage points."""
    n = len(values)
    mean = sum(values) / max(n, 1)
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / max(n - 1, 1))
    return 100.0 * mean, 100.0 * spread / math.sqrt(max(n, 1))


def paired(a_path, b_path):
    """Prints the mean difference of two `--out` files' regrets."""
    def read(path):
        with open(path) as lines:
            return [float(line) for line in lines]
    a, b = read(a_path), read(b_path)
    if len(a) != len(b):
        sys.exit(f'{a_path} has {len(a)} positions, {b_path} {len(b)}')
    both = [y - x for x, y in zip(a, b) if x == x and y == y]
    mean, error = mean_and_error(both)
    print(f'{len(both)} positions: B - A = {mean:.2f} +- {error:.2f} points a move')


def main():
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == '--paired':
        return paired(args[1], args[2])
    if args.count('--') != 2:
        sys.exit(__doc__)
    first = args.index('--')
    second = args.index('--', first + 1)
    options, teacher, brain = args[:first], args[first + 1:second], args[second + 1:]
    stride, nodes, turn = 4, 200000, 1000
    files = []
    out = None
    while options:
        option = options.pop(0)
        if option == '--out' and options:
            out = options.pop(0)
        elif option in ('--stride', '--teacher-nodes', '--turn') and options:
            value = int(options.pop(0))
            if option == '--stride':
                stride = value
            elif option == '--teacher-nodes':
                nodes = value
            else:
                turn = value
        else:
            files.append(option)
    if not files or not teacher or not brain or stride < 1:
        sys.exit(__doc__)
    chosen = []
    searched = 0
    for path in files:
        for size, rule, color, stones in searched_positions(path):
            if searched % stride == 0 and stones:
                chosen.append((size, rule, color, stones))
            searched += 1
    cache_path = f'{files[0]}.regret-{nodes}.json'
    cache = {}
    if os.path.exists(cache_path):
        with open(cache_path) as saved:
            cache = {k: tuple(v) for k, v in json.load(saved).items()}
    chunks = [chosen[i::2] for i in range(2)]
    jobs = [(chunk, cache, teacher, nodes, brain, turn) for chunk in chunks]
    results = []
    with Pool(2) as pool:
        for part, new in pool.map(judge, jobs):
            results.extend(part)
            cache.update(new)
    with open(cache_path, 'w') as saved:
        json.dump(cache, saved)
    if out:
        with open(out, 'w') as lines:
            lines.write(''.join(f'{r if r is not None else float("nan")}\n' for _, r in results))
    agreed = sum(1 for a, _ in results if a)
    regrets = [r for _, r in results if r is not None]
    mean, error = mean_and_error(regrets)
    print(f'{len(results)} positions, the teacher\'s move in {agreed} '
          f'({100.0 * agreed / max(len(results), 1):.1f}%); mean regret over {len(regrets)}: '
          f'{mean:.2f} +- {error:.2f} points')


if __name__ == '__main__':
    main()
