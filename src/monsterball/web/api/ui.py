"""Routes that only the browser client needs (issue 14): the "How to play" pages, board
pictures for the lobby, a game's full move list, and rematches (web/live/rematch.py).

Kept apart from the documented game API (web/api/games.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Depends, Path, Request, Response
from fastapi.responses import FileResponse, PlainTextResponse
from pydantic import BaseModel, Field

from monsterball.bots.heuristic import heuristic_for
from monsterball.core.game import CHANCE
from monsterball.games import all_games, get_game
from monsterball.guides.rulebooks import rules_document
from monsterball.web.api.accounts import seat_account, seated_room
from monsterball.web.api.services import Own, Services, address, services
from monsterball.web.hardening.security import MAX_TOKEN, GameId, seat_token
from monsterball.web.live.game import Rejected
from monsterball.web.live.history import Replay
from monsterball.web.live.rematch import Rematches
from monsterball.web.live.rooms import Room

STATIC = resources.files("monsterball.web") / "static"


class SeatBody(BaseModel):
    token: str | None = Field(default=None, max_length=MAX_TOKEN)


@cache
def start_boards() -> dict[str, Any]:
    """Each game's field at the start of a standard game (the lobby draws them small)."""
    return {spec.id: spec.new_game(spec.options(None)).board(None) for spec in all_games()}


SHOWN_OUTCOMES = 6  # kinds of outcome listed per decision; the rarer ones are summed up


def _summed(classes: dict[str, Fraction]) -> list[tuple[str, Fraction]]:
    """The likeliest kinds first; past SHOWN_OUTCOMES, the rest as one line."""
    ranked = sorted(classes.items(), key=lambda kv: (-kv[1], kv[0]))
    if len(ranked) <= SHOWN_OUTCOMES:
        return ranked
    kept, rest = ranked[: SHOWN_OUTCOMES - 1], ranked[SHOWN_OUTCOMES - 1 :]
    return [*kept, (f"{len(rest)} other outcomes", sum((p for _, p in rest), Fraction(0)))]


def decision_odds(state: Any, seat: int) -> dict[str, Any]:
    """For each priced decision the acting seat may take now, the exact chance of each kind of
    outcome of the die it rolls next. Worked out on a copy in which what the seat may not see
    is sampled afresh (the game's determinize), so the figures reveal no secret."""
    heuristic = heuristic_for(state.spec)
    if heuristic.determinize is not None:
        state = heuristic.determinize(state, seat, random.Random(state.ply))
    priced = state.spec.odds.priced if state.spec.odds else ()
    out = []
    for action in state.legal_actions():
        text = action.notation()
        if text.split()[0] not in priced:
            continue
        after = state.clone()
        after.apply_unchecked(action)
        if after.is_terminal() or after.current_player() != CHANCE:
            continue
        classes: dict[str, Fraction] = {}
        for outcome, p in after.chance_outcomes():
            trial = after.clone()
            events = trial.apply_unchecked(outcome)
            key = events[0].in_brief() if events else outcome.notation()
            classes[key] = classes.get(key, Fraction(0)) + Fraction(p)
        out.append(
            {
                "action": text,
                "roll": after.stack[-1].describe() if after.stack else "",
                "outcomes": [
                    {"what": k, "p": float(v), "exact": f"{v.numerator}/{v.denominator}"}
                    for k, v in _summed(classes)
                ],
            }
        )
    return {"ply": state.ply, "decisions": out}


CHANCE_POINTS = 600  # the graph's resolution; swings are found over every step


def chances(history: Replay) -> dict[str, Any]:
    """Seat A's chances over a game, from the game heuristic's evaluation of every step
    ((1 + value) / 2), and the biggest swings with the move that caused each."""
    heuristic = heuristic_for(history.live.spec)
    state = history.checkpoints[0].clone()
    spec = state.spec
    values = [heuristic.value(state, 0)]
    for text in history.actions:
        state.apply_unchecked(spec.parse_action(text))
        values.append(heuristic.value(state, 0))
    chance = [round((1 + v) / 2, 4) for v in values]
    stride = max(1, len(chance) // CHANCE_POINTS)
    points = [[i, chance[i]] for i in range(0, len(chance), stride)]
    if points[-1][0] != len(chance) - 1:
        points.append([len(chance) - 1, chance[-1]])
    log = history.live.log
    steps = sorted(range(1, len(chance)), key=lambda i: -abs(chance[i] - chance[i - 1]))
    swings = [
        {
            "step": i,
            "before": chance[i - 1],
            "after": chance[i],
            "by": log[i - 1].by if i - 1 < len(log) else "",
            "action": log[i - 1].public if i - 1 < len(log) else history.actions[i - 1],
            "events": log[i - 1].events if i - 1 < len(log) else [],
        }
        for i in sorted(steps[:5])
        if abs(chance[i] - chance[i - 1]) > 0.02
    ]
    return {"points": points, "swings": swings, "steps": len(chance) - 1}


def rebuild_limit(request: Request) -> Callable[[], None]:
    """The per-address limit on replays rebuilt from the store (web/hardening/limits.py, sec)."""
    address = request.client.host if request.client else "unknown"
    return lambda: services(request).clients.rebuild(address)


router = APIRouter()


def rematches(own: Services) -> Rematches:
    return own.part(Rematches, lambda: Rematches(own.rooms, own.store, lambda: own.social))


def page() -> FileResponse:
    return FileResponse(str(STATIC / "index.html"), media_type="text/html")


router.get("/rules/{game}", include_in_schema=False)(page)


@router.get("/api/rules/{game}")
async def rules(game: Annotated[str, Path(max_length=40)]) -> PlainTextResponse:
    try:
        spec = get_game(game)
    except Exception:
        raise Rejected("not-found", f"no game '{game}'") from None
    text = rules_document(spec.id)
    if text is None:
        raise Rejected("not-found", f"no rules page for '{spec.id}' in this installation")
    return PlainTextResponse(text, media_type="text/markdown")


@router.get("/api/ui/boards")
async def boards() -> dict[str, Any]:
    return start_boards()


@router.get("/api/games/{game_id}/moves")
async def moves(
    game_id: GameId,
    token: Annotated[str | None, Depends(seat_token)],
    request: Request,
    own: Own,
) -> dict[str, Any]:
    """Every move so far, as the seat of the token (``Seat-Token`` or ``?token=``) may
    see it (spectators: public); the n-th entry leads to step n of the replay API."""
    room = await own.rooms.get(game_id)
    chair = room.live.chair_for(token, None if token else await seat_account(request))
    history = await own.rooms.history(game_id, rebuild_limit(request))
    seat = chair.seat if chair else None
    return {"moves": [e.for_seat(seat) for e in history.live.log]}


@router.get("/api/games/{game_id}/odds")
async def odds(game_id: GameId, own: Own) -> dict[str, Any]:
    """While a decision is aimed (Huck + Monster's throw): the exact chance of each target
    (the game's ``spec.odds.targets``; none for a game without)."""
    room = await own.rooms.get(game_id)
    hooks = room.live.spec.odds
    if hooks is None or hooks.targets is None:
        return {"targets": [], "caveats": []}
    state = room.live.state.clone()  # the room may move on while this is computed
    return dict(await anyio.to_thread.run_sync(hooks.targets, state))


@router.get("/api/games/{game_id}/chances")
async def game_chances(game_id: GameId, request: Request, own: Own) -> dict[str, Any]:
    """Finished games only: an evaluation of a game in play would read its secrets."""
    row = own.store.get(game_id)
    if row is None:
        raise Rejected("not-found", f"no game '{game_id}'")
    if row.status != "finished":
        raise Rejected("not-finished", "the chances graph is drawn when the game ends")
    if game_id not in own.chances:
        services(request).clients.rebuild(request.client.host if request.client else "")
        history = await own.rooms.history(game_id)
        own.chances[game_id] = await anyio.to_thread.run_sync(chances, history)
        while len(own.chances) > 32:
            own.chances.pop(next(iter(own.chances)))
    return own.chances[game_id]


@router.get("/api/games/{game_id}/outcomes")
async def outcomes(
    game_id: GameId,
    token: Annotated[str | None, Depends(seat_token)],
    request: Request,
    own: Own,
) -> dict[str, Any]:
    """The odds of the priced decisions (``spec.odds.priced``; Monsters of the Midway:
    tackle, block, pass, field goal, kick ...) the token's chair may take now, from the
    tables the engine rolls on; none without a token."""
    room = await own.rooms.get(game_id)
    live = room.live
    chair = live.chair_for(token, None if token else await seat_account(request))
    if live.spec.odds is None or not live.spec.odds.priced or not live.may_act(chair):
        return {"ply": live.state.ply, "decisions": []}
    state = live.state.clone()  # the room may move on while this is computed
    seat = state.current_player()
    return await anyio.to_thread.run_sync(decision_odds, state, seat)


@router.get("/api/games/{game_id}/presence")
async def presence(game_id: GameId, own: Own) -> dict[str, Any]:
    """Open sockets per chair, and spectators: who is at the table now. Reads the rooms
    in memory only (a game nobody has opened since a restart has nobody connected)."""
    room = own.rooms.rooms.get(game_id)
    if room is None and own.store.get(game_id) is None:
        raise Rejected("not-found", f"no game '{game_id}'")
    counts: dict[str, int] = {}
    spectators = 0
    for watcher in room.watchers if room else ():
        if watcher.chair is None:
            spectators += 1
        else:
            counts[watcher.chair.name] = counts.get(watcher.chair.name, 0) + 1
    return {"chairs": counts, "spectators": spectators}


@router.get("/api/games/{game_id}/roster")
async def roster(game_id: GameId, own: Own) -> dict[str, Any]:
    room = await own.rooms.get(game_id)
    roster = room.live.spec.views.roster
    panel = roster(room.live.state) if roster is not None else None
    if panel is None:
        raise Rejected("bad-request", f"{room.live.spec.title} has no roster to show")
    return dict(panel)


async def seated_chair(
    own: Services, game_id: str, token: str | None, request: Request
) -> tuple[Room, Any]:
    if own.store.get(game_id) is None:
        raise Rejected("not-found", f"no game '{game_id}'")
    return await seated_room(own.rooms, game_id, token, request)


@router.post("/api/games/{game_id}/rematch", status_code=201)
async def rematch(
    game_id: GameId, body: SeatBody, request: Request, response: Response, own: Own
) -> dict[str, Any]:
    """Ask for (or accept) a rematch of a finished game: the same rules, mode, bots and
    clock, every seat swapped (docs/web.md, "Rematch"). Only a seated player may ask (its
    token, or its account's session); 201 with the asker's own new link once everyone
    seated agreed, else 202 with the offer the others are told of."""
    client = address(request)
    own.clients.new_game(client)  # counted against its address's limit (429 past it)
    room, asker = await seated_chair(own, game_id, body.token, request)
    status, answer = await rematches(own).ask(room, asker, request, client)
    response.status_code = status
    return answer


@router.post("/api/games/{game_id}/resign")
async def resign(game_id: GameId, body: SeatBody, request: Request, own: Own) -> dict[str, Any]:
    """The seat of the token (or the session's account) gives the game up and loses it
    (docs/web.md, "Resign"); everyone watching is told the end."""
    room, chair = await seated_chair(own, game_id, body.token, request)
    await own.rooms.resign(room, chair)
    return room.live.message_for(chair)


@router.get("/api/games/{game_id}/rematch")
async def rematch_offer(
    game_id: GameId,
    token: Annotated[str | None, Depends(seat_token)],
    request: Request,
    own: Own,
) -> dict[str, Any]:
    """The open rematch offer as the seat of the token sees it (its own new link once the
    rematch started); ``state`` "none" when there is none."""
    _, chair = await seated_chair(own, game_id, token, request)
    offer = rematches(own).current(game_id)
    if offer is None or chair is None:
        return {"type": "rematch", "state": "none"}
    return offer.view(chair)


@router.post("/api/games/{game_id}/rematch/decline")
async def rematch_decline(
    game_id: GameId, body: SeatBody, request: Request, own: Own
) -> dict[str, Any]:
    """Decline the rematch offer (the asker: withdraw it); the players' pages are told."""
    room, chair = await seated_chair(own, game_id, body.token, request)
    return await rematches(own).decline(room, chair)
