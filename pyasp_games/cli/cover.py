"""``pyasp-games cover``: exact cover (X3C and 3DM) by Algorithm X, ASP or SAT, verified.

``pyasp-games cover solve FILE --backend dlx|asp|sat|bitset [--all|--count] [--json]``.

>>> sorted(b.value for b in Backend)
['asp', 'bitset', 'dlx', 'sat']
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

import typer

from pyasp_games.cli.common import (
    JSON,
    MEMORY_LIMIT,
    TIME_LIMIT,
    TRUST_ENCODING,
    limits,
    new_file,
    print_json,
    report_error,
    trust_encoding,
    verdict,
)
from pyasp_games.errors import InputError

app = typer.Typer(
    help="Exact cover by 3-sets (X3C) and 3-dimensional matching (3DM).", no_args_is_help=True
)


class Backend(StrEnum):
    dlx = "dlx"
    asp = "asp"
    sat = "sat"
    bitset = "bitset"


FILE = typer.Argument(
    ..., help="An X3C or 3DM instance, text or JSON (see 'pyasp_games.cover.model')."
)


@app.command()
def solve(
    file: Path = FILE,
    backend: Backend = typer.Option(Backend.dlx, "--backend", "-b", help="Which solver."),
    all_covers: bool = typer.Option(False, "--all", help="List every cover (answer: the count)."),
    count: bool = typer.Option(False, "--count", help="Count the covers (answer: the count)."),
    encoding: str = typer.Option(
        None, "--encoding", help="asp: a bundled encoding (x3c, x3c-card) or an .lp file."
    ),
    solver: str = typer.Option(
        None, "--solver", help="sat: the PySAT solver (glucose4, cadical195, minisat22, ...)."
    ),
    card: str = typer.Option(
        None, "--card", help="sat: the at-most-one encoding (auto, pairwise, seqcounter, ...)."
    ),
    emit_lp: Path = typer.Option(None, "--emit-lp", help="asp: write the facts to run by hand."),
    emit_cnf: Path = typer.Option(None, "--emit-cnf", help="sat: write the CNF as DIMACS."),
    force: bool = typer.Option(False, "--force", help="Overwrite --emit-lp/--emit-cnf files."),
    trust: bool = TRUST_ENCODING,
    time_limit: float = TIME_LIMIT,
    memory_limit: float = MEMORY_LIMIT,
    json: bool = JSON,
) -> None:
    """Find an exact cover (or count/list them); every cover is verified before printing.

    With --json: answer true/false (or the count), witness the chosen subsets as
    0-based indices in input order (with --all: the list of covers).
    """
    from pyasp_games.cover import solve as run
    from pyasp_games.cover.asp import write_lp
    from pyasp_games.cover.model import load_instance

    if all_covers and count:
        raise InputError("--all and --count exclude each other")
    if encoding is not None and backend is not Backend.asp:
        raise InputError("--encoding applies to --backend asp only")
    if emit_lp is not None and backend is not Backend.asp:
        raise InputError("--emit-lp applies to --backend asp only")
    if (
        solver is not None or card is not None or emit_cnf is not None
    ) and backend is not Backend.sat:
        raise InputError("--solver, --card and --emit-cnf apply to --backend sat only")
    lim = limits(time_limit, memory_limit=memory_limit)
    new_file(emit_lp, force, "--emit-lp")
    new_file(emit_cnf, force, "--emit-cnf")
    instance = load_instance(file)
    options: dict = {"mode": "all" if all_covers else "count" if count else "first"}
    options.update(trust_encoding("cover", trust, encoding))
    if backend is Backend.asp:
        options["encoding"] = encoding or "x3c"
    if backend is Backend.sat:
        options["solver"] = solver or "glucose4"
        options["card"] = card or "auto"
        if emit_cnf is not None:
            options["emit_cnf"] = emit_cnf
    outcome = run(instance, backend.value, lim, **options)
    if emit_lp is not None:
        write_lp(instance, options["encoding"], emit_lp)
    if json:
        print_json(outcome.to_dict())
    else:
        _print_outcome(instance, outcome)
    raise typer.Exit(outcome.exit_code)


def _describe(instance, cover: list[int]) -> str:
    if hasattr(instance, "triples"):
        return "; ".join(
            f"{k}=({instance.W[w]} {instance.X[x]} {instance.Y[y]})"
            for k in cover
            for w, x, y in [instance.triples[k]]
        )
    return " ".join(map(str, cover))


def _print_outcome(instance, outcome) -> None:
    verified = verdict(outcome, "not checkable alone")
    answer = outcome.answer
    if isinstance(answer, bool):
        text = "an exact cover exists" if answer else "no exact cover"
    elif answer is None:
        text = "no answer"
    else:
        text = f"{answer} exact covers"
    typer.echo(
        f"{outcome.problem}: {outcome.status}, {text} ({outcome.backend}, {outcome.seconds:.3f} s, {verified})"
    )
    if isinstance(answer, bool) and isinstance(outcome.witness, list):  # one cover
        typer.echo(f"  cover: {_describe(instance, outcome.witness)}")
    elif isinstance(outcome.witness, list):
        for cover in outcome.witness:
            typer.echo(f"  cover: {_describe(instance, cover)}")
    if outcome.status == "error":
        report_error(outcome)
    elif outcome.stats.get("verification") and outcome.stats.get("verified") is not None:
        typer.echo(f"  {outcome.stats['verification']}")
