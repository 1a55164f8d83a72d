"""Gomoku (n in a row): ``Board`` with freestyle, standard, renju and caro
rules, and the ``Engine`` (threat search and alpha-beta)."""

from ._oxello import gomoku as _gomoku

Board = _gomoku.Board
Engine = _gomoku.Engine
SearchResult = _gomoku.SearchResult

RULES = ("freestyle", "standard", "renju", "caro")

__all__ = ["Board", "Engine", "RULES", "SearchResult"]
