"""Engines outside the process, as python-chess's ``chess.engine`` drives
them, with the rules of ``oxello match``: one command at a time, time
allowances with a grace, and a fault (crash, time-out, illegal move, bad
output) raised as ``EngineError`` or, in a refereed game, losing it.

>>> import oxello
>>> with oxello.engine.popen_nboard(["oxello", "nboard"]) as other:
...     board = oxello.Board()
...     board.push(other.play(board, time=0.5).move)
"""

from typing import Dict, Optional, Sequence, Union

from ._oxello import EngineError
from ._oxello import engine as _engines

GomokuPlayer = _engines.GomokuPlayer
MatchGame = _engines.MatchGame
OthelloPlayer = _engines.OthelloPlayer
PlayResult = _engines.PlayResult
play_game = _engines.play_game
play_gomoku_game = _engines.play_gomoku_game

__all__ = [
    "EngineError",
    "GomokuPlayer",
    "MatchGame",
    "OthelloPlayer",
    "PlayResult",
    "local",
    "local_gomoku",
    "play_game",
    "play_gomoku_game",
    "popen_gomocup",
    "popen_gtp",
    "popen_nboard",
]


def _command(command: Union[str, Sequence[str]]) -> list:
    if isinstance(command, str):
        raise TypeError(
            "give the command as a list of words, e.g. ['oxello', 'nboard']"
        )
    return [str(word) for word in command]


def popen_nboard(
    command: Sequence[str], *, name: Optional[str] = None, startup_timeout: float = 10.0
) -> OthelloPlayer:
    """An Othello engine speaking NBoard (``["oxello", "nboard"]``, NTest ``x``)."""
    return OthelloPlayer.popen(
        "nboard", _command(command), name=name, startup_timeout=startup_timeout
    )


def popen_gtp(
    command: Sequence[str], *, name: Optional[str] = None, startup_timeout: float = 10.0
) -> OthelloPlayer:
    """An Othello engine speaking GTP (``["oxello", "gtp"]``, ``edax -gtp``)."""
    return OthelloPlayer.popen(
        "gtp", _command(command), name=name, startup_timeout=startup_timeout
    )


def popen_gomocup(
    command: Sequence[str],
    *,
    name: Optional[str] = None,
    startup_timeout: float = 10.0,
    info: Optional[Dict[str, object]] = None,
) -> GomokuPlayer:
    """A gomoku engine speaking the Gomocup protocol (``pbrain-oxello``,
    ``pbrain-rapfi``); ``info`` adds ``INFO key value`` lines."""
    pairs = [(str(k), str(v)) for k, v in (info or {}).items()]
    return GomokuPlayer.popen(
        _command(command), name=name, startup_timeout=startup_timeout, info=pairs
    )


def local(
    level: int = 10,
    *,
    depth: Optional[int] = None,
    hash_mb: int = 16,
    threads: int = 1,
    name: Optional[str] = None,
) -> OthelloPlayer:
    """oxello in this process, as ``oxello match -e level:N`` plays it."""
    return OthelloPlayer.local(
        level, depth=depth, hash_mb=hash_mb, threads=threads, name=name
    )


def local_gomoku(player: str = "greedy", *, name: Optional[str] = None) -> GomokuPlayer:
    """One of oxello's simple gomoku players: ``"greedy"`` or ``"random"``."""
    return GomokuPlayer.local(player, name=name)
