"""The solver front-ends: clingo and PySAT sessions, limits, DIMACS export."""

from __future__ import annotations

import time

import pytest

from pyasp_games.engines.clingo_runner import ClingoSession
from pyasp_games.engines.limits import Deadline, LimitReached, Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.sat_runner import SOLVERS, SatSession

# Pigeonhole: n+1 pigeons in n holes; exponential for resolution, so a reliable "hard" instance.
PIGEONS_ASP = """
pigeon(1..p). hole(1..p-1).
1 { in(P,H) : hole(H) } 1 :- pigeon(P).
:- in(P,H), in(Q,H), P < Q.
"""


def php_clauses(session: SatSession, holes: int) -> None:
    pigeons = holes + 1
    for p in range(pigeons):
        session.add([session.var("in", p, h) for h in range(holes)])
    for h in range(holes):
        for p in range(pigeons):
            for q in range(p + 1, pigeons):
                session.add([-session.var("in", p, h), -session.var("in", q, h)])


def test_limits_validate_and_deadline_counts_down():
    with pytest.raises(ValueError):
        Limits(time_limit=0)
    with pytest.raises(ValueError):
        Limits(max_length=-1)
    d = Deadline(0.05)
    assert not d.expired()
    time.sleep(0.06)
    assert d.expired() and d.remaining() == 0
    with pytest.raises(LimitReached):
        d.check()


def test_outcome_rejects_unknown_status_and_maps_exit_codes():
    with pytest.raises(ValueError):
        Outcome("p", "b", "maybe")
    assert [
        Outcome("p", "b", s).exit_code for s in ("solved", "no-solution", "unknown", "error")
    ] == [0, 0, 3, 1]


def test_clingo_sat_unsat_and_optimisation():
    s = ClingoSession(
        facts="{ a; b; c }. :- not a. #minimize { 1,b : b; 1,c : c }. #show a/0. #show b/0."
    )
    s.ground([("base", [])])
    r = s.solve()
    assert (r.status, r.optimal, r.cost, [str(a) for a in r.symbols]) == ("sat", True, [0], ["a"])
    s = ClingoSession(facts="a. :- a.")
    s.ground([("base", [])])
    assert s.solve().status == "unsat"


def test_clingo_constants_and_statistics():
    s = ClingoSession(facts="p(1..n). #show p/1.", consts={"n": 4})
    s.ground([("base", [])])
    r = s.solve()
    assert sorted(a.arguments[0].number for a in r.symbols) == [1, 2, 3, 4]
    stats = s.statistics()
    assert stats["solve_calls"] == 1 and stats["lp_atoms"] >= 4


def test_clingo_horizons_find_first_satisfiable_step():
    program = """
    #program base. at(0,0).
    #program step(t). at(t,X+1) :- at(t-1,X).
    #program check(t). #external query(t). :- query(t), not at(t,5).
    """
    s = ClingoSession(facts=program)
    s.ground([("base", [])])
    h, result, tried = s.solve_horizons(1, 10, 2)
    assert (h, result.status) == (5, "sat") and tried == [1, 3, 5]
    s = ClingoSession(facts=program)
    s.ground([("base", [])])
    h, result, tried = s.solve_horizons(0, 4, 1)
    assert h is None and result.status == "unsat" and tried == [0, 1, 2, 3, 4]


def test_clingo_syntax_error_is_bad_input(tmp_path):
    from pyasp_games.errors import InputError

    bad = tmp_path / "bad.lp"
    bad.write_text("p(1 :- q.\n")
    with pytest.raises(InputError, match=r"bad\.lp"):
        ClingoSession([bad])


#: Seconds past a 1 s limit a solver may take to stop on a loaded machine: the timer
#: thread that interrupts it waits for a core. A solver that ignores the interrupt runs
#: for minutes on these pigeon-hole formulas, so the bound still tells it apart.
STOP_SLACK = 3.0


@pytest.mark.xdist_group("timing")
def test_clingo_time_limit_cancels_search():
    # half a second: PHP(13) is far out of reach all the same (the stop, not the work)
    s = ClingoSession(facts=PIGEONS_ASP, consts={"p": 13}, deadline=Deadline(0.5))
    s.ground([("base", [])])
    start = time.monotonic()
    assert s.solve().status == "unknown"
    assert time.monotonic() - start < 0.5 + STOP_SLACK


def test_sat_exactly_one_assumptions_and_names():
    with SatSession() as s:
        xs = [s.var("x", i) for i in range(12)]  # long enough for the ladder encoding
        s.exactly_one(xs)
        assert s.solve([-xs[0], -xs[1]]) is True
        chosen = [n for n in s.true_names() if n[0] == "x"]
        assert len(chosen) == 1 and chosen[0][1] not in (0, 1)
        assert s.solve([xs[3], xs[4]]) is False


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.xdist_group("timing")
def test_every_offered_sat_solver_stops_at_the_time_limit(solver):
    # a quarter of a second: PHP(12) is far out of reach all the same, and eleven
    # solvers wait on it
    with SatSession(solver, Deadline(0.25)) as s:
        php_clauses(s, 12)
        start = time.monotonic()
        assert s.solve() is None
        assert time.monotonic() - start < 0.25 + STOP_SLACK
        assert s.statistics()["solver"] == solver


@pytest.mark.xdist_group("timing")
@pytest.mark.parametrize("solver", ["cadical195", "cadical153"])
def test_budgeted_sat_solvers_stop_at_a_cpu_limit_alone(solver):
    # CaDiCaL runs in slices sized by conflicts per CPU second under a CPU limit alone:
    # the limit still holds (a quarter of a CPU second on PHP(12), far out of reach)
    with SatSession(solver, Deadline(None, cpu_seconds=0.25), options={"stabilizeonly": 1}) as s:
        php_clauses(s, 12)
        start = time.process_time()
        assert s.solve() is None
        assert time.process_time() - start < 0.25 + STOP_SLACK
    with SatSession(solver, options={"stabilizeonly": 1}) as s:
        php_clauses(s, 5)  # the options leave the answers alone: PHP(5) has no solution
        assert s.solve() is False


def test_unknown_sat_solver_is_rejected():
    with pytest.raises(ValueError, match="unknown SAT solver"):
        SatSession("lingeling")


def test_dimacs_export_has_names_and_solves_by_hand(tmp_path):
    from pysat.formula import CNF
    from pysat.solvers import Solver

    path = tmp_path / "f.cnf"
    with SatSession() as s:
        a, b = s.var("a"), s.var("b")
        s.add([a, b])
        s.add([-a])
        s.write_dimacs(path, units=[b], comment="two variables")
    text = path.read_text()
    assert "c two variables" in text and f"c var {a} a" in text and f"c var {b} b" in text
    cnf = CNF(from_file=str(path))
    assert cnf.nv == 2 and [b] in cnf.clauses
    with Solver(bootstrap_with=cnf.clauses) as solver:
        assert solver.solve() and solver.get_model() == [-a, b]


def test_a_stopped_pools_manager_thread_ends_without_a_traceback(monkeypatch):
    # the manager thread of a pool stopped on purpose may meet killed workers and closed
    # queues; what it raises then is the stop, never "Exception in thread ... Traceback"
    import threading
    from concurrent.futures import ProcessPoolExecutor

    from pyasp_games.engines.processes import stop_pool

    told = []
    monkeypatch.setattr(threading, "excepthook", lambda args: told.append(args.thread))
    pool = ProcessPoolExecutor(max_workers=1)
    pool.submit(abs, -1).result()
    manager = pool._executor_manager_thread
    stop_pool(pool)
    other = threading.Thread(target=lambda: None, name="another")

    def raised(thread):
        try:
            raise ValueError("Queue is closed")
        except ValueError as err:
            threading.excepthook(threading.ExceptHookArgs((ValueError, err, err.__traceback__, thread)))

    raised(manager)
    assert told == []
    raised(other)  # any other thread's exception is told as before
    assert told == [other]


def _where(instance, limits):
    import os

    from pyasp_games.engines.claim import Claim

    return Claim.solved(os.getpid())


def test_only_a_guard_limit_runs_in_the_callers_process(monkeypatch):
    """A long time limit with no CPU or memory limit is a guard (the test suite's
    setting): the backend runs here; a short limit, a memory or CPU limit, or no guard
    setting at all (a user's command): in a forked child that holds the limit."""
    import os

    from pyasp_games.engines import runner

    def pid(limits):
        out = runner.run_backend({"b": _where}, "b", None, "p", limits, lambda i, o: (None, ""))
        return out.answer

    monkeypatch.setattr(runner, "GUARD_SECONDS", 10.0)
    assert pid(Limits(time_limit=30)) == os.getpid()
    assert pid(Limits(time_limit=2)) != os.getpid()
    assert pid(Limits(time_limit=30, memory_limit=2**31)) != os.getpid()
    assert pid(Limits(time_limit=30, cpu_limit=30)) != os.getpid()
    monkeypatch.setattr(runner, "GUARD_SECONDS", None)
    assert pid(Limits(time_limit=30)) != os.getpid()
