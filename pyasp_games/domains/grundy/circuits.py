"""Grundy circuits: CIRCUIT VALUE reduced to a game graph's Grundy value (P-hardness).

The lecture notes (section 2, example 3) build a game graph from a Boolean circuit
and an assignment of its inputs whose Grundy value at the output's vertex is the
circuit's value: an input 0 is a position without moves, an input 1 a position whose
only move leads to one without, ``NOT y = mex(y)`` and ``x AND y = mex(mex(x, y))``
(the notes' ``Mes(Mes(x,y), Mes(x,y))``: two equal moves are one). OR is
``NOT(AND(NOT x, NOT y))``. Every gate's vertex then carries 0 or 1, its gate's value,
and as the Grundy value of a graph is computed in linear time while CIRCUIT VALUE is
P-complete, computing Grundy values is P-complete (the notes' proposition 2).

A circuit file (:func:`parse_circuit`) names its inputs and its gates, one per line::

    # (x AND y) OR NOT z
    input x y z
    a = and x y
    n = not z
    out = or a n
    output out

>>> circuit = parse_circuit("input x y\\ng = and x y\\noutput g\\n", name="and")
>>> graph, out = reduce_circuit(circuit, (1, 1))
>>> graph.format_arcs()
'# output: g\\nx x.0\\ny y.0\\ng.mex x\\ng.mex y\\ng g.mex\\n'
>>> from pyasp_games.domains.grundy.acyclic import grundy_values
>>> grundy_values(graph)[out], circuit.evaluate((1, 1))["g"]
(1, 1)
>>> gates = [Gate("var", (0,)), Gate("var", (1,)), Gate("and", (0, 1))]
>>> graph, start = grundy_circuit(gates, [True, False])
>>> circuit_value(gates, [True, False]), grundy_values(graph)[start]
(False, 0)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pyasp_games.engines.graphs import Digraph, from_arcs
from pyasp_games.errors import InputError, read_text

#: the gates a circuit file may use, with how many wires each reads
ARITY = {"and": 2, "or": 2, "not": 1}
#: the most wires (inputs and gates) a circuit may have: the reduced graph has at most
#: five positions a gate, and a larger circuit is no one's example
MAX_WIRES = 1_000_000
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@dataclass(frozen=True)
class Circuit:
    """A Boolean circuit: named inputs, gates in an order where each reads earlier wires,
    and one output wire.

    Attributes:
        inputs: the input wires' names, in the order ``--inputs`` gives their values.
        gates: ``(wire, op, args)`` with ``op`` in :data:`ARITY`, sorted so that every
            wire a gate reads is an input or an earlier gate (the file may list them in
            any order without a cycle).
        output: the output wire (an input or a gate).
        name: a label (usually the file name).
    """

    inputs: tuple[str, ...]
    gates: tuple[tuple[str, str, tuple[str, ...]], ...]
    output: str
    name: str = "circuit"

    def evaluate(self, values: Sequence[int]) -> dict[str, int]:
        """Every wire's Boolean value (0 or 1) under the inputs ``values``, directly."""
        wire = dict(zip(self.inputs, (int(bool(v)) for v in values), strict=True))
        for name, op, args in self.gates:
            a = [wire[x] for x in args]
            wire[name] = a[0] & a[1] if op == "and" else a[0] | a[1] if op == "or" else 1 - a[0]
        return wire


@dataclass(frozen=True)
class CircuitValue:
    """An instance of CIRCUIT VALUE: a circuit and a 0/1 value for each of its inputs."""

    circuit: Circuit
    inputs: tuple[int, ...]

    @property
    def name(self) -> str:
        return self.circuit.name


def parse_circuit(text: str, name: str = "circuit") -> Circuit:
    """Read a circuit file: ``input NAME...`` (one or more such lines), ``WIRE = and|or
    A B`` or ``WIRE = not A`` per gate, in any order, and ``output WIRE`` (default: the
    last gate listed); ``#`` starts a comment. A wire read but never defined, a gate
    this tool does not know, a wire defined twice or a cycle is an :class:`InputError`.

    >>> c = parse_circuit("output o\\no = not i\\ninput i\\n")
    >>> c.inputs, c.gates, c.output
    (('i',), (('o', 'not', ('i',)),), 'o')
    >>> parse_circuit("input x\\na = not b\\nb = not a\\n")
    Traceback (most recent call last):
    ...
    pyasp_games.errors.InputError: circuit: the gates have a cycle: a -> b -> a
    """
    inputs: list[str] = []
    gates: dict[str, tuple[str, tuple[str, ...]]] = {}
    where: dict[str, int] = {}
    output: str | None = None

    def named(wire: str, number: int) -> str:
        if not _NAME.match(wire):
            raise InputError(f"{name} line {number}: {wire!r} is not a wire name (letters, digits, _)")
        return wire

    def define(wire: str, number: int) -> None:
        if wire in where:
            raise InputError(f"{name} line {number}: wire {wire} is defined twice (first on line {where[wire]})")
        where[wire] = number

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        head = words[0].lower()
        if head in ("input", "inputs"):
            for wire in words[1:]:
                define(named(wire, number), number)
                inputs.append(wire)
        elif head == "output":
            if len(words) != 2 or output is not None:
                raise InputError(f"{name} line {number}: a circuit has one output, 'output WIRE'")
            output = named(words[1], number)
        elif len(words) >= 3 and words[1] == "=":
            wire, op, args = named(words[0], number), words[2].lower(), words[3:]
            if op not in ARITY:
                raise InputError(
                    f"{name} line {number}: unknown gate {words[2]!r} (choose from {', '.join(ARITY)})"
                )
            if len(args) != ARITY[op]:
                raise InputError(f"{name} line {number}: {op} reads {ARITY[op]} wire(s), got {len(args)}")
            define(wire, number)
            gates[wire] = (op, tuple(named(a, number) for a in args))
        else:
            raise InputError(
                f"{name} line {number}: expected 'input NAME...', 'WIRE = and|or|not ARGS' "
                f"or 'output WIRE', got {line!r}"
            )
        if len(where) > MAX_WIRES:
            raise InputError(f"{name}: more than {MAX_WIRES:,} wires, this tool's limit")
    if not inputs:
        raise InputError(f"{name}: no 'input' line (a circuit reads at least one input)")
    for wire, (_, args) in gates.items():
        for a in args:
            if a not in where:
                raise InputError(
                    f"{name} line {where[wire]}: gate {wire} reads {a}, which is neither an input nor a gate"
                )
    if output is None:
        if not gates:
            raise InputError(f"{name}: no gate and no 'output' line")
        output = next(reversed(gates))
    if output not in where:
        raise InputError(f"{name}: the output {output} is neither an input nor a gate")
    return Circuit(tuple(inputs), _in_order(gates, name), output, name)


def _in_order(
    gates: dict[str, tuple[str, tuple[str, ...]]], name: str
) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """The gates sorted so that each reads only inputs and earlier gates (depth-first,
    iteratively: a deep circuit must not exhaust Python's stack), or the cycle named."""
    state: dict[str, int] = {}  # 1: on the path being followed, 2: placed
    order: list[tuple[str, str, tuple[str, ...]]] = []
    for root in gates:
        if state.get(root):
            continue
        path, stack = [root], [iter(gates[root][1])]
        state[root] = 1
        while stack:
            nxt = next((a for a in stack[-1] if a in gates and state.get(a) != 2), None)
            if nxt is None:
                done = path.pop()
                stack.pop()
                state[done] = 2
                order.append((done, *gates[done]))
            elif state.get(nxt) == 1:
                cycle = [*path[path.index(nxt):], nxt]
                raise InputError(f"{name}: the gates have a cycle: {' -> '.join(cycle)}")
            else:
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(gates[nxt][1]))
    return tuple(order)


def load_circuit(path: Path | str) -> Circuit:
    """The circuit in the file ``path`` (:func:`parse_circuit`)."""
    path = Path(path)
    return parse_circuit(read_text(path), name=path.name)


def parse_inputs(text: str | None, circuit: Circuit) -> tuple[int, ...]:
    """The inputs' values ``"1,0,1"`` (0 or 1 each, one per input of ``circuit``, in the
    order of its ``input`` lines).

    >>> parse_inputs("1, 0", parse_circuit("input a b\\ng = or a b\\n"))
    (1, 0)
    """
    if text is None:
        raise InputError(f"missing option --inputs (a 0/1 value for each of {', '.join(circuit.inputs)})")
    words = [w.strip() for w in text.split(",")]
    if any(w not in ("0", "1") for w in words):
        raise InputError(f"--inputs: expected comma-separated 0s and 1s, got {text!r}")
    if len(words) != len(circuit.inputs):
        raise InputError(
            f"--inputs: {len(words)} value(s) for {len(circuit.inputs)} input(s) "
            f"({', '.join(circuit.inputs)})"
        )
    return tuple(int(w) for w in words)


def read_circuit_value(circuit: Path, inputs: str | None) -> CircuitValue:
    """The CIRCUIT VALUE instance of a circuit file and ``--inputs``."""
    read = load_circuit(circuit)
    return CircuitValue(read, parse_inputs(inputs, read))


def reduce_circuit(circuit: Circuit, inputs: Sequence[int]) -> tuple[Digraph, int]:
    """The notes' reduction: the game graph whose Grundy value at the output's vertex is
    the circuit's value under ``inputs``, and that vertex.

    Each wire is the vertex of its name; the gadgets add vertices named after the gate
    with a dot (``g.mex`` inside ``g = and x y``; ``x.0``, the position without moves an
    input 1 moves to; ``g.not1``, ``g.not2``, ``g.and``, ``g.and.mex`` inside an OR).
    The graph is acyclic (a gate's moves lead to earlier wires) and its header
    ``# output:`` names the output's vertex.
    """
    arcs: list[tuple[str, str]] = []
    vertices: list[str] = []

    def mes(target: str, *args: str) -> None:  # a position whose moves lead to args
        vertices.append(target)
        arcs.extend((target, a) for a in args)

    def conj(target: str, x: str, y: str) -> None:  # AND: mex(mex(x, y))
        mes(f"{target}.mex", x, y)
        mes(target, f"{target}.mex")

    for wire, value in zip(circuit.inputs, inputs, strict=True):
        if value:
            mes(f"{wire}.0")
            mes(wire, f"{wire}.0")
        else:
            mes(wire)
    for wire, op, args in circuit.gates:
        if op == "not":
            mes(wire, args[0])
        elif op == "and":
            conj(wire, *args)
        else:  # or: NOT(AND(NOT x, NOT y))
            mes(f"{wire}.not1", args[0])
            mes(f"{wire}.not2", args[1])
            conj(f"{wire}.and", f"{wire}.not1", f"{wire}.not2")
            mes(wire, f"{wire}.and")
    graph = from_arcs(arcs, vertices, name=f"{circuit.name}.grundy", headers={"output": circuit.output})
    return graph, graph.index[circuit.output]


# -- the same reduction on numbered gates (the library's first form) ---------------------


@dataclass(frozen=True)
class Gate:
    """A Boolean gate: ``op`` in ``var`` (input ``args[0]``), ``not``, ``and``, ``or``."""

    op: str
    args: tuple[int, ...]


def _named(gates: Sequence[Gate], inputs: Sequence[bool]) -> Circuit:
    """Numbered gates as a :class:`Circuit`: gate ``k`` is the wire ``Z<k>``."""
    names = [f"x{i}" for i in range(len(inputs))]
    named: list[tuple[str, str, tuple[str, ...]]] = []
    alias: dict[int, str] = {}
    for k, gate in enumerate(gates):
        if gate.op not in ("var", *ARITY):
            raise InputError(f"unknown gate {gate.op!r}")
        if gate.op == "var":  # a copy of the input: NOT NOT x would add two vertices
            alias[k] = names[gate.args[0]]
        else:
            named.append((f"Z{k}", gate.op, tuple(alias.get(i, f"Z{i}") for i in gate.args)))
    out = len(gates) - 1
    return Circuit(tuple(names), tuple(named), alias.get(out, f"Z{out}"), "grundy-circuit")


def circuit_value(gates: Sequence[Gate], inputs: Sequence[bool]) -> bool:
    """The circuit's output (its last gate); gate ``k`` reads gates ``< k`` or input variables."""
    circuit = _named(gates, inputs)
    return bool(circuit.evaluate([int(bool(v)) for v in inputs])[circuit.output])


def grundy_circuit(gates: Sequence[Gate], inputs: Sequence[bool]) -> tuple[Digraph, int]:
    """:func:`reduce_circuit` on numbered gates (vertex ``Z<k>`` for gate ``k``, ``x<i>``
    for input ``i``): the graph and the output's vertex."""
    circuit = _named(gates, inputs)
    return reduce_circuit(circuit, [int(bool(v)) for v in inputs])
