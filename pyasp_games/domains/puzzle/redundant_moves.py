"""Move strings a depth-first search need not try: duplicate-path pruning by an automaton.

IDA* is a depth-first search of the tree of move strings, and many strings reach the same
board: ``RDLU`` and ``DRUL`` from the same board differ, but ``RDLURDLURDLU`` (the blank
three times round a 2 x 2 block) equals ``LDRU`` round the same block the other way, and
``UD`` equals doing nothing. Taylor and Korf ("Pruning duplicate nodes in depth-first
search", AAAI 1993) find such pairs by a breadth-first search over move strings and forbid
one of each pair, compiled into a finite automaton that the search carries along its path.

**The search for redundant strings.** Strings are enumerated by length, each length in
the lexicographic order of the directions ``U D L R`` (the order in which the search tries
moves), on an unbounded board with the blank starting at the origin; a string's *effect*
is where the blank ends and where every tile it moved ends (translation-invariant, so one
origin serves every cell). A string is **forbidden** when an earlier string (shorter, or as
long and lexicographically smaller) has the same effect *and* its blank path stays inside
the bounding box of the forbidden string's blank path; the other strings are kept, and
only kept strings are extended (a string with a forbidden substring is never looked at
again: its forbidden part is pruned before it).

**Why the search still reaches every board at its distance** (soundness). Order the move
strings from a board by length, then lexicographically: a well-order. Let ``P`` be the
least string that takes a board ``s`` to a board ``t`` (legal on the board: the blank never
leaves it). Suppose ``P = x f y`` with ``f`` forbidden, and let ``g`` be the earlier string
with ``f``'s effect. The blank path of ``f`` (within ``P``) lies on the board, hence so
does its bounding box (a board is a rectangle), hence so does ``g``'s blank path, which
starts where ``f``'s does: ``g`` is legal at that point, and two legal strings with the same
effect on the unbounded board have the same effect on the board. So ``x g y`` takes ``s``
to ``t`` and is shorter than ``P``, or as long and lexicographically smaller (it first
differs from ``P`` inside ``g``, where ``g < f``): a contradiction. The least string to any
board contains no forbidden substring, so a search that prunes every path with a
forbidden substring still reaches every board within ``d`` moves by a path of its
distance, and IDA* (whose bound never cuts a prefix of a shortest plan once the bound
reaches the optimum, the heuristic being admissible) still returns an optimal plan. The
bounding-box condition is what makes this hold near the walls: the same pair of strings
without it may be legal only one way round (``g`` could leave the board where ``f`` does
not). Up to length 12 the condition happens never to exclude an equivalence (the strings
are the same with and without it: every earliest equivalent stays in the box), so it costs
nothing there and guards longer strings. The tests check the claim on 3 x 3, 4 x 4 and
5 x 5 from blanks in a corner, on an edge and in the middle, and exhaustively over all
8-puzzle boards as a slow test (``tests/test_puzzle_redundant_moves.py``).

**The automaton.** The forbidden strings are the patterns of an Aho-Corasick automaton:
its states are the proper prefixes of forbidden strings, and ``table[state, direction]``
is the state after the move (the longest suffix of the path that is such a prefix), or
``-1`` when the path now ends with a forbidden string. No forbidden string contains
another (only kept strings are extended), so ``-1`` is reached exactly when a forbidden
string ends. Directions are the indices of :data:`~pyasp_games.domains.puzzle.model.DIRECTIONS`
(``U D L R``). Built in plain Python (length 10: 340 strings, 1,291 states, about 1 s of
CPU; 12: 2,540 strings, 9,223 states, about 10 s; 14 would take minutes and gigabytes
this way), then cached beside the pattern databases and held once per process
(:func:`redundant_move_automaton`); the measurements are in ``benchmarks/RESULTS.md``.

>>> automaton = redundant_move_automaton(4)
>>> [walk(automaton, plan) is not None for plan in ("UD", "ULDR", "LRU", "RDLU")]
[False, True, False, True]
"""

from __future__ import annotations

import os
import random

import numpy as np

from pyasp_games.domains.puzzle.model import DIRECTIONS
from pyasp_games.engines.limits import Deadline, LimitReached

#: The longest forbidden strings the ``pdb`` search uses by default (chosen by measurement:
#: ``benchmarks/RESULTS.md``, "Duplicate-path pruning").
DEFAULT_LENGTH = 10

_STEPS = tuple(DIRECTIONS.values())

#: Bump when the construction changes: cached automata of other versions are not read.
FORMAT_VERSION = 1


def forbidden_strings(length: int, deadline: Deadline | None = None) -> list[tuple[int, ...]]:
    """The forbidden move strings of at most ``length`` moves (module docstring), as
    tuples of direction indices, in the order found (by length, then lexicographically).
    :class:`~pyasp_games.engines.limits.LimitReached` once ``deadline`` passes (read
    every 4,096 strings: the build of length 12 takes about 10 s).

    Effects are compared by a 128-bit Zobrist hash (updated in constant time per move);
    each forbidden string is then checked exactly against the kept string whose effect
    it repeats, so a hash collision would be an error, never a wrong pruning."""
    if not 0 <= length <= 30:
        raise ValueError(f"the length of the forbidden strings must be 0 to 30, not {length}")
    width = 64  # cells r * width + c of a board large enough for any walk from the origin
    origin = 32 * width + 32
    steps = [dr * width + dc for dr, dc in _STEPS]
    keys = random.Random(20261126)
    zobrist: dict[tuple[int, int], int] = {}

    def key(cell: int, start: int) -> int:
        if (cell, start) not in zobrist:
            zobrist[cell, start] = keys.getrandbits(128)
        return zobrist[cell, start]

    # per effect (its hash), the kept strings that have it, with their bounding boxes
    seen: dict[int, list[tuple[tuple[int, int, int, int], bytes]]] = {
        key(origin, -1): [((0, 0, 0, 0), b"")]
    }
    # a kept string: its moves, the blank, the moved tiles (cell -> the cell it started
    # on), the effect's hash, the box of its blank path (rows then columns, from the origin)
    level = [(b"", origin, {}, key(origin, -1), (0, 0, 0, 0))]
    found: list[tuple[bytes, bytes]] = []
    known: set[bytes] = set()
    for _ in range(length):
        following = []
        for count, (moves, blank, moved, code, box) in enumerate(level):
            if deadline is not None and count % 1024 == 0 and deadline.expired():
                raise LimitReached({"stopped": "while building the automaton of redundant move strings"})
            for d in range(4):
                string = moves + bytes((d,))
                # a forbidden suffix: pruned before this string (its prefixes are kept)
                if any(string[i:] in known for i in range(1, len(string) - 1)):
                    continue
                target = blank + steps[d]
                tiles = dict(moved)
                start = tiles.pop(target, target)  # the tile on the target slides onto the blank
                code ^= key(blank, -1) ^ key(target, -1)
                if start != target:
                    code ^= key(target, start)
                if start != blank:
                    tiles[blank] = start
                    code ^= key(blank, start)
                r, c = target // width - 32, target % width - 32
                reach = (min(box[0], r), max(box[1], r), min(box[2], c), max(box[3], c))
                kept = seen.setdefault(code, [])
                equal = next((g for b, g in kept if b[0] >= reach[0] and b[1] <= reach[1]
                              and b[2] >= reach[2] and b[3] <= reach[3]), None)  # fmt: skip
                code ^= key(blank, -1) ^ key(target, -1)  # back to the parent's, for the next move
                if start != target:
                    code ^= key(target, start)
                if start != blank:
                    code ^= key(blank, start)
                if equal is not None:
                    found.append((string, equal))
                    known.add(string)
                    continue
                child = code ^ key(blank, -1) ^ key(target, -1)
                if start != target:
                    child ^= key(target, start)
                if start != blank:
                    child ^= key(blank, start)
                kept.append((reach, string))
                following.append((string, target, tiles, child, reach))
        level = following
    for string, equal in found:
        if _effect(string) != _effect(equal):
            raise AssertionError(f"hash collision: {list(string)} and {list(equal)} differ")
    return [tuple(string) for string, _ in found]


def _effect(moves: bytes) -> tuple[tuple[int, int], frozenset]:
    """The blank's cell and the moved tiles (cell -> start) after ``moves`` from the origin."""
    blank, tiles = (0, 0), {}
    for d in moves:
        target = (blank[0] + _STEPS[d][0], blank[1] + _STEPS[d][1])
        start = tiles.pop(target, target)
        if start != blank:
            tiles[blank] = start
        blank = target
    return blank, frozenset(tiles.items())


#: the automata read or built in this process, by length
_AUTOMATA: dict[int, np.ndarray] = {}


def redundant_move_automaton(length: int = DEFAULT_LENGTH, deadline: Deadline | None = None) -> np.ndarray:
    """The automaton of the forbidden strings of at most ``length`` moves: an array of
    ``states x 4`` (state 0 the start), each entry the next state or ``-1`` (pruned).
    Read from the cache folder of the pattern databases when it was built before, else
    built (:func:`build_automaton`, until ``deadline``) and saved there."""
    from pyasp_games.domains.puzzle.databases import cache_dir

    if not 0 <= length <= 30:
        raise ValueError(f"the length of the forbidden strings must be 0 to 30, not {length}")
    if length in _AUTOMATA:
        return _AUTOMATA[length]
    path = cache_dir() / f"redundant-moves-{length}-v{FORMAT_VERSION}.npy"
    if path.is_file():
        try:
            table = np.load(path, allow_pickle=False)
            if table.ndim == 2 and table.shape[1] == 4 and table.dtype == np.int32:
                _AUTOMATA[length] = table
                return table
        except (OSError, ValueError):
            pass  # unreadable: built again below
    table = _AUTOMATA[length] = build_automaton(length, deadline)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(f"{path.name}.{os.getpid()}.part")
        with open(part, "wb") as out:
            np.save(out, table, allow_pickle=False)
        os.replace(part, path)  # whole or not at all, for processes reading it at once
    except OSError:
        pass  # a read-only cache: built again in the next process
    return table


def build_automaton(length: int, deadline: Deadline | None = None) -> np.ndarray:
    """Build the automaton of :func:`redundant_move_automaton` (module docstring)."""
    return automaton_of(forbidden_strings(length, deadline))


def automaton_of(strings: list[tuple[int, ...]]) -> np.ndarray:
    """The Aho-Corasick automaton of ``strings`` (direction indices): ``states x 4``,
    ``-1`` where a path ends with one of them."""
    # the trie of the strings (node 0 the empty string; a child 0 is no child)
    children: list[list[int]] = [[0, 0, 0, 0]]
    ends = [False]
    for string in strings:
        node = 0
        for d in string:
            if not children[node][d]:
                children.append([0, 0, 0, 0])
                ends.append(False)
                children[node][d] = len(children) - 1
            node = children[node][d]
        ends[node] = True
    # breadth first: a move that is no trie edge follows the failure link (the longest
    # proper suffix in the trie); a node is pruned when a suffix of it is a string
    goto = [[0, 0, 0, 0] for _ in children]
    fail = [0] * len(children)
    pruned = list(ends)
    queue = [0]
    for node in queue:
        for d in range(4):
            child = children[node][d]
            if child:
                fail[child] = goto[fail[node]][d] if node else 0
                pruned[child] = pruned[child] or pruned[fail[child]]
                goto[node][d] = child
                queue.append(child)
            else:
                goto[node][d] = goto[fail[node]][d] if node else 0
    # the states are the nodes not pruned, numbered in breadth-first order
    number = {}
    for node in queue:
        if not pruned[node]:
            number[node] = len(number)
    table = np.full((len(number), 4), -1, np.int32)
    for node, state in number.items():
        for d in range(4):
            table[state, d] = number.get(goto[node][d], -1)
    return table


def walk(automaton: np.ndarray, plan: str) -> int | None:
    """The automaton's state after the moves ``plan`` (``U D L R``), or ``None`` when a
    forbidden string ends inside it."""
    state = 0
    letters = list(DIRECTIONS)
    for letter in plan:
        state = int(automaton[state, letters.index(letter)])
        if state < 0:
            return None
    return state
