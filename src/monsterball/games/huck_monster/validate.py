"""Checks on a loaded Huck + Monster position beyond each field's type: what every step may
hold, which step may lie on which, and that the board's players, spaces and the action under
way agree with each other and with the stack. Each failure is one PositionError line naming
the field; a position that passes can be viewed and played on without a traceback."""

from __future__ import annotations

from collections.abc import Collection
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from monsterball.core.errors import PositionError
from monsterball.games.huck_monster.actions import NUM_PLAYERS, player_name
from monsterball.games.huck_monster.field import CONE_PUSH_TARGET
from monsterball.games.huck_monster.matchup import CATCH, DARK_FACES, PIN_DARK, PIN_LIGHT, THROW

if TYPE_CHECKING:
    from monsterball.games.huck_monster.state import HuckMonsterState

TEAMS = (0, 1)
PLAYERS = range(NUM_PLAYERS)
# Counts are bounded by the dice (3d6, or a Team Pin's 18), the stats, the strategy results
# (Huck doubles) and a Continue's die on the remaining count; 255 is far above any of them.
COUNTS = range(0, 256)
UP_CALL_STAGES = (
    "start", "aim", "aim-now", "up-move", "fly", "catch", "catch-now", "guarded", "continue",
    "continue-start", "end",
)  # fmt: skip
STEP_FIELDS: dict[str, dict[str, Collection[Any]]] = {
    "ChooseOffense": {},
    "StartPoint": {"offense": TEAMS},
    "SetUp": {"team": TEAMS},
    "PlaceTheDisc": {"team": TEAMS},
    "PullRoll": {},
    "PullLanding": {"count": COUNTS},
    "TeamMoves": {
        "kind": ("normal", "catch", "loose", "stall"),
        "round": (1, 2),
        "stage": (0, 1, 2, 3),
    },
    "MoveRoll": {"team": TEAMS, "dice": (2, 3)},
    "Moving": {"team": TEAMS, "left": COUNTS, "free": range(0, 6)},
    "UpCall": {"stage": UP_CALL_STAGES},
    "Aim": {"count": range(1, 256)},
    "Steer": {"final": range(0, 1024), "count": range(1, 256)},
    "OffenseAction": {
        "kind": (THROW, CATCH),
        "stage": ("declare", "face", "dice", "redice", "strip"),
    },
    "Bid": {
        "player": PLAYERS,
        "role": ("mark", "intercept", "catch-mark", "challenge"),
        "stage": (
            "declare",
            "face",
            "dice",
            "redice",
            "monster",
            "hotbid",
            "hotbid-offense",
            "offense-redice",
            "decide",
            "late-call",
            "final",
        ),
        "face": ("", *DARK_FACES, *PIN_LIGHT, *PIN_DARK),
        "roll": COUNTS,
    },
    "Pivot": {},
    "RethrowChoice": {"stage": ("first", "second")},
    "DoubleTeam": {"stage": ("call", "move", "keep", "redice")},
    "UpMove": {},
    "Potholes": {},
    "ChooseGameStyle": {"team": TEAMS},
    "ContinueChoice": {},
    "ContinueOptOut": {"player": PLAYERS},
    "ContinueRoll": {"dice": (1, 3)},
    "ConePushSetUp": {"team": TEAMS},
    "ConeTurn": {"team": TEAMS, "stage": ("start", "move", "next")},
    "ConeThrowRoll": {"team": TEAMS},
    "ConeThrows": {"team": TEAMS, "left": COUNTS},
    "ConeBack": {"team": TEAMS, "left": range(1, 8)},
}
# The step directly beneath each step that runs on top of another (as the engine pushes
# them); every other step lies at the bottom of the stack.
UP_CALL_STEPS = (
    "Aim", "Steer", "OffenseAction", "Bid", "DoubleTeam", "UpMove", "ContinueChoice",
)  # fmt: skip
PARENTS: dict[str, tuple[str, ...]] = {
    **{name: ("UpCall",) for name in UP_CALL_STEPS},
    "ContinueOptOut": ("UpCall",),
    "ContinueRoll": ("UpCall",),
    "ChooseGameStyle": ("SetUp",),
    "MoveRoll": ("TeamMoves", "ConeTurn"),
    "Moving": ("TeamMoves", "ConeTurn"),
    "Pivot": ("TeamMoves",),
    "Potholes": ("TeamMoves", "UpCall", "RethrowChoice"),
    "ConeThrowRoll": ("ConeTurn",),
    "ConeThrows": ("ConeTurn",),
    "ConeBack": ("ConeThrows", "ConeTurn"),
}
# UpCall stages reached only once the Handler has aimed: a path and a Receiver exist.
AIMED = ("up-move", "fly", "catch", "catch-now", "guarded", "continue")


def validate_position(state: HuckMonsterState, setting_up: bool) -> None:
    """The board and stack checks a loaded position must pass."""
    validate_board(state, setting_up=setting_up)
    validate_stack(state)


def validate_stack(state: HuckMonsterState) -> None:
    names = [type(step).__name__ for step in state.stack]
    steps: tuple[Any, ...] = state.stack  # each step's own fields are read below
    for i, step in enumerate(steps):
        name = names[i]
        for field, values in STEP_FIELDS[name].items():
            value = getattr(step, field)
            if isinstance(value, bool) or value not in values:
                raise PositionError(f"step '{name}' field '{field}' is out of range: {value!r}")
        below = names[i - 1] if i else None
        if name in PARENTS and below not in PARENTS[name]:
            where = f"on '{below}'" if below else "at the bottom of the stack"
            raise PositionError(
                f"step '{name}' cannot lie {where} (only on {' or '.join(PARENTS[name])})"
            )
        if name not in PARENTS and i:
            raise PositionError(f"step '{name}' must be at the bottom of the stack")
        above = names[i + 1] if i + 1 < len(names) else None
        if (
            name == "UpCall"
            and step.stage in AIMED
            and not state.path
            and above
            not in (
                "Aim",
                "Steer",
            )
        ):
            raise PositionError(f"step 'UpCall' at stage '{step.stage}' needs the throw's 'path'")
        _check_step(state, name, step)


def _check_step(state: HuckMonsterState, name: str, step: Any) -> None:
    on_field = [p for p in range(NUM_PLAYERS) if state.pos[p] >= 0]
    if name == "Bid":
        if step.player not in on_field or step.player // 7 != state.defense:
            raise PositionError(f"step 'Bid': {player_name(step.player)} is not a defender in play")
        if not state.path or state.holder >= 0:
            raise PositionError("step 'Bid': a bid needs the disc in the air ('path', no 'holder')")
        at_catch = step.role in ("catch-mark", "challenge")
        if state.action != (CATCH if at_catch else THROW):
            need = CATCH if at_catch else THROW
            raise PositionError(f"step 'Bid': a {step.role} bid needs board 'action' {need}")
    if name == "ContinueOptOut" and (
        step.player not in on_field or step.player // 7 != state.offense
    ):
        raise PositionError(
            f"step 'ContinueOptOut': {player_name(step.player)} is not an attacker in play"
        )
    if name == "DoubleTeam" and any(p // 7 != state.defense for p in step.moved):
        raise PositionError("step 'DoubleTeam': 'moved' must list defenders")
    if name == "PlaceTheDisc" and step.team != state.defense:
        raise PositionError("step 'PlaceTheDisc': the pulling team (the defense) places the disc")
    if name in ("SetUp", "ConePushSetUp", "PlaceTheDisc") and state.disc >= 0:
        raise PositionError(f"step '{name}': the disc is placed after both teams line up")
    if name in ("SetUp", "ConePushSetUp", "PlaceTheDisc"):
        # The receiving team (the offense) lines up first, then the pulling team; the disc
        # goes down once everybody in play stands on his line.
        waiting = {t: [p for p in state.roster(t) if state.pos[p] < 0] for t in TEAMS}
        if name == "PlaceTheDisc" and (waiting[0] or waiting[1]):
            raise PositionError("step 'PlaceTheDisc': every player in play must be lined up first")
        if name != "PlaceTheDisc":
            if not waiting[step.team]:
                raise PositionError(f"step '{name}': team {'AB'[step.team]} has nobody to place")
            first, second = state.offense, state.defense
            if step.team == second and waiting[first]:
                raise PositionError(f"step '{name}': the receiving team lines up first")
            if step.team == first and len(waiting[second]) < len(state.roster(second)):
                raise PositionError(f"step '{name}': the pulling team lines up second")
    if name == "UpCall" and step.stage == "end" and not state.outcome:
        raise PositionError("step 'UpCall' at stage 'end' needs an 'outcome'")
    if name == "Steer" and (
        not state.options.steer
        or state.receiver < 0
        or state.holder >= 0
        or not state.field.size > step.final
        or not state.adjacent(step.final) >> state.pos[state.receiver] & 1
        or not step.next_spaces(state)
    ):
        raise PositionError(
            "step 'Steer' needs option steer, a throw in the air with its 'receiver', and a "
            "'final' stop the disc can still reach"
        )
    if name in ("Aim", "Steer", "UpMove", "ContinueChoice", "ContinueRoll") and (
        state.action != THROW
    ):
        raise PositionError(f"step '{name}' needs board 'action' throw")
    if name in ("UpMove", "ContinueChoice", "ContinueOptOut") and not state.path:
        raise PositionError(f"step '{name}' needs the throw's 'path'")
    if name == "OffenseAction" and step.stage != "declare" and state.action != step.kind:
        raise PositionError(f"step 'OffenseAction' needs board 'action' {step.kind}")
    if name == "OffenseAction" and step.kind == CATCH and not state.path:
        raise PositionError("step 'OffenseAction' for a catch needs the throw's 'path'")
    if name in ("UpCall", *UP_CALL_STEPS) and state.style == "cone-push":
        raise PositionError(f"step '{name}' has no place in Cone Push")
    if name.startswith("Cone") and state.style != "cone-push":
        raise PositionError(f"step '{name}' belongs to Cone Push only")


def validate_board(state: HuckMonsterState, *, setting_up: bool) -> None:
    """The board's references agree: who holds, throws, receives and takes the disc, the
    disc's path, the action under way, the style and the score."""
    opts = state.options

    def in_play(player: int, team: int | None, what: str) -> None:
        if player < 0:
            return
        if state.pos[player] < 0:
            raise PositionError(f"board '{what}' {player_name(player)} is not on the field")
        if team is not None and player // 7 != team:
            side = "offense" if team == state.offense else "defense"
            raise PositionError(f"board '{what}' {player_name(player)} must be on the {side}")

    in_play(state.holder, state.offense, "holder")
    in_play(state.receiver, state.offense, "receiver")
    in_play(state.thrower, state.offense, "thrower")
    in_play(state.hammered, state.defense, "hammered")
    in_play(state.taker, state.defense, "taker")
    if state.marks >= 0:
        for p in range(NUM_PLAYERS):
            if state.marks >> p & 1:
                in_play(p, state.defense, "marks")
        if not state.path or (state.marks and state.progress >= 0):
            raise PositionError("board 'marks' belong to a throw still at the Handler's disc")
    if state.receiver >= 0 and state.receiver == state.holder:
        raise PositionError("board 'receiver' cannot be the Handler holding the disc")
    style = state.style
    allowed = ("standard", "pothole", "hot-hex") if opts.style_each_point else (opts.default_style,)
    if style not in allowed:
        raise PositionError(f"board 'style' must be {' or '.join(allowed)} with these options")
    if style == "standard" and state.cones:
        raise PositionError("board 'cones': the standard game has no cones")
    if style == "cone-push" and (state.disc >= 0 or state.holder >= 0 or state.action):
        raise PositionError("board 'disc': in Cone Push the disc never rests on the field")
    if style != "cone-push" and not setting_up and state.stack and state.disc < 0:
        raise PositionError("board 'disc' must be on the field once the pull is thrown")
    path = state.path
    steering = bool(state.stack) and type(state.stack[-1]).__name__ == "Steer"  # HM-R9
    # (not necessarily distinct: a Hammer path may go out to its defender and back, HM-R20)
    if any(not state.adjacent(a) >> b & 1 for a, b in pairwise(path)):
        raise PositionError("board 'path' must be spaces each next to the one before")
    if (state.receiver >= 0 or state.thrower >= 0) and not path and not steering:
        raise PositionError("board 'receiver' and 'thrower' need the throw's 'path'")
    if path and (not state.action or state.receiver < 0):
        raise PositionError("board 'path' needs an 'action' and a 'receiver'")
    if path and not steering and not state.adjacent(path[-1]) >> state.pos[state.receiver] & 1:
        raise PositionError("board 'path' must end next to the 'receiver'")
    if not path and (state.progress != -1 or state.continue_from):
        raise PositionError("board 'progress' and 'continue_from' need a 'path'")
    if state.continue_from > len(path):
        raise PositionError("board 'continue_from' must index the path")
    if state.action == CATCH and (not path or state.progress != len(path) - 1):
        raise PositionError("board 'action' catch needs the disc at the end of its 'path'")
    if state.action == CATCH and state.disc != path[-1]:
        raise PositionError("board 'disc' must lie at the end of the path during a catch")
    if state.outcome in ("turnover", "intercepted") and state.taker < 0:
        raise PositionError(f"board 'outcome' {state.outcome} needs a 'taker'")
    if state.outcome in ("catch", "contested") and state.receiver < 0:
        raise PositionError(f"board 'outcome' {state.outcome} needs a 'receiver'")
    if not 0 <= state.base < 256:
        raise PositionError("board 'base' must be 0..255")
    cap = opts.max_up_calls
    if cap and state.up_calls > cap and state.winner == -1:
        raise PositionError(f"board 'up_calls' {state.up_calls} is past the cap ({cap})")
    if state.winner == -1 and _has_won(state):
        raise PositionError("board 'score': a team has already won, so 'winner' must say who")


def _has_won(state: HuckMonsterState) -> bool:
    a, b = state.score
    if state.style == "cone-push":
        return max(a, b) >= CONE_PUSH_TARGET
    return state.options.wins(a, b) or state.options.wins(b, a)
