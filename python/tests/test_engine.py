"""oxello.Engine: the same answers as the command line, stops, Ctrl-C,
the GIL, progress, bad options."""

import _thread
import json
import threading
import time

import pytest

import oxello

REPO_BENCH = __import__("pathlib").Path(__file__).resolve().parents[2] / "positions" / "bench.txt"
MIDGAME = "------------------XXX-----XXXO--OXOXXO--OOXOXO--O-XXO-----X----- X"


def bench_positions():
    for line in REPO_BENCH.read_text().splitlines():
        if line and not line.startswith("#"):
            kind, board = line.split(" ", 1)
            yield kind, board


@pytest.fixture(scope="module")
def engine():
    return oxello.Engine(level=10, threads=1, hash_mb=16)


def test_search_answers_the_json_schema(engine):
    board = oxello.Board.from_string(MIDGAME)
    result = engine.search(board, depth=6)
    fields = json.loads(result.to_json())
    assert set(fields) >= {"move", "score", "bound", "search", "depth", "selectivity", "pv", "nodes", "time", "nps"}
    assert result.move == fields["move"] == result.pv[0]
    assert result.depth == 6 and result.search == "midgame" and result.selectivity == 73
    assert result.bound == "exact" and result.nodes > 0 and result.stopped is None
    assert result.to_dict() == fields
    assert board.is_legal(result.move)


@pytest.mark.parametrize("level", [3, 8])
def test_search_matches_oxello_move(cli_json, level):
    board = oxello.Board.from_string(MIDGAME)
    engine = oxello.Engine(level=level, threads=1, hash_mb=64)
    mine = engine.search(board)
    # The binary's opening book would answer (or seed) positions it knows;
    # the Python engine plays without one.
    theirs = cli_json("move", MIDGAME, "--level", level, "--threads", 1, "--json", "--no-book")[0]
    assert (mine.move, mine.score, mine.depth, mine.nodes, mine.pv) == (
        theirs["move"], theirs["score"], theirs["depth"], theirs["nodes"], theirs["pv"]
    )


def test_bench_node_counts(run_cli):
    """`oxello bench --depth 6`: each midgame row's nodes are those of a
    one-thread search to depth 6 on a cleared table of the bench's 64 MiB,
    and its signature the sum over every row."""
    out = run_cli("bench", "--depth", 6)
    rows = [line.split("|") for line in out.splitlines() if line.strip()[:1].isdigit() and "|" in line]
    signature = int(out.split("signature")[-1])
    assert sum(int(row[6]) for row in rows) == signature
    engine = oxello.Engine(level=1, threads=1, hash_mb=64)
    positions = list(bench_positions())
    assert len(rows) == len(positions)
    for (kind, text), row in zip(positions, rows):
        board = oxello.Board.from_string(text)
        if kind != "midgame":
            continue
        engine.clear()
        result = engine.search(board, depth=6)
        assert (result.move, result.score, result.nodes) == (
            row[4].strip(), int(row[5]), int(row[6])
        ), text


def test_node_limited_searches_are_reproducible():
    engine = oxello.Engine(level=20, threads=1, hash_mb=16)
    board = oxello.Board.from_string(MIDGAME)
    answers = []
    for _ in range(2):
        engine.clear()
        result = engine.search(board, nodes=20000)
        answers.append((result.move, result.score, result.nodes, result.pv))
        assert result.nodes >= 20000 and result.stopped == "nodes"
    assert answers[0] == answers[1]


def test_solve_matches_oxello_solve(cli_json):
    position = next(board for kind, board in bench_positions() if kind == "endgame")
    engine = oxello.Engine(threads=1, hash_mb=64)
    mine = engine.solve(oxello.Board.from_string(position))
    theirs = cli_json("solve", position, "--threads", 1, "--json")[0]
    assert (mine.move, mine.score, mine.search, mine.nodes) == (
        theirs["move"], theirs["score"], theirs["search"], theirs["nodes"]
    )
    wld = engine.solve(oxello.Board.from_string(position), wld=True)
    assert wld.search == "wld" and wld.wld in ("win", "draw", "loss")
    assert (wld.score > 0) == (mine.score > 0)


def ffo_positions(shared):
    for line in (shared / "endgame" / "ffo-40-59.tsv").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        number, _empties, side, best, score, board = line.split("\t")
        yield int(number), f"{board} {side}", best.lower().split(","), int(score)


def test_ffo_40_to_44_exact_scores(shared):
    engine = oxello.Engine(threads=2, hash_mb=64)
    for number, board, best, score in ffo_positions(shared):
        if number > 44:
            break
        result = engine.solve(oxello.Board.from_string(board))
        assert (result.score, result.search, result.selectivity) == (score, "exact", 100), number
        assert result.move in best, number


def test_multi_pv_and_callback(engine):
    board = oxello.Board.from_string(MIDGAME)
    infos = []
    result = engine.search(board, depth=4, multi_pv=3, callback=infos.append)
    assert len(result.lines) == 3
    assert [line.rank for line in result.lines] == [0, 1, 2]
    assert len({line.move for line in result.lines}) == 3
    assert infos and all(isinstance(info, oxello.SearchResult) for info in infos)
    assert max(info.depth for info in infos) == 4


def test_iterations(engine):
    board = oxello.Board.from_string(MIDGAME)
    iterations = engine.iterations(board, depth=5)
    depths = [info.depth for info in iterations if info.rank == 0]
    assert depths == [1, 2, 3, 4, 5]
    assert iterations.result.depth == 5
    # An iterator dropped early stops its search; the engine goes on.
    first = next(iter(engine.iterations(board, depth=60)))
    assert first.depth >= 1
    assert engine.search(board, depth=3).depth == 3


def test_callback_errors_stop_the_search(engine):
    board = oxello.Board.from_string(MIDGAME)

    def fail(info):
        raise RuntimeError("enough")

    started = time.monotonic()
    with pytest.raises(RuntimeError, match="enough"):
        engine.search(board, depth=40, callback=fail)
    assert time.monotonic() - started < 5
    assert engine.search(board, depth=3).depth == 3


def after_start(engine_search, action, delay=0.1):
    """Runs `engine_search(callback)` and calls `action` from another thread
    `delay` seconds after the search's first iteration (a stop raised before
    a search starts does not stop it). Returns the result (or raises) and
    the seconds from the action to the end."""
    started = threading.Event()
    acted = []

    def act():
        if started.wait(30):
            time.sleep(delay)
            acted.append(time.monotonic())
            action()

    thread = threading.Thread(target=act)
    thread.start()
    try:
        result = engine_search(lambda info: started.set())
    finally:
        started.set()
        thread.join()
    return result, time.monotonic() - acted[0]


def test_stop_from_another_thread():
    engine = oxello.Engine(level=60, threads=1, hash_mb=16)
    board = oxello.Board.from_string(MIDGAME)
    # A level-60 search is a 46-empties solve; the time limit only keeps a
    # failing stop from hanging the suite.
    result, after = after_start(lambda cb: engine.search(board, time=60, callback=cb), engine.stop)
    assert after < 1.0, after
    assert result.stopped == "stop" and board.is_legal(result.move)
    assert engine.search(board, depth=3).depth == 3


def test_keyboard_interrupt_stops_the_search(sigint_raises):
    engine = oxello.Engine(level=60, threads=1, hash_mb=16)
    board = oxello.Board.from_string(MIDGAME)
    before = board.board_string()
    ended = []

    def search(callback):
        try:
            engine.search(board, time=60, callback=callback)
        except KeyboardInterrupt:
            ended.append(time.monotonic())
            raise

    with pytest.raises(KeyboardInterrupt):
        after_start(search, _thread.interrupt_main)
    assert ended
    assert board.board_string() == before
    result = engine.search(board, depth=4)
    assert result.depth == 4 and result.stopped is None


def test_the_gil_is_released_during_a_search():
    engine = oxello.Engine(level=60, threads=1, hash_mb=16)
    board = oxello.Board.from_string(MIDGAME)
    counts = []
    done = threading.Event()

    def count():
        n = 0
        while not done.is_set():
            n += 1
            if n % 1000 == 0:
                counts.append((time.monotonic(), n))

    counter = threading.Thread(target=count)
    counter.start()
    started = time.monotonic()
    try:
        result, _ = after_start(lambda cb: engine.search(board, time=60, callback=cb), engine.stop, delay=2.0)
    finally:
        done.set()
        counter.join()
    elapsed = time.monotonic() - started
    assert 2.0 < elapsed < 10.0 and result.stopped == "stop"
    during = [t for t, _ in counts if started + 0.5 < t < started + elapsed - 0.2]
    # The counter ran all through the search, not only before and after it.
    assert len(during) > 100
    assert max(b - a for a, b in zip(during, during[1:])) < 0.5


def test_engine_is_single_search_per_thread():
    engine = oxello.Engine(level=60, threads=1, hash_mb=16)
    board = oxello.Board.from_string(MIDGAME)
    errors = []

    def second():
        try:
            engine.search(board, depth=2)
        except RuntimeError as error:
            errors.append(error)
        engine.stop()

    after_start(lambda cb: engine.search(board, time=60, callback=cb), second)
    assert errors and "another thread" in str(errors[0])


@pytest.mark.parametrize(
    "options",
    [
        {"depth": 0}, {"depth": 61}, {"time": 0}, {"time": -1}, {"time": float("nan")},
        {"nodes": 0}, {"multi_pv": 0}, {"multi_pv": 65}, {"selectivity": 80},
    ],
)
def test_out_of_range_options(engine, options):
    with pytest.raises(ValueError):
        engine.search(oxello.Board(), **options)
    assert engine.search(oxello.Board(), depth=2).depth == 2


def test_bad_engine_options_and_types():
    for options in ({"level": 0}, {"level": 61}, {"level": "strong"}, {"threads": 0}, {"hash_mb": 0}):
        with pytest.raises(ValueError):
            oxello.Engine(**options)
    with pytest.raises(TypeError):
        oxello.Engine(level=1.5)
    engine = oxello.Engine(level="greedy", hash_mb=4)
    with pytest.raises(TypeError):
        engine.search("f5d6")
    assert engine.level == "greedy"
    result = engine.search(oxello.Board())
    assert result.move in oxello.Board().legal_moves
    assert (result.search, result.bound) == ("none", "none")
    engine.level = 5
    engine.threads = 1
    engine.hash_mb = 8
    assert (engine.level, engine.threads, engine.hash_mb) == ("5", 1, 8)
    with pytest.raises(ValueError):
        engine.threads = 0


def test_selectivity_and_evaluate(engine):
    board = oxello.Board.from_string(MIDGAME)
    assert engine.search(board, depth=4, selectivity=100).selectivity == 100
    assert -64 <= engine.evaluate(board) <= 64
    assert engine.evaluate(oxello.Board(4)) in range(-16, 17)
    assert engine.evaluate(oxello.Board(6)) in range(-36, 37)
    over = oxello.Board.from_string("X" * 63 + "O X")
    assert engine.evaluate(over) == over.score() == 62
    assert engine.search(over).move is None


def test_analyse_matches_oxello_analyze(cli_json):
    board = oxello.Board()
    player = oxello.Engine(level=2, threads=1, hash_mb=4)
    while not board.is_game_over():
        board.push(player.search(board).move)
    moves = board.transcript()
    engine = oxello.Engine(threads=1, hash_mb=64)
    seen = []
    analysis = engine.analyse(board, depth=3, exact_from=0, progress=lambda d, t: seen.append((d, t)))
    assert len(analysis) == len(board.moves) and seen[-1] == (len(board.moves),) * 2
    theirs = cli_json("analyze", moves, "--game", "--depth", 3, "--exact-from", 0, "--threads", 1, "--json")[0]
    mine = json.loads(analysis.to_json())
    assert mine["moves"] == theirs["moves"] and mine["totals"] == theirs["totals"]
    plies, best, played = analysis.graph()
    assert len(plies) == len(best) == len(played) == len([m for m in board.moves if m != "pass"])
    assert analysis.svg().startswith("<svg") and "ply" in analysis.table()
    first = analysis.moves[0]
    assert first.ply == 1 and first.move == board.moves[0] and first.judgement in ("good", "mistake", "blunder")
    with pytest.raises(ValueError):
        engine.analyse(board, depth=None)
