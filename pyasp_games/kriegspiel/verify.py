"""An independent checker of Kriegspiel strategies and refutations, with its own rules.

It shares nothing with the solvers but the reading of metapositions: its move
generator works square by square on (rank, file) pairs, as the rules of chess say.

- A **strategy** (:mod:`~pyasp_games.kriegspiel.strategy`) is replayed against every
  square where the black king may truly be and every Black reply: each attempt must be
  one White can make; where it is illegal the ``illegal`` answer must be followed; where
  it is legal the referee's answer (computed here) must be one the strategy has, and no
  square may allow a stalemate or the piece's capture; every play must end in mate, and
  the worst case must take exactly the claimed number of White moves.
- A **refutation** is checked node by node: every attempt White could make there is
  answered, either by a square where it is legal and draws, or by an answer whose
  metaposition (computed here: the squares giving that answer, then Black's legal
  steps) is the node it names.

>>> from pyasp_games.engines.outcome import Outcome
>>> from pyasp_games.kriegspiel.model import parse_metaposition
>>> m = parse_metaposition("k2/2K/1R1")
>>> plan = {"root": 0, "nodes": [{"attempt": "Ra1", "answers": {"mate": None}}]}
>>> check_outcome(m, Outcome("m", "native", "solved", 1, plan))
(True, 'the strategy mates within 1 moves against every square (1) and every reply')
>>> plan["nodes"][0]["attempt"] = "Rc1"
>>> check_outcome(m, Outcome("m", "native", "solved", 1, plan))[1]
'after Rc1 with the black king on a3 the referee says silent, which the strategy does not answer'
"""

from __future__ import annotations

import sys
from typing import Any

from pyasp_games.engines.outcome import Outcome
from pyasp_games.kriegspiel.model import Metaposition, parse_metaposition

Square = tuple[int, int]
KING = [(dr, df) for dr in (-1, 0, 1) for df in (-1, 0, 1) if (dr, df) != (0, 0)]
LINES = {"R": [(1, 0), (-1, 0), (0, 1), (0, -1)]}
LINES["Q"] = LINES["R"] + [(1, 1), (1, -1), (-1, 1), (-1, -1)]


class Refuted(Exception):
    """The strategy or refutation does not hold (the message says where)."""


class Game:
    """The rules of K + piece against a lone king on one board, square by square."""

    def __init__(self, rows: int, cols: int, piece: str) -> None:
        self.rows, self.cols, self.piece = rows, cols, piece

    def on(self, sq: Square) -> bool:
        return 0 <= sq[0] < self.rows and 0 <= sq[1] < self.cols

    def name(self, sq: Square) -> str:
        return "abcdefgh"[sq[1]] + str(sq[0] + 1)

    def parse(self, text: str) -> Square:
        sq = (int(text[1:]) - 1, "abcdefgh".index(text[0]))
        if not self.on(sq):
            raise Refuted(f"{text} is off the board")
        return sq

    def near(self, a: Square, b: Square) -> bool:
        return max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= 1

    def line(self, piece_sq: Square, king: Square, target: Square) -> str | None:
        """The direction in which the piece on ``piece_sq`` reaches ``target`` with only
        White's king as an obstacle, or ``None``."""
        for dr, df in LINES[self.piece]:
            r, f = piece_sq[0] + dr, piece_sq[1] + df
            while self.on((r, f)) and (r, f) != king:
                if (r, f) == target:
                    return self.direction(piece_sq, target, dr, df)
                r, f = r + dr, f + df
        return None

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

    def white_moves(self, king: Square, piece_sq: Square) -> dict[str, tuple[Square, Square]]:
        """Every attempt White can think of, by name: the new (king, piece) squares."""
        out = {}
        for dr, df in KING:
            t = (king[0] + dr, king[1] + df)
            if self.on(t) and t != piece_sq:
                out["K" + self.name(t)] = (t, piece_sq)
        for dr, df in LINES[self.piece]:
            t = (piece_sq[0] + dr, piece_sq[1] + df)
            while self.on(t) and t != king:
                out[self.piece + self.name(t)] = (king, t)
                t = (t[0] + dr, t[1] + df)
        return out

    def attacked(self, king: Square, piece_sq: Square, sq: Square) -> bool:
        return self.near(king, sq) or self.line(piece_sq, king, sq) is not None

    def black_replies(self, king: Square, piece_sq: Square, black: Square) -> list[Square]:
        """The black king's legal steps (taking the piece included)."""
        out = []
        for dr, df in KING:
            t = (black[0] + dr, black[1] + df)
            if self.on(t) and t != king and not self.attacked(king, piece_sq, t):
                out.append(t)
        return out

    def referee(self, king: Square, piece_sq: Square, black: Square) -> tuple[str, list[Square]]:
        """After White's legal move: the referee's answer and Black's replies."""
        replies = self.black_replies(king, piece_sq, black)
        check = self.line(piece_sq, king, black)
        if piece_sq in replies:
            return "capture", replies
        if not replies:
            return ("mate" if check else "stalemate"), []
        return (f"check-{check}" if check else "silent"), replies


def _game(m: Metaposition) -> Game:
    return Game(m.board.rows, m.board.cols, m.piece)


def _squares(m: Metaposition) -> list[Square]:
    return [divmod(s, m.board.cols) for s in range(m.board.size) if m.belief >> s & 1]


class Replay:
    """A strategy graph played against concrete positions, the worst cases remembered
    (shared by every root of a table)."""

    def __init__(self, game: Game, nodes: Any) -> None:
        self.game, self.nodes = game, nodes
        self.memo: dict[tuple, int] = {}
        self.busy: set[tuple] = set()

    def worst(self, node: Any, k: Square, p: Square, b: Square) -> int:
        """White moves to mate at worst from ``node`` with the men on ``k``, ``p`` and the
        black king truly on ``b`` (:class:`Refuted` where the strategy fails)."""
        game, key = self.game, (node, k, p, b)
        if key in self.memo:
            return self.memo[key]
        if key in self.busy:
            raise Refuted(f"the strategy goes round in circles with the black king on {game.name(b)}")
        self.busy.add(key)
        try:
            entry = self.nodes[node]
            attempt = entry["attempt"]
            answers = entry["answers"]
        except (TypeError, KeyError, IndexError) as err:
            raise Refuted(f"node {node!r} is not a strategy node ({err})") from None
        options = game.white_moves(k, p)
        if attempt not in options:
            raise Refuted(f"{attempt} is not a move White can try there")
        k2, p2 = options[attempt]
        if k2 != k and game.near(k2, b):
            worst = self.worst(_follow(answers, "illegal", attempt, game.name(b)), k, p, b)
        else:
            answer, replies = game.referee(k2, p2, b)
            if answer in ("capture", "stalemate"):
                raise Refuted(f"after {attempt} with the black king on {game.name(b)}: {answer}")
            nxt = _follow(answers, answer, attempt, game.name(b))
            worst = 1 + max((self.worst(nxt, k2, p2, r) for r in replies), default=0)
        self.busy.discard(key)
        self.memo[key] = worst
        return worst

    def from_root(self, m: Metaposition, root: Any) -> int:
        """The worst case from ``root`` over every square of ``m``'s belief."""
        cols = m.board.cols
        king, piece_sq = divmod(m.king, cols), divmod(m.piece_square, cols)
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20000))
        try:
            return max(self.worst(root, king, piece_sq, b) for b in _squares(m))
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


def check_refutation(m: Metaposition, proof: Any) -> tuple[bool, str]:
    """Whether ``proof`` shows that White has no forced mate from ``m``."""
    try:
        return check_refutations([(m, proof["root"])], proof["nodes"])
    except (TypeError, KeyError) as err:
        return False, f"the refutation is malformed ({err.__class__.__name__}: {err})"


def check_refutations(roots: list[tuple[Metaposition, Any]], proof_nodes: Any) -> tuple[bool, str]:
    """Whether the refutation graph ``proof_nodes`` holds, each ``(metaposition, root)``
    of ``roots`` being its node ``root``."""
    game = _game(roots[0][0]) if roots else None
    try:
        nodes = [parse_metaposition(n["metaposition"]) for n in proof_nodes]
        refutes = [n["refutes"] for n in proof_nodes]
        for m, root in roots:
            r = nodes[root]
            if (r.board, r.king, r.piece_square, r.belief, r.piece) != (
                m.board, m.king, m.piece_square, m.belief, m.piece
            ):  # fmt: skip
                return False, f"the refutation of {m.fen()} does not start there"
    except Exception as err:  # any malformed proof fails, with the reason
        return False, f"the refutation is malformed ({err.__class__.__name__}: {err})"
    try:
        for node, said in zip(nodes, refutes, strict=True):
            _check_node(game, node, said, nodes)
    except Refuted as err:
        return False, str(err)
    return True, f"no attempt escapes the {len(nodes)} metapositions of the refutation"


def _check_node(game: Game, node: Metaposition, said: dict, nodes: list[Metaposition]) -> None:
    cols = node.board.cols
    king, piece_sq = divmod(node.king, cols), divmod(node.piece_square, cols)
    squares = _squares(node)
    for attempt, (k2, p2) in game.white_moves(king, piece_sq).items():
        illegal = [b for b in squares if k2 != king and game.near(k2, b)]
        legal = [b for b in squares if b not in illegal]
        if not legal:
            continue  # illegal wherever the king is: White learns nothing
        if attempt not in said:
            raise Refuted(f"{node.fen()}: the attempt {attempt} is not refuted")
        claim = said[attempt]
        results = {b: game.referee(k2, p2, b) for b in legal}
        if claim == "draw":
            if not any(a in ("capture", "stalemate") for a, _ in results.values()):
                raise Refuted(f"{node.fen()}: {attempt} risks no draw")
            continue
        answer, target = claim
        child = nodes[target]
        if answer == "illegal":
            men, belief = (king, piece_sq), illegal
        else:
            men = (k2, p2)
            belief = sorted({r for a, replies in results.values() if a == answer for r in replies})
        want = {divmod(s, cols) for s in range(node.board.size) if child.belief >> s & 1}
        got = (divmod(child.king, cols), divmod(child.piece_square, cols))
        if not belief or set(belief) != want or got != men:
            raise Refuted(f"{node.fen()}: after {attempt} and '{answer}' White is not at {child.fen()}")


def own_starts(board: Any, piece: str) -> list[Metaposition]:
    """Every full-uncertainty start, by this module's rules: each placement of the king
    and the piece, the black king on every square not attacked nor occupied."""
    game = Game(board.rows, board.cols, piece)
    cells = [(r, f) for r in range(board.rows) for f in range(board.cols)]
    out = []
    for k in cells:
        for p in cells:
            if k == p:
                continue
            free = [b for b in cells if b not in (k, p) and not game.attacked(k, p, b)]
            if free:
                belief = sum(1 << (r * board.cols + f) for r, f in free)
                index = lambda sq: sq[0] * board.cols + sq[1]  # noqa: E731
                out.append(Metaposition(board, index(k), index(p), belief, piece))
    return out


def check_table(request: Any, outcome: Outcome) -> tuple[bool | None, str]:
    """The checker of ``kriegspiel table``: every start of the board is listed; each
    value is replayed (one shared strategy graph), each "no forced mate" refuted, and
    the distribution is counted from them."""
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
    lost = []
    counts: dict[str, int] = {}
    try:
        for m in mine:
            row = listed[m.fen()]
            if row["value"] is None:
                lost.append((m, row["root"]))
            elif replay.from_root(m, row["root"]) != row["value"]:
                return False, f"{m.fen()}: the strategy does not mate in exactly {row['value']}"
            key = "none" if row["value"] is None else str(row["value"])
            counts[key] = counts.get(key, 0) + 1
    except Refuted as err:
        return False, str(err)
    except (TypeError, KeyError, IndexError) as err:
        return False, f"the table is malformed ({err.__class__.__name__}: {err})"
    if lost:
        ok, why = check_refutations(lost, proof["nodes"])
        if not ok:
            return False, why
    if counts != outcome.answer.get("distribution"):
        return False, f"the distribution is {counts}, not {outcome.answer.get('distribution')}"
    return True, (
        f"{len(mine) - len(lost)} strategies replayed against every square and reply, "
        f"{len(lost)} starts refuted"
    )


def check_outcome(m: Metaposition, outcome: Outcome) -> tuple[bool | None, str]:
    """The checker of ``kriegspiel solve``: a strategy replayed, a refutation checked."""
    if outcome.status == "solved":
        return check_strategy(m, outcome.witness, outcome.answer)
    if outcome.status == "no-solution":
        if outcome.stats.get("bounded"):
            return None, f"not checkable alone ({outcome.stats['bounded']})"
        return check_refutation(m, outcome.witness)
    return None, "nothing to verify"
