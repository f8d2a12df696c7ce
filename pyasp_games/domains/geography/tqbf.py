"""TQBF -> Geography: quantified CNF formulas as Geography games.

The reduction that shows Geography PSPACE-complete (T. J. Schaefer, "On the complexity
of some two-person perfect-information games", J. Computer and System Sciences 16,
1978), in the textbook form of M. Sipser, *Introduction to the Theory of Computation*,
section 8.3, with a variant for edge geography.

A formula ``Q1 x1 Q2 x2 ... Qn xn . C1 ∧ ... ∧ Cm`` is read from QDIMACS and
normalised to strictly alternating quantifiers that begin and end with ∃ (a
variable of no clause, inserted where two neighbours share a quantifier or at the
end, changes nothing; free variables are existential and outermost, as QDIMACS
says). The graph: a chain of diamonds ``in_k -> up_k | down_k -> out_k ->
in_{k+1}`` (passing ``up_k`` sets ``x_k`` true), ``out_n -> c``, ``c -> c_j`` for
every clause and ``c_j -> c_j_i`` for its literals. The player choosing at
``in_k`` is the first player for odd ``k`` (∃) and the second for even ``k``
(∀); then the second player picks a clause, the first a literal of it.

- vertex geography (Sipser): a literal node points to the diamond side the path
  took if the literal is true, so entering it is impossible exactly when it is true;
- edge geography (each move removes its arc): a literal node points to
  the *opposite* side, whose way on to ``out_k`` is used up exactly when the
  literal is false.

In both, the first player wins from ``in_1`` iff the formula is true.

>>> q = parse_qdimacs("p cnf 2 2\\ne 1 0\\na 2 0\\n1 2 0\\n1 -2 0\\n")
>>> q.prefix, q.clauses, qbf_true(q)
([('e', 1), ('a', 2), ('e', 3)], [(1, 2), (1, -2)], True)
>>> g = to_geography(q, "vertex")
>>> len(g), g.names[0], g.headers["start"], g.headers["variant"]
(19, 'in1', 'in1', 'vertex')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pyasp_games.engines.graphs import Digraph, from_arcs
from pyasp_games.errors import InputError, read_text


@dataclass
class Qbf:
    """A prenex CNF formula: ``prefix`` strictly alternating ``('e'|'a', var)`` from ∃ to ∃."""

    prefix: list[tuple[str, int]]
    clauses: list[tuple[int, ...]]
    name: str = "qbf"
    #: the prefix as written, before the padding: ``(kind, var, free)``, the free
    #: variables (``free`` true) existential and first (``ip qbf`` runs on it)
    written: list[tuple[str, int, bool]] = field(default_factory=list)


def parse_qdimacs(text: str, name: str = "qbf") -> Qbf:
    """Read QDIMACS (``p cnf V C``, ``e``/``a`` lines ending in 0, then clauses)."""
    header = None
    blocks: list[tuple[str, list[int]]] = []
    clauses: list[tuple[int, ...]] = []
    pending: list[int] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("c"):
            continue
        where = f"{name}, line {number}"
        if line.startswith("p"):
            parts = line.split()
            if header is not None or len(parts) != 4 or parts[1] != "cnf":
                raise InputError(f"{where}: expected one header 'p cnf VARIABLES CLAUSES'")
            try:
                header = (int(parts[2]), int(parts[3]))
            except ValueError:
                raise InputError(f"{where}: the header's counts are not numbers") from None
            continue
        if header is None:
            raise InputError(f"{where}: the 'p cnf' header must come first")
        kind = line[0]
        body = line[1:] if kind in "ea" else line
        try:
            numbers = [int(t) for t in body.split()]
        except ValueError:
            raise InputError(f"{where}: not a list of integers: {raw.strip()!r}") from None
        if kind in "ea":
            if clauses or pending:
                raise InputError(f"{where}: a quantifier line after the clauses")
            if not numbers or numbers[-1] != 0 or any(v <= 0 for v in numbers[:-1]):
                raise InputError(
                    f"{where}: a quantifier line lists positive variables and ends in 0"
                )
            blocks.append((kind, numbers[:-1]))
            continue
        for lit in numbers:
            if lit == 0:
                clauses.append(tuple(pending))
                pending = []
            else:
                if abs(lit) > header[0]:
                    raise InputError(f"{where}: literal {lit} exceeds the {header[0]} variables")
                pending.append(lit)
    if header is None:
        raise InputError(f"{name}: no 'p cnf' header")
    if pending:
        raise InputError(f"{name}: the last clause does not end in 0")
    if len(clauses) != header[1]:
        raise InputError(f"{name}: the header promises {header[1]} clauses, found {len(clauses)}")
    quantified = [v for _, vs in blocks for v in vs]
    if len(set(quantified)) != len(quantified):
        raise InputError(f"{name}: a variable is quantified twice")
    if any(v > header[0] for v in quantified):
        raise InputError(f"{name}: a quantified variable exceeds the {header[0]} variables")
    free = [v for v in range(1, header[0] + 1) if v not in set(quantified)]
    order = [("e", v) for v in free] + [(k, v) for k, vs in blocks for v in vs]
    prefix: list[tuple[str, int]] = []
    fresh = header[0]
    for kind, v in order:
        want = "e" if len(prefix) % 2 == 0 else "a"
        if kind != want:
            fresh += 1
            prefix.append((want, fresh))
        prefix.append((kind, v))
    if not prefix or prefix[-1][0] != "e":
        fresh += 1
        prefix.append(("e", fresh))
    written = [("e", v, True) for v in free] + [(k, v, False) for k, vs in blocks for v in vs]
    return Qbf(prefix, clauses, name, written)


def read_qdimacs(path: Path | str) -> Qbf:
    """Read a QDIMACS file; bad files raise :class:`InputError`."""
    path = Path(path)
    return parse_qdimacs(read_text(path), path.name)


def qbf_true(q: Qbf) -> bool:
    """Truth by brute force over the quantifier tree (small formulas)."""

    def value(i: int, assign: dict[int, bool]) -> bool:
        if i == len(q.prefix):
            return all(
                any(assign.get(abs(lit), False) == (lit > 0) for lit in c) for c in q.clauses
            )
        kind, v = q.prefix[i]
        results = (value(i + 1, {**assign, v: b}) for b in (True, False))
        return any(results) if kind == "e" else all(results)

    return value(0, {})


def to_geography(q: Qbf, variant: str = "vertex") -> Digraph:
    """The reduction's graph for ``q``; headers name the start ``in1`` and the variant."""
    if variant not in ("vertex", "edge"):
        raise InputError(f"unknown variant {variant!r} (choose from vertex, edge)")
    position = {v: k for k, (_, v) in enumerate(q.prefix, 1)}
    n = len(q.prefix)
    arcs: list[tuple[str, str]] = []
    for k in range(1, n + 1):
        arcs += [(f"in{k}", f"up{k}"), (f"in{k}", f"down{k}")]
        arcs += [(f"up{k}", f"out{k}"), (f"down{k}", f"out{k}")]
        arcs.append((f"out{k}", f"in{k + 1}" if k < n else "c"))
    for j, clause in enumerate(q.clauses, 1):
        arcs.append(("c", f"c{j}"))
        for i, lit in enumerate(clause, 1):
            k = position[abs(lit)]
            true_side, false_side = (f"up{k}", f"down{k}") if lit > 0 else (f"down{k}", f"up{k}")
            arcs.append((f"c{j}", f"c{j}_{i}"))
            arcs.append((f"c{j}_{i}", true_side if variant == "vertex" else false_side))
    headers = {
        "source": f"{q.name} (TQBF -> Geography)",
        "start": "in1",
        "variant": variant,
        "undirected": "no",
    }
    vertices = ["in1", "c"]
    return from_arcs(arcs, vertices, name=f"{q.name}.geography", headers=headers)
