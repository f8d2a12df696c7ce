"""The questions the zerosum domain answers, declared once (``pyasp-games zerosum ...``).

- ``solve``: the value and optimal strategies of a matrix game or a game tree, by the
  simplex tableau's pivot method (``simplex``), HiGHS made exact (``lp``) or supports
  guessed by clingo (``asp``); every certificate is checked exactly.
- ``saddle``: the pure saddle points (``native`` or ``saddle.lp``), checked complete.
- ``reduce``: iterated elimination of dominated strategies (``native``, or strict
  dominance by pure strategies in ``dominance.lp``), every step replayed exactly.
- ``stochastic``: Shapley's value iteration on a stochastic or recursive game, with the
  exact bracket of the value its stationary strategies certify.

>>> from pyasp_games.domains.zerosum.model import make_game
>>> game = make_game([[3, 1], [4, 2]], name="g")
>>> out = SADDLE.ask(game, "asp")
>>> out.answer, out.witness, out.verdict.verified
(Fraction(2, 1), [[1, 1]], True)
>>> describe_dominance(game, REDUCE.ask(game), {})[0]
'2x2 -> 1x1'
>>> describe_solution(game, SOLVE.ask(game, "lp"), {})[0]
'value 2'
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import wraps
from pathlib import Path
from typing import Any

from pyasp_games.domains.zerosum.asp import solve_asp, solve_dominance_asp, solve_saddle_asp
from pyasp_games.domains.zerosum.extensive import ExtensiveGame, load_extensive
from pyasp_games.domains.zerosum.lp import solve_lp, solve_sequence_form
from pyasp_games.domains.zerosum.model import MatrixGame, format_matrix, load_matrix
from pyasp_games.domains.zerosum.native import (
    closed_form_2x2,
    solve_dominance,
    solve_normal_form,
    solve_saddle,
    solve_simplex,
)
from pyasp_games.domains.zerosum.recall import solve_imperfect_recall
from pyasp_games.domains.zerosum.stochastic import load_stochastic, solve_stochastic
from pyasp_games.domains.zerosum.verify import (
    approximate,
    check_dominance,
    check_outcome,
    check_saddle_points,
    check_value_iteration,
    revive,
)
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import EMIT_LP, Param, Question, encoding_param
from pyasp_games.engines.reference import Reference
from pyasp_games.errors import InputError

Game = MatrixGame | ExtensiveGame


def load_game(path: Path | str) -> Game:
    """Read a zero-sum game file of any of the formats the domain takes.

    Parameters
    ----------
    path : Path or str
        A game file: Gambit's ``.nfg`` (a matrix game) or ``.efg`` (a tree), recognised by
        its first line whatever its name; ``.json``, an extensive-form tree; anything
        else, a text matrix (one row a line, the row player's payoffs).

    Returns
    -------
    MatrixGame or ExtensiveGame
        The game, named after the file.

    Raises
    ------
    InputError
        The file is missing or unreadable, or is no game of its format (ragged rows,
        non-numbers, a malformed tree or Gambit file), with one sentence naming it.

    Notes
    -----
    Linear in the file's size.
    """
    from pyasp_games.domains.zerosum.gambit import load_gambit, sniff

    path = Path(path)
    if path.suffix == ".toml":  # a typed (Bayesian) game
        from pyasp_games.domains.zerosum.bayesian import load_typed

        return load_typed(path)
    if sniff(path):
        return load_gambit(path)
    if path.suffix == ".json":
        return load_extensive(path)
    return load_matrix(path)


def load_matrix_game(path: Path | str) -> MatrixGame:
    """A matrix game file (text or ``.nfg``); a tree (``.json``, ``.efg``) is refused
    with the command that converts it."""
    game = load_game(path)
    if isinstance(game, ExtensiveGame):
        raise InputError(f"{path}: a game tree; this command takes a matrix game "
                         "(write the tree's matrix with 'zerosum normal-form')")
    return game


def _simplex(game: Game, limits: Limits = Limits(), reduced: bool = False,
             steps: bool = False) -> Claim:
    # a tree goes through its (reduced) normal form
    if isinstance(game, ExtensiveGame):
        if steps:
            raise InputError("--steps applies to a matrix game (write the tree's matrix with "
                             "'zerosum normal-form' and solve that)")
        if game.recall is not None:  # mixed strategies: Kuhn's theorem fails
            return solve_imperfect_recall(game, limits, reduced=reduced)
        return solve_normal_form(game, limits, reduced=reduced)
    if reduced:
        raise InputError("--reduced applies to a game tree (a matrix is its own normal form)")
    return solve_simplex(game, limits, steps=steps)


def _lp(game: Game, limits: Limits = Limits()) -> Claim:
    # a tree goes through its sequence form
    if isinstance(game, ExtensiveGame):
        return solve_sequence_form(game, limits)
    return solve_lp(game, limits)


def constant_sum(backend: Callable[..., Claim]) -> Callable[..., Claim]:
    """``backend`` whose claim on a constant-sum game says so in its statistics
    (``stats["constant_sum"]``: what the two payoffs add up to; the answer is player 1's
    value, player 2's is the constant minus it), for every backend in one place."""

    @wraps(backend)
    def run(game: Game, limits: Limits = Limits(), **options: Any) -> Claim:
        claim = backend(game, limits, **options)
        if getattr(game, "constant", 0):
            claim.stats["constant_sum"] = str(game.constant)
        return claim

    return run


#: The backends of ``solve``: ``backend(game, limits, **options) -> Claim``.
BACKENDS: dict[str, Callable[..., Claim]] = {
    name: constant_sum(backend)
    for name, backend in {"simplex": _simplex, "lp": _lp, "asp": solve_asp}.items()
}


def _strategy(names: tuple[str, ...], probabilities: list[Fraction]) -> str:
    return "  ".join(f"{n}={p}" for n, p in zip(names, probabilities, strict=True) if p)


def _closed_form(matrix: Any) -> str:
    v, x, y = closed_form_2x2(matrix)
    return f"2x2 closed form: value {v}, I ({', '.join(map(str, x))}), II ({', '.join(map(str, y))})"


def _show(value: Any) -> str:
    """An exact number, with its decimal when the fraction is long."""
    if isinstance(value, Fraction) and value.denominator > 10**6:
        return f"{decimal(value)} (exactly {value})"
    return str(value)


def decimal(value: Fraction, digits: int = 10) -> str:
    """``value`` to ``digits`` significant digits, whatever its size (a float cannot
    hold 10^500).

    >>> decimal(Fraction(2, 3)), decimal(Fraction(10**500, 3))
    ('0.6666666667', '3.333333333E+499')
    """
    from decimal import Context

    context = Context(prec=digits)
    return str(context.divide(context.create_decimal(value.numerator), value.denominator))


def describe_solution(game: Game, outcome: Outcome, options: dict[str, Any]) -> tuple[str | None, list[str]]:
    """The formatter of ``solve``: the value, then the sizes, the strategies, the check."""
    if outcome.status != "solved":
        return None, []
    value = outcome.answer
    if approximate(outcome):
        said = f"value ~ {value} (APPROXIMATE: floating point, not certified)"
    else:
        approx = "" if value.denominator < 10**6 else f" ~ {decimal(value)}"
        said = f"value {value}{approx}"
    witness, lines = outcome.witness or {}, []
    constant = getattr(game, "constant", 0)
    if constant:  # solved as zero-sum on player 1's payoffs: say so, and player 2's share
        lines.append(
            f"  constant-sum: the payoffs add up to {constant} in every outcome, so the game is "
            f"zero-sum on player 1's; player 2's value is {constant} - {value} = {constant - value}"
        )
    if "normal_form" in outcome.stats:
        rows, cols = outcome.stats["normal_form"]
        lines.append(f"  normal form: {rows} x {cols} pure strategies")
    elif "sequences" in outcome.stats:
        rows, cols = outcome.stats["sequences"]
        lines.append(f"  sequence form: {rows} x {cols} sequences")
    if "tableaux" in outcome.stats:
        lines += describe_steps(game, outcome.stats)
    if "row" in witness:
        lines.append(f"  I  (rows): {_strategy(game.rows, witness['row'])}")
        lines.append(f"  II (cols): {_strategy(game.cols, witness['col'])}")
    if "imperfect_recall" in outcome.stats:
        lines.append(f"  {outcome.stats['imperfect_recall']}: mixed strategies over the "
                     "normal form")
        for who in ("I", "II"):
            mix = "  ".join(f"({' '.join(f'{h}:{a}' for h, a in m['plan'].items())})={m['p']}"
                            for m in witness.get(f"mixed_{who}", []))
            lines.append(f"  {who} (mixed): {mix}")
        for who, bracket in witness.get("behaviour", {}).items():
            plan = "  ".join(f"{h}: " + " ".join(f"{a}={p}" for a, p in probs.items() if p)
                             for h, probs in bracket["at"].items())
            low, high = bracket["lower"], bracket["upper"]
            if low == high:
                shown = f"exactly {low}"
            else:
                near = high if who == "I" else low
                shown = f"in [{low}, {high}] (~ {decimal(Fraction(near), 6)})"
            word = "guarantee" if who == "I" else "concession"
            lines.append(f"  {who}'s best behaviour {word} {shown}, by {plan}")
        lines += [f"  {note}" for note in outcome.stats.get("notes", [])]
    typed = getattr(game, "bayesian", None)
    if typed:
        lines.append(f"  {typed}")
    for who in ("I", "II"):
        plan = witness.get(f"behaviour_{who}")
        if plan is not None:
            lines.append(f"  {who}'s types, each one's strategy:" if typed
                         else f"  {who} behaviour strategy:")
            for infoset, probs in plan.items():
                shown = "  ".join(f"{a}={p}" for a, p in probs.items() if p)
                lines.append(f"    {infoset}: {shown}")
    if outcome.verdict.message:
        lines.append(f"  {outcome.verdict.message}")
    if "row" in witness and game.shape == (2, 2):
        lines.append(f"  {_closed_form(game.matrix)}")
    return said, lines


def _grid(rows: list[list[str]], top: list[str], left: list[str]) -> list[str]:
    """A tableau as aligned text: labels on top and left, the bottom border unlabelled."""
    cells = [["", *top, ""]] + [[a, *r] for a, r in zip([*left, ""], rows, strict=True)]
    width = max(len(c) for row in cells for c in row)
    return ["      " + "  ".join(c.rjust(width) for c in row) for row in cells]


def describe_steps(game: MatrixGame, stats: dict[str, Any]) -> list[str]:
    """The seven steps of the tableau method (``--steps``), from ``stats["tableaux"]``."""
    record = stats["tableaux"]
    first, last = record[0], record[-1]
    lines = [f"  Step 1: add {first['shift']} to every entry (the smallest is {first['smallest']}), "
             "so the value is positive; subtract it at the end"
             if first["shift"] != "0" else
             f"  Step 1: every entry is positive already (the smallest is {first['smallest']})"]
    for k, tab in enumerate(record[1:-1]):
        if k == 0:
            lines.append("  Step 2: the tableau: the matrix, 1 on the right, -1 below, 0 in the corner")
        elif k == 1:
            lines.append("  Steps 4-5: pivot (4a: a_ij - a_pj a_iq / a_pq; 4b: the pivot row / "
                         "pivot; 4c: the pivot column, negated, / pivot; 4d: the pivot's "
                         "reciprocal), labels exchanged")
        else:
            lines.append(f"  Steps 4-5: pivot {k}")
        lines += _grid(tab["rows"], tab["top"], tab["left"])
        if "pivot" in tab:
            p, q = tab["pivot"]
            ratios = ", ".join(f"{r} {v}" for r, v in tab["ratios"].items())
            lines.append(f"  Step 3: pivot column {tab['top'][q]} (bottom {tab['rows'][-1][q]} < 0),"
                         f" row {tab['left'][p]} (ratios right/pivot: {ratios}; the smallest): "
                         f"pivot {tab['rows'][p][q]}; exchange {tab['left'][p]} and {tab['top'][q]}")
        else:
            lines.append("  Step 6: no negative entry left in the bottom row: step 7")
    value, shift, corner = Fraction(last["value"]), Fraction(first["shift"]), last["corner"]
    said = f"1/({corner})" + (f" - {shift}" if shift else "")
    lines.append(f"  Step 7: the value is 1/corner{' - shift' if shift else ''} = {said} = {value};")
    final = record[-2]
    read = [f"{a} = ({b})/({corner}) = {Fraction(b) / Fraction(corner)}"
            for a, b in zip(final["top"], final["rows"][-1], strict=False) if a.startswith("x")]
    read += [f"{a} = ({r[-1]})/({corner}) = {Fraction(r[-1]) / Fraction(corner)}"
             for a, r in zip(final["left"], final["rows"], strict=False) if a.startswith("y")]
    lines.append(f"    I's x_i on top get bottom/corner, II's y_j on the left right/corner, the "
                 f"others 0: {', '.join(read)}")
    return lines


def describe_saddle(game: MatrixGame, outcome: Outcome, options: dict[str, Any]) -> tuple[str | None, list[str]]:
    """The formatter of ``saddle``: the value and every saddle point, or why there is none."""
    if outcome.status == "no-solution":
        low = max(min(row) for row in game.matrix)
        high = min(max(col) for col in zip(*game.matrix, strict=True))
        return "no saddle point", [f"  maximin {low} < minimax {high}: the value lies between, "
                                   "in mixed strategies"]
    if outcome.status != "solved":
        return None, []
    points = outcome.witness
    said = f"value {outcome.answer}, {len(points)} saddle point{'' if len(points) == 1 else 's'}"
    return said, [f"  ({game.rows[i]}, {game.cols[j]}) = {game.matrix[i][j]}" for i, j in points]


_HOW = {"strict": "strictly dominated by", "weak": "weakly dominated by",
        "weak, by a mixture": "weakly dominated by the mixture",
        "strict, by a mixture": "strictly dominated by the mixture"}


def describe_dominance(game: MatrixGame, outcome: Outcome, options: dict[str, Any]) -> tuple[str | None, list[str]]:
    """The formatter of ``reduce``: the sizes, each elimination, the reduced game."""
    if outcome.status != "solved":
        return None, []
    witness = outcome.witness
    reduced = game.restrict(witness["rows"], witness["cols"])
    said = f"{game.shape[0]}x{game.shape[1]} -> {reduced.shape[0]}x{reduced.shape[1]}"
    names = {"I": game.rows, "II": game.cols}
    lines = []
    for step in witness["steps"]:
        who = names[step["player"]]
        by = " + ".join(who[k] if p == 1 else f"{p} {who[k]}" for k, p in step["by"].items())
        lines.append(f"  {step['player']}: {who[step['removed']]} is {_HOW[step['kind']]} {by}")
    lines.append("  reduced game:")
    lines += [f"    {line}" for line in format_matrix(reduced).splitlines()]
    if reduced.shape == (2, 2):
        lines.append(f"  {_closed_form(reduced.matrix)}")
    if outcome.verdict.message:
        lines.append(f"  {outcome.verdict.message}")
    return said, lines


def _family_text(x0: list[Any], x1: list[Any]) -> str:
    """``(1 - e) x0 + e x1`` componentwise, as polynomials in ``e``."""
    from pyasp_games.domains.zerosum.polynomial import Poly

    return "(" + ", ".join(str(Poly.of(a, Fraction(b) - Fraction(a))) for a, b in
                           zip(x0, x1, strict=True)) + ")"


def describe_iteration(game: Any, outcome: Outcome, options: dict[str, Any]) -> tuple[str | None, list[str]]:
    """The formatter of ``stochastic``: the value ('optimal', or an e-optimal family) or
    the bracket, ``v_n``, the strategies, the notes."""
    if outcome.status != "solved":
        return None, []
    witness, bracket = outcome.witness, outcome.answer
    family = witness.get("family")
    if bracket is None:
        said = "no exact bracket"
    elif witness.get("optimal"):
        said = f"value {_show(bracket[0])}, optimal"
    elif family is not None and "x0_guarantees" in family:
        said = f"value {_show(bracket[0])}, no optimal stationary strategy: an e-optimal family"
    elif family is not None:
        said = f"value {_show(bracket[0])}: an e-optimal family"
    elif bracket[0] == bracket[1]:
        said = f"value {_show(bracket[0])}"
    else:
        said = f"value in [{_show(bracket[0])}, {_show(bracket[1])}]"
    start = getattr(game, "infinite", 0)
    lines = [f"  {witness['iterations']} iterations of Shapley's value iteration from {start}"]
    lines += [f"  v_n({s}) = {_show(v)}" for s, v in witness["values"].items()]
    for s in witness["row"]:
        lines.append(f"  {s}: I  {', '.join(map(str, witness['row'][s]))}")
        lines.append(f"  {s}: II {', '.join(map(str, witness['col'][s]))}")
    if family is not None:
        from pyasp_games.domains.zerosum.polynomial import Poly

        for s in family["x0"]:
            lines.append(f"  {s}: I's family x(e) = {_family_text(family['x0'][s], family['x1'][s])}")
        lines.append(f"  from {game.start}: the family guarantees exactly {family['guarantee']} for "
                     f"small e, at least {Poly.of(bracket[0], -Fraction(family['K']))} for every e in (0, "
                     f"{family['e0']}]; II's strategy concedes {bracket[1]} (optimal)")
        if "x0_guarantees" in family:
            (s,) = family["x0"]
            lines.append(f"  its limit x0 = ({', '.join(map(str, family['x0'][s]))}) is the only "
                         f"optimal strategy of the stage game at the value and guarantees only "
                         f"{family['x0_guarantees']}: no stationary strategy of I is optimal")
    elif bracket is not None:
        lines.append(f"  from {game.start}: I's strategy guarantees {_show(bracket[0])}, II's "
                     f"concedes {_show(bracket[1])} (exact, against every pure stationary reply)")
    lines += [f"  {note}" for note in outcome.stats.get("notes", [])]
    return said, lines


#: The matrix formats, in words (the help of every command that reads a matrix game).
MATRIX_FORMATS = (
    "a text matrix (one row per line; entries integers, fractions 3/2 or decimals; "
    "the entry is what the column player pays the row player; '# rows: a b', "
    "'# cols: x y' name the strategies) or Gambit's .nfg (two players, zero-sum)"
)
GAME = Param(
    "file",
    help=f"A game: {MATRIX_FORMATS}; or a tree: Gambit's .efg (two players, zero-sum), or "
    'JSON {"root": NODE} with NODE a leaf {"payoff": x}, chance {"chance": {"label": '
    '{"p": "1/2", "next": NODE}}} or a move {"player": 1, "infoset": "J", "moves": '
    '{"bet": NODE}} (without perfect recall: solved in mixed strategies by simplex); or a '
    'typed (Bayesian) game, JSON or .toml {"types": {"I": {"I.1": {"prior": "1/2", '
    '"actions": [...]}, ...}, "II": {...}}, "payoffs": {"I.1": {"II.1": TABLE}}}, solved '
    "by its Harsanyi tree.",
    type=Path,
    to="read",
)
MATRIX = Param("file", help=f"A matrix game: {MATRIX_FORMATS}.", type=Path, to="read")

SOLVE = Question(
    "solve",
    "The value and optimal strategies of both players, checked exactly.\n\n"
    "A tree (.json, .efg) is solved by its normal form (simplex) or its sequence form (lp). "
    "With --json: answer the value (a fraction as text), witness the strategies.",
    backends=BACKENDS,
    check=check_outcome,
    read=lambda file: load_game(file),
    describe=describe_solution,
    params=(
        GAME,
        Param("reduced", "--reduced", "on a tree: the reduced normal form.", type=bool,
              backends=("simplex",)),
        Param("steps", "--steps", "print the simplex tableaux and each pivot, in fractions "
              "(a matrix game).", type=bool, backends=("simplex",)),
    ),
    emits=(EMIT_LP,),
    revive=revive,
)

SADDLE = Question(
    "saddle",
    "Pure saddle points: row minimum and column maximum at once (that entry is the value).\n\n"
    "With --json: answer the value (none: null), witness the saddle points as 0-based "
    "[row, col] pairs.",
    backends={"native": solve_saddle, "asp": solve_saddle_asp},
    check=check_saddle_points,
    read=lambda file: load_matrix_game(file),
    describe=describe_saddle,
    params=(
        MATRIX,
        encoding_param("a bundled encoding (saddle) or an .lp file (encodings/zerosum/README.md "
                       "gives the predicates).", default="saddle"),
    ),
    emits=(EMIT_LP,),
    # a user's 'no saddle point' (and its value) is confirmed by the native search
    reference=Reference("zerosum", lambda game, options: ("native", {}),
                        needs_check=lambda outcome: outcome.status in ("solved", "no-solution")),
    revive=revive,
)

REDUCE = Question(
    "reduce",
    "Iterated elimination of dominated strategies; prints each step and the reduced game.\n\n"
    "--backend asp runs encodings/zerosum/dominance.lp (strict, pure strategies only). Every "
    "elimination is replayed exactly. With --json: answer the reduced game's shape, witness "
    "the surviving rows and cols and the steps (0-based strategies).",
    backends={"native": solve_dominance, "asp": solve_dominance_asp},
    check=check_dominance,
    read=lambda file: load_matrix_game(file),
    describe=describe_dominance,
    params=(
        MATRIX,
        Param("weak", "--weak", "weak dominance too (may lose optimal strategies).", type=bool,
              backends=("native",)),
        Param("pure", "--pure", "only domination by pure strategies.", type=bool,
              backends=("native",)),
    ),
    emits=(EMIT_LP,),
    revive=revive,
)

STOCHASTIC = Question(
    "stochastic",
    "Shapley's value iteration, with the exact value bracket its strategies certify.\n\n"
    "'value v, optimal': both stationary strategies are optimal; 'value v, ... an e-optimal "
    "family': II's strategy concedes v and I's family x(e) guarantees at least v - K e for "
    "every e in (0, e0] (each exactly, as a function of e). "
    "The bracket (lower, upper): what I's stationary strategy guarantees and what II's "
    "concedes, each against every pure stationary reply; stopping games also get Shapley's "
    "error bound. With --json: answer the bracket, witness the iterations, the last values "
    "and the strategies, certificate each step's stage strategies (the checker replays the "
    "iterates from them).",
    backends={"shapley": solve_stochastic},
    check=check_value_iteration,
    read=lambda file: load_stochastic(file),
    describe=describe_iteration,
    params=(
        Param("file", help='A stochastic/recursive game, JSON {"start": "G", "states": '
              '{"G": MATRIX}}: a matrix entry is a number (paid, the game ends), a state '
              '(play goes on there) or {"payoff": r, "next": {"S": p}} (r paid, then state S '
              'with probability p, the end with 1 - sum p); "infinite": Q, what a play that '
              "never ends pays (default 0). Gambit's formats have no "
              "stochastic games.", type=Path, to="read"),
        Param("iterations", "--iterations -n", "steps of value iteration.", type=int, default=50),
    ),
    revive=revive,
)

#: The zerosum domain's questions.
QUESTIONS = (SOLVE, SADDLE, REDUCE, STOCHASTIC)
