"""Learning environments for every game: PettingZoo (AEC), Gymnasium, OpenSpiel and a
batched vector env.

Needs the ``rl`` extra (``pip install 'monsterball[rl]'``). Importing this package
registers every game's Gymnasium id (``monsterball/<Game>-r<rules>-v<encoder>``, see
:mod:`monsterball.rl.ids`) and, when ``open-spiel`` is installed, its OpenSpiel games
(``pyspiel.load_game("python_monsterball_paper_ultimate")``). See docs/rl.md.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from monsterball.rl.ids import all_gym_ids, env_name, gym_id, register_gymnasium, version

if TYPE_CHECKING:
    from monsterball.rl.aec import MonsterballEnv
    from monsterball.rl.single import MonsterballGym


def env(
    game: str,
    preset: str | None = None,
    *,
    max_steps: int | str | None = "default",
    render_mode: str | None = None,
    observation: str = "full",
    **options: Any,
) -> MonsterballEnv:
    """A PettingZoo AEC environment for ``game`` (agents ``a_0`` and ``b_1``)."""
    from monsterball.rl.aec import MonsterballEnv

    return MonsterballEnv(
        game,
        preset,
        max_steps=max_steps,
        render_mode=render_mode,
        observation=observation,
        **options,
    )


def gym_env(
    game: str,
    preset: str | None = None,
    *,
    opponent: Any = "random",
    seat: int | str = 0,
    max_steps: int | str | None = "default",
    render_mode: str | None = None,
    observation: str = "full",
    **options: Any,
) -> MonsterballGym:
    """A Gymnasium single-agent environment: ``seat`` against the ``opponent`` bot."""
    from monsterball.rl.single import MonsterballGym

    return MonsterballGym(
        game,
        preset,
        opponent=opponent,
        seat=seat,
        max_steps=max_steps,
        render_mode=render_mode,
        observation=observation,
        **options,
    )


def openspiel_game(game: str, preset: str | None = None, **kwargs: Any) -> Any:
    """A pyspiel game (see :mod:`monsterball.rl.spiel`)."""
    from monsterball.rl.spiel import openspiel_game as make

    return make(game, preset, **kwargs)


def register() -> None:
    """Register the Gymnasium ids and (if open-spiel is installed) the OpenSpiel games;
    ``import monsterball.rl`` has done it already."""
    register_gymnasium()
    with contextlib.suppress(ImportError):
        from monsterball.rl.spiel import register_all

        register_all()


register()

__all__ = [
    "all_gym_ids",
    "env",
    "env_name",
    "gym_env",
    "gym_id",
    "openspiel_game",
    "register",
    "version",
]
