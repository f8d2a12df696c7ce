"""Gambit's game files: the strategic ``.nfg`` and the extensive ``.efg`` format, read
and written for two-person zero-sum games.

These are the exchange formats of Gambit (``pygambit``) and OpenSpiel
(``pyspiel.load_efg_game``, ``export to gambit``). The reader follows Gambit's
documented conventions: whitespace is not significant, labels are in double quotes
(``\\"`` escapes a quote), numbers are integers, decimals or fractions (read exactly),
commas between payoffs are optional. A chance probability written as a float
(``0.3333333333333333``, as OpenSpiel's export writes 1/3) is read as the simplest
fraction within its rounding, so that the probabilities sum to exactly 1.

- ``.nfg`` (``NFG 1 R "title" { "Player 1" "Player 2" } ...``): the strategies as
  counts ``{ 3 2 }`` or names ``{ { "a" "b" "c" } { "x" "y" } }``, then either the
  payoffs of every profile (the *payoff version*) or a list of outcomes and an outcome
  number per profile (the *outcome version*; 0: no outcome, all payoffs 0); player 1's
  strategy varies fastest.
- ``.efg`` (``EFG 2 R "title" { "Player 1" "Player 2" } ...``): the tree's nodes in
  depth-first order, ``c`` (chance: actions with probabilities), ``p`` (a player's
  move: player, information set number, actions) and ``t`` (terminal); a node may carry
  an outcome, and a leaf's payoff is the sum of the outcomes on its path.

The file's comment (the label after the players) may state the known value,
``"known: -1/18"`` (crosscheck compares it), as the text matrix's ``# known:`` does.

Only two-player zero-sum and constant-sum games are read: the two payoffs must add up to
one constant at every outcome (0: zero-sum; another constant: zero-sum on player 1's
payoffs, the game's ``constant`` recording it, and written back so); anything else is an
:class:`InputError` naming two outcomes that differ. Player 1's payoff is what player II
pays player I, as in :mod:`pyasp_games.domains.zerosum.model`.

>>> game = parse_nfg('NFG 1 R "matching pennies" { "I" "II" } { 2 2 }\\n 1 -1 -1 1 -1 1 1 -1\\n')
>>> game.matrix == ((1, -1), (-1, 1)), game.name
(True, 'matching pennies')
>>> parse_nfg(format_nfg(game)) == game
True
>>> tree = parse_efg(format_efg(game))  # a matrix game as a tree: II does not see I's move
>>> [len(s) for s in tree.sequences]
[3, 3]
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

from pyasp_games.domains.zerosum.extensive import MAX_TREE_DEPTH, ExtensiveGame, from_dict, too_deep
from pyasp_games.domains.zerosum.model import MatrixGame, make_game
from pyasp_games.errors import InputError, read_text

#: The extensions that select these formats (the content's first word decides as well).
EXTENSIONS = {".nfg": "nfg", ".efg": "efg"}

_TOKEN = re.compile(r'\s*(?:"((?:[^"\\]|\\.)*)"|([{},])|([^\s{},"]+))', re.S)


class _Tokens:
    """The tokens of a Gambit file: ``("str", text)``, ``("sym", "{")`` or ``("word", w)``."""

    def __init__(self, text: str, name: str) -> None:
        self.name = name
        self.items = list(self._scan(text))
        self.at = 0

    def _scan(self, text: str) -> Iterator[tuple[str, str]]:
        pos = 0
        while True:
            match = _TOKEN.match(text, pos)
            if match is None or match.end() == pos:
                if text[pos:].strip():
                    raise InputError(f"{self.name}: unreadable text at {text[pos:pos + 20]!r}")
                return
            pos = match.end()
            quoted, symbol, word = match.groups()
            if quoted is not None:
                yield "str", re.sub(r"\\(.)", r"\1", quoted)
            elif symbol == ",":
                continue  # optional separators between payoffs
            elif symbol is not None:
                yield "sym", symbol
            else:
                yield "word", word

    def peek(self) -> tuple[str, str] | None:
        return self.items[self.at] if self.at < len(self.items) else None

    def next(self, what: str) -> tuple[str, str]:
        token = self.peek()
        if token is None:
            raise InputError(f"{self.name}: the file ends where {what} should be")
        self.at += 1
        return token

    def expect(self, symbol: str, what: str) -> None:
        kind, value = self.next(what)
        if (kind, value) != ("sym", symbol):
            raise InputError(f"{self.name}: expected {what}, got {value!r}")

    def text(self, what: str) -> str:
        kind, value = self.next(what)
        if kind != "str":
            raise InputError(f"{self.name}: expected {what} (a quoted label), got {value!r}")
        return value

    def number(self, what: str) -> Fraction:
        kind, value = self.next(what)
        try:
            if kind != "word":
                raise ValueError
            return Fraction(value)
        except (ValueError, ZeroDivisionError):
            raise InputError(f"{self.name}: expected {what} (a number), got {value!r}") from None

    def integer(self, what: str) -> int:
        kind, value = self.next(what)
        if kind != "word" or not value.isdigit():
            raise InputError(f"{self.name}: expected {what} (a whole number), got {value!r}")
        return int(value)

    def at_symbol(self, symbol: str) -> bool:
        return self.peek() == ("sym", symbol)

    def labels(self, what: str) -> list[str]:
        """``{ "a" "b" ... }``"""
        self.expect("{", f"the list of {what}")
        out = []
        while not self.at_symbol("}"):
            out.append(self.text(what))
        self.next(what)
        return out

    def numbers(self, what: str) -> list[Fraction]:
        """``{ 1 -1/2 ... }``"""
        self.expect("{", f"the list of {what}")
        out = []
        while not self.at_symbol("}"):
            out.append(self.number(what))
        self.next(what)
        return out


def _prologue(tokens: _Tokens, magic: str, version: str) -> str:
    """``MAGIC VERSION R "title" { players }``; the title. Two players only."""
    _, word = tokens.next(f"'{magic}'")
    if word != magic:
        raise InputError(f"{tokens.name}: not a Gambit .{magic.lower()} file (it starts with {word!r})")
    _, word = tokens.next("the version")
    if word != version:
        raise InputError(f"{tokens.name}: {magic} version {word!r}, expected {version}")
    _, word = tokens.next("'R'")
    if word not in ("R", "D"):
        raise InputError(f"{tokens.name}: expected 'R' after the version, got {word!r}")
    title = tokens.text("the title")
    players = tokens.labels("players")
    if len(players) != 2:
        raise InputError(
            f"{tokens.name}: {len(players)} players; zero-sum games here have two"
        )
    return title


def _pair(payoffs: list[Fraction], where: str, name: str) -> tuple[Fraction, Fraction]:
    """The two players' payoffs of an outcome."""
    if len(payoffs) != 2:
        raise InputError(f"{name}: {where} has {len(payoffs)} payoffs, expected 2")
    return payoffs[0], payoffs[1]


def _constant(paid: list[tuple[str, tuple[Fraction, Fraction]]], name: str) -> Fraction:
    """What every outcome's two payoffs add up to (``paid``: where, and the pair): 0 for a
    zero-sum game, another constant for a constant-sum game (zero-sum on player 1's
    payoffs: what one gains the other loses); outcomes with different sums are refused.

    >>> _constant([("a", (Fraction(3), Fraction(-1))), ("b", (Fraction(0), Fraction(2)))], "g")
    Fraction(2, 1)
    """
    first_where, (a, b) = paid[0]
    for where, (p, q) in paid[1:]:
        if p + q != a + b:
            raise InputError(
                f"{name}: {first_where} pays {a} and {b} (together {a + b}), {where} pays {p} "
                f"and {q} (together {p + q}): neither a zero-sum nor a constant-sum game"
            )
    return a + b


#: A decimal with this many digits after the point is a float's rendering (OpenSpiel
#: writes 1/3 as 0.3333333333333333), not a number someone typed.
FLOAT_DIGITS = 12


def _probability(value: Fraction) -> Fraction:
    """A chance probability: a float's rendering is read as the simplest fraction within
    its rounding error (``0.3333333333333333`` -> ``1/3``), so that a chance node's
    probabilities sum to exactly 1 as they meant to; anything else exactly as written.

    >>> _probability(Fraction("0.3333333333333333")), _probability(Fraction("0.15"))
    (Fraction(1, 3), Fraction(3, 20))
    """
    if value.denominator < 10**FLOAT_DIGITS:
        return value
    simple = value.limit_denominator(10**6)
    return simple if abs(simple - value) < Fraction(1, 10**FLOAT_DIGITS) else value


def _comment(tokens: _Tokens) -> Fraction | None:
    """The optional comment after the prologue; the value it states (``known: V``)."""
    if tokens.peek() is None or tokens.peek()[0] != "str":
        return None
    match = re.search(r"\bknown:\s*(\S+)", tokens.next("the comment")[1])
    if match is None:
        return None
    try:
        return Fraction(match.group(1))
    except (ValueError, ZeroDivisionError):
        raise InputError(f"{tokens.name}: the comment's known value {match.group(1)!r} is not a number") from None


def _known_comment(known: Fraction | None) -> str:
    return '""' if known is None else f'"known: {known}"'


# -- .nfg ----------------------------------------------------------------------------------


def parse_nfg(text: str, name: str = "game") -> MatrixGame:
    """Read a two-person zero-sum game from ``.nfg`` text (payoff or outcome version).

    Parameters
    ----------
    text : str
        The file's text.
    name : str, optional
        The game's name where the text gives no title.

    Returns
    -------
    MatrixGame
        Player 1's payoffs (what player II pays player I), exact fractions; a
        constant-sum game keeps its ``constant``.

    Raises
    ------
    InputError
        Text that is not ``.nfg``, not two players, or not constant-sum (naming two
        outcomes that differ).

    Notes
    -----
    Linear in the text.

    References
    ----------
    .. [1] R. D. McKelvey, A. M. McLennan and T. L. Turocy, Gambit: Software Tools for
       Game Theory, https://www.gambit-project.org (the file formats).
    """
    tokens = _Tokens(text, name)
    title = _prologue(tokens, "NFG", "1")
    tokens.expect("{", "the strategies")
    if tokens.at_symbol("{"):  # names: { { "a" "b" } { "x" "y" } }
        strategies = []
        while not tokens.at_symbol("}"):
            strategies.append(tokens.labels("strategies"))
        tokens.next("the strategies")
        counts = [len(s) for s in strategies]
    else:
        counts = []
        while not tokens.at_symbol("}"):
            counts.append(tokens.integer("a number of strategies"))
        tokens.next("the strategies")
        strategies = [[str(k + 1) for k in range(c)] for c in counts]
    if len(counts) != 2 or 0 in counts:
        raise InputError(f"{name}: the strategies {counts} are not two non-empty lists")
    known = _comment(tokens)
    m, n = counts
    paid: list[tuple[str, tuple[Fraction, Fraction]]] = []
    if tokens.at_symbol("{"):  # the outcome version
        tokens.next("the outcomes")
        outcomes = []
        while not tokens.at_symbol("}"):
            tokens.expect("{", "an outcome")
            tokens.text("the outcome's label")
            payoffs = []
            while not tokens.at_symbol("}"):
                payoffs.append(tokens.number("a payoff"))
            tokens.next("an outcome")
            outcomes.append(_pair(payoffs, f"outcome {len(outcomes) + 1}", name))
        tokens.next("the outcomes")
        for profile in range(m * n):
            k = tokens.integer(f"the outcome of profile {profile + 1}")
            if k > len(outcomes):
                raise InputError(f"{name}: profile {profile + 1} names outcome {k} of {len(outcomes)}")
            where = f"profile {profile + 1}" + (f" (outcome {k})" if k else " (outcome 0)")
            paid.append((where, (Fraction(0), Fraction(0)) if k == 0 else outcomes[k - 1]))
    else:  # the payoff version
        for profile in range(m * n):
            pair = [tokens.number(f"a payoff of profile {profile + 1}") for _ in range(2)]
            paid.append((f"profile {profile + 1}", _pair(pair, f"profile {profile + 1}", name)))
    constant = _constant(paid, name)
    values = [p for _, (p, _) in paid]
    if tokens.peek() is not None:
        raise InputError(f"{name}: unexpected {tokens.peek()[1]!r} after the {m * n} profiles")
    # player 1's strategy varies fastest: profile k is (k mod m, k div m)
    matrix = [[values[j * m + i] for j in range(n)] for i in range(m)]
    game = make_game(matrix, title or name, strategies[0], strategies[1], known)
    return dataclasses.replace(game, constant=constant)


def _quote(label: str) -> str:
    return '"' + label.replace("\\", "\\\\").replace('"', '\\"') + '"'


def format_nfg(game: MatrixGame) -> str:
    """Write a matrix game as ``.nfg`` text, as Gambit writes it.

    Parameters
    ----------
    game : MatrixGame
        The game.

    Returns
    -------
    str
        The outcome version, strategies named, one outcome per profile; the known
        value, if any, in the comment. :func:`parse_nfg` reads it back equal.

    References
    ----------
    .. [1] R. D. McKelvey, A. M. McLennan and T. L. Turocy, Gambit: Software Tools for
       Game Theory, https://www.gambit-project.org (the file formats).
    """
    m, n = game.shape
    strategies = " ".join(
        "{ " + " ".join(_quote(s) for s in names) + " }" for names in (game.rows, game.cols)
    )
    head = f'NFG 1 R {_quote(game.name)} {{ "Player 1" "Player 2" }} {{ {strategies} }}'
    lines = [head, _known_comment(game.known), "", "{"]
    for j in range(n):
        for i in range(m):
            v = game.matrix[i][j]
            lines.append(f'{{ "" {v}, {game.constant - v} }}')
    lines.append("}")
    lines.append(" ".join(str(k + 1) for k in range(m * n)))
    return "\n".join(lines) + "\n"


# -- .efg ----------------------------------------------------------------------------------


def parse_efg(text: str, name: str = "tree") -> ExtensiveGame:
    """Read a two-person zero-sum game tree from ``.efg`` text.

    Parameters
    ----------
    text : str
        The file's text: nodes in depth-first order (``c`` chance, ``p`` a player's
        move, ``t`` terminal).
    name : str, optional
        The game's name where the text gives no title.

    Returns
    -------
    ExtensiveGame
        The tree, built by :func:`pyasp_games.domains.zerosum.extensive.from_dict`.

    Raises
    ------
    InputError
        Text that is not ``.efg``, not two players, not constant-sum, or a tree that
        :func:`~pyasp_games.domains.zerosum.extensive.from_dict` refuses (too deep,
        imperfect recall).

    Notes
    -----
    Linear in the text.

    References
    ----------
    .. [1] R. D. McKelvey, A. M. McLennan and T. L. Turocy, Gambit: Software Tools for
       Game Theory, https://www.gambit-project.org (the file formats).
    """
    tokens = _Tokens(text, name)
    title = _prologue(tokens, "EFG", "2")
    known = _comment(tokens)
    outcomes: dict[int, tuple[Fraction, Fraction]] = {}
    leaves: list[tuple[str, tuple[Fraction, Fraction]]] = []  # every leaf's total payoffs
    actions: dict[tuple[int, int], list[str]] = {}  # (player, or 0 for chance; infoset)
    chances: dict[int, list[Fraction]] = {}  # a chance information set's probabilities
    labels: dict[tuple[int, int], str] = {}  # a player's information sets' labels

    def outcome(where: str) -> tuple[Fraction, Fraction]:
        """``OUTCOME ["label" { payoffs }]``: both players' payoffs (0 for outcome 0)."""
        k = tokens.integer(f"the outcome of {where}")
        if tokens.peek() is not None and tokens.peek()[0] == "str":
            tokens.next("the outcome's label")
            payoffs = tokens.numbers(f"the payoffs of outcome {k}")
            outcomes[k] = _pair(payoffs, f"outcome {k}", name)
        if k == 0:
            return Fraction(0), Fraction(0)
        if k not in outcomes:
            raise InputError(f"{name}: {where} names outcome {k}, whose payoffs are not given")
        return outcomes[k]

    def node(path: str, paid: tuple[Fraction, Fraction], depth: int = 0) -> dict[str, Any]:
        if depth > MAX_TREE_DEPTH:  # before Python's own stack runs out
            raise too_deep(name, path)
        kind, word = tokens.next(f"the node {path}")
        if kind != "word" or word not in ("c", "p", "t"):
            raise InputError(f"{name}: node {path}: expected 'c', 'p' or 't', got {word!r}")
        tokens.text("the node's label")
        if word == "t":
            here = _add(paid, outcome(f"leaf {path}"))
            leaves.append((f"the leaf {path}", here))
            return {"payoff": str(here[0])}
        player = 0 if word == "c" else tokens.integer(f"the player of node {path}")
        if player not in (0, 1, 2):
            raise InputError(f"{name}: node {path}: player {player}, expected 1 or 2")
        number = tokens.integer(f"the information set of node {path}")
        label = tokens.text("the information set's label")
        key = (player, number)
        probabilities: list[Fraction] = []
        if tokens.at_symbol("{"):
            tokens.next("the actions")
            names = []
            while not tokens.at_symbol("}"):
                names.append(tokens.text("an action"))
                if player == 0:
                    probabilities.append(_probability(tokens.number("a probability")))
            tokens.next("the actions")
            if actions.setdefault(key, names) != names:
                raise InputError(f"{name}: node {path}: information set {number} has actions "
                                 f"{actions[key]} elsewhere, {names} here")  # fmt: skip
            if player == 0:
                chances[number] = probabilities
        elif key not in actions:
            raise InputError(f"{name}: node {path}: information set {number} has no actions")
        names = actions[key]
        if player == 0:
            probabilities = chances[number]
        else:
            labels.setdefault(key, label)
        here = _add(paid, outcome(f"node {path}"))
        children = {a: node(f"{path}/{a}", here, depth + 1) for a in names}
        if player == 0:
            return {"chance": {a: {"p": str(p), "next": children[a]}
                               for a, p in zip(names, probabilities, strict=True)}}  # fmt: skip
        return {"player": player, "infoset": key, "moves": children}

    root = node("root", (Fraction(0), Fraction(0)))
    if tokens.peek() is not None:
        raise InputError(f"{name}: unexpected {tokens.peek()[1]!r} after the tree")
    _name_infosets(root, labels)
    constant = _constant(leaves, name)
    data: dict[str, Any] = {"name": title or name, "root": root}
    if known is not None:
        data["known"] = known
    game = from_dict(data, name)
    game.constant = constant
    return game


def _add(a: tuple[Fraction, Fraction], b: tuple[Fraction, Fraction]) -> tuple[Fraction, Fraction]:
    return a[0] + b[0], a[1] + b[1]


def _name_infosets(root: dict[str, Any], labels: dict[tuple[int, int], str]) -> None:
    """Replace each ``(player, number)`` by the set's label, or by its number where the
    label is empty or another set of the same player has it too (Gambit identifies
    information sets by number; labels are free text)."""
    count: dict[tuple[int, str], int] = {}
    for (player, _), label in labels.items():
        count[(player, label)] = count.get((player, label), 0) + 1
    names = {
        key: label if label and count[(key[0], label)] == 1 else f"{key[1]}" + (f" {label}" if label else "")
        for key, label in labels.items()
    }  # fmt: skip
    stack = [root]
    while stack:
        node = stack.pop()
        if "moves" in node:
            node["infoset"] = names[node["infoset"]]
            stack.extend(node["moves"].values())
        elif "chance" in node:
            stack.extend(o["next"] for o in node["chance"].values())


def format_efg(game: ExtensiveGame | MatrixGame) -> str:
    """Write a game as ``.efg`` text.

    Parameters
    ----------
    game : ExtensiveGame or MatrixGame
        A tree, or a matrix game: it becomes the tree where player 1 moves, then
        player 2 moves without seeing it (one information set).

    Returns
    -------
    str
        The ``.efg`` text; :func:`parse_efg` reads it back.

    References
    ----------
    .. [1] R. D. McKelvey, A. M. McLennan and T. L. Turocy, Gambit: Software Tools for
       Game Theory, https://www.gambit-project.org (the file formats).
    """
    if isinstance(game, MatrixGame):
        game = _matrix_tree(game)
    numbers: dict[tuple[int, str], int] = {}
    chance = 0
    outcome = 0
    lines = [f'EFG 2 R {_quote(game.name)} {{ "Player 1" "Player 2" }}', _known_comment(game.known), ""]

    def walk(k: int) -> None:
        nonlocal chance, outcome
        node = game.nodes[k]
        if node.kind == "leaf":
            outcome += 1
            lines.append(f't "" {outcome} "" {{ {node.payoff}, {game.constant - node.payoff} }}')
            return
        if node.kind == "chance":
            chance += 1
            moves = " ".join(f"{_quote(a)} {p}" for a, p, _ in node.children)
            lines.append(f'c "" {chance} "" {{ {moves} }} 0')
        else:
            key = (node.player, node.infoset)
            number = numbers.setdefault(key, 1 + sum(1 for p, _ in numbers if p == node.player))
            moves = " ".join(_quote(a) for a, _, _ in node.children)
            lines.append(f'p "" {node.player} {number} {_quote(node.infoset)} {{ {moves} }} 0')
        for _, _, child in node.children:
            walk(child)

    walk(0)
    return "\n".join(lines) + "\n"


def _matrix_tree(game: MatrixGame) -> ExtensiveGame:
    moves = {
        r: {"player": 2, "infoset": "II", "moves": {
            c: {"payoff": str(game.matrix[i][j])} for j, c in enumerate(game.cols)}}
        for i, r in enumerate(game.rows)
    }  # fmt: skip
    tree = from_dict({"name": game.name, "root": {"player": 1, "infoset": "I", "moves": moves}})
    tree.constant = game.constant
    return tree


def sniff(path: Path) -> str | None:
    """Whether a file is Gambit's, and which format.

    Parameters
    ----------
    path : Path
        The file.

    Returns
    -------
    {"nfg", "efg"} or None
        By the extension, else by the first word of the file; ``None``: neither (or
        the file cannot be opened: its reader reports that).
    """
    by_extension = EXTENSIONS.get(path.suffix.lower())
    if by_extension:
        return by_extension
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            head = f.read(8).lstrip()
    except OSError:
        return None  # the reader reports it
    return {"NFG": "nfg", "EFG": "efg"}.get(head[:3])


def load_gambit(path: Path | str) -> MatrixGame | ExtensiveGame:
    """Read a ``.nfg`` (a matrix game) or ``.efg`` (a tree) file.

    Parameters
    ----------
    path : path-like or str
        The file; its format by :func:`sniff`.

    Returns
    -------
    MatrixGame or ExtensiveGame
        The game, named after the file.

    Raises
    ------
    InputError
        A missing or unreadable file, or bad text; the message names the file.

    References
    ----------
    .. [1] R. D. McKelvey, A. M. McLennan and T. L. Turocy, Gambit: Software Tools for
       Game Theory, https://www.gambit-project.org (the file formats).
    """
    path = Path(path)
    kind = sniff(path)
    text = read_text(path)
    try:
        return parse_nfg(text, path.stem) if kind == "nfg" else parse_efg(text, path.stem)
    except InputError as err:
        raise InputError(f"{path}: {err}") from None


__all__ = ["EXTENSIONS", "format_efg", "format_nfg", "load_gambit", "parse_efg", "parse_nfg", "sniff"]
