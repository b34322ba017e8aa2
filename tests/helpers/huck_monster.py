"""Shared builders for Huck + Monster scenario tests: a position from a few named players,
and a way to play scripted actions (decisions and dice) on it."""

from __future__ import annotations

from typing import Any

from monsterball.core.actions import Event
from monsterball.core.procedures import Procedure, procedure_to_dict
from monsterball.games import get_game
from monsterball.games.huck_monster import HuckMonsterOptions, HuckMonsterState
from monsterball.games.huck_monster import events as ev
from monsterball.games.huck_monster.actions import player_name
from monsterball.games.huck_monster.rules.moves import Moving, TeamMoves
from monsterball.games.huck_monster.rules.upcall import OffenseAction, UpCall
from monsterball.games.huck_monster.state import BOARD_KEYS

SPEC = get_game("huck-monster")

# Players not named by a test wait on their own back row, far from the play.
PARK = {
    **{f"A{i + 1}": f"{'abcdefg'[i]}1" for i in range(7)},
    **{f"B{i + 1}": f"{'abcdefg'[i]}17" for i in range(7)},
}

BLANK_BOARD: dict[str, Any] = {
    "disc": None,
    "holder": None,
    "offense": "A",
    "north_team": "A",
    "score": [0, 0],
    "winner": -1,
    "up_calls": 0,
    "strategy_used": [False, False],
    "action": "",
    "base": 0,
    "light": "",
    "halved": False,
    "receiver": None,
    "path": [],
    "progress": -1,
    "bidders": [],
    "hammered": None,
    "poach": False,
    "outcome": "",
    "taker": None,
    "coach_turn": [0, 0],
    "cones": [],
    "style": "standard",
    "thrower": None,
    "continuing": False,
    "continue_from": 0,
    "cone_stacks": {},
    "dump_next": False,
    "marks": None,
    "up_moved": False,
}
assert set(BLANK_BOARD) | {"players"} == set(BOARD_KEYS)


def options(**changes: Any) -> HuckMonsterOptions:
    opts = SPEC.options(**changes)
    assert isinstance(opts, HuckMonsterOptions)
    return opts


def position(
    players: dict[str, str | None],
    *,
    stack: list[Procedure[Any]],
    opts: HuckMonsterOptions | None = None,
    park: bool = True,
    **board: Any,
) -> HuckMonsterState:
    """A state with ``players`` placed (the rest parked unless ``park`` is False)."""
    opts = opts or options()
    board.setdefault("style", opts.default_style)  # the point's style follows the options
    placed: dict[str, str | None] = dict(PARK) if park else {n: None for n in PARK}
    placed.update(players)
    data = {
        "format": 1,
        "game": SPEC.id,
        "rules_version": SPEC.rules_version,
        "options": opts.to_dict(),
        "ply": 0,
        "board": {**BLANK_BOARD, "players": placed, **board},
        "stack": [procedure_to_dict(p) for p in stack],
    }
    state = SPEC.from_position(data)
    assert isinstance(state, HuckMonsterState)
    state._settle()
    return state


def play(state: HuckMonsterState, *notations: str) -> list[Event]:
    """Apply each action (checked); return every event they caused."""
    out: list[Event] = []
    for text in notations:
        out.extend(state.apply(SPEC.parse_action(text)))
    return out


def texts(events: list[Event]) -> list[str]:
    return [e.describe() for e in events]


def kinds(events: list[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


def legal(state: HuckMonsterState) -> set[str]:
    return {a.notation() for a in state.legal_actions()}


def name(state: HuckMonsterState, player: str) -> str:
    """The space a player stands on."""
    from monsterball.games.huck_monster.actions import parse_player

    return state.field.name(state.pos[parse_player(player)])


def neighbours(state: HuckMonsterState, cell: str) -> set[str]:
    c = state.field.parse_cell(cell)
    return {state.field.name(n) for n in state.field.neighbours[c]}


# The lane (straight throws keep the path fixed): Handler A1 on e7 with the disc on e8; the
# throw to A2 (d12) flies the NW ray e9, d10 and stops on d11. B1 marks the disc (f8); B2 (d9)
# and B3 (e10) are next to the path; B4 (c11) is next to the disc's stop (a Mark at the catch);
# B5 (e13) is next to the Receiver only (a Challenge).
LANE = {"A1": "e7", "A2": "d12", "B1": "f8", "B2": "d9", "B3": "e10", "B4": "c11", "B5": "e13"}


def lane(
    players: dict[str, str | None] | None = None,
    *,
    strategy: bool = False,
    used: tuple[bool, bool] = (False, False),
    cones: list[str] | None = None,
    **opts: object,
) -> HuckMonsterState:
    layout: dict[str, str | None] = dict(LANE)
    layout.update(players or {})
    return position(
        {k: v for k, v in layout.items()},
        disc="e8",
        holder="A1",
        stack=[UpCall("aim"), OffenseAction("throw", "declare")],
        opts=options(throw_path="straight", strategy_dice=strategy, **opts),  # type: ignore[arg-type]
        strategy_used=list(used),
        up_calls=1,
        cones=cones or [],
    )


def bids(events: list[ev.Event]) -> list[tuple[str, str, bool]]:
    return [
        (player_name(e.player), e.role, e.defense_wins)
        for e in events
        if isinstance(e, ev.BidDecided)
    ]


def top(state: HuckMonsterState) -> object:
    return state.stack[-1]


def moving(
    players: dict[str, str | None], team: int, left: int, **board: object
) -> HuckMonsterState:
    """A team-move step: ``team`` has ``left`` spaces of its count still to move."""
    return position(players, stack=[TeamMoves("normal", 1, 2), Moving(team, left)], **board)


def scoring_throw(receiver_cell: str, **board: object) -> HuckMonsterState:
    """A1 on e11 with the disc on e12; A2 waits at ``receiver_cell``; no defenders near."""
    return position(
        {"A1": "e11", "A2": receiver_cell},
        disc="e12",
        holder="A1",
        stack=[UpCall("aim"), OffenseAction("throw", "declare")],
        opts=options(strategy_dice=False, **board.pop("opts", {})),  # type: ignore[arg-type]
        up_calls=1,
        **board,
    )
