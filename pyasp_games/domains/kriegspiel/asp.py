"""Kriegspiel with clingo: "mate within k" by the retrograde fixpoint, the rules in ASP.

Python lists the metapositions reachable from the one asked, one of each class of
symmetric ones as native keeps them (the universe: each one's men and possible
black-king squares, as facts, with the board's symmetries as ``sym/3``);
``encodings/kriegspiel/retrograde.lp`` derives every attempt's consequences itself
(illegal squares, the referee's answers, Black's legal steps), finds the metaposition
each answer leads to under some symmetry (refusing an answer set where the universe
lacks one), and computes level by level which metapositions are won within D moves.
The answer is the least D won at the root; the strategy keeps, at every metaposition,
an attempt whose worst case is the answer set's value there (an image's attempts are
renamed, so it is built from the values, as native's from its table) and is replayed by
the independent checker. A board of more than :data:`MAX_SQUARES` squares (6 x 6 and up) is refused
before any work, and a metaposition that reaches more than :data:`MAX_UNIVERSE` others as
soon as its universe outgrows that, each with one line (a 5 x 5 start reaches about
4,500).
That no strategy is faster is certified too: the answer set's values (``value/2``; a
metaposition without one is not won within D, or, once a level adds no win
(``converged/1``), not won at all) give the refutation of a mate within D - 1
(:func:`~pyasp_games.domains.kriegspiel.strategy.refutation`), which the checker goes through
like native's; without a win, the same refutation proves that there is no forced mate.
Values that are no fixpoint of the rules leave some attempt unrefuted: the answer set
is refused (a failed verification).

>>> from pyasp_games.domains.kriegspiel.model import parse_metaposition
>>> claim = solve_asp(parse_metaposition("?1?/2?/KR1"))
>>> claim.status, claim.answer, claim.kind
('solved', 4, 'exact')
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from pyasp_games.domains.kriegspiel.model import Metaposition
from pyasp_games.domains.kriegspiel.strategy import (
    MAX_REFUTATION,
    NotBuilt,
    halfway,
    refutation,
    strategy,
)
from pyasp_games.domains.kriegspiel.symmetry import Symmetry
from pyasp_games.domains.kriegspiel.tablebase import NO_MATE, TooMany, build
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.clingo_runner import ClingoSession, write_facts
from pyasp_games.engines.limits import LimitReached, Limits
from pyasp_games.engines.resources import encoding_path
from pyasp_games.errors import InputError, MalformedAnswer

DOMAIN = "kriegspiel"
ENCODING = "retrograde"
#: The most metapositions the asp backend grounds (each brings its attempts and squares):
#: a 4 x 4 start reaches about 3,500 and takes clingo 15-20 s; a 5 x 5 start about 25,000,
#: which clingo does not finish in ten minutes (benchmarks/RESULTS.md), so the backend
#: refuses it at once instead of running out every time limit without a word.
MAX_UNIVERSE = 6_000
#: The most squares of a board the asp backend takes (a 6 x 6 start reaches 23,000
#: metapositions up to symmetry): larger boards are refused before any work.
MAX_SQUARES = 25


def facts(m: Metaposition, universe: list[tuple[int, int, int]]) -> str:
    """The board and its symmetries, the piece, the universe of metapositions (number 0
    is ``m``, or its least symmetric image)."""
    board = m.board
    out = [f"cell({s},{r},{f})." for s in range(board.size) for r, f in [board.coords(s)]]
    out += [f"sym({g},{s},{t})." for g, perm in enumerate(Symmetry(board).perm) for s, t in enumerate(perm)]
    out.append(f"piece({'rook' if m.piece == 'R' else 'queen'}).")
    for u, (king, square, belief) in enumerate(universe):
        out.append(f"state({u},{king},{square}).")
        out += [f"in({u},{b})." for b in board.squares(belief)]
    out.append("root(0).")
    return "\n".join(out) + "\n"


def _answer_name(symbol: str) -> str:
    return symbol.replace("_", "-")


def solve_asp(
    m: Metaposition,
    limits: Limits = Limits(),
    encoding: str = ENCODING,
    emit_lp: Path | str | None = None,
) -> Claim:
    """The ``asp`` backend: the least D such that White mates within D moves, with the
    strategy; levels up to ``limits.max_length`` (default: the board's squares)."""
    if len(m.piece) != 1:  # the encoding states one piece's lines (retrograde.lp: piece/1)
        raise InputError(
            f"the asp backend takes one piece besides the king (KRK, KQK); {m.ending} has two: "
            "use --backend native"
        )
    if m.board.size > MAX_SQUARES:  # before any work: a start there reaches 23,000 and more
        raise InputError(
            f"the asp backend reaches boards of at most {MAX_SQUARES} squares (5 x 5); "
            f"{m.board.label} has {m.board.size}: use --backend native"
        )
    deadline = limits.deadline()
    try:  # refused as soon as the universe outgrows the reach
        table = build([m], deadline, most=MAX_UNIVERSE)
    except TooMany:
        raise InputError(
            f"the asp backend reaches metapositions with at most {MAX_UNIVERSE:,} others "
            f"reachable (a 4 x 4 start: about 3,500, in 15-20 s); this one reaches more "
            f"(on {m.board.label}: use --backend native)"
        ) from None
    universe = table.keys
    levels = limits.max_length or m.board.size
    text = facts(m, universe)
    enc = encoding_path(DOMAIN, encoding)
    if emit_lp is not None:
        write_facts(emit_lp, text, [enc], f"kriegspiel metaposition {m.name}: {m.describe()}",
                    incremental=True, options=["-c", f"imax={levels}"],
                    notes=["metaposition 0 is the one asked"])  # fmt: skip
    session = ClingoSession([enc], text, deadline=deadline)
    stats: dict[str, Any] = {"metapositions": len(universe)}
    try:
        session.ground([("base", []), ("check", [0])])
        for level in range(1, levels + 1):
            session.ground([("step", [level]), ("check", [level])])
            session.set_external("query", [level], True)
            result = session.solve()
            if result.status != "unsat":
                break
            session.set_external("query", [level], None)
    except LimitReached:
        return Claim.unknown(stats | session.statistics())
    stats |= session.statistics()
    if result.status == "unsat":  # no stop within the levels: no mate within them
        stats["levels"] = levels
        return Claim.none(bound=levels, stats=stats)
    stats["levels"] = level
    if result.status == "unknown":
        return Claim.unknown(stats)
    atoms = _read(result.symbols)
    if atoms["missing"]:
        raise MalformedAnswer(f"the universe lacks where {atoms['missing'][0]} leads")
    value = {u: d for u, d in atoms["value"]}
    # a metaposition without a value is not won within the last level (no mate at all
    # once a level won nothing new): the refutations of a faster mate read it so
    beyond = NO_MATE if atoms["converged"] else level + 1

    def worth(state: tuple[int, int, int]) -> int:
        return value.get(table.number(state), beyond)  # type: ignore[arg-type]

    solved = 0 in value
    try:  # "no forced mate" is proved whatever its size (the universe bounds it)
        proof = refutation(m, worth, MAX_REFUTATION if solved else None, None, halfway(deadline))
    except NotBuilt as err:
        if not solved:
            raise LimitReached(stats | {"stopped": str(err)}) from None
        proof, stats["no_certificate"] = None, str(err)
    except (KeyError, ValueError) as err:  # values that are no fixpoint of the rules
        raise MalformedAnswer(f"the answer set's values refute nothing: {err}") from None
    if solved:
        try:  # the attempts that keep each value, as the answer set's values say
            plan = strategy(m, worth)
        except (StopIteration, RuntimeError):
            raise MalformedAnswer("the answer set's values keep no attempt somewhere") from None
        stats.update(optimal_by="clingo's level-by-level fixpoint", strategy_nodes=len(plan["nodes"]))
        if proof is not None:
            plan["refutation"] = proof
        return Claim.solved(value[0], plan, stats=stats)
    return Claim.none(None, proof, stats=stats)


def _read(symbols: list[Any]) -> dict[str, list[tuple]]:
    atoms: dict[str, list[tuple]] = defaultdict(list)
    for s in symbols:
        args = tuple(a.number if a.type.name == "Number" else a.name for a in s.arguments)
        atoms[s.name].append(args)
    return atoms
