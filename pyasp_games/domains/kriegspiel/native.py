"""Native backends: the optimal worst-case strategy by retrograde analysis over metapositions.

:func:`solve_native` collects every metaposition reachable from the given one
(:mod:`~pyasp_games.domains.kriegspiel.tablebase`, up to the board's symmetries), computes
their worst-case values by the "mate within k" fixpoint, and answers with the value of
the given one and the strategy that reaches it
(:func:`~pyasp_games.domains.kriegspiel.strategy.strategy`), or with ``no-solution``
when there is no forced mate (or none within ``--max-moves``). The certificate of the
value is the table itself: every metaposition it rests on with its value, which the
checker confirms by the retrograde equation with its own rules
(:mod:`~pyasp_games.domains.kriegspiel.value_check`): the claim's ``certificate``, and
``witness["certificate"]`` says how many metapositions and, for the board's cached
table, the file that keeps them; a table read from that file is named there and not
carried in the certificate (a saved answer stays small): the checker reads the file
itself. Where the refutation of a faster mate is small (at most
:data:`~pyasp_games.domains.kriegspiel.strategy.READABLE_REFUTATION` metapositions) it is
given too, as a graph one can read (``witness["refutation"]``), and checked as well.

>>> from pyasp_games.engines.limits import Deadline, LimitReached, Limits
>>> from pyasp_games.domains.kriegspiel.model import parse_metaposition
>>> claim = solve_native(parse_metaposition("4/4/1R2/K3 unknown"), Limits())
>>> claim.status, claim.answer, claim.kind, len(claim.witness["refutation"]["nodes"]) > 0
('solved', 8, 'exact', True)
>>> bounded = solve_native(parse_metaposition("4/4/1R2/K3 unknown"), Limits(max_length=7))
>>> bounded.status, bounded.kind, bounded.bound
('no-solution', 'within bound', 7)
"""

from __future__ import annotations

from collections.abc import Callable

from pyasp_games.domains.kriegspiel.model import Metaposition, StartSet, starts
from pyasp_games.domains.kriegspiel.strategy import (
    READABLE_REFUTATION,
    NotBuilt,
    Worth,
    halfway,
    refutation,
    refutations,
    strategies,
    strategy,
)
from pyasp_games.domains.kriegspiel.tablebase import (
    NO_MATE,
    build,
    cached_table,
    certificate,
    save_values,
    values,
)
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Deadline, Limits


def solve_native(
    m: Metaposition, limits: Limits, progress: Callable[[int], None] | None = None
) -> Claim:
    """Whether White forces mate from ``m``: the optimal worst-case number of White moves
    (answer), the strategy (witness); ``no-solution`` when there is no forced mate, or
    (kind ``within bound``) none within ``limits.max_length`` moves. The table of values
    it rests on goes to the checker as the certificate (``claim.certificate``); the
    board's cached table is named by the witness (``witness["certificate"]["file"]``)
    instead, and the checker reads that file (a saved answer stays small)."""
    deadline = limits.deadline()
    found = _from_cache(m)
    kept: dict | None
    if found is not None:
        worth, proof = found
        kept = None  # the file the witness names is the certificate
        stats: dict = {"table": "the board's cached table", "metapositions": len(proof["values"])}
    else:
        table = build([m], deadline, progress)
        value = values(table, deadline)
        worth = table.worth(value)
        proof = kept = certificate(m.board, m.piece, table.keys, value)
        stats = {"metapositions": len(table.keys), "attempts": len(table.owner)}
    said = {"values": len(proof["values"]), "file": proof["file"]}
    best = worth((m.king, m.piece_square, m.belief))
    if best >= NO_MATE:  # no-solution: the refutation (small: mostly draws) always given
        witness = {**_readable(m, worth, deadline, None, len(proof["values"])), "certificate": said}
        return Claim.none(None, witness, stats=stats, certificate=kept)
    if limits.max_length is not None and best > limits.max_length:
        stats["value"] = best
        witness = {**_readable(m, worth, deadline, limits.max_length, len(proof["values"])), "certificate": said}
        return Claim.none(None, witness, bound=limits.max_length, stats=stats, certificate=kept)
    plan = strategy(m, worth)
    stats.update(optimal_by="the retrograde analysis", strategy_nodes=len(plan["nodes"]))
    small = _readable(m, worth, deadline, best - 1, len(proof["values"]))
    if small:
        plan["refutation"] = small
        stats["refutation_nodes"] = len(small["nodes"])
    plan["certificate"] = said
    return Claim.solved(best, plan, stats=stats, certificate=kept)


#: The most metapositions of a table whose starts may have a readable refutation (the
#: 5 x 5 table has 4,610; an 8 x 8 start's refutation alone would hold about 45,000).
READABLE_TABLE = 25_000


def _readable(m: Metaposition, worth: Worth, deadline: Deadline, most: int | None, size: int) -> dict:
    """The refutation of a mate within ``most`` moves (``None``: of any mate) as a graph
    one can read (:mod:`~pyasp_games.domains.kriegspiel.strategy`), when it has at most
    :data:`~pyasp_games.domains.kriegspiel.strategy.READABLE_REFUTATION` metapositions, else
    ``{}``: the table of values certifies the bound either way."""
    if size > READABLE_TABLE:
        return {}  # (a refutation of a start of so large a table is never so small)
    try:
        return refutation(m, worth, READABLE_REFUTATION, most, halfway(deadline))
    except NotBuilt:
        return {}


def _from_cache(m: Metaposition) -> tuple[Worth, dict] | None:
    """The values of the board's cached whole table (``kriegspiel table`` writes it) and
    the table as the checker reads it, if ``m`` is in it: every metaposition reachable
    from a start is."""
    cached = cached_table(m.board, m.piece)
    if cached is None or cached[0]((m.king, m.piece_square, m.belief)) is None:
        return None
    return cached  # type: ignore[return-value]


def solve_table(
    request: StartSet, limits: Limits, progress: Callable[[int], None] | None = None
) -> Claim:
    """The table of a board: every metaposition reachable from every full-uncertainty
    start, solved; the answer is the starts' distribution of worst-case values (``none``:
    no forced mate), the witness every start's value with one strategy graph (and one
    refutation graph) covering them all. The table of values is saved to the board's
    cache file, which the witness names (``witness["certificate"]["file"]``): the
    checker reads it there (the claim carries no copy)."""
    deadline = limits.deadline()
    ms = starts(request.board, request.piece)
    table = build(ms, deadline, progress)
    value = values(table, deadline)
    kept = save_values(table, value)
    worth = [int(value[table.number((m.king, m.piece_square, m.belief))]) for m in ms]
    won = [m for m, v in zip(ms, worth, strict=True) if v < NO_MATE]
    plan = strategies(won, table.worth(value)) if won else {"roots": [], "nodes": []}
    stats: dict = {}
    try:  # one readable refutation for every start, on small boards
        proof = refutations(ms, table.worth(value), READABLE_REFUTATION, None, halfway(deadline))
        refuted = ms
    except NotBuilt:  # the table of values certifies every start's value
        proof, refuted = {"roots": [], "nodes": []}, []
    plans, proofs = iter(plan["roots"]), dict(zip(map(id, refuted), proof["roots"], strict=True))
    rows = []
    distribution: dict[str, int] = {}
    for m, v in zip(ms, worth, strict=True):
        finite = v < NO_MATE
        rows.append({"metaposition": m.fen(), "value": v if finite else None,
                     "strategy": next(plans) if finite else None,
                     "refutation": proofs.get(id(m))})  # fmt: skip
        key = str(v) if finite else "none"
        distribution[key] = distribution.get(key, 0) + 1
    answer = {
        "starts": len(ms),
        "forced": len(won),
        "share": round(len(won) / len(ms), 4) if ms else 0.0,
        "longest": max((v for v in worth if v < NO_MATE), default=None),
        "distribution": dict(sorted(distribution.items(), key=lambda kv: (kv[0] == "none", int(kv[0]) if kv[0] != "none" else 0))),
        "metapositions": len(table.keys),
    }
    said = {"values": len(table.keys), "file": str(kept)}
    witness = {"starts": rows, "strategy": plan, "refutation": proof, "certificate": said}
    stats.update(attempts=len(table.owner), optimal_by="the retrograde analysis",
                 strategy_nodes=len(plan["nodes"]), refutation_nodes=len(proof["nodes"]),
                 cached=str(kept))  # fmt: skip
    return Claim.solved(answer, witness, stats=stats)
