"""Misère play (issue 41, section 1): what the direct searches cost.

- the misère Nim census: every ordered position with 4 heaps of at most 7 (8^4 = 4,096),
  its class and winning moves by Bouton's misère rule against a direct search of every
  position (and through ``games nim --misere``, verified, for the 330 sorted ones);
- misère Dawson's chess (``kayles sequence path --misere``) and misère Grundy's game
  (``games grundys-game --misere``) up to their limits: the direct search over sums;
- a sum of two graph games under misère play and the genera of its components.

Run from the repository root: ``python benchmarks/misere.py`` (prints a Markdown table:
wall and CPU seconds of each row, measured in this process).
"""

from __future__ import annotations

import itertools
import time

from pyasp_games.domains.grundy.classic_games import misere_grundys_game
from pyasp_games.domains.grundy.misere import (
    Outcomes,
    misere_nim_class,
    misere_nim_moves,
    nim_options,
)
from pyasp_games.domains.grundy.model import nim_position
from pyasp_games.domains.grundy.questions import NIM
from pyasp_games.domains.kayles.octal import misere_path_outcomes


def timed(label: str, job) -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    said = job()
    print(f"| {label} | {said} | {time.perf_counter() - wall:.2f} | {time.process_time() - cpu:.2f} |")


def census() -> str:
    search = Outcomes(nim_options)
    agree = 0
    for heaps in itertools.product(range(8), repeat=4):
        wins = search.wins(tuple(sorted(h for h in heaps if h)))
        direct = sorted(
            (*heaps[:i], x, *heaps[i + 1 :])
            for i, h in enumerate(heaps) for x in range(h)
            if not search.wins(tuple(sorted(a for a in (*heaps[:i], x, *heaps[i + 1 :]) if a)))
        )  # fmt: skip
        agree += misere_nim_class(heaps) == ("N" if wins else "P") and sorted(misere_nim_moves(heaps)) == direct
    return f"{agree} of 4,096 agree ({len(search.memo)} sorted positions searched)"


def verified() -> str:
    ok = sum(NIM.ask(nim_position(list(h), misere=True)).verdict.verified is True
             for h in itertools.combinations_with_replacement(range(8), 4))  # fmt: skip
    return f"{ok} of 330 verified"


def main() -> None:
    print("| run | result | wall s | CPU s |")
    print("|---|---|---|---|")
    timed("misère Nim census, 4 heaps <= 7, Bouton vs direct search", census)
    timed("games nim --misere on the 330 sorted positions, each verified", verified)
    for n in (50, 60, 70):
        timed(f"misère Dawson's chess P_0..P_{n} (sums of paths)",
              lambda n=n: f"{misere_path_outcomes(n).count('P')} P-positions")  # fmt: skip
    for n in (40, 50, 60):
        timed(f"misère Grundy's game heaps 1..{n}",
              lambda n=n: "P at " + ",".join(str(i + 1) for i, c in enumerate(misere_grundys_game(n)) if c == "P" and i > 40))  # fmt: skip


if __name__ == "__main__":
    main()
