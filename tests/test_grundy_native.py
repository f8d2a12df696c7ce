"""Grundy values, sums and classic games: the seeds' examples and random properties."""

from __future__ import annotations

import random
from functools import cache

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyasp_games.domains.grundy.acyclic import CyclicGraphError, grundy_values, winning_moves
from pyasp_games.domains.grundy.circuits import Gate, circuit_value, grundy_circuit
from pyasp_games.domains.grundy.classic_games import (
    grundys_game,
    nim_winning_moves,
    subtraction_period,
    subtraction_values,
)
from pyasp_games.domains.grundy.generalized import sum_graph
from pyasp_games.domains.grundy.model import parse_graph
from pyasp_games.domains.grundy.sums import or_sum_winning_moves, sum_winning_moves
from pyasp_games.domains.grundy.verify import check_grundy_function
from pyasp_games.engines.graphs import from_arcs
from pyasp_games.engines.limits import Deadline, LimitReached


def naive_grundy(graph):
    """The definition, by memoised recursion (acyclic graphs only)."""

    @cache
    def g(v):
        seen = {g(w) for w in graph.succ[v]}
        k = 0
        while k in seen:
            k += 1
        return k

    return [g(v) for v in range(len(graph))]


dags = st.integers(1, 25).flatmap(
    lambda n: st.lists(
        st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda a: a[0] < a[1]),
        max_size=4 * n,
    ).map(lambda arcs: from_arcs(arcs, range(n)))
)


@settings(max_examples=80, deadline=None)
@given(dags)
def test_queue_algorithm_is_the_definition_on_random_dags(g):
    values = grundy_values(g)
    assert values == naive_grundy(g)
    assert check_grundy_function(g, dict(zip(g.names, values, strict=True)))[0]
    for v in range(len(g)):
        moves = winning_moves(g, values, v)
        assert bool(moves) == (values[v] != 0)  # Proposition 3: value 0 exactly on P


def test_cycles_are_named():
    with pytest.raises(CyclicGraphError, match=r"a -> b -> c -> a"):
        grundy_values(parse_graph("a b\nb c\nc a\n"))


def test_nim_handout_examples():
    # the worked examples of the Nim handout "Il gioco del NIM" (Roma Tre)
    assert nim_winning_moves([3, 4, 5]) == [(1, 4, 5)]
    assert nim_winning_moves([3, 4, 8]) == [(3, 4, 7)]
    assert nim_winning_moves([1, 4, 5]) == []  # the P-position the handout moves to
    # The handout lists (2,6,4), (7,1,4) and (7,6,1) for (7,6,4), "removing 5, 5 or 3
    # coins": (7,1,4) has XOR 2, so it is a typo; removing 3 from the second row
    # gives (7,3,4), XOR 0. There are exactly three winning moves.
    moves = nim_winning_moves([7, 6, 4])
    assert moves == [(2, 6, 4), (7, 3, 4), (7, 6, 1)]
    assert all(a ^ b ^ c == 0 for a, b, c in moves)
    assert 7 ^ 1 ^ 4 != 0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=1, max_size=4))
def test_nim_moves_by_brute_force(heaps):
    want = []
    for i, h in enumerate(heaps):
        for k in range(h):
            after = (*heaps[:i], k, *heaps[i + 1 :])
            x = 0
            for a in after:
                x ^= a
            if x == 0:
                want.append(after)
    assert sorted(nim_winning_moves(heaps)) == sorted(want)


def test_subtraction_games_of_the_notes():
    assert subtraction_values([1, 2, 3], 20) == [j % 4 for j in range(21)]
    for k in range(1, 6):
        assert subtraction_values(range(1, k + 1), 30) == [j % (k + 1) for j in range(31)]
        p = subtraction_period(range(1, k + 1))
        assert (p.preperiod, p.period) == (0, k + 1)


@settings(max_examples=40, deadline=None)
@given(st.sets(st.integers(1, 9), min_size=1, max_size=4))
def test_subtraction_period_is_exact_and_minimal(moves):
    p = subtraction_period(moves)
    g = subtraction_values(moves, p.preperiod + 6 * p.period + 40)
    assert all(g[n] == g[n + p.period] for n in range(p.preperiod, len(g) - p.period))
    if p.preperiod:
        assert g[p.preperiod - 1] != g[p.preperiod - 1 + p.period]
    for q in range(1, p.period):  # no smaller period from the preperiod on
        assert any(g[n] != g[n + q] for n in range(p.preperiod, len(g) - q))


def test_subtraction_with_a_preperiod():
    p = subtraction_period([2, 5])
    g = subtraction_values([2, 5], 60)
    assert all(g[n] == g[n + p.period] for n in range(p.preperiod, 60 - p.period))


def test_grundys_game_seed_table_and_the_definition():
    assert grundys_game(15) == [0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1]
    g = [0, *grundys_game(2600)]  # past the warm-up and one re-choice of the mask
    for n in (*range(1, 400), *range(2400, 2600)):
        reach = {g[a] ^ g[n - a] for a in range(1, n) if 2 * a < n}
        k = 0
        while k in reach:
            k += 1
        assert g[n] == k, n


def test_grundys_game_by_explicit_game_search():
    @cache
    def sg(state):
        options = set()
        for i, h in enumerate(state):
            for a in range(1, (h + 1) // 2):
                options.add(sg(tuple(sorted((*state[:i], *state[i + 1 :], a, h - a)))))
        k = 0
        while k in options:
            k += 1
        return k

    assert grundys_game(30) == [sg((n,)) for n in range(1, 31)]


def test_grundys_game_honours_the_deadline():
    with pytest.raises(LimitReached):
        grundys_game(300_000, Deadline(0.2))


small_dags = st.integers(1, 6).flatmap(
    lambda n: st.lists(
        st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda a: a[0] < a[1]),
        max_size=2 * n,
    ).map(lambda arcs: from_arcs(arcs, range(n)))
)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(small_dags, st.integers(0, 5)), min_size=1, max_size=3))
def test_sprague_grundy_sums_against_the_explicit_sum_graph(parts):
    graphs = [g for g, _ in parts]
    positions = [p % len(g) for g, p in parts]
    values = [grundy_values(g) for g in graphs]
    total, moves = sum_winning_moves(graphs, values, positions)
    product, start = sum_graph(graphs, positions)
    direct = grundy_values(product)
    assert direct[start] == total
    winning = {product.names[w] for w in product.succ[start] if direct[w] == 0}
    ours = set()
    for m in moves:
        after = list(positions)
        after[m.component] = m.target
        ours.add("|".join(graphs[i].names[p] for i, p in enumerate(after)))
    assert ours == winning
    # the OR rule (the selective compound): losing iff every component is 0
    wins, options = or_sum_winning_moves(graphs, values, positions)
    assert wins == any(v[p] for v, p in zip(values, positions, strict=True))
    for i, opts in enumerate(options):
        assert all(values[i][w] == 0 for w in opts)
        assert bool(opts) == bool(values[i][positions[i]])


def random_circuit(rng, inputs, size):
    gates = [Gate("var", (i,)) for i in range(inputs)]
    for _ in range(size):
        op = rng.choice(["not", "and", "or"])
        k = len(gates)
        args = (rng.randrange(k),) if op == "not" else (rng.randrange(k), rng.randrange(k))
        gates.append(Gate(op, args))
    return gates


def test_grundy_circuits_compute_circuit_value():
    rng = random.Random(3)
    for _ in range(150):
        n = rng.randint(1, 4)
        gates = random_circuit(rng, n, rng.randint(1, 12))
        inputs = [rng.random() < 0.5 for _ in range(n)]
        graph, out = grundy_circuit(gates, inputs)
        assert nx.is_directed_acyclic_graph(graph.to_networkx())
        values = grundy_values(graph)
        # gate vertices carry Boolean values (Mes(x, y) inside an AND may be 2)
        assert {values[v] for v, name in enumerate(graph.names) if "." not in name} <= {0, 1}
        assert values[out] == int(circuit_value(gates, inputs))
