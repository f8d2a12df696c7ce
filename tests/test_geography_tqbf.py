"""TQBF -> Geography (Schaefer's reduction): the first player wins iff the formula is true."""

from __future__ import annotations

import random

import pytest

from pyasp_games.domains.geography.asp import solve_asp
from pyasp_games.domains.geography.model import make_instance
from pyasp_games.domains.geography.native import solve_game
from pyasp_games.domains.geography.tqbf import parse_qdimacs, qbf_true, to_geography
from pyasp_games.errors import InputError

from .conftest import run_cli


def random_qdimacs(rng: random.Random) -> tuple[str, list[tuple[str, int]], list[list[int]]]:
    n = rng.randint(1, 4)
    order = list(range(1, n + 1))
    rng.shuffle(order)
    free = rng.randint(0, 1) if n > 1 else 0
    prefix = [(rng.choice("ea"), v) for v in order[free:]]
    clauses = [
        [rng.choice((1, -1)) * rng.randint(1, n) for _ in range(rng.randint(1, 3))]
        for _ in range(rng.randint(1, 4))
    ]
    lines = [f"p cnf {n} {len(clauses)}"]
    i = 0
    while i < len(prefix):  # group runs of one quantifier into blocks
        j = i
        while j < len(prefix) and prefix[j][0] == prefix[i][0]:
            j += 1
        lines.append(prefix[i][0] + " " + " ".join(str(v) for _, v in prefix[i:j]) + " 0")
        i = j
    lines += [" ".join(map(str, c)) + " 0" for c in clauses]
    full = [("e", v) for v in order[:free]] + prefix  # free variables: outermost, existential
    return "\n".join(lines) + "\n", full, clauses


def truth(prefix: list[tuple[str, int]], clauses: list[list[int]], assign: dict) -> bool:
    """Independent evaluation over the original prefix (no padding, no normalisation)."""
    if not prefix:
        return all(any(assign[abs(lit)] == (lit > 0) for lit in c) for c in clauses)
    (kind, v), rest = prefix[0], prefix[1:]
    values = [truth(rest, clauses, {**assign, v: b}) for b in (True, False)]
    return any(values) if kind == "e" else all(values)


@pytest.mark.parametrize("count", [15, pytest.param(80, marks=pytest.mark.slow)])
def test_random_qbfs_first_player_wins_iff_true(count):
    """The first ``count`` QBFs of one seed (the slow run: 80, the first 15 among them),
    both games of each by both solvers; true and false ones both among them."""
    rng = random.Random(1993)
    seen = {True: 0, False: 0}
    for _ in range(count):
        text, prefix, clauses = random_qdimacs(rng)
        q = parse_qdimacs(text)
        kinds = [k for k, _ in q.prefix]
        assert kinds == ["e" if i % 2 == 0 else "a" for i in range(len(kinds))]
        assert kinds[-1] == "e"
        expected = truth(prefix, clauses, {})
        assert qbf_true(q) == expected
        seen[expected] += 1
        for variant in ("vertex", "edge"):
            game = make_instance(to_geography(q, variant), None, variant)
            assert solve_game(game).first_wins == expected, (text, variant)
            assert (solve_asp(game).answer == "first") == expected, (text, variant)
    assert seen[True] >= count // 8 and seen[False] >= count // 8, seen


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("1 2 0\n", "header must come first"),
        ("p cnf 2 1\ne 1 0\n1 x 0\n", "'x' is not a literal"),
        ("p cnf 2 1\ne 1 x 0\n1 0\n", "not a list of integers"),
        ("p cnf 2 2\n1 2 0\n", "promises 2 clauses"),
        ("p cnf 2 1\n1 3 0\n", "exceeds"),
        ("p cnf 2 1\ne 1 0\na 1 0\n1 0\n", "quantified twice"),
        ("p cnf 2 1\n1 2\n", "does not end in 0"),
        ("p cnf 2 1\n1 2 0\ne 1 0\n", "after the clauses"),
        ("", "no 'p cnf VARIABLES CLAUSES' header"),
    ],
)
def test_malformed_qdimacs(text, fragment):
    with pytest.raises(InputError, match=fragment):
        parse_qdimacs(text)


def test_cli_reduce_then_solve(tmp_path):
    qbf = tmp_path / "f.qdimacs"
    # exists x1 forall x2 exists x3: (x2 | x3) & (x2 | -x3) is false (x2 = 0)
    qbf.write_text("p cnf 3 2\ne 1 0\na 2 0\ne 3 0\n2 3 0\n2 -3 0\n")
    graph = tmp_path / "g.txt"
    run = run_cli("reduce", "qbf-to-geography", qbf, "-o", graph, "--variant", "edge")
    assert run.code == 0 and graph.is_file()
    out = run_cli("geography", "solve", graph, "--json").json()
    assert out["answer"] == "second" and out["stats"]["verified"] is True
    again = run_cli("reduce", "qbf-to-geography", qbf, "-o", graph)
    assert again.code == 2 and "file exists" in again.stderr
    bad = tmp_path / "bad.qdimacs"
    bad.write_text("p cnf 1 1\ne 1\n1 0\n")
    run = run_cli("reduce", "qbf-to-geography", bad)
    assert run.code == 2 and len(run.stderr.strip().splitlines()) == 1
    assert "Traceback" not in run.stderr
