"""The hostile battery: absurd sizes, non-numbers, NaN, duplicate names, wrong encodings,
time limits, for every domain's commands. Each input ends in a correct answer, exit 2
with one line on stderr, or exit 3 within the limit -- never a traceback, an internal
error, a hang or a memory blow-up.
"""

from __future__ import annotations

import inspect
import json
import time
from collections.abc import Iterable
from typing import Any

import pytest

from pyasp_games.domains import DOMAINS, domain_spec
from pyasp_games.domains.cover.model import format_x3c, random_x3c
from pyasp_games.domains.zerosum.model import format_matrix, random_matrix
from pyasp_games.engines.resources import encoding_path, instance_dir
from pyasp_games.errors import InputError
from pyasp_games.tools.bench.suite import expand, parse_suite

from .conftest import assert_bad_input, run_cli, run_cli_process

# -- bench generators: sizes no user can mean, refused before any work ----------------

#: Parameters of a domain's generators that must be refused at once, beyond the generic
#: ones every generator of the registry gets (:func:`generic_absurd_params`): a domain
#: adds its own cases here (a NaN where a number is required, a count beyond a size, a
#: bad name), keyed by ``(domain, generator)``.
ABSURD_GENERATOR_PARAMS = {
    ("cover", "x3c-regular"): [
        {"q": 10**18, "d": 3}, {"q": 5, "d": 10**12}, {"q": 1e30, "d": 3}, {"q": 0, "d": 3},
        {"q": 1, "d": 2},
    ],
    ("geography", "random"): [
        {"n": 10**18}, {"n": 10, "degree": 1e30}, {"n": 10, "degree": 20},
        {"n": 10, "degree": float("nan")}, {"n": 3, "regular": True}, {"n": -1},
        {"n": 10, "degree": 6, "undirected": True},
    ],
    ("grundy", "random"): [
        {"n": 10**18}, {"n": 10**6, "high": 10**6}, {"n": 10, "sinks": float("nan")},
        {"n": 10, "low": 5, "high": 2}, {"n": 0},
    ],
    ("puzzle", "walk"): [
        {"rows": 4, "cols": 4, "steps": 10**18}, {"rows": 10**5, "cols": 10**5, "steps": 3},
        {"rows": -4, "cols": -4, "steps": 3}, {"rows": 4, "cols": 4, "steps": 2.5},
    ],
    ("routing", "random"): [
        {"graph": "grid:100000x100000"}, {"graph": "complete:4000"}, {"graph": "grid:2x3", "moves": "bogus"},
    ],
    ("zerosum", "matrix"): [{"rows": 10**18}, {"rows": 10, "cols": 10**9}, {"rows": 0}],
    ("zerosum", "kuhn"): [{"cards": 10**18}, {"cards": 1}],
    ("zerosum", "leduc"): [{"cards": 3}],  # takes no parameter
    ("annihilation", "random"): [
        {"n": 10**18}, {"n": 10, "tokens": 11}, {"n": 10, "degree": float("nan")},
        {"n": 10, "degree": 10}, {"n": 0},
    ],
    ("catch", "random"): [
        {"n": 10**18}, {"n": 10, "red": 11}, {"n": 10, "red": 6, "black": 6},
        {"n": 10, "degree": float("nan")}, {"n": 10, "degree": 10},
    ],
    ("kriegspiel", "start"): [{"rows": 10**6}, {"rows": 8, "cols": 0}, {"rows": 8, "piece": "X"}],
    ("kayles", "random"): [
        {"n": 10**18}, {"n": 10, "degree": 1e30}, {"n": 10, "degree": float("nan")}, {"n": 0},
        {"n": 10_000, "degree": 5_000},
    ],
    ("kayles", "tree"): [{"n": 10**18}, {"n": 0}, {"n": 2.5}],
    ("kayles", "grid"): [{"rows": 10**6}, {"rows": 4, "cols": 0}, {"rows": 1000, "cols": 1000}],
    ("cops", "random"): [
        {"n": 10**18}, {"n": 10, "cops": 10**6}, {"n": 3, "cops": 3}, {"n": 10, "edges": 10**18},
        {"n": 10, "edges": float("nan")}, {"n": 10, "variant": "bogus"}, {"n": 1},
    ],
    ("hex", "random"): [
        {"size": 10**18}, {"size": 0}, {"size": 2.5}, {"size": 4, "stones": 10**6},
        {"size": 4, "stones": -1}, {"size": 4, "stones": float("nan")},
    ],
    ("machine", "random"): [
        {"states": 10**18}, {"transitions": 10**6}, {"steps": -1}, {"length": 10**9},
        {"symbols": 0},
    ],
    ("ssat", "random"): [
        {"n": 10**18}, {"n": 5, "k": 6}, {"n": 5, "m": 10**9}, {"n": 0},
        {"n": 5, "share": float("nan")}, {"n": 5, "share": 2.0},
    ],
    ("ip", "random"): [{"n": 10**18}, {"n": 21}, {"n": 4, "k": 5}, {"n": 4, "m": -1}, {"n": 0}],
}  # fmt: skip


def generic_absurd_params(generator: Any) -> list[dict[str, Any]]:
    """The parameters every generator must refuse at once, from its signature alone:
    every integer parameter but the seed at 10**18 together, and (where no parameter is
    required) each float parameter alone at NaN. A generator with a required parameter
    that is not an integer gets none: its domain gives its cases in
    :data:`ABSURD_GENERATOR_PARAMS`."""
    params = [p for p in inspect.signature(generator).parameters.values() if p.name != "seed"]
    ints = [p.name for p in params if "int" in str(p.annotation)]
    floats = [p.name for p in params if str(p.annotation) == "float"]
    required = [p.name for p in params if p.default is p.empty]
    if any(name not in ints for name in required):
        return []
    cases = [dict.fromkeys(ints, 10**18)] if ints else []
    if not required:
        cases += [{name: float("nan")} for name in floats]
    return cases


def generator_battery(domains: Iterable[str]) -> list[tuple[str, str, dict[str, Any]]]:
    """Every generator of ``domains`` (the registry's) with the parameters it must refuse:
    the generic ones and the domain's own (:data:`ABSURD_GENERATOR_PARAMS`). A new domain
    is in the battery as soon as it is registered, nothing to add here."""
    battery = []
    for domain in domains:
        for name, generator in domain_spec(domain).generators.items():
            cases = generic_absurd_params(generator) + ABSURD_GENERATOR_PARAMS.get((domain, name), [])
            assert cases, f"{domain} generator {name!r}: give its absurd parameters in ABSURD_GENERATOR_PARAMS"
            battery += [(domain, name, params) for params in cases]
    return battery


def test_every_generator_is_in_the_battery():
    declared = {(d, g) for d in DOMAINS for g in domain_spec(d).generators}
    assert set(ABSURD_GENERATOR_PARAMS) <= declared  # no case for a generator that is gone
    assert {(d, g) for d, g, _ in generator_battery(DOMAINS)} == declared


def _suite(domain: str, generator: str, params: dict, seeds: int = 1):
    text = f'domain = "{domain}"\ntime_limit = 1\n[[instances]]\ngenerator = "{generator}"\nseeds = {seeds}\n'
    suite = parse_suite(text, name="hostile")
    suite.groups[0]["params"] = params  # TOML has no nan, and no integer beyond 2**63
    return suite


@pytest.mark.parametrize(
    ("domain", "generator", "params"),
    generator_battery(DOMAINS),
    ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()) if isinstance(v, dict) else str(v),
)
@pytest.mark.xdist_group("timing")
def test_absurd_generator_parameters_are_refused_at_once(domain, generator, params):
    suite = _suite(domain, generator, params)
    start = time.monotonic()
    with pytest.raises(InputError):
        expand(suite, domain_spec(domain))
    assert time.monotonic() - start < 2


@pytest.mark.xdist_group("timing")
def test_absurd_seed_counts_are_refused_before_any_instance(tmp_path):
    with pytest.raises(InputError, match="seeds"):
        parse_suite(
            'domain = "puzzle"\n[[instances]]\ngenerator = "walk"\nseeds = 1000000000000000000\n'
            "params = {rows = 3, cols = 3, steps = 5}\n",
            name="s",
        )
    grid = 'grid = {steps = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}\n'
    suite = parse_suite(
        f'domain = "puzzle"\n[[instances]]\ngenerator = "walk"\nseeds = 200000\n{grid}'
        "params = {rows = 3, cols = 3}\n",
        name="s",
    )
    start = time.monotonic()
    with pytest.raises(InputError, match="2,000,000 generated instances"):
        expand(suite, domain_spec("puzzle"))
    assert time.monotonic() - start < 1


@pytest.mark.xdist_group("timing")
def test_bench_refuses_an_absurd_generator_in_one_line(tmp_path):
    suite = tmp_path / "huge.toml"
    suite.write_text(
        'domain = "cover"\ntime_limit = 2\n[[instances]]\ngenerator = "x3c-regular"\n'
        "params = {q = 1000000000000000000, d = 3}\n"
    )
    run = run_cli("bench", suite, "--out", tmp_path / "out", timeout=30)
    assert_bad_input(run, "q must be an integer from 1 to 1,000,000")
    assert not (tmp_path / "out").exists()


# -- zerosum: numbers beyond floating point, NaN, deep trees, names -------------------


def _two_moves(first: object, second: object, player: int = 1, infoset: str = "I") -> dict:
    return {"player": player, "infoset": infoset, "moves": {"a": first, "b": second}}


def _tree(payoff: str) -> str:
    """A one-move game tree whose first leaf pays ``payoff`` (JSON text, as written)."""
    tree = {"name": "t", "root": _two_moves({"payoff": "PAYOFF"}, {"payoff": 0})}
    return json.dumps(tree).replace('"PAYOFF"', payoff)


def _deep_tree(levels: int) -> str:
    """A game tree ``levels`` moves deep (as text: too deep for json.dumps too)."""
    text = '{"payoff": 1}'
    for k in range(levels):
        text = json.dumps(_two_moves("NODE", {"payoff": 0}, 1 + k % 2, f"i{k}")).replace('"NODE"', text)
    return f'{{"name": "deep", "root": {text}}}'


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_json_games_with_float_literals_are_refused(tmp_path, literal):
    # every reader of a JSON game (solve, normal-form, stochastic) refuses in one line
    from pyasp_games.domains.zerosum.generate import normal_form_text
    from pyasp_games.domains.zerosum.questions import load_game
    from pyasp_games.domains.zerosum.stochastic import load_stochastic

    tree, states = tmp_path / "tree.json", tmp_path / "states.json"
    tree.write_text(_tree(literal))
    states.write_text(f'{{"start": "G", "states": {{"G": [["G", {literal}], [1, 0]]}}}}')
    for read, path in ((load_game, tree), (normal_form_text, tree), (load_stochastic, states)):
        with pytest.raises(InputError, match=f"not valid JSON .*{literal.lstrip('-')}"):
            read(path)
    if literal == "1e400":
        assert_bad_input(run_cli("zerosum", "normal-form", tree), "1e400 is beyond floating point")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        (_deep_tree(5000), "nested too deeply"),
        ('{"name": "t", "name": "u", "root": {"payoff": 1}}', "'name' appears twice"),
    ],
    ids=["5000 levels", "a key twice"],
)
def test_unreadable_json_trees_are_one_line_errors(tmp_path, text, fragment):
    game = tmp_path / "game.json"
    game.write_text(text)
    assert_bad_input(run_cli("zerosum", "solve", game), fragment)


@pytest.mark.parametrize(
    "rows",
    [
        ["1e400 0", "0 1"],
        [f"{10**400} 0", "0 1"],
        [f"{10**400}/3 0", "0 1"],
    ],
    ids=["1e400", "10^400", "10^400/3"],
)
def test_lp_refuses_payoffs_floating_point_cannot_hold_side_by_side(rows):
    from pyasp_games.domains.zerosum.model import parse_matrix
    from pyasp_games.domains.zerosum.questions import SOLVE

    game = parse_matrix("\n".join(rows) + "\n", "huge")
    with pytest.raises(InputError, match="use --backend simplex"):
        SOLVE.ask(game, "lp")
    assert SOLVE.ask(game, "simplex").verdict.verified is True
    assert not domain_spec("zerosum").applies(game, "lp")  # crosscheck leaves lp out


def test_lp_refusal_is_one_line(tmp_path):
    game = tmp_path / "game.txt"
    game.write_text("1e400 0\n0 1\n")
    assert_bad_input(run_cli("zerosum", "solve", game, "-b", "lp"), "use --backend simplex (exact)")


def test_lp_solves_huge_payoffs_of_one_size_exactly():
    # entries of 10^100 (HiGHS: a model error) and payoffs of 10^500 (beyond floats)
    from pyasp_games.domains.zerosum.extensive import from_dict
    from pyasp_games.domains.zerosum.model import make_game
    from pyasp_games.domains.zerosum.questions import SOLVE, describe_solution

    big = str(10**500)
    left = _two_moves({"payoff": big}, {"payoff": 1}, 2, "J")
    right = _two_moves({"payoff": 0}, {"payoff": big}, 2, "J")
    tree = from_dict({"name": "t", "root": _two_moves(left, right)})
    matrix = make_game([[10**100, 1], [2, 10**100]])
    for game in (matrix, tree):
        lp, simplex = SOLVE.ask(game, "lp"), SOLVE.ask(game, "simplex")
        assert lp.verdict.verified is True and lp.answer == simplex.answer
    said, _ = describe_solution(tree, SOLVE.ask(tree, "lp"), {})
    assert "E+499" in said  # its decimal, without a float


@pytest.mark.parametrize(
    ("kind", "text", "fragment"),
    [
        ("matrix", "# rows: a a\n# cols: x y\n1 2\n3 4\n", "the row name 'a' appears twice"),
        ("matrix", "# rows: a b\n# cols: x x\n1 2\n3 4\n", "the column name 'x' appears twice"),
        ("states", '{"start": "G", "states": {"G": [["H", 1], [1, 0]]}}',
         "'H' is neither a number nor a state"),
        ("states", '{"start": "G", "states": {"G": [[{"next": {"H": 1}}, 1]]}}',
         "'next' names 'H', which is no state"),
    ],
    ids=["rows twice", "cols twice", "undefined state", "undefined next state"],
)
def test_zerosum_names(tmp_path, kind, text, fragment):
    from pyasp_games.domains.zerosum.model import load_matrix
    from pyasp_games.domains.zerosum.stochastic import load_stochastic

    game = tmp_path / ("game.json" if kind == "states" else "game.txt")
    game.write_text(text)
    with pytest.raises(InputError, match=fragment):
        (load_stochastic if kind == "states" else load_matrix)(game)


def test_stochastic_needs_an_iteration(tmp_path):
    game = tmp_path / "recursive.json"
    game.write_text('{"start": "G", "states": {"G": [["G", 1], [1, 0]]}}')
    assert_bad_input(run_cli("zerosum", "stochastic", game, "-n", "0"), "--iterations must be from 1")


# -- what is printed says what stands -------------------------------------------------


def test_an_unconfirmed_claim_exits_3(tmp_path, monkeypatch):
    # a winning strategy larger than the checker's budget (made small here: the native
    # backend's certificates of 90-edge games fit the real one): the native answer is
    # printed, as not verified, and the exit code says it is unconfirmed
    from pyasp_games.domains.geography import verify
    from pyasp_games.domains.geography.model import random_game
    from pyasp_games.domains.geography.questions import SOLVE

    monkeypatch.setattr(verify, "PROOF_BUDGET", 5)
    game = random_game(30, seed=1, variant="edge", degree=3)
    path = tmp_path / "edges90.txt"
    path.write_text(game.graph.format_arcs())
    run = run_cli("geography", "solve", path, "--start", "0", "--variant", "edge")
    assert run.code == 3, (run.stdout, run.stderr)
    assert "NOT VERIFIED: a strategy beyond the checker's budget of 5 positions" in run.stdout.splitlines()[0]
    outcome = SOLVE.ask(game)
    assert outcome.exit_code == 3 and "budget" in outcome.verdict.unconfirmed


def test_a_failed_claim_is_not_repeated_as_the_answer(tmp_path):
    everything = tmp_path / "everything.lp"
    everything.write_text("chosen(S) :- member(S,_).\n#show chosen/1.\n")
    tiny = instance_dir("cover") / "tiny-cover.txt"
    run = run_cli("cover", "solve", tiny, "-b", "asp", "--encoding", everything)
    assert run.code == 1
    headline = run.stdout.splitlines()[0]
    assert "error, the claim 'an exact cover exists' failed" in headline, headline
    assert "FAILED verification" in headline


def test_emit_cnf_says_when_no_formula_was_built(tmp_path):
    board = tmp_path / "parity.txt"
    board.write_text("2 1 3\n4 5 6\n7 8 0\n")  # unsolvable by parity: no SAT call
    cnf = tmp_path / "out.cnf"
    run = run_cli("puzzle", "solve", board, "-b", "sat", "--emit-cnf", cnf)
    assert run.code == 0 and not cnf.exists()
    assert "--emit-cnf" in run.stderr and "nothing written: the answer needed no SAT call" in run.stderr


# -- the battery: every domain's commands, hostile inputs -----------------------------

#: Files the battery's commands read (written fresh for each test).
FILES = {
    "board.txt": "1 2 3\n4 5 6\n7 0 8\n",
    "ragged.txt": "3 3\n1 2 3\n4 5 6\n7 8 0\n",
    "huge-tile.txt": f"1 2 3\n4 5 6\n7 0 {10**23}\n",
    "korf1.txt": "# goal: blank-first\n14 13 15 7\n11 12 9 5\n6 0 2 1\n4 8 10 3\n",
    "cycle.txt": "a b\nb c\nc a\n",
    "universe.txt": f"{3 * 10**21}\n0 1 2\n",
    "vars.cnf": f"p cnf {10**21} 1\n1 0\n",
    "nan.cnf": "p cnf 3 2\n1 -2 0\n2 nan 0\n",
    "binary.dat": b"\x00\x01\xff\xfe",
    "matrix.txt": "1 2\n3 4\n",
    "x3c-q100.txt": format_x3c(random_x3c(100, 5, planted=True, seed=1)),
    "random-40x40.txt": format_matrix(random_matrix(40, 40, seed=3)),
}

#: ``(arguments, expected, fragment)``: ``bad`` is exit 2 with one line naming the
#: problem (the fragment); ``limit`` exit 3 (unknown) soon after the time limit; ``failed``
#: a user encoding whose claim fails its check (exit 1, said in the headline, the reason
#: on stderr); ``answer`` exit 0 with the fragment in the output. ``{name}`` is a file of
#: :data:`FILES`, ``{instances}`` and ``{encodings}`` the bundled folders.
BATTERY = {
    # puzzle
    "puzzle solve: a tile of 10^23": (["puzzle", "solve", "{huge-tile.txt}"], "bad", "out of range"),
    "puzzle solve: max-length not an integer": (
        ["puzzle", "solve", "{board.txt}", "--max-length", "1e30"], "bad", "--max-length"),
    "puzzle solve: Korf's board 1 in half a second": (
        ["puzzle", "solve", "{korf1.txt}", "-b", "idastar", "--time-limit", "0.5"], "limit", "unknown"),
    "puzzle solve: cover's encoding": (
        ["puzzle", "solve", "{board.txt}", "-b", "asp", "--encoding", "{encodings}/cover/x3c.lp"],
        "failed", "FAILED verification"),
    "puzzle check: a folder": (["puzzle", "check", "{tmp}"], "bad", "is a directory"),
    "puzzle show: ragged": (["puzzle", "show", "{ragged.txt}"], "bad", "ragged board"),
    "puzzle pdb build: absurd size": (
        ["puzzle", "pdb", "build", "--size", "100000x100000"], "bad", "beyond this tool's limit"),
    # grundy and games
    "grundy values: no such position": (
        ["grundy", "values", "{cycle.txt}", "--position", "zz"], "bad", "no position named 'zz'"),
    "grundy sum: no position": (["grundy", "sum", "{cycle.txt}"], "bad", "GRAPH:POSITION"),
    "grundy exists: puzzle's encoding": (
        ["grundy", "exists", "{cycle.txt}", "-b", "asp", "--encoding", "{encodings}/puzzle/sliding.lp"],
        "failed", "FAILED verification"),
    "grundy kernel: --all and --count": (
        ["grundy", "kernel", "{cycle.txt}", "--all", "--count"], "bad", "exclude each other"),
    "grundy loopy: NaN seconds": (
        ["grundy", "loopy", "{cycle.txt}", "--time-limit", "nan"], "bad", "--time-limit must be"),
    "games nim: a heap of 10^30": (["games", "nim", str(10**30)], "answer", "N-position"),
    "games subtraction: up to 10^18": (
        ["games", "subtraction", "--moves", "1,2", "--upto", str(10**18)], "bad", "beyond this tool's limit"),
    "games grundys-game: half a second": (
        ["games", "grundys-game", "--upto", str(10**7), "--time-limit", "0.5"], "limit", "unknown"),
    # geography
    "geography solve: no such start": (
        ["geography", "solve", "{cycle.txt}", "--start", "zz"], "bad", "no position named 'zz'"),
    "geography play: no one at the keyboard": (
        ["geography", "play", "{cycle.txt}", "--start", "a"], "answer", "the token is on a"),
    # cover and reduce
    "cover solve: a universe of 3 x 10^21": (["cover", "solve", "{universe.txt}"], "bad", "beyond this tool's limit"),
    "cover solve: geography's encoding": (
        ["cover", "solve", "{instances}/cover/tiny-cover.txt", "-b", "asp", "--encoding",
         "{encodings}/geography/vertex.lp"], "failed", "FAILED verification"),
    "cover solve: counting q=100 in half a second": (
        ["cover", "solve", "{x3c-q100.txt}", "-b", "dlx", "--count", "--time-limit", "0.5"], "limit", "unknown"),
    "reduce chain: 10^21 variables": (["reduce", "chain", "{vars.cnf}"], "bad", "beyond this tool's limit"),
    "reduce chain: a literal nan": (["reduce", "chain", "{nan.cnf}"], "bad", "'nan' is not a literal"),
    "reduce sat-to-3sat: binary": (["reduce", "sat-to-3sat", "{binary.dat}"], "bad", "not a text file"),
    "reduce back: not a map": (["reduce", "back", "{nan.cnf}", "{nan.cnf}"], "bad", "not valid JSON"),
    "reduce qbf-to-geography: no folder": (
        ["reduce", "qbf-to-geography", "{tmp}/no-such-folder/q.qdimacs"], "bad", "no such file"),
    # routing
    "routing generate: a 10^10-vertex grid": (
        ["routing", "generate", "grid:100000x100000"], "bad", "too large"),
    "routing check: nothing to check": (["routing", "check", "grid:1x1"], "bad", "ARRANGEMENT"),
    "routing solve: sat in half a second": (
        ["routing", "solve", "grid:8x8", "--random", "1", "-b", "sat", "--time-limit", "0.5"], "limit", "unknown"),
    # zerosum
    "zerosum generate: 10^18 x 10^18": (
        ["zerosum", "generate", "matrix", "--size", str(10**18)], "bad", "at most 9,000,000 entries"),
    "zerosum saddle: a tree": (
        ["zerosum", "saddle", "{instances}/zerosum/kuhn-3.json"], "bad", "a game tree"),
    "zerosum reduce: a tree": (
        ["zerosum", "reduce", "{instances}/zerosum/kuhn-3.json"], "bad", "a game tree"),
    "zerosum stochastic: 10^8 iterations": (
        ["zerosum", "stochastic", "{instances}/zerosum/recursive-seed.json", "-n", str(10**8)],
        "bad", "--iterations must be from 1"),
    "zerosum solve: 40 x 40 by asp in half a second": (
        ["zerosum", "solve", "{random-40x40.txt}", "-b", "asp", "--time-limit", "0.5"], "limit", "unknown"),
    # crosscheck and bench
    "crosscheck: no such domain": (["crosscheck", "bogus"], "bad", "unknown domain"),
    "crosscheck: a hard board in half a second": (
        ["crosscheck", "puzzle", "{korf1.txt}", "-b", "idastar", "--time-limit", "0.5"], "limit", "unknown"),
    "bench report: no such folder": (["bench", "report", "{tmp}/none"], "bad", "no such directory"),
    "bench: NaN memory": (
        ["bench", "{instances}/../benchmarks/suites/ci-asp.toml", "--memory-limit", "nan"], "bad", "memory"),
    # machine
    "machine accepts: a symbol outside the alphabet": (
        ["machine", "accepts", "{instances}/machine/third-last.toml", "01x", "--steps", "3"], "bad", "input alphabet"),
    "machine accepts: a tableau beyond the limit": (
        ["machine", "accepts", "{instances}/machine/third-last.toml", "01", "--steps", "5000", "-b", "sat"],
        "bad", "beyond this tool's limit"),
    "machine savitch: an alternating machine": (
        ["machine", "savitch", "{instances}/machine/ones-then-zero.toml", "10"], "bad", "universal states"),
    "machine accepts: cover's encoding": (
        ["machine", "accepts", "{instances}/machine/third-last.toml", "0100", "--steps", "6", "-b", "asp",
         "--encoding", "{encodings}/cover/x3c.lp"], "failed", "FAILED verification"),
}  # fmt: skip

#: Seconds a limited command may take beyond its limit: the interpreter's start-up and
#: imports on a loaded machine (the limit itself is kept to ALARM_GRACE within).
START_UP = 10.0


@pytest.fixture
def hostile_files(tmp_path):
    for name, text in FILES.items():
        if isinstance(text, bytes):
            (tmp_path / name).write_bytes(text)
        else:
            (tmp_path / name).write_text(text)
    return tmp_path


def _fill(arg: str, folder) -> str:
    from pyasp_games.engines.resources import encoding_dir

    places = {"tmp": str(folder), "instances": str(instance_dir("puzzle").parent),
              "encodings": str(encoding_dir("puzzle").parent)}
    places.update({name: str(folder / name) for name in FILES})
    for name, value in places.items():
        arg = arg.replace(f"{{{name}}}", value)
    return arg


#: Cases the default run shows elsewhere: Korf's board 1 stopped at half a second in a
#: child process is test_cli.py's (A*), IDA*'s stop on it test_puzzle_solvers.py's.
SLOW_CASES = {"puzzle solve: Korf's board 1 in half a second"}


@pytest.mark.parametrize(
    "case",
    [
        # a limit: timed, so never beside another timed test
        pytest.param(
            case,
            marks=[pytest.mark.xdist_group("timing")]
            + ([pytest.mark.slow] if case in SLOW_CASES else []),
        )
        if expected == "limit"
        else case
        for case, (_, expected, _) in BATTERY.items()
    ],
)
def test_hostile_battery(case, hostile_files):
    args, expected, fragment = BATTERY[case]
    # a limit: in a child process, where the limit holds for the whole command
    run_command = run_cli_process if expected == "limit" else run_cli
    run = run_command(*(_fill(a, hostile_files) for a in args), timeout=60)
    assert "Traceback" not in run.stderr and "internal error" not in run.stderr, run.stderr
    if expected == "bad":
        assert_bad_input(run, fragment)
    elif expected == "limit":
        limit = float(args[args.index("--time-limit") + 1])
        assert run.code == 3, (run.code, run.stdout, run.stderr)
        assert fragment in run.stdout and run.seconds < limit + START_UP
    elif expected == "failed":
        assert run.code == 1 and fragment in run.stdout.splitlines()[0], run.stdout
        assert run.stderr.strip(), "the reason of the failure"
    else:
        assert run.code == 0 and fragment in run.stdout, (run.code, run.stdout, run.stderr)


def test_runs_from_the_repository_root_read_its_relative_paths():
    # the commands a reader of the README types, from a checkout's root
    import subprocess
    import sys

    root = instance_dir("puzzle").parent.parent
    if not (root / "pyproject.toml").exists():
        pytest.skip("not run from a checkout")
    done = subprocess.run(
        [sys.executable, "-P", "-m", "pyasp_games", "puzzle", "solve", "instances/puzzle/thesis-board2.txt",
         "--time-limit", "30"],
        capture_output=True, text=True, cwd=root, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 0 and "verified" in done.stdout, done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["routing", "solve", "grid:3x3", "--random", "-1"],
        ["routing", "generate", "path:3", "--arrangement", "never-written.txt", "--seed", "-1"],
        ["zerosum", "generate", "matrix", "--seed", "-1"],
        ["kriegspiel", "play", "k2/2K/1R1", "--side", "white", "--seed", "-1"],
    ],
)
def test_a_negative_seed_is_bad_input(args, tmp_path, monkeypatch):
    # Python's random.Random(-1) is random.Random(1): 'grid:3x3#-1' was printed as its own
    # instance, the same arrangement as 'grid:3x3#1'
    monkeypatch.chdir(tmp_path)
    run = run_cli(*args)
    assert_bad_input(run, "must be an integer of at least 0, got -1")
    assert run.stdout == "" and not (tmp_path / "never-written.txt").exists()


@pytest.mark.parametrize(
    "command, name, text",
    [
        (["puzzle", "solve"], "board.txt", "１ 2 3\n4 5 6\n7 0 8\n"),
        (["cover", "solve"], "cover.txt", "3\n٠ ١ ٢\n"),
        (["zerosum", "solve"], "game.txt", "1 ٢\n3 4\n"),
        (["reduce", "chain"], "f.cnf", "p cnf ٣ 1\n1 2 0\n"),
        # and digits grouped by underscores: '0_8' was tile 8, '1_0' the payoff 10
        (["puzzle", "solve"], "board.txt", "1 2 3\n4 5 6\n7 0 0_8\n"),
        (["cover", "solve"], "cover.txt", "12\n0 1 1_0\n"),
        (["zerosum", "solve"], "game.txt", "1_0 2\n3 4\n"),
        (["reduce", "chain"], "f.cnf", "p cnf 3 1\n1 2 -0_3 0\n"),
    ],
)
def test_only_ascii_digits_are_numbers(tmp_path, command, name, text):
    # Python's int and Fraction read any Unicode digit: a full-width '１' was tile 1, an
    # Arabic-Indic '٢' the payoff 2 (kriegspiel had refused them already)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert_bad_input(run_cli(*command, path), "line ")


def test_only_ascii_digits_in_specs_and_options():
    assert_bad_input(run_cli("routing", "solve", "grid:３x３", "--random", "1"), "grid:RxC")
    assert_bad_input(run_cli("games", "subtraction", "--moves", "１,２", "--upto", "5"), "--moves")


# -- an unsafe variable, the commonest mistake in an encoding ----------------------------

UNSAFE = "value(V,K) :- K < 3.\n"
#: A command of each domain that takes --encoding, on a bundled instance.
ENCODED = [
    ("puzzle", "solve", "thesis-board1.txt"),
    ("grundy", "exists", "cycle4.txt"),
    ("cover", "solve", "tiny-cover.txt"),
    ("geography", "solve", "cycle3-edge.txt"),
    ("kriegspiel", "solve", None),  # the one-line form: "4/4/1R2/K3 unknown"
]


@pytest.mark.parametrize(("domain", "question", "file"), ENCODED)
def test_an_unsafe_variable_is_bad_input_with_clingos_words(tmp_path, domain, question, file):
    mine = tmp_path / "unsafe.lp"
    mine.write_text(UNSAFE)
    given = instance_dir(domain) / file if file else "4/4/1R2/K3 unknown"
    run = run_cli(domain, question, given, "-b", "asp", "--encoding", mine)
    assert_bad_input(run, "clingo cannot ground the program")
    line = run.stderr.strip()
    assert f"{mine}:1:" in line and "unsafe variables" in line and "'V' is unsafe" in line


def test_crosscheck_shows_the_unsafe_encoding_as_an_error_row_and_runs_the_rest(tmp_path):
    mine = tmp_path / "unsafe.lp"
    mine.write_text(UNSAFE)
    run = run_cli("crosscheck", "cover", "--encoding", mine, "--json")
    assert run.code == 1, run.stderr
    rows = [json.loads(line) for line in run.stdout.splitlines() if line.startswith('{"problem"')]
    mine_rows = [r for r in rows if r["label"] == "asp[unsafe.lp]"]
    others = [r for r in rows if r["label"] != "asp[unsafe.lp]"]
    assert mine_rows and all(r["status"] == "error" for r in mine_rows)
    assert all("unsafe variables" in r["stats"]["error"] for r in mine_rows)
    assert others and all(r["ok"] for r in others)


def test_fuzz_refuses_an_encoding_clingo_cannot_ground(tmp_path):
    mine = tmp_path / "unsafe.lp"
    mine.write_text(UNSAFE)
    run = run_cli("fuzz", "cover", "--encoding", mine, "--runs", "2", "--out", tmp_path)
    assert_bad_input(run, "unsafe variables")


# -- deep and long inputs -----------------------------------------------------------------


def _deep_efg(depth: int) -> str:
    """A chain of ``depth`` decisions ('go' deeper or 'stop'), in Gambit's .efg."""
    head = ['EFG 2 R "deep" { "P1" "P2" }', '""', ""]
    decisions = [f'p "" {1 + d % 2} {d + 1} "" {{ "go" "stop" }} 0' for d in range(depth)]
    leaves = ['t "" 1 "" { 0, 0 }'] + [f't "" {d + 2} "" {{ 1, -1 }}' for d in reversed(range(depth))]
    return "\n".join(head + decisions + leaves) + "\n"


def test_a_tree_deeper_than_the_limit_is_refused_naming_it(tmp_path):
    from pyasp_games.domains.zerosum.extensive import MAX_TREE_DEPTH

    deep = tmp_path / "deep.efg"
    deep.write_text(_deep_efg(3000))  # a RecursionError before
    assert_bad_input(run_cli("zerosum", "solve", deep), f"deeper than {MAX_TREE_DEPTH} moves")
    deep.write_text(_deep_efg(MAX_TREE_DEPTH))  # at the limit: answered
    run = run_cli("zerosum", "solve", deep, "-b", "lp", "--json")
    assert run.code == 0 and run.json()["answer"] == "1", run.stderr


def test_long_graphs_are_refused_at_the_routing_limits(tmp_path):
    from pyasp_games.domains.routing.native import MAX_BFS_VERTICES
    from pyasp_games.domains.routing.specs import MAX_VERTICES

    path = tmp_path / "coupling.json"
    path.write_text(json.dumps([[i, i + 1] for i in range(MAX_VERTICES)]))  # one vertex too many
    assert_bad_input(run_cli("routing", "solve", path, "--random", "1"), "too large")
    assert_bad_input(  # bfs tabulates every arrangement: a RecursionError on 3,000 vertices
        run_cli("routing", "solve", f"path:{MAX_BFS_VERTICES + 1}", "--random", "1", "-b", "bfs"),
        f"at most {MAX_BFS_VERTICES} vertices",
    )


# -- small inputs that were not checked ----------------------------------------------------


def test_small_inputs_that_were_internal_errors(tmp_path):
    assert_bad_input(run_cli("kriegspiel", "table"), "needs --board")
    assert_bad_input(
        run_cli("crosscheck", "cover", "--setting", 'x=--configuration="crafty'),
        "--setting x: no closing quotation",
    )
    assert_bad_input(run_cli("kriegspiel", "solve", ""), "the metaposition is empty")
    cycle = instance_dir("grundy") / "subtraction-123.txt"
    assert_bad_input(run_cli("grundy", "sum", f"{cycle}:h5"), "two or more components")


def test_bench_report_on_a_damaged_results_file_says_what_it_read(tmp_path):
    (tmp_path / "results.jsonl").write_bytes(b"\x00\xff\xfe" * 100 + b"\n{}\n")  # binary, then no row
    run = run_cli("bench", "report", tmp_path)
    assert_bad_input(run, "none of its 2 lines is a result row")


def test_what_kriegspiel_show_prints_reads_back(tmp_path):
    shown = run_cli("kriegspiel", "show", "4/4/1R2/K3 unknown")
    assert shown.code == 0
    again = tmp_path / "shown.txt"
    again.write_text(shown.stdout)
    assert run_cli("kriegspiel", "show", again).stdout == shown.stdout
    solved = run_cli("kriegspiel", "solve", again, "--json")
    assert solved.code == 0 and solved.json()["answer"] == 8


def test_clingos_warnings_on_your_encoding_are_shown(tmp_path):
    """An atom no rule defines is clingo's hint to a typo: shown for the user's encoding
    (file and line), kept in the JSON for every encoding, not printed for a bundled one."""
    mine = tmp_path / "mine.lp"
    mine.write_text(encoding_path("grundy", "grundy").read_text() + "\n#show typo/1.\n")
    cycle = instance_dir("grundy") / "cycle4.txt"
    run = run_cli("grundy", "exists", cycle, "-b", "asp", "--encoding", mine)
    assert run.code == 0 and "a Grundy function exists" in run.stdout
    assert f"clingo warns: {mine}:" in run.stdout and "typo/1" in run.stdout
    bundled = run_cli("grundy", "exists", cycle, "-b", "asp")
    assert bundled.code == 0 and "clingo warns" not in bundled.stdout


@pytest.mark.parametrize("domain", ["cover", pytest.param("zerosum", marks=pytest.mark.slow)])
def test_crosscheck_on_workers_runs_domains_whose_questions_hold_closures(domain):
    """The runs cross to the workers by the domain's registered name: cover's backends
    are closures and zerosum's formatters lambdas, which do not pickle (it was an internal
    PicklingError)."""
    run = run_cli("crosscheck", domain, "--workers", "2")
    assert run.code == 0, run.stdout + run.stderr
    assert "no failed check, no disagreement" in run.stdout


def test_a_reader_that_stops_reading_is_no_internal_error():
    """``pyasp-games ... | head``: the reader closes the pipe before the answer is
    written; the command ends quietly with 141 (128 + SIGPIPE, as a Unix tool does),
    never with 1, the exit code of an internal error."""
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-P", "-m", "pyasp_games", "grundy", "loopy",
         instance_dir("grundy") / "cycle4.txt"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    proc.stdout.close()  # gone before the command writes its first line
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141, err
    assert "Traceback" not in err and "internal error" not in err
