"""One DIMACS reader for every domain that takes CNF (cover's ``reduce chain``, QBF for
Geography and ``ip qbf``, SSAT): the same bad file is refused in the same words."""

from __future__ import annotations

import pytest

from pyasp_games.domains.cover.cnf import parse_dimacs
from pyasp_games.domains.geography.tqbf import parse_qdimacs
from pyasp_games.domains.ssat.model import parse_ssat
from pyasp_games.errors import InputError

READERS = (parse_dimacs, parse_qdimacs, parse_ssat)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("p cnf 2 1\ne 1 0\n1 3 0\n", "f, line 3: literal 3 exceeds the 2 variables"),
        ("p cnf 2 2\ne 1 2 0\n1 2 0\n", "f: the header promises 2 clauses, found 1"),
        ("1 2 0\np cnf 2 1\n", "f, line 1: the 'p cnf' header must come first"),
        ("c nothing\n", "f: no 'p cnf VARIABLES CLAUSES' header"),
        ("p cnf 2 1\ne 1 2 0\n1 2\n", "f: the last clause does not end in 0"),
        ("p cnf 2 1\ne 1 2 0\n1 ２ 0\n", "f, line 3: '２' is not a literal"),
        ("p cnf 2 1 0\n1 0\n", "f, line 1: expected 'p cnf VARIABLES CLAUSES', got 'p cnf 2 1 0'"),
        ("p cnf 1 1\np cnf 1 1\n1 0\n", "f, line 2: a second 'p cnf' header"),
        ("p cnf -1 1\n1 0\n", "f, line 1: negative counts in the header"),
    ],
)
def test_every_reader_refuses_a_bad_file_in_the_same_words(text, message):
    for read in READERS:
        if read is parse_dimacs:  # plain CNF has no quantifier line: a comment in its place
            text = "\n".join("c" if line.startswith("e ") else line for line in text.splitlines())
        with pytest.raises(InputError) as refused:
            read(text, "f")
        assert str(refused.value) == message, (read.__name__, str(refused.value))


def test_a_quantifier_line_after_the_clauses_is_refused_where_quantifiers_exist():
    for read in (parse_qdimacs, parse_ssat):
        with pytest.raises(InputError, match="f, line 3: a quantifier line after the clauses"):
            read("p cnf 2 1\n1 2 0\ne 1 2 0\n", "f")
