"""Blame for a wrong answer the encoding accepts (issue 45, section 1): the rule that
blocks the constraint that should reject it, the source of a chain of wrong
derivations, the bound that lets an answer exist where none is right."""


from pyasp_games.tools.fuzz.diagnosis import blocked, diagnose, tightened, trace

KERNEL = ("{ in(V) } :- vertex(V).\n"
          ":- arc(U,V), in(U), in(V).\n"
          "absorbed(U) :- arc(V,U), in(V).\n"
          ":- vertex(U), not in(U), not absorbed(U).\n")  # fmt: skip


def test_an_atom_left_out_is_blamed_on_the_rule_that_blocks_the_constraint_requiring_it(tmp_path):
    """grundy-kernel-absorbed-backwards' kind: on ``arc(0,1)`` the encoding accepts
    ``{in(0)}``, which lacks the sink 1. The free choice only allows leaving ``in(1)``
    out (what the trace says); the constraint at line 4 should require it, and
    ``absorbed(1)``, which line 3 derives reading the arc backwards, blocks it."""
    mine = tmp_path / "mine.lp"
    mine.write_text(KERNEL)
    facts, answer = "vertex(0..1). arc(0,1).", [("in(0)", True)]
    assert trace(mine, facts, answer, ["not in(1)"]).rules[0][1] == 1
    said = blocked(mine, facts, answer, ["in(1)"])
    assert said.rules[0][1] == 3, said.lines
    assert f"{mine}:4" in said.lines[1] and "V=0, U=1" in said.lines[1]
    # the right encoding: no rule derives what would keep line 4 from firing
    mine.write_text(KERNEL.replace("arc(V,U), in(V)", "arc(U,V), in(V)"))
    assert not blocked(mine, facts, [("in(0)", True)], ["in(1)"]).rules


def test_a_chain_of_wrong_derivations_is_blamed_at_its_source(tmp_path):
    """geography-vertex-start-reusable's kind: line 1 marks every item (it should mark
    the good ones); ``copy``, ``block`` follow from it, and ``won`` is lost. Each of the
    four rules alone explains the intended ``won`` (one instance each); the closest
    interpretation blames the last (``won`` unsupported), the source of the chain of
    wrong derivations is the rule whose head the encoding derives first."""
    mine = tmp_path / "mine.lp"
    mine.write_text("mark(X) :- item(X).\n"
                    "copy(X) :- mark(X), item(X).\n"
                    "block :- copy(X), bad(X).\n"
                    "won :- not block.\n")  # fmt: skip
    facts, intended = "item(1). bad(1).", [("won", True)]
    assert diagnose(mine, facts, intended).rules[0][1] != 1
    said = diagnose(mine, facts, intended, chain=True)
    assert said.rules[0][1] == 1, said.lines
    assert "X=1" in said.lines[1]


def test_a_root_whose_change_reaches_beyond_the_wrong_output_is_not_a_chains_source(tmp_path):
    """geography-edge-first-wins-if-a-move's kind: ``won`` (line 4) reads the wrong
    atom. Undoing the root (line 1) explains it too, at a lower stage, but changes
    ``side`` and ``far``, which do not lead to the output: the stage plus the atoms
    changed counts them, and line 4 is blamed."""
    mine = tmp_path / "mine.lp"
    mine.write_text("root(X) :- item(X).\n"
                    "side(X) :- root(X).\n"
                    "far(X) :- side(X).\n"
                    "won :- root(X), bad(X).\n")  # fmt: skip
    said = diagnose(mine, "item(1). bad(1).", [("won", False)], chain=True)
    assert said.rules[0][1] == 4, said.lines


def test_an_atom_a_negation_keeps_out_is_the_next_link_of_the_chain_not_its_end(tmp_path):
    """catch-lose-without-moves-only's kind: line 4 says a player loses only without
    moves (it should say: when every move reaches a won position). From ``a`` the one
    move reaches ``b``, which wins, so ``a`` loses; the encoding answers a draw. Undoing
    the move (line 2, the lowest stage) explains it too, but the encoding settles
    ``lose(a)`` false as soon as it derives that move: the unsupported ``lose(a)`` is the
    move's next link, and it changes far fewer atoms than undoing the whole subtree."""
    mine = tmp_path / "mine.lp"
    mine.write_text("pos(P) :- start(P).\n"
                    "next(P,Q) :- pos(P), move(P,Q).\n"
                    "pos(Q) :- next(_,Q).\n"
                    "lose(P) :- pos(P), not next(P,_).\n"
                    "win(P) :- next(P,Q), lose(Q).\n"
                    "draw(P) :- pos(P), not win(P), not lose(P).\n"
                    "outcome(first) :- start(P), win(P).\n"
                    "outcome(second) :- start(P), lose(P).\n"
                    "outcome(draw) :- start(P), draw(P).\n")  # fmt: skip
    facts = "start(a). move(a,b). move(b,c)."
    said = diagnose(mine, facts, [("outcome(second)", True)], chain=True)
    assert said.rules[0][1] == 4, said.lines
    assert "lose(a)" in said.lines[1]


def test_an_empty_answer_where_none_is_right_is_blamed_on_the_bound_that_allows_it(tmp_path):
    """cover-maybe-uncovered's kind: no subset covers the elements, the reference says
    no cover, the encoding answers the empty one: raising its choice's lower bound
    (0 to 1) alone leaves no answer set. A choice whose raised bound still has one is
    not named."""
    mine = tmp_path / "mine.lp"
    mine.write_text("0 { chosen(S) : member(S,E) } 1 :- element(E).\n{ spare(E) } :- element(E).\n")
    said = tightened(mine, "element(0..2).")
    assert [r[1] for r in said.rules] == [1], said.lines
    assert "lower bound 0" in said.lines[1] and "with 1" in said.lines[1]
    assert not tightened(mine, "element(0..2). member(0,0..2).").rules


# the three planted wrong answers of this file's kinds (the backwards kernel, the chain
# in geography, the empty cover) are in test_fuzz_diagnosis.py's NAMED_FIRST
