#!/usr/bin/env python3
"""Labels the positions of `oxello match --game gomoku -o` records with a
teacher engine's evaluations, for `examples/gomoku_tune.rs --teacher`.

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
import re
import subprocess
import sys
from multiprocessing import Pool


def positions(line):
    """(size, rule, colour, stones) before each searched move of a record."""
    size = int(re.search(r'SZ\[(\d+)\]', line).group(1))
    rule = int(re.search(r'RU\[(\d+)\]', line).group(1))
    stones = []
    for color, point, comment in re.findall(r';([BW])\[([a-z]{2})\](?:C\[([^\]]*)\])?', line):
        if comment and comment.endswith('ms'):
            yield size, rule, color, list(stones)
        stones.append((ord(point[0]) - 97, ord(point[1]) - 97, color))


class Teacher:
    def __init__(self, command, nodes):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.nodes = nodes
        self.size = None

    def send(self, line):
        self.process.stdin.write(line + '\n')
        self.process.stdin.flush()

    def readline(self):
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError('the teacher exited')
        return line.strip()

    def label(self, size, rule, color, stones):
        """The teacher's evaluation (or nan) and its move."""
        if size != self.size:
            self.send(f'START {size}')
            while not self.readline().startswith('OK'):
                pass
            for info in (f'max_node {self.nodes}', 'timeout_turn 60000', 'timeout_match 0',
                         'show_detail 1'):
                self.send(f'INFO {info}')
            self.size = size
        self.send(f'INFO rule {rule}')
        self.send('BOARD')
        for x, y, c in stones:
            self.send(f'{x},{y},{1 if c == color else 2}')
        self.send('DONE')
        evaluation = None
        while True:
            line = self.readline()
            found = re.search(r'Eval (\S+)', line)
            if found:
                evaluation = found.group(1)
            if re.fullmatch(r'\d+,\d+', line):
                break
        try:
            return float(int(evaluation)), line
        except (TypeError, ValueError):
            return float('nan'), line


def label(job):
    path, name, nodes, stride, command = job
    teacher = Teacher(command, nodes)
    scores, moves, searched = [], [], 0
    with open(path) as records:
        for line in records:
            if not line.lstrip().startswith('('):
                continue
            for size, rule, color, stones in positions(line):
                if searched % stride == 0 and stones:
                    score, move = teacher.label(size, rule, color, stones)
                else:
                    score, move = float('nan'), '-'
                scores.append(score)
                moves.append(move)
                searched += 1
    teacher.process.kill()
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
