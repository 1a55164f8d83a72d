"""Speed of oxello's Python boards: legal_moves and push/pop calls per
second, the per-call overhead over the same work in Rust, and the same work
in pure Python (a small bitboard implementation below, and creversi-python,
a pure-Python library on PyPI, when it is installed), all in one run.

    python python/bench/speed.py [--seconds 1.0]

The Rust figure is perft's: `Board.perft(6)` is one call into Rust that
generates the moves of every inner node and plays the move into each, so
its time per inner node is the work of a `legal_moves` and a `push`,
without Python. Figures are medians of three timed runs.
"""

import argparse
import random
import statistics
import time

import oxello

# A midgame position (the first of positions/bench.txt): 10 legal moves.
MIDGAME = "------------------XXX-----XXXO--OXOXXO--OOXOXO--O-XXO-----X----- X"


# --- A pure-Python Othello: bitboards as ints, the usual shift-and-mask
# move generator. Written for this comparison.

FULL = (1 << 64) - 1
NOT_A = 0xFEFEFEFEFEFEFEFE  # clears column a after a shift towards h
NOT_H = 0x7F7F7F7F7F7F7F7F
SHIFTS = [  # (shift, mask applied after the shift); positive = left
    (1, NOT_A), (-1, NOT_H), (8, FULL), (-8, FULL),
    (9, NOT_A), (7, NOT_H), (-7, NOT_A), (-9, NOT_H),
]


def shift(bits, amount, mask):
    return ((bits << amount) if amount > 0 else (bits >> -amount)) & mask & FULL


def legal(player, opponent):
    empty = ~(player | opponent) & FULL
    moves = 0
    for amount, mask in SHIFTS:
        run = shift(player, amount, mask) & opponent
        for _ in range(5):
            run |= shift(run, amount, mask) & opponent
        moves |= shift(run, amount, mask) & empty
    return moves


def flips(player, opponent, square):
    start = 1 << square
    flipped = 0
    for amount, mask in SHIFTS:
        line = 0
        bit = shift(start, amount, mask)
        while bit & opponent:
            line |= bit
            bit = shift(bit, amount, mask)
        if bit & player:
            flipped |= line
    return flipped


class PureBoard:
    """Player/opponent bitboards with a history for pop."""

    def __init__(self, player, opponent):
        self.player, self.opponent = player, opponent
        self.history = []

    def legal_moves(self):
        moves = legal(self.player, self.opponent)
        return [i for i in range(64) if moves >> i & 1]

    def push(self, square):
        f = flips(self.player, self.opponent, square)
        self.history.append((self.player, self.opponent))
        self.player, self.opponent = self.opponent & ~f, self.player | f | (1 << square)

    def pop(self):
        self.player, self.opponent = self.history.pop()


def pure_from_string(text):
    squares, side = text.split()
    black = sum(1 << i for i, c in enumerate(squares) if c == "X")
    white = sum(1 << i for i, c in enumerate(squares) if c == "O")
    return PureBoard(black, white) if side == "X" else PureBoard(white, black)


# --- Timing.


def rate(work, seconds):
    """Calls per second of `work` (which returns how many calls it made),
    the median of three runs of about `seconds` each."""
    rates = []
    for _ in range(3):
        calls, started = 0, time.perf_counter()
        while time.perf_counter() - started < seconds:
            calls += work()
        rates.append(calls / (time.perf_counter() - started))
    return statistics.median(rates)


def batch(call, n=1000):
    def work():
        for _ in range(n):
            call()
        return n

    return work


def playouts(new_board, legal_moves, push, over, seed=1):
    """Random games to the end: moves per second (a `legal_moves` and a
    `push` each; `push(board, None)` passes)."""
    rng = random.Random(seed)

    def work():
        board = new_board()
        moves = 0
        while not over(board):
            options = legal_moves(board)
            push(board, rng.choice(options) if options else None)
            moves += 1
        return moves

    return work


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time of each run")
    args = parser.parse_args()
    s = args.seconds
    rows = []

    board = oxello.Board.from_string(MIDGAME)
    square = board.legal_squares[0]

    def push_pop():
        board.push(square)
        board.pop()

    rows.append(("oxello", "legal_moves (names)", rate(batch(lambda: board.legal_moves), s)))
    rows.append(("oxello", "legal_squares (indices)", rate(batch(lambda: board.legal_squares), s)))
    rows.append(("oxello", "legal_mask (bitboard)", rate(batch(lambda: board.legal_mask), s)))
    rows.append(("oxello", "push + pop", rate(batch(push_pop), s)))

    def oxello_push(b, m):
        b.push(oxello.PASS if m is None else m)

    rows.append(("oxello", "random playout moves", rate(playouts(
        oxello.Board, lambda b: b.legal_squares, oxello_push, lambda b: b.is_game_over()), s)))

    # Rust alone: perft(6) generates the moves of every node above its
    # leaves (the last level counts them without playing) and plays the
    # move into every node below the root: per inner node, one generation
    # and one move played.
    midgame = oxello.Board.from_string(MIDGAME)
    inner = sum(midgame.perft(k) for k in range(6))
    per_second = rate(lambda: midgame.perft(6) and inner, s)
    rows.append(("Rust (perft)", "generate + play a move", per_second))

    pure = pure_from_string(MIDGAME)
    pure_square = pure.legal_moves()[0]

    def pure_push_pop():
        pure.push(pure_square)
        pure.pop()

    rows.append(("pure Python", "legal_moves (indices)", rate(batch(pure.legal_moves, 200), s)))
    rows.append(("pure Python", "push + pop", rate(batch(pure_push_pop, 200), s)))

    def pure_push(b, m):
        if m is None:
            b.history.append((b.player, b.opponent))
            b.player, b.opponent = b.opponent, b.player
        else:
            b.push(m)

    def pure_over(b):
        return not legal(b.player, b.opponent) and not legal(b.opponent, b.player)

    rows.append(("pure Python", "random playout moves", rate(playouts(
        lambda: pure_from_string("-" * 27 + "OX------XO" + "-" * 27 + " X"),
        lambda b: b.legal_moves(), pure_push, pure_over), s)))

    try:
        import creversi
    except ImportError:
        creversi = None
    if creversi is not None:
        theirs = creversi.Board(MIDGAME.split()[0], True)
        first = list(theirs.legal_moves)[0]

        def copy_move():
            copy = theirs.copy()
            copy.move(first)

        rows.append(("creversi-python", "legal_moves", rate(batch(lambda: list(theirs.legal_moves), 200), s)))
        rows.append(("creversi-python", "copy + move (no pop)", rate(batch(copy_move, 200), s)))

        def creversi_push(b, m):
            if m is None:
                b.move_pass()
            else:
                b.move(m)

        rows.append(("creversi-python", "random playout moves", rate(playouts(
            creversi.Board, lambda b: list(b.legal_moves), creversi_push,
            lambda b: b.is_game_over()), s)))

    rust_ns = 1e9 / per_second
    print(f"{'library':<16} | {'operation':<26} | {'calls/s':>12} | {'ns/call':>9}")
    print(f"{'-' * 16}-+-{'-' * 26}-+-{'-' * 12}-+-{'-' * 9}")
    for library, operation, calls in rows:
        print(f"{library:<16} | {operation:<26} | {calls:>12,.0f} | {1e9 / calls:>9.0f}")
    oxello_push_pop = next(c for l, o, c in rows if l == "oxello" and o == "push + pop")
    print(f"\nRust generates the moves and plays one in {rust_ns:.1f} ns; from Python a push + pop "
          f"pair costs {1e9 / oxello_push_pop:.0f} ns: about {1e9 / oxello_push_pop / 2:.0f} ns per call, "
          f"nearly all of it the crossing into Rust and back.")


if __name__ == "__main__":
    main()
