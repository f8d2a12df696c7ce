"""Exact cover (X3C, 3DM) and the reductions SAT -> 3SAT -> 3DM -> X3C.

``BACKENDS`` maps each backend's name to a function ``(instance, limits,
**options) -> Claim`` (options: ``mode`` = ``one``/``count``/``all``, and
``encoding`` for asp, ``solver``/``card`` for sat); :func:`solve` runs one under
its limits, times it and verifies every cover it reports (3DM instances are
solved as X3C over ``W + X + Y``, triple ``i`` = subset ``i``, and their
matchings are checked as matchings too).

>>> inst = parse_instance("6\\n0 1 2\\n3 4 5\\n1 2 3\\n0 1 4\\n")
>>> out = solve(inst, "dlx")
>>> out.status, out.answer, out.witness, out.verdict.verified
('solved', True, [0, 1], True)
>>> [solve(inst, b, mode="count").answer for b in BACKENDS]
[1, 1, 1, 1]
"""

from __future__ import annotations

from typing import Any

from pyasp_games.domains.cover.cnf import CNF
from pyasp_games.domains.cover.model import (
    X3C,
    ThreeDM,
    load_instance,
    load_instances,
    parse_instance,
)
from pyasp_games.domains.cover.questions import BACKENDS, QUESTIONS, REFERENCE, SOLVE
from pyasp_games.domains.cover.verify import check_outcome
from pyasp_games.engines.domain import DomainSpec
from pyasp_games.engines.fuzzing import Family, Fuzzing, plural
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome

__all__ = [
    "BACKENDS",
    "CNF",
    "QUESTIONS",
    "REFERENCE",
    "X3C",
    "ThreeDM",
    "check_outcome",
    "domain",
    "load_instance",
    "parse_instance",
    "solve",
]


def solve(
    instance: X3C | ThreeDM, backend: str, limits: Limits = Limits(), **options: Any
) -> Outcome:
    """Find, count or list the exact covers of an X3C or 3DM instance, verified.

    Parameters
    ----------
    instance : X3C or ThreeDM
        The instance (:func:`~pyasp_games.domains.cover.model.load_instance`,
        :func:`~pyasp_games.domains.cover.model.parse_instance`). A 3DM instance is solved
        as X3C over ``W + X + Y`` (triple ``i`` is subset ``i``).
    backend : str
        One of :data:`BACKENDS`: ``dlx``, ``asp``, ``sat``, ``bitset``.
    limits : Limits, optional
        What the run may spend (:class:`~pyasp_games.engines.limits.Limits`): wall-clock and
        CPU seconds, memory. The default sets none but the memory cap
        (:func:`~pyasp_games.engines.limits.default_memory_limit`).
    **options
        ``mode``: ``one`` (the default), ``count`` or ``all``; ``asp`` takes ``encoding``
        and ``emit_lp``, ``sat`` ``solver``, ``card`` and ``emit_cnf``; the clingo options
        ``clingo_option=[...]``, ``const=[...]``, ``parallel_mode`` (``asp``); and
        ``trust_encoding=True`` (a user encoding's claims that no checker confirms alone are
        then marked trusted instead of cross-checked against the reference backend).

    Returns
    -------
    Outcome
        With ``mode="one"``: ``answer`` ``True`` and the cover (subset indices) as
        ``witness``, or ``False`` (status ``no-solution``); with ``count``: the number of
        exact covers; with ``all``: the number and the covers. Every cover reported is
        checked (each element covered exactly once; for 3DM, a matching).

    Raises
    ------
    InputError
        An unknown ``backend``, an option the backend does not take (named, with the nearest
        one), or a bad option value (e.g. an encoding file that does not exist, a clingo
        option clingo refuses).

    Notes
    -----
    Exact cover by 3-sets is NP-complete [2]_. ``dlx`` is Knuth's Algorithm X with
    dancing links [1]_: a backtracking search that branches on the element with the
    fewest candidate subsets and undoes each choice in O(1) per link; exponential in the
    worst case, as is ``bitset``, the same search over bit sets.

    References
    ----------
    .. [1] D. E. Knuth, "Dancing links", in Millennial Perspectives in Computer Science,
       Palgrave, 2000 (arXiv:cs/0011047).
    .. [2] M. R. Garey and D. S. Johnson, Computers and Intractability, W. H. Freeman,
       1979 (problem SP2, X3C; Theorem 3.2 for 3DM).
    """
    return SOLVE.solve(instance, backend, limits, **options)


def _known(instance: X3C | ThreeDM) -> tuple[bool, Any]:
    return (instance.known is not None), instance.known


def domain() -> DomainSpec:
    """The cover domain for crosscheck and bench (answers: is there an exact cover)."""
    from pyasp_games.domains.cover.model import random_x3c

    return DomainSpec.asking(
        SOLVE, load_instances, _known, generators={"x3c-regular": random_x3c}, questions=QUESTIONS,
        fuzzing=fuzzing(),
    )  # fmt: skip


def fuzzing() -> Fuzzing:
    """What ``pyasp-games fuzz cover`` draws: X3C instances, every small one first."""
    from pyasp_games.domains.cover.model import (
        format_x3c,
        small_x3c,
        x3c_parts,
        x3c_relabellings,
        x3c_strategy,
    )

    x3c = Family(
        "x3c",
        "X3C instances over 3 to 24 elements (q grows with the size), some with a planted cover",
        strategy=x3c_strategy,
        small=small_x3c,
        small_help="every X3C instance with q = 1 and at most 2 subsets, and with q = 2 and "
        "at most 3 subsets, up to renaming (and relabelled); for q = 3 and 4, disjoint "
        "triples, one missing, one extra subset, a planted cover among decoys",
        sizes=(2, 10),
        unit="subsets",
        relabel=x3c_relabellings,
        parts=x3c_parts,
    )
    return Fuzzing(
        ("solve",), (x3c,), size=lambda inst: len(inst.subsets), unit="subsets", write=format_x3c,
        witness=lambda inst, out: [(f"chosen({s})", s in set(out.witness))
                                   for s in range(len(inst.subsets))],
        measure=lambda inst: f"{plural(len(inst.subsets), 'subset')} over {inst.size} elements",
    )  # fmt: skip
