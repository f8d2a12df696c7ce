"""Checkers against their searches: for every declared question of every domain, the
CPU of the backend's solve beside the CPU of the checker on its answer (issue 46).

Each case is one command (a representative instance of the question, its default
backend unless said) run with ``--json`` inside a fresh Python process, by the command
line itself (``cli.main``, in that process: the backend runs there, no time limit, so no
child process); then the saved answer is checked again there, alone, as ``pyasp-games
verify ANSWER.json`` does (:func:`pyasp_games.tools.saved.recheck`). Solve CPU: the
runner's ``stats["cpu_seconds"]`` (the backend and any process it started); check CPU:
this process's CPU and its children's around the checker's run on the saved answer
(:func:`~pyasp_games.engines.runner.judged`: not the instance read again; imports the
backend already made are not counted again, as in the command, whose checker runs after
its backend).

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
#: the way ``fuzz`` writes its instances, and the words that give it to the command).
CASES: list[tuple[str, list[str]]] = [
    ("puzzle check", ["puzzle", "check", "instances/puzzle/korf100.txt"]),
    ("puzzle solve", ["puzzle", "solve", "instances/puzzle/eight-puzzle-hardest.txt"]),
    ("puzzle permutation", ["puzzle", "permutation", "[2,9,5,6,3,4,7,1,8]", "--compose", "(1 2 8 9)(3 5)(4 6)"]),
    ("puzzle search", ["puzzle", "search", "instances/puzzle/search/thesis-toy-graph.txt", "--heuristic",
                       "instances/puzzle/search/thesis-toy-heuristic.txt"]),
    ("grundy values", ["grundy", "values", "instances/grundy/subtraction-123.txt"]),
    ("grundy sum", ["grundy", "sum", "instances/grundy/subtraction-123.txt:h5", "instances/grundy/subtraction-123.txt:h7"]),
    ("grundy exists", ["grundy", "exists", "@grundy:random:n=50000,seed=0,sinks=0.1"]),
    ("grundy kernel", ["grundy", "kernel", "@grundy:random:n=50000,seed=1,sinks=0.1"]),
    ("grundy loopy", ["grundy", "loopy", "@grundy:random:n=50000,seed=2,sinks=0.1"]),
    ("grundy circuit", ["grundy", "circuit", "instances/grundy/circuits/circuit-example.txt", "--inputs", "1,1,1"]),
    ("grundy outcomes", ["grundy", "outcomes", "@grundy:random:n=50000,seed=3,sinks=0.1", "--misere"]),
    ("cover solve", ["cover", "solve", "instances/cover/regular-q30-d5-planted.txt"]),
    ("geography solve", ["geography", "solve", "@geography:random:n=60,seed=0"]),
    ("routing solve", ["routing", "solve", "grid:3x3", "instances/routing/grid3x3-blank5.txt"]),
    ("routing number", ["routing", "number", "cycle:6"]),
    ("routing check", ["routing", "check", "grid:2x3", "instances/routing/grid2x3-blank-unsolvable.txt"]),
    ("zerosum solve", ["zerosum", "solve", "@zerosum:matrix:rows=100,seed=0"]),
    ("zerosum saddle", ["zerosum", "saddle", "@zerosum:matrix:rows=500,seed=1"]),
    ("zerosum reduce", ["zerosum", "reduce", "@zerosum:matrix:rows=20,seed=2"]),
    ("zerosum stochastic", ["zerosum", "stochastic", "instances/zerosum/recursive-seed.json", "-n", "9"]),
    ("kriegspiel solve", ["kriegspiel", "solve", "@kriegspiel:start:rows=5,seed=0"]),
    ("kriegspiel table", ["kriegspiel", "table", "--board", "4x4"]),
    ("kayles value", ["kayles", "value", "@kayles:random:n=40,degree=4,seed=0"]),
    ("kayles sequence", ["kayles", "sequence", "grid:3", "--upto", "9"]),
    ("annihilation solve", ["annihilation", "solve", "@annihilation:random:n=30,seed=0,tokens=5"]),
    ("catch solve", ["catch", "solve", "@catch:random:n=16,seed=0"]),
    ("cops solve", ["cops", "solve", "@cops:random:n=30,seed=0,cops=2"]),
    ("cops number", ["cops", "number", "petersen"]),
    ("hex solve", ["hex", "solve", "@hex:random:size=5,stones=2,seed=0"]),
    ("hex openings", ["hex", "openings", "--board", "4x4"]),
    ("machine run", ["machine", "run", "instances/machine/palindrome.toml", "010", "--steps", "12"]),
    ("machine accepts", ["machine", "accepts", "@machine:random:seed=0,states=5,length=8,steps=24"]),
    ("machine savitch", ["machine", "savitch", "instances/machine/third-last.toml", "0100"]),
    ("machine alt", ["machine", "alt", "instances/machine/walk.toml", "aa", "--steps", "3"]),
    ("ssat solve", ["ssat", "solve", "@ssat:random:seed=0,n=22,m=60"]),
    ("ip qbf", ["ip", "qbf", "@ip:random:seed=0,n=10,m=20"]),
    ("ip gni", ["ip", "gni", "instances/ip/c4.txt", "instances/ip/paw.txt"]),
    ("ip reach", ["ip", "reach", "instances/ip/machine.txt"]),
]  # fmt: skip

#: Why a check costs more than its solve, where it does (see RESULTS.md).
REASONS: dict[str, str] = {}


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def one(argv: list[str]) -> dict:
    """Run one command in this process and check its saved answer again: the figures."""
    from pyasp_games.cli import main
    from pyasp_games.domains import find_command
    from pyasp_games.engines import runner
    from pyasp_games.tools.saved import recheck

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main([*argv, "--json"], enforce=False)
    data = json.loads(out.getvalue().splitlines()[0])
    spent: list[float] = []
    judged = runner.judged

    def timed(*args: object, **kwargs: object) -> object:  # the checker alone, not the re-reading
        started = _cpu()
        try:
            return judged(*args, **kwargs)
        finally:
            spent.append(_cpu() - started)

    runner.judged = timed
    try:
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
            "check": round(check, 4), "verified": said, "size": len(out.getvalue())}  # fmt: skip


def _words(argv: list[str], folder: Path) -> list[str]:
    """The command line with its generated instance written into ``folder``."""
    from pyasp_games.domains import domain_spec

    out = []
    for word in argv:
        if not word.startswith("@"):
            out.append(word)
            continue
        domain, generator, given = word[1:].split(":")
        params = {k: _number(v) for k, v in (kv.split("=") for kv in given.split(","))}
        spec = domain_spec(domain)
        instance = spec.generators[generator](**params)
        file = folder / f"{domain}-{generator}-{given.replace(',', '-').replace('=', '')}.txt"
        file.write_text(spec.fuzzing.write(instance))
        out += spec.fuzzing.command_words(instance, str(file))
    return out


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
    print("| question | command | backend | solve CPU s | check CPU s | check / solve | verified | JSON bytes | reason |")
    print("|---|---|---|---|---|---|---|---|---|")
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
        print(f"| {label} | `pyasp-games {shown}` | {r['backend']} | {solve:.3f} | {check:.3f} | {ratio} | "
              f"{r['verified']} | {r['size']:,} | {REASONS.get(label, '')} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
