#!/usr/bin/env python3
"""A strict fake GTP Othello engine for the match tests.

Answers in spec framing (`=id result` then an empty line). `play` and
`genmove` must name the colour on move; with --implicit, a colour not on
move is accepted when the side to move must pass (the pass is inserted), as
Edax does; `play <colour> pass` is accepted only for a forced pass. A wrong
colour is refused with `? wrong color`. It plays the last legal move.

With --times none, `time_settings` and `time_left` are unknown commands
(they are optional in GTP); with --times whole, a time that is not a whole
number of seconds is a syntax error, as GTP defines times as integers, and
the engine exits when it must move untold of its time in whole seconds or
is sent decimals a third time in a game.

    fake_gtp.py [--implicit] [--fault illegal|crash|hang|garbage] [--at N]
                [--times any|none|whole]
"""

import argparse
import sys
import time

sys.path.insert(0, __import__("os").path.dirname(__file__))
from othello import Board, parse_square, square_name  # noqa: E402


def answer(ident, ok, text=""):
    mark = "=" if ok else "?"
    head = mark + (ident if ident is not None else "")
    sys.stdout.write((head + " " + text).rstrip() + "\n\n")
    sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--implicit", action="store_true")
    parser.add_argument("--fault", choices=["illegal", "crash", "hang", "garbage"])
    parser.add_argument("--at", type=int, default=3)
    parser.add_argument("--times", choices=["any", "none", "whole"], default="any")
    args = parser.parse_args()
    board = Board()
    genmoves = 0
    refused = 0
    told_whole = False
    for raw in sys.stdin:
        words = raw.split("#")[0].split()
        if not words:
            continue
        ident = None
        if words[0].isdigit():
            ident = words.pop(0)
        if not words:
            continue
        command, rest = words[0], words[1:]

        def colour_ok(colour):
            wanted = "black" if colour.lower() in ("b", "black") else "white"
            if wanted == board.side:
                return True
            if args.implicit and board.must_pass():
                board.play(None)
                return True
            return False

        if command == "protocol_version":
            answer(ident, True, "2")
        elif command == "name":
            answer(ident, True, "fake-gtp")
        elif command in ("time_settings", "time_left"):
            numbers = rest if command == "time_settings" else rest[1:]
            if args.times == "none":
                answer(ident, False, "unknown command")
            elif args.times == "whole" and not all(w.isdigit() for w in numbers):
                # A client that learns nothing from a refusal would send
                # decimals at every move: more than two in a game fail it.
                refused += 1
                if refused > 2:
                    sys.exit("times with decimals again and again")
                answer(ident, False, "syntax error")
            else:
                if command == "time_left" and args.times == "whole":
                    told_whole = True
                answer(ident, True)
        elif command in ("version", "komi"):
            answer(ident, True)
        elif command == "boardsize":
            answer(ident, rest == ["8"], "" if rest == ["8"] else "unacceptable size")
        elif command == "clear_board":
            board = Board()
            refused = 0
            answer(ident, True)
        elif command == "play":
            colour, vertex = rest[0], rest[1]
            if vertex.lower() in ("pass", "pa"):
                wanted = "black" if colour.lower() in ("b", "black") else "white"
                ok = wanted == board.side and board.play(None)
                answer(ident, ok, "" if ok else "illegal pass")
                continue
            if not colour_ok(colour):
                answer(ident, False, "wrong color")
                continue
            ok = board.play(parse_square(vertex))
            answer(ident, ok, "" if ok else "illegal move")
        elif command == "genmove":
            if not colour_ok(rest[0]):
                answer(ident, False, "wrong color")
                continue
            genmoves += 1
            if args.times == "whole" and not told_whole:
                sys.exit("genmove before any time_left in whole seconds")
            moves = board.legal_moves()
            if args.fault and genmoves == args.at:
                if args.fault == "crash":
                    sys.exit(1)
                if args.fault == "hang":
                    time.sleep(3600)
                if args.fault == "garbage":
                    answer(ident, True, "xyz")
                    continue
                answer(ident, True, square_name(*sorted(board.cells)[0]))
                continue
            if not moves:
                board.play(None)
                answer(ident, True, "pass")
                continue
            move = moves[-1]
            board.play(move)
            answer(ident, True, square_name(*move).upper())
        elif command == "quit":
            answer(ident, True)
            return
        else:
            answer(ident, False, "unknown command")


if __name__ == "__main__":
    main()
