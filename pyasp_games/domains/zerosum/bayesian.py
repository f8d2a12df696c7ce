"""Bayesian zero-sum games (Harsanyi): types, priors and a payoff table per type pair.

A typed game is read from JSON or TOML (a file whose top level has ``types``)::

    {"name": "bayes", "known": "1/2",
     "types": {"I":  {"I.1":  {"prior": "1",   "actions": ["Kb6", "Kd6"]}},
               "II": {"II.1": {"prior": "1/2", "actions": ["Kb8", "Kd8"]},
                      "II.2": {"prior": "1/2", "actions": ["Kc8", "Kd8"]}}},
     "payoffs": {"I.1": {"II.1": [[0, 1], [1, 0]], "II.2": [[1, 0], [0, 1]]}}}

Each player's types have priors summing to 1 (the types are drawn independently), or
the file gives one joint prior ``"prior": {"I.1": {"II.1": "1/4", ...}}`` over the type
pairs instead (then no type has its own). A type's actions may differ from another
type's of the same player (a player knows his own type); the table of a pair ``(s, t)``
has a row for each action of ``s`` and a column for each action of ``t`` (what player
II pays player I).

The Harsanyi transformation makes it a game tree with a chance move: chance draws the
pair of types by the prior; player I, knowing only his type, moves at the information
set named after it; player II likewise; the leaf pays the table's entry. That tree has
perfect recall, so the domain's tree solvers give the value and, per information set,
each type's optimal mixed action, checked by exact best replies.

>>> game = harsanyi({"types": {"I": {"I.1": {"prior": 1, "actions": ["Kb6", "Kd6"]}},
...                            "II": {"II.1": {"prior": 1, "actions": ["Kb8", "Kd8"]}}},
...                  "payoffs": {"I.1": {"II.1": [[0, 1], [1, 0]]}}}, "table-3-1")
>>> len(game.nodes), sorted(game.infosets[0]), game.bayesian
(8, ['I.1'], 'Bayesian game: 1 x 1 types, Harsanyi tree with chance over 1 type pair')
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from pyasp_games.domains.zerosum.extensive import ExtensiveGame, from_dict
from pyasp_games.domains.zerosum.model import to_fraction
from pyasp_games.errors import InputError

PLAYERS = ("I", "II")

#: The most type pairs a typed game may have (each is a subtree of the Harsanyi tree).
MAX_TYPE_PAIRS = 10_000


def is_typed(data: Any) -> bool:
    """Whether a game file's structure is a typed (Bayesian) game: it has ``types``."""
    return isinstance(data, Mapping) and "types" in data


def _types(data: Mapping[str, Any], name: str) -> dict[str, dict[str, dict[str, Any]]]:
    types = data["types"]
    if not isinstance(types, Mapping) or set(types) != set(PLAYERS):
        raise InputError(f"{name}: 'types' must have exactly the players 'I' and 'II'")
    out: dict[str, dict[str, dict[str, Any]]] = {}
    seen: dict[str, str] = {}
    for player in PLAYERS:
        given = types[player]
        if not isinstance(given, Mapping) or not given:
            raise InputError(f"{name}: player {player} needs at least one type")
        out[player] = {}
        for t, spec in given.items():
            t = str(t)
            if t in seen:
                raise InputError(f"{name}: type {t!r} is named for both players; names must differ")
            seen[t] = player
            if not isinstance(spec, Mapping):
                raise InputError(f"{name}: type {t!r} must be an object with 'actions'")
            actions = spec.get("actions")
            if not isinstance(actions, list) or not actions:
                raise InputError(f"{name}: type {t!r} needs a non-empty list of 'actions'")
            actions = [str(a) for a in actions]
            if len(set(actions)) != len(actions):
                raise InputError(f"{name}: type {t!r} names an action twice")
            prior = spec.get("prior")
            out[player][t] = {"actions": actions,
                              "prior": None if prior is None else
                              to_fraction(prior, f"{name}: prior of type {t!r}")}
    return out


def _prior(data: Mapping[str, Any], types: dict[str, dict[str, dict[str, Any]]], name: str
           ) -> dict[tuple[str, str], Fraction]:
    """The prior of each type pair: the product of the players' own priors, or the joint one."""
    own = [t for p in PLAYERS for t, spec in types[p].items() if spec["prior"] is not None]
    if "prior" in data:
        if own:
            raise InputError(f"{name}: a joint 'prior' is given, and type {own[0]!r} has its own "
                             "prior too: give one or the other")
        joint = data["prior"]
        if not isinstance(joint, Mapping):
            raise InputError(f"{name}: the joint 'prior' maps I's types to II's types to probabilities")
        prior: dict[tuple[str, str], Fraction] = {}
        for s, row in joint.items():
            if s not in types["I"]:
                raise InputError(f"{name}: the prior names {s!r}, which is no type of player I")
            if not isinstance(row, Mapping):
                raise InputError(f"{name}: the prior of {s!r} must map II's types to probabilities")
            for t, p in row.items():
                if t not in types["II"]:
                    raise InputError(f"{name}: the prior names {t!r}, which is no type of player II")
                prior[(s, str(t))] = to_fraction(p, f"{name}: prior of ({s}, {t})")
        where = "the joint prior"
    else:
        for player in PLAYERS:
            missing = [t for t, spec in types[player].items() if spec["prior"] is None]
            if missing:
                raise InputError(f"{name}: type {missing[0]!r} has no 'prior' (or give a joint "
                                 "'prior' over type pairs)")
            total = sum((spec["prior"] for spec in types[player].values()), Fraction(0))
            if total != 1 or any(spec["prior"] < 0 for spec in types[player].values()):
                raise InputError(f"{name}: player {player}'s type priors must be >= 0 and sum to "
                                 f"1, they sum to {total}")
        prior = {(s, t): a["prior"] * b["prior"] for s, a in types["I"].items()
                 for t, b in types["II"].items()}
        where = None
    if where is not None:
        total = sum(prior.values(), Fraction(0))
        if total != 1 or any(p < 0 for p in prior.values()):
            raise InputError(f"{name}: {where} must be >= 0 and sum to 1, it sums to {total}")
    return prior


def harsanyi_tree(data: Mapping[str, Any], name: str = "bayesian") -> dict[str, Any]:
    """The Harsanyi transformation of a typed game, as the domain's JSON tree structure
    (:mod:`~pyasp_games.domains.zerosum.extensive`): chance draws the type pair, then I
    moves at his type's information set, then II at hers, then the table pays.

    Raises
    ------
    InputError
        Priors that are negative or do not sum to 1, a table naming an unknown type, a
        missing table for a pair of positive prior, a table of the wrong shape, a
        non-number entry: one sentence each.
    """
    if not is_typed(data):
        raise InputError(f"{name}: a typed game is a JSON or TOML object with 'types'")
    name = str(data.get("name", name))
    types = _types(data, name)
    pairs = len(types["I"]) * len(types["II"])
    if pairs > MAX_TYPE_PAIRS:
        raise InputError(f"{name}: {pairs} type pairs, more than this tool's {MAX_TYPE_PAIRS}")
    prior = _prior(data, types, name)
    tables = data.get("payoffs")
    if not isinstance(tables, Mapping):
        raise InputError(f"{name}: 'payoffs' must map I's types to II's types to payoff tables")
    for s, row in tables.items():
        if s not in types["I"]:
            raise InputError(f"{name}: 'payoffs' names {s!r}, which is no type of player I "
                             f"(its types: {', '.join(types['I'])})")
        if not isinstance(row, Mapping):
            raise InputError(f"{name}: 'payoffs' of {s!r} must map II's types to tables")
        for t in row:
            if t not in types["II"]:
                raise InputError(f"{name}: 'payoffs' of {s!r} names {t!r}, which is no type of "
                                 f"player II (its types: {', '.join(types['II'])})")
    outcomes: dict[str, Any] = {}
    for (s, t), p in prior.items():
        if p == 0:
            continue
        table = tables.get(s, {}).get(t)
        rows, cols = types["I"][s]["actions"], types["II"][t]["actions"]
        if table is None:
            raise InputError(f"{name}: no payoff table for types ({s}, {t}), whose prior is {p}")
        if (not isinstance(table, list) or len(table) != len(rows)
                or any(not isinstance(r, list) or len(r) != len(cols) for r in table)):
            raise InputError(f"{name}: the table of ({s}, {t}) must be {len(rows)} x {len(cols)} "
                             f"({s}'s actions by {t}'s)")
        moves = {}
        for i, a in enumerate(rows):
            moves[a] = {"player": 2, "infoset": t, "moves": {
                b: {"payoff": str(to_fraction(table[i][j], f"{name}: table ({s}, {t}) entry "
                                                           f"({i + 1},{j + 1})"))}
                for j, b in enumerate(cols)}}
        outcomes[f"{s},{t}"] = {"p": str(p), "next": {"player": 1, "infoset": s, "moves": moves}}
    tree: dict[str, Any] = {"name": name, "root": {"chance": outcomes}}
    if data.get("known") is not None:
        tree["known"] = data["known"]
    return tree


def harsanyi(data: Mapping[str, Any], name: str = "bayesian") -> ExtensiveGame:
    """The typed game ``data`` as its Harsanyi tree (:func:`harsanyi_tree`), an
    :class:`~pyasp_games.domains.zerosum.extensive.ExtensiveGame` whose ``bayesian`` says
    what it came from."""
    tree = harsanyi_tree(data, name)
    game = from_dict(tree, name=tree["name"])
    sizes = [len(data["types"][p]) for p in PLAYERS]
    pairs = len(tree["root"]["chance"])
    game.bayesian = (f"Bayesian game: {sizes[0]} x {sizes[1]} types, Harsanyi tree with chance "
                     f"over {pairs} type pair{'' if pairs == 1 else 's'}")
    return game


def load_typed(path: Path | str) -> ExtensiveGame:
    """Read a typed game file (``.toml``, or JSON whose top level has ``types``)."""
    path = Path(path)
    if path.suffix == ".toml":
        import tomllib

        from pyasp_games.engines.files import read_text

        try:
            data = tomllib.loads(read_text(path))
        except tomllib.TOMLDecodeError as err:
            raise InputError(f"{path}: not TOML ({err})") from None
    else:
        from pyasp_games.engines.files import read_json

        data = read_json(path)
    return harsanyi(data, path.stem)
