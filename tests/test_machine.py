"""Turing machines: the bundled machines decide their languages, the Cook-Levin CNF and
program and the least fixpoint agree with the simulator on every short word (each run
replayed by the checker), the checker refutes tampered runs and strategies, the
command line refuses bad machines, words and sizes in one line."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from pyasp_games.domains.machine.asp import solve_asp, solve_fixpoint
from pyasp_games.domains.machine.model import Task, load_machine, random_task
from pyasp_games.domains.machine.native import simulate
from pyasp_games.domains.machine.sat import solve_sat
from pyasp_games.domains.machine.verify import (
    accepts_within,
    check_outcome,
    check_run,
    check_strategy,
)
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.resources import instance_dir

from .conftest import assert_bad_input, run_cli

MACHINES = instance_dir("machine")

#: Each bundled machine's language, from its definition.
LANGUAGES = {
    "palindrome": lambda w: w == w[::-1],
    "third-last": lambda w: len(w) >= 3 and w[-3] == "1",
    "ones-then-zero": lambda w: all(w[i + 1: i + 2] == "0" for i, c in enumerate(w) if c == "1"),
    "increment": lambda w: True,
    "adder": lambda w: _column(w, 0) + _column(w, 1) == _column(w, 2),
    "walk": lambda w: True,
}


def _column(word: str, bit: int) -> int:
    """The number written in bit ``bit`` of the adder's column digits, least significant first."""
    return sum((int(d) >> bit & 1) << i for i, d in enumerate(word))


def words(alphabet: str, longest: int):
    for n in range(longest + 1):
        for letters in itertools.product(alphabet, repeat=n):
            yield "".join(letters)


def outcome_of(claim, backend: str) -> Outcome:
    return Outcome("t", backend, claim.status, claim.answer, claim.witness)


@pytest.mark.parametrize("name", sorted(LANGUAGES))
def test_the_bundled_machines_decide_their_languages(name):
    """With room enough ((|w| + 2)^2 steps), the simulator's answer is the language's,
    and the checker replays it (the increment's sum is on the tape)."""
    m = load_machine(MACHINES / f"{name}.toml")
    for w in words(m.input, 3 if name == "adder" else 5):
        task = Task(m, w, (len(w) + 2) ** 2)
        claim = simulate(task)
        assert claim.answer is LANGUAGES[name](w), (name, w)
        assert check_outcome(task, outcome_of(claim, "native"))[0] is True, (name, w)
        if name == "increment":
            tape = claim.witness["run"][-1].replace("[yes]", "").rstrip("_")
            assert int(tape[::-1], 2) == int(w[::-1] or "0", 2) + 1, w


@pytest.mark.parametrize(
    "name, longest",
    [("third-last", 3), ("palindrome", 2),
     *(pytest.param(name, 4, marks=pytest.mark.slow) for name in ("palindrome", "third-last", "increment", "walk")),
     pytest.param("adder", 2, marks=pytest.mark.slow)],
)  # fmt: skip
def test_cook_levin_and_the_fixpoint_agree_with_the_simulator(name, longest):
    """Every word up to ``longest`` symbols and three bounds (too short, tight, loose):
    the SAT backend's decoded run, the program's and the fixpoint's are replayed, and
    the answers are the simulator's (the slow cases: every bundled machine, words up
    to 4 symbols)."""
    m = load_machine(MACHINES / f"{name}.toml")
    for w in words(m.input, longest):
        for steps in (1, 2 * len(w) + 1, (len(w) + 1) ** 2):
            task = Task(m, w, steps)
            expected = simulate(task).answer
            for backend, solve in (("sat", solve_sat), ("asp", solve_asp), ("fixpoint", solve_fixpoint)):
                claim = solve(task)
                assert claim.answer is expected, (name, w, steps, backend)
                ok, why = check_outcome(task, outcome_of(claim, backend))
                assert ok, (name, w, steps, backend, why)


def test_alternation_by_the_fixpoint_and_the_checkers_own_search():
    m = load_machine(MACHINES / "ones-then-zero.toml")
    for w in words(m.input, 3):
        for steps in (0, len(w), len(w) + 2):
            task = Task(m, w, steps)
            native, asp = simulate(task), solve_fixpoint(task)
            assert native.answer is asp.answer is accepts_within(task), (w, steps)
            if native.answer:
                assert check_strategy(task, native.witness["strategy"])[0]
                assert check_strategy(task, asp.witness["strategy"])[0]
    assert simulate(Task(m, "1010", 6)).answer and not simulate(Task(m, "1011", 6)).answer


def test_random_machines_agree():
    """Random nondeterministic machines: simulator, SAT and the checker's own search."""
    for seed in range(12):
        task = random_task(seed, states=3, transitions=8, length=3, steps=6)
        expected = accepts_within(task)
        assert simulate(task).answer is expected, seed
        claim = solve_sat(task)
        assert claim.answer is expected, seed
        assert check_outcome(task, outcome_of(claim, "sat"))[0], seed


def test_the_checker_refutes_tampered_answers():
    m = load_machine(MACHINES / "palindrome.toml")
    task = Task(m, "0110", 20)
    run = simulate(task).witness["run"]
    assert check_run(task, run)[0]
    assert not check_run(task, run[:-1])[0]  # does not end accepting
    assert not check_run(task, [run[0], run[2], *run[3:]])[0]  # a step skipped
    assert not check_run(Task(m, "0110", 10), run)[0]  # beyond the bound
    no = simulate(Task(m, "0111", 20))
    assert not check_outcome(task, Outcome("t", "x", "no-solution", False, no.witness))[0]
    alt = load_machine(MACHINES / "ones-then-zero.toml")
    task = Task(alt, "1010", 6)
    strategy = simulate(task).witness["strategy"]
    assert check_strategy(task, strategy)[0]
    assert not check_strategy(Task(alt, "1010", 3), strategy)[0]  # too few steps
    # a claim of acceptance on a word the machine rejects: the strategy cannot be made
    assert not check_outcome(Task(alt, "1011", 6), Outcome("t", "x", "solved", True, {"strategy": {}}))[0]


def test_the_command_line_answers_and_a_saved_answer_is_checked_again(tmp_path):
    run = run_cli("machine", "accepts", MACHINES / "third-last.toml", "0100", "--steps", "6",
                  "--backend", "sat", "--json")  # fmt: skip
    assert run.code == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["answer"] is True and data["stats"]["verified"] is True
    saved = tmp_path / "answer.json"
    saved.write_text(run.stdout)
    assert run_cli("verify", saved).code == 0
    data["witness"]["run"][1] = data["witness"]["run"][0]
    saved.write_text(json.dumps(data))
    assert run_cli("verify", saved).code == 1
    run = run_cli("machine", "run", MACHINES / "palindrome.toml", "010", "--steps", "12")
    assert run.code == 0 and "[q0]010" in run.stdout and "accepts" in run.stdout


def test_machine_to_sat_writes_the_cnf_of_the_question(tmp_path):
    from pysat.formula import CNF
    from pysat.solvers import Glucose4

    m = load_machine(MACHINES / "third-last.toml")
    for w in ("0100", "1011", "100"):
        out = tmp_path / f"{w}.cnf"
        run = run_cli("reduce", "machine-to-sat", MACHINES / "third-last.toml", w, "--steps", "6", "-o", out)
        assert run.code == 0, run.stderr
        with Glucose4(bootstrap_with=CNF(from_file=str(out)).clauses) as solver:
            assert solver.solve() is simulate(Task(m, w, 6)).answer
    assert "file exists" in run_cli("reduce", "machine-to-sat", MACHINES / "third-last.toml", "1",
                                    "--steps", "2", "-o", out).stderr  # fmt: skip


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("q0 _ -> maybe _ S", "unknown state 'maybe'"),
        ("q0 2 -> yes _ S", "not in the tape alphabet"),
        ("q0 _ yes _ S", "expected 'STATE READ -> NEXT WRITE MOVE'"),
    ],
)
def test_bad_machines_are_one_line(tmp_path, text, fragment):
    base = (MACHINES / "third-last.toml").read_text().split("transitions")[0]
    bad = tmp_path / "bad.toml"
    bad.write_text(base + f"transitions = '''\n{text}\n'''\n".replace("q0", "scan"))
    assert_bad_input(run_cli("machine", "run", bad, "01", "--steps", "3"), fragment)


def test_bad_input_is_one_line(tmp_path):
    bad = tmp_path / "noaccept.toml"
    bad.write_text((MACHINES / "third-last.toml").read_text().replace('accept = ["yes"]', "accept = []"))
    assert_bad_input(run_cli("machine", "run", bad, "01", "--steps", "3"), "no accepting state")
    third = MACHINES / "third-last.toml"
    assert_bad_input(run_cli("machine", "accepts", third, "0a1", "--steps", "3"), "not in the input alphabet")
    assert_bad_input(run_cli("machine", "accepts", third, "01", "--steps", "900", "--backend", "sat"),
                     "901 x 901 = 811,801 cells, beyond this tool's limit")  # fmt: skip
    assert_bad_input(run_cli("machine", "accepts", third, "01", "--steps", "-1"), "--steps")
    assert_bad_input(run_cli("machine", "accepts", MACHINES / "ones-then-zero.toml", "10",
                             "--backend", "sat"), "universal states")  # fmt: skip
    assert_bad_input(run_cli("machine", "run", tmp_path / "missing.toml", "01"), "missing.toml")


@pytest.mark.xdist_group("timing")
def test_the_time_limit_holds(tmp_path):
    """A machine whose configurations double every step: the search stops at the limit."""
    grow = tmp_path / "grow.toml"
    grow.write_text(Path(MACHINES / "third-last.toml").read_text().split("transitions")[0]
                    + "transitions = '''\nscan _ -> scan 0 R\nscan _ -> scan 1 R\n'''\n")  # fmt: skip
    run = run_cli("machine", "accepts", grow, "-", "--steps", "60", "--time-limit", "0.25")
    assert run.code == 3, (run.code, run.stdout, run.stderr)


@pytest.mark.parametrize(
    "name, longest",
    [("third-last", 2), pytest.param("palindrome", 3, marks=pytest.mark.slow),
     pytest.param("third-last", 4, marks=pytest.mark.slow)],
)  # fmt: skip
def test_savitchs_game_answers_reachability(name, longest):
    """Every word up to ``longest`` symbols, the default interval and a short one: the game's
    winner by the native search and by the program is the simulator's answer within
    the same bound, and the checker replays the play or searches again."""
    from pyasp_games.domains.machine.savitch import read_savitch, solve_savitch, solve_savitch_asp
    from pyasp_games.domains.machine.verify import check_savitch

    path = MACHINES / f"{name}.toml"
    for w in words("01", longest):
        for steps in (None, len(w) + 2):
            task = read_savitch(path, w, steps)
            # the space |w| + 1 is all these machines use, so the bound is the only limit
            expected = simulate(Task(task.machine, w, min(task.steps, 200))).answer
            for solve in (solve_savitch, solve_savitch_asp):
                claim = solve(task)
                assert claim.answer is expected, (name, w, steps, solve.__name__)
                assert check_savitch(task, outcome_of(claim, "x"))[0], (name, w, steps)
            assert claim.witness["rounds"] <= max(1, task.steps).bit_length()


def test_savitch_on_the_command_line_and_its_refusals():
    run = run_cli("machine", "savitch", MACHINES / "third-last.toml", "0100")
    assert run.code == 0 and "player 1 wins" in run.stdout and "13 rounds" in run.stdout, run.stdout
    assert_bad_input(run_cli("machine", "savitch", MACHINES / "ones-then-zero.toml", "10"), "universal states")
    assert_bad_input(run_cli("machine", "savitch", MACHINES / "third-last.toml", "0100", "--space", "2"),
                     "shorter than the word")  # fmt: skip
    assert_bad_input(run_cli("machine", "savitch", MACHINES / "third-last.toml", "01", "--space", "40"),
                     "beyond this tool's limit")  # fmt: skip


def test_alt_is_won_by_player_1_iff_the_machine_accepts_in_time():
    """ALT(w) with the proof's challenges: the winner is the simulator's answer, for every
    word up to 3 symbols and several bounds (the checker runs the machine again); and
    delta spells, row by row, the simulator's run."""
    from pyasp_games.domains.machine.alt import BOUNDARY, delta, first_row, solve_alt
    from pyasp_games.domains.machine.verify import check_alt

    for name in ("palindrome", "increment", "walk", "adder"):
        m = load_machine(MACHINES / f"{name}.toml")
        for w in words(m.input, 3):
            for steps in (1, 3, 2 * len(w) + 2):
                task = Task(m, w, steps)
                claim = solve_alt(task)
                assert claim.answer is simulate(task).answer, (name, w, steps)
                assert check_alt(task, outcome_of(claim, "native"))[0], (name, w, steps)
    m = load_machine(MACHINES / "palindrome.toml")
    task = Task(m, "0110", 20)
    width = 24
    row = [first_row(task, p) for p in range(-1, width + 3)]  # cells -1 .. width + 2
    for config in simulate(task).witness["run"]:
        shown = "".join(row[2:width]).replace("[", "").rstrip("_")
        state = next(a for a in row if a in m.states)
        assert shown.replace(state, f"[{state}]", 1).rstrip("_") == config.rstrip("_"), config
        row = [BOUNDARY, BOUNDARY] + [delta(m, tuple(row[i - 2: i + 3])) for i in range(2, width + 1)] + ["_"] * 4


def test_the_notes_rule_4_as_written_lets_player_1_lie():
    """The notes' rule 4 (player 2 checks s in -1..1 only) and the walk machine: it needs
    3 steps on 'aa', yet with 2 steps player 1 wins, lying about the cell two to the
    right; the explicit game graph (written with -o) says the same, as grundy values
    reads it. With s in -2..2 player 2 wins."""
    from pyasp_games.domains.machine.alt import solve_alt

    task = Task(load_machine(MACHINES / "walk.toml"), "aa", 2)
    assert simulate(task).answer is False
    assert solve_alt(task, challenge=1).answer is True and solve_alt(task, challenge=2).answer is False


def test_alt_on_the_command_line_and_its_graph(tmp_path):
    walk = MACHINES / "walk.toml"
    for challenge, value in (("1", "N-position"), ("2", "P-position")):
        graph = tmp_path / f"alt{challenge}.txt"
        run = run_cli("machine", "alt", walk, "aa", "--steps", "2", "--challenge", challenge, "-o", graph)
        assert run.code == 0 and "verified" in run.stdout, (run.stdout, run.stderr)
        run = run_cli("grundy", "values", graph, "--position", "start")
        assert run.code == 0 and value in run.stdout, run.stdout
    assert_bad_input(run_cli("machine", "alt", MACHINES / "third-last.toml", "01", "--steps", "3"),
                     "deterministic machine")  # fmt: skip
    assert_bad_input(run_cli("machine", "alt", walk, "aa", "--steps", "3", "--challenge", "3"), "--challenge")
    assert_bad_input(run_cli("machine", "alt", walk, "aa", "--steps", "500"), "beyond this tool's limit")


def test_the_emitted_program_runs_as_printed(tmp_path):
    from .test_emit_lp import run_as_printed

    lp = tmp_path / "third-last.lp"
    run = run_cli("machine", "accepts", MACHINES / "third-last.toml", "0100", "--steps", "6",
                  "-b", "asp", "--emit-lp", lp)  # fmt: skip
    assert run.code == 0, run.stderr
    shown = run_as_printed(lp)
    assert 'state(5,"yes")' in shown and "SATISFIABLE" in shown


def test_the_bundled_game_graph_is_what_the_command_writes(tmp_path):
    """docs/examples' ALT(w) graph is the one `machine alt -o` writes today."""
    out = tmp_path / "alt.txt"
    run = run_cli("machine", "alt", MACHINES / "walk.toml", "aa", "--steps", "2", "--challenge", "1", "-o", out)
    assert run.code == 0, run.stderr
    shown = Path(__file__).parent.parent / "docs" / "examples" / "alt-walk-aa-2-rule-as-written.txt"
    assert out.read_text() == shown.read_text()


@pytest.mark.parametrize(
    "command, args, tamper",
    [
        ("machine run", {"word": "0100", "steps": 6}, lambda w: w["run"].pop(1)),
        ("machine accepts", {"word": "0100", "steps": 6}, lambda w: w["run"].append(w["run"][-1])),
        ("machine savitch", {"word": "0100"}, lambda w: w["run"].pop(2)),
        ("machine alt", {"word": "aa", "steps": 3}, lambda w: w.update(claim=[1, 4, "yes"])),
    ],
)
def test_every_question_rechecks_a_saved_answer(command, args, tamper):
    """A saved answer (as --json writes it) is verified again; a tampered one is refuted."""
    from pyasp_games.domains import find_command
    from pyasp_games.tools.saved import recheck, saved

    machine = MACHINES / ("walk.toml" if command == "machine alt" else "third-last.toml")
    ask = find_command(command)
    given = {"machine": str(machine), **args}
    data = json.loads(json.dumps(saved(ask, ask.ask(ask.read(**given)), given), default=str))
    assert recheck(data)[1].verdict.verified is True, command
    tamper(data["witness"])
    assert recheck(data)[1].verdict.verified is False, command


MIXER = """
name = "mixer"
states = ["s", "q", "p", "r", "yes"]
input = "da"
tape = "dabc_"
blank = "_"
start = "s"
accept = ["yes"]
transitions = '''
s d -> q d R
q a -> p b R
q a -> r c L
r b -> yes b S
'''
"""


def test_the_notes_cell_by_cell_choice_admits_a_tableau_of_no_run():
    """The notes' succ(X, Y) (section 7): each cell's next symbol is g or h of its window,
    chosen cell by cell. The mixer rejects 'da' (both choices get stuck), yet the rows
    's d a', 'd q a', 'r b c', 'yes b c' satisfy in, fin and every cell's "g xor h" with
    one symbol a cell: row 3 takes cell 0 from one transition and cells 1, 2 from the
    other. The Cook-Levin CNF here (one transition a row) is unsatisfiable, and the
    checker refuses those rows as a run."""
    import dataclasses

    from pyasp_games.domains.machine.alt import BOUNDARY, delta
    from pyasp_games.domains.machine.model import parse_machine

    m = parse_machine(MIXER)
    task = Task(m, "da", 3)
    assert simulate(task).answer is False and solve_sat(task).answer is False
    # the deterministic machines of each choice: g and h of a window are their delta
    choices = [dataclasses.replace(m, transitions=tuple(t for t in m.transitions if t.next != drop))
               for drop in ("p", "r")]  # fmt: skip
    rows = [["s", "d", "a", "_", "_"], ["d", "q", "a", "_", "_"], ["r", "b", "c", "_", "_"],
            ["yes", "b", "c", "_", "_"]]  # fmt: skip
    assert rows[0][:3] == ["s", *"da"] and rows[-1][0] in m.accept  # in(C1) and fin(C4)
    for before, after in itertools.pairwise(rows):
        padded = [BOUNDARY, BOUNDARY, *before, "_", "_"]
        for k, symbol in enumerate(after):
            window = tuple(padded[k: k + 5])
            assert symbol in {delta(choice, window) for choice in choices}, (before, after, k)
    # no choice makes the third row from the second: it mixes the two
    assert all([delta(c, tuple([BOUNDARY, BOUNDARY, *rows[1], "_", "_"][k: k + 5])) for k in range(5)] != rows[2]
               for c in choices)  # fmt: skip
    as_run = ["[s]da", "d[q]a", "[r]bc", "[yes]bc"]
    assert not check_run(task, as_run)[0]
