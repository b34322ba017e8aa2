"""A game the opponent has left (issue 32; docs/web.md "Abandoned games"): once every
connection of the other side's players has been gone ABANDON_SECONDS, a player may claim the
win, or keep waiting. Online games only (hot-seat and bot games have nobody to leave); the game
then ends off the board as "abandoned", like a correspondence game whose side made no move in
time, and a rated game is settled. "Gone" is known by this server's open sockets: a restarted
server counts from when it opened the room again.
"""

from __future__ import annotations

import time
from typing import Any

from monsterball.web.live.game import Chair
from monsterball.web.live.room_types import Room

ABANDON_SECONDS = 60.0  # a side's connections gone this long: the others may claim the win


def gone_seconds(room: Room, chair: Chair, now: float) -> float:
    """How long ``chair`` has had no open socket here (0: it has one now)."""
    if any(w.chair is not None and w.chair.name == chair.name for w in room.watchers):
        return 0.0
    return now - room.left.get(chair.name, room.opened)


def absence(room: Room, chair: Chair | None) -> dict[str, Any]:
    """What ``chair`` is told of the other side's absence: how long each of its players has
    been gone, and whether the win may be claimed now (or in how many seconds)."""
    live = room.live
    now = time.monotonic()
    others = [
        c for c in live.chairs if c.kind == "human" and chair is not None and c.seat != chair.seat
    ]
    gone = {c.name: round(gone_seconds(room, c, now), 1) for c in others}
    eligible = (
        chair is not None
        and chair.kind == "human"
        and live.row.mode == "online"
        and not live.over()
        and bool(others)
    )
    # The side that left: a seat all of whose people are gone (the shortest absence counts).
    seats = {c.seat for c in others}
    waits = [
        max(0.0, ABANDON_SECONDS - min(gone[c.name] for c in others if c.seat == seat))
        for seat in seats
        if all(gone[c.name] > 0 for c in others if c.seat == seat)
    ]
    wait = min(waits) if waits and eligible else None
    return {
        "type": "abandon",
        "gone": gone,
        "claim_after": ABANDON_SECONDS,
        "claim_in": None if wait is None else round(wait, 1),
        "may_claim": wait == 0.0,
    }


def left_seat(room: Room, gone: dict[str, float]) -> int:
    """The seat whose every player has been gone ABANDON_SECONDS (``gone``: seconds by
    chair, as ``absence`` tells them): the side that loses the claimed game."""
    live = room.live
    return next(
        c.seat
        for c in live.chairs
        if c.name in gone
        and all(
            gone[o.name] >= ABANDON_SECONDS
            for o in live.chairs
            if o.name in gone and o.seat == c.seat
        )
    )
