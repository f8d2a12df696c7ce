"""The one rule of agreement (engines.agreement.relation) and the verdict record
(engines.verdict): a table of answer pairs per domain with the expected relation, the
record's round trip through JSON, and every tool asking the same rule."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from pyasp_games.engines.agreement import Relation, relation, same_answer
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import Question
from pyasp_games.engines.verdict import (
    ABOUT_STRATEGY,
    EXACT,
    UPPER_BOUND,
    WITHIN_BOUND,
    CrossCheck,
    Verdict,
)
from pyasp_games.tools.crosscheck import agreement

EQUAL, CONSISTENT = Relation.EQUAL, Relation.CONSISTENT
DIFFERS, NOT_COMPARABLE = Relation.DIFFERS, Relation.NOT_COMPARABLE


def solved(answer, **stats) -> Outcome:
    """An outcome as JSON holds it (the verdict's keys in ``stats``), read back."""
    return Outcome.from_dict({"problem": "i", "backend": "b", "status": "solved",
                              "answer": answer, "stats": stats})  # fmt: skip


def none(answer=None, **stats) -> Outcome:
    return Outcome.from_dict({"problem": "i", "backend": "b", "status": "no-solution",
                              "answer": answer, "stats": stats})  # fmt: skip


UNKNOWN = Outcome("i", "b", "unknown", stats={"limit": "time"})
ERROR = Outcome("i", "b", "error", stats={"error": "crashed"})
STRATEGY_FAILS = none("strategy-fails", optimal=False, bounded="the heuristic's strategy")

#: (domain, what the pair is, a, b, expected relation)
TABLE = [
    # puzzle: optimal plan lengths, greedy plans (upper bounds), "none within n", unsolvable
    ("puzzle", "the same optimum", solved(24), solved(24), EQUAL),
    ("puzzle", "two optima", solved(24), solved(22), DIFFERS),
    ("puzzle", "greedy above the optimum", solved(30, optimal=False), solved(24), CONSISTENT),
    ("puzzle", "greedy below the optimum", solved(20, optimal=False), solved(24), DIFFERS),
    ("puzzle", "greedy where none exists", solved(30, optimal=False), none(), DIFFERS),
    ("puzzle", "two greedy plans", solved(30, optimal=False), solved(40, optimal=False), CONSISTENT),
    ("puzzle", "both unsolvable", none(), none(), EQUAL),
    ("puzzle", "unsolvable and a plan", none(), solved(24), DIFFERS),
    ("puzzle", "none within 20, optimum 24", none(bounded=20), solved(24), CONSISTENT),
    ("puzzle", "none within 20, optimum 18", none(bounded=20), solved(18), DIFFERS),
    ("puzzle", "none within 20, unsolvable", none(bounded=20), none(), CONSISTENT),
    ("puzzle", "none within 20, greedy 30", none(bounded=20), solved(30, optimal=False), CONSISTENT),
    ("puzzle", "none within 20, greedy 12", none(bounded=20), solved(12, optimal=False), DIFFERS),
    ("puzzle", "none within 20 and within 10", none(bounded=20), none(bounded=10), CONSISTENT),
    ("puzzle", "a limit reached", solved(24), UNKNOWN, NOT_COMPARABLE),
    ("puzzle", "a failed backend", solved(24), ERROR, NOT_COMPARABLE),
    # grundy: existence (True/False) and counts of Grundy functions or kernels
    ("grundy", "the same count", solved(3), solved(3), EQUAL),
    ("grundy", "two counts", solved(3), solved(2), DIFFERS),
    ("grundy", "exists and a count of some", solved(True), solved(3), CONSISTENT),
    ("grundy", "exists and a count of one", solved(True), solved(1), CONSISTENT),
    ("grundy", "exists and a count of none", solved(True), none(0), DIFFERS),
    ("grundy", "none exists and a count of two", none(False), solved(2), DIFFERS),
    ("grundy", "none exists and a count of none", none(False), none(0), CONSISTENT),
    # cover: exists, counts (a count of 0 said as solved or as no-solution)
    ("cover", "a cover and none", solved(True), none(False), DIFFERS),
    ("cover", "no cover, counted twice", none(0), solved(0), EQUAL),
    ("cover", "2**40 covers", solved(2**40), solved(2**40), EQUAL),
    # geography: the winner
    ("geography", "the same winner", solved("first"), solved("first"), EQUAL),
    ("geography", "two winners", solved("first"), solved("second"), DIFFERS),
    # annihilation (and catch): first, second or draw
    ("annihilation", "the same draw", solved("draw"), solved("draw"), EQUAL),
    ("annihilation", "a draw and a win", solved("draw"), solved("first"), DIFFERS),
    # routing: rt exact (optimal: True) and upper-bound schedules
    ("routing", "rt and a longer bound", solved(5, optimal=True), solved(7, optimal=False), CONSISTENT),
    ("routing", "rt and a shorter bound", solved(5, optimal=True), solved(4, optimal=False), DIFFERS),
    ("routing", "rt twice", solved(5, optimal=True), solved(5), EQUAL),
    # zerosum: exact rational values, read back from JSON as lists
    ("zerosum", "one value", solved(Fraction(1, 2)), solved(Fraction(1, 2)), EQUAL),
    ("zerosum", "an integer value", solved(Fraction(2)), solved(2), EQUAL),
    ("zerosum", "two values", solved(Fraction(1, 3)), solved(Fraction(1, 2)), DIFFERS),
    ("zerosum", "a strategy as list and tuple", solved([Fraction(1, 2), 1]), solved((Fraction(1, 2), 1)), EQUAL),
    # kayles: Grundy values of graphs, and a family's sequence of values
    ("kayles", "the same value", solved(3), solved(3), EQUAL),
    ("kayles", "two values", solved(3), solved(0), DIFFERS),
    ("kayles", "the same sequence", solved([0, 1, 1, 2]), solved([0, 1, 1, 2]), EQUAL),
    ("kayles", "two sequences", solved([0, 1, 1, 2]), solved([0, 1, 1, 3]), DIFFERS),
    ("kayles", "a limit reached", solved(3), UNKNOWN, NOT_COMPARABLE),
    # kriegspiel: mates in n (exact), the heuristic's worst case, none within n, the
    # heuristic's strategy failing (a claim about a strategy)
    ("kriegspiel", "the same mate", solved(5, optimal=True), solved(5, optimal=True), EQUAL),
    ("kriegspiel", "the heuristic's worst case", solved(5, optimal=True), solved(7, optimal=False), CONSISTENT),
    ("kriegspiel", "no forced mate, and a mate", none(), solved(5, optimal=True), DIFFERS),
    ("kriegspiel", "none within 7, mate in 9", none(bounded=7), solved(9, optimal=True), CONSISTENT),
    ("kriegspiel", "none within 7, mate in 5", none(bounded=7), solved(5, optimal=True), DIFFERS),
    ("kriegspiel", "the strategy fails, mate in 5", STRATEGY_FAILS, solved(5, optimal=True), NOT_COMPARABLE),
    ("kriegspiel", "the strategy fails, no mate", STRATEGY_FAILS, none(), NOT_COMPARABLE),
    # cops: the winner with the number of moves of the cops; the cop number
    ("cops", "the same win in 3", solved({"winner": "cops", "moves": 3}),
     solved({"winner": "cops", "moves": 3}), EQUAL),
    ("cops", "wins in 3 and in 4", solved({"winner": "cops", "moves": 3}),
     solved({"winner": "cops", "moves": 4}), DIFFERS),
    ("cops", "the cops' and the robber's win", solved({"winner": "cops", "moves": 3}),
     solved({"winner": "robber", "moves": None}), DIFFERS),
    ("cops", "both the robber's", solved({"winner": "robber", "moves": None}),
     solved({"winner": "robber", "moves": None}), EQUAL),
    ("cops", "the same cop number", solved(3), solved(3), EQUAL),
    ("cops", "two cop numbers", solved(3), solved(4), DIFFERS),
    ("cops", "a limit reached", solved({"winner": "cops", "moves": 3}), UNKNOWN, NOT_COMPARABLE),
    # hex: the winner with the player to move (each answer carries a checked proof)
    ("hex", "the same winner", solved("black"), solved("black"), EQUAL),
    ("hex", "two winners", solved("black"), solved("white"), DIFFERS),
    ("hex", "a winner and a limit", solved("white"), UNKNOWN, NOT_COMPARABLE),
    ("hex", "a winner and a failed backend", solved("white"), ERROR, NOT_COMPARABLE),
    # machine: accepts within the bound (a run) or not; Savitch's and ALT(w)'s winner
    ("machine", "both accept", solved(True), solved(True), EQUAL),
    ("machine", "accepts and does not", solved(True), none(False), DIFFERS),
    ("machine", "accepts and a limit", solved(True), UNKNOWN, NOT_COMPARABLE),
    # ssat: the maximum probability, an exact fraction written canonically ("3/4")
    ("ssat", "the same probability", solved("3/4"), solved("3/4"), EQUAL),
    ("ssat", "two probabilities", solved("3/4"), solved("5/9"), DIFFERS),
    ("ssat", "a limit reached", solved("1/2"), UNKNOWN, NOT_COMPARABLE),
    # ip: the verifier's verdict (the honest protocol and the direct evaluation)
    ("ip", "both accept", solved("accept"), solved("accept"), EQUAL),
    ("ip", "accept and reject", solved("accept"), solved("reject"), DIFFERS),
    ("ip", "a verdict and a limit", solved("reject"), UNKNOWN, NOT_COMPARABLE),
    # truth values are no numbers, and no string is a number
    ("any", "True is not the count 1's equal", solved(True), solved(1), CONSISTENT),
    ("any", "a string and a number", solved("1"), solved(1), DIFFERS),
]


@pytest.mark.parametrize(("domain", "what", "a", "b", "expected"), TABLE,
                         ids=[f"{row[0]}: {row[1]}" for row in TABLE])  # fmt: skip
def test_relation_table(domain, what, a, b, expected):
    assert relation(a, b) is expected
    assert relation(b, a) is expected  # the rule is symmetric


def test_kinds_come_from_the_backends_declaration():
    assert solved(3).verdict.kind == EXACT
    assert solved(3, optimal=False).verdict.kind == UPPER_BOUND
    assert none(bounded=4).verdict.kind == WITHIN_BOUND and none(bounded=4).verdict.bound == 4
    assert STRATEGY_FAILS.verdict.kind == ABOUT_STRATEGY
    # a backend declares the kind in its claim; the runner puts it into the verdict
    from pyasp_games.engines.claim import Claim, Kind
    from pyasp_games.engines.limits import Limits
    from pyasp_games.engines.runner import run_backend

    def greedy(n, limits):
        return Claim.solved(n, kind=Kind.UPPER_BOUND)

    out = run_backend({"greedy": greedy}, "greedy", 3, "i", Limits(), lambda i, o: (True, "ok"))
    assert out.verdict.kind == UPPER_BOUND and "optimal" not in out.stats


def test_same_answer_types():
    assert not same_answer(True, 1) and not same_answer(False, 0)
    assert same_answer(Fraction(3, 1), 3) and not same_answer(Fraction(1, 2), 0.4)
    assert same_answer({"a": [1, 2]}, {"a": (1, 2)}) and not same_answer({"a": 1}, {"b": 1})
    assert not same_answer([1, 2], [1, 2, 3])


def test_verdict_round_trip_through_json():
    """The JSON keeps the keys scripts read, and reading them back gives the record."""
    out = Outcome("i", "asp", "error", None, stats={"nodes": 3}, verdict=Verdict(kind=WITHIN_BOUND, bound=9))
    out.verdict.unconfirmed = "too large to recount"
    out.verdict.disagreed(
        CrossCheck("disagrees", "native", status="solved", answer=24, seconds=0.5, witness="RDLU"),
        "the encoding answers none, the reference 24",
        "no-solution",
    )
    data = json.loads(json.dumps(out.to_dict()))
    stats = data["stats"]
    assert stats["verified"] is False and stats["cross_check"] == "disagrees"
    assert stats["reference"] == "native" and stats["reference_answer"] == 24
    assert stats["failed_status"] == "no-solution" and stats["bounded"] == 9
    assert stats["nodes"] == 3 and "nodes" in out.stats and "verified" not in out.stats
    back = Outcome.from_dict(data)
    assert back.verdict == out.verdict and back.stats == {"nodes": 3}


@pytest.mark.parametrize(
    ("verdict", "stands", "unconfirmed"),
    [
        (Verdict(verified=True, message="ok"), True, None),
        (Verdict(verified=None, message="nothing to check"), False, None),
        (Verdict(verified=None, message="", unconfirmed="too large"), False, "too large"),
        (Verdict(verified=None, message="", unconfirmed="too large",
                 cross_check=CrossCheck("agrees", "native")), True, None),
        (Verdict(verified=None, message="", unconfirmed="too large",
                 cross_check=CrossCheck("trusted")), False, None),
        (Verdict(verified=False, message="", cross_check=CrossCheck("not verified", "native",
                 "time")), False, "time"),
        (Verdict(verified=False, message="bad plan"), False, None),
    ],
)
def test_verdict_stands(verdict, stands, unconfirmed):
    assert verdict.stands is stands
    assert verdict.unconfirmed_because == unconfirmed


def test_crosscheck_and_known_answers_use_the_rule():
    exact, greedy = solved(24), solved(30, optimal=False)
    assert agreement([exact, greedy], (True, 24)) == [(True, True), (True, True)]
    # "none within 20" where the known optimum is 18: it contradicts the known answer
    assert agreement([none(bounded=20)], (True, 18)) == [(True, False)]
    # a known "none" (unsolvable) and a plan
    assert agreement([solved(24)], (True, None)) == [(True, False)]


def test_a_question_refines_the_rule():
    """A question's own rule is asked first (here: answers equal modulo 10), by the
    question and by every tool that asks it."""

    def modulo(a, b):
        if a.status == b.status == "solved":
            return EQUAL if a.answer % 10 == b.answer % 10 else DIFFERS
        return None

    q = Question("q", "A toy.", backends={"x": lambda i, lim: solved(i)},
                 check=lambda i, o: (True, ""), read=int,
                 describe=lambda i, o, opts: (str(o.answer), []), compare=modulo)  # fmt: skip
    assert q.relation(solved(13), solved(23)) is EQUAL
    assert relation(solved(13), solved(23)) is DIFFERS
    assert q.relation(solved(13), UNKNOWN) is NOT_COMPARABLE  # the general rule after it
    assert agreement([solved(13), solved(23)], relate=q.relation) == [(True, True), (True, True)]
