"""The reductions SAT -> 3SAT -> 3DM -> X3C, each with a map back to the source.

:func:`sat_to_3sat`, :func:`threesat_to_3dm` and :func:`threedm_to_x3c` each return
``(target_instance, map)``; the map is a small JSON-serialisable dict and
:func:`map_back` turns a solution of the target into a solution of the source with it.

>>> from pyasp_games.domains.cover.cnf import CNF
>>> cnf = CNF(2, ((1, 2, -1), (-1, -2, 2)))
>>> dm, back = threesat_to_3dm(cnf)
>>> dm.q, len(dm.triples)
(8, 30)
>>> x3c, back2 = threedm_to_x3c(dm)
>>> x3c.size
24
>>> from pyasp_games.domains.cover.native import solve_dlx
>>> cover = solve_dlx(x3c).witness
>>> assignment = map_back(back, map_back(back2, cover))
>>> sorted(assignment)
[1, 2]

Notes
-----
The constructions, and how each map reads a solution back:

- :func:`sat_to_3sat` -- clause splitting with fresh variables (M. R. Garey and D. S.
  Johnson, *Computers and Intractability*, 1979, Theorem 3.1). A clause
  ``l1 v ... v lk`` with ``k > 3`` becomes ``(l1 v l2 v y1) (~y1 v l3 v y2) ...
  (~y(k-3) v l(k-1) v lk)``. Short clauses are padded with fresh variables as
  Garey & Johnson do (``k = 2``: ``(l1 v l2 v y) (l1 v l2 v ~y)``; ``k = 1``: four
  clauses over ``y1, y2``; ``k = 0``: all eight sign patterns over three fresh
  variables), so every clause gets three *distinct* literals; ``pad="repeat"``
  instead repeats a literal as A. Aleksic's thesis does (University of Udine, 2025:
  ``l1 v l1 v l1``, ``l1 v l2 v l2``).
  Back: the source's variables keep their values.
- :func:`threesat_to_3dm` -- Garey & Johnson, Theorem 3.2. For ``n`` variables
  and ``m`` clauses: per variable ``u_i`` a ring of ``2m`` triples over internal
  elements ``a_i[j]`` (X), ``b_i[j]`` (Y) and external ``u_i[j]``, ``~u_i[j]`` (W):
  ``T_i^t = {(~u_i[j], a_i[j], b_i[j])}``, ``T_i^f = {(u_i[j], a_i[j+1], b_i[j])}``
  (indices mod m); a matching uses all of ``T_i^t`` (``u_i`` true: the ``u_i[j]``
  stay free for the clauses) or all of ``T_i^f``. Per clause ``c_j`` one triple
  ``(l[j], s1[j], s2[j])`` per literal ``l`` of ``c_j``. Garbage collection:
  ``(w, g1[k], g2[k])`` for every ``w`` in W and ``k = 1 .. m(n-1)``. Then
  ``|W| = |X| = |Y| = 2mn`` and, for clauses of three distinct literals, there are
  ``2mn + 3m + 2m^2 n(n-1)`` triples. Back: ``u_i`` is true iff ``T_i^t`` is used.
- :func:`threedm_to_x3c` -- Garey & Johnson's remark: the universe is
  ``W + X + Y`` and triple ``i`` becomes subset ``i``. Back: the identity.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pyasp_games.domains.cover.cnf import CNF
from pyasp_games.domains.cover.model import X3C, ThreeDM, as_x3c
from pyasp_games.engines.limits import Deadline
from pyasp_games.errors import InputError

PADS = ("fresh", "repeat")


def _distinct(clause: Sequence[int]) -> list[int]:
    return list(dict.fromkeys(clause))


def sat_to_3sat(cnf: CNF, pad: str = "fresh") -> tuple[CNF, dict[str, Any]]:
    """Every clause of ``cnf`` as clauses of exactly three literals (new variables after the old).

    >>> out, back = sat_to_3sat(CNF(5, ((1, 2, 3, 4, 5), (1,))))
    >>> out.num_vars, out.clauses
    (9, ((1, 2, 6), (-6, 3, 7), (-7, 4, 5), (1, 8, 9), (1, 8, -9), (1, -8, 9), (1, -8, -9)))
    >>> sat_to_3sat(CNF(2, ((1,), (1, 2))), pad="repeat")[0].clauses
    ((1, 1, 1), (1, 2, 2))
    """
    if pad not in PADS:
        raise InputError(f"unknown padding {pad!r} (choose from {', '.join(PADS)})")
    top = cnf.num_vars
    out: list[tuple[int, ...]] = []

    def fresh() -> int:
        nonlocal top
        top += 1
        return top

    for clause in cnf.clauses:
        lits = _distinct(clause)
        k = len(lits)
        if k == 3:
            out.append(tuple(lits))
        elif k > 3:
            y = fresh()
            out.append((lits[0], lits[1], y))
            for lit in lits[2:-2]:
                z = fresh()
                out.append((-y, lit, z))
                y = z
            out.append((-y, lits[-2], lits[-1]))
        elif pad == "repeat" and k > 0:
            out.append((lits[0], lits[-1], lits[-1]) if k == 2 else (lits[0],) * 3)
        else:  # k < 3: pad with every sign pattern of 3 - k fresh variables
            ys = [fresh() for _ in range(3 - k)]
            patterns: list[list[int]] = [[]]
            for y in ys:
                patterns = [[*p, s] for p in patterns for s in (y, -y)]
            out += [tuple(lits + p) for p in patterns]
    back = {
        "reduction": "sat-to-3sat",
        "pad": pad,
        "source_variables": cnf.num_vars,
        "source_clauses": cnf.num_clauses,
        "target_variables": top,
        "target_clauses": len(out),
    }
    return CNF(top, tuple(out), f"{cnf.name}-3sat", cnf.known), back


def gj_sizes(n: int, m: int) -> dict[str, int]:
    """Garey–Johnson's sizes for ``n`` variables and ``m`` clauses of three distinct literals.

    >>> gj_sizes(10, 40)
    {'q': 800, 'triples': 288920}
    """
    return {"q": 2 * m * n, "triples": 2 * m * n + 3 * m + 2 * m * m * n * (n - 1)}


#: the most triples :func:`threesat_to_3dm` builds (about 1.6 GB in memory); the
#: instance grows as 2 m² n², so 20 variables and 90 clauses already give 6.2 million
MAX_TRIPLES = 10_000_000


def threesat_to_3dm(cnf: CNF, deadline: Deadline | None = None) -> tuple[ThreeDM, dict[str, Any]]:
    """Garey & Johnson's 3DM instance of a CNF whose clauses have 1 to 3 distinct literals.

    The triples come in the order: the variable rings (``T_1^t, T_1^f, T_2^t, ...``),
    the clause triples, the garbage collection.

    Raises:
        InputError: when the instance would have more than :data:`MAX_TRIPLES` triples.
    """
    n, m = cnf.num_vars, cnf.num_clauses
    planned = gj_sizes(n, m)["triples"]
    if planned > MAX_TRIPLES:
        raise InputError(
            f"3sat-to-3dm of {n} variables and {m} clauses gives about {planned:,} triples, "
            f"beyond this tool's limit of {MAX_TRIPLES:,}"
        )
    clauses = [_distinct(c) for c in cnf.clauses]
    for j, lits in enumerate(clauses):
        if not 1 <= len(lits) <= 3:
            what = "is empty" if not lits else f"has {len(lits)} distinct literals"
            raise InputError(
                f"clause {j + 1} {what}: 3sat-to-3dm takes clauses of 1 to 3 literals "
                "(run sat-to-3sat first)"
            )
    # W: u_i[j] at 2*(i*m + j), ~u_i[j] at 2*(i*m + j) + 1 (0-based i, j)
    W = tuple(
        f"{'n' if neg else ''}u{i + 1}_{j + 1}"
        for i in range(n)
        for j in range(m)
        for neg in (0, 1)
    )

    def w(lit: int, j: int) -> int:
        return 2 * ((abs(lit) - 1) * m + j) + (1 if lit < 0 else 0)

    garbage = m * (n - 1) if m else 0
    X = tuple(
        [f"a{i + 1}_{j + 1}" for i in range(n) for j in range(m)]
        + [f"s1_{j + 1}" for j in range(m)]
        + [f"g1_{k + 1}" for k in range(garbage)]
    )
    Y = tuple(
        [f"b{i + 1}_{j + 1}" for i in range(n) for j in range(m)]
        + [f"s2_{j + 1}" for j in range(m)]
        + [f"g2_{k + 1}" for k in range(garbage)]
    )
    triples: list[tuple[int, int, int]] = []
    truth: list[int] = []
    for i in range(n):
        base = i * m  # a_i[j] and b_i[j] sit at base + j in X and Y
        truth.append(len(triples))
        triples += [(w(-(i + 1), j), base + j, base + j) for j in range(m)]  # T_i^t
        triples += [(w(i + 1, j), base + (j + 1) % m, base + j) for j in range(m)]  # T_i^f
    s = n * m
    for j, lits in enumerate(clauses):
        triples += [(w(lit, j), s + j, s + j) for lit in lits]
    g = s + m
    # the garbage triples are most of the instance (2 m² n²): their tuples share one
    # int object per element instead of making new ones (a third of the memory)
    w_ids = list(range(len(W)))
    for k in range(garbage):
        if deadline is not None:
            deadline.check()
        gk = g + k
        triples += [(e, gk, gk) for e in w_ids]
    back = {
        "reduction": "3sat-to-3dm",
        "variables": n,
        "clauses": m,
        # triple truth[i] + j (j < m) is T_{i+1}^t's j-th triple: used iff u_{i+1} is true
        "truth_triples": truth,
        "triples": len(triples),
    }
    return ThreeDM(W, X, Y, tuple(triples), f"{cnf.name}-3dm", cnf.known), back


def threedm_to_x3c(dm: ThreeDM) -> tuple[X3C, dict[str, Any]]:
    """The X3C instance over ``W + X + Y`` whose subset ``i`` is triple ``i``."""
    x3c = as_x3c(dm, f"{dm.name}-x3c")
    return x3c, {"reduction": "3dm-to-x3c", "q": dm.q, "triples": len(dm.triples)}


def map_back(back: Mapping[str, Any], solution: Any) -> Any:
    """Map a solution of a reduction's target to one of its source.

    ``x3c-to-puzzle``: a plan (a routing schedule) within the bound -> subset indices
    (:func:`pyasp_games.domains.cover.goldreich.cover_from_plan`); ``3dm-to-x3c``: subset indices -> triple indices; ``3sat-to-3dm``: triple
    indices -> ``{variable: bool}``; ``sat-to-3sat``: ``{variable: bool}`` ->
    ``{variable: bool}`` over the source's variables. Raises ``InputError``
    when the solution does not fit the map (wrong size, inconsistent ring).
    """
    kind = back.get("reduction")
    if kind == "3dm-to-x3c":
        chosen = _indices(solution, back["triples"])
        if len(chosen) != back["q"]:
            raise InputError(f"a cover of this instance has {back['q']} subsets, got {len(chosen)}")
        return chosen
    if kind == "3sat-to-3dm":
        chosen = set(_indices(solution, back["triples"]))
        m = back["clauses"]
        assignment = {}
        for i, start in enumerate(back["truth_triples"]):
            used = [start + j in chosen for j in range(m)]
            falses = [start + m + j in chosen for j in range(m)]
            if m and not ((all(used) and not any(falses)) or (all(falses) and not any(used))):
                raise InputError(
                    f"the matching uses the ring of variable {i + 1} partially: not a matching of this instance"
                )
            assignment[i + 1] = bool(m) and all(used)
        return assignment
    if kind == "sat-to-3sat":
        values = _assignment(solution)
        missing = [v for v in range(1, back["source_variables"] + 1) if v not in values]
        if missing:
            raise InputError(f"the assignment has no value for variable {missing[0]}")
        return {v: values[v] for v in range(1, back["source_variables"] + 1)}
    if kind == "x3c-to-puzzle":  # a plan within the bound -> the subsets whose gate it entered
        from pyasp_games.domains.cover.goldreich import cover_from_plan

        return cover_from_plan(back, solution)
    raise InputError(f"not a reduction map: 'reduction' is {kind!r}")


def _indices(solution: Any, bound: int) -> list[int]:
    if not isinstance(solution, list | tuple) or not all(
        isinstance(i, int) and not isinstance(i, bool) for i in solution
    ):
        raise InputError("a cover or matching is a list of 0-based indices")
    if any(not 0 <= i < bound for i in solution) or len(set(solution)) != len(solution):
        raise InputError(f"indices must be distinct and in 0..{bound - 1}")
    return sorted(solution)


def _assignment(solution: Any) -> dict[int, bool]:
    if not isinstance(solution, Mapping):
        raise InputError("an assignment is an object {variable: true/false}")
    try:
        return {int(k): bool(v) for k, v in solution.items()}
    except ValueError:
        raise InputError("assignment keys must be variable numbers") from None
