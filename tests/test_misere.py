"""Misère play (issue 41, section 1): the player who moves last loses.

Every answer is compared with an independent method: Bouton's misère rule with a direct
search of every Nim position, the misère labelling of every small game graph with
brute-force minimax and with the ASP program ``misere.lp``, Conway's genus with Winning
Ways' table and, on sums of tame games, with a direct search of the sum; misère Dawson's
chess (sums of paths) with the expanded game graphs of the paths themselves. Saved
answers are verified again and tampered ones refuted; nonsense combinations exit 2.
"""

from __future__ import annotations

import copy
import itertools
import json
import random

import pytest

from pyasp_games.domains.grundy.asp import retrograde_asp
from pyasp_games.domains.grundy.classic_games import grundys_game_options, misere_grundys_game
from pyasp_games.domains.grundy.misere import (
    Genera,
    Genus,
    Outcomes,
    genus,
    misere_nim_class,
    misere_nim_moves,
    nim_options,
    play_labels,
    tame_outcome,
)
from pyasp_games.domains.grundy.model import (
    GameSum,
    Misere,
    grundys_game_heaps,
    load_graph,
    nim_position,
    parse_graph,
    read_sum,
    small_game_graphs,
    subtraction_game,
)
from pyasp_games.domains.grundy.questions import (
    GRUNDYS_GAME,
    LOOPY,
    NIM,
    SUBTRACTION,
    SUM,
    VALUES,
)
from pyasp_games.domains.kayles.model import load_graph as load_kayles_graph
from pyasp_games.domains.kayles.model import parse_family
from pyasp_games.domains.kayles.octal import misere_path_outcomes
from pyasp_games.domains.kayles.questions import SEQUENCE
from pyasp_games.domains.kayles.questions import VALUE as KAYLES_VALUE
from pyasp_games.engines.graphs import numbered_digraph, numbered_graph
from pyasp_games.engines.resources import encoding_path, instance_dir

from .conftest import assert_bad_input, run_cli
from .conftest import saved_answer as saved

GRUNDY = instance_dir("grundy")
SUB = str(GRUNDY / "subtraction-123.txt")
DRAW = str(GRUNDY / "notes-draw.txt")


def minimax(succ, v, memo):
    """Misère minimax by the definition (acyclic graphs): no move wins, else some move to a loss."""
    if v not in memo:
        memo[v] = not succ[v] or any(not minimax(succ, w, memo) for w in succ[v])
    return memo[v]


# -- Nim --------------------------------------------------------------------------------


def test_bouton_misere_rule_on_every_position_up_to_7_with_4_heaps():
    """Bouton's rule (the class and every winning move) against a direct search of every
    ordered position with 4 heaps of at most 7."""
    search = Outcomes(nim_options)
    for heaps in itertools.product(range(8), repeat=4):
        wins = search.wins(tuple(sorted(h for h in heaps if h)))
        assert misere_nim_class(heaps) == ("N" if wins else "P"), heaps
        direct = [
            (*heaps[:i], x, *heaps[i + 1 :])
            for i, h in enumerate(heaps) for x in range(h)
            if not search.wins(tuple(sorted(a for a in (*heaps[:i], x, *heaps[i + 1 :]) if a)))
        ]  # fmt: skip
        assert sorted(misere_nim_moves(heaps)) == sorted(direct), heaps


def test_misere_nim_command_and_known_facts():
    one = run_cli("games", "nim", "1", "--misere", "--json").json()
    assert one["answer"] == "P" and one["witness"] == []  # a single heap of 1 is lost
    assert one["stats"]["verified"] is True and one["input"]["misere"] is True
    assert run_cli("games", "nim", "1", "--json").json()["answer"] == "N"  # normal play
    # play as in normal Nim unless only heaps <= 1 would be left: then leave an odd number
    assert run_cli("games", "nim", "1", "1", "3", "--misere", "--json").json()["witness"] == [[1, 1, 1]]
    assert run_cli("games", "nim", "3", "4", "5", "--misere", "--json").json()["witness"] == [[1, 4, 5]]
    # every position with heaps up to 7 (sorted, 4 heaps): the command's answers verified
    for heaps in itertools.combinations_with_replacement(range(8), 4):
        if sum(heaps) % 5 == 0:  # a sample of the 330 positions, to keep the test short
            out = NIM.ask(nim_position(list(heaps), misere=True))
            assert out.verdict.verified is True, out.verdict.message
            assert out.answer == misere_nim_class(heaps)


def test_misere_nim_checker_on_large_heaps_uses_the_theorem():
    out = NIM.ask(nim_position([10**6, 10**6 + 1, 3], misere=True))
    assert out.verdict.verified is True and "Bouton" in out.verdict.message
    assert out.witness == [[10**6, 10**6 + 1, 1]]


# -- the genus --------------------------------------------------------------------------


def test_genus_of_nim_positions_as_winning_ways_gives_it():
    # Winning Ways, ch. 13: 0^120, 1^031, *n = n^(n, n xor 2) for n >= 2, *2+*2 = 0^02, *2+*3 = 1^13
    table = {(): "0^120", (1,): "1^031", (2,): "2^20", (3,): "3^31", (4,): "4^46",
             (5,): "5^57", (1, 1): "0^120", (2, 2): "0^02", (2, 3): "1^13"}  # fmt: skip
    for heaps, said in table.items():
        assert str(Genus.of_nim(list(heaps))) == said
        assert str(genus(nim_options, heaps)) == said
        assert Genus.of_nim(list(heaps)).tame_heaps() is not None


def random_acyclic(n, seed):
    rng = random.Random(seed)
    arcs = [(u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < 0.35]
    return numbered_digraph(n, arcs, name=f"dag{seed}")


def test_the_genus_decides_sums_of_tame_games():
    """Where every component is tame (its genus and every follower's), the outcome its
    genera give is the direct search's; on random acyclic graphs, sums of two and three
    positions."""
    decided = 0
    for seed in range(12):
        g = random_acyclic(7, seed)
        table = Genera(lambda v, g=g: g.succ[v])
        genera = [table.genus(p) for p in range(len(g))]
        for k in (2, 3):
            for parts in itertools.combinations_with_replacement(range(len(g)), k):
                said = tame_outcome([genera[p] for p in parts])
                if said is None or not all(table.tame(p)[0] for p in parts):
                    continue

                def options(state, g=g):
                    return {tuple(sorted((*state[:i], w, *state[i + 1 :])))
                            for i, p in enumerate(state) for w in g.succ[p]}  # fmt: skip

                found = "N" if Outcomes(options).wins(tuple(sorted(parts))) else "P"
                assert said == found, (seed, parts, [str(genera[p]) for p in parts])
                decided += 1
    assert decided > 500


def test_misere_sum_command_and_its_genera():
    out = run_cli("grundy", "sum", f"{SUB}:h5", f"{SUB}:h3", "--misere", "--json").json()
    assert out["answer"] == "N" and out["stats"]["verified"] is True
    assert [c["genus"] for c in out["witness"]["components"]] == ["1^031", "3^31"]
    assert out["witness"]["by_genus"] == "N"
    # *1 + *1 is P in normal play (XOR 0) but N under misère (leave one heap of 1)
    normal = run_cli("grundy", "sum", f"{SUB}:h1", f"{SUB}:h1", "--json").json()
    misere = run_cli("grundy", "sum", f"{SUB}:h1", f"{SUB}:h1", "--misere", "--json").json()
    assert (normal["answer"], misere["answer"]) == ("P", "N")


# -- game graphs: values and loopy ---------------------------------------------------------


def test_misere_labels_on_every_small_graph_against_minimax_and_asp():
    """Every game graph on at most 3 positions and every one on 4 without self-loops (334):
    the retrograde labelling agrees with misere.lp, and on the acyclic ones with minimax."""
    graphs = list(small_game_graphs())
    acyclic = 0
    for g in graphs:
        cls, _ = play_labels(g.succ, g.pred, misere=True)
        if g.find_cycle() is None:
            memo: dict[int, bool] = {}
            assert cls == ["N" if minimax(g.succ, v, memo) else "P" for v in range(len(g))]
            out = VALUES.ask(Misere(g))
            assert out.verdict.verified is True and list(out.answer.values()) == cls
            acyclic += 1
        assert retrograde_asp(g, misere=True) == cls, g.format_arcs()
    assert acyclic > 30


def test_misere_values_and_loopy_commands():
    out = run_cli("grundy", "values", SUB, "--misere", "--json").json()
    assert [out["answer"][f"h{j}"] for j in range(13)] == ["P" if j % 4 == 1 else "N" for j in range(13)]
    one = run_cli("grundy", "values", SUB, "--misere", "-p", "h10", "--json").json()
    assert one["witness"]["winning_moves"] == ["h9"] and one["witness"]["genus"] == "2^20"
    loopy = run_cli("grundy", "loopy", DRAW, "--misere", "--check-asp", "--json").json()
    assert loopy["answer"] == {"a": "P", "b": "N", "c": "N", "d": "P", "e": "N"}
    assert "ASP misère labelling agrees" in loopy["stats"]["verification"]
    # the sum of a draw and a cycle: the product graph, a draw
    both = run_cli("grundy", "loopy", f"{DRAW}:a", "--sum", f"{GRUNDY / 'two-cycle.txt'}:a",
                   "--misere", "--json").json()  # fmt: skip
    assert both["answer"] == "D" and both["stats"]["verified"] is True


# -- subtraction games, Grundy's game, Node Kayles -------------------------------------------


def test_misere_subtraction_outcomes_and_period():
    out = SUBTRACTION.ask(subtraction_game("1,2,3", 20, misere=True))
    assert out.answer == ["P" if n % 4 == 1 else "N" for n in range(21)]
    assert (out.witness["preperiod"], out.witness["period"]) == (0, 4)
    take1 = SUBTRACTION.ask(subtraction_game("1", 9, misere=True))
    assert take1.answer == ["N", "P"] * 5 and take1.witness["period"] == 2
    two_five = SUBTRACTION.ask(subtraction_game("2,5", 30, misere=True))
    assert two_five.verdict.verified is True


def test_misere_grundys_game_against_the_game_graph():
    """Heaps up to 24: the outcomes against the misère labelling of the explicit graph of
    every sum of heaps a heap splits into."""
    said = misere_grundys_game(24)
    for n in range(1, 25):
        start = tuple(x for x in (n,) if x >= 3)
        order, index, succ = [start], {start: 0}, []
        for state in order:
            out = []
            for q in grundys_game_options(state):
                if q not in index:
                    index[q] = len(order)
                    order.append(q)
                out.append(index[q])
            succ.append(out)
        pred = [[] for _ in order]
        for u, outs in enumerate(succ):
            for w in outs:
                pred[w].append(u)
        assert play_labels(succ, pred, misere=True)[0][0] == said[n - 1], n
    out = GRUNDYS_GAME.ask(grundys_game_heaps(30, misere=True))
    assert out.verdict.verified is True and out.answer == misere_grundys_game(30)


def test_misere_dawsons_chess_against_path_graphs():
    """Misère Dawson's chess (sums of paths) against Node Kayles on the path graph itself,
    expanded and labelled by ``grundy values --misere``; P_1 is P (the only move loses)."""
    paths = misere_path_outcomes(12)
    assert paths[:3] == ["N", "P", "P"]
    for n in range(13):
        graph = numbered_graph(n, [(i, i + 1) for i in range(n - 1)], f"P{n}")
        out = KAYLES_VALUE.ask(Misere(graph), "expanded")
        assert out.verdict.verified is True and out.answer == paths[n], n
    seq = SEQUENCE.ask(parse_family("path", 40).__class__("path", None, 40, True))
    assert seq.verdict.verified is True and seq.answer[:13] == paths
    cycles = SEQUENCE.ask(parse_family("cycle", 20).__class__("cycle", None, 20, True))
    paths = misere_path_outcomes(17)
    assert cycles.answer == ["N" if paths[n - 3] == "P" else "P" for n in range(3, 21)]


def test_misere_node_kayles_backends_agree():
    rng = random.Random(3)
    for k in range(8):
        n = rng.randint(1, 9)
        edges = [(u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < 0.3]
        g = Misere(numbered_graph(n, edges, f"g{k}"))
        native, expanded = KAYLES_VALUE.ask(g, "native"), KAYLES_VALUE.ask(g, "expanded")
        assert native.verdict.verified is True and expanded.verdict.verified is True
        assert native.answer == expanded.answer and native.witness == expanded.witness


# -- saved answers and bad input --------------------------------------------------------------


def _tampered(question, instance, data, path, value):
    wrong = copy.deepcopy(data)
    target = wrong
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    again = question.recheck(instance, wrong)
    assert again.verdict.verified is False, (path, again.verdict.message)


def test_misere_answers_saved_rechecked_and_tampered():
    cases = [
        (NIM, nim_position([1, 1, 3], misere=True), {}, [(("answer",), "P"), (("witness",), [])]),
        (VALUES, Misere(load_graph(SUB)), {"position": "h6"},
         [(("answer", "h5"), "N"), (("witness", "genus"), "3^31"), (("certificate", "ranks", 0), 3)]),
        (SUM, Misere(read_sum([f"{SUB}:h5", f"{SUB}:h6"])), {},
         [(("answer",), "P"), (("witness", "by_genus"), "P"), (("witness", "winning_moves"), [])]),
        (LOOPY, Misere(load_graph(DRAW)), {}, [(("answer", "a"), "N"), (("witness", "b", "move"), "c")]),
        (SUBTRACTION, subtraction_game("1,2,3", 12, misere=True), {}, [(("certificate", 5), 1)]),
        (GRUNDYS_GAME, grundys_game_heaps(12, misere=True), {}, [(("answer", 2), "N")]),
        (SEQUENCE, parse_family("star", 6).__class__("star", None, 6, True), {}, [(("answer", 0), "N")]),
        (KAYLES_VALUE, Misere(load_kayles_graph(instance_dir("kayles") / "path7.txt")), {},
         [(("answer",), "N"), (("witness", "options", "0"), "P"), (("witness", "winning_moves"), ["0"])]),
    ]  # fmt: skip
    for question, instance, options, tampers in cases:
        out = question.ask(instance, **options)
        assert out.verdict.verified is True, (question.name, out.verdict.message)
        data = saved(out)
        again = question.recheck(instance, data)
        assert again.verdict.verified is True, (question.name, again.verdict.message)
        for path, value in tampers:
            _tampered(question, instance, data, path, value)
    # the convention is part of the instance: a misère answer read as normal play fails
    normal = NIM.recheck(nim_position([1], misere=False), saved(NIM.ask(nim_position([1], misere=True))))
    assert normal.verdict.verified is False
    assert isinstance(read_sum([f"{SUB}:h5", f"{SUB}:h6"]), GameSum)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["kayles", "value", "PATH7", "--misere", "-b", "expanded", "--by", "sat"], "normal play only"),
        (["kayles", "value", "PATH7", "--misere", "-b", "asp"], "--misere applies to"),
        (["grundy", "values", "CYCLE3", "--misere"], "grundy loopy --misere"),
        (["games", "grundys-game", "--upto", "61", "--misere"], "direct search up to 60"),
        (["kayles", "sequence", "path", "--upto", "71", "--misere"], "up to P_70"),
    ],
)
def test_misere_nonsense_exits_2_with_one_line(args, fragment):
    where = {"PATH7": str(instance_dir("kayles") / "path7.txt"), "CYCLE3": str(GRUNDY / "cycle3.txt")}
    assert_bad_input(run_cli(*[where.get(a, a) for a in args]), fragment)


def test_misere_graph_parse_keeps_names():
    g = parse_graph("a b\nb c\n", name="g")
    assert Misere(g).name == "misere-g"


# -- grundy outcomes: the ASP labelling as a backend, and fuzzing it -------------------------


def test_outcomes_native_and_asp_agree_under_both_conventions():
    from pyasp_games.domains.grundy.questions import OUTCOMES

    graphs = [g for k, g in enumerate(small_game_graphs()) if k % 17 == 0]
    for g in [load_graph(DRAW), *graphs]:
        for instance in (g, Misere(g)):
            native, asp = OUTCOMES.ask(instance, "native"), OUTCOMES.ask(instance, "asp")
            assert native.verdict.verified is True and asp.verdict.verified is True
            assert native.answer == asp.answer and native.witness == asp.witness


def test_fuzz_finds_normal_play_labelling_posing_as_misere(tmp_path):
    """retrograde.lp with a '% play: misere' header: found wrong on the first small graph,
    written with the header that reads it back under the misère rule."""
    from pyasp_games.domains import domain_spec
    from pyasp_games.tools.fuzz.run import fuzz

    wrong = tmp_path / "posing.lp"
    text = encoding_path("grundy", "retrograde").read_text()
    wrong.write_text("% play: misere\n" + text)
    spec = domain_spec("grundy")
    report = fuzz(spec, "outcomes", str(wrong), runs=1, out=tmp_path, blame=False)
    assert report.failure is not None and report.failure.phase == "small scope"
    (again,) = spec.load_file(report.failure.file)
    assert isinstance(again, Misere) and report.failure.size == 1


@pytest.mark.xdist_group("timing")
def test_misere_searches_honour_the_time_limit():
    for args in (["kayles", "sequence", "path", "--upto", "70"], ["games", "grundys-game", "--upto", "60"]):
        run = run_cli(*args, "--misere", "--time-limit", "0.3", "--json")
        assert run.code == 3 and run.json()["status"] == "unknown", run.stderr


def test_a_tame_genus_with_a_wild_follower_does_not_decide():
    """A position of genus 2^20 that reaches a wild one: with 1^031 and 0^02 the genera
    alone would say N, but the sum is P; tameness is asked of every follower."""
    arcs = [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (0, 8), (1, 2), (1, 4), (1, 7), (2, 4), (2, 5),
            (2, 8), (3, 7), (4, 5), (5, 6), (5, 7), (6, 7), (6, 8)]  # fmt: skip
    g = numbered_digraph(9, arcs, name="wild-follower")
    genera = [genus(lambda v: g.succ[v], p) for p in (1, 3, 4)]
    assert [str(x) for x in genera] == ["2^20", "1^031", "0^02"] and tame_outcome(genera) == "N"
    out = SUM.ask(Misere(GameSum((g, g, g), (1, 3, 4), ("g", "g", "g"))))
    assert out.verdict.verified is True and out.answer == "P"
    assert out.witness["by_genus"] is None
    assert [c["tame"] for c in out.witness["components"]] == [False, True, True]


# -- the misère quotient of an octal game (the stretch) -------------------------------------


def test_dawsons_kayles_quotient_is_t2_and_tampering_is_refused():
    """Dawson's Kayles (0.07) on heaps up to 8: the quotient of order 6,
    <a, b | a^2 = 1, b^3 = b> with P-portion {a, b^2}; the heaps 2, 3
    map to a and 4 to b. A quotient with a wrong P-portion, product or a merged element
    is refused by the checker."""
    from pyasp_games.domains.grundy.model import octal_game
    from pyasp_games.domains.grundy.questions import QUOTIENT

    game = octal_game("0.07", 8)
    out = QUOTIENT.ask(game)
    assert out.verdict.verified is True and out.answer == 6, out.verdict.message
    w = out.witness
    one, a, b = w["elements"][0], w["heaps"][1], w["heaps"][3]

    def times(x, y):
        return w["table"].get(x + y) or w["table"][y + x]

    assert times(a, a) == one and times(times(b, b), b) == b and w["heaps"][2] == a
    assert sorted(w["p_portion"]) == sorted([a, times(b, b)])
    data = saved(out)
    assert QUOTIENT.recheck(game, data).verdict.verified is True
    _tampered(QUOTIENT, game, data, ("witness", "p_portion"), [a])
    _tampered(QUOTIENT, game, data, ("witness", "table", one + one), a)
    merged = copy.deepcopy(data)  # the last element folded into another: not a quotient
    last = merged["witness"]["elements"].pop()
    merged["witness"]["table"] = {k: (one if v == last else v) for k, v in merged["witness"]["table"].items()
                                  if last not in k}  # fmt: skip
    merged["answer"] -= 1
    assert QUOTIENT.recheck(game, merged).verdict.verified is False


def test_quotient_bad_input():
    assert_bad_input(run_cli("games", "quotient", "--code", "0.9", "--upto", "5"), "--code")
    assert_bad_input(run_cli("games", "quotient", "--code", "0.07", "--upto", "11"), "--upto")


def test_crosscheck_classifies_a_misere_file_by_both_labellings(tmp_path):
    """A '# play: misere' file (as the fuzzer writes one) has no Grundy function to count:
    crosscheck answers it with the misère classes, native and ASP, checked and agreeing;
    SAT, which has no misère formula, does not run on it."""
    path = tmp_path / "loop.txt"
    path.write_text("# play: misere\na b\nb c\nc a\nc d\ne c\nd\n")
    run = run_cli("crosscheck", "grundy", path, "--json")
    assert run.code == 0, run.stderr
    *rows, summary = [json.loads(line) for line in run.stdout.splitlines()]
    assert summary["summary"]["verified"] == 2 and summary["summary"]["ok"] is True
    assert sorted(r["backend"] for r in rows) == ["asp", "native"]
    for row in rows:
        assert row["status"] == "solved" and row["stats"]["verified"] is True and row["agrees"] is True
        # d has no move, so its player has moved last already: N; e moves into the loop
        assert row["answer"] == {"a": "D", "b": "D", "c": "D", "d": "N", "e": "D"}
