"""The native backend: dynamic programming over the reachable sums.

``dp``: the subsets of the first ``i`` numbers, counted by their sum (sums beyond the
target dropped): O(n * target) time and space.

A backend returns a :class:`~pyasp_games.engines.claim.Claim`: what it found, never its
own name, time or verdict (the runner stamps those and runs the checker).

>>> from subsetsum.model import SubsetSum
>>> claim = solve_dp(SubsetSum((3, 4, 5), 7))
>>> claim.status, claim.answer, claim.witness, claim.kind
('solved', True, [0, 1], 'exact')
>>> solve_dp(SubsetSum((3, 4, 5), 7), mode="count").answer
1
>>> solve_dp(SubsetSum((3, 4, 5), 2)).status
'no-solution'
"""

from __future__ import annotations

from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.question import checked_mode
from subsetsum.model import SubsetSum


def solve_dp(inst: SubsetSum, limits: Limits = Limits(), mode: str = "one") -> Claim:
    """``one``: whether a choice adds up to the target (witness: the chosen indices),
    ``count``: how many choices do."""
    checked_mode(mode)
    deadline = limits.deadline()
    t = inst.target
    ways = [[0] * (t + 1) for _ in range(len(inst.numbers) + 1)]  # ways[i][s]: first i numbers
    ways[0][0] = 1
    for i, n in enumerate(inst.numbers):
        deadline.check()
        for s in range(t + 1):
            ways[i + 1][s] = ways[i][s] + (ways[i][s - n] if s >= n else 0)
    count = ways[len(inst.numbers)][t]
    stats = {"cells": (len(inst.numbers) + 1) * (t + 1)}
    if mode == "count":
        return Claim("solved" if count else "no-solution", count, stats=stats)
    if not count:
        return Claim.none(False, stats=stats)
    chosen, s = [], t
    for i in range(len(inst.numbers), 0, -1):  # walk back: take number i-1 where needed
        if ways[i - 1][s] == 0:
            chosen.append(i - 1)
            s -= inst.numbers[i - 1]
    return Claim.solved(True, sorted(chosen), stats=stats)
