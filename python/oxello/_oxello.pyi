"""Type stubs of the extension module: Othello boards, the engine, analysis
and data. The gomoku and external-engine classes are typed in gomoku.pyi
and engine.pyi."""

from os import PathLike
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str
PASS: str
SYMMETRIES: List[str]

Move = Union[str, int]
Path = Union[str, "PathLike[str]"]
Batch = Tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.float32]]

class OxelloError(Exception): ...
class IllegalMoveError(ValueError): ...

class EngineError(OxelloError):
    kind: str
    detail: str

class Board:
    def __init__(self, size: int = 8) -> None: ...
    @classmethod
    def from_string(cls, text: str) -> "Board": ...
    @classmethod
    def from_transcript(cls, text: str, size: int = 8) -> "Board": ...
    @classmethod
    def from_ggf(cls, text: str) -> "Board": ...
    @classmethod
    def from_obf(cls, line: str) -> "Board": ...
    @classmethod
    def from_wthor(cls, path: Path, index: int) -> "Board": ...
    @property
    def size(self) -> int: ...
    @property
    def turn(self) -> str: ...
    @property
    def legal_moves(self) -> List[str]: ...
    @property
    def legal_squares(self) -> List[int]: ...
    @property
    def legal_mask(self) -> int: ...
    @property
    def moves(self) -> List[str]: ...
    @property
    def ply(self) -> int: ...
    @property
    def empties(self) -> int: ...
    @property
    def bitboards(self) -> Tuple[int, int]: ...
    def is_legal(self, move: Move) -> bool: ...
    def push(self, move: Move) -> None: ...
    def pop(self) -> str: ...
    def is_game_over(self) -> bool: ...
    def result(self) -> str: ...
    def score(self) -> Optional[int]: ...
    def winner(self) -> Optional[str]: ...
    def disc_count(self) -> Tuple[int, int]: ...
    def piece_at(self, square: Move) -> Optional[str]: ...
    def copy(self) -> "Board": ...
    def transform(self, symmetry: Union[str, int]) -> "Board": ...
    def symmetries(self) -> List["Board"]: ...
    def board_string(self) -> str: ...
    def transcript(self) -> str: ...
    def ggf(self) -> str: ...
    def to_planes(self) -> npt.NDArray[np.float32]: ...
    def perft(self, depth: int, passes: str = "ply") -> int: ...
    def _repr_svg_(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class SearchResult:
    move: Optional[str]
    score: int
    bound: str
    search: str
    wld: Optional[str]
    depth: int
    selectivity: int
    pv: List[str]
    nodes: int
    time: float
    nps: int
    rank: int
    lines: List["SearchResult"]
    stopped: Optional[str]
    def to_json(self) -> str: ...
    def to_dict(self) -> Dict[str, Any]: ...

class Iterations(Iterator[SearchResult]):
    @property
    def result(self) -> Optional[SearchResult]: ...
    def stop(self) -> None: ...
    def __iter__(self) -> "Iterations": ...
    def __next__(self) -> SearchResult: ...

class MoveAnalysis:
    ply: int
    color: str
    move: str
    empties: int
    forced: bool
    best_move: Optional[str]
    best_score: Optional[int]
    played_score: Optional[int]
    loss: Optional[int]
    judgement: Optional[str]
    search: Optional[str]
    depth: Optional[int]

class GameAnalysis:
    @property
    def moves(self) -> List[MoveAnalysis]: ...
    @property
    def result(self) -> Optional[int]: ...
    @property
    def totals(self) -> Dict[str, Dict[str, float]]: ...
    def graph(self) -> Tuple[List[int], List[int], List[int]]: ...
    def table(self, label: str = "", black: str = "", white: str = "") -> str: ...
    def to_json(self, label: str = "", black: str = "", white: str = "") -> str: ...
    def svg(self, label: str = "", black: str = "", white: str = "") -> str: ...
    def __len__(self) -> int: ...

class Engine:
    level: Union[int, str]
    threads: Optional[int]
    hash_mb: int
    def __init__(
        self,
        level: Optional[Union[int, str]] = None,
        threads: Optional[int] = None,
        hash_mb: int = 64,
        seed: Optional[int] = None,
    ) -> None: ...
    def search(
        self,
        board: Board,
        *,
        depth: Optional[int] = None,
        time: Optional[float] = None,
        nodes: Optional[int] = None,
        multi_pv: int = 1,
        selectivity: Optional[int] = None,
        callback: Optional[Callable[[SearchResult], Any]] = None,
    ) -> SearchResult: ...
    def solve(
        self,
        board: Board,
        *,
        wld: bool = False,
        selectivity: Optional[int] = None,
        callback: Optional[Callable[[SearchResult], Any]] = None,
    ) -> SearchResult: ...
    def iterations(
        self,
        board: Board,
        *,
        depth: Optional[int] = None,
        time: Optional[float] = None,
        nodes: Optional[int] = None,
        multi_pv: int = 1,
        selectivity: Optional[int] = None,
    ) -> Iterations: ...
    def stop(self) -> None: ...
    def clear(self) -> None: ...
    def evaluate(self, board: Board) -> int: ...
    def analyse(
        self,
        board: Board,
        *,
        depth: Optional[int] = 8,
        exact_from: int = 18,
        time: Optional[float] = None,
        selectivity: Optional[int] = None,
        progress: Optional[Callable[[int, int], Any]] = None,
        book: bool = True,
    ) -> GameAnalysis: ...

class SelfplayBatches(Iterator[Batch]):
    games: int
    def __iter__(self) -> "SelfplayBatches": ...
    def __next__(self) -> Batch: ...
    def close(self) -> None: ...

def selfplay(
    games: int,
    *,
    game: str = "othello",
    seed: Optional[int] = None,
    shard: Optional[Union[str, Tuple[int, int]]] = None,
    batch_size: Optional[int] = None,
    threads: Optional[int] = None,
    hash_mb: Optional[int] = None,
    size: Optional[int] = None,
    level: Optional[int] = None,
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    selectivity: Optional[int] = None,
    openings: Optional[Path] = None,
    wthor: Optional[Path] = None,
    prefix: Optional[int] = None,
    random_moves: Optional[Union[int, str]] = None,
    score_moves: str = "all",
    temperature: Optional[float] = None,
    random_plies: Optional[int] = None,
    max_loss: Optional[int] = None,
    policy_temperature: Optional[float] = None,
    n_in_row: Optional[int] = None,
    rule: Optional[str] = None,
) -> SelfplayBatches: ...
def read_records(path: Path, *, game: str = "othello") -> Dict[str, npt.NDArray[Any]]: ...
def read_wthor(path: Path) -> Dict[str, Any]: ...
def read_wthor_names(path: Path) -> List[str]: ...

gomoku: Any
engine: Any
