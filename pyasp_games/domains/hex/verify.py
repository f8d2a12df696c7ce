"""Independent checks of Hex proofs (imports nothing from native/asp/sat).

A proof (every backend writes one, :mod:`~pyasp_games.domains.hex.proofs` documents the
shape) is a list of ``nodes`` and a ``root``: a node of the winner to move is
``{"move": cell, "next": node}``; a node of the loser to move is ``{"replies": {cell:
node, ...}}`` with **every** empty cell; a leaf is ``{"won": true}`` (the winner's stones
join its sides) or ``{"pairs": [[x, y], ...]}`` (disjoint pairs of empty cells: whatever
one cell of each pair the winner gets, with every other empty cell the loser's, the
winner has won: the winner answers a move in a pair with the other cell). A node
``{"carrier": [cell, ...], "next": node}`` restricts the game to a *carrier*: every empty
cell outside it becomes the loser's, the same player moves, and the proof goes on at
``next`` in that smaller position (sound by Hex's monotonicity: a stone more never hurts
its owner, so a winner who wins with the loser holding those cells wins without that:
the loser's moves outside the carrier are answered by any move, which can only help).
A leaf ``{"connect": [step, ...]}`` is a virtual connection of the winner's sides given
by its derivation (H-search's rules, each step checked here by :class:`_Derivations`'
own tests: adjacent points, edge templates played out as local games, the AND and OR
rules over carriers computed here), full, or semi with the winner to move. A node
``{"dead": [cell, ...], "next": node}`` fills dead cells with Black (each one dead for
both players by the criterion checked here, :func:`_dead_filled`; a dead cell's colour
changes no win), the same player to move. A node ``{"fill": [step, ...], "next": node}``
fills captured cells, step by step in order (:func:`_filled`): ``[colour, cell]`` or
``[colour, cell, cell]``, the cells filled for the player of ``colour``; a step for the
winner must hold by the criterion checked here (one cell dead for the loser, or two
adjacent cells each dead for the loser once the other is the winner's), a step for the
loser needs none (a stone more of the loser's never helps the winner). A loser's node may
carry ``"inferior": {cell: better, ...}``: a reply left out of ``replies`` because,
with ``better`` (a reply checked) the loser's, ``cell`` is dead for the winner, so the
loser gains nothing by ``cell`` that ``better`` does not give it.
The checker replays the proof from the position with its own rules: a flood fill over
the cells for a joined chain (and for White in graph Hex, for Black's way through the
cells that are not white), on Python-int bitsets (six shifts of a set on the rhombus,
the cells' neighbour sets on a graph), every choice of the pairs tried, every carrier's
sub-proof replayed in its own restricted position (the player to move is carried along,
not read from the stone counts, which a restriction changes). Nodes reached twice in the
same position are checked once. Beyond :data:`BUDGET` node visits, or
:data:`PAIR_BUDGET` win tests in the pairing leaves, it raises :class:`Unconfirmed`.

>>> from pyasp_games.domains.hex.model import parse_position
>>> game = parse_position(".B/..")
>>> check_proof(game, "black", {"root": 0, "nodes": [{"pairs": [["a2", "b2"]]}]})
(True, 'a proof for black of 1 node (1 leaf)')
>>> check_proof(game, "black", {"root": 0, "nodes": [{"replies": {"a2": 1}}, {"won": True}]})
(False, 'the reply a1 of white is not covered')
"""

from __future__ import annotations

import itertools
from typing import Any

from pyasp_games.domains.hex.model import PLAYERS, Hex
from pyasp_games.engines.outcome import Outcome
from pyasp_games.errors import Unconfirmed

#: node visits at most by one check (a visit: one node in one position)
BUDGET = 12_000_000
#: win tests at most for the pairing leaves of one check (every choice of every leaf)
PAIR_BUDGET = 60_000_000
#: the most pairs of one leaf (every one of 2**k choices is tried)
MAX_PAIRS = 16
#: derivation steps at most replayed by one check (the ``connect`` leaves)
STEP_BUDGET = 50_000_000
#: positions at most of the local games that check the edge templates of one proof
TEMPLATE_BUDGET = 2_000_000
#: the most cells of an edge template's carrier the checker plays out
MAX_TEMPLATE = 24


class _Rules:
    """The win test on sets of cells as Python ``int`` bitsets (bit ``i``: cell ``i``),
    written here, not shared with the solvers: a flood fill whose step is the union of
    the neighbours of the cells reached (six shifts of the set on the rhombus, the
    cells' neighbour sets in graph Hex)."""

    def __init__(self, game: Hex) -> None:
        self.n = len(game)
        self.full = (1 << self.n) - 1
        self.nb = [sum(1 << j for j in near) for near in game.neighbours]
        self.sides = {p: (sum(1 << i for i in a), sum(1 << i for i in b)) for p, (a, b) in game.sides.items()}
        self.board = game.is_board
        self.joined = game.joined
        self.cols = game.cols
        if self.board:
            first = sum(1 << (r * game.cols) for r in range(game.rows))
            self.not_first = self.full & ~first
            self.not_last = self.full & ~(first << (game.cols - 1))

    def grow(self, x: int) -> int:
        """The cells of ``x`` and their neighbours."""
        if self.board:
            c = self.cols
            y = x | ((x << 1) & self.not_first) | ((x >> 1) & self.not_last)
            return (y | (x << c) | (x >> c) | ((x >> (c - 1)) & self.not_first) | ((x << (c - 1)) & self.not_last)) \
                & self.full
        y = x
        while x:
            low = x & -x
            y |= self.nb[low.bit_length() - 1]
            x ^= low
        return y

    def joins(self, allowed: int, start: int, goal: int) -> bool:
        """Whether a path of cells of ``allowed`` joins a cell of ``start`` to one of ``goal``."""
        if not (allowed & goal):
            return False
        seen = start & allowed
        front = seen
        if not self.board:
            while front:
                if seen & goal:
                    return True
                front = self.grow(front) & allowed & ~seen
                seen |= front
            return False
        # the rhombus: the six shifts written out (the checker's hot loop)
        c, c1, nf, nl = self.cols, self.cols - 1, self.not_first, self.not_last
        while front:
            if seen & goal:
                return True
            x = front
            front = (((x << 1) & nf) | ((x >> 1) & nl) | (x << c) | (x >> c) | ((x >> c1) & nf)
                     | ((x << c1) & nl)) & allowed & ~seen
            seen |= front
        return False

    def component(self, allowed: int, start: int) -> int:
        """The cells of ``allowed`` joined to ``start`` by paths in ``allowed``."""
        seen = front = start & allowed
        while front:
            front = self.grow(front) & allowed & ~seen
            seen |= front
        return seen

    def won(self, black: int, white: int, player: str) -> bool:
        """Whether ``player`` (``'B'``/``'W'``) has won with these stones."""
        if not self.board and self.joined:
            return player == "B"
        if player in self.sides:
            a, b = self.sides[player]
            return self.joins(black if player == "B" else white, a, b)
        # graph Hex: White wins when no path of cells that are not white joins the terminals
        a, b = self.sides["B"]
        return not self.joins(self.full & ~white, a, b)


def _bits(stones: Any, letter: str) -> int:
    return sum(1 << i for i, s in enumerate(stones) if s == letter)


def has_won(game: Hex, stones: list[str], player: str) -> bool:
    """Whether ``player`` (``'B'``/``'W'``) has won with ``stones`` (a cell's letter each)."""
    return _Rules(game).won(_bits(stones, "B"), _bits(stones, "W"), player)


def _pairs_win(game: Hex, rules: _Rules, black: int, white: int, player: str, pairs: list[list[str]],
               tests: list[int]) -> tuple[bool, str]:
    cells: list[tuple[int, int]] = []
    for pair in pairs:
        if not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(c, str) for c in pair):
            return False, f"a pair must be two cells, got {pair!r}"
        x, y = (game.index.get(c) for c in pair)
        if x is None or y is None:
            return False, f"unknown cell in the pair {pair!r}"
        cells.append((x, y))
    flat = [c for pair in cells for c in pair]
    if len(set(flat)) != len(flat):
        return False, "the pairs are not disjoint"
    empty = rules.full & ~(black | white)
    if any(not empty >> c & 1 for c in flat):
        return False, "a pair holds a cell that is not empty"
    if len(cells) > MAX_PAIRS:
        raise Unconfirmed(f"a leaf of {len(cells)} pairs: beyond the checker's {MAX_PAIRS}")
    tests[0] += 1 << len(cells)
    if tests[0] > PAIR_BUDGET:
        raise Unconfirmed(f"pairing leaves beyond the checker's budget of {PAIR_BUDGET:,} win tests")
    # every empty cell the loser's, then each choice gives the winner one cell of each pair
    if player == "B":
        base, others = black, empty
    else:
        base, others = white, empty
    for choice in itertools.product((0, 1), repeat=len(cells)):
        own = base
        for pick, pair in zip(choice, cells, strict=True):
            own |= 1 << pair[pick]
        taken = others & ~own
        if not (rules.won(own, white | taken, "B") if player == "B" else rules.won(black | taken, own, "W")):
            names = [game.cells[pair[pick]] for pick, pair in zip(choice, cells, strict=True)]
            return False, f"the pairs do not join: {PLAYERS[player]} taking {' '.join(names)} has not won"
    return True, ""


class _Derivations:
    """The checker's own test of a virtual connection's derivation (a ``connect`` leaf),
    rule by rule, as in H-search (Anshelevich 2002), each rule sound by a game argument
    (a *full* connection of points P, Q with carrier C: the winner, holding P and Q,
    joins them whoever moves while C's cells are empty; *semi*: when it moves first, by
    its key in C):

    - ``adj`` P, Q: adjacent points (two neighbouring cells, a cell or group touching a
      side's cells, a cell touching a group), full with an empty carrier;
    - ``template`` P, side, carrier: checked here by playing the local game out (the
      loser moves first, holds every cell outside the carrier, the winner must join
      the cell named, P's stone or P itself, to the side), full;
    - ``and`` of two full connections (x, u) and (u, y), carriers disjoint, x outside
      the second carrier and y outside the first: through a group u, full (x, y) over
      both carriers (each intrusion answered in its own carrier); through an empty cell
      u, semi (x, y) with key u (the winner takes u first); never through a side;
    - ``or`` of semi-connections of the same two points whose carriers (keys included)
      have no cell in common: full over their union (an intrusion misses some carrier,
      whose key the winner then takes).

    A point is a side (0 or 1), an empty cell, or a group of the winner's stones named
    by any of its cells (the checker finds the group); carriers are computed here, never
    read from the proof except a template's. The last step must join the winner's two
    sides: full, or semi with the winner to move."""

    def __init__(self, game: Hex, rules: _Rules) -> None:
        self.game = game
        self.rules = rules
        self.templates: dict[tuple[int, int, int, int], bool] = {}
        self.states = 0
        self.steps = 0

    def _point(self, name: Any, own: int, empty: int) -> tuple[str, int] | None:
        if isinstance(name, int) and not isinstance(name, bool) and name in (0, 1):
            return ("side", name)
        cell = self.game.index.get(name) if isinstance(name, str) else None
        if cell is None:
            return None
        bit = 1 << cell
        if own & bit:
            return ("group", self.rules.component(own, bit))
        return ("cell", bit) if empty & bit else None

    def _adjacent(self, p: tuple[str, int], q: tuple[str, int], sides: tuple[int, int]) -> bool:
        if p == q or (p[0] == "side" and q[0] == "side") or (p[0] == "group" and q[0] == "group"):
            return False
        if q[0] == "side":
            p, q = q, p
        if p[0] == "side":
            return bool(q[1] & sides[p[1]])
        return bool(self.rules.grow(p[1]) & q[1])

    def _template_holds(self, start: int, goal: int, carrier: int, own: int) -> bool:
        """The local game: the loser moves first and holds every cell outside
        ``carrier``; does the winner, with the cell ``start`` and its groups touching
        the carrier or ``start`` (whole: a group filled in next to the edge reaches it;
        the other stones left out: fewer stones can only make it harder), join ``start``
        to ``goal``?"""
        rules = self.rules
        stones = start | rules.component(own, rules.grow(carrier | start) & own)
        key = (start, goal, carrier, stones)
        if key in self.templates:
            return self.templates[key]
        seen: dict[tuple[int, int], bool] = {}

        def holds(mine: int, theirs: int) -> bool:  # the loser to move
            if (mine, theirs) in seen:
                return seen[mine, theirs]
            self.states += 1
            if self.states > TEMPLATE_BUDGET:
                raise Unconfirmed(f"edge templates beyond the checker's budget of {TEMPLATE_BUDGET:,} positions")
            free = carrier & ~(mine | theirs)
            if rules.joins(stones | mine, start, goal):
                result = True
            elif not rules.joins(stones | mine | free, start, goal):
                result = False
            else:
                result = True
                rest = free
                while rest and result:
                    c = rest & -rest
                    rest ^= c
                    answers = free & ~c
                    answered = False
                    while answers and not answered:
                        d = answers & -answers
                        answers ^= d
                        answered = holds(mine | d, theirs | c)
                    result = answered
            seen[mine, theirs] = result
            return result

        self.templates[key] = found = holds(0, 0)
        return found

    def check(self, black: int, white: int, player: str, to_move: str, steps: Any) -> tuple[bool, str]:
        """Whether ``steps`` derive a connection of ``player``'s sides in this position."""
        if not isinstance(steps, list) or not steps:
            return False, "a connect leaf needs its derivation's steps"
        self.steps += len(steps)
        if self.steps > STEP_BUDGET:
            raise Unconfirmed(f"derivations beyond the checker's budget of {STEP_BUDGET:,} steps")
        rules, index = self.rules, self.game.index
        own = black if player == "B" else white
        empty = rules.full & ~(black | white)
        sides = rules.sides[player]
        groups: dict[Any, tuple[str, int] | None] = {}
        # each step's connection: its two points, its carrier, its key (None: full)
        facts: list[tuple[frozenset[tuple[str, int]], int, int | None]] = []
        for i, step in enumerate(steps):
            if not isinstance(step, dict) or len(step.keys() - {"carrier"}) != 1:
                return False, f"step {i}: not one rule"
            if "adj" in step or "template" in step:
                ends = step.get("adj", step.get("template"))
                if not isinstance(ends, list) or len(ends) != 2:
                    return False, f"step {i}: a rule of two points, got {ends!r}"
                for name in ends:
                    if repr(name) not in groups:
                        groups[repr(name)] = self._point(name, own, empty)
                p, q = (groups[repr(name)] for name in ends)
                if p is None or q is None:
                    return False, f"step {i}: {ends!r} are not two of {PLAYERS[player]}'s points here"
                anchor = 1 << index[ends[0]] if isinstance(ends[0], str) else 0
                if "adj" in step:
                    if not self._adjacent(p, q, sides):
                        return False, f"step {i}: {ends!r} are not adjacent"
                    facts.append((frozenset((p, q)), 0, None))
                    continue
                if p[0] == "side" or q[0] != "side":
                    return False, f"step {i}: a template joins a cell or group to a side"
                names = step.get("carrier")
                cells = [index.get(c) if isinstance(c, str) else None for c in names or ()] \
                    if isinstance(names, list) else [None]
                if None in cells or len(cells) > MAX_TEMPLATE:
                    return False, f"step {i}: a template's carrier must be at most {MAX_TEMPLATE} cells"
                carrier = sum(1 << c for c in set(cells))
                if carrier & ~empty or carrier & p[1]:
                    return False, f"step {i}: the template's carrier holds a cell that is not empty"
                if not self._template_holds(anchor, sides[q[1]], carrier, own):
                    return False, f"step {i}: the template does not join {ends[0]!r} to its side"
                facts.append((frozenset((p, q)), carrier, None))
                continue
            if "carrier" in step:
                return False, f"step {i}: only a template names its carrier"
            rule = "and" if "and" in step else "or" if "or" in step else None
            parts = step.get(rule) if rule else None
            if not isinstance(parts, list) or not all(isinstance(j, int) and not isinstance(j, bool)
                                                      and 0 <= j < i for j in parts):
                return False, f"step {i}: a rule (adj, template, and, or) over earlier steps"
            if rule == "and":
                if len(parts) != 2:
                    return False, f"step {i}: the AND rule takes two connections"
                (ends1, c1, k1), (ends2, c2, k2) = facts[parts[0]], facts[parts[1]]
                middle = ends1 & ends2
                if k1 is not None or k2 is not None or len(middle) != 1:
                    return False, f"step {i}: the AND rule takes two full connections with one point in common"
                (u,) = middle
                (x,), (y,) = ends1 - middle, ends2 - middle
                if u[0] == "side":
                    return False, f"step {i}: a side is no way from one point to another"
                if c1 & c2 or (x[0] != "side" and x[1] & c2) or (y[0] != "side" and y[1] & c1):
                    return False, f"step {i}: the AND rule's carriers overlap"
                if u[0] == "group":
                    facts.append((frozenset((x, y)), c1 | c2, None))
                else:
                    facts.append((frozenset((x, y)), c1 | c2 | u[1], u[1]))
                continue
            if len(parts) < 2:
                return False, f"step {i}: the OR rule takes two semi-connections or more"
            ends, common, union = facts[parts[0]][0], empty, 0
            for j in parts:
                ends_j, c, k = facts[j]
                if k is None or ends_j != ends:
                    return False, f"step {i}: the OR rule takes semi-connections of the same points"
                common &= c
                union |= c
            if common:
                return False, f"step {i}: the OR rule's carriers have a cell in common"
            facts.append((ends, union, None))
        ends, _, key = facts[-1]
        if ends != {("side", 0), ("side", 1)}:
            return False, f"the derivation does not join {PLAYERS[player]}'s sides"
        if key is not None and to_move != player:
            return False, f"a semi-connection, with {PLAYERS['W' if player == 'B' else 'B']} to move"
        return True, ""


def _units(rules: _Rules, stones: int, side_a: int, side_b: int) -> list[int]:
    """The player's *units* (each side with the stones joined to it, each other group
    of ``stones``), each as the cells touching it (a side: its row of cells too)."""
    grow = rules.grow
    joined_a = rules.component(stones, side_a)
    joined_b = rules.component(stones, side_b)
    units = [side_a | grow(joined_a), side_b | grow(joined_b)]
    rest = stones & ~(joined_a | joined_b)
    while rest:
        group = rules.component(stones, rest & -rest)
        rest &= ~group
        units.append(grow(group))
    return units


def _dead_with(rules: _Rules, units: list[int], empty: int, cell: int) -> bool:
    """Whether the empty cell ``cell`` (a bit) is dead for the player of ``units``
    (:func:`_units`) with the empty cells ``empty``: its usable neighbours (its empty
    neighbours, the units touching it) pairwise linked (two empty cells adjacent, an
    empty cell touching the unit, the same unit)."""
    touching = [u for u in units if u & cell]
    if len(touching) > 1:
        return False
    free = rules.grow(cell) & ~cell & empty
    if free.bit_count() > 2:
        return False
    if free.bit_count() == 2:
        low = free & -free
        if not rules.grow(low) & (free ^ low):
            return False
    return not (touching and free & ~touching[0])


def _dead_for(rules: _Rules, stones: int, side_a: int, side_b: int, empty: int, cell: int) -> bool:
    """Whether the empty cell ``cell`` (a bit) is dead for the player of ``stones`` and
    sides ``side_a``, ``side_b`` (:func:`_dead_with`)."""
    return _dead_with(rules, _units(rules, stones, side_a, side_b), empty, cell)


def _filled(game: Hex, rules: _Rules, black: int, white: int, player: str, steps: Any
            ) -> tuple[bool, str, int, int]:
    """The stones after a ``fill`` node's steps, in order, each ``[colour, cell]`` or
    ``[colour, cell, cell]``: the cells filled for the player of ``colour`` (the
    *captor*). A step for the winner ``player`` must hold by this checker's criterion,
    in the position as filled so far: one cell dead for the loser (:func:`_dead_with`),
    or two adjacent cells each dead for the loser once the other is the winner's. Why
    such a fill keeps the winner's win: the winner plays the proof of the filled
    position; a move of the loser on the one cell needs no answer, on a pair's cell it
    is answered by the other cell; at the end, each cell the loser took is dead for
    the loser in a position the final one extends, so the loser, were it to win, would
    win without it: turning it into the winner's keeps the winner's win, and with every
    cell of the step the winner's the final position extends the filled one. A step
    for the loser needs no criterion: a stone more of the loser's can only make the
    winner's task harder (monotonicity, as for a carrier node)."""
    if not rules.board or not isinstance(steps, list) or not steps:
        return False, "a fill node fills cells on a board, a list of steps", black, white
    (ba, bb), (wa, wb) = rules.sides["B"], rules.sides["W"]
    loser_units: list[int] | None = None
    for step in steps:
        if not isinstance(step, list) or len(step) not in (2, 3) or step[0] not in ("black", "white"):
            return False, f"a fill step is [colour, cell] or [colour, cell, cell], got {step!r}", black, white
        cells = [game.index.get(c) if isinstance(c, str) else None for c in step[1:]]
        empty = rules.full & ~(black | white)
        if any(c is None or not empty >> c & 1 for c in cells) or len(set(cells)) != len(cells):
            return False, f"the fill step {step!r} names a cell that is not empty", black, white
        bits = [1 << c for c in cells]  # type: ignore[operator]
        captor = "B" if step[0] == "black" else "W"
        if captor == player:
            if loser_units is None:  # the loser's stones do not change while the winner fills
                loser_units = _units(rules, white, wa, wb) if player == "B" else _units(rules, black, ba, bb)
            if len(bits) == 1:
                ok = _dead_with(rules, loser_units, empty, bits[0])
            else:
                x, y = bits
                ok = (bool(rules.grow(x) & y) and _dead_with(rules, loser_units, empty & ~y, x)
                      and _dead_with(rules, loser_units, empty & ~x, y))
            if not ok:
                return False, f"{' '.join(step[1:])} not captured by {step[0]}", black, white
        else:
            loser_units = None  # the loser's stones change
        filled = sum(bits)
        if captor == "B":
            black |= filled
        else:
            white |= filled
    return True, "", black, white


def _dead_filled(game: Hex, rules: _Rules, black: int, white: int, names: Any) -> tuple[bool, str, int]:
    """Black's stones with the cells ``names`` filled, each one dead for both players
    when filled (in any order the cells allow: the ones dead now first, again until
    none is left); a dead cell's colour changes no player's win in any later position
    (the argument is in the solver's notes, :mod:`~pyasp_games.domains.hex.dead_cells`),
    so the position keeps its value when it is filled, with a colour fixed here, Black's."""
    if not rules.board or not isinstance(names, list) or not names:
        return False, "dead cells are filled on a board, a list of cells", black
    wanted = 0
    for name in names:
        cell = game.index.get(name) if isinstance(name, str) else None
        if cell is None or (black | white) >> cell & 1:
            return False, f"{name!r} is not an empty cell", black
        wanted |= 1 << cell
    (ba, bb), (wa, wb) = rules.sides["B"], rules.sides["W"]
    while wanted:
        empty = rules.full & ~(black | white)
        progress = False
        rest = wanted
        while rest:
            bit = rest & -rest
            rest ^= bit
            if _dead_for(rules, black, ba, bb, empty, bit) and _dead_for(rules, white, wa, wb, empty, bit):
                black |= bit
                empty &= ~bit
                wanted &= ~bit
                progress = True
        if not progress:
            return False, f"{game.cells[wanted.bit_length() - 1]} is not a dead cell", black
    return True, "", black


def _restricted(game: Hex, black: int, white: int, empty: int, loser: str, carrier: Any
                ) -> tuple[bool, str, int, int]:
    """The stones with every empty cell outside ``carrier`` given to the loser."""
    if not isinstance(carrier, list) or not all(isinstance(c, str) for c in carrier):
        return False, f"a carrier must be a list of cells, got {carrier!r}", black, white
    inside = 0
    for name in carrier:
        cell = game.index.get(name)
        if cell is None:
            return False, f"unknown cell {name!r} in the carrier", black, white
        if not empty >> cell & 1:
            return False, f"the carrier holds {name}, which is not empty", black, white
        inside |= 1 << cell
    if inside == empty:
        # every step of a proof must fill a cell: a carrier of every empty cell would let a
        # node restrict to itself and be taken as checked
        return False, "the carrier leaves out no empty cell: it restricts nothing", black, white
    outside = empty & ~inside
    return (True, "", black | outside, white) if loser == "B" else (True, "", black, white | outside)


def check_proof(game: Hex, winner: str, proof: Any) -> tuple[bool, str]:
    """Replay ``proof`` from ``game``: ``winner`` (``'black'``/``'white'``) wins whatever the
    loser does. ``(True, summary)`` or ``(False, the first fault found)``;
    :class:`Unconfirmed` beyond the checker's budgets."""
    if winner not in ("black", "white"):
        return False, f"winner {winner!r} is neither black nor white"
    if not isinstance(proof, dict) or not isinstance(proof.get("nodes"), list):
        return False, "no proof (a JSON object with 'root' and 'nodes')"
    if proof.get("winner", winner) != winner:
        return False, f"the proof is for {proof.get('winner')}, the answer says {winner}"
    nodes = proof["nodes"]
    rules = _Rules(game)
    n, full, cells, index = rules.n, rules.full, game.cells, game.index
    player = "B" if winner == "black" else "W"
    loser = "W" if player == "B" else "B"
    # a (node, position) pair checked already, as one int: the node, who moves, the stones
    done: set[int] = set()
    derivations = _Derivations(game, rules)
    leaves = 0
    tests = [0]
    stack = [(proof.get("root"), _bits(game.stones, "B"), _bits(game.stones, "W"), game.to_move)]
    while stack:
        at, black, white, to_move = stack.pop()
        if not isinstance(at, int) or isinstance(at, bool) or not 0 <= at < len(nodes):
            return False, f"node {at!r} does not exist"
        key = (((at << 1 | (to_move == "W")) << n | black) << n) | white
        if key in done:
            continue
        done.add(key)
        if len(done) > BUDGET:
            raise Unconfirmed(f"a proof beyond the checker's budget of {BUDGET:,} node visits")
        node = nodes[at]
        if not isinstance(node, dict):
            return False, f"node {at} is not an object"
        if rules.won(black, white, loser):
            return False, f"node {at}: {PLAYERS[loser]} has won there"
        if rules.won(black, white, player):
            leaves += 1
            continue  # the game is over, won: whatever the node says
        if "won" in node:
            return False, f"node {at} says won, but {winner} has not won there"
        empty = full & ~(black | white)
        if "pairs" in node:
            if not isinstance(node["pairs"], list):
                return False, f"node {at}: pairs must be a list"
            ok, why = _pairs_win(game, rules, black, white, player, node["pairs"], tests)
            if not ok:
                return False, f"node {at}: {why}"
            leaves += 1
            continue
        if "connect" in node:
            ok, why = derivations.check(black, white, player, to_move, node["connect"])
            if not ok:
                return False, f"node {at}: {why}"
            leaves += 1
            continue
        if "dead" in node:
            ok, why, b2 = _dead_filled(game, rules, black, white, node["dead"])
            if not ok:
                return False, f"node {at}: {why}"
            stack.append((node.get("next"), b2, white, to_move))
            continue
        if "fill" in node:
            ok, why, b2, w2 = _filled(game, rules, black, white, player, node["fill"])
            if not ok:
                return False, f"node {at}: {why}"
            stack.append((node.get("next"), b2, w2, to_move))
            continue
        if "carrier" in node:
            ok, why, b2, w2 = _restricted(game, black, white, empty, loser, node["carrier"])
            if not ok:
                return False, f"node {at}: {why}"
            stack.append((node.get("next"), b2, w2, to_move))
            continue
        if to_move == player:
            move, nxt = node.get("move"), node.get("next")
            cell = index.get(move) if isinstance(move, str) else None
            if cell is None or not empty >> cell & 1:
                return False, f"node {at}: {move!r} is not a legal move of {winner}"
            bit = 1 << cell
            stack.append((nxt, black | bit, white, loser) if player == "B" else (nxt, black, white | bit, loser))
            continue
        replies = node.get("replies")
        if not isinstance(replies, dict):
            return False, f"node {at}: {PLAYERS[loser]} moves there, the node has no replies"
        inferior = node.get("inferior", {})
        if not isinstance(inferior, dict) or (inferior and not rules.board):
            return False, f"node {at}: inferior must map a reply to the better one (on a board)"
        for worse, better in inferior.items():
            # the loser's move ``worse`` is answered as ``better`` is: with ``better`` the
            # loser's, ``worse`` is dead for the winner, so the loser could fill it at no
            # cost (the fill rule's argument, the roles swapped) and
            # P + better >= P + better + worse >= P + worse for the loser: a win of the
            # winner after ``better`` (its reply, checked) is one after ``worse``
            w_cell = index.get(worse) if isinstance(worse, str) else None
            b_cell = index.get(better) if isinstance(better, str) else None
            if w_cell is None or b_cell is None or w_cell == b_cell or not empty >> w_cell & 1 \
                    or not empty >> b_cell & 1 or worse in replies or better not in replies:
                return False, f"node {at}: {worse!r} as {better!r} is not an inferior reply to a reply"
            own = black if player == "B" else white
            a_side, b_side = rules.sides[player]
            if not _dead_for(rules, own, a_side, b_side, empty & ~(1 << b_cell), 1 << w_cell):
                return False, f"node {at}: {worse} is not inferior to {better} (not dead for {winner} after it)"
        rest = empty
        while rest:
            low = rest & -rest
            name = cells[low.bit_length() - 1]
            if name not in replies and name not in inferior:
                return False, f"the reply {name} of {PLAYERS[loser]} is not covered"
            rest ^= low
        for cell_name, nxt in replies.items():
            cell = index.get(cell_name) if isinstance(cell_name, str) else None
            if cell is None or not empty >> cell & 1:
                return False, f"node {at}: the reply {cell_name!r} is not a legal move"
            bit = 1 << cell
            stack.append((nxt, black | bit, white, player) if loser == "B" else (nxt, black, white | bit, player))
    return True, f"a proof for {winner} of {len(done):,} node{'s' if len(done) != 1 else ''} " \
        f"({leaves:,} lea{'ves' if leaves != 1 else 'f'})"


def check_outcome(game: Hex, outcome: Outcome) -> tuple[bool | None, str]:
    """Verify a solved outcome: its proof (the outcome's certificate) shows the answer's
    winner wins, and the winning move of the player to move is the proof's first move."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    proof = outcome.certificate
    ok, message = check_proof(game, outcome.answer, proof)
    if not ok:
        return False, message
    to_move = PLAYERS[game.to_move]
    if outcome.answer == to_move and outcome.witness is not None:
        root = proof["nodes"][proof["root"]]
        for _ in range(len(game)):  # the first move lies below the carriers and fills (each fills a cell)
            if "carrier" not in root and "dead" not in root and "fill" not in root:
                break
            root = proof["nodes"][root["next"]]
        if root.get("move") != outcome.witness and not has_won(game, list(game.stones), game.to_move):
            return False, f"the winning move {outcome.witness} is not the proof's first move"
    elif outcome.witness is not None:
        return False, f"{to_move} loses, so it has no winning move (the witness must be null)"
    return True, message


def half_turn(game: Hex) -> list[int] | None:
    """The half-turn of the rhombus (row ``r``, column ``c`` to ``rows - 1 - r``,
    ``cols - 1 - c``) as a map of cell numbers, if it is a symmetry of ``game``'s rules:
    it maps every cell's neighbours onto the image's neighbours and each player's two
    sides onto that player's two sides (checked here, not assumed); else ``None``."""
    n = len(game)
    if not game.is_board or game.rows * game.cols != n:
        return None
    turn = [n - 1 - c for c in range(n)]  # the cells are numbered row by row
    for c in range(n):
        if sorted(turn[x] for x in game.neighbours[c]) != sorted(game.neighbours[turn[c]]):
            return None
    for a, b in game.sides.values():
        if {frozenset(turn[x] for x in a), frozenset(turn[x] for x in b)} != {a, b}:
            return None
    return turn


def check_openings(game: Hex, outcome: Outcome) -> tuple[bool | None, str]:
    """Verify an openings map: for every cell (the outcome's certificate maps each to its
    proof), the proof of the winner after Black's first move there, or ``{"image_of": cell}``: the cell is the half-turn image of
    ``cell``, whose own proof is checked, and the half-turn is a symmetry of the board
    (:func:`half_turn`) that maps the empty board onto itself, so the two openings are
    the same game turned and have the same winner."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    answer, proofs = outcome.answer, outcome.certificate
    if not isinstance(answer, dict) or not isinstance(proofs, dict):
        return False, "an openings answer maps every cell to a winner, with a proof each"
    if set(answer) != set(game.cells) or set(proofs) != set(game.cells):
        return False, "the map does not hold every cell of the board exactly once"
    if any(s != "." for s in game.stones):
        return False, "openings are first moves on the empty board"
    total, images, turn = 0, 0, None
    for cell in game.cells:
        proof = proofs[cell]
        if isinstance(proof, dict) and "image_of" in proof:
            turn = turn or half_turn(game)
            source = proof["image_of"]
            if turn is None:
                return False, f"opening {cell}: an image proof, but the half-turn is no symmetry of this board"
            if not isinstance(source, str) or source not in game.index or turn[game.index[source]] != game.index[cell]:
                return False, f"opening {cell}: {source!r} is not the cell it is the half-turn image of"
            image = proofs[source]
            if not isinstance(image, dict) or "image_of" in image:
                return False, f"opening {cell}: the image of {source}, which has no proof of its own"
            if answer[cell] != answer[source]:
                return False, f"opening {cell}: {answer[cell]} wins, but {answer[source]} wins its image {source}"
            images += 1
            continue  # the source's proof is checked in its turn
        opened = list(game.stones)
        opened[game.index[cell]] = "B"
        after = Hex(game.cells, game.neighbours, game.sides, tuple(opened), game.rows, game.cols,
                    game.terminals, game.joined, game.name)  # fmt: skip
        ok, message = check_proof(after, answer[cell], proof)
        if not ok:
            return False, f"opening {cell}: {message}"
        total += len(proof["nodes"])
    turned = f", {images} of them the half-turn image of another" if images else ""
    return True, f"{len(game.cells)} openings, each with its proof{turned} ({total:,} proof nodes in all)"
