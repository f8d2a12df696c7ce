"""Grundy circuits: CIRCUIT VALUE reduced to a game graph's Grundy value (P-hardness).

>>> from pyasp_games.domains.grundy.acyclic import grundy_values
>>> gates = [Gate("var", (0,)), Gate("var", (1,)), Gate("and", (0, 1))]
>>> graph, start = grundy_circuit(gates, [True, False])
>>> circuit_value(gates, [True, False]), grundy_values(graph)[start]
(False, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pyasp_games.engines.graphs import Digraph, from_arcs
from pyasp_games.errors import InputError


@dataclass(frozen=True)
class Gate:
    """A Boolean gate: ``op`` in ``var`` (input ``args[0]``), ``not``, ``and``, ``or``."""

    op: str
    args: tuple[int, ...]


def circuit_value(gates: Sequence[Gate], inputs: Sequence[bool]) -> bool:
    """The circuit's output (its last gate); gate ``k`` reads gates ``< k`` or input variables."""
    vals: list[bool] = []
    for gate in gates:
        a = gate.args
        if gate.op == "var":
            vals.append(bool(inputs[a[0]]))
        elif gate.op == "not":
            vals.append(not vals[a[0]])
        elif gate.op == "and":
            vals.append(vals[a[0]] and vals[a[1]])
        elif gate.op == "or":
            vals.append(vals[a[0]] or vals[a[1]])
        else:
            raise InputError(f"unknown gate {gate.op!r}")
    return vals[-1]


def grundy_circuit(gates: Sequence[Gate], inputs: Sequence[bool]) -> tuple[Digraph, int]:
    """The reduction from CIRCUIT VALUE: a game graph whose Grundy value is the output.

    ``x AND y = Mes(Mes(x,y), Mes(x,y))`` (two equal arcs are one: ``Mes(Mes(x,y))``),
    ``NOT y = Mes(y)``, an input 0 is a sink and an input 1 is ``Mes(0)``. OR is
    written ``NOT(AND(NOT x, NOT y))``. Every vertex's value is 0 or 1. Returns the
    graph (vertex ``Z<k>`` for gate ``k``) and the output vertex.
    """
    arcs: list[tuple[str, str]] = []
    vertices: list[str] = []
    counter = [0]

    def fresh() -> str:
        counter[0] += 1
        name = f"aux{counter[0]}"
        vertices.append(name)
        return name

    def mes(target: str, *args: str) -> None:
        vertices.append(target)
        arcs.extend((target, a) for a in args)

    def node_and(target: str, x: str, y: str) -> None:
        inner = fresh()
        mes(inner, x, y)
        mes(target, inner)

    def node_not(target: str, x: str) -> None:
        mes(target, x)

    for k, gate in enumerate(gates):
        z = f"Z{k}"
        a = [f"Z{i}" for i in gate.args]
        if gate.op == "var":
            if inputs[gate.args[0]]:
                zero = fresh()
                mes(z, zero)
            else:
                mes(z)
        elif gate.op == "not":
            node_not(z, a[0])
        elif gate.op == "and":
            node_and(z, a[0], a[1])
        elif gate.op == "or":
            nx_, ny = fresh(), fresh()
            node_not(nx_, a[0])
            node_not(ny, a[1])
            both = fresh()
            node_and(both, nx_, ny)
            node_not(z, both)
        else:
            raise InputError(f"unknown gate {gate.op!r}")
    graph = from_arcs(arcs, vertices, name="grundy-circuit")
    return graph, graph.index[f"Z{len(gates) - 1}"]
