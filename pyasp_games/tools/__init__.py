"""The tools over every domain, each a runner beside its report: ``crosscheck`` (every
backend on every instance, verified and compared), ``fuzz`` (the smallest instance on
which an encoding is wrong) and ``bench`` (timing campaigns). They know the domains
only through the registry (:mod:`pyasp_games.domains`) and the declared questions.
"""
