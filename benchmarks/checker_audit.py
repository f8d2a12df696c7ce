"""Checkers against their searches: for every declared question of every domain, the
CPU of the backend's solve beside the CPU of the checker on its answer (issue 46).

Each case is one command (a representative instance of the question, its default
backend) run with ``--json`` inside a fresh Python process, by the command line itself
(``cli.main``, in that process: the backend runs there, no time limit, so no child
process); then the saved answer is checked again there, alone, as ``pyasp-games verify
ANSWER.json`` does (:func:`pyasp_games.tools.saved.recheck`). Solve CPU: the runner's
``stats["cpu_seconds"]`` (the backend and any process it started); check CPU: this
process's CPU and its children's inside the command's checker
(:func:`~pyasp_games.engines.runner.judged`, after the backend, as the user waits for
it); verify CPU: the same around the checker's run on the saved answer (not the
instance read again).

    python benchmarks/checker_audit.py                 # every case, the markdown table
    python benchmarks/checker_audit.py --only kayles   # the cases whose label starts so

Rows whose check costs more than its solve carry the reason in ``REASONS``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: (question, command line): one representative instance each. A word ``@DOMAIN:GENERATOR:K=V,...``
#: stands for the generated instance (the domain's bench generator, written as a file
#: the way ``fuzz`` writes its instances, and the words that give it to the command);
#: ``@dag:acyclic:n=N,seed=S[:START]``: a random acyclic digraph (:func:`_dag`).
CASES: list[tuple[str, list[str]]] = [
    ("puzzle check", ["puzzle", "check", "instances/puzzle/korf100.txt"]),
    ("puzzle solve", ["puzzle", "solve", "instances/puzzle/eight-puzzle-hardest.txt"]),
    ("puzzle permutation", ["puzzle", "permutation", "[2,9,5,6,3,4,7,1,8]", "--compose", "(1 2 8 9)(3 5)(4 6)"]),
    ("puzzle search", ["puzzle", "search", "instances/puzzle/search/thesis-toy-graph.txt", "--heuristic",
                       "instances/puzzle/search/thesis-toy-heuristic.txt"]),
    ("grundy values", ["grundy", "values", "@dag:acyclic:n=50000,seed=0"]),
    ("grundy sum", ["grundy", "sum", "@dag:acyclic:n=50000,seed=1:v0", "@dag:acyclic:n=50000,seed=2:v0"]),
    ("grundy exists", ["grundy", "exists", "@grundy:random:n=50000,seed=0,sinks=0.3"]),
    ("grundy kernel", ["grundy", "kernel", "@grundy:random:n=50000,seed=1,sinks=0.1"]),
    ("grundy loopy", ["grundy", "loopy", "@grundy:random:n=50000,seed=2,sinks=0.1"]),
    ("grundy circuit", ["grundy", "circuit", "instances/grundy/circuits/circuit-example.txt", "--inputs", "1,1,1"]),
    ("grundy outcomes", ["grundy", "outcomes", "@grundy:random:n=50000,seed=3,sinks=0.1", "--misere"]),
    ("cover solve", ["cover", "solve", "instances/cover/regular-q30-d5-planted.txt"]),
    ("geography solve", ["geography", "solve", "@geography:random:n=30,seed=0,degree=4.0"]),
    ("routing solve", ["routing", "solve", "grid:3x3", "instances/routing/grid3x3-blank5.txt"]),
    ("routing number", ["routing", "number", "cycle:6"]),
    ("routing check", ["routing", "check", "grid:2x3", "instances/routing/grid2x3-blank-unsolvable.txt"]),
    ("zerosum solve", ["zerosum", "solve", "@zerosum:matrix:rows=100,seed=0"]),
    ("zerosum saddle", ["zerosum", "saddle", "@zerosum:matrix:rows=500,seed=1"]),
    ("zerosum reduce", ["zerosum", "reduce", "@zerosum:matrix:rows=20,seed=2"]),
    ("zerosum stochastic", ["zerosum", "stochastic", "instances/zerosum/recursive-seed.json", "-n", "9"]),
    ("kriegspiel solve", ["kriegspiel", "solve", "@kriegspiel:start:rows=6,seed=0"]),
    ("kriegspiel table", ["kriegspiel", "table", "--board", "5x5"]),
    ("kayles value", ["kayles", "value", "@kayles:random:n=40,degree=4,seed=0"]),
    ("kayles sequence", ["kayles", "sequence", "grid:3", "--upto", "9"]),
    ("annihilation solve", ["annihilation", "solve", "@annihilation:random:n=30,seed=0,tokens=6"]),
    ("catch solve", ["catch", "solve", "@catch:random:n=80,seed=0,red=3,black=3"]),
    ("cops solve", ["cops", "solve", "@cops:random:n=30,seed=0,cops=2"]),
    ("cops number", ["cops", "number", "petersen"]),
    ("hex solve", ["hex", "solve", "@hex:random:size=5,stones=0,seed=0"]),
    ("hex openings", ["hex", "openings", "--board", "4x4"]),
    ("machine run", ["machine", "run", "instances/machine/palindrome.toml", "010", "--steps", "12"]),
    ("machine accepts", ["machine", "accepts", "@machine:random:seed=1,states=6,length=10,steps=40,transitions=14"]),
    ("machine savitch", ["machine", "savitch", "instances/machine/third-last.toml", "0100"]),
    ("machine alt", ["machine", "alt", "instances/machine/walk.toml", "aa", "--steps", "3"]),
    ("ssat solve", ["ssat", "solve", "@ssat:random:seed=0,n=22,m=60"]),
    ("ip qbf", ["ip", "qbf", "@ip:random:seed=0,n=10,m=20"]),
    ("ip gni", ["ip", "gni", "instances/ip/c4.txt", "instances/ip/paw.txt"]),
    ("ip reach", ["ip", "reach", "instances/ip/machine.txt"]),
]  # fmt: skip

#: Why a check costs more than its solve, where it does or may (see RESULTS.md).
REASONS: dict[str, str] = {
    "puzzle check": "both under 10 ms (a parity each); the check's first look-ups are imports",
    "puzzle permutation": "both under 1 ms",
    "puzzle search": "a 7-node graph: the check's cost is importing networkx (its independent Dijkstra), once",
    "grundy loopy": "by design a second method: besides Smith's conditions with the counter (the certificate), "
                    "the classes are compared with an independent retrograde labelling, linear like the solve",
    "grundy circuit": "both under 1 ms",
    "zerosum saddle": "that the list of saddle points is complete needs every entry: the solve's own scan",
    "kriegspiel table": "the checker's compiled kernels loaded once in the command (numba and their cached "
                        "code: the command's check less the saved answer's, about 0.6 s); on the saved answer, "
                        "loaded: about 1x, the retrograde equation confirmed at every metaposition of the table",
    "annihilation solve": "no certificate: the checker explores the reachable positions with its own move "
                          "generator (the solve's main cost too) and takes the greatest safe set",
    "catch solve": "as annihilation: its own exploration of every reachable position; a table of labels "
                   "would still need every position's moves generated to be checked",
    "machine run": "both under 1 ms",
    "machine accepts": "both under 1 ms",
    "machine alt": "both under 1 ms",
    "ssat solve": "dpll's table of every position met, each position's clauses derived from its parent's and "
                  "its value recomputed exactly (fractions): one step per position, as the solve",
}  # fmt: skip


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def one(argv: list[str]) -> dict:
    """Run one command in this process and check its saved answer again: the figures."""
    from pyasp_games.cli import main
    from pyasp_games.domains import find_command
    from pyasp_games.engines import runner
    from pyasp_games.tools.saved import recheck

    spent: list[float] = []
    judged = runner.judged

    def timed(*args: object, **kwargs: object) -> object:  # the checker alone, not the reading
        started = _cpu()
        try:
            return judged(*args, **kwargs)
        finally:
            spent.append(_cpu() - started)

    out = io.StringIO()
    runner.judged = timed
    try:
        with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
            main([*argv, "--json"], enforce=False)
        data = json.loads(out.getvalue().splitlines()[0])
        in_command = sum(spent)
        spent.clear()
        if data.get("input") and not any(p.to == "read" and not p.flags for p in find_command(data["question"]).params):
            question = find_command(data["question"])  # no instance argument (a board given by flags)
            again = question.recheck(question.read(**data["input"]), data)
        else:
            _, again = recheck(data, base=ROOT)
    finally:
        runner.judged = judged
    check = sum(spent)
    verdict = again.verdict
    said = "in part" if verdict.in_part else {True: "yes", False: "REFUTED", None: "nothing to check"}[verdict.verified]
    return {"backend": data["backend"], "status": data["status"], "solve": data["stats"].get("cpu_seconds"),
            "check": round(in_command, 4), "again": round(check, 4), "verified": said, "size": len(out.getvalue())}  # fmt: skip


def _words(argv: list[str], folder: Path) -> list[str]:
    """The command line with its generated instance written into ``folder``."""
    from pyasp_games.domains import domain_spec

    out = []
    for word in argv:
        if not word.startswith("@"):
            out.append(word)
            continue
        domain, generator, given, *start = word[1:].split(":")
        params = {k: _number(v) for k, v in (kv.split("=") for kv in given.split(","))}
        if domain == "dag":  # an acyclic digraph: arcs from each vertex to later ones
            file = folder / f"dag-{given.replace(',', '-').replace('=', '')}.txt"
            file.write_text(_dag(**params))
            out.append(f"{file}:{start[0]}" if start else str(file))
            continue
        spec = domain_spec(domain)
        instance = spec.generators[generator](**params)
        file = folder / f"{domain}-{generator}-{given.replace(',', '-').replace('=', '')}.txt"
        file.write_text(spec.fuzzing.write(instance))
        out += spec.fuzzing.command_words(instance, str(file))
    return out


def _dag(n: int, seed: int) -> str:
    """A random acyclic digraph of ``n`` vertices, about 3 arcs each (every arc to a
    later vertex), as an arc list."""
    import random

    rng = random.Random(seed)
    arcs = [f"v{u} v{v}" for u in range(n - 1) for v in {rng.randrange(u + 1, n) for _ in range(3)}]
    return "\n".join(arcs) + "\n"


def _number(text: str) -> int | float:
    return float(text) if "." in text else int(text)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", default="", help="the cases whose question starts so")
    p.add_argument("--timeout", type=float, default=300.0, help="wall seconds a case may take")
    p.add_argument("--one", type=int, default=None, help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.one is not None:
        with tempfile.TemporaryDirectory() as folder:
            print(json.dumps(one(_words(CASES[a.one][1], Path(folder)))))
        return
    print("| question | command | backend | solve CPU s | check CPU s | check / solve | verify CPU s | verified | JSON bytes | reason |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for i, (label, argv) in enumerate(CASES):
        if not any(label.startswith(x) for x in a.only.split(",")):
            continue
        try:
            run = subprocess.run([sys.executable, __file__, "--one", str(i)], cwd=ROOT, capture_output=True,
                                 text=True, timeout=a.timeout)  # fmt: skip
        except subprocess.TimeoutExpired:
            print(f"| {label} | `{' '.join(argv)}` | over {a.timeout:g} s |", flush=True)
            continue
        if run.returncode != 0:
            print(f"| {label} | `{' '.join(argv)}` | failed: {run.stderr.strip().splitlines()[-1:]} |", flush=True)
            continue
        r = json.loads(run.stdout.strip().splitlines()[-1])
        solve, check = r["solve"], r["check"]
        ratio = f"{check / solve:.2f}" if solve else "-"
        shown = " ".join(f"'{x}'" if " " in x or "(" in x else x for x in argv)
        print(f"| {label} | `pyasp-games {shown}` | {r['backend']} | {solve:.3f} | {check:.3f} | {ratio} | {r['again']:.3f} | "
              f"{r['verified']} | {r['size']:,} | {REASONS.get(label, '')} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
