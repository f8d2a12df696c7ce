"""The native backends of the cover domain: Algorithm X (Knuth 2000) in two data structures.

``dlx``: dancing links (:mod:`pyasp_games.domains.cover.dancing_links`), the default: its
nodes cost the live part of the matrix they touch, whatever the matrix's size.
``bitset``: bit sets (:mod:`pyasp_games.domains.cover.bitsets`), the same search tree over
64-bit words, and a memo of solved subproblems when counting: the fastest on small
dense matrices and at counting many covers, slow on huge sparse ones. Both are
compiled kernels that poll the deadline between slices and count their nodes; both
work for any exact-cover matrix (options of any size).

>>> from pyasp_games.domains.cover.model import X3C
>>> inst = X3C(6, ((0, 1, 2), (3, 4, 5), (1, 2, 3), (0, 1, 4)))
>>> out = solve_dlx(inst)
>>> out.status, out.answer, out.witness
('solved', True, [0, 1])
>>> solve_dlx(inst, mode="count").answer, solve_bitset(inst, mode="count").answer
(1, 1)
"""

from __future__ import annotations

from pyasp_games.domains.cover.model import X3C
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.question import checked_mode


def _solve_native(inst: X3C, limits: Limits, mode: str, backend: str) -> Claim:
    checked_mode(mode)
    deadline = limits.deadline()
    if backend == "dlx":
        from pyasp_games.domains.cover.dancing_links import DancingLinks as structure
    else:
        from pyasp_games.domains.cover.bitsets import BitsetCover as structure
    matrix = structure(inst.size, inst.subsets)
    deadline.check()
    found: list[list[int]] = []
    count = 0
    if mode == "count":
        count = matrix.count(deadline)  # counted, not listed
    else:
        for cover in matrix.search(deadline):
            count += 1
            if mode == "one":
                found.append(sorted(cover))
                break
            if mode == "all":
                found.append(sorted(cover))
    stats = matrix.statistics()
    if mode == "one":
        if found:
            return Claim.solved(True, found[0], stats=stats)
        return Claim.none(False, stats=stats)
    status = "solved" if count else "no-solution"
    return Claim(status, count, sorted(found) if mode == "all" else None, stats=stats)


def solve_dlx(instance: X3C, limits: Limits = Limits(), mode: str = "one") -> Claim:
    """Algorithm X with dancing links on an X3C instance.

    ``mode``: ``one`` (answer ``True``/``False``, witness the cover's subset
    indices, sorted), ``count`` (answer the number of covers) or ``all`` (also the
    list of every cover as witness).
    """
    return _solve_native(instance, limits, mode, "dlx")


def solve_bitset(instance: X3C, limits: Limits = Limits(), mode: str = "one") -> Claim:
    """Algorithm X over bit sets; modes and answers as :func:`solve_dlx`.

    The same search tree as ``dlx`` (``count``: pruned by the memo of solved
    subproblems); faster on small dense matrices, slower on huge sparse ones (see
    :mod:`pyasp_games.domains.cover.bitsets`).
    """
    return _solve_native(instance, limits, mode, "bitset")
