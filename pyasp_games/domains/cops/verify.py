"""Independent checks of Cops and Robbers answers (imports nothing from native/asp/sat).

The checker has its own move generator, written from the rules (:mod:`..model`): the
classic cops' moves are every product of closed neighbourhoods, sorted; the notes'
are one cop to a free neighbour (or a pass when there is none). It replays the
strategies of a witness move by move:

- **the cops' strategy** (positions with the cops to move, each with a move and a
  number ``within``): the move is legal and either captures (traps) or leaves the
  robber only moves into positions of the table with a smaller number, so every play
  ends in a capture within the start's number of moves of the cops;
- **the robber's defence** (positions with the robber to move, a move and a number
  ``survives``): the move is legal, and after every move of the cops the robber is
  still free and in the table with at most one less: the cops need at least that many
  moves, so the number of moves is exact;
- **the robber's strategy** (no numbers): every move keeps the robber free, and every
  move of the cops leads back into the table: the robber is never caught;
- **the robber's escape** of ``cops number`` (a set of positions with the cops to move,
  one for every placement of the cops): whatever the cops do from one of them, the
  checker itself finds a robber move back into the set;
- **the numbers ``cops number`` prints**: ``capture_within`` must be the cops'
  strategy's own worst case (the longest play from their start against every robber
  start and every robber move, which the checker measures on the strategy), and the
  certificate's dismantlability (one cop wins exactly on the dismantlable graphs,
  Nowakowski and Winkler, Quilliot) must agree with the cop number proved, its order of
  removal replayed corner by corner.

>>> from pyasp_games.domains.cops.model import parse_instance
>>> from pyasp_games.engines.outcome import Outcome
>>> g = parse_instance("a b\\nb c\\n", cops="a", robber="c")
>>> cops = [{"cops": ["a"], "robber": "c", "move": ["b"], "within": 2},
...         {"cops": ["b"], "robber": "c", "move": ["c"], "within": 1}]
>>> robber = [{"cops": ["a"], "robber": "c", "move": "c", "survives": 2},
...           {"cops": ["b"], "robber": "c", "move": "c", "survives": 1}]
>>> check_solve(g, Outcome("g", "x", "solved", {"winner": "cops", "moves": 2},
...     {"rules": "classic", "cops_strategy": cops, "robber_defence": robber}))
(True, 'the cops catch the robber within 2 moves (a strategy of 2 positions); no faster capture (a defence of 2 positions)')
>>> check_solve(g, Outcome("g", "x", "solved", {"winner": "cops", "moves": 1},
...     {"rules": "classic", "cops_strategy": cops[1:], "robber_defence": []}))[1]
"the cops' strategy does not catch from the start within 1"
>>> check_solve(g, Outcome("g", "x", "solved", {"winner": "robber", "moves": None},
...     {"rules": "classic", "robber_strategy": []}))[0]
False
"""

from __future__ import annotations

from itertools import combinations_with_replacement, product
from typing import Any

from pyasp_games.domains.cops.model import CopsGame
from pyasp_games.engines.outcome import Outcome
from pyasp_games.errors import Unconfirmed

#: The most moves (of either side) one check replays before it gives up (unconfirmed).
BUDGET = 20_000_000

Position = tuple[tuple[int, ...], int]


class _Bad(Exception):
    pass


class _Rules:
    """The moves of one rule set on one graph, from the definitions."""

    def __init__(self, game: CopsGame, variant: str) -> None:
        self.game = game
        self.classic = variant == "classic"
        self.adj = [set(a) for a in game.graph.adj]
        self.closed = [sorted(a | {v}) for v, a in enumerate(self.adj)]
        self.index = game.graph.index
        self.spent = 0

    def count(self, moves: int) -> None:
        self.spent += moves
        if self.spent > BUDGET:
            raise Unconfirmed(f"more than {BUDGET:,} moves to replay")

    def over(self, cops: tuple[int, ...], robber: int) -> bool:
        """Captured (classic) or trapped (notes)."""
        if self.classic:
            return robber in cops
        return self.adj[robber] <= set(cops)

    def cop_moves(self, cops: tuple[int, ...], robber: int) -> set[tuple[int, ...]]:
        if self.classic:
            out = {tuple(sorted(p)) for p in product(*(self.closed[c] for c in cops))}
        else:
            taken = set(cops) | {robber}
            out = set()
            for i, c in enumerate(cops):
                for w in self.adj[c] - taken:
                    out.add(tuple(sorted((*cops[:i], w, *cops[i + 1 :]))))
            out = out or {cops}  # no legal move: the cops' player passes
        self.count(len(out))
        return out

    def robber_moves(self, cops: tuple[int, ...], robber: int) -> list[int]:
        if self.classic:
            return self.closed[robber]  # onto a cop is a capture, checked after
        return sorted(self.adj[robber] - set(cops))

    def vertex(self, name: Any) -> int:
        if not isinstance(name, str) or name not in self.index:
            raise _Bad(f"{name!r} is no vertex of {self.game.name}")
        return self.index[name]

    def cops(self, names: Any, k: int) -> tuple[int, ...]:
        if not isinstance(names, list) or len(names) != k:
            raise _Bad(f"{names!r} is not a placement of {k} cops")
        placed = tuple(sorted(self.vertex(v) for v in names))
        if not self.classic and len(set(placed)) < k:
            raise _Bad(f"two cops on one vertex in {names!r} (the notes' rules)")
        return placed

    def show(self, position: Position) -> str:
        names = self.game.names
        cops, robber = position
        return f"cops {' '.join(names[c] for c in cops)} robber {names[robber]}"

    def table(self, entries: Any, k: int, number: str | None) -> dict[Position, tuple[Any, int]]:
        """``{position: (move, number)}`` of a witness table (a list of entries)."""
        if not isinstance(entries, list):
            raise _Bad("a strategy must be a list of positions")
        out: dict[Position, tuple[Any, int]] = {}
        for e in entries:
            if not isinstance(e, dict):
                raise _Bad(f"{e!r} is not a position of a strategy")
            key = (self.cops(e.get("cops"), k), self.vertex(e.get("robber")))
            value = e.get(number, 0) if number else 0
            if not isinstance(value, int) or isinstance(value, bool):
                raise _Bad(f"{self.show(key)}: {number} must be a number")
            out[key] = (e.get("move"), value)
        return out


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _check_cops(rules: _Rules, table: dict[Position, tuple[Any, int]], k: int) -> None:
    """Every entry's move captures, or leads only to entries of smaller numbers."""
    for (cops, robber), (move, within) in table.items():
        here = rules.show((cops, robber))
        if rules.over(cops, robber):
            raise _Bad(f"{here}: the robber is caught already")
        after = rules.cops(move, k)
        if after not in rules.cop_moves(cops, robber):
            raise _Bad(f"{here}: the cops cannot move to {move}")
        if within < 1:
            raise _Bad(f"{here}: a capture within {within} moves needs a capture now")
        if rules.over(after, robber):
            continue
        for r2 in rules.robber_moves(after, robber):
            if rules.over(after, r2):
                continue
            nxt = table.get((after, r2))
            if nxt is None:
                raise _Bad(f"{here}: after the cops' move the robber goes to "
                           f"{rules.game.names[r2]}, a position the strategy does not cover")  # fmt: skip
            if nxt[1] >= within:
                raise _Bad(f"{here}: the robber's move to {rules.game.names[r2]} leaves "
                           f"{nxt[1]} moves, not fewer than {within}")  # fmt: skip


def _check_robber(rules: _Rules, table: dict[Position, tuple[Any, int]], k: int, counted: bool) -> None:
    """Every entry's move keeps the robber free; every move of the cops after it leads
    back into the table (with ``counted``: while there is something left to survive,
    with at most one less)."""
    for (cops, robber), (move, survives) in table.items():
        here = rules.show((cops, robber))
        if rules.over(cops, robber):
            raise _Bad(f"{here}: the robber is caught already")
        to = rules.vertex(move)
        if to not in rules.robber_moves(cops, robber):
            raise _Bad(f"{here}: the robber cannot move to {move}")
        if rules.over(cops, to):
            raise _Bad(f"{here}: the robber's move to {move} is caught at once")
        if counted and survives < 1:
            raise _Bad(f"{here}: survives must be at least 1")
        if counted and survives == 1:
            continue
        for after in rules.cop_moves(cops, to):
            nxt = table.get((after, to))
            if rules.over(after, to) or nxt is None:
                raise _Bad(f"{here}: after the robber's move to {move} the cops can reach "
                           f"{rules.show((after, to))}, which the strategy does not cover")  # fmt: skip
            if counted and nxt[1] < survives - 1:
                raise _Bad(f"{here}: {rules.show((after, to))} survives {nxt[1]}, "
                           f"less than {survives - 1}")  # fmt: skip


def check_solve(game: CopsGame, outcome: Outcome) -> tuple[bool | None, str]:
    """Check a claimed winner and number of moves by the strategies of the witness."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    answer, witness = outcome.answer, outcome.witness
    if not isinstance(answer, dict) or answer.get("winner") not in ("cops", "robber"):
        return False, f"the answer {answer!r} names no winner"
    if not isinstance(witness, dict) or witness.get("rules") != game.variant:
        return False, f"the witness is not a strategy under the {game.variant} rules"
    rules = _Rules(game, game.variant)
    k, start = game.k, (game.cops, game.robber)
    cops_turn = game.to_move == "cops"
    try:
        if answer["winner"] == "robber":
            if answer.get("moves") is not None:
                return False, "a robber's win has no number of moves"
            table = rules.table(witness.get("robber_strategy"), k, None)
            _check_robber(rules, table, k, counted=False)
            if rules.over(*start):
                return False, "the robber is caught at the start"
            if cops_turn:
                for after in rules.cop_moves(*start):
                    if (after, game.robber) not in table or rules.over(after, game.robber):
                        return False, (f"the cops' first move to {rules.show((after, game.robber))} "
                                       "is not covered by the robber's strategy")  # fmt: skip
            elif start not in table:
                return False, "the robber's strategy does not cover the start"
            return True, (f"the robber is never caught (a strategy of "
                          f"{_plural(len(table), 'position')}, closed under every move of the cops)")  # fmt: skip
        moves = answer.get("moves")
        if not isinstance(moves, int) or isinstance(moves, bool) or moves < 0:
            return False, f"the cops' win needs a number of moves, got {moves!r}"
        if moves == 0:
            ok = rules.over(*start)
            return ok, "caught at the start" if ok else "the robber is not caught at the start"
        table = rules.table(witness.get("cops_strategy"), k, "within")
        _check_cops(rules, table, k)
        if rules.over(*start):
            return False, f"the robber is caught at the start, not after {moves} moves"
        if cops_turn:
            entry = table.get(start)
            if entry is None or entry[1] > moves:
                return False, f"the cops' strategy does not catch from the start within {moves}"
        else:
            for r2 in rules.robber_moves(*start):
                if not rules.over(game.cops, r2):
                    entry = table.get((game.cops, r2))
                    if entry is None or entry[1] > moves:
                        return False, (f"the robber's first move to {game.names[r2]} escapes the "
                                       f"cops' strategy within {moves}")  # fmt: skip
        defence = rules.table(witness.get("robber_defence"), k, "survives")
        _check_robber(rules, defence, k, counted=True)
        if cops_turn and moves >= 2:
            for after in rules.cop_moves(*start):
                entry = defence.get((after, game.robber))
                if rules.over(after, game.robber) or entry is None or entry[1] < moves - 1:
                    return False, (f"the cops' first move to {rules.show((after, game.robber))} "
                                   f"is not shown to leave {moves - 1} moves to survive")  # fmt: skip
        if not cops_turn:
            entry = defence.get(start)
            if entry is None or entry[1] < moves:
                return False, f"the robber's defence does not survive {moves} moves from the start"
    except _Bad as bad:
        return False, str(bad)
    return True, (f"the cops catch the robber within {_plural(moves, 'move')} (a strategy of "
                  f"{_plural(len(table), 'position')}); no faster capture (a defence of "
                  f"{_plural(len(defence), 'position')})")  # fmt: skip


def capture_times(rules: _Rules, table: dict[Position, tuple[Any, int]], k: int) -> dict[Position, int]:
    """For every position of a cops' strategy (checked by :func:`_check_cops`), the most
    moves of the cops a play from it lasts, the cops playing the strategy and the robber
    any move: the strategy's own worst case, which its numbers only bound (each move
    leads to smaller numbers, so the plays are finite and the positions are taken in
    the order of their numbers, the later ones' successors measured first)."""
    times: dict[Position, int] = {}
    for cops, robber in sorted(table, key=lambda p: table[p][1]):
        after = rules.cops(table[(cops, robber)][0], k)
        longest = 0
        if not rules.over(after, robber):
            replies = rules.robber_moves(after, robber)
            rules.count(len(replies))
            for r2 in replies:
                if not rules.over(after, r2):
                    longest = max(longest, times[(after, r2)])
        times[(cops, robber)] = 1 + longest
    return times


def dismantling_check(rules: _Rules, order: Any) -> str:
    """A claimed order of removal: every vertex once, each but the last a corner of the
    graph left when it goes (its closed neighbourhood inside another vertex's)."""
    n = len(rules.game)
    if not isinstance(order, list):
        raise _Bad(f"the dismantling order {order!r} is not a list of vertices")
    vertices = [rules.vertex(v) for v in order]
    if sorted(vertices) != list(range(n)):
        raise _Bad("the dismantling order does not list every vertex once")
    alive = set(range(n))
    for u in vertices[:-1]:
        here = set(rules.closed[u]) & alive
        rules.count(len(here))
        if not any(v != u and here <= set(rules.closed[v]) & alive for v in here):
            raise _Bad(f"the dismantling order removes {rules.game.names[u]}, "
                       "not a corner of the graph left")  # fmt: skip
        alive.discard(u)
    return "dismantlable: the order of removal replayed"


def _check_dismantlable(rules: _Rules, certificate: Any, k: int) -> str:
    """The certificate's dismantlability against the cop number proved (one cop wins
    exactly on the dismantlable graphs); ``""`` where the answer claims none."""
    if certificate is None:
        return ""
    if not isinstance(certificate, dict) or not isinstance(certificate.get("dismantlable"), bool):
        raise _Bad(f"the certificate {certificate!r} does not say whether the graph is dismantlable")
    if certificate["dismantlable"] != (k == 1):
        said = "dismantlable" if certificate["dismantlable"] else "not dismantlable"
        raise _Bad(f"the graph is said {said}, but its cop number is {k}: one cop wins "
                   "exactly on the dismantlable graphs")  # fmt: skip
    if k == 1:
        return "; " + dismantling_check(rules, certificate.get("dismantling_order"))
    if certificate.get("dismantling_order") is not None:
        raise _Bad("a dismantling order for a graph said not dismantlable")
    return f"; not dismantlable (its cop number is {k}, not 1)"


def check_number(game: CopsGame, outcome: Outcome) -> tuple[bool | None, str]:
    """Check a claimed cop number: the winning strategy from the cops' start against
    every robber start, its worst case (``capture_within``), the escape of one cop fewer
    from every placement, and the dismantlability the certificate states."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    k, witness = outcome.answer, outcome.witness
    if not isinstance(k, int) or isinstance(k, bool) or k < 1 or not isinstance(witness, dict):
        return False, f"{k!r} is not a cop number with its proofs"
    rules = _Rules(game, "classic")
    n = len(game)
    try:
        if witness.get("cops") != k:
            return False, f"the witness is about {witness.get('cops')!r} cops, not {k}"
        start = rules.cops(witness.get("start"), k)
        table = rules.table(witness.get("strategy"), k, "within")
        _check_cops(rules, table, k)
        for r in range(n):
            if r not in start and (start, r) not in table:
                return False, f"the cops' strategy does not cover the robber starting on {game.names[r]}"
        times = capture_times(rules, table, k)
        worst = max((times[(start, r)] for r in range(n) if r not in start), default=0)
        within = witness.get("capture_within")
        if not isinstance(within, int) or isinstance(within, bool) or within != worst:
            return False, (f"capture within {within!r} moves is claimed, but the strategy's "
                           f"worst case is {_plural(worst, 'move')}")  # fmt: skip
        escape = escape_check(rules, witness.get("escape"), k - 1)
        dismantlable = _check_dismantlable(rules, outcome.certificate, k)
    except _Bad as bad:
        return False, str(bad)
    return True, (f"{k} cops from {' '.join(game.names[c] for c in start)} catch the robber "
                  f"wherever it starts within {_plural(worst, 'move')}, the strategy's worst "
                  f"case (a strategy of {_plural(len(table), 'position')}); {escape}"
                  f"{dismantlable}")  # fmt: skip


def escape_check(rules: _Rules, entries: Any, k: int) -> str:
    """The robber's escape from ``k`` cops: one position for every placement, and from
    each, whatever the cops do, a robber move back into the set."""
    if k == 0:
        if entries not in ([], None):
            raise _Bad("no cops catch no one: the escape of 0 cops is empty")
        return "no cops catch no one"
    if not isinstance(entries, list):
        raise _Bad("the escape must be a list of positions")
    safe = {(rules.cops(e.get("cops") if isinstance(e, dict) else None, k),
             rules.vertex(e.get("robber"))) for e in entries}  # fmt: skip
    placed = {cops for cops, _ in safe}
    n = len(rules.game)
    for cops in combinations_with_replacement(range(n), k):
        rules.count(1)
        if cops not in placed:
            raise _Bad(f"the escape has no robber start against cops on "
                       f"{' '.join(rules.game.names[c] for c in cops)}")  # fmt: skip
    for cops, robber in safe:
        if robber in cops:
            raise _Bad(f"{rules.show((cops, robber))}: the robber is caught already")
        for after in rules.cop_moves(cops, robber):
            if robber in after:
                raise _Bad(f"{rules.show((cops, robber))}: the cops capture by moving to "
                           f"{' '.join(rules.game.names[c] for c in after)}")  # fmt: skip
            if not any(w not in after and (after, w) in safe for w in rules.closed[robber]):
                raise _Bad(f"{rules.show((cops, robber))}: after the cops move to "
                           f"{' '.join(rules.game.names[c] for c in after)} the robber has "
                           "no move back into the escape")  # fmt: skip
    return (f"{_plural(k, 'cop')} never {'catches' if k == 1 else 'catch'} it (an escape of "
            f"{_plural(len(safe), 'position')}, one against every placement)")
