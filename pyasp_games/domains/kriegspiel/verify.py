"""An independent checker of Kriegspiel strategies and refutations, with its own rules.

It shares nothing with the solvers but the reading of metapositions
(:mod:`~pyasp_games.domains.kriegspiel.model`): its move generator works square by square on
(rank, file) pairs, as the rules of chess say, and computes every referee's answer and
metaposition itself. A claim about a *policy* ("the heuristic's strategy does not
mate") is checked against that policy, which the question hands in as a plain function
of the metaposition (:data:`Policy`; ``check_outcome(..., policy=...)``); the checker
only asks it which attempt it plays.

- A **strategy** (:mod:`~pyasp_games.domains.kriegspiel.strategy`) is replayed against every
  square where the black king may truly be and every Black reply: each attempt must be
  one White can make; where it is illegal the ``illegal`` answer must be followed; where
  it is legal the referee's answer (computed here) must be one the strategy has, and no
  square may allow a stalemate or the piece's capture; every play must end in mate, and
  the worst case must take exactly the claimed number of White moves (the upper bound).
- A **refutation** is checked node by node: each node claims that White does not mate
  within its depth (``null``: at all), and every attempt White could make there is
  answered, either by a square where it is legal and draws, or by an answer whose
  metaposition (computed here: the squares giving that answer, then Black's legal
  steps), or its image under the board symmetry the link names (:meth:`Game.image`),
  contains the node it names, which claims enough. A refutation of "mate within
  N - 1" is the lower bound of an optimal value N; of any mate, "no forced mate".
- The heuristic's failing **line** is replayed: the policy handed in is asked its
  attempt at each step, the answers and metapositions are computed here, and the line
  must come back to a metaposition it met (:func:`check_policy_line`).

>>> from pyasp_games.engines.outcome import Outcome
>>> from pyasp_games.engines.verdict import UPPER_BOUND, Verdict
>>> from pyasp_games.domains.kriegspiel.model import parse_metaposition
>>> m = parse_metaposition("k2/2K/1R1")
>>> plan = {"root": 0, "nodes": [{"attempt": "Ra1", "answers": {"mate": None}}]}
>>> check_outcome(m, Outcome("m", "heuristic", "solved", 1, plan, verdict=Verdict(kind=UPPER_BOUND)))
(True, 'the strategy mates within 1 moves against every square (1) and every reply (an upper bound: no optimum claimed)')
>>> plan["refutation"] = {"root": 0, "nodes": [{"metaposition": "k2/2K/1R1", "depth": 0, "refutes": {}}]}
>>> out = Outcome("m", "native", "solved", 1, plan)
>>> check_outcome(m, out)[0], out.stats["checked"]
(True, {'mate_within': 1, 'no_mate_within': 0})
>>> plan["nodes"][0]["attempt"] = "Rc1"
>>> check_outcome(m, Outcome("m", "native", "solved", 1, plan))[1]
'after Rc1 with the black king on a3 the referee says silent, which the strategy does not answer'
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from pyasp_games.domains.kriegspiel.model import Metaposition, parse_metaposition
from pyasp_games.engines.outcome import Outcome
from pyasp_games.errors import Unconfirmed

Square = tuple[int, int]
#: A strategy that is a function of the metaposition: the attempt it plays there by
#: name (``"Rb1"``, ``"Ka2"``), ``None`` where it plays none.
Policy = Callable[[Metaposition], str | None]
#: A value of a table of values at least this large: no forced mate.
NO_MATE = 1_000_000
KING = [(dr, df) for dr in (-1, 0, 1) for df in (-1, 0, 1) if (dr, df) != (0, 0)]
LINES = {"R": [(1, 0), (-1, 0), (0, 1), (0, -1)], "B": [(1, 1), (1, -1), (-1, 1), (-1, -1)]}
LINES["Q"] = LINES["R"] + LINES["B"]
JUMPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
#: White's pieces (besides the king): their squares, in the order of the ending's letters.
Men = tuple[Square, ...]


class Refuted(Exception):
    """The strategy or refutation does not hold (the message says where)."""


class Missing(Exception):
    """The table of values a witness names is not on this machine (a saved answer
    checked again elsewhere): what rests on it alone cannot be re-checked here, which
    refutes nothing."""


class Game:
    """The rules of K + one or two pieces (``piece``: ``R``, ``Q``, ``BB``, ``BN``) against
    a lone king on one board, square by square."""

    def __init__(self, rows: int, cols: int, piece: str) -> None:
        self.rows, self.cols, self.piece = rows, cols, piece
        # a refutation asks the same positions again and again: each answered once
        self._after: dict[tuple[Square, Men], dict[Square, tuple[str, list[Square], int]]] = {}
        self._moves: dict[tuple[Square, Men], dict[str, tuple[Square, Men]]] = {}

    def on(self, sq: Square) -> bool:
        return 0 <= sq[0] < self.rows and 0 <= sq[1] < self.cols

    def name(self, sq: Square) -> str:
        return "abcdefgh"[sq[1]] + str(sq[0] + 1)

    def near(self, a: Square, b: Square) -> bool:
        return max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= 1

    def pieces_of(self, number: int) -> Men:
        """The pieces' squares from a metaposition's piece square (one piece) or
        placement number (two: ``first * squares + second``)."""
        n = self.rows * self.cols
        if not 0 <= number < n ** len(self.piece):
            raise Refuted(f"{number} numbers no placement of {self.piece} on the board")
        numbers = (number,) if len(self.piece) == 1 else divmod(number, n)
        return tuple(divmod(s, self.cols) for s in numbers)

    def canon(self, pieces: Men) -> Men:
        """Two bishops are interchangeable: the one on the lower square first."""
        if len(pieces) == 2 and self.piece[0] == self.piece[1] and pieces[1] < pieces[0]:
            return pieces[1], pieces[0]
        return pieces

    def number(self, pieces: Men) -> int:
        """The placement number of ``pieces`` (:meth:`pieces_of`'s inverse)."""
        out = 0
        for r, f in self.canon(pieces):
            out = out * self.rows * self.cols + r * self.cols + f
        return out

    def reach(self, letter: str, sq: Square, men: set[Square]) -> dict[Square, str]:
        """The squares the piece ``letter`` on ``sq`` attacks (a line ends on the first of
        White's ``men`` it meets, which it defends), each with the check it would be."""
        if letter == "N":
            return {t: "knight" for t in ((sq[0] + a, sq[1] + b) for a, b in JUMPS) if self.on(t)}
        out = {}
        for dr, df in LINES[letter]:
            r, f = sq[0] + dr, sq[1] + df
            while self.on((r, f)):
                out[r, f] = self.direction(sq, (r, f), dr, df)
                if (r, f) in men:
                    break
                r, f = r + dr, f + df
        return out

    def lines(self, king: Square, pieces: Men) -> dict[Square, str]:
        """Every square White's pieces attack, with the check a king there would hear
        (a double check names both ways, in alphabetical order)."""
        men = {king, *pieces}
        ways: dict[Square, list[str]] = {}
        for letter, sq in zip(self.piece, pieces, strict=True):
            for t, way in self.reach(letter, sq, men).items():
                ways.setdefault(t, []).append(way)
        return {t: "+".join(sorted(w)) for t, w in ways.items()}

    def direction(self, piece_sq: Square, target: Square, dr: int, df: int) -> str:
        if dr == 0:
            return "rank"
        if df == 0:
            return "file"
        lengths = []
        for a, b in ((1, 1), (1, -1)):
            n = 1 + sum(
                1
                for sign in (1, -1)
                for k in range(1, 9)
                if self.on((target[0] + sign * k * a, target[1] + sign * k * b))
            )
            lengths.append(n)
        mine = lengths[0] if dr == df else lengths[1]
        return "long-diagonal" if mine >= max(lengths) else "short-diagonal"

    def image(self, symmetry: str, sq: Square) -> Square:
        """The image of ``sq`` under a symmetry of the board named by its formula: ``"r,f"``
        (the identity), ``"-r,f"`` (ranks counted from the top), ``"f,r"`` (ranks and
        files swapped: square boards only), ... The rules are the same on the image:
        lines go to lines and king steps to king steps, a diagonal keeps its length, and
        a check on a rank becomes one on a file when ranks and files swap, so White
        mates as fast from a metaposition as from its image (the answers renamed)."""
        parts = symmetry.split(",") if isinstance(symmetry, str) else []
        axes = sorted(p.lstrip("-") for p in parts)
        if len(parts) != 2 or axes != ["f", "r"] or any(p not in ("r", "-r", "f", "-f") for p in parts):
            raise Refuted(f"{symmetry!r} names no symmetry of the board")
        if parts[0].lstrip("-") == "f" and self.rows != self.cols:
            raise Refuted(f"{symmetry} swaps ranks and files of a board that is not square")
        size = {"r": self.rows, "f": self.cols}
        at = {"r": sq[0], "f": sq[1]}
        r, f = (size[p[1]] - 1 - at[p[1]] if p[0] == "-" else at[p] for p in parts)
        return r, f

    def white_moves(self, king: Square, pieces: Men) -> dict[str, tuple[Square, Men]]:
        """Every attempt White can think of, by name: the new (king, pieces) squares."""
        if (king, pieces) not in self._moves:
            self._moves[king, pieces] = self._white_moves(king, pieces)
        return self._moves[king, pieces]

    def _white_moves(self, king: Square, pieces: Men) -> dict[str, tuple[Square, Men]]:
        out = {}
        men = {king, *pieces}
        for dr, df in KING:
            t = (king[0] + dr, king[1] + df)
            if self.on(t) and t not in men:
                out["K" + self.name(t)] = (t, pieces)
        for i, (letter, sq) in enumerate(zip(self.piece, pieces, strict=True)):
            for t in self.reach(letter, sq, men):
                if t not in men:
                    moved = (*pieces[:i], t, *pieces[i + 1 :])
                    out[letter + self.name(t)] = (king, self.canon(moved))
        return out

    def attacked(self, king: Square, pieces: Men, sq: Square) -> bool:
        return self.near(king, sq) or sq in self.lines(king, pieces)

    def referee(self, king: Square, pieces: Men, black: Square) -> tuple[str, list[Square]]:
        """After White's legal move: the referee's answer and Black's replies."""
        answer, replies, _ = self.after(king, pieces)[black]
        return answer, replies

    def after(self, king: Square, pieces: Men) -> dict[Square, tuple[str, list[Square], int]]:
        """With White's men on ``king`` and ``pieces`` after White's move: for every other
        square of the black king, the referee's answer, Black's replies (taking an
        undefended piece included), and the replies as a bitmask of square numbers
        (rank * files + file)."""
        key = (king, pieces)
        if key not in self._after:
            # the pieces' lines walked once (each square with the check it would be),
            # then every square's answer and steps read from them
            lines = self.lines(king, pieces)
            table = {}
            for r in range(self.rows):
                for f in range(self.cols):
                    if (r, f) != king and (r, f) not in pieces:
                        replies = [
                            (r + dr, f + df) for dr, df in KING
                            if self.on((r + dr, f + df)) and (r + dr, f + df) != king
                            and not self.near(king, (r + dr, f + df)) and (r + dr, f + df) not in lines
                        ]  # fmt: skip
                        answer = self._answer(pieces, lines.get((r, f)), replies)
                        mask = sum(1 << (a * self.cols + b) for a, b in replies)
                        table[r, f] = (answer, replies if answer != "mate" and answer != "stalemate" else [], mask)
            self._after[key] = table
        return self._after[key]

    @staticmethod
    def _answer(pieces: Men, check: str | None, replies: list[Square]) -> str:
        if any(p in replies for p in pieces):
            return "capture"
        if not replies:
            return "mate" if check else "stalemate"
        return f"check-{check}" if check else "silent"


def _game(m: Metaposition) -> Game:
    return Game(m.board.rows, m.board.cols, m.piece)


def _squares(m: Metaposition) -> list[Square]:
    return [divmod(s, m.board.cols) for s in range(m.board.size) if m.belief >> s & 1]


class Replay:
    """A strategy graph played against every square of the black king at once, the
    worst cases remembered (shared by every root of a table).

    From a node with White's men on ``k``, ``p`` and the black king on some square of a
    set ``B``, the worst case is the largest over the squares of ``B`` of the play
    against that square: the squares where the node's attempt is illegal go on together
    to the ``illegal`` node, those that give one answer together to that answer's node
    with Black's replies from all of them; White knows no more than that set, so the
    worst case over it is the worst over its squares (the play is replayed square by
    square, the squares that lead alike taken in one step)."""

    def __init__(self, game: Game, nodes: Any) -> None:
        self.game, self.nodes = game, nodes
        self.memo: dict[tuple, int] = {}
        self.busy: set[tuple] = set()

    def worst(self, node: Any, k: Square, p: Men, squares: int) -> int:
        """White moves to mate at worst from ``node`` with the men on ``k``, ``p`` and the
        black king on any square of the bitmask ``squares`` (rank * files + file);
        :class:`Refuted` where the strategy fails against one of them."""
        game, key = self.game, (node, k, p, squares)
        if key in self.memo:
            return self.memo[key]
        cols = game.cols
        where = [divmod(s, cols) for s in range(game.rows * cols) if squares >> s & 1]
        if key in self.busy:
            raise Refuted(f"the strategy goes round in circles with the black king on {game.name(where[0])}")
        self.busy.add(key)
        try:
            entry = self.nodes[node]
            attempt = entry["attempt"]
            answers = entry["answers"]
        except (TypeError, KeyError, IndexError) as err:
            raise Refuted(f"node {node!r} is not a strategy node ({err})") from None
        options = game.white_moves(k, p)
        if not isinstance(attempt, str) or attempt not in options:
            raise Refuted(f"{attempt} is not a move White can try there")
        k2, p2 = options[attempt]
        told = game.after(k2, p2)
        illegal, next_squares, first = 0, {}, {}
        for b in where:
            if k2 != k and game.near(k2, b):
                illegal |= 1 << (b[0] * cols + b[1])
                first.setdefault("illegal", b)
                continue
            answer, _, replies = told[b]
            if answer in ("capture", "stalemate"):
                raise Refuted(f"after {attempt} with the black king on {game.name(b)}: {answer}")
            next_squares[answer] = next_squares.get(answer, 0) | replies
            first.setdefault(answer, b)
        worst = 0
        if illegal:
            nxt = _follow(answers, "illegal", attempt, game.name(first["illegal"]))
            worst = self.worst(nxt, k, p, illegal)
        for answer, replies in next_squares.items():
            nxt = _follow(answers, answer, attempt, game.name(first[answer]))
            worst = max(worst, 1 + (self.worst(nxt, k2, p2, replies) if replies else 0))
        self.busy.discard(key)
        self.memo[key] = worst
        return worst

    def from_root(self, m: Metaposition, root: Any) -> int:
        """The worst case from ``root`` over every square of ``m``'s belief."""
        cols = m.board.cols
        king, piece_sq = divmod(m.king, cols), self.game.pieces_of(m.piece_square)
        squares = sum(1 << (r * cols + f) for r, f in _squares(m))
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20000))
        try:
            return self.worst(root, king, piece_sq, squares)
        finally:
            sys.setrecursionlimit(limit)


def check_strategy(m: Metaposition, plan: Any, claimed: int) -> tuple[bool, str]:
    """Whether ``plan`` mates from ``m`` within exactly ``claimed`` moves in the worst case."""
    try:
        worst = Replay(_game(m), plan["nodes"]).from_root(m, plan["root"])
    except (TypeError, KeyError):
        return False, "the strategy is not a {root, nodes} graph"
    except Refuted as err:
        return False, str(err)
    if worst != claimed:
        return False, f"the strategy mates within {worst} moves in the worst case, not {claimed}"
    return True, (
        f"the strategy mates within {worst} moves against every square "
        f"({len(_squares(m))}) and every reply"
    )


def _follow(answers: Any, answer: str, attempt: str, where: str) -> Any:
    if not isinstance(answers, dict) or answer not in answers:
        raise Refuted(
            f"after {attempt} with the black king on {where} the referee says {answer}, "
            f"which the strategy does not answer"
        )
    nxt = answers[answer]
    if answer != "mate" and nxt is None:
        raise Refuted(f"after {attempt}: {answer} leads nowhere")
    return nxt


def check_refutation(m: Metaposition, proof: Any, depth: int | None = None) -> tuple[bool, str]:
    """Whether ``proof`` shows that White does not mate from ``m`` within ``depth`` moves
    (``None``: has no forced mate at all)."""
    try:
        return check_refutations([(m, proof["root"], depth)], proof["nodes"])
    except (TypeError, KeyError) as err:
        return False, f"the refutation is malformed ({err.__class__.__name__}: {err})"


def _depth(value: Any) -> int | None:
    """A node's depth: a number of moves, or ``None`` (every number)."""
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
        return value
    raise Refuted(f"a refutation's depth is a number of moves or null, not {value!r}")


def _covers(depth: int | None, needed: int | None) -> bool:
    return depth is None or (needed is not None and depth >= needed)


def _moves(depth: int | None) -> str:
    return "White has no forced mate" if depth is None else f"White does not mate within {depth} moves"


def check_refutations(
    roots: list[tuple[Metaposition, Any, int | None]], proof_nodes: Any
) -> tuple[bool, str]:
    """Whether the refutation graph ``proof_nodes`` holds, each ``(metaposition, root,
    depth)`` of ``roots`` being refuted by its node ``root`` to ``depth`` moves (``None``:
    no forced mate).

    A node (a metaposition, its depth ``d``, and for each attempt how it is refuted)
    claims that White does not mate within ``d`` moves there. It holds if every attempt
    White can make (legal on some square) either lets the black king draw on a square
    where it is legal, or has an answer leading to a node that claims as much: ``d``
    moves after ``illegal`` (no move made), ``d - 1`` after a move (``None`` stays
    ``None``); a node of depth 0 needs nothing. A node may stand for a part of the
    metaposition an answer leads to (the same men, a subset of its squares): knowing
    less never lets White mate faster, so refuting the part refutes the whole; and, when
    the link names a symmetry, for a part of its image (:meth:`Game.image`). By
    induction on ``d`` and then on the number of squares (an illegal attempt leaves
    fewer), every node's claim is then true; for ``None``, at every depth."""
    game = _game(roots[0][0]) if roots else None
    try:
        nodes = [parse_metaposition(n["metaposition"]) for n in proof_nodes]
        depths = [_depth(n["depth"]) for n in proof_nodes]
        refutes = [n["refutes"] for n in proof_nodes]
        for m, root, depth in roots:
            r = nodes[root]
            if (r.board, r.king, r.piece_square, r.piece) != (m.board, m.king, m.piece_square, m.piece) or (
                r.belief & ~m.belief
            ):  # fmt: skip
                return False, f"the refutation of {m.fen()} does not start there"
            if not _covers(depths[root], depth):
                return False, f"the refutation of {m.fen()} claims less: {_moves(depths[root])}"
    except Refuted as err:
        return False, str(err)
    except Exception as err:  # any malformed proof fails, with the reason
        return False, f"the refutation is malformed ({err.__class__.__name__}: {err})"
    try:
        for node, depth, said in zip(nodes, depths, refutes, strict=True):
            _check_node(game, node, depth, said, nodes, depths)
    except Refuted as err:
        return False, str(err)
    except (TypeError, KeyError, IndexError, ValueError) as err:
        return False, f"the refutation is malformed ({err.__class__.__name__}: {err})"
    claims = {_moves(depth) for _, _, depth in roots}
    said = claims.pop() if len(roots) == 1 else f"{len(roots)} claims of no faster mate or none"
    return True, f"{said}: every attempt refuted in the {len(nodes)} metapositions of the refutation"


def _check_node(
    game: Game,
    node: Metaposition,
    depth: int | None,
    said: Any,
    nodes: list[Metaposition],
    depths: list[int | None],
) -> None:
    if depth == 0:
        return  # no mate within 0 moves: nothing to refute
    cols = node.board.cols
    king, piece_sq = divmod(node.king, cols), game.pieces_of(node.piece_square)
    squares = _squares(node)
    if not isinstance(said, dict):
        raise Refuted(f"{node.fen()}: the attempts' refutations are not a mapping")
    for attempt, (k2, p2) in game.white_moves(king, piece_sq).items():
        if k2 != king:  # a king move is illegal next to the black king
            legal = [b for b in squares if max(abs(k2[0] - b[0]), abs(k2[1] - b[1])) > 1]
        else:
            legal = squares
        if not legal:
            continue  # illegal wherever the king is: White learns nothing
        if attempt not in said:
            raise Refuted(f"{node.fen()}: the attempt {attempt} is not refuted")
        claim = said[attempt]
        told = game.after(k2, p2)
        if claim == "draw":
            if not any(told[b][0] in ("capture", "stalemate") for b in legal):
                raise Refuted(f"{node.fen()}: {attempt} risks no draw")
            continue
        answer, target, *turned = claim  # a third item: the node is a symmetric image
        if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < len(nodes):
            raise Refuted(f"{node.fen()}: after {attempt}, {target!r} is no node of the refutation")
        child = nodes[target]
        if answer == "illegal":
            men, needed = (king, piece_sq), depth
            belief = sum(1 << (r * cols + f) for r, f in squares) ^ sum(1 << (r * cols + f) for r, f in legal)
        elif answer in ("mate", "capture", "stalemate"):
            raise Refuted(f"{node.fen()}: after {attempt}, '{answer}' refutes nothing")
        else:
            men, needed = (k2, p2), None if depth is None else depth - 1
            belief = 0
            for b in legal:
                said_here, _, replies = told[b]
                if said_here == answer:
                    belief |= replies
        if turned:
            if len(turned) != 1:
                raise Refuted(f"{node.fen()}: after {attempt}, {claim!r} is no refutation")
            men = (game.image(turned[0], men[0]), game.canon(tuple(game.image(turned[0], s) for s in men[1])))
            belief = sum(
                1 << (r * cols + f)
                for r, f in (game.image(turned[0], divmod(s, cols)) for s in range(node.board.size) if belief >> s & 1)
            )
        got = (divmod(child.king, cols), game.pieces_of(child.piece_square))
        if not belief or child.belief & ~belief or got != men:
            raise Refuted(
                f"{node.fen()}: after {attempt} and '{answer}' White is not at {child.fen()} "
                "nor at a metaposition containing it"
            )
        if not _covers(depths[target], needed):
            wanted = "every number" if needed is None else needed
            raise Refuted(
                f"{node.fen()}: after {attempt} and '{answer}', {child.fen()} claims too little "
                f"({_moves(depths[target])}; the refutation needs {wanted})"
            )


def own_starts(board: Any, piece: str) -> list[Metaposition]:
    """Every full-uncertainty start, by this module's rules: each placement of the king
    and the pieces (two bishops: on squares of both colours, each pair once), the black
    king on every square not attacked nor occupied."""
    game = Game(board.rows, board.cols, piece)
    cells = [(r, f) for r in range(board.rows) for f in range(board.cols)]
    sets: list[Men] = [(p,) for p in cells]
    if len(piece) == 2:
        sets = [(p, q) for p in cells for q in cells if p != q]
        if piece == "BB":
            sets = [(p, q) for p, q in sets if p < q and sum(p) % 2 != sum(q) % 2]
    out = []
    for k in cells:
        for ps in sets:
            if k in ps:
                continue
            lines = game.lines(k, ps)
            free = [b for b in cells if b != k and b not in ps and not game.near(k, b) and b not in lines]
            if free:
                belief = sum(1 << (r * board.cols + f) for r, f in free)
                out.append(Metaposition(board, k[0] * board.cols + k[1], game.number(ps), belief, piece))
    return out


def check_table(request: Any, outcome: Outcome) -> tuple[bool | None, str]:
    """The checker of ``kriegspiel table``: every start of the board is listed; each
    value is replayed (one shared strategy graph) and, where the table gives one, its
    lower bound refuted (no mate within one move less); each "no forced mate" refuted;
    the distribution is counted from them. What it confirmed and what it was given no
    certificate for go to ``outcome.stats`` as for ``solve`` (:func:`check_outcome`)."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    witness = outcome.witness
    try:
        listed = {row["metaposition"]: row for row in witness["starts"]}
        plan, proof = witness["strategy"], witness["refutation"]
    except (TypeError, KeyError) as err:
        return False, f"the table is malformed ({err})"
    mine = own_starts(request.board, request.piece)
    if set(listed) != {m.fen() for m in mine}:
        return False, f"the table lists {len(listed)} starts, not the board's {len(mine)}"
    replay = Replay(Game(request.board.rows, request.board.cols, request.piece), plan["nodes"])
    refuted: list[tuple[Metaposition, Any, int | None]] = []
    counts: dict[str, int] = {}
    bounds = unproven = 0
    missing = None
    try:
        try:
            table = _value_table(request.board.rows, request.board.cols, request.piece, outcome)
        except Missing as err:
            table, missing = None, str(err)
        found, confirmed = _confirmed(table, mine) if table is not None else ([None] * len(mine), 0)
        for m, certified in zip(mine, found, strict=True):
            row = listed[m.fen()]
            value = row["value"]
            if certified is not None and certified != (NO_MATE if value is None else value):
                return False, f"{m.fen()}: the table of values says {_value(certified)}, not {value}"
            if value is None:
                if row["refutation"] is not None:
                    refuted.append((m, row["refutation"], None))
                elif certified is None and table is not None:
                    return False, f"{m.fen()}: no forced mate claimed without a refutation"
                elif certified is None:  # a table given without its values (none to read)
                    unproven += 1
            else:
                if replay.from_root(m, row["strategy"]) != value:
                    return False, f"{m.fen()}: the strategy does not mate in exactly {value}"
                if row["refutation"] is not None:
                    refuted.append((m, row["refutation"], value - 1))
                if row["refutation"] is not None or certified is not None:
                    bounds += 1
            key = "none" if value is None else str(value)
            counts[key] = counts.get(key, 0) + 1
    except Refuted as err:
        return False, str(err)
    except (TypeError, KeyError, IndexError) as err:
        return False, f"the table is malformed ({err.__class__.__name__}: {err})"
    if refuted:
        ok, why = check_refutations(refuted, proof["nodes"])
        if not ok:
            return False, why
    lost = sum(1 for m in mine if listed[m.fen()]["value"] is None)
    answer = outcome.answer if isinstance(outcome.answer, dict) else {}
    if counts != answer.get("distribution"):
        return False, f"the distribution is {counts}, not {answer.get('distribution')}"
    won = len(mine) - lost
    values = [listed[m.fen()]["value"] for m in mine]
    counted = {"starts": len(mine), "forced": won, "share": round(won / len(mine), 4) if mine else 0.0,
               "longest": max((v for v in values if v is not None), default=None)}  # fmt: skip
    if table is not None:  # the reachable metapositions: the table's own
        counted["metapositions"] = len(table)
    for key, mine_said in counted.items():
        if answer.get(key) != mine_said:
            return False, f"the table says {key} {answer.get(key)!r}, the starts give {mine_said!r}"
    outcome.stats["checked"] = {"mate_within": won, "no_mate_within": bounds, "no_forced_mate": lost - unproven}
    said = (
        f"{won} strategies replayed against every square and reply, {bounds} of their values "
        f"refuted one move less, {lost - unproven} starts refuted"
    )
    gaps = []
    if confirmed:
        said += f" (the table's values confirmed on the {confirmed:,} metapositions they need)"
    if bounds < won:
        by = outcome.stats.get("optimal_by", "the solver")
        why_not = missing or outcome.stats.get("no_certificate", "no refutation of a faster mate given")
        gaps.append(f"no faster mate from {won - bounds} starts (optimal by {by} alone: {why_not})")
        said += f"; the other values optimal by {by} alone, not re-checked ({why_not})"
    if unproven:
        by = outcome.stats.get("optimal_by", "the solver")
        gaps.append(f"no forced mate from {unproven} starts (by {by} alone{f': {missing}' if missing else ''})")
        said += f"; {unproven} starts without a forced mate by {by} alone, not re-checked"
    if "metapositions" not in counted:
        gaps.append(f"the count of reachable metapositions ({missing or 'no table of values given'})")
    if gaps:
        outcome.verdict.not_checked = "; ".join(gaps)
    return True, said


def check_policy_line(m: Metaposition, witness: Any, policy: Policy) -> tuple[bool, str]:
    """Whether ``policy`` (a strategy that is a function of the metaposition) fails to
    mate from ``m`` against the witness's Black line: at each step the policy is asked
    for its attempt (the claim is about that very policy), and the referee's answer (one
    some square of the metaposition gives) and the next metaposition are computed here;
    the line must come back to a metaposition it met (the policy, deterministic, then
    goes round for ever: a black king that answers so exists at every length, so one
    that does for ever) or end where every attempt risks a draw."""
    game = _game(m)
    cols = m.board.cols
    state = (m.king, m.piece_square, m.belief)
    met: list[tuple[int, int, int]] = []

    def asked(state: tuple[int, int, int]) -> str | None:
        return policy(Metaposition(m.board, *state, m.piece))

    try:
        steps, returns_to = witness["line"], witness["returns_to"]
        for number, step in enumerate(steps):
            met.append(state)
            chose = asked(state)
            attempt, answer = step["attempt"], step["answer"]
            if chose != attempt:
                return False, f"step {number + 1}: the policy plays {chose}, not {attempt}"
            state = _next(game, cols, state, attempt, answer, number + 1)
        if returns_to is None:
            if asked(state) is not None:
                return False, "the line ends where the policy still has an attempt that risks no draw"
            king, piece_sq = divmod(state[0], cols), game.pieces_of(state[1])
            squares = [divmod(s, cols) for s in range(m.board.size) if state[2] >> s & 1]
            for attempt, (k2, p2) in game.white_moves(king, piece_sq).items():
                legal = [b for b in squares if k2 == king or not game.near(k2, b)]
                if legal and not any(game.referee(k2, p2, b)[0] in ("capture", "stalemate") for b in legal):
                    return False, f"at the line's end {attempt} risks no draw"
            end = "ends where every attempt risks a draw"
        else:
            if isinstance(returns_to, bool) or not isinstance(returns_to, int) or not 0 <= returns_to < len(met):
                return False, f"the line returns to step {returns_to!r}, which it does not have"
            if met[returns_to] != state:
                return False, f"the line does not return to the metaposition of step {returns_to + 1}"
            end = f"returns to the metaposition of step {returns_to + 1}: the policy goes round for ever"
    except Refuted as err:
        return False, str(err)
    except (TypeError, KeyError, ValueError) as err:
        return False, f"the line is malformed ({err.__class__.__name__}: {err})"
    return True, (
        f"the heuristic's strategy replayed along the {len(steps)}-step Black line: it never "
        f"mates there (the line {end})"
    )


def _next(game: Game, cols: int, state: tuple[int, int, int], attempt: str, answer: str, number: int) -> tuple[int, int, int]:
    """The metaposition after ``attempt`` and the referee's ``answer`` (this module's
    rules); :class:`Refuted` if no square gives that answer, or the attempt may draw."""
    king, piece_sq = divmod(state[0], cols), game.pieces_of(state[1])
    squares = [divmod(s, cols) for s in range(game.rows * cols) if state[2] >> s & 1]
    moves = game.white_moves(king, piece_sq)
    if attempt not in moves:
        raise Refuted(f"step {number}: {attempt} is not a move White can try")
    k2, p2 = moves[attempt]
    illegal = [b for b in squares if k2 != king and game.near(k2, b)]
    legal = [b for b in squares if b not in illegal]
    told = {b: game.referee(k2, p2, b) for b in legal}
    if any(a in ("capture", "stalemate") for a, _ in told.values()):
        raise Refuted(f"step {number}: {attempt} risks a draw, which the policy never plays")
    if answer == "illegal":
        men, belief = (king, piece_sq), set(illegal)
    else:
        men = (k2, p2)
        belief = {r for a, replies in told.values() if a == answer and a != "mate" for r in replies}
    if not belief:
        raise Refuted(f"step {number}: no square of the black king gives '{answer}' after {attempt}")
    index = lambda sq: sq[0] * cols + sq[1]  # noqa: E731
    return index(men[0]), game.number(men[1]), sum(1 << index(b) for b in belief)


def _value(value: int) -> str:
    return "no forced mate" if value >= NO_MATE else f"{value} moves"


def _value_table(rows: int, cols: int, piece: str, outcome: Outcome) -> Any:
    """The :class:`~pyasp_games.domains.kriegspiel.value_check.ValueTable` of an outcome
    (the solver's certificate, else the file its witness names), or ``None``. The board
    and the piece are the checker's own (those of the metapositions asked about). The
    certificate may be the JSON form of one (a saved answer: lists for the arrays). A
    file named that is not on this machine is :class:`Missing`; a table that cannot be
    read, :class:`Refuted`."""
    import numpy as np

    proof = outcome.certificate
    witness = outcome.witness
    said = witness.get("certificate") if isinstance(witness, dict) else None
    if not (isinstance(proof, dict) and "keys" in proof and "values" in proof):
        if not isinstance(said, dict) or not said.get("file"):
            return None
        from pathlib import Path

        if not Path(str(said["file"])).is_file():
            raise Missing(f"the table of values {said['file']} is not on this machine")
        try:
            with np.load(said["file"]) as data:
                proof = {"keys": data["keys"], "values": data["values"], "file": said["file"]}
        except (OSError, ValueError, KeyError) as err:
            raise Refuted(f"the table of values {said['file']} cannot be read ({err})") from None
    try:
        keys = np.asarray(proof["keys"], dtype=np.uint64).reshape(-1, 3)
        values = np.asarray(proof["values"], dtype=np.int64).reshape(-1)
    except (TypeError, ValueError, OverflowError) as err:
        raise Refuted(f"the table of values is malformed ({err})") from None
    if len(keys) != len(values):
        raise Refuted(f"the table of values has {len(keys)} metapositions and {len(values)} values")
    from pyasp_games.domains.kriegspiel.value_check import ValueTable

    return ValueTable(rows, cols, piece, keys, values, proof.get("file"))


def _confirmed(table: Any, roots: list[Metaposition]) -> tuple[list[int], int]:
    """:func:`~pyasp_games.domains.kriegspiel.value_check.confirm` on the roots' states,
    its failure a :class:`Refuted`."""
    from pyasp_games.domains.kriegspiel.value_check import Refuted as Broken
    from pyasp_games.domains.kriegspiel.value_check import confirm

    try:
        return confirm(table, [(r.king, r.piece_square, r.belief) for r in roots])
    except Broken as err:
        raise Refuted(f"the table of values: {err}") from None


def _table_value(m: Metaposition, outcome: Outcome) -> tuple[int, str] | None:
    """The value of ``m`` in the table of values that certifies ``outcome``, confirmed
    on every metaposition ``m`` needs, with what was checked; ``None`` when the outcome
    comes with no table (:class:`Refuted` where the table does not hold)."""
    table = _value_table(m.board.rows, m.board.cols, m.piece, outcome)
    if table is None:
        return None
    (value,), count = _confirmed(table, [m])
    return value, f"the table's values confirmed on the {count:,} metapositions it needs"


def _no_mate_within(m: Metaposition, outcome: Outcome, bound: int | None) -> tuple[bool, str]:
    """Whether White does not mate from ``m`` within ``bound`` moves (``None``: at all), by
    the witness's refutation graph and/or the table of values."""
    witness = outcome.witness
    graph = isinstance(witness, dict) and "root" in witness
    try:
        table = _table_value(m, outcome)
    except Refuted as err:
        return False, str(err)
    except Missing as err:  # the graph alone may still hold it; else undecided here
        if not graph:
            raise Unconfirmed(str(err)) from None
        table = None
    if not graph and table is None:
        return False, "no refutation and no table of values given"
    said = ""
    if graph:
        ok, said = check_refutation(m, witness, bound)
        if not ok:
            return ok, said
    if table is not None:
        value, said = table
        if value < NO_MATE and (bound is None or value <= bound):
            return False, f"{said}: White mates within {value} moves"
        said = f"{_moves(bound)}: {said}"
    return True, said


def check_outcome(
    m: Metaposition, outcome: Outcome, policy: Policy | None = None
) -> tuple[bool | None, str]:
    """The checker of ``kriegspiel solve``: a strategy replayed (mate within N), the
    refutation of a faster mate for a claimed optimum (no mate within N - 1), a
    refutation of any mate (no forced mate) or of one within ``--max-moves``, and the
    line on which the heuristic's ``policy`` fails (without the policy that claim is not
    checkable). A refutation is a graph (``witness["refutation"]``; for ``no-solution``
    the witness itself) or a table of values (``outcome.certificate``, or the file
    ``witness["certificate"]`` names), confirmed on what the metaposition needs by
    :mod:`~pyasp_games.domains.kriegspiel.value_check`; both must hold where both are given.

    What it confirmed goes to ``outcome.stats["checked"]`` (``mate_within``,
    ``no_mate_within``, ``no_forced_mate``); a claimed optimum it was given no
    certificate for, to ``outcome.verdict.not_checked``, with what it rests on
    (``stats["optimal_by"]``) and why there is none (``stats["no_certificate"]``)."""
    stats = outcome.stats
    if outcome.status == "solved":
        ok, why = check_strategy(m, outcome.witness, outcome.answer)
        if not ok:
            return False, why
        stats["checked"] = {"mate_within": outcome.answer}
        if not outcome.verdict.exact:
            return True, f"{why} (an upper bound: no optimum claimed)"
        try:
            return _optimal(m, outcome, why)
        except Refuted as err:
            return False, f"the claimed optimum: {err}"
    if outcome.status == "no-solution":
        bound = outcome.verdict.bound
        if bound == "the heuristic's strategy":
            if policy is None:
                return None, "not checkable alone (the strategy's policy was not given)"
            ok, said = check_policy_line(m, outcome.witness, policy)
            if ok:
                stats["checked"] = {"strategy_fails": True}
            return ok, said
        if isinstance(bound, int) and not isinstance(bound, bool):
            if outcome.witness is None:
                return None, f"not checkable alone (no mate within {bound} moves)"
            ok, said = _no_mate_within(m, outcome, bound)
            if ok:
                stats["checked"] = {"no_mate_within": bound}
            return ok, said
        if bound is not None:
            return None, f"not checkable alone ({bound})"
        ok, said = _no_mate_within(m, outcome, None)
        if ok:
            stats["checked"] = {"no_forced_mate": True}
        return ok, said
    return None, "nothing to verify"


def _optimal(m: Metaposition, outcome: Outcome, why: str) -> tuple[bool, str]:
    """No faster mate than a solved outcome's claimed optimum N: its refutation of a
    mate within N - 1, its table of values, or both."""
    stats = outcome.stats
    faster = outcome.answer - 1
    proof = outcome.witness.get("refutation")
    missing = None
    try:
        table = _table_value(m, outcome)
    except Missing as err:
        table, missing = None, str(err)
    if proof is None and table is None:
        said = f"optimal by {stats.get('optimal_by', f'the {outcome.backend} backend')} alone"
        why_not = missing or stats.get("no_certificate", "no refutation of a faster mate given")
        outcome.verdict.not_checked = f"no mate within {faster} ({said}: {why_not})"
        return True, f"{why}; {said}, the lower bound not re-checked ({why_not})"
    said = ""
    if proof is not None:
        ok, said = check_refutation(m, proof, faster)
        if not ok:
            return False, f"the claimed optimum: {said}"
    if table is not None:
        value, said = table
        if value != outcome.answer:
            return False, f"the claimed optimum: {said}, and there the value is {_value(value)}"
        said = f"{_moves(faster)}: {said}"
    stats["checked"]["no_mate_within"] = faster
    return True, f"{why}; {said}"


# -- KPK (king and pawn) and the KQK it promotes into: the retrograde equation, re-checked ---

_PAWN_NO_WIN = 1_000_000


class _PawnRules:
    """The checker's own KPK/KQK rules, square by square from coordinates (not the
    solver's bitmask tables): White's attempts, where each is illegal, and the referee's
    answer and Black's replies after a legal move."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols

    def at(self, r: int, f: int) -> int | None:
        return r * self.cols + f if 0 <= r < self.rows and 0 <= f < self.cols else None

    def near(self, a: int, b: int) -> bool:
        (r1, f1), (r2, f2) = divmod(a, self.cols), divmod(b, self.cols)
        return max(abs(r1 - r2), abs(f1 - f2)) <= 1

    def steps(self, s: int) -> list[int]:
        r, f = divmod(s, self.cols)
        return [t for dr in (-1, 0, 1) for df in (-1, 0, 1)
                if (dr or df) and (t := self.at(r + dr, f + df)) is not None]

    def rays(self, s: int, king: int) -> list[tuple[tuple[int, int], list[int]]]:
        r0, f0 = divmod(s, self.cols)
        out = []
        for dr in (-1, 0, 1):
            for df in (-1, 0, 1):
                if dr or df:
                    ray, r, f = [], r0 + dr, f0 + df
                    while (t := self.at(r, f)) is not None and t != king:
                        ray.append(t)
                        r, f = r + dr, f + df
                    out.append(((dr, df), ray))
        return out

    def attempts(self, man: str, king: int, s: int) -> list[tuple[str, int, tuple[int, ...]]]:
        """``(man moved, target, squares where the black king makes it illegal)``."""
        out = [("K", t, tuple(x for x in range(self.rows * self.cols) if self.near(x, t)))
               for t in self.steps(king) if t != s]
        r, f = divmod(s, self.cols)
        if man == "P":
            one = self.at(r + 1, f)
            if one is not None and one != king:
                out.append(("P", one, (one,)))
                two = self.at(r + 2, f)
                if r == 1 and self.rows >= 5 and two is not None and two != king:
                    out.append(("P", two, (one, two)))
        else:
            out += [("Q", t, ()) for _d, ray in self.rays(s, king) for t in ray]
        return out

    def attacked(self, man: str, king: int, s: int) -> dict[int, tuple[int, int]]:
        """The squares the pawn or queen attacks, each with its direction from ``s``."""
        r, f = divmod(s, self.cols)
        if man == "P":
            return {t: (1, df) for df in (-1, 1) if (t := self.at(r + 1, f + df)) is not None}
        return {t: d for d, ray in self.rays(s, king) for t in ray}

    def diagonal_length(self, b: int, d: tuple[int, int]) -> int:
        r0, f0 = divmod(b, self.cols)
        n = 1
        for sign in (1, -1):
            r, f = r0 + sign * d[0], f0 + sign * d[1]
            while self.at(r, f) is not None:
                n, r, f = n + 1, r + sign * d[0], f + sign * d[1]
        return n

    def answer(self, man: str, king: int, s: int, b: int) -> tuple[str, list[int]] | None:
        """The referee's answer and Black's steps after White's legal move, ``None`` when
        Black may take the man or is stalemated (a draw)."""
        hit = self.attacked(man, king, s)
        if self.near(b, s) and not self.near(king, s):
            return None  # the unprotected pawn or queen is taken
        free = [t for t in self.steps(b) if t != s and not self.near(t, king) and t not in hit]
        if b not in hit:
            return ("silent", free) if free else None
        if not free:
            return "mate", []
        dr, df = hit[b]
        if dr == 0:
            return "check-rank", free
        if df == 0:
            return "check-file", free
        other = (dr, -df)
        long = self.diagonal_length(b, (dr, df)) >= self.diagonal_length(b, other)
        return f"check-{'long' if long else 'short'}-diagonal", free


def _check_pawn_certificate(rows: int, cols: int, cert: Any, roots: list[tuple[tuple, Any]]
                            ) -> tuple[bool, str]:
    """Every state of the certificate satisfies the retrograde equation under the
    checker's own rules (its value is what its best attempt achieves: an attempt's worth is
    the larger of the illegal part's value and one more than the worst answer's), the
    table is closed (every successor listed), and the roots have the claimed values. On a
    closed table the equation makes every finite value achieved (a strategy) and no value
    beatable (no faster mate, and no win where none is claimed)."""
    if not isinstance(cert, dict) or not isinstance(cert.get("states"), list):
        return False, "no certificate (the table of values) to check"
    rules = _PawnRules(rows, cols)
    value: dict[tuple, int] = {}
    for row in cert["states"]:
        man, k, s, belief, v = row
        value[(man, int(k), int(s), int(belief))] = int(v)
    for state, claimed in roots:
        got = value.get(state)
        want = _PAWN_NO_WIN if claimed is None else claimed
        if got != want:
            return False, f"a start's value {got} is not the claimed {claimed}"
    for (man, k, s, belief), v in value.items():
        squares = [b for b in range(rows * cols) if belief >> b & 1]
        best = _PAWN_NO_WIN
        for moved, t, bad in rules.attempts(man, k, s):
            illegal = sum(1 << b for b in squares if b in bad)
            if illegal == belief:
                continue  # illegal wherever the king may be: no move, and nothing learnt
            k2, s2 = (t, s) if moved == "K" else (k, t)
            man2 = "Q" if man == "Q" or (rows - 1 == t // cols and moved == "P") else "P"
            groups: dict[str, int] = {}
            draw = False
            for b in squares:
                if b in bad:
                    continue
                said = rules.answer(man2, k2, s2, b)
                if said is None:
                    draw = True
                    break
                name, free = said
                groups[name] = groups.get(name, 0) | sum(1 << x for x in free)
            if draw:
                continue  # some square allows a stalemate or a capture
            worth = 0
            if illegal:
                sub = value.get((man, k, s, illegal))
                if sub is None:
                    return False, f"the table is not closed: {(man, k, s, illegal)} is missing"
                worth = sub
            worst = 0
            for name, nxt in groups.items():
                if name == "mate":
                    continue
                got = value.get((man2, k2, s2, nxt))
                if got is None:
                    return False, f"the table is not closed: {(man2, k2, s2, nxt)} is missing"
                worst = max(worst, got)
            best = min(best, max(worth, min(1 + worst, _PAWN_NO_WIN)))
        if best != v:
            return False, f"state {(man, k, s, belief)}: value {v}, but its best attempt gives {best}"
    return True, f"the retrograde equation holds on all {len(value)} states (closed table)"


def _pawn_state(fen: str, rows: int, cols: int) -> tuple[str, int, int, int] | None:
    """``("P", king, pawn, belief)`` from a one-line KPK form (ranks from the top, K P ?
    and digits), read here (the checker reads no solver module)."""
    ranks = fen.split("/")
    if len(ranks) != rows:
        return None
    king = pawn = None
    belief = 0
    for i, rank in enumerate(ranks):
        f = 0
        for ch in rank:
            if ch.isdigit():
                f += int(ch)
                continue
            s = (rows - 1 - i) * cols + f
            if ch == "K":
                king = s
            elif ch == "P":
                pawn = s
            elif ch == "?":
                belief |= 1 << s
            else:
                return None
            f += 1
        if f != cols:
            return None
    if king is None or pawn is None or not belief:
        return None
    return ("P", king, pawn, belief)


def check_pawn_outcome(m: Any, outcome: Outcome) -> tuple[bool | None, str]:
    """``pawn-solve``: the start's value (or no sure win) confirmed from the certificate."""
    if outcome.status not in ("solved", "no-solution"):
        return None, "nothing to verify"
    claimed = outcome.answer if outcome.status == "solved" else None
    return _check_pawn_certificate(m.board.rows, m.board.cols, outcome.certificate,
                                   [(("P", m.king, m.pawn, m.belief), claimed)])


def check_pawn_table(request: Any, outcome: Outcome) -> tuple[bool | None, str]:
    """``pawn-table``: every start's value confirmed from the certificate, and the counts."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    rows = outcome.witness.get("starts", []) if isinstance(outcome.witness, dict) else []
    board = request.board
    roots = []
    for row in rows:
        state = _pawn_state(str(row["metaposition"]), board.rows, board.cols)
        if state is None:
            return False, f"a start is not a KPK metaposition of the board: {row['metaposition']!r}"
        roots.append((state, row["value"]))
    won = [v for _s, v in roots if v is not None]
    if outcome.answer.get("forced") != len(won) or outcome.answer.get("starts") != len(roots):
        return False, "the counts do not match the starts' values"
    ok, why = _check_pawn_certificate(board.rows, board.cols, outcome.certificate, roots)
    return ok, why
