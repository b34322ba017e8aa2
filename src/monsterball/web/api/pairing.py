"""Quick pairing (docs/web.md, "Quick pairing"): an unlisted challenge matched with the
closest-rated player who waits for the same game, clock and rating mode.

Two players match when their rating gap is within the window of the one who has waited
longer: 200 points, widening by 10 a second of waiting (at most 1,000). The match is made
when the second player asks, and again each time a waiting page checks in (every few
seconds): so two players whose windows come to overlap while both wait are paired without
either asking again, and both lobbies are told ``started``. Waiting lasts while the page
checks in: a request not checked on for ``CHECK_IN`` seconds lapses (the page was closed),
and none waits longer than ``QUICK_TTL``. "Stop waiting" withdraws it.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import secrets
from typing import Any

import anyio
from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from monsterball.games import get_game
from monsterball.web.api.accounts import require, social
from monsterball.web.api.challenges import (
    check_game,
    rating_of,
    rating_value,
    rooms_of,
    start_game,
    store_of,
)
from monsterball.web.api.inputs import ClockInput, time_control
from monsterball.web.api.services import Social, address, services
from monsterball.web.store.people import Account, ChallengeRow, aware, now

QUICK_TTL = dt.timedelta(minutes=5)  # the longest anyone waits
CHECK_IN = dt.timedelta(seconds=20)  # a wait not checked on for this long lapses
PAIR_WINDOW, PAIR_WIDENS_PER_SECOND, PAIR_WINDOW_MAX = 200.0, 10.0, 1000.0
router = APIRouter()


class Pairing(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=40)
    clock: ClockInput | None = None
    rated: StrictBool = False


def pairing_lock(request: Request) -> asyncio.Lock:
    """One match at a time on this server (rows closed by a guarded update across servers)."""
    return services(request).pairing_lock


def window(waiting: ChallengeRow) -> float:
    waited = (now() - aware(waiting.created_at)).total_seconds()
    return min(PAIR_WINDOW + PAIR_WIDENS_PER_SECOND * max(0.0, waited), PAIR_WINDOW_MAX)


def lapses_at(row: ChallengeRow) -> dt.datetime:
    """When an open wait lapses if its page does not check in again."""
    return min(now() + CHECK_IN, aware(row.created_at) + QUICK_TTL)


async def best_match(
    request: Request,
    own: Social,
    account: int,
    wants: tuple[str, dict[str, Any] | None, bool],
    mine: ChallengeRow | None,
) -> list[ChallengeRow]:
    """The waiting rows ``account`` may be paired with, best first: same game, clock and
    rated flag, the gap within the longer waiter's window, no block either way."""
    game = wants[0]
    store = store_of(request)
    rating = rating_value(await anyio.to_thread.run_sync(rating_of, store, account, game))
    waiting = await anyio.to_thread.run_sync(lambda: own.people.open_challenges(quick=True))
    found = []
    for row in waiting:
        if row.account_id == account or (row.game, row.clock, row.rated) != wants:
            continue
        theirs = await anyio.to_thread.run_sync(rating_of, store, row.account_id, game)
        gap = abs(rating_value(theirs) - rating)
        if gap > max(window(row), window(mine) if mine is not None else 0.0):
            continue
        blocked = await anyio.to_thread.run_sync(
            own.people.blocked_by_any, {row.account_id}, account
        ) or await anyio.to_thread.run_sync(own.people.blocked_by_any, {account}, row.account_id)
        if not blocked:
            found.append((gap, aware(row.created_at), row))
    return [row for _, _, row in sorted(found, key=lambda c: (c[0], c[1]))]


async def pair_waiting(request: Request, own: Social, account: Account, mine: ChallengeRow) -> bool:
    """Match ``account``'s open wait with another waiting player if one fits now: both rows
    are closed together, the game starts and both lobbies are told. Whether it matched."""
    wants = (mine.game, mine.clock, mine.rated)
    for other in await best_match(request, own, account.id, wants, mine):
        if not await anyio.to_thread.run_sync(own.people.close_pair, mine.id, other.id, "accepted"):
            again = await anyio.to_thread.run_sync(own.people.challenge, mine.id)
            if again is None or again.status != "open":
                return False  # mine was matched meanwhile (the answer reads it)
            continue  # the other was taken meanwhile
        # The one who waited longer stands as the poster (start_game tells it), the other
        # as the taker.
        first, second = sorted((mine, other), key=lambda r: aware(r.created_at))
        taker = await anyio.to_thread.run_sync(own.people.account, second.account_id)
        if taker is None:  # (an account gone meanwhile)
            continue
        _, answer = await start_game(rooms_of(request), own, first, taker)
        await anyio.to_thread.run_sync(own.people.set_challenge_game, second.id, answer["id"])
        started = {"type": "started", "challenge": second.id, "id": answer["id"]}
        await own.hub.tell(second.account_id, {**started, "url": answer["url"]})
        return True
    return False


def answer_for(row: ChallengeRow | None) -> dict[str, Any]:
    """How an account's latest quick pairing stands, as the API answers."""
    if row is None:
        return {"status": "none"}
    if row.status == "accepted" and row.game_id is not None:
        url = f"/play/{row.game_id}"
        return {"status": "started", "challenge": row.id, "id": row.game_id, "url": url}
    if row.status == "open" and aware(row.expires_at) > now():
        since = aware(row.created_at)
        until = since + QUICK_TTL
        return {
            "status": "waiting",
            "challenge": row.id,
            "since": since.isoformat(),
            "expires": until.isoformat(),
        }
    return {"status": "none", "challenge": row.id}


@router.post("/api/pairing")
async def quick_pair(body: Pairing, request: Request) -> dict[str, Any]:
    """Match with the closest-rated player waiting for the same game, clock and rating
    mode, or wait (the lobby's socket says ``started`` when someone comes; the page checks
    in with ``GET /api/pairing`` to keep waiting)."""
    account = await require(request)
    own = social(request)
    check_game(body.game, None, {}, None)
    time_control(body.clock, social(request).limits.min_clock_seconds)
    services(request).clients.new_game(address(request))
    game = get_game(body.game).id
    clock = body.clock.model_dump() if body.clock else None
    async with pairing_lock(request):
        waiting = await anyio.to_thread.run_sync(lambda: own.people.open_challenges(quick=True))
        for row in waiting:
            if row.account_id == account.id:  # asking again: the old entry is replaced
                await anyio.to_thread.run_sync(own.people.close_challenge, row.id, "withdrawn")
        for row in await best_match(request, own, account.id, (game, clock, body.rated), None):
            if await anyio.to_thread.run_sync(own.people.close_challenge, row.id, "accepted"):
                _, answer = await start_game(rooms_of(request), own, row, account)
                return {"status": "started", **answer}
        created = now()
        row = ChallengeRow(
            id=secrets.token_hex(8),
            account_id=account.id,
            game=game,
            preset=None,
            options={},
            clock=clock,
            rated=body.rated,
            seat=None,
            quick=True,
            status="open",
            created_at=created,
            expires_at=created + CHECK_IN,
        )
        await anyio.to_thread.run_sync(own.people.add_challenge, row)
    return answer_for(row)


@router.get("/api/pairing")
async def pairing_state(request: Request) -> dict[str, Any]:
    """The asker's latest quick pairing: ``waiting``, ``started`` (the game it was matched
    into, with its url) or ``none`` (withdrawn, lapsed or never asked). Changes nothing."""
    account = await require(request, write=False)
    own = social(request)
    return answer_for(await anyio.to_thread.run_sync(own.people.newest_quick, account.id))


@router.post("/api/pairing/check-in")
async def check_in(request: Request) -> dict[str, Any]:
    """A waiting page checks in: the wait is kept for another ``CHECK_IN`` seconds and
    matched now if someone fits (windows widen as both wait); answered as the GET."""
    account = await require(request)
    own = social(request)
    row = await anyio.to_thread.run_sync(own.people.newest_quick, account.id)
    if row is not None and row.status == "open":
        if await anyio.to_thread.run_sync(own.people.keep_waiting, row.id, lapses_at(row)):
            async with pairing_lock(request):
                await pair_waiting(request, own, account, row)
        row = await anyio.to_thread.run_sync(own.people.challenge, row.id)
    return answer_for(row)


@router.delete("/api/pairing")
async def stop_pairing(request: Request) -> dict[str, Any]:
    """Stop waiting: the asker's open quick pairings are withdrawn."""
    account = await require(request)
    own = social(request)
    waiting = await anyio.to_thread.run_sync(lambda: own.people.open_challenges(quick=True))
    stopped = 0
    for row in waiting:
        if row.account_id == account.id:
            stopped += await anyio.to_thread.run_sync(
                own.people.close_challenge, row.id, "withdrawn"
            )
    return {"stopped": stopped}
