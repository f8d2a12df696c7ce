"""The Kriegspiel referee's rules on hand-made positions, the set-wise referee against the
square-by-square one, the checker's own rules against both, and (8 x 8) python-chess."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyasp_games.domains.kriegspiel.classic import classic_values, longest
from pyasp_games.domains.kriegspiel.metaposition import DRAW, rules_for
from pyasp_games.domains.kriegspiel.model import (
    Board,
    board_of,
    legal_squares,
    parse_metaposition,
    parse_square,
    piece_squares,
    random_position,
    square_name,
    starts,
)
from pyasp_games.domains.kriegspiel.referee import Referee, black_moves, white_answer
from pyasp_games.domains.kriegspiel.tablebase import NO_MATE
from pyasp_games.domains.kriegspiel.verify import Game
from pyasp_games.errors import InputError

from .kriegspiel_common import B8, sq


def referee(king: str, rook: str, black: str, piece: str = "R") -> Referee:
    return Referee(B8, piece, sq(king), sq(rook), sq(black))


# -- hand-made positions -------------------------------------------------------------


def test_a_king_move_next_to_the_black_king_is_illegal_and_changes_nothing():
    ref = referee("b6", "h1", "a8")
    for target in ("a7", "b7"):
        assert ref.white(("K", sq(target))) == "illegal"
    assert (ref.king, ref.square) == (sq("b6"), sq("h1"))
    assert ref.white(("K", sq("c6"))) == "silent"  # legal: played


def test_a_rook_move_is_never_illegal():
    # the black king is never on the rook's open lines with White to move
    rules = rules_for(B8, "R")
    for m in starts(Board(5, 5))[:40]:
        r5 = rules_for(m.board, "R")
        for attempt in r5.attempts(m.king, m.piece_square):
            if attempt[0] == "R":
                assert r5.split(m.king, m.piece_square, m.belief, attempt)[0] == 0
    assert rules.split(sq("a1"), sq("h1"), 1 << sq("e5"), ("R", sq("h5"))) == (0, 1 << sq("e5"))


def test_checks_say_their_direction():
    assert referee("a1", "h2", "e5").white(("R", sq("h5"))) == "check-rank"
    assert referee("a1", "h2", "e5").white(("R", sq("e2"))) == "check-file"
    queen = referee("a1", "h2", "e5", "Q")
    assert queen.white(("Q", sq("h8"))) == "check-long-diagonal"  # a1-h8: 8 squares, b8-h2: 7
    assert referee("a1", "h2", "e5", "Q").white(("Q", sq("g3"))) == "check-short-diagonal"


def test_mate_stalemate_and_capture():
    assert referee("b6", "h1", "a8").white(("R", sq("h8"))) == "mate"
    assert referee("c7", "b1", "a8").white(("R", sq("b7"))) == "stalemate"  # protected on b7
    ref = referee("e1", "b1", "a3")
    assert ref.white(("R", sq("b2"))) == "silent"  # unprotected, next to the black king
    assert ref.black(sq("b2")) == "capture" and ref.over == "capture"
    ref = referee("c1", "h2", "a3")
    ref.white(("R", sq("b2")))  # protected by the king on c1
    assert sq("b2") not in ref.black_moves() and ref.black(sq("b2")) == "illegal"


def test_the_set_wise_referee_draws_on_a_possible_stalemate_or_capture():
    m = parse_metaposition("?1??/?1??/1R2/K1??")
    rules = rules_for(m.board, "R")
    said = {rules.name(a): ans for a, _, ans in rules.outcomes(m.king, m.piece_square, m.belief)}
    assert said["Rb4"] is DRAW  # a3 or c3 may take the unprotected rook
    assert said["Kb1"] is DRAW  # where legal, d1 would be stalemated
    assert set(said["Rb1"]) == {"check-rank", "silent"}


def test_bad_metapositions_are_one_clear_error():
    for text, fragment in [
        ("4/4/1R2/K?2", "next to White's king"),
        ("1?2/4/1R2/K3", "in check"),
        ("4/4/4/K3", "one king K and one rook"),
        ("4/4/1R2/K3", "no '?' mark"),
        ("4/4/1R2/K?2 unknown", "not both"),
        ("4/4/1R/K3", "different widths"),
        ("9/9/9/9/9/9/9/9/9 unknown", "3 to 8"),
        ("4/4/1X2/K3", "unknown mark"),
    ]:
        with pytest.raises(InputError, match=re.escape(fragment)):
            parse_metaposition(text)
    with pytest.raises(InputError, match="RANKSxFILES"):
        board_of("8by8")
    assert board_of("4x5") == Board(4, 5)


def test_text_forms_round_trip():
    m = parse_metaposition("?1??/?1??/1R2/K1??")
    assert parse_metaposition(m.fen()) == m
    diagram = "\n".join(line[2:].replace(" ", "") for line in m.diagram().splitlines()[:-1])
    assert parse_metaposition(diagram) == m
    assert parse_metaposition("4/4/1R2/K3 unknown") == m


# -- the set-wise referee is the referee on every square -----------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 6), st.integers(3, 6), st.integers(0, 10**9), st.sampled_from("RQ"))
def test_set_wise_updates_are_the_union_of_the_squares(rows, cols, seed, piece):
    board = Board(rows, cols)
    rng = random.Random(seed)
    king, square = rng.sample(range(board.size), 2)
    legal = legal_squares(board, king, piece, square)
    if not legal:
        return
    belief = sum(1 << s for s in board.squares(legal) if rng.random() < 0.6) or legal
    rules = rules_for(board, piece)
    for attempt, illegal, answers in rules.outcomes(king, square, belief):
        k2, s2 = (attempt[1], square) if attempt[0] == "K" else (king, attempt[1])
        per_square = {}
        for b in board.squares(belief):
            if (illegal >> b) & 1:
                assert Referee(board, piece, king, square, b).white(attempt) == "illegal"
                continue
            said = white_answer(board, piece, k2, s2, b)
            replies = black_moves(board, piece, k2, s2, b)
            per_square[b] = (said, replies)
        drawn = any(a == "stalemate" or s2 in r for a, r in per_square.values())
        assert (answers is DRAW) == drawn
        if answers is DRAW:
            continue
        expected = {}
        for said, replies in per_square.values():
            expected.setdefault(said, 0)
            expected[said] |= sum(1 << r for r in replies)
        got = {a: (0 if s is None else s[2]) for a, s in answers.items()}
        assert got == expected


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(["R", "Q", "BB", "BN"]))
def test_the_checkers_rules_agree_with_the_referee(seed, piece):
    rng = random.Random(seed)
    board = Board(rng.randint(3, 8), rng.randint(3, 8))
    drawn = random_position(board, piece, rng)
    if drawn is None:
        return
    king, square, black = drawn
    game = Game(board.rows, board.cols, piece)
    pos = lambda s: divmod(s, board.cols)  # noqa: E731
    pieces = tuple(pos(s) for s in piece_squares(board, piece, square))
    said, replies = game.referee(pos(king), pieces, pos(black))
    mine = white_answer(board, piece, king, square, black)
    moves = black_moves(board, piece, king, square, black)
    takes = any(s in moves for s in piece_squares(board, piece, square))
    assert said == ("capture" if takes else mine)
    assert sorted(replies) == sorted(pos(r) for r in moves)
    rules = rules_for(board, piece)
    names = {rules.name(a) for a in rules.attempts(king, square)}
    assert names == set(game.white_moves(pos(king), pieces))


# -- python-chess on 8 x 8 ---------------------------------------------------------


def test_the_referee_agrees_with_python_chess():
    """Every ending: White's attempts the referee accepts are its legal moves, the answers
    (mate, stalemate, a check with as many ways as checking pieces, a knight's named so)
    and Black's replies are python-chess's."""
    chess = pytest.importorskip("chess")
    rng = random.Random(30)
    kinds = {"R": chess.ROOK, "Q": chess.QUEEN, "B": chess.BISHOP, "N": chess.KNIGHT}
    checked = 0
    while checked < 300:
        piece = rng.choice(["R", "Q", "BB", "BN"])
        drawn = random_position(B8, piece, rng)
        if drawn is None:
            continue
        king, square, black = drawn
        board = chess.Board(None)
        board.set_piece_at(king, chess.Piece(chess.KING, chess.WHITE))
        for letter, s in zip(piece, piece_squares(B8, piece, square), strict=True):
            board.set_piece_at(s, chess.Piece(kinds[letter], chess.WHITE))
        board.set_piece_at(black, chess.Piece(chess.KING, chess.BLACK))
        board.turn = chess.WHITE
        assert board.is_valid(), board.fen()
        rules = rules_for(B8, piece)
        accepted = set()
        for attempt in rules.attempts(king, square):
            ref = Referee(B8, piece, king, square, black)
            if ref.white(attempt) == "illegal":
                continue
            before, after_men = set(piece_squares(B8, piece, square)), set(piece_squares(B8, piece, ref.square))
            origin = king if attempt[0] == "K" else (before - after_men).pop()
            accepted.add((origin, attempt[1]))
            after = board.copy()
            after.push(chess.Move(origin, attempt[1]))
            said = white_answer(B8, piece, ref.king, ref.square, black)
            assert (said == "mate") == after.is_checkmate()
            assert (said == "stalemate") == after.is_stalemate()
            if said.startswith("check"):
                ways = said.removeprefix("check-").split("+")
                checkers = [after.piece_at(s).piece_type for s in after.checkers()]
                assert ways == sorted(ways) and len(ways) == len(checkers)
                assert ("knight" in ways) == (chess.KNIGHT in checkers)
            else:
                assert said == "mate" or not after.is_check()
            replies = {m.to_square for m in after.legal_moves}
            assert replies == set(black_moves(B8, piece, ref.king, ref.square, black))
        assert accepted == {(m.from_square, m.to_square) for m in board.legal_moves}
        checked += 1


# -- classic KRK: the move generator's test -----------------------------------------


def test_classic_krk_longest_mates_on_small_boards():
    assert [longest(Board(n, n)) for n in (3, 4, 5)] == [3, 7, 10]


@pytest.mark.slow
def test_classic_krk_longest_mate_on_6x6_and_8x8():
    assert longest(Board(6, 6)) == 12
    values = classic_values(B8)
    assert max(v for v in values.values() if v < NO_MATE) == 16
    # the published KRK maximum position: Ka1 Rb2 kc3 (White to move) is mate in 16
    assert values[(sq("a1"), sq("b2"), sq("c3"))] == 16


def test_square_names():
    b = Board(4, 5)
    assert [square_name(b, s) for s in (0, 4, 5, 19)] == ["a1", "e1", "a2", "e4"]
    with pytest.raises(InputError, match="no square 'f1'"):
        parse_square(b, "f1")


# -- KQK through the same machinery ----------------------------------------------------


def test_classic_kqk_longest_mates_on_small_boards():
    assert [longest(Board(n, n), "Q") for n in (3, 4)] == [1, 4]


@pytest.mark.slow
def test_classic_kqk_longest_mate_on_8x8_is_10():
    assert longest(B8, "Q") == 10
