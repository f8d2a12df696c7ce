"""Cube and conquer on the kernel formula of the Grundy benchmark's random digraphs.

The question measured is layer 0 of ``grundy exists -b sat --by-kernels``: does the
core of ``random_arcs(n, seed)`` (``benchmarks/grundy_exists.py``'s instances) have a
kernel? One Boolean ``in(v)`` per position; an arc ``u -> w`` forbids both ends; a
position outside has a successor inside (the clause ``in(u) or in(succ(u))``).

*Cubing* is a look-ahead over the formula's own structure, compiled with numba: unit
propagation knows only two kinds of clauses ("not both ends of an arc", a position's
"me or a successor"). At each node of the cube tree every free position (or the
``--candidates`` best of the parent's scores) is tried both ways; a value whose
propagation fails is a failed literal (the other value is forced at the node; both
failing refutes the node, a cube refuted for free); the others are scored by what
they propagate (``--score assigned``: positions fixed; ``--score binaries``: long
clauses left with two free literals, march's "new binaries"), and the position with
the largest product of its two scores is branched on. A node becomes a cube at depth
``--depth`` or once ``--cutoff`` of the positions are fixed.

*Conquering* is one incremental CaDiCaL 1.9.5 (``stabilizeonly=1``, as the search by
kernels runs it) holding the whole formula: each cube is solved under assumptions (its
decisions and failed-literal values), learnt clauses kept between cubes, and a refuted
cube's failed assumptions are added as a clause. "none" when every cube is refuted;
"kernel" at the first cube that has one (checked here: independent and absorbing).
The plain row (``--plain``) is the same solver on the same formula without cubes
(run in the CPU-sized conflict slices of ``SatSession``, as the backend runs it).

With ``--complete`` a kernel found is completed to a Grundy function (the layers above
0 by ``kernel_chains``, the function checked by the mex rule) or blocked, and the search
goes on: the answer to ``grundy exists`` itself.

Every run honours ``--cpu-limit`` (CPU seconds of this process for cubing plus
conquering; "unknown" at the limit). ``--reduce`` adds clauses the structure implies
and CDCL does not derive by propagation alone, and says how many:
``common``: a position ``v`` all of whose successors move to a position ``z``:
``in(z)`` puts all of ``v``'s successors out, so ``in(v)``: the clause
``not in(z) or in(v)`` (its contrapositive ``not in(v) -> not in(z)`` is what
propagation misses).

    python benchmarks/grundy_cube_conquer.py --sizes 4000 --seed-list 0 3 5 8 9 --depth 8 12 \
        --plain --cpu-limit 40
    python benchmarks/grundy_cube_conquer.py --sizes 4000 --seed-list 5 --depth 1000 \
        --candidates 50 --presel 0.05 --cpu-limit 60     # the pure look-ahead search
    python benchmarks/grundy_cube_conquer.py --sizes 4000 --seed-list 5 3 --depth --plain \
        --reduce common

The measurements and what they mean: ``benchmarks/RESULTS.md``, "Fifth round: cube and
conquer on the kernel formula".
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grundy_exists import instance

from pyasp_games.domains.grundy.core import in_core
from pyasp_games.domains.grundy.kernel_layers import encode_kernel, induced, kernel_chains
from pyasp_games.domains.grundy.verify import check_grundy_function
from pyasp_games.engines.graphs import Digraph
from pyasp_games.engines.limits import Deadline
from pyasp_games.engines.sat_runner import SatSession


def cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


# -- the look-ahead, on the kernel structure ------------------------------------------
# val[v]: -1 free, 0 out, 1 in. Clause c (one per position c): in(c) or in(succ(c));
# nonfalse[c] counts its literals not yet false. occ(v): the clauses holding in(v)
# (v's own and its predecessors'); nbr(v): v's successors and predecessors (an arc
# forbids both ends in).


@njit(cache=True)
def _assign(v, b, val, nonfalse, trail, state, occ_ptr, occ_idx, clause_ptr, clause_idx):
    # returns 1: assigned, 0: already so, -1: conflict; state[0] = trail length,
    # state[1] = new binaries (long clauses left with two free literals, unsatisfied)
    if val[v] == b:
        return 0
    if val[v] != -1:
        return -1
    val[v] = b
    trail[state[0]] = v
    state[0] += 1
    if b == 0:
        for i in range(occ_ptr[v], occ_ptr[v + 1]):
            c = occ_idx[i]
            nonfalse[c] -= 1
            if nonfalse[c] == 2:
                sat = False
                for j in range(clause_ptr[c], clause_ptr[c + 1]):
                    if val[clause_idx[j]] == 1:
                        sat = True
                if not sat:
                    state[1] += 1
    return 1


@njit(cache=True)
def _propagate(
    start, val, nonfalse, trail, state, occ_ptr, occ_idx, clause_ptr, clause_idx, nbr_ptr, nbr_idx
):
    head = start
    while head < state[0]:
        v = trail[head]
        head += 1
        if val[v] == 1:
            for i in range(nbr_ptr[v], nbr_ptr[v + 1]):
                r = _assign(
                    nbr_idx[i],
                    0,
                    val,
                    nonfalse,
                    trail,
                    state,
                    occ_ptr,
                    occ_idx,
                    clause_ptr,
                    clause_idx,
                )
                if r < 0:
                    return False
        else:
            for i in range(occ_ptr[v], occ_ptr[v + 1]):
                c = occ_idx[i]
                if nonfalse[c] == 0:
                    return False
                if nonfalse[c] == 1:
                    for j in range(clause_ptr[c], clause_ptr[c + 1]):
                        w = clause_idx[j]
                        if val[w] == -1:
                            _assign(
                                w,
                                1,
                                val,
                                nonfalse,
                                trail,
                                state,
                                occ_ptr,
                                occ_idx,
                                clause_ptr,
                                clause_idx,
                            )
                            break
    return True


@njit(cache=True)
def _undo(mark, val, nonfalse, trail, state, occ_ptr, occ_idx):
    while state[0] > mark:
        state[0] -= 1
        v = trail[state[0]]
        if val[v] == 0:
            for i in range(occ_ptr[v], occ_ptr[v + 1]):
                nonfalse[occ_idx[i]] += 1
        val[v] = -1


@njit(cache=True)
def _decide(
    v, b, val, nonfalse, trail, state, occ_ptr, occ_idx, clause_ptr, clause_idx, nbr_ptr, nbr_idx
):
    """Assign and propagate at the node (kept); False on a conflict."""
    mark = state[0]
    r = _assign(v, b, val, nonfalse, trail, state, occ_ptr, occ_idx, clause_ptr, clause_idx)
    if r < 0:
        return False
    return _propagate(
        mark,
        val,
        nonfalse,
        trail,
        state,
        occ_ptr,
        occ_idx,
        clause_ptr,
        clause_idx,
        nbr_ptr,
        nbr_idx,
    )


@njit(cache=True)
def _look_ahead(
    cands,
    mode,
    val,
    nonfalse,
    trail,
    state,
    occ_ptr,
    occ_idx,
    clause_ptr,
    clause_idx,
    nbr_ptr,
    nbr_idx,
    scores,
    forced,
):
    """Try every free candidate both ways. Failed literals: the other value is fixed at
    the node and recorded in ``forced`` (as +v+1 / -(v+1)); returns (-2, k) if the node is
    refuted, else (best candidate or -1, number of forced)."""
    nforced = 0
    best = -1
    best_score = -1.0
    for k in range(cands.shape[0]):
        v = cands[k]
        scores[k] = -1.0
        if val[v] != -1:
            continue
        s = np.zeros(2)
        failed = np.zeros(2, dtype=np.bool_)
        for b in range(2):
            mark = state[0]
            state[1] = 0
            ok = _decide(
                v,
                b,
                val,
                nonfalse,
                trail,
                state,
                occ_ptr,
                occ_idx,
                clause_ptr,
                clause_idx,
                nbr_ptr,
                nbr_idx,
            )
            s[b] = (state[0] - mark) if mode == 0 else state[1]
            state[2] += 1  # probes, and the positions they fixed
            state[3] += state[0] - mark
            _undo(mark, val, nonfalse, trail, state, occ_ptr, occ_idx)
            failed[b] = not ok
        if failed[0] and failed[1]:
            return -2, nforced
        if failed[0] or failed[1]:
            b = 0 if failed[1] else 1
            forced[nforced] = (v + 1) if b == 1 else -(v + 1)
            nforced += 1
            if not _decide(
                v,
                b,
                val,
                nonfalse,
                trail,
                state,
                occ_ptr,
                occ_idx,
                clause_ptr,
                clause_idx,
                nbr_ptr,
                nbr_idx,
            ):
                return -2, nforced
            continue
        score = (s[0] + 0.1) * (s[1] + 0.1)
        scores[k] = score
        if score > best_score:
            best_score = score
            best = v
    return best, nforced


@njit(cache=True)
def _rank(val, nonfalse, clause_ptr, clause_idx, n):
    """march's preselection, on this formula: a free position weighs the unsatisfied long
    clauses it is in, the shorter the heavier (a clause with two free literals is an
    implication already, propagation's raw material)."""
    rank = np.zeros(n)
    for c in range(n):
        k = nonfalse[c]
        sat = False
        for j in range(clause_ptr[c], clause_ptr[c + 1]):
            if val[clause_idx[j]] == 1:
                sat = True
        if sat or k > 6:
            continue
        w = 5.0 ** (2 - k)
        for j in range(clause_ptr[c], clause_ptr[c + 1]):
            v = clause_idx[j]
            if val[v] == -1:
                rank[v] += w
    return rank


class Cuber:
    """The look-ahead cube tree over the kernel formula of ``graph``."""

    def __init__(self, graph: Digraph, mode: int) -> None:
        n = len(graph)
        pred = graph.pred

        def csr(lists: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
            ptr = np.zeros(len(lists) + 1, dtype=np.int64)
            ptr[1:] = np.cumsum([len(x) for x in lists])
            idx = np.array([y for x in lists for y in x], dtype=np.int64)
            return ptr, idx

        self.occ = csr([[v, *pred[v]] for v in range(n)])
        self.clause = csr([[c, *graph.succ[c]] for c in range(n)])
        self.nbr = csr([sorted(set(graph.succ[v]) | set(pred[v])) for v in range(n)])
        self.n = n
        self.mode = mode
        self.val = np.full(n, -1, dtype=np.int64)
        self.nonfalse = np.array([1 + len(graph.succ[c]) for c in range(n)], dtype=np.int64)
        self.trail = np.zeros(n, dtype=np.int64)
        self.state = np.zeros(4, dtype=np.int64)
        self.forced = np.zeros(n, dtype=np.int64)
        self.nodes = 0
        self.refuted = 0
        self.failed_literals = 0

    def _args(self) -> tuple[Any, ...]:
        return (self.val, self.nonfalse, self.trail, self.state, *self.occ, *self.clause, *self.nbr)

    def decide(self, v: int, b: int) -> bool:
        return _decide(v, b, *self._args())

    def undo(self, mark: int) -> None:
        _undo(mark, self.val, self.nonfalse, self.trail, self.state, *self.occ)

    def cubes(
        self, depth: int, cutoff: float, candidates: int, deadline: Deadline, presel: float = 0.0
    ) -> list[list[int]] | None:
        """The cubes (literals ``±(v+1)``), depth first; ``None`` at the deadline."""
        out: list[list[int]] = []
        root = np.arange(self.n, dtype=np.int64)

        def node(cube: list[int], cands: np.ndarray, d: int) -> bool:
            if deadline.expired():
                return False
            self.nodes += 1
            mark = int(self.state[0])
            scores = np.zeros(len(cands))
            best, nforced = _look_ahead(cands, self.mode, *self._args(), scores, self.forced)
            self.failed_literals += nforced
            here = cube + [int(x) for x in self.forced[:nforced]]
            if best == -2:
                self.refuted += 1
            elif best == -1 or d >= depth or self.state[0] >= cutoff * self.n:
                out.append(here)  # deep enough, or every candidate fixed: a cube to conquer
            else:
                if presel > 0:
                    rank = _rank(self.val, self.nonfalse, *self.clause, self.n)
                    free = int((self.val == -1).sum())
                    nxt = np.argsort(-rank)[: max(candidates, int(presel * free))]
                    nxt = nxt[self.val[nxt] == -1].astype(np.int64)
                else:
                    order = np.argsort(-scores)[:candidates]
                    nxt = cands[order[scores[order] >= 0]]
                for b in (1, 0):
                    inner = int(self.state[0])
                    lit = (best + 1) if b == 1 else -(best + 1)
                    if self.decide(int(best), b):
                        if not node([*here, lit], nxt, d + 1):
                            return False
                    else:
                        self.refuted += 1
                    self.undo(inner)
            self.undo(mark)
            return True

        return out if node([], root, 0) else None


def kernel_formula(graph: Digraph, reduce: list[str]) -> tuple[list[list[int]], dict[str, int]]:
    """The kernel clauses over variables ``v+1``, and the extra clauses of ``reduce``."""
    with SatSession("minisat22", keep_clauses=True) as s:
        x = encode_kernel(s, graph)
        assert x == list(range(1, len(graph) + 1))
        clauses = list(s.clauses or [])
    added: dict[str, int] = {}
    if "common" in reduce:
        count = 0
        for v, out in enumerate(graph.succ):
            if not out:
                continue
            common = set(graph.succ[out[0]])
            for w in out[1:]:
                common &= set(graph.succ[w])
            for z in common:
                if z != v:
                    clauses.append([-(z + 1), v + 1])
                    count += 1
        added["common"] = count
    return clauses, added


def is_kernel(graph: Digraph, chosen: set[int]) -> bool:
    return all((v in chosen) != any(w in chosen for w in graph.succ[v]) for v in range(len(graph)))


def completion(graph: Digraph, kernel: set[int], deadline: Deadline) -> list[int] | bool | None:
    """A Grundy function of ``graph`` with value 0 on ``kernel`` (the layers above by
    ``kernel_chains``, as ``--by-kernels`` runs them), ``False`` if there is none, ``None``
    at the deadline."""
    rest = [v for v in range(len(graph)) if v not in kernel]
    functions, _ = kernel_chains(induced(graph, rest), deadline)
    if functions is None:
        return None
    if not functions:
        return False
    values = [0] * len(graph)
    for i, v in enumerate(rest):
        values[v] = functions[0][i] + 1
    return values


def conquer(
    graph: Digraph,
    clauses: list[list[int]],
    cubes: list[list[int]],
    deadline: Deadline,
    complete: bool = False,
) -> tuple[str, int, int]:
    """Solve the cubes in order with one CaDiCaL: (answer, conflicts, cubes solved).
    With ``complete``, a kernel found is completed to a Grundy function (checked by the
    mex rule) or blocked, and the same cube asked again."""
    with SatSession("cadical195", deadline, keep_clauses=False, options={"stabilizeonly": 1}) as s:
        for _ in range(len(graph)):
            s.var("in", _)
        s.extend(clauses)
        done = 0
        blocked = 0
        for cube in cubes:
            while True:
                result = s.solve(assumptions=cube)
                if result is None or not result:
                    break
                model = s.solver.get_model()
                chosen = {v - 1 for v in model if 0 < v <= len(graph)}
                assert is_kernel(graph, chosen), "CaDiCaL's model is not a kernel"
                if not complete:
                    return "kernel", s._conflicts(), done + 1
                values = completion(graph, chosen, deadline)
                if values is None:
                    return "unknown", s._conflicts(), done
                if values is not False:
                    function = dict(zip(graph.names, values, strict=True))
                    ok, why = check_grundy_function(graph, function)
                    assert ok, why
                    note = f" ({blocked} kernels blocked)" if blocked else ""
                    return f"exists, mex rule verified{note}", s._conflicts(), done + 1
                blocked += 1  # no kernel contains another: this clause excludes just it
                s.add([-(v + 1) for v in sorted(chosen)])
            if result is None:
                return "unknown", s._conflicts(), done
            done += 1
            core = s.solver.get_core() or []
            if core:  # the formula refutes these assumptions: a clause that holds
                s.add([-lit for lit in core])
        return "none" if not blocked else f"none ({blocked} kernels blocked)", s._conflicts(), done


def plain(graph: Digraph, clauses: list[list[int]], deadline: Deadline) -> tuple[str, int]:
    with SatSession("cadical195", deadline, keep_clauses=False, options={"stabilizeonly": 1}) as s:
        for v in range(len(graph)):
            s.var("in", v)
        s.extend(clauses)
        result = s.solve()
        answer = {None: "unknown", True: "kernel", False: "none"}[result]
        return answer, s._conflicts()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[4000])
    parser.add_argument("--seed-list", type=int, nargs="+", default=[0, 3, 5, 8, 9])
    parser.add_argument("--depth", type=int, nargs="*", default=[8])
    parser.add_argument("--cutoff", type=float, default=1.0, help="Fixed fraction ending a cube.")
    parser.add_argument("--candidates", type=int, default=1 << 30)
    parser.add_argument(
        "--presel",
        type=float,
        default=0.0,
        help="Look ahead below the root only on this "
        "fraction of the free positions (at least --candidates), ranked by march's weights "
        "of the short clauses they are in; 0: the --candidates best of the parent's scores.",
    )
    parser.add_argument("--score", choices=("assigned", "binaries"), default="binaries")
    parser.add_argument("--reduce", nargs="*", default=[], choices=("common",))
    parser.add_argument("--cpu-limit", type=float, default=60.0)
    parser.add_argument(
        "--complete",
        action="store_true",
        help="Complete a kernel found to a Grundy "
        "function (the layers above, checked by the mex rule) or block it and go on.",
    )
    parser.add_argument("--plain", action="store_true", help="Also the formula without cubes.")
    args = parser.parse_args()
    # compile (or load) the look-ahead before any clock starts
    warm = Cuber(instance(30, 0), 1)
    warm.cubes(2, 1.0, 10, Deadline(None))
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(
        "| n | seed | core | depth | reduce | answer | cubes | refuted free | failed lits | nodes "
        "| cube CPU s | conquer CPU s | total CPU s | wall s | conflicts | cubes solved "
        "| probes (positions fixed per probe) |"
    )
    print("|" + "---|" * 17)
    for n in args.sizes:
        for seed in args.seed_list:
            graph, _ = in_core(instance(n, seed))
            clauses, added = kernel_formula(graph, args.reduce)
            note = ",".join(f"{k}+{v}" for k, v in added.items()) or "-"
            if args.plain:
                c0, w0 = cpu(), time.monotonic()
                answer, conflicts = plain(graph, clauses, Deadline(None, args.cpu_limit))
                print(
                    f"| {n} | {seed} | {len(graph)} | plain | {note} | {answer} | | | | | | "
                    f"| {cpu() - c0:.2f} | {time.monotonic() - w0:.2f} | {conflicts} | | |",
                    flush=True,
                )
            for depth in args.depth:
                c0, w0 = cpu(), time.monotonic()
                deadline = Deadline(None, args.cpu_limit)
                cuber = Cuber(graph, 0 if args.score == "assigned" else 1)
                cubes = cuber.cubes(depth, args.cutoff, args.candidates, deadline, args.presel)
                c1 = cpu()
                if cubes is None:
                    answer, conflicts, done, ncubes = "unknown (cubing)", 0, 0, "-"
                else:
                    answer, conflicts, done = conquer(
                        graph, clauses, cubes, deadline, args.complete
                    )
                    ncubes = str(len(cubes))
                c2 = cpu()
                probes = int(cuber.state[2])
                fixed = cuber.state[3] / max(probes, 1)
                print(
                    f"| {n} | {seed} | {len(graph)} | {depth} | {note} | {answer} | {ncubes} | "
                    f"{cuber.refuted} | {cuber.failed_literals} | {cuber.nodes} | {c1 - c0:.2f} "
                    f"| {c2 - c1:.2f} | {c2 - c0:.2f} | {time.monotonic() - w0:.2f} | "
                    f"{conflicts} | {done} | {probes} ({fixed:.1f}) |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
