from typing import Dict, List, Optional, Sequence, Tuple

from . import gomoku
from ._oxello import Board, EngineError

class PlayResult:
    move: str
    eval: Optional[float]
    time: float

class MatchGame:
    record: str
    result: int
    winner: str
    forfeit: Optional[Tuple[str, str, str]]
    moves: List[str]
    board: Optional[Board]

class OthelloPlayer:
    name: str
    def play(
        self,
        board: Board,
        *,
        time: Optional[float] = None,
        depth: Optional[int] = None,
        grace: float = 1.0,
        move_timeout: float = 60.0,
    ) -> PlayResult: ...
    def quit(self) -> None: ...
    def __enter__(self) -> "OthelloPlayer": ...
    def __exit__(self, *args: object) -> bool: ...

class GomokuPlayer:
    name: str
    def play(
        self, board: gomoku.Board, *, turn: Optional[float] = None, tolerance: float = 1.0, move_timeout: float = 60.0
    ) -> PlayResult: ...
    def quit(self) -> None: ...
    def __enter__(self) -> "GomokuPlayer": ...
    def __exit__(self, *args: object) -> bool: ...

def popen_nboard(command: Sequence[str], *, name: Optional[str] = None, startup_timeout: float = 10.0) -> OthelloPlayer: ...
def popen_gtp(command: Sequence[str], *, name: Optional[str] = None, startup_timeout: float = 10.0) -> OthelloPlayer: ...
def popen_gomocup(
    command: Sequence[str],
    *,
    name: Optional[str] = None,
    startup_timeout: float = 10.0,
    info: Optional[Dict[str, object]] = None,
) -> GomokuPlayer: ...
def local(
    level: int = 10, *, depth: Optional[int] = None, hash_mb: int = 16, threads: int = 1, name: Optional[str] = None
) -> OthelloPlayer: ...
def local_gomoku(player: str = "greedy", *, name: Optional[str] = None) -> GomokuPlayer: ...
def play_game(
    black: OthelloPlayer,
    white: OthelloPlayer,
    *,
    opening: Optional[Board] = None,
    time: Optional[float] = None,
    clock: Optional[str] = None,
    depth: Optional[int] = None,
    grace: float = 1.0,
    move_timeout: float = 60.0,
) -> MatchGame: ...
def play_gomoku_game(
    black: GomokuPlayer,
    white: GomokuPlayer,
    *,
    opening: Optional[gomoku.Board] = None,
    turn: Optional[float] = None,
    match_time: Optional[float] = None,
    tolerance: float = 1.0,
    move_timeout: float = 60.0,
) -> MatchGame: ...
