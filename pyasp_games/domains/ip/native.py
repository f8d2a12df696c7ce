"""The protocols of the ip domain, run: the verifier's coins, the provers, the transcripts.

``gni``: the notes' section 11, example 1 (Goldwasser, Micali, Rackoff). In each round
the verifier takes G or H by a private coin, relabels it by a random permutation and
sends the copy ``Y``; the prover names the graph ``Z`` it came from (the ``honest``
prover tests ``Y ≅ G`` with networkx, and names G when it is, else H; the ``guess``
prover tosses its own coin when ``Y`` is isomorphic to both). The verifier accepts the
round when ``Z`` is its choice; a run accepts when every round does. With
``coins="public"`` (the verifier's coins seen by the prover, as in Babai and Moran's
Arthur-Merlin games) the prover reads the choice off the coin: the protocol then accepts
isomorphic pairs too, which is why the notes insist the coins be private. With
``coins="arthur-merlin"``, Goldwasser and Sipser's public-coin protocol (the notes:
every private-coin protocol becomes a public-coin one): Merlin claims that the set ``S``
of pairs ``(Y, tau)`` (``Y`` a relabelled copy of G or H, ``tau`` an automorphism of
``Y``) is large: it has ``2 n!`` pairs when G and H are not isomorphic, ``n!`` when they
are. Arthur draws an affine hash ``h(s) = A s + b`` over GF(2) to ``k`` bits and a
target ``y`` (public coins); Merlin must send a pair of ``S`` with ``h(s) = y`` and its
proof (``Y = phi(X)``, ``tau``). A round is hit with probability at least
``rho - rho^2 / 2`` in the first case and at most ``rho / 2`` in the second
(``rho = 2 n! / 2^k``, from 1/4 to 1/2), and a run accepts with hits above the midpoint.
Merlin (all powerful: it enumerates ``S``) finds a preimage whenever there is one, so
no prover does better on an isomorphic pair.

``qbf``: the notes' section 12, proposition 1: the interactive evaluation of the QBF's
polynomial program (:mod:`~pyasp_games.domains.ip.model`) over Z_p. The prover claims
``a = P_N()``; in the round of variable ``x_i`` (outermost first) it sends ``h_i(t)``,
of degree at most ``d_i``; the verifier checks ``a = h_i(0) ∘ h_i(1)``, draws ``t`` in
Z_p, and the claim becomes ``h_i(t)`` about ``x_i = t``; at the end it evaluates ``P_0``
at the random point itself. It accepts the formula when the claim is not 0 and every
test passes. The ``honest`` prover sends ``h_i(t) = P(z_1..z_{i-1}, t)`` computed exactly
(the rest of the prefix expanded at ``d_i + 1`` points, interpolated). The ``cheat``
prover claims a false formula true (``a = 1``) and, while its claim is false, sends
``h_i = true h_i + D`` where ``D`` passes the test and has as many roots as its degree
allows (``d_i - 1`` chosen, one more from a linear factor): its lie survives unless
the verifier's ``t`` is a root of ``D``, with probability at most ``d_i / p`` a round.

>>> from pyasp_games.domains.ip.model import parse_program, pair_of
>>> q = parse_program("p cnf 2 2\\ne 1 0\\na 2 0\\n1 2 0\\n1 -2 0\\n")
>>> run_qbf(q, prime=101).answer
'accept'
>>> c4 = pair_of(4, [(0, 1), (1, 2), (2, 3), (0, 3)], 4, [(0, 1), (1, 2), (2, 3), (1, 3)])
>>> run_gni(c4, rounds=5).answer
'accept'
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pyasp_games.domains.ip.model import (
    DEFAULT_PRIME,
    KEPT_MESSAGES,
    MAX_AM_VERTICES,
    MAX_ROUNDS,
    MAX_RUNS,
    GraphPair,
    Program,
    Reachability,
    am_bounds,
    am_coins,
    am_encode,
    am_hash,
    am_threshold,
    checked_prime,
    degree_bounds,
    gni_coins,
    prime_for,
    qbf_coin,
    reach_coin,
    reach_degrees,
    reach_maps,
    reach_program,
    reach_start,
    relabelled,
)
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Deadline, Limits
from pyasp_games.errors import InputError, checked_int

PROVERS = {"gni": ("honest", "guess"), "qbf": ("honest", "cheat")}
#: The coins of ``ip gni``: the notes' protocol with private coins, the same with public
#: ones, and Goldwasser and Sipser's public-coin protocol.
COINS = ("private", "public", "arthur-merlin")
#: The most rounds (runs times rounds) of one ``ip gni`` command.
MAX_TOTAL_ROUNDS = 1_000_000
#: The most rounds whose Merlin messages a transcript keeps.
KEPT_AM_ROUNDS = 20_000
#: How far above the leaves the honest prover's expansion reads the deadline.
POLL_DEPTH = 10
#: The most numbers (polynomial coefficients) a transcript of ``ip qbf`` keeps.
KEPT_NUMBERS = 200_000


def verdict_of(accepted: int, runs: int) -> str:
    """``accept`` (every run), ``reject`` (none) or ``accept K of R``."""
    return "accept" if accepted == runs else "reject" if accepted == 0 else f"accept {accepted} of {runs}"


def _checked(name: str, prover: str, runs: int) -> int:
    if prover not in PROVERS[name]:
        raise InputError(f"unknown prover {prover!r} (choose from {', '.join(PROVERS[name])})")
    return checked_int(runs, "--runs", 1, MAX_RUNS)


# -- graph non-isomorphism -------------------------------------------------------------


def run_gni(pair: GraphPair, limits: Limits = Limits(), rounds: int = 10, runs: int = 1,
            seed: int = 0, coins: str = "private", prover: str = "honest") -> Claim:  # fmt: skip
    """Run the GNI protocol ``runs`` times of ``rounds`` rounds (module docstring)."""
    runs = _checked("gni", prover, runs)
    rounds = checked_int(rounds, "--rounds", 1, MAX_ROUNDS)
    if runs * rounds > MAX_TOTAL_ROUNDS:
        raise InputError(f"{runs:,} runs of {rounds:,} rounds: beyond this tool's limit of "
                         f"{MAX_TOTAL_ROUNDS:,} rounds in all (each is in the transcript)")  # fmt: skip
    seed = checked_int(seed, "--seed", 0, 2**63)
    if coins not in COINS:
        raise InputError(f"unknown coins {coins!r} (choose from {', '.join(COINS)})")
    if prover != "honest" and coins != "private":
        raise InputError(f"--prover {prover} is for private coins: with {coins} coins the prover "
                         "reads the coins (public) or is Merlin, who enumerates his set (arthur-merlin)")  # fmt: skip
    deadline = limits.deadline()
    if coins == "arthur-merlin":
        return _run_am(pair, deadline, rounds, runs, seed)
    import networkx as nx  # the prover's isomorphism test (imported here: it takes a second)

    def nx_graph(n: int, edges: Any) -> Any:
        graph = nx.Graph()
        graph.add_nodes_from(range(n))
        graph.add_edges_from(edges)
        return graph

    g, h = nx_graph(pair.n_g, pair.g), nx_graph(pair.n_h, pair.h)
    own = random.Random(f"prover:{seed}")  # the guessing prover's coins, its own
    transcript: dict[str, Any] = {"protocol": "gni", "coins": coins, "prover": prover, "seed": seed,
                                  "rounds": rounds, "runs": [], "messages": {}}  # fmt: skip
    accepted = caught = 0
    for run in range(runs):
        xs, zs = [], []
        for r in range(rounds):
            deadline.check()
            x, perm = gni_coins(seed, run, r, (pair.n_g, pair.n_h))
            n, edges = pair.graph(x)
            y = relabelled(edges, perm)
            if run * rounds + r < KEPT_MESSAGES:
                transcript["messages"][f"{run}:{r}"] = y
            if coins == "public":
                z = x  # the coin is seen: the prover names the verifier's own choice
            else:
                copy = nx_graph(n, y)
                like_g = n == pair.n_g and nx.is_isomorphic(copy, g)
                like_h = n == pair.n_h and nx.is_isomorphic(copy, h)
                if like_g and like_h and prover == "guess":
                    z = "G" if own.random() < 0.5 else "H"
                else:
                    z = "G" if like_g else "H"
            xs.append(x)
            zs.append(z)
        wrong = sum(x != z for x, z in zip(xs, zs, strict=True))
        caught += wrong
        accepted += wrong == 0
        transcript["runs"].append({"x": "".join(xs), "z": "".join(zs), "accept": wrong == 0})
    witness = {"accepted": accepted, "runs": runs, "rounds": rounds, "caught": caught,
               "rounds_in_all": runs * rounds}  # fmt: skip
    return Claim.solved(verdict_of(accepted, runs), witness, certificate=transcript)


def _automorphisms(n: int, edges: Any) -> list[tuple[int, ...]]:
    target = {tuple(e) for e in edges}
    return [perm for perm in itertools.permutations(range(n))
            if {tuple(sorted((perm[u], perm[v]))) for u, v in edges} == target]  # fmt: skip


def _merlins_set(pair: GraphPair) -> dict[int, list[Any]]:
    """Every pair (Y, tau), Y a relabelled copy of G or H and tau an automorphism of Y,
    by its encoding, with Merlin's proof of it: ``[graph, phi, tau]`` (Y = phi(graph))."""
    n = pair.n_g
    found: dict[int, list[Any]] = {}
    for name in ("G", "H"):
        _, edges = pair.graph(name)
        autos = _automorphisms(n, edges)
        seen: set[tuple[tuple[int, int], ...]] = set()
        for phi in itertools.permutations(range(n)):
            y = tuple(tuple(e) for e in relabelled(edges, list(phi)))
            if y in seen:
                continue
            seen.add(y)
            inverse = [0] * n
            for v, image in enumerate(phi):
                inverse[image] = v
            for alpha in autos:  # the automorphisms of Y = phi(X): phi alpha phi^-1
                tau = [phi[alpha[inverse[v]]] for v in range(n)]
                found.setdefault(am_encode(n, y, tau), [name, list(phi), tau])
    return found


def _run_am(pair: GraphPair, deadline: Any, rounds: int, runs: int, seed: int) -> Claim:
    """Goldwasser and Sipser's public-coin protocol for GNI (module docstring)."""
    n = pair.n_g
    if n != pair.n_h or len(pair.g) != len(pair.h):
        raise InputError("the Arthur-Merlin protocol compares graphs of one order and size; "
                         "these differ in their counts already")  # fmt: skip
    if n > MAX_AM_VERTICES:
        raise InputError(f"{n} vertices: beyond this tool's limit of {MAX_AM_VERTICES} for the "
                         f"Arthur-Merlin protocol (Merlin enumerates 2 n! pairs)")  # fmt: skip
    pairs = _merlins_set(pair)
    need = am_threshold(n, rounds)
    transcript: dict[str, Any] = {"protocol": "gni", "coins": "arthur-merlin", "prover": "honest",
                                  "seed": seed, "rounds": rounds, "runs": []}  # fmt: skip
    accepted = missed = kept = 0
    for run in range(runs):
        answers: list[Any] = []
        for r in range(rounds):
            deadline.check()
            rows, b, y = am_coins(seed, run, r, n)
            answers.append(next((proof for s, proof in pairs.items() if am_hash(rows, b, s) == y), None))
        hits = sum(a is not None for a in answers)
        missed += rounds - hits
        accepted += hits >= need
        entry: dict[str, Any] = {"hits": hits, "accept": hits >= need}
        if kept + rounds <= KEPT_AM_ROUNDS:
            entry["merlin"] = answers
            kept += rounds
        transcript["runs"].append(entry)
    rho, low, high = am_bounds(n)
    witness = {"accepted": accepted, "runs": runs, "rounds": rounds, "caught": missed,
               "rounds_in_all": runs * rounds, "pairs": len(pairs), "needed": need, "rho": str(rho),
               "hit_if_not_isomorphic": str(low), "hit_if_isomorphic": str(high)}  # fmt: skip
    return Claim.solved(verdict_of(accepted, runs), witness, certificate=transcript)


# -- IP = PSPACE: the evaluation of the QBF's polynomial program ------------------------


def _p0(q: Program, point: dict[int, int], p: int) -> int:
    """The arithmetised CNF at ``point`` (variable -> element of Z_p)."""
    value = 1
    for clause in q.clauses:
        false = 1
        for lit in clause:
            x = point[abs(lit)]
            false = false * ((1 - x) if lit > 0 else x) % p
        value = value * (1 - false) % p
        if value == 0:
            break
    return value


def _rest(q: Program, i: int, point: dict[int, int], p: int, deadline: Deadline | None = None) -> int:
    """``P`` at ``point`` with the variables from position ``i`` on eliminated (each
    summed for ∃, multiplied for ∀ over 0 and 1); the deadline is read every few
    thousand leaves."""
    if i == len(q.prefix):
        return _p0(q, point, p)
    if deadline is not None and len(q.prefix) - i == POLL_DEPTH:
        deadline.check()  # 2^POLL_DEPTH leaves below
    kind, var = q.prefix[i]
    one = _rest(q, i + 1, {**point, var: 1}, p, deadline)
    zero = _rest(q, i + 1, {**point, var: 0}, p, deadline)
    return one * zero % p if kind == "a" else (one + zero) % p


def _interpolate(values: list[int], p: int) -> list[int]:
    """The coefficients (constant first) of the polynomial of degree < len(values) over
    Z_p taking ``values[j]`` at ``t = j``."""
    k = len(values)
    full = [1]  # prod_j (t - j)
    for j in range(k):
        full = [(a - j * b) % p for a, b in zip([0, *full], [*full, 0], strict=True)]
    coeffs = [0] * k
    for j, y in enumerate(values):
        if y == 0:
            continue
        quotient, carry = [0] * k, 0  # full / (t - j), by synthetic division
        for power in range(k, 0, -1):
            carry = (full[power] + carry * j) % p if power < k else full[power]
            quotient[power - 1] = carry
        denominator = 1
        for m in range(k):
            if m != j:
                denominator = denominator * (j - m) % p
        scale = y * pow(denominator, -1, p) % p
        coeffs = [(c + scale * b) % p for c, b in zip(coeffs, quotient, strict=True)]
    while len(coeffs) > 1 and coeffs[-1] == 0:
        coeffs.pop()
    return coeffs


def evaluate(coeffs: list[int], t: int, p: int) -> int:
    """A polynomial (constant first) at ``t`` over Z_p, by Horner's rule."""
    value = 0
    for c in reversed(coeffs):
        value = (value * t + c) % p
    return value


def _honest_h(q: Program, i: int, point: dict[int, int], degree: int, p: int,
              deadline: Deadline | None = None) -> list[int]:  # fmt: skip
    var = q.prefix[i][1]
    return _interpolate([_rest(q, i + 1, {**point, var: t}, p, deadline) for t in range(degree + 1)], p)


def _lie(true_h: list[int], claim: int, kind: str, degree: int, p: int) -> list[int]:
    """The cheating prover's ``h``: ``true_h + D`` with ``(h(0) ∘ h(1)) = claim`` and ``D``
    of degree at most ``degree`` with as many roots as it allows (``claim`` is false)."""
    a0, a1 = evaluate(true_h, 0, p), evaluate(true_h, 1, p)
    if degree == 0:  # a constant c with c ∘ c = claim
        if kind == "e":
            return [claim * pow(2, -1, p) % p]
        root = next((c for c in range(p) if c * c % p == claim), None) if p < 10**6 else None
        return [claim if root is None else root]  # no square root: it cannot pass
    if kind == "e":
        half = (claim - a0 - a1) * pow(2, -1, p) % p
        d0, d1 = half, half
    elif a0:
        d0, d1 = 0, (claim * pow(a0, -1, p) - a1) % p
    elif a1:
        d0, d1 = (claim * pow(a1, -1, p) - a0) % p, 0
    else:
        d0, d1 = (1 - a0) % p, (claim - a1) % p
    roots = list(range(2, degree + 1))  # d - 1 roots, then (alpha + beta t)
    r = [1]
    for rho in roots:
        r = [(a - rho * b) % p for a, b in zip([0, *r], [*r, 0], strict=True)]
    r0, r1 = evaluate(r, 0, p), evaluate(r, 1, p)
    alpha = d0 * pow(r0, -1, p) % p
    beta = (d1 * pow(r1, -1, p) - alpha) % p
    d = [(alpha * a + beta * b) % p for a, b in zip([*r, 0], [0, *r], strict=True)]
    h = [(x + y) % p for x, y in zip(true_h + [0] * (len(d) - len(true_h)), d + [0] * (len(true_h) - len(d)), strict=True)]
    while len(h) > 1 and h[-1] == 0:
        h.pop()
    return h


@dataclass(frozen=True)
class Rounds:
    """One interactive evaluation as proposition 1's rounds see it, whatever the program:
    round ``i`` tests a product (``"a"``: ``h(0) h(1)``) or a sum (``"e"``: ``h(0) + h(1)``)
    of degree at most ``degrees[i]``; the verifier's point starts at ``start`` and moves
    to ``advance(i, point, t)`` with the coin ``t``; ``last(point)`` is ``P_0`` there. The
    honest prover's ``h`` at round ``i`` is ``honest(i, point)``."""

    kinds: list[str]
    degrees: list[int]
    start: Any
    honest: Callable[[int, Any], list[int]]
    advance: Callable[[int, Any, int], Any]
    last: Callable[[Any], int]
    coin: Callable[[int, int, int, int], int]
    #: How a failed round is named (``h(x3)`` for a QBF variable, ``h`` for an instruction).
    name: Callable[[int], str] = lambda i: "h"


def interact(rounds: Rounds, protocol: str, prover: str, p: int, value: int, runs: int,
             seed: int, deadline: Deadline) -> Claim:  # fmt: skip
    """Run ``runs`` evaluations of ``rounds`` over Z_p whose program's value is ``value``;
    the ``honest`` prover claims it, the ``cheat`` claims a false formula true (``1``)
    and lies while its claim is false. Answer ``accept``, ``reject`` or ``accept K of R``,
    with the transcript (every message while at most ``KEPT_NUMBERS`` numbers) as the
    certificate."""
    degrees, n = rounds.degrees, len(rounds.degrees)
    claim = value if prover == "honest" or value != 0 else 1  # the cheat: false claimed true
    transcript: dict[str, Any] = {"protocol": protocol, "prover": prover, "seed": seed,
                                  "prime": p, "degrees": degrees, "runs": []}  # fmt: skip
    accepted = kept = 0
    for run in range(runs):
        a, point, hs, ts, failed = claim, rounds.start, [], [], None
        truthful = a == value
        for i, kind in enumerate(rounds.kinds):
            deadline.check()
            true_h = rounds.honest(i, point)
            h = true_h if truthful else _lie(true_h, a, kind, degrees[i], p)
            hs.append(h)
            h0, h1 = evaluate(h, 0, p), evaluate(h, 1, p)
            if len(h) > degrees[i] + 1 or a != ((h0 * h1) if kind == "a" else (h0 + h1)) % p:
                failed = f"round {i + 1}: {rounds.name(i)} fails the test"
                break
            t = rounds.coin(seed, run, i, p)
            ts.append(t)
            point = rounds.advance(i, point, t)
            a = evaluate(h, t, p)
            truthful = truthful or a == evaluate(true_h, t, p)  # a lucky root: the truth again
        if failed is None and rounds.last(point) != a:
            failed = "the last claim: P0 at the random point differs"
        accept = failed is None and claim != 0
        accepted += accept
        entry: dict[str, Any] = {"claim": claim, "accept": accept, "failed": failed}
        numbers = sum(len(h) for h in hs)
        if kept + numbers <= KEPT_NUMBERS:
            entry["h"], entry["t"] = hs, ts
            kept += numbers
        transcript["runs"].append(entry)
    d = max(degrees, default=0)
    witness = {"accepted": accepted, "runs": runs, "prime": p, "claim": claim,
               "rounds": n, "degree": d, "error_bound": str(Fraction(sum(degrees), p)),
               "notes_bound": str(Fraction(n * d, p))}  # fmt: skip
    return Claim.solved(verdict_of(accepted, runs), witness, certificate=transcript)


def run_qbf(q: Program, limits: Limits = Limits(), prime: int | None = None, runs: int = 1,
            seed: int = 0, prover: str = "honest") -> Claim:  # fmt: skip
    """Run the interactive evaluation of the QBF's polynomial program ``runs`` times
    (module docstring); answer ``accept``, ``reject`` or ``accept K of R``."""
    runs = _checked("qbf", prover, runs)
    seed = checked_int(seed, "--seed", 0, 2**63)
    p = checked_prime(DEFAULT_PRIME if prime is None else prime, q)
    degrees = degree_bounds(q)
    deadline = limits.deadline()
    value = _rest(q, 0, {}, p, deadline)  # the prover's: P_N() over Z_p
    if value == 0 and not _false_by_truth(q):
        raise InputError(f"the prime {p} divides the formula's arithmetic value: the honest "
                         "prover cannot prove it over Z_p (give another --prime)")  # fmt: skip
    variables = [var for _, var in q.prefix]
    rounds = Rounds(
        kinds=[kind for kind, _ in q.prefix], degrees=degrees, start={},
        honest=lambda i, point: _honest_h(q, i, point, degrees[i], p, deadline),
        advance=lambda i, point, t: {**point, variables[i]: t},
        last=lambda point: _p0(q, point, p), coin=qbf_coin,
        name=lambda i: f"h({variables[i]})",
    )  # fmt: skip
    return interact(rounds, "qbf", prover, p, value, runs, seed, deadline)


def _false_by_truth(q: Program) -> bool:
    from pyasp_games.domains.geography.tqbf import Qbf, qbf_true

    return not qbf_true(Qbf(list(q.prefix), list(q.clauses), q.name))


def solve_direct(q: Program, limits: Limits = Limits()) -> Claim:
    """What the protocol with the honest prover must answer: ``accept`` when the QBF is
    true, ``reject`` when false (the project's direct evaluator,
    :func:`pyasp_games.domains.geography.tqbf.qbf_true`)."""
    return Claim.solved("reject" if _false_by_truth(q) else "accept", None)


# -- proposition 2: the program of a configuration graph --------------------------------


def _reach_p0(r: Reachability, w: list[int], p: int) -> int:
    """``P_0(x, y)``: the sum over the arcs ``u -> v`` of ``chi_u(x) chi_v(y)``, each
    ``chi`` the multilinear indicator of a vertex's bits: 1 on a move, 0 elsewhere."""
    b = r.bits
    total = 0
    for u, v in r.arcs:
        term = 1
        for i in range(b):
            x, y = w[i], w[b + i]
            term = term * (x if u >> i & 1 else 1 - x) % p
            term = term * (y if v >> i & 1 else 1 - y) % p
        total += term
    return total % p


def _reach_value(r: Reachability, program: list, k: int, w: list[int], p: int, memo: dict) -> int:
    """The ``k``-th polynomial of the program (from the bottom) at ``w``."""
    key = (k, tuple(w))
    if key not in memo:
        if k == 0:
            memo[key] = _reach_p0(r, w, p)
        else:
            op, coordinate = program[k - 1]
            f, g = reach_maps(r, op, coordinate, w)
            one = _reach_value(r, program, k - 1, f, p, memo)
            zero = _reach_value(r, program, k - 1, g, p, memo)
            memo[key] = one * zero % p if op == "*" else (one + zero) % p
    return memo[key]


def _on_line(f: list[int], g: list[int], t: int, p: int) -> list[int]:
    return [(t * a + (1 - t) * b) % p for a, b in zip(f, g, strict=True)]


def run_reach(r: Reachability, limits: Limits = Limits(), prime: int | None = None, runs: int = 1,
              seed: int = 0, prover: str = "honest") -> Claim:  # fmt: skip
    """Run the interactive evaluation of the notes' program ``P_L(s, t)`` (section 12,
    proposition 2: the number of walks of ``2^L`` moves from ``s`` to ``t``) ``runs`` times;
    answer ``accept`` (the verifier is convinced ``t`` is reached), ``reject`` or
    ``accept K of R``. The rounds are those of proposition 1, from the top instruction."""
    runs = _checked("qbf", prover, runs)
    seed = checked_int(seed, "--seed", 0, 2**63)
    program, degrees = reach_program(r), reach_degrees(r)
    n = len(program)
    p = prime_for(DEFAULT_PRIME if prime is None else prime, n, max(degrees))
    deadline = limits.deadline()
    memo: dict = {}
    start = reach_start(r)
    value = _reach_value(r, program, n, start, p, memo)
    # round i checks instruction k = n - i, from the top
    instructions = [program[k - 1] for k in range(n, 0, -1)]

    def honest(i: int, w: list[int]) -> list[int]:
        if len(memo) > 2_000_000:
            memo.clear()  # the points of earlier runs are not met again
        f, g = reach_maps(r, *instructions[i], w)
        return _interpolate([_reach_value(r, program, n - i - 1, _on_line(f, g, t, p), p, memo)
                             for t in range(degrees[n - i - 1] + 1)], p)  # fmt: skip

    def advance(i: int, w: list[int], t: int) -> list[int]:
        return _on_line(*reach_maps(r, *instructions[i], w), t, p)

    rounds = Rounds(
        kinds=["a" if op == "*" else "e" for op, _ in instructions],
        degrees=[degrees[k - 1] for k in range(n, 0, -1)], start=list(start),
        honest=honest, advance=advance, last=lambda w: _reach_p0(r, w, p), coin=reach_coin,
    )  # fmt: skip
    return interact(rounds, "reach", prover, p, value, runs, seed, deadline)


def count_walks(r: Reachability, limits: Limits = Limits()) -> Claim:
    """The walks of ``2^L`` moves from ``s`` to ``t``, by squaring the adjacency matrix
    ``L`` times: ``accept`` when there is one (what the honest protocol must answer)."""
    matrix = [[0] * r.n for _ in range(r.n)]
    for u, v in r.arcs:
        matrix[u][v] += 1
    for _ in range(r.levels):
        matrix = [[sum(matrix[i][m] * matrix[m][j] for m in range(r.n)) for j in range(r.n)]
                  for i in range(r.n)]  # fmt: skip
    walks = matrix[r.source][r.target]
    return Claim.solved("accept" if walks else "reject", {"walks": walks})
