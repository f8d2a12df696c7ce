"""Differential testing of an encoding: find the smallest instance on which it is wrong.

:mod:`~pyasp_games.tools.fuzz.run` runs a session (:func:`fuzz`: the small scope, then random
instances shrunk by hypothesis, each answered by the encoding under test and by the
question's reference backend, compared by the one rule of
:mod:`pyasp_games.engines.agreement`); :mod:`~pyasp_games.tools.fuzz.report` holds what it
found and says it in words. The command line (``pyasp-games fuzz``,
:mod:`pyasp_games.cli.fuzz`) only parses and prints.
"""

from pyasp_games.tools.fuzz.report import Failure, FuzzReport, report_lines, reproduce
from pyasp_games.tools.fuzz.run import COMPARED_MODES, MAX_SIZE, fuzz

__all__ = [
    "COMPARED_MODES",
    "MAX_SIZE",
    "Failure",
    "FuzzReport",
    "fuzz",
    "report_lines",
    "reproduce",
]
