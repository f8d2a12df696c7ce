"""Zero-sum games in extensive form: a JSON tree format, perfect recall, the normal form
and the sequence form (Koller-Megiddo-von Stengel). Their backends: the normal form by
the exact simplex (:func:`pyasp_games.domains.zerosum.native.solve_normal_form`), the sequence
form by HiGHS made exact (:func:`pyasp_games.domains.zerosum.lp.solve_sequence_form`).

The JSON format: ``{"name": ..., "known": "-1/18", "root": NODE}`` where a NODE is

* a leaf ``{"payoff": "3/2"}`` (what player 2 pays player 1),
* a chance node ``{"chance": {"JQ": {"p": "1/6", "next": NODE}, ...}}`` (probabilities
  exact, summing to 1), or
* a decision node ``{"player": 1, "infoset": "J", "moves": {"bet": NODE, "check": NODE}}``:
  every node of one information set has the same moves (names are per player: player
  1's set "J" and player 2's set "J" are different sets).

Perfect recall (each player remembers his own earlier moves: all nodes of an
information set are reached by the same sequence of the player's own moves) is what
the sequence form and behaviour strategies need; a tree without it is read, its
``recall`` saying why, and solved in mixed strategies over its normal form
(:mod:`~pyasp_games.domains.zerosum.recall`). An information set met twice on one play
(an absent-minded player) is refused.

A *sequence* of a player is the empty sequence or the last move (infoset,
action) of a path; a realization plan ``x`` over sequences satisfies
``x(empty) = 1`` and ``sum_a x(h, a) = x(parent(h))``; the payoff is bilinear,
``x^T A y`` with ``A[s1][s2]`` the sum of chance probability times payoff over
the leaves reached by ``s1`` and ``s2``.

>>> game = from_dict({"root": {"player": 1, "infoset": "a", "moves": {
...     "L": {"player": 2, "infoset": "b", "moves": {"l": {"payoff": 1}, "r": {"payoff": -1}}},
...     "R": {"player": 2, "infoset": "b", "moves": {"l": {"payoff": -1}, "r": {"payoff": 1}}}}}})
>>> len(game.nodes), [len(s) for s in game.sequences]
(7, [3, 3])
>>> A, E, e, F, f = sequence_form(game)
>>> [(seqs, int(v)) for seqs, v in sorted(A.items())]  # sequences 1, 2 of each: L, R and l, r
[((1, 1), 1), ((1, 2), -1), ((2, 1), -1), ((2, 2), 1)]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

from pyasp_games.domains.zerosum.model import MatrixGame, to_fraction
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.files import read_json
from pyasp_games.errors import InputError

#: A sequence: ``None`` (empty) or ``(infoset, action)``.
Sequence = tuple[str, str] | None

#: normal forms with more pure strategy pairs than this are not built
NORMAL_FORM_LIMIT = 250_000


@dataclass
class Node:
    kind: str  # "leaf", "chance", "decision"
    payoff: Fraction = Fraction(0)
    player: int = 0
    infoset: str = ""
    children: list[tuple[str, Fraction, int]] = field(default_factory=list)  # (action, p, node)


@dataclass
class ExtensiveGame:
    """A finite two-person zero-sum game tree with chance and information sets."""

    nodes: list[Node]
    name: str = "tree"
    known: Fraction | None = None
    #: per player (index 0, 1): infoset -> its actions, in order of first appearance
    infosets: tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]] = field(
        default_factory=lambda: ({}, {}))
    #: per player: infoset -> the player's sequence leading to it
    parent: tuple[dict[str, Sequence], dict[str, Sequence]] = field(
        default_factory=lambda: ({}, {}))
    #: per player: the sequences, empty first
    sequences: tuple[list[Sequence], list[Sequence]] = field(default_factory=lambda: ([], []))
    #: What the two players' payoffs add up to at every leaf (0: zero-sum; see
    #: :attr:`pyasp_games.domains.zerosum.model.MatrixGame.constant`).
    constant: Fraction = Fraction(0)
    #: What a typed (Bayesian) game this tree is the Harsanyi transformation of, in
    #: words (:mod:`~pyasp_games.domains.zerosum.bayesian`); ``None`` for a tree as given.
    bayesian: str | None = None
    #: Why the tree has no perfect recall (the first information set found reached after
    #: two different sequences of its player's own moves), ``None`` if it has it. Such a
    #: tree is solved in mixed strategies over its normal form only (:mod:`recall`).
    recall: str | None = None

    def index(self, player: int) -> dict[Sequence, int]:
        return {s: k for k, s in enumerate(self.sequences[player])}

    def pure_strategy_count(self, player: int) -> int:
        count = 1
        for actions in self.infosets[player].values():
            count *= len(actions)
        return count

    def small_normal_form(self) -> bool:
        return self.pure_strategy_count(0) * self.pure_strategy_count(1) <= NORMAL_FORM_LIMIT


#: The deepest game tree this tool takes, in moves from the root to a leaf: its solvers and
#: checkers walk the tree recursively (a deeper one is refused, naming this limit).
MAX_TREE_DEPTH = 400


def too_deep(name: str, path: str) -> InputError:
    """The one-line refusal of a tree deeper than :data:`MAX_TREE_DEPTH`."""
    shown = path if len(path) <= 60 else path[:57] + "..."
    return InputError(
        f"{name}: the tree is deeper than {MAX_TREE_DEPTH} moves (at {shown}): this tool's limit"
    )


def from_dict(data: Mapping[str, Any], name: str = "tree") -> ExtensiveGame:
    """Build and validate a game from the JSON structure (see the module docstring)."""
    if not isinstance(data, Mapping) or "root" not in data:
        raise InputError(f"{name}: a game tree is a JSON object with a 'root' node")
    name = str(data.get("name", name))
    nodes: list[Node] = []
    infosets: tuple[dict, dict] = ({}, {})
    parent: tuple[dict, dict] = ({}, {})
    # iterative walk: (json node, own sequences of both players so far, path for messages)
    # (and the information sets met on the way: one met twice is absent-mindedness)
    stack: list[tuple[Any, tuple[Sequence, Sequence], str, int, str, Fraction, int,
                      frozenset[tuple[int, str]]]] = [
        (data["root"], (None, None), "root", -1, "", Fraction(1), 0, frozenset())]
    recall: str | None = None
    while stack:
        raw, seqs, path, up, action, prob, depth, met = stack.pop()
        if depth > MAX_TREE_DEPTH:
            raise too_deep(name, path)
        k = len(nodes)
        if up >= 0:
            nodes[up].children.append((action, prob, k))
        if not isinstance(raw, Mapping):
            raise InputError(f"{name}: node {path} is not a JSON object")
        if "payoff" in raw:
            nodes.append(Node("leaf", payoff=to_fraction(raw["payoff"], f"{name}: {path}")))
        elif "chance" in raw:
            outcomes = raw["chance"]
            if not isinstance(outcomes, Mapping) or not outcomes:
                raise InputError(f"{name}: chance node {path} needs outcomes")
            nodes.append(Node("chance"))
            total = Fraction(0)
            kids = []
            for label, spec in outcomes.items():
                if not isinstance(spec, Mapping) or "p" not in spec or "next" not in spec:
                    raise InputError(f"{name}: chance outcome {path}/{label} needs 'p' and 'next'")
                p = to_fraction(spec["p"], f"{name}: {path}/{label}")
                if p < 0:
                    raise InputError(f"{name}: chance outcome {path}/{label} has probability {p}")
                total += p
                kids.append((spec["next"], seqs, f"{path}/{label}", k, str(label), p, depth + 1,
                             met))
            if total != 1:
                raise InputError(f"{name}: chance node {path} has probabilities summing to {total}")
            stack.extend(reversed(kids))
        elif "player" in raw:
            player = raw["player"]
            if player not in (1, 2):
                raise InputError(f"{name}: node {path}: player must be 1 or 2, got {player!r}")
            infoset = str(raw.get("infoset", path))
            moves = raw.get("moves")
            if not isinstance(moves, Mapping) or not moves:
                raise InputError(f"{name}: decision node {path} needs moves")
            actions = tuple(str(a) for a in moves)
            i = player - 1  # information set names are per player
            if infosets[i].setdefault(infoset, actions) != actions:
                raise InputError(
                    f"{name}: information set {infoset!r} has moves {list(infosets[i][infoset])} "
                    f"at one node and {list(actions)} at {path}")
            own = seqs[i]
            if (player, infoset) in met:
                raise InputError(
                    f"{name}: player {player}'s information set {infoset!r} is met twice on one "
                    f"play (at {path}): an absent-minded player, which this tool does not take")
            if infoset in parent[i] and parent[i][infoset] != own and recall is None:
                recall = (f"no perfect recall: player {player}'s information set {infoset!r} "
                          f"is reached after his moves {_seq_text(parent[i][infoset])} and "
                          f"{_seq_text(own)} (at {path})")
            parent[i].setdefault(infoset, own)
            nodes.append(Node("decision", player=player, infoset=infoset))
            kids = []
            for a in actions:
                new = list(seqs)
                new[i] = (infoset, a)
                kids.append((moves[a], (new[0], new[1]), f"{path}/{a}", k, a, Fraction(1),
                             depth + 1, met | {(player, infoset)}))
            stack.extend(reversed(kids))
        else:
            raise InputError(f"{name}: node {path} is neither a leaf ('payoff'), a chance node "
                             "('chance') nor a decision node ('player')")
    # Perfect recall also needs: a player's own sequence is a function of the infoset,
    # which the check above gives, and no infoset reached twice on one path (a tree
    # with own sequences fixed per infoset cannot revisit it, since the sequence grows).
    sequences = tuple([None] + [(h, a) for h, acts in infosets[i].items() for a in acts]
                      for i in range(2))
    known = data.get("known")
    return ExtensiveGame(nodes, name, None if known is None else to_fraction(known, name),
                         infosets, parent, sequences, recall=recall)  # type: ignore[arg-type]


def require_perfect_recall(game: ExtensiveGame, what: str = "the sequence form") -> None:
    """Refuse, in one line, a tree without perfect recall where ``what`` needs it."""
    if game.recall is not None:
        raise InputError(f"{game.name}: {game.recall}; {what} needs perfect recall "
                         "(--backend simplex solves it in mixed strategies, by its normal form)")


def _seq_text(seq: Sequence) -> str:
    return "(none)" if seq is None else f"{seq[1]} at {seq[0]!r}"


def load_extensive(path: Path | str) -> ExtensiveGame:
    """Read a JSON game tree, or a typed (Bayesian) game as its Harsanyi tree
    (:mod:`~pyasp_games.domains.zerosum.bayesian`: its top level has ``types``)."""
    from pyasp_games.domains.zerosum.bayesian import harsanyi, is_typed

    path = Path(path)
    data = read_json(path)
    if is_typed(data):
        return harsanyi(data, path.stem)
    return from_dict(data, name=path.stem)


def to_dict(game: ExtensiveGame) -> dict[str, Any]:
    """The JSON structure of ``game`` (inverse of :func:`from_dict`)."""

    def node(k: int) -> dict[str, Any]:
        n = game.nodes[k]
        if n.kind == "leaf":
            return {"payoff": str(n.payoff)}
        if n.kind == "chance":
            return {"chance": {a: {"p": str(p), "next": node(c)} for a, p, c in n.children}}
        return {"player": n.player, "infoset": n.infoset,
                "moves": {a: node(c) for a, _, c in n.children}}

    out: dict[str, Any] = {"name": game.name}
    if game.known is not None:
        out["known"] = str(game.known)
    out["root"] = node(0)
    return out


def leaves(game: ExtensiveGame) -> list[tuple[Sequence, Sequence, Fraction, Fraction]]:
    """Every leaf as ``(sequence of 1, sequence of 2, chance probability, payoff)``."""
    out = []
    stack: list[tuple[int, Sequence, Sequence, Fraction]] = [(0, None, None, Fraction(1))]
    while stack:
        k, s1, s2, p = stack.pop()
        n = game.nodes[k]
        if n.kind == "leaf":
            out.append((s1, s2, p, n.payoff))
        elif n.kind == "chance":
            stack.extend((c, s1, s2, p * q) for _, q, c in n.children)
        elif n.player == 1:
            stack.extend((c, (n.infoset, a), s2, p) for a, _, c in n.children)
        else:
            stack.extend((c, s1, (n.infoset, a), p) for a, _, c in n.children)
    return out


def sequence_form(game: ExtensiveGame) -> tuple[dict, dict, list[Fraction], dict, list[Fraction]]:
    """``(A, E, e, F, f)``: the payoff matrix over sequence pairs and the constraints of
    both realization plans, as sparse dicts ``{(row, col): Fraction}`` (perfect recall
    needed: else :class:`InputError`)."""
    require_perfect_recall(game)
    idx = (game.index(0), game.index(1))
    A: dict[tuple[int, int], Fraction] = {}
    for s1, s2, p, payoff in leaves(game):
        key = (idx[0][s1], idx[1][s2])
        A[key] = A.get(key, Fraction(0)) + p * payoff
    constraints = []
    for i in range(2):
        M = {(0, 0): Fraction(1)}
        for r, (h, actions) in enumerate(game.infosets[i].items(), start=1):
            M[(r, idx[i][game.parent[i][h]])] = Fraction(-1)
            for a in actions:
                M[(r, idx[i][(h, a)])] = Fraction(1)
        rhs = [Fraction(1)] + [Fraction(0)] * len(game.infosets[i])
        constraints.append((M, rhs))
    return ({k: v for k, v in A.items() if v}, constraints[0][0], constraints[0][1],
            constraints[1][0], constraints[1][1])


def pure_strategies(game: ExtensiveGame, player: int, reduced: bool = False
                    ) -> list[dict[str, str]]:
    """The player's pure strategies (an action per information set), in product order;
    ``reduced``: only choices at sets his own earlier choices do not exclude."""
    sets = list(game.infosets[player].items())
    if not reduced:
        return [dict(zip([h for h, _ in sets], choice, strict=True))
                for choice in product(*(acts for _, acts in sets))]
    out: list[dict[str, str]] = []

    def extend(chosen: dict[str, str], k: int) -> None:
        if k == len(sets):
            out.append(dict(chosen))
            return
        h, acts = sets[k]
        up = game.parent[player][h]
        if up is not None and chosen.get(up[0]) != up[1]:
            extend(chosen, k + 1)  # h cannot be reached: no choice there
            return
        for a in acts:
            chosen[h] = a
            extend(chosen, k + 1)
            del chosen[h]

    extend({}, 0)
    return out


def normal_form(game: ExtensiveGame, reduced: bool = False
                ) -> tuple[MatrixGame, list[dict[str, str]], list[dict[str, str]]]:
    """The (reduced) normal form: a matrix game over pure strategies, and the strategies
    (a tree without perfect recall: :func:`~pyasp_games.domains.zerosum.recall.normal_form`)."""
    if game.recall is not None:
        from pyasp_games.domains.zerosum import recall

        return recall.normal_form(game, reduced)
    if not game.small_normal_form():
        raise InputError(
            f"{game.name}: the normal form has {game.pure_strategy_count(0)} x "
            f"{game.pure_strategy_count(1)} pure strategies; use the sequence form (--backend lp)")
    strategies = [pure_strategies(game, i, reduced) for i in range(2)]
    cells = leaves(game)
    # the sequences each pure strategy realizes (every own move on the way chosen)
    realized = [[{q for q in game.sequences[i] if _reaches(game, i, s, q)} for s in ss]
                for i, ss in enumerate(strategies)]
    matrix = []
    for mine in realized[0]:
        row_cells = [(s2, p * u) for s1, s2, p, u in cells if s1 in mine]
        matrix.append([sum((w for s2, w in row_cells if s2 in theirs), Fraction(0))
                       for theirs in realized[1]])
    names = [[" ".join(f"{h}:{a}" for h, a in s.items()) or "-" for s in ss] for ss in strategies]
    game_nf = MatrixGame(tuple(tuple(r) for r in matrix), tuple(names[0]), tuple(names[1]),
                         game.name, game.known)
    return game_nf, strategies[0], strategies[1]


def behaviour_from_realization(game: ExtensiveGame, player: int, plan: list[Fraction]
                               ) -> dict[str, dict[str, Fraction]]:
    """Behaviour probabilities per information set: ``x(h, a) / x(parent(h))``; a set the
    plan never reaches gets its first action (any choice is optimal there)."""
    idx = game.index(player)
    out: dict[str, dict[str, Fraction]] = {}
    for h, actions in game.infosets[player].items():
        reach = plan[idx[game.parent[player][h]]]
        if reach == 0:
            out[h] = {a: Fraction(int(k == 0)) for k, a in enumerate(actions)}
        else:
            out[h] = {a: plan[idx[(h, a)]] / reach for a in actions}
    return out


def realization_from_mixed(game: ExtensiveGame, player: int, strategies: list[dict[str, str]],
                           mix: list[Fraction]) -> list[Fraction]:
    """The realization plan of a mixed strategy over pure ones (Kuhn's theorem)."""
    idx = game.index(player)
    plan = [Fraction(0)] * len(idx)
    for s, p in zip(strategies, mix, strict=True):
        if not p:
            continue
        plan[0] += p
        for h, a in s.items():
            up = game.parent[player][h]
            # (h, a) is realized when every earlier own move on the way is chosen too
            if _reaches(game, player, s, up):
                plan[idx[(h, a)]] += p
    return plan


def _reaches(game: ExtensiveGame, player: int, s: Mapping[str, str], seq: Sequence) -> bool:
    while seq is not None:
        h, a = seq
        if s.get(h) != a:
            return False
        seq = game.parent[player][h]
    return True


def tree_claim(game: ExtensiveGame, plans: list[list[Fraction]], stats: dict[str, Any]) -> Claim:
    """The claim of a tree solved by a backend: the value of the realization plans
    ``plans`` (exact) and each player's behaviour strategy as the witness."""
    A, *_ = sequence_form(game)
    value = sum((v * plans[0][i] * plans[1][j] for (i, j), v in A.items()), Fraction(0))
    witness = {f"behaviour_{who}": behaviour_from_realization(game, i, plans[i])
               for i, who in enumerate(("I", "II"))}
    return Claim.solved(value, witness, stats={**stats, "exact": True})
