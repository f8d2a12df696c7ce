"""The inputs of the interactive proofs and what the verifier's side of each protocol
fixes: the graph pairs of ``ip gni``, the QBF's polynomial program of ``ip qbf``, the
coins (replayable from the seed), the degree bounds, the prime.

**Coins.** Every random choice of a verifier is drawn from its own generator, seeded by
the protocol's name, the seed, the run and the round (``random.Random`` of a string:
the same on every platform and Python version), so a saved transcript is replayed
exactly by :mod:`~pyasp_games.domains.ip.verify`.

**The polynomial program of a QBF** (the lecture notes' section 12). For
``Q1 x1 ... Qn xn . C1 ∧ ... ∧ Cm`` over Z_p: ``P0(x) = Π_j (1 - Π_{l in Cj} (1 - l))``
(a literal ``x`` is ``x``, ``¬x`` is ``1 - x``: on 0/1 points ``P0`` is the formula's
truth), then one instruction per variable, innermost first:
``P_k(x1..x_{n-k}) = P_{k-1}(x1..x_{n-k}, 1) ∘ P_{k-1}(x1..x_{n-k}, 0)``, with ``∘`` the
product for ∀ and the sum for ∃ (the notes' ``P_k(x) = P_{k-1}(f_k(x)) ∘_k
P_{k-1}(g_k(x))`` with ``f_k``, ``g_k`` setting the eliminated variable to 1 and 0). Over
the integers ``P_n()`` is a natural number, non-zero exactly when the formula is true.
The round eliminating ``x_i`` (outermost first) has the degree bound ``d_i``: the
degree of ``x_i`` in the polynomial it is eliminated from, its number of occurrences
times 2 for every ∀ inside it (each product doubles the degrees of what is left).

>>> q = parse_program("p cnf 2 2\\ne 1 0\\na 2 0\\n1 2 0\\n1 -2 0\\n")
>>> q.prefix, q.clauses, degree_bounds(q)
((('e', 1), ('a', 2)), ((1, 2), (1, -2)), [4, 2])
>>> gni_coins(7, 0, 0, (4, 4))
('H', [1, 2, 3, 0])
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from pyasp_games.engines.graphs import Graph, read_graph
from pyasp_games.errors import InputError, checked_int, read_text

#: The most vertices of a graph of ``ip gni`` (the prover's isomorphism test is exponential
#: in the worst case).
MAX_VERTICES = 500
#: The most rounds of one run, and runs of one command.
MAX_ROUNDS = 1_000
MAX_RUNS = 100_000
#: The most rounds (runs times rounds) whose messages a transcript keeps in full.
KEPT_MESSAGES = 200
#: The most quantified variables of ``ip qbf`` (the honest prover expands the rest of
#: the prefix at every round) and the largest degree bound of a round.
MAX_QBF_VARIABLES = 20
MAX_DEGREE = 4_096
#: The largest prime of ``ip qbf``, and its default (the Mersenne prime 2^61 - 1).
MAX_PRIME = 2**127
DEFAULT_PRIME = 2**61 - 1


@dataclass(frozen=True)
class GraphPair:
    """The two graphs of ``ip gni``, each on vertices ``0..n-1`` (edges ``(u, v)``, ``u < v``)."""

    g: tuple[tuple[int, int], ...]
    h: tuple[tuple[int, int], ...]
    n_g: int
    n_h: int
    name: str = "gni"

    def graph(self, which: str) -> tuple[int, tuple[tuple[int, int], ...]]:
        """``("G" | "H")`` -> its vertex count and edges."""
        return (self.n_g, self.g) if which == "G" else (self.n_h, self.h)


def load_pair(g: Path | str, h: Path | str, fmt: str | None = None) -> GraphPair:
    """The pair of ``ip gni G H``.

    Parameters
    ----------
    g, h : path-like or str
        Two undirected graph files (any format of
        :func:`~pyasp_games.engines.graphs.read_graph`).
    fmt : str or None, optional
        Their format (``None``: by the extension).

    Returns
    -------
    GraphPair
        Both graphs on vertices ``0..n-1``.

    Raises
    ------
    InputError
        A missing or bad file, more than :data:`MAX_VERTICES` vertices.
    """
    first, second = (read_graph(p, fmt, undirected=True) for p in (g, h))
    for graph in (first, second):
        if len(graph) > MAX_VERTICES:
            raise InputError(f"{graph.name}: {len(graph):,} vertices: beyond this tool's limit "
                             f"of {MAX_VERTICES} for ip gni")  # fmt: skip
    assert isinstance(first, Graph) and isinstance(second, Graph)
    return GraphPair(tuple(first.edges), tuple(second.edges), len(first), len(second),
                     f"{Path(g).stem}-{Path(h).stem}")  # fmt: skip


def pair_of(n_g: int, g: list[tuple[int, int]], n_h: int, h: list[tuple[int, int]], name: str = "gni") -> GraphPair:
    """A pair from vertex counts and edge lists (each edge once, any order)."""
    def norm(n: int, edges: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
        out = sorted({(min(u, v), max(u, v)) for u, v in edges if u != v})
        if any(not 0 <= u < n or not 0 <= v < n for u, v in out):
            raise InputError(f"{name}: an edge names a vertex outside 0..{n - 1}")
        return tuple(out)

    return GraphPair(norm(n_g, g), norm(n_h, h), n_g, n_h, name)


def gni_coins(seed: int, run: int, round_: int, sizes: tuple[int, int]) -> tuple[str, list[int]]:
    """The verifier's private coins of one round of ``ip gni``: which graph it takes
    (``"G"`` or ``"H"``, of ``sizes`` vertices) and the permutation of its vertices it
    relabels it by."""
    rng = random.Random(f"ip-gni:{seed}:{run}:{round_}")
    which = "G" if rng.random() < 0.5 else "H"
    perm = list(range(sizes[0] if which == "G" else sizes[1]))
    rng.shuffle(perm)
    return which, perm


def relabelled(edges: Any, perm: list[int]) -> list[list[int]]:
    """The edges with vertex ``v`` renamed ``perm[v]``, each ``[u, v]`` with ``u < v``, sorted."""
    return sorted(sorted((perm[u], perm[v])) for u, v in edges)


#: The most vertices of ``ip gni --coins arthur-merlin`` (Merlin enumerates 2 n! pairs).
MAX_AM_VERTICES = 7


def am_size(n: int) -> tuple[int, int, int]:
    """The Arthur-Merlin protocol's sizes for graphs on ``n`` vertices: the bits ``m`` of
    a pair (Y, tau) (Y's adjacency above the diagonal, then tau's images), the hash's
    ``k`` bits, and ``K = 2 n!`` (the set's size when G and H are not isomorphic), with
    ``2^k`` between ``2 K`` and ``4 K``: the target is hit with probability about
    ``rho = K / 2^k``, from 1/4 to 1/2."""
    width = max(1, (n - 1).bit_length())
    big = 2 * math.factorial(n)
    return n * (n - 1) // 2 + n * width, (big - 1).bit_length() + 1, big


def am_encode(n: int, edges: Any, tau: list[int]) -> int:
    """The pair (Y, tau) as an ``m``-bit integer (:func:`am_size`)."""
    present = {(min(u, v), max(u, v)) for u, v in edges}
    bits = 0
    slots = ((a, c) for a in range(n) for c in range(a + 1, n))
    for i, slot in enumerate(slots):
        bits |= (slot in present) << i
    width, at = max(1, (n - 1).bit_length()), n * (n - 1) // 2
    for j, image in enumerate(tau):
        bits |= image << (at + j * width)
    return bits


def am_coins(seed: int, run: int, round_: int, n: int) -> tuple[list[int], int, int]:
    """Arthur's public coins of one round: the hash ``h(s) = A s + b`` over GF(2) (``A``
    as ``k`` rows of ``m`` bits, ``b`` of ``k`` bits) and the target ``y``."""
    m, k, _ = am_size(n)
    rng = random.Random(f"ip-gni-am:{seed}:{run}:{round_}")
    return [rng.getrandbits(m) for _ in range(k)], rng.getrandbits(k), rng.getrandbits(k)


def am_hash(rows: list[int], b: int, s: int) -> int:
    """``A s + b`` over GF(2), bit ``j`` the parity of row ``j`` and ``s``."""
    out = 0
    for j, row in enumerate(rows):
        out |= (bin(row & s).count("1") & 1) << j
    return out ^ b


def am_bounds(n: int) -> tuple[Fraction, Fraction, Fraction]:
    """``rho = K / 2^k``, and the probability of a hit a round: at least ``rho - rho^2 / 2``
    when G and H are not isomorphic (the set has K pairs), at most ``rho / 2`` when they
    are (K / 2 pairs): Goldwasser and Sipser's gap."""
    _, k, big = am_size(n)
    rho = Fraction(big, 2**k)
    return rho, rho - rho * rho / 2, rho / 2


def am_threshold(n: int, rounds: int) -> int:
    """The hits a run of ``rounds`` rounds needs to accept: the midpoint of the two
    bounds of :func:`am_bounds`, times the rounds, rounded up."""
    _, low, high = am_bounds(n)
    return math.ceil(rounds * (low + high) / 2)


@dataclass(frozen=True)
class Program:
    """A QBF read for ``ip qbf``: its prefix outermost first (``("e"|"a", var)``) and
    clauses; the polynomial program is derived from it (module docstring)."""

    prefix: tuple[tuple[str, int], ...]
    clauses: tuple[tuple[int, ...], ...]
    name: str = "qbf"
    known: bool | None = None

    def __len__(self) -> int:
        return len(self.prefix)


def parse_program(text: str, name: str = "qbf") -> Program:
    """A QBF from QDIMACS text (the project's one reader,
    :func:`pyasp_games.domains.geography.tqbf.parse_qdimacs`), with its prefix as
    written: free variables existential and outermost; a quantifier line is required
    (an empty prefix is refused), and a ``c known: true|false`` comment states the truth."""
    from pyasp_games.domains.geography.tqbf import parse_qdimacs

    known = None
    for line in text.splitlines():
        words = line.split()
        if words[:2] == ["c", "known:"] and len(words) == 3:
            if words[2] not in ("true", "false"):
                raise InputError(f"{name}: 'c known:' must be true or false, got {words[2]!r}")
            known = words[2] == "true"
    qbf = parse_qdimacs(text, name)
    written = qbf.written
    if all(free for _, _, free in written):
        raise InputError(f"{name}: an empty prefix: a QBF needs 'e' or 'a' quantifier lines")
    prefix = tuple((kind, v) for kind, v, _ in written)
    if len(prefix) > MAX_QBF_VARIABLES:
        raise InputError(f"{name}: {len(prefix)} variables: beyond this tool's limit of "
                         f"{MAX_QBF_VARIABLES} for ip qbf (the honest prover expands the prefix)")  # fmt: skip
    program = Program(prefix, tuple(tuple(c) for c in qbf.clauses), name, known)
    worst = max(degree_bounds(program), default=0)
    if worst > MAX_DEGREE:
        raise InputError(f"{name}: a round's polynomial has degree up to {worst:,}: beyond this "
                         f"tool's limit of {MAX_DEGREE:,} (fewer universal variables or occurrences)")  # fmt: skip
    return program


def load_program(path: Path | str) -> Program:
    """Read a QDIMACS file for ``ip qbf`` (:func:`parse_program`).

    Parameters
    ----------
    path : path-like or str
        The file.

    Returns
    -------
    Program
        The QBF, its prefix as written, named after the file.

    Raises
    ------
    InputError
        A bad file, a variable quantified twice, an empty prefix, more than
        :data:`MAX_QBF_VARIABLES` variables or a degree bound beyond :data:`MAX_DEGREE`.
    """
    path = Path(path)
    return parse_program(read_text(path), path.stem)


def degree_bounds(q: Program) -> list[int]:
    """The degree bound of each round, outermost variable first (module docstring)."""
    bounds = []
    for i, (_, var) in enumerate(q.prefix):
        occurrences = sum(1 for c in q.clauses for lit in c if abs(lit) == var)
        inner_universal = sum(1 for kind, _ in q.prefix[i + 1 :] if kind == "a")
        bounds.append(occurrences * 2**inner_universal)
    return bounds


def qbf_coin(seed: int, run: int, round_: int, p: int) -> int:
    """The verifier's random point of one round of ``ip qbf``, uniform in Z_p."""
    return random.Random(f"ip-qbf:{seed}:{run}:{round_}").randrange(p)


def is_prime(p: int) -> bool:
    """Whether ``p`` is prime (Miller-Rabin with the first 13 primes as bases: exact
    below 3.3 * 10^24, and no composite below 2^127 is known to pass them all).

    >>> [p for p in range(30) if is_prime(p)], is_prime(2**61 - 1)
    ([2, 3, 5, 7, 11, 13, 17, 19, 23, 29], True)
    """
    if p < 2:
        return False
    bases = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
    if p in bases:
        return True
    if any(p % b == 0 for b in bases):
        return False
    d, s = p - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for b in bases:
        x = pow(b, d, p)
        if x in (1, p - 1):
            continue
        for _ in range(s - 1):
            x = x * x % p
            if x == p - 1:
                break
        else:
            return False
    return True


def checked_prime(p: int, q: Program) -> int:
    """``p`` if it is a prime large enough for the notes' proposition 1 (``p >= 2 N d``,
    so that every prover's error is at most 1/2), else :class:`InputError`."""
    return prime_for(p, len(q.prefix), max(degree_bounds(q), default=0))


def prime_for(p: int, n: int, d: int) -> int:
    """``p`` if it is a prime of at least ``2 N d`` (``N`` rounds of degree at most ``d``)
    and above ``d + 1``, else :class:`InputError` in one line."""
    p = checked_int(p, "--prime", 2, MAX_PRIME)
    if not is_prime(p):
        raise InputError(f"--prime {p} is not prime")
    if p < 2 * n * d or p <= d + 1:
        raise InputError(f"--prime {p} is too small: the notes' proposition 1 asks p >= 2 N d = "
                         f"2 * {n} * {d} = {2 * n * d} (N rounds of degree at most d)")  # fmt: skip
    return p


def random_program(seed: int = 0, n: int = 6, m: int = 8, k: int = 3) -> Program:
    """A random QBF (bench's generator ``random``): ``n`` variables alternating ∃, ∀ from
    ∃, ``m`` clauses of ``k`` distinct variables, each negated with probability 1/2."""
    n = checked_int(n, "n", 1, MAX_QBF_VARIABLES)
    m = checked_int(m, "m", 0, 10_000)
    k = checked_int(k, "k", 1, n)
    rng = random.Random(checked_int(seed, "seed"))
    prefix = tuple(("e" if i % 2 == 0 else "a", i + 1) for i in range(n))
    clauses = tuple(tuple(v if rng.random() < 0.5 else -v for v in sorted(rng.sample(range(1, n + 1), k)))
                    for _ in range(m))  # fmt: skip
    return Program(prefix, clauses, f"random-{n}-{m}-{k}#{seed}")


def format_program(q: Program) -> str:
    """The QBF as QDIMACS text (one quantifier line per variable)."""
    n = max([v for _, v in q.prefix] + [abs(lit) for c in q.clauses for lit in c], default=0)
    lines = [] if q.known is None else [f"c known: {'true' if q.known else 'false'}"]
    lines.append(f"p cnf {n} {len(q.clauses)}")
    lines += [f"{kind} {v} 0" for kind, v in q.prefix]
    lines += [" ".join(map(str, c)) + " 0" for c in q.clauses]
    return "\n".join(lines) + "\n"


def small_programs() -> Iterator[Program]:
    """Every QBF on 1 or 2 variables (each e or a, in either order) with at most 2
    clauses of 1 or 2 literals, smallest first (fuzz's small scope)."""
    for n in (1, 2):
        literals = [lit for v in range(1, n + 1) for lit in (v, -v)]
        possible = [c for size in (1, 2) for c in itertools.combinations(literals, size)
                    if len({abs(x) for x in c}) == size]  # fmt: skip
        for order in itertools.permutations(range(1, n + 1)):
            for kinds in itertools.product("ea", repeat=n):
                prefix = tuple(zip(kinds, order, strict=True))
                for m in range(3):
                    for clauses in itertools.combinations(possible, m):
                        yield Program(prefix, clauses, f"small-{n}")


def strategy(size: int) -> Any:
    """A hypothesis strategy of QBFs on at most ``size`` variables (fuzz's random phase)."""
    from hypothesis import strategies as st

    @st.composite
    def programs(draw: Any) -> Program:
        n = draw(st.integers(1, max(1, min(size, 8))))
        order = draw(st.permutations(list(range(1, n + 1))))
        prefix = tuple((draw(st.sampled_from("ea")), v) for v in order)
        literal = st.integers(1, n).flatmap(lambda v: st.sampled_from([v, -v]))
        clause = st.lists(literal, min_size=1, max_size=3, unique_by=abs).map(tuple)
        return Program(prefix, tuple(draw(st.lists(clause, max_size=2 * n))), "drawn")

    return programs()


def qbf_parts(q: Program) -> Iterator[Program]:
    """``q`` with one clause deleted, for each clause (fuzz's shrinker)."""
    for i in range(len(q.clauses)):
        yield Program(q.prefix, q.clauses[:i] + q.clauses[i + 1 :], q.name)


#: The most vertices of ``ip reach`` (configurations of at most 3 bits) and its most levels.
MAX_REACH_VERTICES = 8
MAX_REACH_LEVELS = 4


@dataclass(frozen=True)
class Reachability:
    """The notes' section 12, proposition 2, on a small configuration graph: is ``target``
    reached from ``source`` in ``2^levels`` steps? Vertices (configurations) are numbered
    ``0..n-1`` and written in ``bits`` bits; ``arcs`` are the one-step moves."""

    n: int
    arcs: tuple[tuple[int, int], ...]
    names: tuple[str, ...]
    source: int
    target: int
    levels: int
    name: str = "reach"

    @property
    def bits(self) -> int:
        return max(1, (self.n - 1).bit_length())

    def __len__(self) -> int:
        return self.levels * (self.bits + 1)


def load_reach(graph: Path | str, source: str | None = None, target: str | None = None,
               levels: int = 2, fmt: str | None = None) -> Reachability:  # fmt: skip
    """The input of ``ip reach``: a digraph (one-step moves), the start and the end
    configuration (``--from``, ``--to``, or the ``# start:`` and ``# target:`` headers) and
    the levels ``L`` (walks of ``2^L`` steps)."""
    g = read_graph(graph, fmt)
    if len(g) > MAX_REACH_VERTICES:
        raise InputError(f"{g.name}: {len(g)} vertices: beyond this tool's limit of "
                         f"{MAX_REACH_VERTICES} for ip reach (the prover expands 2^N evaluations)")  # fmt: skip
    levels = checked_int(levels, "--levels", 1, MAX_REACH_LEVELS)
    source = source if source is not None else g.headers.get("start")
    target = target if target is not None else g.headers.get("target")
    if source is None or target is None:
        raise InputError(f"{g.name}: give --from and --to (or '# start:' and '# target:' lines)")
    return Reachability(len(g), tuple(sorted(set(g.arcs()))), tuple(g.names), g.position(source),
                        g.position(target), levels, Path(graph).stem)  # fmt: skip


def reach_program(r: Reachability) -> list[tuple[str, int | None]]:
    """The notes' program, from the bottom: for each level ``l``, ``Q^l_b(x, y, z) =
    P_{l-1}(x, z) * P_{l-1}(z, y)`` (``("*", None)``), then ``Q^l_j = Q^l_{j+1}(.., z_{j+1}
    = 0) + Q^l_{j+1}(.., z_{j+1} = 1)`` for ``j = b-1 .. 0`` (``("+", coordinate of
    z_{j+1})``), and ``P_l = Q^l_0``. Every polynomial is read on ``w = (x, y, z)``."""
    b = r.bits
    program: list[tuple[str, int | None]] = []
    for _ in range(r.levels):
        program.append(("*", None))
        program += [("+", 2 * b + j) for j in reversed(range(b))]
    return program


def reach_degrees(r: Reachability) -> list[int]:
    """The degree bound of each instruction's ``h``, from the bottom: ``2 b`` for a product
    (the line moves x and y; ``P_0`` is multilinear in each), 2 for a sum (``z_{j+1}`` is
    in both factors, with degree 1 in each)."""
    return [2 * r.bits if op == "*" else 2 for op, _ in reach_program(r)]


def reach_maps(r: Reachability, op: str, coordinate: int | None, w: list[int]) -> tuple[list[int], list[int]]:
    """``(f(w), g(w))`` of an instruction: for a product ``(x, z, 0)`` and ``(z, y, 0)``,
    for a sum ``w`` with the coordinate set to 1 and to 0."""
    b = r.bits
    if op == "*":
        x, y, z = w[:b], w[b : 2 * b], w[2 * b :]
        return x + z + [0] * b, z + y + [0] * b
    one, zero = list(w), list(w)
    one[coordinate], zero[coordinate] = 1, 0
    return one, zero


def reach_coin(seed: int, run: int, round_: int, p: int) -> int:
    """The verifier's random point of one round of ``ip reach``, uniform in Z_p."""
    return random.Random(f"ip-reach:{seed}:{run}:{round_}").randrange(p)


def reach_start(r: Reachability) -> list[int]:
    """The point ``(bits of source, bits of target, 0)`` at which ``P_L`` is claimed."""
    b = r.bits
    return [r.source >> i & 1 for i in range(b)] + [r.target >> i & 1 for i in range(b)] + [0] * b
