"""Huck + Monster: Ultimate Frisbee on a hex field with dice (rulebook 000), standard game."""

from __future__ import annotations

from typing import cast

from monsterball.core.actions import ActionTable
from monsterball.core.game import GameSpec, GameState
from monsterball.core.options import GameOptions
from monsterball.core.procedures import stack_kinds
from monsterball.core.registry import register
from monsterball.games.huck_monster.actions import action_table, parse_decision
from monsterball.games.huck_monster.options import HuckMonsterOptions
from monsterball.games.huck_monster.procedures import ALL_STEPS
from monsterball.games.huck_monster.state import HuckMonsterState, bind_spec

RULES_VERSION = "huck-monster/1.0.0"


def _new_state(options: GameOptions) -> GameState:
    return HuckMonsterState(cast(HuckMonsterOptions, options))


def _action_table(options: GameOptions) -> ActionTable:
    return action_table(cast(HuckMonsterOptions, options))


HuckMonsterState.procedure_kinds = stack_kinds(ALL_STEPS)

RULINGS: dict[str, str] = {}

SPEC = register(
    GameSpec(
        id="huck-monster",
        title="Huck + Monster",
        summary="7 v 7 Ultimate Frisbee on a hex field: pulls, team moves, the Up Call of "
        "throws, marks, intercepts, challenges and catches, and strategy dice.",
        rulebook="000_a5c15c169b753ffc.txt",
        rules_version=RULES_VERSION,
        options_type=HuckMonsterOptions,
        state_type=HuckMonsterState,
        seat_names=("A", "B"),
        new_state=_new_state,
        parse_decision=parse_decision,
        action_table=_action_table,
        aliases=("hm", "huck", "huck-and-monster", "huck+monster"),
        coaches=(2, 4),
        rulings=RULINGS,
    )
)
bind_spec(SPEC)

__all__ = ["RULES_VERSION", "SPEC", "HuckMonsterOptions", "HuckMonsterState"]
