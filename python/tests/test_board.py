"""oxello.Board: moves, errors, history, formats, symmetries, perft."""

import copy
import pickle

import pytest

import oxello

START = "---------------------------OX------XO--------------------------- X"


def test_start_position_and_moves():
    board = oxello.Board()
    assert board.size == 8 and board.turn == "black" and board.ply == 0
    assert board.legal_moves == ["d3", "c4", "f5", "e6"]
    assert board.legal_squares == [19, 26, 37, 44]
    assert board.disc_count() == (2, 2)
    board.push("f5")
    board.push(43)  # d6
    board.push("C3")
    assert board.moves == ["f5", "d6", "c3"]
    assert board.turn == "white"
    assert board.pop() == "c3"
    assert board.board_string() == oxello.Board.from_transcript("f5d6").board_string()
    assert board.transcript() == "f5d6"
    assert board.result() == "*" and board.score() is None and board.winner() is None


@pytest.mark.parametrize("size", [4, 6, 8])
def test_sizes(size):
    board = oxello.Board(size)
    assert board.size == size
    assert board.empties == size * size - 4
    assert board.to_planes().shape == (4, size, size)


@pytest.mark.parametrize("bad", ["a1", "i9", "", "f55", "pass", 64, -1, 3])
def test_illegal_or_malformed_moves_leave_the_board(bad):
    board = oxello.Board.from_transcript("f5d6")
    before = (board.board_string(), board.moves)
    with pytest.raises(ValueError):
        board.push(bad)
    assert oxello.IllegalMoveError.__mro__[1] is ValueError
    assert (board.board_string(), board.moves) == before
    assert not board.is_legal(bad)


@pytest.mark.parametrize("bad", [None, 1.5, True, ["f5"], object()])
def test_wrong_types_raise_type_error(bad):
    board = oxello.Board()
    with pytest.raises(TypeError):
        board.push(bad)
    assert board.ply == 0


def test_wrong_sizes_and_pop_at_start():
    for size in (0, 5, 7, 10):
        with pytest.raises(ValueError):
            oxello.Board(size)
    with pytest.raises(IndexError):
        oxello.Board().pop()


def test_pass_and_game_over():
    # White has no move; Black plays on.
    board = oxello.Board.from_string("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO- O")
    assert board.legal_moves == [oxello.PASS]
    with pytest.raises(ValueError):
        board.push("h8")
    board.push(oxello.PASS)
    assert board.turn == "black"
    board.push("h8")
    assert board.is_game_over() and board.legal_moves == []
    assert board.result() == "64-0" and board.score() == 64 and board.winner() == "black"
    with pytest.raises(ValueError):
        board.push(oxello.PASS)
    assert board.pop() == "h8" and board.pop() == "pass"


def test_constructors_from_formats():
    game = oxello.Board.from_transcript("f5 d6 c3 d3 c4")
    ggf = game.ggf()
    assert ggf.startswith("(;GM[Othello]")
    assert oxello.Board.from_ggf(ggf).moves == game.moves
    line = START + "; F5:+0; D3:+0;"
    assert oxello.Board.from_obf(line) == oxello.Board()
    assert oxello.Board.from_string(START) == oxello.Board()
    with pytest.raises(ValueError):
        oxello.Board.from_string("XO")
    with pytest.raises(ValueError):
        oxello.Board.from_transcript("f5f5")
    with pytest.raises(ValueError):
        oxello.Board.from_ggf("(;GM[Othello]")
    with pytest.raises(ValueError):
        oxello.Board.from_obf("% only a comment")


def test_equality_hash_copy():
    a = oxello.Board.from_transcript("f5d6")
    b = oxello.Board.from_transcript("f5d6")
    assert a == b and hash(a) == hash(b) and a != oxello.Board() and a != "f5d6"
    c = a.copy()
    c.push("c3")
    assert a.ply == 2 and c.ply == 3
    assert copy.deepcopy(a) == a and copy.copy(a).moves == a.moves
    assert len({a, b, oxello.Board()}) == 2


def test_symmetries():
    board = oxello.Board.from_transcript("f5d6c3")
    images = board.symmetries()
    assert len(images) == 8 == len(oxello.SYMMETRIES)
    assert images[0] == board
    # Four symmetries keep the start position; their images of f5 are the
    # four first moves. The mirrors swap its colours.
    images_of_f5 = oxello.Board.from_transcript("f5").symmetries()
    kept = {b.moves[0] for b in images_of_f5 if b.copy().pop() and _start(b)}
    assert kept == {"d3", "c4", "f5", "e6"}
    for image in images:
        assert image.disc_count() == board.disc_count()
        assert len(image.legal_moves) == len(board.legal_moves)
        image.pop()  # history is transformed too
    assert board.transform("rotate90").transform("rotate270") == board
    with pytest.raises(ValueError):
        board.transform("spin")
    with pytest.raises(ValueError):
        board.transform(8)


def _start(board):
    board = board.copy()
    while board.ply:
        board.pop()
    return board == oxello.Board()


def test_diagram_and_svg():
    board = oxello.Board()
    text = str(board)
    assert " 4 - - . O X - - - 4    Black (X) to move" in text
    assert "legal: d3 c4 f5 e6" in text
    svg = board._repr_svg_()
    assert svg.startswith("<svg") and svg.count("<circle") == 4 + 4
    assert repr(board) == f"oxello.Board.from_string('{START}')"


def test_piece_at_and_bitboards():
    board = oxello.Board()
    assert board.piece_at("d4") == "white" and board.piece_at(28) == "black"
    assert board.piece_at("a1") is None
    black, white = board.bitboards
    assert bin(black).count("1") == 2 and black & white == 0
    with pytest.raises(ValueError):
        board.piece_at("z9")


# Perft counts of the 8x8 start (passes count as plies), the published ones.
PERFT = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288]


@pytest.mark.parametrize("depth", range(len(PERFT)))
def test_perft_counts(depth):
    assert oxello.Board().perft(depth) == PERFT[depth]


@pytest.mark.parametrize("size,depth", [(4, 10), (6, 8), (8, 8)])
def test_perft_matches_the_command_line(run_cli, size, depth):
    out = run_cli("perft", "--size", size, "--depth", depth)
    expected = int(next(line.split()[1] for line in out.splitlines() if line.startswith("leaves ")))
    assert oxello.Board(size).perft(depth) == expected
    assert oxello.Board(size).perft(depth, passes="free") > 0
    with pytest.raises(ValueError):
        oxello.Board().perft(3, passes="sometimes")


def test_planes_layout():
    board = oxello.Board.from_transcript("f5")
    planes = board.to_planes()
    assert planes.dtype.name == "float32"
    # White to move: plane 0 White's discs, plane 1 Black's, 2 the last move, 3 zeros.
    assert planes[0].sum() == 1 and planes[1].sum() == 4
    assert planes[2][4][5] == 1 and planes[2].sum() == 1
    assert planes[3].sum() == 0
    assert oxello.Board().to_planes()[3].sum() == 64
