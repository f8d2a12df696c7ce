"""The checkers of the ip domain: a transcript replayed against the verifier's tests.

Written from the protocols' definitions (it imports no prover): the verifier's coins are
drawn again from the seed (:func:`~pyasp_games.domains.ip.model.gni_coins`,
:func:`~pyasp_games.domains.ip.model.qbf_coin`), every message kept is checked by the
verifier's test, every run's verdict and the counts are recomputed.

- ``gni``: each round's choice ``x`` is the coin's, each message ``Y`` kept is the
  chosen graph relabelled by the coin's permutation, a round accepts exactly when the
  prover's ``z`` is ``x``, a run when every round does. On graphs of at most
  :data:`BRUTE_FORCE` vertices the checker also decides ``G ≅ H`` by trying every
  bijection: on a non-isomorphic pair the honest prover with private coins must never be
  caught.
- ``qbf``: the prime is prime and at least ``2 N d`` (the checker's own degree bounds),
  each ``h`` has degree at most its bound and passes ``a = h(0) ∘ h(1)``, each point is
  the coin's, the last claim is the checker's own ``P0`` at the random point; a run
  accepts exactly when every test passes and the claim is not 0. Up to
  :data:`INTEGER_VALUE` variables the checker computes the program's value over the
  integers (non-zero iff the formula is true): the honest prover's claim must be it
  modulo p, and the ``direct`` backend's answer must say whether it is 0.

>>> from pyasp_games.domains.ip.model import parse_program
>>> q = parse_program("p cnf 2 2\\ne 1 0\\na 2 0\\n1 2 0\\n1 -2 0\\n")
>>> integer_value(q)
1
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pyasp_games.domains.ip.model import (
    GraphPair,
    Program,
    Reachability,
    am_coins,
    am_encode,
    am_hash,
    am_threshold,
    gni_coins,
    is_prime,
    qbf_coin,
    reach_coin,
    reach_degrees,
    reach_maps,
    reach_program,
    reach_start,
    relabelled,
)
from pyasp_games.engines.outcome import Outcome

#: The largest graphs whose isomorphism the checker decides by every bijection.
BRUTE_FORCE = 8
#: The most variables whose integer value the checker computes (2^n leaves).
INTEGER_VALUE = 14


def _verdict(accepted: int, runs: int) -> str:
    return "accept" if accepted == runs else "reject" if accepted == 0 else f"accept {accepted} of {runs}"


def isomorphic(pair: GraphPair) -> bool:
    """Whether G and H are isomorphic, by every bijection (small graphs)."""
    if pair.n_g != pair.n_h or len(pair.g) != len(pair.h):
        return False
    target = {tuple(e) for e in pair.h}
    return any({tuple(sorted((perm[u], perm[v]))) for u, v in pair.g} == target
               for perm in itertools.permutations(range(pair.n_g)))  # fmt: skip


def _malformed_is_refuted(check: Any) -> Any:
    """A transcript of the wrong shape (a saved answer edited by hand) is refuted in one
    line, not a traceback."""
    import functools

    @functools.wraps(check)
    def checked(instance: Any, outcome: Outcome, *rest: Any) -> tuple[bool | None, str]:
        try:
            return check(instance, outcome, *rest)
        except (TypeError, AttributeError, KeyError, IndexError, ValueError) as err:
            return False, f"the transcript is malformed ({type(err).__name__}: {err})"

    return checked


@_malformed_is_refuted
def check_gni(pair: GraphPair, outcome: Outcome) -> tuple[bool | None, str]:
    """Replay a saved run of ``ip gni`` (module docstring)."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    t = outcome.certificate
    if not isinstance(t, dict) or t.get("protocol") != "gni" or not isinstance(t.get("runs"), list):
        return False, "no transcript of the gni protocol in the certificate"
    if t.get("coins") == "arthur-merlin":
        return check_arthur_merlin(pair, outcome, t)
    seed, rounds, runs = t.get("seed"), t.get("rounds"), t["runs"]
    if not isinstance(seed, int) or not isinstance(rounds, int) or not runs:
        return False, "the transcript names no seed, rounds or runs"
    messages = t.get("messages") or {}
    accepted = caught = checked = 0
    for run, entry in enumerate(runs):
        xs, zs = entry.get("x"), entry.get("z")
        if not isinstance(xs, str) or not isinstance(zs, str) or len(xs) != rounds or len(zs) != rounds:
            return False, f"run {run}: not {rounds} choices and answers"
        for r in range(rounds):
            x, perm = gni_coins(seed, run, r, (pair.n_g, pair.n_h))
            if xs[r] != x:
                return False, f"run {run}, round {r}: the verifier's coin chose {x}, the transcript says {xs[r]}"
            key = f"{run}:{r}"
            if key in messages:
                edges = pair.g if x == "G" else pair.h
                if messages[key] != relabelled(edges, perm):
                    return False, f"run {run}, round {r}: the message Y is not {x} relabelled by the coin's permutation"
                checked += 1
            if zs[r] not in ("G", "H"):
                return False, f"run {run}, round {r}: the prover's answer {zs[r]!r} names no graph"
        wrong = sum(x != z for x, z in zip(xs, zs, strict=True))
        if entry.get("accept") is not (wrong == 0):
            return False, f"run {run}: the verifier must {'accept' if wrong == 0 else 'reject'}"
        caught += wrong
        accepted += wrong == 0
    if outcome.answer != _verdict(accepted, len(runs)):
        return False, f"the runs say {_verdict(accepted, len(runs))}, the answer {outcome.answer}"
    w = outcome.witness if isinstance(outcome.witness, dict) else {}
    if (w.get("accepted"), w.get("caught"), w.get("runs")) != (accepted, caught, len(runs)):
        return False, "the witness's counts are not the transcript's"
    said = f"{len(runs) * rounds} rounds replayed from seed {seed}, {checked} messages checked"
    if max(pair.n_g, pair.n_h) <= BRUTE_FORCE:
        same = isomorphic(pair)
        if not same and t.get("coins") == "private" and t.get("prover") == "honest" and caught:
            return False, "G and H are not isomorphic, yet the honest prover was caught"
        said += "; G and H are " + ("isomorphic" if same else "not isomorphic") + " (every bijection tried)"
    return True, said


def _merlin_proves(pair: GraphPair, proof: Any, rows: list[int], b: int, y: int) -> str | None:
    """Why Merlin's message is no pair (Y, tau) of the set hashing to ``y``, or ``None``."""
    n = pair.n_g
    if not isinstance(proof, list) or len(proof) != 3 or proof[0] not in ("G", "H"):
        return "not [graph, phi, tau]"
    _, phi, tau = proof
    if any(sorted(p) != list(range(n)) if isinstance(p, list) else True for p in (phi, tau)):
        return "phi or tau is no permutation of the vertices"
    edges = pair.g if proof[0] == "G" else pair.h
    y_edges = {tuple(sorted((phi[u], phi[v]))) for u, v in edges}
    if {tuple(sorted((tau[u], tau[v]))) for u, v in y_edges} != y_edges:
        return "tau is no automorphism of Y"
    if am_hash(rows, b, am_encode(n, sorted(y_edges), tau)) != y:
        return "the pair does not hash to Arthur's target"
    return None


@_malformed_is_refuted
def check_arthur_merlin(pair: GraphPair, outcome: Outcome, t: dict[str, Any]) -> tuple[bool | None, str]:
    """Replay Goldwasser and Sipser's protocol: each of Merlin's pairs is in the set
    (Y = phi(G or H), tau an automorphism of Y) and hashes to the coins' target; a run
    accepts exactly with the threshold's hits."""
    seed, rounds, runs = t.get("seed"), t.get("rounds"), t["runs"]
    if not isinstance(seed, int) or not isinstance(rounds, int) or not runs:
        return False, "the transcript names no seed, rounds or runs"
    n = pair.n_g
    need = am_threshold(n, rounds)
    accepted = missed = replayed = 0
    for run, entry in enumerate(runs):
        hits = entry.get("hits")
        if "merlin" in entry:
            answers = entry["merlin"]
            if not isinstance(answers, list) or len(answers) != rounds:
                return False, f"run {run}: not {rounds} messages of Merlin"
            for r, proof in enumerate(answers):
                if proof is None:
                    continue
                why = _merlin_proves(pair, proof, *am_coins(seed, run, r, n))
                if why is not None:
                    return False, f"run {run}, round {r}: Merlin's message: {why}"
            if hits != sum(a is not None for a in answers):
                return False, f"run {run}: the hits are not the rounds Merlin answered"
            replayed += 1
        if not isinstance(hits, int) or entry.get("accept") is not (hits >= need):
            return False, f"run {run}: {hits} hits of the {need} needed: the verdict is wrong"
        accepted += hits >= need
        missed += rounds - hits
    if outcome.answer != _verdict(accepted, len(runs)):
        return False, f"the runs say {_verdict(accepted, len(runs))}, the answer {outcome.answer}"
    w = outcome.witness if isinstance(outcome.witness, dict) else {}
    if (w.get("accepted"), w.get("caught")) != (accepted, missed):
        return False, "the witness's counts are not the transcript's"
    if replayed < len(runs):
        outcome.verdict.not_checked = f"Merlin's messages of {len(runs) - replayed} runs (not kept)"
    return True, f"{replayed} of {len(runs)} runs replayed from seed {seed}: every pair Merlin sent is in the set and hits the target"


def _arithmetic(q: Program, point: dict[int, int], p: int | None) -> int:
    value = 1
    for clause in q.clauses:
        miss = 1
        for lit in clause:
            miss *= point[abs(lit)] if lit < 0 else 1 - point[abs(lit)]
        value *= 1 - miss
        if p is not None:
            value %= p
    return value


def integer_value(q: Program) -> int:
    """``P_N()`` over the integers: every assignment's clause value, folded from the
    innermost variable (a sum for ∃, a product for ∀)."""
    n = len(q.prefix)
    variables = [v for _, v in q.prefix]
    values = [_arithmetic(q, dict(zip(variables, bits, strict=True)), None)
              for bits in itertools.product((0, 1), repeat=n)]  # fmt: skip
    for kind, _ in reversed(q.prefix):
        zero, one = values[0::2], values[1::2]
        values = [a * b if kind == "a" else a + b for a, b in zip(zero, one, strict=True)]
    return values[0]


def _bounds(q: Program) -> list[int]:
    out = []
    for i, (_, var) in enumerate(q.prefix):
        times = sum(abs(lit) == var for c in q.clauses for lit in c)
        out.append(times << sum(kind == "a" for kind, _ in q.prefix[i + 1 :]))
    return out


def _at(coeffs: list[int], t: int, p: int) -> int:
    return sum(c * pow(t, k, p) for k, c in enumerate(coeffs)) % p


@_malformed_is_refuted
def check_qbf(q: Program, outcome: Outcome) -> tuple[bool | None, str]:
    """Replay a saved run of ``ip qbf``, or check the ``direct`` answer (module docstring)."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    small = len(q.prefix) <= INTEGER_VALUE
    value = integer_value(q) if small else None
    if outcome.certificate is None:  # the direct evaluation
        if value is None:
            return None, f"more than {INTEGER_VALUE} variables: not checkable alone"
        truth = "accept" if value else "reject"
        if outcome.answer != truth:
            return False, f"the formula's integer value is {value}: the answer is {truth}"
        return True, f"the polynomial program's value over the integers is {value}"
    t = outcome.certificate
    bounds = _bounds(q)
    variables = [var for _, var in q.prefix]
    replay = _Replay(
        kinds=[kind for kind, _ in q.prefix], bounds=bounds, start={}, coin=qbf_coin,
        advance=lambda i, point, t: {**point, variables[i]: t},
        last=lambda point, p: _arithmetic(q, point, p),
    )  # fmt: skip
    replayed = _replay_runs(t, "qbf", replay, outcome.answer)
    if isinstance(replayed, str):
        return False, replayed
    p, seed, runs = t["prime"], t["seed"], t["runs"]
    said = f"{replayed} of {len(runs)} runs replayed from seed {seed} over Z_{p}"
    if value is not None:
        if t.get("prover") == "honest" and any(e.get("claim") != value % p for e in runs):
            return False, f"the honest prover's claim is not the program's value {value} mod {p}"
        said += f"; the formula is {'true' if value else 'false'} (integer value {value})"
    _not_replayed(outcome, replayed, len(runs))
    return True, said


@dataclass(frozen=True)
class _Replay:
    """What the verifier tests, round by round, for one program (the checker's own
    reading of proposition 1): round ``i`` tests a product (``"a"``) or a sum (``"e"``)
    of degree at most ``bounds[i]``; the point starts at ``start``, moves to
    ``advance(i, point, t)`` with the coin ``t``, and ``last(point, p)`` is ``P_0`` there."""

    kinds: list[str]
    bounds: list[int]
    start: Any
    coin: Callable[[int, int, int, int], int]
    advance: Callable[[int, Any, int], Any]
    last: Callable[[Any, int], int]


def _replay_runs(t: Any, protocol: str, replay: _Replay, answer: Any) -> int | str:
    """Replay every kept run of the transcript ``t`` (the prime, the seed's coins, each
    round's test, the last evaluation, each verdict) and compare the runs' verdict with
    ``answer``: the number of runs replayed, or why the transcript is refuted."""
    if not isinstance(t, dict) or t.get("protocol") != protocol or not isinstance(t.get("runs"), list):
        return f"no transcript of the {protocol} protocol in the certificate"
    p, seed, runs = t.get("prime"), t.get("seed"), t["runs"]
    n, d = len(replay.bounds), max(replay.bounds, default=0)
    if not isinstance(p, int) or not is_prime(p) or p < 2 * n * d:
        return f"the prime {p!r} is not a prime of at least 2 N d = {2 * n * d}"
    if not isinstance(seed, int) or not runs:
        return "the transcript names no seed or no run"
    accepted = replayed = 0
    for run, entry in enumerate(runs):
        claim = entry.get("claim")
        if not isinstance(claim, int) or not 0 <= claim < p:
            return f"run {run}: the claim {claim!r} is not an element of Z_{p}"
        if "h" in entry:
            hs, ts = entry["h"], entry.get("t")
            failed, a, point = None, claim, replay.start
            for i, kind in enumerate(replay.kinds):
                if i >= len(hs):
                    return f"run {run}: the prover's messages stop at round {i + 1}"
                h = hs[i]
                if not isinstance(h, list) or not h or any(not isinstance(c, int) or not 0 <= c < p for c in h):
                    return f"run {run}, round {i + 1}: h is not a list of elements of Z_{p}"
                h0, h1 = _at(h, 0, p), _at(h, 1, p)
                if len(h) > replay.bounds[i] + 1 or a != ((h0 * h1) if kind == "a" else (h0 + h1)) % p:
                    failed = i
                    break
                coin = replay.coin(seed, run, i, p)
                if not isinstance(ts, list) or i >= len(ts) or ts[i] != coin:
                    return f"run {run}, round {i + 1}: the point is not the verifier's coin"
                point = replay.advance(i, point, coin)
                a = _at(h, coin, p)
            stop = n if failed is None else failed + 1
            if len(hs) != stop or len(ts) != stop - (failed is not None):
                if failed is None:
                    return f"run {run}: not one polynomial and one point a round"
                return f"run {run}: the messages go on after the verifier's test of round {failed + 1} ended it"
            passes = failed is None and replay.last(point, p) == a
            if entry.get("accept") is not (passes and claim != 0):
                return f"run {run}: the verifier's tests {'pass' if passes else 'fail'}, " \
                    f"the claim is {claim}: it must {'accept' if passes and claim else 'reject'}"
            replayed += 1
        accepted += entry.get("accept") is True
    if answer != _verdict(accepted, len(runs)):
        return f"the runs say {_verdict(accepted, len(runs))}, the answer {answer}"
    return replayed


def _not_replayed(outcome: Outcome, replayed: int, runs: int) -> None:
    if replayed < runs:
        outcome.verdict.not_checked = f"the messages of {runs - replayed} runs (not kept: their verdicts only)"


def walks(r: Reachability) -> int:
    """The walks of ``2^L`` moves from the source to the target, one move at a time."""
    counts = [0] * r.n
    counts[r.source] = 1
    for _ in range(2**r.levels):
        step = [0] * r.n
        for u, v in r.arcs:
            step[v] += counts[u]
        counts = step
    return counts[r.target]


def _reach_p0(r: Reachability, w: list[int], p: int) -> int:
    b, total = r.bits, 0
    for u, v in r.arcs:
        term = 1
        for i in range(b):
            term *= (w[i] if u >> i & 1 else 1 - w[i]) * (w[b + i] if v >> i & 1 else 1 - w[b + i])
        total += term
    return total % p


@_malformed_is_refuted
def check_reach(r: Reachability, outcome: Outcome) -> tuple[bool | None, str]:
    """Replay a saved run of ``ip reach`` (the program of proposition 2), or check the
    ``direct`` count, against the checker's own count of walks."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    count = walks(r)
    if outcome.certificate is None:
        truth = "accept" if count else "reject"
        if outcome.answer != truth or (outcome.witness or {}).get("walks") != count:
            return False, f"{count} walks of {2 ** r.levels} moves: the answer is {truth}"
        return True, f"{count} walks of {2 ** r.levels} moves, counted move by move"
    t = outcome.certificate
    program, degrees = reach_program(r), reach_degrees(r)
    n = len(program)
    # round i checks instruction k = n - i, from the top
    instructions = [program[k - 1] for k in range(n, 0, -1)]

    def advance(i: int, w: list[int], point: int) -> list[int]:
        f, g = reach_maps(r, *instructions[i], w)
        return [(point * x + (1 - point) * y) % p for x, y in zip(f, g, strict=True)]

    p = t.get("prime") if isinstance(t, dict) else None
    replay = _Replay(
        kinds=["a" if op == "*" else "e" for op, _ in instructions],
        bounds=[degrees[k - 1] for k in range(n, 0, -1)], start=reach_start(r),
        coin=reach_coin, advance=advance, last=lambda w, p: _reach_p0(r, w, p),
    )  # fmt: skip
    replayed = _replay_runs(t, "reach", replay, outcome.answer)
    if isinstance(replayed, str):
        return False, replayed
    seed, runs = t["seed"], t["runs"]
    if t.get("prover") == "honest" and any(e.get("claim") != count % p for e in runs):
        return False, f"the honest prover's claim is not the {count} walks mod {p}"
    _not_replayed(outcome, replayed, len(runs))
    return True, f"{replayed} of {len(runs)} runs replayed from seed {seed} over Z_{p}; {count} walks of {2 ** r.levels} moves"


def check_outcome(instance: Any, outcome: Outcome) -> tuple[bool | None, str]:
    """The checker of any question of the domain, by its instance."""
    if isinstance(instance, GraphPair):
        return check_gni(instance, outcome)
    if isinstance(instance, Reachability):
        return check_reach(instance, outcome)
    return check_qbf(instance, outcome)
