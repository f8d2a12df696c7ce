"""Magari's K+P vs K (1992), as the thesis describes it (section 3.2.4): win probabilities.

White's king on c5 and pawn on c6 against the black king on c7, Black to move, the
position known to both: a draw in orthodox chess, "almost won" in Kriegspiel. The thesis
describes White's manoeuvre: Black goes to b8, c8 or d8 (unseen); White goes to b6 or
d6; Black moves; White tries the king step to the seventh rank on its side (b7 or d7),
which is legal, and wins, unless the black king stands next to it; if refused, White
either pushes the pawn (winning when the black king is on c8, drawing when it is beside
it) or goes back to c5 "to start the manoeuvre again". With a limit on the number of
repetitions the best probability is computable, and "at the last repetition" it is 1/2.

:func:`magari_game` builds that game tree for ``k`` repetitions, every move and answer
from the referee (:mod:`~pyasp_games.domains.kriegspiel.pawn`): Black's moves are all its
legal king steps (with its own tries: a step that may be illegal, refused, is heard by
both and Black tries again), the seventh-rank try is White's first attempt at each
repetition (free, as the thesis says White should), and the leaves are valued by the
classic KPK table (a win 1, a draw 0) of the position reached. The information sets are
what each player has seen and heard (Black never sees White's side; White never sees
Black's square, only the referee's answers). The tree is solved exactly by the project's
sequence-form LP (:func:`~pyasp_games.domains.zerosum.lp.solve_sequence_form`) and both
behaviour strategies are checked by exact best responses
(:func:`~pyasp_games.domains.zerosum.verify.check_behaviour_certificate`).

What the thesis leaves open, and how the model reads it: (1) the diagram (its figure
3.7) is missing from the copy; the position is pinned by the text (Black's three moves
b8, c8, d8, White's b6 or d6, the return to c5, the push). (2) "Starting again" returns
to the diagram with Black to move, which in real chess needs a tempo (after White's
return to c5 and Black's return to c7 it is White's move, and b6 and d6 are then
illegal): the model follows the thesis and restarts from the diagram. (3) After a
successful seventh-rank try, or a push with the king on c8, the thesis counts the game
won; the model values the reached position by the classic table (won), i.e. assumes, as
the thesis does, that White converts (the sure-win solver certifies such conversions on
small boards: ``kriegspiel pawn-solve``). The values come out as ``k / (k + 1)``: 1/2 for
one repetition (the last), 2/3, 3/4, ... rising towards 1.

The tree of one repetition (the leaves valued by the classic table, built once):

>>> game, stats = magari_game(1)  # doctest: +SKIP
>>> stats["leaves"], stats["infosets"], stats["sequences"]  # doctest: +SKIP
(18, [5, 6], [7, 16])
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from pyasp_games.domains.kriegspiel.model import Board, parse_square, square_name
from pyasp_games.domains.kriegspiel.pawn import (
    NO_WIN,
    after_move,
    black_steps,
    black_to_move,
    classic_kpk,
    illegal_where,
    rule_set,
)
from pyasp_games.domains.zerosum.extensive import ExtensiveGame, from_dict
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.errors import InputError

BOARD = Board(8, 8)
#: The most repetitions :func:`magari_game` builds (the tree grows about twelvefold each:
#: 4 repetitions, 33,930 leaves, take minutes of the LP's exact rounding).
MAX_REPETITIONS = 4


def _sq(name: str) -> int:
    return parse_square(BOARD, name)


@cache
def _classic():
    c6 = _sq("c6")
    return classic_kpk(BOARD, files=[BOARD.coords(c6)[1]], from_rank=BOARD.coords(c6)[0])


def leaf_value(king: int, pawn: int, black: int) -> int:
    """1 if the classic KPK position (Black to move) is won for White, else 0."""
    return int(black_to_move(_classic(), king, pawn, black) < NO_WIN)


def magari_game(repetitions: int, rules: str = "english") -> tuple[ExtensiveGame, dict[str, Any]]:
    """The game of Magari's manoeuvre with at most ``repetitions`` visits of White's king
    to the sixth rank, as a zero-sum tree (player 1 White, payoff 1 for a win, 0 for a
    draw), with its size. The rule set is named (in KPK no announcement it governs
    occurs before a leaf: no pawn capture is ever possible, and the promotion and the
    captures lie beyond the leaves)."""
    rules = rule_set(rules)
    if not 1 <= repetitions <= MAX_REPETITIONS:
        raise InputError(f"repetitions: 1 to {MAX_REPETITIONS} (this tool's limit), got {repetitions}")
    c5, c6, c7 = _sq("c5"), _sq("c6"), _sq("c7")
    sides = {"b": (_sq("b6"), _sq("b7")), "d": (_sq("d6"), _sq("d7"))}
    leaves = [0]
    white_sets: set[str] = set()
    black_sets: set[str] = set()

    def name(s: int) -> str:
        return square_name(BOARD, s)

    def leaf(v: int) -> dict[str, Any]:
        leaves[0] += 1
        return {"payoff": v}

    def black_turn(rep: int, white: str, black: str, wk: int, bk: int, possible: list[int],
                   then: Any, refused: tuple[int, ...] = ()) -> dict[str, Any]:
        """Black moves from ``bk`` not knowing White's king among ``possible``: each step
        legal in some world is a try; a refused one is heard by both, and Black tries
        again. ``then(white, black, bk)`` continues after the move."""
        candidates = sorted({t for w in possible for t in black_steps(BOARD, w, "P", c6, bk)} - set(refused))
        key = f"{black}|{''.join('x' + name(t) for t in refused)}"
        black_sets.add(key)
        moves = {}
        for t in candidates:
            if t in black_steps(BOARD, wk, "P", c6, bk):
                tried = "".join("x" + name(r) for r in refused)  # Black remembers its refused tries
                moves[name(t)] = then(white + ("?" * len(refused)), f"{black} {tried}{name(t)}", t)
            else:
                moves[name(t)] = black_turn(rep, white, black, wk, bk, possible, then, (*refused, t))
        return {"player": 2, "infoset": key, "moves": moves}

    def repetition(rep: int, white: str, black: str) -> dict[str, Any]:
        # Black, on c7 with White's king on c5 (known: the diagram), goes to the eighth rank
        return black_turn(rep, white, black + f" r{rep}:", c5, c7, [c5],
                          lambda w, b, bk: white_side(rep, w, b, bk))

    def white_side(rep: int, white: str, black: str, bk: int) -> dict[str, Any]:
        key = f"{white} r{rep}:"
        white_sets.add(key)
        moves = {}
        for side, (sixth, seventh) in sides.items():
            assert not illegal_where(BOARD, c5, c6, ("K", sixth)) >> bk & 1  # never next to b8-d8
            moves[f"K{side}6"] = black_turn(
                rep, key + f" K{side}6", black + " moved", sixth, bk, [s for s, _ in sides.values()],
                lambda w, b, bk2, sixth=sixth, seventh=seventh: seventh_try(rep, w, b, sixth, seventh, bk2))
        return {"player": 1, "infoset": key, "moves": moves}

    def seventh_try(rep: int, white: str, black: str, sixth: int, seventh: int, bk: int) -> dict[str, Any]:
        if not illegal_where(BOARD, sixth, c6, ("K", seventh)) >> bk & 1:
            return leaf(leaf_value(seventh, c6, bk))  # the try is legal: White's king on the seventh
        key = white + " K7 refused"
        white_sets.add(key)
        c7_after = after_move(BOARD, sixth, "P", c7)
        push = leaf(0 if c7_after.capture_zone >> bk & 1 else leaf_value(sixth, c7, bk))
        moves = {"push": push}
        if rep > 1:
            moves["back"] = repetition(rep - 1, key + " back", black + " heard-illegal")
        return {"player": 1, "infoset": key, "moves": moves}

    root = repetition(repetitions, "", "")
    game = from_dict({"name": f"magari-{repetitions}", "root": root}, name=f"magari-{repetitions}")
    return game, {"leaves": leaves[0], "infosets": [len(white_sets), len(black_sets)],
                  "sequences": [len(s) for s in game.sequences], "rules": rules}


@dataclass(frozen=True)
class MagariRequest:
    """``kriegspiel magari``: the number of repetitions and the rule set."""

    repetitions: int
    rules: str = "english"

    @property
    def name(self) -> str:
        return f"magari-{self.repetitions} ({self.rules} rules)"


def read_magari(repetitions: int | None = None, rules: str | None = None) -> MagariRequest:
    """The request of the command line, checked (one line on a bad value)."""
    k = 1 if repetitions is None else repetitions
    if not 1 <= k <= MAX_REPETITIONS:
        raise InputError(f"repetitions: 1 to {MAX_REPETITIONS} (this tool's limit), got {k}")
    return MagariRequest(k, rule_set(rules or "english"))


def solve_magari_lp(request: MagariRequest, limits: Limits | None = None) -> Claim:
    """Backend ``lp``: the sequence-form LP of :func:`magari_game`, exact."""
    from pyasp_games.domains.zerosum.lp import solve_sequence_form

    limits = limits or Limits()
    game, stats = magari_game(request.repetitions, request.rules)
    claim = solve_sequence_form(game, limits)
    claim.stats = {**(claim.stats or {}), **stats}
    return claim


def check_magari(request: MagariRequest, outcome: Outcome) -> tuple[bool | None, str]:
    """The value and both behaviour strategies checked by exact best responses on the
    game tree, rebuilt here from the referee (not taken from the solver)."""
    from pyasp_games.domains.zerosum.verify import check_behaviour_certificate

    if outcome.status != "solved":
        return None, "nothing to verify"
    game, _ = magari_game(request.repetitions, request.rules)
    w = outcome.witness if isinstance(outcome.witness, dict) else {}
    try:  # a saved answer's fractions are strings
        value = Fraction(str(outcome.answer))
        plans = [{h: {a: Fraction(str(x)) for a, x in p.items()} for h, p in w.get(key, {}).items()}
                 for key in ("behaviour_I", "behaviour_II")]
    except (ValueError, ZeroDivisionError, AttributeError) as err:
        return False, f"the value or the strategies are not fractions ({err})"
    return check_behaviour_certificate(game, plans[0], plans[1], value)


def solve_magari(repetitions: int, rules: str = "english") -> dict[str, Any]:
    """White's best probability of winning with at most ``repetitions`` repetitions of
    the manoeuvre: the exact value of :func:`magari_game`, both behaviour strategies,
    checked by exact best responses.

    >>> out = solve_magari(1)  # doctest: +SKIP
    >>> out["value"], out["checked"]  # doctest: +SKIP
    (Fraction(1, 2), True)
    """
    from pyasp_games.domains.zerosum.lp import solve_sequence_form
    from pyasp_games.domains.zerosum.verify import check_behaviour_certificate

    game, stats = magari_game(repetitions, rules)
    claim = solve_sequence_form(game)
    if claim.status != "solved" or not isinstance(claim.answer, Fraction | int):
        raise RuntimeError(f"the LP found no exact answer ({claim.status})")
    white, black = claim.witness["behaviour_I"], claim.witness["behaviour_II"]
    ok, why = check_behaviour_certificate(game, white, black, claim.answer)
    return {"repetitions": repetitions, "rules": rules, "value": Fraction(claim.answer),
            "white": white, "black": black, "checked": ok, "check": why, **stats}
