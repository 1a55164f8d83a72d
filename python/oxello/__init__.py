"""oxello: an Othello and gomoku engine for Python.

Boards with python-chess's vocabulary (``Board``, ``legal_moves``, ``push``,
``pop``), the engine (``Engine``: search, solve, analyse, evaluate), data
for learning (``Board.to_planes``, ``selfplay``, ``read_records``,
``read_wthor``), gomoku (``oxello.gomoku``) and engines in other processes
(``oxello.engine``). See docs/python.md in the repository.
"""

from ._oxello import (
    PASS,
    SYMMETRIES,
    Board,
    Engine,
    EngineError,
    GameAnalysis,
    IllegalMoveError,
    Iterations,
    MoveAnalysis,
    OxelloError,
    SearchResult,
    SelfplayBatches,
    __version__,
    read_records,
    read_wthor,
    read_wthor_names,
    selfplay,
)
from . import engine, gomoku

__all__ = [
    "PASS",
    "SYMMETRIES",
    "Board",
    "Engine",
    "EngineError",
    "GameAnalysis",
    "IllegalMoveError",
    "Iterations",
    "MoveAnalysis",
    "OxelloError",
    "SearchResult",
    "SelfplayBatches",
    "__version__",
    "engine",
    "gomoku",
    "read_records",
    "read_wthor",
    "read_wthor_names",
    "selfplay",
]
