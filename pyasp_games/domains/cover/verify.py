"""Independent checks for the cover domain: exact covers, matchings, CNF assignments.

Shares no code with the solvers or the reductions: it recounts every element
from the instance's raw data.

>>> check_cover(6, [(0, 1, 2), (3, 4, 5), (1, 2, 3)], [0, 1])
(True, 'exact cover: 2 subsets cover all 6 elements once')
>>> check_cover(6, [(0, 1, 2), (3, 4, 5), (1, 2, 3)], [0, 2])[0]
False
>>> evaluate_cnf([(1, -2), (2,)], {1: True, 2: True})
(True, 'all 2 clauses satisfied')
>>> evaluate_cnf([(1, -2), (2,)], {1: False, 2: True})
(False, 'clause 1 (1 -2) is false')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pyasp_games.domains.cover.model import X3C, ThreeDM
from pyasp_games.engines.outcome import Outcome
from pyasp_games.errors import Unconfirmed


def check_cover(size: int, subsets: Sequence[Sequence[int]], chosen: Any) -> tuple[bool, str]:
    """Do the subsets ``chosen`` (0-based indices) cover ``0 .. size-1`` exactly once?"""
    if not isinstance(chosen, list | tuple):
        return False, f"the witness {chosen!r} is not a list of subset indices"
    count = [0] * size
    for i in chosen:
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(subsets):
            return False, f"{i!r} is not the index of a subset (0..{len(subsets) - 1})"
    if len(set(chosen)) != len(chosen):
        return False, "a subset is chosen twice"
    for i in chosen:
        for e in subsets[i]:
            if not 0 <= e < size:
                return False, f"subset {i} has element {e} outside the universe"
            count[e] += 1
            if count[e] > 1:
                return False, f"element {e} is covered more than once (again by subset {i})"
    missing = [e for e in range(size) if count[e] == 0]
    if missing:
        return False, f"element {missing[0]} is not covered ({len(missing)} uncovered)"
    return True, f"exact cover: {len(chosen)} subsets cover all {size} elements once"


def check_matching(
    sizes: tuple[int, int, int], triples: Sequence[Sequence[int]], chosen: Any
) -> tuple[bool, str]:
    """Is ``chosen`` a perfect 3-dimensional matching (every element of W, X, Y once)?"""
    if not isinstance(chosen, list | tuple):
        return False, f"the witness {chosen!r} is not a list of triple indices"
    used: list[set[int]] = [set(), set(), set()]
    for i in chosen:
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(triples):
            return False, f"{i!r} is not the index of a triple"
        for axis, e in enumerate(triples[i]):
            if e in used[axis]:
                return False, f"triple {i} reuses element {e} of {'WXY'[axis]}"
            used[axis].add(e)
    for axis, n in enumerate(sizes):
        if len(used[axis]) != n:
            return False, f"{n - len(used[axis])} elements of {'WXY'[axis]} are not matched"
    return True, f"perfect matching: {len(chosen)} triples match every element once"


def evaluate_cnf(
    clauses: Sequence[Sequence[int]], assignment: Mapping[Any, Any]
) -> tuple[bool, str]:
    """Does ``assignment`` (``{variable: bool}``, keys int or str) satisfy every clause?"""
    values: dict[int, bool] = {}
    for key, value in assignment.items():
        try:
            values[int(key)] = value
        except (TypeError, ValueError):
            return False, f"{key!r} is not a variable number"
        if not isinstance(value, bool):
            return False, f"variable {key} has value {value!r}, not true/false"
    for k, clause in enumerate(clauses):
        satisfied = False
        for lit in clause:
            if abs(lit) not in values:
                return False, f"variable {abs(lit)} has no value"
            if values[abs(lit)] == (lit > 0):
                satisfied = True
        if not satisfied:
            return False, f"clause {k + 1} ({' '.join(map(str, clause))}) is false"
    return True, f"all {len(clauses)} clauses satisfied"


def uncovered(instance: Any) -> str | None:
    """An element of an X3C or 3DM instance that lies in no subset/triple (a proof of "no cover")."""
    if hasattr(instance, "triples"):
        for axis, names in enumerate((instance.W, instance.X, instance.Y)):
            hit = {t[axis] for t in instance.triples}
            for i, name in enumerate(names):
                if i not in hit:
                    return name
        return None
    hit = {e for s in instance.subsets for e in s}
    return next((str(e) for e in range(instance.size) if e not in hit), None)


def _check_one(instance: X3C | ThreeDM, cover: Any) -> tuple[bool, str]:
    if isinstance(instance, ThreeDM):
        sizes = (len(instance.W), len(instance.X), len(instance.Y))
        return check_matching(sizes, instance.triples, cover)
    return check_cover(instance.size, instance.subsets, cover)


def check_outcome(instance: X3C | ThreeDM, outcome: Outcome) -> tuple[bool | None, str]:
    """Verify an outcome independently: ``(True|False, message)``, ``None`` if nothing to check.

    A cover (or every listed cover) must be exact, listed covers distinct and as
    many as the count (that the list misses none is not re-checked: the verdict says
    so, verified in part); "no cover" is verified only when some element lies in no
    subset, otherwise it rests on the backends agreeing (crosscheck).
    """
    answer, witness = outcome.answer, outcome.witness
    if outcome.status == "solved" and isinstance(answer, bool):
        if answer is not True:
            return False, f"status solved with answer {answer!r}"
        return _check_one(instance, witness)
    if outcome.status == "solved" and isinstance(witness, list) and not isinstance(answer, bool):
        keys = {tuple(c) if isinstance(c, list) else repr(c) for c in witness}
        if len(keys) != len(witness):
            return False, "a cover is listed twice"
        if answer != len(witness):
            return False, f"count {answer!r} but {len(witness)} covers listed"
        for cover in witness:
            ok, message = _check_one(instance, cover)
            if not ok:
                return False, f"cover {cover}: {message}"
        if witness or uncovered(instance) is None:
            outcome.verdict.not_checked = (
                "that no other cover exists, which rests on the backend's search "
                "(crosscheck compares the backends)"
            )
        return True, f"all {len(witness)} listed covers are exact and distinct"
    if outcome.status == "no-solution":
        if answer is not False and answer != 0:
            return False, f"status no-solution with answer {answer!r}"
        element = uncovered(instance)
        if element is not None:
            return True, f"no cover: element {element} lies in no subset"
        return None, "no cover claimed; not checkable alone (crosscheck the backends)"
    if outcome.status == "solved":
        return None, f"a count of {answer} covers; not checkable alone (crosscheck the backends)"
    return None, "nothing to verify"


#: Seconds the chain's checker gives PySAT on the original CNF to confirm "unsatisfiable"
#: (a CNF the chain can reduce is small: PySAT decides it at once).
DIRECT_SAT_SECONDS = 30.0


def direct_sat(clauses: Sequence[Sequence[int]], seconds: float | None = DIRECT_SAT_SECONDS) -> bool | None:
    """Whether ``clauses`` are satisfiable, by PySAT directly (``None``: not decided
    within ``seconds``): the check of a "no cover" answer, independent of the reductions."""
    from pyasp_games.engines.limits import Deadline
    from pyasp_games.engines.sat_runner import SatSession

    with SatSession("glucose4", Deadline(seconds), keep_clauses=False) as s:
        for clause in clauses:
            s.add(list(clause))
        return s.solve()


def check_chain(cnf: Any, outcome: Outcome) -> tuple[bool | None, str]:
    """Check ``reduce chain``'s answer on the *original* CNF: a "satisfiable" answer's
    mapped-back assignment must satisfy every clause; "unsatisfiable" (no cover) stands
    when PySAT, called here on the original CNF (:func:`direct_sat`, within
    :data:`DIRECT_SAT_SECONDS`), finds it unsatisfiable too. The sizes the witness shows
    are checked for the original CNF (the intermediate ones are the run's record)."""
    witness = outcome.witness if isinstance(outcome.witness, dict) else {}
    if outcome.status not in ("solved", "no-solution"):
        return None, "nothing to verify"
    shown = witness.get("sizes", {}).get("cnf") if isinstance(witness.get("sizes"), dict) else None
    if shown != {"variables": cnf.num_vars, "clauses": cnf.num_clauses}:
        return False, f"the CNF has {cnf.num_vars} variables and {cnf.num_clauses} clauses, not as shown"
    if outcome.status == "solved":
        if outcome.answer is not True or not isinstance(witness.get("assignment"), dict):
            return False, f"status solved with answer {outcome.answer!r} and no assignment"
        ok, message = evaluate_cnf(cnf.clauses, witness["assignment"])
        return ok, f"original CNF: {message}"
    if outcome.answer is not False:
        return False, f"status no-solution with answer {outcome.answer!r}"
    if witness.get("assignment") is not None:
        return False, "no cover claimed, yet an assignment is shown"
    direct = direct_sat(cnf.clauses)
    if direct is None:  # "no cover" stands unconfirmed: exit 3, never shown as proven
        raise Unconfirmed("no cover; the direct SAT check of the original CNF reached its limit")
    if direct:
        return False, "no cover, but PySAT finds the original CNF satisfiable"
    return True, "no cover, and PySAT proves the original CNF unsatisfiable"
