"""Instances of the cover domain: 3DM and X3C, read and written with validation, and
their random generators (CNF formulas, the reductions' source: :mod:`pyasp_games.domains.cover.cnf`).

Two instance types, each immutable and validated on construction (a bad
instance raises :class:`pyasp_games.errors.InputError` with one sentence):

- :class:`ThreeDM`: three disjoint sets ``W``, ``X``, ``Y`` of equal size and
  triples ``(w, x, y)`` given as indices into them.
- :class:`X3C`: a universe ``0 .. 3q-1`` and 3-element subsets of it.

File formats (the reader sniffs the content, whatever the file's extension):

- 3DM text: lines ``W: a b``, ``X: c d``, ``Y: e f``, then one triple ``a c e``
  per line; 3DM JSON: ``{"type": "3dm", "W": [...], "X": [...], "Y": [...],
  "triples": [[w, x, y], ...]}`` with element names.
- X3C text: the universe size ``3q`` (optionally ``x3c 3q``), then one subset of
  three elements of ``0 .. 3q-1`` per line; X3C JSON: ``{"type": "x3c",
  "universe": 3q, "subsets": [[a, b, c], ...]}`` (optional ``"names"``).

A ``# known: cover|none`` comment, or a
``"known"`` JSON field, states the instance's answer for crosscheck.

>>> inst = parse_instance("6\\n0 1 2\\n3 4 5\\n1 2 3\\n")
>>> inst.q, inst.subsets
(2, ((0, 1, 2), (3, 4, 5), (1, 2, 3)))
>>> parse_instance("6\\n0 1 1\\n")
Traceback (most recent call last):
...
pyasp_games.errors.InputError: line 2: subset 0 repeats element 1
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyasp_games.engines.files import comment_header, parse_json
from pyasp_games.errors import InputError, ascii_int, checked_int, read_text

# -- the instance types -------------------------------------------------------------------

#: the largest universe an X3C instance may declare: every backend holds something per
#: element, and beyond it a 2-line file would fill the memory; no user can mean it
MAX_UNIVERSE = 3_000_000


@dataclass(frozen=True)
class ThreeDM:
    """3-dimensional matching: disjoint ``W``, ``X``, ``Y`` (names), triples of indices."""

    W: tuple[str, ...]
    X: tuple[str, ...]
    Y: tuple[str, ...]
    triples: tuple[tuple[int, int, int], ...]
    name: str = "3dm"
    known: bool | None = None

    def __post_init__(self) -> None:
        if not len(self.W) == len(self.X) == len(self.Y):
            raise InputError(
                f"|W| = {len(self.W)}, |X| = {len(self.X)}, |Y| = {len(self.Y)}: "
                "3DM needs three sets of equal size"
            )
        seen: dict[str, str] = {}
        for label, names in (("W", self.W), ("X", self.X), ("Y", self.Y)):
            for n in names:
                if n in seen:
                    where = "twice in" if seen[n] == label else f"in both {seen[n]} and"
                    raise InputError(f"element {n!r} is {where} {label}: the sets must be disjoint")
                seen[n] = label
        k = len(self.W)
        for t, triple in enumerate(self.triples):
            if len(triple) != 3 or not all(0 <= i < k for i in triple):
                raise InputError(f"triple {t} {triple!r} is not in W x X x Y")

    @property
    def q(self) -> int:
        """The size of each set (a matching has exactly ``q`` triples)."""
        return len(self.W)


@dataclass(frozen=True)
class X3C:
    """Exact cover by 3-sets: universe ``0 .. size-1`` (``size = 3q``) and 3-subsets."""

    size: int
    subsets: tuple[tuple[int, int, int], ...]
    names: tuple[str, ...] | None = None
    name: str = "x3c"
    known: bool | None = None

    def __post_init__(self) -> None:
        if self.size < 0 or self.size % 3:
            raise InputError(f"the universe has {self.size} elements, not a multiple of 3")
        if self.size > MAX_UNIVERSE:
            raise InputError(
                f"the universe has {self.size} elements, beyond this tool's limit of "
                f"{MAX_UNIVERSE:,}"
            )
        if self.names is not None and len(self.names) != self.size:
            raise InputError(f"{len(self.names)} element names for a universe of {self.size}")
        for k, s in enumerate(self.subsets):
            _check_subset(k, s, self.size)

    @property
    def q(self) -> int:
        """A cover has exactly ``q = size / 3`` subsets."""
        return self.size // 3


def _check_subset(k: int, subset: Sequence[int], size: int) -> None:
    if len(subset) != 3:
        raise InputError(f"subset {k} has {len(subset)} elements, not 3")
    for e in subset:
        if not 0 <= e < size:
            raise InputError(f"subset {k} has element {e}, outside the universe 0..{size - 1}")
    if len(set(subset)) != 3:
        dup = next(e for e in subset if list(subset).count(e) > 1)
        raise InputError(f"subset {k} repeats element {dup}")


# -- 3DM and X3C text and JSON ---------------------------------------------------------------
def known_word(word: str, where: int | str, words: dict[str, bool]) -> bool:
    """The answer a ``known:`` comment states ``where`` (a line number, or ``NAME, line N``;
    ``words``: word -> answer)."""
    if word not in words:
        place = f"line {where}" if isinstance(where, int) else where
        raise InputError(f"{place}: known answer {word!r} is not one of {', '.join(words)}")
    return words[word]


_COVER_WORDS = {"cover": True, "none": False, "yes": True, "no": False}


def _content_lines(text: str) -> tuple[list[tuple[int, str]], bool | None]:
    lines, known = [], None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("#"):
            header = comment_header(line)
            if header is not None and header[0] == "known":
                known = known_word(header[1], lineno, _COVER_WORDS)
            continue
        if line:
            lines.append((lineno, line))
    return lines, known


def _parse_x3c_text(text: str, name: str) -> X3C:
    lines, known = _content_lines(text)
    if not lines:
        raise InputError("empty X3C file: expected the universe size on the first line")
    lineno, first = lines[0]
    words = first.split()
    if words[0] == "x3c":
        words = words[1:]
    if len(words) != 1 or not (words[0].isascii() and words[0].isdigit()):
        raise InputError(f"line {lineno}: expected the universe size 3q, got {first!r}")
    size = int(words[0])
    if size % 3:
        raise InputError(f"line {lineno}: the universe has {size} elements, not a multiple of 3")
    subsets = []
    for lineno, line in lines[1:]:
        try:
            subset = tuple(ascii_int(w) for w in line.split())
        except ValueError:
            raise InputError(f"line {lineno}: {line!r} is not a list of elements") from None
        try:
            _check_subset(len(subsets), subset, size)
        except InputError as err:
            raise InputError(f"line {lineno}: {err}") from None
        subsets.append(subset)
    return X3C(size, tuple(subsets), None, name, known)


def _parse_3dm_text(text: str, name: str) -> ThreeDM:
    lines, known = _content_lines(text)
    sets: dict[str, tuple[str, ...]] = {}
    triples = []
    index: dict[str, tuple[str, int]] = {}
    for lineno, line in lines:
        head = line.split(":", 1)
        if len(head) == 2 and head[0].strip() in ("W", "X", "Y"):
            label = head[0].strip()
            if label in sets:
                raise InputError(f"line {lineno}: set {label} given twice")
            if triples:
                raise InputError(f"line {lineno}: set {label} after the first triple")
            sets[label] = tuple(head[1].split())
            continue
        if len(sets) != 3:
            missing = ", ".join(s for s in "WXY" if s not in sets)
            raise InputError(f"line {lineno}: a triple before the sets {missing} are given")
        if not index:
            for label in "WXY":
                for i, n in enumerate(sets[label]):
                    if n in index:
                        raise InputError(
                            f"element {n!r} is in both {index[n][0]} and {label}: the sets must be disjoint"
                        )
                    index[n] = (label, i)
        words = line.split()
        if len(words) != 3:
            raise InputError(f"line {lineno}: a triple has 3 elements, got {len(words)}")
        if len(set(words)) != 3:
            raise InputError(f"line {lineno}: triple {' '.join(words)} repeats an element")
        triple = []
        for label, word in zip("WXY", words, strict=True):
            if word not in index:
                raise InputError(f"line {lineno}: element {word!r} is in none of W, X, Y")
            if index[word][0] != label:
                raise InputError(
                    f"line {lineno}: element {word!r} is in {index[word][0]}, expected one of {label}"
                )
            triple.append(index[word][1])
        triples.append(tuple(triple))
    if len(sets) != 3:
        raise InputError("a 3DM file needs the three lines 'W: ...', 'X: ...', 'Y: ...'")
    return ThreeDM(sets["W"], sets["X"], sets["Y"], tuple(triples), name, known)


def _json_known(obj: dict) -> bool | None:
    known = obj.get("known")
    if known is not None and not isinstance(known, bool):
        raise InputError(f"'known' must be true or false, got {known!r}")
    return known


def _parse_json(text: str, name: str) -> X3C | ThreeDM:
    obj = parse_json(text)  # the caller names the file
    if not isinstance(obj, dict) or obj.get("type") not in ("x3c", "3dm"):
        raise InputError('a JSON instance is an object with "type": "x3c" or "3dm"')
    try:
        if obj["type"] == "x3c":
            size = obj["universe"]
            if not isinstance(size, int) or isinstance(size, bool):
                raise InputError(f"'universe' must be an integer, got {size!r}")
            subsets = []
            for k, s in enumerate(obj["subsets"]):
                if not isinstance(s, list) or not all(
                    isinstance(e, int) and not isinstance(e, bool) for e in s
                ):
                    raise InputError(f"subset {k} is not a list of integers")
                subsets.append(tuple(s))
            names = obj.get("names")
            return X3C(
                size,
                tuple(subsets),
                None if names is None else tuple(map(str, names)),
                name,
                _json_known(obj),
            )
        W, X, Y = (tuple(map(str, obj[k])) for k in ("W", "X", "Y"))
        probe = ThreeDM(W, X, Y, (), name)  # validates the sets
        index = {n: i for names in (W, X, Y) for i, n in enumerate(names)}
        where = {n: label for label, names in zip("WXY", (W, X, Y), strict=True) for n in names}
        triples = []
        for t, triple in enumerate(obj["triples"]):
            if not isinstance(triple, list) or len(triple) != 3:
                raise InputError(f"triple {t} is not a list of three elements")
            words = [str(w) for w in triple]
            if len(set(words)) != 3:
                raise InputError(f"triple {t} {words} repeats an element")
            for label, w in zip("WXY", words, strict=True):
                if w not in where:
                    raise InputError(f"triple {t}: element {w!r} is in none of W, X, Y")
                if where[w] != label:
                    raise InputError(
                        f"triple {t}: element {w!r} is in {where[w]}, expected {label}"
                    )
            triples.append(tuple(index[w] for w in words))
        return ThreeDM(probe.W, probe.X, probe.Y, tuple(triples), name, _json_known(obj))
    except KeyError as err:
        raise InputError(f"a {obj['type']} JSON instance needs the field {err.args[0]!r}") from None


def sniff(text: str) -> str:
    """The format of ``text``: ``json``, ``dimacs``, ``3dm`` or ``x3c``.

    >>> sniff("p cnf 1 1\\n1 0"), sniff("W: a\\nX: b\\nY: c"), sniff("3\\n0 1 2")
    ('dimacs', '3dm', 'x3c')
    """
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("{"):
            return "json"
        if line.startswith(("c ", "p ")) or line in ("c", "p"):
            return "dimacs"
        if line.split(":", 1)[0].strip() in ("W", "X", "Y") and ":" in line:
            return "3dm"
        return "x3c"
    return "x3c"


def parse_instance(text: str, name: str = "instance") -> X3C | ThreeDM:
    """Read an X3C or 3DM instance (text or JSON)."""
    kind = sniff(text)
    if kind == "json":
        return _parse_json(text, name)
    if kind == "3dm":
        return _parse_3dm_text(text, name)
    if kind == "dimacs":
        raise InputError(
            "this is a DIMACS CNF, not an X3C or 3DM instance (see 'pyasp-games reduce')"
        )
    return _parse_x3c_text(text, name)


def load_instance(path: Path | str) -> X3C | ThreeDM:
    """Read an X3C or 3DM instance file.

    Parameters
    ----------
    path : path-like or str
        A text instance (X3C: the universe's size, then one 3-subset a line; 3DM: its
        three sets and triples) or JSON; the kind is recognised from the text.

    Returns
    -------
    X3C or ThreeDM
        The instance, named after the file.

    Raises
    ------
    InputError
        A missing or unreadable file, a DIMACS CNF (the input of ``pyasp-games
        reduce``), or bad text; the message names the file.
    """
    path = Path(path)
    try:
        return parse_instance(read_text(path), path.stem)
    except InputError as err:
        if str(err).startswith(str(path)):
            raise
        raise InputError(f"{path}: {err}") from None


def load_instances(path: Path) -> list[X3C | ThreeDM]:
    """One instance per file (the crosscheck loader)."""
    return [load_instance(path)]


def format_x3c(inst: X3C, as_json: bool = False) -> str:
    """X3C as text (default) or JSON.

    >>> print(format_x3c(X3C(3, ((0, 1, 2),))), end="")
    3
    0 1 2
    """
    if as_json:
        obj: dict[str, Any] = {"type": "x3c", "universe": inst.size}
        if inst.names is not None:
            obj["names"] = list(inst.names)
        if inst.known is not None:
            obj["known"] = inst.known
        obj["subsets"] = [list(s) for s in inst.subsets]
        return json.dumps(obj) + "\n"
    lines = []
    if inst.known is not None:
        lines.append(f"# known: {'cover' if inst.known else 'none'}")
    if inst.names is not None:
        lines.append("# elements: " + " ".join(f"{i}={n}" for i, n in enumerate(inst.names)))
    lines.append(str(inst.size))
    lines += [" ".join(map(str, s)) for s in inst.subsets]
    return "\n".join(lines) + "\n"


def format_3dm(inst: ThreeDM, as_json: bool = False) -> str:
    """3DM as text (default) or JSON.

    >>> print(format_3dm(ThreeDM(("a",), ("b",), ("c",), ((0, 0, 0),))), end="")
    W: a
    X: b
    Y: c
    a b c
    """
    if as_json:
        obj: dict[str, Any] = {"type": "3dm", "W": list(inst.W), "X": list(inst.X)}
        obj["Y"] = list(inst.Y)
        if inst.known is not None:
            obj["known"] = inst.known
        obj["triples"] = [[inst.W[w], inst.X[x], inst.Y[y]] for w, x, y in inst.triples]
        return json.dumps(obj) + "\n"
    lines = []
    if inst.known is not None:
        lines.append(f"# known: {'cover' if inst.known else 'none'}")
    lines += [
        f"{label}: {' '.join(names)}"
        for label, names in zip("WXY", (inst.W, inst.X, inst.Y), strict=True)
    ]
    lines += [f"{inst.W[w]} {inst.X[x]} {inst.Y[y]}" for w, x, y in inst.triples]
    return "\n".join(lines) + "\n"


def as_x3c(inst: X3C | ThreeDM, name: str | None = None) -> X3C:
    """An X3C instance as is; a 3DM instance as X3C over ``W + X + Y`` (triple i -> subset i).

    This is the 3DM -> X3C reduction of Garey & Johnson (see
    :func:`pyasp_games.domains.cover.reductions.threedm_to_x3c`, which also writes its map).
    """
    if isinstance(inst, X3C):
        return inst
    q = inst.q
    # shared int objects for the shifted indices: millions of subsets make no new ints
    xs, ys = list(range(q, 2 * q)), list(range(2 * q, 3 * q))
    subsets = tuple((w, xs[x], ys[y]) for w, x, y in inst.triples)
    return X3C(3 * q, subsets, inst.W + inst.X + inst.Y, name or inst.name, inst.known)


# -- random instances ---------------------------------------------------------------------
def random_x3c(q: int, d: int, planted: bool = False, seed: int = 0) -> X3C:
    """A random ``d``-regular X3C instance: every one of the ``3q`` elements in exactly ``d`` subsets.

    The subsets are distinct. With ``planted`` a random partition of the universe
    into ``q`` triples is among them (so a cover exists) and the other subsets
    are ``d - 1``-regular; the subsets are then shuffled. Regular instances are
    the hard family: uniformly random triples almost always leave an element in
    no subset, which proves "no cover" at once.

    >>> inst = random_x3c(5, 3, planted=True, seed=1)
    >>> inst.size, len(inst.subsets), inst.known
    (15, 15, True)
    >>> sorted({sum(e in s for s in inst.subsets) for e in range(15)})
    [3]
    """
    import random

    # sizes no user can mean, refused before any work: the universe of 3q elements
    # (its limit, as for a file), and at most as many subsets
    checked_int(q, "random_x3c: q", 1, MAX_UNIVERSE // 3)
    # an element lies in at most C(3q - 1, 2) distinct triples
    checked_int(d, "random_x3c: d", 1, min((3 * q - 1) * (3 * q - 2) // 2, MAX_UNIVERSE // q))
    rng = random.Random(seed)
    size = 3 * q
    subsets: list[tuple[int, int, int]] = []
    if planted:
        perm = list(range(size))
        rng.shuffle(perm)
        subsets += [tuple(sorted(perm[3 * i : 3 * i + 3])) for i in range(q)]  # type: ignore[misc]
    rounds = d - 1 if planted else d
    for _attempt in range(1000):
        chosen = set(subsets)
        extra = _regular_triples(size, rounds, rng, chosen)
        if extra is not None:
            subsets += extra
            break
    else:  # tiny, over-constrained parameters (e.g. q = 1, d = 2)
        raise InputError(f"could not draw a {d}-regular X3C instance with q = {q}")
    rng.shuffle(subsets)
    kind = "planted" if planted else "regular"
    return X3C(
        size, tuple(subsets), None, f"x3c-{kind}-q{q}-d{d}-s{seed}", True if planted else None
    )


def _regular_triples(
    size: int, rounds: int, rng: Any, taken: set
) -> list[tuple[int, int, int]] | None:
    """``rounds * size / 3`` distinct triples, new to ``taken``, every element in ``rounds``."""
    stubs = [e for e in range(size) for _ in range(rounds)]
    rng.shuffle(stubs)
    n = len(stubs) // 3

    def bad(i: int, seen: dict) -> bool:
        t = stubs[3 * i : 3 * i + 3]
        key = tuple(sorted(t))
        return len(set(t)) < 3 or key in taken or seen.get(key, i) != i

    for _sweep in range(200):
        seen: dict = {}
        wrong = []
        for i in range(n):
            if bad(i, seen):
                wrong.append(i)
            else:
                seen[tuple(sorted(stubs[3 * i : 3 * i + 3]))] = i
        if not wrong:
            return [tuple(sorted(stubs[3 * i : 3 * i + 3])) for i in range(n)]  # type: ignore[misc]
        for i in wrong:  # swap a stub of each bad triple with a random stub
            a = 3 * i + rng.randrange(3)
            b = rng.randrange(len(stubs))
            stubs[a], stubs[b] = stubs[b], stubs[a]
    return None


# -- fuzzing: every small instance, then random ones (``pyasp-games fuzz cover``) ---------


def small_x3c() -> Iterator[X3C]:
    """Every X3C instance with ``q = 1`` and at most 2 subsets, then with ``q = 2`` and at
    most 3 subsets, up to renaming the elements (a subset may repeat), fewest subsets
    first; then, for ``q = 3`` and ``4``, the structured ones (:func:`structured_x3c`):
    the fuzzer's small scope. ``q = 4`` is where a cover bounded by a constant 3 first
    fails.

    >>> instances = list(small_x3c())
    >>> len(instances), instances[2].subsets
    (34, ((0, 1, 2), (0, 1, 2)))
    """
    yield from _every_small_x3c()
    for q in (3, 4):
        yield from structured_x3c(q)


def structured_x3c(q: int) -> Iterator[X3C]:
    """The X3C instances over ``3q`` elements whose structure small bugs need: ``q``
    disjoint triples (the one cover), the same with one triple missing (no cover), with
    one extra subset meeting 1, 2 or 3 triples (one cover, or two), and a planted cover
    among decoys (another cover, shifted by one, and two subsets that belong to none).

    >>> [len(x.subsets) for x in structured_x3c(4)]
    [4, 3, 5, 5, 5, 5, 10]
    """
    n = 3 * q
    disjoint = [(3 * i, 3 * i + 1, 3 * i + 2) for i in range(q)]
    yield X3C(n, tuple(disjoint), name=f"small-disjoint-{q}")
    yield X3C(n, tuple(disjoint[:-1]), name=f"small-missing-{q}")
    extras = [(0, 1, 2), (0, 1, 3), (0, 3, 6)]  # meeting one, two and three triples
    for k, extra in enumerate([*extras, (1, 4, 7)]):
        yield X3C(n, (*disjoint, extra), name=f"small-extra-{q}-{k}")
    shifted = [tuple(sorted(((3 * i + j + 1) % n) for j in range(3))) for i in range(q)]
    decoys = [(0, 1, 4), (2, 5, n - 1)]
    yield X3C(n, tuple(decoys[:1] + disjoint + shifted + decoys[1:]), name=f"small-planted-{q}")


def x3c_parts(inst: X3C) -> Iterator[X3C]:
    """The instance with one subset deleted, for each subset; then, where an element lies
    in no subset, the universe with three such elements fewer (the rest renumbered):
    what the fuzzer's shrinker tries."""
    subsets = list(inst.subsets)
    for k in range(len(subsets)):
        yield X3C(inst.size, tuple(subsets[:k] + subsets[k + 1 :]), name=inst.name)
    used = {e for s in subsets for e in s}
    unused = [e for e in range(inst.size) if e not in used]
    if len(unused) >= 3:
        gone = set(unused[-3:])
        keep = {e: i for i, e in enumerate(e for e in range(inst.size) if e not in gone)}
        renamed = tuple(tuple(sorted(keep[e] for e in s)) for s in subsets)
        yield X3C(inst.size - 3, renamed, name=inst.name)


def x3c_relabellings(inst: X3C) -> Iterator[X3C]:
    """The instance with its elements renumbered: the canonical smallest numbering (its
    elements in order of first use) first, then the orders a program may depend on:
    the used elements on the even numbers first, on the odd numbers first, reversed."""
    n = inst.size
    order = list(dict.fromkeys([*(e for s in inst.subsets for e in s), *range(n)]))
    evens = list(range(0, n, 2)) + list(range(1, n, 2))
    odds = list(range(1, n, 2)) + list(range(0, n, 2))
    for target in (list(range(n)), evens, odds, list(range(n - 1, -1, -1))):
        to = dict(zip(order, target, strict=True))
        subsets = tuple(tuple(sorted(to[e] for e in s)) for s in inst.subsets)
        yield X3C(n, subsets, name=inst.name)


def _every_small_x3c() -> Iterator[X3C]:
    from itertools import combinations, combinations_with_replacement, permutations

    k = 0
    for q, most in ((1, 2), (2, 3)):
        triples = list(combinations(range(3 * q), 3))
        renamings = list(permutations(range(3 * q)))
        for m in range(most + 1):
            seen: set[tuple[tuple[int, ...], ...]] = set()
            # renaming puts any one subset on (0, 1, 2): the others are enough to choose
            rest = combinations_with_replacement(triples, m - 1) if m else [()]
            for others in rest:
                chosen = (triples[0], *others) if m else ()
                canonical = min(
                    tuple(sorted(tuple(sorted(p[e] for e in s)) for s in chosen)) for p in renamings
                )
                if canonical not in seen:
                    seen.add(canonical)
                    yield X3C(3 * q, canonical, name=f"small-{k}")
                    k += 1


def x3c_strategy(size: int) -> Any:
    """A hypothesis strategy of X3C instances with at most ``size`` subsets over a
    universe of 3 to 9 elements, a cover planted in some of them; hypothesis shrinks to
    fewer subsets and elements."""
    from hypothesis import strategies as st

    def instance(q: int) -> Any:
        triple = st.lists(st.integers(0, 3 * q - 1), min_size=3, max_size=3, unique=True)
        subsets = st.lists(triple.map(lambda t: tuple(sorted(t))), max_size=size)
        planted = st.booleans().flatmap(
            lambda yes: st.permutations(range(3 * q)) if yes else st.just(())
        )

        def build(found: list[tuple[int, ...]], cover: tuple[int, ...]) -> X3C:
            parts = [tuple(sorted(cover[i : i + 3])) for i in range(0, len(cover), 3)]
            return X3C(3 * q, tuple(found + parts), name="fuzz")

        return st.builds(build, subsets, planted)

    # universes beyond any constant a program is likely to hard-code (q = 3, 4), as
    # the size grows
    return st.integers(1, max(3, min(8, size // 2 + 1))).flatmap(instance)
