"""Builders for Paper Ultimate scenario tests: a position from a few readable arguments."""

from __future__ import annotations

from typing import Any

from monsterball.core.dice import ScriptedDice
from monsterball.core.game import GameState
from monsterball.games import get_game

SPEC = get_game("paper-ultimate")
ALL_PLAYERS = ("A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4")
TEAM = {"A": 0, "B": 1}


def position_data(
    players: dict[str, str | None],
    *,
    step: str | dict[str, Any],
    holder: str | None = None,
    disc: str | None = None,
    offense: str = "A",
    north: str = "A",
    score: tuple[int, int] = (0, 0),
    throws: int = 0,
    ply: int = 0,
    marker_only: str | None = None,
    surplus_must_leave: bool = False,
    loose_steps: int = 0,
    options: dict[str, Any] | None = None,
    **step_fields: Any,
) -> dict[str, Any]:
    """Position data whose only stack entry is ``step`` (a name plus ``step_fields``, or a
    whole step dict).

    ``players`` maps every player to a field (or None before set-up). The disc defaults to
    the holder's field. ``north`` is the team that defends the south end zone.
    """
    board_players = {name: players.get(name) for name in ALL_PLAYERS}
    if disc is None and holder is not None:
        disc = board_players[holder]
    entry = dict(step) if isinstance(step, dict) else {"step": step, **step_fields}
    return {
        "format": 1,
        "game": "paper-ultimate",
        "rules_version": SPEC.rules_version,
        "options": SPEC.options(**(options or {})).to_dict(),
        "ply": ply,
        "board": {
            "players": board_players,
            "disc": disc,
            "holder": holder,
            "offense": offense,
            "north_team": north,
            "score": list(score),
            "throws": throws,
            "winner": -1,
            "marker_only": marker_only,
            "surplus_must_leave": surplus_must_leave,
            "loose_steps": loose_steps,
        },
        "stack": [entry],
    }


def position(players: dict[str, str | None], **kwargs: Any) -> GameState:
    """The state for :func:`position_data`."""
    return SPEC.from_position(position_data(players, **kwargs))


def act(state: GameState, *notations: str, dice: ScriptedDice | None = None) -> list[Any]:
    """Apply actions by notation; chance nodes draw from ``dice``. Returns all events."""
    events: list[Any] = []
    for text in notations:
        while state.is_chance():
            assert dice is not None, "a chance event came up but no dice were scripted"
            events += state.apply(dice.choose(state.chance_outcomes()))
        events += state.apply(SPEC.parse_action(text))
    while dice is not None and dice.remaining and state.is_chance():
        events += state.apply(dice.choose(state.chance_outcomes()))
    return events


def legal(state: GameState) -> set[str]:
    return {a.notation() for a in state.legal_actions()}


def runs_of(state: GameState, player: str) -> set[str]:
    return {n.split("-")[1] for n in legal(state) if n.startswith(player + "-")}


def top(state: GameState) -> str:
    return type(state.stack[-1]).__name__ if state.stack else "terminal"


def spread_players() -> dict[str, str | None]:
    """Eight players far apart in mid-field, A holding nothing yet."""
    return {
        "A1": "e9",
        "A2": "a5",
        "A3": "i5",
        "A4": "a14",
        "B1": "i14",
        "B2": "c16",
        "B3": "g16",
        "B4": "e3",
    }


SPREAD = spread_players()


def build(players: dict[str, str | None], step: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Position data (north='A': team A defends rows 1-2 and attacks rows 17-18)."""
    return position_data(players, step=step, ply=10, **kwargs)


def state_of(*args: Any, **kwargs: Any) -> GameState:
    """The state for :func:`build`."""
    return SPEC.from_position(build(*args, **kwargs))
