#!/usr/bin/env python3
"""A strict fake NBoard engine for the match tests.

It checks what the match runner sends: every `go` must come right after a
`ping` (the runner synchronises first), no line may arrive while it thinks,
and every move it is told must be legal (passes included). A broken rule
makes it exit with a message on stderr. It plays the first legal move.

    fake_nboard.py [--fault illegal|crash|hang|garbage] [--at N] [--think SECONDS]

With --fault, the N-th `go` of the process (default 3) goes wrong that way.
"""

import argparse
import re
import select
import sys
import time

sys.path.insert(0, __import__("os").path.dirname(__file__))
from othello import Board, parse_square, square_name  # noqa: E402


def fail(message):
    sys.stderr.write("fake_nboard: " + message + "\n")
    sys.stderr.flush()
    sys.exit(3)


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def parse_move(text):
    name = text.split("/")[0].strip()
    if name.upper() in ("PA", "PASS"):
        return None, True
    square = parse_square(name)
    if square is None:
        fail("unreadable move " + text)
    return square, True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fault", choices=["illegal", "crash", "hang", "garbage"])
    parser.add_argument("--at", type=int, default=3)
    parser.add_argument("--think", type=float, default=0.01)
    args = parser.parse_args()
    board = Board()
    last = None
    goes = 0
    closed = False
    while not closed:
        raw = sys.stdin.readline()
        if raw == "":
            break
        line = raw.strip()
        if not line:
            continue
        words = line.split()
        command = words[0]
        if command == "nboard":
            say("set myname fake")
        elif command == "ping":
            say("pong " + words[1])
        elif command == "set" and len(words) > 1 and words[1] == "game":
            ggf = line.split(" ", 2)[2]
            match = re.search(r"BO\[([^\]]*)\]", ggf)
            board = Board.from_ggf_board(match.group(1)) if match else Board()
            for tag, value in re.findall(r"(?<=[\];])([A-Z]+)\[([^\]]*)\]", ggf):
                if tag in ("B", "W"):
                    colour = "black" if tag == "B" else "white"
                    if colour != board.side and board.must_pass():
                        board.play(None)
                    square, _ = parse_move(value)
                    if not board.play(square):
                        fail("illegal move in set game: " + value)
        elif command == "set":
            pass
        elif command == "move":
            square, _ = parse_move(words[1])
            if not board.play(square):
                fail("illegal move relayed: " + words[1])
        elif command == "go":
            if last != "ping":
                fail("go without ping first (last command: %s)" % last)
            goes += 1
            deadline = time.time() + args.think
            while not closed and time.time() < deadline:
                ready, _, _ = select.select([sys.stdin], [], [], max(0.0, deadline - time.time()))
                if ready:
                    early = sys.stdin.readline()
                    if early == "":
                        closed = True
                    else:
                        fail("input while thinking: " + early.strip())
            moves = board.legal_moves()
            if args.fault and goes == args.at:
                if args.fault == "crash":
                    sys.stderr.write("fake_nboard: crashing on purpose\n")
                    sys.exit(1)
                if args.fault == "hang":
                    time.sleep(3600)
                if args.fault == "garbage":
                    say("=== zz9/1.0")
                    last = command
                    continue
                occupied = sorted(board.cells)[0]
                say("=== %s/0.00/0.01" % square_name(*occupied).upper())
            elif not moves:
                say("=== PA")
            else:
                say("search %s 0.00 0 1" % square_name(*moves[0]).upper())
                say("=== %s/0.00/0.01" % square_name(*moves[0]).upper())
        elif command == "quit":
            return
        last = command


if __name__ == "__main__":
    main()
