"""Stochastic SAT formulas (games against Nature): reading, writing, generating.

An SSAT file is DIMACS CNF with a prefix of quantifier lines, outermost first
(Papadimitriou, "Games against Nature", JCSS 31, 1985; the lecture notes' section 11):

- ``e V1 V2 ... 0``: existential variables, set by the player (who maximises the
  probability of satisfaction);
- ``r V1 V2 ... 0``: random variables, set by Nature by a fair coin;
- ``r P V1 ... 0`` with ``P`` a probability (``1/3``, ``0.25``): a biased coin, each
  variable true with probability ``P``.

Every variable of a clause is quantified, once; ``# known: 3/4`` states the answer (the
maximum probability of satisfaction). ``c`` lines are comments, as in DIMACS.

>>> f = parse_ssat("# known: 3/4\\np cnf 2 2\\ne 1 0\\nr 2 0\\n1 2 0\\n-1 -2 0\\n")
>>> f.prefix, f.clauses, f.known
((('e', 1, None), ('r', 2, Fraction(1, 2))), ((1, 2), (-1, -2)), Fraction(3, 4))
>>> print(format_ssat(f), end="")
# known: 3/4
p cnf 2 2
e 1 0
r 2 0
1 2 0
-1 -2 0
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from pyasp_games.engines.dimacs import read_cnf
from pyasp_games.engines.files import comment_header
from pyasp_games.errors import InputError, checked_int, checked_real, read_text

#: The most variables a formula may have (the tool's limit: the search is exponential in
#: the random variables, the memo bounds the rest).
MAX_VARIABLES = 200
#: The most clauses a formula may have.
MAX_CLAUSES = 20_000
#: The most digits of a coin's probability (numerator or denominator).
MAX_DIGITS = 30

#: One quantifier of the prefix: ``("e", var, None)`` or ``("r", var, Pr[var true])``.
Quantifier = tuple[str, int, Fraction | None]

FAIR = Fraction(1, 2)


@dataclass(frozen=True)
class Ssat:
    """A stochastic SAT formula: ``prefix`` outermost first, CNF ``clauses`` of literals."""

    prefix: tuple[Quantifier, ...]
    clauses: tuple[tuple[int, ...], ...]
    num_vars: int
    name: str = "ssat"
    known: Fraction | None = None

    @property
    def random_count(self) -> int:
        """How many variables Nature sets."""
        return sum(kind == "r" for kind, _, _ in self.prefix)

    def __len__(self) -> int:
        return len(self.prefix)


def probability(token: str, where: str) -> Fraction:
    """A coin's probability written ``p/q`` or as a decimal, from 0 to 1, exactly."""
    if len(token) > 2 * MAX_DIGITS + 1 or not all(c in "0123456789./" for c in token):
        raise InputError(f"{where}: {token!r} is no probability (write 1/3 or 0.25)")
    try:
        value = Fraction(token)
    except (ValueError, ZeroDivisionError):
        raise InputError(f"{where}: {token!r} is no probability (write 1/3 or 0.25)") from None
    if not 0 <= value <= 1:
        raise InputError(f"{where}: the probability {token} is not between 0 and 1")
    return value


def parse_ssat(text: str, name: str = "ssat") -> Ssat:
    """An SSAT formula from its text (see the module docstring; the DIMACS part read by
    :func:`~pyasp_games.engines.dimacs.read_cnf`); bad input: one line."""
    read = read_cnf(text, name, quantifiers="aer", hash_comments=True,
                    max_variables=MAX_VARIABLES, max_clauses=MAX_CLAUSES)  # fmt: skip
    known = None
    for where, comment in read.comments:
        said = comment_header(comment)
        if said is not None and said[0] == "known":
            known = probability(said[1], f"{where}, '# known:'")
    prefix: list[Quantifier] = []
    for line in read.quantifiers:
        if line.letter == "a":
            raise InputError(f"{line.where}: a universal quantifier ('a'): SSAT has 'e' and 'r' "
                             "lines (for a QBF, use 'ip qbf')")  # fmt: skip
        body, coin = line.tokens, None
        if line.letter == "r":
            coin = FAIR
            if body and ("/" in body[0] or "." in body[0]):
                coin = probability(body[0], line.where)
                body = body[1:]
        prefix.extend((line.letter, v, coin) for v in line.variables(read.variables, body))
    return checked_ssat(Ssat(tuple(prefix), tuple(read.clauses), read.variables, name, known))


def checked_ssat(f: Ssat) -> Ssat:
    """``f`` if its prefix is a prefix (not empty, each variable once, every variable of
    a clause in it), else :class:`InputError` in one line."""
    if not f.prefix:
        raise InputError(f"{f.name}: an empty prefix: an SSAT formula needs 'e' and 'r' lines")
    seen: set[int] = set()
    for _, v, _ in f.prefix:
        if v in seen:
            raise InputError(f"{f.name}: variable {v} is quantified twice")
        seen.add(v)
    free = sorted({abs(lit) for c in f.clauses for lit in c} - seen)
    if free:
        raise InputError(f"{f.name}: variable {free[0]} is in a clause but not quantified")
    return f


def load_ssat(path: Path | str) -> Ssat:
    """Read an SSAT file (module docstring).

    Parameters
    ----------
    path : path-like or str
        The file: DIMACS CNF with ``e`` and ``r`` quantifier lines.

    Returns
    -------
    Ssat
        The formula, named after the file.

    Raises
    ------
    InputError
        A missing file, a bad line, a variable quantified twice or not at all, an empty
        prefix, sizes beyond :data:`MAX_VARIABLES` or :data:`MAX_CLAUSES` (one line).
    """
    path = Path(path)
    return parse_ssat(read_text(path), path.stem)


def load_instances(path: Path) -> list[Ssat]:
    """One formula per file (crosscheck's loader)."""
    return [load_ssat(path)]


def format_ssat(f: Ssat) -> str:
    """The formula as the text of its file (consecutive quantifiers of one kind and
    coin on one line)."""
    lines = [] if f.known is None else [f"# known: {f.known}"]
    lines.append(f"p cnf {f.num_vars} {len(f.clauses)}")
    for (kind, coin), block in itertools.groupby(f.prefix, key=lambda q: (q[0], q[2])):
        bias = f"{coin} " if kind == "r" and coin != FAIR else ""
        lines.append(f"{kind} {bias}{' '.join(str(v) for _, v, _ in block)} 0")
    lines += [" ".join(map(str, c)) + " 0" for c in f.clauses]
    return "\n".join(lines) + "\n"


def random_ssat(seed: int = 0, n: int = 8, m: int = 12, k: int = 3, share: float = 0.5) -> Ssat:
    """A random SSAT formula (bench's generator ``random``, deterministic in its
    arguments): ``n`` variables in a random order, each random (a fair coin) with
    probability ``share``, else existential; ``m`` clauses of ``k`` distinct variables,
    each negated with probability 1/2."""
    n = checked_int(n, "n", 1, MAX_VARIABLES)
    m = checked_int(m, "m", 0, MAX_CLAUSES)
    k = checked_int(k, "k", 1, n)
    share = checked_real(share, "share", 0, 1)
    rng = random.Random(checked_int(seed, "seed"))
    order = list(range(1, n + 1))
    rng.shuffle(order)
    prefix = tuple(("r", v, FAIR) if rng.random() < share else ("e", v, None) for v in order)
    clauses = tuple(
        tuple(v if rng.random() < 0.5 else -v for v in sorted(rng.sample(range(1, n + 1), k)))
        for _ in range(m)
    )
    return Ssat(prefix, clauses, n, f"random-{n}-{m}-{k}#{seed}")


def small_ssats() -> Iterator[Ssat]:
    """Every formula on 1 or 2 variables (each ``e``, ``r`` or ``r 1/3``, in either
    order) with at most 2 clauses of 1 or 2 literals, smallest first (fuzz's small scope)."""
    kinds = (("e", None), ("r", FAIR), ("r", Fraction(1, 3)))
    for n in (1, 2):
        literals = [lit for v in range(1, n + 1) for lit in (v, -v)]
        possible = [c for size in (1, 2) for c in itertools.combinations(literals, size)
                    if len({abs(x) for x in c}) == size]  # fmt: skip
        for order in itertools.permutations(range(1, n + 1)):
            for chosen in itertools.product(kinds, repeat=n):
                prefix = tuple((kind, v, coin) for v, (kind, coin) in zip(order, chosen, strict=True))
                for m in range(3):
                    for clauses in itertools.combinations(possible, m):
                        yield Ssat(prefix, clauses, n, f"small-{n}")


def strategy(size: int) -> Any:
    """A hypothesis strategy of formulas on at most ``size`` variables (fuzz's random phase)."""
    from hypothesis import strategies as st

    @st.composite
    def formulas(draw: Any) -> Ssat:
        n = draw(st.integers(1, max(1, size)))
        order = draw(st.permutations(list(range(1, n + 1))))
        coins = st.sampled_from([None, FAIR, Fraction(1, 3), Fraction(3, 4)])
        prefix = tuple(("e", v, None) if (c := draw(coins)) is None else ("r", v, c) for v in order)
        literal = st.integers(1, n).flatmap(lambda v: st.sampled_from([v, -v]))
        clause = st.lists(literal, min_size=1, max_size=3, unique_by=abs).map(tuple)
        clauses = tuple(draw(st.lists(clause, max_size=2 * n)))
        return Ssat(prefix, clauses, n, "drawn")

    return formulas()


def ssat_parts(f: Ssat) -> Iterator[Ssat]:
    """``f`` with one clause deleted, for each clause (fuzz's shrinker)."""
    for i in range(len(f.clauses)):
        yield Ssat(f.prefix, f.clauses[:i] + f.clauses[i + 1 :], f.num_vars, f.name)
