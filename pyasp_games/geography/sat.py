"""No SAT backend for Geography in this increment.

Generalized Geography is PSPACE-complete: deciding the winner is a quantified
(alternating) question, so a plain SAT formula of polynomial size would have to
unroll both players' strategies (a QBF, or an exponential CNF). Rather than an
exponential or partial encoding, the geography domain offers ``native`` (game
search), ``asp`` (the program derives the game tree) and, for undirected vertex
geography, ``matching`` (polynomial); ``BACKENDS`` has no ``sat`` entry.

>>> from pyasp_games.geography import BACKENDS
>>> "sat" in BACKENDS
False
"""
