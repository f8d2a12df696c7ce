"""``python -m pyasp_games`` is the ``pyasp-games`` command."""

from pyasp_games.cli import main

if __name__ == "__main__":
    main()
