"""What the gomoku scripts share: the positions of `oxello match --game gomoku
-o` records and a Gomocup brain that answers them (a teacher such as Rapfi,
or oxello itself). Imported by `gomoku-teacher-labels.py` and
`gomoku-regret.py`, which run from any directory.
"""
import re
import subprocess


def positions(line):
    """(size, rule, colour to move, stones) before each searched move of a
    record (a move whose comment is `NNNms`); stones are (x, y, colour)."""
    size = int(re.search(r'SZ\[(\d+)\]', line).group(1))
    rule = int(re.search(r'RU\[(\d+)\]', line).group(1))
    stones = []
    for color, point, comment in re.findall(r';([BW])\[([a-z]{2})\](?:C\[([^\]]*)\])?', line):
        if comment and comment.endswith('ms'):
            yield size, rule, color, list(stones)
        stones.append((ord(point[0]) - 97, ord(point[1]) - 97, color))


def searched_positions(path):
    """[`positions`] of every record of the file `path`, in order."""
    with open(path) as records:
        for line in records:
            if line.lstrip().startswith('('):
                yield from positions(line)


def teacher_infos(nodes):
    """The `INFO` lines of a teacher searching `nodes` nodes a position and
    reporting its evaluation."""
    return [f'max_node {nodes}', 'timeout_turn 60000', 'timeout_match 0', 'show_detail 1']


class Brain:
    """A Gomocup brain answering BOARD positions."""

    def __init__(self, command, infos):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.infos = infos
        self.size = None

    def send(self, line):
        self.process.stdin.write(line + '\n')
        self.process.stdin.flush()

    def readline(self):
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f'{self.process.args[0]} exited')
        return line.strip()

    def play(self, size, rule, color, stones):
        """The brain's move `x,y` and its last `Eval` (or None)."""
        if size != self.size:
            self.send(f'START {size}')
            while not self.readline().startswith('OK'):
                pass
            for info in self.infos:
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
                return line, evaluation

    def close(self):
        self.process.kill()
