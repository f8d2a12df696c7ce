"""CNF formulas, the source of the reductions SAT -> 3SAT -> 3DM -> X3C: DIMACS read and
written with validation, and random 3-CNF formulas.

DIMACS: ``c`` comments, one ``p cnf V C`` header, clauses ending in ``0``; a
``c known: sat|unsat`` comment states the formula's answer for crosscheck.

>>> cnf = parse_dimacs("p cnf 2 2\\n1 -2 0\\n2 0\\n")
>>> cnf.num_vars, cnf.clauses
(2, ((1, -2), (2,)))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pyasp_games.domains.cover.model import known_word
from pyasp_games.errors import InputError, ascii_int, read_text

#: the most variables a CNF may declare: every backend holds something per variable, and
#: beyond it a 2-line file would fill the memory; no user can mean it
MAX_VARIABLES = 10_000_000


@dataclass(frozen=True)
class CNF:
    """A CNF formula over variables ``1 .. num_vars`` (DIMACS literals)."""

    num_vars: int
    clauses: tuple[tuple[int, ...], ...]
    name: str = "cnf"
    known: bool | None = None

    def __post_init__(self) -> None:
        if self.num_vars < 0:
            raise InputError(f"a CNF needs a non-negative number of variables, got {self.num_vars}")
        if self.num_vars > MAX_VARIABLES:
            raise InputError(
                f"the CNF declares {self.num_vars} variables, beyond this tool's limit of "
                f"{MAX_VARIABLES:,}"
            )
        for k, clause in enumerate(self.clauses):
            for lit in clause:
                if lit == 0 or abs(lit) > self.num_vars:
                    raise InputError(
                        f"clause {k + 1} has literal {lit}, outside 1..{self.num_vars} and their negations"
                    )

    @property
    def num_clauses(self) -> int:
        return len(self.clauses)


def parse_dimacs(text: str, name: str = "cnf") -> CNF:
    """Read DIMACS CNF; the header must match the variables used and the clause count."""
    header: tuple[int, int] | None = None
    clauses: list[tuple[int, ...]] = []
    current: list[int] = []
    known: bool | None = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("c"):
            words = line[1:].split()
            if len(words) == 2 and words[0] == "known:":
                known = known_word(words[1], lineno, {"sat": True, "unsat": False})
            continue
        if line.startswith("%"):  # the SATLIB end marker
            break
        if line.startswith("p"):
            words = line.split()
            if header is not None:
                raise InputError(f"line {lineno}: a second 'p cnf' header")
            if len(words) != 4 or words[1] != "cnf":
                raise InputError(f"line {lineno}: expected 'p cnf VARIABLES CLAUSES', got {line!r}")
            try:
                header = (ascii_int(words[2]), ascii_int(words[3]))
            except ValueError:
                raise InputError(f"line {lineno}: the header's counts are not integers") from None
            if min(header) < 0:
                raise InputError(f"line {lineno}: negative counts in the header")
            continue
        if header is None:
            raise InputError(f"line {lineno}: a clause before the 'p cnf' header")
        for word in line.split():
            try:
                lit = ascii_int(word)
            except ValueError:
                raise InputError(f"line {lineno}: {word!r} is not a literal") from None
            if lit == 0:
                clauses.append(tuple(current))
                current = []
            elif abs(lit) > header[0]:
                raise InputError(
                    f"line {lineno}: literal {lit} but the header declares {header[0]} variables"
                )
            else:
                current.append(lit)
    if header is None:
        raise InputError("no 'p cnf VARIABLES CLAUSES' header")
    if current:
        raise InputError("the last clause does not end with 0")
    if len(clauses) != header[1]:
        raise InputError(f"the header declares {header[1]} clauses but the file has {len(clauses)}")
    return CNF(header[0], tuple(clauses), name, known)


def format_dimacs(cnf: CNF, comments: Sequence[str] = ()) -> str:
    """DIMACS text of ``cnf`` (``comments`` become ``c`` lines).

    >>> print(format_dimacs(CNF(2, ((1, -2), (2,))), ["example"]), end="")
    c example
    p cnf 2 2
    1 -2 0
    2 0
    """
    lines = [f"c {c}" for c in comments]
    if cnf.known is not None:
        lines.append(f"c known: {'sat' if cnf.known else 'unsat'}")
    lines.append(f"p cnf {cnf.num_vars} {len(cnf.clauses)}")
    lines += [" ".join(map(str, (*clause, 0))) for clause in cnf.clauses]
    return "\n".join(lines) + "\n"


def load_cnf(path: Path | str) -> CNF:
    """Read a DIMACS file; errors name the file."""
    path = Path(path)
    text = read_text(path)
    try:
        return parse_dimacs(text, path.stem)
    except InputError as err:
        raise InputError(f"{path}: {err}") from None


def random_3cnf(n: int, m: int, seed: int) -> CNF:
    """``m`` random clauses of three distinct variables out of ``n``, random signs.

    >>> f = random_3cnf(5, 4, seed=1)
    >>> f.name, len(f.clauses), {len(c) for c in f.clauses}
    ('r3cnf-n5-m4-s1', 4, {3})
    """
    import random

    rng = random.Random(seed)
    clauses = tuple(
        tuple(rng.choice((1, -1)) * v for v in rng.sample(range(1, n + 1), 3)) for _ in range(m)
    )
    return CNF(n, clauses, f"r3cnf-n{n}-m{m}-s{seed}")
