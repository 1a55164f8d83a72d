#!/usr/bin/env python3
"""Labels the positions of `oxello match --game gomoku -o` records with a
teacher engine's evaluations and moves, for `oxello train-eval --game gomoku
--teacher NAME` and `oxello move-order --game gomoku --teacher NAME`.

    scripts/gomoku-teacher-labels.py NAME NODES STRIDE GAMES.sgf... -- COMMAND...

COMMAND runs a Gomocup brain that reports its evaluation in `MESSAGE ...
Eval N ...` lines with `INFO show_detail 1`, as Rapfi does (a sparring
partner built outside this repository; see `../shared/docs/sparring.md`).
Each position before a searched move (a move whose comment is `NNNms`) is
sent as `BOARD` (the side to move's stones as 1, the other's as 2) with
`INFO max_node NODES`; every STRIDE-th one is labelled. For each
GAMES.sgf it writes, one line per searched move in file order:
- GAMES.sgf.scores-NAME: the teacher's evaluation from the side to move's
  view, or `nan` (not sampled, or no evaluation: a forced or decided
  position, a proven win or loss);
- GAMES.sgf.moves-NAME: the move the teacher chose (`x,y`), or `-`.

Files are labelled on two processes, the largest first.
"""
import os
import sys
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gomoku_brain import Brain, searched_positions, teacher_infos  # noqa: E402


def evaluation_of(teacher, size, rule, color, stones):
    """The teacher's evaluation (or nan) and its move."""
    move, evaluation = teacher.play(size, rule, color, stones)
    try:
        return float(int(evaluation)), move
    except (TypeError, ValueError):
        return float('nan'), move


def label(job):
    path, name, nodes, stride, command = job
    teacher = Brain(command, teacher_infos(nodes))
    scores, moves, searched = [], [], 0
    for size, rule, color, stones in searched_positions(path):
        if searched % stride == 0 and stones:
            score, move = evaluation_of(teacher, size, rule, color, stones)
        else:
            score, move = float('nan'), '-'
        scores.append(score)
        moves.append(move)
        searched += 1
    teacher.close()
    with open(f'{path}.scores-{name}', 'w') as out:
        out.write(''.join(f'{s}\n' for s in scores))
    with open(f'{path}.moves-{name}', 'w') as out:
        out.write(''.join(f'{m}\n' for m in moves))
    return path, searched, sum(1 for s in scores if s == s)


def main():
    if '--' not in sys.argv or len(sys.argv) < 7:
        sys.exit(__doc__)
    split = sys.argv.index('--')
    name, nodes, stride = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    files, command = sys.argv[4:split], sys.argv[split + 1:]
    files.sort(key=os.path.getsize, reverse=True)
    with Pool(2) as pool:
        jobs = [(path, name, nodes, stride, command) for path in files]
        for path, searched, labelled in pool.imap_unordered(label, jobs):
            print(f'{path}: {searched} searched moves, {labelled} labelled', flush=True)


if __name__ == '__main__':
    main()
