"""Paper Ultimate ("ULTIMADE"): 4 v 4 on a squared pitch (rulebook 001).

This package ``__init__`` is the game's top layer: it wires the state to the modules above it
(step kinds, first steps, text view, position checks) and defines ``SPEC``. The layers inside
the game are drawn in docs/architecture.md and checked by tests/architecture/test_layers.py.
Imports: core and this game's modules only (never another game, never a layer above games)."""

from __future__ import annotations

from typing import Any, cast

from monsterball.core.contract import GameDocs, RLHooks, ViewHooks
from monsterball.core.game import GameSpec, GameState
from monsterball.core.options import GameOptions
from monsterball.core.procedures import stack_kinds
from monsterball.games.paper_ultimate.actions import action_table, parse_decision
from monsterball.games.paper_ultimate.analysis.heuristic import BOT
from monsterball.games.paper_ultimate.options import PaperUltimateOptions
from monsterball.games.paper_ultimate.rules.flow import ALL_STEPS, first_steps
from monsterball.games.paper_ultimate.state import PaperUltimateState, Wiring, bind
from monsterball.games.paper_ultimate.views.board import board_view
from monsterball.games.paper_ultimate.views.render import render_text

RULES_VERSION = "paper-ultimate/1.1.0"


def _new_state(options: GameOptions) -> GameState:
    return PaperUltimateState(cast(PaperUltimateOptions, options))


def _action_table(options: GameOptions):  # type: ignore[no-untyped-def]
    return action_table(cast(PaperUltimateOptions, options))


PaperUltimateState.procedure_kinds = stack_kinds(ALL_STEPS)

RULINGS = {
    "PU-R1": "End zones are 2 rows deep (option end_zone_depth).",
    "PU-R2": "A point is a completed pass to a player in the attacking end zone (a monster-"
    "defense turn on that catch takes it away); the pull lands on any empty field of that end "
    "zone and an offensive runner picks it up.",
    "PU-R3": "First to 5 points wins (option points_to_win).",
    "PU-R4": "Runners cannot pass through occupied fields (option run_through_players).",
    "PU-R5": "On a turn the other team's player nearest the disc takes it; ties: that team "
    "chooses (option turn_pickup).",
    "PU-R6": "With several defenders next to the catcher, the defense names the marker.",
    "PU-R7": "A coin toss decides who receives first (option first_receiver).",
    "PU-R8": "'monster Defense' is on with a die; coins or off are options.",
    "PU-R9": "The scorer pulls next from the end zone it scored in: teams switch ends "
    "(option switch_ends).",
    "PU-R10": "max_throws caps a game for simulations (off by default).",
    "PU-R11": "Defenders next to a catcher may stay; after a turn surplus markers must leave "
    "(option catch_markers=depart: after a catch or pick-up too).",
    "PU-R12": "With no free receiver the thrower's only action is 'turnover'.",
    "PU-R13": "The one-marker limit protects the player with the disc; other attackers may be "
    "surrounded.",
    "PU-R14": "A pull left loose for 3 offensive running steps is a stall: the pulling team's "
    "nearest player takes it (option pull_stall).",
}


def _rl_features(spec: GameSpec, options: GameOptions) -> Any:
    # Lazy: the learning module imports numpy (the ``rl`` extra).
    from monsterball.games.paper_ultimate.analysis.learning import features

    return features(spec, options)


# Decisions (both seats) after which an unfinished game is truncated by default: about twice
# the longest of 40 random games with the default options and above every game of
# scripts/ledgers/strength.jsonl (docs/rl.md, "the long-game cut").
RL = RLHooks(features=_rl_features, max_decisions=30_000)

SPEC = GameSpec(
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
    rulings=RULINGS,
    board=board_view,
    bot=BOT,
    views=ViewHooks(ball="disc"),
    docs=GameDocs(
        rules_file="paper-ultimate.md",
        rulebook_title='Paper Ultimate ("ULTIMADE"), the paper-and-pencil rules',
        lessons_package=__name__,
        legend="Legend: A1 team A, B1 team B, A1* holds the disc, () the disc on the ground, "
        ": end zone, . field, ==== end-zone line. 'board' shows this again.",
    ),
    rl=RL,
)
bind(SPEC, Wiring(first_steps, render_text))

__all__ = ["RULES_VERSION", "SPEC", "PaperUltimateOptions", "PaperUltimateState"]
