"""Independent checks of Annihilation answers (imports nothing from native/asp/poly).

The checker has its own move generator, written from the rules (a token on ``u``
slides along an arc ``u -> v``; two tokens on one vertex vanish), and decides the
positions reachable from the start from the definition of a draw rather than by
labelling wins and losses: it computes the greatest set ``W`` of positions from which
the player to move can avoid losing, by deleting from all reachable positions, until
nothing changes, every position without a move to a position whose every move leads
back into ``W``. The player to move at ``w`` in ``W`` never loses: he moves to such a
position, and whatever the opponent does he is in ``W`` again; and from outside ``W``
the opponent forces a win (the complement of the greatest such set is what the
opponent can force, as in every finite reachability game). So:

- ``second`` (the player to move loses) holds iff the start is outside ``W``;
- a winning move (``first``) is legal and leads outside ``W``;
- ``draw`` holds iff the start and all its successors are in ``W`` (each player can
  avoid losing), and a draw-keeping move is legal and leads to such a position; the
  checker also confirms the draw-keeping strategy closed under play: every such
  position has a move to another one and none to a position outside ``W``.

Beyond :data:`BUDGET` reachable positions the claim is :class:`Unconfirmed` (printed
NOT VERIFIED unless the reference backend cross-checks it), unless it carries the
``poly`` backend's certificate (the outcome's ``certificate``), which
:func:`check_closure` checks at any size: the lost positions it proves, and for a draw
that no lost position is left outside them.

>>> from pyasp_games.domains.annihilation.model import parse_instance
>>> inst = parse_instance("a b\\nb a\\nb c\\n", "b c")
>>> check_answer(inst, "first", ["b", "c"])
(True, 'the move b -> c leaves the opponent lost (all 3 reachable positions decided)')
>>> check_answer(inst, "draw", ["b", "a"])[0], check_answer(inst, "first", ["c", "b"])[0]
(False, False)
>>> check_answer(parse_instance("a b\\nb a\\n", "a"), "draw", ["a", "b"])[1]
'a draw: both players can avoid losing, and the draw-keeping strategy is closed under play (2 positions)'
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any

from pyasp_games.domains.annihilation.model import Annihilation
from pyasp_games.domains.grundy.model import Infinity, Value
from pyasp_games.domains.grundy.verify import check_generalized
from pyasp_games.engines.outcome import Outcome
from pyasp_games.errors import Unconfirmed

#: Reachable positions the checker explores at most.
BUDGET = 400_000


def _reachable(
    start: Hashable, successors: Callable[[Any], Iterable[Hashable]], budget: int
) -> dict[Hashable, list[Hashable]]:
    found: dict[Hashable, list[Hashable]] = {}
    todo = [start]
    while todo:
        p = todo.pop()
        if p in found:
            continue
        if len(found) >= budget:
            raise Unconfirmed(f"more than {budget:,} positions reachable: too many to check")
        found[p] = out = list(dict.fromkeys(successors(p)))
        todo.extend(q for q in out if q not in found)
    return found


def safe_positions(
    start: Hashable, successors: Callable[[Any], Iterable[Hashable]], budget: int = BUDGET
) -> tuple[dict[Hashable, list[Hashable]], set[Hashable]]:
    """The reachable positions with their successors, and the greatest set ``W`` of
    them from which the player to move can avoid losing (see the module docstring)."""
    game = _reachable(start, successors, budget)
    before: dict[Hashable, list[Hashable]] = {p: [] for p in game}
    for p, out in game.items():
        for q in out:
            before[q].append(p)
    safe = set(game)
    outside = {p: 0 for p in game}  # successors of p outside W
    # good[p]: every move from p leads into W; reply[w]: moves of w to a good position
    reply = {w: sum(1 for q in out if not outside[q]) for w, out in game.items()}
    dropped = [w for w, r in reply.items() if r == 0]
    for w in dropped:
        safe.discard(w)
    while dropped:
        w = dropped.pop()
        for p in before[w]:  # p has one more successor outside W
            outside[p] += 1
            if outside[p] == 1:  # p stops being a good reply
                for q in before[p]:
                    reply[q] -= 1
                    if reply[q] == 0 and q in safe:
                        safe.discard(q)
                        dropped.append(q)
    return game, safe


def check_positions(
    start: Hashable,
    successors: Callable[[Any], Iterable[Hashable]],
    answer: Any,
    after: Hashable | None,
    shown: str,
) -> tuple[bool, str]:
    """Check ``answer`` at ``start``; ``after`` is the position the claimed move leads
    to (checked legal by the caller), ``shown`` the move in words."""
    if answer not in ("first", "second", "draw"):
        return False, f"answer {answer!r} is none of first, second, draw"
    game, safe = safe_positions(start, successors)
    total = len(game)
    drawn = {p for p in safe if all(q in safe for q in game[p])}
    if answer == "second":
        if start in safe:
            return False, "the player to move can avoid losing: not a second-player win"
        return True, f"every move leaves the opponent a win ({total} reachable positions decided)"
    if answer == "first":
        if after in safe:
            return False, f"after {shown} the opponent can avoid losing"
        return True, f"the move {shown} leaves the opponent lost (all {total} reachable positions decided)"
    if start not in drawn:
        who = "the player to move" if start not in safe else "the first player"
        return False, f"not a draw: {who} {'loses' if start not in safe else 'can force a win'}"
    if after not in drawn:
        return False, f"the move {shown} does not keep the draw"
    for p in drawn:  # the draw-keeping strategy: a move inside, none to a lost position
        if not any(q in drawn for q in game[p]) or any(q not in safe for q in game[p]):
            return False, "the draw set is not closed under play"  # pragma: no cover
    return True, (
        "a draw: both players can avoid losing, and the draw-keeping strategy is closed "
        f"under play ({len(drawn)} positions)"
    )


def _successors(inst: Annihilation) -> Callable[[int], Iterable[int]]:
    succ = inst.graph.succ

    def moves(position: int) -> Iterable[int]:
        for u in range(len(succ)):
            if position >> u & 1:
                for v in succ[u]:
                    yield position if u == v else position & ~(1 << u) ^ (1 << v)

    return moves


def check_claim(
    inst: Any, answer: Any, witness: Any, successors: Callable[[Any], Iterable[Any]],
    after: Callable[[int, int, str], Any],
) -> tuple[bool, str]:
    """Check a token game's claimed answer and its move (``[from, to]``; ``None`` for
    ``second``): the move an arc of the graph, ``after(u, v, shown)`` the position it
    leads to (or, as a string, why the rules forbid it), then :func:`check_positions`."""
    if answer == "second":
        if witness is not None:
            return False, "a second-player win has no move (witness must be null)"
        return check_positions(inst.start, successors, answer, None, "")
    if witness is None:  # the answer names no move at all
        return False, f"{answer!r} is claimed, but the answer names no winning move [from, to]"
    if not (isinstance(witness, (list, tuple)) and len(witness) == 2):
        return False, f"the move {witness!r} is not a pair [from, to]"
    index = inst.graph.index
    u, v = index.get(witness[0]), index.get(witness[1])
    shown = f"{witness[0]} -> {witness[1]}"
    if u is None or v is None or v not in inst.graph.succ[u]:
        return False, f"{shown} is not an arc of the graph"
    moved = after(u, v, shown)
    if isinstance(moved, str):
        return False, moved
    return check_positions(inst.start, successors, answer, moved, shown)


def check_answer(inst: Annihilation, answer: Any, witness: Any) -> tuple[bool, str]:
    """Check a claimed answer and its move (``[from, to]``; ``None`` for ``second``)."""

    def after(u: int, v: int, shown: str) -> int | str:
        if not inst.start >> u & 1:
            return f"{shown} moves no token: {inst.graph.names[u]} holds none"
        return inst.start if u == v else inst.start & ~(1 << u) ^ (1 << v)

    return check_claim(inst, answer, witness, _successors(inst), after)


def _value(text: Any) -> Value:
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    if isinstance(text, str) and text.startswith("inf(") and text.endswith(")"):
        inside = text[4:-1]
        return Infinity(frozenset(int(k) for k in inside.split(",") if k))
    raise ValueError(f"not a generalized Sprague-Grundy value: {text!r}")


def _echelon_reduce(rows: dict[int, int], vector: int) -> int:
    """``vector`` reduced by an echelon basis (``rows[p]``: highest bit ``p``), every
    pivot bit cleared from the highest down: a linear map whose kernel is the span."""
    for p in sorted(rows, reverse=True):
        if vector >> p & 1:
            vector ^= rows[p]
    return vector


def _form(forms: list[int], position: int) -> int:
    """A position's reduced form: the XOR of its tokens' (the reduction is linear)."""
    total = 0
    while position:
        low = position & -position
        total ^= forms[low.bit_length() - 1]
        position ^= low
    return total


def _relations(values: list[Value]) -> list[int]:
    """The positions with every token on a vertex of finite value and XOR 0, spanned by
    ``e_u`` (value 0), ``e_u + e_v`` (equal values) and ``e_u + e_v + e_w`` (values
    XORing to 0): the span the certificate's rounds start from."""
    by_value: dict[int, list[int]] = {}
    for u, g in enumerate(values):
        if isinstance(g, int):
            by_value.setdefault(g, []).append(u)
    out = [1 << u for u in by_value.get(0, [])]
    for us in by_value.values():
        out += [(1 << us[0]) | (1 << u) for u in us[1:]]
    for i in by_value:
        for j in by_value:
            if 0 < i < j and i ^ j in by_value:
                out.append((1 << by_value[i][0]) | (1 << by_value[j][0]) | (1 << by_value[i ^ j][0]))
    return out


def check_closure(inst: Annihilation, outcome: Outcome) -> tuple[bool, str]:
    """Check the ``poly`` certificate (``outcome.certificate``): Smith's conditions for
    its ``grundy`` values and ``counters`` on the digraph (so the nim-sum relations are
    lost positions for the player to move), then every generator of its ``rounds``: every move
    from it leads to a position with a move into the span of the relations and the
    earlier rounds (so it is lost too: the theorems of
    :mod:`~pyasp_games.domains.annihilation.poly`, the lost positions being a linear
    space). Then ``second`` needs the start in that span, ``first`` a legal move into
    it. A ``draw`` (the start outside, no move into it, the witness a move to such a
    position) needs the span to be every lost position: with ``complete`` claimed the
    checker's own search (:func:`_lost_outside`) finds none outside it, which proves it
    (Theorem 3 of :mod:`~pyasp_games.domains.annihilation.poly`); without it, or beyond
    :data:`COMPLETENESS_BUDGET`, the draw is :class:`Unconfirmed` unless the rules are
    replayed (:func:`check_outcome`)."""
    certificate = outcome.certificate
    try:
        if not isinstance(certificate, dict):
            raise TypeError(f"{type(certificate).__name__}, not a dict")
        values = [_value(x) for x in certificate["grundy"]]
        counters = list(certificate["counters"])
        rounds = [[[inst.graph.index[v] for v in g] for g in found] for found in certificate["rounds"]]
    except (KeyError, TypeError, ValueError) as why:
        return False, f"the certificate is malformed: {why}"
    if len(values) != len(inst) or len(counters) != len(inst):
        return False, "the certificate does not give one value per vertex"
    ok, message = check_generalized(inst.graph, values, counters)
    if not ok:
        return False, f"the certificate is not the generalized Sprague-Grundy function: {message}"
    rows: dict[int, int] = {}

    def add(vector: int) -> None:
        r = _echelon_reduce(rows, vector)
        if r:
            rows[r.bit_length() - 1] = r

    for vector in _relations(values):
        add(vector)
    moves = _successors(inst)
    n = len(inst)
    for k, found in enumerate(rounds):
        forms = [_echelon_reduce(rows, 1 << u) for u in range(n)]
        masks = []
        for tokens in found:
            mask = sum(1 << u for u in set(tokens))
            for after in moves(mask):
                if not any(_form(forms, z) == 0 for z in moves(after)):
                    shown = " ".join(inst.graph.names[u] for u in tokens)
                    return False, f"round {k + 1}: a move from ({shown}) leaves no move into the span"
            masks.append(mask)
        for mask in masks:
            add(mask)
    def in_span(position: int) -> bool:
        return _echelon_reduce(rows, position) == 0

    proved = f"{len(rows)} independent lost positions proved (Smith's conditions, {len(rounds)} rounds checked)"
    start = inst.start
    if outcome.answer == "second":
        if outcome.witness is not None or not in_span(start):
            return False, "the start is not in the span of the proved lost positions"
        return True, f"the start is a sum of lost positions: {proved}"
    if in_span(start):
        return False, f"the start is lost for the player to move ({proved}): {outcome.answer!r} is wrong"
    witness = outcome.witness
    index = inst.graph.index
    if witness is None:  # the answer names no move at all
        return False, f"{outcome.answer!r} is claimed, but the answer names no winning move [from, to]"
    if not (isinstance(witness, (list, tuple)) and len(witness) == 2):
        return False, f"the move {witness!r} is not a pair [from, to]"
    u, v = index.get(witness[0]), index.get(witness[1])
    if u is None or v is None or v not in inst.graph.succ[u] or not start >> u & 1:
        return False, f"{witness[0]} -> {witness[1]} is not a legal move"
    after = start if u == v else start & ~(1 << u) ^ (1 << v)
    shown = f"{witness[0]} -> {witness[1]}"
    if outcome.answer == "first":
        if not in_span(after):
            return False, f"the move {shown} does not lead into the span of the proved lost positions"
        return True, f"the move {shown} leads to a sum of lost positions: {proved}"
    if outcome.answer != "draw":
        return False, f"answer {outcome.answer!r} is none of first, second, draw"
    if any(in_span(q) for q in moves(start)):
        return False, f"a move leads into the span of the proved lost positions: not a draw ({proved})"
    if in_span(after) or any(in_span(q) for q in moves(after)):
        return False, f"the move {shown} does not keep the draw by the certificate"
    if certificate.get("complete") is True:
        forms = [_echelon_reduce(rows, 1 << u) for u in range(n)]
        missed, ruled_out = _lost_outside(inst, forms)
        if missed is not None:
            shown = " ".join(inst.graph.names[u] for u in range(n) if missed >> u & 1)
            return False, (
                f"the span is not every lost position: ({shown}) is outside it and every move "
                "from it has a reply into it"
            )
        return True, (
            f"a draw: no lost position is left outside the span ({ruled_out}), so every "
            f"position outside it without a move into it is a draw; {proved}"
        )
    raise Unconfirmed(
        "a draw by the certificate (the start outside the span of the proved lost positions, "
        "no move into it), which rests on that span being every lost position: not proved"
    )


#: The most reduced forms the checker's own search for a lost position outside the span
#: tries (each costs an elimination; at 200 vertices and degree 3 about 20,000).
COMPLETENESS_BUDGET = 2_000_000


def _lost_outside(inst: Annihilation, forms: list[int]) -> tuple[int | None, str]:
    """A position outside the span (``forms``: the vertices' reduced forms) every move from
    which has a reply into the span, or ``None``; and how the rest were ruled out.

    Such a position's reduced form ``σ`` is, for each of its tokens ``u`` with moves and
    every arc ``u -> v``, the reduced form of a reply plus ``forms[u] + forms[v]``, and
    its tokens stand on sinks or on vertices admitting ``σ`` so (Lemma 4 of the ``poly``
    module): each such ``σ`` is ruled out by elimination (not a sum of the admitted
    vertices' forms) or by a SAT solver (the exact question, encoded here)."""
    from pysat.solvers import Solver

    graph, n = inst.graph, len(inst)
    replies: dict[int, set[int]] = {}  # a reply's reduced form -> the vertices it moves from
    for u in range(n):
        for v in graph.succ[u]:
            replies.setdefault(forms[u] ^ forms[v], set()).add(u)
    admits: dict[int, set[int]] = {}
    for u in range(n):
        shifts = [forms[u] ^ forms[v] for v in graph.succ[u]]
        if shifts:
            admits[u] = {r ^ shifts[0] for r in replies if all(r ^ shifts[0] ^ t in replies for t in shifts)}
    holders: dict[int, set[int]] = {}  # sigma -> the vertices with moves admitting it
    for u, sigmas in admits.items():
        for sigma in sigmas:
            holders.setdefault(sigma, set()).add(u)
    sigmas = sorted(holders.keys() - {0})
    sinks = {u for u in range(n) if u not in admits}
    if len(sigmas) > COMPLETENESS_BUDGET:
        raise Unconfirmed(
            f"whether a lost position is left outside the span was not checked again: "
            f"{len(sigmas):,} reduced forms, beyond the checker's limit of {COMPLETENESS_BUDGET:,}"
        )
    by_elimination = by_sat = 0
    for sigma in sigmas:
        here = sorted(sinks | holders[sigma])
        basis: dict[int, int] = {}
        for u in here:
            r = _echelon_reduce(basis, forms[u])
            if r:
                basis[r.bit_length() - 1] = r
        if _echelon_reduce(basis, sigma):
            by_elimination += 1
            continue
        # variable u + 1: a token on vertex u; 0 < n + 1 + k: the XOR chains' partial sums
        clauses = [[-(u + 1)] for u in range(n) if u not in here]
        fresh = n
        reach = sigma
        for u in here:
            reach |= forms[u]
        for bit in range(reach.bit_length()):  # the tokens' forms XOR to sigma, bit by bit
            parity, members = sigma >> bit & 1, [u + 1 for u in here if forms[u] >> bit & 1]
            if not members:
                if parity:
                    clauses.append([])
                continue
            total = members[0]
            for lit in members[1:]:
                fresh += 1
                clauses += [[-fresh, total, lit], [-fresh, -total, -lit],
                            [fresh, -total, lit], [fresh, total, -lit]]  # fmt: skip
                total = fresh
            clauses.append([total if parity else -total])
        for u in here:
            for v in graph.succ[u]:
                clause = [-(u + 1)]
                for s in replies.get(sigma ^ forms[u] ^ forms[v], ()):
                    if u == v or s not in (u, v):
                        clause.append(s + 1)  # s kept its token
                    elif s == v:
                        clause.append(-(v + 1))  # v holds a token after the move iff not before
                clauses.append(clause)
        with Solver(name="minisat22", bootstrap_with=clauses) as solver:
            if solver.solve():
                chosen = {lit - 1 for lit in solver.get_model() if 0 < lit <= n}
                return sum(1 << u for u in chosen), ""
        by_sat += 1
    return None, f"{by_elimination} reduced forms ruled out by elimination, {by_sat} by a SAT solver"


def check_outcome(inst: Annihilation, outcome: Outcome) -> tuple[bool | None, str]:
    """Verify a solved outcome from the rules (within :data:`BUDGET` positions); an
    answer with a certificate (``poly``) is checked by it first, then from the rules
    where the positions are few enough (a ``draw`` only so)."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    if outcome.certificate is None:
        return check_answer(inst, outcome.answer, outcome.witness)
    try:
        ok, message = check_closure(inst, outcome)
    except Unconfirmed as why:
        ok, message = None, str(why)
    if ok is False:
        return ok, message
    if inst.reachable_bound() > BUDGET:
        if ok is None:
            raise Unconfirmed(f"{message}; too many positions to replay the rules")
        return ok, message
    try:
        ok, rules = check_answer(inst, outcome.answer, outcome.witness)
    except Unconfirmed:
        if ok is None:
            raise
        return True, f"{message}; too many positions to replay the rules as well"
    return ok, f"{message}; {rules}" if ok else rules
