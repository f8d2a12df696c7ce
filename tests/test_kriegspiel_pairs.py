"""Kriegspiel KBBK and KBNK (two White pieces besides the king; the referee against
python-chess on 8 x 8 is in test_kriegspiel_rules.py): the compiled walk against the Python one, small tables and starts
solved and verified, the announcements of bishop, knight and double checks, bad input."""

from __future__ import annotations

import pytest

from pyasp_games.domains.kriegspiel import solve
from pyasp_games.domains.kriegspiel.model import (
    Board,
    metaposition,
    parse_metaposition,
    placement,
    starts,
)
from pyasp_games.domains.kriegspiel.questions import TABLE, read_board
from pyasp_games.domains.kriegspiel.referee import Referee
from pyasp_games.domains.kriegspiel.tablebase import build
from pyasp_games.errors import InputError

from .conftest import assert_bad_input, run_cli
from .kriegspiel_common import B8, sq


def test_a_double_check_is_announced_by_both_ways():
    m = parse_metaposition("K6k/8/8/4N3/8/8/8/B7")  # the knight stands on the bishop's diagonal
    h8, f7, d3 = (sq(s) for s in ("h8", "f7", "d3"))
    assert Referee(B8, "BN", m.king, m.piece_square, h8).white(("N", f7)) == "check-knight+long-diagonal"
    assert Referee(B8, "BN", m.king, m.piece_square, h8).white(("N", d3)) == "check-long-diagonal"


def test_the_compiled_walk_builds_the_python_walks_table():
    ms = starts(Board(4, 4), "BB")
    slow, fast = build(ms, compiled=False), build(ms, compiled=True)
    assert slow.keys == fast.keys and slow.roots == fast.roots
    assert (slow.after == fast.after).all() and (slow.illegal == fast.illegal).all()


def test_small_starts_are_solved_and_checked_from_both_sides():
    out = solve(parse_metaposition("4/1B2/1B2/K3 unknown"), "native")
    assert (out.status, out.answer, out.verdict.verified) == ("solved", 11, True)
    assert out.stats["checked"] == {"mate_within": 11, "no_mate_within": 10}
    out = solve(parse_metaposition("1k2/4/BN2/K3"), "native")
    assert (out.status, out.answer, out.verdict.verified) == ("solved", 9, True)
    assert out.stats["checked"] == {"mate_within": 9, "no_mate_within": 8}
    # no forced mate: wherever the black king is, every attempt lets it take a piece or
    # be stalemated somewhere
    out = solve(parse_metaposition("1?1?/?1??/3N/K1?B"), "native")
    assert (out.status, out.verdict.verified) == ("no-solution", True)
    assert out.stats["checked"] == {"no_forced_mate": True}


@pytest.mark.slow
def test_the_4x4_kbbk_table():
    request = read_board("4x4", "BB")
    out = TABLE.ask(request)
    assert out.verdict.verified is True and not out.verdict.not_checked
    assert (out.answer["starts"], out.answer["forced"], out.answer["longest"]) == (896, 552, 12)


def test_bad_two_piece_input_is_refused():
    b = Board(5, 5)
    with pytest.raises(InputError, match="one colour cannot mate"):
        parse_metaposition("5/5/2B2/3B1/K4 unknown")  # c3 and d2
    with pytest.raises(InputError, match="two bishops B B, or a bishop B and a knight N"):
        parse_metaposition("5/5/2BN1/1N3/K4 unknown")
    with pytest.raises(InputError, match="one rook R, one queen Q"):
        parse_metaposition("5/5/2R2/1N3/K4 unknown")
    with pytest.raises(InputError, match="two of White's men on one square"):
        metaposition(b, 0, placement(b, "BN", (7, 7)), None, "BN")
    with pytest.raises(InputError, match="off the 5x5 board"):
        metaposition(b, 0, 25 * 25, None, "BN")
    for backend in ("asp", "heuristic"):
        assert_bad_input(run_cli("kriegspiel", "solve", "4/1B2/1N2/K3 unknown", "--backend", backend),
                         "use --backend native")  # fmt: skip
    assert_bad_input(run_cli("kriegspiel", "solve", "5/5/2B2/3B1/K4 unknown"), "one colour cannot mate")
    assert_bad_input(run_cli("kriegspiel", "table", "--board", "4x4", "--piece", "NN"), "--piece")


def test_the_checker_confirms_a_two_piece_table_and_catches_a_wrong_value():
    from pyasp_games.domains.kriegspiel.tablebase import certificate, values
    from pyasp_games.domains.kriegspiel.value_check import Refuted, ValueTable, confirm

    b = Board(4, 4)
    ms = starts(b, "BN")
    table = build(ms)
    value = values(table)
    proof = certificate(b, "BN", table.keys, value)
    found, count = confirm(ValueTable(4, 4, "BN", proof["keys"], proof["values"]),
                           [(m.king, m.piece_square, m.belief) for m in ms[:40]])  # fmt: skip
    assert count > 0 and found == [int(value[i]) for i in table.roots[:40]]
    i = next(i for i, v in enumerate(value) if 3 < v < 100)
    for change, said in ((-1, "no attempt mates within it"), (1, "mates within")):
        wrong = proof["values"].copy()
        wrong[i] += change
        with pytest.raises(Refuted, match=said):
            confirm(ValueTable(4, 4, "BN", proof["keys"], wrong), [table.keys[i]])


@pytest.mark.parametrize(("rows", "cols"), [(3, 3), (3, 5)])
def test_kbnk_mates_only_with_the_bishop_of_the_corners_colour_on_odd_boards(rows: int, cols: int):
    """KBNK's colour-of-corner structure: the mate needs a corner of the bishop's colour,
    and on a board of odd sides every corner has a1's colour, so no start whose bishop
    stands on the other colour is a forced mate, while many with a1's colour are."""
    from pyasp_games.domains.kriegspiel.tablebase import NO_MATE, values

    board = Board(rows, cols)
    ms = starts(board, "BN")
    table = build(ms)
    value = values(table)
    forced = {0: 0, 1: 0}
    for m, i in zip(ms, table.roots, strict=True):
        forced[board.colour(m.squares_of_pieces[0])] += int(value[i] < NO_MATE)
    assert forced[1] == 0 and forced[0] > 50


@pytest.mark.slow
def test_the_5x5_tables_are_verified_in_full():
    """(About 25 s of CPU.) Every strategy replayed, every value refuted one move less,
    every start without a forced mate refuted, by the table of values."""
    for piece, forced, longest in (("BB", 1568, 15), ("BN", 3872, 17)):
        out = TABLE.ask(read_board("5x5", piece))
        assert out.verdict.verified is True and not out.verdict.not_checked
        assert (out.answer["forced"], out.answer["longest"]) == (forced, longest)
        assert out.stats["checked"]["no_mate_within"] == forced
