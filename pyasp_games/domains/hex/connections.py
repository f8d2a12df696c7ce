"""Hex's connection search as compiled kernels, for boards of at most 62 cells (7 x 7 fits).

The same knowledge as :meth:`~pyasp_games.domains.hex.links.Links.pairing` and
:meth:`~pyasp_games.domains.hex.links.Links.semis` (a player's groups, linked by two
common empty neighbours, a bridge or edge template II, and by the deeper edge templates to
a side; a chain of disjoint links from side to side is a connection; a cell after which
the player holds one is the key of a semi-connection), in the subset of Python numba
compiles (:mod:`pyasp_games.engines.compiled`): a set of cells is one machine word (bit
``i`` for cell ``i``; at most 62 cells keep every set a positive ``int64``), the
neighbours of a set are six shifts of it, the depth-first chain search an explicit stack
of frames each holding its options sorted. The native engine calls these kernels once
its search has run :data:`~pyasp_games.engines.compiled.INTERPRETED_SECONDS` of CPU
(before that, and on graph Hex and larger boards, its own big-integer code runs): the
profile of a 6 x 6 search puts 85% of its time in the semi-connection sweeps.
:func:`_hsearch` is H-search (the AND and OR rules over every point, bounded), which the
search runs at every position and the proof writer at every step of a connection's
strategy.

>>> from pyasp_games.domains.hex.model import parse_position
>>> sweep = Sweeper(parse_position("3x3"), templates={})
>>> black, empty = 1 << 4, 0b111101111          # a stone on b2, every other cell empty
>>> [key for key, _, _ in sweep.semis("B", black, empty)][:3]  # keys that connect b2
[0, 1, 2]
>>> sweep.pairing("B", black | 1 << 1, empty & ~(1 << 1))     # b2 and b1: b2's bridge down
([(6, 7)], 0)
>>> sweep.hsearch("B", black, empty)[0]    # H-search: b2 joins both edges (two bridges)
198
"""

from __future__ import annotations

from typing import Any

from pyasp_games.engines.compiled import bit_count, bit_index, compile_kernels, is_compiled, kernel
from pyasp_games.engines.graphs import set_bits

#: The most cells of a board the kernels take (every set a positive 64-bit word).
MAX_CELLS = 62
#: The most nodes (groups and the two sides) of one chain search, and options per frame.
_NODES = 64
_OPTIONS = 6 * _NODES
#: Templates per (side, cell) at most.
_PER_CELL = 4


@kernel
def _dilate(x: int, cols: int, full: int, not_first: int, not_last: int) -> int:
    """The cells of ``x`` and their neighbours on the rhombus (six shifts)."""
    y = x | ((x << 1) & not_first) | ((x >> 1) & not_last)
    y |= (x << cols) | (x >> cols) | ((x >> (cols - 1)) & not_first) | ((x << (cols - 1)) & not_last)
    return y & full


@kernel
def _reach(seed: int, allowed: int, cols: int, full: int, not_first: int, not_last: int) -> int:
    seen = seed & allowed
    front = seen
    while front:
        front = _dilate(front, cols, full, not_first, not_last) & allowed & ~seen
        seen |= front
    return seen


@kernel
def _groups(own: int, a: int, b: int, geo: Any, mids: Any, ends: Any) -> int:
    """Split ``own`` into the stones joined to side ``a`` (``ends[0]``), to side ``b``
    (``ends[1]``) and the other groups (``mids``); returns how many of those."""
    cols, full, nf, nl = geo[0], geo[1], geo[2], geo[3]
    start = 0
    end = 0
    nm = 0
    rest = own
    while rest:
        g = _reach(rest & -rest, own, cols, full, nf, nl)
        rest &= ~g
        if g & a:
            start |= g
        if g & b:
            end |= g
        if not (g & (a | b)):
            mids[nm] = g
            nm += 1
    ends[0] = start
    ends[1] = end
    return nm


@kernel
def _add_template_options(stones: int, side: int, other: int, flag: int, used: int, opp: int, empty: int,
                          tpl: Any, tcount: Any, tcells: int, opts: Any, f: int, n: int) -> int:
    """Add to frame ``f``'s options the free edge templates joining a stone of ``stones``
    to side ``side`` (as a link to the node ``other``); returns the options' count."""
    rest = stones & tcells
    while rest:
        bit = rest & -rest
        rest ^= bit
        x = bit_index(bit)
        for k in range(tcount[side, x]):
            carrier = tpl[side, x, k]
            if not (carrier & opp) and (carrier & empty):
                c = carrier & empty
                if not (c & used) and n < opts.shape[1]:
                    opts[f, n, 0] = (flag << 50) | (1 << 49) | ((bit_count(c) + 64) << 40) | other
                    opts[f, n, 1] = other
                    opts[f, n, 2] = 0
                    opts[f, n, 3] = c
                    n += 1
    return n


@kernel
def _options(f: int, node: int, visited: int, used: int, count: int, libs: Any, groups: Any, opp: int,
             empty: int, tpl: Any, tcount: Any, tcells: Any, templates: int, opts: Any) -> int:
    """Frame ``f``'s options from ``node``, sorted as the native search sorts them (links
    to the far side first, bridges before templates, the roomier bridge first)."""
    n = 0
    for other in range(count):
        if (visited >> other) & 1:
            continue
        flag = 1 if other != 1 else 0
        common = libs[node] & libs[other] & ~used
        if common & (common - 1):
            opts[f, n, 0] = (flag << 50) | ((64 - bit_count(common)) << 40) | other
            opts[f, n, 1] = other
            opts[f, n, 2] = common
            opts[f, n, 3] = 0
            n += 1
        if templates:
            # template links join a middle group to a side, or one side's stones to the other
            if node == 0 and other == 1:
                n = _add_template_options(groups[0], 1, 1, flag, used, opp, empty, tpl, tcount, tcells[1], opts, f, n)
                n = _add_template_options(groups[1], 0, 1, flag, used, opp, empty, tpl, tcount, tcells[0], opts, f, n)
            elif node == 0 and other >= 2:
                n = _add_template_options(groups[other], 0, other, flag, used, opp, empty, tpl, tcount, tcells[0],
                                          opts, f, n)
            elif node >= 2 and other == 1:
                n = _add_template_options(groups[node], 1, 1, flag, used, opp, empty, tpl, tcount, tcells[1],
                                          opts, f, n)
    # insertion sort on the key, then the template's carrier (the native search's order)
    for i in range(1, n):
        k0, k1, k2, k3 = opts[f, i, 0], opts[f, i, 1], opts[f, i, 2], opts[f, i, 3]
        j = i - 1
        while j >= 0 and (opts[f, j, 0] > k0 or (opts[f, j, 0] == k0 and opts[f, j, 3] > k3)):
            opts[f, j + 1, 0] = opts[f, j, 0]
            opts[f, j + 1, 1] = opts[f, j, 1]
            opts[f, j + 1, 2] = opts[f, j, 2]
            opts[f, j + 1, 3] = opts[f, j, 3]
            j -= 1
        opts[f, j + 1, 0] = k0
        opts[f, j + 1, 1] = k1
        opts[f, j + 1, 2] = k2
        opts[f, j + 1, 3] = k3
    return n


@kernel
def _chain(start: int, end: int, mids: Any, nm: int, empty: int, a: int, b: int, geo: Any, tpl: Any,
           tcount: Any, tcells: Any, templates: int, work: Any, opts: Any, frames: Any, pairs: Any,
           out: Any) -> int:
    """The pairing search over the groups (``start`` and ``end`` the stones joined to the
    sides, ``mids[:nm]`` the others): 1 and ``out`` = (pairs found, template carrier) with
    the pairs in ``pairs``, or 0 when it finds no chain from side to side."""
    out[0] = 0
    out[1] = 0
    if start & end:
        return 1
    cols, full, nf, nl = geo[0], geo[1], geo[2], geo[3]
    count = 2 + nm
    if count > _NODES - 2:
        return 0
    # work[0:count] the nodes' liberties, work[count:2 count] their stones
    libs = work[0:count]
    groups = work[_NODES:_NODES + count]
    libs[0] = (a | _dilate(start, cols, full, nf, nl)) & empty
    libs[1] = (b | _dilate(end, cols, full, nf, nl)) & empty
    groups[0] = start
    groups[1] = end
    opp = full & ~empty & ~start & ~end
    for i in range(nm):
        libs[2 + i] = _dilate(mids[i], cols, full, nf, nl) & empty
        groups[2 + i] = mids[i]
        opp &= ~mids[i]
    # frames[f]: 0 node, 1 visited, 2 used, 3 options, 4 next option, 5 the option taken
    npairs = 0
    extra = 0
    frames[0, 0] = 0
    frames[0, 1] = 1
    frames[0, 2] = 0
    frames[0, 3] = _options(0, 0, 1, 0, count, libs, groups, opp, empty, tpl, tcount, tcells, templates, opts)
    frames[0, 4] = 0
    depth = 0
    while depth >= 0:
        f = depth
        if frames[f, 4] >= frames[f, 3]:
            depth -= 1
            if depth >= 0:  # undo the parent's choice that led here
                taken = frames[depth, 5]
                if opts[depth, taken, 3]:
                    extra &= ~opts[depth, taken, 3]
                else:
                    npairs -= 1
            continue
        i = frames[f, 4]
        frames[f, 4] = i + 1
        frames[f, 5] = i
        other = opts[f, i, 1]
        common = opts[f, i, 2]
        carrier = opts[f, i, 3]
        if carrier:
            extra |= carrier
            taken_cells = carrier
        else:
            x = common & -common
            rest = common ^ x
            y = rest & -rest
            pairs[npairs, 0] = bit_index(x)
            pairs[npairs, 1] = bit_index(y)
            npairs += 1
            taken_cells = x | y
        if other == 1:
            out[0] = npairs
            out[1] = extra
            return 1
        g = f + 1
        visited = frames[f, 1] | (1 << other)
        used = frames[f, 2] | taken_cells
        frames[g, 0] = other
        frames[g, 1] = visited
        frames[g, 2] = used
        frames[g, 3] = _options(g, other, visited, used, count, libs, groups, opp, empty, tpl, tcount, tcells,
                                templates, opts)
        frames[g, 4] = 0
        depth = g
    return 0


@kernel
def _pairing(own: int, empty: int, a: int, b: int, geo: Any, tpl: Any, tcount: Any, tcells: Any,
             templates: int, work: Any, opts: Any, frames: Any, pairs: Any, out: Any, mids: Any,
             ends: Any) -> int:
    """:func:`_chain` over the groups of ``own``."""
    nm = _groups(own, a, b, geo, mids, ends)
    return _chain(ends[0], ends[1], mids, nm, empty, a, b, geo, tpl, tcount, tcells, templates, work, opts,
                  frames, pairs, out)


@kernel
def _key_chain(bit: int, start: int, end: int, mids: Any, nm: int, empty: int, a: int, b: int, geo: Any,
               tpl: Any, tcount: Any, tcells: Any, templates: int, work: Any, opts: Any, frames: Any,
               pairs: Any, out: Any, rest: Any) -> int:
    """:func:`_chain` after the player's move on the cell ``bit``: the groups it touches
    merged with it (into a side's node when it touches that side or its stones)."""
    cols, full, nf, nl = geo[0], geo[1], geo[2], geo[3]
    near = _dilate(bit, cols, full, nf, nl)
    merged = bit
    nr = 0
    for i in range(nm):
        if mids[i] & near:
            merged |= mids[i]
        else:
            rest[nr] = mids[i]
            nr += 1
    s2 = start
    e2 = end
    if (bit & a) or (near & start):
        s2 = start | merged
    if (bit & b) or (near & end):
        e2 = end | merged
    if s2 == start and e2 == end:
        rest[nr] = merged
        nr += 1
    return _chain(s2, e2, rest, nr, empty & ~bit, a, b, geo, tpl, tcount, tcells, templates, work, opts,
                  frames, pairs, out)


@kernel
def _semis(own: int, empty: int, a: int, b: int, geo: Any, tpl: Any, tcount: Any, tcells: Any,
           templates: int, work: Any, opts: Any, frames: Any, pairs: Any, out: Any, mids: Any, ends: Any,
           rest: Any, keys: Any, carriers: Any, extras: Any, all_pairs: Any, npairs: Any, rounds: int) -> int:
    """Every semi-connection of the player of stones ``own``: for each empty cell after
    which :func:`_chain` finds a chain, its key, carrier (the key, the pairs' cells and
    the templates'), template carrier and pairs; returns how many. Then, ``rounds``
    times, for each key whose carrier meets the intersection of all carriers so far (the
    opponent's must-play region) elsewhere than at the key, another chain after the same
    key that avoids the region (the region's cells taken as the opponent's): each found
    shrinks the region further, as H-search's OR rule would."""
    nm = _groups(own, a, b, geo, mids, ends)
    found = 0
    cells = empty
    while cells:
        bit = cells & -cells
        cells ^= bit
        if _key_chain(bit, ends[0], ends[1], mids, nm, empty, a, b, geo, tpl, tcount, tcells, templates, work,
                      opts, frames, pairs, out, rest):
            _keep(found, bit, pairs, out, keys, carriers, extras, all_pairs, npairs)
            found += 1
    first = found
    for _ in range(rounds):
        region = empty
        for i in range(found):
            region &= carriers[i]
        if found == 0 or region == 0:
            break
        added = 0
        for i in range(first):
            if found >= len(keys):
                break
            bit = 1 << keys[i]
            if not (carriers[i] & region & ~bit):
                continue  # this key's carrier meets the region at most at the key
            if _key_chain(bit, ends[0], ends[1], mids, nm, empty & ~(region & ~bit), a, b, geo, tpl, tcount,
                          tcells, templates, work, opts, frames, pairs, out, rest):
                _keep(found, bit, pairs, out, keys, carriers, extras, all_pairs, npairs)
                region &= carriers[found]
                found += 1
                added += 1
        if added == 0:
            break
    return found


@kernel
def _must_play(own: int, empty: int, a: int, b: int, geo: Any, tpl: Any, tcount: Any, tcells: Any,
               templates: int, work: Any, opts: Any, frames: Any, pairs: Any, out: Any, mids: Any, ends: Any,
               rest: Any, keys: Any, carriers: Any, extras: Any, all_pairs: Any, npairs: Any, rounds: int,
               hits: Any) -> int:
    """The must-play region that the semi-connections of the player of stones ``own``
    (:func:`_semis`) leave the opponent, and in ``hits`` for each cell the number of
    their carriers that hold it."""
    found = _semis(own, empty, a, b, geo, tpl, tcount, tcells, templates, work, opts, frames, pairs, out, mids,
                   ends, rest, keys, carriers, extras, all_pairs, npairs, rounds)
    for i in range(len(hits)):
        hits[i] = 0
    region = empty
    for i in range(found):
        carrier = carriers[i]
        region &= carrier
        while carrier:
            bit = carrier & -carrier
            carrier ^= bit
            hits[bit_index(bit)] += 1
    return region


@kernel
def _lookahead(own: int, empty: int, cells: Any, a: int, b: int, geo: Any, tpl: Any, tcount: Any, tcells: Any,
               templates: int, work: Any, opts: Any, frames: Any, pairs: Any, out: Any, mids: Any, ends: Any,
               rest: Any, costs: Any) -> None:
    """For each cell ``c`` of the set ``cells``, in ``costs[c]``: the size of the
    opponent's must-play region after the player of stones ``own`` takes ``c``
    (:func:`_region`)."""
    while cells:
        bit = cells & -cells
        cells ^= bit
        costs[bit_index(bit)] = _region(own | bit, empty & ~bit, a, b, geo, tpl, tcount, tcells, templates, work,
                                     opts, frames, pairs, out, mids, ends, rest)


@kernel
def _keep(i: int, bit: int, pairs: Any, out: Any, keys: Any, carriers: Any, extras: Any, all_pairs: Any,
          npairs: Any) -> None:
    """Record the chain just found (``pairs``, ``out``) after the key ``bit`` as semi ``i``."""
    k = out[0]
    carrier = bit | out[1]
    for j in range(k):
        all_pairs[i, j, 0] = pairs[j, 0]
        all_pairs[i, j, 1] = pairs[j, 1]
        carrier |= (1 << pairs[j, 0]) | (1 << pairs[j, 1])
    keys[i] = bit_index(bit)
    carriers[i] = carrier
    extras[i] = out[1]
    npairs[i] = k


@kernel
def _region(own: int, empty: int, a: int, b: int, geo: Any, tpl: Any, tcount: Any, tcells: Any,
            templates: int, work: Any, opts: Any, frames: Any, pairs: Any, out: Any, mids: Any, ends: Any,
            rest: Any) -> int:
    """The opponent's must-play region that the semi-connections of the player of stones
    ``own`` make (the empty cells in every one's carrier), as a count of cells; 99 when
    the player has none (the opponent may play anywhere)."""
    nm = _groups(own, a, b, geo, mids, ends)
    region = empty
    found = 0
    cells = empty
    while cells:
        bit = cells & -cells
        cells ^= bit
        if _key_chain(bit, ends[0], ends[1], mids, nm, empty, a, b, geo, tpl, tcount, tcells, templates, work,
                      opts, frames, pairs, out, rest):
            carrier = bit | out[1]
            for j in range(out[0]):
                carrier |= (1 << pairs[j, 0]) | (1 << pairs[j, 1])
            region &= carrier
            found += 1
            if region == 0:
                return 0
    return bit_count(region) if found else 99


@kernel
def _first_key(own: int, empty: int, order: Any, a: int, b: int, geo: Any, tpl: Any, tcount: Any,
               tcells: Any, templates: int, work: Any, opts: Any, frames: Any, pairs: Any, out: Any,
               mids: Any, ends: Any, rest: Any) -> int:
    """The first cell of ``order`` that is empty and the key of a semi-connection (its
    chain in ``pairs`` and ``out``), or -1."""
    nm = _groups(own, a, b, geo, mids, ends)
    for i in range(len(order)):
        bit = 1 << order[i]
        if not (bit & empty):
            continue
        if _key_chain(bit, ends[0], ends[1], mids, nm, empty, a, b, geo, tpl, tcount, tcells, templates, work,
                      opts, frames, pairs, out, rest):
            return order[i]
    return -1


@kernel
def _dead_for(own: int, empty: int, candidates: int, a: int, b: int, geo: Any, nb: Any, mids: Any, ends: Any,
              nears: Any) -> int:
    """The cells of ``candidates`` dead for the player of stones ``own`` and sides ``a``,
    ``b`` (:meth:`~.dead_cells.DeadCells.dead_for`): every usable neighbour linked to every other."""
    nm = _units(own, a, b, geo, mids, ends, nears) - 2
    dead = 0
    rest = candidates
    while rest:
        bit = rest & -rest
        rest ^= bit
        touching = 0
        count = 0
        for i in range(nm + 2):
            if nears[i] & bit:
                count += 1
                touching = nears[i]
        if count > 1:
            continue
        free = nb[bit_index(bit)] & empty
        if free & (free - 1):
            x = free & -free
            if not (nb[bit_index(x)] & (free ^ x)):
                continue
        if count == 1 and (free & ~touching):
            continue
        dead |= bit
    return dead


@kernel
def _settle(black: int, white: int, ba: int, bb: int, wa: int, wb: int, geo: Any, nb: Any, mids: Any,
            ends: Any, nears: Any) -> int:
    """Black's stones with the cells dead for both players filled with black, to a fixpoint
    (:meth:`~.dead_cells.DeadCells.settle`)."""
    full = geo[1]
    while True:
        empty = full & ~(black | white)
        candidates = 0
        rest = empty
        while rest:
            bit = rest & -rest
            rest ^= bit
            if bit_count(nb[bit_index(bit)] & empty) <= 2:
                candidates |= bit
        if not candidates:
            return black
        dead = _dead_for(black, empty, candidates, ba, bb, geo, nb, mids, ends, nears)
        if dead:
            dead = _dead_for(white, empty, dead, wa, wb, geo, nb, mids, ends, nears)
        if not dead:
            return black
        black |= dead


@kernel
def _units(own: int, a: int, b: int, geo: Any, mids: Any, ends: Any, nears: Any) -> int:
    """The *units* of the player of stones ``own`` and sides ``a``, ``b`` (each side with
    the stones joined to it, each other group) as the cells touching them, in
    ``nears``; returns how many (:meth:`~.dead_cells.DeadCells.units`)."""
    cols, full, nf, nl = geo[0], geo[1], geo[2], geo[3]
    nm = _groups(own, a, b, geo, mids, ends)
    nears[0] = a | _dilate(ends[0], cols, full, nf, nl)
    nears[1] = b | _dilate(ends[1], cols, full, nf, nl)
    for i in range(nm):
        nears[2 + i] = _dilate(mids[i], cols, full, nf, nl)
    return nm + 2


@kernel
def _dead_in(bit: int, empty: int, nb: Any, nears: Any, nu: int) -> bool:
    """Whether the empty cell ``bit`` is dead, with the empty cells ``empty``, for the
    player of the units ``nears[:nu]`` (:meth:`~.dead_cells.DeadCells.dead_in`)."""
    touching = 0
    count = 0
    for i in range(nu):
        if nears[i] & bit:
            count += 1
            touching = nears[i]
    if count > 1:
        return False
    free = nb[bit_index(bit)] & empty
    if free & (free - 1):
        x = free & -free
        if free ^ x != (free ^ x) & -(free ^ x):
            return False  # three empty neighbours
        if not (nb[bit_index(x)] & (free ^ x)):
            return False
    return not (count == 1 and (free & ~touching))


@kernel
def _fill(black: int, white: int, ba: int, bb: int, wa: int, wb: int, geo: Any, nb: Any, mids: Any,
          ends: Any, nears: Any, trace: Any, out: Any) -> int:
    """The fill-in of :meth:`~.dead_cells.DeadCells.fill_in`: the stones in ``out``, each
    step (0 Black, 1 White; its cell; the pair's other cell or 0) in ``trace``;
    returns the number of steps."""
    full = geo[1]
    k = 0
    changed = True
    while changed:
        changed = False
        for x in range(2):
            if x == 0:
                nu = _units(white, wa, wb, geo, mids, ends, nears)
            else:
                nu = _units(black, ba, bb, geo, mids, ends, nears)
            empty = full & ~(black | white)
            filled = 0
            rest = empty
            while rest:
                bit = rest & -rest
                rest ^= bit
                if _dead_in(bit, empty, nb, nears, nu):
                    empty ^= bit
                    filled |= bit
                    trace[k, 0] = x
                    trace[k, 1] = bit
                    trace[k, 2] = 0
                    k += 1
            rest = empty
            while rest:
                bit = rest & -rest
                rest ^= bit
                if not (bit & empty):
                    continue
                near = nb[bit_index(bit)] & empty
                if bit_count(near) > 3:
                    continue
                others = near & ~((bit << 1) - 1)
                while others:
                    o = others & -others
                    others ^= o
                    if _dead_in(bit, empty & ~o, nb, nears, nu) and _dead_in(o, empty & ~bit, nb, nears, nu):
                        empty &= ~(bit | o)
                        filled |= bit | o
                        trace[k, 0] = x
                        trace[k, 1] = bit
                        trace[k, 2] = o
                        k += 1
                        break
            if filled:
                changed = True
                if x == 0:
                    black |= filled
                else:
                    white |= filled
    out[0] = black
    out[1] = white
    return k


@kernel
def _inferior(moves: Any, count: int, empty: int, opp: int, a: int, b: int, geo: Any, nb: Any, mids: Any,
              ends: Any, nears: Any, by: Any) -> int:
    """For each of the ``count`` moves (in order), the earlier kept move that dominates it
    in ``by`` (-1: kept): a neighbour after which it is dead for the opponent (stones
    ``opp``, sides ``a``, ``b``); returns how many are kept
    (:meth:`~.dead_cells.DeadCells.inferior`)."""
    nu = _units(opp, a, b, geo, mids, ends, nears)
    kept = 0
    nkept = 0
    for i in range(count):
        m = moves[i]
        bit = 1 << m
        by[i] = -1
        near = nb[m] & kept
        while near:
            o = near & -near
            near ^= o
            if _dead_in(bit, empty & ~o, nb, nears, nu):
                by[i] = bit_index(o)
                break
        if by[i] < 0:
            kept |= bit
            nkept += 1
    return nkept


# -- H-search ----------------------------------------------------------------------------
#: H-search's array sizes: full connections kept per pair of points at most, semi ones
#: (the pair of the player's two sides keeps up to :data:`_HS_SEMIS`: each one shrinks
#: the opponent's must-play region), the queue of new full connections.
_HS_FULLS = 8
_HS_SEMIS = 24
_HS_QUEUE = _NODES * _NODES * _HS_FULLS
#: how a connection was derived (the low two bits of its provenance word): adjacent
#: points, an edge template (its stone's cell in bits 2-8), the AND rule (middle point in bits 2-8, the two
#: connections' places in bits 9-13 and 14-18), the OR rule (its semis from bit 20)
_BASE, _TEMPLATE, _AND, _OR = 0, 1, 2, 3
#: the most cells of an edge template a derivation may use (:meth:`Sweeper.derivation`)
TEMPLATE_CELLS = 10


class _TooDeep(Exception):
    """A derivation through an edge template larger than :data:`TEMPLATE_CELLS`."""


@kernel
def _hs_add_full(p: int, q: int, c: int, pbits: Any, F: Any, nF: Any, kf: int, queue: Any, qt: Any,
                 fm: Any, FP: Any, prov: int) -> int:
    """Add the full connection (p, q, carrier c) unless a kept one's carrier is within
    ``c`` or the pair holds ``kf`` already; 2 when it joins the two sides, 1 when added.
    ``prov``: how it was derived (:data:`_BASE` ...), kept in ``FP`` beside it."""
    if p == q or (c & (pbits[p] | pbits[q])):
        return 0
    n = nF[p, q]
    for k in range(n):
        if not (F[p, q, k] & ~c):
            return 0
    if n >= kf:
        return 0
    F[p, q, n] = c
    F[q, p, n] = c
    FP[p, q, n] = prov
    FP[q, p, n] = prov
    nF[p, q] = n + 1
    nF[q, p] = n + 1
    fm[p] |= 1 << q
    fm[q] |= 1 << p
    if (p == 0 and q == 1) or (p == 1 and q == 0):
        return 2
    t = qt[0]
    if t < queue.shape[0]:
        queue[t, 0] = p
        queue[t, 1] = q
        queue[t, 2] = c
        queue[t, 3] = n
        qt[0] = t + 1
    return 1


@kernel
def _hs_add_semi(p: int, q: int, c: int, key: int, pbits: Any, F: Any, nF: Any, S: Any, SK: Any, nS: Any,
                 kf: int, ks: int, ors: int, queue: Any, qt: Any, stack: Any, fm: Any, FP: Any, SP: Any,
                 prov: int) -> int:
    """Add the semi-connection (p, q, carrier ``c`` with its key ``key``) unless a kept
    full or semi one's carrier is within ``c``, then the OR rule: every set of at most
    ``ors`` of the pair's semi-connections with the new one whose carriers (keys
    included) have no cell in common gives a full connection over their union. 2 when a
    full connection joins the two sides. The new one is kept (with ``prov`` in ``SP``)
    before the OR rule, so that every full connection the rule makes names kept ones."""
    if p == q or (c & (pbits[p] | pbits[q])):
        return 0
    for k in range(nF[p, q]):
        if not (F[p, q, k] & ~c):
            return 0
    n = nS[p, q]
    for k in range(n):
        if not (S[p, q, k] & ~c):
            return 0
    limit = S.shape[2] if ((p == 0 and q == 1) or (p == 1 and q == 0)) else ks
    if n >= limit:
        return 0
    S[p, q, n] = c
    S[q, p, n] = c
    SK[p, q, n] = key
    SK[q, p, n] = key
    SP[p, q, n] = prov
    SP[q, p, n] = prov
    nS[p, q] = n + 1
    nS[q, p] = n + 1
    # the OR rule (over the kept ones): is there a set with an empty intersection?
    common = c
    for k in range(n):
        common &= S[p, q, k]
    result = 0
    if not common:
        # depth-first over the kept semis in order, each taken only when it shrinks the
        # intersection; stack rows: next index, intersection, union, the semis taken
        d = 0
        stack[0, 0] = 0
        stack[0, 1] = c
        stack[0, 2] = c
        stack[0, 3] = 1 << n
        found = 0
        while d >= 0 and found < 4:
            j = stack[d, 0]
            if j >= n:
                d -= 1
                continue
            stack[d, 0] = j + 1
            s = S[p, q, j]
            inter = stack[d, 1] & s
            if inter == stack[d, 1]:
                continue
            union = stack[d, 2] | s
            taken = stack[d, 3] | (1 << j)
            if not inter:
                r = _hs_add_full(p, q, union, pbits, F, nF, kf, queue, qt, fm, FP, _OR | (taken << 20))
                if r == 2:
                    return 2
                found += 1
                continue
            if d + 2 < ors:
                d += 1
                stack[d, 0] = j + 1
                stack[d, 1] = inter
                stack[d, 2] = union
                stack[d, 3] = taken
    return result


@kernel
def _hsearch(own: int, empty: int, a: int, b: int, geo: Any, nb: Any, tpl: Any, tcount: Any, tcells: Any,
             templates: int, kf: int, ks: int, ors: int, stop: int, mids: Any, ends: Any, pbits: Any,
             plibs: Any, F: Any, nF: Any, S: Any, SK: Any, nS: Any, queue: Any, qt: Any, stack: Any, fm: Any,
             cellpt: Any, outk: Any, outc: Any, FP: Any, SP: Any) -> int:
    """H-search (Anshelevich 2002) for the player of stones ``own`` and sides ``a``, ``b``.

    The points: the two sides (0, 1: the edge rows), the groups (2 ...), the empty cells
    (then, in cell order); a group on a side is joined to it with an empty carrier. A connection between two points has a
    carrier (empty cells, neither point's): *full*, the player joins the two whoever
    moves, with the carrier's cells empty and the points the player's; *semi*, the player
    joins them by playing first (its key, in its carrier). Base: adjacent points, an
    empty carrier; the edge templates from a stone or an empty cell to a side. AND rule:
    full (x, u, C1) and (u, y, C2) with C1, C2 disjoint and x, y in neither give a full
    (x, y, C1 | C2) when u is a group or a side, a semi (x, y, C1 | C2 | {u}) of key u
    when u is empty. OR rule (:func:`_hs_add_semi`). Bounded: ``kf`` full and ``ks``
    semi connections per pair, ``ors`` semis at most in one OR.

    Returns -1 with the carrier in ``outc[0]`` when a full connection joins the sides
    (the player has won whoever moves); else the number of semi-connections of the sides
    found, their keys in ``outk`` and carriers (key included) in ``outc`` (with
    ``stop``, as soon as there is one). The points' cells stay in ``pbits``, the
    connections in ``F``/``nF`` and ``S``/``SK``/``nS``, how each was derived in
    ``FP``/``SP`` (:data:`_BASE`, :data:`_TEMPLATE`, :data:`_AND`, :data:`_OR`; an AND's
    middle point and the two connections' places, an OR's semis as a bit set), from
    which :meth:`Sweeper.derivation` writes a connection's derivation for a proof."""
    cols, full, nf, nl = geo[0], geo[1], geo[2], geo[3]
    # every group its own point, those on a side too: an edge is no way from one cell
    # to another, so only a group may be the middle point of the AND rule
    nm = _groups(own, 0, 0, geo, mids, ends)
    outc[0] = 0
    ne = bit_count(empty)
    P = 2 + nm + ne
    if P > 63:  # a point's neighbours are one machine word
        return 0
    pbits[0] = 0
    plibs[0] = a & empty
    pbits[1] = 0
    plibs[1] = b & empty
    for i in range(nm):
        pbits[2 + i] = mids[i]
        plibs[2 + i] = _dilate(mids[i], cols, full, nf, nl) & empty
    first = 2 + nm
    p = first
    rest = empty
    while rest:
        bit = rest & -rest
        rest ^= bit
        pbits[p] = bit
        plibs[p] = nb[bit_index(bit)] & empty
        cellpt[bit_index(bit)] = p
        p += 1
    for i in range(P):
        fm[i] = 0
        for j in range(P):
            nF[i, j] = 0
            nS[i, j] = 0
    qt[0] = 0
    for i in range(nm):
        if (mids[i] & a) and (mids[i] & b):
            return -1
    # base: a group on a side, an empty cell and a point it touches (a side: its row)
    for i in range(2, first):
        for side in range(2):
            if pbits[i] & (a if side == 0 else b):
                _hs_add_full(i, side, 0, pbits, F, nF, kf, queue, qt, fm, FP, _BASE)
    for i in range(first, P):
        for j in range(P):
            if j != i and (pbits[i] & plibs[j]) and _hs_add_full(i, j, 0, pbits, F, nF, kf, queue, qt, fm, FP, _BASE) == 2:
                outc[0] = 0
                return -1
    if templates:
        opp = full & ~empty & ~own
        for side in range(2):
            cells = tcells[side]
            while cells:
                bit = cells & -cells
                cells ^= bit
                x = bit_index(bit)
                if bit & empty:
                    point = first + bit_count(empty & (bit - 1))
                elif bit & own:
                    point = -1
                    for i in range(first):
                        if pbits[i] & bit:
                            point = i
                    if point < 0:
                        continue
                else:
                    continue
                for k in range(tcount[side, x]):
                    carrier = tpl[side, x, k]
                    if carrier & opp:
                        continue
                    if _hs_add_full(point, side, carrier & empty, pbits, F, nF, kf, queue, qt, fm, FP,
                                    _TEMPLATE | (x << 2)) == 2:
                        outc[0] = carrier & empty
                        return -1
    qh = 0
    while qh < qt[0]:
        x = queue[qh, 0]
        y = queue[qh, 1]
        c1 = queue[qh, 2]
        k1 = queue[qh, 3]
        qh += 1
        # the points in the carrier, which no connection joined to it may end at
        inside = 0
        rest = c1
        while rest:
            bit = rest & -rest
            rest ^= bit
            inside |= 1 << cellpt[bit_index(bit)]
        for turn in range(2):
            # the new full (e, m, c1) joined at m to every full (m, z, c2)
            e = x if turn == 0 else y
            m = y if turn == 0 else x
            stone = 2 <= m < first
            if m < 2:
                continue
            zs = fm[m] & ~inside & ~(1 << e)
            while zs:
                zb = zs & -zs
                zs ^= zb
                z = bit_index(zb)
                k = 0
                while k < nF[m, z]:
                    c2 = F[m, z, k]
                    k += 1
                    if (c1 & c2) or (pbits[e] & c2):
                        continue
                    # the AND's provenance: the middle point, the places of (e, m) and (m, z)
                    prov = _AND | (m << 2) | (k1 << 9) | ((k - 1) << 14)
                    if stone:
                        r = _hs_add_full(e, z, c1 | c2, pbits, F, nF, kf, queue, qt, fm, FP, prov)
                        if r == 2:
                            outc[0] = c1 | c2
                            return -1
                    else:
                        r = _hs_add_semi(e, z, c1 | c2 | pbits[m], bit_index(pbits[m]), pbits, F, nF, S, SK, nS,
                                         kf, ks, ors, queue, qt, stack, fm, FP, SP, prov)
                        if r == 2:
                            outc[0] = F[0, 1, nF[0, 1] - 1]
                            return -1
                        if stop and nS[0, 1]:
                            outk[0] = SK[0, 1, 0]
                            outc[0] = S[0, 1, 0]
                            return 1
    n = nS[0, 1]
    for k in range(n):
        outk[k] = SK[0, 1, k]
        outc[k] = S[0, 1, k]
    return n


#: A connection as the native engine's proofs carry it (:data:`~.links.Link`).
Link = tuple[list[tuple[int, int]], int]


class Sweeper:
    """The kernels set up for one board: its geometry and, per player, its sides and edge
    templates (``templates``: :func:`~.templates.board_templates`' map, ``{}`` for none), and
    the work arrays the kernels fill. Compiles this module's kernels when made (numba's
    cache keeps their machine code between processes)."""

    def __init__(self, game: Any, templates: dict[str, Any]) -> None:
        import numpy as np

        compile_kernels(__name__)
        n, cols = len(game), game.cols
        if not game.is_board or n > MAX_CELLS:
            raise ValueError(f"the compiled connection search takes boards of at most {MAX_CELLS} cells")
        full = (1 << n) - 1
        col0 = sum(1 << (r * cols) for r in range(game.rows))
        self.geo = np.array([cols, full, full & ~col0, full & ~(col0 << (cols - 1))], dtype=np.int64)
        self.sides = {p: (sum(1 << i for i in s), sum(1 << i for i in t)) for p, (s, t) in game.sides.items()}
        self.tables: dict[str, tuple[Any, Any, Any]] = {}
        for player in ("B", "W"):
            tpl = np.zeros((2, n, _PER_CELL), dtype=np.int64)
            tcount = np.zeros((2, n), dtype=np.int64)
            tcells = np.zeros(2, dtype=np.int64)
            for side, per_cell in enumerate(templates.get(player, ((), ()))):
                for x, carriers in enumerate(per_cell):
                    for k, carrier in enumerate(carriers[:_PER_CELL]):
                        tpl[side, x, k] = carrier
                    tcount[side, x] = min(len(carriers), _PER_CELL)
                    if carriers:
                        tcells[side] |= 1 << x
            self.tables[player] = (tpl, tcount, tcells)
        self.use_templates = 1 if templates else 0
        self.work = np.zeros(2 * _NODES, dtype=np.int64)
        self.opts = np.zeros((_NODES, _OPTIONS, 4), dtype=np.int64)
        self.frames = np.zeros((_NODES, 6), dtype=np.int64)
        self.pairs = np.zeros((_NODES, 2), dtype=np.int64)
        self.out = np.zeros(2, dtype=np.int64)
        self.mids = np.zeros(_NODES, dtype=np.int64)
        self.ends = np.zeros(2, dtype=np.int64)
        self.rest = np.zeros(_NODES, dtype=np.int64)
        most = 3 * n  # a semi-connection per key, and others after the same keys
        self.keys = np.zeros(most, dtype=np.int64)
        self.carriers = np.zeros(most, dtype=np.int64)
        self.extras = np.zeros(most, dtype=np.int64)
        self.all_pairs = np.zeros((most, _NODES, 2), dtype=np.int64)
        self.npairs = np.zeros(most, dtype=np.int64)
        self.hits = np.zeros(n, dtype=np.int64)
        self.costs = np.zeros(n, dtype=np.int64)
        self.nb = np.array([sum(1 << j for j in near) for near in game.neighbours], dtype=np.int64)
        self.nears = np.zeros(_NODES + 2, dtype=np.int64)
        self.trace = np.zeros((n, 3), dtype=np.int64)
        self.moves = np.zeros(n, dtype=np.int64)
        self.by = np.zeros(n, dtype=np.int64)
        #: H-search's bounds (:func:`_hsearch`): full and semi connections kept per pair,
        #: semis in one OR. Measured on the 6 x 6 openings c2, b2, e2 (search CPU s, all
        #: three): 4, 8, 4: 12.9; 2, 4, 4: 44.3; 3, 6, 3: 25.9; 4, 8, 2: 29.5; 6, 12, 4: 6.2;
        #: 8, 12, 4: 5.6; 8, 16, 4: 5.2; 8, 16, 6: 4.5; 8, 24, 4: 4.4 (the arrays' most):
        #: more connections kept cost more per H-search and save far more positions
        self.hs_fulls, self.hs_semis, self.hs_ors = _HS_FULLS, _HS_SEMIS, 4
        self.pbits = np.zeros(_NODES, dtype=np.int64)
        self.plibs = np.zeros(_NODES, dtype=np.int64)
        self.F = np.zeros((_NODES, _NODES, _HS_FULLS), dtype=np.int64)
        self.nF = np.zeros((_NODES, _NODES), dtype=np.int64)
        self.S = np.zeros((_NODES, _NODES, _HS_SEMIS), dtype=np.int64)
        self.FP = np.zeros((_NODES, _NODES, _HS_FULLS), dtype=np.int64)
        self.SP = np.zeros((_NODES, _NODES, _HS_SEMIS), dtype=np.int64)
        self.SK = np.zeros((_NODES, _NODES, _HS_SEMIS), dtype=np.int64)
        self.nS = np.zeros((_NODES, _NODES), dtype=np.int64)
        self.queue = np.zeros((_HS_QUEUE, 4), dtype=np.int64)
        self.qt = np.zeros(1, dtype=np.int64)
        self.stack = np.zeros((8, 4), dtype=np.int64)
        self.fm = np.zeros(_NODES, dtype=np.int64)
        self.cellpt = np.zeros(n, dtype=np.int64)
        self.outk = np.zeros(_HS_SEMIS, dtype=np.int64)
        self.outc = np.zeros(_HS_SEMIS, dtype=np.int64)

    def pairing(self, player: str, own: int, empty: int) -> Link | None:
        """A connection of ``player``'s sides (pairs, template carrier) or ``None``."""
        a, b = self.sides[player]
        tpl, tcount, tcells = self.tables[player]
        if not _pairing(own, empty, a, b, self.geo, tpl, tcount, tcells, self.use_templates, self.work,
                        self.opts, self.frames, self.pairs, self.out, self.mids, self.ends):
            return None
        k = int(self.out[0])
        return [(int(x), int(y)) for x, y in self.pairs[:k].tolist()], int(self.out[1])

    def first_key(self, player: str, own: int, empty: int, order: Any) -> tuple[int, Link] | None:
        """The first empty cell of ``order`` (an array of cells) that is the key of a
        semi-connection of ``player`` (a winning move, with its connection), or ``None``."""
        a, b = self.sides[player]
        tpl, tcount, tcells = self.tables[player]
        key = _first_key(own, empty, order, a, b, self.geo, tpl, tcount, tcells, self.use_templates, self.work,
                         self.opts, self.frames, self.pairs, self.out, self.mids, self.ends, self.rest)
        if key < 0:
            return None
        k = int(self.out[0])
        return int(key), ([(int(x), int(y)) for x, y in self.pairs[:k].tolist()], int(self.out[1]))

    def must_play(self, player: str, own: int, empty: int, rounds: int = 0) -> tuple[int, list[int]]:
        """The opponent's must-play region that ``player``'s semi-connections
        (:meth:`semis`) make, and for each cell how many of their carriers hold it."""
        a, b = self.sides[player]
        tpl, tcount, tcells = self.tables[player]
        region = _must_play(own, empty, a, b, self.geo, tpl, tcount, tcells, self.use_templates, self.work,
                            self.opts, self.frames, self.pairs, self.out, self.mids, self.ends, self.rest, self.keys,
                            self.carriers, self.extras, self.all_pairs, self.npairs, rounds, self.hits)
        return int(region), self.hits.tolist()

    def lookahead(self, player: str, own: int, empty: int, cells: int) -> list[int]:
        """For each cell of ``cells`` (a set), the size of the opponent's must-play region
        after ``player`` takes it (:meth:`region_size`), indexed by cell."""
        a, b = self.sides[player]
        tpl, tcount, tcells = self.tables[player]
        _lookahead(own, empty, cells, a, b, self.geo, tpl, tcount, tcells, self.use_templates, self.work, self.opts,
                   self.frames, self.pairs, self.out, self.mids, self.ends, self.rest, self.costs)
        return self.costs.tolist()

    def region_size(self, player: str, own: int, empty: int) -> int:
        """The size of the opponent's must-play region that ``player``'s semi-connections
        make (99: it has none)."""
        a, b = self.sides[player]
        tpl, tcount, tcells = self.tables[player]
        return int(_region(own, empty, a, b, self.geo, tpl, tcount, tcells, self.use_templates, self.work,
                           self.opts, self.frames, self.pairs, self.out, self.mids, self.ends, self.rest))

    def settle(self, black: int, white: int) -> tuple[int, int]:
        """The stones with the cells dead for both players filled with black, to a
        fixpoint (:meth:`~.dead_cells.DeadCells.settle`)."""
        (ba, bb), (wa, wb) = self.sides["B"], self.sides["W"]
        return int(_settle(black, white, ba, bb, wa, wb, self.geo, self.nb, self.mids, self.ends, self.nears)), white

    def fill_in(self, black: int, white: int) -> tuple[int, int, list[tuple[str, int, int]]]:
        """The stones after the fill-in (:meth:`~.dead_cells.DeadCells.fill_in`) and its
        steps (the captor, a cell, the pair's other cell or -1)."""
        (ba, bb), (wa, wb) = self.sides["B"], self.sides["W"]
        k = _fill(black, white, ba, bb, wa, wb, self.geo, self.nb, self.mids, self.ends, self.nears,
                  self.trace, self.out)
        steps = [("BW"[x], bit_index(c), bit_index(o) if o else -1) for x, c, o in self.trace[:k].tolist()]
        return int(self.out[0]), int(self.out[1]), steps

    def fill(self, black: int, white: int) -> tuple[int, int]:
        """The stones after the fill-in, without its steps."""
        (ba, bb), (wa, wb) = self.sides["B"], self.sides["W"]
        _fill(black, white, ba, bb, wa, wb, self.geo, self.nb, self.mids, self.ends, self.nears,
              self.trace, self.out)
        return int(self.out[0]), int(self.out[1])

    def inferior(self, player: str, moves: list[int], empty: int, opp: int) -> list[int]:
        """For each move of ``player`` (in order), the earlier kept move dominating it
        (-1: kept); ``opp`` the opponent's stones (:meth:`~.dead_cells.DeadCells.inferior`)."""
        import numpy as np

        a, b = self.sides["W" if player == "B" else "B"]
        count = len(moves)
        self.moves[:count] = np.asarray(moves, dtype=np.int64)
        _inferior(self.moves, count, empty, opp, a, b, self.geo, self.nb, self.mids, self.ends, self.nears,
                  self.by)
        return self.by[:count].tolist()

    def _hsearch(self, player: str, own: int, empty: int, stop: bool = False,
                 bounds: tuple[int, int, int] | None = None) -> int:
        a, b = self.sides[player]
        tpl, tcount, tcells = self.tables[player]
        fulls, semis, ors = bounds or (self.hs_fulls, self.hs_semis, self.hs_ors)
        return int(_hsearch(own, empty, a, b, self.geo, self.nb, tpl, tcount, tcells, self.use_templates,
                            min(fulls, _HS_FULLS), min(semis, _HS_SEMIS), min(ors, 8),
                            1 if stop else 0, self.mids, self.ends, self.pbits, self.plibs, self.F, self.nF, self.S,
                            self.SK, self.nS, self.queue, self.qt, self.stack, self.fm, self.cellpt, self.outk,
                            self.outc, self.FP, self.SP))

    def hsearch(self, player: str, own: int, empty: int, stop: bool = False,
                bounds: tuple[int, int, int] | None = None) -> tuple[int | None, list[tuple[int, int]]]:
        """H-search's verdict on ``player``'s sides (:func:`_hsearch`): the carrier of a
        full connection joining them (``None``: none found) and the semi-connections
        joining them, as (key, carrier with the key); with ``stop``, at most the first."""
        found = self._hsearch(player, own, empty, stop, bounds)
        if found < 0:
            return int(self.outc[0]), []
        return None, list(zip(self.outk[:found].tolist(), self.outc[:found].tolist(), strict=True))

    def derivation(self, player: str, own: int, empty: int, names: Any, semi: bool = False
                   ) -> list[dict[str, Any]] | None:
        """How H-search joins ``player``'s sides, as the steps of a derivation a proof
        carries (the checker, :class:`.verify._Derivations`, replays each rule with its
        own tests): a full connection of the sides, or with ``semi`` (``player`` moves)
        the semi-connection of the smallest carrier; ``None`` when there is neither, or
        when it uses an edge template of more than :data:`TEMPLATE_CELLS` cells (the
        checker plays each template out as a local game: the ziggurat's 8 cells cost
        little, the 19 of the deeper one far too much to repeat).

        The steps, each naming earlier ones by place, the last the sides' connection:
        ``{"adj": [P, Q]}`` (adjacent points), ``{"template": [P, side], "carrier":
        [cell, ...]}`` (an edge template, P its stone's or empty cell), ``{"and": [i, j]}`` (two full connections
        with a point in common), ``{"or": [i, j, ...]}`` (semi-connections of the same
        points); a point is a side (0 or 1, in the order of the game's sides), an
        empty cell or a stone of a group (its first cell), by name (``names``).

        >>> from pyasp_games.domains.hex.model import parse_position
        >>> game = parse_position("3x3")
        >>> sweep = Sweeper(game, templates={})
        >>> steps = sweep.derivation("B", 1 << 4, 0b111101111, game.cells)
        >>> steps[-1], len(steps)  # b2 reaches each side by two cells: two ORs, an AND
        ({'and': [6, 13]}, 15)
        """
        found = self._hsearch(player, own, empty)
        if found < 0:
            count = int(self.nF[0, 1])
            if not count:
                return None  # the stones join the sides already
            root = (0, 0, 1, count - 1)
        elif found > 0 and semi:
            sizes = [int(c).bit_count() for c in self.S[0, 1, :found].tolist()]
            root = (1, 0, 1, sizes.index(min(sizes)))
        else:
            return None
        F, S, FP, SP, pbits = self.F, self.S, self.FP, self.SP, self.pbits
        steps: list[dict[str, Any]] = []
        placed: dict[tuple[int, int, int, int], int] = {}

        def point(p: int) -> Any:
            cells = int(pbits[p])
            return p if p < 2 else names[(cells & -cells).bit_length() - 1]

        def split(p: int, q: int, prov: int, carrier: int) -> tuple[int, int, int, int, int]:
            # the AND's two connections, (e, m) and (m, z): which of p, q is e
            m, k1, k2 = prov >> 2 & 127, prov >> 9 & 31, prov >> 14 & 31
            left, right = int(F[p, m, k1]), int(F[m, q, k2])
            if not (left & right) and (left | right) == carrier & ~int(pbits[m]):
                return p, m, q, k1, k2
            return q, m, p, k1, k2

        def place(kind: int, p: int, q: int, k: int) -> int:
            name = (kind, min(p, q), max(p, q), k)
            if name in placed:
                return placed[name]
            if kind == 0:
                prov, carrier = int(FP[p, q, k]), int(F[p, q, k])
            else:
                prov, carrier = int(SP[p, q, k]), int(S[p, q, k])
            rule = prov & 3
            if rule == _BASE:
                step: dict[str, Any] = {"adj": [point(p), point(q)]}
            elif rule == _TEMPLATE:
                if carrier.bit_count() > TEMPLATE_CELLS:
                    raise _TooDeep
                edge = p if p < 2 else q
                step = {"template": [names[prov >> 2 & 127], edge], "carrier": [names[c] for c in set_bits(carrier)]}
            elif rule == _AND:
                e, m, z, k1, k2 = split(p, q, prov, carrier)
                step = {"and": [place(0, e, m, k1), place(0, m, z, k2)]}
            else:
                step = {"or": [place(1, p, q, j) for j in set_bits(prov >> 20)]}
            steps.append(step)
            placed[name] = len(steps) - 1
            return len(steps) - 1

        try:
            place(*root)
        except _TooDeep:
            return None
        return steps

    def connections(self, player: str, own: int, empty: int
                    ) -> tuple[list[int], dict[tuple[int, int], list[int]], dict[tuple[int, int], list[tuple[int, int]]]]:
        """Everything H-search derived, for the tests: the points' cells (the sides with
        the stones joined to them, the groups, the empty cells), the full connections
        by pair of points (carriers) and the semi ones (key, carrier with the key). When
        the sides are joined the search stops there: only that full connection is
        certain to be listed."""
        found = self._hsearch(player, own, empty)
        nm = _groups(own, 0, 0, self.geo, self.mids, self.ends)
        count = 2 + nm + empty.bit_count()
        points = self.pbits[:count].tolist()
        fulls: dict[tuple[int, int], list[int]] = {}
        semis: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for p in range(count):
            for q in range(p + 1, count):
                if self.nF[p, q]:
                    fulls[p, q] = self.F[p, q, :self.nF[p, q]].tolist()
                if self.nS[p, q]:
                    semis[p, q] = list(zip(self.SK[p, q, :self.nS[p, q]].tolist(),
                                           self.S[p, q, :self.nS[p, q]].tolist(), strict=True))
        if found < 0:
            fulls.setdefault((0, 1), []).append(int(self.outc[0]))
        return points, fulls, semis

    def semis(self, player: str, own: int, empty: int, rounds: int = 0) -> list[tuple[int, int, Link]]:
        """Every semi-connection of ``player``: (key, carrier with the key, link); with
        ``rounds``, then the other chains after the same keys that shrink the opponent's
        must-play region (see :func:`_semis`)."""
        a, b = self.sides[player]
        tpl, tcount, tcells = self.tables[player]
        found = _semis(own, empty, a, b, self.geo, tpl, tcount, tcells, self.use_templates, self.work, self.opts,
                       self.frames, self.pairs, self.out, self.mids, self.ends, self.rest, self.keys,
                       self.carriers, self.extras, self.all_pairs, self.npairs, rounds)
        keys = self.keys[:found].tolist()
        carriers = self.carriers[:found].tolist()
        extras = self.extras[:found].tolist()
        counts = self.npairs[:found].tolist()
        out = []
        for i in range(found):
            pairs = [(x, y) for x, y in self.all_pairs[i, :counts[i]].tolist()]
            out.append((keys[i], carriers[i], (pairs, extras[i])))
        return out


def warm_up() -> None:
    """Compile (or load) the kernels with the argument types of a real search."""
    from pyasp_games.domains.hex.model import parse_position

    sweep = Sweeper(parse_position("3x3"), templates={})
    sweep.semis("B", 1 << 4, 0b111101111, 2)
    sweep.pairing("W", 1 << 4, 0b111101111)
    import numpy as np

    sweep.region_size("B", 1 << 4, 0b111101111)
    sweep.must_play("B", 1 << 4, 0b111101111, 2)
    sweep.lookahead("W", 1 << 4, 0b111101111, 0b111101111)
    sweep.first_key("B", 1 << 4, 0b111101111, np.arange(9, dtype=np.int64))
    sweep.settle(1 << 4, 1 << 3)
    sweep.fill_in(1 << 4, 1 << 3)
    sweep.inferior("B", [0, 1, 2], 0b111100111, 1 << 3)
    sweep.hsearch("B", 1 << 4, 0b111101111)


def compiled_now() -> bool:
    """Whether the kernels run compiled in this process."""
    return is_compiled(__name__)
