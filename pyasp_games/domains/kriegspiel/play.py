"""A refereed Kriegspiel game in the terminal (``kriegspiel play``).

``side="black"``: you play Black against the engine's optimal strategy (verified before
the game starts): you choose your king's square among the metaposition's ``?`` squares,
then answer each White move with yours; the referee says when your attempt is illegal.
``side="white"``: you play White; Black's king stands on a square drawn among the ``?``
squares and steps at random (``seed``); the referee's answers are printed. Either way,
White's metaposition (what White knows) is shown after each move.

>>> from pyasp_games.domains.kriegspiel.model import parse_metaposition
>>> moves = iter(["a3"])
>>> said = []
>>> play(parse_metaposition("k2/2K/1R1"), "black", lambda prompt: next(moves), said.append)
'mate'
>>> said[-1]
'White plays Ra1: mate. White wins in 1 move.'
"""

from __future__ import annotations

import random
from collections.abc import Callable

from pyasp_games.domains.kriegspiel.metaposition import rules_for
from pyasp_games.domains.kriegspiel.model import (
    Metaposition,
    parse_square,
    piece_squares,
    square_name,
)
from pyasp_games.domains.kriegspiel.referee import Referee, white_answer
from pyasp_games.engines.limits import Limits
from pyasp_games.errors import InputError

Read = Callable[[str], str]
Write = Callable[[str], None]


def _said(answer: str) -> str:
    """The referee's answer in words: ``check-rank`` -> ``check on the rank``."""
    if answer.startswith("check-"):  # a double check names both ways: check-long-diagonal+knight
        ways = answer[len("check-"):].split("+")
        return "check " + " and ".join("by the knight" if w == "knight" else "on the " + w.replace("-", " ") for w in ways)
    return "silence" if answer == "silent" else answer


def _show(m: Metaposition, king: int, square: int, belief: int, write: Write) -> None:
    write("White's metaposition:")
    write(Metaposition(m.board, king, square, belief, m.piece).diagram())


#: What is said when the input ends in the middle of a game (no answer to a prompt).
ABANDONED = "The input ended: the game was abandoned."


def _ask(read: Read, write: Write, prompt: str) -> str | None:
    """The next line typed (stripped), ``None`` when the player quits or the input ends
    (said). A bare Enter asks again: it is no move, and no reason to stop the game."""
    while True:
        try:
            text = read(prompt).strip()
        except EOFError:
            write(ABANDONED)
            return None
        if text.lower() in ("quit", "q"):
            write("You stopped the game.")
            return None
        if text:
            return text


def play(
    m: Metaposition, side: str, read: Read, write: Write, seed: int = 0, limits: Limits = Limits()
) -> str:
    """Play one game; returns how it ended: ``mate``, ``stalemate``, ``capture``,
    ``stopped`` (you quit, or the input ended) or ``unknown`` (as Black: the engine
    found its strategy not within ``limits``)."""
    if side == "black":
        return _as_black(m, read, write, limits)
    if side == "white":
        return _as_white(m, read, write, random.Random(seed))
    raise InputError(f"--side is black or white, got {side!r}")


def _as_black(m: Metaposition, read: Read, write: Write, limits: Limits) -> str:
    from pyasp_games.domains.kriegspiel.questions import SOLVE

    out = SOLVE.solve(m, "native", limits)
    if out.status == "unknown":
        write(f"The engine found no strategy within the limit ({out.stats.get('limit', 'time')}).")
        return "unknown"
    if out.status != "solved" or out.verdict.verified is not True:
        raise InputError("White has no forced mate from this metaposition: nothing for the engine to play")
    nodes, node = out.witness["nodes"], out.witness["root"]
    board = m.board
    choices = " ".join(square_name(board, s) for s in board.squares(m.belief))
    moves = f"{out.answer} move{'s' * (out.answer > 1)}"
    write(f"You are Black. White mates in {moves} at worst. Your king may stand on: {choices}")
    black = None
    while black is None:
        text = _ask(read, write, "your king's square> ")
        if text is None:
            return "stopped"
        try:
            square = parse_square(board, text)
        except InputError as err:
            write(str(err))
            continue
        if m.belief >> square & 1:
            black = square
        else:
            write(f"{text} is not one of: {choices}")
    ref = Referee(board, m.piece, m.king, m.piece_square, black)
    moves = 0
    while True:
        attempt_name = nodes[node]["attempt"]
        attempt = next(a for a in rules_for(board, m.piece).attempts(ref.king, ref.square)
                       if rules_for(board, m.piece).name(a) == attempt_name)  # fmt: skip
        answer = ref.white(attempt)
        if answer == "illegal":
            write(f"White tries {attempt_name}: illegal.")
            node = nodes[node]["answers"]["illegal"]
            continue
        moves += 1
        if answer == "mate":
            write(f"White plays {attempt_name}: mate. White wins in {moves} move{'s' * (moves > 1)}.")
            return "mate"
        write(f"White plays {attempt_name}: {_said(answer)}.")
        node = nodes[node]["answers"][answer]
        while True:
            text = _ask(read, write, "your move> ")
            if text is None:
                return "stopped"
            try:
                said = ref.black(parse_square(board, text))
            except InputError as err:
                write(str(err))
                continue
            if said == "illegal":
                write(f"{text}: illegal, try again.")
                continue
            break
        write("You moved.")  # what White knows now, drawn as `kriegspiel show` does
        _show(m, *_men_and_belief(m, nodes[node]["metaposition"]), write)


def _men_and_belief(m: Metaposition, fen: str) -> tuple[int, int, int]:
    """White's men and the black king's squares of a strategy node's metaposition."""
    from pyasp_games.domains.kriegspiel.model import parse_metaposition

    n = parse_metaposition(fen)
    return n.king, n.piece_square, n.belief


def _as_white(m: Metaposition, read: Read, write: Write, rng: random.Random) -> str:
    board, rules = m.board, rules_for(m.board, m.piece)
    ref = Referee(board, m.piece, m.king, m.piece_square, rng.choice(board.squares(m.belief)))
    belief, moves = m.belief, 0
    names = [rules.name(a) for a in rules.attempts(ref.king, ref.square)]
    kings = [n for n in names if n.startswith("K")]  # the examples are moves of this position
    write(f"You are White. Try moves like {names[0]} or {(kings or names)[-1]} ('quit' to stop).")
    _show(m, ref.king, ref.square, belief, write)
    while True:
        text = _ask(read, write, "your attempt> ")
        if text is None:
            return "stopped"
        names = {rules.name(a): a for a in rules.attempts(ref.king, ref.square)}
        attempt = names.get(text[:1].upper() + text[1:].lower())
        if attempt is None:
            write(f"{text} is not a move you can try (try one of {' '.join(names)})")
            continue
        king, square = ref.king, ref.square
        illegal, legal = rules.split(king, square, belief, attempt)
        answer = ref.white(attempt)
        if answer == "illegal":
            write(f"{text}: illegal.")
            belief = illegal
            _show(m, king, square, belief, write)
            continue
        moves += 1
        if answer in ("mate", "stalemate"):
            end = "you win" if answer == "mate" else "a draw"
            write(f"{text}: {answer}, {end} after {moves} move{'s' * (moves > 1)}.")
            return answer
        write(f"{text}: {_said(answer)}.")
        belief = sum(1 << b for b in board.squares(legal)
                     if white_answer(board, m.piece, ref.king, ref.square, b) == answer)  # fmt: skip
        said = ref.black(rng.choice(ref.black_moves()))
        if said == "capture":
            taken = {"R": "rook", "Q": "queen", "B": "bishop", "N": "knight"}[_taken(m, ref)]
            write(f"Black takes your {taken}: a draw.")
            return "capture"
        belief = rules.black_moves(ref.king, ref.square, belief)
        write("Black has moved.")
        _show(m, ref.king, ref.square, belief, write)


def _taken(m: Metaposition, ref: Referee) -> str:
    """The letter of the piece the black king has just taken (it stands on its square)."""
    before = piece_squares(m.board, m.piece, ref.square)
    return next(letter for letter, s in zip(m.piece, before, strict=True) if s == ref.black_king)
