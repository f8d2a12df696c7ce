"""The grundy domain's and the classic games' questions, declared once: the commands
generated from them, the checkers in ``verify.py`` rejecting wrong answers, and the
backends' own options (``--check-asp``, ``--emit-lp``) run inside the backend."""

from __future__ import annotations

from dataclasses import replace

import pytest
import typer

from pyasp_games.domains.grundy import loopy, solve
from pyasp_games.domains.grundy.model import (
    grundys_game_heaps,
    load_graph,
    mex,
    nim_position,
    parse_graph,
    read_sum,
    subtraction_game,
)
from pyasp_games.domains.grundy.questions import (
    EXISTS,
    GAMES,
    GRUNDYS_GAME,
    KERNEL,
    LOOPY,
    NIM,
    QUESTIONS,
    SUBTRACTION,
    SUM,
    VALUES,
)
from pyasp_games.domains.grundy.retrograde import retrograde_classes
from pyasp_games.domains.grundy.verify import (
    check_grundys_game,
    check_loopy,
    check_nim,
    check_subtraction,
    check_sum,
    check_values,
)
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.resources import instance_dir
from pyasp_games.errors import InputError

from .conftest import run_cli

GRUNDY = instance_dir("grundy")


def test_the_commands_are_the_declared_questions():
    from pyasp_games.cli import build_app

    for name, questions in (("grundy", QUESTIONS), ("games", GAMES)):
        group = typer.main.get_command(build_app(name)).commands[name]
        assert sorted(group.commands) == sorted(q.name for q in questions)
    assert [q.name for q in QUESTIONS] == ["values", "sum", "exists", "kernel", "loopy", "circuit", "outcomes"]
    assert [q.name for q in GAMES] == ["nim", "subtraction", "grundys-game", "nim-census", "quotient"]
    # exists and kernel: one backend table, the question fixing what is searched
    assert EXISTS.backends is KERNEL.backends
    assert (EXISTS.fixed, KERNEL.fixed) == ({"find": "grundy"}, {"find": "kernel"})


def test_asking_from_the_library_takes_the_declared_defaults():
    c4 = load_graph(GRUNDY / "cycle4.txt")
    # a switch not passed at all (core) is not "given": no "applies to" refusal
    assert EXISTS.ask(c4).answer is True
    assert EXISTS.ask(c4, "sat", mode="count").answer == 2
    with pytest.raises(InputError, match="--no-core applies to --backend asp and sat"):
        EXISTS.ask(c4, "native", core=False)
    assert KERNEL.ask(c4, "asp", mode="all").answer == 2
    with pytest.raises(InputError, match="one mode only"):
        VALUES.ask(c4, mode="count")


def test_mex_is_the_least_missing_natural_number():
    assert [mex(s) for s in ([], [1, 2], [0, 1, 3], (x for x in [0, 2]))] == [0, 0, 2, 1]


def test_the_asp_backend_writes_emit_lp_itself(tmp_path):
    c4 = load_graph(GRUNDY / "cycle4.txt")
    path = tmp_path / "c4.lp"
    out = solve(c4, "asp", find="kernel", mode="count", emit_lp=path)
    text = path.read_text()
    assert out.answer == 2 and "arc(0,1)." in text and "kernel.lp" in text


def test_values_and_its_checker():
    g = load_graph(GRUNDY / "subtraction-123.txt")
    out = VALUES.ask(g, position="h7")
    assert out.verdict.verified is True and out.witness["winning_moves"] == ["h4"]
    assert not check_values(g, replace(out, witness={**out.witness, "winning_moves": []}))[0]
    assert not check_values(g, replace(out, witness={**out.witness, "class": "P"}))[0]
    with pytest.raises(InputError, match="no position named 'zz'"):
        VALUES.ask(g, position="zz")


def test_sum_checker_rejects_a_wrong_class_or_moves():
    spec = str(GRUNDY / "subtraction-123.txt")
    game = read_sum([f"{spec}:h5", f"{spec}:h6"])
    assert game.graphs[0] is game.graphs[1]  # read once
    xor = SUM.ask(game)
    assert xor.verdict.verified is True and xor.answer == "N"
    assert not check_sum(game, replace(xor, answer="P"))[0]
    moves = xor.witness["winning_moves"]
    assert not check_sum(game, replace(xor, witness={**xor.witness, "winning_moves": moves[:1]}))[0]
    orsum = SUM.ask(game, rule="or")
    assert orsum.verdict.verified is True and orsum.stats["rule"] == "or"
    assert not check_sum(game, replace(orsum, witness={**orsum.witness, "winning_move": None}))[0]


def test_loopy_check_asp_runs_in_the_backend_and_its_classes_are_checked():
    g = load_graph(GRUNDY / "notes-draw.txt")
    out = loopy(g, check_asp=True)
    assert out.verdict.verified is True and out.stats["asp_retrograde_agrees"] is True
    values, counters, asp = out.certificate
    assert asp == ["D", "D", "D", "N", "P"]
    wrong = replace(out, certificate=(values, counters, ["P", "D", "D", "N", "P"]))
    ok, message = check_loopy(g, wrong, retrograde_classes)
    assert ok is False and "ASP retrograde" in message
    game = read_sum([f"{GRUNDY / 'notes-draw.txt'}:a", f"{GRUNDY / 'notes-draw.txt'}:d"])
    total = LOOPY.ask(game, check_asp=True)
    assert total.verdict.verified is True and total.answer == "D"
    assert total.stats["asp_retrograde_agrees"] is True
    bad_move = {**total.witness["move"], "to": "a"}  # d -> a is no move
    assert not check_loopy(game, replace(total, witness={**total.witness, "move": bad_move}),
                           retrograde_classes)[0]  # fmt: skip
    assert not check_loopy(game, replace(total, answer="P"), retrograde_classes)[0]


@pytest.mark.xdist_group("timing")
def test_loopy_check_asp_holds_the_time_limit():
    g = parse_graph("".join(f"v{i} v{(i * 7 + 1) % 20000}\n" for i in range(20000)))
    out = loopy(g, Limits(0.05), check_asp=True)
    assert out.status == "unknown" and out.seconds < 2  # about 0.8 s of work without it


def test_classic_games_checkers_reject_wrong_answers():
    nim = nim_position([3, 4, 5])
    out = NIM.ask(nim)
    assert out.verdict.verified is True and out.problem == "nim(3,4,5)"
    assert not check_nim(nim, replace(out, witness=[[3, 4, 4]]))[0]
    assert not check_nim(nim, replace(out, witness=[]))[0]
    game = subtraction_game("1,2,3", 8)
    sub = SUBTRACTION.ask(game)
    assert sub.verdict.verified is True and sub.answer == [0, 1, 2, 3, 0, 1, 2, 3, 0]
    broken = list(sub.certificate)
    broken[5] = 0
    assert not check_subtraction(game, replace(sub, certificate=broken))[0]
    assert not check_subtraction(game, replace(sub, witness={**sub.witness, "period": 3}))[0]
    heaps = grundys_game_heaps(15)
    gg = GRUNDYS_GAME.ask(heaps)
    assert gg.verdict.verified is True
    wrong = [*gg.answer[:-1], 2]  # g(15) = 1
    assert not check_grundys_game(heaps, replace(gg, answer=wrong))[0]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["subtraction", "--upto", "5"], "missing option --moves"),
        (["subtraction", "--moves", "1,2"], "missing option --upto"),
        (["grundys-game"], "missing option --upto"),
    ],
)
def test_a_missing_required_option_is_one_line(args, fragment):
    run = run_cli("games", *args)
    assert run.code == 2 and fragment in run.stderr and "Traceback" not in run.stderr


def test_loopy_sum_with_check_asp_from_the_command_line():
    spec = GRUNDY / "notes-draw.txt"
    run = run_cli("grundy", "loopy", f"{spec}:a", "--sum", f"{spec}:d", "--check-asp", "--json")
    out = run.json()
    assert run.code == 0 and out["answer"] == "D" and out["stats"]["asp_retrograde_agrees"] is True
    assert out["stats"]["verified"] is True
