"""monsterball: rules engines, play and simulation for three tabletop monster sports games.

The public API, in the rulebooks' words (docs/api.md; the site's reference):

>>> import monsterball
>>> [spec.id for spec in monsterball.games()]
['huck-monster', 'midway', 'paper-ultimate']
>>> game = monsterball.new_game("huck-monster", preset="scrimmage", seed=7)
>>> game.spec.title
'Huck + Monster'

Names load on first use, so ``import monsterball`` imports nothing of the engine: ``fast``
(whether the compiled kernels run), ``games()``, ``get_game``, ``new_game``,
``from_position``, ``load_game``, ``read_record``, ``write_record``, ``replay``, the
:class:`Game` being played, the modules ``bots`` (``bots.make("hard")``) and ``lab``
(``lab.simulate``, ``lab.sweep``), the types and the errors. Importing a name registers the
games; no call needs an import order.

Layers are folders (docs/architecture.md, enforced by tests/architecture/test_layers.py),
each importing only those below it: ``core`` -> ``games`` -> ``bots``, ``records``,
``guides``, ``ratings`` -> the top (``lab``, ``rl``, ``terminal``, ``web``, ``api`` and this
package's names; ``cli`` outermost).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.2.0.dev0"  # the one place the version is written (pyproject reads it)

# Public name -> the module that defines it (None: the name is that module).
_LAZY: dict[str, tuple[str, str | None]] = {
    "games": ("monsterball.games", None),
    "bots": ("monsterball.bots", None),
    "lab": ("monsterball.lab", None),
    "get_game": ("monsterball.games", "get_game"),
    "Game": ("monsterball.api", "Game"),
    "new_game": ("monsterball.api", "new_game"),
    "from_position": ("monsterball.api", "from_position"),
    "load_game": ("monsterball.api", "load_game"),
    "read_record": ("monsterball.api", "read_record"),
    "write_record": ("monsterball.api", "write_record"),
    "replay": ("monsterball.core.record", "replay"),
    "Action": ("monsterball.core.actions", "Action"),
    "Roll": ("monsterball.core.actions", "Roll"),
    "Event": ("monsterball.core.actions", "Event"),
    "GameSpec": ("monsterball.core.game", "GameSpec"),
    "GameState": ("monsterball.core.game", "GameState"),
    "GameRecord": ("monsterball.core.record", "GameRecord"),
    "ReplayReport": ("monsterball.core.record", "ReplayReport"),
    "CHANCE": ("monsterball.core.game", "CHANCE"),
    "TERMINAL": ("monsterball.core.game", "TERMINAL"),
    **{
        name: ("monsterball.core.errors", name)
        for name in (
            "MonsterballError",
            "UnknownGameError",
            "OptionsError",
            "NotationError",
            "IllegalActionError",
            "WrongSeatError",
            "GameOverError",
            "PositionError",
            "RecordError",
        )
    },
}
# Old name -> (new public name, the release that renamed it): still served, with a
# DeprecationWarning, for two releases after the rename (docs/api.md, "Stability").
_RENAMED: dict[str, tuple[str, str]] = {}

__all__ = ["__version__", "fast", "kernels", *_LAZY]

_fast: bool | None = None


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module_name, attribute = _LAZY[name]
        module = importlib.import_module(module_name)
        value = module if attribute is None else getattr(module, attribute)
        globals()[name] = value  # later look-ups are plain attribute reads
        return value
    if name == "fast":
        return _compiled()
    if name in _RENAMED:
        import warnings

        new, since = _RENAMED[name]
        warnings.warn(
            f"monsterball.{name} is renamed monsterball.{new} (since {since})",
            DeprecationWarning,
            stacklevel=2,
        )
        return __getattr__(new)
    raise AttributeError(f"module 'monsterball' has no attribute '{name}'")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


def _compiled() -> bool:
    """Whether the compiled kernels run (``monsterball.fast``): cheap, it loads the core
    kernel's module (no game) and looks for a build of each game's kernel source (a
    ``.pyx`` in a game's folder). :func:`kernels` says which, loading each (it also catches
    a kernel left stale by editing its ``.pyx`` without ``make fast``)."""
    global _fast
    if _fast is None:
        from importlib.machinery import PathFinder
        from pathlib import Path

        from monsterball.core import kernels as rule

        sources = sorted((Path(__file__).parent / "games").glob("*/*.pyx"))
        _fast = rule.load("monsterball.core._fastgeo") is not None and all(
            PathFinder.find_spec(pyx.stem, [str(pyx.parent)]) is not None for pyx in sources
        )
    return _fast


def kernels() -> dict[str, bool]:
    """Each compiled kernel module and whether it runs (imports the games to find out: each
    declares its own, ``GameSpec.kernels``)."""
    from monsterball.core import geometry
    from monsterball.games import all_games

    found = {"monsterball.core._fastgeo": geometry.FAST}
    for spec in all_games():
        found.update(spec.kernels)
    return found


if TYPE_CHECKING:  # what type checkers and editors see; at run time __getattr__ loads these
    from monsterball import bots as bots
    from monsterball import lab as lab
    from monsterball.api import Game as Game
    from monsterball.api import from_position as from_position
    from monsterball.api import load_game as load_game
    from monsterball.api import new_game as new_game
    from monsterball.api import read_record as read_record
    from monsterball.api import write_record as write_record
    from monsterball.core.actions import Action as Action
    from monsterball.core.actions import Event as Event
    from monsterball.core.actions import Roll as Roll
    from monsterball.core.errors import GameOverError as GameOverError
    from monsterball.core.errors import IllegalActionError as IllegalActionError
    from monsterball.core.errors import MonsterballError as MonsterballError
    from monsterball.core.errors import NotationError as NotationError
    from monsterball.core.errors import OptionsError as OptionsError
    from monsterball.core.errors import PositionError as PositionError
    from monsterball.core.errors import RecordError as RecordError
    from monsterball.core.errors import UnknownGameError as UnknownGameError
    from monsterball.core.errors import WrongSeatError as WrongSeatError
    from monsterball.core.game import CHANCE as CHANCE
    from monsterball.core.game import TERMINAL as TERMINAL
    from monsterball.core.game import GameSpec as GameSpec
    from monsterball.core.game import GameState as GameState
    from monsterball.core.record import GameRecord as GameRecord
    from monsterball.core.record import ReplayReport as ReplayReport
    from monsterball.core.record import replay as replay
    from monsterball.games import games as games
    from monsterball.games import get_game as get_game

    fast: bool
