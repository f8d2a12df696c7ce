"""The polynomial backend: positions whose tokens all sit on vertices of finite
generalized Sprague-Grundy value, decided by the nim-sum of those values.

Let ``γ`` be Smith's generalized Sprague-Grundy function of the digraph itself (the
game of one token; :func:`~pyasp_games.domains.grundy.generalized.generalized_grundy`,
with its counter function ``c``), and ``V_f`` the vertices where ``γ`` is finite.

**Theorem.** If every token of ``x`` is on ``V_f`` and ``s`` is the XOR of their ``γ``
values, the player to move at ``x`` loses if ``s = 0`` and wins otherwise.

*Winning move* (``s != 0``): some token ``u`` has ``γ(u) XOR s < γ(u)``; ``γ(u)`` is
the mex of its successors' finite values, so ``u`` has a successor ``w`` with
``γ(w) = γ(u) XOR s``; moving there leaves all tokens on ``V_f`` with XOR 0 (if ``w``
held a token both vanish: both values leave the XOR, which is addition mod 2 again).

*Second player's strategy* (``s = 0``): after each of his replies all tokens are on
``V_f`` with XOR 0. The opponent moves a token ``u -> v``. If ``γ(v) > γ(u)`` (``∞``
included: ``v`` is then empty, as no token is off ``V_f``) and the token survived,
Smith's condition (b) gives a successor ``z`` of ``v`` with ``γ(z) = γ(u)`` and
``c(z) < c(u)``: he moves the token on to ``z`` (a *reversal*). Otherwise the XOR is
``γ(u) XOR γ(v) != 0`` (``γ(u)`` is the mex of values that include ``γ(v)``, or two
tokens vanished), and he makes the winning move above. *Termination*: give each token
the pair ``(γ, c)`` of its vertex, ordered lexicographically (well-founded on the
naturals). Every round (a move and its reply) removes tokens or replaces one pair by a
smaller one: a decreasing move lowers ``γ``, a reversal keeps ``γ`` and lowers ``c``, an
annihilation removes two pairs. So the multiset of pairs decreases in the (well-founded)
multiset order, the play is finite, and as the second player always has a reply, it is
the opponent who is left without a move.

So the answer costs one computation of ``γ`` on the digraph (``O((Δ⁺ + 2)(n + m))``,
``Δ⁺`` the largest out-degree) and an XOR: polynomial, whatever the number of tokens.
Positions with a token on a vertex of infinite ``γ`` are outside the theorem (tokens
there can annihilate each other, and such positions may have finite values that no
single-token ``γ`` shows; see ``docs/annihilation.md``, "The polynomial algorithm"):
the backend refuses them with one line rather than guess.

The certificate travels with the answer (``stats['grundy']``, ``stats['counters']``):
the checker confirms Smith's conditions on the digraph and recomputes the XOR.

>>> from pyasp_games.domains.annihilation.model import parse_instance
>>> out = solve_poly(parse_instance("a b\\nb c\\nc d\\nd e\\n", "b c e"))
>>> out.answer, out.witness, out.stats["nim_sum"]
('first', ['b', 'c'], 1)
"""

from __future__ import annotations

from pyasp_games.domains.annihilation.model import Annihilation, vertices_of
from pyasp_games.domains.grundy.generalized import generalized_grundy
from pyasp_games.domains.grundy.model import format_value
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.errors import InputError


def infinite_tokens(inst: Annihilation, values: list) -> list[int]:
    """The token vertices whose ``γ`` is infinite (where the theorem does not apply)."""
    return [v for v in vertices_of(inst.start) if not isinstance(values[v], int)]


def applies(inst: Annihilation) -> bool:
    """Whether every token sits on a vertex of finite ``γ`` (one computation of ``γ``)."""
    values, _ = generalized_grundy(inst.graph)
    return not infinite_tokens(inst, values)


def solve_poly(inst: Annihilation, limits: Limits = Limits()) -> Outcome:
    """``first`` with a winning move, or ``second``, by the nim-sum of the tokens' ``γ``
    values (the module docstring proves it); a token on an infinite ``γ``: refused."""
    values, counters = generalized_grundy(inst.graph, limits.deadline())
    outside = infinite_tokens(inst, values)
    if outside:
        shown = ", ".join(f"{inst.names[v]} ({values[v]})" for v in outside[:5])
        raise InputError(
            "the poly backend answers positions whose tokens all sit on vertices of finite "
            f"generalized Sprague-Grundy value; these do not: {shown}; use --backend native"
        )
    tokens = vertices_of(inst.start)
    total = 0
    for v in tokens:
        total ^= values[v]
    witness = None
    if total:
        for u in tokens:
            want = values[u] ^ total
            if want < values[u]:
                w = next(w for w in inst.graph.succ[u] if values[w] == want)
                witness = inst.move_name((u, w))
                break
    stats = {
        "nim_sum": total,
        "finite_vertices": sum(isinstance(x, int) for x in values),
        "grundy": [format_value(x) for x in values],
        "counters": counters,
    }
    return Outcome(inst.name, "poly", "solved", "first" if total else "second", witness, 0.0, stats)
