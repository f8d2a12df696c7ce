"""Reading and writing CNF, 3DM and X3C instances; every bad input is one clear InputError."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyasp_games.domains.cover.cnf import CNF, format_dimacs, parse_dimacs
from pyasp_games.domains.cover.model import (
    X3C,
    ThreeDM,
    format_3dm,
    format_x3c,
    load_instance,
    parse_instance,
    random_x3c,
)
from pyasp_games.engines.resources import instance_dir
from pyasp_games.errors import InputError


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("p cnf 2 1\n1 3 0\n", "literal 3 exceeds the 2 variables"),
        ("p cnf 2 2\n1 2 0\n", "promises 2 clauses, found 1"),
        ("1 2 0\n", "the 'p cnf' header must come first"),
        ("c nothing\n", "no 'p cnf"),
        ("p cnf 2 1\n1 2\n", "does not end in 0"),
        ("p cnf 2 1\n1 x 0\n", "'x' is not a literal"),
        ("p cnf 2\n1 0\n", "expected 'p cnf VARIABLES CLAUSES'"),
        ("p cnf 1 1\np cnf 1 1\n1 0\n", "a second 'p cnf' header"),
    ],
)
def test_bad_dimacs(text, message):
    with pytest.raises(InputError, match=message):
        parse_dimacs(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("7\n0 1 2\n", "not a multiple of 3"),
        ("6\n0 1 6\n", "outside the universe"),
        ("6\n0 1 1\n", "repeats element 1"),
        ("6\n0 1\n", "has 2 elements, not 3"),
        ("6\n0 1 a\n", "not a list of elements"),
        ("six\n", "expected the universe size"),
        ("", "empty X3C file"),
        ("W: a b\nX: c d\nY: e\n", "3DM needs three sets of equal size"),
        ("W: a\nX: a\nY: c\n", "in both W and X"),
        ("W: a\nX: b\nY: c\na b z\n", "'z' is in none of W, X, Y"),
        ("W: a\nX: b\nY: c\nb a c\n", "'b' is in X, expected one of W"),
        ("W: a\nX: b\nY: c\na a c\n", "repeats an element"),
        ("W: a\nX: b\na b c\n", "before the sets Y are given"),
        ('{"type": "x3c", "universe": 6, "subsets": [[0, 1, 9]]}', "outside the universe"),
        ('{"type": "x3c", "universe": 5, "subsets": []}', "not a multiple of 3"),
        (
            '{"type": "3dm", "W": ["a"], "X": ["b"], "Y": ["c"], "triples": [["a", "c", "b"]]}',
            "expected X",
        ),
        ('{"type": "3dm", "W": ["a"], "X": ["b"]}', "needs the field 'Y'"),
        ('{"type": "graph"}', '"type": "x3c" or "3dm"'),
        ("{nope", "not valid JSON"),
        ("p cnf 1 1\n1 0\n", "this is a DIMACS CNF"),
    ],
)
def test_bad_cover_instances(text, message):
    with pytest.raises(InputError, match=message):
        parse_instance(text)


def test_errors_name_the_file(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("6\n0 1 1\n")
    with pytest.raises(InputError, match=r"bad\.txt: line 2: subset 0 repeats element 1"):
        load_instance(bad)
    with pytest.raises(InputError, match="no such file"):
        load_instance(tmp_path / "missing.txt")


@st.composite
def x3cs(draw):
    q = draw(st.integers(0, 5))
    triple = st.lists(st.integers(0, 3 * q - 1), min_size=3, max_size=3, unique=True).map(tuple)
    subsets = draw(st.lists(triple, max_size=10)) if q else []
    return X3C(3 * q, tuple(subsets), None, "x", draw(st.sampled_from([None, True, False])))


@given(x3cs(), st.booleans())
@settings(max_examples=50)
def test_x3c_round_trips(inst, as_json):
    back = parse_instance(format_x3c(inst, as_json), "x")
    assert (back.size, back.subsets, back.known) == (inst.size, inst.subsets, inst.known)


@given(st.integers(1, 4), st.data(), st.booleans())
@settings(max_examples=40)
def test_3dm_round_trips(q, data, as_json):
    idx = st.integers(0, q - 1)
    triples = data.draw(st.lists(st.tuples(idx, idx, idx), max_size=8))
    names = [tuple(f"{p}{i}" for i in range(q)) for p in "wxy"]
    inst = ThreeDM(*names, tuple(triples), "d")
    back = parse_instance(format_3dm(inst, as_json), "d")
    assert isinstance(back, ThreeDM)
    assert (back.W, back.X, back.Y, back.triples) == (inst.W, inst.X, inst.Y, inst.triples)


@given(
    st.integers(0, 5), st.lists(st.lists(st.integers(-5, 5).filter(bool), max_size=5), max_size=6)
)
def test_dimacs_round_trips(n, clauses):
    clauses = [tuple(lit for lit in c if abs(lit) <= n) for c in clauses]
    cnf = CNF(n, tuple(clauses))
    assert parse_dimacs(format_dimacs(cnf, ["a comment"])).clauses == cnf.clauses


@given(st.integers(3, 40), st.integers(1, 6), st.booleans(), st.integers(0, 10**6))
@settings(max_examples=30)
def test_random_x3c_is_regular_with_distinct_subsets(q, d, planted, seed):
    try:
        inst = random_x3c(q, d, planted, seed)
    except InputError:  # a few tiny parameter sets have no such instance
        assert q <= 4
        return
    assert len(set(inst.subsets)) == len(inst.subsets) == q * d
    degree = [0] * inst.size
    for s in inst.subsets:
        for e in s:
            degree[e] += 1
    assert set(degree) == {d}


def test_bundled_instances_parse_and_state_their_answers():
    folder = instance_dir("cover")
    for path in sorted(folder.glob("*.txt")):
        if path.name.startswith("cnf-"):
            assert parse_dimacs(path.read_text()).known is not None
        else:
            assert load_instance(path).known is not None, path.name
    assert (folder / "README.md").is_file() and (folder / "index.toml").is_file()
