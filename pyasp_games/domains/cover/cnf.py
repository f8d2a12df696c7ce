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
from pyasp_games.engines.dimacs import read_cnf
from pyasp_games.errors import InputError, read_text

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


def parse_dimacs(text: str, name: str = "cnf", source: str | None = None) -> CNF:
    """Read DIMACS CNF (:func:`~pyasp_games.engines.dimacs.read_cnf`) as the formula
    ``name``, its messages naming ``source`` (default: ``name``); a comment ``c known:
    sat`` (or ``unsat``) states the answer."""
    read = read_cnf(text, source or name)
    known: bool | None = None
    for where, comment in read.comments:
        words = comment.strip()[1:].split()
        if len(words) == 2 and words[0] == "known:":
            known = known_word(words[1], where, {"sat": True, "unsat": False})
    return CNF(read.variables, tuple(read.clauses), name, known)


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
    return parse_dimacs(read_text(path), path.stem, source=str(path))


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
