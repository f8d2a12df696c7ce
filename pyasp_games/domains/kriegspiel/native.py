"""Native backends: the optimal worst-case strategy by retrograde analysis over metapositions.

:func:`solve_native` collects every metaposition reachable from the given one
(:mod:`~pyasp_games.domains.kriegspiel.tablebase`, up to the board's symmetries), computes
their worst-case values by the "mate within k" fixpoint, and answers with the value of
the given one, the strategy that reaches it
(:func:`~pyasp_games.domains.kriegspiel.strategy.strategy`) and the refutation of a faster
mate (:func:`~pyasp_games.domains.kriegspiel.strategy.refutation`: the lower bound, up to
:data:`~pyasp_games.domains.kriegspiel.strategy.MAX_REFUTATION` metapositions; beyond, the
optimum rests on this analysis, said in ``stats["no_certificate"]``), or, without a
forced mate (or none within ``--max-moves``), with the refutation of every mate.

>>> from pyasp_games.engines.limits import Deadline, LimitReached, Limits
>>> from pyasp_games.domains.kriegspiel.model import parse_metaposition
>>> out = solve_native(parse_metaposition("4/4/1R2/K3 unknown"), Limits())
>>> out.status, out.answer, out.verdict.optimal_claimed, len(out.witness["refutation"]["nodes"]) > 0
('solved', 8, True, True)
>>> solve_native(parse_metaposition("4/4/1R2/K3 unknown"), Limits(max_length=7)).status
'no-solution'
"""

from __future__ import annotations

from collections.abc import Callable

from pyasp_games.domains.kriegspiel.model import Metaposition, StartSet, starts
from pyasp_games.domains.kriegspiel.strategy import (
    MAX_REFUTATION,
    MAX_TABLE_REFUTATION,
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
    cache_file,
    cached_worth,
    save_values,
    values,
)
from pyasp_games.engines.limits import Deadline, LimitReached, Limits
from pyasp_games.engines.outcome import Outcome


def solve_native(
    m: Metaposition, limits: Limits, progress: Callable[[int], None] | None = None
) -> Outcome:
    """Whether White forces mate from ``m``: the optimal worst-case number of White moves
    (answer), the strategy (witness); ``no-solution`` with a refutation when there is no
    forced mate, or (``stats["bounded"]``) none within ``limits.max_length`` moves."""
    deadline = limits.deadline()
    worth = _from_cache(m)
    if worth is not None:
        stats: dict = {"table": "the board's cached table"}
    else:
        table = build([m], deadline, progress)
        value = values(table, deadline)
        worth = table.worth(value)
        stats = {"metapositions": len(table.keys), "attempts": len(table.owner)}
    best = worth((m.king, m.piece_square, m.belief))
    if best >= NO_MATE:  # no-solution: the refutation (small: mostly draws) always given
        proof = _no_mate(m, worth, deadline)
        return Outcome(m.name, "native", "no-solution", None, proof, 0.0, stats)
    if limits.max_length is not None and best > limits.max_length:
        stats.update(bounded=limits.max_length, value=best)
        proof = _lower_bound(m, worth, stats, deadline, limits.max_length)
        return Outcome(m.name, "native", "no-solution", None, proof, 0.0, stats)
    plan = strategy(m, worth)
    stats.update(optimal=True, optimal_by="the retrograde analysis", strategy_nodes=len(plan["nodes"]))
    proof = _lower_bound(m, worth, stats, deadline)
    if proof is not None:
        plan["refutation"] = proof
    return Outcome(m.name, "native", "solved", best, plan, 0.0, stats)


def _no_mate(m: Metaposition, worth: Worth, deadline: Deadline) -> dict:
    """The refutation of every mate, of any size: "no forced mate" is proved or not said
    (the time limit: :class:`LimitReached`)."""
    try:
        return refutation(m, worth, None, None, halfway(deadline))
    except NotBuilt as err:
        raise LimitReached({"limit": "time", "stopped": str(err)}) from None


def _lower_bound(
    m: Metaposition, worth: Worth, stats: dict, deadline: Deadline, most: int | None = None
) -> dict | None:
    """The refutation of a faster mate (of any mate within ``most`` moves), or ``None``
    when it would be too large to check or the time limit came first, said in
    ``stats["no_certificate"]``."""
    try:
        proof = refutation(m, worth, MAX_REFUTATION, most, halfway(deadline))
    except NotBuilt as err:
        stats["no_certificate"] = str(err)
        return None
    stats["refutation_nodes"] = len(proof["nodes"])
    return proof


def _from_cache(m: Metaposition) -> Worth | None:
    """The values of the board's cached whole table (``kriegspiel table`` writes it), if
    ``m`` is in it: every metaposition reachable from a start is."""
    cached = cached_worth(m.board, m.piece)
    if cached is None or cached((m.king, m.piece_square, m.belief)) is None:
        return None
    return cached  # type: ignore[return-value]


def solve_table(
    request: StartSet, limits: Limits, progress: Callable[[int], None] | None = None
) -> Outcome:
    """The table of a board: every metaposition reachable from every full-uncertainty
    start, solved; the answer is the starts' distribution of worst-case values (``none``:
    no forced mate), the witness every start's value with one strategy graph (and one
    refutation graph) covering them all."""
    deadline = limits.deadline()
    ms = starts(request.board, request.piece)
    table = build(ms, deadline, progress)
    value = values(table, deadline)
    save_values(table, value)
    worth = [int(value[table.number((m.king, m.piece_square, m.belief))]) for m in ms]
    won = [m for m, v in zip(ms, worth, strict=True) if v < NO_MATE]
    lost = [m for m, v in zip(ms, worth, strict=True) if v >= NO_MATE]
    plan = strategies(won, table.worth(value)) if won else {"roots": [], "nodes": []}
    stats: dict = {}
    try:  # one refutation for every start: no faster mate, or no forced mate
        proof = refutations(ms, table.worth(value), MAX_TABLE_REFUTATION, None, halfway(deadline))
        refuted = ms
    except NotBuilt as err:  # the lower bounds rest on the analysis; "no mate" is still proved
        stats["no_certificate"] = str(err)
        try:
            proof = refutations(lost, table.worth(value), None, None, deadline) if lost else {"roots": [], "nodes": []}
        except NotBuilt as late:
            raise LimitReached({"limit": "time", "stopped": str(late)}) from None
        refuted = lost
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
    witness = {"starts": rows, "strategy": plan, "refutation": proof}
    stats.update(attempts=len(table.owner), optimal=True, optimal_by="the retrograde analysis",
                 strategy_nodes=len(plan["nodes"]), refutation_nodes=len(proof["nodes"]),
                 cached=str(cache_file(request.board, request.piece)))  # fmt: skip
    return Outcome(request.name, "native", "solved", answer, witness, 0.0, stats)
