"""The hostile battery: absurd sizes, non-numbers, NaN, duplicate names, wrong encodings,
time limits, for every domain's commands. Each input ends in a correct answer, exit 2
with one line on stderr, or exit 3 within the limit -- never a traceback, an internal
error, a hang or a memory blow-up.
"""

from __future__ import annotations

import time

import pytest

from pyasp_games.bench.suite import expand, parse_suite
from pyasp_games.domains import DOMAINS, domain_spec
from pyasp_games.errors import InputError

from .conftest import assert_bad_input, run_cli

# -- bench generators: sizes no user can mean, refused before any work ----------------

#: For every generator of every domain, parameters that must be refused at once.
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
}  # fmt: skip


def test_every_generator_is_in_the_battery():
    declared = {(d, g) for d in DOMAINS for g in domain_spec(d).generators}
    assert declared == set(ABSURD_GENERATOR_PARAMS)


def _suite(domain: str, generator: str, params: dict, seeds: int = 1):
    text = f'domain = "{domain}"\ntime_limit = 1\n[[instances]]\ngenerator = "{generator}"\nseeds = {seeds}\n'
    suite = parse_suite(text, name="hostile")
    suite.groups[0]["params"] = params  # TOML has no nan, and no integer beyond 2**63
    return suite


@pytest.mark.parametrize(
    ("domain", "generator", "params"),
    [(d, g, p) for (d, g), ps in ABSURD_GENERATOR_PARAMS.items() for p in ps],
    ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()) if isinstance(v, dict) else str(v),
)
def test_absurd_generator_parameters_are_refused_at_once(domain, generator, params):
    suite = _suite(domain, generator, params)
    start = time.monotonic()
    with pytest.raises(InputError):
        expand(suite, domain_spec(domain))
    assert time.monotonic() - start < 2


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


def test_bench_refuses_an_absurd_generator_in_one_line(tmp_path):
    suite = tmp_path / "huge.toml"
    suite.write_text(
        'domain = "cover"\ntime_limit = 2\n[[instances]]\ngenerator = "x3c-regular"\n'
        "params = {q = 1000000000000000000, d = 3}\n"
    )
    run = run_cli("bench", suite, "--out", tmp_path / "out", timeout=30)
    assert_bad_input(run, "q must be an integer from 1 to 1,000,000")
    assert not (tmp_path / "out").exists()
