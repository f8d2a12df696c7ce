"""An evaluation-function player: metapositions, pseudo-legal moves, no search to the end.

After A. Bolognesi and P. Ciancarini, "Computer programming of Kriegspiel endings: the
case of KR vs. K" (Advances in Computer Games 10, 2003): White considers every
pseudo-legal attempt on its metaposition, looks at the metapositions each referee's
answer can lead to, and plays the attempt whose worst answer the evaluation function
likes best. Attempts that risk a draw (a possible stalemate or capture) are never
played. The evaluation here, in its order of importance (our statement of a KRK
player's knowledge):

1. a smaller region for the black king (the squares it could reach through squares
   White does not attack: the box the rook's lines and White's king shut it in);
2. fewer squares where the black king may be now;
3. White's king close to those squares (it has to take part in the mate);
4. the rook next to its king (protected).

The policy is a function of the metaposition, so its strategy is a graph: it is built
from the root by following the policy, and its worst case is counted over that graph.
If some Black line makes the policy go round in circles, or reach a metaposition where
every attempt risks a draw, the answer names that line: status ``no-solution`` with
answer :data:`FAILS` (``"strategy-fails"``), of kind ``about a strategy`` with bound
:data:`THIS_STRATEGY`: a claim about this strategy, never about the metaposition (which
may well be a forced mate: native's "no forced mate" has answer ``None`` and is
exact). The witness is the line (each metaposition met, the policy's attempt and
the referee's answer, and where it returns to); the checker asks the policy
(:func:`policy_attempt`, handed to it by the question) for its attempt at each step and
computes the answers and metapositions with its own rules
(:func:`~pyasp_games.domains.kriegspiel.verify.check_policy_line`). Otherwise the strategy is an
upper bound on the optimal value (kind ``upper bound``), replayed by the checker like
every other.

>>> from pyasp_games.engines.limits import Limits
>>> from pyasp_games.domains.kriegspiel.model import parse_metaposition
>>> claim = solve_heuristic(parse_metaposition("?1?/2?/KR1"), Limits())
>>> claim.status, claim.answer, claim.kind
('solved', 4, 'upper bound')
>>> fails = solve_heuristic(parse_metaposition("4/4/1R2/K3 unknown"), Limits())
>>> fails.status, fails.answer, fails.kind, fails.bound
('no-solution', 'strategy-fails', 'about a strategy', "the heuristic's strategy")
"""

from __future__ import annotations

from typing import Any

from pyasp_games.domains.kriegspiel.metaposition import DRAW, Rules, rules_for
from pyasp_games.domains.kriegspiel.model import Board, Metaposition
from pyasp_games.engines.claim import Claim, Kind
from pyasp_games.engines.limits import LimitReached, Limits
from pyasp_games.errors import InputError

State = tuple[int, int, int]
#: The most metapositions the policy may visit before it is judged lost in the board.
MAX_NODES = 200_000


def evaluate(board: Board, state: State, piece: str = "R") -> tuple[int, ...]:
    """The evaluation of a metaposition (larger is better for White), lexicographic: the
    black king's region (the squares it could reach in any number of steps through
    squares White does not attack), then its possible squares, then how near White's
    king is to them, then whether the piece is protected."""
    king, square, belief = state
    free = rules_for(board, piece).free(king, square) | belief
    region = belief
    while (grown := (region | board.spread(region)) & free) != region:
        region = grown
    kr, kf = board.coords(king)
    near = min(
        max(abs(kr - r), abs(kf - f)) for r, f in map(board.coords, board.squares(belief))
    )
    protected = board.neighbours[king] >> square & 1
    return (-bin(region).count("1"), -bin(belief).count("1"), -near, protected)


def _score(rules: Rules, state: State, choice: tuple) -> tuple:
    """An attempt's worth: its worst outcome's evaluation (a mate everywhere is best)."""
    king, square, _ = state
    _attempt, illegal, answers = choice
    outcomes = [s for s in answers.values() if s is not None]
    if illegal:
        outcomes.append((king, square, illegal))
    if not outcomes:
        return (1,)
    return (0, *min(evaluate(rules.board, s, rules.piece) for s in outcomes))


def policy(rules: Rules, state: State) -> tuple | None:
    """The attempt the evaluation prefers (``(attempt, illegal, answers)``), or ``None``
    when every attempt risks a draw."""
    choices = [c for c in rules.outcomes(*state) if c[2] is not DRAW]
    if not choices:
        return None
    return max(choices, key=lambda c: _score(rules, state, c))


def policy_attempt(m: Metaposition) -> str | None:
    """The policy's attempt at ``m`` by name (``"Rb1"``), ``None`` when every attempt risks
    a draw: the policy as the checker asks it along a failing line (the question hands it
    to :func:`~pyasp_games.domains.kriegspiel.verify.check_outcome`)."""
    rules = rules_for(m.board, m.piece)
    choice = policy(rules, (m.king, m.piece_square, m.belief))
    return None if choice is None else rules.name(choice[0])


def solve_heuristic(m: Metaposition, limits: Limits) -> Claim:
    """Play the evaluation function's strategy from ``m``: its worst case (an upper bound)
    and the strategy, or the Black line on which it fails."""
    if len(m.piece) != 1:
        raise InputError(
            f"the heuristic player evaluates KRK and KQK metapositions; {m.ending} has two pieces: "
            "use --backend native"
        )
    deadline = limits.deadline()
    rules = rules_for(m.board, m.piece)
    root = (m.king, m.piece_square, m.belief)
    chosen: dict[State, tuple | None] = {}
    todo = [root]
    while todo:
        state = todo.pop()
        if state in chosen:
            continue
        if len(chosen) % 512 == 0:
            deadline.check()
            if len(chosen) > MAX_NODES:  # a limit of this tool, not a finding: unknown
                stats = {"limit": "size", "stopped": f"the policy visits more than {MAX_NODES:,} metapositions"}
                raise LimitReached(stats)
        choice = chosen[state] = policy(rules, state)
        if choice is not None:
            todo += [s for s in _children(state, choice).values() if s not in chosen]
    depth: dict[State, int] = {}
    failing = _worst(root, chosen, depth, rules)
    if failing is not None:
        return _fails(m, failing, chosen, rules, {"metapositions": len(chosen)})
    plan = _graph(m, root, chosen, depth, rules)
    stats: dict[str, Any] = {"metapositions": len(chosen), "strategy_nodes": len(plan["nodes"])}
    return Claim.solved(depth[root], plan, kind=Kind.UPPER_BOUND, stats=stats)


def _children(state: State, choice: tuple) -> dict[str, State]:
    king, square, _ = state
    _attempt, illegal, answers = choice
    out = {a: s for a, s in answers.items() if s is not None}
    if illegal:
        out["illegal"] = (king, square, illegal)
    return out


#: A failing line: the metapositions met with the policy's attempt and the answer given at
#: each, and how it ends: back at the metaposition of step ``returns_to``, or (``None``) at
#: a metaposition where every attempt risks a draw.
Line = tuple[list[tuple[State, str]], int | None]


def _worst(root: State, chosen: dict, depth: dict, rules: Rules) -> Line | None:
    """Fill ``depth`` (worst-case moves to mate under the policy); the failing Black line
    if the policy can be kept from mating."""
    on_path: list[tuple[State, str]] = []
    active: set[State] = set()

    def visit(state: State) -> Line | None:
        if state in depth:
            return None
        choice = chosen[state]
        if choice is None:
            return list(on_path), None
        active.add(state)
        worst = 1 if any(s is None for s in choice[2].values()) else 0
        for answer, child in _children(state, choice).items():
            on_path.append((state, answer))
            if child in active:
                return list(on_path), [s for s, _ in on_path].index(child)
            failed = visit(child)
            if failed:
                return failed
            on_path.pop()
            worst = max(worst, depth[child] + (answer != "illegal"))
        active.discard(state)
        depth[state] = worst
        return None

    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 50000))
    try:
        return visit(root)
    finally:
        sys.setrecursionlimit(limit)


def _fen(rules: Rules, state: State) -> str:
    return Metaposition(rules.board, *state, rules.piece).fen()


def _graph(m: Metaposition, root: State, chosen: dict, depth: dict, rules: Rules) -> dict:
    ids: dict[State, int] = {}
    order: list[State] = []
    todo = [root]
    while todo:
        state = todo.pop()
        if state in ids:
            continue
        ids[state] = len(order)
        order.append(state)
        todo += list(_children(state, chosen[state]).values())
    nodes = []
    for state in order:
        attempt, _, answers = chosen[state]
        said: dict[str, int | None] = {a: ids[s] for a, s in _children(state, chosen[state]).items()}
        said.update({a: None for a, s in answers.items() if s is None})
        nodes.append({"metaposition": _fen(rules, state), "value": depth[state],
                      "attempt": rules.name(attempt), "answers": said})  # fmt: skip
    return {"root": 0, "nodes": nodes}


#: The answer of a heuristic run whose strategy does not mate: a claim about the
#: strategy, never about the metaposition (its kind ``about a strategy``, its bound names
#: the strategy).
FAILS = "strategy-fails"
#: The strategy such an answer is about (the claim's ``bound``).
THIS_STRATEGY = "the heuristic's strategy"


def _fails(m: Metaposition, failing: Line, chosen: dict, rules: Rules, stats: dict) -> Claim:
    """The no-solution about this strategy naming the Black line that keeps the policy from mating;
    the witness is that line (the checker replays the policy along it)."""
    steps, returns_to = failing
    line = [{"metaposition": _fen(rules, state), "attempt": rules.name(chosen[state][0]),
             "answer": answer} for state, answer in steps]  # fmt: skip
    said = [f"{step['attempt']}: {step['answer']}" for step in line]
    if returns_to is None:
        end = (m.king, m.piece_square, m.belief)
        if steps:
            state, answer = steps[-1]
            end = _children(state, chosen[state])[answer]
        said.append(f"every attempt from {_fen(rules, end)} risks a draw")
    else:
        said.append(f"back to {line[returns_to]['metaposition']}: the policy goes round in circles")
    stats = {**stats, "line": "; ".join(said)}
    witness = {"line": line, "returns_to": returns_to}
    return Claim.none(FAILS, witness, kind=Kind.ABOUT_STRATEGY, bound=THIS_STRATEGY, stats=stats)
