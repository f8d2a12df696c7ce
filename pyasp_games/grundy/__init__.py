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
from pyasp_games.grundy.model import format_value, known_count, load_graph, load_graphs
from pyasp_games.grundy.native import generalized_grundy, retrograde_classes, solve_native
from pyasp_games.grundy.sat import solve_sat
from pyasp_games.grundy.verify import (
    brute_force_count,
    brute_force_kernels,
    check_classes,
    check_generalized,
    check_grundy_function,
    check_kernel,
    classes_of,
)

BACKENDS: dict[str, Callable[..., Outcome]] = {
    "native": solve_native,
    "asp": solve_asp,
    "sat": solve_sat,
}

__all__ = ["BACKENDS", "check_outcome", "domain", "load_graph", "loopy", "solve"]


def check_outcome(
    graph: Digraph, outcome: Outcome, find: str = "grundy"
) -> tuple[bool | None, str]:
    """Verify an outcome independently of the backend that produced it.

    Every returned Grundy function must satisfy the mex rule at every position
    (kernels: independent and absorbing); enumerations must be duplicate-free and
    as long as the count. Non-existence and counts are checked by brute force on
    small graphs (otherwise they are cross-checked between backends).
    """
    check = check_grundy_function if find == "grundy" else check_kernel
    if outcome.status not in ("solved", "no-solution"):
        return None, "nothing to verify"
    witness = outcome.witness
    if isinstance(witness, list) and outcome.answer is not True:  # --all
        if find == "grundy" and witness and not isinstance(witness[0], dict):
            return False, "the enumeration is not a list of functions"
        for item in witness:
            ok, message = check(graph, item)
            if not ok:
                return False, message
        keys = {repr(sorted(w.items())) if isinstance(w, dict) else repr(w) for w in witness}
        if len(keys) != len(witness):
            return False, "the enumeration repeats a solution"
        if outcome.answer != len(witness):
            return False, f"answer {outcome.answer} but {len(witness)} solutions listed"
    elif outcome.answer is True:
        return check(graph, witness)
    brute = brute_force_count(graph) if find == "grundy" else brute_force_kernels(graph)
    if brute is None:
        return None, "too large to recount by brute force: cross-checked between backends"
    claimed = (
        outcome.answer
        if isinstance(outcome.answer, int) and not isinstance(outcome.answer, bool)
        else None
    )
    if outcome.answer is False and brute != 0:
        return False, f"brute force finds {brute} solutions"
    if claimed is not None and claimed != brute:
        return False, f"brute force counts {brute} solutions, not {claimed}"
    return True, f"brute force over all assignments counts {brute}"


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


def _loopy_native(graph: Digraph, limits: Limits) -> Outcome:
    values, counters = generalized_grundy(graph, limits.deadline())
    answer = dict(zip(graph.names, classes_of(values), strict=True))
    witness = {n: format_value(v) for n, v in zip(graph.names, values, strict=True)}
    stats = {"infinite": sum(1 for v in values if not isinstance(v, int))}
    return Outcome(graph.name, "native", "solved", answer, witness, 0.0, stats, (values, counters))


def _check_loopy(graph: Digraph, outcome: Outcome) -> tuple[bool | None, str]:
    if outcome.status != "solved":
        return None, "nothing to verify"
    values, counters = outcome.certificate
    ok, message = check_generalized(graph, values, counters)
    if not ok:
        return False, message
    ok, local = check_classes(graph, classes_of(values))
    if not ok:
        return False, local
    retro = retrograde_classes(graph)
    cls = list(outcome.answer.values())
    if retro != cls:
        v = next(i for i in range(len(cls)) if retro[i] != cls[i])
        return (
            False,
            f"position {graph.names[v]}: class {cls[v]} but retrograde analysis says {retro[v]}",
        )
    return True, message + "; classes agree with retrograde analysis"


def loopy(graph: Digraph, limits: Limits = Limits()) -> Outcome:
    """Smith's generalized Sprague–Grundy function, verified (conditions (a)-(c) with the
    counter, local P/N/D consistency, and agreement with retrograde labelling)."""
    return run_backend({"native": _loopy_native}, "native", graph, graph.name, limits, _check_loopy)


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
