"""Matrix games in ASP: saddle points, iterated dominance, and supports guessed by clingo.

Encodings live in ``encodings/zerosum/`` (see its README). The ``asp`` backend
enumerates the square submatrices that ``support.lp`` allows, solves the
indifference equations of each exactly (``sum_i x_i a_ij = v`` on the chosen
columns, ``sum_j a_ij y_j = v`` on the chosen rows, probabilities summing to 1)
and stops at the first pair whose certificate checks on the whole game.
Payoffs are scaled to integers by their common denominator (comparisons keep).

>>> from pyasp_games.domains.zerosum.model import make_game
>>> game = make_game([[-2, 3], [3, -4]])
>>> out = solve_asp(game)
>>> out.answer, [str(p) for p in out.witness["row"]], out.stats["supports_tried"]
(Fraction(1, 12), ['7/12', '5/12'], 1)
>>> saddle_points_asp(make_game([[3, 1], [4, 2]]))
[(1, 1)]
>>> dominance_asp(make_game([[3, 1], [4, 2]]))["rows"]
[1]
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm
from pathlib import Path
from typing import Any

from pyasp_games.domains.zerosum.model import MatrixGame, dominance_claim, saddle_claim
from pyasp_games.domains.zerosum.rational import solve_linear
from pyasp_games.domains.zerosum.verify import check_matrix_certificate
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.clingo_runner import ClingoSession, write_facts
from pyasp_games.engines.limits import Deadline, LimitReached, Limits
from pyasp_games.engines.resources import encoding_path
from pyasp_games.errors import InputError

DOMAIN = "zerosum"


def facts(game: MatrixGame) -> str:
    """``row/1``, ``col/1`` and ``pay(I,J,A)`` with integer ``A`` (scaled payoffs)."""
    scale = lcm(*(a.denominator for row in game.matrix for a in row))
    m, n = game.shape
    out = [f"row(0..{m - 1}).", f"col(0..{n - 1})."]
    out += [f"pay({i},{j},{int(a * scale)})." for i, row in enumerate(game.matrix)
            for j, a in enumerate(row)]
    return "\n".join(out) + "\n"


def write_lp(game: MatrixGame, encoding: str, path: Path | str | None) -> None:
    """Write the facts (``--emit-lp``; nothing when ``path`` is ``None``) with a line
    saying how to run them with the encoding."""
    if path is None:
        return
    write_facts(path, facts(game), [encoding_path(DOMAIN, encoding)], f"zerosum game {game.name}")


def _session(game: MatrixGame, encoding: str, deadline: Deadline) -> ClingoSession:
    session = ClingoSession([encoding_path(DOMAIN, encoding)], facts(game), deadline=deadline)
    session.ground([("base", [])])
    return session


def saddle_points_asp(game: MatrixGame, limits: Limits = Limits(),
                      encoding: str = "saddle") -> list[tuple[int, int]]:  # fmt: skip
    """The pure saddle points by ``saddle.lp`` (or ``encoding``: a bundled name or the
    user's file with its interface: 0-based, sorted)."""
    result = _session(game, encoding, limits.deadline()).solve()
    if result.status == "unknown":
        raise LimitReached
    return sorted((s.arguments[0].number, s.arguments[1].number) for s in result.symbols
                  if s.name == "saddle")


def dominance_asp(game: MatrixGame, limits: Limits = Limits()) -> dict[str, Any]:
    """Iterated strict dominance by pure strategies by ``dominance.lp``: the surviving rows
    and columns, and each removal as ``(player, removed, by, round)``."""
    result = _session(game, "dominance", limits.deadline()).solve()
    if result.status == "unknown":
        raise LimitReached
    out: dict[str, Any] = {"rows": [], "cols": [], "steps": []}
    for s in result.symbols:
        args = [a.number for a in s.arguments]
        if s.name == "keep_row":
            out["rows"].append(args[0])
        elif s.name == "keep_col":
            out["cols"].append(args[0])
        elif s.name in ("gone_row", "gone_col"):
            out["steps"].append(("I" if s.name == "gone_row" else "II", *args))
    out["rows"].sort()
    out["cols"].sort()
    out["steps"].sort(key=lambda step: (step[3], step[0], step[1]))
    return out


def solve_saddle_asp(
    game: MatrixGame, limits: Limits = Limits(), emit_lp: Path | str | None = None,
    encoding: str | None = None,
) -> Claim:
    """Backend ``asp`` of ``zerosum saddle``: :func:`saddle_points_asp` (``encoding``:
    the program, by default ``saddle``)."""
    write_lp(game, encoding or "saddle", emit_lp)
    return saddle_claim(game, saddle_points_asp(game, limits, encoding or "saddle"))


def solve_dominance_asp(
    game: MatrixGame, limits: Limits = Limits(), emit_lp: Path | str | None = None
) -> Claim:
    """Backend ``asp`` of ``zerosum reduce``: :func:`dominance_asp` (strict dominance by
    pure strategies, in rounds)."""
    write_lp(game, "dominance", emit_lp)
    found = dominance_asp(game, limits)
    steps = [{"player": p, "removed": k, "by": {by: Fraction(1)}, "kind": "strict", "round": r}
             for p, k, by, r in found["steps"]]
    return dominance_claim(found["rows"], found["cols"], steps)


def equalizing_pair(game: MatrixGame, rows: list[int], cols: list[int]
                    ) -> tuple[list[Fraction], list[Fraction]] | None:
    """Strategies on ``rows`` x ``cols`` that make the other player indifferent, or ``None``."""
    A = game.matrix
    xs = [({**{("x", i): A[i][j] for i in rows}, "v": -1}, 0) for j in cols]
    xs.append(({("x", i): 1 for i in rows}, 1))
    ys = [({**{("y", j): A[i][j] for j in cols}, "v": -1}, 0) for i in rows]
    ys.append(({("y", j): 1 for j in cols}, 1))
    sx, sy = solve_linear(xs), solve_linear(ys)
    if sx is None or sy is None:
        return None
    x = [sx.get(("x", i), Fraction(0)) for i in range(game.shape[0])]
    y = [sy.get(("y", j), Fraction(0)) for j in range(game.shape[1])]
    return x, y


def solve_asp(game: Any, limits: Limits = Limits(), emit_lp: Path | str | None = None) -> Claim:
    """Backend ``asp``: clingo guesses square supports, Python checks them exactly
    (``emit_lp``: write the facts first, :func:`write_lp`)."""
    from pyasp_games.domains.zerosum.model import MatrixGame

    if not isinstance(game, MatrixGame):
        raise InputError(f"{game.name}: the asp backend solves matrix games only "
                         "(solve a tree with --backend lp or simplex)")
    write_lp(game, "support", emit_lp)
    deadline = limits.deadline()
    session = _session(game, "support", deadline)
    tried = 0
    found: tuple[list[Fraction], list[Fraction]] | None = None
    control = session.control
    control.configuration.solve.models = 0  # enumerate until one checks
    with control.solve(yield_=True, async_=True) as handle:
        while True:
            handle.resume()
            if not deadline.wait_for(handle.wait):
                handle.cancel()
                return Claim.unknown({"limit": deadline.reached(), "supports_tried": tried})
            model = handle.model()
            if model is None:
                break
            symbols = model.symbols(shown=True)
            rows = sorted(s.arguments[0].number for s in symbols if s.name == "in_row")
            cols = sorted(s.arguments[0].number for s in symbols if s.name == "in_col")
            tried += 1
            pair = equalizing_pair(game, rows, cols)
            if pair is None:
                continue
            x, y = pair
            value = sum((game.matrix[i][j] * x[i] * y[j] for i in rows for j in cols),
                        Fraction(0))
            if check_matrix_certificate(game.matrix, x, y, value)[0]:
                found = pair
                break
        if found is None:
            handle.get()
    stats: dict[str, Any] = {"supports_tried": tried, "exact": True}
    if found is None:  # cannot happen (Shapley-Snow), but never claim what was not found
        return Claim.error("no guessed support passed the check", stats)
    x, y = found
    value = sum((a * x[i] * y[j] for i, row in enumerate(game.matrix) for j, a in enumerate(row)
                 if x[i] and y[j]), Fraction(0))
    stats["support"] = [sum(1 for p in x if p), sum(1 for q in y if q)]
    return Claim.solved(value, {"row": x, "col": y}, stats=stats)
