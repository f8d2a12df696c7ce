"""Pictures of Hex boards: the map of openings drawn as hexagons (matplotlib, as the
bench plots are).

>>> from pyasp_games.domains.hex.model import parse_position
>>> game = parse_position("2x2")
>>> picture = openings_picture(game, {"a1": "white", "b1": "black", "a2": "black", "b2": "white"}, "svg")
>>> picture.startswith(b"<?xml")
True
"""

from __future__ import annotations

import io
import math

from pyasp_games.domains.hex.model import Hex

COLOURS = {"black": "#222222", "white": "#f4f4f4"}


def openings_picture(game: Hex, answer: dict[str, str], fmt: str = "svg") -> bytes:
    """The board with each cell filled by the winner after Black's opening there (dark:
    Black wins, light: White wins), Black's sides drawn dark and White's light; ``fmt``
    ``svg`` or ``png``."""
    import matplotlib

    matplotlib.use("Agg")  # files only: never a display
    import matplotlib.pyplot as plt
    from matplotlib.patches import RegularPolygon

    matplotlib.rcParams["svg.hashsalt"] = "pyasp-games"  # the same SVG for the same data
    fig, ax = plt.subplots(figsize=(1.0 + 0.6 * (game.cols + game.rows / 2), 1.0 + 0.55 * game.rows))
    h = math.sqrt(3) / 2
    for i, cell in enumerate(game.cells):
        r, c = divmod(i, game.cols)
        x, y = c + r / 2, -r * h
        winner = answer.get(cell, "")
        ax.add_patch(RegularPolygon((x, y), 6, radius=0.577, orientation=0.0,
                                    facecolor=COLOURS.get(winner, "#bbbbbb"), edgecolor="#777777"))
        ax.text(x, y, cell, ha="center", va="center", fontsize=7,
                color="white" if winner == "black" else "black")
    ax.plot([-0.5, game.cols - 0.5], [0.55, 0.55], color="black", lw=3)
    bottom = -(game.rows - 1) * h - 0.55
    ax.plot([(game.rows - 1) / 2 - 0.5, (game.rows - 1) / 2 + game.cols - 0.5], [bottom, bottom],
            color="black", lw=3)
    ax.set_title(f"{game.rows} x {game.cols} Hex: Black's openings (dark: Black wins)", fontsize=9)
    ax.set_aspect("equal")
    ax.autoscale_view()
    ax.axis("off")
    out = io.BytesIO()
    fig.savefig(out, format=fmt, bbox_inches="tight", metadata={"Date": None} if fmt == "svg" else None)
    plt.close(fig)
    return out.getvalue()
