"""Learning environments for every game: PettingZoo (AEC), Gymnasium and OpenSpiel.

Needs the ``rl`` extra (``pip install 'monsterball[rl]'``). See docs/rl.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from monsterball.rl.aec import MonsterballEnv
    from monsterball.rl.single import MonsterballGym


def env(
    game: str,
    preset: str | None = None,
    *,
    max_steps: int | None = None,
    render_mode: str | None = None,
    **options: Any,
) -> MonsterballEnv:
    """A PettingZoo AEC environment for ``game`` (agents ``a_0`` and ``b_1``)."""
    from monsterball.rl.aec import MonsterballEnv

    return MonsterballEnv(game, preset, max_steps=max_steps, render_mode=render_mode, **options)


def gym_env(
    game: str,
    preset: str | None = None,
    *,
    opponent: Any = "random",
    seat: int = 0,
    max_steps: int | None = None,
    render_mode: str | None = None,
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
        **options,
    )


def openspiel_game(game: str, preset: str | None = None, **kwargs: Any) -> Any:
    """A pyspiel game (see :mod:`monsterball.rl.spiel`)."""
    from monsterball.rl.spiel import openspiel_game as make

    return make(game, preset, **kwargs)


__all__ = ["env", "gym_env", "openspiel_game"]
