"""Kriegspiel as a hostile user meets it: absurd metapositions and boards, non-ASCII
digits, empty beliefs, absurd --max-moves, endless files, garbage and the end of input
in `kriegspiel play`, time limits on 8 x 8 and in crosscheck. Each ends in an answer,
exit 2 with one line on stderr, or exit 3 within the limit."""

from __future__ import annotations

import os

import pytest

from pyasp_games.domains.kriegspiel.model import (
    Board,
    board_of,
    load_metaposition,
    metaposition,
    parse_metaposition,
)
from pyasp_games.errors import InputError

from .conftest import assert_bad_input, run_cli, run_cli_process
from .kriegspiel_common import play_process

#: Metapositions no position has, each with the words of its one-line error.
ABSURD = [
    ("4/4/1R2/Kk2", "next to White's king"),  # the two kings side by side
    ("4/4/1Rk1/K3", "in check, with White to move"),
    ("k?2/4/1R2/K3", "one known black king 'k', or '?' marks"),
    ("4/4/1RR1/K3 unknown", "White has one king K and one rook R"),
    ("KK2/4/1R2/4 unknown", "White has one king K"),
    ("2/2", "3 to 8 ranks"),  # a 2 x 2 board
    ("9/9/9/9/9/9/9/1R7/K8 unknown", "3 to 8 ranks (this tool's limit), got 9"),
    ("3/3/3/3/3/3/3/3/KR1 unknown", "got 9"),
    ("3/1K1/R2 unknown", "no square left for the black king"),  # every square attacked
    ("4/4/1R2/K3", "no '?' mark"),  # no belief at all
    ("4/4/1R2/K²1", "nor a metaposition"),  # '²'.isdigit(), but no digit of a FEN
    ("４/4/1R2/K3 unknown", "nor a metaposition"),  # a full-width 4
    ("4/4/1R2/K٣", "nor a metaposition"),  # an Arabic-Indic 3
    ("♔/4/1R2/K3", "nor a metaposition"),
    ("no/such/file.txt", "no such file, nor a metaposition"),
    ("nosuchfile", "no such file (nor a metaposition"),
]


@pytest.mark.parametrize(("text", "said"), ABSURD, ids=[t for t, _ in ABSURD])
def test_absurd_metapositions_are_one_clear_error(text, said):
    with pytest.raises(InputError, match=None) as err:
        load_metaposition(text)
    assert said in str(err.value) and "\n" not in str(err.value)


def test_absurd_boards_and_men_from_the_library():
    for text in ("0x3", "3x0", "2x2", "9x9", "x", "8x8x8", "-3x3", "３x３", "2²x3"):
        with pytest.raises(InputError):
            board_of(text)
    for text, said in (("///", r"3 to 8 files \(this tool's limit\), got 0"), ("", "empty"),
                       ("unknown", "expected ranks separated by '/'")):  # boards of no square
        with pytest.raises(InputError, match=said):
            parse_metaposition(text)
    board = Board(4, 4)
    with pytest.raises(InputError, match="on one square"):
        metaposition(board, 3, 3)
    with pytest.raises(InputError, match="no square left"):
        metaposition(board, 0, 5, 0)  # an empty belief
    with pytest.raises(InputError, match="White's men besides the king are one of R, Q, BB, BN"):
        metaposition(board, 0, 5, None, "B")


def test_absurd_command_lines():
    assert_bad_input(run_cli("kriegspiel", "solve", "4/4/1R2/K3 unknown", "--max-moves", "-1"),
                     "--max-moves must be non-negative, got -1")  # the option as written  # fmt: skip
    assert_bad_input(run_cli("kriegspiel", "solve", "4/4/1R2/K3 unknown", "--max-moves", "nan"),
                     "--max-moves")  # fmt: skip
    huge = run_cli("kriegspiel", "solve", "4/4/1R2/K3 unknown", "--max-moves", str(10**30), "--json")
    assert huge.code == 0 and huge.json()["answer"] == 8
    assert_bad_input(run_cli("kriegspiel", "table", "--board", "2x2"), "3 to 8 ranks")
    assert_bad_input(run_cli("kriegspiel", "show", "4/4/1R2/K²1"), "nor a metaposition")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_file_that_never_ends_is_refused():
    assert_bad_input(run_cli("kriegspiel", "show", "/dev/zero"), "this tool's limit for a text input")


@pytest.mark.xdist_group("timing")
def test_a_short_time_limit_on_8x8_is_unknown_within_it(tmp_path):
    """The time limit holds for the whole command, start-up included (a child process:
    ``solve``), and for the table's build and a crosscheck's runs (in this process)."""
    start = "8/8/8/8/8/8/1R6/K7 unknown"
    for args, run_command in ((("solve", start), run_cli_process), (("table", "--board", "8x8"), run_cli)):
        run = run_command("kriegspiel", *args, "--time-limit", "0.5")
        assert run.code == 3 and "time limit reached" in run.stdout, run.stdout + run.stderr
        assert run.seconds < 5  # the limit, its grace, and the start of Python
    # asp does not reach 8 x 8: refused before any work, with one line (issue 30)
    run = run_cli("kriegspiel", "solve", start, "-b", "asp", "--time-limit", "0.5")
    assert_bad_input(run, "the asp backend reaches boards of at most 25 squares (5 x 5); 8x8 has 64")
    both = tmp_path / "both.txt"
    both.write_text(f"# name: 8x8@31\n{start}\n# name: one@1\nk2/2K/1R1\n")
    run = run_cli("crosscheck", "kriegspiel", both, "--time-limit", "0.5", "--json")
    assert run.code == 3 and run.seconds < 10
    rows = [line for line in run.stdout.splitlines() if '"backend"' in line]
    assert any('"unknown"' in row for row in rows) and any('"solved"' in row for row in rows)


def test_play_takes_garbage_and_the_end_of_input():
    garbage = b"zz\n\x00\xff\xfe\n\xe2\x99\x94\n" + b"K" * 100_000 + b"\n"
    white = play_process("4/4/1R2/K3 unknown", "--side", "white", stdin=garbage)  # then the input ends
    assert white.returncode == 0 and b"Traceback" not in white.stderr
    assert white.stdout.count(b"is not a move you can try") == 4
    black = play_process("4/4/1R2/K3 unknown", stdin=garbage + b"a4\nzz\n")
    assert black.returncode == 0 and b"Traceback" not in black.stderr
    assert b"no square 'zz' on a 4x4 board" in black.stdout and b"White plays Rb1" in black.stdout
    # nothing at all: run_cli's standard input is /dev/null, no child process needed
    assert run_cli("kriegspiel", "play", "4/4/1R2/K3 unknown").code == 0
    late = play_process("8/8/8/8/8/8/1R6/K7 unknown", "--time-limit", "0.5", stdin=b"")
    assert late.returncode == 3 and b"no strategy within the limit" in late.stdout


def test_a_file_of_several_metapositions_given_to_solve_says_so(tmp_path):
    # the bundled small.txt given to solve was read as one diagram: 'metaposition: ranks
    # of different widths [9, 10, 16, 17, 18, 19]'
    several = tmp_path / "two.txt"
    several.write_text("# name: a\nk2/2K/1R1\n# name: b\n?1?/2?/KR1\n")
    run = run_cli("kriegspiel", "solve", several)
    assert_bad_input(run, "2 metapositions, one a line: this command takes one")
    one = tmp_path / "one.txt"
    one.write_text("# name: a\nk2/2K/1R1\n")
    assert run_cli("kriegspiel", "solve", one).code == 0


# -- issue 30, part 4: small defects, each a test ------------------------------------


def test_table_without_a_board_is_a_usage_error():
    for extra in ((), ("--piece", "Q"), ("--json",)):
        assert_bad_input(run_cli("kriegspiel", "table", *extra), "needs --board")


@pytest.mark.parametrize("given", ["0_7", "1_0", "٧", "7.0"])
def test_max_moves_in_ascii_digits_only(given):
    # Python's int (click's INT) read '0_7' as 7 and '1_0' as 10
    run = run_cli("kriegspiel", "solve", "4/4/1R2/K3 unknown", "--max-moves", given)
    assert_bad_input(run, "is not an integer")
    assert run_cli("kriegspiel", "solve", "4/4/1R2/K3 unknown", "--max-moves", "7").code == 0


def test_play_asks_again_after_a_bare_enter_and_says_when_the_input_ends():
    # a bare Enter ended the game silently (exit 0), so did the end of input
    white = play_process("4/4/1R2/K3 unknown", "--side", "white", "--seed", "3", stdin=b"\n\nRb1\n")
    assert b"Rb1: silence." in white.stdout  # the Enter was no stop: Rb1 was still played
    assert white.stdout.rstrip().endswith(b"the game was abandoned.")
    black = play_process("4/4/1R2/K3 unknown", stdin=b"\na4\n\n")
    assert b"White plays Rb1" in black.stdout and b"game was abandoned" in black.stdout
    quit = play_process("4/4/1R2/K3 unknown", stdin=b"a4\nquit\n")
    assert b"You stopped the game." in quit.stdout and b"abandoned" not in quit.stdout


def test_play_as_black_shows_whites_metaposition_as_a_board():
    # it was the one-line form only; now the board with '?' as `kriegspiel show` draws it
    run = play_process("4/4/1R2/K3 unknown", stdin=b"a4\na3\n")
    text = run.stdout.decode()
    after = text.split("You moved.")[1]
    assert "White's metaposition:" in after and "  a b c d" in after
    assert "1 K R . ." in after  # White's men after Rb1, the black king's squares as '?'
    assert after.count("?") >= 1


def test_play_suggests_moves_it_then_accepts():
    # the opening line suggested Kb2, where White's own rook stands: refused at once
    run = play_process("4/4/1R2/K3 unknown", "--side", "white", "--seed", "3", stdin=b"")
    line = next(x for x in run.stdout.decode().splitlines() if x.startswith("You are White"))
    suggested = line.split("like ")[1].split(" (")[0].split(" or ")
    for move in suggested:
        again = play_process("4/4/1R2/K3 unknown", "--side", "white", "--seed", "3", stdin=f"{move}\n".encode())
        assert b"is not a move you can try" not in again.stdout, move
