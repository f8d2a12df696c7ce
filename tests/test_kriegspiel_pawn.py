"""Kriegspiel with a pawn (KPK): the referee's rules against python-chess and a naive
generator, the rule sets' announcements, the classic table against a naive solver and
the published facts, the metaposition solver's certified sure wins, Magari's values."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from pyasp_games.domains.kriegspiel.model import Board
from pyasp_games.domains.kriegspiel.pawn import (
    NO_WIN,
    PawnReferee,
    after_move,
    are_there_any,
    black_steps,
    black_to_move,
    check_pawn,
    classic_kpk,
    full_belief,
    illegal_where,
    informative_attempts,
    legal_position,
    played,
    rule_set,
    white_answer,
    white_attempts,
)
from pyasp_games.errors import InputError

from .kriegspiel_common import B8, sq


def random_positions(board: Board, n: int, seed: int) -> list[tuple[int, int, int]]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        k, p, b = (rng.randrange(board.size) for _ in range(3))
        if legal_position(board, k, p, b, True):
            out.append((k, p, b))
    return out


# -- the rules against python-chess (GPL: tests only) -------------------------------------


def test_rules_agree_with_python_chess():
    chess = pytest.importorskip("chess")
    names = {"mate": "mate", "stalemate": "stalemate"}
    for k, p, b in random_positions(B8, 150, 1):
        board = chess.Board(None)
        board.set_piece_at(k, chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(p, chess.Piece(chess.PAWN, chess.WHITE))
        board.set_piece_at(b, chess.Piece(chess.KING, chess.BLACK))
        board.turn = chess.WHITE
        theirs = {(m.from_square, m.to_square) for m in board.legal_moves
                  if m.promotion in (None, chess.QUEEN)}
        ours = {(k if a[0] == "K" else p, a[1]) for a in white_attempts(B8, k, p)
                if not illegal_where(B8, k, p, a) >> b & 1}
        assert ours == theirs, (k, p, b)
        for a in informative_attempts(B8, k, p):
            if illegal_where(B8, k, p, a) >> b & 1:
                continue
            k2, man, s2 = played(B8, k, p, a)
            move = chess.Move(k if a[0] == "K" else p, a[1],
                              promotion=chess.QUEEN if man == "Q" else None)
            board.push(move)
            replies = {m.to_square for m in board.legal_moves}
            assert set(black_steps(B8, k2, man, s2, b)) == replies
            said = white_answer(B8, k2, man, s2, b)
            expected = ("mate" if board.is_checkmate() else "stalemate" if board.is_stalemate()
                        else "check" if board.is_check() else "silent")
            assert names.get(said, said.split("-")[0]) == expected
            board.pop()


def naive_white_moves(board: Board, k: int, p: int, b: int) -> set[tuple[int, int]]:
    """The test's own generator: White's legal (from, to) moves in KPK."""
    (kr, kf), (pr, pf), (br, bf) = (board.coords(x) for x in (k, p, b))
    out = set()
    for dr in (-1, 0, 1):
        for df in (-1, 0, 1):
            r, f = kr + dr, kf + df
            if ((dr or df) and 0 <= r < board.rows and 0 <= f < board.cols
                    and (r, f) != (pr, pf) and max(abs(r - br), abs(f - bf)) > 1):
                out.add((k, r * board.cols + f))
    for steps in (1, 2):
        if steps == 2 and (pr != 1 or board.rows < 5):
            continue
        path = [(pr + i, pf) for i in range(1, steps + 1)]
        if all(r < board.rows and (r, f) not in ((kr, kf), (br, bf)) for r, f in path):
            out.add((p, path[-1][0] * board.cols + pf))
    return out


def test_legality_against_a_naive_generator_on_small_boards():
    for board in (Board(5, 4), Board(4, 5), Board(6, 3)):
        for k, p, b in random_positions(board, 200, 2):
            ours = {(k if a[0] == "K" else p, a[1]) for a in white_attempts(board, k, p)
                    if not illegal_where(board, k, p, a) >> b & 1}
            assert ours == naive_white_moves(board, k, p, b)


# -- the referee and the rule sets ---------------------------------------------------------


def test_referee_announcements_under_each_rule_set():
    for rules, before, promotion in (("english", None, False), ("rand", "rand: pawn captures: none", True),
                                     ("icc", "icc: pawn captures: 0", False)):
        ref = PawnReferee(B8, sq("b6"), sq("c7"), sq("e6"), rules=rules)
        assert ref.are_there_any() == f"{rules}: " + (
            "No" if rules == "english" else "not asked: the referee announces the pawn captures before every move")
        assert ref.white(("Px", sq("b8"))) == "illegal"  # nothing for the pawn to take
        said = ref.white(("P", sq("c8")))  # c8=Q checks e6 along the diagonal c8-e6
        assert said == white_answer(B8, sq("b6"), "Q", sq("c8"), sq("e6")) and said.endswith("diagonal")
        assert ("rand: White promotes" in ref.heard) == promotion
        if before:
            assert ref.heard[0] == before
        kqk = ref.handover()
        assert (kqk.piece, kqk.square) == ("Q", sq("c8"))


def test_capture_of_the_pawn_is_a_draw_and_named_by_rand_and_icc():
    for rules, said in (("english", "english: Black captures at d5"), ("rand", "rand: Black captures a pawn at d5"),
                        ("icc", "icc: Black captures a pawn at d5")):
        ref = PawnReferee(B8, sq("a1"), sq("d4"), sq("e4"), rules=rules)
        assert ref.white(("P", sq("d5"))) == "silent"
        assert ref.black(sq("d5")) == "capture" and ref.over == "capture"
        assert ref.heard[-1] == said


def test_stalemate_and_the_english_question():
    ref = PawnReferee(B8, sq("b6"), sq("c6"), sq("a8"))
    assert ref.white(("P", sq("c7"))) == "stalemate" and ref.over == "stalemate"
    assert are_there_any("english", [sq("d5")]) == "Try!"  # would oblige a capture try


def test_bad_input_is_one_line():
    with pytest.raises(InputError, match="unknown rule set"):
        rule_set("dutch")
    with pytest.raises(InputError, match="first rank"):
        check_pawn(B8, sq("c1"))
    with pytest.raises(InputError, match="last rank"):
        check_pawn(B8, sq("c8"))


# -- the classic table ----------------------------------------------------------------------


def naive_values(board: Board) -> dict[tuple[str, int, int, int], float]:
    """The test's own solver: every KPK and KQK position with White to move, valued by
    Bellman sweeps from infinity (queen lines by coordinates, the white king blocks)."""
    inf = float("inf")

    def near(a: int, c: int) -> bool:
        (r1, f1), (r2, f2) = board.coords(a), board.coords(c)
        return max(abs(r1 - r2), abs(f1 - f2)) <= 1

    def attacked(man: str, k: int, s: int) -> set[int]:
        r0, f0 = board.coords(s)
        if man == "P":
            return {t for df in (-1, 1) if (t := board.square(r0 + 1, f0 + df)) is not None}
        out = set()
        for dr in (-1, 0, 1):
            for df in (-1, 0, 1):
                if dr or df:
                    r, f = r0 + dr, f0 + df
                    while (t := board.square(r, f)) is not None:
                        out.add(t)
                        if t == k:
                            break
                        r, f = r + dr, f + df
        return out

    def replies(man: str, k: int, s: int, b: int) -> tuple[list[int], bool]:
        """Black's steps (a capture returns None) and whether it is in check."""
        hit = attacked(man, k, s)
        steps = []
        for t in range(board.size):
            if near(t, b) and t != b and not near(t, k) and t not in hit:
                if t == s:
                    return None, b in hit  # takes the unprotected man
                steps.append(t)
        return steps, b in hit

    states = []
    for man in "PQ":
        for k in range(board.size):
            for s in range(board.size):
                r = board.coords(s)[0]
                if (man == "P" and not 1 <= r <= board.rows - 2) or (man == "Q" and s == k):
                    continue
                for b in range(board.size):
                    if len({k, s, b}) == 3 and not near(k, b) and b not in attacked(man, k, s):
                        states.append((man, k, s, b))
    moves = {}
    for man, k, s, b in states:
        out = []
        _kr, _kf = board.coords(k)
        for t in range(board.size):
            if near(t, k) and t not in (k, s) and not near(t, b):
                out.append((man, t, s))
        if man == "P":
            r, f = board.coords(s)
            for step in (1, 2) if r == 1 and board.rows >= 5 else (1,):
                path = [board.square(r + i, f) for i in range(1, step + 1)]
                if all(x is not None and x not in (k, b) for x in path):
                    out.append(("Q" if r + step == board.rows - 1 else "P", k, path[-1]))
        if man == "Q":
            out += [("Q", k, t) for t in attacked("Q", k, s) if t not in (k, b)]
        moves[(man, k, s, b)] = out
    value = dict.fromkeys(states, inf)
    changed = True
    while changed:
        changed = False
        for state in states:
            man, k, s, b = state
            best = value[state]
            for man2, k2, s2 in moves[state]:
                steps, check = replies(man2, k2, s2, b)
                if steps is None:
                    continue
                if not steps:
                    if check:
                        best = min(best, 1)
                    continue
                best = min(best, 1 + max(value[(man2, k2, s2, t)] for t in steps))
            if best < value[state]:
                value[state], changed = best, True
    return value


@pytest.mark.parametrize("board", [
    Board(4, 3), pytest.param(Board(5, 4), marks=pytest.mark.slow)])  # 5 ranks: the double step
def test_classic_table_agrees_with_a_naive_solver(board):
    naive = naive_values(board)
    table = classic_kpk(board)
    checked = 0
    for state, v in naive.items():
        if state[0] == "P":
            ours = table.of(state)
            assert (NO_WIN if v == float("inf") else v) == ours, state
            checked += 1
    assert checked == len([s for s in table.keys if s[0] == "P"])


def test_published_kpk_facts_opposition_and_the_seventh_rank():
    t = classic_kpk(B8, files=[3], from_rank=3)  # the d-pawn from d4 on
    # the opposition: Kd5, Pd4 against Kd7: a draw with White to move, a win with Black to move
    assert t.of(("P", sq("d5"), sq("d4"), sq("d7"))) == NO_WIN
    assert black_to_move(t, sq("d5"), sq("d4"), sq("d7")) < NO_WIN
    # a pawn on the seventh with the black king far from the queening square: won
    for k in range(64):
        for b in range(64):
            far = max(abs(B8.coords(b)[0] - 7), abs(B8.coords(b)[1] - 3)) >= 3
            if far and k != sq("d8") and legal_position(B8, k, sq("d7"), b, True):
                assert t.of(("P", k, sq("d7"), b)) < NO_WIN


@pytest.mark.slow
def test_published_kpk_facts_key_squares():
    t = classic_kpk(B8, files=[3])
    # the key squares of a pawn on d2-d4 (two ranks ahead: c, d, e): White wins with either to move
    for pawn in ("d2", "d3", "d4"):
        r = int(pawn[1]) + 2
        for key in (f"c{r}", f"d{r}", f"e{r}"):
            for b in range(64):
                if legal_position(B8, sq(key), sq(pawn), b, True):
                    assert t.of(("P", sq(key), sq(pawn), b)) < NO_WIN, (key, pawn, b)
                if legal_position(B8, sq(key), sq(pawn), b, False) and not (
                        after_move(B8, sq(key), "P", sq(pawn)).capture_zone >> b & 1):
                    assert black_to_move(t, sq(key), sq(pawn), b) < NO_WIN, (key, pawn, b)


@pytest.mark.slow
def test_the_rook_pawn_draws_with_the_king_in_the_corner():
    t = classic_kpk(B8, files=[0])
    for k in range(64):
        for p in range(8, 56, 8):
            if legal_position(B8, k, p, sq("a8"), True):
                assert t.of(("P", k, p, sq("a8"))) == NO_WIN


# -- metapositions: sure wins, certified ------------------------------------------------------


@pytest.mark.slow
def test_the_4x4_table_is_certified():
    from pyasp_games.domains.kriegspiel.pawn import PawnBoard
    from pyasp_games.domains.kriegspiel.questions import PAWN_TABLE

    out = PAWN_TABLE.ask(PawnBoard(Board(4, 4)))
    assert out.verdict.verified and out.answer["starts"] == 120 and out.answer["forced"] == 36


def test_sure_wins_are_certified():
    from pyasp_games.domains.kriegspiel.pawn import PawnBoard
    from pyasp_games.domains.kriegspiel.questions import PAWN_SOLVE, PAWN_TABLE, read_pawn

    table = PAWN_TABLE.ask(PawnBoard(Board(4, 3)))
    assert table.verdict.verified and (table.answer["starts"], table.answer["forced"]) == (66, 20)
    won = PAWN_SOLVE.ask(read_pawn("3/1K1/P2/???"))
    assert won.status == "solved" and won.answer == 5 and won.verdict.verified
    drawn = PAWN_SOLVE.ask(read_pawn("???/?1?/P1?/K1?"))
    assert drawn.status == "no-solution" and drawn.verdict.verified


def test_the_checker_refutes_a_wrong_value():
    from pyasp_games.domains.kriegspiel.questions import PAWN_SOLVE, read_pawn
    from pyasp_games.domains.kriegspiel.verify import check_pawn_outcome

    m = read_pawn("3/1K1/P2/???")
    out = PAWN_SOLVE.ask(m)
    out.answer -= 1  # a claimed mate in 4
    ok, why = check_pawn_outcome(m, out)
    assert not ok and "not the claimed 4" in why
    out.answer += 1
    row = next(r for r in out.certificate["states"] if r[0] == "P" and r[4] == 3)
    row[4] = 2  # one value of the table made faster: the equation fails there
    ok, why = check_pawn_outcome(m, out)
    assert not ok and "its best attempt gives 3" in why
    row[4] = 3
    out.certificate["states"] = [r for r in out.certificate["states"] if r[0] == "P"]
    ok, why = check_pawn_outcome(m, out)  # the KQK states taken out: not closed
    assert not ok and "not closed" in why


def test_full_belief_excludes_checked_squares():
    board = Board(4, 4)
    belief = full_belief(board, sq("b1", board), sq("b2", board))
    assert not belief >> sq("a3", board) & 1 and not belief >> sq("c3", board) & 1
    assert belief >> sq("b3", board) & 1


# -- Magari's ending: the win probabilities -------------------------------------------------


def test_magari_values_rise_as_the_thesis_says():
    from pyasp_games.domains.kriegspiel.magari import _classic, solve_magari

    # the diagram, Kc5 Pc6 against Kc7, is an orthodox draw whoever moves (the thesis)
    assert _classic().of(("P", sq("c5"), sq("c6"), sq("c7"))) == NO_WIN
    assert black_to_move(_classic(), sq("c5"), sq("c6"), sq("c7")) == NO_WIN

    for k, expected in ((1, Fraction(1, 2)), (2, Fraction(2, 3))):  # k / (k + 1)
        out = solve_magari(k)
        assert out["value"] == expected and out["checked"]
        if k == 1:  # at the last repetition White's failed try is followed by the push (the thesis)
            assert all(v == {"push": 1} for h, v in out["white"].items() if "refused" in h)


def test_magari_answers_are_checked_by_best_responses():
    from pyasp_games.domains.kriegspiel.magari import check_magari, read_magari
    from pyasp_games.domains.kriegspiel.questions import MAGARI

    request = read_magari(2, "icc")
    out = MAGARI.ask(request)
    assert out.answer == Fraction(2, 3) and out.verdict.verified
    out.answer = Fraction(3, 4)
    ok, why = check_magari(request, out)
    assert not ok and "guarantees only 2/3" in why


@pytest.mark.slow
def test_magari_three_repetitions():
    from pyasp_games.domains.kriegspiel.magari import solve_magari

    assert solve_magari(3)["value"] == Fraction(3, 4)


# -- the command line as a hostile user meets it --------------------------------------------

BAD = [
    (("pawn-solve", "4/4/4/1KP1 unknown"), "cannot stand on the first rank"),
    (("pawn-solve", "1P2/4/4/K3 unknown"), "cannot stand on the last rank"),
    (("pawn-solve", "4/4/1P2/1K2"), "no square for the black king"),
    (("pawn-solve", "4/4/1Pk1/1K2"), "cannot stand on c2"),
    (("pawn-solve", "4/4/1P2/1K2/ unknown"), "different widths"),
    (("pawn-solve", "4/4/1PP1/1K2 unknown"), "one white king K and one pawn P"),
    (("pawn-table", "--board", "9x9"), "3 to 8 ranks"),
    (("magari", "0"), "1 to 4"),
    (("magari", "--rules", "dutch"), "dutch"),
]


@pytest.mark.parametrize(("args", "fragment"), BAD)
def test_bad_input_on_the_command_line(args, fragment):
    from .conftest import assert_bad_input, run_cli

    assert_bad_input(run_cli("kriegspiel", *args), fragment)


@pytest.mark.xdist_group("timing")
def test_time_limits_are_honoured():
    from .conftest import run_cli

    run = run_cli("kriegspiel", "pawn-table", "--board", "7x7", "--time-limit", "0.2")
    assert run.code == 3 and "time limit" in run.stdout and run.seconds < 10
