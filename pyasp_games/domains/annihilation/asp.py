"""Annihilation with clingo: the program derives the reachable positions from the rules
and labels them by the well-founded model of the win/lose definition (draws undefined).

Facts are ``bit(V,B)`` (``B = 2^i`` for the ``i``-th vertex), ``arc(U,V)`` and
``start(S)`` (the token vertices' bits added up); the encoding
(``encodings/annihilation/annihilation.lp``) has one answer set with ``outcome/1``
(``first``, ``second`` or ``draw``) and ``option(U,V,C)`` for every first move and
the class of the position it leads to. Clingo's integers have 32 bits, so an instance
has at most :data:`MAX_ASP_VERTICES` vertices, and at most :data:`MAX_ASP_POSITIONS`
reachable positions by the bound of
:meth:`~pyasp_games.domains.annihilation.model.Annihilation.reachable_bound`: larger
ones are refused before grounding.

>>> from pyasp_games.domains.annihilation.model import parse_instance
>>> claim = solve_asp(parse_instance("a b\\nb a\\nb c\\n", "b c"))
>>> claim.status, claim.answer, claim.witness, claim.stats["options"]
('solved', 'first', ['b', 'a'], {'b -> a': 'lose', 'b -> c': 'lose'})
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyasp_games.domains.annihilation.model import Annihilation
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.clingo_runner import run_program, write_facts
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.resources import encoding_path
from pyasp_games.errors import InputError, MalformedAnswer

DOMAIN = "annihilation"

#: Clingo's integers are 32-bit: a position's bitmask fits for at most 30 vertices.
MAX_ASP_VERTICES = 30
#: The most positions the program may have to derive (by the reachable bound).
MAX_ASP_POSITIONS = 200_000

#: The class of the position a move leads to, and what it makes of the move.
_KEEPS = {"first": "lose", "draw": "draw"}


def facts(inst: Annihilation) -> str:
    """``bit/2``, ``arc/2`` and ``start/1`` facts over vertex numbers."""
    out = [f"bit({v},{1 << v})." for v in range(len(inst))]
    out += [f"arc({u},{v})." for u, v in inst.graph.arcs()]
    out.append(f"start({inst.start}).")
    return "\n".join(out) + "\n"


def check_size(inst: Annihilation) -> None:
    """Refuse, before any grounding, an instance the program cannot or should not take."""
    if len(inst) > MAX_ASP_VERTICES:
        raise InputError(
            f"{inst.name}: {len(inst)} vertices: the asp backend takes at most "
            f"{MAX_ASP_VERTICES} (positions are 32-bit integers); use --backend native"
        )
    bound = inst.reachable_bound()
    if bound > MAX_ASP_POSITIONS:
        raise InputError(
            f"{inst.name}: up to {bound:,} reachable positions: the asp backend takes at most "
            f"{MAX_ASP_POSITIONS:,}; use --backend native"
        )


def solve_options(
    symbols: list[Any], names: tuple[str, ...], game: str, classes: tuple[str, ...]
) -> tuple[str, dict[str, str], dict[str, list[str]]]:
    """The outcome and the first moves with their classes from the shown atoms
    (``outcome/1``, ``option/3`` over vertex numbers); anything else is malformed."""
    outcome: list[str] = []
    options: dict[str, str] = {}
    pairs: dict[str, list[str]] = {}
    for s in symbols:
        if s.name == "outcome" and len(s.arguments) == 1:
            outcome.append(str(s.arguments[0]))
        elif s.name == "option" and len(s.arguments) == 3:
            u, v, c = (str(a) for a in s.arguments)
            if not (u.isdigit() and v.isdigit() and int(u) < len(names) and int(v) < len(names)):
                raise MalformedAnswer(f"the answer set shows {s}: no such vertices")
            if c not in classes:
                raise MalformedAnswer(f"the answer set shows {s}: class {c!r} unknown")
            key = f"{names[int(u)]} -> {names[int(v)]}"
            options[key] = c
            pairs[key] = [names[int(u)], names[int(v)]]
        else:
            raise MalformedAnswer(f"the {game} encoding shows {s}, which it should not")
    if len(outcome) != 1:
        raise MalformedAnswer(f"the answer set shows {len(outcome)} outcome atoms, not one")
    return outcome[0], dict(sorted(options.items())), pairs


def outcome_atoms(inst: Any, outcome: Any) -> list[tuple[str, bool]]:
    """The reference's verified answer as the encoding's output atoms: ``outcome/1``, and
    for its move that keeps the answer (to a lost position from ``first``, to a draw from
    ``draw``) ``option(U,V,C)`` over vertex numbers; the other first moves' classes are
    not said (``option/3`` is open: see ``Fuzzing.open_outputs``).

    >>> from pyasp_games.domains.annihilation.model import parse_instance
    >>> inst = parse_instance("a b\\nb c\\n", "a b")
    >>> outcome_atoms(inst, Claim.solved("first", ["b", "c"]))
    [('outcome(first)', True), ('option(1,2,lose)', True)]
    """
    if outcome.answer is None:
        return []
    atoms = [(f"outcome({outcome.answer})", True)]
    move, keeps = outcome.witness, _KEEPS.get(outcome.answer)
    if keeps and isinstance(move, (list, tuple)) and len(move) == 2 and all(m in inst.names for m in move):
        u, v = (inst.names.index(m) for m in move)
        atoms.append((f"option({u},{v},{keeps})", True))
    return atoms


#: Why an answer of a program that always has one (its well-founded model) is missing.
NO_ANSWER_SET = "the encoding has no answer set"


def decode_outcome(symbols: list[Any], names: tuple[str, ...], game: str) -> Claim:
    """The claim an answer set shows: the answer, the first move that keeps it (to a
    ``lose`` position from ``first``, to a ``draw`` from ``draw``) and the classes of all
    first moves (``stats['options']``)."""
    outcome, options, pairs = solve_options(symbols, names, game, ("win", "lose", "draw"))
    if outcome not in ("first", "second", "draw"):
        raise MalformedAnswer(f"the answer set shows outcome({outcome})")
    want = _KEEPS.get(outcome)
    move = next((k for k, c in options.items() if c == want), None) if want else None
    return Claim.solved(outcome, None if move is None else pairs[move], stats={"options": options})


def solve_asp(
    inst: Annihilation,
    limits: Limits = Limits(),
    encoding: str = "annihilation",
    emit_lp: Path | str | None = None,
) -> Claim:
    """The ``asp`` backend: the outcome, and a first move that keeps it (to a lost
    position from ``first``, to a draw from ``draw``), from the program's one answer set
    (:func:`~pyasp_games.engines.clingo_runner.run_program`)."""
    check_size(inst)
    program = encoding_path(DOMAIN, encoding)
    if emit_lp is not None:
        names = " ".join(f"{i}={n}" for i, n in enumerate(inst.names[:50]))
        write_facts(emit_lp, facts(inst), [program], f"annihilation instance {inst.name}: "
                    f"{inst.describe()}", notes=[f"vertices: {names}"])  # fmt: skip

    def decode(symbols: list[Any]) -> Claim:
        return decode_outcome(symbols, inst.names, "annihilation")

    return run_program([program], facts(inst), limits.deadline(), decode, no_answer_set=NO_ANSWER_SET)
