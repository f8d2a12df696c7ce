"""The question the catch domain answers, declared once (``pyasp-games catch solve``).

``solve``: who wins Catch from the start, the colour to move (``first``), the other
(``second``) or neither (``draw``), with a winning or draw-keeping first move; the
formatter is Annihilation's.

>>> from pyasp_games.domains.catch.model import parse_instance
>>> out = SOLVE.ask(parse_instance("a b\\nb a\\nc d\\nd c\\n", "a", "c"), "native")
>>> out.answer, out.witness, out.verdict.verified
('draw', ['a', 'b'], True)
>>> SOLVE.ask(parse_instance("a b\\nb a\\n", "a", "-"), "native").answer
'first'
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pyasp_games.domains.annihilation.questions import describe_outcome
from pyasp_games.domains.catch.asp import solve_asp
from pyasp_games.domains.catch.model import COLOURS, load_instance
from pyasp_games.domains.catch.native import solve_native
from pyasp_games.domains.catch.verify import check_outcome
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.graphs import FORMATS
from pyasp_games.engines.question import EMIT_LP, Param, Question, encoding_param
from pyasp_games.engines.reference import Reference

#: The backends; the answer is ``first``, ``second`` or ``draw``, the witness the move.
BACKENDS: dict[str, Callable[..., Claim]] = {"native": solve_native, "asp": solve_asp}

#: Claims beyond the checker's budget are cross-checked against ``native`` (and its own
#: against ``asp``).
REFERENCE = Reference(
    "catch", lambda inst, options: ("native", {}), second=lambda inst, options: ("asp", {})
)

SOLVE = Question(
    "solve",
    'Who wins Catch: the colour to move ("first"), the other ("second"), or neither ("draw").\n\n'
    "With --json: answer first/second/draw, witness the move [from, to] that wins or "
    "keeps the draw (null when every move loses).",
    backends=BACKENDS,
    check=check_outcome,
    read=lambda graph, red=None, black=None, first=None, fmt=None: load_instance(
        graph, red, black, first, fmt
    ),
    describe=describe_outcome,
    params=(
        Param(
            "graph",
            help="A digraph: one arc 'u v' per line, with headers '# red: ...', '# black: ...', "
            "'# first: red|black' and '# outcome: first|second|draw' (optional); or .adjlist, "
            ".graphml, node-link .json.",
            type=Path,
            to="read",
        ),
        Param(
            "red",
            "--red",
            "The red token vertices, separated by commas or spaces "
            "('-': none; default: the file's '# red:' line).",
            to="read",
        ),
        Param(
            "black",
            "--black",
            "The black token vertices (default: the file's '# black:' line).",
            to="read",
        ),
        Param(
            "first",
            "--first",
            "The colour to move (default: the file's '# first:' line, else red).",
            type=COLOURS,
            to="read",
        ),
        Param(
            "fmt", "--format", "Graph file format (default: by extension).", type=FORMATS, to="read"
        ),
        encoding_param("a bundled encoding (catch) or an .lp file.", default="catch"),
    ),
    emits=(EMIT_LP,),
    reference=REFERENCE,
)

#: The catch domain's questions.
QUESTIONS = (SOLVE,)
