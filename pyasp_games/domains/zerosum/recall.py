"""Game trees without perfect recall: mixed strategies over the normal form, and what
behaviour strategies can guarantee.

A player who forgets his own earlier moves (an information set reached after two
different sequences of them) breaks Kuhn's theorem: a mixed strategy may correlate his
choices at two information sets, which a behaviour strategy (one distribution per
information set, drawn independently) cannot. Such a tree is solved in mixed strategies
over its (reduced) normal form, exactly like a matrix game; and, for each forgetful
player, the best a behaviour strategy guarantees is bracketed exactly:

* below, by a behaviour strategy found (its guarantee, the minimum over the other
  player's pure strategies, computed exactly);
* above, by a cover of the behaviour strategies by boxes: with no information set met
  twice on a play, the payoff against a pure reply is multilinear in the free
  probabilities (all but the last action's at each set), and so is a mixture of such
  payoffs, whose maximum over a box is then at one of the box's corners; each box
  carries the mixture of replies whose corner maximum is smallest (a small matrix game,
  corners against replies) and the upper bound is the largest of these. No behaviour
  strategy beats a mixture of replies it is held to in each box.

The thesis's figure 2.4 (section 2.2.3, after T. S. Ferguson's "Game Theory" lecture
notes): I chooses f or g, II (not seeing it) a or b, and I chooses c or d having
forgotten his first move; its value is 2/3 in mixed strategies, but a behaviour
strategy guarantees only 1/2:

>>> from pyasp_games.domains.zerosum.extensive import from_dict
>>> second = lambda c, d: {"player": 1, "infoset": "2", "moves": {"c": {"payoff": c}, "d": {"payoff": d}}}
>>> game = from_dict({"root": {"player": 1, "infoset": "1", "moves": {
...     "f": {"player": 2, "infoset": "II", "moves": {"a": {"payoff": 1}, "b": second(-1, 0)}},
...     "g": {"player": 2, "infoset": "II", "moves": {"a": second(0, -1), "b": {"payoff": 2}}}}}})
>>> normal_form(game)[0].matrix
((Fraction(1, 1), Fraction(-1, 1)), (Fraction(1, 1), Fraction(0, 1)), (Fraction(0, 1), Fraction(2, 1)), (Fraction(-1, 1), Fraction(2, 1)))
>>> bracket = behaviour_bracket(game, 1)
>>> bracket.lower, bracket.upper, bracket.at["1"]["f"], bracket.at["2"]["c"]
(Fraction(1, 2), Fraction(1, 2), Fraction(1, 2), Fraction(1, 1))
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Any

from pyasp_games.domains.zerosum.extensive import NORMAL_FORM_LIMIT, ExtensiveGame
from pyasp_games.domains.zerosum.model import MatrixGame
from pyasp_games.domains.zerosum.native import simplex_tableau
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Deadline, LimitReached, Limits
from pyasp_games.errors import InputError

#: A play: each player's decisions on it ``((player, infoset, action), ...)``, the chance
#: probability, the payoff.
Play = tuple[tuple[tuple[int, str, str], ...], Fraction, Fraction]

#: The most free behaviour probabilities of one player the bracket is computed for (a box
#: has 2**d corners).
MAX_FREE = 6
#: The most pure strategies of the other player the bracket evaluates at each corner.
MAX_REPLIES = 256
#: The most boxes the search splits before it stops (the bracket is then wider).
MAX_BOXES = 6000
#: Boxes split in the hope of an exact bracket before one within 1/4096 of the payoffs'
#: range is accepted.
EXACT_TRIES = 1000


def plays(game: ExtensiveGame) -> list[Play]:
    """Every leaf as the decisions of both players on its play, its chance probability and
    its payoff."""
    out: list[Play] = []
    stack: list[tuple[int, tuple[tuple[int, str, str], ...], Fraction]] = [(0, (), Fraction(1))]
    while stack:
        k, moves, p = stack.pop()
        node = game.nodes[k]
        if node.kind == "leaf":
            out.append((moves, p, node.payoff))
        elif node.kind == "chance":
            stack.extend((c, moves, p * q) for _, q, c in node.children if q)
        else:
            stack.extend((c, (*moves, (node.player, node.infoset, a)), p)
                         for a, _, c in node.children)
    return out


def own_prefixes(game: ExtensiveGame, player: int) -> dict[str, set[tuple[tuple[str, str], ...]]]:
    """For each information set of ``player``, the sequences of his own moves that lead to
    its nodes (one each under perfect recall)."""
    out: dict[str, set[tuple[tuple[str, str], ...]]] = {}
    stack: list[tuple[int, tuple[tuple[str, str], ...]]] = [(0, ())]
    while stack:
        k, mine = stack.pop()
        node = game.nodes[k]
        if node.kind == "chance":
            stack.extend((c, mine) for _, _, c in node.children)
        elif node.kind == "decision":
            if node.player == player:
                out.setdefault(node.infoset, set()).add(mine)
                stack.extend((c, (*mine, (node.infoset, a))) for a, _, c in node.children)
            else:
                stack.extend((c, mine) for _, _, c in node.children)
    return out


def forgetful(game: ExtensiveGame) -> list[int]:
    """The players (1, 2) without perfect recall."""
    return [p for p in (1, 2) if any(len(s) > 1 for s in own_prefixes(game, p).values())]


def pure_plans(game: ExtensiveGame, player: int, reduced: bool = False) -> list[dict[str, str]]:
    """The player's pure strategies (an action per information set, in product order);
    ``reduced``: each restricted to the sets his own choices let play reach, duplicates
    dropped (strategies that differ only where play cannot come are one)."""
    sets = list(game.infosets[player - 1].items())
    full = [dict(zip([h for h, _ in sets], choice, strict=True))
            for choice in product(*(acts for _, acts in sets))]
    if not reduced:
        return full
    prefixes = own_prefixes(game, player)
    out: list[dict[str, str]] = []
    for plan in full:
        reached = {h: a for h, a in plan.items()
                   if any(all(plan[g] == b for g, b in seq) for seq in prefixes.get(h, ()))}
        if reached not in out:
            out.append(reached)
    return out


def _consistent(moves: tuple[tuple[int, str, str], ...], player: int, plan: dict[str, str]) -> bool:
    return all(plan.get(h) == a for p, h, a in moves if p == player)


def normal_form(game: ExtensiveGame, reduced: bool = False
                ) -> tuple[MatrixGame, list[dict[str, str]], list[dict[str, str]]]:
    """The (reduced) normal form of any tree, perfect recall or not: each pair of pure
    strategies pays the chance-weighted sum over the leaves both let play reach."""
    counts = [game.pure_strategy_count(i) for i in range(2)]
    if counts[0] * counts[1] > NORMAL_FORM_LIMIT:
        raise InputError(f"{game.name}: the normal form has {counts[0]} x {counts[1]} pure "
                         "strategies, more than this tool builds")
    strategies = [pure_plans(game, p, reduced) for p in (1, 2)]
    leaves = plays(game)
    matrix = []
    for mine in strategies[0]:
        cells = [(moves, p * u) for moves, p, u in leaves if _consistent(moves, 1, mine)]
        matrix.append(tuple(sum((w for moves, w in cells if _consistent(moves, 2, theirs)),
                                Fraction(0)) for theirs in strategies[1]))
    names = [tuple(" ".join(f"{h}:{a}" for h, a in s.items()) or "-" for s in ss)
             for ss in strategies]
    return (MatrixGame(tuple(matrix), names[0], names[1], game.name, game.known),
            strategies[0], strategies[1])


@dataclass
class Bracket:
    """What behaviour strategies of ``player`` guarantee, exactly bracketed: ``lower`` is
    what ``at`` guarantees, ``upper`` bounds every behaviour strategy's guarantee (by the
    box cover ``cells``, over the free probabilities ``coords``)."""

    player: int
    lower: Fraction
    upper: Fraction
    at: dict[str, dict[str, Fraction]]
    coords: list[tuple[str, str]]
    cells: dict[str, Any] = field(default_factory=dict)
    boxes: int = 0


def behaviour_bracket(game: ExtensiveGame, player: int, deadline: Deadline | None = None,
                      max_boxes: int = MAX_BOXES) -> Bracket:
    """The best guarantee of ``player``'s behaviour strategies, bracketed exactly
    (module docstring): best-first branch and bound over boxes of the free probabilities,
    splitting the box of the largest bound until no bound exceeds the best guarantee
    found (the bracket is then exact), or after :data:`EXACT_TRIES` boxes none exceeds it
    by more than 1/4096 of the payoffs' range, or ``max_boxes`` boxes.

    Raises
    ------
    InputError
        More than :data:`MAX_FREE` free probabilities or :data:`MAX_REPLIES` replies.
    """
    sign = 1 if player == 1 else -1  # player 2 minimizes: his payoffs are negated
    infosets = game.infosets[player - 1]
    coords = [(h, a) for h, acts in infosets.items() for a in acts[:-1]]
    other = 3 - player
    count = game.pure_strategy_count(other - 1)
    if len(coords) > MAX_FREE or count > MAX_REPLIES:
        raise InputError(f"{game.name}: player {player} has {len(coords)} free behaviour "
                         f"probabilities against {count} pure replies; the bracket is "
                         f"computed up to {MAX_FREE} and {MAX_REPLIES}")
    replies = pure_plans(game, other)
    at = {c: k for k, c in enumerate(coords)}
    last = {h: acts[-1] for h, acts in infosets.items()}
    # each reply's payoff as terms (weight, the player's moves on the play)
    terms = []
    for reply in replies:
        terms.append([(sign * p * u, [(h, a) for q, h, a in moves if q == player])
                      for moves, p, u in plays(game) if _consistent(moves, other, reply)])

    def prob(point: tuple[Fraction, ...], h: str, a: str) -> Fraction:
        if a == last[h]:
            return 1 - sum((point[at[(h, b)]] for b in infosets[h][:-1]), Fraction(0))
        return point[at[(h, a)]]

    def payoff(point: tuple[Fraction, ...], r: int) -> Fraction:
        total = Fraction(0)
        for w, moves in terms[r]:
            for h, a in moves:
                w *= prob(point, h, a)
                if not w:
                    break
            total += w
        return total

    def feasible(point: tuple[Fraction, ...]) -> bool:
        return all(prob(point, h, a) >= 0 for h, acts in infosets.items() for a in acts)

    best: tuple[Fraction, tuple[Fraction, ...]] | None = None
    seen: dict[tuple[Fraction, ...], Fraction] = {}

    def guarantee(point: tuple[Fraction, ...]) -> Fraction:
        if point not in seen:
            seen[point] = min(payoff(point, r) for r in range(len(replies)))
        return seen[point]

    def bound(box: tuple[tuple[Fraction, Fraction], ...]
              ) -> tuple[Fraction, list[Fraction]] | None:
        """The box's upper bound and the mixture of replies that gives it, or None when no
        point of it is a strategy: the mixture minimizing the largest corner value, the
        minimizer's side of the matrix game corners x replies (a single reply is one
        mixture; a mixture can be exact where every single reply overshoots)."""
        nonlocal best
        for h, acts in infosets.items():
            if sum((box[at[(h, b)]][0] for b in acts[:-1]), Fraction(0)) > 1:
                return None
        corners = list(product(*box))
        for point in corners:
            if feasible(point):
                g = guarantee(point)
                if best is None or g > best[0]:
                    best = (g, point)
        table = [[payoff(point, r) for r in range(len(replies))] for point in corners]
        top, _, mix, _ = simplex_tableau(table)
        return top, mix

    payoffs = [u for _, _, u in plays(game)]
    tol = (max(payoffs) - min(payoffs)) / 4096 or Fraction(1, 4096)
    root = tuple((Fraction(0), Fraction(1)) for _ in coords)
    nodes: dict[int, dict[str, Any]] = {}
    heap: list[tuple[Fraction, int, tuple[tuple[Fraction, Fraction], ...], int]] = []
    count = 0

    def push(box: tuple[tuple[Fraction, Fraction], ...], depth: int) -> int:
        nonlocal count
        ident = count
        count += 1
        got = bound(box)
        if got is None:
            nodes[ident] = {"outside": True}
        else:
            nodes[ident] = {"mix": [{"reply": replies[r], "w": w}
                                    for r, w in enumerate(got[1]) if w], "bound": got[0]}
            heapq.heappush(heap, (-got[0], ident, box, depth))
        return ident

    push(root, 0)
    while heap and count < max_boxes:
        if deadline is not None and count % 64 == 0:
            deadline.check()
        top, ident, box, depth = heap[0]
        assert best is not None
        if -top <= best[0] or not coords:  # exact: no box can beat the best found
            break
        if count >= EXACT_TRIES and -top <= best[0] + tol:  # close enough: stop
            break
        heapq.heappop(heap)
        k = depth % len(coords)
        lo, hi = box[k]
        mid = (lo + hi) / 2
        low = push((*box[:k], (lo, mid), *box[k + 1:]), depth + 1)
        high = push((*box[:k], (mid, hi), *box[k + 1:]), depth + 1)
        nodes[ident] = {"split": k, "at": mid, "low": low, "high": high}
    assert best is not None
    upper = max((-t for t, _, _, _ in heap), default=best[0])

    def tree(ident: int) -> dict[str, Any]:
        node = nodes[ident]
        if "split" in node:
            return {"split": node["split"], "low": tree(node["low"]), "high": tree(node["high"])}
        if "outside" in node:
            return {"outside": True}
        return {"mix": node["mix"]}

    plan = {h: {a: prob(best[1], h, a) for a in acts} for h, acts in infosets.items()}
    lower, upper = sign * best[0], sign * upper
    if player == 2:
        lower, upper = upper, lower  # for II: ``upper`` is what his strategy concedes
    return Bracket(player, lower, upper, plan, coords, tree(0), count)


def solve_imperfect_recall(game: ExtensiveGame, limits: Limits = Limits(),
                           reduced: bool = False) -> Claim:
    """Backend ``simplex`` on a tree without perfect recall: the value and optimal mixed
    strategies over its (reduced) normal form by the exact tableau, and for each
    forgetful player the bracket of what behaviour strategies guarantee
    (:func:`behaviour_bracket`).

    Answer: the value; witness: ``mixed_I``/``mixed_II``, the pure strategies played
    (``plan``: an action per information set) with their probabilities ``p``, and
    ``behaviour``: per forgetful player, ``lower``, ``upper`` and the behaviour strategy
    ``at`` that guarantees ``lower``; certificate: per such player, the free
    probabilities ``coords`` and the box cover ``cells`` of ``upper``.
    """
    deadline = limits.deadline()
    nf, s1, s2 = normal_form(game, reduced)
    notes: list[str] = []
    try:
        value, x, y, pivots = simplex_tableau(nf.matrix, deadline)
        brackets = []
        for p in forgetful(game):
            try:
                brackets.append(behaviour_bracket(game, p, deadline))
            except InputError as too_big:  # the mixed answer stands without its bracket
                notes.append(f"behaviour strategies not bracketed: {too_big}")
    except LimitReached:
        return Claim.unknown({"limit": "time"})
    who = {1: "I", 2: "II"}
    witness: dict[str, Any] = {
        "mixed_I": [{"plan": s, "p": p} for s, p in zip(s1, x, strict=True) if p],
        "mixed_II": [{"plan": s, "p": p} for s, p in zip(s2, y, strict=True) if p],
        "behaviour": {who[b.player]: {"lower": b.lower, "upper": b.upper, "at": b.at}
                      for b in brackets},
    }
    certificate = {who[b.player]: {"coords": [list(c) for c in b.coords], "cells": b.cells}
                   for b in brackets}
    stats = {"normal_form": list(nf.shape), "reduced": reduced, "pivots": pivots,
             "exact": True, "imperfect_recall": game.recall,
             "boxes": {who[b.player]: b.boxes for b in brackets}, "notes": notes}
    return Claim.solved(value, witness, stats=stats, certificate=certificate)
