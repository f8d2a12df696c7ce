"""DIMACS CNF and its quantified forms (QDIMACS, SSAT), read by one reader.

A file holds ``c`` comment lines, one header ``p cnf VARIABLES CLAUSES``, then (in the
quantified forms) quantifier lines, outermost first, each a letter (``e``, ``a``, ``r``)
with its variables and a closing 0, and then the clauses: literals, each clause ending in
0, over as many lines as it likes. A line ``%`` ends the file (SATLIB's end marker). The
reader checks what every form shares (one header, counts that are ASCII integers, every
literal within the variables, every clause closed, as many clauses as promised, the
quantifier lines before the clauses) and leaves the quantifier lines' meaning to the
domain (:class:`QuantifierLine`): a QBF's blocks, an SSAT formula's coins.

>>> cnf = read_cnf("c two clauses\\np cnf 2 2\\n1 -2 0\\n2 0\\n")
>>> cnf.variables, cnf.clauses
(2, [(1, -2), (2,)])
>>> qbf = read_cnf("p cnf 2 1\\ne 1 0\\na 2 0\\n1 2 0\\n", quantifiers="ea")
>>> [(q.letter, q.variables(qbf.variables)) for q in qbf.quantifiers]
[('e', [1]), ('a', [2])]
>>> read_cnf("p cnf 1 1\\n2 0\\n", name="f.cnf")
Traceback (most recent call last):
pyasp_games.errors.InputError: f.cnf, line 2: literal 2 exceeds the 1 variables
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pyasp_games.errors import InputError, ascii_int


@dataclass(frozen=True)
class QuantifierLine:
    """A quantifier line as written: its ``letter``, the ``tokens`` after it (the closing
    0 included) and ``where`` it is (``NAME, line N``, for the domain's messages)."""

    letter: str
    tokens: list[str]
    where: str

    def variables(self, count: int, tokens: list[str] | None = None) -> list[int]:
        """The variables the line quantifies (of its ``tokens``, or of the ``tokens`` the
        domain leaves after reading its own, e.g. a coin's bias): positive, at most
        ``count``, ending in 0."""
        tokens = self.tokens if tokens is None else tokens
        try:
            numbers = [ascii_int(t) for t in tokens]
        except ValueError:
            raise InputError(f"{self.where}: not a list of integers: {' '.join(tokens)!r}") from None
        if not numbers or numbers[-1] != 0 or any(v <= 0 for v in numbers[:-1]):
            raise InputError(f"{self.where}: a quantifier line lists positive variables and ends in 0")
        for v in numbers[:-1]:
            if v > count:
                raise InputError(f"{self.where}: variable {v} exceeds the {count} variables")
        return numbers[:-1]


@dataclass
class CnfText:
    """What :func:`read_cnf` read: the header's counts, the clauses, the quantifier lines
    in order and the comments (``c`` lines, and ``#`` comments where allowed), each with
    where it is."""

    variables: int
    clauses: list[tuple[int, ...]]
    quantifiers: list[QuantifierLine] = field(default_factory=list)
    comments: list[tuple[str, str]] = field(default_factory=list)


def read_cnf(
    text: str,
    name: str = "cnf",
    quantifiers: str = "",
    hash_comments: bool = False,
    max_variables: int | None = None,
    max_clauses: int | None = None,
) -> CnfText:
    """Read DIMACS CNF ``text`` (``name`` names it in messages): the lines whose first word
    is one of the letters ``quantifiers`` are quantifier lines (before any clause);
    ``hash_comments``: ``#`` starts a comment anywhere on a line; counts beyond
    ``max_variables`` or ``max_clauses`` are refused as beyond the tool's limits.

    Raises
    ------
    InputError
        One line naming the file and the line: no header or two, counts that are no
        integers, a clause before the header, a word that is no literal, a literal
        beyond the variables, a quantifier line after the clauses, an unclosed last
        clause, fewer or more clauses than the header promises.

    Complexity: linear in the text.
    """
    header: tuple[int, int] | None = None
    clauses: list[tuple[int, ...]] = []
    pending: list[int] = []
    lines: list[QuantifierLine] = []
    comments: list[tuple[str, str]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        where = f"{name}, line {number}"
        line = raw
        if hash_comments and "#" in raw:
            line = raw.partition("#")[0]
            comments.append((where, raw))
        line = line.strip()
        if not line:
            continue
        if line[0] == "c":
            comments.append((where, raw))
            continue
        if line[0] == "%":  # SATLIB's end marker
            break
        words = line.split()
        if words[0] == "p":
            if header is not None:
                raise InputError(f"{where}: a second 'p cnf' header")
            if len(words) != 4 or words[1] != "cnf":
                raise InputError(f"{where}: expected 'p cnf VARIABLES CLAUSES', got {line!r}")
            try:
                header = (ascii_int(words[2]), ascii_int(words[3]))
            except ValueError:
                raise InputError(f"{where}: the header's counts are not integers") from None
            if min(header) < 0:
                raise InputError(f"{where}: negative counts in the header")
            limits = [(header[0], max_variables, "variables"), (header[1], max_clauses, "clauses")]
            if any(top is not None and count > top for count, top, _ in limits):
                said = " and ".join(f"{top:,} {what}" for _, top, what in limits if top is not None)
                raise InputError(f"{where}: {header[0]:,} variables and {header[1]:,} clauses: "
                                 f"beyond this tool's limits of {said}")  # fmt: skip
            continue
        if header is None:
            raise InputError(f"{where}: the 'p cnf' header must come first")
        if words[0] in quantifiers:
            if clauses or pending:
                raise InputError(f"{where}: a quantifier line after the clauses")
            lines.append(QuantifierLine(words[0], words[1:], where))
            continue
        for word in words:
            try:
                lit = ascii_int(word)
            except ValueError:
                raise InputError(f"{where}: {word!r} is not a literal") from None
            if lit == 0:
                clauses.append(tuple(pending))
                pending = []
            elif abs(lit) > header[0]:
                raise InputError(f"{where}: literal {lit} exceeds the {header[0]} variables")
            else:
                pending.append(lit)
    if header is None:
        raise InputError(f"{name}: no 'p cnf VARIABLES CLAUSES' header")
    if pending:
        raise InputError(f"{name}: the last clause does not end in 0")
    if len(clauses) != header[1]:
        raise InputError(f"{name}: the header promises {header[1]} clauses, found {len(clauses)}")
    return CnfText(header[0], clauses, lines, comments)
