"""oxello.engine: engines in other processes over NBoard, GTP and Gomocup,
refereed games, faults."""

import sys

import pytest

import oxello
from oxello import engine as engines
from oxello import gomoku


def test_nboard_and_gtp_engines_play_legal_moves(oxello_bin):
    board = oxello.Board.from_transcript("f5d6c3")
    for start in (engines.popen_nboard, engines.popen_gtp):
        protocol = "nboard" if start is engines.popen_nboard else "gtp"
        with start([oxello_bin, protocol, "--level", "4", "--threads", "1"]) as other:
            reply = other.play(board, time=1.0)
            assert board.is_legal(reply.move) and 0 <= reply.time < 2.0
            board.push(reply.move)
            assert board.is_legal(other.play(board, depth=2).move)
            board.pop()


def test_a_refereed_game_against_oxello_nboard(oxello_bin):
    local = engines.local(2, name="inside")
    other = engines.popen_nboard([oxello_bin, "nboard", "--level", "2", "--threads", "1"], name="outside")
    game = engines.play_game(local, other, opening=oxello.Board.from_transcript("f5d6"), time=2.0)
    assert game.forfeit is None and game.board.is_game_over()
    assert game.result == game.board.score() and game.winner == game.board.winner()
    assert game.record.startswith("(;GM[Othello]") and "PB[inside]" in game.record
    assert game.moves[:2] == ["f5", "d6"]
    again = engines.play_game(other, local, clock="30+0.1")
    assert again.forfeit is None
    with pytest.raises(ValueError):
        engines.play_game(local, local)
    with pytest.raises(ValueError):
        engines.play_game(local, other, clock="soon")
    other.quit()
    with pytest.raises(RuntimeError):
        other.play(oxello.Board())


def test_faults_are_engine_errors(tmp_path):
    missing = engines.popen_nboard([str(tmp_path / "no-such-engine")])
    with pytest.raises(oxello.EngineError) as raised:
        missing.play(oxello.Board())
    assert raised.value.kind == "crash"
    # An engine that answers nonsense, then an illegal move.
    script = tmp_path / "bad_nboard.py"
    script.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    words = line.split()\n"
        "    if words[:1] == ['ping']: print('pong', words[1], flush=True)\n"
        "    elif words[:1] == ['go']: print('=== A1', flush=True)\n"
    )
    bad = engines.popen_nboard([sys.executable, str(script)], name="bad")
    with pytest.raises(oxello.EngineError) as raised:
        bad.play(oxello.Board(), time=2.0)
    assert raised.value.kind == "illegal-move" and "a1" in str(raised.value)
    game = engines.play_game(bad, engines.local(1), time=2.0)
    assert game.forfeit[:2] == ("black", "illegal-move") and game.winner == "white"
    assert game.result == -64


def test_gomocup_engines(pbrain_bin):
    board = gomoku.Board.from_moves("h8i9")
    with engines.popen_gomocup([pbrain_bin], info={"max_node": 5000}) as brain:
        reply = brain.play(board, turn=1.0)
        assert board.stone_at(reply.move) is None
        game = engines.play_gomoku_game(brain, engines.local_gomoku("greedy"), turn=1.0,
                                        opening=gomoku.Board(11, rule="standard"))
        assert game.forfeit is None and game.winner in ("black", "white", "draw")
        assert game.record.startswith("(;")
    with pytest.raises(ValueError):
        engines.play_gomoku_game(engines.local_gomoku(), engines.local_gomoku(),
                                 opening=gomoku.Board(9, n_in_row=4))
    with pytest.raises(ValueError):
        engines.local_gomoku("positional")
    with pytest.raises(TypeError):
        engines.popen_gomocup("pbrain-oxello")
