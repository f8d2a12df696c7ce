"""Independent checks of Geography answers (imports nothing from native/asp/sat).

The game is replayed from the graph's arc lists with plain minimax over explicit
sets of used vertices or used edges (no bitsets, no transposition table, no move
ordering), within a budget of explored positions. ``check_answer`` confirms a
claimed winner and winning first move: the move must be legal and lead to a
position lost for the opponent; a claimed second-player win must leave every
first move winning for the opponent.

>>> from pyasp_games.domains.geography.model import parse_instance
>>> g = parse_instance("s a\\na b\\ns b\\n", "s", "vertex")
>>> brute_force_winner(g)
'first'
>>> check_answer(g, "first", "a")
(False, "after the first move to 'a' the opponent wins (brute-force minimax)")
>>> check_answer(g, "first", "b")[0], check_answer(g, "second", None)[0]
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pyasp_games.domains.geography.model import Geography
from pyasp_games.engines.limits import Deadline, LimitReached
from pyasp_games.engines.outcome import Outcome
from pyasp_games.errors import Unconfirmed

#: positions explored at most by one brute-force verification
BUDGET = 300_000
#: larger graphs (vertices in vertex geography, edges in edge geography) are not searched
MAX_MATERIAL = 80
#: positions a strategy certificate may have (the checker walks each once)
PROOF_BUDGET = 2_000_000


class _Budget(Exception):
    pass


def _neighbours(game: Geography) -> list[list[tuple[int, frozenset[int]]]]:
    """For every vertex, ``(next vertex, edge key)``; an undirected edge's key is its end set."""
    g = game.graph
    out: list[list[tuple[int, Any]]] = [[] for _ in g.names]
    for u, succ in enumerate(g.succ):
        for v in succ:
            key = (u, v) if game.directed else frozenset((u, v))
            out[u].append((v, key))
            if not game.directed and u != v:
                out[v].append((u, key))
    # an undirected edge written both ways in the file is one edge: drop repeated moves
    return [list(dict.fromkeys(m)) for m in out]


def _mover_wins(game: Geography, nbrs: list, v: int, used: frozenset, counter: list[int]) -> bool:
    counter[0] += 1
    if counter[0] > BUDGET:
        raise _Budget
    for w, key in nbrs[v]:
        item = w if game.variant == "vertex" else key
        if item in used:
            continue
        if not _mover_wins(game, nbrs, w, used | {item}, counter):
            return True
    return False


def _initial(game: Geography) -> frozenset:
    return frozenset({game.start}) if game.variant == "vertex" else frozenset()


def brute_force_winner(game: Geography) -> str | None:
    """``first``/``second`` by exhaustive minimax, ``None`` beyond the budget."""
    if (len(game) if game.variant == "vertex" else game.edge_count) > MAX_MATERIAL:
        return None
    nbrs = _neighbours(game)
    try:
        first = _mover_wins(game, nbrs, game.start, _initial(game), [0])
    except _Budget:
        return None
    return "first" if first else "second"


def _first_move_target(game: Geography, witness: Any) -> int | None:
    names = game.names
    if game.variant == "vertex":
        return game.graph.index.get(witness) if isinstance(witness, str) else None
    if isinstance(witness, (list, tuple)) and len(witness) == 2 and witness[0] == names[game.start]:
        return game.graph.index.get(witness[1])
    return None


def check_answer(game: Geography, answer: Any, witness: Any) -> tuple[bool | None, str]:
    """Check a claimed winner and winning first move; :class:`Unconfirmed` when too large
    to decide by brute force (the claim stands, not verified: exit 3)."""
    if answer not in ("first", "second"):
        return False, f"answer {answer!r} is neither 'first' nor 'second'"
    nbrs = _neighbours(game)
    used = _initial(game)
    large = (len(game) if game.variant == "vertex" else game.edge_count) > MAX_MATERIAL
    legal = {
        w: used | {w if game.variant == "vertex" else key}
        for w, key in nbrs[game.start]
        if (w if game.variant == "vertex" else key) not in used
    }
    counter = [0]
    if answer == "first":
        if witness is None:  # the answer names no move at all
            return False, "the first player is claimed to win, but the answer names no winning move"
        target = _first_move_target(game, witness)
        if target is None or target not in legal:
            return False, f"the claimed winning move {witness!r} is not a legal first move"
        if large:
            raise Unconfirmed("legal first move; too large to confirm it wins by brute force") from None
        try:
            lost = not _mover_wins(game, nbrs, target, legal[target], counter)
        except _Budget:
            raise Unconfirmed("legal first move; too large to confirm it wins by brute force") from None
        if not lost:
            return (
                False,
                f"after the first move to {witness!r} the opponent wins (brute-force minimax)",
            )
        return True, "the first move leaves the opponent lost (brute-force minimax)"
    if witness is not None:
        return False, "a second-player win has no winning first move (witness must be null)"
    if large:
        raise Unconfirmed("too large to confirm every first move loses by brute force") from None
    try:
        for w, after in legal.items():
            if not _mover_wins(game, nbrs, w, after, counter):
                return False, f"the first move to {game.names[w]!r} wins (brute-force minimax)"
    except _Budget:
        raise Unconfirmed("too large to confirm every first move loses by brute force") from None
    return True, f"all {len(legal)} first moves lose (brute-force minimax)"


def check_line(game: Geography, line: list[str]) -> tuple[bool, str]:
    """A line of play is legal from the start and ends where the mover is stuck."""
    nbrs = _neighbours(game)
    index = game.graph.index
    if not line or line[0] != game.names[game.start]:
        return False, "the line does not begin at the start vertex"
    used = _initial(game)
    v = game.start
    for name in line[1:]:
        w = index.get(name)
        step = [key for x, key in nbrs[v] if x == w]
        item = w if game.variant == "vertex" else (step[0] if step else None)
        if w is None or not step or item in used:
            return False, f"{game.names[v]} -> {name} is not a legal move in the line"
        used = used | {item}
        v = w
    if any((w if game.variant == "vertex" else key) not in used for w, key in nbrs[v]):
        return False, "the line stops while the player to move still has a move"
    return True, f"a legal line of {len(line) - 1} moves to a player without moves"


def check_strategy(game: Geography, answer: Any, witness: Any, proof: Any) -> tuple[bool, str]:
    """Check a claimed winner by the winner's strategy (a proof DAG, the outcome's
    certificate): walked from the start with the real positions (the token's vertex and
    the used vertices, or edges), at each of the winner's turns the node's move must be
    legal, at each of the loser's turns the node must answer every legal reply (and no
    other), and a play ends only where the loser cannot move. Every play the loser can
    force then ends with the loser stuck: the answer holds. A node reached by several
    plays is checked once per distinct position. :class:`Unconfirmed` beyond
    :data:`PROOF_BUDGET` positions.

    The proof: ``{"root": k, "nodes": [...]}`` (first player wins: node ``k`` is the start)
    or ``{"replies": {first move: k, ...}, "nodes": [...]}`` (second player wins); a node
    is ``{"move": vertex, "replies": {reply vertex: node, ...}}`` (moves named by the
    vertex the token goes to).

    >>> from pyasp_games.domains.geography.model import parse_instance
    >>> g = parse_instance("s a\\na b\\ns b\\n", "s", "vertex")
    >>> check_strategy(g, "first", "b", {"root": 0, "nodes": [{"move": "b", "replies": {}}]})
    (True, 'a winning strategy of 1 position (1 node), every reply answered')
    >>> check_strategy(g, "first", "a", {"root": 0, "nodes": [{"move": "a", "replies": {}}]})
    (False, "the loser's reply 'b' to the move to 'a' is not answered by the strategy")
    >>> check_strategy(parse_instance("a b\\n", "b", "vertex"), "second", None, {"replies": {}, "nodes": []})
    (True, 'the first player has no move at the start: nothing to answer')
    """
    if answer not in ("first", "second"):
        return False, f"answer {answer!r} is neither 'first' nor 'second'"
    if not isinstance(proof, dict) or not isinstance(proof.get("nodes"), list):
        return False, "no strategy (a JSON object with 'nodes' and 'root' or 'replies')"
    nodes = proof["nodes"]
    nbrs = _neighbours(game)
    names, index = game.names, game.graph.index
    vertex = game.variant == "vertex"
    # every piece of material (a vertex, or an edge key) as one bit of an integer
    bit: dict[Any, int] = {}
    for v, moves in enumerate(nbrs):
        for w, key in moves:
            item = w if vertex else key
            bit.setdefault(item, len(bit))
        if vertex:
            bit.setdefault(v, len(bit))

    def legal(v: int, used: int) -> dict[str, int]:
        """The moves from ``v``: the name of the vertex entered -> the used set after."""
        out = {}
        for w, key in nbrs[v]:
            b = 1 << bit[w if vertex else key]
            if not used & b:
                out[names[w]] = used | b
        return out

    def answered(replies: Any, v: int, used: int, after: str) -> list[tuple[Any, int, int]] | str:
        """The loser's every reply at ``v`` paired with the strategy's node for it."""
        if not isinstance(replies, dict):
            return f"the replies {after} are not a mapping of replies to nodes"
        options = legal(v, used)
        for name in replies:
            if name not in options:
                return f"{name!r} {after} is not a legal reply"
        for name in options:
            if name not in replies:
                return f"the loser's reply {name!r} {after} is not answered by the strategy"
        return [(replies[name], index[name], options[name]) for name in options]

    s = game.start
    used0 = 1 << bit[s] if vertex and s in bit else 0
    if answer == "first":
        root = proof.get("root")
        target = _first_move_target(game, witness)
        if not isinstance(root, int) or not 0 <= root < len(nodes) or not isinstance(nodes[root], dict):
            return False, "the strategy has no root node"
        if target is None or nodes[root].get("move") != names[target]:
            return False, f"the winning move {witness!r} is not the strategy's first move"
        stack = [(root, s, used0)]
    else:
        if witness is not None:
            return False, "a second-player win has no winning first move (witness must be null)"
        first = answered(proof.get("replies"), s, used0, "at the start")
        if isinstance(first, str):
            return False, first
        stack = list(first)
    seen: set[tuple[int, int, int]] = set()
    while stack:
        k, v, used = stack.pop()
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < len(nodes):
            return False, f"the strategy names a node {k!r} it does not have"
        if (k, v, used) in seen:
            continue
        seen.add((k, v, used))
        if len(seen) > PROOF_BUDGET:
            raise Unconfirmed(f"a strategy beyond the checker's budget of {PROOF_BUDGET:,} positions")
        node = nodes[k]
        move = node.get("move") if isinstance(node, dict) else None
        options = legal(v, used)
        if move not in options:
            return False, f"the strategy's move to {move!r} from {names[v]!r} is not legal there"
        replies = answered(node.get("replies"), index[move], options[move], f"to the move to {move!r}")
        if isinstance(replies, str):
            return False, replies
        stack += replies
    if not seen:  # a second player's win with no first move to answer
        return True, "the first player has no move at the start: nothing to answer"
    count = len({k for k, _, _ in seen})
    return True, (f"a winning strategy of {len(seen):,} position{'s' if len(seen) != 1 else ''} "
                  f"({count:,} node{'s' if count != 1 else ''}), every reply answered")


#: positions a strategy given as a function may make the checker visit
FUNCTION_BUDGET = 10_000_000


class Play(list):
    """The play handed to a strategy by :func:`check_strategy_function`: a list of vertex
    numbers with ``stamps``, per vertex when it was played (a counter, increasing along
    the play; a vertex played again after the walk went back gets a new one). A strategy
    that keeps state between calls finds what changed since its last call by bisecting
    the stamps (the vertices stamped at most the last call's last stamp are still there).

    >>> play = Play([0, 3])
    >>> play, play.stamps
    ([0, 3], [0, 1])
    """

    stamps: list[int]

    def __init__(self, items: Sequence[int] = ()) -> None:
        super().__init__(items)
        self.stamps = list(range(len(items)))


def _shown_play(game: Geography, play: Sequence[int], extra: int | None = None) -> str:
    """A play by its vertices' names, its middle left out when long."""
    names = [game.names[v] for v in play] + ([] if extra is None else [repr(extra)])
    if len(names) > 40:
        return f"{' '.join(names[:5])} ... ({len(names) - 25} more) ... {' '.join(names[-20:])}"
    return " ".join(names)


def check_strategy_function(
    game: Geography, answer: Any, strategy: Callable[[Sequence[int]], Any],
    budget: int = FUNCTION_BUDGET, deadline: Deadline | None = None,
) -> tuple[bool, str]:
    """Check a claimed winner by the winner's strategy given as a function of the play.

    An exhaustive depth-first walk of the real game from the start: at every turn of the
    claimed winner ``answer`` (``first``/``second``) the strategy's move, which must be
    legal; at every turn of the other player every legal move; every play must end with
    the other player unable to move. The strategy is untrusted code: it is called with the
    play so far (vertex numbers, the start first, the token's vertex last) and nothing it
    says is believed except as a move (an exception, or anything but a legal vertex
    number, refuses it, with the play).

    It scales to games of 10^5-10^6 vertices: one used-array (vertices, or edges in edge
    geography) marked and unmarked as the walk goes down and back, an explicit stack (no
    recursion limit), O(degree) work per position besides the strategy. **The play is
    handed to the strategy without a copy**: the same list (a :class:`Play`, whose stamps
    say what changed since a strategy's last call), changed by the walk after the call
    returns, so a strategy must not keep it (nor change it: it would mislead only itself;
    the checker reads its own record). Positions are not merged (the strategy
    may depend on the whole play): the walk visits every play the strategy allows, and
    raises :class:`~pyasp_games.errors.Unconfirmed` beyond ``budget`` positions, and
    :class:`~pyasp_games.engines.limits.LimitReached` at the deadline (polled).

    >>> from pyasp_games.domains.geography.model import parse_instance
    >>> g = parse_instance("s a\\na b\\ns b\\n", "s", "vertex")
    >>> check_strategy_function(g, "first", lambda play: g.graph.index["b"])
    (True, 'a winning strategy checked over 2 positions: every play ends with the second player stuck')
    >>> check_strategy_function(g, "first", lambda play: g.graph.index["a"])
    (False, 'the play s a b ends with the claimed winner (first) unable to move')
    """
    if answer not in ("first", "second"):
        return False, f"answer {answer!r} is neither 'first' nor 'second'"
    vertex = game.variant == "vertex"
    n = len(game)
    # per vertex, its moves as (next vertex, the material it uses up)
    moves = [[(w, w if vertex else e) for w, e in row] for row in game.moves]
    used = bytearray(n if vertex else game.edge_count)
    if vertex:
        used[game.start] = 1
    # the checker's own record of the play (what it reads), and the copy handed to the
    # strategy (which a strategy could change: it would mislead only itself)
    line = [game.start]
    play = Play([game.start])
    stamps = play.stamps
    spent: list[int] = [-1]  # per vertex of the play, the material its move used (-1: none)
    clock = [1]  # the next stamp

    def push(w: int, item: int) -> None:
        used[item] = 1
        line.append(w)
        play.append(w)
        stamps.append(clock[0])
        clock[0] += 1
        spent.append(item)

    def legal(v: int) -> list[tuple[int, int]]:
        out = [(w, item) for w, item in moves[v] if not used[item]]
        if not vertex and len(out) > 1:  # parallel edges to one vertex: the same move
            out = list({w: (w, item) for w, item in reversed(out)}.values())
        return out

    def winner_moves(v: int) -> int | str:
        """The strategy's move at the winner's turn at ``v``, played; or a refusal's reason."""
        options = legal(v)
        if not options:
            return f"the play {_shown_play(game, line)} ends with the claimed winner ({answer}) unable to move"
        try:
            w = strategy(play)
        except LimitReached:
            raise
        except Exception as error:  # untrusted code: its failure is a refusal
            return f"the strategy fails after the play {_shown_play(game, line)}: {error!r}"
        if len(play) != len(line) or len(stamps) != len(line) or play[-1] != v:
            return f"the strategy changed the play it was given, after {_shown_play(game, line)}"
        item = next((it for x, it in options if x == w and type(w) is int), None)
        if item is None:
            return f"the strategy's move {w!r} after the play {_shown_play(game, line)} is not legal"
        push(w, item)
        return w

    positions = 1  # the start, then one per move
    here = game.start
    if answer == "first":
        here = winner_moves(here)
        if isinstance(here, str):
            return False, here
        positions += 1
    elif not legal(here):
        return True, "the first player has no move at the start: nothing to answer"
    # one frame per position of the other player: its legal moves, the next to try, the
    # length of the play there
    stack: list[list[Any]] = [[legal(here), 0, len(line)]]
    loser = "second" if answer == "first" else "first"
    while stack:
        frame = stack[-1]
        options, k, depth = frame
        while len(line) > depth:  # back to this position
            line.pop()
            play.pop()
            stamps.pop()
            used[spent.pop()] = 0
        if k == len(options):
            stack.pop()
            continue
        frame[1] = k + 1
        w, item = options[k]
        push(w, item)
        positions += 2  # the other player's move, and the strategy's answer (if any)
        if positions > budget:
            raise Unconfirmed(f"a strategy beyond the checker's budget of {budget:,} positions")
        if deadline is not None and positions % 4096 < 2:
            deadline.check()
        here = winner_moves(w)
        if isinstance(here, str):
            return False, here
        stack.append([legal(here), 0, len(line)])
    return True, (f"a winning strategy checked over {positions:,} positions: every play ends with "
                  f"the {loser} player stuck")


def check_outcome(game: Geography, outcome: Outcome) -> tuple[bool | None, str]:
    """Verify a solved outcome independently: by the winner's strategy when the outcome
    carries one (:func:`check_strategy`, any size within its budget), else the winner and
    the winning first move by brute-force minimax (within a budget); and a reported line of
    play for legality."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    line = outcome.stats.get("line")
    if line is not None:
        if not isinstance(line, list) or not all(isinstance(v, str) for v in line):
            return False, "the line of play is not a list of vertices"
        ok, message = check_line(game, line)
        if not ok:
            return False, message
        winner = "first" if len(line) % 2 == 0 else "second"  # an odd number of moves: first
        if outcome.answer != winner:
            return False, f"the line of play ends with the {winner} player winning, not the {outcome.answer}"
        if outcome.answer == "first" and line[1:2] != [_shown_target(game, outcome.witness)]:
            return False, "the line of play does not begin with the winning move shown"
    if outcome.certificate is not None:
        return check_strategy(game, outcome.answer, outcome.witness, outcome.certificate)
    return check_answer(game, outcome.answer, outcome.witness)


def _shown_target(game: Geography, witness: Any) -> str | None:
    """The vertex a shown first move goes to (a vertex; in edge geography an arc)."""
    target = _first_move_target(game, witness)
    return None if target is None else game.names[target]
