"""``pyasp-games reduce``: polynomial reductions as tools, each writing an instance and a map.

Every reduction verb reads a source instance, writes the target instance (to
``-o FILE`` or stdout) and a JSON map (``--map FILE``; default ``FILE.map.json``
next to ``-o FILE``) with which ``reduce back`` turns a solution of the target
into one of the source. Output files are never overwritten without ``--force``.
``reduce chain`` is a question (:data:`pyasp_games.domains.cover.chain.CHAIN`), generated
like every other.

>>> "back" in typer.main.get_command(app).commands
True
"""

from __future__ import annotations

import inspect
import json as jsonlib
from enum import StrEnum
from pathlib import Path
from typing import Any

import typer

from pyasp_games.cli.common import (
    FORCE,
    MEMORY_LIMIT,
    OUTPUT,
    TIME_LIMIT,
    new_file,
    output_option,
    print_json,
    warn,
    write_output,
)
from pyasp_games.cli.questions import add_questions
from pyasp_games.domains import questions_of
from pyasp_games.domains.cover.reductions import PADS
from pyasp_games.errors import InputError

app = typer.Typer(
    help="Reductions between problems (SAT -> 3SAT -> 3DM -> X3C -> the 15-puzzle on a graph), with maps back.",
    no_args_is_help=True,
)
add_questions(app, questions_of("reduce"))


#: How short clauses are padded (the choices of :func:`pyasp_games.domains.cover.reductions.sat_to_3sat`).
Pad = StrEnum("Pad", {pad: pad for pad in PADS})


class Format(StrEnum):
    text = "text"
    json = "json"


MAP = typer.Option(
    None, "--map", help="Write the map back here (default: OUTPUT.map.json when -o is given)."
)
FORMAT = typer.Option(
    None, "--format", help="text or json (default: json when OUTPUT ends in .json, else text)."
)


def _targets(output: Path | None, map_file: Path | None, force: bool) -> Path | None:
    if map_file is None and output is not None:
        map_file = output.with_name(output.name + ".map.json")
    new_file(output, force, "--output")
    new_file(map_file, force, "--map")
    if output is not None and map_file is not None and output.resolve() == map_file.resolve():
        raise InputError("--output and --map name the same file")
    return map_file


def _emit(text: str, back: dict[str, Any], output: Path | None, map_file: Path | None) -> None:
    write_output(text, output)
    if map_file is not None:
        write_output(jsonlib.dumps(back, indent=1) + "\n", map_file)
    elif output is None:
        warn("no map written (give --map FILE to keep the map back)")


AS_JSON = typer.Option(False, "--json", help="Print (or write) the new instance as JSON.")


def _as_json(fmt: Format | None, output: Path | None, json: bool = False) -> bool:
    if json and fmt is Format.text:
        raise InputError("--json and --format text contradict each other")
    if json:
        return True
    if fmt is not None:
        return fmt is Format.json
    return output is not None and output.suffix == ".json"


@app.command("sat-to-3sat")
def sat_to_3sat(
    cnf: Path = typer.Argument(..., help="A DIMACS CNF file."),
    output: Path = OUTPUT,
    map_file: Path = MAP,
    pad: Pad = typer.Option(
        PADS[0],
        "--pad",
        help="Short clauses: fresh variables (Garey-Johnson: three distinct literals) or "
        "repeated literals (l1 v l2 v l2).",
    ),
    force: bool = FORCE,
    json: bool = typer.Option(
        False, "--json", help="Print the new CNF as one JSON object (-o still gets DIMACS)."
    ),
) -> None:
    """Split long clauses with fresh variables and pad short ones: every clause gets 3 literals."""
    from pyasp_games.domains.cover.cnf import format_dimacs, load_cnf
    from pyasp_games.domains.cover.reductions import sat_to_3sat as reduce

    map_file = _targets(output, map_file, force)
    source = load_cnf(cnf)
    target, back = reduce(source, pad.value)
    comment = [f"sat-to-3sat of {cnf.name}: variables 1..{source.num_vars} are the original ones"]
    if not json:
        _emit(format_dimacs(target, comment), back, output, map_file)
        return
    if output is not None:  # the file stays DIMACS, readable by every command
        write_output(format_dimacs(target, comment), output)
    if map_file is not None:
        write_output(jsonlib.dumps(back, indent=1) + "\n", map_file)
    print_json({"type": "cnf", "source": str(cnf), "original_vars": source.num_vars,
                "num_vars": target.num_vars, "clauses": [list(c) for c in target.clauses],
                "output": None if output is None else str(output),
                "map": None if map_file is None else str(map_file),
                **({"map_back": back} if map_file is None else {})})  # fmt: skip


def _instance_reduction(name: str, source: str, source_help: str, doc: str, reduce: Any) -> None:
    """The command ``reduce NAME SOURCE [-o OUTPUT] [--map MAP] [--format F] [--force]
    [--json]`` of a reduction from one instance file to another (``source``: the
    argument's name in the help): ``reduce(source_path)`` gives the target, its map back
    and its formatter ``format(target, as_json)``. One declaration of the options every
    such reduction takes."""

    def command(
        source: Path = typer.Argument(..., help=source_help),
        output: Path = OUTPUT,
        map_file: Path = MAP,
        fmt: Format = FORMAT,
        force: bool = FORCE,
        json: bool = AS_JSON,
    ) -> None:
        map_file = _targets(output, map_file, force)
        target, back, write = reduce(source)
        _emit(write(target, _as_json(fmt, output, json)), back, output, map_file)

    # the argument keeps its own name in the help (``{cnf}``, ``{instance}``)
    signature = inspect.signature(command, eval_str=True)
    params = list(signature.parameters.values())
    params[0] = params[0].replace(name=source)

    def named(**given: Any) -> None:
        command(given.pop(source), **given)

    named.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
    named.__annotations__ = {p.name: p.annotation for p in params}
    named.__doc__ = doc
    app.command(name)(named)


def _threesat_to_3dm(cnf: Path) -> tuple[Any, dict[str, Any], Any]:
    from pyasp_games.domains.cover.cnf import load_cnf
    from pyasp_games.domains.cover.model import format_3dm
    from pyasp_games.domains.cover.reductions import threesat_to_3dm

    return (*threesat_to_3dm(load_cnf(cnf)), format_3dm)


def _threedm_to_x3c(instance: Path) -> tuple[Any, dict[str, Any], Any]:
    from pyasp_games.domains.cover.model import ThreeDM, format_x3c, load_instance
    from pyasp_games.domains.cover.reductions import threedm_to_x3c

    source = load_instance(instance)
    if not isinstance(source, ThreeDM):
        raise InputError(f"{instance}: this is an X3C instance, not a 3DM one")
    return (*threedm_to_x3c(source), format_x3c)


_instance_reduction(
    "3sat-to-3dm", "cnf", "A DIMACS CNF whose clauses have 1 to 3 literals.",
    "Garey-Johnson's 3DM instance (Theorem 3.2): variable rings, clause triples, garbage.",
    _threesat_to_3dm,
)  # fmt: skip
_instance_reduction(
    "3dm-to-x3c", "instance", "A 3DM instance (text or JSON).",
    "The X3C instance over W + X + Y: triple i becomes subset i.",
    _threedm_to_x3c,
)  # fmt: skip


@app.command("x3c-to-puzzle")
def x3c_to_puzzle(
    instance: Path = typer.Argument(..., help="An X3C instance (a 3DM instance is read as X3C)."),
    output: Path = output_option("Write the arrangement here (default: stdout, with the graph)."),
    graph_file: Path = typer.Option(
        None, "--graph", help="Write the graph (edge list) here (default: OUTPUT's name with .graph)."
    ),
    map_file: Path = MAP,
    check: bool = typer.Option(
        False, "--check", help="Decide both sides and compare: the X3C side by dancing links "
        "(a cover's plan replayed), the puzzle within the bound by the routing domain's IDA* "
        "(small puzzles only)."
    ),
    search_vertices: int = typer.Option(
        40, "--search-vertices", help="With --check: search the puzzle only up to this many vertices."
    ),
    force: bool = FORCE,
    json: bool = typer.Option(False, "--json", help="Print the puzzle (and the check) as one JSON object."),
    time_limit: float = TIME_LIMIT,
) -> None:
    """X3C -> the 15-puzzle on a graph (after Goldreich, 1984; a reconstruction, proved in
    docs/cover.md): a cover exists iff the puzzle is solvable within B = 14q moves.

    Writes the arrangement (blank moves, '# graph:' and '# bound:' headers) to -o, the
    graph to --graph (default: next to it) and the map to --map; `routing solve GRAPH
    ARRANGEMENT --max-length B` solves it and `reduce back MAP PLAN` maps a plan within
    the bound back to a cover.
    """
    from pyasp_games.domains.cover.goldreich import check_both_ways
    from pyasp_games.domains.cover.goldreich import x3c_to_puzzle as reduce
    from pyasp_games.domains.cover.model import as_x3c, load_instance
    from pyasp_games.engines.limits import LimitReached, Limits
    from pyasp_games.errors import checked_int

    limits = Limits.given(time_limit)
    search_vertices = checked_int(search_vertices, "--search-vertices", 0, 5_000)
    if graph_file is not None and output is None:
        raise InputError("--graph needs -o: the arrangement names its graph file")
    if output is not None and graph_file is None:
        graph_file = output.with_name(output.stem + ".graph" + output.suffix)
    map_file = _targets(output, map_file, force)
    new_file(graph_file, force, "--graph")
    if graph_file is not None and graph_file.resolve() in {
        p.resolve() for p in (output, map_file) if p is not None
    }:
        raise InputError("--graph names the same file as --output or --map")
    source = as_x3c(load_instance(instance))
    puzzle, back = reduce(source)
    g = puzzle.graph
    sizes = {k: back[k] for k in ("q", "vertices", "edges", "bound")}
    head = [f"# x3c-to-puzzle of {instance.name}: {len(source.subsets)} subsets over "
            f"{source.size} elements; a cover exists iff solvable within the bound"]  # fmt: skip
    if graph_file is not None:
        try:
            ref = graph_file.resolve().relative_to(output.resolve().parent)
        except ValueError:
            ref = graph_file.resolve()
        head.append(f"# graph: {ref}")
    head.append(f"# bound: {back['bound']}")
    arrangement = "\n".join(head) + "\n" + puzzle.format_arrangement()
    report = None
    if check:
        from pyasp_games.engines.enforcement import arm

        arm(limits)  # the whole check: dancing links, then the puzzle's search
        try:
            report = check_both_ways(source, limits, search_vertices)
        except LimitReached:
            warn(f"--check: the time limit ({time_limit} s) was reached")
            raise typer.Exit(3) from None
    if output is not None:
        write_output(g.format_arcs(), graph_file)
        write_output(arrangement, output)
    if map_file is not None:
        write_output(jsonlib.dumps(back, indent=1) + "\n", map_file)
    if json:
        print_json({"type": "sliding-puzzle", "source": str(instance), **sizes,
                    "lower_bound": 12 * source.q, "blank": "hub",
                    "output": None if output is None else str(output),
                    "graph": None if graph_file is None else str(graph_file),
                    "map": None if map_file is None else str(map_file),
                    "edges_list": [[g.names[u], g.names[v]] for u, v in g.edges],
                    "arrangement": {g.names[v]: g.names[t] for v, t in enumerate(puzzle.state) if v != t},
                    **({"check": report} if report is not None else {}),
                    **({"map_back": back} if map_file is None else {})})  # fmt: skip
    elif output is None and not check:
        write_output(f"# the graph ({sizes['vertices']} vertices, {sizes['edges']} edges)\n"
                     + g.format_arcs() + "# the arrangement\n" + arrangement, None)  # fmt: skip
        warn("give -o FILE to write the arrangement and its graph as files 'routing solve' reads")
    elif output is not None:
        warn(f"{sizes['vertices']} vertices, {sizes['edges']} edges, bound {sizes['bound']}: "
             f"written to {output} and {graph_file}")  # fmt: skip
    if report is not None and not json:
        _print_check(report)
    if report is not None and report["agree"] is False:
        raise typer.Exit(1)
    if report is not None and report["puzzle"].get("stopped"):
        raise typer.Exit(3)  # the puzzle's side unknown


def _print_check(report: dict[str, Any]) -> None:
    """The two sides of ``x3c-to-puzzle --check``, said plainly."""
    cover = report["cover"]
    said = ("no exact cover" if cover is None else "a cover: subsets " + " ".join(map(str, cover))
            if cover else "the empty cover (no elements)")  # fmt: skip
    lines = [f"x3c: {said} (dancing links)"]
    plan = report.get("cover_plan")
    if plan:
        lines.append(f"  the cover's plan: {plan['moves']} moves (bound {report['bound']}); "
                     f"{'replayed: ' + plan['message'] if plan['replayed'] else 'REPLAY FAILED: ' + plan['message']}; "
                     f"{'maps back to the cover' if plan['maps_back'] else 'DOES NOT MAP BACK'}")  # fmt: skip
    puzzle = report["puzzle"]
    if puzzle["searched"] and not puzzle.get("stopped"):
        if puzzle["within_bound"]:
            lines.append(f"puzzle: a plan of {puzzle['moves']} moves within the bound {report['bound']} "
                         f"(IDA*, {puzzle['nodes']:,} nodes; optimal), replayed, maps back to subsets "
                         + " ".join(map(str, puzzle["mapped_cover"]))
                         + (" (an exact cover)" if puzzle["mapped_exact"] else " (NOT an exact cover)"))  # fmt: skip
        else:
            lines.append(f"puzzle: no plan within the bound {report['bound']} (IDA*, every budget up to "
                         f"{report['bound']} exhausted, {puzzle['nodes']:,} nodes)")  # fmt: skip
        lines.append("the two sides agree" if report["agree"] else "THE TWO SIDES DISAGREE")
    elif puzzle.get("stopped"):
        lines.append(f"puzzle: unknown ({puzzle['stopped']} before IDA* was done)")
    else:
        lines.append(f"puzzle: not searched ({puzzle['why']})")
    print("\n".join(lines))


@app.command("back")
def back(
    map_file: Path = typer.Argument(..., help="A map written by a reduction."),
    solution: Path = typer.Argument(
        ...,
        help="JSON: a cover/matching (list of indices), an assignment {var: bool}, or a '--json' outcome.",
    ),
    json: bool = typer.Option(
        False, "--json", help="The result is always one JSON object (accepted like everywhere)."
    ),
) -> None:
    """Map a solution of a reduction's target back to its source (printed as JSON)."""
    from pyasp_games.domains.cover.reductions import map_back
    from pyasp_games.engines.files import read_json

    maps = read_json(map_file)
    value = read_json(solution)
    if isinstance(value, dict) and "witness" in value and "status" in value:
        value = value["witness"]
        if isinstance(value, dict) and "assignment" in value:
            value = value["assignment"]
    print_json(map_back(maps, value))


from pyasp_games.cli.geography import geography_to_qbf, qbf_to_geography  # noqa: E402 (kept in its domain)

app.command("qbf-to-geography")(qbf_to_geography)
app.command("geography-to-qbf")(geography_to_qbf)


@app.command("circuit-to-grundy")
def circuit_to_grundy(
    circuit: Path = typer.Argument(
        ..., help="A circuit file: 'input NAME...', 'WIRE = and|or|not ARGS' per gate, 'output WIRE'."
    ),
    inputs: str = typer.Option(None, "--inputs", help="The inputs' values in order, e.g. 1,0,1 (required)."),
    output: Path = OUTPUT,
    force: bool = FORCE,
    json: bool = typer.Option(
        False, "--json", help="Print the graph as one JSON object (-o still gets the arc list)."
    ),
) -> None:
    """CIRCUIT VALUE -> Grundy value (the lecture notes' gadgets): the game graph whose
    Grundy value at the output's vertex is the circuit's value.

    The graph is an arc list whose header '# output:' names the output's vertex, so
    `pyasp-games grundy values GRAPH --position OUT` answers it; `grundy circuit` does
    both and compares. (A decision reduction: nothing to map back, hence no --map.)
    """
    import sys

    from pyasp_games.domains.grundy.circuits import read_circuit_value, reduce_circuit

    new_file(output, force, "--output")
    instance = read_circuit_value(circuit, inputs)
    graph, _ = reduce_circuit(instance.circuit, instance.inputs)
    given = ",".join(f"{w}={v}" for w, v in zip(instance.circuit.inputs, instance.inputs, strict=True))
    graph.headers = {"reduced-from": f"{circuit.name} with {given}", **graph.headers}
    text = graph.format_arcs()
    if output is not None:
        write_output(text, output)
    if json:
        print_json({**graph.headers, "circuit": str(circuit), "vertices": list(graph.names),
                    "arcs": [[graph.names[u], graph.names[v]] for u, v in graph.arcs()],
                    "output_file": None if output is None else str(output)})  # fmt: skip
    elif output is None:
        sys.stdout.write(text)


@app.command("machine-to-sat")
def machine_to_sat(
    machine: Path = typer.Argument(..., help="A machine file (TOML: docs/machine.md)."),
    word: str = typer.Argument("", help="The input word ('-' or nothing: the empty word)."),
    steps: int = typer.Option(..., "--steps", "-t", help="The bound on the steps T."),
    output: Path = OUTPUT,
    asp: bool = typer.Option(
        False, "--asp", help="Write the ASP program (facts and the tableau encoding) instead."
    ),
    force: bool = FORCE,
    json: bool = typer.Option(False, "--json", help="Print the sizes as one JSON object."),
    time_limit: float = TIME_LIMIT,
    memory_limit: float = MEMORY_LIMIT,
) -> None:
    """Cook-Levin: the CNF (DIMACS) satisfiable iff the machine accepts the word within T
    steps; its models are the accepting runs (the variables are named in its comments)."""
    from pyasp_games.domains.machine.model import read_task
    from pyasp_games.engines.enforcement import arm
    from pyasp_games.engines.limits import Limits
    from pyasp_games.engines.sat_runner import SatSession

    limits = Limits.given(time_limit, memory_megabytes=memory_limit)
    new_file(output, force, "--output")
    arm(limits)  # the whole command: building a large CNF takes its time
    task = read_task(machine, word, steps)
    if asp:
        from pyasp_games.domains.machine.asp import DOMAIN, facts
        from pyasp_games.domains.machine.sat import refuse_alternating
        from pyasp_games.engines.resources import encoding_path

        refuse_alternating(task.machine, "the Cook-Levin program")
        text = facts(task)
        program = encoding_path(DOMAIN, "tableau")
        about = f"Cook-Levin program: does {task.machine.name} accept {task.word!r} within {task.steps} steps?"
        if output is not None:  # the one writer of programs, its header says how to run it
            from pyasp_games.engines.clingo_runner import write_facts

            write_facts(output, text, [program], about, notes=["one answer set per accepting run"])
        else:
            write_output(f"% {about}\n#include \"{program}\".\n" + text, None)
        sizes = {"facts": text.count("\n")}
    else:
        import tempfile

        from pyasp_games.domains.machine.sat import cnf_comment, cook_levin

        with SatSession("glucose4") as s, tempfile.TemporaryDirectory() as folder:
            sizes = cook_levin(task, s)
            path = Path(folder) / "cnf"
            s.write_dimacs(path, comment=cnf_comment(task))
            write_output(path.read_text(), output)
    if json:
        print_json({"machine": str(machine), "word": task.word, "steps": task.steps,
                    "format": "asp" if asp else "dimacs", **sizes,
                    "output": None if output is None else str(output)})  # fmt: skip
    elif output is not None:
        warn(", ".join(f"{k} {v:,}" for k, v in sizes.items()) + f": written to {output}")
