"""Blame by diagnosis in the multi-shot domains (issue 45, section 1): the parts
``base``/``step(t)``/``check(t)`` unrolled into one program at the intended answer's
horizon, the planted rule named first, with its instance at that step."""

from __future__ import annotations

from pathlib import Path

import clingo
import pytest

from pyasp_games.errors import read_text
from pyasp_games.tools.fuzz.diagnosis import diagnose
from pyasp_games.tools.fuzz.unroll import answer_at, horizon_facts, unroll

ROOT = Path(__file__).resolve().parent.parent
PLANTED = ROOT / "benchmarks" / "planted"
ENCODINGS = ROOT / "encodings"


def fault(path: Path) -> int:
    return next(int(line.split(":")[1]) for line in path.read_text().splitlines()
                if line.startswith("% fault:"))  # fmt: skip


def unrolled_diagnosis(path: Path, facts: str, horizon: int, atoms: list[str],
                       closed: tuple[str, ...] = ()) -> list[tuple[str, int, str]]:  # fmt: skip
    """The rules blamed as fuzz blames a multi-shot encoding (planners: the constraints'
    side first, one round of the universe)."""
    said = diagnose(path, f"{facts}\n{horizon_facts(horizon)}", [(a, True) for a in atoms],
                    program=unroll(read_text(path)), deepest=False, rounds=1, closed=closed)  # fmt: skip
    assert said.rules, said.lines
    return said.rules


def test_the_unrolled_program_has_the_plans_incremental_solving_finds():
    """Unrolled at the horizon clingo's incremental mode stops at, the sliding puzzle's
    encoding has the same plan there, and none at horizon 0."""
    from pyasp_games.domains.puzzle.asp import facts
    from pyasp_games.domains.puzzle.model import parse_board

    board = facts(parse_board("1 2\n0 3"))  # two moves of the blank: r, then nothing more
    sliding = ENCODINGS / "puzzle" / "sliding.lp"
    horizon, moves = answer_at(sliding, board, ["move"])
    assert horizon == 1 and moves == ["move(1,r)"]

    def plans(h: int) -> list[list[str]]:
        control = clingo.Control(["0", "--warn=none"])
        control.add("base", [], unroll(read_text(sliding)) + board + horizon_facts(h))
        control.ground([("base", [])])
        found: list[list[str]] = []
        control.solve(on_model=lambda m: found.append(sorted(map(str, m.symbols(shown=True)))))
        return found

    assert plans(1) == [moves]
    assert plans(0) == []


def test_a_pruning_constraint_off_by_one_is_named_at_the_horizon_it_refutes():
    """On a solved board the plan of 0 moves is refuted by the distance pruning
    (``K >= t - T``): named first, at H=0, not the cell rule below it."""
    from pyasp_games.domains.puzzle.asp import facts
    from pyasp_games.domains.puzzle.model import parse_board

    path = PLANTED / "puzzle-heuristic-too-strict.lp"
    rules = unrolled_diagnosis(path, facts(parse_board("1 2\n3 0")), 0, [])
    assert rules[0][1] == fault(path)


def test_a_round_off_by_one_is_named_against_the_bundled_fixpoint():
    """Cops and Robbers: the intended answer is the bundled program's rounds and moves
    at its last round; the cops' win read two rounds back is named, not round 0's."""
    path = PLANTED / "cops-round-off-by-one.lp"
    game = "#const k=1. vertex(0..2). edge(0,1). edge(1,0). edge(1,2). edge(2,1)."
    predicates = ("cw_at", "rw_at", "jmove")
    horizon, atoms = answer_at(ENCODINGS / "cops" / "classic.lp", game, predicates)
    rules = unrolled_diagnosis(path, game, horizon, atoms, closed=predicates)
    assert rules[0][1] == fault(path)



def kriegspiel_rules(planted: str, start: str) -> list[tuple[str, int, str]]:
    """Kriegspiel's diagnosis as fuzz makes it: the bundled retrograde program's values
    the intended answer, its whole answer set fixing the predicates it names."""
    from pyasp_games.domains.kriegspiel.asp import facts
    from pyasp_games.domains.kriegspiel.model import parse_metaposition
    from pyasp_games.domains.kriegspiel.tablebase import build

    m = parse_metaposition(start)
    game = facts(m, build([m]).keys)
    horizon, every = answer_at(ENCODINGS / "kriegspiel" / "retrograde.lp", game, None)
    values = [a for a in every if a.startswith(("value(", "missing("))]
    path = PLANTED / f"{planted}.lp"
    said = diagnose(path, f"{game}\n{horizon_facts(horizon)}", [(a, True) for a in values],
                    program=unroll(read_text(path)), deepest=False, rounds=1,
                    closed=("value", "missing"), within=every)  # fmt: skip
    assert said.rules, said.lines
    return said.rules


def test_the_queens_left_out_diagonals_are_named_at_her_directions():
    """KQK on 3 x 3 (two metapositions): ``dir(1,1)`` and the other diagonals, facts no
    rule of the relaxed universe names, are said at the line of the remaining ``dir``."""
    path = PLANTED / "kriegspiel-queen-no-diagonals.lp"
    rules = kriegspiel_rules(path.stem, "?1?/3/KQ1")
    assert rules[0][1] == fault(path)


@pytest.mark.slow
@pytest.mark.parametrize("planted", ["kriegspiel-capture-not-draw", "kriegspiel-stalemate-not-draw"])
def test_a_deleted_draw_is_named_at_the_remaining_draw_rule(planted):
    """KRK on 3 x 3 (17 metapositions, 4 levels), where the relaxed universe grounded
    2.7 million atoms: the bounded one names the draw rule that is left."""
    path = PLANTED / f"{planted}.lp"
    assert kriegspiel_rules(planted, "?1?/2?/KR1")[0][1] == fault(path)


@pytest.mark.slow
@pytest.mark.parametrize("planted", [
    "puzzle-heuristic-too-strict", "puzzle-ignores-goal", "puzzle-parity-flipped",
    "routing-frame-copies-pebble", "routing-prune-off-by-one",
    "cops-robber-one-escape", "cops-cops-must-move", "cops-round-off-by-one",
])  # fmt: skip
def test_fuzz_names_the_planted_rule_of_a_multi_shot_encoding(planted, tmp_path):
    """The whole session, as the planted suite runs it: found in the small scope, the
    planted line named first in the blame."""
    from pyasp_games.domains import domain_spec
    from pyasp_games.tools.fuzz import fuzz

    path = PLANTED / f"{planted}.lp"
    report = fuzz(domain_spec(planted.split("-")[0]), "solve", str(path), runs=5, seed=0,
                  total_limit=60, out=tmp_path)  # fmt: skip
    assert report.failure is not None
    named = [b for b in report.failure.blame if "blame: " in b]
    assert named and f"{path.name}:{fault(path)}:" in named[0], report.failure.blame


def test_a_part_incremental_mode_does_not_have_is_refused_by_name():
    with pytest.raises(ValueError, match="#program other"):
        unroll("#program step(t).\na(t).\n#program other(t).\nb.\n")
