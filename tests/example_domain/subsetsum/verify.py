"""The checker, from the definition alone: the chosen numbers exist, each once, and add
up to the target. "None" and counts have no witness: the reference cross-checks them.

>>> from subsetsum.model import SubsetSum
>>> check_choice(SubsetSum((3, 4, 5), 7), [0, 2])
(False, 'the chosen numbers add up to 8, not 7')
"""

from __future__ import annotations

from typing import Any

from pyasp_games.engines.outcome import Outcome
from subsetsum.model import SubsetSum


def check_choice(inst: SubsetSum, chosen: Any) -> tuple[bool, str]:
    """Whether ``chosen`` (indices) picks numbers of ``inst`` adding up to its target."""
    if not isinstance(chosen, list) or len(set(chosen)) != len(chosen):
        return False, f"not a list of distinct indices: {chosen!r}"
    if any(not isinstance(i, int) or not 0 <= i < len(inst.numbers) for i in chosen):
        return False, f"an index outside 0..{len(inst.numbers) - 1}: {chosen}"
    total = sum(inst.numbers[i] for i in chosen)
    if total != inst.target:
        return False, f"the chosen numbers add up to {total}, not {inst.target}"
    return True, f"{len(chosen)} numbers add up to {inst.target}"


def check_outcome(inst: SubsetSum, outcome: Outcome) -> tuple[bool | None, str]:
    """A claimed choice is checked; "none" and counts are not checkable alone."""
    if outcome.status == "solved" and outcome.answer is True:
        return check_choice(inst, outcome.witness)
    return None, "not checkable alone"
