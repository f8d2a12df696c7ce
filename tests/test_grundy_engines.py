"""The enumeration facility added to the shared clingo runner for ``--all``/``--count``."""

from __future__ import annotations

from pyasp_games.engines.clingo_runner import ClingoSession
from pyasp_games.engines.limits import Deadline


def test_enumerate_all_some_and_none():
    seen = []
    s = ClingoSession(facts="{ p(1..3) }. #show p/1.")
    s.ground([("base", [])])
    result = s.enumerate(lambda symbols: seen.append(sorted(map(str, symbols))))
    assert result.status == "sat" and result.models == 8 == len(seen)
    assert len({tuple(x) for x in seen}) == 8
    s = ClingoSession(facts="{ p(1..3) }.")
    s.ground([("base", [])])
    assert s.enumerate(lambda _: None, limit=3).models == 3
    s = ClingoSession(facts="p. :- p.")
    s.ground([("base", [])])
    assert s.enumerate(lambda _: None).status == "unsat"


def test_enumerate_stops_at_the_deadline():
    s = ClingoSession(facts="{ p(1..60) }.", deadline=Deadline(0.5))
    s.ground([("base", [])])
    result = s.enumerate(lambda _: None)
    assert result.status == "unknown" and result.models > 0
