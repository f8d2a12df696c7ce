"""pyasp-games: games and puzzles as answer-set programs and SAT formulas.

Every domain (``pyasp_games.puzzle``, ...) has the same five modules -- ``model``,
``native``, ``asp``, ``sat`` and ``verify`` -- and registers its backends in one
table, ``BACKENDS``, whose entries all have the signature
``(instance, limits, **options) -> Outcome``.

>>> from pyasp_games.puzzle import BACKENDS, parse_board
>>> board = parse_board("1 2 3\\n4 5 6\\n7 0 8")
>>> BACKENDS["astar"](board).answer
1
"""

__version__ = "0.1.0"
