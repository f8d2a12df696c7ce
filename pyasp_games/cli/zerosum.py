"""``pyasp-games zerosum``: two-person zero-sum games, solved exactly with a checked certificate.

``pyasp-games zerosum solve GAME [--backend simplex|lp|asp] [--time-limit S] [--json]``,
``zerosum saddle GAME``, ``zerosum reduce GAME [--weak] [--pure]``.

>>> sorted(b.value for b in Backend)
['asp', 'lp', 'simplex']
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

import typer

from pyasp_games.cli.common import (
    JSON,
    TIME_LIMIT,
    limits,
    new_file,
    print_json,
    report_error,
    verdict,
)
from pyasp_games.errors import InputError

app = typer.Typer(
    help="Two-person zero-sum games: exact values and optimal strategies, certified.",
    no_args_is_help=True,
)


class Backend(StrEnum):
    simplex = "simplex"
    lp = "lp"
    asp = "asp"


GAME = typer.Argument(
    ..., help="A game: a text matrix (see 'pyasp_games.zerosum.model') or a JSON game tree."
)


def _matrix(file: Path):
    from pyasp_games.zerosum.model import load_matrix

    if file.suffix == ".json":
        raise InputError(f"{file}: a game tree; this command takes a matrix game "
                         "(write the tree's matrix with 'zerosum normal-form')")
    return load_matrix(file)


def _strategy(names: tuple[str, ...] | list[str], probabilities: list) -> str:
    return "  ".join(f"{n}={p}" for n, p in zip(names, probabilities, strict=True) if p)


@app.command()
def solve(
    file: Path = GAME,
    backend: Backend = typer.Option(Backend.simplex, "--backend", "-b", help="Which solver."),
    reduced: bool = typer.Option(
        False, "--reduced", help="simplex on a tree: the reduced normal form."),
    time_limit: float = TIME_LIMIT,
    json: bool = JSON,
) -> None:
    """The value and optimal strategies of both players, checked exactly.

    A tree (.json) is solved by its normal form (simplex) or its sequence form (lp).
    With --json: answer the value (a fraction as text), witness the strategies.
    """
    from pyasp_games.zerosum import ExtensiveGame, load_game
    from pyasp_games.zerosum import solve as run

    lim = limits(time_limit)
    game = load_game(file)
    options = {}
    if reduced:
        if not isinstance(game, ExtensiveGame) or backend is not Backend.simplex:
            raise InputError("--reduced applies to a game tree with --backend simplex")
        options["reduced"] = True
    outcome = run(game, backend.value, lim, **options)
    if json:
        print_json(outcome.to_dict())
        raise typer.Exit(outcome.exit_code)
    exact = outcome.stats.get("exact", True)
    sizes = outcome.stats.get("normal_form") or outcome.stats.get("sequences")
    check = verdict(outcome)
    typer.echo(f"{outcome.problem}: {outcome.status} ({outcome.backend}, "
               f"{outcome.seconds:.3f} s, {check})")
    if outcome.status == "solved":
        witness = outcome.witness
        if not exact:
            typer.echo(f"  value ~ {outcome.answer} (APPROXIMATE: floating point, not certified)")
        else:
            approx = "" if outcome.answer.denominator < 10**6 else f" ~ {float(outcome.answer):.9f}"
            typer.echo(f"  value {outcome.answer}{approx}")
        if "normal_form" in outcome.stats:
            typer.echo(f"  normal form: {sizes[0]} x {sizes[1]} pure strategies")
        elif "sequences" in outcome.stats:
            typer.echo(f"  sequence form: {sizes[0]} x {sizes[1]} sequences")
        if outcome.status == "solved" and "row" in witness:
            typer.echo(f"  I  (rows): {_strategy(game.rows, witness['row'])}")
            typer.echo(f"  II (cols): {_strategy(game.cols, witness['col'])}")
        for who in ("I", "II"):
            plan = witness.get(f"behaviour_{who}")
            if plan is not None:
                typer.echo(f"  {who} behaviour strategy:")
                for infoset, probs in plan.items():
                    shown = "  ".join(f"{a}={p}" for a, p in probs.items() if p)
                    typer.echo(f"    {infoset}: {shown}")
        if outcome.stats.get("verification"):
            typer.echo(f"  {outcome.stats['verification']}")
        if "row" in witness and game.shape == (2, 2):
            from pyasp_games.zerosum.native import closed_form_2x2

            v, x, y = closed_form_2x2(game.matrix)
            typer.echo(f"  2x2 closed form: value {v}, I ({', '.join(map(str, x))}), "
                       f"II ({', '.join(map(str, y))})")
    report_error(outcome)
    raise typer.Exit(outcome.exit_code)


class Method(StrEnum):
    native = "native"
    asp = "asp"


METHOD = typer.Option(Method.native, "--backend", "-b", help="native, or the ASP encoding.")


@app.command()
def saddle(file: Path = GAME, backend: Method = METHOD, json: bool = JSON) -> None:
    """Pure saddle points: row minimum and column maximum at once (that entry is the value)."""
    from pyasp_games.zerosum.asp import saddle_points_asp
    from pyasp_games.zerosum.native import saddle_points

    game = _matrix(file)
    points = saddle_points(game.matrix) if backend is Method.native else saddle_points_asp(game)
    if json:
        print_json({"problem": game.name, "saddle_points": [
            {"row": game.rows[i], "col": game.cols[j], "value": str(game.matrix[i][j])}
            for i, j in points]})
        return
    if not points:
        low = max(min(row) for row in game.matrix)
        high = min(max(col) for col in zip(*game.matrix, strict=True))
        typer.echo(f"{game.name}: no saddle point (maximin {low} < minimax {high}: "
                   "the value lies between, in mixed strategies)")
        return
    typer.echo(f"{game.name}: {len(points)} saddle point(s), value {game.matrix[points[0][0]][points[0][1]]}")
    for i, j in points:
        typer.echo(f"  ({game.rows[i]}, {game.cols[j]}) = {game.matrix[i][j]}")


@app.command()
def reduce(
    file: Path = GAME,
    weak: bool = typer.Option(False, "--weak", help="Weak dominance too (may lose optimal strategies)."),
    pure: bool = typer.Option(False, "--pure", help="Only domination by pure strategies."),
    backend: Method = METHOD,
    time_limit: float = TIME_LIMIT,
    json: bool = JSON,
) -> None:
    """Iterated elimination of dominated strategies; prints each step and the reduced game.

    --backend asp runs encodings/zerosum/dominance.lp (strict, pure strategies only).
    """
    from pyasp_games.engines.limits import LimitReached
    from pyasp_games.zerosum.asp import dominance_asp
    from pyasp_games.zerosum.model import format_matrix
    from pyasp_games.zerosum.native import Reduction, closed_form_2x2, iterated_dominance

    lim = limits(time_limit)
    game = _matrix(file)
    try:
        if backend is Method.asp:
            if weak:
                raise InputError("--backend asp eliminates strictly dominated strategies only")
            found = dominance_asp(game, lim)
            steps = [{"player": p, "removed": k, "by": {by: 1}, "kind": "strict"}
                     for p, k, by, _round in found["steps"]]
            red = Reduction(found["rows"], found["cols"], steps)
        else:
            red = iterated_dominance(game, strict=not weak, mixtures=not pure,
                                     deadline=lim.deadline())
    except LimitReached:
        typer.echo(f"{game.name}: unknown (time limit reached)")
        raise typer.Exit(3) from None
    reduced = game.restrict(red.rows, red.cols)
    names = {"I": game.rows, "II": game.cols}
    if json:
        print_json({"problem": game.name, "rows": [game.rows[i] for i in red.rows],
                    "cols": [game.cols[j] for j in red.cols],
                    "steps": [{"player": s["player"], "removed": names[s["player"]][s["removed"]],
                               "kind": s["kind"],
                               "by": {names[s["player"]][k]: str(p) for k, p in s["by"].items()}}
                              for s in red.steps]})
        return
    typer.echo(f"{game.name}: {game.shape[0]}x{game.shape[1]} -> "
               f"{reduced.shape[0]}x{reduced.shape[1]}")
    for s in red.steps:
        who = names[s["player"]]
        by = " + ".join(who[k] if p == 1 else f"{p} {who[k]}" for k, p in s["by"].items())
        how = {"strict": "strictly dominated by", "weak": "weakly dominated by",
               "weak, by a mixture": "weakly dominated by the mixture"}.get(
            s["kind"], "strictly dominated by the mixture")
        typer.echo(f"  {s['player']}: {who[s['removed']]} is {how} {by}")
    typer.echo("reduced game:")
    for line in format_matrix(reduced).splitlines():
        typer.echo(f"  {line}")
    if reduced.shape == (2, 2):
        v, x, y = closed_form_2x2(reduced.matrix)
        typer.echo(f"2x2 closed form: value {v}, I ({', '.join(map(str, x))}), "
                   f"II ({', '.join(map(str, y))})")


class Family(StrEnum):
    kuhn = "kuhn"
    leduc = "leduc"
    matrix = "matrix"


@app.command()
def generate(
    family: Family = typer.Argument(..., help="kuhn (k cards), leduc, or a random matrix."),
    cards: int = typer.Option(3, "--cards", help="kuhn: the number of cards."),
    size: int = typer.Option(10, "--size", help="matrix: rows and columns."),
    low: int = typer.Option(-100, "--low", help="matrix: the smallest entry."),
    high: int = typer.Option(100, "--high", help="matrix: the largest entry."),
    seed: int = typer.Option(0, "--seed", help="matrix: the random seed."),
    output: Path = typer.Option(None, "--output", "-o", help="Write here (default stdout)."),
    force: bool = typer.Option(False, "--force", help="Overwrite --output."),
) -> None:
    """Write a game: Kuhn poker or Leduc hold'em as a JSON tree, or a random matrix game."""
    import json as json_module

    from pyasp_games.zerosum.model import format_matrix, random_matrix
    from pyasp_games.zerosum.poker import kuhn_tree, leduc_tree

    new_file(output, force, "--output")
    if family is Family.matrix:
        text = format_matrix(random_matrix(size, size, low, high, seed))
    else:
        tree = kuhn_tree(cards) if family is Family.kuhn else leduc_tree()
        text = json_module.dumps(tree, indent=1) + "\n"
    if output is None:
        typer.echo(text, nl=False)
    else:
        output.write_text(text)


@app.command("normal-form")
def normal_form_command(
    file: Path = GAME,
    reduced: bool = typer.Option(False, "--reduced", help="The reduced normal form."),
    output: Path = typer.Option(None, "--output", "-o", help="Write here (default stdout)."),
    force: bool = typer.Option(False, "--force", help="Overwrite --output."),
) -> None:
    """A game tree's (reduced) normal form as a text matrix (strategies named set:action)."""
    from pyasp_games.zerosum.extensive import load_extensive, normal_form
    from pyasp_games.zerosum.model import format_matrix

    new_file(output, force, "--output")
    nf, _, _ = normal_form(load_extensive(file), reduced)
    text = format_matrix(nf)
    if output is None:
        typer.echo(text, nl=False)
    else:
        output.write_text(text)


#: The most steps of value iteration asked for at once.
MAX_ITERATIONS = 100_000


@app.command()
def stochastic(
    file: Path = typer.Argument(..., help="A stochastic/recursive game (JSON, see "
                                "'pyasp_games.zerosum.stochastic')."),
    iterations: int = typer.Option(50, "--iterations", "-n", help="Steps of value iteration."),
    time_limit: float = TIME_LIMIT,
    json: bool = JSON,
) -> None:
    """Shapley's value iteration, with the exact value bracket its strategies certify.

    The bracket (lower, upper): what I's stationary strategy guarantees and what II's
    concedes, each against every pure stationary reply; stopping games also get
    Shapley's error bound.
    """
    from pyasp_games.zerosum.stochastic import load_stochastic, shapley_iteration

    if not 0 <= iterations <= MAX_ITERATIONS:  # every step's values are kept
        raise InputError(f"--iterations must be from 0 to {MAX_ITERATIONS:,}, got {iterations}")
    lim = limits(time_limit)
    game = load_stochastic(file)
    result = shapley_iteration(game, iterations, lim)
    code = 3 if result.status == "unknown" else 0
    last = result.values[-1]
    if json:
        print_json({"problem": game.name, "status": result.status, "iterations":
                    len(result.values) - 1, "values": {s: str(v) for s, v in last.items()},
                    "lower": _text(result.lower), "upper": _text(result.upper),
                    "shapley_bound": _text(result.shapley_bound), "notes": result.notes,
                    "row": {s: [str(p) for p in x] for s, x in result.row.items()},
                    "col": {s: [str(p) for p in y] for s, y in result.col.items()}})
        raise typer.Exit(code)
    typer.echo(f"{game.name}: {result.status} ({len(result.values) - 1} iterations of Shapley's "
               "value iteration from 0)")
    for s, v in last.items():
        typer.echo(f"  v_n({s}) = {_show(v)}")
    if result.status == "solved":
        for s in game.states:
            typer.echo(f"  {s}: I  {', '.join(map(str, result.row[s]))}")
            typer.echo(f"  {s}: II {', '.join(map(str, result.col[s]))}")
        if result.lower is not None:
            typer.echo(f"  from {game.start}: I's strategy guarantees {_show(result.lower)}, "
                       f"II's concedes {_show(result.upper)} (exact, against every pure "
                       "stationary reply)")
        for note in result.notes:
            typer.echo(f"  {note}")
    else:
        typer.echo("  time limit reached: no bracket")
    raise typer.Exit(code)


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _show(value: object) -> str:
    from fractions import Fraction

    if isinstance(value, Fraction) and value.denominator > 10**6:
        return f"{float(value):.9f} (exactly {value})"
    return str(value)
