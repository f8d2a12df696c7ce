"""Benchmark campaigns: suites, a runner with one process per run, and reports.

``pyasp-games bench SUITE`` runs a suite (:mod:`pyasp_games.tools.bench.suite`) with
:mod:`pyasp_games.tools.bench.campaign`, each run in its own child process
(:mod:`pyasp_games.tools.bench.job`); ``pyasp-games bench report DIR`` summarises the
results (:mod:`pyasp_games.tools.bench.report`).
"""
