"""Domain-agnostic solver front-ends.

- :mod:`~pyasp_games.engines.outcome`: the :class:`Outcome` every backend returns.
- :mod:`~pyasp_games.engines.limits`: :class:`Limits` and the wall-clock :class:`Deadline`.
- :mod:`~pyasp_games.engines.enforcement`: limits enforced on a process (memory cap, alarm).
- :mod:`~pyasp_games.engines.resources`: locating bundled encodings and instances.
- :mod:`~pyasp_games.engines.child`: a child Python running this same copy of the package.
- :mod:`~pyasp_games.engines.clingo_runner`: grounding and solving with clingo under limits.
- :mod:`~pyasp_games.engines.sat_runner`: PySAT solving with named variables under limits.
"""

from pyasp_games.engines.limits import Deadline, Limits
from pyasp_games.engines.outcome import STATUSES, Outcome

__all__ = ["STATUSES", "Deadline", "Limits", "Outcome"]
