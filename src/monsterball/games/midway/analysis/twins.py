"""Midway's hidden-information twins, declared on ``SPEC.checks`` for the fuzz harness
(``monsterball.lab.fuzz``): states the other seat cannot tell from the real one.

A coach's secrets are which counter is the real mirror-image caster (MW-R10) and where an
invisible player stands (MW-R11). Swapping the caster with one of its images, or moving the
invisible player to another free hex, must change nothing the other seat or a spectator
sees (view, picture) nor, when the other seat is to act, its legal actions; the harness
compares each twin with the state.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from monsterball.core.contract import CheckHooks
from monsterball.core.game import GameState
from monsterball.games.midway.state import MidwayState, team_of


def twins(state: GameState, rng: random.Random) -> Iterator[tuple[str, GameState, int]]:
    """States the other seat cannot tell from ``state``: (what changed, twin, that seat)."""
    assert isinstance(state, MidwayState)
    if state.caster >= 0 and state.images:
        twin = state.clone()
        real, image = twin.pos[twin.caster], twin.images[rng.randrange(len(twin.images))]
        twin.pos[twin.caster] = image
        twin.images = sorted([real, *(c for c in twin.images if c != image)])
        if twin.carrier == twin.caster:
            twin.ball = image
        yield "caster", twin, 1 - team_of(state.caster)
    if state.invisible >= 0:
        taken = {c for c in state.pos if c >= 0} | set(state.images) | {state.ball}
        free = [c for c in range(state.field.size) if c not in taken]
        if free:
            twin = state.clone()
            twin.pos[twin.invisible] = cell = rng.choice(free)
            if twin.carrier == twin.invisible:
                twin.ball = cell
            yield "invisible", twin, 1 - team_of(state.invisible)


CHECKS = CheckHooks(twins=twins, label="Midway hidden-information twins compared")
