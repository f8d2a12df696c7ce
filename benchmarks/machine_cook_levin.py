"""Machines as games: the Cook-Levin CNF's size against T and |w|, and the time of the
simulator, the CNF (built and solved by PySAT), the program (clingo), the least
fixpoint, Savitch's game and ALT(w) on the bundled machines.

Run from the repository root: ``python benchmarks/machine_cook_levin.py`` (prints the
Markdown tables of benchmarks/RESULTS.md, section "Machines as games"). Each backend is
called directly (no child process): wall and CPU seconds of this process.
"""

from __future__ import annotations

import time

from pyasp_games.domains.machine.alt import solve_alt
from pyasp_games.domains.machine.asp import solve_asp, solve_fixpoint
from pyasp_games.domains.machine.model import Task, load_machine
from pyasp_games.domains.machine.native import simulate
from pyasp_games.domains.machine.sat import solve_sat
from pyasp_games.domains.machine.savitch import read_savitch, solve_savitch, solve_savitch_asp
from pyasp_games.engines.resources import instance_dir


def timed(fn, *args, **kw):
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn(*args, **kw)
    return out, time.perf_counter() - wall, time.process_time() - cpu


def cook_levin() -> None:
    print("| machine | word | T | answer | variables | clauses | sat wall (CPU) s | asp wall (CPU) s | fixpoint s | simulator s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    cases = [("palindrome", w, t) for w in ("0110", "01100110") for t in (10, 20, 40, 80)]
    cases += [("third-last", w, t) for w in ("0100", "01001101") for t in (10, 20, 40, 80)]
    cases += [("third-last", "0" * 16 + "100", t) for t in (20, 40, 80)]
    for name, word, steps in cases:
        task = Task(load_machine(instance_dir("machine") / f"{name}.toml"), word, steps)
        sim, sw, _ = timed(simulate, task)
        sat, tw, tc = timed(solve_sat, task)
        asp, aw, ac = timed(solve_asp, task)
        fix, fw, _ = timed(solve_fixpoint, task)
        assert sim.answer == sat.answer == asp.answer == fix.answer, (name, word, steps)
        cnf = sat.stats
        print(f"| {name} | {word} | {steps} | {'accepts' if sim.answer else 'no'} | "
              f"{cnf['cnf_variables']:,} | {cnf['cnf_clauses']:,} | {tw:.2f} ({tc:.2f}) | "
              f"{aw:.2f} ({ac:.2f}) | {fw:.3f} | {sw:.4f} |")


def games() -> None:
    print()
    print("| game | machine | word | bound | answer | size | native wall s | asp wall s |")
    print("|---|---|---|---|---|---|---|---|")
    for name, word in (("third-last", "0100"), ("palindrome", "0110"), ("palindrome", "01100110")):
        task = read_savitch(instance_dir("machine") / f"{name}.toml", word)
        nat, nw, _ = timed(solve_savitch, task)
        asp, aw, _ = timed(solve_savitch_asp, task)
        assert nat.answer == asp.answer
        w = nat.witness
        print(f"| Savitch | {name} | {word} | T = {task.steps:,}, S = {task.space} | {nat.answer} | "
              f"{w['rounds']} rounds, {w['reachable']} reachable, {w['pairs_evaluated']} (A, L) pairs | "
              f"{nw:.3f} | {aw:.3f} |")
    for name, word, steps in (("palindrome", "0110", 20), ("palindrome", "01100110", 60), ("increment", "1111111", 20)):
        task = Task(load_machine(instance_dir("machine") / f"{name}.toml"), word, steps)
        for challenge in (2, 1):
            out, ow, _ = timed(solve_alt, task, challenge=challenge)
            w = out.witness
            print(f"| ALT(w), s in -{challenge}..{challenge} | {name} | {word} | T = {steps} | {out.answer} | "
                  f"{w['cells']:,} cells x times, {w['claims_won']:,} claims won, {w['windows']:,} windows | "
                  f"{ow:.3f} | - |")


if __name__ == "__main__":
    cook_levin()
    games()
