"""A notebook session as a script: open a game of the WTHOR database,
look at it, let oxello analyse every move, and plot the evaluation graph.

    python python/examples/analyse_wthor.py [FILE.wtb] [GAME] [--depth 10] [--out game]

Without a file it takes the last .wtb file of ../shared/games/wthor, game 0.
It writes the graph as PNG with matplotlib when it is installed, and always
as SVG (oxello's own chart); a text graph is printed as well.
"""

import argparse
import pathlib
import sys
import time

import oxello

parser = argparse.ArgumentParser()
parser.add_argument("file", nargs="?", help="a WTHOR .wtb file")
parser.add_argument("game", nargs="?", type=int, default=0, help="game number, from 0")
parser.add_argument("--depth", type=int, default=10, help="midgame search depth")
parser.add_argument("--exact-from", type=int, default=20, help="solve exactly from this many empties")
parser.add_argument("--out", default="game", help="file name stem of the graphs")
args = parser.parse_args()

if args.file:
    path = pathlib.Path(args.file)
else:
    folder = pathlib.Path(__file__).resolve().parents[3] / "shared" / "games" / "wthor"
    files = sorted(folder.glob("*.wtb"))
    if not files:
        sys.exit(f"no .wtb file in {folder}: give one")
    path = files[-1]

# In [1]: the database as arrays, and the game as a board.
games = oxello.read_wthor(path)
names_file = path.with_name("WTH.JOU")
names = oxello.read_wthor_names(names_file) if names_file.exists() else []
row = args.game
black = names[games["black_player"][row]] if names else "Black"
white = names[games["white_player"][row]] if names else "White"
print(f"{path.name}: {len(games['moves'])} games of {games['year']}; game {row}: {black} - {white}, "
      f"{games['black_score'][row]} discs for Black")
board = oxello.Board.from_wthor(path, row)
print(board.transcript())
print(board)

# In [2]: the analysis, every move against the engine's best.
engine = oxello.Engine(hash_mb=128)
started = time.monotonic()
# Progress on a terminal only, on stderr: stdout keeps the table.
def progress(done, total):
    if sys.stderr.isatty():
        print(f"\r{done}/{total} moves", end="" if done < total else "\n", file=sys.stderr, flush=True)

analysis = engine.analyse(board, depth=args.depth, exact_from=args.exact_from, progress=progress)
print(f"analysed in {time.monotonic() - started:.1f} s")
print(analysis.table(label=f"{path.name} #{row}", black=black, white=white))

# In [3]: the worst moves.
worst = sorted((m for m in analysis.moves if m.loss), key=lambda m: -m.loss)[:5]
for move in worst:
    print(f"  move {move.ply:>2} {move.color:<5} {move.move}: {move.played_score:+} "
          f"(best {move.best_move} {move.best_score:+}), loses {move.loss} ({move.judgement})")

# In [4]: the evaluation graph.
plies, best, played = analysis.graph()
svg = pathlib.Path(args.out + ".svg")
svg.write_text(analysis.svg(label=f"{path.name} #{row}", black=black, white=white))
print(f"wrote {svg}")
try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(9, 4))
    axes.plot(plies, best, label="best play")
    axes.plot(plies, played, label="move played", linestyle="--")
    axes.axhline(0, color="grey", linewidth=0.5)
    axes.set_xlabel("move")
    axes.set_ylabel("score for Black (discs)")
    axes.set_title(f"{black} - {white}")
    axes.legend()
    png = pathlib.Path(args.out + ".png")
    figure.savefig(png, dpi=100, bbox_inches="tight")
    print(f"wrote {png}")
except ImportError:
    print("(matplotlib is not installed: no PNG)")

# A text graph: one row per move, the bar at the score for Black.
for ply, score in zip(plies, played):
    bar = int(round(max(-32, min(32, score)) / 2))
    line = [" "] * 33
    line[16] = "|"
    line[16 + bar] = "*"
    print(f"{ply:>3} {score:+4d} {''.join(line)}")
