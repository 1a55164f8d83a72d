"""oxello.gomoku: boards under the four rules, planes, the engine."""

import _thread
import threading
import time

import numpy as np
import pytest

import oxello
from oxello import gomoku


def test_board_moves_and_errors():
    board = gomoku.Board(15)
    assert (board.width, board.height, board.n_in_row, board.rule) == (15, 15, 5, "freestyle")
    assert len(board.legal_moves) == 225 and board.turn == "black"
    board.push("h8")
    board.push((8, 8))
    board.push(7 * 15 + 8)
    board.push("6,6")
    assert board.moves == ["h8", "i9", "i8", "g7"]
    for bad in ("h8", "z1", (15, 0), (-1, 0), 225, "x"):
        with pytest.raises(ValueError):
            board.push(bad)
    for bad in (None, 1.5, True):
        with pytest.raises(TypeError):
            board.push(bad)
    assert board.moves == ["h8", "i9", "i8", "g7"]
    assert board.pop() == "g7" and board.turn == "white"
    assert gomoku.Board.from_moves("h8i9i8") == board.copy()
    with pytest.raises(IndexError):
        gomoku.Board(9).pop()


@pytest.mark.parametrize("options", [{"width": 4}, {"width": 23}, {"n_in_row": 7},
                                     {"rule": "go"}, {"width": 19, "rule": "renju"}])
def test_bad_configurations(options):
    with pytest.raises(ValueError):
        gomoku.Board(**options)


def test_winners_under_the_rules():
    board = gomoku.Board.from_moves("h8h9i8i9j8j9k8k9")
    assert board.winner() is None
    assert board.push("l8") == "black" and board.is_game_over() and board.legal_moves == []
    with pytest.raises(ValueError):
        board.push("a1")
    # Standard: an overline does not win.
    standard = gomoku.Board.from_moves("h8h9i8i9j8j9l8l9m8m9", rule="standard")
    standard.push("k8")
    assert standard.winner() is None
    free = gomoku.Board.from_moves("h8h9i8i9j8j9l8l9m8m9")
    free.push("k8")
    assert free.winner() == "black"
    # Small boards, n in a row.
    small = gomoku.Board.from_moves("a1b1a2b2a3", width=5, n_in_row=3)
    assert small.winner() == "black"


def test_renju_forbidden_points():
    board = gomoku.Board.from_moves("h8h9i7i9h10i6i11i12", rule="renju")
    assert board.turn == "black"
    assert "g9" in board.forbidden_points() and board.is_forbidden("g9")
    assert not board.is_forbidden("a1")
    assert "g9" in board.legal_moves  # legal, and losing
    assert board.push("g9") == "white"
    assert gomoku.Board.from_moves("h8h9i7i9h10i6i11i12").forbidden_points() == []


def test_planes():
    board = gomoku.Board.from_moves("h8i9", width=15, height=11)
    planes = board.to_planes()
    assert planes.shape == (4, 11, 15) and planes.dtype == np.float32
    assert planes[0][7][7] == 1 and planes[1][8][8] == 1  # Black to move: own stones first
    assert planes[2][8][8] == 1 and planes[2].sum() == 1
    assert planes[3].all()
    board.push("a1")
    assert not board.to_planes()[3].any()


def test_selfplay_planes_equal_the_command_lines(run_cli, tmp_path):
    path = tmp_path / "g.npz"
    run_cli("selfplay", "--game", "gomoku", "--size", 9, "--games", 2, "--nodes", 1500,
            "--depth", 4, "--format", "npz", "--output", path)
    expected = np.load(path)
    batches = list(oxello.selfplay(2, game="gomoku", size=9, nodes=1500, depth=4))
    states = np.concatenate([b[0] for b in batches])
    assert states.shape[1:] == (4, 9, 9)
    assert np.array_equal(states, expected["states"])
    assert np.array_equal(np.concatenate([b[1] for b in batches]), expected["mcts_probs"])


def test_engine_takes_the_five():
    engine = gomoku.Engine(hash_mb=16)
    board = gomoku.Board.from_moves("h8h9i8i9j8j9k8k9")
    result = engine.search(board, depth=4)
    assert result.move in ("g8", "l8") and result.source in ("vcf", "vct", "forced", "search")
    infos = []
    quiet = gomoku.Board.from_moves("h8i9")
    result = engine.search(quiet, depth=4, callback=infos.append)
    assert result.depth == 4 and quiet.stone_at(result.move) is None
    assert [i.depth for i in infos] == [1, 2, 3, 4]
    for options in ({"depth": 0}, {"time": -1}, {"nodes": 0}):
        with pytest.raises(ValueError):
            engine.search(quiet, **options)
    with pytest.raises(ValueError):
        engine.search(board.copy() if board.push("l8") else board)


def test_engine_stop_and_interrupt(sigint_raises):
    engine = gomoku.Engine(hash_mb=16)
    board = gomoku.Board.from_moves("h8i9i8")

    def after_start(action):
        started = threading.Event()

        def act():
            if started.wait(30):
                time.sleep(0.1)
                action()

        thread = threading.Thread(target=act)
        thread.start()
        try:
            begun = time.monotonic()
            result = engine.search(board, time=60, callback=lambda info: started.set())
            return result, time.monotonic() - begun
        finally:
            started.set()
            thread.join()

    result, elapsed = after_start(engine.stop)
    assert elapsed < 5 and result.move is not None
    with pytest.raises(KeyboardInterrupt):
        after_start(_thread.interrupt_main)
    assert board.moves == ["h8", "i9", "i8"]
    assert engine.search(board, depth=2).depth == 2
