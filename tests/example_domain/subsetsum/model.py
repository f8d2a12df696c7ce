"""Subset sum instances: the numbers and the target; reading, writing, generating.

A file holds the target on its first line and the numbers on the second (none: an empty
or missing line); ``# known: yes|no`` states the answer.

>>> inst = parse_instance("# known: yes\\n7\\n3 4 5")
>>> inst.target, inst.numbers, inst.known
(7, (3, 4, 5), True)
>>> print(format_instance(inst), end="")
7
3 4 5
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyasp_games.engines.files import comment_header
from pyasp_games.errors import InputError, ascii_int, checked_int, read_text

#: The most numbers an instance may hold (the tool's limit).
MAX_NUMBERS = 10_000


@dataclass(frozen=True)
class SubsetSum:
    """``numbers`` (non-negative) and the ``target`` a choice of them must add up to."""

    numbers: tuple[int, ...]
    target: int
    name: str = "subsetsum"
    known: bool | None = None


def parse_instance(text: str, name: str = "subsetsum") -> SubsetSum:
    """An instance from its text (see the module docstring); bad input: one line."""
    known = None
    lines = []
    for line in text.splitlines():
        header = comment_header(line)
        if header is not None and header[0] == "known":
            if header[1] not in ("yes", "no"):
                raise InputError(f"'# known:' must be yes or no, got {header[1]!r}")
            known = header[1] == "yes"
        stripped = line.split("#", 1)[0].split()
        if stripped:
            lines.append(stripped)
    if not lines or len(lines[0]) != 1:
        raise InputError("the first line must hold the target, one number")
    if len(lines) > 2:
        raise InputError(f"expected 2 lines (the target, the numbers), got {len(lines)}")
    target = ascii_int(lines[0][0])
    numbers = tuple(ascii_int(t) for t in (lines[1] if len(lines) > 1 else []))
    if target < 0 or any(n < 0 for n in numbers):
        raise InputError("the target and the numbers must be non-negative")
    if len(numbers) > MAX_NUMBERS:
        raise InputError(f"{len(numbers):,} numbers: beyond this tool's limit of {MAX_NUMBERS:,}")
    return SubsetSum(numbers, target, name, known)


def load_instance(path: Path | str) -> SubsetSum:
    """Read an instance file; errors name the file."""
    path = Path(path)
    try:
        return parse_instance(read_text(path), path.stem)
    except InputError as err:
        raise InputError(f"{path}: {err}") from None


def load_instances(path: Path) -> list[SubsetSum]:
    """One instance per file (the crosscheck loader)."""
    return [load_instance(path)]


def format_instance(inst: SubsetSum) -> str:
    """The instance as the text of its file."""
    return f"{inst.target}\n{' '.join(map(str, inst.numbers))}\n"


def random_instance(seed: int = 0, n: int = 10, high: int = 50) -> SubsetSum:
    """``n`` numbers of ``1..high`` and a target of about half their sum (bench's
    generator ``random``: deterministic in its arguments)."""
    n, high = checked_int(n, "n", 0, MAX_NUMBERS), checked_int(high, "high", 1, 10**9)
    rng = random.Random(checked_int(seed, "seed"))
    numbers = tuple(rng.randint(1, high) for _ in range(n))
    return SubsetSum(numbers, sum(numbers) // 2, f"random-{n}-{high}#{seed}")


def small_instances() -> Iterator[SubsetSum]:
    """Every instance of at most 2 numbers of 1..2 and a target of 0..3, smallest first
    (fuzz's small scope)."""
    for size in range(3):
        for numbers in itertools.product((1, 2), repeat=size):
            for target in range(4):
                yield SubsetSum(numbers, target, f"small-{size}")


def strategy(size: int) -> Any:
    """A hypothesis strategy of instances of at most ``size`` numbers (fuzz's random phase)."""
    from hypothesis import strategies as st

    return st.builds(
        lambda numbers, target: SubsetSum(tuple(numbers), target, "drawn"),
        st.lists(st.integers(0, 9), max_size=size),
        st.integers(0, 20),
    )
