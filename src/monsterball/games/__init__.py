"""The built-in games: one package each (Huck + Monster, Monsters of the Midway, Paper
Ultimate), registered here by an explicit list so that core never imports a game.

Each game's package holds its data tables (options, actions, rules or chart), its state, its
rule steps (``procedures``), views (``render``, ``board``) and its heuristic bot helpers; the
package ``__init__`` wires them together (step kinds, first steps, views) and defines ``SPEC``.
Imports: core only; a game never imports another game or any layer above.

The layers above (bots, records, CLI, web, lab, rl) look games up through :func:`get_game`
and :func:`all_games` from here, which guarantees the built-in games are registered.
"""

import sys
import types

from monsterball.core.game import GameSpec
from monsterball.core.registry import all_games, get_game, register
from monsterball.games import huck_monster, midway, paper_ultimate

BUILTIN: tuple[GameSpec, ...] = (huck_monster.SPEC, midway.SPEC, paper_ultimate.SPEC)
for _spec in BUILTIN:
    register(_spec)

__all__ = ["BUILTIN", "all_games", "games", "get_game"]


def games() -> list[GameSpec]:
    """Every registered game (the built-in three and any plug-in), by id:
    ``monsterball.games()``."""
    return all_games()


class _CallablePackage(types.ModuleType):
    """This package, callable: ``monsterball.games()`` lists the games, while
    ``monsterball.games.midway`` stays the Midway package."""

    def __call__(self) -> list[GameSpec]:
        return games()


sys.modules[__name__].__class__ = _CallablePackage
