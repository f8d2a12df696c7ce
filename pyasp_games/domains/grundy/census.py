"""How many Nim positions are P-positions: the census of ``games nim-census K M``.

The Nim handout closes with a claim: dealt at random, a position is more likely a
first-player win, and the chance tends to 1 as the coins grow. Among the ``(M+1)^K``
positions of ``K`` heaps of at most ``M`` coins (ordered: heap 1, heap 2, ...), the
P-positions are those whose XOR is 0; :func:`count_p_positions` counts them exactly
by a digit DP over the bits of ``M`` (from the top: how many heaps still equal ``M``
on the bits so far), in ``O(bits(M) * K^2)`` steps instead of ``(M+1)^K``.

>>> count_p_positions(3, 7), 8 ** 3
(64, 512)
>>> count_p_positions(10, 10**6) < (10**6 + 1) ** 9
True
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from pyasp_games.engines.limits import Deadline
from pyasp_games.errors import InputError

#: the most heaps and coins a census takes: the DP's steps grow as bits(M) * K^2 on
#: numbers of K * bits(M) bits (200 heaps of 10^30 coins: about a second)
MAX_CENSUS_HEAPS = 200
MAX_CENSUS_COINS = 10**30


@dataclass(frozen=True)
class NimCensus:
    """The Nim positions of ``heaps`` heaps of at most ``coins`` coins each."""

    heaps: int
    coins: int

    @property
    def name(self) -> str:
        return f"nim-census({self.heaps},{self.coins})"

    @property
    def positions(self) -> int:
        return (self.coins + 1) ** self.heaps


def nim_census(heaps: int | None, coins: int | None) -> NimCensus:
    """The census of ``heaps`` heaps of at most ``coins`` coins, both checked."""
    if heaps is None or coins is None:
        raise InputError("give K and M: the number of heaps and the most coins a heap holds")
    if not 1 <= heaps <= MAX_CENSUS_HEAPS:
        raise InputError(f"K must be between 1 and {MAX_CENSUS_HEAPS} heaps, got {heaps}")
    if not 0 <= coins <= MAX_CENSUS_COINS:
        raise InputError(f"M must be between 0 and 10^30 coins (this tool's limit), got {coins}")
    return NimCensus(heaps, coins)


def count_p_positions(heaps: int, coins: int, deadline: Deadline | None = None) -> int:
    """The positions of ``heaps`` heaps of ``0..coins`` coins whose XOR is 0.

    A digit DP from the top bit of ``coins`` down: the state is the number ``t`` of
    heaps still equal to ``coins`` on the bits so far ("tight"); the others are below
    it already and take any bit. On a bit where ``coins`` has a 0, a tight heap must
    take 0; where it has a 1, each tight heap takes 1 (stays tight) or 0 (falls below).
    The bit's column must have an even number of 1s: with a heap already below, one
    of its free bits fixes the parity (half of their ``2^free`` choices); with none,
    the tight heaps that take 1 must be even in number.
    """
    ways = [0] * (heaps + 1)
    ways[heaps] = 1  # before the top bit every heap equals coins (on no bits)
    for bit in reversed(range(coins.bit_length())):
        if deadline is not None:
            deadline.check()
        one = coins >> bit & 1
        new = [0] * (heaps + 1)
        for tight, count in enumerate(ways):
            if not count:
                continue
            free = heaps - tight
            for stay in range(tight + 1) if one else (tight,):
                if free:
                    new[stay] += count * comb(tight, stay) * 2 ** (free - 1)
                elif not (one and stay % 2):  # no free heap: the 1s are the tight ones that stay
                    new[stay] += count * comb(tight, stay)
        ways = new
    return sum(ways)
