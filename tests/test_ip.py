"""Interactive proofs (``ip``): the notes' analysis of graph non-isomorphism, the
evaluation of a QBF's polynomial program (honest: the formula's truth, as the direct
evaluator and Geography say; cheating: caught within the bound), transcripts replayed."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from pyasp_games.domains import ip
from pyasp_games.domains.geography import solve as geography_solve
from pyasp_games.domains.geography.model import load_instance
from pyasp_games.domains.ip.model import degree_bounds, pair_of, random_program
from pyasp_games.domains.ip.verify import integer_value

from .conftest import assert_bad_input, run_cli

ROOT = Path(__file__).resolve().parent.parent
IP = ROOT / "instances" / "ip"
C4, PAW, C4B = IP / "c4.txt", IP / "paw.txt", IP / "c4-relabelled.txt"


def test_a_non_isomorphic_pair_is_accepted_with_certainty():
    pair = ip.load_pair(C4, PAW)
    out = ip.solve(pair, rounds=5, runs=8)
    assert out.answer == "accept" and out.witness["caught"] == 0 and out.verdict.verified is True
    assert "not isomorphic (every bijection tried)" in out.verdict.message


@pytest.mark.parametrize("prover", ["honest", "guess"])
def test_an_isomorphic_pair_is_rejected_half_the_time_whatever_the_prover(prover):
    out = ip.solve(ip.load_pair(C4, C4B), rounds=1, runs=200, prover=prover, seed=5)
    caught = out.witness["caught"]
    assert out.verdict.verified is True and "isomorphic (every" in out.verdict.message
    assert 100 - 3 * 7.1 < caught < 100 + 3 * 7.1  # binomial(200, 1/2): three deviations
    # ten rounds a run: every run is lost unless the prover is right ten times
    assert ip.solve(ip.load_pair(C4, C4B), rounds=10, runs=4, prover=prover).answer == "reject"


def test_public_coins_let_the_prover_pass_an_isomorphic_pair():
    run = run_cli("ip", "gni", C4, C4B, "--coins", "public", "--rounds", "12")
    assert run.code == 0 and "accept:" in run.stdout and "acceptance proves nothing" in run.stdout


def test_a_gni_transcript_is_replayed_and_a_tampered_one_refuted(tmp_path):
    path = tmp_path / "gni.json"
    path.write_text(run_cli("ip", "gni", C4, C4B, "--rounds", "3", "--runs", "4", "--seed", "9", "--json").stdout)
    assert run_cli("verify", path).code == 0
    data = json.loads(path.read_text())
    first = data["certificate"]["runs"][0]
    wrong = dict(first, x="".join("H" if c == "G" else "G" for c in first["x"]))  # not the coins
    for tampered in ({**data, "certificate": {**data["certificate"], "runs": [wrong, *data["certificate"]["runs"][1:]]}},
                     {**data, "certificate": {**data["certificate"], "seed": 10}}):  # fmt: skip
        path.write_text(json.dumps(tampered))
        run = run_cli("verify", path)
        assert run.code == 1 and "coin" in run.stderr, run.stderr
    message = data["certificate"]["messages"]["0:0"]
    message[0] = [message[0][0], (message[0][1] + 1) % 4 or 1]  # another edge in Y
    data["certificate"]["messages"]["0:0"] = message
    path.write_text(json.dumps(data))
    run = run_cli("verify", path)
    assert run.code == 1 and "message Y" in run.stderr


@pytest.mark.parametrize("seed", range(6))
def test_the_honest_protocol_answers_the_truth_as_geography_does(seed, tmp_path):
    q = random_program(seed, n=5, m=7, k=3)
    honest, direct = ip.solve(q, "protocol", seed=seed), ip.solve(q, "direct")
    assert honest.answer == direct.answer and honest.verdict.verified and direct.verdict.verified
    assert (integer_value(q) > 0) == (direct.answer == "accept")
    # reduce qbf-to-geography, then geography solve: the first player wins iff true
    source = tmp_path / "q.qdimacs"
    source.write_text(ip.model.format_program(q))
    graph = tmp_path / "q.txt"
    assert run_cli("reduce", "qbf-to-geography", source, "-o", graph).code == 0
    winner = geography_solve(load_instance(graph), "native").answer
    assert (winner == "first") == (direct.answer == "accept")


def test_the_bundled_formulas():
    true, false = ip.load_program(IP / "tqbf-true.qdimacs"), ip.load_program(IP / "tqbf-false.qdimacs")
    assert (true.known, false.known) == (True, False)
    assert ip.solve(true).answer == "accept" and ip.solve(false).answer == "reject"
    assert ip.solve(false, prover="cheat", runs=20).answer == "reject"  # p = 2^61 - 1
    assert degree_bounds(false) == [8, 4, 4]


def test_the_cheating_prover_is_caught_within_the_bound():
    q = ip.load_program(IP / "tqbf-false.qdimacs")
    out = ip.solve(q, prover="cheat", prime=101, runs=300, seed=2)
    w = out.witness
    assert out.verdict.verified is True and w["claim"] == 1
    bound = Fraction(w["error_bound"])
    assert bound == Fraction(16, 101) <= Fraction(w["notes_bound"]) == Fraction(24, 101)
    rate = w["accepted"] / w["runs"]
    assert 0 < rate <= float(bound) + 3 * (float(bound) / 300) ** 0.5  # measured, under the bound


def test_a_qbf_transcript_is_replayed_and_a_tampered_one_refuted(tmp_path):
    path = tmp_path / "qbf.json"
    path.write_text(run_cli("ip", "qbf", IP / "tqbf-false.qdimacs", "--prover", "cheat", "--prime", "53",
                            "--runs", "12", "--seed", "3", "--json").stdout)  # fmt: skip
    assert run_cli("verify", path).code == 0
    data = json.loads(path.read_text())
    runs = data["certificate"]["runs"]
    i = next(k for k, r in enumerate(runs) if r["accept"])
    changes = {"h": lambda r: r["h"][0].__setitem__(0, (r["h"][0][0] + 1) % 53),
               "t": lambda r: r["t"].__setitem__(0, (r["t"][0] + 1) % 53),
               "accept": lambda r: r.__setitem__("accept", False)}
    for name, change in changes.items():
        tampered = json.loads(json.dumps(data))
        change(tampered["certificate"]["runs"][i])
        path.write_text(json.dumps(tampered))
        run = run_cli("verify", path)
        assert run.code == 1 and "refuted:" in run.stderr, (name, run.stderr)
    data["certificate"]["prime"] = 55  # not prime
    path.write_text(json.dumps(data))
    assert run_cli("verify", path).code == 1


@pytest.mark.parametrize("text, options, fragment", [
    ("p cnf 2 1\ne 1 0\na 1 2 0\n1 2 0\n", (), "quantified twice"),
    ("p cnf 2 1\n1 2 0\n", (), "empty prefix"),
    ("p cnf 3 4\ne 1 0\na 2 0\ne 3 0\n1 2 3 0\n-1 2 3 0\n1 2 -3 0\n-1 2 -3 0\n", ("--prime", "47"),
     "2 N d = 2 * 3 * 8 = 48"),
    ("p cnf 1 1\ne 1 0\n1 0\n", ("--prime", "91"), "not prime"),
    ("p cnf 1 1\ne 1 0\n1 0\n", ("--runs", "1000000000"), "--runs"),
    ("p cnf 21 1\ne " + " ".join(map(str, range(1, 22))) + " 0\n1 0\n", (), "limit of 20"),
    # x1 in 200 clauses under 6 universal variables: degree 200 * 2^6
    ("p cnf 12 200\n" + "".join(f"{'a' if i % 2 else 'e'} {i + 1} 0\n" for i in range(12))
     + "1 2 0\n" * 200, (), "degree"),
])  # fmt: skip
def test_bad_input_is_one_line(tmp_path, text, options, fragment):
    path = tmp_path / "bad.qdimacs"
    path.write_text(text)
    assert_bad_input(run_cli("ip", "qbf", path, *options), fragment)


def test_gni_bad_input_is_one_line(tmp_path):
    assert_bad_input(run_cli("ip", "gni", C4, tmp_path / "missing.txt"), "missing.txt")
    assert_bad_input(run_cli("ip", "gni", C4, PAW, "--rounds", "0"), "--rounds")
    assert_bad_input(run_cli("ip", "gni", C4, PAW, "--coins", "loud"), "loud")
    assert_bad_input(run_cli("ip", "gni", C4, PAW, "--coins", "public", "--prover", "guess"), "private coins")


def test_graphs_of_different_orders_are_told_apart():
    pair = pair_of(3, [(0, 1), (1, 2)], 4, [(0, 1), (1, 2), (2, 3)])
    out = ip.solve(pair, rounds=6)
    assert out.answer == "accept" and out.verdict.verified is True


def test_arthur_merlin_separates_the_pairs_by_goldwasser_and_sipsers_gap():
    from pyasp_games.domains.ip.model import am_bounds

    rho, low, high = am_bounds(4)
    assert (rho, low, high) == (Fraction(3, 8), Fraction(39, 128), Fraction(3, 16))
    for other, bound in ((PAW, low), (C4B, high)):
        out = ip.solve(ip.load_pair(C4, other), coins="arthur-merlin", runs=10, rounds=60, seed=4)
        w = out.witness
        assert out.verdict.verified is True and w["pairs"] == (48 if other == PAW else 24)  # 2 n!, n!
        rate = 1 - w["caught"] / w["rounds_in_all"]
        slack = 3 * (float(bound) * (1 - float(bound)) / 600) ** 0.5
        assert (rate >= float(bound) - slack) if other == PAW else (rate <= float(bound) + slack)


def test_an_arthur_merlin_transcript_is_replayed_and_a_tampered_one_refuted(tmp_path):
    path = tmp_path / "am.json"
    path.write_text(run_cli("ip", "gni", C4, PAW, "--coins", "arthur-merlin", "--rounds", "20", "--json").stdout)
    assert run_cli("verify", path).code == 0
    data = json.loads(path.read_text())
    answers = data["certificate"]["runs"][0]["merlin"]
    r = next(i for i, a in enumerate(answers) if a is not None)
    tau = answers[r][2]
    answers[r][2] = tau[1:] + tau[:1]  # a rotation of tau: no automorphism of the paw's copy
    path.write_text(json.dumps(data))
    run = run_cli("verify", path)
    assert run.code == 1 and "Merlin's message" in run.stderr, run.stderr
    answers[r][2] = tau
    data["certificate"]["runs"][0]["hits"] += 1
    path.write_text(json.dumps(data))
    assert run_cli("verify", path).code == 1


def test_arthur_merlin_refuses_what_it_cannot_run(tmp_path):
    big = tmp_path / "k8.txt"
    big.write_text("".join(f"{u} {v}\n" for u in range(8) for v in range(u + 1, 8)))
    assert_bad_input(run_cli("ip", "gni", big, big, "--coins", "arthur-merlin"), "limit of 7")
    path = tmp_path / "p3.txt"
    path.write_text("0 1\n1 2\n")
    assert_bad_input(run_cli("ip", "gni", C4, path, "--coins", "arthur-merlin"), "one order")


def test_a_malformed_transcript_is_refuted_not_a_crash():
    q = ip.load_program(IP / "tqbf-false.qdimacs")
    data = json.loads(json.dumps(ip.solve(q, prover="cheat", prime=53, runs=2).to_dict()))
    data["certificate"]["runs"][0] = "not a run"
    again = ip.QBF.recheck(q, data)
    assert again.verdict.verified is False and "malformed" in again.verdict.message


# -- proposition 2: the program of a configuration graph ---------------------------------


def _machine(tmp_path, n, arcs):
    path = tmp_path / "g.txt"
    path.write_text("".join(f"v{u} v{v}\n" for u, v in arcs) + "".join(f"v{u} v{u}\n" for u in range(n) if not any(a == u for a, _ in arcs)))
    return path


@pytest.mark.parametrize("seed", range(4))
def test_the_program_of_proposition_2_counts_the_walks(seed, tmp_path):
    import random

    from pyasp_games.domains.ip.model import load_reach
    from pyasp_games.domains.ip.verify import walks

    rng = random.Random(seed)
    n = rng.randint(3, 6)
    arcs = sorted({(rng.randrange(n), rng.randrange(n)) for _ in range(n + 2)})
    path = _machine(tmp_path, n, arcs)
    for levels in (1, 2):
        r = load_reach(path, "v0", f"v{n - 1}", levels)
        honest, direct = ip.solve(r, "protocol", seed=seed), ip.solve(r, "direct")
        assert honest.verdict.verified is True and direct.verdict.verified is True
        assert honest.answer == direct.answer == ("accept" if walks(r) else "reject")
        assert honest.witness["claim"] == walks(r) == direct.witness["walks"]  # P_L(s, t), exactly


def test_the_notes_machine_and_a_cheating_prover(tmp_path):
    from pyasp_games.domains.ip.model import load_reach

    run = run_cli("ip", "reach", IP / "machine.txt")  # a -> b -> c -> d -> d: d in 4 moves
    assert run.code == 0 and "accept: the verifier is convinced d is reached from a in 4 moves" in run.stdout
    r = load_reach(IP / "machine.txt", "a", "a", 2)  # a is never reached again
    out = ip.solve(r, prover="cheat", prime=101, runs=150, seed=3)
    w = out.witness
    assert out.verdict.verified is True and w["claim"] == 1 and Fraction(w["error_bound"]) == Fraction(16, 101)
    assert 0 < w["accepted"] / 150 <= 16 / 101 + 3 * (16 / 101 / 150) ** 0.5
    path = tmp_path / "reach.json"
    path.write_text(run_cli("ip", "reach", IP / "machine.txt", "--to", "a", "--prover", "cheat", "--prime", "101",
                            "--runs", "30", "--json").stdout)  # fmt: skip
    assert run_cli("verify", path).code == 0
    data = json.loads(path.read_text())
    entry = next(e for e in data["certificate"]["runs"] if e["accept"])
    entry["t"][-1] = (entry["t"][-1] + 1) % 101
    path.write_text(json.dumps(data))
    run = run_cli("verify", path)
    assert run.code == 1 and "coin" in run.stderr


def test_reach_bad_input_is_one_line(tmp_path):
    big = tmp_path / "big.txt"
    big.write_text("".join(f"{i} {i + 1}\n" for i in range(9)))
    assert_bad_input(run_cli("ip", "reach", big, "--from", "0", "--to", "9"), "limit of 8")
    assert_bad_input(run_cli("ip", "reach", IP / "machine.txt", "--levels", "5"), "--levels")
    assert_bad_input(run_cli("ip", "reach", IP / "c4.txt"), "--from")
    assert_bad_input(run_cli("ip", "reach", IP / "machine.txt", "--prime", "23"), "2 N d")
