"""The ``monsterball`` command: list games and rules, play in the terminal, replay records,
run simulations.

Bad input from the user (an unknown game, option, preset or bot, an unreadable record) ends
with a one-line message and exit status 2, never a traceback; a record that replays but
diverges exits with status 1.

Top layer, one module per command group; may import every layer below and the other top
modules (``web``, ``tui``, ``lab``, ...); nothing imports it.
"""

# Importing a command module registers its commands; this order is the order of --help.
# isort: off
from monsterball.cli import info, serve, db, admin, ratings, play, tui  # noqa: F401
from monsterball.cli import records, simulation, matches, odds  # noqa: F401

# isort: on
from monsterball.cli.common import app

__all__ = ["app", "main"]


def main() -> None:
    app(prog_name="monsterball")


if __name__ == "__main__":
    main()
