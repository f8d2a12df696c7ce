"""The checker of Node Kayles answers, from the rules alone (imports nothing from the
solvers).

``kayles value``: a value comes with the value left by every move. The checker makes
each move itself (deletes the vertex and its neighbours: its own move generator),
checks that the witness lists exactly the graph's moves, that the value is the mex of
the options' values, that the outcome and the winning moves (the options of value 0)
follow. Then every option's value: from the native backend's certificate, its table of
K-set values, once :mod:`~pyasp_games.domains.kayles.k_set_check` has confirmed the
table by the mex rule at every entry (one compiled pass, no search: every answer of the
native backend on at most 62 vertices is so checked in full); without one, it
recomputes every option's value by its own search (:class:`Recount`:
the position split into components, XOR of their values; a path by its own run of the
.137 recursion; any other component by plain memoised search), within a budget of
positions (:data:`BUDGET`). Options beyond the budget are named in the verdict's
``not_checked``: they rest on the backend's search, and the answer is *verified in
part* (JSON ``"verified": "partial"``), never counted as a full check.

``kayles sequence``: every term recomputed the same way (paths and cycles by the
recursion, with the period proved here again; other members from their tables of
K-set values where the certificate has them, confirmed as for ``value``, else within
the budget, the terms beyond it named in ``not_checked`` as above); the witness's family and range, and
for paths and cycles the period it states (period, preperiod, exceptions, the range of
the periodicity theorem's hypothesis), are the checker's own.

>>> from pyasp_games.engines.graphs import numbered_graph
>>> from pyasp_games.engines.outcome import Outcome
>>> p3 = numbered_graph(3, [(0, 1), (1, 2)], "P3")
>>> w = {"value": 2, "outcome": "first", "options": {"0": 1, "1": 0, "2": 1},
...      "winning_moves": ["1"]}
>>> check_value(p3, Outcome("P3", "native", "solved", 2, w))
(True, 'the value 2 is the mex of the 3 options, every option recomputed')
>>> bad = dict(w, options={"0": 1, "1": 0, "2": 0}, winning_moves=["1", "2"])
>>> check_value(p3, Outcome("P3", "native", "solved", 2, bad))
(False, 'the move 2 leaves a position of value 1, not 0')
"""

from __future__ import annotations

from typing import Any

from pyasp_games.domains.grundy.model import Misere
from pyasp_games.engines.graphs import Graph, set_bits
from pyasp_games.engines.outcome import Outcome

#: Positions the checker's own search may expand per answer before it stops.
BUDGET = 200_000
#: Machine words the checker's splitting into components may touch per answer (a
#: position of a huge graph costs its size in words per vertex reached).
WORK = 50_000_000
#: .137's period and the most tokens one move takes (the periodicity theorem's t).
_PERIOD, _TAKEN = 34, 3


class _OutOfBudget(Exception):
    pass


class Recount:
    """Grundy values of positions of one graph, by the checker's own search."""

    def __init__(self, graph: Graph, budget: int = BUDGET, work: int = WORK) -> None:
        self.n = len(graph)
        self.words = self.n // 64 + 1
        self.work = work
        self.nbr = [0] * self.n
        for u, v in graph.edges:
            self.nbr[u] |= 1 << v
            self.nbr[v] |= 1 << u
        self.budget = budget
        self.memo: dict[int, int] = {}

    def parts(self, mask: int) -> list[int]:
        if self.work < 0:
            raise _OutOfBudget
        out = []
        while mask:
            part, todo = 0, mask & -mask
            while todo:
                low = todo & -todo
                todo ^= low
                part |= low
                todo |= self.nbr[low.bit_length() - 1] & mask & ~part
            out.append(part)
            mask &= ~part
            self.work -= part.bit_count() * self.words
        if self.work < 0:
            raise _OutOfBudget
        return out

    def value(self, mask: int) -> int:
        total = 0
        for part in self.parts(mask):
            total ^= self.part_value(part)
        return total

    def part_value(self, part: int) -> int:
        known = self.memo.get(part)
        if known is not None:
            return known
        k = part.bit_count()
        degrees = [(self.nbr[v] & part).bit_count() for v in set_bits(part)]
        if max(degrees, default=0) <= 2 and sum(degrees) == 2 * (k - 1):
            value = path_grundy(k)  # a connected graph with k - 1 edges, degrees <= 2
        else:
            self.budget -= 1
            if self.budget < 0:
                raise _OutOfBudget
            seen = {self.value(part & ~(self.nbr[v] | 1 << v)) for v in set_bits(part)}
            value = 0
            while value in seen:
                value += 1
        self.memo[part] = value
        return value

    def tried(self, mask: int) -> int | None:
        """The value of ``mask``, or ``None`` past the budget."""
        try:
            return self.value(mask)
        except _OutOfBudget:
            return None


_paths: list[int] = [0]


def path_grundy(n: int) -> int:
    """``g(P_n)``: by the rule (a move deletes a vertex and its neighbours, leaving
    ``P_a + P_b``) up to 300; beyond, by the period 34, whose hypothesis in the
    Guy-Smith theorem (``g(m + 34) = g(m)`` for ``n0 <= m < 2 n0 + 37``) is checked on
    those values here."""
    while len(_paths) <= min(n, 300):
        m = len(_paths)
        seen = {_paths[max(i - 1, 0)] ^ _paths[max(m - i - 2, 0)] for i in range(m)}
        k = 0
        while k in seen:
            k += 1
        _paths.append(k)
    if n <= 300:
        return _paths[n]
    for n0 in range(0, 120):
        if all(_paths[m + _PERIOD] == _paths[m] for m in range(n0, 2 * n0 + _PERIOD + _TAKEN)):
            return _paths[n0 + (n - n0) % _PERIOD]
    raise AssertionError("no period 34 proved within 300 values")


def path_period() -> dict[str, Any]:
    """The period of paths as the checker finds it from its own values
    (:func:`path_grundy`): the least ``n0`` for which ``g(m + 34) = g(m)`` holds for
    ``n0 <= m < 2 n0 + 37`` (the Guy-Smith hypothesis), and the indices below it whose
    value differs from the periodic part's."""
    path_grundy(300)
    for n0 in range(0, 120):
        last = 2 * n0 + _PERIOD + _TAKEN
        if all(_paths[m + _PERIOD] == _paths[m] for m in range(n0, last)):
            later = _PERIOD * (n0 // _PERIOD + 1)
            return {"period": _PERIOD, "preperiod": n0, "last": last,
                    "exceptions": [m for m in range(n0) if _paths[m] != _paths[m + later]]}
    raise AssertionError("no period 34 proved within 300 values")


def _wrong_period(period: Any) -> str | None:
    """Why the period a sequence's witness states is not the checker's, or ``None``."""
    own = path_period()
    n0, last = own["preperiod"], own["last"]
    if not isinstance(period, dict):
        return f"the witness states no period of paths: {period!r}"
    stated = (period.get("period"), period.get("preperiod"), period.get("exceptions"), period.get("checked_upto"))
    expected = (own["period"], n0, own["exceptions"], last + _PERIOD - 1)
    if stated != expected:
        return (f"the witness's period (period, preperiod, exceptions, checked up to) is {stated}, "
                f"not {expected}")  # fmt: skip
    grounds = period.get("proof")
    if not isinstance(grounds, str) or f"for {n0} <= n < {last} " not in grounds:
        return f"the period's stated grounds are not the hypothesis for {n0} <= n < {last}: {grounds!r}"
    return None


def _budget_note(unchecked: list[str], what: str) -> str:
    shown = ", ".join(unchecked[:5]) + (", ..." if len(unchecked) > 5 else "")
    return (f"{len(unchecked)} {what} ({shown}): beyond the checker's budget ({BUDGET:,} "
            f"positions, {WORK:,} words of splitting), they rest on the backend's search")  # fmt: skip


def check_value(graph: Graph, outcome: Outcome) -> tuple[bool | None, str]:
    """A Grundy value with the values of all options (see the module docstring); under
    the misère rule: :func:`check_misere_value`."""
    if isinstance(graph, Misere):
        return check_misere_value(graph.game, outcome)
    if outcome.status != "solved":
        return None, "no answer to check"
    w = outcome.witness
    if not isinstance(w, dict) or not isinstance(w.get("options"), dict):
        return False, f"the witness gives no options: {w!r}"
    value, options = outcome.answer, w["options"]
    if type(value) is not int or w.get("value") != value:
        return False, f"the value {value!r} is not the witness's {w.get('value')!r}"
    if set(options) != set(graph.names):
        missing = sorted(set(graph.names) - set(options))[:3]
        extra = sorted(set(options) - set(graph.names))[:3]
        return False, f"the options are not the graph's moves (missing {missing}, not moves {extra})"
    if any(type(x) is not int or x < 0 for x in options.values()):
        return False, "an option's value is not a natural number"
    seen = set(options.values())
    mex = 0
    while mex in seen:
        mex += 1
    if mex != value:
        return False, f"the mex of the options' values is {mex}, not {value}"
    if w.get("outcome") != ("first" if value else "second"):
        return False, f"value {value} but the outcome says {w.get('outcome')!r}"
    zero = [name for name in graph.names if options[name] == 0]
    if sorted(w.get("winning_moves") or []) != sorted(zero):
        return False, f"the winning moves are {zero}, not {w.get('winning_moves')}"
    said = f"the value {value} is the mex of the {len(options)} options"
    if outcome.certificate is not None:
        return _by_table(graph, outcome, options, said)
    recount = Recount(graph, BUDGET, WORK)
    everything = (1 << len(graph)) - 1
    unchecked = []
    for v, name in enumerate(graph.names):
        got = recount.tried(everything & ~(recount.nbr[v] | 1 << v))
        if got is None:
            unchecked.append(name)
        elif got != options[name]:
            return False, f"the move {name} leaves a position of value {got}, not {options[name]}"
    if unchecked:
        outcome.verdict.not_checked = _budget_note(unchecked, "options' values")
        return True, said + f", {len(options) - len(unchecked)} of {len(options)} options recomputed"
    return True, said + ", every option recomputed"


def _by_table(graph: Graph, outcome: Outcome, options: dict[str, int], said: str) -> tuple[bool, str]:
    """The options' values from the backend's table of K-set values, once the table is
    confirmed by the mex rule at every set (:mod:`~pyasp_games.domains.kayles.k_set_check`)."""
    from pyasp_games.domains.kayles.k_set_check import Refuted, confirm

    try:
        whole, left, checked = confirm(graph, outcome.certificate)
    except Refuted as err:
        return False, f"the certificate does not hold: {err}"
    if whole != outcome.answer:
        return False, f"the confirmed table gives the graph the value {whole}, not {outcome.answer}"
    for name, got in zip(graph.names, left, strict=True):
        if got != options[name]:
            return False, f"the move {name} leaves a position of value {got}, not {options[name]}"
    sets = f"{checked:,} K-set" + ("s" if checked != 1 else "")
    return True, said + f", every option's value from the certificate's table of {sets}, each the mex of its own options"


def check_sequence(family: Any, outcome: Outcome) -> tuple[bool | None, str]:
    """Every term of a family's sequence recomputed (``family`` a ``model.Family``; its
    members are built here from the family's own rule); under the misère rule:
    :func:`check_misere_sequence`."""
    if getattr(family, "misere", False):
        return check_misere_sequence(family, outcome)
    if outcome.status != "solved":
        return None, "no answer to check"
    terms = outcome.answer
    first, upto = family.first, family.upto
    if not isinstance(terms, list) or len(terms) != upto - first + 1:
        return False, f"expected the {upto - first + 1} terms n = {first}..{upto}"
    w = outcome.witness
    if not isinstance(w, dict) or (w.get("family"), w.get("first"), w.get("upto")) != (family.name, first, upto):
        return False, f"the witness is not of {family.name}(n) for n = {first}..{upto}: {w!r}"
    if "period" in w or family.kind in ("path", "cycle"):
        if family.kind not in ("path", "cycle"):
            return False, f"the witness states a period of paths for the family {family.name}"
        wrong = _wrong_period(w.get("period"))
        if wrong:
            return False, wrong
    unchecked = []
    budget, work = BUDGET, WORK  # one budget for the whole sequence
    tables = outcome.certificate.get("tables") if isinstance(outcome.certificate, dict) else None
    for n, claimed in zip(range(first, upto + 1), terms, strict=True):
        if family.kind == "path":
            got = path_grundy(n)
        elif family.kind == "cycle":  # every move leaves P_(n-3)
            got = 1 if path_grundy(n - 3) == 0 else 0
        else:
            from pyasp_games.domains.kayles.model import family_graph

            graph = family_graph(family, n)
            table = tables.get(str(n)) if isinstance(tables, dict) else None
            if table is not None:  # the member's table of K-set values, confirmed
                from pyasp_games.domains.kayles.k_set_check import Refuted, confirm

                try:
                    got = confirm(graph, table)[0]
                except Refuted as err:
                    return False, f"{family.name}({n}): the certificate does not hold: {err}"
            else:
                recount = Recount(graph, max(budget, 0), max(work, 0))
                got = recount.tried((1 << len(graph)) - 1)
                budget, work = recount.budget, recount.work
        if got is None:
            unchecked.append(f"n={n}")
        elif got != claimed:
            return False, f"{family.name}({n}) has value {got}, not {claimed}"
    said = f"{len(terms) - len(unchecked)} of {len(terms)} terms recomputed"
    if unchecked:
        outcome.verdict.not_checked = _budget_note(unchecked, "terms")
    return True, said


# -- misère play (the player who moves last loses) ---------------------------------------


class MisereRecount:
    """Misère outcomes of positions (bit masks of the vertices left) of one graph, by the
    checker's own search: a position without vertices is won by its player (the other
    moved last), any other is won exactly when a move leaves a lost one. Past ``budget``
    positions it gives up (:meth:`tried` returns ``None``)."""

    def __init__(self, graph: Graph, budget: int = BUDGET) -> None:
        self.closed = [1 << v for v in range(len(graph))]
        for u, v in graph.edges:
            self.closed[u] |= 1 << v
            self.closed[v] |= 1 << u
        self.budget = budget
        self.memo: dict[int, bool] = {}

    def tried(self, mask: int) -> bool | None:
        stack = [mask]
        memo = self.memo
        while stack:
            x = stack[-1]
            if x in memo:
                stack.pop()
                continue
            nxt = [x & ~self.closed[v] for v in set_bits(x)]
            todo = [y for y in nxt if y not in memo]
            if todo:
                self.budget -= 1
                if self.budget < 0:
                    return None
                stack += todo
                continue
            memo[x] = not nxt or any(not memo[y] for y in nxt)
            stack.pop()
        return memo[mask]


def check_misere_value(graph: Graph, outcome: Outcome) -> tuple[bool | None, str]:
    """``kayles value --misere``: the class is N exactly when the graph is empty or some
    move leaves a P-position; every move's class recomputed by the checker's own search
    (within its budget)."""
    if outcome.status != "solved":
        return None, "no answer to check"
    w = outcome.witness
    if not isinstance(w, dict) or not isinstance(w.get("options"), dict):
        return False, f"the witness gives no options: {w!r}"
    cls, options = outcome.answer, w["options"]
    if cls not in ("P", "N") or w.get("class") != cls:
        return False, f"the class {cls!r} is not the witness's {w.get('class')!r}"
    if set(options) != set(graph.names) or any(c not in ("P", "N") for c in options.values()):
        return False, "the options are not the graph's moves, each with a class P or N"
    want = "N" if not options or "P" in options.values() else "P"
    if cls != want:
        return False, f"the moves leave {sorted(set(options.values()))}: the position is {want}"
    if w.get("outcome") != ("first" if cls == "N" else "second"):
        return False, f"class {cls} but the outcome says {w.get('outcome')!r}"
    if sorted(w.get("winning_moves") or []) != sorted(n for n in graph.names if options[n] == "P"):
        return False, "the winning moves are not exactly the moves to a P-position"
    recount = MisereRecount(graph)
    everything = (1 << len(graph)) - 1
    unchecked = []
    for v, name in enumerate(graph.names):
        got = recount.tried(everything & ~recount.closed[v])
        if got is None:
            unchecked.append(name)
        elif ("N" if got else "P") != options[name]:
            return False, f"the move {name} leaves a{'n N' if got else ' P'}-position, not {options[name]}"
    if unchecked:
        outcome.verdict.not_checked = _budget_note(unchecked, "options' classes")
    return True, f"class {cls} from the {len(options)} options, {len(options) - len(unchecked)} recomputed"


#: paths are recounted by the checker's own search of sums of paths up to this length
MISERE_PATHS_CHECKED = 50


def _misere_paths(upto: int) -> list[bool]:
    """Whether the player to move wins misère Node Kayles on ``P_0..P_upto``: the
    checker's own search over sums of paths (sorted lengths)."""
    from pyasp_games.domains.grundy.verify import misere_search

    def moves(x: tuple[int, ...]) -> set[tuple[int, ...]]:
        nxt = set()
        for i, n in enumerate(x):
            for v in range(n):  # delete vertex v of P_n and its neighbours
                left, right = max(v - 1, 0), max(n - v - 2, 0)
                nxt.add(tuple(sorted(x[:i] + x[i + 1 :] + tuple(p for p in (left, right) if p))))
        return nxt

    wins = misere_search(moves)
    return [wins((n,) if n else ()) for n in range(upto + 1)]


def check_misere_sequence(family: Any, outcome: Outcome) -> tuple[bool | None, str]:
    """``kayles sequence FAMILY --misere``: every term recomputed (paths and cycles by
    the checker's own search of sums of paths up to :data:`MISERE_PATHS_CHECKED`, other
    members over their graph within the budget); no period is claimed."""
    if outcome.status != "solved":
        return None, "no answer to check"
    terms = outcome.answer
    first, upto = family.first, family.upto
    if not isinstance(terms, list) or len(terms) != upto - first + 1 or any(t not in ("P", "N") for t in terms):
        return False, f"expected P or N for each n = {first}..{upto}"
    w = outcome.witness
    if not isinstance(w, dict) or (w.get("family"), w.get("first"), w.get("upto"), w.get("play")) != (
        family.name, first, upto, "misere"):  # fmt: skip
        return False, f"the witness is not of misère {family.name}(n) for n = {first}..{upto}: {w!r}"
    if "period" in w:
        return False, "a period of misère outcomes is claimed, which nothing here proves"
    unchecked = []
    paths = _misere_paths(min(upto, MISERE_PATHS_CHECKED)) if family.kind in ("path", "cycle") else []
    budget = BUDGET
    for n, claimed in zip(range(first, upto + 1), terms, strict=True):
        m = n if family.kind == "path" else n - 3
        if family.kind in ("path", "cycle"):
            if m >= len(paths):
                unchecked.append(f"n={n}")
                continue
            got = paths[m] if family.kind == "path" else not paths[m]
        else:
            from pyasp_games.domains.kayles.model import family_graph

            graph = family_graph(family, n)
            recount = MisereRecount(graph, max(budget, 0))
            got = recount.tried((1 << len(graph)) - 1)
            budget = recount.budget
            if got is None:
                unchecked.append(f"n={n}")
                continue
        if ("N" if got else "P") != claimed:
            return False, f"{family.name}({n}) is {'N' if got else 'P'} under misère play, not {claimed}"
    if unchecked:
        outcome.verdict.not_checked = _budget_note(unchecked, "terms")
    return True, f"{len(terms) - len(unchecked)} of {len(terms)} misère outcomes recomputed"
