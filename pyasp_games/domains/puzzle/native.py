"""Native optimal solvers: A* and IDA* with Manhattan distance plus linear conflicts.

The heuristic is admissible and consistent: Manhattan distance counts one move per
cell a tile must travel; a *linear conflict* (two tiles in their goal line, in
reversed order) costs two extra moves, and per line the extra cost is
``2 * (k - LIS)`` where ``k`` tiles are in their goal line and ``LIS`` is the
longest subsequence of them already in goal order (Hansson, Mayer and Yung 1992).

>>> from pyasp_games.domains.puzzle.model import parse_board
>>> board = parse_board("4 1 2\\n0 5 3\\n7 8 6")
>>> solve_idastar(board).witness
'URRDD'
"""

from __future__ import annotations

import heapq
import os
import time
from bisect import bisect_left
from collections.abc import Callable
from itertools import count

from pyasp_games.domains.puzzle import permutations as perm
from pyasp_games.domains.puzzle.graph_search import SearchProblem, astar, idastar, inconsistency
from pyasp_games.domains.puzzle.model import OPPOSITE, Board, moves_of, parity_terms, solvability
from pyasp_games.domains.puzzle.permutations import PermutationQuery
from pyasp_games.engines.claim import Claim, Kind
from pyasp_games.engines.limits import LimitReached, Limits
from pyasp_games.errors import InputError

_CHECK_EVERY = 4096


def _lis_length(seq: list[int]) -> int:
    tails: list[int] = []
    for x in seq:
        i = bisect_left(tails, x)
        if i == len(tails):
            tails.append(x)
        else:
            tails[i] = x
    return len(tails)


class Heuristic:
    """Manhattan distance + linear conflicts for one board size and goal.

    ``value(tiles)`` costs O(N); ``delta(...)`` updates it after one move in
    O(width) by recomputing only the two lines the moved tile leaves and enters.
    """

    def __init__(self, rows: int, cols: int, goal_tiles: tuple[int, ...]) -> None:
        self.rows, self.cols = rows, cols
        n = rows * cols
        home = {v: divmod(i, cols) for i, v in enumerate(goal_tiles)}
        self.home_row = [0] * n
        self.home_col = [0] * n
        for v, (r, c) in home.items():
            self.home_row[v], self.home_col[v] = r, c
        self.md = [[0] * n for _ in range(n)]
        for v in range(1, n):
            for p in range(n):
                r, c = divmod(p, cols)
                self.md[v][p] = abs(r - home[v][0]) + abs(c - home[v][1])
        self._memo: dict[tuple, int] = {}

    def row_cost(self, tiles: tuple[int, ...] | list[int], r: int) -> int:
        line = tuple(tiles[r * self.cols : (r + 1) * self.cols])
        key = (0, r, line)
        cost = self._memo.get(key)
        if cost is None:
            seq = [self.home_col[v] for v in line if v and self.home_row[v] == r]
            cost = 2 * (len(seq) - _lis_length(seq))
            self._memo[key] = cost
        return cost

    def col_cost(self, tiles: tuple[int, ...] | list[int], c: int) -> int:
        line = tuple(tiles[c :: self.cols])
        key = (1, c, line)
        cost = self._memo.get(key)
        if cost is None:
            seq = [self.home_row[v] for v in line if v and self.home_col[v] == c]
            cost = 2 * (len(seq) - _lis_length(seq))
            self._memo[key] = cost
        return cost

    def value(self, tiles: tuple[int, ...] | list[int]) -> int:
        md = sum(self.md[v][p] for p, v in enumerate(tiles) if v)
        lc = sum(self.row_cost(tiles, r) for r in range(self.rows))
        lc += sum(self.col_cost(tiles, c) for c in range(self.cols))
        return md + lc

    def after_move(self, tiles: list[int], hval: int, blank: int, target: int) -> int:
        """The heuristic once the blank moves from ``blank`` to ``target``.

        ``tiles`` is the board before the move and is left unchanged.
        """
        cols = self.cols
        v = tiles[target]
        if abs(target - blank) == cols:  # vertical: the tile changes row
            cost, a, b = self.row_cost, blank // cols, target // cols
        else:  # horizontal: the tile changes column
            cost, a, b = self.col_cost, blank % cols, target % cols
        before = cost(tiles, a) + cost(tiles, b)
        tiles[blank], tiles[target] = v, 0
        after = cost(tiles, a) + cost(tiles, b)
        tiles[blank], tiles[target] = 0, v
        return hval - self.md[v][target] + self.md[v][blank] + after - before


def _neighbours(rows: int, cols: int) -> list[list[tuple[str, int]]]:
    return [list(moves_of(p, rows, cols).items()) for p in range(rows * cols)]


def decide_solvability(board: Board, limits: Limits = Limits()) -> Claim:
    """Is ``board`` solvable? By the inversion-parity invariant (:func:`solvability`).

    The answer is ``True`` or ``False``; the certificate holds the invariant's terms and,
    in ``reason``, the argument in words (:func:`~pyasp_games.domains.puzzle.model.parity_terms`),
    which the checker counts again. Linear in the tiles' inversions: no limit applies.

    >>> from pyasp_games.domains.puzzle.model import parse_board
    >>> decide_solvability(parse_board("1 2 3\\n4 5 6\\n8 7 0")).answer
    False
    """
    result = solvability(board)
    # the thesis's form of the argument beside it: the cells' permutation in cycles,
    # its transpositions and the blank's distance from its goal cell
    sigma = perm.board_permutation(board.tiles, board.goal_tiles)
    (r, c), (hr, hc) = divmod(board.blank, board.cols), divmod(board.goal_tiles.index(0), board.cols)
    thesis = {
        "permutation": perm.format_cycles(perm.cycles(sigma)),
        "transpositions": perm.transpositions(sigma),
        "blank_distance": abs(r - hr) + abs(c - hc),
    }
    return Claim.solved(result.solvable, certificate={**parity_terms(result), **thesis})


def unsolvable(board: Board) -> Claim | None:
    """"No plan" for a board the invariant shows unsolvable (its terms the certificate,
    :func:`~pyasp_games.domains.puzzle.model.parity_terms`); ``None`` for a solvable one."""
    check = solvability(board)
    if check.solvable:
        return None
    return Claim.none(certificate=parity_terms(check))


def none_within(bound: int, stats: dict) -> Claim:
    """"No plan of length <= ``bound``" (every plan up to it refuted): the grounds, which
    the checker reads with the bound, are the certificate."""
    return Claim.none(bound=bound, certificate=f"no plan of length <= {bound}", stats=stats)


def _beyond(board: Board, limits: Limits, stats: dict) -> Claim:
    return none_within(limits.max_length, stats)


def solve_astar(board: Board, limits: Limits = Limits()) -> Claim:
    """Optimal plan by A* with Manhattan distance + linear conflicts.

    Ties on ``f`` prefer the deeper node. The heuristic is consistent, so a state
    is expanded at most once. Time and memory O(b^d) in the worst case;
    ``stats["nodes"]`` counts expansions.
    """
    if (out := unsolvable(board)) is not None:
        return out
    deadline = limits.deadline()
    h = Heuristic(board.rows, board.cols, board.goal_tiles)
    nbrs = _neighbours(board.rows, board.cols)
    goal = board.goal_tiles
    start = board.tiles
    h0 = h.value(start)
    parent: dict[tuple[int, ...], tuple[tuple[int, ...] | None, str]] = {start: (None, "")}
    best_g = {start: 0}
    tie = count()
    frontier = [(h0, 0, next(tie), start, board.blank, h0)]
    nodes = 0
    while frontier:
        f, neg_g, _, state, blank, hval = heapq.heappop(frontier)
        g = -neg_g
        if best_g.get(state, g) < g:
            continue  # a stale entry
        if limits.max_length is not None and f > limits.max_length:
            return _beyond(board, limits, {"nodes": nodes, "h0": h0})
        if state == goal:
            plan = []
            while True:
                prev, letter = parent[state]
                if prev is None:
                    break
                plan.append(letter)
                state = prev
            return Claim.solved(
                g, "".join(reversed(plan)), stats={"nodes": nodes, "h0": h0, "stored": len(best_g)}
            )
        nodes += 1
        if nodes % _CHECK_EVERY == 0 and deadline.expired():
            raise LimitReached({"nodes": nodes, "h0": h0})
        tiles = list(state)
        for letter, target in nbrs[blank]:
            child_h = h.after_move(tiles, hval, blank, target)
            tiles[blank], tiles[target] = tiles[target], 0
            child = tuple(tiles)
            tiles[target], tiles[blank] = tiles[blank], 0
            cg = g + 1
            if best_g.get(child, cg + 1) <= cg:
                continue
            best_g[child] = cg
            parent[child] = (state, letter)
            heapq.heappush(frontier, (cg + child_h, -cg, next(tie), child, target, child_h))
    return _beyond(board, Limits(max_length=-1), {"nodes": nodes})  # pragma: no cover


def solve_idastar(board: Board, limits: Limits = Limits()) -> Claim:
    """Optimal plan by IDA* (Korf 1985) with Manhattan distance + linear conflicts.

    Depth-first iterations with growing ``f`` thresholds (stepping by two: plan
    lengths have a fixed parity); the blank never immediately undoes its last
    move. Memory O(d); ``stats["nodes"]`` counts expansions over all iterations.
    """
    if (out := unsolvable(board)) is not None:
        return out
    deadline = limits.deadline()
    h = Heuristic(board.rows, board.cols, board.goal_tiles)
    nbrs = _neighbours(board.rows, board.cols)
    tiles = list(board.tiles)
    h0 = h.value(tiles)
    path: list[str] = []
    nodes = 0
    thresholds: list[int] = []
    inf = 1 << 30

    def search(blank: int, g: int, hval: int, bound: int, last: str) -> int:
        """Returns -1 when the goal is found, else the smallest f that exceeded bound."""
        nonlocal nodes
        f = g + hval
        if f > bound:
            return f
        if hval == 0:
            return -1
        nodes += 1
        if nodes % _CHECK_EVERY == 0 and deadline.expired():
            raise LimitReached({"nodes": nodes, "h0": h0, "thresholds": thresholds})
        smallest = inf
        back = OPPOSITE.get(last)
        for letter, target in nbrs[blank]:
            if letter == back:
                continue
            child_h = h.after_move(tiles, hval, blank, target)
            tiles[blank], tiles[target] = tiles[target], 0
            path.append(letter)
            t = search(target, g + 1, child_h, bound, letter)
            if t == -1:
                return -1
            path.pop()
            tiles[target], tiles[blank] = tiles[blank], 0
            smallest = min(smallest, t)
        return smallest

    bound = h0
    while True:
        if limits.max_length is not None and bound > limits.max_length:
            return _beyond(board, limits, {"nodes": nodes, "h0": h0, "thresholds": thresholds})
        thresholds.append(bound)
        t = search(board.blank, 0, h0, bound, "")
        if t == -1:
            plan = "".join(path)
            return Claim.solved(
                len(plan), plan, stats={"nodes": nodes, "h0": h0, "thresholds": thresholds}
            )
        bound = t


def solve_pdb(
    board: Board,
    limits: Limits = Limits(),
    partition: str = "default",
    progress: Callable[[str, int, int], None] | None = None,
    lookups: str = "reflected",
    pruning: int | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
) -> Claim:
    """Optimal plan by IDA* with additive pattern databases (Korf and Felner 2002).

    The heuristic is the sum of the partition's pattern databases, and on square
    boards the maximum of that sum and the same sum for the board reflected in its
    main diagonal; the search is compiled (:mod:`pyasp_games.domains.puzzle.pattern_search`).
    Databases are built on first use, within the limits, and cached
    (:mod:`pyasp_games.domains.puzzle.databases`); ``stats["pdb_seconds"]`` is the time
    spent reading or building them. ``lookups="dual"`` adds the dual lookups,
    ``"dual-bpmx"`` with bidirectional pathmax
    (:data:`~pyasp_games.domains.puzzle.pattern_search.LOOKUPS`). Paths that end with a
    redundant move string of at most ``pruning`` moves are not searched
    (:mod:`~pyasp_games.domains.puzzle.redundant_moves`; default
    :data:`~pyasp_games.domains.puzzle.redundant_moves.DEFAULT_LENGTH`, 0: only a move
    that undoes the last one). ``checkpoint``: a checkpoint file
    (:mod:`~pyasp_games.domains.puzzle.checkpoints`) the search resumes from when it holds
    this search's state, and saves its state to every minute and when a limit stops it.
    """
    from pyasp_games.domains.puzzle.databases import pattern_database, tile_partition
    from pyasp_games.domains.puzzle.pattern_search import PatternSearch
    from pyasp_games.domains.puzzle.redundant_moves import DEFAULT_LENGTH

    if (out := unsolvable(board)) is not None:
        return out
    pruning = DEFAULT_LENGTH if pruning is None else int(pruning)
    if not 0 <= pruning <= 14:
        raise InputError(f"pruning: the longest redundant move strings must be 0 to 14 moves, not {pruning}")
    store = None
    if checkpoint is not None:
        from pyasp_games.domains.puzzle.checkpoints import CheckpointFile

        if lookups != "reflected":
            raise InputError("--checkpoint: only with the reflected lookups (the default)")
        store = CheckpointFile(checkpoint)
    deadline = limits.deadline()
    patterns = tile_partition(board.rows, board.cols, board.goal, partition)
    built = time.perf_counter()
    try:
        dbs = [
            pattern_database(board.rows, board.cols, board.goal, p, progress=progress,
                             deadline=deadline)
            for p in patterns
        ]  # fmt: skip
    except LimitReached as reached:
        stats = {"stopped": "while building the pattern databases", "partition": list(patterns)}
        raise LimitReached(stats) from reached
    if pruning > 2:  # read or built here, under the limits, before the search asks for it
        from pyasp_games.domains.puzzle.redundant_moves import redundant_move_automaton

        redundant_move_automaton(pruning, deadline)
    built = round(time.perf_counter() - built, 3)
    search = PatternSearch(board, [db.tiles for db in dbs], [db.table for db in dbs],
                           [db.cell_map for db in dbs], lookups, pruning)  # fmt: skip
    stats: dict = {"partition": [list(p) for p in patterns], "pdb_seconds": built, "lookups": lookups,
                   "pruning": pruning}  # fmt: skip
    resume, save = None, None
    if store is not None:
        from pyasp_games.domains.puzzle.checkpoints import search_key

        key = search_key(board.tiles, board.rows, board.cols, board.goal, patterns, lookups, pruning)
        resume = store.get(key)
        stats["checkpoint"] = str(store.path)
        if resume is not None and "plan" in resume:  # found in an earlier run (verified again)
            stats.update(nodes=resume.get("nodes"), thresholds=resume.get("thresholds"), h0=search.h0,
                         resumed="from a finished search")  # fmt: skip
            plan = str(resume["plan"])
            thresholds = resume.get("thresholds")
            last = thresholds[-1] if isinstance(thresholds, list) and thresholds else None
            # IDA* finds its plan in the iteration whose threshold is the plan's length, and
            # no plan is shorter than the heuristic of the board: a file that says otherwise
            # was not written by a finished search, and its length is no optimum
            if not (isinstance(last, int) and last == len(plan) >= search.h0):
                raise InputError(f"checkpoint {store.path}: the finished search's plan of {len(plan)} moves "
                                 f"does not match its last threshold {last} "
                                 f"(not a length this search found; remove the entry to search again)")
            return Claim.solved(len(plan), plan, stats=stats)
        if resume is not None:
            stats["resumed"] = f"at {resume.get('nodes')} nodes, threshold {resume.get('bound')}"
            stats["nodes_before"] = resume.get("nodes")  # the earlier sittings' expansions

        def save(state: dict) -> None:
            store.put(key, state)

    try:
        found = search.run(deadline, limits.max_length, resume, save)
    except ValueError as error:
        raise InputError(f"checkpoint {store.path if store else ''}: {error}") from None
    except LimitReached:
        raise LimitReached({**search.statistics(), **stats}) from None
    stats = {**search.statistics(), "h0": search.h0, **stats}
    if not found:
        return _beyond(board, limits, stats)
    plan = search.plan()
    if save is not None:
        save(search.checkpoint())
    return Claim.solved(len(plan), plan, stats=stats)


def solve_greedy(board: Board, limits: Limits = Limits()) -> Claim:
    """A fast, non-optimal plan for boards of any size (tested up to 10 x 10).

    The strategy of Aleksic's thesis (:mod:`pyasp_games.domains.puzzle`), fixing the board line
    by line: while the unsolved region is larger than 2 x 2, complete its top row (or
    its left column, whichever side is longer) and lock it. The tiles of a line are brought home one at a time, the last
    two together (alone, the last tile could only be placed by disturbing the one
    before it). Each placement is a small search over the positions of the one or two
    tiles being placed and of the blank, the locked cells acting as walls; the other
    tiles are ignored and may be shuffled. The final 2 x 2 region is solved outright.
    The plan is valid but usually far from optimal: the claim is an upper bound
    (:attr:`Kind.UPPER_BOUND <pyasp_games.engines.claim.Kind.UPPER_BOUND>`).
    Each placement is an A* search in at most ``n**3`` states for ``n`` cells.
    """
    if (out := unsolvable(board)) is not None:
        return out
    deadline = limits.deadline()
    rows, cols = board.rows, board.cols
    goal = board.goal_tiles
    tiles = list(board.tiles)
    locked = [False] * board.size
    plan: list[str] = []
    top, bottom, left, right = 0, rows, 0, cols
    home_row, home_col = divmod(goal.index(0), cols)
    searches = 0

    def place(targets: list[int]) -> None:
        nonlocal searches
        searches += 1
        letters = _place_tiles(
            tiles, [goal[c] for c in targets], targets, locked, rows, cols, deadline
        )
        plan.extend(letters)
        for c in targets:
            locked[c] = True

    # Lines are fixed on the sides away from the blank's home corner, which is solved last.
    while bottom - top > 2 or right - left > 2:
        if bottom - top >= right - left:  # complete a row of the region
            if home_row >= top + (bottom - top) // 2:
                r, top = top, top + 1
            else:
                bottom -= 1
                r = bottom
            line = [r * cols + c for c in range(left, right)]
        else:  # complete a column
            if home_col >= left + (right - left) // 2:
                c, left = left, left + 1
            else:
                right -= 1
                c = right
            line = [r * cols + c for r in range(top, bottom)]
        for cell in line[:-2]:
            place([cell])
        place(line[-2:])
    rest = [r * cols + c for r in range(top, bottom) for c in range(left, right)]
    place([c for c in rest if goal[c] != 0])
    text = "".join(plan)
    if limits.max_length is not None and len(text) > limits.max_length:
        # a long greedy plan proves nothing about shorter ones: no answer, not "none"
        stats = {"searches": searches, "limit": "max-length", "found": len(text)}
        return Claim.unknown(stats, kind=Kind.UPPER_BOUND)
    return Claim.solved(len(text), text, stats={"searches": searches}, kind=Kind.UPPER_BOUND)


def _place_tiles(
    tiles: list[int],
    values: list[int],
    targets: list[int],
    locked: list[bool],
    rows: int,
    cols: int,
    deadline,
) -> list[str]:
    """Move the tiles ``values`` to the cells ``targets`` (A* over their cells and the
    blank's), never entering a locked cell; apply the moves to ``tiles``."""
    where = {v: p for p, v in enumerate(tiles)}
    start = (tuple(where[v] for v in values), where[0])
    target = tuple(targets)

    def h(placement: tuple[int, ...]) -> int:
        return sum(
            abs(p // cols - t // cols) + abs(p % cols - t % cols)
            for p, t in zip(placement, target, strict=True)
        )

    nbrs = [
        [(letter, q) for letter, q in moves_of(p, rows, cols).items() if not locked[q]]
        for p in range(rows * cols)
    ]
    parent: dict = {start: None}
    frontier = [(h(start[0]), 0, start)]
    found = None
    expanded = 0
    while frontier:
        _, g, state = heapq.heappop(frontier)
        placement, blank = state
        if placement == target:
            found = state
            break
        expanded += 1
        if not expanded & 4095:
            deadline.check()
        for letter, q in nbrs[blank]:
            if q in placement:
                moved = tuple(blank if p == q else p for p in placement)
                nxt = (moved, q)
            else:
                nxt = (placement, q)
            if nxt not in parent:
                parent[nxt] = (state, letter)
                heapq.heappush(frontier, (g + 1 + h(nxt[0]), g + 1, nxt))
    if found is None:
        raise RuntimeError(f"cannot bring tiles {values} home with these cells locked")
    letters = []
    state = found
    while parent[state] is not None:
        state, letter = parent[state]
        letters.append(letter)
    letters.reverse()
    blank = where[0]
    for letter in letters:
        q = moves_of(blank, rows, cols)[letter]
        tiles[blank], tiles[q] = tiles[q], 0
        blank = q
    return letters


def solve_permutation(query: PermutationQuery, limits: Limits = Limits()) -> Claim:
    """``puzzle permutation``: the permutation's cycle notation (the answer) and its
    facts (witness): array, inverse, order, inversions, cycles and transpositions, the
    parity both ways, and with a second permutation both compositions.

    >>> from pyasp_games.domains.puzzle.permutations import read_permutation
    >>> out = solve_permutation(read_permutation("[2,9,5,6,3,4,7,1,8]"))
    >>> out.answer, out.witness["order"], out.witness["parity"]
    ('(1 2 9 8)(3 5)(4 6)', 4, 'odd')
    """
    p = query.perm
    inv = perm.inverse(p)
    facts: dict = {
        "array": list(p),
        "inverse": list(inv),
        "inverse_cycles": perm.format_cycles(perm.cycles(inv)),
        "order": perm.order(p),
        "inversions": perm.inversions(p),
        "cycles": len(perm.cycles(p, fixed=True)),
        "transpositions": perm.transpositions(p),
        "as_transpositions": perm.format_transpositions(p),
        "parity": perm.parity(p),
    }
    if query.other is not None:
        first_then, then_first = perm.compose(p, query.other), perm.compose(query.other, p)
        facts["then_other"] = list(first_then)
        facts["then_other_cycles"] = perm.format_cycles(perm.cycles(first_then))
        facts["other_then"] = list(then_first)
        facts["other_then_cycles"] = perm.format_cycles(perm.cycles(then_first))
    return Claim.solved(perm.format_cycles(perm.cycles(p)), facts)


def _search_claim(problem: SearchProblem, cost: int | None, path: list[str], witness: dict) -> Claim:
    """A search's claim: the cost (exact when the heuristic is consistent, else the cost
    of the path found, an upper bound), or no path."""
    graph = problem.graph
    if cost is None:
        return Claim.none(witness=witness, certificate=f"no path from {graph.start} to {graph.goal}")
    why = inconsistency(graph, problem.heuristic)
    kind = Kind.EXACT if why is None else Kind.UPPER_BOUND
    stats = {"heuristic": "consistent" if why is None else f"not consistent: {why}"}
    return Claim.solved(cost, {"path": path, **witness}, kind=kind, stats=stats)


def search_astar(problem: SearchProblem, limits: Limits = Limits()) -> Claim:
    """``puzzle search --backend astar``: the cost of the path A* finds, the path and every
    expansion ``[node, g, h, f]`` in order (witness).

    >>> from pyasp_games.domains.puzzle.graph_search import parse_weighted_graph
    >>> toy = parse_weighted_graph("# start: S\\n# goal: G\\nS A 2\\nA G 4\\nS G 9\\n")
    >>> search_astar(SearchProblem(toy, {"S": 0, "A": 3, "G": 0})).witness["path"]
    ['S', 'A', 'G']
    """
    cost, path, trace = astar(problem.graph, problem.heuristic, limits.deadline())
    return _search_claim(problem, cost, path, {"expanded": [list(t) for t in trace]})


def search_idastar(problem: SearchProblem, limits: Limits = Limits()) -> Claim:
    """``puzzle search --backend idastar``: the cost of the path IDA* finds, the path and
    each round's threshold, expansions ``[node, g, f]`` and next threshold (witness)."""
    cost, path, rounds = idastar(problem.graph, problem.heuristic, limits.deadline())
    shown = [{**r, "expanded": [list(e) for e in r["expanded"]]} for r in rounds]
    return _search_claim(problem, cost, path, {"rounds": shown})
