"""Data for learning: self-play batches identical to `selfplay --format
npz`, the record readers, the WTHOR readers."""

import struct
import time

import numpy as np
import pytest

import oxello


def concat(batches):
    states, policies, outcomes = zip(*batches)
    return np.concatenate(states), np.concatenate(policies), np.concatenate(outcomes)


@pytest.mark.parametrize("shard", ["1/1", "2/2"])
def test_selfplay_batches_equal_the_command_lines_npz(run_cli, tmp_path, shard):
    path = tmp_path / "sp.npz"
    run_cli("selfplay", "--games", 3, "--seed", 7, "--level", 2, "--shard", shard,
            "--format", "npz", "--output", path, "--threads", 2)
    expected = np.load(path)
    batches = list(oxello.selfplay(3, seed=7, level=2, shard=shard, threads=2))
    assert len(batches) == (3 if shard == "1/1" else 1)  # one game per batch
    states, policies, outcomes = concat(batches)
    assert states.dtype == np.float32 and states.shape[1:] == (4, 8, 8)
    assert np.array_equal(states, expected["states"])
    assert np.array_equal(policies, expected["mcts_probs"])
    assert np.array_equal(outcomes, expected["winner"])
    # The same rows in batches of 50, whatever the threads.
    sized = list(oxello.selfplay(3, seed=7, level=2, shard=shard, threads=1, batch_size=50))
    assert all(len(b[0]) == 50 for b in sized[:-1]) and 0 < len(sized[-1][0]) <= 50
    assert np.array_equal(concat(sized)[0], expected["states"])


def test_board_planes_are_the_npz_planes(run_cli, tmp_path):
    path = tmp_path / "sp.npz"
    run_cli("selfplay", "--games", 1, "--seed", 3, "--level", 1, "--format", "npz", "--output", path)
    states = np.load(path)["states"]
    for row in states[:10]:
        own, other, _last, colour = row
        black_to_move = colour.all()
        black, white = (own, other) if black_to_move else (other, own)
        text = "".join("X" if b else "O" if w else "-" for b, w in zip(black.flat, white.flat))
        board = oxello.Board.from_string(text + (" X" if black_to_move else " O"))
        planes = board.to_planes()
        assert np.array_equal(planes[[0, 1, 3]], row[[0, 1, 3]])


def test_read_records_binary_and_jsonl(run_cli, tmp_path):
    npz, jsonl, binary = (tmp_path / name for name in ("sp.npz", "sp.jsonl", "sp.bin"))
    for path, fmt in ((npz, "npz"), (jsonl, "jsonl"), (binary, "binary")):
        run_cli("selfplay", "--games", 2, "--seed", 5, "--level", 1, "--format", fmt, "--output", path)
    expected = np.load(npz)
    for path in (jsonl, binary):
        records = oxello.read_records(path)
        assert np.array_equal(records["states"], expected["states"])
        assert np.array_equal(records["policies"], expected["mcts_probs"])
        assert np.array_equal(records["outcomes"], expected["winner"])
        n = len(records["states"])
        for column in ("game", "ply", "move", "score", "outcome", "depth", "exact"):
            assert records[column].shape == (n,), column
        assert set(records["game"]) == {0, 1}
        # The move played is where the policy is (temperature > 0 draws among the best).
        assert (records["policies"][np.arange(n), records["move"]] > 0).all()
    with pytest.raises(FileNotFoundError):
        oxello.read_records(tmp_path / "missing.jsonl")
    (tmp_path / "bad.jsonl").write_text("{not json}\n")
    with pytest.raises(ValueError):
        oxello.read_records(tmp_path / "bad.jsonl")


def test_selfplay_options_are_checked():
    for options in ({"games": 0}, {"games": 1, "batch_size": 0}, {"games": 1, "nodes": 0},
                    {"games": 1, "temperature": -1}, {"games": 1, "shard": "3/2"},
                    {"games": 1, "game": "chess"}, {"games": 1, "size": 5},
                    {"games": 1, "rule": "renju"}, {"games": 1, "game": "gomoku", "level": 3},
                    {"games": 1, "random_moves": "x"}, {"games": 1, "score_moves": "some"}):
        with pytest.raises(ValueError):
            oxello.selfplay(**options)


def test_selfplay_can_be_dropped_early():
    batches = oxello.selfplay(50, seed=1, level=1, threads=2)
    first = next(batches)
    assert first[0].shape[1:] == (4, 8, 8)
    time.sleep(1.0)  # the run fills its channel and waits
    started = time.monotonic()
    batches.close()
    assert list(batches) == [] and time.monotonic() - started < 5
    dropped = oxello.selfplay(50, seed=1, level=1, threads=2)
    next(dropped)
    time.sleep(1.0)
    del dropped  # stops and joins the run, which was waiting on a full channel


def wthor_bytes(games):
    header = bytes([20, 24, 1, 1]) + struct.pack("<IHHBBBB", len(games), 0, 2024, 8, 0, 22, 0)
    body = b""
    for tournament, black, white, score, moves in games:
        record = struct.pack("<HHHBB", tournament, black, white, score, score)
        record += bytes(10 * (1 + "12345678".index(m[1])) + 1 + "abcdefgh".index(m[0]) for m in moves)
        body += record.ljust(68, b"\0")
    return header + body


def test_read_wthor(tmp_path):
    path = tmp_path / "WTH_2024.wtb"
    path.write_bytes(wthor_bytes([(1, 2, 3, 40, ["f5", "d6", "c3"]), (0, 4, 5, 30, ["e6"])]))
    games = oxello.read_wthor(path)
    assert games["moves"].shape == (2, 60) and games["moves"].dtype == np.int8
    assert list(games["moves"][0][:4]) == [37, 43, 18, -1]
    assert list(games["black_score"]) == [40, 30] and list(games["white_player"]) == [3, 5]
    assert games["year"] == 2024
    board = oxello.Board.from_wthor(path, 0)
    assert board.moves == ["f5", "d6", "c3"]
    with pytest.raises(IndexError):
        oxello.Board.from_wthor(path, 2)
    names = tmp_path / "WTH.JOU"
    names.write_bytes(bytes([20, 24, 1, 1]) + struct.pack("<IHHBBBB", 0, 2, 0, 0, 0, 0, 0)
                      + b"Alice".ljust(20, b"\0") + b"Bob".ljust(20, b"\0"))
    assert oxello.read_wthor_names(names) == ["Alice", "Bob"]
    (tmp_path / "short.wtb").write_bytes(path.read_bytes()[:50])
    with pytest.raises(ValueError):
        oxello.read_wthor(tmp_path / "short.wtb")
    with pytest.raises(FileNotFoundError):
        oxello.read_wthor(tmp_path / "none.wtb")
    with pytest.raises(OSError):
        oxello.read_wthor(tmp_path)


def test_read_the_shared_wthor_base(shared):
    files = sorted((shared / "games" / "wthor").glob("*.wtb"))
    if not files:
        pytest.skip("no .wtb file in the shared data")
    games = oxello.read_wthor(files[-1])
    assert len(games["moves"]) > 0
    board = oxello.Board.from_wthor(files[-1], 0)
    assert board.ply >= (games["moves"][0] >= 0).sum()
    names = oxello.read_wthor_names(shared / "games" / "wthor" / "WTH.JOU")
    assert len(names) > max(games["black_player"])
