"""The questions of the ip domain, declared once: ``pyasp-games ip gni G H`` and
``pyasp-games ip qbf FILE``.

``gni``: the private-coin protocol for graph non-isomorphism (the notes' section 11,
example 1) and its public-coin version (Arthur-Merlin); ``qbf``: the interactive
evaluation of a QBF's polynomial program over Z_p (section 12, proposition 1), or the
formula's truth by direct evaluation (``direct``: what the honest protocol must answer).
Every transcript is replayed by :mod:`~pyasp_games.domains.ip.verify`.

>>> from pyasp_games.domains.ip.model import parse_program
>>> q = parse_program("p cnf 2 2\\ne 1 0\\na 2 0\\n1 2 0\\n1 -2 0\\n")
>>> out = QBF.ask(q, "protocol", prime=101)
>>> out.answer, out.verdict.verified
('accept', True)
>>> describe_qbf(q, out, {})[0]
'accept: the verifier is convinced the formula is true'
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from pyasp_games.domains.ip.model import (
    GraphPair,
    Program,
    Reachability,
    load_pair,
    load_program,
    load_reach,
)
from pyasp_games.domains.ip.native import count_walks, run_gni, run_qbf, run_reach, solve_direct
from pyasp_games.domains.ip.verify import check_gni, check_qbf, check_reach
from pyasp_games.engines.fuzzing import plural
from pyasp_games.engines.graphs import FORMATS
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import Param, Question
from pyasp_games.engines.reference import Reference

#: A protocol's verdict is cross-checked against the direct evaluation where the checker
#: cannot compute the formula's value alone.
REFERENCE = Reference("ip", lambda q, options: ("direct", {}))

RUNS = Param("runs", "--runs", "independent runs of the protocol (each with its own coins).",
             type=int, default=1)  # fmt: skip
SEED = Param("seed", "--seed", "the seed of the verifier's coins (a run is replayed from it).",
             type=int, default=0)  # fmt: skip


def _rate(k: int, n: int) -> str:
    return f"{k} of {n} ({k / n:.1%})" if n else "0"


def describe_gni(pair: GraphPair, outcome: Outcome, options: dict[str, Any]) -> tuple[str | None, list[str]]:
    """The verdict, then the rounds the prover was caught in against the notes' 1/2."""
    w = outcome.witness
    if outcome.status != "solved" or not isinstance(w, dict):
        return None, []
    t = outcome.certificate or {}
    said = {"accept": "accept: the verifier is convinced G and H are not isomorphic",
            "reject": "reject: the verifier is not convinced"}.get(outcome.answer, str(outcome.answer))  # fmt: skip
    lines = [f"  {t.get('coins', 'private')} coins, {t.get('prover', 'honest')} prover, "
             f"{w['runs']} run(s) of {w['rounds']} round(s), seed {t.get('seed', 0)}",
             f"  rounds the prover was caught in: {_rate(w['caught'], w['rounds_in_all'])}; "
             "the notes' analysis: 0 for non-isomorphic pairs, 1/2 a round for isomorphic ones"]  # fmt: skip
    if t.get("coins") == "arthur-merlin":
        lines = [f"  Arthur-Merlin (Goldwasser and Sipser), {w['runs']} run(s) of {w['rounds']} round(s), "
                 f"seed {t.get('seed', 0)}; Merlin's set: {w['pairs']} pairs (Y, tau)",
                 f"  rounds Merlin hit Arthur's target: {_rate(w['rounds_in_all'] - w['caught'], w['rounds_in_all'])}; "
                 f"a round is hit with probability at least {w['hit_if_not_isomorphic']} "
                 f"({float(Fraction(w['hit_if_not_isomorphic'])):.3f}) if G and H are not isomorphic, at most "
                 f"{w['hit_if_isomorphic']} ({float(Fraction(w['hit_if_isomorphic'])):.3f}) if they are",
                 f"  a run accepts with {w['needed']} hits of {w['rounds']}"]  # fmt: skip
        if w["runs"] > 1:
            lines.append(f"  runs accepted: {_rate(w['accepted'], w['runs'])}")
        return said, lines
    if t.get("coins") == "public":
        lines.append("  public coins: the prover reads the verifier's choice off the coin, so "
                     "acceptance proves nothing here (the notes: the coins must be private)")
    if w["runs"] > 1:
        lines.append(f"  runs accepted: {_rate(w['accepted'], w['runs'])}; for an isomorphic pair "
                     f"at most 2^-{w['rounds']} = {Fraction(1, 2 ** w['rounds'])}")  # fmt: skip
    return said, lines


def describe_qbf(q: Program, outcome: Outcome, options: dict[str, Any]) -> tuple[str | None, list[str]]:
    """The verdict, then the prime, the rounds, and the error against its bounds."""
    if outcome.status != "solved":
        return None, []
    said = {"accept": "accept: the verifier is convinced the formula is true",
            "reject": "reject: the verifier is not convinced"}.get(outcome.answer, str(outcome.answer))  # fmt: skip
    w = outcome.witness
    if not isinstance(w, dict):
        return said, ["  by direct evaluation of the QBF (what the honest protocol must answer)"]
    lines = [f"  over Z_{w['prime']}: {w['rounds']} rounds of degree at most {w['degree']}, "
             f"the prover's claim P_N() = {w['claim']}"]  # fmt: skip
    lines.append(_accepted(w, "a false formula"))
    return said, lines


def _accepted(w: dict[str, Any], what: str) -> str:
    """The runs accepted beside the bound on accepting ``what`` (both programs' rounds)."""
    bound, notes = Fraction(w["error_bound"]), Fraction(w["notes_bound"])
    return (f"  runs accepted: {_rate(w['accepted'], w['runs'])}; {what} is accepted "
            f"with probability at most sum d_i / p = {bound} ({float(bound):.4g}) "
            f"<= N d / p = {notes} ({float(notes):.4g})")  # fmt: skip


GNI = Question(
    "gni",
    "Graph non-isomorphism by an interactive proof: the verifier's private coins, or public ones.\n\n"
    "The verifier relabels G or H at random, the prover names its origin; every round must be "
    "right. With --json: answer accept, reject or 'accept K of R'; witness the counts; "
    "certificate the transcript (the seed, each run's choices and answers, the first messages).",
    backends={"protocol": run_gni},
    check=check_gni,
    read=lambda g, h, fmt=None: load_pair(g, h, fmt),
    describe=describe_gni,
    params=(
        Param("g", help="The first graph (an edge 'u v' a line, .adjlist, .graphml, .json).",
              type=Path, to="read", metavar="G"),
        Param("h", help="The second graph.", type=Path, to="read", metavar="H"),
        Param("fmt", "--format", "Graph file format (default: by extension).", type=FORMATS, to="read"),
        Param("rounds", "--rounds", "rounds of one run (the notes' protocol has one).", type=int, default=10),
        RUNS,
        SEED,
        Param("coins", "--coins", "private (the notes' protocol), public (the same, the coin "
              "seen by the prover) or arthur-merlin (Goldwasser and Sipser's public-coin "
              "protocol, graphs of at most 7 vertices).", type=("private", "public", "arthur-merlin"),
              default="private"),
        Param("prover", "--prover", "honest (names the graph isomorphic to Y, G first) or guess "
              "(tosses its own coin when Y fits both).", type=("honest", "guess"), default="honest"),
    ),
)

QBF = Question(
    "qbf",
    "IP = PSPACE: the interactive evaluation of a QBF's polynomial program over Z_p.\n\n"
    "The honest prover sends each h_i exactly; the cheating one claims a false formula true. "
    "With --json: answer accept, reject or 'accept K of R'; witness the prime, the degrees, "
    "the error bounds; certificate the transcript (each run's claim, polynomials and points).",
    backends={"protocol": run_qbf, "direct": solve_direct},
    check=check_qbf,
    read=lambda file: load_program(file),
    describe=describe_qbf,
    params=(
        Param("file", help="A QDIMACS file (p cnf, then 'e'/'a' lines, then clauses).",
              type=Path, to="read"),
        Param("prime", "--prime", "the prime p of Z_p (default 2^61 - 1); at least 2 N d.",
              type=int, backends=("protocol",)),
        Param("runs", RUNS.flags, RUNS.help, type=int, default=1, backends=("protocol",)),
        Param("seed", SEED.flags, SEED.help, type=int, default=0, backends=("protocol",)),
        Param("prover", "--prover", "honest, or cheat (claims a false formula true, and lies "
              "with as many roots as it can).", type=("honest", "cheat"), default="honest",
              backends=("protocol",)),
    ),
    reference=REFERENCE,
)

def describe_reach(r: Reachability, outcome: Outcome, options: dict[str, Any]) -> tuple[str | None, list[str]]:
    """The verdict, then the program's size and the error against its bounds."""
    if outcome.status != "solved":
        return None, []
    steps = 2**r.levels
    said = {"accept": f"accept: the verifier is convinced {r.names[r.target]} is reached from "
                      f"{r.names[r.source]} in {steps} moves",
            "reject": "reject: the verifier is not convinced"}.get(outcome.answer, str(outcome.answer))  # fmt: skip
    w = outcome.witness
    if not isinstance(w, dict) or "prime" not in w:
        walks = w.get("walks") if isinstance(w, dict) else None
        return said, [f"  {walks} walks of {steps} moves (the adjacency matrix squared {r.levels} times)"]
    lines = [f"  the notes' program: {plural(r.levels, 'level')} of {r.bits + 1} instructions on configurations "
             f"of {r.bits} bits; over Z_{w['prime']}: {w['rounds']} rounds of degree at most "
             f"{w['degree']}, the prover's claim P_{r.levels}(s, t) = {w['claim']}"]  # fmt: skip
    lines.append(_accepted(w, "a false claim"))
    return said, lines


REACH = Question(
    "reach",
    "Proposition 2 of section 12: the polynomial program of a configuration graph, evaluated interactively.\n\n"
    "P_0(x, y) is 1 on a move; P_l(x, y) = sum over z of P_{l-1}(x, z) P_{l-1}(z, y), written "
    "as the notes' instructions Q_lj; the verifier checks the prover's claim about P_L(s, t), "
    "the walks of 2^L moves. With --json: answer accept, reject or 'accept K of R'; the "
    "certificate the transcript.",
    backends={"protocol": run_reach, "direct": count_walks},
    check=check_reach,
    read=lambda graph, source=None, target=None, levels=None, fmt=None: load_reach(
        graph, source, target, 2 if levels is None else levels, fmt),
    describe=describe_reach,
    params=(
        Param("graph", help="The configuration graph: an arc 'u v' a line (the one-step moves; "
              "'# start:' and '# target:' headers), at most 8 vertices.", type=Path, to="read",
              metavar="GRAPH"),
        Param("source", "--from", "the start configuration (default: the '# start:' header).", to="read"),
        Param("target", "--to", "the end configuration (default: the '# target:' header).", to="read"),
        Param("levels", "--levels", "L: walks of 2^L moves (1 to 4).", type=int, default=2, to="read"),
        Param("fmt", "--format", "Graph file format (default: by extension).", type=FORMATS, to="read"),
        Param("prime", "--prime", "the prime p of Z_p (default 2^61 - 1); at least 2 N d.",
              type=int, backends=("protocol",)),
        Param("runs", RUNS.flags, RUNS.help, type=int, default=1, backends=("protocol",)),
        Param("seed", SEED.flags, SEED.help, type=int, default=0, backends=("protocol",)),
        Param("prover", "--prover", "honest, or cheat (claims an unreachable target reached).",
              type=("honest", "cheat"), default="honest", backends=("protocol",)),
    ),
)

QUESTIONS = (QBF, GNI, REACH)
