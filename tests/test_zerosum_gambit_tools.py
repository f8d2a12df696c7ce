"""Gambit files exchanged with Gambit itself (pygambit) and OpenSpiel, the tools whose
format it is: what they write solves to the same value here, and they read what we
write. Both are benchmark extras (``pip install '.[bench]'``): skipped without them."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pyasp_games.domains.zerosum.extensive import load_extensive
from pyasp_games.domains.zerosum.gambit import format_efg, format_nfg, parse_efg, parse_nfg
from pyasp_games.domains.zerosum.model import load_matrix
from pyasp_games.domains.zerosum.questions import SOLVE
from pyasp_games.engines.resources import instance_dir

pytestmark = pytest.mark.slow

ZEROSUM = instance_dir("zerosum")


def test_gambit_reads_our_files_and_we_read_its_own(tmp_path):
    gbt = pytest.importorskip("pygambit")
    tree_file, matrix_file = tmp_path / "kuhn.efg", tmp_path / "endgame.nfg"
    tree_file.write_text(format_efg(load_extensive(ZEROSUM / "kuhn-3.json")))
    matrix_file.write_text(format_nfg(load_matrix(ZEROSUM / "poker-endgame.txt")))
    for path, value in ((tree_file, Fraction(-1, 18)), (matrix_file, Fraction(-1, 4))):
        game = gbt.read_efg(str(path)) if path.suffix == ".efg" else gbt.read_nfg(str(path))
        theirs = gbt.nash.lp_solve(game, rational=True).equilibrium.payoffs["Player 1"]
        assert Fraction(str(theirs)) == value  # Gambit's own LP on our file
        written = game.to_efg() if path.suffix == ".efg" else game.to_nfg()
        ours = parse_efg(written) if path.suffix == ".efg" else parse_nfg(written)
        assert SOLVE.ask(ours, "lp").answer == value  # its own writing, solved here


def test_open_spiel_exports_solve_to_the_same_value():
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms.gambit import export_gambit

    exported = parse_efg(export_gambit(pyspiel.load_game("kuhn_poker")))
    assert SOLVE.ask(exported, "lp").answer == Fraction(-1, 18)
    shipped = parse_efg(pyspiel.get_kuhn_poker_efg_data())
    assert SOLVE.ask(shipped, "simplex").answer == Fraction(-1, 18)
