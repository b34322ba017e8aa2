"""Range checks of a Monsters of the Midway position: every board field and every field of
every step on the stack, each refused with a one-line PositionError naming it. The types
are checked by ``MidwayState._board_from_dict`` and :func:`procedure_from_dict`."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from monsterball.core.errors import PositionError
from monsterball.core.game import AUTO, CHANCE
from monsterball.core.procedures import Procedure
from monsterball.games.midway.actions import LENGTH, NUM_PLAYERS, WIDTH, player_name

if TYPE_CHECKING:
    from monsterball.games.midway.state import MidwayState

CELLS = WIDTH * LENGTH
MASK = (1 << NUM_PLAYERS) - 1
MOST = 1_000_000  # FOREVER: out for the game; a bound for counters that only grow

BALL_STATES = ("", "held", "loose", "pass", "kick", "punt")
KINDS = ("", "kickoff", "onside", "scrimmage", "conversion", "field goal", "punt", "blocked")
DEAD = (
    "",
    "tackle",
    "td",
    "stopped",
    "downed",
    "cap",
    "stall",
    "out",
    "touchback",
    "bolt",
    "incomplete",
    "ball-out",
    "end-line",
    "punt-out",
    "rekick",
    "fg-miss",
    "fg-good",
)

# Board fields of one int: name -> (lowest, highest).
INT_RANGES: dict[str, tuple[int, int]] = {
    "were": (0, MASK),
    "ball": (-1, CELLS - 1),
    "carrier": (-1, NUM_PLAYERS - 1),
    "offense": (0, 1),
    "poss": (0, 1),
    "north_team": (0, 1),
    "plays": (0, MOST),
    "play_no": (0, MOST),
    "down": (1, 4),
    "spot": (-1, CELLS - 1),
    "los_row": (0, LENGTH - 1),
    "linemen": (0, MASK),
    "thrower_row": (0, LENGTH - 1),
    "phases": (0, MOST),
    "idle": (0, MOST),
    "first_phase": (-1, 1),
    "receivable": (-1, 1),
    "punter": (-1, NUM_PLAYERS - 1),
    "punt_travel": (0, 40),
    "bounces": (0, 6),
    "no_recover": (-1, NUM_PLAYERS - 1),
    "tried": (0, MASK),
    "retry": (0, MASK),
    "phase_mod": (-2, 2),
    "no_tackle": (0, MASK),
    "no_tackle_next": (0, MASK),
    "slowed": (0, (1 << 2 * NUM_PLAYERS) - 1),
    "frozen": (0, MASK),
    "dazed": (0, MASK),
    "caster": (-1, NUM_PLAYERS - 1),
    "image_phases": (0, 4),
    "invisible": (-1, NUM_PLAYERS - 1),
    "vanish": (-1, CELLS - 1),
    "vanish_reach": (0, 20),
    "appear_at": (-1, CELLS - 1),
    "last_dir": (0, 5),
    "throw_phase": (0, MOST),
    "spent": (0, MASK),
    "winner": (-1, 2),
}
# Board fields of one int per player: name -> (lowest, highest).
PLAYER_RANGES: dict[str, tuple[int, int]] = {
    "pos": (-1, CELLS - 1),
    "out_through": (-1, MOST),
    "form_left": (0, 2),
}
STR_CHOICES: dict[str, tuple[str, ...]] = {"ball_state": BALL_STATES, "kind": KINDS, "dead": DEAD}


def _within(value: int, low: int, high: int, where: str) -> None:
    if not low <= value <= high:
        raise PositionError(f"{where} is {value}, outside {low}..{high}")


def check_board(state: MidwayState) -> None:
    """Every board field in range and the fields consistent with each other."""
    # The message is written only for a value out of range (most positions have none).
    for name, (low, high) in INT_RANGES.items():
        value = getattr(state, name)
        if not low <= value <= high:
            _within(value, low, high, f"board field '{name}'")
    for name, (low, high) in PLAYER_RANGES.items():
        for p, value in enumerate(getattr(state, name)):
            if not low <= value <= high:
                _within(value, low, high, f"board field '{name}' of {player_name(p)}")
    for name, choices in STR_CHOICES.items():
        value = getattr(state, name)
        if value not in choices:
            raise PositionError(
                f"board field '{name}' is {value!r}, not one of: "
                + ", ".join(c or "''" for c in choices)
            )
    chart = state.chart
    for p in range(NUM_PLAYERS):
        kind, form = state.roster[p], state.form[p]
        if kind and kind not in chart.types:
            raise PositionError(f"{player_name(p)} has unknown type '{kind}'")
        if not kind and (state.pos[p] >= 0 or form):
            raise PositionError(f"{player_name(p)} is not on the roster yet stands or changed")
        if form:
            if form not in chart.change_self_into:
                raise PositionError(
                    f"board field 'form' of {player_name(p)} is '{form}', not one of "
                    f"{', '.join(chart.change_self_into)}"
                )
            if chart.types[kind].magic != "change" or state.form_left[p] < 1:
                raise PositionError(
                    f"{player_name(p)} is changed into a {form} without a change self spell"
                )
    for p in range(NUM_PLAYERS):
        if state.slowed >> 2 * p & 3 == 3:
            raise PositionError(f"board field 'slowed' of {player_name(p)} is 3, outside 0..2")
    if len(state.score) != 2 or min(state.score) < 0 or max(state.score) > MOST:
        raise PositionError("board field 'score' must be two numbers in 0..1000000")
    if len(state.punt_path) > 40 or any(abs(v) > 10_000 for v in state.punt_path):
        raise PositionError("board field 'punt_path' must be at most 40 packed hexes")
    _check_people(state)
    _check_spells(state)


def _on_field(state: MidwayState, player: int, what: str) -> None:
    if player >= 0 and state.pos[player] < 0:
        raise PositionError(f"{what} {player_name(player)} is not on the field")


def _check_people(state: MidwayState) -> None:
    if state.carrier >= 0:
        _on_field(state, state.carrier, "the ball carrier")
        if state.ball_state != "held":
            raise PositionError("a ball with a carrier must be 'held'")
    elif state.ball_state == "held":
        raise PositionError("a 'held' ball needs a carrier")
    if state.ball_state and state.ball < 0:
        raise PositionError(f"a '{state.ball_state}' ball must be on the field")
    _on_field(state, state.punter, "the punter")


def _check_spells(state: MidwayState) -> None:
    images = state.images
    if len(images) > 3 or len(set(images)) != len(images):
        raise PositionError("board field 'images' must be at most 3 different hexes")
    for c in images:
        _within(c, 0, CELLS - 1, "a mirror image's hex")
    if state.caster >= 0:
        _on_field(state, state.caster, "the mirror-image caster")
        if state.chart.types[state.roster[state.caster]].magic != "mirror":
            raise PositionError(f"{player_name(state.caster)} cannot cast mirror image")
        if state.pos[state.caster] in images:
            raise PositionError("the caster stands on one of his images")
    elif images:
        raise PositionError("mirror images without a caster")
    if state.invisible >= 0:
        _on_field(state, state.invisible, "the invisible player")
        if state.chart.types[state.roster[state.invisible]].magic != "invisible":
            raise PositionError(f"{player_name(state.invisible)} cannot turn invisible")
        if state.vanish < 0:
            raise PositionError("an invisible player needs the hex where he vanished")
    elif state.vanish >= 0 or state.appear_at >= 0:
        raise PositionError("'vanish' and 'appear_at' are set without an invisible player")


# -- steps -----------------------------------------------------------------------------------

TEAM = (0, 1)
PLAYER = (0, NUM_PLAYERS - 1)
PLAYER_OR_NONE = (-1, NUM_PLAYERS - 1)
# Step fields by name: (lowest, highest) for ints and each int of a tuple; str choices.
STEP_INTS: dict[str, tuple[int, int]] = {
    "team": TEAM,
    "kicker": PLAYER,
    "blocker": PLAYER,
    "tackler": PLAYER,
    "player": PLAYER,
    "caster": PLAYER,
    "ettin": PLAYER,
    "mate": PLAYER,
    "moving": PLAYER_OR_NONE,
    "paused": PLAYER_OR_NONE,
    "row": (0, LENGTH - 1),
    "bonus": (0, 2),
    "moved": (0, MASK),
    "ordered": (0, MASK),  # BlockOrder: defenders whose two blockers are ordered
    "defender": PLAYER,
    "acted": (0, MASK),
    "distance": (0, LENGTH + 2),
    "points": (0, 1),
    "stage": (0, 2),  # PassResolution: 2 once the hidden defender was asked
    "ahead": (0, 5),
    "roller": TEAM,
    "toward": (0, CELLS - 1),
    "count": (0, 3),
    "left": (0, 20),
    "pairs": PLAYER,
    "queue": PLAYER,
    "rest": PLAYER,
    "order": PLAYER,
    "barred": PLAYER_OR_NONE,  # LooseBallRound: a blocked punter kept out (MW-PUNT-3)
}
STEP_STRS: dict[str, tuple[str, ...]] = {
    "mode": ("kick", "receive", "offense", "defense"),
    "what": ("pat", "fg"),
    "purpose": ("pass", "intercept", "kick", "punt"),
    "reason": ("fumble", "bounce", "punt", "block"),
}
# Fields whose meaning depends on the step.
STEP_OVERRIDES: dict[tuple[str, str], tuple[int, int]] = {
    ("TossChoice", "kicker"): (-1, 1),  # the kicking team, -1 until chosen
}


def check_step(step: Procedure[Any]) -> None:
    name = type(step).__name__
    for f in dataclasses.fields(step):
        value = getattr(step, f.name)
        where = f"step '{name}' field '{f.name}'"
        if isinstance(value, bool):
            continue
        if isinstance(value, str):
            choices = STEP_STRS.get(f.name)
            if choices is not None and value not in choices:
                raise PositionError(f"{where} is {value!r}, not one of {', '.join(choices)}")
            continue
        bounds = STEP_OVERRIDES.get((name, f.name)) or STEP_INTS.get(f.name)
        if bounds is None:
            raise PositionError(f"{where} cannot be checked")  # a new field: list it above
        for v in value if isinstance(value, tuple) else (value,):
            _within(v, *bounds, where)
    if name == "Phase" and len(getattr(step, "left")) != NUM_PLAYERS:  # noqa: B009
        raise PositionError(f"step 'Phase' field 'left' must hold {NUM_PLAYERS} numbers")
    if name == "BlockRoll" and len(getattr(step, "pairs")) % 2:  # noqa: B009
        raise PositionError("step 'BlockRoll' field 'pairs' must hold (blocker, defender) pairs")


def check_stack(state: MidwayState) -> None:
    """Every step in range, and the top one a decision or a die: positions are stored only
    where someone has to act, never on a bookkeeping step."""
    for step in state.stack:
        check_step(step)
    if not state.stack:
        return
    top = state.stack[-1]
    name = type(top).__name__
    try:
        actor = top.actor(state)
        if actor == AUTO:
            raise PositionError(
                f"the top step '{name}' needs no decision: a position must stop where a coach "
                "or a die decides"
            )
        choices = state.chance_outcomes() if actor == CHANCE else state.legal_actions()
        if name == "SetUp":
            state.clone().apply(state.actions.words["auto"])  # the formation can be completed
    except (ValueError, IndexError, KeyError, TypeError) as exc:
        if isinstance(exc, PositionError):
            raise
        raise PositionError(f"the top step '{name}' cannot go on from this board: {exc}") from None
    if not choices:
        raise PositionError(f"the top step '{name}' has nothing to choose from on this board")
