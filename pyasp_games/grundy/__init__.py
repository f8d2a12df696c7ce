"""Impartial games on graphs: Grundy values, sums, Nim, loopy graphs, existence.

``BACKENDS`` maps each backend's name to ``(graph, limits, mode=..., find=...)
-> Outcome`` for the NP-complete questions (does a Grundy function / a kernel
exist; all of them; how many). :func:`solve` runs one under limits and verifies
it; :func:`loopy` computes Smith's generalized Sprague–Grundy function and checks
it against Smith's conditions and an independent retrograde labelling.

>>> from pyasp_games.grundy.model import parse_graph
>>> c4 = parse_graph("a b\\nb c\\nc d\\nd a\\n", name="c4")
>>> [solve(c4, b, mode="count").answer for b in BACKENDS]
[2, 2, 2]
>>> out = solve(parse_graph("a b\\nb c\\nc a\\n"), "sat")
>>> out.status, out.answer, out.stats["verified"]
('no-solution', False, True)
>>> loopy(parse_graph("a b\\nb a\\nb c\\nd e\\ne d\\n")).witness
{'a': 0, 'b': 1, 'c': 0, 'd': 'inf()', 'e': 'inf()'}
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyasp_games.engines.domain import DomainSpec, bundled_files
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.reference import Reference
from pyasp_games.engines.runner import run_backend
from pyasp_games.graphs import Digraph
from pyasp_games.grundy.asp import solve_asp
from pyasp_games.grundy.model import known_count, load_graph, load_graphs
from pyasp_games.grundy.native import solve_loopy, solve_native
from pyasp_games.grundy.retrograde import retrograde_classes
from pyasp_games.grundy.sat import solve_sat
from pyasp_games.grundy.verify import check_loopy, check_outcome

BACKENDS: dict[str, Callable[..., Outcome]] = {
    "native": solve_native,
    "asp": solve_asp,
    "sat": solve_sat,
}

__all__ = ["BACKENDS", "check_outcome", "domain", "load_graph", "loopy", "solve"]


def describe(outcome: Outcome, options: dict[str, Any] | None = None) -> str:
    """The answer in words: a solution (shown), none, or a count."""
    what = "kernel" if (options or {}).get("find") == "kernel" else "Grundy function"
    answer, witness = outcome.answer, outcome.witness
    if answer is True:
        if isinstance(witness, dict):
            return f"a {what} ({' '.join(f'{n}={v}' for n, v in witness.items())})"
        return f"a {what} ({' '.join(map(str, witness or []))})"
    if answer is False:
        return f"no {what}"
    if answer is None:
        return "no answer"
    return f"{answer} {what}{'' if answer == 1 else 's'}"


def _reference(graph: Digraph, options: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    # propagation and backtracking over strongly connected components: exact, and
    # the count a product over weak components (fast where enumeration is not)
    return "native", {"mode": options.get("mode", "one"), "find": options.get("find", "grundy")}


#: A user encoding's "none", counts and enumerations are cross-checked against ``native``.
REFERENCE = Reference("grundy", _reference, describe, example=lambda o: {**o, "mode": "one"})


def solve(
    graph: Digraph, backend: str, limits: Limits = Limits(), find: str = "grundy", **options: Any
) -> Outcome:
    """Run ``backend`` (``find``: ``grundy`` or ``kernel``) under ``limits``; time and verify.

    A user encoding's claims that no checker confirms alone are cross-checked
    against ``native`` (:data:`REFERENCE`) unless ``trust_encoding=True``.
    """

    def check(g: Digraph, outcome: Outcome) -> tuple[bool | None, str]:
        return check_outcome(g, outcome, find)

    return run_backend(
        BACKENDS, backend, graph, graph.name, limits, check, REFERENCE, find=find, **options
    )


def loopy(graph: Digraph, limits: Limits = Limits()) -> Outcome:
    """Smith's generalized Sprague–Grundy function, verified (conditions (a)-(c) with the
    counter, local P/N/D consistency, and agreement with retrograde labelling)."""

    def check(g: Digraph, outcome: Outcome) -> tuple[bool | None, str]:
        return check_loopy(g, outcome, retrograde_classes)

    return run_backend({"native": solve_loopy}, "native", graph, graph.name, limits, check)


def _count(graph: Digraph, backend: str, limits: Limits, **options: Any) -> Outcome:
    # counting by default; a bench suite may ask for another mode (e.g. ``one``: existence)
    return solve(graph, backend, limits, **{"mode": "count", **options})


def _known(graph: Digraph) -> tuple[bool, Any]:
    count = known_count(graph)
    return (False, None) if count is None else (True, count)


def domain() -> DomainSpec:
    """The grundy domain for crosscheck: every backend counts the Grundy functions."""
    from pyasp_games.grundy.model import random_digraph

    return DomainSpec(
        name="grundy",
        backend_names=list(BACKENDS),
        solve=_count,
        load_file=load_graphs,
        bundled_files=lambda: bundled_files("grundy"),
        known=_known,
        generators={"random": random_digraph},
    )
