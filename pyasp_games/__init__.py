"""pyasp-games: games and puzzles as answer-set programs and SAT formulas.

The package has three kinds of room, one folder each, and the command line over them:

- ``domains/``: one package per domain (``pyasp_games.domains.puzzle``, ...), each with
  the same modules (``model``, ``native``, ``asp``, ``sat``, ``verify``, ``questions``),
  and the registry of domains (``pyasp_games.domains.DOMAINS``);
- ``tools/``: what works over every domain: ``crosscheck``, ``fuzz`` and ``bench``, each
  a runner beside its report;
- ``engines/``: what every domain and tool is built on: the runners of clingo and PySAT,
  the Outcome and its verdict, the one rule of agreement, limits, declared questions;
- ``cli/``: the ``pyasp-games`` command line, generated from the declared questions.

Every backend has the signature ``(instance, limits, **options) -> Outcome``.

>>> from pyasp_games.domains.puzzle import BACKENDS, parse_board
>>> board = parse_board("1 2 3\\n4 5 6\\n7 0 8")
>>> BACKENDS["astar"](board).answer
1
"""

__version__ = "0.1.0"
