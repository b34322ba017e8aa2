"""Paper Ultimate ("ULTIMADE"): 4 v 4 on a squared pitch (rulebook 001)."""

from __future__ import annotations

from typing import cast

from monsterball.core.game import GameSpec, GameState
from monsterball.core.options import GameOptions
from monsterball.core.procedures import stack_kinds
from monsterball.core.registry import register
from monsterball.games.paper_ultimate.actions import action_table, parse_decision
from monsterball.games.paper_ultimate.options import PaperUltimateOptions
from monsterball.games.paper_ultimate.procedures import ALL_STEPS
from monsterball.games.paper_ultimate.state import PaperUltimateState, bind_spec

RULES_VERSION = "paper-ultimate/1.0.0"


def _new_state(options: GameOptions) -> GameState:
    return PaperUltimateState(cast(PaperUltimateOptions, options))


def _action_table(options: GameOptions):  # type: ignore[no-untyped-def]
    return action_table(cast(PaperUltimateOptions, options))


PaperUltimateState.procedure_kinds = stack_kinds(ALL_STEPS)

SPEC = register(
    GameSpec(
        id="paper-ultimate",
        title="Paper Ultimate",
        summary="4 v 4 Ultimate on a 9 x 18 squared pitch: straight throws, runs of up to 4 "
        "fields, one marker, and the 'monster Defense' die.",
        rulebook="001_150ee36d354758ac.txt",
        rules_version=RULES_VERSION,
        options_type=PaperUltimateOptions,
        state_type=PaperUltimateState,
        seat_names=("A", "B"),
        new_state=_new_state,
        parse_decision=parse_decision,
        action_table=_action_table,
        aliases=("pu", "paper", "ultimade"),
    )
)
bind_spec(SPEC)

__all__ = ["RULES_VERSION", "SPEC", "PaperUltimateOptions", "PaperUltimateState"]
