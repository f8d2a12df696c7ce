"""clingo's incremental mode (``#include <incmode>.``) through the Python API.

The files that ``--emit-lp`` writes for incremental encodings run here by hand:
``python -m pyasp_games.engines.incmode ENCODING FACTS``. The ``clingo`` program runs
them too, but ``python -m clingo`` does not (its application ignores ``<incmode>`` and
prints an empty model) and pip's clingo has no ``clingo`` program. As in clingo: ground
``base`` and ``check(0)``, then horizon by horizon ``step(t)`` and ``check(t)``; from
horizon ``imin`` on, set ``query(t)`` and solve; stop at the first answer set, or after
horizon ``imax`` when the program defines it.

>>> import tempfile, pathlib
>>> program = '''#include <incmode>.
... #program step(t). at(t) :- not at(t-1), t < 3.
... #program check(t). #external query(t). :- query(t), t < 2.
... #show at/1.'''
>>> with tempfile.TemporaryDirectory() as d:
...     (pathlib.Path(d) / "p.lp").write_text(program) and None
...     solve_incrementally([pathlib.Path(d) / "p.lp"])
(2, ['at(1)'])
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

USAGE = "usage: python -m pyasp_games.engines.incmode FILE... [-c NAME=VALUE]..."


def solve_incrementally(
    files: Sequence[Path | str], consts: Sequence[str] = (), every_atom: bool = False
) -> tuple[int, list[str]] | tuple[int, None]:
    """``(horizon, shown atoms)`` of the first answer set (``every_atom``: all its
    atoms, shown or not), or ``(imax, None)`` if none up to ``imax``."""
    import clingo

    def log(code: clingo.MessageCode, message: str) -> None:
        if code != clingo.MessageCode.AtomUndefined:  # step parts not yet grounded: noise
            print(message, file=sys.stderr)

    ctl = clingo.Control([f"-c{c}" for c in consts], logger=log)
    for f in files:
        ctl.load(str(f))

    def const(name: str, default: int | None) -> int | None:
        value = ctl.get_const(name)
        return default if value is None else value.number

    ctl.ground([("base", []), ("check", [clingo.Number(0)])])
    first, last = const("imin", 0), const("imax", None)
    t = 0
    while last is None or t <= last:
        if t >= first:
            query = clingo.Function("query", [clingo.Number(t)])
            ctl.assign_external(query, True)
            with ctl.solve(yield_=True) as models:
                for model in models:
                    said = model.symbols(atoms=True) if every_atom else model.symbols(shown=True)
                    return t, sorted(map(str, said))
            ctl.release_external(query)
        t += 1
        ctl.ground([("step", [clingo.Number(t)]), ("check", [clingo.Number(t)])])
    return t - 1, None


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    files, consts = [], []
    while args:
        arg = args.pop(0)
        if arg == "-c" and args:
            consts.append(args.pop(0))
        elif arg.startswith("-c") and len(arg) > 2:
            consts.append(arg[2:])
        elif arg.startswith("-"):
            print(USAGE, file=sys.stderr)
            return 2
        else:
            files.append(arg)
    if not files:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        horizon, atoms = solve_incrementally(files, consts)
    except RuntimeError as err:  # clingo's parse or grounding error, already on stderr
        print(f"incmode: {err}", file=sys.stderr)
        return 1
    if atoms is None:
        print(f"UNSATISFIABLE (every horizon up to {horizon})")
        return 20
    print(f"Answer at horizon {horizon}:")
    print(" ".join(atoms))
    print("SATISFIABLE")
    return 10  # clingo's exit codes: 10 satisfiable, 20 unsatisfiable


if __name__ == "__main__":
    sys.exit(main())
