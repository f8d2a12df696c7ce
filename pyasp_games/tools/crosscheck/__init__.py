"""Cross-checking: every backend of a domain on every instance, verified and compared.

:mod:`~pyasp_games.tools.crosscheck.run` runs them (:func:`crosscheck`) and compares their
answers (:func:`agreement`, by the one rule of :mod:`pyasp_games.engines.agreement`);
:mod:`~pyasp_games.tools.crosscheck.report` holds what it found (:class:`Report`, one
:class:`Row` per run) and says it in words. The command line (``pyasp-games
crosscheck``, :mod:`pyasp_games.cli.crosscheck`) only parses and prints.
"""

from pyasp_games.tools.crosscheck.report import (
    CATEGORIES,
    Report,
    Row,
    category,
    failed_verification,
    summary_text,
)
from pyasp_games.tools.crosscheck.run import agreement, confirmation, crosscheck

__all__ = [
    "CATEGORIES",
    "Report",
    "Row",
    "agreement",
    "category",
    "confirmation",
    "crosscheck",
    "failed_verification",
    "summary_text",
]
