"""``pyasp-games geography``: Generalized Geography (vertex/edge, directed/undirected), its
questions generated from :data:`pyasp_games.domains.geography.questions.QUESTIONS`.

``pyasp-games geography solve GRAPH [--start S] --backend native|asp|matching [--json]``;
``geography play GRAPH`` plays against you; ``qbf_to_geography`` is the conversion
``pyasp-games reduce qbf-to-geography`` runs.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Any

import typer

from pyasp_games.cli.common import (
    FORCE,
    JSON,
    OUTPUT,
    TIME_LIMIT,
    answered,
    new_file,
    output_option,
    print_json,
    write_output,
)
from pyasp_games.cli.questions import domain_group, input_command
from pyasp_games.domains.geography.model import VARIANTS, Geography
from pyasp_games.domains.geography.questions import SOLVE, read_game

#: The domain's questions (generated), and below the commands that are none.
app = domain_group("geography")

#: The Geography variants (:data:`pyasp_games.domains.geography.model.VARIANTS`) as choices.
Variant = StrEnum("Variant", {v: v for v in VARIANTS})


def qbf_to_geography(
    qbf: Path = typer.Argument(
        ..., help="A QDIMACS file: 'p cnf V C', quantifier lines 'e ... 0'/'a ... 0', clauses."
    ),
    output: Path = output_option("Write the graph here (default: stdout)."),
    variant: Variant = typer.Option(
        "vertex", "--variant", help="The Geography variant the graph is built for."
    ),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing output file."),
    json: bool = typer.Option(
        False, "--json", help="Print the graph as one JSON object (-o still gets the arc list)."
    ),
) -> None:
    """The TQBF -> Geography construction (Schaefer): the first player wins iff the QBF is true.

    The graph is an arc list whose header names the start vertex and the variant, so
    `pyasp-games geography solve GRAPH` answers it directly. (A decision reduction:
    there is no solution to map back, hence no --map.)
    """
    import sys

    from pyasp_games.domains.geography.tqbf import read_qdimacs, to_geography

    new_file(output, force, "--output")
    graph = to_geography(read_qdimacs(qbf), Variant(variant).value)
    text = graph.format_arcs()
    if output is not None:
        write_output(text, output)
    if json:
        print_json({**graph.headers, "qbf": str(qbf), "vertices": list(graph.names),
                    "arcs": [[graph.names[u], graph.names[v]] for u, v in graph.arcs()],
                    "output": None if output is None else str(output)})  # fmt: skip
    elif output is None:
        sys.stdout.write(text)


def geography_to_qbf(
    graph: Path = typer.Argument(
        ..., help="A Geography graph (arc list with '# start:', or .adjlist, .graphml, .json)."
    ),
    start: str = typer.Option(None, "--start", "-s", help="The start vertex (default: the file's '# start:')."),
    variant: Variant = typer.Option(
        None, "--variant", help="vertex or edge geography (default: the file's '# variant:', else vertex)."
    ),
    undirected: bool = typer.Option(False, "--undirected", help="Every line 'u v' is an edge usable both ways."),
    output: Path = output_option("Write the QDIMACS here (default: stdout)."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing output file."),
    json: bool = typer.Option(
        False, "--json", help="Print the sizes as one JSON object (-o still gets the QDIMACS)."
    ),
) -> None:
    """The Geography -> TQBF encoding: a QDIMACS formula, one block of variables per move,
    true exactly when the first player wins (vertex or edge geography).

    Move i is the vertex entered, in binary; the first player's moves are existential, the
    second's universal; the clauses say the first illegal move is the second player's.
    `reduce qbf-to-geography` turns the formula back into a Geography graph (Schaefer).
    """
    from pyasp_games.domains.geography.tqbf import game_to_qbf

    new_file(output, force, "--output")
    game = read_game(graph, start, None if variant is None else Variant(variant).value, undirected)
    succ = [[w for w, _ in moves] for moves in game.moves]
    q = game_to_qbf(succ, game.start, game.variant, game.directed, list(game.names))
    text = q.qdimacs()
    if output is not None:
        write_output(text, output)
    if json:
        print_json({"graph": str(graph), "variant": game.variant, "moves": q.moves, "bits": q.bits,
                    "variables": q.variables, "clauses": len(q.clauses),
                    "vertices": q.vertices, "output": None if output is None else str(output)})  # fmt: skip
    elif output is None:
        sys.stdout.write(text)


#: How ``geography planarize`` redraws a game (:data:`ROUTES`).
Route = StrEnum("Route", {r: r for r in ("auto", "drawing", "strategy", "unfold", "challenge", "qbf")})

#: The most vertices ``--route auto`` lets the strategy and the unfolding write before the
#: next route.
AUTO_UNFOLDED = 100_000

#: The most positions ``--check`` walks to certify the challenged game's result (about
#: half a million a CPU second here: up to some 15 minutes; ``--time-limit`` bounds it):
#: the walk keeps one used-array, so its memory does not grow with the count.
CHALLENGED_WALK = 500_000_000

#: The most vertices the challenged game's planar result may have (about 9 per crossing):
#: beyond it the route refuses (``auto`` then tries the QBF route).
CHALLENGED_VERTICES = 6_000_000
#: the strategy route's results up to this size are certified by the native search's proof;
#: larger ones by their own strategy walked on them (verify.check_strategy_function)
NATIVE_CERTIFIED = 20_000


def planarize(
    graph: Path = typer.Argument(
        ..., help="A Geography graph (arc list with '# start:', or .adjlist, .graphml, .json)."
    ),
    start: str = typer.Option(None, "--start", "-s", help="The start vertex (default: the file's '# start:')."),
    variant: Variant = typer.Option(
        None, "--variant", help="vertex or edge geography (default: the file's '# variant:', else vertex)."
    ),
    undirected: bool = typer.Option(False, "--undirected", help="Every line 'u v' is an edge usable both ways."),
    route: Route = typer.Option(
        "auto", "--route",
        help="drawing: crossing gadgets on a drawing of the game (vertex geography; directed edge "
        "geography through its line digraph; refused when "
        "every drawing tried has a crossing one play uses twice); qbf: Geography -> TQBF -> "
        "Schaefer's graph drawn with every crossing used once at most (every game; large); "
        "unfold: the first moves written out as positions (isomorphic ones merged; a tree, or rows "
        "shared by merged positions) until the game left is drawable (every game; not polynomial); "
        "strategy: the game solved, then only the winner's strategy written out (one winning move "
        "per won position, every move of a lost one; every game the native search solves; small; "
        "not a reduction: it needs the answer first, so only when asked for); "
        "challenge: the challenged game (every illegal move challenged at once; every game, "
        "polynomial, drawn as a book whose crossings are proved safe; with --check its winner is "
        "certified on the result by the game's strategy carried over); "
        "auto: the drawing, else the unfolding (up to 100,000 vertices), else the challenged "
        "game, else the QBF route.",
    ),
    check: bool = typer.Option(
        False, "--check", help="Also solve both games (native) and compare the winners, within the time "
        "limit (the challenged game: the game solved, its strategy carried over to the result and "
        "checked there by an exhaustive walk over the loser's replies)."
    ),
    output: Path = OUTPUT,
    force: bool = FORCE,
    time_limit: float = TIME_LIMIT,
    json: bool = JSON,
) -> None:
    """Redraw the game as a planar digraph with the same winner (the notes' planar Geography).

    The drawing route replaces crossing arcs by a crossing gadget; the winner is kept exactly
    when no play from the start uses both arcs of a crossing (no gadget can carry two
    passages), which is checked for every crossing of the drawing, and the drawing avoids
    the others (directed edge geography: its line digraph, whose vertices are the arcs used
    up, 2-cycles left out). Where every drawing tried needs such a crossing (and for
    undirected edge geography), the unfolding writes the first moves out as positions
    (those with isomorphic games left merged; as a tree, or drawn in rows where merged
    positions are shared) until the game left at each is drawable (small for small games,
    but not polynomial); beyond its size, the challenged game (every illegal move challenged
    at once: polynomial, drawn as a book whose every crossing is proved safe; with
    ``--check`` its winner is certified on the result by the game's strategy carried over);
    where that is too large, the QBF route writes the game as a QBF, builds Schaefer's
    graph of it and draws that so that only arcs no play uses together cross (proved for
    each crossing): total and polynomial, but the graph grows fast (thousands of vertices
    for a 3-cycle, hundreds of thousands for 5 vertices). ``--route strategy`` (never
    ``auto``'s: it is no reduction, it needs the answer first) solves the game and writes
    out only the winner's strategy (one winning move kept where the mover wins, every
    move where it loses: every position keeps its value), checked, not trusted. The
    result is planar vertex geography either way (networkx's planarity test up to 50,000
    vertices).
    """
    from pyasp_games.domains.geography.planar import (
        UnsafeCrossing,
        line_digraph,
        without_two_cycles,
    )
    from pyasp_games.domains.geography.planar import planarize as redraw
    from pyasp_games.engines.enforcement import arm
    from pyasp_games.engines.limits import Limits
    from pyasp_games.errors import InputError

    limits = Limits.given(time_limit)
    new_file(output, force, "--output")
    game = read_game(graph, start, None if variant is None else Variant(variant).value, undirected)
    chosen = Route(route).value
    drawable = game.variant == "vertex" or game.directed
    if chosen == "drawing" and not drawable:
        raise InputError(
            f"{game.name}: the drawing route keeps the winner of vertex geography and of directed "
            "edge geography (through its line digraph); undirected edge geography needs --route "
            "qbf (or auto)"
        )
    arm(limits)
    deadline = limits.deadline()
    if game.variant == "edge":  # its arcs are used up: the line digraph's vertices
        digraph = (line_digraph(without_two_cycles(game.graph), game.names[game.start])
                   if game.directed else None)
    else:
        digraph = game.graph if game.directed else _both_ways(game)
    planar = refused = found = None
    if chosen == "drawing" or (chosen == "auto" and drawable):
        try:
            begin = digraph.headers["start"] if game.variant == "edge" else game.names[game.start]
            planar = redraw(digraph, begin, deadline)
        except UnsafeCrossing as unsafe:
            if chosen == "drawing":
                if json:
                    print_json({"graph": str(graph), "status": "unknown", "planar": None,
                                "unsafe_crossing": [list(unsafe.arcs[0]), list(unsafe.arcs[1])],
                                "play": unsafe.play})  # fmt: skip
                typer.echo(f"not planarized: {unsafe}", err=True)
                raise typer.Exit(3) from None
            refused = unsafe
    unfolded = None
    by_strategy = False
    if planar is None and chosen == "strategy":  # no reduction: only when asked for
        from pyasp_games.domains.geography.planar_unfold import MAX_VERTICES, strategy_unfold

        unfolded = strategy_unfold(game, deadline, MAX_VERTICES)
        by_strategy = True
    if unfolded is None and planar is None and chosen in ("unfold", "auto"):
        from pyasp_games.domains.geography.planar_unfold import MAX_VERTICES, unfold

        try:
            unfolded = unfold(game, deadline, MAX_VERTICES if chosen == "unfold" else AUTO_UNFOLDED)
        except InputError:
            if chosen == "unfold":
                raise
    challenge = None
    if unfolded is None and planar is None and chosen in ("challenge", "auto"):
        try:
            from pyasp_games.domains.geography.planar_challenge import planar_challenged

            challenge = planar_challenged(game, deadline, CHALLENGED_VERTICES)
        except InputError:
            if chosen == "challenge":
                raise
    if unfolded is not None and by_strategy:
        if not unfolded.planar:  # a tree, or rows with safe crossings: a bug if not
            raise RuntimeError(f"{game.name}: the strategy's graph is not planar")
        result, new_start = unfolded.graph, unfolded.graph.headers["start"]
        why = "asked for"
        summary = (f"the winner's strategy ({why}): the game solved, one winning move kept where the "
                   "mover wins, every move where it loses (each position keeps its value), "
                   f"{_counted(unfolded.classes, 'position')} up to isomorphism, "
                   + (f"drawn shared in rows ({_counted(unfolded.row_crossings, 'crossing')} between "
                      "rows, none used twice by a play)" if unfolded.shared else "written out as a tree")
                   + f", {_counted(unfolded.unfolded, 'position')} written")
        facts = {"route": "strategy", "unfolded_positions": unfolded.unfolded,
                 "crossing_count": unfolded.crossings, "position_classes": unfolded.classes,
                 "shared_rows": unfolded.shared,
                 **({"refused_drawing": str(refused)} if refused else {})}  # fmt: skip
    elif unfolded is not None:
        if not unfolded.planar:  # a tree with planar games glued on: a bug if not
            raise RuntimeError(f"{game.name}: the unfolded graph is not planar")
        result, new_start = unfolded.graph, unfolded.graph.headers["start"]
        summary = (f"unfolded ({'no drawing of the game avoids a crossing one play uses twice' if refused else 'asked for' if chosen == 'unfold' else 'undirected edge geography'}): "
                   f"{_counted(unfolded.classes, 'position')} up to isomorphism, "
                   + (f"drawn shared in rows ({_counted(unfolded.row_crossings, 'crossing')} between "
                      "rows, none used twice by a play), " if unfolded.shared else "written out as a tree: ")
                   + f"{_counted(unfolded.unfolded, 'position')} unfolded, "
                   f"{_counted(unfolded.drawn, 'game')} left hung from the DAG, with "
                   f"{_counted(unfolded.crossings, 'crossing gadget')} in all, each safe")
        facts = {"route": "unfold", "unfolded_positions": unfolded.unfolded,
                 "drawn_positions": unfolded.drawn, "crossing_count": unfolded.crossings,
                 "position_classes": unfolded.classes, "shared_rows": unfolded.shared,
                 **({"refused_drawing": str(refused)} if refused else {})}  # fmt: skip
    elif planar is not None:
        if not planar.planar_output:  # the gadgets are planar by construction: a bug if not
            raise RuntimeError(f"{game.name}: the redrawn graph is not planar")
        result, new_start = planar.graph, planar.start
        summary = (
            "already planar: no crossing" if planar.planar_input else
            f"{planar.crossings} crossings replaced by gadgets, each safe (no play from "
            f"{planar.start} uses both of its arcs; {planar.search_nodes:,} search nodes)"
        ) + (f"; {planar.dropped_vertices} vertices and {planar.dropped_arcs} arcs no play "
             "can use dropped" if planar.dropped_vertices or planar.dropped_arcs else "")
        facts: dict[str, Any] = {
            "route": "drawing", "crossing_count": planar.crossings,
            "crossings": [[list(c.first), list(c.second)] for c in planar.crossing_list],
            "dropped_vertices": planar.dropped_vertices, "dropped_arcs": planar.dropped_arcs,
            "search_nodes": planar.search_nodes}  # fmt: skip
    elif challenge is not None:
        ch, built = challenge
        result, new_start = built.game.graph, built.game.names[built.game.start]
        why = "no drawing of the game avoids a crossing one play uses twice" if refused else (
            "asked for" if chosen == "challenge" else "beyond the unfolding's size")
        summary = (f"the challenged game ({why}): {ch.layers} moves of {ch.code_bits} bits, "
                   f"{len(ch.book.names):,} vertices and {_counted(len(ch.book.arcs), 'arc')} "
                   f"before the gadgets, {_counted(built.crossing_count, 'crossing')} replaced by "
                   "gadgets, each proved safe (no play uses both arcs)")
        facts = {"route": "challenge", "crossing_count": built.crossing_count, "moves": ch.layers,
                 "code_bits": ch.code_bits, "challenged_vertices": len(ch.book.names),
                 "challenged_arcs": len(ch.book.arcs),
                 **({"refused_drawing": str(refused)} if refused else {})}  # fmt: skip
    else:
        from pyasp_games.domains.geography.planar_tqbf import planarize_via_qbf

        # the QBF reads an undirected graph's edges itself (in edge geography an edge is
        # used once, whichever way)
        found = planarize_via_qbf(game.graph, game.names[game.start], game.variant, game.directed,
                                  deadline)
        if found.planar is False or not found.safe:  # proved by construction: a bug if not
            raise RuntimeError(f"{game.name}: the QBF route's drawing is not planar or not safe")
        result, new_start = found.graph, found.graph.headers["start"]
        why = "no drawing of the game avoids a crossing one play uses twice" if refused else (
            "asked for" if chosen == "qbf" else "edge geography")
        summary = (
            f"via TQBF ({why}): {found.moves} moves, a QBF of {found.qbf_variables:,} variables and "
            f"{found.qbf_clauses:,} clauses, Schaefer's graph of {found.schaefer_vertices:,} vertices, "
            f"{found.crossings:,} crossings replaced by gadgets, each used by one play at most (proved)"
            + ("" if found.planar else "; planar by construction (not tested: too large)")
        )
        facts = {"route": "qbf", "crossing_count": found.crossings, "moves": found.moves,
                 "qbf_variables": found.qbf_variables, "qbf_clauses": found.qbf_clauses,
                 "schaefer_vertices": found.schaefer_vertices,
                 "planarity_tested": found.planar is not None,
                 **({"refused_drawing": str(refused)} if refused else {})}  # fmt: skip
    checked = None
    preserved: bool | None = True  # proved by the route's construction
    if check and challenge is not None:
        from pyasp_games.domains.geography.planar_challenge import certified_on_result

        facts["certificates"] = certified_on_result(game.name, *challenge, deadline, CHALLENGED_WALK)
        checked = facts["certificates"]["result"].split(":", 1)[0]
        if checked not in ("first", "second"):
            checked = None
    elif check:
        checked = _same_winner(game, result if found is None else None, new_start,
                               None if found is None else found.qbf, deadline)
    if facts["route"] == "strategy":
        # built from the search's values, so its winner is kept only as far as the checker
        # of verify.py certifies both winners (always, --check or not): else it is said
        # as the search's, not proved
        facts["certificates"] = _certified(game, result, new_start, deadline)
        preserved = True if all(not said.startswith("not certified")
                                for said in facts["certificates"].values()) else None  # fmt: skip
    answered()
    text = result.format_arcs()
    if output is not None:
        write_output(text, output)
    if json:
        print_json({"graph": str(graph), "status": "solved", "planar": True,
                    "winner_preserved": preserved, "winner_checked": checked, "start": new_start,
                    "vertices": len(result), "arcs": result.arc_count, **facts,
                    "output": None if output is None else str(output),
                    **({} if output is not None else {"arcs": [[result.names[u],
                       result.names[v]] for u, v in result.arcs()]})})  # fmt: skip
    else:
        if output is None:
            sys.stdout.write(text)
        if challenge is not None:  # certified on the result (with --check), never solved there
            shown = "" if not check else (
                f"; winner {checked}, certified on the result ({facts['certificates']['result'].split(': ', 1)[1]})"
                if checked else f"; the result's winner {facts['certificates']['result']}")
        else:
            shown = "" if checked is None else (
                f"; winner {checked} in both, solved" if found is None else
                f"; winner {checked}, the game solved and the QBF's truth searched")
        if "certificates" in facts and challenge is None:  # the strategy route: both winners certified
            shown += "; " + ", ".join(
                f"{what}'s strategy {said}" if said.startswith("not certified") else
                f"{what}'s strategy certified ({said.split(': ', 1)[1]})"
                for what, said in facts["certificates"].items())
        how = "proved" if preserved else "by the search's values, NOT VERIFIED"
        typer.echo(
            f"planar ({len(result):,} vertices, {result.arc_count:,} arcs), same winner "
            f"({how}{shown}): {summary}",
            err=True,
        )


def _same_winner(game: Geography, result: Any, start: str, qbf: Any, deadline: Any) -> str:
    """The game's winner (native), compared with the planar game's (native: the drawing
    route) or with the truth of the QBF it was built from (the QBF route: its own search;
    the planar game, Schaefer's graph with gadgets, is too large for the native search,
    and its steps from the QBF are proved). A difference is a bug."""
    from pyasp_games.domains.geography.model import make_instance
    from pyasp_games.domains.geography.native import solve_game
    from pyasp_games.domains.geography.tqbf import qbf_value

    before = solve_game(game, deadline, line=False).first_wins
    if qbf is not None:
        after = qbf_value(qbf.blocks, qbf.clauses, deadline)
    else:
        after = solve_game(make_instance(result, start), deadline, line=False).first_wins
    if before != after:
        raise RuntimeError(f"{game.name}: the planar game has another winner")
    return "first" if before else "second"


def _certified(game: Geography, result: Any, start: str, deadline: Any) -> dict[str, str]:
    """The strategy route's results are built from the search's values, so both winners
    are certified by the checker of ``verify.py``, with or without ``--check`` (it walks the real
    positions and trusts no value of the search): the winner's strategy on the game, and
    the result's winner by its own strategy on the result (the native search's proof up to
    :data:`NATIVE_CERTIFIED` vertices; beyond, the result walked as the game's winner's
    strategy by :func:`~pyasp_games.domains.geography.verify.check_strategy_function`).
    Raises on a refusal (a bug)."""
    from pyasp_games.domains.geography.model import make_instance
    from pyasp_games.domains.geography.native import solve_game, strategy_proof
    from pyasp_games.domains.geography.verify import check_strategy

    said = {}
    answer = None
    for what, g in (("game", game), ("result", make_instance(result, start))):
        if what == "result" and len(g) > NATIVE_CERTIFIED and answer is not None:
            # beyond the native search's reach: the result is the winner's strategy itself
            # (one arc out of each of the winner's positions, gadgets between rows), walked
            # on the result with the gadgets' punishing replies; no value of a search used
            from pyasp_games.domains.geography.book import gadget_vertices, lift_gadgets
            from pyasp_games.domains.geography.verify import check_strategy_function
            from pyasp_games.errors import Unconfirmed

            try:
                ok, message = check_strategy_function(
                    g, answer, lift_gadgets(g, gadget_vertices(result, "X"), None), deadline=deadline)
            except Unconfirmed as why:
                said[what] = f"not certified: {why}"
                continue
            if not ok:
                raise RuntimeError(f"{game.name}: the {what}'s strategy is refused: {message}")
            said[what] = f"{answer}: {message}"
            continue
        solved = solve_game(g, deadline, line=False)
        answer = "first" if solved.first_wins else "second"
        proof = strategy_proof(g, deadline, search=solved.search)
        if proof is None:
            said[what] = "not certified: a strategy beyond the certificate's size or the time limit"
            continue
        ok, message = check_strategy(g, answer, None if solved.move is None else g.move_name(solved.move), proof)
        if not ok:
            raise RuntimeError(f"{game.name}: the {what}'s strategy is refused: {message}")
        said[what] = f"{answer}: {message}"
    answers = {s.split(":", 1)[0] for s in said.values() if not s.startswith("not certified")}
    if len(answers) > 1:
        raise RuntimeError(f"{game.name}: the planar game has another winner (both certified)")
    return said


def _both_ways(game: Geography) -> Any:
    from pyasp_games.engines.graphs import from_arcs

    g = game.graph
    arcs = [(g.names[u], g.names[v]) for u, v in g.arcs()]
    return from_arcs(arcs + [(v, u) for u, v in arcs], g.names, name=g.name, headers=g.headers)


app.command("planarize")(planarize)


def _play(game: Geography) -> None:
    from pyasp_games.domains.geography.play import play

    play(game, lambda: input("your move> "), typer.echo)


app.command(
    "play",
    help="Play against the solver in the terminal; it takes the winning side when there is "
    "one.\n\nType the name of the vertex to move the token to ('quit' or end of input to "
    "stop).",
)(input_command(SOLVE, _play))


def _counted(count: int, word: str) -> str:
    """``count`` (thousands grouped) and ``word``, plural unless one."""
    return f"{count:,} {word}{'' if count == 1 else 's'}"
