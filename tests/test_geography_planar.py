"""``geography planarize``: the crossing gadget keeps the winner exactly when no play uses
both crossing arcs; the output is planar; the command refuses what it cannot prove."""

from __future__ import annotations

import itertools
import json
import random

import networkx as nx
import pytest

from pyasp_games.domains.geography.model import parse_instance
from pyasp_games.domains.geography.native import solve_native
from pyasp_games.domains.geography.planar import (
    UnsafeCrossing,
    planarize,
    play_using,
    usable_part,
    with_gadgets,
)
from pyasp_games.engines.graphs import from_arcs

from .conftest import run_cli


def winner(graph, start):
    return solve_native(parse_instance(graph.format_arcs(), start, "vertex")).answer


def random_digraph(rnd, n, m):
    arcs = set()
    while len(arcs) < m:
        u, v = rnd.randrange(n), rnd.randrange(n)
        if u != v:
            arcs.add((u, v))
    return from_arcs([(str(u), str(v)) for u, v in sorted(arcs)], [str(i) for i in range(n)])


def simple_plays(succ, start):
    """Every play from ``start`` (simple path), by brute force."""
    out, stack = [], [[start]]
    while stack:
        path = stack.pop()
        out.append(path)
        stack += [[*path, w] for w in succ[path[-1]] if w not in path]
    return out


def gadget_trial(rnd, largest, most_pairs):
    """A random digraph on 3 to ``largest`` vertices (start ``0``) with 1 to ``most_pairs``
    pairs of its usable arcs crossed by gadgets at random places along each arc:
    ``(graph, the graph with the gadgets, whether every crossing is safe, the pairs)``, or
    ``None`` when the start has fewer than two usable arcs."""
    n = rnd.randint(3, largest)
    g = random_digraph(rnd, n, rnd.randint(n, min(n * (n - 1), 3 * n)))
    _, arcs = usable_part(g, 0)
    if len(arcs) < 2:
        return None
    succ = [[] for _ in range(len(g))]
    for u, v in arcs:
        succ[u].append(v)
    pairs = [rnd.sample(range(len(arcs)), 2) for _ in range(rnd.randint(1, most_pairs))]
    along = [[] for _ in arcs]
    for k, (i, j) in enumerate(pairs):  # at random places along each arc
        along[i].insert(rnd.randint(0, len(along[i])), (k, 0))
        along[j].insert(rnd.randint(0, len(along[j])), (k, 1))
    safe = all(play_using(succ, 0, arcs[i], arcs[j], None) is None for i, j in pairs)
    return g, from_arcs(with_gadgets(g.names, arcs, along, "X"), g.names), safe, pairs


def test_gadgets_keep_the_winner_exactly_when_every_crossing_is_safe():
    """Gadgets at random arc pairs (any order along the arcs, several per arc): where no
    play uses both arcs of a pair the winner is the same; where one does, it can change
    (the reason planarize checks every crossing)."""
    rnd = random.Random(7)
    safe_seen = changed = 0
    for _ in range(400):
        trial = gadget_trial(rnd, 7, 3)
        if trial is None:
            continue
        g, out, safe, pairs = trial
        if safe:
            safe_seen += 1
            assert winner(g, "0") == winner(out, "0"), (g.format_arcs(), pairs)
        elif winner(g, "0") != winner(out, "0"):
            changed += 1
    assert safe_seen > 50 and changed > 10


def test_play_using_agrees_with_brute_force():
    rnd = random.Random(3)
    for _ in range(150):
        n = rnd.randint(3, 7)
        g = random_digraph(rnd, n, rnd.randint(n, 2 * n))
        succ = [list(s) for s in g.succ]
        plays = simple_plays(succ, 0)
        arcs = list(g.arcs())
        for _ in range(4):
            e, f = rnd.sample(arcs, 2)
            found = play_using(succ, 0, e, f, None)
            expected = any(
                e in itertools.pairwise(p) and f in itertools.pairwise(p) for p in plays
            )
            assert (found is not None) == expected
            if found is not None:
                steps = list(itertools.pairwise(found))
                assert found[0] == 0 and len(set(found)) == len(found)
                assert e in steps and f in steps and all(v in succ[u] for u, v in steps)


def k33_game():
    arcs = [("s", f"l{i}") for i in (1, 2, 3)] + [(f"l{i}", f"r{j}") for i in (1, 2, 3) for j in (1, 2, 3)]
    return from_arcs([*arcs, ("r1", "e"), ("e", "f")], headers={"start": "s"})


def test_planarize_a_non_planar_game():
    g = k33_game()
    assert not nx.check_planarity(g.to_networkx().to_undirected())[0]
    p = planarize(g, "s")
    assert p.crossings > 0 and not p.planar_input and all(c.safe for c in p.crossing_list)
    assert nx.check_planarity(p.graph.to_networkx().to_undirected())[0]
    assert winner(g, "s") == winner(p.graph, "s")
    # from another start the game differs, and so does the answer's proof
    assert winner(g, "l1") == winner(planarize(g, "l1").graph, "l1")


def test_planarize_random_layered_games():
    """A start, two layers joined at random, private tails: every play crosses between the
    layers once, so a drawing whose crossings lie between the layers is safe."""
    rnd = random.Random(11)
    done = 0
    for _ in range(6):
        k = rnd.randint(3, 4)
        arcs = [("s", f"l{i}") for i in range(k)]
        arcs += [(f"l{i}", f"r{j}") for i in range(k) for j in range(k) if rnd.random() < 0.8]
        arcs += [(f"r{j}", f"t{j}") for j in range(k) if rnd.random() < 0.5]
        g = from_arcs(arcs, headers={"start": "s"})
        try:
            p = planarize(g, "s")
        except UnsafeCrossing as refused:  # no drawing tried kept the crossings between layers
            steps = list(zip(refused.play, refused.play[1:], strict=False))
            assert all(arc in steps for arc in refused.arcs)
            continue
        assert nx.check_planarity(p.graph.to_networkx().to_undirected())[0]
        assert winner(g, "s") == winner(p.graph, "s")
        done += not p.planar_input
    assert done >= 2


def test_planarize_the_tqbf_games():
    """Schaefer's graphs of random QBFs: planar, with the winner the formula's truth."""
    from pyasp_games.domains.geography.tqbf import parse_qdimacs, qbf_true, to_geography

    from .test_geography_tqbf import random_qdimacs

    rng = random.Random(3)
    redrawn = 0
    for _ in range(12):
        q = parse_qdimacs(random_qdimacs(rng)[0])
        g = to_geography(q)
        p = planarize(g, "in1")
        assert nx.check_planarity(p.graph.to_networkx().to_undirected())[0]
        assert winner(p.graph, "in1") == ("first" if qbf_true(q) else "second") == winner(g, "in1")
        redrawn += not p.planar_input
    assert redrawn >= 3


def test_a_crossing_used_twice_is_refused_with_the_play():
    names = [str(i) for i in range(6)]
    g = from_arcs([(u, v) for u in names for v in names if u != v])  # complete digraph K6
    with pytest.raises(UnsafeCrossing) as refused:
        planarize(g, "0")
    play, ((a, b), (c, d)) = refused.value.play, refused.value.arcs
    steps = list(itertools.pairwise(play))
    assert play[0] == "0" and len(set(play)) == len(play)
    assert (a, b) in steps and (c, d) in steps


def test_an_unsafe_crossing_is_told_by_the_input_s_arcs():
    """On the undirected K3,3 (both arcs of every edge: the drawing subdivides one of each
    pair), the refused crossing is two arcs of the input, named by its vertices, and the
    play shown goes along both."""
    left, right = ["a1", "a2", "a3"], ["b1", "b2", "b3"]
    edges = [(a, b) for a in left for b in right]
    g = from_arcs(edges + [(b, a) for a, b in edges], left + right)
    for start in left + right:
        with pytest.raises(UnsafeCrossing) as refused:
            planarize(g, start)
        play, arcs = refused.value.play, refused.value.arcs
        steps = list(itertools.pairwise(play))
        for arc in arcs:
            assert arc in steps and set(arc) <= set(left + right), (start, arcs, play)
        assert "..." not in str(refused.value)


def test_cli_refuses_the_undirected_k33_with_readable_arcs(tmp_path):
    src = tmp_path / "k33.txt"
    src.write_text("# start: a1\n" + "".join(f"a{i} b{j}\n" for i in (1, 2, 3) for j in (1, 2, 3)))
    run = run_cli("geography", "planarize", src, "--undirected", "--route", "drawing", "--json")
    assert run.code == 3
    said = json.loads(run.stdout)
    steps = list(itertools.pairwise(said["play"]))
    assert all(tuple(arc) in steps for arc in said["unsafe_crossing"]), said
    assert "..." not in run.stderr and "->" in run.stderr


def test_an_undirected_graph_file_is_read_with_undirected(tmp_path):
    # networkx's node-link JSON (and GraphML) of an undirected graph: refused as a
    # digraph ("a game graph needs directed arcs") even where --undirected was given
    g = nx.complete_bipartite_graph(3, 3)
    src = tmp_path / "k33.json"
    src.write_text(json.dumps({"nodes": [{"id": n} for n in g.nodes],
                               "links": [{"source": u, "target": v} for u, v in g.edges]}))  # fmt: skip
    solved = run_cli("geography", "solve", src, "--undirected", "-s", "0", "--json")
    assert solved.code == 0 and solved.json()["answer"] == "first", solved.stderr
    run = run_cli("geography", "planarize", src, "--undirected", "-s", "0", "--route", "drawing", "--json")
    assert run.code == 3 and "a game graph needs directed arcs" not in run.stderr
    assert "->" in run.stderr and "..." not in run.stderr


def test_cli_planarize(tmp_path):
    src = tmp_path / "k33.txt"
    src.write_text(k33_game().format_arcs())
    out = tmp_path / "planar.txt"
    run = run_cli("geography", "planarize", src, "-o", out, "--json")
    assert run.code == 0, run.stderr
    said = json.loads(run.stdout)
    assert said["planar"] is True and said["winner_preserved"] is True and said["crossings"]
    solved = [run_cli("geography", "solve", f, "--json").json()["answer"] for f in (src, out)]
    assert solved[0] == solved[1]
    again = run_cli("geography", "planarize", src, "-o", out)
    assert again.code == 2 and "file exists" in again.stderr  # never overwritten unasked
    src_edge = tmp_path / "edge.txt"
    src_edge.write_text("# start: a\n# variant: edge\n# undirected: yes\na b\n")
    refused = run_cli("geography", "planarize", src_edge, "--route", "drawing")
    assert refused.code == 2 and "undirected edge geography" in refused.stderr
    complete = tmp_path / "k6.txt"
    complete.write_text("# start: 0\n" + "".join(f"{u} {v}\n" for u in range(6) for v in range(6) if u != v))
    unsafe = run_cli("geography", "planarize", complete, "--route", "drawing", "--json")
    assert unsafe.code == 3 and json.loads(unsafe.stdout)["status"] == "unknown"
    assert "no drawing tried keeps" in unsafe.stderr
    for bad in ("nan", "-1"):
        assert run_cli("geography", "planarize", src, "--time-limit", bad).code == 2
