"""``grundy circuit`` and ``reduce circuit-to-grundy``: the lecture notes' reduction from
CIRCUIT VALUE to the Grundy value (section 2, example 3), checked against direct
evaluation on random circuits, every bad input one line and exit 2, the saved answer
checked again and a tampered one refuted."""

from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest

from pyasp_games.domains.grundy.circuits import (
    Circuit,
    CircuitValue,
    parse_circuit,
    read_circuit_value,
    reduce_circuit,
)
from pyasp_games.domains.grundy.model import parse_graph
from pyasp_games.domains.grundy.questions import CIRCUIT
from pyasp_games.engines.resources import instance_dir

from .conftest import run_cli
from .test_grundy_recheck import _set, assert_rechecked, assert_refuted

EXAMPLE = instance_dir("grundy") / "circuits" / "circuit-example.txt"


def mex_by_networkx(graph) -> dict[str, int]:
    """Grundy values from the definition, in networkx's reverse topological order (not
    the library's queue algorithm)."""
    g = graph.to_networkx()
    values: dict[str, int] = {}
    for v in reversed(list(nx.topological_sort(g))):
        seen = {values[w] for w in g.successors(v)}
        values[v] = next(k for k in itertools.count() if k not in seen)
    return values


def random_circuit(rng: random.Random, inputs: int, gates: int) -> Circuit:
    lines = [f"input {' '.join(f'x{i}' for i in range(inputs))}"]
    wires = [f"x{i}" for i in range(inputs)]
    for k in range(gates):
        op = rng.choice(["and", "or", "not"])
        args = rng.sample(wires, 1) if op == "not" else [rng.choice(wires), rng.choice(wires)]
        lines.append(f"g{k} = {op} {' '.join(args)}")
        wires.append(f"g{k}")
    rng.shuffle(lines)  # the file may list the gates in any order
    return parse_circuit("\n".join(lines) + f"\noutput g{gates - 1}\n", name="random")


def test_every_wire_of_random_circuits_is_its_boolean_value():
    rng = random.Random(41)
    for _ in range(60):
        circuit = random_circuit(rng, rng.randint(1, 4), rng.randint(1, 10))
        inputs = tuple(rng.randint(0, 1) for _ in circuit.inputs)
        graph, out = reduce_circuit(circuit, inputs)
        values = mex_by_networkx(graph)
        wires = dict(zip(circuit.inputs, inputs, strict=True))
        for wire, op, args in circuit.gates:  # the circuit evaluated here, gate by gate
            a = [wires[x] for x in args]
            wires[wire] = {"and": min, "or": max}[op](a) if op != "not" else 1 - a[0]
        assert {w: values[w] for w in wires} == wires
        assert values[graph.names[out]] == wires[circuit.output]
        outcome = CIRCUIT.ask(CircuitValue(circuit, inputs))
        assert outcome.verdict.verified is True and outcome.answer == wires[circuit.output]


def test_the_notes_gadgets_on_every_pair_of_inputs():
    # x AND y = Mes(Mes(x,y), Mes(x,y)), NOT y = Mes(y), OR = NOT(AND(NOT x, NOT y))
    for op, truth in (("and", lambda a, b: a & b), ("or", lambda a, b: a | b)):
        circuit = parse_circuit(f"input x y\nz = {op} x y\n")
        for x, y in itertools.product((0, 1), repeat=2):
            graph, _ = reduce_circuit(circuit, (x, y))
            assert mex_by_networkx(graph)["z"] == truth(x, y)
            if op == "and":  # the inner Mes(x, y) is 1, 2, 2, 0: not Boolean itself
                assert mex_by_networkx(graph)["z.mex"] == [1, 2, 2, 0][2 * x + y]


def test_the_command_and_the_written_graph_agree(tmp_path):
    for inputs, value in (("1,1,1", 1), ("0,1,1", 0), ("0,0,0", 1)):
        run = run_cli("grundy", "circuit", EXAMPLE, "--inputs", inputs)
        assert run.code == 0 and f"output out: Grundy value {value} (native" in run.stdout
        assert f"out = or a n = {value}: Grundy value {value}" in run.stdout
        graph = tmp_path / f"{inputs}.txt"
        assert run_cli("reduce", "circuit-to-grundy", EXAMPLE, "--inputs", inputs, "-o", graph).code == 0
        text = graph.read_text()
        assert "# output: out" in text
        assert mex_by_networkx(parse_graph(text))["out"] == value
        shown = run_cli("grundy", "values", graph, "--position", "out")
        assert f"out: value {value}" in shown.stdout
    again = run_cli("reduce", "circuit-to-grundy", EXAMPLE, "--inputs", "1,1,1", "-o", graph)
    assert again.code == 2 and "file exists" in again.stderr


@pytest.mark.parametrize(
    ("text", "inputs", "said"),
    [
        ("input x\na = and x b\nb = not a\n", "1", "the gates have a cycle: a -> b -> a"),
        ("input x y\na = xor x y\n", "1,0", "unknown gate 'xor'"),
        ("input x\na = and x y\n", "1", "gate a reads y, which is neither an input nor a gate"),
        ("input x\na = not x x\n", "1", "not reads 1 wire(s), got 2"),
        ("input x\nx = not x\n", "1", "wire x is defined twice"),
        ("input x\na = not x\noutput b\n", "1", "the output b is neither an input nor a gate"),
        ("a = not x\n", "1", "no 'input' line"),
        ("input x y\na = or x y\n", "1", "--inputs: 1 value(s) for 2 input(s) (x, y)"),
        ("input x y\na = or x y\n", "1,2", "expected comma-separated 0s and 1s"),
        ("input x y\na = or x y\n", "1,true", "expected comma-separated 0s and 1s"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, text, inputs, said):
    circuit = tmp_path / "c.txt"
    circuit.write_text(text)
    for command in (("grundy", "circuit"), ("reduce", "circuit-to-grundy")):
        run = run_cli(*command, circuit, "--inputs", inputs)
        assert run.code == 2 and said in run.stderr, run.stderr
        assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr


def test_inputs_are_required():
    missing = run_cli("grundy", "circuit", EXAMPLE)
    assert missing.code == 2 and "missing option --inputs (a 0/1 value for each of x, y, z)" in missing.stderr


def test_circuit_saved_and_rechecked():
    instance = read_circuit_value(EXAMPLE, "1,0,0")
    data = assert_rechecked(CIRCUIT, instance, CIRCUIT.ask(instance))
    assert data["answer"] == 1
    assert_refuted(CIRCUIT, instance, data, _set(("answer",), 0))
    assert_refuted(CIRCUIT, instance, data, _set(("witness", "a"), 1))  # mex rule broken at a
    # a Grundy function of a different graph: every value flipped where it could be
    assert_refuted(CIRCUIT, read_circuit_value(EXAMPLE, "1,1,0"), data, lambda d: None)
