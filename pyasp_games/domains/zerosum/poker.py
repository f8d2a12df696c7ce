"""Poker game trees: Kuhn poker with k cards and Leduc hold'em, as :class:`ExtensiveGame`.

Kuhn poker (H. W. Kuhn, "A simplified two-person poker", Contributions to the Theory of
Games I, 1950; here with k cards): both ante 1, each gets one card; player 1 checks
or bets 1; after a check player 2 checks (showdown for 1) or bets (player 1 folds
or calls: showdown for 2); after a bet player 2 folds or calls (showdown for 2).
The tree has ``9k(k-1) + 1`` nodes, each player ``4k + 1`` sequences.

Leduc hold'em: a deck of two each of J, Q, K; both ante 1 and get a private card;
a betting round (bets of 2, at most two bets: a bet and a raise), a public card,
a second round (bets of 4); a pair with the public card beats any other hand,
else the higher card wins; equal cards split. Cards of one rank are dealt as one
chance outcome weighted by their count.

>>> kuhn = kuhn_poker(3)
>>> len(kuhn.nodes), [len(s) for s in kuhn.sequences]
(55, [13, 13])
>>> len(leduc_poker().nodes), [len(s) for s in leduc_poker().sequences]
(1939, [337, 337])
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pyasp_games.domains.zerosum.extensive import ExtensiveGame, from_dict
from pyasp_games.errors import InputError


def _card_names(k: int) -> list[str]:
    return ["J", "Q", "K"] if k == 3 else [str(c) for c in range(1, k + 1)]


#: The most cards a Kuhn tree is generated for (a larger tree is no game anyone solves).
MAX_KUHN_CARDS = 100


def kuhn_tree(cards: int = 3) -> dict[str, Any]:
    """The JSON structure of k-card Kuhn poker."""
    if cards < 2:
        raise InputError("Kuhn poker needs at least 2 cards")
    if cards > MAX_KUHN_CARDS:  # 9k(k-1)+1 nodes: 89,101 at the limit
        raise InputError(f"Kuhn poker with {cards} cards: at most {MAX_KUHN_CARDS} cards")
    names = _card_names(cards)
    deal = Fraction(1, cards * (cards - 1))

    def show(c1: int, c2: int, stake: int) -> dict[str, Any]:
        return {"payoff": stake if c1 > c2 else -stake}

    def after_deal(c1: int, c2: int) -> dict[str, Any]:
        a, b = names[c1], names[c2]
        return {"player": 1, "infoset": f"1:{a}", "moves": {
            "check": {"player": 2, "infoset": f"2:{b}/check", "moves": {
                "check": show(c1, c2, 1),
                "bet": {"player": 1, "infoset": f"1:{a}/check,bet", "moves": {
                    "fold": {"payoff": -1}, "call": show(c1, c2, 2)}}}},
            "bet": {"player": 2, "infoset": f"2:{b}/bet", "moves": {
                "fold": {"payoff": 1}, "call": show(c1, c2, 2)}}}}

    chance = {f"{names[c1]}{names[c2]}": {"p": str(deal), "next": after_deal(c1, c2)}
              for c1 in range(cards) for c2 in range(cards) if c1 != c2}
    known = "-1/18" if cards == 3 else None
    out: dict[str, Any] = {"name": f"kuhn-{cards}", "root": {"chance": chance}}
    if known:
        out["known"] = known
    return out


def kuhn_poker(cards: int = 3, seed: int = 0) -> ExtensiveGame:
    """k-card Kuhn poker (``seed`` is ignored: the game is fixed by ``cards``)."""
    return from_dict(kuhn_tree(cards))


def _betting(history: str, bet_size: int, contrib: list[int], on_end: Any,
             infoset: Any) -> dict[str, Any]:
    """One limit betting round: players alternate from player 1; ``k`` check, ``b`` bet,
    ``r`` raise, ``c`` call, ``f`` fold; at most two bets."""
    player = len(history) % 2 + 1
    bets = history.count("b") + history.count("r")
    moves: dict[str, Any] = {}
    facing = bets > 0 and history[-1] in "br"
    if not facing:
        moves["check"] = ("k", contrib)
        moves["bet"] = ("b", _add(contrib, player, bet_size))
    else:
        moves["fold"] = ("f", contrib)
        moves["call"] = ("c", _match(contrib, player))
        if bets < 2:
            moves["raise"] = ("r", _add(_match(contrib, player), player, bet_size))
    out: dict[str, Any] = {}
    for action, (code, stake) in moves.items():
        seq = history + code
        if code == "f":
            # the folder loses what he has put in
            out[action] = {"payoff": stake[1] if player == 2 else -stake[0]}
        elif seq.endswith("kk") or code == "c":
            out[action] = on_end(stake, seq)
        else:
            out[action] = _betting(seq, bet_size, stake, on_end, infoset)
    return {"player": player, "infoset": infoset(player, history), "moves": out}


def _add(contrib: list[int], player: int, amount: int) -> list[int]:
    new = list(contrib)
    new[player - 1] += amount
    return new


def _match(contrib: list[int], player: int) -> list[int]:
    new = list(contrib)
    new[player - 1] = max(contrib)
    return new


def leduc_tree() -> dict[str, Any]:
    """The JSON structure of Leduc hold'em (ranks J < Q < K, two cards each)."""
    ranks = ["J", "Q", "K"]

    def showdown(c1: int, c2: int, public: int, stake: list[int]) -> dict[str, Any]:
        def strength(c: int) -> int:
            return 10 + c if c == public else c

        s1, s2 = strength(c1), strength(c2)
        return {"payoff": stake[1] if s1 > s2 else -stake[0] if s1 < s2 else 0}

    def deck_after(*used: int) -> dict[int, int]:
        left = {r: 2 for r in range(3)}
        for c in used:
            left[c] -= 1
        return {r: n for r, n in left.items() if n}

    def round_two(c1: int, c2: int, stake: list[int], first: str) -> dict[str, Any]:
        left = deck_after(c1, c2)
        total = sum(left.values())
        chance = {}
        for pub, n in left.items():
            def view(player: int, history: str, pub: int = pub) -> str:
                own = c1 if player == 1 else c2
                return f"{player}:{ranks[own]}{ranks[pub]}/{first}/{history}"

            chance[ranks[pub]] = {"p": str(Fraction(n, total)), "next": _betting(
                "", 4, stake, lambda st, _seq, pub=pub: showdown(c1, c2, pub, st), view)}
        return {"chance": chance}

    def round_one(c1: int, c2: int) -> dict[str, Any]:
        def view(player: int, history: str) -> str:
            own = c1 if player == 1 else c2
            return f"{player}:{ranks[own]}/{history}"

        return _betting("", 2, [1, 1], lambda st, seq: round_two(c1, c2, st, seq), view)

    chance: dict[str, Any] = {}
    for c1, n1 in deck_after().items():
        second = {}
        for c2, n2 in deck_after(c1).items():
            second[ranks[c2]] = {"p": str(Fraction(n2, 5)), "next": round_one(c1, c2)}
        chance[ranks[c1]] = {"p": str(Fraction(n1, 6)), "next": {"chance": second}}
    return {"name": "leduc", "root": {"chance": chance}}


def leduc_poker(seed: int = 0) -> ExtensiveGame:
    """Leduc hold'em (``seed`` is ignored: the game is fixed)."""
    return from_dict(leduc_tree())
